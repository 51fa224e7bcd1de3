/* Test stand-in for the CUDA runtime API (names and values spelled as CUDA spells them), so the
 * shim's "beside CUDA" paths and NVIDIA's samples compile and run on a machine without CUDA.
 * "Device" memory is host memory (the CPU engines read it directly); one device, whose compute
 * capability is FAKE_CUDA_CC from the environment (default 90, the H200's, so the samples
 * attempt the same cases as on the H200). Never installed. */
#pragma once
/* This stand-in's "device memory" is host memory: the shim keeps the CPU engines. */
#define HIPDNN_FAKE_CUDA_HOST_MEMORY 1
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct CUstream_st* cudaStream_t;
typedef struct CUgraph_st* cudaGraph_t;
typedef struct CUevent_st* cudaEvent_t;
typedef struct CUgraphExec_st* cudaGraphExec_t;
typedef struct CUgraphNode_st* cudaGraphNode_t;
#define CUDART_VERSION 12040

/* C++ callers may leave trailing arguments out where CUDA gives them defaults (its __dv). */
#ifdef __cplusplus
#define FAKE_CUDA_DV(v) = v
#else
#define FAKE_CUDA_DV(v)
#endif

typedef enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInvalidDevice = 101,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorNotSupported = 801,
    cudaErrorStreamCaptureUnsupported = 900
} cudaError_t;

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
};

typedef enum cudaGraphExecUpdateResult {
    cudaGraphExecUpdateSuccess = 0,
    cudaGraphExecUpdateError = 1
} cudaGraphExecUpdateResult;

typedef struct cudaGraphExecUpdateResultInfo_st {
    enum cudaGraphExecUpdateResult result;
    cudaGraphNode_t errorNode;
    cudaGraphNode_t errorFromNode;
} cudaGraphExecUpdateResultInfo;

struct cudaDeviceProp {
    char name[256];
    size_t totalGlobalMem;
    size_t sharedMemPerBlock;
    int multiProcessorCount;
    int major;
    int minor;
};

static inline const char* cudaGetErrorString(cudaError_t e) {
    switch (e) {
        case cudaSuccess: return "no error";
        case cudaErrorInvalidValue: return "invalid argument";
        case cudaErrorMemoryAllocation: return "out of memory";
        case cudaErrorInvalidDevice: return "invalid device ordinal";
        case cudaErrorInvalidResourceHandle: return "invalid resource handle";
        case cudaErrorNotSupported: return "operation not supported (fake CUDA: host memory only)";
        case cudaErrorStreamCaptureUnsupported: return "operation not permitted when stream is capturing (fake CUDA: nothing to capture)";
    }
    return "unrecognized error code";
}
static inline const char* cudaGetErrorName(cudaError_t e) { return e == cudaSuccess ? "cudaSuccess" : "cudaError"; }
static inline cudaError_t cudaGetLastError(void) { return cudaSuccess; }
static inline cudaError_t cudaPeekAtLastError(void) { return cudaSuccess; }

/* Memory: host memory, so CPU engines read what cudaMemcpy wrote. */
static inline cudaError_t cudaMalloc(void** p, size_t size) {
    if (!p) return cudaErrorInvalidValue;
    *p = calloc(1, size ? size : 1);
    return *p ? cudaSuccess : cudaErrorMemoryAllocation;
}
static inline cudaError_t cudaMallocHost(void** p, size_t size) { return cudaMalloc(p, size); }
static inline cudaError_t cudaFree(void* p) { free(p); return cudaSuccess; }
static inline cudaError_t cudaFreeHost(void* p) { free(p); return cudaSuccess; }
static inline cudaError_t cudaMemcpy(void* dst, const void* src, size_t n, enum cudaMemcpyKind kind) {
    (void)kind;
    if (n && (!dst || !src)) return cudaErrorInvalidValue;
    if (n) memmove(dst, src, n);
    return cudaSuccess;
}
static inline cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t n, enum cudaMemcpyKind kind,
                                          cudaStream_t s FAKE_CUDA_DV(0)) {
    (void)s;
    return cudaMemcpy(dst, src, n, kind);
}
static inline cudaError_t cudaMemset(void* p, int value, size_t n) {
    if (n && !p) return cudaErrorInvalidValue;
    if (n) memset(p, value, n);
    return cudaSuccess;
}
static inline cudaError_t cudaMemsetAsync(void* p, int value, size_t n, cudaStream_t s FAKE_CUDA_DV(0)) {
    (void)s;
    return cudaMemset(p, value, n);
}

/* Device: one, synchronous (the CPU engines return when the work is done). */
static inline cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }
static inline cudaError_t cudaGetDevice(int* d) { if (!d) return cudaErrorInvalidValue; *d = 0; return cudaSuccess; }
static inline cudaError_t cudaSetDevice(int d) { return d == 0 ? cudaSuccess : cudaErrorInvalidDevice; }
static inline cudaError_t cudaGetDeviceCount(int* n) { if (!n) return cudaErrorInvalidValue; *n = 1; return cudaSuccess; }
static inline cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp* prop, int d) {
    if (!prop) return cudaErrorInvalidValue;
    if (d != 0) return cudaErrorInvalidDevice;
    memset(prop, 0, sizeof *prop);
    strcpy(prop->name, "fake CUDA device (host memory)");
    const char* cc = getenv("FAKE_CUDA_CC");
    int v = cc ? atoi(cc) : 90;
    prop->major = v / 10;
    prop->minor = v % 10;
    prop->multiProcessorCount = 1;
    prop->totalGlobalMem = (size_t)1 << 34;
    prop->sharedMemPerBlock = 48 << 10;
    return cudaSuccess;
}

/* Streams: tokens only; work on them is already finished when a call returns. */
struct CUstream_st { int unused; };
static inline cudaError_t cudaStreamCreate(cudaStream_t* s) {
    if (!s) return cudaErrorInvalidValue;
    *s = (cudaStream_t)calloc(1, sizeof(struct CUstream_st));
    return *s ? cudaSuccess : cudaErrorMemoryAllocation;
}
#define cudaStreamNonBlocking 0x01
static inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t* s, unsigned int flags) {
    (void)flags;
    return cudaStreamCreate(s);
}
static inline cudaError_t cudaStreamDestroy(cudaStream_t s) { free(s); return cudaSuccess; }
/* Stream capture: refused (no device work to record); the shim's CUDA-graph paths say so. */
enum cudaStreamCaptureMode {
    cudaStreamCaptureModeGlobal = 0,
    cudaStreamCaptureModeThreadLocal = 1,
    cudaStreamCaptureModeRelaxed = 2
};
static inline cudaError_t cudaStreamBeginCapture(cudaStream_t s, enum cudaStreamCaptureMode mode) {
    (void)s; (void)mode;
    return cudaErrorStreamCaptureUnsupported;
}
static inline cudaError_t cudaStreamEndCapture(cudaStream_t s, cudaGraph_t* g) {
    (void)s;
    if (g) *g = 0;
    return cudaErrorStreamCaptureUnsupported;
}
static inline cudaError_t cudaStreamSynchronize(cudaStream_t s) { (void)s; return cudaSuccess; }

/* Events: host timestamps. */
struct CUevent_st { struct timespec at; };
static inline cudaError_t cudaEventCreate(cudaEvent_t* e) {
    if (!e) return cudaErrorInvalidValue;
    *e = (cudaEvent_t)calloc(1, sizeof(struct CUevent_st));
    return *e ? cudaSuccess : cudaErrorMemoryAllocation;
}
static inline cudaError_t cudaEventDestroy(cudaEvent_t e) { free(e); return cudaSuccess; }
static inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s FAKE_CUDA_DV(0)) {
    (void)s;
    if (!e) return cudaErrorInvalidResourceHandle;
    clock_gettime(CLOCK_MONOTONIC, &e->at);
    return cudaSuccess;
}
static inline cudaError_t cudaEventSynchronize(cudaEvent_t e) { return e ? cudaSuccess : cudaErrorInvalidResourceHandle; }
static inline cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t a, cudaEvent_t b) {
    if (!ms || !a || !b) return cudaErrorInvalidValue;
    *ms = (float)((double)(b->at.tv_sec - a->at.tv_sec) * 1e3 + (double)(b->at.tv_nsec - a->at.tv_nsec) / 1e6);
    return cudaSuccess;
}

/* CUDA graphs: an empty graph can be made, launched (nothing to do) and destroyed; nothing can
 * be added to one (stream capture is refused above). */
enum cudaGraphNodeType {
    cudaGraphNodeTypeKernel = 0,
    cudaGraphNodeTypeMemcpy = 1,
    cudaGraphNodeTypeMemset = 2,
    cudaGraphNodeTypeGraph = 4,
    cudaGraphNodeTypeEmpty = 5
};
/* Node parameters: declared so code that updates graphs compiles; no node exists to update. */
struct cudaKernelNodeParams { void* func; void** kernelParams; void** extra; unsigned int sharedMemBytes; };
struct cudaMemcpy3DParms { void* unused; };
struct cudaMemsetParams { void* dst; size_t pitch; unsigned int value; unsigned int elementSize; size_t width; size_t height; };
static inline cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t n, struct cudaKernelNodeParams* p) { (void)n; (void)p; return cudaErrorInvalidValue; }
static inline cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t n, const struct cudaKernelNodeParams* p) { (void)n; (void)p; return cudaErrorInvalidValue; }
static inline cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t n, struct cudaMemcpy3DParms* p) { (void)n; (void)p; return cudaErrorInvalidValue; }
static inline cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t n, const struct cudaMemcpy3DParms* p) { (void)n; (void)p; return cudaErrorInvalidValue; }
static inline cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t n, struct cudaMemsetParams* p) { (void)n; (void)p; return cudaErrorInvalidValue; }
static inline cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t n, const struct cudaMemsetParams* p) { (void)n; (void)p; return cudaErrorInvalidValue; }
struct CUgraph_st { int unused; };
struct CUgraphExec_st { int unused; };
static inline cudaError_t cudaGraphCreate(cudaGraph_t* g, unsigned int flags) {
    (void)flags;
    if (!g) return cudaErrorInvalidValue;
    *g = (cudaGraph_t)calloc(1, sizeof(struct CUgraph_st));
    return *g ? cudaSuccess : cudaErrorMemoryAllocation;
}
static inline cudaError_t cudaGraphDestroy(cudaGraph_t g) { free(g); return cudaSuccess; }
static inline cudaError_t cudaGraphInstantiate(cudaGraphExec_t* e, cudaGraph_t g, unsigned long long flags FAKE_CUDA_DV(0)) {
    (void)flags;
    if (!e || !g) return cudaErrorInvalidValue;
    *e = (cudaGraphExec_t)calloc(1, sizeof(struct CUgraphExec_st));
    return *e ? cudaSuccess : cudaErrorMemoryAllocation;
}
static inline cudaError_t cudaGraphExecDestroy(cudaGraphExec_t e) { free(e); return cudaSuccess; }
static inline cudaError_t cudaGraphLaunch(cudaGraphExec_t e, cudaStream_t s) {
    (void)s;
    return e ? cudaSuccess : cudaErrorInvalidResourceHandle;
}
static inline cudaError_t cudaGraphExecUpdate(cudaGraphExec_t e, cudaGraph_t g, cudaGraphExecUpdateResultInfo* info) {
    (void)e; (void)g; (void)info;
    return cudaErrorNotSupported;
}
static inline cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t* n, cudaGraph_t g, const cudaGraphNode_t* deps,
                                                     size_t ndeps, cudaGraph_t child) {
    (void)n; (void)g; (void)deps; (void)ndeps; (void)child;
    return cudaErrorNotSupported;
}
static inline cudaError_t cudaGraphGetNodes(cudaGraph_t g, cudaGraphNode_t* nodes, size_t* n) {
    (void)nodes;
    if (!g || !n) return cudaErrorInvalidValue;
    *n = 0;
    return cudaSuccess;
}
static inline cudaError_t cudaGraphNodeGetType(cudaGraphNode_t n, enum cudaGraphNodeType* t) {
    (void)n; (void)t;
    return cudaErrorInvalidValue;
}
static inline cudaError_t cudaGraphDestroyNode(cudaGraphNode_t n) {
    (void)n;
    return cudaErrorInvalidValue;
}
static inline cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t n, cudaGraph_t* g) {
    (void)n; (void)g;
    return cudaErrorNotSupported;
}
static inline cudaError_t cudaGraphExecChildGraphNodeSetParams(cudaGraphExec_t e, cudaGraphNode_t n, cudaGraph_t g) {
    (void)e; (void)n; (void)g;
    return cudaErrorNotSupported;
}
