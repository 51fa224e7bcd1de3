// Resample (pooling) kernels, forward and backward, 1-D/2-D/3-D windows.
//
//   x / dx : [N, C, spatial...]     y / dy / index : [N, C, out...]
//   out = (in + pre + post - window) / stride + 1 per spatial dimension.
// Window of output o along a dimension: input positions o·stride - pre + w, w in [0, window).
// Positions outside [0, in) are padding.
//
// Forward:
//   MAXPOOL                  max over the window. Padding counts as -inf with NEG_INF_PAD (so it
//                            never wins; a window of only padding gives -inf) and as 0 with
//                            ZERO_PAD.
//   AVGPOOL_INCLUDE_PADDING  Σ in-range x / window volume (padding contributes 0)
//   AVGPOOL_EXCLUDE_PADDING  Σ in-range x / number of in-range positions (0 if there are none)
// Index (MAXPOOL only, optional output): the flat position of the maximum inside its (n, c)
// input plane, d·H·W + h·W + w (PyTorch's convention); the first maximum in window order
// (outer to inner dimension) wins ties; -1 when the maximum is a ZERO_PAD padding element.
// Backward (dx is overwritten):
//   MAXPOOL   dx[argmax(o)] += dy[o], argmax from `index` when given, else recomputed from x
//             with the forward rule (padding maxima receive nothing)
//   AVGPOOL_* dx[i] += dy[o] / divisor(o) for every in-range i in o's window, divisor as forward
// Arithmetic is double.
#pragma once

#include "core/TensorView.hpp"

#include <string>

namespace hipdnngo::cpu_reference
{

// Values equal the flatbuffer ResampleMode / PaddingMode values.
enum class ResampleMode : int
{
    MaxPool = 1,
    AvgPoolExcludePadding = 2,
    AvgPoolIncludePadding = 3,
};

enum class PaddingMode : int
{
    NegInfPad = 1,
    ZeroPad = 2,
};

struct ResampleParams
{
    int spatialDims = 2; // 1, 2 or 3
    int64_t prePadding[3] = {0, 0, 0};
    int64_t postPadding[3] = {0, 0, 0};
    int64_t stride[3] = {1, 1, 1};
    int64_t window[3] = {1, 1, 1};
    ResampleMode mode = ResampleMode::MaxPool;
    PaddingMode padding = PaddingMode::NegInfPad;
};

// checkResample validates x (input-side shape) against y (output-side shape) and the optional
// index view; "" when valid, else the reason.
std::string checkResample(const TensorView& x, const TensorView& y, const TensorView* index, const ResampleParams& p);

// resampleForward computes y (and index when non-null; MAXPOOL only).
void resampleForward(const TensorView& x, const TensorView& y, const TensorView* index, const ResampleParams& p);

// resampleBackward computes dx from dy. MAXPOOL needs `index` or `x` (forward input); `x` is
// ignored when `index` is given. Throws KernelError for an index outside its plane.
void resampleBackward(const TensorView& dy, const TensorView& dx, const TensorView* index, const TensorView* x,
                      const ResampleParams& p);

} // namespace hipdnngo::cpu_reference
