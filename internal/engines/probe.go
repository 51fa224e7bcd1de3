package engines

// Test support: reaching the accessor functions some test plugins export next to the plugin
// API (tests/plugins/test_plugin_accessors.h). Test files cannot use cgo, so the calls live
// here; nothing else uses them.

/*
#include <stddef.h>
#include <stdint.h>
int64_t hd_probe_i64_i32(void* fn, int32_t arg);
int32_t hd_probe_i32(void* fn);
uintptr_t hd_probe_ptr(void* fn);
void hd_probe_stats(void* fn, uint64_t* plain, uint64_t* overrides, uint32_t* last);
int32_t hd_probe_override(void* fn, int64_t uid, int64_t* shape, int64_t* strides, uint32_t cap);
int64_t hd_probe_recorded(void* fn, int64_t uid, void* out, size_t n);
*/
import "C"

import "unsafe"

// probe looks up an accessor exported by a loaded plugin (nil when absent).
func (p *Plugin) probe(name string) unsafe.Pointer {
	if p.lib == nil {
		return nil
	}
	fn, _ := dlsym(p.lib, name)
	return fn
}

func probeI64I32(fn unsafe.Pointer, arg int32) int64 {
	return int64(C.hd_probe_i64_i32(fn, C.int32_t(arg)))
}
func probeI32(fn unsafe.Pointer) int32   { return int32(C.hd_probe_i32(fn)) }
func probePtr(fn unsafe.Pointer) uintptr { return uintptr(C.hd_probe_ptr(fn)) }

func probeStats(fn unsafe.Pointer) (plain, overrides uint64, last uint32) {
	var p, o C.uint64_t
	var l C.uint32_t
	C.hd_probe_stats(fn, &p, &o, &l)
	return uint64(p), uint64(o), uint32(l)
}

func probeOverride(fn unsafe.Pointer, uid int64) (shape, strides []int64, rank int32) {
	s := make([]int64, 8)
	t := make([]int64, 8)
	rank = int32(C.hd_probe_override(fn, C.int64_t(uid), (*C.int64_t)(unsafe.Pointer(&s[0])),
		(*C.int64_t)(unsafe.Pointer(&t[0])), 8))
	if rank < 0 {
		return nil, nil, rank
	}
	n := int(rank)
	if n > 8 {
		n = 8
	}
	return s[:n], t[:n], rank
}

// probeRecorded reads the pass-by-value recorder's bytes for uid (at most 64).
func probeRecorded(fn unsafe.Pointer, uid int64) (int64, []byte) {
	out := make([]byte, 64)
	n := int64(C.hd_probe_recorded(fn, C.int64_t(uid), unsafe.Pointer(&out[0]), C.size_t(len(out))))
	if n < 0 {
		return n, nil
	}
	if n < int64(len(out)) {
		out = out[:n]
	}
	return n, out
}
