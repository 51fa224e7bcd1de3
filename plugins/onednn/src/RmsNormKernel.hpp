// RmsNormKernel: RMSNorm forward and backward, the engine's own vectorised kernel (oneDNN 2.6
// has no RMSNorm primitive, and composing one from reduction + binary primitives takes three
// passes over x where this takes two). f32 only: a plan with 16-bit tensors stages them
// (Convert.hpp).
//
// x is dense row-major, viewed as [A, N, B]: N the normalized axes (contiguous), A the axes
// before, B after; a row is one (a, b), its N elements B apart. Forward, per row:
//   inv = 1 / sqrt(sum(x^2) / N + eps),  y = x * inv * scale[k] (+ bias[k]),  inv_rms = inv
// Backward, per row, with g = dy * scale[k] and xhat = x * inv (inv from the forward):
//   dx = inv * (g - xhat * sum(g * xhat) / N),  dscale[k] = sum over rows dy * xhat,
//   dbias[k] = sum over rows dy
// the same formulas as the CPU reference engine. Sums are f32 in several vector lanes (B == 1)
// or per b (B > 1); the parameter gradients go through kParts per-part partial sums in the
// workspace, added in a fixed order, so results do not depend on the thread count.
#pragma once

#include <cstddef>
#include <cstdint>

namespace hipdnngo::onednn
{

struct RmsNormShape
{
    int64_t a = 1, n = 1, b = 1;
    bool scaleScalar = false, biasScalar = false; // one element broadcast over N
};

// Forward. bias and invRms may be null.
void rmsNormForward(const RmsNormShape& s, const float* x, const float* scale, const float* bias, float eps, float* y,
                    float* invRms);

// The workspace the backward needs, in bytes (partial sums of dscale and dbias).
size_t rmsNormBackwardWorkspace(const RmsNormShape& s);

// Backward. dbias may be null; work: rmsNormBackwardWorkspace bytes.
void rmsNormBackward(const RmsNormShape& s, const float* dy, const float* x, const float* scale, const float* invRms,
                     float* dx, float* dscale, float* dbias, float* work);

} // namespace hipdnngo::onednn
