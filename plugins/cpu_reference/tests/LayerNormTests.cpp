// Layernorm and RMSNorm tests, forward and backward, against double loops written here over
// logical indices: normalized axes from normalized_dim_count and from the scale shape, lower-rank
// (right-aligned) scale / bias, statistics given and recomputed, three layouts, four float
// types and a mixed-precision case.
//
// Tolerances: |got − exact| <= outRel·|exact| + accRel·scale (+ a half subnormal floor), with
//   outRel  one rounding of the output type (toleranceFor(type, 1): 1e-14 / 2.4e-7 / 1e-3 / 8e-3)
//   accRel  1e-12 when the kernel accumulates in double, 3e-5 in fp32 (float, half, bfloat16):
//           row statistics are n-term sums (blocked by 256: worst (256 + n/256)·2^-24 ≈ 1.6e-5
//           for n <= 1000, typical √n·6e-8), the inverse square root halves the variance's
//           relative error, and the outputs chain 4-6 more roundings.
//   scale   the magnitude of the terms combined for that output (stated at each check): for y,
//           |γ|·r·(|x| + Σ|x|/n) + |β|; for dx, r·(|g| + Σ|g|/n + |x̂|·Σ|g·x̂|/n)·(1 + |x̂|); for
//           dscale / dbias, the sum of the absolute terms. A bug (wrong axis, wrong row, wrong
//           formula) errs by O(1)·scale.
#include "TestSupport.hpp"

#include "kernels/LayerNorm.hpp"

#include <cmath>
#include <map>

using namespace cpuref_test;
namespace cr = hipdnngo::cpu_reference;

namespace
{

Tolerance tolFor(DataType out, bool doubleAcc)
{
    Tolerance t = toleranceFor(out, 1);
    t.accRel = doubleAcc ? 1e-12 : 3e-5;
    t.abs = out == DataType::Half ? 1e-7 : 1e-30;
    return t;
}

// Rows: the test's own grouping of x positions by their kept (non-normalized) indices.
struct Rows
{
    Dims xDims;
    std::vector<bool> normalized;

    Dims rowOf(const Dims& i) const // the index with the normalized axes zeroed
    {
        Dims r = i;
        for(size_t d = 0; d < r.size(); ++d)
            if(normalized[d])
                r[d] = 0;
        return r;
    }
    Dims statDims() const
    {
        Dims s = xDims;
        for(size_t d = 0; d < s.size(); ++d)
            if(normalized[d])
                s[d] = 1;
        return s;
    }
    double count() const
    {
        double n = 1;
        for(size_t d = 0; d < xDims.size(); ++d)
            if(normalized[d])
                n *= static_cast<double>(xDims[d]);
        return n;
    }
};

// paramIndex maps an x index onto a right-aligned, broadcast parameter tensor of dims p.
Dims paramIndex(const Dims& i, const Dims& p)
{
    Dims out(p.size(), 0);
    const size_t lead = i.size() - p.size();
    for(size_t a = 0; a < p.size(); ++a)
        out[a] = p[a] == 1 ? 0 : i[lead + a];
    return out;
}

struct RowSums
{
    std::map<Dims, double> sum, abs, sq;
};

// One configuration: x dims, how the axes are chosen (count > 0: trailing count; 0: from the
// scale shape), the scale / bias dims, and the expected normalized axes (cross-check of the rule).
struct Config
{
    Dims x;
    int64_t count;
    Dims param;
    std::vector<bool> expectAxes;
};

const std::vector<Config>& layernormConfigs()
{
    static const std::vector<Config> c{
        {{2, 3, 8}, 1, {8}, {false, false, true}}, // corpus sample_layernorm: [B,S,D], scale [D]
        {{2, 3, 4, 5}, 2, {1, 1, 4, 5}, {false, false, true, true}},
        {{4, 6, 5}, 0, {1, 6, 5}, {false, true, true}}, // axes from the scale shape
        {{3, 300}, 1, {300}, {false, true}}, // n = 300 > one sum block
        {{2, 3, 4}, 3, {3, 4}, {true, true, true}}, // every axis normalized; lower-rank scale
    };
    return c;
}

const std::vector<Config>& rmsnormConfigs()
{
    static const std::vector<Config> c{
        {{2, 3, 8}, 0, {8}, {false, false, true}}, // corpus sample_rmsnorm_backward: scale [D]
        {{2, 3, 4, 4}, 0, {1, 3, 4, 4}, {false, true, true, true}}, // scale [1,C,H,W]: over C,H,W
        {{2, 5, 3}, 0, {1, 5, 1}, {false, true, false}}, // per-channel scale: over C only
        {{3, 2, 300}, 0, {1, 1, 300}, {false, false, true}},
        {{4, 3, 2}, 0, {1, 1, 1}, {false, true, true}}, // all-ones scale: every axis but the first
    };
    return c;
}

cr::AxisMask axesOf(const Config& c, const TensorView& x, const TensorView& scale)
{
    cr::AxisMask axes{};
    const std::string err = c.count > 0 ? cr::normAxesFromCount(x, c.count, axes) : cr::normAxesFromScale(x, scale, axes);
    CPUREF_CHECK(err.empty(), err);
    for(size_t d = 0; d < c.x.size(); ++d)
        CPUREF_CHECK(axes[d] == c.expectAxes[d], "axis " << d << " of " << dimsString(c.x) << ": normalized " << axes[d]);
    return axes;
}

struct TypeSet
{
    DataType data, params, stats;
};

std::vector<TypeSet> typeSets()
{
    std::vector<TypeSet> t;
    for(DataType d : floatTypes())
        t.push_back({d, d, d});
    t.push_back({DataType::BFloat16, DataType::Float, DataType::Float}); // bf16 activations, fp32 γ/β/stats
    return t;
}

bool anyDouble(const TypeSet& t)
{
    return t.data == DataType::Double || t.params == DataType::Double || t.stats == DataType::Double;
}

} // namespace

CPUREF_TEST(layernorm_forward_axes_layouts_types)
{
    std::mt19937 rng(201);
    for(const Config& c : layernormConfigs())
    {
        const auto layouts = standardLayouts(static_cast<int>(c.x.size()));
        for(const TypeSet& ty : typeSets())
            for(size_t li = 0; li < layouts.size(); ++li)
            {
                Tensor x(ty.data, c.x, layouts[li]), y(ty.data, c.x, layouts[(li + 1) % layouts.size()]);
                Tensor scale(ty.params, c.param), bias(ty.params, c.param);
                x.fillUniform(rng, -1, 3);
                scale.fillUniform(rng, -1.5, 1.5);
                bias.fillUniform(rng, -1, 1);
                const cr::AxisMask axes = axesOf(c, x.view, scale.view);
                Rows rows{c.x, c.expectAxes};
                Tensor mean(ty.stats, rows.statDims(), layouts[(li + 2) % layouts.size()]), inv(ty.stats, rows.statDims());
                cr::LayernormForwardViews v{x.view, scale.view, bias.view, y.view};
                v.mean = &mean.view;
                v.invVariance = &inv.view;
                const double eps = 1e-5;
                cr::layernormForward(v, axes, eps);

                const double n = rows.count();
                RowSums s;
                x.forEachIndex([&](const Dims& i) {
                    s.sum[rows.rowOf(i)] += x.at(i);
                    s.abs[rows.rowOf(i)] += std::fabs(x.at(i));
                });
                x.forEachIndex([&](const Dims& i) {
                    const double d = x.at(i) - s.sum[rows.rowOf(i)] / n;
                    s.sq[rows.rowOf(i)] += d * d;
                });
                auto mu = [&](const Dims& r) { return s.sum.at(r) / n; };
                auto r = [&](const Dims& row) { return 1.0 / std::sqrt(s.sq.at(row) / n + eps); };
                const std::string what = "layernorm " + dimsString(c.x) + "/" + cr::dataTypeName(ty.data) + "+"
                                         + cr::dataTypeName(ty.params) + "/" + layouts[li].name;
                expectClose(
                    what + " y", y,
                    [&](const Dims& i) {
                        const Dims row = rows.rowOf(i), p = paramIndex(i, c.param);
                        return scale.at(p) * (x.at(i) - mu(row)) * r(row) + bias.at(p);
                    },
                    [&](const Dims& i) {
                        const Dims row = rows.rowOf(i), p = paramIndex(i, c.param);
                        return std::fabs(scale.at(p)) * r(row) * (std::fabs(x.at(i)) + s.abs.at(row) / n) + std::fabs(bias.at(p));
                    },
                    tolFor(ty.data, anyDouble(ty)));
                expectClose(
                    what + " mean", mean, [&](const Dims& row) { return mu(row); },
                    [&](const Dims& row) { return s.abs.at(row) / n; }, tolFor(ty.stats, anyDouble(ty)));
                expectClose(
                    what + " inv_variance", inv, [&](const Dims& row) { return r(row); },
                    [&](const Dims& row) {
                        const double a = s.abs.at(row) / n;
                        return r(row) * (1 + a * a * r(row) * r(row));
                    },
                    tolFor(ty.stats, anyDouble(ty)));
            }
    }
}

CPUREF_TEST(layernorm_backward_given_and_recomputed_stats)
{
    std::mt19937 rng(202);
    for(const Config& c : layernormConfigs())
    {
        const auto layouts = standardLayouts(static_cast<int>(c.x.size()));
        for(const TypeSet& ty : typeSets())
            for(size_t li = 0; li < layouts.size(); ++li)
                for(bool givenStats : {true, false})
                {
                    Tensor x(ty.data, c.x, layouts[li]), dy(ty.data, c.x, layouts[(li + 1) % layouts.size()]),
                        dx(ty.data, c.x, layouts[(li + 2) % layouts.size()]);
                    Tensor scale(ty.params, c.param), dscale(ty.params, c.param), dbias(ty.params, c.param);
                    x.fillUniform(rng, -2, 2);
                    dy.fillUniform(rng, -1, 1);
                    scale.fillUniform(rng, -1.5, 1.5);
                    const cr::AxisMask axes = axesOf(c, x.view, scale.view);
                    Rows rows{c.x, c.expectAxes};
                    const double n = rows.count(), eps = 1e-3;
                    RowSums s;
                    x.forEachIndex([&](const Dims& i) { s.sum[rows.rowOf(i)] += x.at(i); });
                    x.forEachIndex([&](const Dims& i) {
                        const double d = x.at(i) - s.sum[rows.rowOf(i)] / n;
                        s.sq[rows.rowOf(i)] += d * d;
                    });
                    Tensor mean(ty.stats, rows.statDims()), inv(ty.stats, rows.statDims());
                    // Given statistics: slightly off the exact ones, so the kernel must use them.
                    mean.forEachIndex([&](const Dims& row) { mean.set(row, s.sum.at(row) / n + 0.02); });
                    inv.forEachIndex([&](const Dims& row) { inv.set(row, 1.0 / std::sqrt(s.sq.at(row) / n + eps) * 1.01); });
                    cr::LayernormBackwardViews v{dy.view, x.view, scale.view, dx.view, dscale.view, dbias.view};
                    if(givenStats)
                    {
                        v.mean = &mean.view;
                        v.invVariance = &inv.view;
                    }
                    cr::layernormBackward(v, axes, eps);

                    auto mu = [&](const Dims& row) { return givenStats ? mean.at(row) : s.sum.at(row) / n; };
                    auto r = [&](const Dims& row) { return givenStats ? inv.at(row) : 1.0 / std::sqrt(s.sq.at(row) / n + eps); };
                    auto xhat = [&](const Dims& i) { return (x.at(i) - mu(rows.rowOf(i))) * r(rows.rowOf(i)); };
                    auto g = [&](const Dims& i) { return dy.at(i) * scale.at(paramIndex(i, c.param)); };
                    std::map<Dims, double> sg, sgx, ag, agx;
                    x.forEachIndex([&](const Dims& i) {
                        const Dims row = rows.rowOf(i);
                        sg[row] += g(i);
                        sgx[row] += g(i) * xhat(i);
                        ag[row] += std::fabs(g(i));
                        agx[row] += std::fabs(g(i) * xhat(i));
                    });
                    std::map<Dims, double> ds, db, ads, adb;
                    x.forEachIndex([&](const Dims& i) {
                        const Dims p = paramIndex(i, c.param);
                        ds[p] += dy.at(i) * xhat(i);
                        db[p] += dy.at(i);
                        ads[p] += std::fabs(dy.at(i) * xhat(i));
                        adb[p] += std::fabs(dy.at(i));
                    });
                    const std::string what = std::string("layernorm backward ") + (givenStats ? "given " : "recomputed ")
                                             + dimsString(c.x) + "/" + cr::dataTypeName(ty.data) + "+"
                                             + cr::dataTypeName(ty.params) + "/" + layouts[li].name;
                    expectClose(
                        what + " dx", dx,
                        [&](const Dims& i) {
                            const Dims row = rows.rowOf(i);
                            return r(row) * (g(i) - sg.at(row) / n - xhat(i) * sgx.at(row) / n);
                        },
                        [&](const Dims& i) {
                            const Dims row = rows.rowOf(i);
                            return r(row) * (std::fabs(g(i)) + ag.at(row) / n + std::fabs(xhat(i)) * agx.at(row) / n)
                                   * (1 + std::fabs(xhat(i)));
                        },
                        tolFor(ty.data, anyDouble(ty)));
                    expectClose(
                        what + " dscale", dscale, [&](const Dims& p) { return ds.at(p); },
                        [&](const Dims& p) { return 4 * ads.at(p) + adb.at(p); }, tolFor(ty.params, anyDouble(ty)));
                    expectClose(
                        what + " dbias", dbias, [&](const Dims& p) { return db.at(p); }, [&](const Dims& p) { return adb.at(p); },
                        tolFor(ty.params, anyDouble(ty)));
                }
    }
}

CPUREF_TEST(rmsnorm_forward_axes_bias_layouts_types)
{
    std::mt19937 rng(203);
    for(const Config& c : rmsnormConfigs())
    {
        const auto layouts = standardLayouts(static_cast<int>(c.x.size()));
        for(const TypeSet& ty : typeSets())
            for(size_t li = 0; li < layouts.size(); ++li)
                for(bool withBias : {false, true})
                {
                    Tensor x(ty.data, c.x, layouts[li]), y(ty.data, c.x, layouts[(li + 1) % layouts.size()]);
                    Tensor scale(ty.params, c.param), bias(ty.params, c.param);
                    x.fillUniform(rng, -2, 2);
                    scale.fillUniform(rng, -1.5, 1.5);
                    bias.fillUniform(rng, -1, 1);
                    const cr::AxisMask axes = axesOf(c, x.view, scale.view);
                    Rows rows{c.x, c.expectAxes};
                    Tensor invRms(ty.stats, rows.statDims(), layouts[(li + 2) % layouts.size()]);
                    cr::RmsnormForwardViews v{x.view, scale.view, y.view};
                    v.bias = withBias ? &bias.view : nullptr;
                    v.invRms = &invRms.view;
                    const double eps = 1e-6;
                    cr::rmsnormForward(v, axes, eps);
                    const double n = rows.count();
                    std::map<Dims, double> sq;
                    x.forEachIndex([&](const Dims& i) { sq[rows.rowOf(i)] += x.at(i) * x.at(i); });
                    auto r = [&](const Dims& row) { return 1.0 / std::sqrt(sq.at(row) / n + eps); };
                    const std::string what = std::string("rmsnorm ") + (withBias ? "+bias " : "") + dimsString(c.x) + "/"
                                             + cr::dataTypeName(ty.data) + "+" + cr::dataTypeName(ty.params) + "/"
                                             + layouts[li].name;
                    expectClose(
                        what + " y", y,
                        [&](const Dims& i) {
                            const Dims p = paramIndex(i, c.param);
                            return scale.at(p) * x.at(i) * r(rows.rowOf(i)) + (withBias ? bias.at(p) : 0.0);
                        },
                        [&](const Dims& i) {
                            const Dims p = paramIndex(i, c.param);
                            return std::fabs(scale.at(p) * x.at(i)) * r(rows.rowOf(i)) + (withBias ? std::fabs(bias.at(p)) : 0.0);
                        },
                        tolFor(ty.data, anyDouble(ty)));
                    expectClose(
                        what + " inv_rms", invRms, [&](const Dims& row) { return r(row); },
                        [&](const Dims& row) { return r(row); }, tolFor(ty.stats, anyDouble(ty)));
                }
    }
}

CPUREF_TEST(rmsnorm_backward_axes_layouts_types)
{
    std::mt19937 rng(204);
    for(const Config& c : rmsnormConfigs())
    {
        const auto layouts = standardLayouts(static_cast<int>(c.x.size()));
        for(const TypeSet& ty : typeSets())
            for(size_t li = 0; li < layouts.size(); ++li)
                for(bool withDbias : {false, true})
                {
                    Tensor x(ty.data, c.x, layouts[li]), dy(ty.data, c.x, layouts[(li + 1) % layouts.size()]),
                        dx(ty.data, c.x, layouts[(li + 2) % layouts.size()]);
                    Tensor scale(ty.params, c.param), dscale(ty.params, c.param), dbias(ty.params, c.param);
                    x.fillUniform(rng, -2, 2);
                    dy.fillUniform(rng, -1, 1);
                    scale.fillUniform(rng, -1.5, 1.5);
                    const cr::AxisMask axes = axesOf(c, x.view, scale.view);
                    Rows rows{c.x, c.expectAxes};
                    const double n = rows.count();
                    Tensor invRms(ty.stats, rows.statDims());
                    std::map<Dims, double> sq;
                    x.forEachIndex([&](const Dims& i) { sq[rows.rowOf(i)] += x.at(i) * x.at(i); });
                    invRms.forEachIndex([&](const Dims& row) { invRms.set(row, 1.0 / std::sqrt(sq.at(row) / n + 1e-5)); });
                    cr::RmsnormBackwardViews v{dy.view, x.view, scale.view, invRms.view, dx.view, dscale.view};
                    v.dbias = withDbias ? &dbias.view : nullptr;
                    cr::rmsnormBackward(v, axes);

                    auto r = [&](const Dims& i) { return invRms.at(rows.rowOf(i)); };
                    auto xhat = [&](const Dims& i) { return x.at(i) * r(i); };
                    auto g = [&](const Dims& i) { return dy.at(i) * scale.at(paramIndex(i, c.param)); };
                    std::map<Dims, double> sgx, agx, ds, db, ads, adb;
                    x.forEachIndex([&](const Dims& i) {
                        sgx[rows.rowOf(i)] += g(i) * xhat(i);
                        agx[rows.rowOf(i)] += std::fabs(g(i) * xhat(i));
                        const Dims p = paramIndex(i, c.param);
                        ds[p] += dy.at(i) * xhat(i);
                        db[p] += dy.at(i);
                        ads[p] += std::fabs(dy.at(i) * xhat(i));
                        adb[p] += std::fabs(dy.at(i));
                    });
                    const std::string what = "rmsnorm backward " + dimsString(c.x) + "/" + cr::dataTypeName(ty.data) + "+"
                                             + cr::dataTypeName(ty.params) + "/" + layouts[li].name;
                    expectClose(
                        what + " dx", dx, [&](const Dims& i) { return r(i) * (g(i) - xhat(i) * sgx.at(rows.rowOf(i)) / n); },
                        [&](const Dims& i) {
                            return r(i) * (std::fabs(g(i)) + std::fabs(xhat(i)) * agx.at(rows.rowOf(i)) / n)
                                   * (1 + std::fabs(xhat(i)));
                        },
                        tolFor(ty.data, anyDouble(ty)));
                    expectClose(
                        what + " dscale", dscale, [&](const Dims& p) { return ds.at(p); },
                        [&](const Dims& p) { return 4 * ads.at(p); }, tolFor(ty.params, anyDouble(ty)));
                    if(withDbias)
                        expectClose(
                            what + " dbias", dbias, [&](const Dims& p) { return db.at(p); },
                            [&](const Dims& p) { return adb.at(p); }, tolFor(ty.params, anyDouble(ty)));
                }
    }
}

CPUREF_TEST(norm_axis_rules_and_shape_checks)
{
    cr::AxisMask axes{};
    Tensor x(DataType::Float, {2, 3, 4, 4});
    // sample_rmsnorm.json: scale [1,3,1,1] normalizes over C, so its inv_rms [2,3,1,1] is wrong.
    Tensor perChannel(DataType::Float, {1, 3, 1, 1}), badStats(DataType::Float, {2, 3, 1, 1}),
        goodStats(DataType::Float, {2, 1, 4, 4});
    CPUREF_CHECK(cr::normAxesFromScale(x.view, perChannel.view, axes).empty(), "per-channel scale");
    CPUREF_CHECK(!axes[0] && axes[1] && !axes[2] && !axes[3], "per-channel scale normalizes over C only");
    CPUREF_CHECK(!cr::checkNormStats(x.view, axes, badStats.view, "inv_rms").empty(), "inconsistent inv_rms accepted");
    CPUREF_CHECK(cr::checkNormStats(x.view, axes, goodStats.view, "inv_rms").empty(), "consistent inv_rms rejected");
    Tensor batchScale(DataType::Float, {2, 3, 4, 4});
    CPUREF_CHECK(!cr::normAxesFromScale(x.view, batchScale.view, axes).empty(), "scale varying over the batch accepted");
    Tensor notBroadcast(DataType::Float, {1, 2, 1, 1});
    CPUREF_CHECK(!cr::normAxesFromScale(x.view, notBroadcast.view, axes).empty(), "non-broadcastable scale accepted");
    CPUREF_CHECK(!cr::normAxesFromCount(x.view, 5, axes).empty() && !cr::normAxesFromCount(x.view, -1, axes).empty(),
                 "bad normalized_dim_count accepted");
    Tensor y(DataType::Float, {2, 3, 4, 4}), s(DataType::Float, {4}), m(DataType::Float, {2, 3, 4, 1});
    cr::normAxesFromCount(x.view, 1, axes);
    cr::LayernormBackwardViews v{y.view, x.view, s.view, y.view, s.view, s.view};
    v.mean = &m.view; // inv_variance missing
    CPUREF_CHECK(!cr::checkLayernormBackward(v, axes).empty(), "mean without inv_variance accepted");
}
