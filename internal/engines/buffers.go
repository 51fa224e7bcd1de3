package engines

// Variant-pack arrays in C memory, built once when a variant pack is finalized so that Execute
// only passes pointers. C memory because the plugin receives them, and so that Go's garbage
// collector never scans the device pointers they hold.

/*
#cgo CFLAGS: -I${SRCDIR}/../../include
#include "shim.h"
*/
import "C"

import (
	"math"
	"unsafe"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/status"
)

// deviceBuffer mirrors hipdnnPluginDeviceBuffer_t (uid at 0, ptr at 8) with the pointer as an
// integer, for writing and for alignment checks.
type deviceBuffer struct {
	uid int64
	ptr uintptr
}

// Buffers is a hipdnnPluginDeviceBuffer_t array: the {uid, pointer} pairs of a variant pack in
// pack order, and the pack's workspace. Its pointers are immutable after NewBuffers, so many
// Executes may share it; Free it once none uses it any more.
type Buffers struct {
	arr      *C.hipdnnPluginDeviceBuffer_t
	n        int
	ws       uintptr
	verdicts *C.hd_verdicts // contexts whose checks the pack passed (pack_check.go)
	mem      packMemory     // the pointers' memory kinds, classified once
	fast     fastRefs       // tokens under which the C fast path reads arr
}

// NewBuffers copies a variant pack's uids and data pointers into C memory. The two slices
// must have the same length (the variant pack's finalize checked it); more than UINT32_MAX
// entries panics, as no plugin call can carry them. workspace is the pack's workspace: an
// Execute with it may reuse the checks of an earlier one.
func NewBuffers(uids []int64, ptrs []uintptr, workspace uintptr) *Buffers {
	if len(uids) != len(ptrs) || len(uids) > math.MaxUint32 {
		panic("engines.NewBuffers: " + itoa(int64(len(uids))) + " uids for " + itoa(int64(len(ptrs))) + " pointers")
	}
	b := &Buffers{arr: C.hd_buffers_new(C.uint32_t(len(uids))), n: len(uids), ws: workspace,
		verdicts: C.hd_verdicts_new()}
	if b.arr == nil || b.verdicts == nil {
		panic("engines.NewBuffers: out of memory")
	}
	view := b.entries()
	for i := range uids {
		view[i] = deviceBuffer{uid: uids[i], ptr: ptrs[i]}
	}
	return b
}

// entries views the C array as Go values; it does not allocate.
func (b *Buffers) entries() []deviceBuffer {
	if b == nil || b.arr == nil {
		return nil
	}
	return unsafe.Slice((*deviceBuffer)(unsafe.Pointer(b.arr)), b.n)
}

// find returns the index of uid's first entry, or -1.
func (b *Buffers) find(uid int64) int {
	for i, e := range b.entries() {
		if e.uid == uid {
			return i
		}
	}
	return -1
}

// workspace returns the pack's workspace (0 for a nil Buffers).
func (b *Buffers) workspace() uintptr {
	if b == nil {
		return 0
	}
	return b.ws
}

// pointer returns entry i's pointer as the C array holds it (for HIP pointer queries).
func (b *Buffers) pointer(i int) unsafe.Pointer {
	return unsafe.Slice(b.arr, b.n)[i].ptr
}

// Len returns the number of entries.
func (b *Buffers) Len() int {
	if b == nil {
		return 0
	}
	return b.n
}

// Free releases the C array; it is idempotent.
func (b *Buffers) Free() {
	if b != nil && b.arr != nil {
		b.fast.retire()
		C.hd_free(unsafe.Pointer(b.arr))
		C.hd_free(unsafe.Pointer(b.verdicts))
		b.arr, b.n, b.verdicts = nil, 0, nil
	}
}

// Overrides holds execute-time shape overrides in the form
// hipdnnEnginePluginExecuteOpGraphWithOverrides takes: ids, uint32 ranks, and per-tensor
// pointers into flat copies of the shapes and strides. Immutable after NewOverrides.
type Overrides struct {
	ov *C.hd_overrides
}

// NewOverrides validates and copies a variant pack's override attributes: one rank per id,
// every rank in 1..UINT32_MAX, shapes and strides each exactly the sum of the ranks long.
// Violations are BAD_PARAM. With no ids it returns nil (no overrides).
func NewOverrides(ids, lengths, shapes, strides []int64) (*Overrides, error) {
	if len(ids) == 0 && len(lengths) == 0 && len(shapes) == 0 && len(strides) == 0 {
		return nil, nil
	}
	if len(ids) != len(lengths) {
		return nil, status.BadParam("variant pack overrides: %d override unique ids but %d override lengths", len(ids), len(lengths))
	}
	if len(ids) == 0 || len(ids) > math.MaxUint32 {
		return nil, status.BadParam("variant pack overrides: %d override unique ids", len(ids))
	}
	var total uint64
	for i, n := range lengths {
		if n <= 0 || n > math.MaxUint32 {
			return nil, status.BadParam("variant pack overrides: length %d of override %d (uid %d) is not in 1..%d", n, i, ids[i], uint32(math.MaxUint32))
		}
		total += uint64(n)
	}
	if uint64(len(shapes)) != total || uint64(len(strides)) != total {
		return nil, status.BadParam("variant pack overrides: %d shape and %d stride values for lengths summing to %d",
			len(shapes), len(strides), total)
	}
	var sp, tp *C.int64_t
	if total > 0 {
		sp, tp = (*C.int64_t)(unsafe.Pointer(&shapes[0])), (*C.int64_t)(unsafe.Pointer(&strides[0]))
	}
	ov := C.hd_overrides_new(C.uint32_t(len(ids)), (*C.int64_t)(unsafe.Pointer(&ids[0])),
		(*C.int64_t)(unsafe.Pointer(&lengths[0])), sp, tp, C.size_t(total))
	if ov == nil {
		return nil, status.New(api.HIPDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED, "variant pack overrides: out of host memory")
	}
	return &Overrides{ov: ov}, nil
}

// Len returns the number of overridden tensors.
func (o *Overrides) Len() int {
	if o == nil || o.ov == nil {
		return 0
	}
	return int(o.ov.count)
}

// Free releases the C block; it is idempotent.
func (o *Overrides) Free() {
	if o != nil && o.ov != nil {
		C.hd_free(unsafe.Pointer(o.ov))
		o.ov = nil
	}
}
