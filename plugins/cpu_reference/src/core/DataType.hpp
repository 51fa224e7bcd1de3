// DataType: the element types the CPU reference kernels read and write, and the exact
// conversions between them and the float/double accumulators.
//
// The kernels never see the flatbuffer DataType enum; the plugin layer maps it onto this one
// (see plugin/GraphModel.cpp). Keeping the kernels free of flatbuffers lets the tests and future
// ops use them with nothing but a pointer, dims and strides.
#pragma once

#include <cstddef>
#include <cstdint>

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

// halfBitsToFloat decodes an IEEE binary16 bit pattern exactly (subnormals, inf, NaN included).
float halfBitsToFloat(uint16_t bits);

// bfloat16BitsToFloat decodes a bfloat16 bit pattern exactly.
float bfloat16BitsToFloat(uint16_t bits);

// doubleToHalfBits rounds v to binary16 with round-to-nearest-even in one step (no double
// rounding through float): overflow gives ±inf, tiny values become subnormals or ±0, NaN stays a
// quiet NaN with v's sign.
uint16_t doubleToHalfBits(double v);

// doubleToBfloat16Bits rounds v to bfloat16 with round-to-nearest-even in one step; same special
// cases as doubleToHalfBits.
uint16_t doubleToBfloat16Bits(double v);

// roundToDataType returns v after a store to `type` and a load back: the value the tensor would
// hold. Integer types truncate toward zero and saturate (NaN becomes 0); Boolean gives 0 or 1.
double roundToDataType(double v, DataType type);

} // namespace hipdnngo::cpu_reference
