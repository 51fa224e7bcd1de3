/* Test stand-in for CUDA's fp16 header: the type names and the two host conversions the samples
 * use. __half stays an aggregate of its bits, as the shim's tests build it. Never installed. */
#pragma once
#include <string.h>
struct __half {
    unsigned short __x;
};
typedef __half half;
typedef struct __half_raw {
    unsigned short x;
} __half_raw;

/* Round-to-nearest-even float -> binary16 (subnormals and overflow handled). */
static inline __half __float2half(float f) {
    unsigned int x;
    memcpy(&x, &f, 4);
    unsigned int sign = (x >> 16) & 0x8000u, absx = x & 0x7fffffffu;
    unsigned short bits;
    if (absx > 0x7f800000u) {
        bits = 0x7fff;
    } else if (absx >= 0x477ff000u) { /* rounds to >= 65520: infinity */
        bits = (unsigned short)(sign | 0x7c00u);
    } else if (absx < 0x38800000u) { /* below the smallest normal half: subnormal or zero */
        unsigned int shift = 126u - (absx >> 23); /* value = mant * 2^-24 >> shift */
        if (shift > 24u) {
            bits = (unsigned short)sign;
        } else {
            unsigned int mant = (absx & 0x7fffffu) | 0x800000u;
            unsigned int r = mant >> shift;
            unsigned int rem = mant & ((1u << shift) - 1u), half_ulp = 1u << (shift - 1u);
            if (rem > half_ulp || (rem == half_ulp && (r & 1u))) ++r;
            bits = (unsigned short)(sign | r);
        }
    } else {
        unsigned int r = absx - 0x38000000u; /* rebias exponent 127 -> 15 */
        unsigned int rem = r & 0x1fffu;
        r >>= 13;
        if (rem > 0x1000u || (rem == 0x1000u && (r & 1u))) ++r;
        bits = (unsigned short)(sign | r);
    }
    __half h;
    h.__x = bits;
    return h;
}

static inline float __half2float(__half h) {
    unsigned int sign = (unsigned int)(h.__x & 0x8000u) << 16, exp = (h.__x >> 10) & 0x1fu, mant = h.__x & 0x3ffu;
    unsigned int x;
    if (exp == 0x1fu) {
        x = sign | 0x7f800000u | (mant << 13);
    } else if (exp == 0) {
        float v = (float)mant * (1.0f / 16777216.0f); /* mant * 2^-24 */
        return sign ? -v : v;
    } else {
        x = sign | ((exp + 112u) << 23) | (mant << 13);
    }
    float f;
    memcpy(&f, &x, 4);
    return f;
}

#ifdef __cplusplus
/* Host comparisons, as CUDA's cuda_fp16.hpp gives host code (by value, NaN unordered). */
static inline bool operator==(__half a, __half b) { return __half2float(a) == __half2float(b); }
static inline bool operator!=(__half a, __half b) { return __half2float(a) != __half2float(b); }
static inline bool operator<(__half a, __half b) { return __half2float(a) < __half2float(b); }
static inline bool operator>(__half a, __half b) { return __half2float(a) > __half2float(b); }
static inline bool operator<=(__half a, __half b) { return __half2float(a) <= __half2float(b); }
static inline bool operator>=(__half a, __half b) { return __half2float(a) >= __half2float(b); }
#endif
