// Parallel: a small process-wide thread pool and parallelFor over an outer loop.
//
// Threads: HIPDNN_CPU_REFERENCE_THREADS (a positive integer) if set, else
// std::thread::hardware_concurrency(); read once, on first use. The pool starts lazily with
// threads-1 workers (the calling thread works too) and joins them at library unload.
//
// Concurrency: one parallelFor runs on the pool at a time. A call made while the pool is busy
// (another host thread executing a graph) or from inside a pool task runs inline on the calling
// thread, so calls never deadlock and never oversubscribe. Every chunk has finished when
// parallelFor returns; the first exception thrown by a chunk is rethrown in the caller.
#pragma once

#include <cstdint>
#include <functional>

namespace hipdnngo::cpu_reference
{

// threadCount returns the number of threads parallelFor may use (>= 1).
int threadCount();

// parallelFor calls body(begin, end) on disjoint chunks covering [0, n). Chunks hold at least
// minChunk iterations (use it to keep tiny loops serial); with one thread, or n <= minChunk,
// body(0, n) runs inline.
void parallelFor(int64_t n, int64_t minChunk, const std::function<void(int64_t, int64_t)>& body);

} // namespace hipdnngo::cpu_reference
