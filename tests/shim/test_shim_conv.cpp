// conv_fprop, conv_dgrad and conv_wgrad through the shim on the CPU engines, against double
// loops; conv_fprop's output shape and channels-last strides inferred as upstream does.
#include "shim_test.h"

#include <tuple>

namespace {

// Geometry of the cases: N=2, C=4, K=3, 5x6 input, 3x3 filter, pad 1, stride 2, dilation 1.
const int64_t N = 2, C = 4, K = 3, H = 5, W = 6, R = 3, S = 3, PAD = 1, STR = 2;
const int64_t P = 1 + (H + 2 * PAD - R) / STR, Q = 1 + (W + 2 * PAD - S) / STR;

double
xw(std::vector<float> const& x, std::vector<float> const& w, int64_t n, int64_t k, int64_t p, int64_t q) {
    double acc = 0;
    for (int64_t c = 0; c < C; ++c)
        for (int64_t r = 0; r < R; ++r)
            for (int64_t s = 0; s < S; ++s) {
                int64_t h = p * STR - PAD + r, ww = q * STR - PAD + s;
                if (h < 0 || h >= H || ww < 0 || ww >= W) continue;
                acc += double(x[((n * C + c) * H + h) * W + ww]) * w[((k * C + c) * R + r) * S + s];
            }
    return acc;
}

void
fprop() {
    fe::graph::Graph g;
    g.set_io_data_type(fe::DataType_t::FLOAT).set_compute_data_type(fe::DataType_t::FLOAT);
    auto X = st_tensor(g, "X", {N, C, H, W});
    auto Wt = st_tensor(g, "W", {K, C, R, S});
    auto Y = g.conv_fprop(X, Wt, fe::graph::Conv_fprop_attributes().set_name("conv").set_padding({PAD, PAD}).set_stride({STR, STR}).set_dilation({1, 1}));
    Y->set_output(true);
    if (!st_build(g, "conv_fprop")) return;
    // Inferred as upstream: [N, K, P, Q], channels-last.
    CHECK(Y->get_dim() == (std::vector<int64_t>{N, K, P, Q}));
    CHECK(Y->get_stride() == (std::vector<int64_t>{P * Q * K, 1, Q * K, K}));
    CHECK(Y->get_name() == "conv::Y");
    std::vector<float> x(N * C * H * W), w(K * C * R * S), y(N * K * P * Q);
    st_fill(x, 1);
    st_fill(w, 2);
    std::vector<double> want(y.size());
    for (int64_t n = 0; n < N; ++n)
        for (int64_t k = 0; k < K; ++k)
            for (int64_t p = 0; p < P; ++p)
                for (int64_t q = 0; q < Q; ++q) want[((n * P + p) * Q + q) * K + k] = xw(x, w, n, k, p, q);
    Binding b{{X, x.data()}, {Wt, w.data()}, {Y, y.data()}};
    st_run_all(g, b, "conv_fprop", [&](std::string const& e) { st_close("conv_fprop", e, y, want); });
}

void
dgrad() {
    fe::graph::Graph g;
    g.set_io_data_type(fe::DataType_t::FLOAT).set_compute_data_type(fe::DataType_t::FLOAT);
    auto DY = st_tensor(g, "DY", {N, K, P, Q});
    auto Wt = st_tensor(g, "W", {K, C, R, S});
    auto DX = g.conv_dgrad(DY, Wt, fe::graph::Conv_dgrad_attributes().set_padding({PAD, PAD}).set_stride({STR, STR}).set_dilation({1, 1}));
    DX->set_output(true).set_dim({N, C, H, W}).set_stride(st_packed({N, C, H, W}));
    if (!st_build(g, "conv_dgrad")) return;
    std::vector<float> dy(N * K * P * Q), w(K * C * R * S), dx(N * C * H * W);
    st_fill(dy, 3);
    st_fill(w, 4);
    std::vector<double> want(dx.size(), 0.0);
    for (int64_t n = 0; n < N; ++n)
        for (int64_t k = 0; k < K; ++k)
            for (int64_t p = 0; p < P; ++p)
                for (int64_t q = 0; q < Q; ++q)
                    for (int64_t c = 0; c < C; ++c)
                        for (int64_t r = 0; r < R; ++r)
                            for (int64_t s = 0; s < S; ++s) {
                                int64_t h = p * STR - PAD + r, ww = q * STR - PAD + s;
                                if (h < 0 || h >= H || ww < 0 || ww >= W) continue;
                                want[((n * C + c) * H + h) * W + ww] +=
                                    double(dy[((n * K + k) * P + p) * Q + q]) * w[((k * C + c) * R + r) * S + s];
                            }
    Binding b{{DY, dy.data()}, {Wt, w.data()}, {DX, dx.data()}};
    st_run_all(g, b, "conv_dgrad", [&](std::string const& e) { st_close("conv_dgrad", e, dx, want); });
}

void
wgrad() {
    fe::graph::Graph g;
    g.set_io_data_type(fe::DataType_t::FLOAT).set_compute_data_type(fe::DataType_t::FLOAT);
    auto X = st_tensor(g, "X", {N, C, H, W});
    auto DY = st_tensor(g, "DY", {N, K, P, Q});
    auto DW = g.conv_wgrad(DY, X, fe::graph::Conv_wgrad_attributes().set_padding({PAD, PAD}).set_stride({STR, STR}).set_dilation({1, 1}));
    DW->set_output(true).set_dim({K, C, R, S}).set_stride(st_packed({K, C, R, S}));
    if (!st_build(g, "conv_wgrad")) return;
    std::vector<float> x(N * C * H * W), dy(N * K * P * Q), dw(K * C * R * S);
    st_fill(x, 5);
    st_fill(dy, 6);
    std::vector<double> want(dw.size(), 0.0);
    for (int64_t n = 0; n < N; ++n)
        for (int64_t k = 0; k < K; ++k)
            for (int64_t p = 0; p < P; ++p)
                for (int64_t q = 0; q < Q; ++q)
                    for (int64_t c = 0; c < C; ++c)
                        for (int64_t r = 0; r < R; ++r)
                            for (int64_t s = 0; s < S; ++s) {
                                int64_t h = p * STR - PAD + r, ww = q * STR - PAD + s;
                                if (h < 0 || h >= H || ww < 0 || ww >= W) continue;
                                want[((k * C + c) * R + r) * S + s] +=
                                    double(dy[((n * K + k) * P + p) * Q + q]) * x[((n * C + c) * H + h) * W + ww];
                            }
    Binding b{{X, x.data()}, {DY, dy.data()}, {DW, dw.data()}};
    st_run_all(g, b, "conv_wgrad", [&](std::string const& e) { st_close("conv_wgrad", e, dw, want); });
}

// conv -> bias add -> ReLU, the upstream samples' first fusion, with a virtual intermediate.
void
conv_bias_relu() {
    fe::graph::Graph g;
    g.set_io_data_type(fe::DataType_t::FLOAT).set_intermediate_data_type(fe::DataType_t::FLOAT).set_compute_data_type(fe::DataType_t::FLOAT);
    auto X = st_tensor(g, "X", {N, C, H, W});
    auto Wt = st_tensor(g, "W", {K, C, R, S});
    auto B = st_tensor(g, "B", {1, K, 1, 1});
    auto conv = g.conv_fprop(X, Wt, fe::graph::Conv_fprop_attributes().set_padding({PAD, PAD}).set_stride({STR, STR}).set_dilation({1, 1}));
    auto biased = g.pointwise(conv, B, fe::graph::Pointwise_attributes().set_mode(fe::PointwiseMode_t::ADD));
    auto Y = g.pointwise(biased, fe::graph::Pointwise_attributes().set_mode(fe::PointwiseMode_t::RELU_FWD));
    Y->set_output(true);
    if (!st_build(g, "conv_bias_relu")) return;
    CHECK(conv->get_is_virtual());
    CHECK(Y->get_stride() == conv->get_stride());  // pointwise output takes the same-shape input's strides
    std::vector<float> x(N * C * H * W), w(K * C * R * S), bias(K), y(N * K * P * Q);
    st_fill(x, 7);
    st_fill(w, 8);
    st_fill(bias, 9);
    std::vector<double> want(y.size());
    for (int64_t n = 0; n < N; ++n)
        for (int64_t k = 0; k < K; ++k)
            for (int64_t p = 0; p < P; ++p)
                for (int64_t q = 0; q < Q; ++q)
                    want[((n * P + p) * Q + q) * K + k] = std::max(0.0, xw(x, w, n, k, p, q) + bias[k]);
    Binding b{{X, x.data()}, {Wt, w.data()}, {B, bias.data()}, {Y, y.data()}};
    st_run_all(g, b, "conv_bias_relu", [&](std::string const& e) { st_close("conv_bias_relu", e, y, want); });
    // Same pointers again: the cached variant pack is reused and the result is unchanged.
    std::fill(y.begin(), y.end(), 0.f);
    int64_t ws = 0;
    CHECK_FE_OK(g.get_workspace_size(ws));
    std::vector<unsigned char> workspace(ws + 16);
    if (st_exec(g, b, workspace.data(), "conv_bias_relu (repeat)") &&
        st_exec(g, b, workspace.data(), "conv_bias_relu (repeat)"))
        st_close("conv_bias_relu (repeat)", "default plan", y, want);
    if (st_device) return;  // the rest binds host pointers by UID
    // The UID-map overload binds the same way.
    std::unordered_map<int64_t, void*> by_uid{{X->get_uid(), x.data()}, {Wt->get_uid(), w.data()}, {B->get_uid(), bias.data()}, {Y->get_uid(), y.data()}};
    std::fill(y.begin(), y.end(), 0.f);
    CHECK_FE_OK(g.execute(st_handle(), by_uid, workspace.data()));
    st_close("conv_bias_relu (uid map)", "default plan", y, want);
}

// deselect_workspace_greater_than(0) rules out every config that needs workspace; the ones left
// (here the reference engine, which needs none) still run. select_numeric_notes of a note no
// CPU engine reports leaves nothing, and check_support says why.
void
filters() {
    auto make = [](fe::graph::Graph& g) {
        g.set_io_data_type(fe::DataType_t::FLOAT).set_compute_data_type(fe::DataType_t::FLOAT);
        auto X = st_tensor(g, "X", {N, C, H, W});
        auto Wt = st_tensor(g, "W", {K, C, R, S});
        auto Y = g.conv_fprop(X, Wt, fe::graph::Conv_fprop_attributes().set_padding({PAD, PAD}).set_stride({STR, STR}).set_dilation({1, 1}));
        Y->set_output(true);
        return std::make_tuple(X, Wt, Y);
    };
    {
        fe::graph::Graph g;
        auto [X, Wt, Y] = make(g);
        CHECK_FE_OK(g.validate());
        CHECK_FE_OK(g.build_operation_graph(st_handle()));
        CHECK_FE_OK(g.create_execution_plans({fe::HeurMode_t::A}));
        g.deselect_workspace_greater_than(0);
        CHECK_FE_OK(g.check_support(st_handle()));
        CHECK_FE_OK(g.build_plans(st_handle()));
        int64_t ws = -1;
        CHECK_FE_OK(g.get_workspace_size(ws));
        CHECK(ws == 0);
        std::vector<float> x(N * C * H * W), w(K * C * R * S), y(N * K * P * Q);
        st_fill(x, 1);
        st_fill(w, 2);
        std::vector<double> want(y.size());
        for (int64_t n = 0; n < N; ++n)
            for (int64_t k = 0; k < K; ++k)
                for (int64_t p = 0; p < P; ++p)
                    for (int64_t q = 0; q < Q; ++q) want[((n * P + p) * Q + q) * K + k] = xw(x, w, n, k, p, q);
        Binding b{{X, x.data()}, {Wt, w.data()}, {Y, y.data()}};
        if (st_exec(g, b, nullptr, "conv_fprop (no workspace)"))
            st_close("conv_fprop (no workspace)", "the config left", y, want);
    }
    {
        fe::graph::Graph g;
        (void)make(g);
        CHECK_FE_OK(g.validate());
        CHECK_FE_OK(g.build_operation_graph(st_handle()));
        CHECK_FE_OK(g.create_execution_plans({fe::HeurMode_t::A}));
        g.select_numeric_notes({fe::NumericalNote_t::WINOGRAD_TILE_13x13});
        CHECK_FE_ERR(fe::error_code_t::GRAPH_NOT_SUPPORTED, "lacks a selected numerical note", g.check_support(st_handle()));
    }
}

}  // namespace

int
main() {
    filters();
    fprop();
    dgrad();
    wgrad();
    conv_bias_relu();
    return st_finish("test_shim_conv");
}
