// Plugin tests for the normalization and attention families, through the C ABI only: one graph
// per op family executed and checked against double loops written here (forward and backward
// chained through virtual tensors, constant and runtime pass-by-value scalars), graphs shaped
// like the corpus samples (applicable or, where the engine refuses them, refused), and one
// refusal per unsupported feature next to an accepted baseline, so each refusal is caused by
// that feature alone.
//
// Tolerance for these fp32 graphs: 2e-5 relative + 2e-5 absolute on O(1) values. The rows here
// have at most ~100 members and head dims of 8, so the fp32 arithmetic errs by ~1e-6 (see the
// kernel tests for the detailed bounds); a wrong axis, mask or formula errs by O(0.1).
#include "PluginHarness.hpp"

#include <cmath>
#include <functional>
#include <limits>
#include <map>

using namespace cpuref_plugin_test;

namespace
{

const Tolerance kTol{2e-5, 0, 2e-5};
constexpr double kInf = std::numeric_limits<double>::infinity();

template <typename T>
flatbuffers::Offset<void> pack(GraphBuilder& g, const T& attrs)
{
    return T::TableType::Pack(g.fbb, &attrs).Union();
}

void execute(Context& c, const std::vector<hipdnnPluginDeviceBuffer_t>& buffers)
{
    std::vector<unsigned char> ws(c.workspace());
    Plugin& p = Plugin::get();
    const auto st =
        p.hipdnnEnginePluginExecuteOpGraph(c.handle.h, c.ctx, ws.data(), buffers.data(), static_cast<uint32_t>(buffers.size()));
    CPUREF_CHECK(st == HIPDNN_PLUGIN_STATUS_SUCCESS, "execute: " << p.lastError());
}

Dims packed(const Dims& d)
{
    Dims s(d.size());
    int64_t r = 1;
    for(size_t i = d.size(); i-- > 0;)
    {
        s[i] = r;
        r *= d[i];
    }
    return s;
}

double f32(double v) { return cr::roundToDataType(v, DataType::Float); }

} // namespace

CPUREF_TEST(plugin_executes_batchnorm_inference_chain)
{
    // x (NHWC) -> BN inference (inv_variance) -> t (virtual) -> BN inference (variance + constant ε) -> y
    const Dims xd{2, 3, 4, 4}, cd{1, 3, 1, 1};
    const Dims nhwc{48, 1, 12, 3};
    GraphBuilder g;
    g.tensor(1, fbs::DataType::FLOAT, xd, nhwc);
    for(int64_t uid : {2, 3, 4, 5, 6, 7, 8, 9})
        g.tensor(uid, fbs::DataType::FLOAT, cd, packed(cd));
    g.tensor(10, fbs::DataType::FLOAT, xd, packed(xd), true);
    g.tensor(11, fbs::DataType::DOUBLE, {1}, {1}, false, 1e-3f);
    g.tensor(12, fbs::DataType::FLOAT, xd, packed(xd));
    fbs::BatchnormInferenceAttributesT inf;
    inf.x_tensor_uid = 1;
    inf.mean_tensor_uid = 2;
    inf.inv_variance_tensor_uid = 3;
    inf.scale_tensor_uid = 4;
    inf.bias_tensor_uid = 5;
    inf.y_tensor_uid = 10;
    g.node("bn_inv", fbs::NodeAttributes::BatchnormInferenceAttributes, pack(g, inf));
    fbs::BatchnormInferenceAttributesVarianceExtT var;
    var.x_tensor_uid = 10;
    var.mean_tensor_uid = 6;
    var.variance_tensor_uid = 7;
    var.scale_tensor_uid = 8;
    var.bias_tensor_uid = 9;
    var.epsilon_tensor_uid = 11;
    var.y_tensor_uid = 12;
    g.node("bn_var", fbs::NodeAttributes::BatchnormInferenceAttributesVarianceExt, pack(g, var));
    const auto graph = g.finish();
    CPUREF_CHECK(applicableCount(graph) == 1, "batchnorm inference chain must be applicable: " << Plugin::get().lastError());
    Context c(graph, engineConfig(kEngineId));
    std::mt19937 rng(401);
    Tensor x(DataType::Float, xd, nhwc), y(DataType::Float, xd);
    x.fillUniform(rng, -2, 2);
    std::vector<std::unique_ptr<Tensor>> pc;
    for(int i = 0; i < 8; ++i)
    {
        pc.push_back(std::make_unique<Tensor>(DataType::Float, cd));
        pc.back()->fillUniform(rng, i == 2 || i == 6 ? 0.3 : -1, i == 2 || i == 6 ? 2 : 1); // inv_variance, variance > 0
    }
    std::vector<hipdnnPluginDeviceBuffer_t> buffers{{1, x.view.data}, {12, y.view.data}};
    for(int i = 0; i < 8; ++i)
        buffers.push_back({2 + i, pc[static_cast<size_t>(i)]->view.data});
    execute(c, buffers);
    auto at = [&](int i, const Dims& idx) { return pc[static_cast<size_t>(i)]->at({0, idx[1], 0, 0}); };
    expectClose(
        "bn inference chain", y,
        [&](const Dims& i) {
            const double t = f32(at(2, i) * (x.at(i) - at(0, i)) * at(1, i) + at(3, i));
            return at(6, i) * (t - at(4, i)) / std::sqrt(at(5, i) + 1e-3) + at(7, i);
        },
        nullptr, kTol);
}

CPUREF_TEST(plugin_executes_batchnorm_training_then_backward)
{
    const Dims xd{2, 3, 4, 4}, cd{1, 3, 1, 1};
    GraphBuilder g;
    g.tensor(1, fbs::DataType::FLOAT, xd, packed(xd));
    for(int64_t uid : {2, 3, 5, 6, 11, 12, 15, 16})
        g.tensor(uid, fbs::DataType::FLOAT, cd, packed(cd));
    g.tensor(4, fbs::DataType::FLOAT, {1}, {1}, false, 1e-5f);
    g.tensor(7, fbs::DataType::FLOAT, {1}, {1}, false, std::nullopt, true); // momentum: runtime scalar
    g.tensor(8, fbs::DataType::FLOAT, xd, packed(xd));
    g.tensor(9, fbs::DataType::FLOAT, cd, packed(cd), true);
    g.tensor(10, fbs::DataType::FLOAT, cd, packed(cd), true);
    g.tensor(13, fbs::DataType::FLOAT, xd, {48, 1, 12, 3});
    g.tensor(14, fbs::DataType::FLOAT, xd, packed(xd));
    fbs::BatchnormAttributesT fwd;
    fwd.x_tensor_uid = 1;
    fwd.scale_tensor_uid = 2;
    fwd.bias_tensor_uid = 3;
    fwd.epsilon_tensor_uid = 4;
    fwd.prev_running_mean_tensor_uid = 5;
    fwd.prev_running_variance_tensor_uid = 6;
    fwd.momentum_tensor_uid = 7;
    fwd.y_tensor_uid = 8;
    fwd.mean_tensor_uid = 9;
    fwd.inv_variance_tensor_uid = 10;
    fwd.next_running_mean_tensor_uid = 11;
    fwd.next_running_variance_tensor_uid = 12;
    g.node("bn_fwd", fbs::NodeAttributes::BatchnormAttributes, pack(g, fwd));
    fbs::BatchnormBackwardAttributesT bwd;
    bwd.dy_tensor_uid = 13;
    bwd.x_tensor_uid = 1;
    bwd.mean_tensor_uid = 9;
    bwd.inv_variance_tensor_uid = 10;
    bwd.scale_tensor_uid = 2;
    bwd.dx_tensor_uid = 14;
    bwd.dscale_tensor_uid = 15;
    bwd.dbias_tensor_uid = 16;
    g.node("bn_bwd", fbs::NodeAttributes::BatchnormBackwardAttributes, pack(g, bwd));
    const auto graph = g.finish();
    CPUREF_CHECK(applicableCount(graph) == 1, "batchnorm training chain must be applicable: " << Plugin::get().lastError());
    Context c(graph, engineConfig(kEngineId));
    std::mt19937 rng(402);
    Tensor x(DataType::Float, xd), y(DataType::Float, xd), dy(DataType::Float, xd, Dims{48, 1, 12, 3}), dx(DataType::Float, xd);
    Tensor scale(DataType::Float, cd), bias(DataType::Float, cd), pm(DataType::Float, cd), pv(DataType::Float, cd),
        nm(DataType::Float, cd), nv(DataType::Float, cd), ds(DataType::Float, cd), db(DataType::Float, cd);
    x.fillUniform(rng, -1, 3);
    dy.fillUniform(rng, -1, 1);
    scale.fillUniform(rng, -1.5, 1.5);
    bias.fillUniform(rng, -1, 1);
    pm.fillUniform(rng, -1, 1);
    pv.fillUniform(rng, 0.5, 2);
    float momentum = 0.2f;
    execute(c, {{1, x.view.data},
                {2, scale.view.data},
                {3, bias.view.data},
                {5, pm.view.data},
                {6, pv.view.data},
                {7, &momentum},
                {8, y.view.data},
                {11, nm.view.data},
                {12, nv.view.data},
                {13, dy.view.data},
                {14, dx.view.data},
                {15, ds.view.data},
                {16, db.view.data}});
    const double M = 32;
    std::vector<double> mean(3, 0), var(3, 0);
    x.forEachIndex([&](const Dims& i) { mean[static_cast<size_t>(i[1])] += x.at(i) / M; });
    x.forEachIndex([&](const Dims& i) {
        const double d = x.at(i) - mean[static_cast<size_t>(i[1])];
        var[static_cast<size_t>(i[1])] += d * d / M;
    });
    auto C = [](const Dims& i) { return Dims{0, i[1], 0, 0}; };
    auto inv = [&](int64_t ch) { return 1 / std::sqrt(var[static_cast<size_t>(ch)] + 1e-5); };
    expectClose(
        "bn training y", y,
        [&](const Dims& i) { return scale.at(C(i)) * (x.at(i) - mean[static_cast<size_t>(i[1])]) * inv(i[1]) + bias.at(C(i)); },
        nullptr, kTol);
    expectClose(
        "bn next running mean", nm, [&](const Dims& i) { return 0.8 * pm.at(i) + 0.2 * mean[static_cast<size_t>(i[1])]; },
        nullptr, kTol);
    expectClose(
        "bn next running variance", nv,
        [&](const Dims& i) { return 0.8 * pv.at(i) + 0.2 * var[static_cast<size_t>(i[1])] * M / (M - 1); }, nullptr, kTol);
    // The backward reads the saved statistics from fp32 virtual tensors.
    auto mu = [&](int64_t ch) { return f32(mean[static_cast<size_t>(ch)]); };
    auto r = [&](int64_t ch) { return f32(inv(ch)); };
    std::vector<double> sdy(3, 0), sdyx(3, 0);
    x.forEachIndex([&](const Dims& i) {
        sdy[static_cast<size_t>(i[1])] += dy.at(i);
        sdyx[static_cast<size_t>(i[1])] += dy.at(i) * (x.at(i) - mu(i[1])) * r(i[1]);
    });
    expectClose(
        "bn backward dx", dx,
        [&](const Dims& i) {
            const double xh = (x.at(i) - mu(i[1])) * r(i[1]);
            return scale.at(C(i)) * r(i[1])
                   * (dy.at(i) - sdy[static_cast<size_t>(i[1])] / M - xh * sdyx[static_cast<size_t>(i[1])] / M);
        },
        nullptr, kTol);
    expectClose("bn backward dscale", ds, [&](const Dims& i) { return sdyx[static_cast<size_t>(i[1])]; }, nullptr,
                {2e-5, 0, 1e-4});
    expectClose("bn backward dbias", db, [&](const Dims& i) { return sdy[static_cast<size_t>(i[1])]; }, nullptr, {2e-5, 0, 1e-4});
}

CPUREF_TEST(plugin_executes_layernorm_training_then_backward)
{
    // The corpus sample_layernorm shape: x [B,S,D] = [2,3,8], scale/bias [D], normalized_dim_count 1.
    const Dims xd{2, 3, 8}, pd{8}, sd{2, 3, 1};
    GraphBuilder g;
    g.tensor(1, fbs::DataType::FLOAT, xd, packed(xd));
    g.tensor(2, fbs::DataType::FLOAT, pd, {1});
    g.tensor(3, fbs::DataType::FLOAT, pd, {1});
    g.tensor(4, fbs::DataType::DOUBLE, {1}, {1}, false, 1e-5f);
    g.tensor(5, fbs::DataType::FLOAT, xd, packed(xd));
    g.tensor(6, fbs::DataType::FLOAT, sd, packed(sd), true);
    g.tensor(7, fbs::DataType::FLOAT, sd, packed(sd), true);
    g.tensor(8, fbs::DataType::FLOAT, xd, {1, 2, 6}); // dy: transposed layout
    g.tensor(9, fbs::DataType::FLOAT, xd, packed(xd));
    g.tensor(10, fbs::DataType::FLOAT, pd, {1});
    g.tensor(11, fbs::DataType::FLOAT, pd, {1});
    fbs::LayernormAttributesT fwd;
    fwd.x_tensor_uid = 1;
    fwd.scale_tensor_uid = 2;
    fwd.bias_tensor_uid = 3;
    fwd.epsilon_tensor_uid = 4;
    fwd.y_tensor_uid = 5;
    fwd.normalized_dim_count = 1;
    fwd.mean_tensor_uid = 6;
    fwd.inv_variance_tensor_uid = 7;
    fwd.forward_phase = fbs::NormFwdPhase::TRAINING;
    g.node("ln", fbs::NodeAttributes::LayernormAttributes, pack(g, fwd));
    fbs::LayernormBackwardAttributesT bwd;
    bwd.dy_tensor_uid = 8;
    bwd.x_tensor_uid = 1;
    bwd.scale_tensor_uid = 2;
    bwd.mean_tensor_uid = 6;
    bwd.inv_variance_tensor_uid = 7;
    bwd.dx_tensor_uid = 9;
    bwd.dscale_tensor_uid = 10;
    bwd.dbias_tensor_uid = 11;
    bwd.normalized_dim_count = 1;
    g.node("ln_bwd", fbs::NodeAttributes::LayernormBackwardAttributes, pack(g, bwd));
    const auto graph = g.finish();
    CPUREF_CHECK(applicableCount(graph) == 1, "layernorm chain must be applicable: " << Plugin::get().lastError());
    Context c(graph, engineConfig(kEngineId));
    std::mt19937 rng(403);
    Tensor x(DataType::Float, xd), scale(DataType::Float, pd), bias(DataType::Float, pd), y(DataType::Float, xd),
        dy(DataType::Float, xd, Dims{1, 2, 6}), dx(DataType::Float, xd), ds(DataType::Float, pd), db(DataType::Float, pd);
    x.fillUniform(rng, -2, 2);
    scale.fillUniform(rng, -1.5, 1.5);
    bias.fillUniform(rng, -1, 1);
    dy.fillUniform(rng, -1, 1);
    execute(c, {{1, x.view.data},
                {2, scale.view.data},
                {3, bias.view.data},
                {5, y.view.data},
                {8, dy.view.data},
                {9, dx.view.data},
                {10, ds.view.data},
                {11, db.view.data}});
    std::map<Dims, double> mean, inv;
    for(int64_t b = 0; b < 2; ++b)
        for(int64_t s = 0; s < 3; ++s)
        {
            double m = 0, v = 0;
            for(int64_t d = 0; d < 8; ++d)
                m += x.at({b, s, d}) / 8;
            for(int64_t d = 0; d < 8; ++d)
                v += (x.at({b, s, d}) - m) * (x.at({b, s, d}) - m) / 8;
            mean[{b, s}] = m;
            inv[{b, s}] = 1 / std::sqrt(v + 1e-5);
        }
    expectClose(
        "layernorm y", y,
        [&](const Dims& i) {
            return scale.at({i[2]}) * (x.at(i) - mean[{i[0], i[1]}]) * inv[{i[0], i[1]}] + bias.at({i[2]});
        },
        nullptr, kTol);
    auto xh = [&](const Dims& i) { return (x.at(i) - f32(mean[{i[0], i[1]}])) * f32(inv[{i[0], i[1]}]); };
    expectClose(
        "layernorm dx", dx,
        [&](const Dims& i) {
            double sg = 0, sgx = 0;
            for(int64_t d = 0; d < 8; ++d)
            {
                const Dims j{i[0], i[1], d};
                sg += dy.at(j) * scale.at({d});
                sgx += dy.at(j) * scale.at({d}) * xh(j);
            }
            return f32(inv[{i[0], i[1]}]) * (dy.at(i) * scale.at({i[2]}) - sg / 8 - xh(i) * sgx / 8);
        },
        nullptr, kTol);
    expectClose(
        "layernorm dscale", ds,
        [&](const Dims& d) {
            double s = 0;
            x.forEachIndex([&](const Dims& i) { s += i[2] == d[0] ? dy.at(i) * xh(i) : 0.0; });
            return s;
        },
        nullptr, kTol);
    expectClose(
        "layernorm dbias", db,
        [&](const Dims& d) {
            double s = 0;
            x.forEachIndex([&](const Dims& i) { s += i[2] == d[0] ? dy.at(i) : 0.0; });
            return s;
        },
        nullptr, kTol);
}

CPUREF_TEST(plugin_executes_rmsnorm_training_then_backward)
{
    // scale [1,1,D] (normalized axis from the scale shape), bias, runtime pass-by-value ε.
    const Dims xd{2, 4, 6}, pd{1, 1, 6}, sd{2, 4, 1};
    GraphBuilder g;
    g.tensor(1, fbs::DataType::FLOAT, xd, {24, 1, 4}); // [B, S, D] stored D-major
    g.tensor(2, fbs::DataType::FLOAT, pd, packed(pd));
    g.tensor(3, fbs::DataType::FLOAT, pd, packed(pd));
    g.tensor(4, fbs::DataType::FLOAT, {1}, {1}, false, std::nullopt, true);
    g.tensor(5, fbs::DataType::FLOAT, xd, packed(xd));
    g.tensor(6, fbs::DataType::FLOAT, sd, packed(sd), true);
    g.tensor(7, fbs::DataType::FLOAT, xd, packed(xd));
    g.tensor(8, fbs::DataType::FLOAT, xd, packed(xd));
    g.tensor(9, fbs::DataType::FLOAT, pd, packed(pd));
    g.tensor(10, fbs::DataType::FLOAT, pd, packed(pd));
    fbs::RMSNormAttributesT fwd;
    fwd.x_tensor_uid = 1;
    fwd.scale_tensor_uid = 2;
    fwd.epsilon_tensor_uid = 4;
    fwd.y_tensor_uid = 5;
    fwd.bias_tensor_uid = 3;
    fwd.inv_rms_tensor_uid = 6;
    fwd.forward_phase = fbs::NormFwdPhase::TRAINING;
    g.node("rms", fbs::NodeAttributes::RMSNormAttributes, pack(g, fwd));
    fbs::RMSNormBackwardAttributesT bwd;
    bwd.dy_tensor_uid = 7;
    bwd.x_tensor_uid = 1;
    bwd.scale_tensor_uid = 2;
    bwd.inv_rms_tensor_uid = 6;
    bwd.dx_tensor_uid = 8;
    bwd.dscale_tensor_uid = 9;
    bwd.dbias_tensor_uid = 10;
    g.node("rms_bwd", fbs::NodeAttributes::RMSNormBackwardAttributes, pack(g, bwd));
    const auto graph = g.finish();
    CPUREF_CHECK(applicableCount(graph) == 1, "rmsnorm chain must be applicable: " << Plugin::get().lastError());
    Context c(graph, engineConfig(kEngineId));
    std::mt19937 rng(404);
    Tensor x(DataType::Float, xd, Dims{24, 1, 4}), scale(DataType::Float, pd), bias(DataType::Float, pd), y(DataType::Float, xd),
        dy(DataType::Float, xd), dx(DataType::Float, xd), ds(DataType::Float, pd), db(DataType::Float, pd);
    x.fillUniform(rng, -2, 2);
    scale.fillUniform(rng, -1.5, 1.5);
    bias.fillUniform(rng, -1, 1);
    dy.fillUniform(rng, -1, 1);
    float eps = 1e-4f;
    execute(c, {{1, x.view.data},
                {2, scale.view.data},
                {3, bias.view.data},
                {4, &eps},
                {5, y.view.data},
                {7, dy.view.data},
                {8, dx.view.data},
                {9, ds.view.data},
                {10, db.view.data}});
    auto r = [&](const Dims& i) {
        double s = 0;
        for(int64_t d = 0; d < 6; ++d)
            s += x.at({i[0], i[1], d}) * x.at({i[0], i[1], d}) / 6;
        return 1 / std::sqrt(s + static_cast<double>(eps));
    };
    expectClose(
        "rmsnorm y", y,
        [&](const Dims& i) {
            return scale.at({0, 0, i[2]}) * x.at(i) * r(i) + bias.at({0, 0, i[2]});
        },
        nullptr, kTol);
    auto rf = [&](const Dims& i) { return f32(r(i)); };
    expectClose(
        "rmsnorm dx", dx,
        [&](const Dims& i) {
            double sgx = 0;
            for(int64_t d = 0; d < 6; ++d)
            {
                const Dims j{i[0], i[1], d};
                sgx += dy.at(j) * scale.at({0, 0, d}) * x.at(j) * rf(j);
            }
            return rf(i) * (dy.at(i) * scale.at({0, 0, i[2]}) - x.at(i) * rf(i) * sgx / 6);
        },
        nullptr, kTol);
    expectClose(
        "rmsnorm dscale", ds,
        [&](const Dims& d) {
            double s = 0;
            x.forEachIndex([&](const Dims& i) { s += i[2] == d[2] ? dy.at(i) * x.at(i) * rf(i) : 0.0; });
            return s;
        },
        nullptr, kTol);
    expectClose(
        "rmsnorm dbias", db,
        [&](const Dims& d) {
            double s = 0;
            x.forEachIndex([&](const Dims& i) { s += i[2] == d[2] ? dy.at(i) : 0.0; });
            return s;
        },
        nullptr, kTol);
}

CPUREF_TEST(plugin_executes_sdpa_forward_then_backward)
{
    // GQA 4:2, BSHD inputs, causal bottom-right (legacy flag), per-batch seq_len_kv {7, 4} (batch 1
    // has Sq 5 > Skv 4, so its first row sees no key), runtime pass-by-value scale, fp32 stats in
    // a virtual tensor feeding the backward.
    const int64_t B = 2, H = 4, HK = 2, SQ = 5, SKV = 7, D = 8;
    const Dims qd{B, H, SQ, D}, kd{B, HK, SKV, D}, qs{SQ * H * D, D, H * D, 1}, ks{SKV * HK * D, D, HK * D, 1};
    GraphBuilder g;
    g.tensor(1, fbs::DataType::FLOAT, qd, qs);
    g.tensor(2, fbs::DataType::FLOAT, kd, ks);
    g.tensor(3, fbs::DataType::FLOAT, kd, ks);
    g.tensor(4, fbs::DataType::FLOAT, qd, packed(qd));
    g.tensor(5, fbs::DataType::FLOAT, {B, H, SQ, 1}, packed({B, H, SQ, 1}), true);
    g.tensor(6, fbs::DataType::FLOAT, {1}, {1}, false, std::nullopt, true);
    g.tensor(7, fbs::DataType::INT32, {B}, {1});
    g.tensor(8, fbs::DataType::FLOAT, qd, packed(qd));
    g.tensor(9, fbs::DataType::FLOAT, qd, qs);
    g.tensor(10, fbs::DataType::FLOAT, kd, ks);
    g.tensor(11, fbs::DataType::FLOAT, kd, ks);
    fbs::SdpaAttributesT fwd;
    fwd.q_tensor_uid = 1;
    fwd.k_tensor_uid = 2;
    fwd.v_tensor_uid = 3;
    fwd.o_tensor_uid = 4;
    fwd.stats_tensor_uid = 5;
    fwd.scale_tensor_uid = 6;
    fwd.seq_len_kv_tensor_uid = 7;
    fwd.causal_mask_bottom_right = true;
    fwd.generate_stats = true;
    g.node("sdpa", fbs::NodeAttributes::SdpaAttributes, pack(g, fwd));
    fbs::SdpaBackwardAttributesT bwd;
    bwd.q_tensor_uid = 1;
    bwd.k_tensor_uid = 2;
    bwd.v_tensor_uid = 3;
    bwd.o_tensor_uid = 4;
    bwd.do_tensor_uid = 8;
    bwd.stats_tensor_uid = 5;
    bwd.dq_tensor_uid = 9;
    bwd.dk_tensor_uid = 10;
    bwd.dv_tensor_uid = 11;
    bwd.scale_tensor_uid = 6;
    bwd.seq_len_kv_tensor_uid = 7;
    bwd.causal_mask_bottom_right = true;
    g.node("sdpa_bwd", fbs::NodeAttributes::SdpaBackwardAttributes, pack(g, bwd));
    const auto graph = g.finish();
    CPUREF_CHECK(applicableCount(graph) == 1, "sdpa chain must be applicable: " << Plugin::get().lastError());
    Context c(graph, engineConfig(kEngineId));
    std::mt19937 rng(405);
    Tensor q(DataType::Float, qd, qs), k(DataType::Float, kd, ks), v(DataType::Float, kd, ks), o(DataType::Float, qd),
        dO(DataType::Float, qd), dq(DataType::Float, qd, qs), dk(DataType::Float, kd, ks), dv(DataType::Float, kd, ks);
    q.fillUniform(rng, -1, 1);
    k.fillUniform(rng, -1, 1);
    v.fillUniform(rng, -1, 1);
    dO.fillUniform(rng, -1, 1);
    float scale = 0.35f;
    int32_t lens[2] = {7, 4};
    execute(c, {{1, q.view.data},
                {2, k.view.data},
                {3, v.view.data},
                {4, o.view.data},
                {6, &scale},
                {7, lens},
                {8, dO.view.data},
                {9, dq.view.data},
                {10, dk.view.data},
                {11, dv.view.data}});
    const double sc = scale;
    auto visible = [&](int64_t b, int64_t i, int64_t j) { return j < lens[b] && j <= i + (lens[b] - SQ); };
    auto score = [&](int64_t b, int64_t h, int64_t i, int64_t j) {
        double s = 0;
        for(int64_t d = 0; d < D; ++d)
            s += q.at({b, h, i, d}) * k.at({b, h / 2, j, d});
        return s * sc;
    };
    std::map<Dims, double> lse;
    for(int64_t b = 0; b < B; ++b)
        for(int64_t h = 0; h < H; ++h)
            for(int64_t i = 0; i < SQ; ++i)
            {
                double m = -kInf, l = 0;
                for(int64_t j = 0; j < SKV; ++j)
                    if(visible(b, i, j))
                        m = std::max(m, score(b, h, i, j));
                for(int64_t j = 0; j < SKV; ++j)
                    if(visible(b, i, j))
                        l += std::exp(score(b, h, i, j) - m);
                lse[{b, h, i}] = m == -kInf ? -kInf : m + std::log(l);
            }
    expectClose(
        "sdpa o", o,
        [&](const Dims& x) {
            const double L = lse[{x[0], x[1], x[2]}];
            double s = 0;
            for(int64_t j = 0; j < SKV; ++j)
                if(visible(x[0], x[2], j))
                    s += std::exp(score(x[0], x[1], x[2], j) - L) * v.at({x[0], x[1] / 2, j, x[3]});
            return s;
        },
        nullptr, kTol);
    // Backward reference: P from the fp32 stats, Δ from the stored o.
    std::map<Dims, double> eq, ek, ev;
    for(int64_t b = 0; b < B; ++b)
        for(int64_t h = 0; h < H; ++h)
            for(int64_t i = 0; i < SQ; ++i)
            {
                const double L = f32(lse[{b, h, i}]);
                if(L == -kInf)
                    continue;
                double delta = 0;
                for(int64_t x = 0; x < D; ++x)
                    delta += dO.at({b, h, i, x}) * o.at({b, h, i, x});
                for(int64_t j = 0; j < SKV; ++j)
                {
                    if(!visible(b, i, j))
                        continue;
                    const double P = std::exp(score(b, h, i, j) - L);
                    double dp = 0;
                    for(int64_t x = 0; x < D; ++x)
                        dp += dO.at({b, h, i, x}) * v.at({b, h / 2, j, x});
                    const double dS = P * (dp - delta) * sc;
                    for(int64_t x = 0; x < D; ++x)
                    {
                        eq[{b, h, i, x}] += dS * k.at({b, h / 2, j, x});
                        ek[{b, h / 2, j, x}] += dS * q.at({b, h, i, x});
                        ev[{b, h / 2, j, x}] += P * dO.at({b, h, i, x});
                    }
                }
            }
    auto get = [](std::map<Dims, double>& m, const Dims& i) { return m.count(i) ? m[i] : 0.0; };
    expectClose(
        "sdpa dq", dq, [&](const Dims& i) { return get(eq, i); }, nullptr, kTol);
    expectClose(
        "sdpa dk", dk, [&](const Dims& i) { return get(ek, i); }, nullptr, kTol);
    expectClose(
        "sdpa dv", dv, [&](const Dims& i) { return get(ev, i); }, nullptr, kTol);
}

namespace
{

// sdpaGraph builds a forward SDPA graph (q [2,4,5,8], k/v [2,2,7,8]) after `edit` changed the
// attributes. Extra tensors the edits may name: 20 float scalar, 21 int32 [2,4] (page table),
// 22 float [2,4,5,7] (mask-shaped), 23 int8 [2,4,5,7], 24 float [4] (sinks), 25 float pass-by-value
// scalar, 26 int32 [2] (lengths), 27 k with 3 heads, 28 / 29 float [2,4,5,1] (per-row outputs).
std::vector<uint8_t> sdpaGraph(const std::function<void(fbs::SdpaAttributesT&)>& edit)
{
    GraphBuilder g;
    g.tensor(1, fbs::DataType::HALF, {2, 4, 5, 8}, {160, 8, 32, 1});
    g.tensor(2, fbs::DataType::HALF, {2, 2, 7, 8}, {112, 56, 8, 1});
    g.tensor(3, fbs::DataType::HALF, {2, 2, 7, 8}, {112, 56, 8, 1});
    g.tensor(4, fbs::DataType::HALF, {2, 4, 5, 8}, {160, 8, 32, 1});
    g.tensor(5, fbs::DataType::FLOAT, {2, 4, 5, 1}, {20, 5, 1, 1});
    g.tensor(20, fbs::DataType::FLOAT, {1}, {1});
    g.tensor(21, fbs::DataType::INT32, {2, 4}, {4, 1});
    g.tensor(22, fbs::DataType::FLOAT, {2, 4, 5, 7}, packed({2, 4, 5, 7}));
    g.tensor(23, fbs::DataType::INT8, {2, 4, 5, 7}, packed({2, 4, 5, 7}));
    g.tensor(24, fbs::DataType::FLOAT, {4}, {1});
    g.tensor(25, fbs::DataType::FLOAT, {1}, {1}, false, std::nullopt, true);
    g.tensor(26, fbs::DataType::INT32, {2}, {1});
    g.tensor(27, fbs::DataType::HALF, {2, 3, 7, 8}, packed({2, 3, 7, 8}));
    g.tensor(28, fbs::DataType::FLOAT, {2, 4, 5, 1}, {20, 5, 1, 1});
    g.tensor(29, fbs::DataType::FLOAT, {2, 4, 5, 1}, {20, 5, 1, 1});
    fbs::SdpaAttributesT a;
    a.q_tensor_uid = 1;
    a.k_tensor_uid = 2;
    a.v_tensor_uid = 3;
    a.o_tensor_uid = 4;
    a.stats_tensor_uid = 5;
    a.attn_scale_value = 0.125f;
    edit(a);
    g.node("sdpa", fbs::NodeAttributes::SdpaAttributes, pack(g, a));
    return g.finish();
}

std::vector<uint8_t> sdpaBackwardGraph(const std::function<void(fbs::SdpaBackwardAttributesT&)>& edit)
{
    GraphBuilder g;
    for(int64_t uid : {1, 4, 6, 7})
        g.tensor(uid, fbs::DataType::BFLOAT16, {1, 2, 16, 32}, packed({1, 2, 16, 32}));
    for(int64_t uid : {2, 3, 8, 9})
        g.tensor(uid, fbs::DataType::BFLOAT16, {1, 1, 16, 32}, packed({1, 1, 16, 32}));
    g.tensor(5, fbs::DataType::FLOAT, {1, 2, 16}, {32, 16, 1}); // rank-3 stats, as in sample_sdpa_backward
    g.tensor(20, fbs::DataType::BFLOAT16, {1, 2, 16, 16}, packed({1, 2, 16, 16}));
    g.tensor(21, fbs::DataType::FLOAT, {1}, {1});
    g.tensor(22, fbs::DataType::FLOAT, {1, 2, 16, 1}, {32, 16, 1, 1});
    fbs::SdpaBackwardAttributesT a;
    a.q_tensor_uid = 1;
    a.k_tensor_uid = 2;
    a.v_tensor_uid = 3;
    a.o_tensor_uid = 4;
    a.do_tensor_uid = 6;
    a.stats_tensor_uid = 5;
    a.dq_tensor_uid = 7;
    a.dk_tensor_uid = 8;
    a.dv_tensor_uid = 9;
    edit(a);
    g.node("sdpa_bwd", fbs::NodeAttributes::SdpaBackwardAttributes, pack(g, a));
    return g.finish();
}

void expectApplicable(const std::vector<uint8_t>& graph, uint32_t want, const std::string& what)
{
    const uint32_t n = applicableCount(graph);
    CPUREF_CHECK(n == want, what << ": applicable " << n << ", expected " << want);
}

} // namespace

CPUREF_TEST(plugin_sdpa_applicability_feature_by_feature)
{
    using A = fbs::SdpaAttributesT;
    expectApplicable(sdpaGraph([](A&) {}), 1, "baseline GQA sdpa");
    const std::vector<std::pair<const char*, std::function<void(A&)>>> accepted{
        {"dropout probability 0 with seed/offset",
         [](A& a) {
             a.dropout_probability = 0.0f;
             a.seed_tensor_uid = 20;
             a.offset_tensor_uid = 20;
         }},
        {"scale from a pass-by-value tensor",
         [](A& a) {
             a.attn_scale_value.reset();
             a.scale_tensor_uid = 25;
         }},
        {"attn_scale_value 0.0", [](A& a) { a.attn_scale_value = 0.0f; }},
        {"no scale (1/sqrt(D))", [](A& a) { a.attn_scale_value.reset(); }},
        {"float bias", [](A& a) { a.attn_mask_tensor_uid = 22; }},
        {"causal + left bound (sliding window)",
         [](A& a) {
             a.causal_mask = true;
             a.left_bound = 3;
         }},
        {"bounds -1/-1 (unbounded)",
         [](A& a) {
             a.left_bound = -1;
             a.right_bound = -1;
         }},
        {"bounds -1/0 bottom-right (causal)",
         [](A& a) {
             a.left_bound = -1;
             a.right_bound = 0;
             a.diagonal_alignment = fbs::DiagonalAlignment::BOTTOM_RIGHT;
         }},
        {"causal_mask_bottom_right", [](A& a) { a.causal_mask_bottom_right = true; }},
        {"seq lens with padding_mask false (aotriton varlen files)",
         [](A& a) {
             a.seq_len_q_tensor_uid = 26;
             a.seq_len_kv_tensor_uid = 26;
             a.max_seq_len_kv = 7;
         }},
        {"padding_mask with seq lens",
         [](A& a) {
             a.padding_mask = true;
             a.seq_len_kv_tensor_uid = 26;
         }},
        {"sink tokens (one float logit per query head)", [](A& a) { a.sink_token_tensor_uid = 24; }},
        {"alibi with causal", [](A& a) {
             a.alibi_mask = true;
             a.causal_mask = true;
         }},
        {"max and sum_exp outputs without stats",
         [](A& a) {
             a.stats_tensor_uid.reset();
             a.max_tensor_uid = 28;
             a.sum_exp_tensor_uid = 29;
         }},
        {"stats, max and sum_exp outputs",
         [](A& a) {
             a.max_tensor_uid = 28;
             a.sum_exp_tensor_uid = 29;
         }},
        {"paged K (4 blocks of 7 keys per batch) with seq_len_kv",
         [](A& a) {
             a.page_table_k_tensor_uid = 21;
             a.seq_len_kv_tensor_uid = 26;
         }},
        {"hints ignored",
         [](A& a) {
             a.implementation = fbs::AttentionImplementation::UNIFIED;
             a.mma_core_mode = fbs::DataType::HALF;
             a.generate_stats = false;
         }},
    };
    for(const auto& [what, edit] : accepted)
        expectApplicable(sdpaGraph(edit), 1, std::string("accepted: ") + what);
    const std::vector<std::pair<const char*, std::function<void(A&)>>> refused{
        {"dropout probability 0.1",
         [](A& a) {
             a.dropout_probability = 0.1f;
             a.seed_tensor_uid = 20;
             a.offset_tensor_uid = 20;
         }},
        {"dropout mask tensor",
         [](A& a) {
             a.dropout_mask_tensor_uid = 22;
             a.dropout_scale_tensor_uid = 20;
         }},
        {"paged K without seq_len_kv", [](A& a) { a.page_table_k_tensor_uid = 21; }},
        {"paged V without seq_len_kv", [](A& a) { a.page_table_v_tensor_uid = 21; }},
        {"float page table", [](A& a) {
             a.page_table_k_tensor_uid = 24;
             a.seq_len_kv_tensor_uid = 26;
         }},
        {"block mask", [](A& a) { a.block_mask_tensor_uid = 22; }},
        {"sink tokens of 1 value for 4 heads", [](A& a) { a.sink_token_tensor_uid = 20; }},
        {"fp8 descale_q", [](A& a) { a.descale_q_tensor_uid = 20; }},
        {"fp8 descale_k", [](A& a) { a.descale_k_tensor_uid = 20; }},
        {"fp8 descale_v", [](A& a) { a.descale_v_tensor_uid = 20; }},
        {"fp8 descale_s", [](A& a) { a.descale_s_tensor_uid = 20; }},
        {"fp8 scale_s", [](A& a) { a.scale_s_tensor_uid = 20; }},
        {"fp8 scale_o", [](A& a) { a.scale_o_tensor_uid = 20; }},
        {"amax_s output", [](A& a) { a.amax_s_tensor_uid = 20; }},
        {"amax_o output", [](A& a) { a.amax_o_tensor_uid = 20; }},
        {"max output of one value, not one per row", [](A& a) { a.max_tensor_uid = 20; }},
        {"sum_exp output of one value, not one per row", [](A& a) { a.sum_exp_tensor_uid = 20; }},
        {"rng_dump output", [](A& a) { a.rng_dump_tensor_uid = 22; }},
        {"both causal flags",
         [](A& a) {
             a.causal_mask = true;
             a.causal_mask_bottom_right = true;
         }},
        {"causal_mask with BOTTOM_RIGHT alignment",
         [](A& a) {
             a.causal_mask = true;
             a.diagonal_alignment = fbs::DiagonalAlignment::BOTTOM_RIGHT;
         }},
        {"causal_mask_bottom_right with TOP_LEFT bounds",
         [](A& a) {
             a.causal_mask_bottom_right = true;
             a.left_bound = 2;
         }},
        {"attn_scale_value and scale tensor", [](A& a) { a.scale_tensor_uid = 25; }},
        {"padding_mask without lengths", [](A& a) { a.padding_mask = true; }},
        {"int8 attn_mask", [](A& a) { a.attn_mask_tensor_uid = 23; }},
        {"4 query heads over 3 key heads", [](A& a) { a.k_tensor_uid = 27; }},
    };
    for(const auto& [what, edit] : refused)
        expectApplicable(sdpaGraph(edit), 0, std::string("refused: ") + what);

    using BA = fbs::SdpaBackwardAttributesT;
    expectApplicable(sdpaBackwardGraph([](BA&) {}), 1, "baseline sdpa backward (MQA, rank-3 stats)");
    expectApplicable(sdpaBackwardGraph([](BA& a) {
                         a.causal_mask = true;
                         a.attn_mask_tensor_uid = 20;
                     }),
                     1, "backward causal + bias");
    expectApplicable(sdpaBackwardGraph([](BA& a) { a.dbias_tensor_uid = 20; }), 1, "backward dbias [1, H, Sq, Skv]");
    expectApplicable(sdpaBackwardGraph([](BA& a) { a.dbias_tensor_uid = 22; }), 0, "backward dbias [1, H, Sq, 1]");
    expectApplicable(sdpaBackwardGraph([](BA& a) { a.dropout_probability = 0.2f; }), 0, "backward dropout");
    expectApplicable(sdpaBackwardGraph([](BA& a) { a.dropout_scale_inv_tensor_uid = 21; }), 0, "backward dropout scale_inv");
    expectApplicable(sdpaBackwardGraph([](BA& a) { a.alibi_mask = true; }), 1, "backward alibi");
}

CPUREF_TEST(plugin_norm_applicability_corpus_shapes_and_refusals)
{
    // Batchnorm training as in fork_zpengmei/sample_batchnorm_training.json (double ε and momentum
    // constants), optionally with peer statistics or without the momentum.
    auto bnTraining = [](const std::function<void(fbs::BatchnormAttributesT&)>& edit) {
        GraphBuilder g;
        g.tensor(1, fbs::DataType::FLOAT, {2, 3, 4, 4}, {48, 16, 4, 1});
        for(int64_t uid : {2, 3, 5, 6, 9, 10, 11, 12, 13})
            g.tensor(uid, fbs::DataType::FLOAT, {1, 3, 1, 1}, {3, 1, 1, 1});
        g.tensor(4, fbs::DataType::DOUBLE, {1}, {1}, false, 1e-5f);
        g.tensor(7, fbs::DataType::DOUBLE, {1}, {1}, false, 0.1f);
        g.tensor(8, fbs::DataType::FLOAT, {2, 3, 4, 4}, {48, 16, 4, 1});
        fbs::BatchnormAttributesT a;
        a.x_tensor_uid = 1;
        a.scale_tensor_uid = 2;
        a.bias_tensor_uid = 3;
        a.epsilon_tensor_uid = 4;
        a.prev_running_mean_tensor_uid = 5;
        a.prev_running_variance_tensor_uid = 6;
        a.momentum_tensor_uid = 7;
        a.y_tensor_uid = 8;
        a.mean_tensor_uid = 9;
        a.inv_variance_tensor_uid = 10;
        a.next_running_mean_tensor_uid = 11;
        a.next_running_variance_tensor_uid = 12;
        edit(a);
        g.node("bn", fbs::NodeAttributes::BatchnormAttributes, pack(g, a));
        return g.finish();
    };
    expectApplicable(bnTraining([](fbs::BatchnormAttributesT&) {}), 1, "sample_batchnorm_training");
    expectApplicable(bnTraining([](fbs::BatchnormAttributesT& a) { a.peer_stats_tensor_uid = {13}; }), 0, "peer stats");
    expectApplicable(bnTraining([](fbs::BatchnormAttributesT& a) { a.momentum_tensor_uid.reset(); }), 0,
                     "running statistics without momentum");
    expectApplicable(bnTraining([](fbs::BatchnormAttributesT& a) {
                         a.next_running_mean_tensor_uid.reset();
                         a.next_running_variance_tensor_uid.reset();
                         a.momentum_tensor_uid.reset();
                     }),
                     1, "training without running statistics");

    // Batchnorm backward as in bnorm_backward_n16c128H24W16.json (bf16, NHWC), without the saved
    // statistics (refused: no epsilon to recompute them).
    auto bnBackward = [](bool stats) {
        GraphBuilder g;
        const Dims xd{4, 8, 3, 2}, nhwc{48, 1, 16, 8}, cd{1, 8, 1, 1};
        for(int64_t uid : {1, 2, 6})
            g.tensor(uid, fbs::DataType::BFLOAT16, xd, nhwc);
        for(int64_t uid : {3, 4, 5, 7, 8})
            g.tensor(uid, fbs::DataType::BFLOAT16, cd, packed(cd));
        fbs::BatchnormBackwardAttributesT a;
        a.dy_tensor_uid = 2;
        a.x_tensor_uid = 1;
        if(stats)
        {
            a.mean_tensor_uid = 3;
            a.inv_variance_tensor_uid = 4;
        }
        a.scale_tensor_uid = 5;
        a.dx_tensor_uid = 6;
        a.dscale_tensor_uid = 7;
        a.dbias_tensor_uid = 8;
        g.node("bn_bwd", fbs::NodeAttributes::BatchnormBackwardAttributes, pack(g, a));
        return g.finish();
    };
    expectApplicable(bnBackward(true), 1, "bnorm_backward (bf16 NHWC)");
    expectApplicable(bnBackward(false), 0, "batchnorm backward without saved statistics");

    // Batchnorm inference with a spatially varying scale (not per-channel).
    {
        GraphBuilder g;
        g.tensor(1, fbs::DataType::FLOAT, {1, 3, 4, 4}, packed({1, 3, 4, 4}));
        g.tensor(6, fbs::DataType::FLOAT, {1, 3, 4, 4}, packed({1, 3, 4, 4}));
        for(int64_t uid : {2, 3, 5})
            g.tensor(uid, fbs::DataType::FLOAT, {1, 3, 1, 1}, {3, 1, 1, 1});
        g.tensor(4, fbs::DataType::FLOAT, {1, 3, 4, 1}, {12, 4, 1, 1});
        fbs::BatchnormInferenceAttributesT a;
        a.x_tensor_uid = 1;
        a.mean_tensor_uid = 2;
        a.inv_variance_tensor_uid = 3;
        a.scale_tensor_uid = 4;
        a.bias_tensor_uid = 5;
        a.y_tensor_uid = 6;
        g.node("bn", fbs::NodeAttributes::BatchnormInferenceAttributes, pack(g, a));
        expectApplicable(g.finish(), 0, "batchnorm inference with a non-per-channel scale");
    }

    // Layernorm backward as in samples/sample_layernorm_backward.json; without statistics it
    // needs epsilon; normalized_dim_count beyond the rank is refused.
    auto lnBackward = [](const std::function<void(fbs::LayernormBackwardAttributesT&)>& edit) {
        GraphBuilder g;
        for(int64_t uid : {1, 2, 6})
            g.tensor(uid, fbs::DataType::FLOAT, {2, 3, 4}, {12, 4, 1});
        for(int64_t uid : {3, 7, 8})
            g.tensor(uid, fbs::DataType::FLOAT, {4}, {1});
        g.tensor(4, fbs::DataType::FLOAT, {2, 3, 1}, {3, 1, 1});
        g.tensor(5, fbs::DataType::FLOAT, {2, 3, 1}, {3, 1, 1});
        g.tensor(9, fbs::DataType::FLOAT, {1}, {1}, false, 1e-5f);
        fbs::LayernormBackwardAttributesT a;
        a.dy_tensor_uid = 1;
        a.x_tensor_uid = 2;
        a.scale_tensor_uid = 3;
        a.mean_tensor_uid = 4;
        a.inv_variance_tensor_uid = 5;
        a.dx_tensor_uid = 6;
        a.dscale_tensor_uid = 7;
        a.dbias_tensor_uid = 8;
        a.normalized_dim_count = 1;
        edit(a);
        g.node("ln_bwd", fbs::NodeAttributes::LayernormBackwardAttributes, pack(g, a));
        return g.finish();
    };
    using LB = fbs::LayernormBackwardAttributesT;
    expectApplicable(lnBackward([](LB&) {}), 1, "sample_layernorm_backward");
    expectApplicable(lnBackward([](LB& a) {
                         a.mean_tensor_uid.reset();
                         a.inv_variance_tensor_uid.reset();
                         a.epsilon_tensor_uid = 9;
                     }),
                     1, "layernorm backward recomputing statistics");
    expectApplicable(lnBackward([](LB& a) {
                         a.mean_tensor_uid.reset();
                         a.inv_variance_tensor_uid.reset();
                     }),
                     0, "layernorm backward without statistics or epsilon");
    expectApplicable(lnBackward([](LB& a) {
                         a.inv_variance_tensor_uid.reset();
                         a.epsilon_tensor_uid = 9;
                     }),
                     0, "layernorm backward with mean but no inv_variance");
    expectApplicable(lnBackward([](LB& a) { a.normalized_dim_count = 4; }), 0, "normalized_dim_count beyond the rank");

    // RMSNorm as in samples/sample_rmsnorm.json: scale [1,3,1,1] normalizes over C, so its
    // inv_rms [2,3,1,1] contradicts it and the graph is refused; with inv_rms [2,1,4,4] it runs.
    auto rms = [](const Dims& invDims) {
        GraphBuilder g;
        g.tensor(1, fbs::DataType::FLOAT, {2, 3, 4, 4}, {48, 16, 4, 1});
        g.tensor(2, fbs::DataType::FLOAT, {1, 3, 1, 1}, {3, 1, 1, 1});
        g.tensor(3, fbs::DataType::DOUBLE, {1}, {1}, false, 1e-5f);
        g.tensor(4, fbs::DataType::FLOAT, {1, 3, 1, 1}, {3, 1, 1, 1});
        g.tensor(5, fbs::DataType::FLOAT, {2, 3, 4, 4}, {48, 16, 4, 1});
        g.tensor(6, fbs::DataType::FLOAT, invDims, packed(invDims));
        fbs::RMSNormAttributesT a;
        a.x_tensor_uid = 1;
        a.scale_tensor_uid = 2;
        a.epsilon_tensor_uid = 3;
        a.bias_tensor_uid = 4;
        a.y_tensor_uid = 5;
        a.inv_rms_tensor_uid = 6;
        a.forward_phase = fbs::NormFwdPhase::TRAINING;
        g.node("rms", fbs::NodeAttributes::RMSNormAttributes, pack(g, a));
        return g.finish();
    };
    expectApplicable(rms({2, 3, 1, 1}), 0, "sample_rmsnorm (inv_rms inconsistent with the scale's axes)");
    expectApplicable(rms({2, 1, 4, 4}), 1, "rmsnorm per-channel scale with a consistent inv_rms");

    // Block-scale quantize / dequantize stay not applicable (FP8/E8M0 tensors and their layout
    // conventions are not implemented).
    {
        GraphBuilder g;
        g.tensor(1, fbs::DataType::FLOAT, {4, 32}, {32, 1});
        g.tensor(2, fbs::DataType::FLOAT, {4, 32}, {32, 1});
        g.tensor(3, fbs::DataType::FLOAT, {4, 1}, {1, 1});
        fbs::BlockScaleQuantizeAttributesT a;
        a.x_tensor_uid = 1;
        a.y_tensor_uid = 2;
        a.scale_tensor_uid = 3;
        a.block_size = 32;
        g.node("q", fbs::NodeAttributes::BlockScaleQuantizeAttributes, pack(g, a));
        expectApplicable(g.finish(), 0, "block-scale quantize");
    }
    {
        GraphBuilder g;
        g.tensor(1, fbs::DataType::FLOAT, {4, 32}, {32, 1});
        g.tensor(2, fbs::DataType::FLOAT, {4, 1}, {1, 1});
        g.tensor(3, fbs::DataType::FLOAT, {4, 32}, {32, 1});
        fbs::BlockScaleDequantizeAttributesT a;
        a.x_tensor_uid = 1;
        a.scale_tensor_uid = 2;
        a.y_tensor_uid = 3;
        a.block_size = {1, 32};
        g.node("dq", fbs::NodeAttributes::BlockScaleDequantizeAttributes, pack(g, a));
        expectApplicable(g.finish(), 0, "block-scale dequantize");
    }
}

CPUREF_TEST(plugin_sdpa_bad_sequence_length_is_bad_param_at_execute)
{
    // Lengths are runtime data: a length beyond the tensor's sequence dimension fails the call
    // (BAD_PARAM naming seq_len_kv), it is not a reason to be "not applicable".
    const auto graph = sdpaGraph([](fbs::SdpaAttributesT& a) { a.seq_len_kv_tensor_uid = 26; });
    Context c(graph, engineConfig(kEngineId));
    std::vector<uint16_t> q(2 * 4 * 5 * 8), k(2 * 2 * 7 * 8), v(k.size()), o(q.size());
    std::vector<float> stats(2 * 4 * 5);
    int32_t lens[2] = {7, 8};
    std::vector<unsigned char> ws(c.workspace());
    const hipdnnPluginDeviceBuffer_t buffers[] = {{1, q.data()}, {2, k.data()},     {3, v.data()},
                                                  {4, o.data()}, {5, stats.data()}, {26, lens}};
    Plugin& p = Plugin::get();
    CPUREF_CHECK(p.hipdnnEnginePluginExecuteOpGraph(c.handle.h, c.ctx, ws.data(), buffers, 6) == HIPDNN_PLUGIN_STATUS_BAD_PARAM
                     && p.lastError().find("seq_len_kv") != std::string::npos,
                 "seq_len_kv 8 > 7: " << p.lastError());
}
