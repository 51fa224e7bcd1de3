// Batchnorm tests: inference (inv_variance and variance+epsilon forms), training (saved
// statistics, running statistics with the unbiased variance) and backward, against double loops
// over logical indices written here; several ranks, three layouts, four float types and a mixed
// precision case.
//
// Tolerances (|got − exact| <= outRel·|exact| + accRel·scale + abs; `scale` is the magnitude of
// the terms the kernel combines, stated per output below):
//   outRel  one rounding of the output type: double 1e-14, float 2.4e-7, half 1e-3 (2^-11 ≈
//           4.9e-4), bfloat16 8e-3 (2^-8 ≈ 3.9e-3) — TestSupport's toleranceFor(type, 1).
//   accRel  arithmetic of the accumulator. Double: 1e-12. Float (used for float, half and bfloat16
//           tensors): 3e-5. A normalization is more than a dot product: the mean and the variance
//           are M-term sums (blocked by 256, so the worst-case bound is (256 + M/256)·2^-24 ≈
//           1.6e-5 for our M <= 1000, typical ≈ √M·6e-8 ≈ 2e-6), 1/√(var+ε) adds half the
//           variance's relative error, and y / dx chain 4-6 more roundings. 3e-5 covers the worst
//           case; an indexing or formula bug errs by O(1)·scale.
#include "TestSupport.hpp"

#include "kernels/BatchNorm.hpp"

#include <cmath>

using namespace cpuref_test;
namespace cr = hipdnngo::cpu_reference;

namespace
{

double accRelFor(bool doubleAcc) { return doubleAcc ? 1e-12 : 3e-5; }

Tolerance tolFor(DataType out, bool doubleAcc)
{
    Tolerance t = toleranceFor(out, 1);
    t.accRel = accRelFor(doubleAcc);
    t.abs = out == DataType::Half ? 1e-7 : 1e-30;
    return t;
}

Dims perChannelDims(const Dims& x)
{
    Dims d(x.size(), 1);
    d[1] = x[1];
    return d;
}

Dims channelIndex(const Dims& i)
{
    Dims c(i.size(), 0);
    c[1] = i[1];
    return c;
}

// Exact per-channel statistics of x (double).
struct ChannelStats
{
    std::vector<double> mean, var;
    int64_t count = 0;
};

ChannelStats statsOf(const Tensor& x)
{
    const int64_t C = x.dims[1];
    ChannelStats s;
    s.mean.assign(static_cast<size_t>(C), 0.0);
    s.var.assign(static_cast<size_t>(C), 0.0);
    x.forEachIndex([&](const Dims& i) { s.mean[static_cast<size_t>(i[1])] += x.at(i); });
    s.count = x.count() / C;
    for(double& m : s.mean)
        m /= static_cast<double>(s.count);
    x.forEachIndex([&](const Dims& i) {
        const double d = x.at(i) - s.mean[static_cast<size_t>(i[1])];
        s.var[static_cast<size_t>(i[1])] += d * d;
    });
    for(double& v : s.var)
        v /= static_cast<double>(s.count);
    return s;
}

const std::vector<Dims>& shapes()
{
    static const std::vector<Dims> s{
        {2, 3, 4, 5}, {3, 5, 7}, {2, 2, 2, 3, 2}, {4, 6}, {4, 3, 16, 20}}; // last: M = 1280 > one 256-term sum block
    return s;
}

} // namespace

CPUREF_TEST(batchnorm_inference_both_forms_layouts_types)
{
    std::mt19937 rng(101);
    for(const Dims& xd : shapes())
    {
        const auto layouts = standardLayouts(static_cast<int>(xd.size()));
        for(DataType t : floatTypes())
            for(size_t li = 0; li < layouts.size(); ++li)
                for(bool varianceForm : {false, true})
                {
                    const Dims cd = perChannelDims(xd);
                    Tensor x(t, xd, layouts[li]), y(t, xd, layouts[(li + 1) % layouts.size()]);
                    Tensor mean(t, cd, layouts[(li + 2) % layouts.size()]), stat(t, cd), scale(t, cd), bias(t, cd);
                    x.fillUniform(rng, -2, 2);
                    mean.fillUniform(rng, -0.5, 0.5);
                    stat.fillUniform(rng, 0.2, 3);
                    scale.fillUniform(rng, -1.5, 1.5);
                    bias.fillUniform(rng, -1, 1);
                    cr::BatchnormInferenceParams p;
                    p.varianceForm = varianceForm;
                    p.epsilon = 1e-3;
                    cr::batchnormInference(x.view, mean.view, stat.view, scale.view, bias.view, y.view, p);
                    auto inv = [&](const Dims& c) { return varianceForm ? 1.0 / std::sqrt(stat.at(c) + 1e-3) : stat.at(c); };
                    const std::string what = std::string("bn inference ") + (varianceForm ? "variance " : "inv ") + dimsString(xd)
                                             + "/" + cr::dataTypeName(t) + "/" + layouts[li].name;
                    expectClose(
                        what, y,
                        [&](const Dims& i) {
                            const Dims c = channelIndex(i);
                            return scale.at(c) * (x.at(i) - mean.at(c)) * inv(c) + bias.at(c);
                        },
                        [&](const Dims& i) { // |γ|·(|x| + |μ|)·r + |β|
                            const Dims c = channelIndex(i);
                            return std::fabs(scale.at(c)) * (std::fabs(x.at(i)) + std::fabs(mean.at(c))) * inv(c)
                                   + std::fabs(bias.at(c));
                        },
                        tolFor(t, t == DataType::Double));
                }
    }
}

CPUREF_TEST(batchnorm_training_statistics_running_update_layouts_types)
{
    std::mt19937 rng(102);
    for(const Dims& xd : shapes())
    {
        const auto layouts = standardLayouts(static_cast<int>(xd.size()));
        for(DataType t : floatTypes())
            for(size_t li = 0; li < layouts.size(); ++li)
            {
                const Dims cd = perChannelDims(xd);
                Tensor x(t, xd, layouts[li]), y(t, xd, layouts[(li + 1) % layouts.size()]);
                Tensor scale(t, cd), bias(t, cd), savedMean(t, cd), savedInv(t, cd);
                Tensor prevMean(t, cd), prevVar(t, cd), nextMean(t, cd), nextVar(t, cd);
                x.fillUniform(rng, -1, 3); // non-zero mean exercises the two-pass variance
                scale.fillUniform(rng, -1.5, 1.5);
                bias.fillUniform(rng, -1, 1);
                prevMean.fillUniform(rng, -1, 1);
                prevVar.fillUniform(rng, 0.5, 2);
                cr::BatchnormTrainingViews v{x.view, scale.view, bias.view, y.view};
                v.savedMean = &savedMean.view;
                v.savedInvVariance = &savedInv.view;
                v.prevRunningMean = &prevMean.view;
                v.prevRunningVariance = &prevVar.view;
                v.nextRunningMean = &nextMean.view;
                v.nextRunningVariance = &nextVar.view;
                cr::BatchnormTrainingParams p;
                p.epsilon = 1e-4;
                p.momentum = 0.125;
                cr::batchnormTraining(v, p);

                const ChannelStats s = statsOf(x);
                const double M = static_cast<double>(s.count);
                auto inv = [&](int64_t c) { return 1.0 / std::sqrt(s.var[static_cast<size_t>(c)] + 1e-4); };
                const std::string what = "bn training " + dimsString(xd) + "/" + cr::dataTypeName(t) + "/" + layouts[li].name;
                const Tolerance tol = tolFor(t, t == DataType::Double);
                // Per-channel magnitude of the statistics: Σ|x|/M (mean), and r (inv_variance).
                std::vector<double> absMean(static_cast<size_t>(xd[1]), 0.0);
                x.forEachIndex([&](const Dims& i) { absMean[static_cast<size_t>(i[1])] += std::fabs(x.at(i)) / M; });
                expectClose(
                    what + " y", y,
                    [&](const Dims& i) {
                        const Dims c = channelIndex(i);
                        return scale.at(c) * (x.at(i) - s.mean[static_cast<size_t>(i[1])]) * inv(i[1]) + bias.at(c);
                    },
                    [&](const Dims& i) { // the statistics' error scales with Σ|x|/M·r
                        const Dims c = channelIndex(i);
                        const double r = inv(i[1]);
                        return std::fabs(scale.at(c)) * r * (std::fabs(x.at(i)) + absMean[static_cast<size_t>(i[1])])
                               + std::fabs(bias.at(c));
                    },
                    tol);
                expectClose(
                    what + " saved mean", savedMean, [&](const Dims& c) { return s.mean[static_cast<size_t>(c[1])]; },
                    [&](const Dims& c) { return absMean[static_cast<size_t>(c[1])]; }, tol);
                expectClose(
                    what + " saved inv_variance", savedInv, [&](const Dims& c) { return inv(c[1]); },
                    [&](const Dims& c) { // relative error of r ≈ ½ that of var, var error ~ (Σ|x|/M)²
                        const double a = absMean[static_cast<size_t>(c[1])];
                        return inv(c[1]) * (1.0 + a * a * inv(c[1]) * inv(c[1]));
                    },
                    tol);
                expectClose(
                    what + " next running mean", nextMean,
                    [&](const Dims& c) { return 0.875 * prevMean.at(c) + 0.125 * s.mean[static_cast<size_t>(c[1])]; },
                    [&](const Dims& c) { return std::fabs(prevMean.at(c)) + absMean[static_cast<size_t>(c[1])]; }, tol);
                expectClose(
                    what + " next running variance (unbiased)", nextVar,
                    [&](const Dims& c) { return 0.875 * prevVar.at(c) + 0.125 * s.var[static_cast<size_t>(c[1])] * M / (M - 1); },
                    [&](const Dims& c) {
                        const double a = absMean[static_cast<size_t>(c[1])];
                        return prevVar.at(c) + a * a * M / (M - 1);
                    },
                    tol);
            }
    }
}

CPUREF_TEST(batchnorm_backward_layouts_types_and_mixed_precision)
{
    std::mt19937 rng(103);
    struct Types
    {
        DataType data, stats;
    };
    std::vector<Types> types;
    for(DataType t : floatTypes())
        types.push_back({t, t});
    types.push_back({DataType::Half, DataType::Float}); // half activations, fp32 statistics
    for(const Dims& xd : shapes())
    {
        const auto layouts = standardLayouts(static_cast<int>(xd.size()));
        for(const Types& ty : types)
            for(size_t li = 0; li < layouts.size(); ++li)
            {
                const DataType t = ty.data;
                const Dims cd = perChannelDims(xd);
                Tensor x(t, xd, layouts[li]), dy(t, xd, layouts[(li + 1) % layouts.size()]),
                    dx(t, xd, layouts[(li + 2) % layouts.size()]);
                Tensor mean(ty.stats, cd), inv(ty.stats, cd), scale(ty.stats, cd), dscale(ty.stats, cd), dbias(ty.stats, cd);
                x.fillUniform(rng, -2, 2);
                dy.fillUniform(rng, -1, 1);
                scale.fillUniform(rng, -1.5, 1.5);
                // Saved statistics near the true ones (as a forward pass would give), not equal.
                const ChannelStats s = statsOf(x);
                for(int64_t c = 0; c < xd[1]; ++c)
                {
                    const Dims ci = channelIndex(Dims(xd.size(), 0));
                    Dims idx = ci;
                    idx[1] = c;
                    mean.set(idx, s.mean[static_cast<size_t>(c)] + 0.01);
                    inv.set(idx, 1.0 / std::sqrt(s.var[static_cast<size_t>(c)] + 1e-3));
                }
                cr::batchnormBackward(dy.view, x.view, mean.view, inv.view, scale.view, dx.view, dscale.view, dbias.view);
                const int64_t C = xd[1];
                const double M = static_cast<double>(x.count() / C);
                std::vector<double> sumDy(static_cast<size_t>(C), 0), sumDyXhat(sumDy), absDy(sumDy), absDyXhat(sumDy);
                auto xhat = [&](const Dims& i) { return (x.at(i) - mean.at(channelIndex(i))) * inv.at(channelIndex(i)); };
                x.forEachIndex([&](const Dims& i) {
                    const size_t c = static_cast<size_t>(i[1]);
                    sumDy[c] += dy.at(i);
                    sumDyXhat[c] += dy.at(i) * xhat(i);
                    absDy[c] += std::fabs(dy.at(i));
                    absDyXhat[c] += std::fabs(dy.at(i) * xhat(i));
                });
                const bool dbl = t == DataType::Double || ty.stats == DataType::Double;
                const std::string what = std::string("bn backward ") + dimsString(xd) + "/" + cr::dataTypeName(t) + "+"
                                         + cr::dataTypeName(ty.stats) + "/" + layouts[li].name;
                expectClose(
                    what + " dx", dx,
                    [&](const Dims& i) {
                        const size_t c = static_cast<size_t>(i[1]);
                        const Dims ci = channelIndex(i);
                        return scale.at(ci) * inv.at(ci) * (dy.at(i) - sumDy[c] / M - xhat(i) * sumDyXhat[c] / M);
                    },
                    [&](const Dims& i) { // |γ|·r·(|dy| + Σ|dy|/M + |x̂|·Σ|dy·x̂|/M)·(1 + |x̂|)
                        const size_t c = static_cast<size_t>(i[1]);
                        const Dims ci = channelIndex(i);
                        return std::fabs(scale.at(ci)) * inv.at(ci)
                               * (std::fabs(dy.at(i)) + absDy[c] / M + std::fabs(xhat(i)) * absDyXhat[c] / M)
                               * (1 + std::fabs(xhat(i)));
                    },
                    tolFor(t, dbl));
                expectClose(
                    what + " dscale", dscale, [&](const Dims& c) { return sumDyXhat[static_cast<size_t>(c[1])]; },
                    [&](const Dims& c) { return absDyXhat[static_cast<size_t>(c[1])] * 4; }, tolFor(ty.stats, dbl));
                expectClose(
                    what + " dbias", dbias, [&](const Dims& c) { return sumDy[static_cast<size_t>(c[1])]; },
                    [&](const Dims& c) { return absDy[static_cast<size_t>(c[1])]; }, tolFor(ty.stats, dbl));
            }
    }
}

CPUREF_TEST(batchnorm_rejects_bad_shapes)
{
    Tensor x(DataType::Float, {2, 3, 4}), y(DataType::Float, {2, 3, 4}), c(DataType::Float, {1, 3, 1}),
        wrongC(DataType::Float, {1, 4, 1}), spatial(DataType::Float, {1, 3, 4}), rank1(DataType::Float, {3});
    CPUREF_CHECK(cr::checkBatchnormInference(x.view, c.view, c.view, c.view, c.view, y.view).empty(), "valid shapes rejected");
    CPUREF_CHECK(!cr::checkPerChannel(x.view, wrongC.view, "scale").empty(), "wrong channel count accepted");
    CPUREF_CHECK(!cr::checkPerChannel(x.view, spatial.view, "scale").empty(), "spatially varying scale accepted");
    CPUREF_CHECK(!cr::checkPerChannel(x.view, rank1.view, "scale").empty(), "[C] right-aligns to the last axis of rank-3 x");
    Tensor x2(DataType::Float, {5, 3}), c2(DataType::Float, {3});
    CPUREF_CHECK(cr::checkPerChannel(x2.view, c2.view, "scale").empty(), "[C] is per-channel for rank-2 x");
    // Unbiased running variance with one element per channel is undefined.
    Tensor one(DataType::Float, {1, 3, 1}), yo(DataType::Float, {1, 3, 1});
    cr::BatchnormTrainingViews v{one.view, c.view, c.view, yo.view};
    v.prevRunningVariance = &c.view;
    v.nextRunningVariance = &c.view;
    CPUREF_CHECK(!cr::checkBatchnormTraining(v).empty(), "M = 1 running variance accepted");
}
