// Matmul kernel: C[b..., m, n] = Σ_k A[b..., m, k] · B[b..., k, n].
//
// Ranks are >= 2. The batch dimensions (all but the last two) follow NumPy broadcasting against
// C's batch dimensions: shapes are right-aligned and a batch dimension of A or B may be 1 (or
// absent) where C's is larger. Any strides work, so a transposed operand is just a view with
// swapped strides. Accumulation is fp32 for float/half/bfloat16 and fp64 when any operand is
// double (or MatmulParams::accumulator says Double). C is overwritten.
#pragma once

#include "core/StridedLoop.hpp"
#include "core/TensorView.hpp"

#include <string>

namespace hipdnngo::cpu_reference
{

struct MatmulParams
{
    Accumulator accumulator = Accumulator::Auto;
};

// checkMatmul returns "" when the shapes are valid, else the reason.
std::string checkMatmul(const TensorView& a, const TensorView& b, const TensorView& c);

// matmul computes c = a · b. Throws KernelError on invalid shapes.
void matmul(const TensorView& a, const TensorView& b, const TensorView& c, const MatmulParams& p = {});

} // namespace hipdnngo::cpu_reference
