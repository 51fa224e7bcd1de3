/* Callers for the test plugins' accessor functions (tests/plugins/test_plugin_accessors.h),
 * which Go tests cannot call themselves: a Go test file cannot use cgo, and Go cannot call a
 * C function pointer. Used by probe.go only. */
#include <stddef.h>
#include <stdint.h>

int64_t hd_probe_i64_i32(void* fn, int32_t arg) { return ((int64_t(*)(int32_t))fn)(arg); }

int32_t hd_probe_i32(void* fn) { return ((int32_t(*)(void))fn)(); }

uintptr_t hd_probe_ptr(void* fn) { return (uintptr_t)((void* (*)(void))fn)(); }

void hd_probe_stats(void* fn, uint64_t* plain, uint64_t* overrides, uint32_t* last) {
    ((void (*)(uint64_t*, uint64_t*, uint32_t*))fn)(plain, overrides, last);
}

int32_t hd_probe_override(void* fn, int64_t uid, int64_t* shape, int64_t* strides, uint32_t cap) {
    return ((int32_t(*)(int64_t, int64_t*, int64_t*, uint32_t))fn)(uid, shape, strides, cap);
}

int64_t hd_probe_recorded(void* fn, int64_t uid, void* out, size_t n) {
    return ((int64_t(*)(int64_t, void*, size_t))fn)(uid, out, n);
}
