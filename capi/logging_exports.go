package main

// Exports of the logging section. Like AMD's, these return statuses only: they never record a
// last error and never log about the logger.

/*
#include <stdlib.h>
#include "boundary.h"
*/
import "C"

import (
	"unsafe"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/logging"
)

//export hipdnnGo_LoggingCallback
func hipdnnGo_LoggingCallback(sev C.int, msg *C.char) {
	defer func() { _ = recover() }()
	s := api.Severity(sev)
	if msg == nil || !logging.Enabled(s) {
		return
	}
	logging.External(s, C.GoString(msg))
}

// userSink delivers lines to a C callback through the trampoline.
type userSink struct{ cb, handle uintptr }

func (u userSink) Deliver(sev api.Severity, line string) {
	cs := C.CString(line)
	defer C.free(unsafe.Pointer(cs))
	C.hipdnn_capi_call_user_log(C.uintptr_t(u.cb), C.uintptr_t(u.handle), C.int(sev), cs)
}

//export hipdnnGo_SetUserLogCallback
func hipdnnGo_SetUserLogCallback(cb C.uintptr_t, minLevel, mode C.int, userHandle C.uintptr_t) (st C.int) {
	// Like the level exports: statuses only, no last error, no log record.
	defer guardQuiet(&st)
	badParam := C.int(api.HIPDNN_STATUS_BAD_PARAM)
	switch {
	case cb == 0, userHandle == 0:
		return badParam
	case !api.LogCallbackMode(mode).IsValid():
		return badParam
	case !api.Severity(minLevel).IsValid():
		return badParam
	}
	key := logging.UserKey{Callback: uintptr(cb), Handle: uintptr(userHandle)}
	err := logging.SetUserCallback(key, userSink{uintptr(cb), uintptr(userHandle)}, api.Severity(minLevel), mode == C.int(api.HIPDNN_LOG_CALLBACK_ASYNC))
	if err != nil {
		return badParam // removing a pair that was never registered
	}
	return C.int(api.HIPDNN_STATUS_SUCCESS)
}

//export hipdnnGo_SetGlobalLogLevel
func hipdnnGo_SetGlobalLogLevel(level C.int) (st C.int) {
	defer guardQuiet(&st)
	if !api.Severity(level).IsValid() {
		return C.int(api.HIPDNN_STATUS_BAD_PARAM)
	}
	logging.SetLevel(api.Severity(level))
	return C.int(api.HIPDNN_STATUS_SUCCESS)
}

//export hipdnnGo_GetGlobalLogLevel
func hipdnnGo_GetGlobalLogLevel(out *C.int) C.int {
	if out == nil {
		return C.int(api.HIPDNN_STATUS_BAD_PARAM) // AMD: BAD_PARAM, not BAD_PARAM_NULL_POINTER
	}
	*out = C.int(logging.Level())
	return C.int(api.HIPDNN_STATUS_SUCCESS)
}
