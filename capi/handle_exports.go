package main

// Exports of the handle section of hipdnn_backend.h.

/*
#include <stdint.h>
*/
import "C"

import (
	"strings"

	"github.com/hipdnn-go/backend/internal/handle"
)

//export hipdnnGo_Create
func hipdnnGo_Create(out *C.uintptr_t) (st C.int) {
	const fn = "hipdnnCreate"
	defer guard(fn, &st)
	begin(fn)
	if out == nil {
		return fail(fn, nullArg(fn, "handle"))
	}
	h, loadErrs, err := handle.New()
	if err != nil {
		return fail(fn, err)
	}
	*out = C.uintptr_t(h.Token())
	if len(loadErrs) > 0 {
		// hipdnnCreate succeeds with bad plugins skipped; like AMD's backend it leaves the
		// reasons in the thread's last error for callers who want to know.
		msgs := make([]string, len(loadErrs))
		for i, e := range loadErrs {
			msgs[i] = e.Error()
		}
		setLastError(strings.Join(msgs, "; "))
	}
	return ok(fn)
}

//export hipdnnGo_Destroy
func hipdnnGo_Destroy(h C.uintptr_t) (st C.int) {
	const fn = "hipdnnDestroy"
	defer guard(fn, &st)
	begin(fn)
	return done(fn, handle.Destroy(uintptr(h)))
}

//export hipdnnGo_SetStream
func hipdnnGo_SetStream(h C.uintptr_t, stream C.uintptr_t) (st C.int) {
	const fn = "hipdnnSetStream"
	defer guard(fn, &st)
	begin(fn)
	hd, err := handle.Resolve(uintptr(h))
	if err != nil {
		return fail(fn, err)
	}
	return done(fn, hd.SetStream(uintptr(stream)))
}

//export hipdnnGo_GetStream
func hipdnnGo_GetStream(h C.uintptr_t, out *C.uintptr_t) (st C.int) {
	const fn = "hipdnnGetStream"
	defer guard(fn, &st)
	begin(fn)
	if out == nil {
		return fail(fn, nullArg(fn, "streamId"))
	}
	hd, err := handle.Resolve(uintptr(h))
	if err != nil {
		return fail(fn, err)
	}
	*out = C.uintptr_t(hd.Stream())
	return ok(fn)
}
