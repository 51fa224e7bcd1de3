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

/* binary16 -> float, exact (subnormals, infinities and NaN payloads included). */
static inline float hipdnnHalfToFloat(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exponent = (h >> 10) & 0x1Fu;
    uint32_t mantissa = h & 0x3FFu;
    if(exponent == 0x1Fu)
    {
        return hipdnnFloatFromBits(sign | 0x7F800000u | (mantissa << 13));
    }
    if(exponent == 0)
    {
        /* zero or subnormal: mantissa * 2^-24, exact in float */
        float v = (float)mantissa * 5.9604644775390625e-8f;
        return sign ? -v : v;
    }
    return hipdnnFloatFromBits(sign | ((exponent + 112u) << 23) | (mantissa << 13));
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

/* float -> binary16: the float widens to double exactly, then one rounding. */
static inline uint16_t hipdnnFloatToHalf(float f) { return hipdnnDoubleToHalf((double)f); }

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
