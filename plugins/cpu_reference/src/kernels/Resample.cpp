#include "kernels/Resample.hpp"

#include "core/Parallel.hpp"
#include "kernels/WindowGeometry.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace hipdnngo::cpu_reference
{
namespace
{

// Geometry pads the spatial part to three dimensions (leading dummies of size 1).
struct Geometry
{
    int64_t n = 0, c = 0;
    int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1}, window[3] = {1, 1, 1};
    int64_t pre[3] = {0, 0, 0}, stride[3] = {1, 1, 1};
    int64_t inStride[3] = {0, 0, 0}; // element strides of the input-side view per padded dim
    int64_t outStride[3] = {0, 0, 0};
    int64_t inVolume = 1, outVolume = 1, windowVolume = 1;
};

std::string checkAndBuild(const TensorView& x, const TensorView& y, const TensorView* index, const ResampleParams& p, Geometry* g)
{
    const int s = p.spatialDims;
    if(s < 1 || s > 3)
    {
        return "resample: " + std::to_string(s) + " spatial dimensions (supported: 1 to 3)";
    }
    const int mode = static_cast<int>(p.mode), padding = static_cast<int>(p.padding);
    if(mode < 1 || mode > 3 || padding < 1 || padding > 2)
    {
        return "resample: unknown resample mode " + std::to_string(mode) + " or padding mode " + std::to_string(padding);
    }
    if(x.rank != s + 2 || y.rank != s + 2)
    {
        return "resample: tensors must have rank " + std::to_string(s + 2) + " (x " + x.describe() + ", y " + y.describe() + ")";
    }
    if(x.dims[0] != y.dims[0] || x.dims[1] != y.dims[1])
    {
        return "resample: x " + x.describe() + " and y " + y.describe() + " differ in N or C";
    }
    if(index)
    {
        if(p.mode != ResampleMode::MaxPool)
        {
            return "resample: an index tensor is only defined for MAXPOOL";
        }
        if(index->rank != y.rank || !std::equal(index->dims, index->dims + y.rank, y.dims))
        {
            return "resample: index " + index->describe() + " must have y's dims " + y.describe();
        }
        if(isFloatingPoint(index->dtype) || index->dtype == DataType::Boolean)
        {
            return "resample: index tensor must have an integer type, not " + std::string(dataTypeName(index->dtype));
        }
    }
    Geometry geo;
    geo.n = x.dims[0];
    geo.c = x.dims[1];
    for(int i = 0; i < s; ++i)
    {
        const int j = 3 - s + i;
        if(p.stride[i] < 1 || p.window[i] < 1 || p.prePadding[i] < 0 || p.postPadding[i] < 0)
        {
            return "resample: spatial dimension " + std::to_string(i)
                   + " needs stride >= 1, window >= 1 and non-negative padding";
        }
        if(x.dims[2 + i] < 1)
        {
            return "resample: empty input " + x.describe();
        }
        geo.in[j] = x.dims[2 + i];
        geo.window[j] = p.window[i];
        geo.pre[j] = p.prePadding[i];
        geo.stride[j] = p.stride[i];
        geo.inStride[j] = x.strides[2 + i];
        geo.outStride[j] = y.strides[2 + i];
        const int64_t expected = windowOutputSize(geo.in[j], p.prePadding[i], p.postPadding[i], p.window[i], p.stride[i]);
        if(expected < 1 || y.dims[2 + i] != expected)
        {
            return "resample: output spatial dimension " + std::to_string(i) + " is " + std::to_string(y.dims[2 + i])
                   + " but (in + pre + post - window) / stride + 1 = " + std::to_string(expected);
        }
        geo.out[j] = expected;
    }
    if(index && index->dtype == DataType::Int8 && geo.in[0] * geo.in[1] * geo.in[2] > 127)
    {
        return "resample: int8 index cannot address an input plane of more than 127 elements";
    }
    if(index && index->dtype == DataType::Uint8 && geo.in[0] * geo.in[1] * geo.in[2] > 255)
    {
        return "resample: uint8 index cannot address an input plane of more than 255 elements";
    }
    geo.inVolume = geo.in[0] * geo.in[1] * geo.in[2];
    geo.outVolume = geo.out[0] * geo.out[1] * geo.out[2];
    geo.windowVolume = geo.window[0] * geo.window[1] * geo.window[2];
    if(g)
        *g = geo;
    return "";
}

Geometry build(const TensorView& x, const TensorView& y, const TensorView* index, const ResampleParams& p)
{
    Geometry g;
    const std::string err = checkAndBuild(x, y, index, p, &g);
    if(!err.empty())
        throw KernelError(err);
    return g;
}

// WindowResult is what one output position's window reduces to.
struct WindowResult
{
    double value; // max, or the average
    int64_t argmax; // flat in-plane position of the max (-1: padding), MAXPOOL only
    double divisor; // AVGPOOL divisor (0 when nothing is in range)
};

// Window enumerates output position (o0, o1, o2)'s window on one plane: calls f(flat, inRange)
// for every window position in order, flat = -1 for padding.
template <typename F>
void forWindow(const Geometry& g, const int64_t o[3], F&& f)
{
    for(int64_t w0 = 0; w0 < g.window[0]; ++w0)
    {
        const int64_t i0 = o[0] * g.stride[0] - g.pre[0] + w0;
        const bool in0 = i0 >= 0 && i0 < g.in[0];
        for(int64_t w1 = 0; w1 < g.window[1]; ++w1)
        {
            const int64_t i1 = o[1] * g.stride[1] - g.pre[1] + w1;
            const bool in1 = in0 && i1 >= 0 && i1 < g.in[1];
            for(int64_t w2 = 0; w2 < g.window[2]; ++w2)
            {
                const int64_t i2 = o[2] * g.stride[2] - g.pre[2] + w2;
                const bool inside = in1 && i2 >= 0 && i2 < g.in[2];
                f(inside ? (i0 * g.in[1] + i1) * g.in[2] + i2 : int64_t(-1), inside, i0, i1, i2);
            }
        }
    }
}

// evaluate reduces one window of the plane whose element (0,0,0) is at xBase in x.
WindowResult evaluate(const Geometry& g, const ResampleParams& p, const TensorView& x, int64_t xBase, const int64_t o[3])
{
    WindowResult r{0.0, -1, 0.0};
    if(p.mode == ResampleMode::MaxPool)
    {
        double best = -std::numeric_limits<double>::infinity();
        bool haveBest = false;
        forWindow(g, o, [&](int64_t flat, bool inside, int64_t i0, int64_t i1, int64_t i2) {
            double v;
            if(inside)
                v = x.load<double>(xBase + i0 * g.inStride[0] + i1 * g.inStride[1] + i2 * g.inStride[2]);
            else if(p.padding == PaddingMode::ZeroPad)
                v = 0.0;
            else
                return;
            if(!haveBest || v > best || (std::isnan(v) && !std::isnan(best)))
            {
                best = v;
                r.argmax = flat;
                haveBest = true;
            }
        });
        r.value = best;
        return r;
    }
    double sum = 0.0;
    int64_t count = 0;
    forWindow(g, o, [&](int64_t, bool inside, int64_t i0, int64_t i1, int64_t i2) {
        if(inside)
        {
            sum += x.load<double>(xBase + i0 * g.inStride[0] + i1 * g.inStride[1] + i2 * g.inStride[2]);
            ++count;
        }
    });
    r.divisor = p.mode == ResampleMode::AvgPoolIncludePadding ? static_cast<double>(g.windowVolume) : static_cast<double>(count);
    r.value = r.divisor > 0 ? sum / r.divisor : 0.0;
    return r;
}

void unflatten(const Geometry& g, int64_t flat, int64_t o[3])
{
    o[2] = flat % g.out[2];
    o[1] = (flat / g.out[2]) % g.out[1];
    o[0] = flat / (g.out[2] * g.out[1]);
}

int64_t outOffset(const Geometry& g, const int64_t o[3])
{
    return o[0] * g.outStride[0] + o[1] * g.outStride[1] + o[2] * g.outStride[2];
}

} // namespace

std::string checkResample(const TensorView& x, const TensorView& y, const TensorView* index, const ResampleParams& p)
{
    return checkAndBuild(x, y, index, p, nullptr);
}

void resampleForward(const TensorView& x, const TensorView& y, const TensorView* index, const ResampleParams& p)
{
    const Geometry g = build(x, y, index, p);
    parallelFor(g.n * g.c, 1, [&](int64_t begin, int64_t end) {
        for(int64_t nc = begin; nc < end; ++nc)
        {
            const int64_t n = nc / g.c, c = nc % g.c;
            const int64_t xBase = n * x.strides[0] + c * x.strides[1];
            const int64_t yBase = n * y.strides[0] + c * y.strides[1];
            const int64_t iBase = index ? n * index->strides[0] + c * index->strides[1] : 0;
            for(int64_t flat = 0; flat < g.outVolume; ++flat)
            {
                int64_t o[3];
                unflatten(g, flat, o);
                const WindowResult r = evaluate(g, p, x, xBase, o);
                y.store(yBase + outOffset(g, o), r.value);
                if(index)
                {
                    const int64_t s = p.spatialDims;
                    int64_t off = iBase;
                    for(int i = 0; i < s; ++i)
                        off += o[3 - s + i] * index->strides[2 + i];
                    index->store(off, static_cast<double>(r.argmax));
                }
            }
        }
    });
}

void resampleBackward(const TensorView& dy, const TensorView& dx, const TensorView* index, const TensorView* x,
                      const ResampleParams& p)
{
    const Geometry g = build(dx, dy, index, p);
    if(p.mode == ResampleMode::MaxPool && !index && !x)
    {
        throw KernelError("resample backward: MAXPOOL needs the index tensor or the forward input x");
    }
    if(x && !index && (x->rank != dx.rank || !std::equal(x->dims, x->dims + dx.rank, dx.dims)))
    {
        throw KernelError("resample backward: x " + x->describe() + " must have dx's dims " + dx.describe());
    }
    // Recomputing argmax reads x through dx's geometry, so x may have its own strides.
    Geometry gx = g;
    if(x)
        for(int i = 0; i < p.spatialDims; ++i)
            gx.inStride[3 - p.spatialDims + i] = x->strides[2 + i];

    parallelFor(g.n * g.c, 1, [&](int64_t begin, int64_t end) {
        std::vector<double> plane(static_cast<size_t>(g.inVolume));
        for(int64_t nc = begin; nc < end; ++nc)
        {
            const int64_t n = nc / g.c, c = nc % g.c;
            std::fill(plane.begin(), plane.end(), 0.0);
            const int64_t dyBase = n * dy.strides[0] + c * dy.strides[1];
            for(int64_t flat = 0; flat < g.outVolume; ++flat)
            {
                int64_t o[3];
                unflatten(g, flat, o);
                const double grad = dy.load<double>(dyBase + outOffset(g, o));
                if(p.mode == ResampleMode::MaxPool)
                {
                    int64_t target;
                    if(index)
                    {
                        int64_t off = n * index->strides[0] + c * index->strides[1];
                        for(int i = 0; i < p.spatialDims; ++i)
                            off += o[3 - p.spatialDims + i] * index->strides[2 + i];
                        target = index->load<int64_t>(off);
                        if(target >= g.inVolume || target < -1)
                        {
                            throw KernelError("resample backward: index " + std::to_string(target)
                                              + " outside the input plane of " + std::to_string(g.inVolume) + " elements");
                        }
                    }
                    else
                    {
                        target = evaluate(gx, p, *x, n * x->strides[0] + c * x->strides[1], o).argmax;
                    }
                    if(target >= 0)
                        plane[static_cast<size_t>(target)] += grad;
                    continue;
                }
                // Average: the divisor depends only on the geometry, so evaluate on counts.
                int64_t count = 0;
                forWindow(g, o, [&](int64_t, bool inside, int64_t, int64_t, int64_t) { count += inside ? 1 : 0; });
                const double divisor = p.mode == ResampleMode::AvgPoolIncludePadding ? static_cast<double>(g.windowVolume)
                                                                                     : static_cast<double>(count);
                if(divisor <= 0)
                    continue;
                const double share = grad / divisor;
                forWindow(g, o, [&](int64_t flatIn, bool inside, int64_t, int64_t, int64_t) {
                    if(inside)
                        plane[static_cast<size_t>(flatIn)] += share;
                });
            }
            const int64_t dxBase = n * dx.strides[0] + c * dx.strides[1];
            for(int64_t i0 = 0; i0 < g.in[0]; ++i0)
                for(int64_t i1 = 0; i1 < g.in[1]; ++i1)
                    for(int64_t i2 = 0; i2 < g.in[2]; ++i2)
                        dx.store(dxBase + i0 * g.inStride[0] + i1 * g.inStride[1] + i2 * g.inStride[2],
                                 plane[static_cast<size_t>((i0 * g.in[1] + i1) * g.in[2] + i2)]);
        }
    });
}

} // namespace hipdnngo::cpu_reference
