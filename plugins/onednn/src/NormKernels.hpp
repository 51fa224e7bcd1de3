// NormKernels: the engine's own vectorised normalization kernels.
//  - RMSNorm forward and backward: oneDNN 2.6 has no RMSNorm primitive (composing one from
//    reduction and binary primitives takes three passes over x where this takes two).
//  - Layernorm forward on 16-bit data in a staged plan: oneDNN's layer normalization has no
//    fp16 kernels (and bf16 ones only with AVX-512 BF16); staging x and y through f32 copies
//    around it would move three times the bytes of the normalization itself, so the kernel
//    reads and writes the 16-bit data directly and computes in f32 registers.
// The data tensors (x, y, dy, dx) are f32, fp16 or bf16 (Storage); conversions go through the
// SDK's FloatFormats.h (exact widening, round-to-nearest-even narrowing). Per-N parameters
// (scale, bias, their gradients) and statistics are f32 (16-bit ones are staged by the plan).
// Rows of 16-bit data up to kRowBuffer elements (B == 1) are widened and narrowed whole through
// Convert.hpp's row functions (hardware fp16 conversions where the CPU has them).
//
// x is dense row-major, viewed as [A, N, B]: N the normalized axes (contiguous), A the axes
// before, B after; a row is one (a, b), its N elements B apart (layernorm: B = 1).
//   RMSNorm forward, per row: inv = 1 / sqrt(sum(x^2) / N + eps), y = x * inv * scale[k]
//     (+ bias[k]), inv_rms = inv.
//   RMSNorm backward, with g = dy * scale[k] and xhat = x * inv (inv from the forward):
//     dx = inv * (g - xhat * sum(g * xhat) / N), dscale[k] = sum over rows dy * xhat,
//     dbias[k] = sum over rows dy.
//   Layernorm forward, per row: mean = sum(x) / N, var = sum((x - mean)^2) / N (two passes over
//     the row, which is in L1), inv = 1 / sqrt(var + eps), y = (x - mean) * inv * scale[k] +
//     bias[k]; mean and inv_variance outputs optional.
// The same formulas as the CPU reference engine. Sums are f32 in several vector lanes (B == 1)
// or per b (B > 1); the parameter gradients go through kParts per-part partial sums in the
// workspace, added in a fixed order, so results do not depend on the thread count. Compiled for
// AVX-512, AVX2 and baseline x86-64 (the CPU picks at load); OpenMP over rows. Allocation-free.
#pragma once

#include <cstddef>
#include <cstdint>

namespace hipdnngo::onednn
{

enum class Storage
{
    F32,
    F16,
    BF16,
};

struct RmsNormShape
{
    int64_t a = 1, n = 1, b = 1;
    bool scaleScalar = false, biasScalar = false; // one element broadcast over N
    Storage data = Storage::F32; // x and y (forward); dy, x and dx (backward)
};

// RMSNorm forward. bias and invRms may be null.
void rmsNormForward(const RmsNormShape& s, const void* x, const float* scale, const float* bias, float eps, void* y,
                    float* invRms);

// The workspace the RMSNorm backward needs, in bytes (partial sums of dscale and dbias).
size_t rmsNormBackwardWorkspace(const RmsNormShape& s);

// RMSNorm backward. dbias may be null; work: rmsNormBackwardWorkspace bytes.
void rmsNormBackward(const RmsNormShape& s, const void* dy, const void* x, const float* scale, const float* invRms, void* dx,
                     float* dscale, float* dbias, float* work);

// Layernorm forward over rows of n contiguous elements (s.b must be 1). mean and invVariance
// may be null.
void layerNormForward(const RmsNormShape& s, const void* x, const float* scale, const float* bias, float eps, void* y,
                      float* mean, float* invVariance);

} // namespace hipdnngo::onednn
