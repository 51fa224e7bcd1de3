package engines

// This file is the only Go file besides buffers.go and execute.go that talks to C: one thin
// wrapper per trampoline of hd_calls.c, turning an hd_result into Go values and an error.
// The wrappers add no logic; the callers decide what a status means.

/*
#cgo CFLAGS: -I${SRCDIR}/../../include -O2
#include <stdlib.h>
#include "shim.h"
*/
import "C"

import (
	"unsafe"

	"github.com/hipdnn-go/backend/internal/dl"
)

// callResult is an hd_result in Go terms. err is the plugin's last-error text after a failure.
type callResult struct {
	status int // plugin status, or statusMissing
	u      uint64
	ptr    unsafe.Pointer
	size   uintptr
	err    string
}

// statusMissing marks an optional entry point the plugin does not export.
const statusMissing = int(C.HD_STATUS_MISSING)

func (r callResult) ok() bool { return r.status == 0 }

// result converts and frees an hd_result.
func result(r C.hd_result) callResult {
	out := callResult{status: int(r.status), u: uint64(r.u), ptr: r.ptr, size: uintptr(r.size)}
	if r.err != nil {
		out.err = C.GoString(r.err)
		C.free(unsafe.Pointer(r.err))
	}
	return out
}

// table is a plugin's entry-point table (C memory, freed at unload).
type table C.hd_table

func (t *table) c() *C.hd_table { return (*C.hd_table)(t) }

// Slots of the entry-point table.
const (
	slotGetName               = int(C.HD_SLOT_GET_NAME)
	slotGetVersion            = int(C.HD_SLOT_GET_VERSION)
	slotGetAPIVersion         = int(C.HD_SLOT_GET_API_VERSION)
	slotGetType               = int(C.HD_SLOT_GET_TYPE)
	slotGetLastError          = int(C.HD_SLOT_GET_LAST_ERROR)
	slotSetLoggingCallback    = int(C.HD_SLOT_SET_LOGGING_CALLBACK)
	slotSetLogLevel           = int(C.HD_SLOT_SET_LOG_LEVEL)
	slotGetAllEngineIDs       = int(C.HD_SLOT_GET_ALL_ENGINE_IDS)
	slotCreate                = int(C.HD_SLOT_CREATE)
	slotDestroy               = int(C.HD_SLOT_DESTROY)
	slotSetStream             = int(C.HD_SLOT_SET_STREAM)
	slotGetApplicable         = int(C.HD_SLOT_GET_APPLICABLE)
	slotGetDetails            = int(C.HD_SLOT_GET_DETAILS)
	slotDestroyDetails        = int(C.HD_SLOT_DESTROY_DETAILS)
	slotGetWorkspace          = int(C.HD_SLOT_GET_WORKSPACE)
	slotCreateContext         = int(C.HD_SLOT_CREATE_CONTEXT)
	slotDestroyContext        = int(C.HD_SLOT_DESTROY_CONTEXT)
	slotSerializeContext      = int(C.HD_SLOT_SERIALIZE_CONTEXT)
	slotDestroySerialized     = int(C.HD_SLOT_DESTROY_SERIALIZED)
	slotContextFromSerialized = int(C.HD_SLOT_CONTEXT_FROM_SERIALIZED)
	slotContextWorkspace      = int(C.HD_SLOT_CONTEXT_WORKSPACE)
	slotExecute               = int(C.HD_SLOT_EXECUTE)
	slotExecuteOverrides      = int(C.HD_SLOT_EXECUTE_OVERRIDES)
	slotGetEngineName         = int(C.HD_SLOT_GET_ENGINE_NAME)
	slotIsHostMemory          = int(C.HD_SLOT_IS_HOST_MEMORY)
	slotGetNumericalNotes     = int(C.HD_SLOT_GET_NUMERICAL_NOTES)
	slotGetMemoryKinds        = int(C.HD_SLOT_GET_MEMORY_KINDS)
)

// logSink is the callback handed to plugins: the backend's exported hipdnnLoggingCallback_ext
// when it is in this object, else a C stub forwarding to the same logger (go test).
var logSink = func() C.hipdnnCallback_t {
	if sink := dl.SelfSym("hipdnnLoggingCallback_ext"); sink != nil {
		return C.hipdnnCallback_t(sink)
	}
	return C.hd_fallback_sink()
}()

func logSinkIsFallback() bool { return C.hd_is_fallback_sink(logSink) != 0 }

func newTable() *table   { return (*table)(C.hd_table_new()) }
func freeTable(t *table) { C.hd_table_free(t.c()) }
func (t *table) set(slot int, fn unsafe.Pointer) {
	C.hd_table_set(t.c(), C.int(slot), fn)
}
func (t *table) has(slot int) bool { return C.hd_table_has(t.c(), C.int(slot)) != 0 }

// ---- base entry points ----

func (t *table) getString(slot int) callResult { return result(C.hd_get_string(t.c(), C.int(slot))) }
func (t *table) getType() callResult           { return result(C.hd_get_type(t.c())) }
func (t *table) setLoggingCallback() callResult {
	return result(C.hd_set_logging_callback(t.c(), logSink))
}
func (t *table) setLogLevel(level int) callResult {
	return result(C.hd_set_log_level(t.c(), C.int(level)))
}

// getAllEngineIDs: ids nil is the count query.
func (t *table) getAllEngineIDs(ids []int64) callResult {
	var p *C.int64_t
	if len(ids) > 0 {
		p = (*C.int64_t)(unsafe.Pointer(&ids[0]))
	}
	return result(C.hd_get_all_engine_ids(t.c(), p, C.uint32_t(len(ids))))
}

func (t *table) getEngineName(id int64) callResult {
	return result(C.hd_get_engine_name(t.c(), C.int64_t(id)))
}

func (t *table) isHostMemory(id int64) callResult {
	return result(C.hd_is_host_memory(t.c(), C.int64_t(id)))
}

func (t *table) getMemoryKinds(id int64) callResult {
	return result(C.hd_get_memory_kinds(t.c(), C.int64_t(id)))
}

// getNumericalNotes fills notes (cgo pins the slice for the call); u is the plugin's full count.
func (t *table) getNumericalNotes(h uintptr, config, graph []byte, notes []int32) callResult {
	cp, cn := bytesArg(config)
	gp, gn := bytesArg(graph)
	var np *C.int32_t
	if len(notes) > 0 {
		np = (*C.int32_t)(unsafe.Pointer(&notes[0]))
	}
	return result(C.hd_get_numerical_notes(t.c(), C.uintptr_t(h), cp, cn, gp, gn, np, C.uint32_t(len(notes))))
}

// ---- handle-level entry points ----

func (t *table) create() callResult { return result(C.hd_create(t.c())) }
func (t *table) destroy(h uintptr) callResult {
	return result(C.hd_destroy(t.c(), C.uintptr_t(h)))
}
func (t *table) setStream(h, stream uintptr) callResult {
	return result(C.hd_set_stream(t.c(), C.uintptr_t(h), C.uintptr_t(stream)))
}

// bytesArg returns the pointer and size of b for a borrowed hipdnnPluginConstData_t (the
// memory holds no Go pointers, so cgo lets C read it during the call).
func bytesArg(b []byte) (unsafe.Pointer, C.size_t) {
	if len(b) == 0 {
		return nil, 0
	}
	return unsafe.Pointer(&b[0]), C.size_t(len(b))
}

// getApplicable asks for the applicable engine ids; with wantReason, a decline's result also
// carries the plugin's last error (only the message of a graph no engine takes needs it).
func (t *table) getApplicable(h uintptr, graph []byte, ids []int64, wantReason bool) callResult {
	gp, gn := bytesArg(graph)
	var p *C.int64_t
	if len(ids) > 0 {
		p = (*C.int64_t)(unsafe.Pointer(&ids[0]))
	}
	want := C.int(0)
	if wantReason {
		want = 1
	}
	return result(C.hd_get_applicable(t.c(), C.uintptr_t(h), gp, gn, p, C.uint32_t(len(ids)), want))
}

func (t *table) getDetails(h uintptr, id int64, graph []byte) callResult {
	gp, gn := bytesArg(graph)
	return result(C.hd_get_details(t.c(), C.uintptr_t(h), C.int64_t(id), gp, gn))
}

func (t *table) destroyDetails(h uintptr, ptr unsafe.Pointer, size uintptr) callResult {
	return result(C.hd_destroy_details(t.c(), C.uintptr_t(h), ptr, C.size_t(size)))
}

func (t *table) getWorkspace(h uintptr, config, graph []byte) callResult {
	cp, cn := bytesArg(config)
	gp, gn := bytesArg(graph)
	return result(C.hd_get_workspace(t.c(), C.uintptr_t(h), cp, cn, gp, gn))
}

func (t *table) createContext(h uintptr, config, graph []byte) callResult {
	cp, cn := bytesArg(config)
	gp, gn := bytesArg(graph)
	return result(C.hd_create_context(t.c(), C.uintptr_t(h), cp, cn, gp, gn))
}

func (t *table) destroyContext(h, ctx uintptr) callResult {
	return result(C.hd_destroy_context(t.c(), C.uintptr_t(h), C.uintptr_t(ctx)))
}

func (t *table) contextWorkspace(h, ctx uintptr) callResult {
	return result(C.hd_context_workspace(t.c(), C.uintptr_t(h), C.uintptr_t(ctx)))
}

func (t *table) serializeContext(h, ctx uintptr) callResult {
	return result(C.hd_serialize_context(t.c(), C.uintptr_t(h), C.uintptr_t(ctx)))
}

func (t *table) destroySerialized(h uintptr, ptr unsafe.Pointer, size uintptr) callResult {
	return result(C.hd_destroy_serialized(t.c(), C.uintptr_t(h), ptr, C.size_t(size)))
}

func (t *table) contextFromSerialized(h uintptr, payload []byte) callResult {
	pp, pn := bytesArg(payload)
	return result(C.hd_context_from_serialized(t.c(), C.uintptr_t(h), pp, pn))
}

// copyOut copies n bytes of plugin memory into Go.
func copyOut(p unsafe.Pointer, n uintptr) []byte {
	out := make([]byte, n)
	copy(out, unsafe.Slice((*byte)(p), n))
	return out
}

// cString reads a plugin-owned NUL-terminated string; NULL reads as "".
func cString(p unsafe.Pointer) string {
	if p == nil {
		return ""
	}
	return C.GoString((*C.char)(p))
}
