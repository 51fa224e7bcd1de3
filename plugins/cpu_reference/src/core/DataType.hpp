// DataType: the element types the CPU reference kernels read and write, and the exact
// conversions between them and the float/double accumulators.
//
// The kernels never see the flatbuffer DataType enum; the plugin layer maps it onto this one
// (see plugin/GraphModel.cpp). Keeping the kernels free of flatbuffers lets the tests and future
// ops use them with nothing but a pointer, dims and strides.
#pragma once

#include <cstddef>
#include <cstdint>

#include <hipdnn_plugin_sdk/helpers/FloatFormats.h>

namespace hipdnngo::cpu_reference
{

// DataType lists every element type a TensorView may hold.
enum class DataType : uint8_t
{
    Float, // IEEE binary32
    Half, // IEEE binary16, stored as its 16-bit pattern
    BFloat16, // bfloat16 (upper half of a binary32), stored as its 16-bit pattern
    Double, // IEEE binary64
    Int8,
    Uint8,
    Int32,
    Int64,
    Boolean, // one byte; 0 is false, anything else true; stores write 0 or 1
};

// dataTypeSize returns the size of one element in bytes.
size_t dataTypeSize(DataType type);

// dataTypeName returns a stable lower-case name ("float", "half", "bfloat16", …) for messages.
const char* dataTypeName(DataType type);

// isFloatingPoint is true for Float, Half, BFloat16 and Double.
bool isFloatingPoint(DataType type);

// Half and bfloat16 bit patterns convert through the SDK's FloatFormats.h (hipdnnHalfToFloat,
// hipdnnDoubleToHalf, ...): decoding is exact and encoding rounds once from the double.

// roundToDataType returns v after a store to `type` and a load back: the value the tensor would
// hold. Integer types truncate toward zero and saturate (NaN becomes 0); Boolean gives 0 or 1.
double roundToDataType(double v, DataType type);

} // namespace hipdnngo::cpu_reference
