#include "kernels/BatchNorm.hpp"

#include "core/Parallel.hpp"
#include "kernels/NormCommon.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace hipdnngo::cpu_reference
{
namespace
{

// channelSplit: groups = channels (axis 1), members = every other axis.
AxisSplit channelSplit(const TensorView& x)
{
    AxisMask reduced{};
    for(int d = 0; d < x.rank; ++d)
        reduced[static_cast<size_t>(d)] = d != 1;
    return AxisSplit(x, reduced);
}

std::string checkSameShape(const TensorView& a, const TensorView& b, const char* what)
{
    bool same = a.rank == b.rank;
    for(int d = 0; same && d < a.rank; ++d)
        same = a.dims[d] == b.dims[d];
    return same ? "" : std::string("batchnorm: ") + what + " " + b.describe() + " must have the shape of x " + a.describe();
}

// ChannelValues reads one per-channel tensor: value(c) for channel c.
struct ChannelValues
{
    TensorView view;
    std::vector<int64_t> offsets; // per channel

    ChannelValues(const TensorView& t, const TensorView& x, const AxisSplit& split)
        : view(broadcastTo(t, x.rank, x.dims)), offsets(split.groupOffsets(view))
    {
    }
    template <typename Acc>
    Acc load(int64_t c) const
    {
        return view.load<Acc>(offsets[static_cast<size_t>(c)]);
    }
    void store(int64_t c, double v) const { view.store(offsets[static_cast<size_t>(c)], v); }
};

// forEachElement runs f(c, mBegin, mEnd) over all (channel, member) pairs in parallel blocks.
template <typename F>
void forEachElement(int64_t channels, int64_t members, F&& f)
{
    constexpr int64_t kBlock = 4096;
    const int64_t blocksPerChannel = (members + kBlock - 1) / kBlock;
    parallelFor(channels * blocksPerChannel, 1, [&](int64_t begin, int64_t end) {
        for(int64_t i = begin; i < end; ++i)
        {
            const int64_t c = i / blocksPerChannel, b = i % blocksPerChannel;
            f(c, b * kBlock, std::min(members, (b + 1) * kBlock));
        }
    });
}

template <typename Acc>
void runInference(const TensorView& x, const TensorView& mean, const TensorView& stat, const TensorView& scale,
                  const TensorView& bias, const TensorView& y, const BatchnormInferenceParams& p)
{
    const AxisSplit split = channelSplit(x);
    const int64_t channels = split.groups(), members = split.members();
    const ChannelValues m(mean, x, split), s(stat, x, split), g(scale, x, split), b(bias, x, split);
    std::vector<Acc> mu(static_cast<size_t>(channels)), inv(mu), gamma(mu), beta(mu);
    for(int64_t c = 0; c < channels; ++c)
    {
        const size_t i = static_cast<size_t>(c);
        mu[i] = m.load<Acc>(c);
        inv[i] = p.varianceForm ? Acc(1) / std::sqrt(s.load<Acc>(c) + static_cast<Acc>(p.epsilon)) : s.load<Acc>(c);
        gamma[i] = g.load<Acc>(c);
        beta[i] = b.load<Acc>(c);
    }
    const std::vector<int64_t> xg = split.groupOffsets(x), xm = split.memberOffsets(x);
    const std::vector<int64_t> yg = split.groupOffsets(y), ym = split.memberOffsets(y);
    forEachElement(channels, members, [&](int64_t c, int64_t mb, int64_t me) {
        const size_t ci = static_cast<size_t>(c);
        for(int64_t k = mb; k < me; ++k)
        {
            const size_t ki = static_cast<size_t>(k);
            const Acc v = x.load<Acc>(xg[ci] + xm[ki]);
            y.store(yg[ci] + ym[ki], gamma[ci] * ((v - mu[ci]) * inv[ci]) + beta[ci]);
        }
    });
}

template <typename Acc>
void runTraining(const BatchnormTrainingViews& v, const BatchnormTrainingParams& p)
{
    const TensorView& x = v.x;
    const AxisSplit split = channelSplit(x);
    const int64_t channels = split.groups(), members = split.members();
    const std::vector<int64_t> xg = split.groupOffsets(x), xm = split.memberOffsets(x);
    const std::vector<int64_t> yg = split.groupOffsets(v.y), ym = split.memberOffsets(v.y);
    const ChannelValues g(v.scale, x, split), b(v.bias, x, split);
    std::vector<Acc> mu(static_cast<size_t>(channels)), var(mu), inv(mu);
    const Acc eps = static_cast<Acc>(p.epsilon);
    const Acc count = static_cast<Acc>(members);
    parallelFor(channels, 1, [&](int64_t begin, int64_t end) {
        for(int64_t c = begin; c < end; ++c)
        {
            const size_t ci = static_cast<size_t>(c);
            const int64_t base = xg[ci];
            const Acc mean =
                blockedSum<Acc>(members, [&](int64_t k) { return x.load<Acc>(base + xm[static_cast<size_t>(k)]); }) / count;
            const Acc variance = blockedSum<Acc>(members,
                                                 [&](int64_t k) {
                                                     const Acc d = x.load<Acc>(base + xm[static_cast<size_t>(k)]) - mean;
                                                     return d * d;
                                                 })
                                 / count;
            mu[ci] = mean;
            var[ci] = variance;
            inv[ci] = Acc(1) / std::sqrt(variance + eps);
        }
    });
    forEachElement(channels, members, [&](int64_t c, int64_t mb, int64_t me) {
        const size_t ci = static_cast<size_t>(c);
        const Acc gamma = g.load<Acc>(c), beta = b.load<Acc>(c);
        for(int64_t k = mb; k < me; ++k)
        {
            const size_t ki = static_cast<size_t>(k);
            const Acc xv = x.load<Acc>(xg[ci] + xm[ki]);
            v.y.store(yg[ci] + ym[ki], gamma * ((xv - mu[ci]) * inv[ci]) + beta);
        }
    });
    const Acc momentum = static_cast<Acc>(p.momentum);
    auto perChannelOutput = [&](const TensorView* out, auto value) {
        if(out == nullptr)
            return;
        const ChannelValues o(*out, x, split);
        for(int64_t c = 0; c < channels; ++c)
            o.store(c, static_cast<double>(value(c)));
    };
    perChannelOutput(v.savedMean, [&](int64_t c) { return mu[static_cast<size_t>(c)]; });
    perChannelOutput(v.savedInvVariance, [&](int64_t c) { return inv[static_cast<size_t>(c)]; });
    if(v.nextRunningMean != nullptr)
    {
        const ChannelValues prev(*v.prevRunningMean, x, split);
        perChannelOutput(v.nextRunningMean, [&](int64_t c) {
            return (Acc(1) - momentum) * prev.load<Acc>(c) + momentum * mu[static_cast<size_t>(c)];
        });
    }
    if(v.nextRunningVariance != nullptr)
    {
        // Unbiased batch variance for the running estimate (Bessel's correction), as cuDNN and
        // PyTorch do; checkBatchnormTraining guarantees M > 1 here.
        const Acc bessel = count / static_cast<Acc>(members - 1);
        const ChannelValues prev(*v.prevRunningVariance, x, split);
        perChannelOutput(v.nextRunningVariance, [&](int64_t c) {
            return (Acc(1) - momentum) * prev.load<Acc>(c) + momentum * (var[static_cast<size_t>(c)] * bessel);
        });
    }
}

template <typename Acc>
void runBackward(const TensorView& dy, const TensorView& x, const TensorView& mean, const TensorView& invVariance,
                 const TensorView& scale, const TensorView& dx, const TensorView& dscale, const TensorView& dbias)
{
    const AxisSplit split = channelSplit(x);
    const int64_t channels = split.groups(), members = split.members();
    const std::vector<int64_t> xg = split.groupOffsets(x), xm = split.memberOffsets(x);
    const std::vector<int64_t> dyg = split.groupOffsets(dy), dym = split.memberOffsets(dy);
    const std::vector<int64_t> dxg = split.groupOffsets(dx), dxm = split.memberOffsets(dx);
    const ChannelValues m(mean, x, split), s(invVariance, x, split), g(scale, x, split);
    const ChannelValues ds(dscale, x, split), db(dbias, x, split);
    std::vector<Acc> sumDy(static_cast<size_t>(channels)), sumDyXhat(sumDy);
    parallelFor(channels, 1, [&](int64_t begin, int64_t end) {
        for(int64_t c = begin; c < end; ++c)
        {
            const size_t ci = static_cast<size_t>(c);
            const Acc mu = m.load<Acc>(c), inv = s.load<Acc>(c);
            sumDy[ci] = blockedSum<Acc>(members, [&](int64_t k) { return dy.load<Acc>(dyg[ci] + dym[static_cast<size_t>(k)]); });
            sumDyXhat[ci] = blockedSum<Acc>(members, [&](int64_t k) {
                const size_t ki = static_cast<size_t>(k);
                return dy.load<Acc>(dyg[ci] + dym[ki]) * ((x.load<Acc>(xg[ci] + xm[ki]) - mu) * inv);
            });
        }
    });
    const Acc count = static_cast<Acc>(members);
    forEachElement(channels, members, [&](int64_t c, int64_t mb, int64_t me) {
        const size_t ci = static_cast<size_t>(c);
        const Acc mu = m.load<Acc>(c), inv = s.load<Acc>(c), gamma = g.load<Acc>(c);
        const Acc meanDy = sumDy[ci] / count, meanDyXhat = sumDyXhat[ci] / count;
        for(int64_t k = mb; k < me; ++k)
        {
            const size_t ki = static_cast<size_t>(k);
            const Acc xhat = (x.load<Acc>(xg[ci] + xm[ki]) - mu) * inv;
            const Acc d = dy.load<Acc>(dyg[ci] + dym[ki]);
            dx.store(dxg[ci] + dxm[ki], gamma * inv * (d - meanDy - xhat * meanDyXhat));
        }
    });
    for(int64_t c = 0; c < channels; ++c)
    {
        ds.store(c, static_cast<double>(sumDyXhat[static_cast<size_t>(c)]));
        db.store(c, static_cast<double>(sumDy[static_cast<size_t>(c)]));
    }
}

void throwIf(const std::string& err)
{
    if(!err.empty())
        throw KernelError(err);
}

} // namespace

std::string checkPerChannel(const TensorView& x, const TensorView& t, const char* role)
{
    if(x.rank < 2)
        return "batchnorm: x " + x.describe() + " needs rank >= 2 (N, C, ...)";
    const std::vector<int64_t> a = alignedDims(t, x.rank);
    bool ok = !a.empty();
    for(int d = 0; ok && d < x.rank; ++d)
        ok = a[static_cast<size_t>(d)] == (d == 1 ? x.dims[1] : 1);
    return ok ? ""
              : std::string("batchnorm: ") + role + " " + t.describe() + " must be per-channel [1," + std::to_string(x.dims[1])
                    + ",1,...] for x " + x.describe();
}

std::string checkBatchnormInference(const TensorView& x, const TensorView& mean, const TensorView& stat, const TensorView& scale,
                                    const TensorView& bias, const TensorView& y)
{
    for(const auto& [t, role] :
        {std::pair<const TensorView*, const char*>{&mean, "mean"}, {&stat, "variance"}, {&scale, "scale"}, {&bias, "bias"}})
    {
        const std::string err = checkPerChannel(x, *t, role);
        if(!err.empty())
            return err;
    }
    return checkSameShape(x, y, "y");
}

void batchnormInference(const TensorView& x, const TensorView& mean, const TensorView& stat, const TensorView& scale,
                        const TensorView& bias, const TensorView& y, const BatchnormInferenceParams& p)
{
    throwIf(checkBatchnormInference(x, mean, stat, scale, bias, y));
    if(useDoubleAccumulator(p.accumulator, {x.dtype, mean.dtype, stat.dtype, scale.dtype, bias.dtype, y.dtype}))
        runInference<double>(x, mean, stat, scale, bias, y, p);
    else
        runInference<float>(x, mean, stat, scale, bias, y, p);
}

std::string checkBatchnormTraining(const BatchnormTrainingViews& v)
{
    std::string err = checkPerChannel(v.x, v.scale, "scale");
    if(err.empty())
        err = checkPerChannel(v.x, v.bias, "bias");
    if(err.empty())
        err = checkSameShape(v.x, v.y, "y");
    const std::pair<const TensorView*, const char*> optional[] = {{v.savedMean, "mean"},
                                                                  {v.savedInvVariance, "inv_variance"},
                                                                  {v.prevRunningMean, "prev_running_mean"},
                                                                  {v.prevRunningVariance, "prev_running_variance"},
                                                                  {v.nextRunningMean, "next_running_mean"},
                                                                  {v.nextRunningVariance, "next_running_variance"}};
    for(const auto& [t, role] : optional)
        if(err.empty() && t != nullptr)
            err = checkPerChannel(v.x, *t, role);
    if(!err.empty())
        return err;
    if(v.nextRunningMean != nullptr && v.prevRunningMean == nullptr)
        return "batchnorm: next_running_mean needs prev_running_mean";
    if(v.nextRunningVariance != nullptr && v.prevRunningVariance == nullptr)
        return "batchnorm: next_running_variance needs prev_running_variance";
    if(v.nextRunningVariance != nullptr && v.x.elementCount() / v.x.dims[1] < 2)
        return "batchnorm: the unbiased running variance needs more than one element per channel";
    return "";
}

void batchnormTraining(const BatchnormTrainingViews& v, const BatchnormTrainingParams& p)
{
    throwIf(checkBatchnormTraining(v));
    bool useDouble = useDoubleAccumulator(p.accumulator, {v.x.dtype, v.scale.dtype, v.bias.dtype, v.y.dtype});
    for(const TensorView* t :
        {v.savedMean, v.savedInvVariance, v.prevRunningMean, v.prevRunningVariance, v.nextRunningMean, v.nextRunningVariance})
        useDouble = useDouble || (p.accumulator == Accumulator::Auto && t != nullptr && t->dtype == DataType::Double);
    if(useDouble)
        runTraining<double>(v, p);
    else
        runTraining<float>(v, p);
}

std::string checkBatchnormBackward(const TensorView& dy, const TensorView& x, const TensorView& mean,
                                   const TensorView& invVariance, const TensorView& scale, const TensorView& dx,
                                   const TensorView& dscale, const TensorView& dbias)
{
    std::string err = checkSameShape(x, dy, "dy");
    if(err.empty())
        err = checkSameShape(x, dx, "dx");
    for(const auto& [t, role] : {std::pair<const TensorView*, const char*>{&mean, "mean"},
                                 {&invVariance, "inv_variance"},
                                 {&scale, "scale"},
                                 {&dscale, "dscale"},
                                 {&dbias, "dbias"}})
        if(err.empty())
            err = checkPerChannel(x, *t, role);
    return err;
}

void batchnormBackward(const TensorView& dy, const TensorView& x, const TensorView& mean, const TensorView& invVariance,
                       const TensorView& scale, const TensorView& dx, const TensorView& dscale, const TensorView& dbias,
                       Accumulator accumulator)
{
    throwIf(checkBatchnormBackward(dy, x, mean, invVariance, scale, dx, dscale, dbias));
    if(useDoubleAccumulator(accumulator,
                            {dy.dtype, x.dtype, mean.dtype, invVariance.dtype, scale.dtype, dx.dtype, dscale.dtype, dbias.dtype}))
        runBackward<double>(dy, x, mean, invVariance, scale, dx, dscale, dbias);
    else
        runBackward<float>(dy, x, mean, invVariance, scale, dx, dscale, dbias);
}

} // namespace hipdnngo::cpu_reference
