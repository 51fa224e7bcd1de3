#include "kernels/LayerNorm.hpp"

#include "core/Parallel.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

namespace hipdnngo::cpu_reference
{
namespace
{

std::string sameShape(const TensorView& x, const TensorView& t, const char* op, const char* role)
{
    bool same = x.rank == t.rank;
    for(int d = 0; same && d < x.rank; ++d)
        same = x.dims[d] == t.dims[d];
    return same ? "" : std::string(op) + ": " + role + " " + t.describe() + " must have the shape of x " + x.describe();
}

std::string broadcastable(const TensorView& x, const TensorView& t, const char* op, const char* role)
{
    const std::vector<int64_t> a = alignedDims(t, x.rank);
    bool ok = !a.empty();
    for(int d = 0; ok && d < x.rank; ++d)
        ok = a[static_cast<size_t>(d)] == 1 || a[static_cast<size_t>(d)] == x.dims[d];
    return ok ? "" : std::string(op) + ": " + role + " " + t.describe() + " does not broadcast to x " + x.describe();
}

// firstError returns the first non-empty message.
std::string firstError(std::initializer_list<std::string> errors)
{
    for(const std::string& e : errors)
        if(!e.empty())
            return e;
    return "";
}

void throwIf(const std::string& err)
{
    if(!err.empty())
        throw KernelError(err);
}

int64_t rowChunk(int64_t members) { return std::max<int64_t>(1, 4096 / std::max<int64_t>(members, 1)); }

// Offsets of one view (broadcast to x) in a split.
struct SplitOffsets
{
    TensorView view;
    std::vector<int64_t> group, member;
    SplitOffsets(const TensorView& t, const TensorView& x, const AxisSplit& split)
        : view(broadcastTo(t, x.rank, x.dims)), group(split.groupOffsets(view)), member(split.memberOffsets(view))
    {
    }
    int64_t at(int64_t g, int64_t m) const { return group[static_cast<size_t>(g)] + member[static_cast<size_t>(m)]; }
};

// Row statistics (per group of the normalization split): mean (0 for RMSNorm) and inverse.
template <typename Acc>
struct RowStats
{
    std::vector<Acc> mean, inv;
};

// paramGradient writes grad[p] = Σ over the x positions that broadcast onto p of term(dy, x, row).
template <typename Acc, typename Term>
void paramGradient(const TensorView& x, const TensorView& dy, const TensorView& rowIndex, const TensorView& grad, Term term)
{
    const AxisSplit ps(x, reducedAxesOf(x, grad));
    const TensorView gb = broadcastTo(grad, x.rank, x.dims);
    const std::vector<int64_t> gg = ps.groupOffsets(gb);
    const SplitOffsets xo(x, x, ps), dyo(dy, x, ps), ro(rowIndex, x, ps);
    const int64_t members = ps.members();
    parallelFor(ps.groups(), rowChunk(members), [&](int64_t begin, int64_t end) {
        for(int64_t p = begin; p < end; ++p)
        {
            const Acc sum = blockedSum<Acc>(
                members, [&](int64_t k) { return term(dy.load<Acc>(dyo.at(p, k)), x.load<Acc>(xo.at(p, k)), ro.at(p, k)); });
            grad.store(gg[static_cast<size_t>(p)], sum);
        }
    });
}

template <typename Acc>
void runLayernormForward(const LayernormForwardViews& v, const AxisMask& axes, double epsilon)
{
    const TensorView& x = v.x;
    const AxisSplit split(x, axes);
    const int64_t rows = split.groups(), n = split.members();
    const SplitOffsets xo(x, x, split), yo(v.y, x, split), so(v.scale, x, split), bo(v.bias, x, split);
    std::vector<int64_t> meanOff, invOff;
    if(v.mean != nullptr)
        meanOff = split.groupOffsets(broadcastTo(*v.mean, x.rank, x.dims));
    if(v.invVariance != nullptr)
        invOff = split.groupOffsets(broadcastTo(*v.invVariance, x.rank, x.dims));
    const Acc eps = static_cast<Acc>(epsilon), count = static_cast<Acc>(n);
    parallelFor(rows, rowChunk(n), [&](int64_t begin, int64_t end) {
        for(int64_t r = begin; r < end; ++r)
        {
            const Acc mean = blockedSum<Acc>(n, [&](int64_t k) { return x.load<Acc>(xo.at(r, k)); }) / count;
            const Acc var = blockedSum<Acc>(n,
                                            [&](int64_t k) {
                                                const Acc d = x.load<Acc>(xo.at(r, k)) - mean;
                                                return d * d;
                                            })
                            / count;
            const Acc inv = Acc(1) / std::sqrt(var + eps);
            for(int64_t k = 0; k < n; ++k)
            {
                const Acc xhat = (x.load<Acc>(xo.at(r, k)) - mean) * inv;
                v.y.store(yo.at(r, k), xhat * v.scale.load<Acc>(so.at(r, k)) + v.bias.load<Acc>(bo.at(r, k)));
            }
            if(v.mean != nullptr)
                v.mean->store(meanOff[static_cast<size_t>(r)], mean);
            if(v.invVariance != nullptr)
                v.invVariance->store(invOff[static_cast<size_t>(r)], inv);
        }
    });
}

template <typename Acc>
void runRmsnormForward(const RmsnormForwardViews& v, const AxisMask& axes, double epsilon)
{
    const TensorView& x = v.x;
    const AxisSplit split(x, axes);
    const int64_t rows = split.groups(), n = split.members();
    const SplitOffsets xo(x, x, split), yo(v.y, x, split), so(v.scale, x, split);
    std::vector<int64_t> invOff;
    if(v.invRms != nullptr)
        invOff = split.groupOffsets(broadcastTo(*v.invRms, x.rank, x.dims));
    std::unique_ptr<SplitOffsets> bo;
    if(v.bias != nullptr)
        bo = std::make_unique<SplitOffsets>(*v.bias, x, split);
    const Acc eps = static_cast<Acc>(epsilon), count = static_cast<Acc>(n);
    parallelFor(rows, rowChunk(n), [&](int64_t begin, int64_t end) {
        for(int64_t r = begin; r < end; ++r)
        {
            const Acc meanSquare = blockedSum<Acc>(n,
                                                   [&](int64_t k) {
                                                       const Acc xv = x.load<Acc>(xo.at(r, k));
                                                       return xv * xv;
                                                   })
                                   / count;
            const Acc inv = Acc(1) / std::sqrt(meanSquare + eps);
            for(int64_t k = 0; k < n; ++k)
            {
                Acc y = x.load<Acc>(xo.at(r, k)) * inv * v.scale.load<Acc>(so.at(r, k));
                if(bo)
                    y += v.bias->load<Acc>(bo->at(r, k));
                v.y.store(yo.at(r, k), y);
            }
            if(v.invRms != nullptr)
                v.invRms->store(invOff[static_cast<size_t>(r)], inv);
        }
    });
}

// runNormBackward is the shared backward of layernorm (centered = true) and RMSNorm
// (centered = false, mean 0): dx per row, then the parameter gradients.
template <typename Acc>
void runNormBackward(const TensorView& dy, const TensorView& x, const TensorView& scale, const TensorView& dx,
                     const TensorView& dscale, const TensorView* dbias, const AxisMask& axes, bool centered,
                     const TensorView* meanIn, const TensorView* invIn, double epsilon)
{
    const AxisSplit split(x, axes);
    const int64_t rows = split.groups(), n = split.members();
    const SplitOffsets xo(x, x, split), dyo(dy, x, split), dxo(dx, x, split), so(scale, x, split);
    RowStats<Acc> stats;
    stats.mean.assign(static_cast<size_t>(rows), Acc(0));
    stats.inv.assign(static_cast<size_t>(rows), Acc(0));
    std::vector<int64_t> meanOff, invOff;
    if(meanIn != nullptr)
        meanOff = split.groupOffsets(broadcastTo(*meanIn, x.rank, x.dims));
    if(invIn != nullptr)
        invOff = split.groupOffsets(broadcastTo(*invIn, x.rank, x.dims));
    const Acc eps = static_cast<Acc>(epsilon), count = static_cast<Acc>(n);
    parallelFor(rows, rowChunk(n), [&](int64_t begin, int64_t end) {
        for(int64_t r = begin; r < end; ++r)
        {
            const size_t ri = static_cast<size_t>(r);
            Acc mean = Acc(0), inv;
            if(invIn != nullptr)
            {
                if(centered)
                    mean = meanIn->load<Acc>(meanOff[ri]);
                inv = invIn->load<Acc>(invOff[ri]);
            }
            else // layernorm without saved statistics: recompute them from x with epsilon
            {
                mean = blockedSum<Acc>(n, [&](int64_t k) { return x.load<Acc>(xo.at(r, k)); }) / count;
                const Acc var = blockedSum<Acc>(n,
                                                [&](int64_t k) {
                                                    const Acc d = x.load<Acc>(xo.at(r, k)) - mean;
                                                    return d * d;
                                                })
                                / count;
                inv = Acc(1) / std::sqrt(var + eps);
            }
            stats.mean[ri] = mean;
            stats.inv[ri] = inv;
            auto xhat = [&](int64_t k) { return (x.load<Acc>(xo.at(r, k)) - mean) * inv; };
            auto g = [&](int64_t k) { return dy.load<Acc>(dyo.at(r, k)) * scale.load<Acc>(so.at(r, k)); };
            const Acc meanG = centered ? blockedSum<Acc>(n, g) / count : Acc(0);
            const Acc meanGXhat = blockedSum<Acc>(n, [&](int64_t k) { return g(k) * xhat(k); }) / count;
            for(int64_t k = 0; k < n; ++k)
                dx.store(dxo.at(r, k), inv * (g(k) - meanG - xhat(k) * meanGXhat));
        }
    });
    const TensorView rowIndex = split.denseGroupView();
    paramGradient<Acc>(x, dy, rowIndex, dscale, [&](Acc d, Acc xv, int64_t row) {
        const size_t ri = static_cast<size_t>(row);
        return d * ((xv - stats.mean[ri]) * stats.inv[ri]);
    });
    if(dbias != nullptr)
        paramGradient<Acc>(x, dy, rowIndex, *dbias, [](Acc d, Acc, int64_t) { return d; });
}

} // namespace

std::string normAxesFromCount(const TensorView& x, int64_t count, AxisMask& out)
{
    if(count < 1 || count > x.rank)
        return "normalization: normalized_dim_count " + std::to_string(count) + " is outside [1, rank of x "
               + std::to_string(x.rank) + "]";
    out = AxisMask{};
    for(int d = x.rank - static_cast<int>(count); d < x.rank; ++d)
        out[static_cast<size_t>(d)] = true;
    return "";
}

std::string normAxesFromScale(const TensorView& x, const TensorView& scale, AxisMask& out)
{
    std::string err = broadcastable(x, scale, "normalization", "scale");
    if(!err.empty())
        return err;
    const std::vector<int64_t> a = alignedDims(scale, x.rank);
    out = AxisMask{};
    bool any = false;
    for(int d = 0; d < x.rank; ++d)
    {
        const bool varies = a[static_cast<size_t>(d)] != 1;
        if(varies && d == 0 && x.rank >= 2)
            return "normalization: scale " + scale.describe() + " varies along axis 0 of x " + x.describe()
                   + "; the batch axis is never normalized";
        out[static_cast<size_t>(d)] = varies;
        any = any || varies;
    }
    if(!any) // scale is 1 everywhere: every axis but the first (hipDNN frontend fallback)
        for(int d = x.rank >= 2 ? 1 : 0; d < x.rank; ++d)
            out[static_cast<size_t>(d)] = true;
    return "";
}

std::string checkNormStats(const TensorView& x, const AxisMask& axes, const TensorView& stats, const char* role)
{
    bool ok = stats.rank == x.rank;
    for(int d = 0; ok && d < x.rank; ++d)
        ok = stats.dims[d] == (axes[static_cast<size_t>(d)] ? 1 : x.dims[d]);
    if(ok)
        return "";
    std::string expected = "[";
    for(int d = 0; d < x.rank; ++d)
        expected += (d ? "," : "") + std::to_string(axes[static_cast<size_t>(d)] ? 1 : x.dims[d]);
    return std::string("normalization: ") + role + " " + stats.describe() + " must have dims " + expected + "] (x " + x.describe()
           + " with the normalized axes set to 1)";
}

std::string checkLayernormForward(const LayernormForwardViews& v, const AxisMask& axes)
{
    return firstError({sameShape(v.x, v.y, "layernorm", "y"), broadcastable(v.x, v.scale, "layernorm", "scale"),
                       broadcastable(v.x, v.bias, "layernorm", "bias"), v.mean ? checkNormStats(v.x, axes, *v.mean, "mean") : "",
                       v.invVariance ? checkNormStats(v.x, axes, *v.invVariance, "inv_variance") : ""});
}

std::string checkLayernormBackward(const LayernormBackwardViews& v, const AxisMask& axes)
{
    return firstError(
        {sameShape(v.x, v.dy, "layernorm backward", "dy"), sameShape(v.x, v.dx, "layernorm backward", "dx"),
         broadcastable(v.x, v.scale, "layernorm backward", "scale"), broadcastable(v.x, v.dscale, "layernorm backward", "dscale"),
         broadcastable(v.x, v.dbias, "layernorm backward", "dbias"),
         (v.mean == nullptr) != (v.invVariance == nullptr) ? "layernorm backward: mean and inv_variance must be given together"
                                                           : "",
         v.mean ? checkNormStats(v.x, axes, *v.mean, "mean") : "",
         v.invVariance ? checkNormStats(v.x, axes, *v.invVariance, "inv_variance") : ""});
}

std::string checkRmsnormForward(const RmsnormForwardViews& v, const AxisMask& axes)
{
    return firstError({sameShape(v.x, v.y, "rmsnorm", "y"), broadcastable(v.x, v.scale, "rmsnorm", "scale"),
                       v.bias ? broadcastable(v.x, *v.bias, "rmsnorm", "bias") : "",
                       v.invRms ? checkNormStats(v.x, axes, *v.invRms, "inv_rms") : ""});
}

std::string checkRmsnormBackward(const RmsnormBackwardViews& v, const AxisMask& axes)
{
    return firstError({sameShape(v.x, v.dy, "rmsnorm backward", "dy"), sameShape(v.x, v.dx, "rmsnorm backward", "dx"),
                       broadcastable(v.x, v.scale, "rmsnorm backward", "scale"),
                       broadcastable(v.x, v.dscale, "rmsnorm backward", "dscale"),
                       v.dbias ? broadcastable(v.x, *v.dbias, "rmsnorm backward", "dbias") : "",
                       checkNormStats(v.x, axes, v.invRms, "inv_rms")});
}

void layernormForward(const LayernormForwardViews& v, const AxisMask& axes, double epsilon, Accumulator acc)
{
    throwIf(checkLayernormForward(v, axes));
    if(useDoubleAccumulator(acc, {&v.x, &v.scale, &v.bias, &v.y, v.mean, v.invVariance}))
        runLayernormForward<double>(v, axes, epsilon);
    else
        runLayernormForward<float>(v, axes, epsilon);
}

void layernormBackward(const LayernormBackwardViews& v, const AxisMask& axes, double epsilon, Accumulator acc)
{
    throwIf(checkLayernormBackward(v, axes));
    if(useDoubleAccumulator(acc, {&v.dy, &v.x, &v.scale, &v.dx, &v.dscale, &v.dbias, v.mean, v.invVariance}))
        runNormBackward<double>(v.dy, v.x, v.scale, v.dx, v.dscale, &v.dbias, axes, true, v.mean, v.invVariance, epsilon);
    else
        runNormBackward<float>(v.dy, v.x, v.scale, v.dx, v.dscale, &v.dbias, axes, true, v.mean, v.invVariance, epsilon);
}

void rmsnormForward(const RmsnormForwardViews& v, const AxisMask& axes, double epsilon, Accumulator acc)
{
    throwIf(checkRmsnormForward(v, axes));
    if(useDoubleAccumulator(acc, {&v.x, &v.scale, &v.y, v.bias, v.invRms}))
        runRmsnormForward<double>(v, axes, epsilon);
    else
        runRmsnormForward<float>(v, axes, epsilon);
}

void rmsnormBackward(const RmsnormBackwardViews& v, const AxisMask& axes, Accumulator acc)
{
    throwIf(checkRmsnormBackward(v, axes));
    if(useDoubleAccumulator(acc, {&v.dy, &v.x, &v.scale, &v.invRms, &v.dx, &v.dscale, v.dbias}))
        runNormBackward<double>(v.dy, v.x, v.scale, v.dx, v.dscale, v.dbias, axes, false, nullptr, &v.invRms, 0.0);
    else
        runNormBackward<float>(v.dy, v.x, v.scale, v.dx, v.dscale, v.dbias, axes, false, nullptr, &v.invRms, 0.0);
}

} // namespace hipdnngo::cpu_reference
