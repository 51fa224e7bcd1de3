package main

// Exports of the status-string and last-error section.

/*
#include "boundary.h"
*/
import "C"

import (
	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/status"
)

//export hipdnnGo_GetErrorString
func hipdnnGo_GetErrorString(s C.int) *C.char {
	return errorString(api.Status(s))
}

// copyLastError implements hipdnnGetLastErrorString (clear=1) and the peek variant. A NULL
// buffer or a zero size copies nothing and, as in AMD's backend, becomes the new last error.
func copyLastError(fn string, msg *C.char, max C.size_t, clear C.int) {
	defer guardVoid(fn)
	begin(fn)
	switch {
	case msg == nil:
		_ = fail(fn, nullArg(fn, "message"))
	case max == 0:
		_ = fail(fn, status.BadParam("%s: maxSize is 0", fn))
	default:
		C.hipdnn_capi_copy_last_error(msg, max, clear)
	}
}

//export hipdnnGo_GetLastErrorString
func hipdnnGo_GetLastErrorString(msg *C.char, max C.size_t) {
	copyLastError("hipdnnGetLastErrorString", msg, max, 1)
}

//export hipdnnGo_PeekLastErrorString
func hipdnnGo_PeekLastErrorString(msg *C.char, max C.size_t) {
	copyLastError("hipdnnPeekLastErrorString_ext", msg, max, 0)
}
