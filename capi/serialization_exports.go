package main

// Exports of the serialization section: graphs (binary and JSON), execution plans and the
// graph-and-plan container.

/*
#include <stdint.h>
#include <stddef.h>
*/
import "C"

import (
	"math"
	"unsafe"

	"github.com/hipdnn-go/backend/internal/descriptors"
	"github.com/hipdnn-go/backend/internal/handle"
	"github.com/hipdnn-go/backend/internal/status"
)

// maxInputBytes bounds serialized input handed to us (flatbuffers cannot exceed 2 GiB).
const maxInputBytes = 1<<31 - 1

// inputBytes views a caller's buffer; the codecs copy what they keep.
func inputBytes(fn, arg string, p unsafe.Pointer, n C.size_t) ([]byte, error) {
	if p == nil {
		return nil, nullArg(fn, arg)
	}
	if n == 0 {
		return nil, badParam("%s: %s has size 0", fn, arg)
	}
	if n > maxInputBytes {
		return nil, badParam("%s: %s is %d bytes, more than the 2 GiB a serialized graph can have", fn, arg, n)
	}
	return unsafe.Slice((*byte)(p), int(n)), nil
}

// writeBlob is the two-call output convention: *size always receives the size; the bytes are
// copied when out is not NULL and requested is large enough.
func writeBlob(fn string, blob []byte, requested C.size_t, size *C.size_t, out unsafe.Pointer) error {
	*size = C.size_t(len(blob))
	if out == nil {
		return nil
	}
	if requested < C.size_t(len(blob)) {
		return status.SizeInsufficient("%s: the buffer holds %d bytes, %d are needed", fn, requested, len(blob))
	}
	copy(unsafe.Slice((*byte)(out), len(blob)), blob)
	return nil
}

// typedArg resolves a descriptor token that must name a T (what: "an operation graph").
func typedArg[T descriptors.Object](fn string, tok C.uintptr_t, what string) (T, error) {
	var zero T
	o, err := descriptor(tok)
	if err != nil {
		return zero, err
	}
	x, ok := o.(T)
	if !ok {
		return zero, badParam("%s: Descriptor type mismatch: %v is not %s", fn, descriptors.KindOf(o), what)
	}
	return x, nil
}

func graphArg(fn string, tok C.uintptr_t) (*descriptors.Graph, error) {
	return typedArg[*descriptors.Graph](fn, tok, "an operation graph")
}

func planArg(fn string, tok C.uintptr_t) (*descriptors.ExecutionPlan, error) {
	return typedArg[*descriptors.ExecutionPlan](fn, tok, "an execution plan")
}

//export hipdnnGo_CreateAndDeserializeGraph
func hipdnnGo_CreateAndDeserializeGraph(out *C.uintptr_t, p unsafe.Pointer, n C.size_t) (st C.int) {
	const fn = "hipdnnBackendCreateAndDeserializeGraph_ext"
	defer guard(fn, &st)
	begin(fn)
	if out == nil {
		return fail(fn, nullArg(fn, "descriptor"))
	}
	b, err := inputBytes(fn, "serializedGraph", p, n)
	if err != nil {
		return fail(fn, err)
	}
	g, err := descriptors.DeserializeGraph(b)
	if err != nil {
		return fail(fn, err)
	}
	*out = C.uintptr_t(descriptors.Token(g))
	return ok(fn)
}

//export hipdnnGo_CreateAndDeserializeJsonGraph
func hipdnnGo_CreateAndDeserializeJsonGraph(out *C.uintptr_t, p unsafe.Pointer, n C.size_t) (st C.int) {
	const fn = "hipdnnBackendCreateAndDeserializeJsonGraph_ext"
	defer guard(fn, &st)
	begin(fn)
	if out == nil {
		return fail(fn, nullArg(fn, "descriptor"))
	}
	b, err := inputBytes(fn, "jsonGraph", p, n)
	if err != nil {
		return fail(fn, err)
	}
	for len(b) > 0 && b[len(b)-1] == 0 { // the terminating NUL is optional
		b = b[:len(b)-1]
	}
	g, err := descriptors.DeserializeJSONGraph(b)
	if err != nil {
		return fail(fn, err)
	}
	*out = C.uintptr_t(descriptors.Token(g))
	return ok(fn)
}

//export hipdnnGo_GetSerializedBinaryGraph
func hipdnnGo_GetSerializedBinaryGraph(tok C.uintptr_t, requested C.size_t, size *C.size_t, out unsafe.Pointer) (st C.int) {
	const fn = "hipdnnBackendGetSerializedBinaryGraph_ext"
	defer guard(fn, &st)
	begin(fn)
	if size == nil {
		return fail(fn, nullArg(fn, "graphByteSize"))
	}
	g, err := graphArg(fn, tok)
	if err != nil {
		return fail(fn, err)
	}
	b, err := g.SerializedBytes()
	if err != nil {
		return fail(fn, err)
	}
	return done(fn, writeBlob(fn, b, requested, size, out))
}

//export hipdnnGo_GetSerializedJsonGraph
func hipdnnGo_GetSerializedJsonGraph(tok C.uintptr_t, requested C.size_t, size *C.size_t, out unsafe.Pointer) (st C.int) {
	const fn = "hipdnnBackendGetSerializedJsonGraph_ext"
	defer guard(fn, &st)
	begin(fn)
	if size == nil {
		return fail(fn, nullArg(fn, "graphByteSize"))
	}
	g, err := graphArg(fn, tok)
	if err != nil {
		return fail(fn, err)
	}
	j, err := g.SerializedJSON()
	if err != nil {
		return fail(fn, err)
	}
	return done(fn, writeBlob(fn, append(j, 0), requested, size, out))
}

//export hipdnnGo_GetSerializedExecutionPlan
func hipdnnGo_GetSerializedExecutionPlan(tok C.uintptr_t, requested C.size_t, size *C.size_t, out unsafe.Pointer) (st C.int) {
	const fn = "hipdnnBackendGetSerializedExecutionPlan_ext"
	defer guard(fn, &st)
	begin(fn)
	if size == nil {
		return fail(fn, nullArg(fn, "planByteSize"))
	}
	p, err := planArg(fn, tok)
	if err != nil {
		return fail(fn, err)
	}
	b, err := p.Serialized()
	if err != nil {
		return fail(fn, err)
	}
	return done(fn, writeBlob(fn, b, requested, size, out))
}

//export hipdnnGo_CreateAndDeserializeExecutionPlan
func hipdnnGo_CreateAndDeserializeExecutionPlan(h C.uintptr_t, out *C.uintptr_t, p unsafe.Pointer, n C.size_t) (st C.int) {
	const fn = "hipdnnBackendCreateAndDeserializeExecutionPlan_ext"
	defer guard(fn, &st)
	begin(fn)
	if out == nil {
		return fail(fn, nullArg(fn, "descriptor"))
	}
	hd, err := handle.Resolve(uintptr(h))
	if err != nil {
		return fail(fn, err)
	}
	b, err := inputBytes(fn, "serializedPlan", p, n)
	if err != nil {
		return fail(fn, err)
	}
	tok, err := descriptors.DeserializePlanToken(hd, b)
	if err != nil {
		return fail(fn, err)
	}
	*out = C.uintptr_t(tok)
	return ok(fn)
}

//export hipdnnGo_GetSerializedBinaryGraphAndPlan
func hipdnnGo_GetSerializedBinaryGraphAndPlan(gtok, ptok C.uintptr_t, requested C.size_t, size *C.size_t, out unsafe.Pointer) (st C.int) {
	const fn = "hipdnnBackendGetSerializedBinaryGraphAndPlan_ext"
	defer guard(fn, &st)
	begin(fn)
	if size == nil {
		return fail(fn, nullArg(fn, "blobByteSize"))
	}
	g, err := graphArg(fn, gtok)
	if err != nil {
		return fail(fn, err)
	}
	var plan *descriptors.ExecutionPlan
	if ptok != 0 {
		if plan, err = planArg(fn, ptok); err != nil {
			return fail(fn, err)
		}
	}
	b, err := descriptors.SerializeGraphAndPlan(g, plan)
	if err != nil {
		return fail(fn, err)
	}
	return done(fn, writeBlob(fn, b, requested, size, out))
}

//export hipdnnGo_GetSerializedBinaryContents
func hipdnnGo_GetSerializedBinaryContents(p unsafe.Pointer, n C.size_t, flags *C.int) (st C.int) {
	const fn = "hipdnnBackendGetSerializedBinaryContents_ext"
	defer guard(fn, &st)
	begin(fn)
	if flags == nil {
		return fail(fn, nullArg(fn, "contentFlags"))
	}
	b, err := inputBytes(fn, "serializedBlob", p, n)
	if err != nil {
		return fail(fn, err)
	}
	f, err := descriptors.SerializedContents(b)
	if err != nil {
		return fail(fn, err)
	}
	*flags = C.int(f)
	return ok(fn)
}

//export hipdnnGo_WriteEngineRankingResults
func hipdnnGo_WriteEngineRankingResults(h, gtok C.uintptr_t, ids *C.int64_t, n C.size_t, outcome *C.int) (st C.int) {
	const fn = "hipdnnBackendWriteEngineRankingResults_ext"
	defer guard(fn, &st)
	begin(fn)
	hd, err := handle.Resolve(uintptr(h))
	if err != nil {
		return fail(fn, err)
	}
	var g *descriptors.Graph
	if gtok != 0 {
		if g, err = graphArg(fn, gtok); err != nil {
			return fail(fn, err)
		}
	}
	if uint64(n) > math.MaxInt32 {
		return fail(fn, badParam("%s: engineIdCount %d is beyond any real array", fn, uint64(n)))
	}
	var ranked []int64
	if ids != nil && n > 0 {
		ranked = append(ranked, unsafe.Slice((*int64)(unsafe.Pointer(ids)), int(n))...)
	}
	res, err := descriptors.WriteEngineRanking(hd, g, ranked)
	if err != nil {
		return fail(fn, err)
	}
	if outcome != nil {
		*outcome = C.int(res)
	}
	return ok(fn)
}
