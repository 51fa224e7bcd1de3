/*
 * cudnn.h - the part of cuDNN's C API that cudnn-frontend v9 code names, mapped onto
 * hipdnn_backend. It is NOT cuDNN: it exists so that programs written against cudnn-frontend
 * compile with only their include path repointed (-I<prefix>/include/hipdnn_compatibility/cudnn).
 *
 * What it declares:
 *   - cudnnHandle_t, which is hipdnnHandle_t (the same object; pass it to either API);
 *   - cudnnStatus_t with cuDNN 9's numeric values, cudnnDataType_t, and the note and mode enums
 *     cudnn-frontend code passes around;
 *   - cudnnCreate / cudnnDestroy / cudnnSetStream / cudnnGetStream / cudnnGetErrorString /
 *     cudnnGetVersion / cudnnGetCudartVersion, as inline forwarders to hipdnn_backend;
 *   - CUDNN_MAJOR / CUDNN_MINOR / CUDNN_PATCHLEVEL / CUDNN_VERSION: the cuDNN feature level the
 *     shim claims (docs/cudnn-shim.md says why this is not the frontend version).
 *
 * Streams: cudnnSetStream takes a cudaStream_t. With the CUDA runtime headers on the include
 * path that is CUDA's type; otherwise this header declares the same typedef CUDA does
 * (struct CUstream_st*), so including CUDA's headers later still compiles. The stream is handed
 * to hipdnnSetStream unchanged: on NVIDIA a hipStream_t is a cudaStream_t.
 *
 * Define HIPDNN_CUDNN_SHIM_NO_CUDA_INCLUDE to stop this header from looking for CUDA's headers.
 */
#ifndef HIPDNN_COMPAT_CUDNN_H
#define HIPDNN_COMPAT_CUDNN_H

#include <stddef.h>
#include <stdint.h>

#include <hipdnn_backend.h>

/* The stream and fp16/bf16 types come from CUDA when it is there, else from HIP's fp16 header
 * when that is there, else from the small stand-ins below. */
#if defined(__has_include) && !defined(HIPDNN_CUDNN_SHIM_NO_CUDA_INCLUDE)
#  if __has_include(<cuda_runtime_api.h>)
#    include <cuda_runtime_api.h>
#    define HIPDNN_CUDNN_SHIM_HAVE_CUDA_RUNTIME 1
#  endif
#  if defined(__cplusplus) && __has_include(<cuda_fp16.h>) && __has_include(<cuda_bf16.h>)
#    include <cuda_fp16.h>
#    include <cuda_bf16.h>
#    define HIPDNN_CUDNN_SHIM_HAVE_HALF_TYPES 1
#  endif
#endif

#ifndef HIPDNN_CUDNN_SHIM_HAVE_CUDA_RUNTIME
/* Same declarations as CUDA's driver_types.h, so a later include of CUDA's headers agrees. */
typedef struct CUstream_st* cudaStream_t;
typedef struct CUgraph_st* cudaGraph_t;
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* cuDNN feature level claimed: cuDNN 9.14, the newest level whose graph features cudnn-frontend
 * 1.23 gates on (sink tokens and max/sum-exp outputs need 9.13). What hipDNN lacks at this level
 * is refused by name at validate(), not hidden behind a lower version. */
#define CUDNN_MAJOR 9
#define CUDNN_MINOR 14
#define CUDNN_PATCHLEVEL 0
#define CUDNN_VERSION (CUDNN_MAJOR * 10000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)

/* The handle is hipdnn_backend's: cudnnCreate makes a hipdnnHandle_t. */
typedef hipdnnHandle_t cudnnHandle_t;
typedef hipdnnBackendDescriptor_t cudnnBackendDescriptor_t;

/* cuDNN 9's status values (categories of 1000). */
typedef enum {
    CUDNN_STATUS_SUCCESS = 0,
    CUDNN_STATUS_NOT_INITIALIZED = 1001,
    CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH = 1002,
    CUDNN_STATUS_SERIALIZATION_VERSION_MISMATCH = 1003,
    CUDNN_STATUS_DEPRECATED = 1004,
    CUDNN_STATUS_LICENSE_ERROR = 1005,
    CUDNN_STATUS_RUNTIME_IN_PROGRESS = 1006,
    CUDNN_STATUS_RUNTIME_FP_OVERFLOW = 1007,
    CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED = 1008,
    CUDNN_STATUS_BAD_PARAM = 2000,
    CUDNN_STATUS_BAD_PARAM_NULL_POINTER = 2002,
    CUDNN_STATUS_BAD_PARAM_MISALIGNED_POINTER = 2003,
    CUDNN_STATUS_BAD_PARAM_NOT_FINALIZED = 2004,
    CUDNN_STATUS_BAD_PARAM_OUT_OF_BOUND = 2005,
    CUDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT = 2006,
    CUDNN_STATUS_BAD_PARAM_STREAM_MISMATCH = 2007,
    CUDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH = 2008,
    CUDNN_STATUS_BAD_PARAM_DUPLICATED_ENTRIES = 2009,
    CUDNN_STATUS_BAD_PARAM_ATTRIBUTE_TYPE = 2010,
    CUDNN_STATUS_BAD_PARAM_CUDA_GRAPH_MISMATCH = 2011,
    CUDNN_STATUS_BAD_PARAM_DESCRIPTOR_TYPE = 2012,
    CUDNN_STATUS_NOT_SUPPORTED = 3000,
    CUDNN_STATUS_NOT_SUPPORTED_GRAPH_PATTERN = 3001,
    CUDNN_STATUS_NOT_SUPPORTED_SHAPE = 3002,
    CUDNN_STATUS_NOT_SUPPORTED_DATA_TYPE = 3003,
    CUDNN_STATUS_NOT_SUPPORTED_LAYOUT = 3004,
    CUDNN_STATUS_NOT_SUPPORTED_INCOMPATIBLE_CUDA_DRIVER = 3005,
    CUDNN_STATUS_NOT_SUPPORTED_INCOMPATIBLE_CUDART = 3006,
    CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH = 3007,
    CUDNN_STATUS_NOT_SUPPORTED_RUNTIME_PREREQUISITE_MISSING = 3008,
    CUDNN_STATUS_NOT_SUPPORTED_SUBLIBRARY_UNAVAILABLE = 3009,
    CUDNN_STATUS_NOT_SUPPORTED_SHARED_MEMORY_INSUFFICIENT = 3010,
    CUDNN_STATUS_NOT_SUPPORTED_PADDING = 3011,
    CUDNN_STATUS_NOT_SUPPORTED_BAD_LAUNCH_PARAM = 3012,
    CUDNN_STATUS_NOT_SUPPORTED_CUDA_GRAPH_NATIVE_API = 3013,
    CUDNN_STATUS_INTERNAL_ERROR = 4000,
    CUDNN_STATUS_INTERNAL_ERROR_COMPILATION_FAILED = 4001,
    CUDNN_STATUS_INTERNAL_ERROR_UNEXPECTED_VALUE = 4002,
    CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED = 4003,
    CUDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED = 4004,
    CUDNN_STATUS_INTERNAL_ERROR_BAD_LAUNCH_PARAM = 4005,
    CUDNN_STATUS_INTERNAL_ERROR_TEXTURE_CREATION_FAILED = 4006,
    CUDNN_STATUS_EXECUTION_FAILED = 5000,
    CUDNN_STATUS_EXECUTION_FAILED_CUDA_DRIVER = 5001,
    CUDNN_STATUS_EXECUTION_FAILED_CUBLAS = 5002,
    CUDNN_STATUS_EXECUTION_FAILED_CUDART = 5003,
    CUDNN_STATUS_EXECUTION_FAILED_CURAND = 5004,
    /* Older spellings cuDNN 9 keeps. */
    CUDNN_STATUS_ALLOC_FAILED = CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED,
    CUDNN_STATUS_INVALID_VALUE = 2001,
    CUDNN_STATUS_ARCH_MISMATCH = CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH,
    CUDNN_STATUS_MAPPING_ERROR = CUDNN_STATUS_INTERNAL_ERROR_TEXTURE_CREATION_FAILED,
    CUDNN_STATUS_RUNTIME_PREREQUISITE_MISSING = CUDNN_STATUS_NOT_SUPPORTED_RUNTIME_PREREQUISITE_MISSING,
    CUDNN_STATUS_VERSION_MISMATCH = CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH
} cudnnStatus_t;

/* cuDNN's element types (values as cuDNN numbers them, not as hipDNN does). */
typedef enum {
    CUDNN_DATA_FLOAT = 0,
    CUDNN_DATA_DOUBLE = 1,
    CUDNN_DATA_HALF = 2,
    CUDNN_DATA_INT8 = 3,
    CUDNN_DATA_INT32 = 4,
    CUDNN_DATA_INT8x4 = 5,
    CUDNN_DATA_UINT8 = 6,
    CUDNN_DATA_UINT8x4 = 7,
    CUDNN_DATA_INT8x32 = 8,
    CUDNN_DATA_BFLOAT16 = 9,
    CUDNN_DATA_INT64 = 10,
    CUDNN_DATA_BOOLEAN = 11,
    CUDNN_DATA_FP8_E4M3 = 12,
    CUDNN_DATA_FP8_E5M2 = 13,
    CUDNN_DATA_FAST_FLOAT_FOR_FP8 = 14,
    CUDNN_DATA_FP8_E8M0 = 15,
    CUDNN_DATA_FP4_E2M1 = 16,
    CUDNN_DATA_INT4 = 17
} cudnnDataType_t;

typedef enum {
    CUDNN_NUMERICAL_NOTE_TENSOR_CORE = 0,
    CUDNN_NUMERICAL_NOTE_DOWN_CONVERT_INPUTS = 1,
    CUDNN_NUMERICAL_NOTE_REDUCED_PRECISION_REDUCTION = 2,
    CUDNN_NUMERICAL_NOTE_FFT = 3,
    CUDNN_NUMERICAL_NOTE_NONDETERMINISTIC = 4,
    CUDNN_NUMERICAL_NOTE_WINOGRAD = 5,
    CUDNN_NUMERICAL_NOTE_WINOGRAD_TILE_4x4 = 6,
    CUDNN_NUMERICAL_NOTE_WINOGRAD_TILE_6x6 = 7,
    CUDNN_NUMERICAL_NOTE_WINOGRAD_TILE_13x13 = 8,
    CUDNN_NUMERICAL_NOTE_STRICT_NAN_PROP = 9,
    CUDNN_NUMERICAL_NOTE_TYPE_COUNT = 10
} cudnnBackendNumericalNote_t;

typedef enum {
    CUDNN_BEHAVIOR_NOTE_RUNTIME_COMPILATION = 0,
    CUDNN_BEHAVIOR_NOTE_REQUIRES_FILTER_INT8x32_REORDER = 1,
    CUDNN_BEHAVIOR_NOTE_REQUIRES_BIAS_INT8x32_REORDER = 2,
    CUDNN_BEHAVIOR_NOTE_SUPPORTS_CUDA_GRAPH_NATIVE_API = 3,
    CUDNN_BEHAVIOR_NOTE_TYPE_COUNT = 4
} cudnnBackendBehaviorNote_t;

typedef enum {
    CUDNN_HEUR_MODE_INSTANT = 0,
    CUDNN_HEUR_MODE_B = 1,
    CUDNN_HEUR_MODE_FALLBACK = 2,
    CUDNN_HEUR_MODE_A = 3,
    CUDNN_HEUR_MODES_COUNT = 4
} cudnnBackendHeurMode_t;

typedef enum { CUDNN_CONVOLUTION = 0, CUDNN_CROSS_CORRELATION = 1 } cudnnConvolutionMode_t;

typedef enum {
    CUDNN_NORM_FWD_INFERENCE = 0,
    CUDNN_NORM_FWD_TRAINING = 1
} cudnnBackendNormFwdPhase_t;

/* A rational window/stride value of resample (numerator / denominator). */
typedef struct {
    int64_t numerator;
    int64_t denominator;
} cudnnFraction_t;

/* cudnnStatusFromHipdnn maps a hipdnn_backend status onto the nearest cuDNN status. */
static inline cudnnStatus_t cudnnStatusFromHipdnn(hipdnnStatus_t s) {
    switch (s) {
    case HIPDNN_STATUS_SUCCESS: return CUDNN_STATUS_SUCCESS;
    case HIPDNN_STATUS_NOT_INITIALIZED: return CUDNN_STATUS_NOT_INITIALIZED;
    case HIPDNN_STATUS_BAD_PARAM: return CUDNN_STATUS_BAD_PARAM;
    case HIPDNN_STATUS_BAD_PARAM_NULL_POINTER: return CUDNN_STATUS_BAD_PARAM_NULL_POINTER;
    case HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED: return CUDNN_STATUS_BAD_PARAM_NOT_FINALIZED;
    case HIPDNN_STATUS_BAD_PARAM_OUT_OF_BOUND: return CUDNN_STATUS_BAD_PARAM_OUT_OF_BOUND;
    case HIPDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT: return CUDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT;
    case HIPDNN_STATUS_BAD_PARAM_STREAM_MISMATCH: return CUDNN_STATUS_BAD_PARAM_STREAM_MISMATCH;
    case HIPDNN_STATUS_NOT_SUPPORTED: return CUDNN_STATUS_NOT_SUPPORTED;
    case HIPDNN_STATUS_INTERNAL_ERROR: return CUDNN_STATUS_INTERNAL_ERROR;
    case HIPDNN_STATUS_ALLOC_FAILED: return CUDNN_STATUS_ALLOC_FAILED;
    case HIPDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED: return CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED;
    case HIPDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED:
        return CUDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED;
    case HIPDNN_STATUS_EXECUTION_FAILED: return CUDNN_STATUS_EXECUTION_FAILED;
    case HIPDNN_STATUS_PLUGIN_ERROR: return CUDNN_STATUS_EXECUTION_FAILED;
    case HIPDNN_STATUS_VERSION_MISMATCH: return CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH;
    }
    return CUDNN_STATUS_INTERNAL_ERROR;
}

/* cudnnCreate makes a hipdnn_backend handle (hipdnnCreate). */
static inline cudnnStatus_t cudnnCreate(cudnnHandle_t* handle) { return cudnnStatusFromHipdnn(hipdnnCreate(handle)); }

/* cudnnDestroy destroys a handle made by cudnnCreate or hipdnnCreate. */
static inline cudnnStatus_t cudnnDestroy(cudnnHandle_t handle) { return cudnnStatusFromHipdnn(hipdnnDestroy(handle)); }

/* cudnnSetStream / cudnnGetStream: the stream passes through as the backend's hipStream_t. */
static inline cudnnStatus_t cudnnSetStream(cudnnHandle_t handle, cudaStream_t stream) {
    return cudnnStatusFromHipdnn(hipdnnSetStream(handle, (hipStream_t)(void*)stream));
}

static inline cudnnStatus_t cudnnGetStream(cudnnHandle_t handle, cudaStream_t* stream) {
    hipStream_t s = NULL;
    hipdnnStatus_t st;
    if (stream == NULL)
        return CUDNN_STATUS_BAD_PARAM_NULL_POINTER;
    st = hipdnnGetStream(handle, &s);
    if (st == HIPDNN_STATUS_SUCCESS)
        *stream = (cudaStream_t)(void*)s;
    return cudnnStatusFromHipdnn(st);
}

/* cudnnGetErrorString names a status, like cuDNN does. */
static inline const char* cudnnGetErrorString(cudnnStatus_t status) {
    switch (status) {
    case CUDNN_STATUS_SUCCESS: return "CUDNN_STATUS_SUCCESS";
    case CUDNN_STATUS_NOT_INITIALIZED: return "CUDNN_STATUS_NOT_INITIALIZED";
    case CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH: return "CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH";
    case CUDNN_STATUS_BAD_PARAM: return "CUDNN_STATUS_BAD_PARAM";
    case CUDNN_STATUS_INVALID_VALUE: return "CUDNN_STATUS_INVALID_VALUE";
    case CUDNN_STATUS_BAD_PARAM_NULL_POINTER: return "CUDNN_STATUS_BAD_PARAM_NULL_POINTER";
    case CUDNN_STATUS_BAD_PARAM_NOT_FINALIZED: return "CUDNN_STATUS_BAD_PARAM_NOT_FINALIZED";
    case CUDNN_STATUS_BAD_PARAM_OUT_OF_BOUND: return "CUDNN_STATUS_BAD_PARAM_OUT_OF_BOUND";
    case CUDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT: return "CUDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT";
    case CUDNN_STATUS_BAD_PARAM_STREAM_MISMATCH: return "CUDNN_STATUS_BAD_PARAM_STREAM_MISMATCH";
    case CUDNN_STATUS_NOT_SUPPORTED: return "CUDNN_STATUS_NOT_SUPPORTED";
    case CUDNN_STATUS_INTERNAL_ERROR: return "CUDNN_STATUS_INTERNAL_ERROR";
    case CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED: return "CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED";
    case CUDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED:
        return "CUDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED";
    case CUDNN_STATUS_EXECUTION_FAILED: return "CUDNN_STATUS_EXECUTION_FAILED";
    default: return "CUDNN_STATUS_UNKNOWN";
    }
}

/* cudnnGetVersion reports the cuDNN feature level the shim claims (CUDNN_VERSION), not the
 * frontend version and not hipdnn_backend's: cudnn-frontend code gates features on it. */
static inline size_t cudnnGetVersion(void) { return (size_t)CUDNN_VERSION; }

/* cudnnGetCudartVersion: the CUDA runtime the shim was compiled against, 0 without one. */
static inline size_t cudnnGetCudartVersion(void) {
#if defined(CUDART_VERSION)
    return (size_t)CUDART_VERSION;
#else
    return 0;
#endif
}

#ifdef __cplusplus
}
#endif

#ifdef __cplusplus
#  if !defined(HIPDNN_CUDNN_SHIM_HAVE_HALF_TYPES) && !defined(HIPDNN_CUDNN_SHIM_NO_HALF_STANDINS)
/* Storage-only stand-ins for CUDA's fp16 and bf16 types: the frontend only carries their bits
 * (pass-by-value scalars). Arithmetic on them needs the real headers. A program that brings its
 * own `half` and `nv_bfloat16` (HIP's fp16 headers, say) defines
 * HIPDNN_CUDNN_SHIM_NO_HALF_STANDINS and declares both before including the shim. */
struct __half {
    unsigned short __x;
};
struct __nv_bfloat16 {
    unsigned short __x;
};
typedef struct __half half;
typedef struct __nv_bfloat16 nv_bfloat16;
#  endif
#endif

#endif /* HIPDNN_COMPAT_CUDNN_H */
