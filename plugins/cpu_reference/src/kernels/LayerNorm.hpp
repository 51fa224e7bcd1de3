// Layer normalization and RMS normalization kernels, forward and backward.
//
// Axes. x (and y, dy, dx) have any rank >= 1 and any strides. A boolean mask marks the
// NORMALIZED axes; every position of the other (kept) axes is one row, normalized over its n
// members. How the mask is chosen (see normAxesFromCount / normAxesFromScale):
//   layernorm  the trailing normalized_dim_count axes; when the count is 0, from the scale tensor
//              as for RMSNorm.
//   RMSNorm    from the scale tensor: scale is right-aligned to x (NumPy); the normalized axes
//              are the axes where scale is not 1. Scale must be 1 on axis 0 (the batch is never
//              normalized) unless x's axis 0 is 1. If scale is 1 everywhere, every axis except
//              axis 0 is normalized (hipDNN frontend fallback). This is the rule of the hipDNN
//              frontend (inv_rms takes x's shape with the normalized axes set to 1) and of its
//              CPU reference (scale [1,C,H,W] → over C,H,W; [1,1,H,W] → over H,W; [1,C,1,1] →
//              over C).
// Statistics tensors (mean, inv_variance, inv_rms) have x's rank and x's dims with the
// normalized axes set to 1. scale / bias / dscale / dbias broadcast to x (NumPy, right-aligned);
// a gradient of such a tensor sums over every axis where it is 1 and x is not.
//
//   layernorm fwd   μ = Σx/n, σ² = Σ(x−μ)²/n (biased, two passes), r = 1/√(σ² + ε),
//                   y = scale·(x−μ)·r + bias; optional outputs mean = μ, inv_variance = r
//   layernorm bwd   μ, r from the mean / inv_variance inputs, or recomputed from x with ε when
//                   both are absent; x̂ = (x−μ)·r, g = dy·scale,
//                   dx = r·(g − mean_row(g) − x̂·mean_row(g·x̂)),
//                   dscale = Σ dy·x̂, dbias = Σ dy
//   RMSNorm fwd     r = 1/√(Σx²/n + ε), y = scale·x·r (+ bias); optional output inv_rms = r
//   RMSNorm bwd     r from inv_rms, x̂ = x·r, g = dy·scale,
//                   dx = r·(g − x̂·mean_row(g·x̂)), dscale = Σ dy·x̂, optional dbias = Σ dy
//
// Arithmetic: fp32 for float/half/bfloat16, fp64 when any tensor is double or the accumulator is
// Double; row sums are blocked (NormCommon.hpp). Every output is rounded once to its type.
#pragma once

#include "core/StridedLoop.hpp"
#include "core/TensorView.hpp"
#include "kernels/NormCommon.hpp"

#include <string>

namespace hipdnngo::cpu_reference
{

// normAxesFromCount marks the trailing `count` axes of x (1 <= count <= rank).
std::string normAxesFromCount(const TensorView& x, int64_t count, AxisMask& out);

// normAxesFromScale derives the normalized axes from the scale tensor (rule above).
std::string normAxesFromScale(const TensorView& x, const TensorView& scale, AxisMask& out);

// checkNormStats checks a statistics tensor against x and the axes ("" when fine).
std::string checkNormStats(const TensorView& x, const AxisMask& axes, const TensorView& stats, const char* role);

struct LayernormForwardViews
{
    TensorView x, scale, bias, y;
    const TensorView* mean = nullptr; // optional outputs
    const TensorView* invVariance = nullptr;
};

struct LayernormBackwardViews
{
    TensorView dy, x, scale, dx, dscale, dbias;
    const TensorView* mean = nullptr; // optional inputs: both or neither
    const TensorView* invVariance = nullptr;
};

struct RmsnormForwardViews
{
    TensorView x, scale, y;
    const TensorView* bias = nullptr; // optional input
    const TensorView* invRms = nullptr; // optional output
};

struct RmsnormBackwardViews
{
    TensorView dy, x, scale, invRms, dx, dscale;
    const TensorView* dbias = nullptr; // optional output
};

std::string checkLayernormForward(const LayernormForwardViews& v, const AxisMask& axes);
// epsilon is used only when the statistics are recomputed (mean / inv_variance absent).
std::string checkLayernormBackward(const LayernormBackwardViews& v, const AxisMask& axes);
std::string checkRmsnormForward(const RmsnormForwardViews& v, const AxisMask& axes);
std::string checkRmsnormBackward(const RmsnormBackwardViews& v, const AxisMask& axes);

void layernormForward(const LayernormForwardViews& v, const AxisMask& axes, double epsilon, Accumulator acc = Accumulator::Auto);
void layernormBackward(const LayernormBackwardViews& v, const AxisMask& axes, double epsilon,
                       Accumulator acc = Accumulator::Auto);
void rmsnormForward(const RmsnormForwardViews& v, const AxisMask& axes, double epsilon, Accumulator acc = Accumulator::Auto);
void rmsnormBackward(const RmsnormBackwardViews& v, const AxisMask& axes, Accumulator acc = Accumulator::Auto);

} // namespace hipdnngo::cpu_reference
