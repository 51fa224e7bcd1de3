#include "kernels/Convolution.hpp"

#include "core/Parallel.hpp"
#include "kernels/WindowGeometry.hpp"

#include <algorithm>
#include <vector>

namespace hipdnngo::cpu_reference
{
namespace
{

std::string checkAndBuild(const TensorView& x, const TensorView& w, const TensorView& y, const ConvParams& p, ConvGeometry* g)
{
    const int s = p.spatialDims;
    if(s < 1 || s > 3)
    {
        return "convolution: " + std::to_string(s) + " spatial dimensions (supported: 1 to 3)";
    }
    if(x.rank != s + 2 || w.rank != s + 2 || y.rank != s + 2)
    {
        return "convolution: tensors must have rank " + std::to_string(s + 2) + " (x " + x.describe() + ", w " + w.describe()
               + ", y " + y.describe() + ")";
    }
    for(const TensorView* t : {&x, &w, &y})
    {
        for(int d = 0; d < t->rank; ++d)
        {
            if(t->dims[d] < 1)
            {
                return "convolution: empty tensor " + t->describe();
            }
        }
    }
    ConvGeometry geo;
    geo.n = x.dims[0];
    geo.c = x.dims[1];
    geo.k = w.dims[0];
    geo.cPerGroup = w.dims[1];
    if(geo.c % geo.cPerGroup != 0)
    {
        return "convolution: input channels " + std::to_string(geo.c) + " are not a multiple of filter channels "
               + std::to_string(geo.cPerGroup);
    }
    geo.groups = geo.c / geo.cPerGroup;
    if(geo.k % geo.groups != 0)
    {
        return "convolution: output channels " + std::to_string(geo.k) + " are not a multiple of the "
               + std::to_string(geo.groups) + " groups";
    }
    geo.kPerGroup = geo.k / geo.groups;
    if(y.dims[0] != geo.n || y.dims[1] != geo.k)
    {
        return "convolution: y " + y.describe() + " must have N=" + std::to_string(geo.n) + " and K=" + std::to_string(geo.k);
    }
    geo.flip = p.mode == ConvMode::Convolution;
    for(int i = 0; i < s; ++i)
    {
        const int j = 3 - s + i; // padded slot
        if(p.stride[i] < 1 || p.dilation[i] < 1 || p.prePadding[i] < 0 || p.postPadding[i] < 0)
        {
            return "convolution: spatial dimension " + std::to_string(i)
                   + " needs stride >= 1, dilation >= 1 and "
                     "non-negative padding";
        }
        geo.in[j] = x.dims[2 + i];
        geo.filter[j] = w.dims[2 + i];
        geo.pre[j] = p.prePadding[i];
        geo.stride[j] = p.stride[i];
        geo.dilation[j] = p.dilation[i];
        const int64_t expected =
            windowOutputSize(geo.in[j], p.prePadding[i], p.postPadding[i], p.dilation[i] * (geo.filter[j] - 1) + 1, p.stride[i]);
        if(expected < 1 || y.dims[2 + i] != expected)
        {
            return "convolution: output spatial dimension " + std::to_string(i) + " is " + std::to_string(y.dims[2 + i])
                   + " but (in + pre + post - (dilation*(filter-1)+1)) / stride + 1 = " + std::to_string(expected);
        }
        geo.out[j] = expected;
    }
    geo.inVolume = geo.in[0] * geo.in[1] * geo.in[2];
    geo.filterVolume = geo.filter[0] * geo.filter[1] * geo.filter[2];
    geo.outVolume = geo.out[0] * geo.out[1] * geo.out[2];
    if(g)
    {
        *g = geo;
    }
    return "";
}

ConvGeometry build(const TensorView& x, const TensorView& w, const TensorView& y, const ConvParams& p)
{
    ConvGeometry g;
    const std::string err = checkAndBuild(x, w, y, p, &g);
    if(!err.empty())
    {
        throw KernelError(err);
    }
    return g;
}

// TapRanges holds, for one filter tap, the output range [lo, hi) per dimension whose input
// position o·stride + offset lies inside the input, and that offset (= f·dilation - pre).
struct TapRanges
{
    int64_t lo[3], hi[3], offset[3];
    bool empty() const { return lo[0] >= hi[0] || lo[1] >= hi[1] || lo[2] >= hi[2]; }
};

TapRanges tapRanges(const ConvGeometry& g, int64_t f0, int64_t f1, int64_t f2)
{
    TapRanges r;
    const int64_t f[3] = {f0, f1, f2};
    for(int j = 0; j < 3; ++j)
    {
        r.offset[j] = f[j] * g.dilation[j] - g.pre[j];
        validOutputRange(g.in[j], r.offset[j], g.stride[j], g.out[j], &r.lo[j], &r.hi[j]);
    }
    return r;
}

template <typename Acc>
void forward(const TensorView& x, const TensorView& w, const TensorView& y, const ConvGeometry& g)
{
    std::vector<Acc> xs(static_cast<size_t>(g.n * g.c * g.inVolume));
    std::vector<Acc> ws(static_cast<size_t>(g.k * g.cPerGroup * g.filterVolume));
    std::vector<Acc> ys(static_cast<size_t>(g.n * g.k * g.outVolume));
    gatherDense(x, xs.data());
    gatherDense(w, ws.data());
    parallelFor(g.n * g.k, 1, [&](int64_t begin, int64_t end) {
        for(int64_t nk = begin; nk < end; ++nk)
        {
            const int64_t n = nk / g.k, k = nk % g.k, group = k / g.kPerGroup;
            Acc* yp = ys.data() + nk * g.outVolume;
            std::fill(yp, yp + g.outVolume, Acc(0));
            for(int64_t c = 0; c < g.cPerGroup; ++c)
            {
                const Acc* xp = xs.data() + (n * g.c + group * g.cPerGroup + c) * g.inVolume;
                const Acc* wp = ws.data() + (k * g.cPerGroup + c) * g.filterVolume;
                for(int64_t f0 = 0; f0 < g.filter[0]; ++f0)
                    for(int64_t f1 = 0; f1 < g.filter[1]; ++f1)
                        for(int64_t f2 = 0; f2 < g.filter[2]; ++f2)
                        {
                            const TapRanges r = tapRanges(g, f0, f1, f2);
                            if(r.empty())
                                continue;
                            const Acc wv = wp[g.filterIndex(f0, f1, f2)];
                            for(int64_t o0 = r.lo[0]; o0 < r.hi[0]; ++o0)
                            {
                                const int64_t i0 = o0 * g.stride[0] + r.offset[0];
                                for(int64_t o1 = r.lo[1]; o1 < r.hi[1]; ++o1)
                                {
                                    const int64_t i1 = o1 * g.stride[1] + r.offset[1];
                                    const int64_t xrow = (i0 * g.in[1] + i1) * g.in[2] + r.offset[2]; // + o2·stride >= 0
                                    Acc* yrow = yp + (o0 * g.out[1] + o1) * g.out[2];
                                    for(int64_t o2 = r.lo[2]; o2 < r.hi[2]; ++o2)
                                    {
                                        yrow[o2] += wv * xp[xrow + o2 * g.stride[2]];
                                    }
                                }
                            }
                        }
            }
        }
    });
    scatterDense(ys.data(), y);
}

template <typename Acc>
void backwardData(const TensorView& dy, const TensorView& w, const TensorView& dx, const ConvGeometry& g)
{
    std::vector<Acc> dys(static_cast<size_t>(g.n * g.k * g.outVolume));
    std::vector<Acc> ws(static_cast<size_t>(g.k * g.cPerGroup * g.filterVolume));
    std::vector<Acc> dxs(static_cast<size_t>(g.n * g.c * g.inVolume));
    gatherDense(dy, dys.data());
    gatherDense(w, ws.data());
    // Each task owns one (n, c) input plane, so the scatter below never races.
    parallelFor(g.n * g.c, 1, [&](int64_t begin, int64_t end) {
        for(int64_t nc = begin; nc < end; ++nc)
        {
            const int64_t n = nc / g.c, cFull = nc % g.c;
            const int64_t group = cFull / g.cPerGroup, c = cFull % g.cPerGroup;
            Acc* dxp = dxs.data() + nc * g.inVolume;
            std::fill(dxp, dxp + g.inVolume, Acc(0));
            for(int64_t kk = 0; kk < g.kPerGroup; ++kk)
            {
                const int64_t k = group * g.kPerGroup + kk;
                const Acc* dyp = dys.data() + (n * g.k + k) * g.outVolume;
                const Acc* wp = ws.data() + (k * g.cPerGroup + c) * g.filterVolume;
                for(int64_t f0 = 0; f0 < g.filter[0]; ++f0)
                    for(int64_t f1 = 0; f1 < g.filter[1]; ++f1)
                        for(int64_t f2 = 0; f2 < g.filter[2]; ++f2)
                        {
                            const TapRanges r = tapRanges(g, f0, f1, f2);
                            if(r.empty())
                                continue;
                            const Acc wv = wp[g.filterIndex(f0, f1, f2)];
                            for(int64_t o0 = r.lo[0]; o0 < r.hi[0]; ++o0)
                            {
                                const int64_t i0 = o0 * g.stride[0] + r.offset[0];
                                for(int64_t o1 = r.lo[1]; o1 < r.hi[1]; ++o1)
                                {
                                    const int64_t i1 = o1 * g.stride[1] + r.offset[1];
                                    const int64_t dxrow = (i0 * g.in[1] + i1) * g.in[2] + r.offset[2];
                                    const Acc* dyrow = dyp + (o0 * g.out[1] + o1) * g.out[2];
                                    for(int64_t o2 = r.lo[2]; o2 < r.hi[2]; ++o2)
                                    {
                                        dxp[dxrow + o2 * g.stride[2]] += wv * dyrow[o2];
                                    }
                                }
                            }
                        }
            }
        }
    });
    scatterDense(dxs.data(), dx);
}

template <typename Acc>
void backwardFilter(const TensorView& x, const TensorView& dy, const TensorView& dw, const ConvGeometry& g)
{
    std::vector<Acc> xs(static_cast<size_t>(g.n * g.c * g.inVolume));
    std::vector<Acc> dys(static_cast<size_t>(g.n * g.k * g.outVolume));
    std::vector<Acc> dws(static_cast<size_t>(g.k * g.cPerGroup * g.filterVolume));
    gatherDense(x, xs.data());
    gatherDense(dy, dys.data());
    parallelFor(g.k * g.cPerGroup, 1, [&](int64_t begin, int64_t end) {
        for(int64_t kc = begin; kc < end; ++kc)
        {
            const int64_t k = kc / g.cPerGroup, c = kc % g.cPerGroup, group = k / g.kPerGroup;
            Acc* dwp = dws.data() + kc * g.filterVolume;
            for(int64_t f0 = 0; f0 < g.filter[0]; ++f0)
                for(int64_t f1 = 0; f1 < g.filter[1]; ++f1)
                    for(int64_t f2 = 0; f2 < g.filter[2]; ++f2)
                    {
                        const TapRanges r = tapRanges(g, f0, f1, f2);
                        Acc sum = 0;
                        if(!r.empty())
                        {
                            for(int64_t n = 0; n < g.n; ++n)
                            {
                                const Acc* xp = xs.data() + (n * g.c + group * g.cPerGroup + c) * g.inVolume;
                                const Acc* dyp = dys.data() + (n * g.k + k) * g.outVolume;
                                for(int64_t o0 = r.lo[0]; o0 < r.hi[0]; ++o0)
                                {
                                    const int64_t i0 = o0 * g.stride[0] + r.offset[0];
                                    for(int64_t o1 = r.lo[1]; o1 < r.hi[1]; ++o1)
                                    {
                                        const int64_t i1 = o1 * g.stride[1] + r.offset[1];
                                        const int64_t xrow = (i0 * g.in[1] + i1) * g.in[2] + r.offset[2]; // + o2·stride >= 0
                                        const Acc* dyrow = dyp + (o0 * g.out[1] + o1) * g.out[2];
                                        for(int64_t o2 = r.lo[2]; o2 < r.hi[2]; ++o2)
                                        {
                                            sum += dyrow[o2] * xp[xrow + o2 * g.stride[2]];
                                        }
                                    }
                                }
                            }
                        }
                        dwp[g.filterIndex(f0, f1, f2)] = sum;
                    }
        }
    });
    scatterDense(dws.data(), dw);
}

} // namespace

std::string checkConvolution(const TensorView& x, const TensorView& w, const TensorView& y, const ConvParams& p)
{
    return checkAndBuild(x, w, y, p, nullptr);
}

ConvPlan planConvolution(const TensorView& x, const TensorView& w, const TensorView& y, const ConvParams& p)
{
    return ConvPlan{build(x, w, y, p), useDoubleAccumulator(p.accumulator, {x.dtype, w.dtype, y.dtype})};
}

void convolutionForward(const TensorView& x, const TensorView& w, const TensorView& y, const ConvPlan& plan)
{
    if(plan.useDouble)
        forward<double>(x, w, y, plan.geometry);
    else
        forward<float>(x, w, y, plan.geometry);
}

void convolutionBackwardData(const TensorView& dy, const TensorView& w, const TensorView& dx, const ConvPlan& plan)
{
    if(plan.useDouble)
        backwardData<double>(dy, w, dx, plan.geometry);
    else
        backwardData<float>(dy, w, dx, plan.geometry);
}

void convolutionBackwardFilter(const TensorView& x, const TensorView& dy, const TensorView& dw, const ConvPlan& plan)
{
    if(plan.useDouble)
        backwardFilter<double>(x, dy, dw, plan.geometry);
    else
        backwardFilter<float>(x, dy, dw, plan.geometry);
}

void convolutionForward(const TensorView& x, const TensorView& w, const TensorView& y, const ConvParams& p)
{
    convolutionForward(x, w, y, planConvolution(x, w, y, p));
}

void convolutionBackwardData(const TensorView& dy, const TensorView& w, const TensorView& dx, const ConvParams& p)
{
    convolutionBackwardData(dy, w, dx, planConvolution(dx, w, dy, p));
}

void convolutionBackwardFilter(const TensorView& x, const TensorView& dy, const TensorView& dw, const ConvParams& p)
{
    convolutionBackwardFilter(x, dy, dw, planConvolution(x, dw, dy, p));
}

} // namespace hipdnngo::cpu_reference
