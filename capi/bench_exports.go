//go:build hipdnnbench

package main

// Private hooks for the overhead benchmarks (bench/hipdnn_bench.cpp), only in the library that
// `make bench` builds with -tags hipdnnbench; the shipped library exports the API alone.

/*
#include <stdint.h>
*/
import "C"

import "runtime/metrics"

//export hipdnn_bench_nop
func hipdnn_bench_nop() {}

var allocSample = []metrics.Sample{{Name: "/gc/heap/allocs:objects"}}

// hipdnn_bench_go_allocs returns the number of heap objects Go has allocated so far.
//
//export hipdnn_bench_go_allocs
func hipdnn_bench_go_allocs() C.uint64_t {
	metrics.Read(allocSample)
	return C.uint64_t(allocSample[0].Value.Uint64())
}
