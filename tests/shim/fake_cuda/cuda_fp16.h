/* Test stand-in for CUDA's fp16 header: the type names and the two host conversions the samples
 * use. __half stays an aggregate of its bits, as the shim's tests build it. Never installed. */
#pragma once
#include <hipdnn_plugin_sdk/helpers/FloatFormats.h>
struct __half {
    unsigned short __x;
};
typedef __half half;
typedef struct __half_raw {
    unsigned short x;
} __half_raw;

/* The conversions are the SDK's (one round-to-nearest-even, exact decoding). */
static inline __half __float2half(float f) {
    __half h;
    h.__x = hipdnnFloatToHalf(f);
    return h;
}

static inline float __half2float(__half h) { return hipdnnHalfToFloat(h.__x); }

#ifdef __cplusplus
/* Host comparisons, as CUDA's cuda_fp16.hpp gives host code (by value, NaN unordered). */
static inline bool operator==(__half a, __half b) { return __half2float(a) == __half2float(b); }
static inline bool operator!=(__half a, __half b) { return __half2float(a) != __half2float(b); }
static inline bool operator<(__half a, __half b) { return __half2float(a) < __half2float(b); }
static inline bool operator>(__half a, __half b) { return __half2float(a) > __half2float(b); }
static inline bool operator<=(__half a, __half b) { return __half2float(a) <= __half2float(b); }
static inline bool operator>=(__half a, __half b) { return __half2float(a) >= __half2float(b); }
#endif
