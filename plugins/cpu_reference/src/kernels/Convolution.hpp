// Convolution kernels: forward, backward data and backward filter, 1-D/2-D/3-D, grouped.
//
// Tensors use hipDNN's logical dimension order; the strides give the layout (NCHW, NHWC, …):
//   x / dx : [N, C, spatial...]          (spatial = W | H,W | D,H,W)
//   w / dw : [K, C/G, filter...]         G (groups) = C / w.dims[1]; K must be a multiple of G
//   y / dy : [N, K, out...]
// with out = (in + pre + post - (dilation*(filter-1) + 1)) / stride + 1 per spatial dimension.
//
// Math (cross-correlation; CONVOLUTION mode uses the flipped filter w[k, c, F-1-f]):
//   forward        y[n,k,o]  = Σ_{c∈group(k)} Σ_f x[n,c,o·s - pre + f·d] · w[k,c,f]
//   backward data  dx[n,c,i] = Σ_{k∈group(c)} Σ_{f,o: o·s - pre + f·d = i} dy[n,k,o] · w[k,c,f]
//   backward filt. dw[k,c,f] = Σ_n Σ_o dy[n,k,o] · x[n,c,o·s - pre + f·d]
// Out-of-range input positions (padding) contribute zero. Outputs are overwritten (β = 0).
// Accumulation is fp32 for float/half/bfloat16 and fp64 when any operand is double (or
// ConvParams::accumulator says Double); operands are first widened into dense buffers.
#pragma once

#include "core/StridedLoop.hpp"
#include "core/TensorView.hpp"

#include <string>

namespace hipdnngo::cpu_reference
{

enum class ConvMode
{
    Convolution, // flipped filter
    CrossCorrelation,
};

struct ConvParams
{
    int spatialDims = 2; // 1, 2 or 3; tensors have rank spatialDims + 2
    int64_t prePadding[3] = {0, 0, 0};
    int64_t postPadding[3] = {0, 0, 0};
    int64_t stride[3] = {1, 1, 1};
    int64_t dilation[3] = {1, 1, 1};
    ConvMode mode = ConvMode::CrossCorrelation;
    Accumulator accumulator = Accumulator::Auto;
};

// ConvGeometry is a conv problem with its spatial part padded to three dimensions (leading dummy
// dimensions of size 1), so one loop nest serves 1-D, 2-D and 3-D.
struct ConvGeometry
{
    int64_t n = 0, c = 0, k = 0, groups = 0, cPerGroup = 0, kPerGroup = 0;
    int64_t in[3] = {1, 1, 1}, filter[3] = {1, 1, 1}, out[3] = {1, 1, 1};
    int64_t pre[3] = {0, 0, 0}, stride[3] = {1, 1, 1}, dilation[3] = {1, 1, 1};
    int64_t inVolume = 1, filterVolume = 1, outVolume = 1;
    bool flip = false;

    // filterIndex maps a tap to its offset in a packed [F0][F1][F2] filter, flipping for
    // CONVOLUTION mode.
    int64_t filterIndex(int64_t f0, int64_t f1, int64_t f2) const
    {
        if(flip)
        {
            f0 = filter[0] - 1 - f0;
            f1 = filter[1] - 1 - f1;
            f2 = filter[2] - 1 - f2;
        }
        return (f0 * filter[1] + f1) * filter[2] + f2;
    }
};

// ConvPlan is a convolution checked and laid out once, at prepare: running it checks nothing
// again. x/dx, w/dw, y/dy as in the table above.
struct ConvPlan
{
    ConvGeometry geometry;
    bool useDouble = false; // accumulate in double (ConvParams::accumulator and the dtypes)
};

// checkConvolution validates shapes and parameters for the three directions (the data pointers
// are not used, so shape-only views work). Returns "" when valid, else the reason.
// x/dx, w/dw, y/dy as in the table above.
std::string checkConvolution(const TensorView& x, const TensorView& w, const TensorView& y, const ConvParams& p);

// planConvolution validates like checkConvolution and builds the plan; throws KernelError on
// invalid shapes.
ConvPlan planConvolution(const TensorView& x, const TensorView& w, const TensorView& y, const ConvParams& p);

// The three directions on a plan made for these shapes (no checks).
void convolutionForward(const TensorView& x, const TensorView& w, const TensorView& y, const ConvPlan& plan);
void convolutionBackwardData(const TensorView& dy, const TensorView& w, const TensorView& dx, const ConvPlan& plan);
void convolutionBackwardFilter(const TensorView& x, const TensorView& dy, const TensorView& dw, const ConvPlan& plan);

// convolutionForward computes y from x and w (plans, then runs). Throws KernelError on invalid
// shapes.
void convolutionForward(const TensorView& x, const TensorView& w, const TensorView& y, const ConvParams& p);

// convolutionBackwardData computes dx from dy and w.
void convolutionBackwardData(const TensorView& dy, const TensorView& w, const TensorView& dx, const ConvParams& p);

// convolutionBackwardFilter computes dw from x and dy.
void convolutionBackwardFilter(const TensorView& x, const TensorView& dy, const TensorView& dw, const ConvParams& p);

} // namespace hipdnngo::cpu_reference
