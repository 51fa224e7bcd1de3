#include "core/DataType.hpp"

#include <cmath>
#include <cstring>
#include <limits>

namespace hipdnngo::cpu_reference
{

size_t dataTypeSize(DataType type)
{
    switch(type)
    {
    case DataType::Float: return 4;
    case DataType::Half: return 2;
    case DataType::BFloat16: return 2;
    case DataType::Double: return 8;
    case DataType::Int8: return 1;
    case DataType::Uint8: return 1;
    case DataType::Int32: return 4;
    case DataType::Int64: return 8;
    case DataType::Boolean: return 1;
    }
    return 0;
}

const char* dataTypeName(DataType type)
{
    switch(type)
    {
    case DataType::Float: return "float";
    case DataType::Half: return "half";
    case DataType::BFloat16: return "bfloat16";
    case DataType::Double: return "double";
    case DataType::Int8: return "int8";
    case DataType::Uint8: return "uint8";
    case DataType::Int32: return "int32";
    case DataType::Int64: return "int64";
    case DataType::Boolean: return "boolean";
    }
    return "unknown";
}

bool isFloatingPoint(DataType type)
{
    return type == DataType::Float || type == DataType::Half || type == DataType::BFloat16 || type == DataType::Double;
}

float halfBitsToFloat(uint16_t bits)
{
    const uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
    uint32_t exponent = (bits >> 10) & 0x1Fu;
    uint32_t mantissa = bits & 0x3FFu;
    uint32_t out;
    if(exponent == 0x1F) // inf or NaN: keep the payload
    {
        out = sign | 0x7F800000u | (mantissa << 13);
    }
    else if(exponent != 0) // normal: rebias 15 -> 127
    {
        out = sign | ((exponent + 112u) << 23) | (mantissa << 13);
    }
    else if(mantissa == 0) // signed zero
    {
        out = sign;
    }
    else // subnormal mantissa·2^-24: normalise into a binary32 normal
    {
        int shift = 0;
        while((mantissa & 0x400u) == 0)
        {
            mantissa <<= 1;
            ++shift;
        }
        mantissa &= 0x3FFu;
        out = sign | (static_cast<uint32_t>(127 - 14 - shift) << 23) | (mantissa << 13);
    }
    float value;
    std::memcpy(&value, &out, sizeof value);
    return value;
}

float bfloat16BitsToFloat(uint16_t bits)
{
    const uint32_t out = static_cast<uint32_t>(bits) << 16;
    float value;
    std::memcpy(&value, &out, sizeof value);
    return value;
}

namespace
{

// roundToBinaryFormat rounds v to an IEEE-style binary format with expBits exponent bits and
// mantBits stored mantissa bits, round-to-nearest-even, and returns its bit pattern. It works on
// the exact double value (frexp/ldexp are exact), so there is exactly one rounding.
uint32_t roundToBinaryFormat(double v, int expBits, int mantBits)
{
    const uint32_t signBit = 1u << (expBits + mantBits);
    const uint32_t expMask = ((1u << expBits) - 1u) << mantBits;
    const uint32_t sign = std::signbit(v) ? signBit : 0u;
    if(std::isnan(v))
    {
        return sign | expMask | (1u << (mantBits - 1)); // quiet NaN
    }
    const double a = std::fabs(v);
    if(std::isinf(a))
    {
        return sign | expMask;
    }
    const int bias = (1 << (expBits - 1)) - 1;
    const int minNormalExp = 1 - bias;
    if(a < std::ldexp(1.0, minNormalExp))
    {
        // Subnormal range: count units of 2^(minNormalExp - mantBits). A result of exactly
        // 2^mantBits units is the smallest normal, whose bit pattern is that same integer.
        const double units = std::nearbyint(std::ldexp(a, mantBits - minNormalExp));
        return sign | static_cast<uint32_t>(units);
    }
    int e = 0;
    const double m = std::frexp(a, &e); // a = m·2^e, m in [0.5, 1)
    int exponent = e - 1; // a = (2m)·2^(e-1), 2m in [1, 2)
    double significand = std::nearbyint(std::ldexp(m, mantBits + 1)); // in [2^M, 2^(M+1)]
    if(significand == std::ldexp(1.0, mantBits + 1)) // rounding carried into the exponent
    {
        significand = std::ldexp(1.0, mantBits);
        ++exponent;
    }
    if(exponent > bias)
    {
        return sign | expMask; // overflow rounds to infinity
    }
    return sign | (static_cast<uint32_t>(exponent + bias) << mantBits) | (static_cast<uint32_t>(significand) - (1u << mantBits));
}

template <typename T>
double saturateToInteger(double v)
{
    if(std::isnan(v))
    {
        return 0.0;
    }
    const double t = std::trunc(v);
    const double lo = static_cast<double>(std::numeric_limits<T>::min());
    const double hi = static_cast<double>(std::numeric_limits<T>::max());
    if(t <= lo)
    {
        return lo;
    }
    if(t >= hi)
    {
        return hi;
    }
    return t;
}

} // namespace

uint16_t doubleToHalfBits(double v) { return static_cast<uint16_t>(roundToBinaryFormat(v, 5, 10)); }

uint16_t doubleToBfloat16Bits(double v) { return static_cast<uint16_t>(roundToBinaryFormat(v, 8, 7)); }

double roundToDataType(double v, DataType type)
{
    switch(type)
    {
    case DataType::Float: return static_cast<double>(static_cast<float>(v));
    case DataType::Half: return halfBitsToFloat(doubleToHalfBits(v));
    case DataType::BFloat16: return bfloat16BitsToFloat(doubleToBfloat16Bits(v));
    case DataType::Double: return v;
    case DataType::Int8: return saturateToInteger<int8_t>(v);
    case DataType::Uint8: return saturateToInteger<uint8_t>(v);
    case DataType::Int32: return saturateToInteger<int32_t>(v);
    case DataType::Int64: return saturateToInteger<int64_t>(v);
    case DataType::Boolean: return v != 0.0 ? 1.0 : 0.0;
    }
    return v;
}

} // namespace hipdnngo::cpu_reference
