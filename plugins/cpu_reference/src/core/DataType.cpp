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

namespace
{

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

double roundToDataType(double v, DataType type)
{
    switch(type)
    {
    case DataType::Float: return static_cast<double>(static_cast<float>(v));
    case DataType::Half: return hipdnnHalfToFloat(hipdnnDoubleToHalf(v));
    case DataType::BFloat16: return hipdnnBfloat16ToFloat(hipdnnDoubleToBfloat16(v));
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
