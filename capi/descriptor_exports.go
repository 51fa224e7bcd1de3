package main

// Exports of the descriptor section: create, destroy, set, get, finalize, execute.

/*
#include <stdint.h>
#include <stdlib.h>
*/
import "C"

import (
	"unsafe"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/descriptors"
	"github.com/hipdnn-go/backend/internal/handle"
	"github.com/hipdnn-go/backend/internal/status"
)

// descriptor resolves a descriptor token: NULL is BAD_PARAM_NULL_POINTER, a destroyed,
// unknown or wrong-kind token BAD_PARAM.
func descriptor(tok C.uintptr_t) (descriptors.Object, error) {
	if tok == 0 {
		return nil, status.NullPointer("hipdnnBackendDescriptor_t is nullptr")
	}
	o, err := descriptors.Resolve(uintptr(tok))
	if err != nil {
		return nil, status.BadParam("hipdnnBackendDescriptor_t %#x %v", uintptr(tok), err)
	}
	return o, nil
}

//export hipdnnGo_CreateDescriptor
func hipdnnGo_CreateDescriptor(t C.int, out *C.uintptr_t) (st C.int) {
	const fn = "hipdnnBackendCreateDescriptor"
	defer guard(fn, &st)
	begin(fn)
	if out == nil {
		return fail(fn, nullArg(fn, "descriptor"))
	}
	o, err := descriptors.Create(api.DescriptorType(t))
	if err != nil {
		return fail(fn, err)
	}
	*out = C.uintptr_t(descriptors.Token(o))
	return ok(fn)
}

//export hipdnnGo_DestroyDescriptor
func hipdnnGo_DestroyDescriptor(tok C.uintptr_t) (st C.int) {
	const fn = "hipdnnBackendDestroyDescriptor"
	defer guard(fn, &st)
	begin(fn)
	if tok == 0 {
		return fail(fn, status.NullPointer("hipdnnBackendDescriptor_t is nullptr"))
	}
	if err := descriptors.Destroy(uintptr(tok)); err != nil {
		return fail(fn, status.BadParam("hipdnnBackendDescriptor_t %#x %v", uintptr(tok), err))
	}
	return ok(fn)
}

//export hipdnnGo_SetAttribute
func hipdnnGo_SetAttribute(tok C.uintptr_t, name, typ C.int, count C.int64_t, p unsafe.Pointer) (st C.int) {
	const fn = "hipdnnBackendSetAttribute"
	defer guard(fn, &st)
	begin(fn)
	o, err := descriptor(tok)
	if err != nil {
		return fail(fn, err)
	}
	return done(fn, descriptors.SetAttribute(o, api.AttributeName(name), api.AttributeType(typ), int64(count), p))
}

//export hipdnnGo_GetAttribute
func hipdnnGo_GetAttribute(tok C.uintptr_t, name, typ C.int, requested C.int64_t, count *C.int64_t, p unsafe.Pointer) (st C.int) {
	const fn = "hipdnnBackendGetAttribute"
	defer guard(fn, &st)
	begin(fn)
	if count == nil && p == nil {
		return fail(fn, nullArg(fn, "elementCount and arrayOfElements"))
	}
	o, err := descriptor(tok)
	if err != nil {
		return fail(fn, err)
	}
	return done(fn, descriptors.GetAttribute(o, api.AttributeName(name), api.AttributeType(typ), int64(requested), (*int64)(count), p))
}

//export hipdnnGo_Finalize
func hipdnnGo_Finalize(tok C.uintptr_t) (st C.int) {
	const fn = "hipdnnBackendFinalize"
	defer guard(fn, &st)
	begin(fn)
	o, err := descriptor(tok)
	if err != nil {
		return fail(fn, err)
	}
	if err := descriptors.FinalizeToken(o, uintptr(tok)); err != nil {
		return fail(fn, err)
	}
	// A heuristic that found no engine succeeds and leaves the engines' reasons as the last error.
	if n, isNoticer := o.(interface{ Notice() string }); isNoticer {
		if msg := n.Notice(); msg != "" {
			setLastError(msg)
		}
	}
	return ok(fn)
}

//export hipdnnGo_Execute
func hipdnnGo_Execute(h, plan, pack C.uintptr_t) (st C.int) {
	const fn = "hipdnnBackendExecute"
	defer guard(fn, &st)
	begin(fn)
	if name := firstNull(arg{"executionPlan", plan == 0}, arg{"variantPack", pack == 0}); name != "" {
		return fail(fn, nullArg(fn, name))
	}
	hd, err := handle.Resolve(uintptr(h))
	if err != nil {
		return fail(fn, err)
	}
	p, err := descriptor(plan)
	if err != nil {
		return fail(fn, err)
	}
	v, err := descriptor(pack)
	if err != nil {
		return fail(fn, err)
	}
	return done(fn, descriptors.Execute(hd, p, v))
}

// hipdnnGo_ExecuteFailed reports a plugin failure met by the C fast path of
// hipdnnBackendExecute (the plugin already ran): the same last error and log line as the Go
// path. msg is the plugin's malloc'd last error, freed here.
//
//export hipdnnGo_ExecuteFailed
func hipdnnGo_ExecuteFailed(plan C.uintptr_t, pluginStatus C.int, msg *C.char) (st C.int) {
	const fn = "hipdnnBackendExecute"
	defer guard(fn, &st)
	text := ""
	if msg != nil {
		text = C.GoString(msg)
		C.free(unsafe.Pointer(msg))
	}
	o, _ := descriptor(plan)
	return fail(fn, descriptors.ExecuteFailure(o, int(pluginStatus), text))
}
