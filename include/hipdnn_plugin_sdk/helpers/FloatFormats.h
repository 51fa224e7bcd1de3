/*
 * hipdnn_plugin_sdk/helpers/FloatFormats.h
 *
 * Conversions between the 16-bit float formats of hipDNN tensors and float / double: IEEE
 * binary16 (HIPDNN_DATA_HALF) and bfloat16 (HIPDNN_DATA_BFLOAT16), stored as their bit patterns.
 *
 * Decoding is exact. Encoding rounds once, to nearest with ties to even, from the exact value
 * (a double, or a float widened exactly), so a double never goes through float on its way down
 * (no double rounding). Overflow goes to infinity; NaN stays NaN (quiet, sign kept).
 *
 * The one implementation of these conversions in the project: the engines, the tools and the Go
 * core (through cgo) use it. Usable from C (C99 or later) and C++.
 */
#ifndef HIPDNN_PLUGIN_SDK_HELPERS_FLOAT_FORMATS_H
#define HIPDNN_PLUGIN_SDK_HELPERS_FLOAT_FORMATS_H

#include <math.h>
#include <stdint.h>
#include <string.h>

static inline float hipdnnFloatFromBits(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static inline uint32_t hipdnnBitsOfFloat(float f)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return bits;
}

/* binary16 -> float, exact (subnormals, infinities and NaN payloads included). Branch-free
 * (every case computed, one picked by masks) so that loops over it vectorise. */
static inline float hipdnnHalfToFloat(uint16_t h)
{
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    const uint32_t magnitude = h & 0x7FFFu, exponent = magnitude >> 10;
    const uint32_t normal = (magnitude << 13) + (112u << 23); /* rebias 15 -> 127 */
    const uint32_t special = (magnitude << 13) | 0x7F800000u; /* infinity, NaN with its payload */
    /* zero or subnormal: mantissa * 2^-24, exact in float */
    const uint32_t subnormal = hipdnnBitsOfFloat((float)(h & 0x3FFu) * 5.9604644775390625e-8f);
    const uint32_t isSpecial = 0u - (uint32_t)(exponent == 0x1Fu), isSubnormal = 0u - (uint32_t)(exponent == 0u);
    return hipdnnFloatFromBits(sign | (isSpecial & special) | (~isSpecial & ((isSubnormal & subnormal) | (~isSubnormal & normal))));
}

/* bfloat16 -> float, exact: the upper half of a binary32. */
static inline float hipdnnBfloat16ToFloat(uint16_t b) { return hipdnnFloatFromBits((uint32_t)b << 16); }

/*
 * hipdnnRoundToBinary rounds v to a binary format with expBits exponent bits and mantBits stored
 * mantissa bits (IEEE-style: bias 2^(expBits-1)-1, subnormals, infinities) and returns its bit
 * pattern. frexp and ldexp are exact, so nearbyint (ties to even in the default rounding mode)
 * is the only rounding.
 */
static inline uint32_t hipdnnRoundToBinary(double v, int expBits, int mantBits)
{
    const uint32_t expMask = ((1u << expBits) - 1u) << mantBits;
    const uint32_t sign = signbit(v) ? 1u << (expBits + mantBits) : 0u;
    const int bias = (1 << (expBits - 1)) - 1;
    double a = fabs(v), significand;
    int e = 0, exponent;
    if(isnan(v))
    {
        return sign | expMask | (1u << (mantBits - 1));
    }
    if(isinf(a))
    {
        return sign | expMask;
    }
    if(a < ldexp(1.0, 1 - bias))
    {
        /* Subnormal range: whole units of 2^(1 - bias - mantBits). Rounding up to 2^mantBits
         * units gives the smallest normal, whose bit pattern is that same integer. */
        return sign | (uint32_t)nearbyint(ldexp(a, mantBits - (1 - bias)));
    }
    significand = nearbyint(ldexp(frexp(a, &e), mantBits + 1)); /* in [2^M, 2^(M+1)] */
    exponent = e - 1;
    if(significand == ldexp(1.0, mantBits + 1))
    {
        significand = ldexp(1.0, mantBits); /* the rounding carried into the exponent */
        ++exponent;
    }
    if(exponent > bias)
    {
        return sign | expMask;
    }
    return sign | ((uint32_t)(exponent + bias) << mantBits) | ((uint32_t)significand - (1u << mantBits));
}

static inline uint16_t hipdnnDoubleToHalf(double v) { return (uint16_t)hipdnnRoundToBinary(v, 5, 10); }
static inline uint16_t hipdnnDoubleToBfloat16(double v) { return (uint16_t)hipdnnRoundToBinary(v, 8, 7); }

/* float -> binary16 on the bits (the hot conversion), one rounding to nearest even; the same
 * result as hipdnnDoubleToHalf((double)f), which the SDK's tests check. Branch-free, so loops
 * over it vectorise:
 *   |f| >= 2^16 (or NaN): infinity (NaN: quiet, sign kept, payload dropped, as the double path);
 *   |f| <  2^-14: a float addition of 0.5 (ulp 2^-24, the binary16 subnormal unit) rounds |f| to
 *                 whole units in the FPU's round-to-nearest-even; the units are the pattern;
 *   otherwise:    rebias the exponent, add 0xFFF plus the kept part's lowest bit and drop 13
 *                 bits (nearest even; a carry into the exponent, up to infinity, is right). */
static inline uint16_t hipdnnFloatToHalf(float f)
{
    const uint32_t u = hipdnnBitsOfFloat(f);
    const uint32_t sign = (u >> 16) & 0x8000u, a = u & 0x7FFFFFFFu;
    const uint32_t big = 0x7C00u | ((0u - (uint32_t)(a > 0x7F800000u)) & 0x200u);
    const uint32_t subnormal = hipdnnBitsOfFloat(hipdnnFloatFromBits(a) + 0.5f) - 0x3F000000u;
    const uint32_t normal = (a + 0xC8000FFFu + ((a >> 13) & 1u)) >> 13;
    const uint32_t isBig = 0u - (uint32_t)(a >= 0x47800000u), isSubnormal = 0u - (uint32_t)(a < 0x38800000u);
    return (uint16_t)(sign | (isBig & big) | (~isBig & ((isSubnormal & subnormal) | (~isSubnormal & normal))));
}

/* float -> bfloat16 on the bits (the common hot conversion): adding 0x7FFF plus the kept
 * part's lowest bit rounds to nearest even and carries into the exponent as it must; the same
 * result as hipdnnDoubleToBfloat16((double)f), which the SDK's tests check. */
static inline uint16_t hipdnnFloatToBfloat16(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    if((u & 0x7FFFFFFFu) > 0x7F800000u)
    {
        return (uint16_t)((u >> 16) | 0x40u); /* NaN: quiet, sign kept */
    }
    return (uint16_t)((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

#endif
