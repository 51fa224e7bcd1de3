// Package probe calls the accessor functions some test plugins export next to the plugin API
// (tests/plugins/test_plugin_accessors.h). Go test files cannot use cgo, so the calls live in
// this package, which only tests import: none of it is linked into the library.
package probe

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

func I64I32(fn unsafe.Pointer, arg int32) int64 {
	return int64(C.hd_probe_i64_i32(fn, C.int32_t(arg)))
}
func I32(fn unsafe.Pointer) int32   { return int32(C.hd_probe_i32(fn)) }
func Ptr(fn unsafe.Pointer) uintptr { return uintptr(C.hd_probe_ptr(fn)) }

func Stats(fn unsafe.Pointer) (plain, overrides uint64, last uint32) {
	var p, o C.uint64_t
	var l C.uint32_t
	C.hd_probe_stats(fn, &p, &o, &l)
	return uint64(p), uint64(o), uint32(l)
}

func Override(fn unsafe.Pointer, uid int64) (shape, strides []int64, rank int32) {
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

// Recorded reads the pass-by-value recorder's bytes for uid (at most 64).
func Recorded(fn unsafe.Pointer, uid int64) (int64, []byte) {
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
