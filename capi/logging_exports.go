package main

// Exports of the logging section. Like AMD's, these do not record a last error, except
// hipdnnSetUserLogCallback_ext's statuses.

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
	if msg == nil || !logging.ValidLevel(s) || !logging.Enabled(s) {
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
	const fn = "hipdnnSetUserLogCallback_ext"
	// Like the level exports: no last error, no log record (AMD's tryCatch is not used here).
	defer func() {
		if r := recover(); r != nil {
			st = C.int(api.HIPDNN_STATUS_INTERNAL_ERROR)
		}
	}()
	switch {
	case cb == 0:
		return codeOnly(badParam("%s: callback is NULL", fn))
	case userHandle == 0:
		return codeOnly(badParam("%s: userHandle is NULL", fn))
	case mode != C.int(api.HIPDNN_LOG_CALLBACK_SYNC) && mode != C.int(api.HIPDNN_LOG_CALLBACK_ASYNC):
		return codeOnly(badParam("%s: mode %d is neither HIPDNN_LOG_CALLBACK_SYNC (0) nor HIPDNN_LOG_CALLBACK_ASYNC (1)", fn, int(mode)))
	case !logging.ValidLevel(api.Severity(minLevel)):
		return codeOnly(badParam("%s: minLevel %d is not a hipdnnSeverity_t", fn, int(minLevel)))
	}
	key := logging.UserKey{Callback: uintptr(cb), Handle: uintptr(userHandle)}
	err := logging.SetUserCallback(key, userSink{uintptr(cb), uintptr(userHandle)}, api.Severity(minLevel), mode == C.int(api.HIPDNN_LOG_CALLBACK_ASYNC))
	if err != nil {
		return codeOnly(badParam("%s: %v", fn, err))
	}
	return C.int(api.HIPDNN_STATUS_SUCCESS)
}

//export hipdnnGo_SetGlobalLogLevel
func hipdnnGo_SetGlobalLogLevel(level C.int) (st C.int) {
	defer func() {
		if r := recover(); r != nil {
			st = C.int(api.HIPDNN_STATUS_INTERNAL_ERROR)
		}
	}()
	if !logging.ValidLevel(api.Severity(level)) {
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
