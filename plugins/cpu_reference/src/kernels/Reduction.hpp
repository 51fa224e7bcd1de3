// Reduction kernel: out = reduce(in) over every axis where out's dim is 1 and in's dim is not.
// in and out have the same rank; each out dim equals in's or is 1. Accumulation is in double.
//
//   ADD           Σ x                 MUL           Π x
//   MIN / MAX     min x / max x       AMAX          max |x|
//   AVG           Σ x / count         NORM1         Σ |x|
//   NORM2         √(Σ x²)             MUL_NO_ZEROS  Π over x != 0 (1 when every x is 0)
// MIN, MAX and AMAX return NaN if any reduced element is NaN.
#pragma once

#include "core/TensorView.hpp"

#include <string>

namespace hipdnngo::cpu_reference
{

// ReductionMode values equal the flatbuffer ReductionMode values (NOT_SET = 0 is not a mode).
enum class ReductionMode : int
{
    Add = 1,
    Mul = 2,
    Min = 3,
    Max = 4,
    AMax = 5,
    Avg = 6,
    Norm1 = 7,
    Norm2 = 8,
    MulNoZeros = 9,
};

// checkReduction returns "" when out is a valid reduction shape of in, else the reason.
std::string checkReduction(const TensorView& in, const TensorView& out, ReductionMode mode);

// reduce computes out. Throws KernelError when checkReduction fails.
void reduce(const TensorView& in, const TensorView& out, ReductionMode mode);

} // namespace hipdnngo::cpu_reference
