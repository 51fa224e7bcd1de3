/* Test stand-in for CUDA's cuda_runtime.h: the runtime API plus its C++ template overloads.
 * Never installed. */
#pragma once
#include "cuda_runtime_api.h"
#ifdef __cplusplus
template <class T>
static inline cudaError_t cudaMalloc(T** p, size_t size) {
    return cudaMalloc(reinterpret_cast<void**>(p), size);
}
template <class T>
static inline cudaError_t cudaMallocHost(T** p, size_t size) {
    return cudaMallocHost(reinterpret_cast<void**>(p), size);
}
#endif
#ifdef __cplusplus
/* CUDA 11's five-argument form, which CUDA 12's cuda_runtime.h keeps for C++ callers. */
static inline cudaError_t cudaGraphInstantiate(cudaGraphExec_t* e, cudaGraph_t g, cudaGraphNode_t* error_node,
                                               char* log, size_t log_size) {
    (void)error_node; (void)log; (void)log_size;
    return cudaGraphInstantiate(e, g, 0ULL);
}
#endif
