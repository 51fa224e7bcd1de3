// batchnorm (training, inference, backward), layernorm (training and its backward) and rmsnorm
// (training and its backward) through the shim on the CPU engines, against double loops.
#include "shim_test.h"

namespace {

const int64_t N = 4, C = 3, H = 2, W = 2, HW = H * W, EL = N * C * HW;
const float EPS = 1e-5f;

size_t
at(int64_t n, int64_t c, int64_t s) {
    return static_cast<size_t>((n * C + c) * HW + s);
}

std::shared_ptr<fe::graph::Tensor_attributes>
channel_tensor(fe::graph::Graph& g, const char* name) {
    return st_tensor(g, name, {1, C, 1, 1});
}

// Per-channel batch statistics of x (biased variance).
void
channel_stats(std::vector<float> const& x, std::vector<double>& mean, std::vector<double>& var) {
    mean.assign(C, 0);
    var.assign(C, 0);
    double const m = N * HW;
    for (int64_t c = 0; c < C; ++c) {
        for (int64_t n = 0; n < N; ++n)
            for (int64_t s = 0; s < HW; ++s) mean[c] += x[at(n, c, s)];
        mean[c] /= m;
        for (int64_t n = 0; n < N; ++n)
            for (int64_t s = 0; s < HW; ++s) var[c] += (x[at(n, c, s)] - mean[c]) * (x[at(n, c, s)] - mean[c]);
        var[c] /= m;
    }
}

void
batchnorm_training() {
    fe::graph::Graph g;
    g.set_io_data_type(fe::DataType_t::FLOAT).set_intermediate_data_type(fe::DataType_t::FLOAT).set_compute_data_type(fe::DataType_t::FLOAT);
    auto X = st_tensor(g, "X", {N, C, H, W});
    auto scale = channel_tensor(g, "scale"), bias = channel_tensor(g, "bias");
    auto prev_mean = channel_tensor(g, "prev_mean"), prev_var = channel_tensor(g, "prev_var");
    auto eps = g.tensor(fe::graph::Tensor_attributes(EPS));
    auto momentum = g.tensor(fe::graph::Tensor_attributes(0.1f));
    auto out = g.batchnorm(X, scale, bias, fe::graph::Batchnorm_attributes().set_epsilon(eps).set_previous_running_stats(prev_mean, prev_var, momentum));
    for (auto& t : out) t->set_output(true);
    if (!st_build(g, "batchnorm")) return;
    CHECK(out[1]->get_dim() == (std::vector<int64_t>{1, C, 1, 1}));  // per-channel, as upstream infers
    CHECK(out[0]->get_stride() == X->get_stride());
    std::vector<float> x(EL), sc(C), bi(C), pm(C), pv(C), y(EL), mean(C), inv(C), nm(C), nv(C);
    st_fill(x, 21);
    st_fill(sc, 22);
    st_fill(bi, 23);
    st_fill(pm, 24);
    st_fill(pv, 25, 0.5f, 1.5f);
    std::vector<double> mu, var;
    channel_stats(x, mu, var);
    std::vector<double> wy(EL), wmean(mu), winv(C), wnm(C), wnv(C);
    double const m = N * HW;
    for (int64_t c = 0; c < C; ++c) {
        winv[c] = 1 / std::sqrt(var[c] + EPS);
        wnm[c]  = 0.9 * pm[c] + 0.1 * mu[c];
        wnv[c]  = 0.9 * pv[c] + 0.1 * var[c] * m / (m - 1);
        for (int64_t n = 0; n < N; ++n)
            for (int64_t s = 0; s < HW; ++s) wy[at(n, c, s)] = (x[at(n, c, s)] - mu[c]) * winv[c] * sc[c] + bi[c];
    }
    Binding b{{X, x.data()}, {scale, sc.data()}, {bias, bi.data()}, {prev_mean, pm.data()}, {prev_var, pv.data()},
              {out[0], y.data()}, {out[1], mean.data()}, {out[2], inv.data()}, {out[3], nm.data()}, {out[4], nv.data()}};
    st_run_all(g, b, "batchnorm", [&](std::string const& e) {
        st_close("batchnorm Y", e, y, wy);
        st_close("batchnorm MEAN", e, mean, wmean);
        st_close("batchnorm INV_VARIANCE", e, inv, winv, 1e-3);
        st_close("batchnorm NEXT_RUNNING_MEAN", e, nm, wnm);
        st_close("batchnorm NEXT_RUNNING_VAR", e, nv, wnv);
    });
}

void
batchnorm_inference() {
    fe::graph::Graph g;
    g.set_io_data_type(fe::DataType_t::FLOAT).set_compute_data_type(fe::DataType_t::FLOAT);
    auto X = st_tensor(g, "X", {N, C, H, W});
    auto mean = channel_tensor(g, "mean"), inv = channel_tensor(g, "inv_variance");
    auto scale = channel_tensor(g, "scale"), bias = channel_tensor(g, "bias");
    auto Y = g.batchnorm_inference(X, mean, inv, scale, bias, fe::graph::Batchnorm_inference_attributes());
    Y->set_output(true);
    if (!st_build(g, "batchnorm_inference")) return;
    std::vector<float> x(EL), mu(C), iv(C), sc(C), bi(C), y(EL);
    st_fill(x, 31);
    st_fill(mu, 32);
    st_fill(iv, 33, 0.5f, 2.f);
    st_fill(sc, 34);
    st_fill(bi, 35);
    std::vector<double> want(EL);
    for (int64_t n = 0; n < N; ++n)
        for (int64_t c = 0; c < C; ++c)
            for (int64_t s = 0; s < HW; ++s)
                want[at(n, c, s)] = (double(x[at(n, c, s)]) - mu[c]) * iv[c] * sc[c] + bi[c];
    Binding b{{X, x.data()}, {mean, mu.data()}, {inv, iv.data()}, {scale, sc.data()}, {bias, bi.data()}, {Y, y.data()}};
    st_run_all(g, b, "batchnorm_inference", [&](std::string const& e) { st_close("batchnorm_inference", e, y, want); });
}

void
batchnorm_backward() {
    fe::graph::Graph g;
    g.set_io_data_type(fe::DataType_t::FLOAT).set_compute_data_type(fe::DataType_t::FLOAT);
    auto X = st_tensor(g, "X", {N, C, H, W}), DY = st_tensor(g, "DY", {N, C, H, W});
    auto scale = channel_tensor(g, "scale"), mean = channel_tensor(g, "mean"), inv = channel_tensor(g, "inv_variance");
    auto out = g.batchnorm_backward(DY, X, scale, fe::graph::Batchnorm_backward_attributes().set_saved_mean_and_inv_variance(mean, inv));
    for (auto& t : out) t->set_output(true);
    out[0]->set_stride(st_packed({N, C, H, W}));
    if (!st_build(g, "batchnorm_backward")) return;
    std::vector<float> x(EL), dy(EL), sc(C), mu(C), iv(C), dx(EL), ds(C), db(C);
    st_fill(x, 41);
    st_fill(dy, 42);
    st_fill(sc, 43);
    std::vector<double> m, v;
    channel_stats(x, m, v);
    for (int64_t c = 0; c < C; ++c) {
        mu[c] = float(m[c]);
        iv[c] = float(1 / std::sqrt(v[c] + EPS));
    }
    std::vector<double> wdx(EL), wds(C, 0), wdb(C, 0);
    double const M = N * HW;
    for (int64_t c = 0; c < C; ++c) {
        for (int64_t n = 0; n < N; ++n)
            for (int64_t s = 0; s < HW; ++s) {
                double xh = (x[at(n, c, s)] - mu[c]) * double(iv[c]);
                wdb[c] += dy[at(n, c, s)];
                wds[c] += dy[at(n, c, s)] * xh;
            }
        for (int64_t n = 0; n < N; ++n)
            for (int64_t s = 0; s < HW; ++s) {
                double xh         = (x[at(n, c, s)] - mu[c]) * double(iv[c]);
                wdx[at(n, c, s)] = sc[c] * double(iv[c]) / M * (M * dy[at(n, c, s)] - wdb[c] - xh * wds[c]);
            }
    }
    Binding b{{X, x.data()}, {DY, dy.data()}, {scale, sc.data()}, {mean, mu.data()}, {inv, iv.data()},
              {out[0], dx.data()}, {out[1], ds.data()}, {out[2], db.data()}};
    st_run_all(g, b, "batchnorm_backward", [&](std::string const& e) {
        st_close("batchnorm_backward DX", e, dx, wdx, 1e-3);
        st_close("batchnorm_backward DSCALE", e, ds, wds, 1e-3);
        st_close("batchnorm_backward DBIAS", e, db, wdb, 1e-3);
    });
}

// Layer norm and RMS norm normalize each sample over [C, H, W] (12 values): scale [1, C, H, W].
const int64_t G = C * HW;

void
layernorm() {
    fe::graph::Graph g;
    g.set_io_data_type(fe::DataType_t::FLOAT).set_intermediate_data_type(fe::DataType_t::FLOAT).set_compute_data_type(fe::DataType_t::FLOAT);
    auto X = st_tensor(g, "X", {N, C, H, W});
    auto scale = st_tensor(g, "scale", {1, C, H, W}), bias = st_tensor(g, "bias", {1, C, H, W});
    auto eps = g.tensor(fe::graph::Tensor_attributes(EPS));
    auto out = g.layernorm(X, scale, bias, fe::graph::Layernorm_attributes().set_forward_phase(fe::NormFwdPhase_t::TRAINING).set_epsilon(eps));
    for (auto& t : out) t->set_output(true);
    if (!st_build(g, "layernorm")) return;
    CHECK(out[1]->get_dim() == (std::vector<int64_t>{N, 1, 1, 1}));  // statistics per sample, as upstream infers
    std::vector<float> x(EL), sc(G), bi(G), y(EL), mean(N), inv(N);
    st_fill(x, 51);
    st_fill(sc, 52);
    st_fill(bi, 53);
    std::vector<double> wy(EL), wm(N), wi(N);
    for (int64_t n = 0; n < N; ++n) {
        double s = 0, q = 0;
        for (int64_t j = 0; j < G; ++j) s += x[n * G + j];
        wm[n] = s / G;
        for (int64_t j = 0; j < G; ++j) q += (x[n * G + j] - wm[n]) * (x[n * G + j] - wm[n]);
        wi[n] = 1 / std::sqrt(q / G + EPS);
        for (int64_t j = 0; j < G; ++j) wy[n * G + j] = (x[n * G + j] - wm[n]) * wi[n] * sc[j] + bi[j];
    }
    Binding b{{X, x.data()}, {scale, sc.data()}, {bias, bi.data()}, {out[0], y.data()}, {out[1], mean.data()}, {out[2], inv.data()}};
    st_run_all(g, b, "layernorm", [&](std::string const& e) {
        st_close("layernorm Y", e, y, wy, 1e-3);
        st_close("layernorm MEAN", e, mean, wm);
        st_close("layernorm INV_VARIANCE", e, inv, wi, 1e-3);
    });
}

// INFERENCE: Y only (no statistics outputs are made).
void
layernorm_inference() {
    fe::graph::Graph g;
    g.set_io_data_type(fe::DataType_t::FLOAT).set_compute_data_type(fe::DataType_t::FLOAT);
    auto X = st_tensor(g, "X", {N, C, H, W});
    auto scale = st_tensor(g, "scale", {1, C, H, W}), bias = st_tensor(g, "bias", {1, C, H, W});
    auto eps = g.tensor(fe::graph::Tensor_attributes(EPS));
    auto out = g.layernorm(X, scale, bias, fe::graph::Layernorm_attributes().set_forward_phase(fe::NormFwdPhase_t::INFERENCE).set_epsilon(eps));
    CHECK(out[1] == nullptr && out[2] == nullptr);
    out[0]->set_output(true);
    if (!st_build(g, "layernorm inference")) return;
    std::vector<float> x(EL), sc(G), bi(G), y(EL);
    st_fill(x, 56);
    st_fill(sc, 57);
    st_fill(bi, 58);
    std::vector<double> wy(EL);
    for (int64_t n = 0; n < N; ++n) {
        double s = 0, q = 0;
        for (int64_t j = 0; j < G; ++j) s += x[n * G + j];
        double m = s / G;
        for (int64_t j = 0; j < G; ++j) q += (x[n * G + j] - m) * (x[n * G + j] - m);
        double inv = 1 / std::sqrt(q / G + EPS);
        for (int64_t j = 0; j < G; ++j) wy[n * G + j] = (x[n * G + j] - m) * inv * sc[j] + bi[j];
    }
    Binding b{{X, x.data()}, {scale, sc.data()}, {bias, bi.data()}, {out[0], y.data()}};
    st_run_all(g, b, "layernorm inference", [&](std::string const& e) { st_close("layernorm inference Y", e, y, wy, 1e-3); });
}

void
layernorm_backward() {
    fe::graph::Graph g;
    g.set_io_data_type(fe::DataType_t::FLOAT).set_compute_data_type(fe::DataType_t::FLOAT);
    auto X = st_tensor(g, "X", {N, C, H, W}), DY = st_tensor(g, "DY", {N, C, H, W});
    auto scale = st_tensor(g, "scale", {1, C, H, W});
    auto mean = st_tensor(g, "mean", {N, 1, 1, 1}), inv = st_tensor(g, "inv_variance", {N, 1, 1, 1});
    auto out = g.layernorm_backward(DY, X, scale, fe::graph::Layernorm_backward_attributes().set_saved_mean_and_inv_variance(mean, inv));
    for (auto& t : out) t->set_output(true);
    out[0]->set_stride(st_packed({N, C, H, W}));
    out[1]->set_stride(st_packed({1, C, H, W}));
    out[2]->set_stride(st_packed({1, C, H, W}));
    if (!st_build(g, "layernorm_backward")) return;
    std::vector<float> x(EL), dy(EL), sc(G), mu(N), iv(N), dx(EL), ds(G), db(G);
    st_fill(x, 61);
    st_fill(dy, 62);
    st_fill(sc, 63);
    for (int64_t n = 0; n < N; ++n) {
        double s = 0, q = 0;
        for (int64_t j = 0; j < G; ++j) s += x[n * G + j];
        mu[n] = float(s / G);
        for (int64_t j = 0; j < G; ++j) q += (x[n * G + j] - mu[n]) * (x[n * G + j] - mu[n]);
        iv[n] = float(1 / std::sqrt(q / G + EPS));
    }
    std::vector<double> wdx(EL), wds(G, 0), wdb(G, 0);
    for (int64_t n = 0; n < N; ++n) {
        double sum_g = 0, sum_gx = 0;
        for (int64_t j = 0; j < G; ++j) {
            double xh = (x[n * G + j] - mu[n]) * double(iv[n]), gj = dy[n * G + j] * double(sc[j]);
            sum_g += gj;
            sum_gx += gj * xh;
            wds[j] += dy[n * G + j] * xh;
            wdb[j] += dy[n * G + j];
        }
        for (int64_t j = 0; j < G; ++j) {
            double xh = (x[n * G + j] - mu[n]) * double(iv[n]), gj = dy[n * G + j] * double(sc[j]);
            wdx[n * G + j] = double(iv[n]) / G * (G * gj - sum_g - xh * sum_gx);
        }
    }
    Binding b{{X, x.data()}, {DY, dy.data()}, {scale, sc.data()}, {mean, mu.data()}, {inv, iv.data()},
              {out[0], dx.data()}, {out[1], ds.data()}, {out[2], db.data()}};
    st_run_all(g, b, "layernorm_backward", [&](std::string const& e) {
        st_close("layernorm_backward DX", e, dx, wdx, 1e-3);
        st_close("layernorm_backward DSCALE", e, ds, wds, 1e-3);
        st_close("layernorm_backward DBIAS", e, db, wdb, 1e-3);
    });
}

void
rmsnorm() {
    fe::graph::Graph g;
    g.set_io_data_type(fe::DataType_t::FLOAT).set_compute_data_type(fe::DataType_t::FLOAT);
    auto X = st_tensor(g, "X", {N, C, H, W});
    auto scale = st_tensor(g, "scale", {1, C, H, W});
    auto eps = g.tensor(fe::graph::Tensor_attributes(EPS));
    auto out = g.rmsnorm(X, scale, fe::graph::Rmsnorm_attributes().set_forward_phase(fe::NormFwdPhase_t::TRAINING).set_epsilon(eps));
    out[0]->set_output(true);
    out[1]->set_output(true);
    if (!st_build(g, "rmsnorm")) return;
    CHECK(out[1]->get_dim() == (std::vector<int64_t>{N, 1, 1, 1}));
    std::vector<float> x(EL), sc(G), y(EL), inv(N);
    st_fill(x, 71);
    st_fill(sc, 72);
    std::vector<double> wy(EL), wi(N);
    for (int64_t n = 0; n < N; ++n) {
        double q = 0;
        for (int64_t j = 0; j < G; ++j) q += double(x[n * G + j]) * x[n * G + j];
        wi[n] = 1 / std::sqrt(q / G + EPS);
        for (int64_t j = 0; j < G; ++j) wy[n * G + j] = x[n * G + j] * wi[n] * sc[j];
    }
    Binding b{{X, x.data()}, {scale, sc.data()}, {out[0], y.data()}, {out[1], inv.data()}};
    st_run_all(g, b, "rmsnorm", [&](std::string const& e) {
        st_close("rmsnorm Y", e, y, wy, 1e-3);
        st_close("rmsnorm INV_VARIANCE", e, inv, wi, 1e-3);
    });
}

void
rmsnorm_backward() {
    fe::graph::Graph g;
    g.set_io_data_type(fe::DataType_t::FLOAT).set_compute_data_type(fe::DataType_t::FLOAT);
    auto X = st_tensor(g, "X", {N, C, H, W}), DY = st_tensor(g, "DY", {N, C, H, W});
    auto scale = st_tensor(g, "scale", {1, C, H, W});
    auto inv = st_tensor(g, "inv_rms", {N, 1, 1, 1});
    auto out = g.rmsnorm_backward(DY, X, scale, inv, fe::graph::Rmsnorm_backward_attributes().has_dbias(false));
    CHECK(out[2] == nullptr);  // no DBIAS without has_dbias(true)
    out[0]->set_output(true).set_stride(st_packed({N, C, H, W}));
    out[1]->set_output(true).set_stride(st_packed({1, C, H, W}));
    if (!st_build(g, "rmsnorm_backward")) return;
    std::vector<float> x(EL), dy(EL), sc(G), iv(N), dx(EL), ds(G);
    st_fill(x, 81);
    st_fill(dy, 82);
    st_fill(sc, 83);
    for (int64_t n = 0; n < N; ++n) {
        double q = 0;
        for (int64_t j = 0; j < G; ++j) q += double(x[n * G + j]) * x[n * G + j];
        iv[n] = float(1 / std::sqrt(q / G + EPS));
    }
    std::vector<double> wdx(EL), wds(G, 0);
    for (int64_t n = 0; n < N; ++n) {
        double r = iv[n], dot = 0;
        for (int64_t j = 0; j < G; ++j) {
            dot += double(dy[n * G + j]) * sc[j] * x[n * G + j];
            wds[j] += double(dy[n * G + j]) * x[n * G + j] * r;
        }
        for (int64_t j = 0; j < G; ++j)
            wdx[n * G + j] = r * dy[n * G + j] * sc[j] - x[n * G + j] * r * r * r * dot / G;
    }
    Binding b{{X, x.data()}, {DY, dy.data()}, {scale, sc.data()}, {inv, iv.data()}, {out[0], dx.data()}, {out[1], ds.data()}};
    st_run_all(g, b, "rmsnorm_backward", [&](std::string const& e) {
        st_close("rmsnorm_backward DX", e, dx, wdx, 1e-3);
        st_close("rmsnorm_backward DSCALE", e, ds, wds, 1e-3);
    });
}

}  // namespace

int
main() {
    batchnorm_training();
    batchnorm_inference();
    batchnorm_backward();
    layernorm();
    layernorm_inference();
    layernorm_backward();
    rmsnorm();
    rmsnorm_backward();
    return st_finish("test_shim_norms");
}
