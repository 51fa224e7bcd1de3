// reduction (each mode hipDNN has) and resample (max and average pooling, with the index
// output) through the shim on the CPU engines, against double loops.
#include "shim_test.h"

#include <limits>

namespace {

using RM = fe::ReductionMode_t;
const int64_t N = 2, C = 3, H = 4, W = 5;

// Reduce [N, C, H, W] to [N, C, 1, 1].
void
reduction(RM mode, bool positive) {
    std::string what = std::string("reduction ") + fe::detail::name(mode);
    fe::graph::Graph g;
    g.set_io_data_type(fe::DataType_t::FLOAT).set_compute_data_type(fe::DataType_t::FLOAT);
    auto X = st_tensor(g, "X", {N, C, H, W});
    auto Y = g.reduction(X, fe::graph::Reduction_attributes().set_mode(mode));
    Y->set_output(true).set_dim({N, C, 1, 1}).set_stride({C, 1, 1, 1});
    if (!st_build(g, what.c_str())) return;
    std::vector<float> x(N * C * H * W), y(N * C);
    st_fill(x, 91, positive ? 0.5f : -1.f, positive ? 1.5f : 1.f);
    if (mode == RM::MUL_NO_ZEROS)
        for (size_t i = 0; i < x.size(); i += 7) x[i] = 0.f;
    std::vector<double> want(N * C);
    for (int64_t n = 0; n < N; ++n)
        for (int64_t c = 0; c < C; ++c) {
            double acc = (mode == RM::MUL || mode == RM::MUL_NO_ZEROS) ? 1 : 0;
            if (mode == RM::MIN) acc = std::numeric_limits<double>::infinity();
            if (mode == RM::MAX) acc = -std::numeric_limits<double>::infinity();
            for (int64_t s = 0; s < H * W; ++s) {
                double v = x[(n * C + c) * H * W + s];
                switch (mode) {
                    case RM::ADD:
                    case RM::AVG: acc += v; break;
                    case RM::MUL: acc *= v; break;
                    case RM::MUL_NO_ZEROS: acc *= (v != 0 ? v : 1); break;
                    case RM::MIN: acc = std::min(acc, v); break;
                    case RM::MAX: acc = std::max(acc, v); break;
                    case RM::AMAX: acc = std::max(acc, std::fabs(v)); break;
                    case RM::NORM1: acc += std::fabs(v); break;
                    case RM::NORM2: acc += v * v; break;
                    default: break;
                }
            }
            if (mode == RM::AVG) acc /= H * W;
            if (mode == RM::NORM2) acc = std::sqrt(acc);
            want[n * C + c] = acc;  // Y is [N, C, 1, 1] with strides {C, 1, 1, 1}
        }
    Binding b{{X, x.data()}, {Y, y.data()}};
    st_run_all(g, b, what.c_str(), [&](std::string const& e) { st_close(what.c_str(), e, y, want, 1e-4); });
}

// 2x2 windows, stride 2, no padding, on [N, C, 4, 5] (the last column falls outside).
void
pooling(fe::ResampleMode_t mode, bool with_index) {
    std::string what = std::string("resample ") + fe::detail::name(mode);
    fe::graph::Graph g;
    g.set_io_data_type(fe::DataType_t::FLOAT).set_compute_data_type(fe::DataType_t::FLOAT);
    auto X = st_tensor(g, "X", {N, C, H, W});
    auto attrs = fe::graph::Resample_attributes()
                     .set_resampling_mode(mode)
                     .set_padding_mode(fe::PaddingMode_t::NEG_INF_PAD)
                     .set_window({2, 2})
                     .set_stride({2, 2})
                     .set_pre_padding({0, 0})
                     .set_post_padding({0, 0})
                     .set_generate_index(with_index);
    if (mode != fe::ResampleMode_t::MAXPOOL) attrs.set_padding_mode(fe::PaddingMode_t::ZERO_PAD);
    auto out = g.resample(X, attrs);
    int64_t const P = 2, Q = 2;
    out[0]->set_output(true);
    // Only max pooling makes an Index (upstream); for average pooling generate_index is moot.
    if (mode != fe::ResampleMode_t::MAXPOOL) CHECK(out[1] == nullptr);
    with_index = with_index && out[1] != nullptr;
    if (with_index) out[1]->set_output(true).set_data_type(fe::DataType_t::INT32);
    if (!st_build(g, what.c_str())) return;
    CHECK(out[0]->get_dim() == (std::vector<int64_t>{N, C, P, Q}));                   // upstream's inference
    CHECK(out[0]->get_stride() == (std::vector<int64_t>{P * Q * C, 1, Q * C, C}));    // channels-last
    std::vector<float> x(N * C * H * W), y(N * C * P * Q);
    std::vector<int32_t> idx(N * C * P * Q);
    st_fill(x, 95);
    std::vector<double> want(y.size());
    for (int64_t n = 0; n < N; ++n)
        for (int64_t c = 0; c < C; ++c)
            for (int64_t p = 0; p < P; ++p)
                for (int64_t q = 0; q < Q; ++q) {
                    double mx = -1e30, sum = 0;
                    for (int64_t r = 0; r < 2; ++r)
                        for (int64_t s = 0; s < 2; ++s) {
                            double v = x[((n * C + c) * H + p * 2 + r) * W + q * 2 + s];
                            mx = std::max(mx, v);
                            sum += v;
                        }
                    want[((n * P + p) * Q + q) * C + c] = mode == fe::ResampleMode_t::MAXPOOL ? mx : sum / 4;
                }
    Binding b{{X, x.data()}, {out[0], y.data()}};
    if (with_index) b[out[1]] = idx.data();
    st_run_all(g, b, what.c_str(), [&](std::string const& e) { st_close(what.c_str(), e, y, want); });
}

}  // namespace

int
main() {
    for (RM m : {RM::ADD, RM::MIN, RM::MAX, RM::AMAX, RM::AVG, RM::NORM1, RM::NORM2}) reduction(m, false);
    for (RM m : {RM::MUL, RM::MUL_NO_ZEROS}) reduction(m, true);
    pooling(fe::ResampleMode_t::MAXPOOL, false);
    pooling(fe::ResampleMode_t::MAXPOOL, true);
    pooling(fe::ResampleMode_t::AVGPOOL_INCLUDE_PADDING, false);
    pooling(fe::ResampleMode_t::AVGPOOL_EXCLUDE_PADDING, false);
    pooling(fe::ResampleMode_t::AVGPOOL_INCLUDE_PADDING, true);  // NVIDIA's avg-pool sample asks for one
    return st_finish("test_shim_reduction_resample");
}
