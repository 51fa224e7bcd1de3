package main

/*
#include <stdlib.h>
#include "boundary.h"
*/
import "C"

import (
	"runtime/debug"
	"unsafe"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/logging"
	"github.com/hipdnn-go/backend/internal/status"
)

// The one mapping point from Go errors to what a C caller sees: the returned status and the
// calling thread's last error. Success never touches the last error (AMD's contract).

// begin logs "API called" when INFO is enabled; it costs one atomic load otherwise.
func begin(fn string) {
	if logging.Enabled(api.HIPDNN_SEV_INFO) {
		logging.Info("API called: [" + fn + "]")
	}
}

// ok logs "API success" and returns SUCCESS.
func ok(fn string) C.int {
	if logging.Enabled(api.HIPDNN_SEV_INFO) {
		logging.Info("API success: [" + fn + "]")
	}
	return C.int(api.HIPDNN_STATUS_SUCCESS)
}

// fail records err as the thread's last error and returns its status.
func fail(fn string, err error) C.int {
	code := status.Code(err)
	msg := err.Error()
	setLastError(msg)
	if logging.Enabled(api.HIPDNN_SEV_ERROR) {
		logging.Errorf("Error occured in status:%s message:%s (%s)", code, msg, fn)
	}
	return C.int(code)
}

// done maps a result: nil is success.
func done(fn string, err error) C.int {
	if err != nil {
		return fail(fn, err)
	}
	return ok(fn)
}

// guard recovers a panic into INTERNAL_ERROR with the panic text in the last error. Every
// status-returning export defers it; nothing may unwind across the C boundary.
func guard(fn string, st *C.int) {
	if r := recover(); r != nil {
		*st = fail(fn, status.Internal("%s: internal error: %v\n%s", fn, r, debug.Stack()))
	}
}

// guardQuiet is guard for the logging-control exports, which never set the last error (AMD's
// behaviour) and must not log about the logger: a panic is only INTERNAL_ERROR.
func guardQuiet(st *C.int) {
	if recover() != nil {
		*st = C.int(api.HIPDNN_STATUS_INTERNAL_ERROR)
	}
}

// guardVoid is guard for exports without a status.
func guardVoid(fn string) {
	if r := recover(); r != nil {
		_ = fail(fn, status.Internal("%s: internal error: %v", fn, r))
	}
}

func setLastError(msg string) {
	if msg == "" {
		msg = "unknown error"
	}
	C.hipdnn_capi_set_last_error((*C.char)(unsafe.Pointer(unsafe.StringData(msg))), C.size_t(len(msg)))
}

// nullArg is the BAD_PARAM_NULL_POINTER error of a NULL argument.
func nullArg(fn, arg string) error {
	return status.NullPointer("Null pointer provided to %s: %s is NULL", fn, arg)
}

// arg is one pointer argument for firstNull: its name in the header, and whether it is NULL.
type arg struct {
	name string
	null bool
}

// firstNull names the first NULL of args, "" when none is.
func firstNull(args ...arg) string {
	for _, a := range args {
		if a.null {
			return a.name
		}
	}
	return ""
}

// errorStrings holds C copies of the status names hipdnnGetErrorString hands out with static
// lifetime. They are made once and never freed.
var errorStrings = func() map[api.Status]*C.char {
	m := map[api.Status]*C.char{}
	for v := int32(0); v < 64; v++ {
		s := api.Status(v)
		if s.IsValid() {
			m[s] = C.CString(s.String())
		}
	}
	return m
}()

var unknownStatus = C.CString(api.Status(-1).String())

func errorString(s api.Status) *C.char {
	if p, ok := errorStrings[s]; ok {
		return p
	}
	return unknownStatus
}

// copyOut copies s into a caller buffer of n bytes as a NUL-terminated string.
// Only the bytes written are addressed, so a declared size larger than the string (even
// SIZE_MAX) is fine.
func copyOut(dst *C.char, n C.size_t, s string) {
	if dst == nil || n == 0 {
		return
	}
	m := min(uint64(n), uint64(len(s))+1)
	b := unsafe.Slice((*byte)(unsafe.Pointer(dst)), m)
	copy(b[:m-1], s)
	b[m-1] = 0
}

// badParam is a BAD_PARAM error.
func badParam(format string, args ...any) error { return status.BadParam(format, args...) }
