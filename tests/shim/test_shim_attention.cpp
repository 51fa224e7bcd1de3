// Attention through the shim: Graph::sdpa (with and without stats, the max and sum-exp outputs,
// no scale / a scale value / a scale tensor, causal top-left and bottom-right, sliding windows,
// padding through sequence lengths, GQA and MQA, additive bias, ALiBi, BSHD layouts, the
// deprecated alias) and Graph::sdpa_backward, on every CPU engine that takes them, against
// double-precision attention computed here: S = scale·QKᵀ + bias (+ ALiBi), masked;
// P = softmax(S); O = P·V; Stats = logsumexp(S), Max = max S, Sum_exp = Σ exp(S − Max);
// backward dV = Pᵀ·dO, dP = dO·Vᵀ, dS = P·(dP − rowsum(dO·O)), dQ = scale·dS·K,
// dK = scale·dSᵀ·Q (dK, dV summed over the query heads sharing a key/value head).
// Then what is not checked numerically here (dropout, sink tokens) is checked to lower, and
// every setter hipDNN cannot express to be refused by name.
#include "shim_test.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>

namespace {

using fe::graph::Graph;
using fe::graph::SDPA_attributes;
using fe::graph::SDPA_backward_attributes;
using fe::graph::Tensor_attributes;
using TP = std::shared_ptr<Tensor_attributes>;
using EC = fe::error_code_t;

// T4 is a 4-D fp32 tensor in host memory with its layout.
struct T4 {
    std::vector<int64_t> dim, stride;
    std::vector<float> v;
    size_t
    at(int64_t a, int64_t b, int64_t c, int64_t d) const {
        return static_cast<size_t>(a * stride[0] + b * stride[1] + c * stride[2] + d * stride[3]);
    }
    float
    operator()(int64_t a, int64_t b, int64_t c, int64_t d) const {
        return v[at(a, b, c, d)];
    }
};

// bshd: [b, h, s, d] stored as [b, s, h, d] (upstream's samples and PyTorch's layout).
std::vector<int64_t>
bshd(std::vector<int64_t> const& d) {
    return {d[1] * d[2] * d[3], d[3], d[1] * d[3], 1};
}

T4
make(std::vector<int64_t> dim, bool bs, unsigned seed) {
    T4 t;
    t.dim    = dim;
    t.stride = bs ? bshd(dim) : st_packed(dim);
    t.v.assign(static_cast<size_t>(dim[0] * dim[1] * dim[2] * dim[3]), 0.f);
    st_fill(t.v, seed);
    return t;
}

TP
input(Graph& g, const char* name, T4 const& t) {
    return g.tensor(Tensor_attributes().set_name(name).set_dim(t.dim).set_stride(t.stride).set_data_type(fe::DataType_t::FLOAT));
}

enum class Scale { None, Value, Tensor };

// Case is one attention problem. window is cuDNN's (the keys kept left of and on the diagonal).
struct Case {
    const char* name;
    int64_t b = 2, hq = 2, hk = 2, hv = 2, sq = 5, skv = 7, d = 8, dv = 8;
    bool bs = false, stats = true, causal = false, bottom_right = false, bias = false, bias_bcast = false;
    bool max_sum = false;  // set_logit_max and set_score_sum_exp (forward)
    bool alibi = false;    // set_alibi_mask
    bool dbias = false;    // set_dbias (backward; needs bias): dS summed where the bias broadcasts
    std::optional<int> window;
    Scale scale = Scale::Value;
    std::vector<int32_t> seq_q, seq_kv;  // padding when not empty
};

const float kScale = 0.35f;

// Ref is the double-precision attention of a case: P per (b, h, i, j), O, logsumexp, row max and
// sum of exponentials.
struct Ref {
    std::vector<double> P, O, lse, max, sum_exp;  // P [b, hq, sq, skv], O [b, hq, sq, dv] packed, the rest [b, hq, sq]
    std::vector<bool> row;          // valid rows [b, hq, sq]
};

double
scale_of(Case const& c) {
    return c.scale == Scale::None ? 1.0 : kScale;  // upstream: no scale set multiplies by nothing
}

// alibi_slope is cudnn-frontend's ALiBi slope of head h of hq (its get_alibi_slope): with n the
// largest power of two <= hq, 2^(-8(h + 1)/n) for h < n, else 2^(-8(h - n + 1/2)/n).
double
alibi_slope(int64_t h, int64_t hq) {
    int64_t n = 1;
    while (n * 2 <= hq) n *= 2;
    double const e = h < n ? double(h + 1) : double(h - n) + 0.5;
    return std::exp2(-8.0 * e / double(n));
}

bool
visible(Case const& c, int64_t bi, int64_t i, int64_t j) {
    int64_t const sq = c.seq_q.empty() ? c.sq : c.seq_q[bi], skv = c.seq_kv.empty() ? c.skv : c.seq_kv[bi];
    if (i >= sq || j >= skv) return false;
    int64_t const off = c.bottom_right ? skv - sq : 0;
    if ((c.causal || c.bottom_right) && j > i + off) return false;
    if (c.window && !(j > i + off - *c.window)) return false;
    return true;
}

Ref
reference(Case const& c, T4 const& Q, T4 const& K, T4 const& V, T4 const* B) {
    Ref r;
    size_t const rows = static_cast<size_t>(c.b * c.hq * c.sq);
    r.P.assign(rows * c.skv, 0);
    r.O.assign(rows * c.dv, 0);
    r.lse.assign(rows, -std::numeric_limits<double>::infinity());
    r.max.assign(rows, -std::numeric_limits<double>::infinity());
    r.sum_exp.assign(rows, 0);
    r.row.assign(rows, false);
    double const sc = scale_of(c);
    for (int64_t bi = 0; bi < c.b; ++bi)
        for (int64_t h = 0; h < c.hq; ++h) {
            int64_t const hk = h / (c.hq / c.hk), hv = h / (c.hq / c.hv);
            for (int64_t i = 0; i < c.sq; ++i) {
                size_t const row = static_cast<size_t>((bi * c.hq + h) * c.sq + i);
                std::vector<double> s(c.skv, -std::numeric_limits<double>::infinity());
                double m = -std::numeric_limits<double>::infinity();
                for (int64_t j = 0; j < c.skv; ++j) {
                    if (!visible(c, bi, i, j)) continue;
                    double dot = 0;
                    for (int64_t e = 0; e < c.d; ++e) dot += double(Q(bi, h, i, e)) * K(bi, hk, j, e);
                    s[j] = sc * dot;
                    if (B) s[j] += (*B)(B->dim[0] == 1 ? 0 : bi, B->dim[1] == 1 ? 0 : h, i, j);
                    if (c.alibi) s[j] += alibi_slope(h, c.hq) * double(j - i);  // positions in the padded scores
                    m = std::max(m, s[j]);
                }
                if (m == -std::numeric_limits<double>::infinity()) continue;  // padded row
                r.row[row] = true;
                double l = 0;
                for (int64_t j = 0; j < c.skv; ++j) l += std::exp(s[j] - m);
                r.lse[row]     = m + std::log(l);
                r.max[row]     = m;
                r.sum_exp[row] = l;
                for (int64_t j = 0; j < c.skv; ++j) {
                    double const p = std::exp(s[j] - m) / l;
                    r.P[row * c.skv + j] = p;
                    for (int64_t e = 0; e < c.dv; ++e) r.O[row * c.dv + e] += p * V(bi, hv, j, e);
                }
            }
        }
    return r;
}

// rows_only keeps the valid rows' elements of a [rows, width] array (cuDNN leaves padded rows
// undefined, so they are not compared).
template <typename X>
std::vector<X>
rows_only(std::vector<X> const& a, std::vector<bool> const& row, size_t width) {
    std::vector<X> out;
    for (size_t r = 0; r < row.size(); ++r)
        if (row[r]) out.insert(out.end(), a.begin() + r * width, a.begin() + (r + 1) * width);
    return out;
}

// packed_of reads a [b, h, s, d] tensor in its layout into packed order.
std::vector<float>
packed_of(T4 const& t) {
    std::vector<float> out;
    for (int64_t a = 0; a < t.dim[0]; ++a)
        for (int64_t b = 0; b < t.dim[1]; ++b)
            for (int64_t c = 0; c < t.dim[2]; ++c)
                for (int64_t d = 0; d < t.dim[3]; ++d) out.push_back(t(a, b, c, d));
    return out;
}

// Inputs holds a case's tensors and graph inputs.
struct Inputs {
    T4 Q, K, V, B;
    TP q, k, v, bias, scale, seq_q, seq_kv;
    float scale_value = kScale;
    std::vector<int32_t> sq, skv;
};

Inputs
inputs(Graph& g, Case const& c, unsigned seed) {
    Inputs in;
    in.Q = make({c.b, c.hq, c.sq, c.d}, c.bs, seed);
    in.K = make({c.b, c.hk, c.skv, c.d}, c.bs, seed + 1);
    in.V = make({c.b, c.hv, c.skv, c.dv}, c.bs, seed + 2);
    in.q = input(g, "Q", in.Q);
    in.k = input(g, "K", in.K);
    in.v = input(g, "V", in.V);
    if (c.bias) {
        in.B    = make({c.bias_bcast ? 1 : c.b, c.bias_bcast ? 1 : c.hq, c.sq, c.skv}, false, seed + 3);
        in.bias = input(g, "Bias", in.B);
    }
    if (c.scale == Scale::Tensor)
        in.scale = g.tensor(Tensor_attributes()
                                .set_name("attn_scale")
                                .set_dim({1, 1, 1, 1})
                                .set_stride({1, 1, 1, 1})
                                .set_data_type(fe::DataType_t::FLOAT)
                                .set_is_pass_by_value(true));
    if (!c.seq_q.empty()) {
        in.sq  = c.seq_q;
        in.skv = c.seq_kv;
        auto seq = [&](const char* n) {
            return g.tensor(Tensor_attributes().set_name(n).set_dim({c.b, 1, 1, 1}).set_stride({1, 1, 1, 1}).set_data_type(
                fe::DataType_t::INT32));
        };
        in.seq_q  = seq("seq_q");
        in.seq_kv = seq("seq_kv");
    }
    return in;
}

template <typename A>
void
configure(A& a, Case const& c, Inputs const& in) {
    if (c.scale == Scale::Value) a.set_attn_scale(kScale);
    if (c.scale == Scale::Tensor) a.set_attn_scale(in.scale);
    if (c.causal) a.set_causal_mask(true);
    if (c.bottom_right) a.set_causal_mask_bottom_right(true);
    if (c.window) a.set_sliding_window_length(*c.window);
    if (c.bias) a.set_bias(in.bias);
    if (c.alibi) a.set_alibi_mask(true);
    if (!c.seq_q.empty()) a.set_padding_mask(true).set_seq_len_q(in.seq_q).set_seq_len_kv(in.seq_kv);
}

void
bind_inputs(Binding& b, Inputs& in, Case const& c) {
    b[in.q] = in.Q.v.data();
    b[in.k] = in.K.v.data();
    b[in.v] = in.V.v.data();
    if (c.bias) b[in.bias] = in.B.v.data();
    if (in.scale) b[in.scale] = &in.scale_value;
    if (in.seq_q) {
        b[in.seq_q]  = in.sq.data();
        b[in.seq_kv] = in.skv.data();
    }
}

void
forward(Case const& c) {
    check_context = c.name;
    Graph g;
    g.set_io_data_type(fe::DataType_t::FLOAT)
        .set_intermediate_data_type(fe::DataType_t::FLOAT)
        .set_compute_data_type(fe::DataType_t::FLOAT);
    Inputs in = inputs(g, c, 100);
    auto a    = SDPA_attributes().set_name("attn").set_generate_stats(c.stats);
    configure(a, c, in);
    TP Mx, Se;  // upstream's forms: stats, or max and sum_exp (both given since cuDNN 9.21)
    if (c.max_sum) {
        Mx = std::make_shared<Tensor_attributes>();
        Se = std::make_shared<Tensor_attributes>();
        Mx->set_name("Max").set_output(true).set_data_type(fe::DataType_t::FLOAT);
        Se->set_name("Sum_exp").set_output(true).set_data_type(fe::DataType_t::FLOAT);
        a.set_logit_max(Mx).set_score_sum_exp(Se);
    }
    auto out = g.sdpa(in.q, in.k, in.v, a);
    auto O = out[0], S = out[1];
    O->set_output(true);
    CHECK(c.stats == (S != nullptr));
    if (S) S->set_output(true).set_data_type(fe::DataType_t::FLOAT);
    if (!st_build(g, c.name)) return;
    // Upstream's inference: O [b, h_q, s_q, d_v] in Q's stride order, Stats [b, h_q, s_q, 1].
    CHECK(O->get_dim() == (std::vector<int64_t>{c.b, c.hq, c.sq, c.dv}));
    CHECK(O->get_stride() == (c.bs ? bshd(O->get_dim()) : st_packed(O->get_dim())));
    if (S) {
        CHECK(S->get_dim() == (std::vector<int64_t>{c.b, c.hq, c.sq, 1}));
        CHECK(S->get_stride() == (std::vector<int64_t>{c.hq * c.sq, c.sq, 1, 1}));
    }
    for (TP const& t : {Mx, Se})
        if (t)
            CHECK(t->get_dim() == (std::vector<int64_t>{c.b, c.hq, c.sq, 1}) &&
                  t->get_stride() == (std::vector<int64_t>{c.hq * c.sq, c.sq, 1, 1}));
    Ref r = reference(c, in.Q, in.K, in.V, c.bias ? &in.B : nullptr);
    T4 o{O->get_dim(), O->get_stride(), std::vector<float>(r.O.size(), -7.f)};
    std::vector<float> stats(r.lse.size(), -7.f);
    Binding b{{O, o.v.data()}};
    if (S) b[S] = stats.data();
    std::vector<float> mx(r.lse.size(), -7.f), se(r.lse.size(), -7.f);
    if (Mx) {
        b[Mx] = mx.data();
        b[Se] = se.data();
    }
    bind_inputs(b, in, c);
    std::string const what = std::string("sdpa: ") + c.name;
    st_run_all(g, b, what.c_str(), [&](std::string const& e) {
        st_close("O", e, rows_only(packed_of(o), r.row, c.dv), rows_only(r.O, r.row, c.dv));
        if (S) st_close("Stats", e, rows_only(stats, r.row, 1), rows_only(r.lse, r.row, 1));
        if (Mx) {
            st_close("Max", e, rows_only(mx, r.row, 1), rows_only(r.max, r.row, 1));
            st_close("Sum_exp", e, rows_only(se, r.row, 1), rows_only(r.sum_exp, r.row, 1));
        }
        // Rows with no key to attend to (padding, empty key sets) are undefined upstream; hipDNN's
        // CPU engines write O = 0, Stats = Max = -inf, Sum_exp = 0 there.
        if (e != "HIPDNNGO_CPU_REFERENCE" && e != "HIPDNNGO_ONEDNN") return;
        std::vector<float> const po = packed_of(o);
        float const ninf = -std::numeric_limits<float>::infinity();
        for (size_t row = 0; row < r.row.size(); ++row) {
            if (r.row[row]) continue;
            bool zero = true;
            for (int64_t x = 0; x < c.dv; ++x) zero = zero && po[row * c.dv + x] == 0.f;
            CHECK(zero);
            if (S) CHECK(stats[row] == ninf);
            if (Mx) CHECK(mx[row] == ninf && se[row] == 0.f);
        }
    });
    check_context = nullptr;
}

void
backward(Case const& c) {
    check_context = c.name;
    Graph g;
    g.set_io_data_type(fe::DataType_t::FLOAT)
        .set_intermediate_data_type(fe::DataType_t::FLOAT)
        .set_compute_data_type(fe::DataType_t::FLOAT);
    Inputs in = inputs(g, c, 200);
    Ref r     = reference(c, in.Q, in.K, in.V, c.bias ? &in.B : nullptr);
    // O and Stats come from the double forward (rounded to float), dO is random.
    T4 O  = make({c.b, c.hq, c.sq, c.dv}, c.bs, 0);
    T4 dO = make({c.b, c.hq, c.sq, c.dv}, c.bs, 207);
    std::vector<float> lse(r.lse.size());
    for (int64_t bi = 0; bi < c.b; ++bi)
        for (int64_t h = 0; h < c.hq; ++h)
            for (int64_t i = 0; i < c.sq; ++i) {
                size_t const row = static_cast<size_t>((bi * c.hq + h) * c.sq + i);
                lse[row]         = static_cast<float>(r.lse[row]);
                for (int64_t e = 0; e < c.dv; ++e)
                    O.v[O.at(bi, h, i, e)] = r.row[row] ? static_cast<float>(r.O[row * c.dv + e]) : 0.f;
            }
    auto o      = input(g, "O", O);
    auto d_o    = input(g, "dO", dO);
    auto stats  = g.tensor(Tensor_attributes().set_name("Stats").set_dim({c.b, c.hq, c.sq, 1}).set_stride({c.hq * c.sq, c.sq, 1, 1}).set_data_type(fe::DataType_t::FLOAT));
    auto a      = SDPA_backward_attributes().set_name("attn_bwd");
    configure(a, c, in);
    std::shared_ptr<Tensor_attributes> dbias;
    if (c.dbias) {
        dbias = g.tensor(Tensor_attributes().set_name("dBias").set_dim(in.B.dim).set_stride(in.B.stride).set_data_type(
            fe::DataType_t::FLOAT));
        a.set_dbias(dbias);
        dbias->set_output(true);
    }
    auto grads = g.sdpa_backward(in.q, in.k, in.v, o, d_o, stats, a);
    for (auto& t : grads) t->set_output(true);
    if (!st_build(g, c.name)) return;
    CHECK(grads[0]->get_dim() == in.Q.dim && grads[0]->get_stride() == in.Q.stride);
    CHECK(grads[1]->get_dim() == in.K.dim && grads[1]->get_stride() == in.K.stride);
    CHECK(grads[2]->get_dim() == in.V.dim && grads[2]->get_stride() == in.V.stride);

    // The analytic gradients.
    double const sc = scale_of(c);
    std::vector<double> dq(in.Q.v.size(), 0), dk(in.K.v.size(), 0), dv(in.V.v.size(), 0);  // packed
    std::vector<double> db(c.dbias ? in.B.v.size() : 0, 0);                                  // packed
    auto pk = [&](std::vector<int64_t> const& d, int64_t a0, int64_t a1, int64_t a2, int64_t a3) {
        return static_cast<size_t>(((a0 * d[1] + a1) * d[2] + a2) * d[3] + a3);
    };
    for (int64_t bi = 0; bi < c.b; ++bi)
        for (int64_t h = 0; h < c.hq; ++h) {
            int64_t const hk = h / (c.hq / c.hk), hv = h / (c.hq / c.hv);
            for (int64_t i = 0; i < c.sq; ++i) {
                size_t const row = static_cast<size_t>((bi * c.hq + h) * c.sq + i);
                if (!r.row[row]) continue;
                double delta = 0;
                for (int64_t e = 0; e < c.dv; ++e) delta += double(dO(bi, h, i, e)) * O(bi, h, i, e);
                for (int64_t j = 0; j < c.skv; ++j) {
                    double const p = r.P[row * c.skv + j];
                    if (p == 0) continue;
                    double dp = 0;
                    for (int64_t e = 0; e < c.dv; ++e) {
                        dp += double(dO(bi, h, i, e)) * in.V(bi, hv, j, e);
                        dv[pk(in.V.dim, bi, hv, j, e)] += p * dO(bi, h, i, e);
                    }
                    double const ds = p * (dp - delta);
                    if (c.dbias) db[pk(in.B.dim, in.B.dim[0] == 1 ? 0 : bi, in.B.dim[1] == 1 ? 0 : h, i, j)] += ds;
                    for (int64_t e = 0; e < c.d; ++e) {
                        dq[pk(in.Q.dim, bi, h, i, e)] += sc * ds * in.K(bi, hk, j, e);
                        dk[pk(in.K.dim, bi, hk, j, e)] += sc * ds * in.Q(bi, h, i, e);
                    }
                }
            }
        }
    T4 gq{in.Q.dim, in.Q.stride, std::vector<float>(in.Q.v.size(), -7.f)};
    T4 gk{in.K.dim, in.K.stride, std::vector<float>(in.K.v.size(), -7.f)};
    T4 gv{in.V.dim, in.V.stride, std::vector<float>(in.V.v.size(), -7.f)};
    T4 gb{in.B.dim, in.B.stride, std::vector<float>(in.B.v.size(), -7.f)};
    Binding b{{o, O.v.data()}, {d_o, dO.v.data()}, {stats, lse.data()}, {grads[0], gq.v.data()},
              {grads[1], gk.v.data()}, {grads[2], gv.v.data()}};
    if (c.dbias) b[dbias] = gb.v.data();
    bind_inputs(b, in, c);
    // Padded query rows have no defined dQ upstream; compare the valid ones.
    std::vector<bool> qrow(static_cast<size_t>(c.b * c.hq * c.sq));
    for (size_t i = 0; i < qrow.size(); ++i) qrow[i] = r.row[i];
    std::string const what = std::string("sdpa_backward: ") + c.name;
    st_run_all(g, b, what.c_str(), [&](std::string const& e) {
        st_close("dQ", e, rows_only(packed_of(gq), qrow, c.d), rows_only(dq, qrow, c.d), 2e-4);
        st_close("dK", e, packed_of(gk), dk, 2e-4);
        st_close("dV", e, packed_of(gv), dv, 2e-4);
        if (c.dbias) st_close("dBias", e, packed_of(gb), db, 2e-4);  // every element: 0 where nothing is seen
    });
    check_context = nullptr;
}

std::vector<Case>
cases() {
    std::vector<Case> cs;
    Case c;
    c.name = "plain, stats";
    cs.push_back(c);
    c.name  = "no stats, no scale (upstream scales by 1)";
    c.stats = false;
    c.scale = Scale::None;
    cs.push_back(c);
    c       = Case();
    c.name  = "scale tensor, causal";
    c.scale = Scale::Tensor;
    c.causal = true;
    c.sq = c.skv = 6;
    cs.push_back(c);
    c              = Case();
    c.name         = "bottom-right causal, s_q < s_kv";
    c.bottom_right = true;
    cs.push_back(c);
    c        = Case();
    c.name   = "causal sliding window 3 (cuDNN counts the diagonal)";
    c.causal = true;
    c.window = 3;
    c.sq = c.skv = 7;
    cs.push_back(c);
    c       = Case();
    c.name  = "GQA h_q 4, h_k h_v 2, BSHD, d_v 4";
    c.hq    = 4;
    c.dv    = 4;
    c.bs    = true;
    c.stats = false;
    cs.push_back(c);
    c      = Case();
    c.name = "MQA h_q 4, h_k h_v 1, causal";
    c.hq   = 4;
    c.hk = c.hv = 1;
    c.causal    = true;
    c.sq = c.skv = 5;
    cs.push_back(c);
    c      = Case();
    c.name = "bias [b, h, s_q, s_kv]";
    c.bias = true;
    cs.push_back(c);
    c            = Case();
    c.name       = "bias [1, 1, s_q, s_kv], causal, no stats; backward dbias";
    c.bias       = true;
    c.dbias      = true;
    c.bias_bcast = true;
    c.causal     = true;
    c.stats      = false;
    c.sq = c.skv = 6;
    cs.push_back(c);
    c        = Case();
    c.name   = "padding: seq_len_q {3, 5}, seq_len_kv {7, 2}";
    c.seq_q  = {3, 5};
    c.seq_kv = {7, 2};
    cs.push_back(c);
    c        = Case();
    c.name   = "padding and causal";
    c.causal = true;
    c.seq_q  = {4, 5};
    c.seq_kv = {6, 5};
    cs.push_back(c);
    c        = Case();
    c.name   = "padding with an empty key set: seq_len_kv {0, 4}";
    c.seq_q  = {5, 2};
    c.seq_kv = {0, 4};
    cs.push_back(c);
    c         = Case();
    c.name    = "max and sum_exp instead of stats, causal, padding, bias";
    c.max_sum = true;
    c.stats   = false;
    c.causal  = true;
    c.bias    = true;
    c.seq_q   = {5, 3};
    c.seq_kv  = {7, 4};
    cs.push_back(c);
    c         = Case();
    c.name    = "stats, max and sum_exp";
    c.max_sum = true;
    cs.push_back(c);
    c        = Case();
    c.name   = "ALiBi, causal, 6 query heads over 2 (slopes past the power of two)";
    c.alibi  = true;
    c.causal = true;
    c.hq     = 6;
    c.sq = c.skv = 6;
    cs.push_back(c);
    c        = Case();
    c.name   = "ALiBi with bias, padding, causal, max and sum_exp (NVIDIA's max/sum-exp sample); backward dbias";
    c.alibi  = true;
    c.causal = true;
    c.bias   = true;
    c.dbias  = true;
    c.max_sum = true;
    c.stats  = false;
    c.hq = c.hk = c.hv = 4;
    c.seq_q  = {4, 5};
    c.seq_kv = {6, 5};
    cs.push_back(c);
    return cs;
}

// bf16 I/O (fp32 stats): the reference engine takes it; inputs are rounded to bf16 first, so the
// double reference sees what the engine sees, and O is checked to bf16's precision.
uint16_t
to_bf16(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    u += 0x7fffu + ((u >> 16) & 1u);  // round to nearest even
    return static_cast<uint16_t>(u >> 16);
}

float
from_bf16(uint16_t h) {
    uint32_t u = static_cast<uint32_t>(h) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

void
bf16_forward() {
    Case c;
    c.name   = "bf16 I/O, causal, stats";
    c.causal = true;
    c.sq = c.skv = 6;
    check_context = c.name;
    Graph g;
    g.set_io_data_type(fe::DataType_t::BFLOAT16)
        .set_intermediate_data_type(fe::DataType_t::FLOAT)
        .set_compute_data_type(fe::DataType_t::FLOAT);
    T4 Q = make({c.b, c.hq, c.sq, c.d}, false, 900), K = make({c.b, c.hk, c.skv, c.d}, false, 901),
       V = make({c.b, c.hv, c.skv, c.dv}, false, 902);
    std::vector<std::vector<uint16_t>> h(3);
    T4* ts[] = {&Q, &K, &V};
    for (int i = 0; i < 3; ++i)
        for (auto& x : ts[i]->v) {
            h[i].push_back(to_bf16(x));
            x = from_bf16(h[i].back());
        }
    auto bt = [&](const char* n, T4 const& t) {
        return g.tensor(Tensor_attributes().set_name(n).set_dim(t.dim).set_stride(t.stride));  // io type
    };
    auto q = bt("Q", Q), k = bt("K", K), v = bt("V", V);
    auto out = g.sdpa(q, k, v, SDPA_attributes().set_attn_scale(kScale).set_causal_mask(true).set_generate_stats(true));
    out[0]->set_output(true);
    out[1]->set_output(true).set_data_type(fe::DataType_t::FLOAT);
    if (!st_build(g, c.name)) return;
    CHECK(out[0]->get_data_type() == fe::DataType_t::BFLOAT16);
    Ref r = reference(c, Q, K, V, nullptr);
    std::vector<uint16_t> o(r.O.size());
    std::vector<float> stats(r.lse.size());
    Binding b{{q, h[0].data()}, {k, h[1].data()}, {v, h[2].data()}, {out[0], o.data()}, {out[1], stats.data()}};
    st_run_all(g, b, "sdpa: bf16 I/O, causal, stats", [&](std::string const& e) {
        std::vector<float> of;
        for (auto x : o) of.push_back(from_bf16(x));
        st_close("O (bf16)", e, of, r.O, 1e-2);
        st_close("Stats", e, stats, r.lse, 1e-4);
    });
    check_context = nullptr;
}

// The deprecated alias forwards to sdpa; set_is_inference(false) asks for stats.
void
deprecated_alias() {
    check_context = "scaled_dot_product_flash_attention";
    Case c;
    c.name = "scaled_dot_product_flash_attention";
    Graph g;
    g.set_io_data_type(fe::DataType_t::FLOAT).set_intermediate_data_type(fe::DataType_t::FLOAT).set_compute_data_type(fe::DataType_t::FLOAT);
    Inputs in = inputs(g, c, 300);
    auto a    = SDPA_attributes().set_attn_scale(kScale);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    a.set_is_inference(false);
    auto out = g.scaled_dot_product_flash_attention(in.q, in.k, in.v, a);
#pragma GCC diagnostic pop
    CHECK(out[1] != nullptr);
    out[0]->set_output(true);
    out[1]->set_output(true);
    if (!st_build(g, c.name)) return;
    Ref r = reference(c, in.Q, in.K, in.V, nullptr);
    std::vector<float> o(r.O.size()), s(r.lse.size());
    Binding b{{out[0], o.data()}, {out[1], s.data()}};
    bind_inputs(b, in, c);
    st_run_all(g, b, c.name, [&](std::string const& e) {
        st_close("O", e, o, r.O);
        st_close("Stats", e, s, r.lse);
    });
    check_context = nullptr;
}

// Paged K/V caches: K and V live in blocks of a container; page tables map (batch, page) to a
// block. Lowered with the maximum KV length; run and checked where an engine takes them.
void
paged() {
    check_context = "paged caches";
    int64_t const b = 2, h = 2, sq = 3, d = 8, bs = 4, pages = 2, blocks = 5, skv = bs * pages;
    Graph g;
    g.set_io_data_type(fe::DataType_t::FLOAT).set_intermediate_data_type(fe::DataType_t::FLOAT).set_compute_data_type(fe::DataType_t::FLOAT);
    T4 Q = make({b, h, sq, d}, false, 400), Kc = make({blocks, h, bs, d}, false, 401), Vc = make({blocks, h, bs, d}, false, 402);
    auto q = input(g, "Q", Q), kc = input(g, "K_container", Kc), vc = input(g, "V_container", Vc);
    auto i32 = [&](const char* n, std::vector<int64_t> dim) {
        return g.tensor(Tensor_attributes().set_name(n).set_dim(dim).set_stride(st_packed(dim)).set_data_type(fe::DataType_t::INT32));
    };
    auto tk = i32("page_table_k", {b, 1, pages, 1}), tv = i32("page_table_v", {b, 1, pages, 1});
    auto sql = i32("seq_q", {b, 1, 1, 1}), skl = i32("seq_kv", {b, 1, 1, 1});
    auto a = SDPA_attributes()
                 .set_attn_scale(kScale)
                 .set_padding_mask(true)
                 .set_seq_len_q(sql)
                 .set_seq_len_kv(skl)
                 .set_paged_attention_k_table(tk)
                 .set_paged_attention_v_table(tv)
                 .set_paged_attention_max_seq_len_kv(static_cast<int>(skv));
    auto out = g.sdpa(q, kc, vc, a);
    out[0]->set_output(true);
    CHECK_FE_OK(g.validate());
    CHECK(out[0]->get_dim() == (std::vector<int64_t>{b, h, sq, d}));
    CHECK_FE_OK(g.build_operation_graph(st_handle()));
    auto e = g.create_execution_plans({fe::HeurMode_t::A});
    if (e.is_good()) e = g.check_support(st_handle());
    if (e.is_bad()) {
        std::printf("paged caches: lowered; no CPU engine runs them (%s)\n", e.err_msg.c_str());
        check_context = nullptr;
        return;
    }
    CHECK_FE_OK(g.build_plans(st_handle(), fe::BuildPlanPolicy_t::ALL));
    std::vector<int32_t> ptk = {3, 0, 4, 1}, ptv = {1, 2, 0, 3}, vsq = {3, 2}, vskv = {8, 5};
    // The logical K and V the tables describe, then the dense reference.
    Case c;
    c.name = "paged";
    c.b = b, c.hq = c.hk = c.hv = h, c.sq = sq, c.skv = skv, c.d = c.dv = d;
    c.seq_q  = vsq;
    c.seq_kv = vskv;
    T4 K = make({b, h, skv, d}, false, 0), V = make({b, h, skv, d}, false, 0);
    for (int64_t bi = 0; bi < b; ++bi)
        for (int64_t hh = 0; hh < h; ++hh)
            for (int64_t j = 0; j < skv; ++j)
                for (int64_t x = 0; x < d; ++x) {
                    K.v[K.at(bi, hh, j, x)] = Kc(ptk[bi * pages + j / bs], hh, j % bs, x);
                    V.v[V.at(bi, hh, j, x)] = Vc(ptv[bi * pages + j / bs], hh, j % bs, x);
                }
    Ref r = reference(c, Q, K, V, nullptr);
    std::vector<float> o(r.O.size());
    Binding bd{{q, Q.v.data()}, {kc, Kc.v.data()}, {vc, Vc.v.data()}, {tk, ptk.data()}, {tv, ptv.data()},
               {sql, vsq.data()}, {skl, vskv.data()}, {out[0], o.data()}};
    st_run_all(g, bd, "paged caches", [&](std::string const& en) {
        st_close("O", en, rows_only(o, r.row, d), rows_only(r.O, r.row, d));
    });
    check_context = nullptr;
}

// lowers: what hipDNN's descriptors express, but this test does not check numerically (dropout,
// which no CPU engine runs; sink tokens, checked in the reference engine's own tests), still
// lowers to one SDPA operation.
void
lowers() {
    struct L {
        const char* name;
        std::function<void(Graph&, SDPA_attributes&, TP)> set;
    };
    std::vector<L> ls = {
        {"dropout (probability, seed, offset) with an RNG dump",
         [](Graph& g, SDPA_attributes& a, TP) {
             auto seed = g.tensor(Tensor_attributes().set_name("seed").set_dim({1, 1, 1, 1}).set_stride({1, 1, 1, 1}).set_data_type(fe::DataType_t::INT64));
             auto off  = g.tensor(Tensor_attributes().set_name("offset").set_dim({1, 1, 1, 1}).set_stride({1, 1, 1, 1}).set_data_type(fe::DataType_t::INT64));
             auto dump = std::make_shared<Tensor_attributes>();
             dump->set_name("rng_dump").set_output(true).set_data_type(fe::DataType_t::FLOAT);
             a.set_dropout(0.25f, seed, off).set_rng_dump(dump);
         }},
        {"dropout (mask, scale)",
         [](Graph& g, SDPA_attributes& a, TP) {
             auto mask  = g.tensor(Tensor_attributes().set_name("mask").set_dim({2, 2, 5, 7}).set_stride({70, 35, 7, 1}).set_data_type(fe::DataType_t::FLOAT));
             auto scale = g.tensor(Tensor_attributes(1.25f));
             a.set_dropout(mask, scale);
         }},
        {"sink token",
         [](Graph& g, SDPA_attributes& a, TP) {
             a.set_sink_token(g.tensor(Tensor_attributes().set_name("sink").set_dim({1, 2, 1, 1}).set_stride({2, 1, 1, 1}).set_data_type(fe::DataType_t::FLOAT)));
         }},
        {"implementation COMPOSITE",
         [](Graph&, SDPA_attributes& a, TP) { a.set_implementation(fe::AttentionImplementation_t::COMPOSITE); }},
    };
    for (auto const& l : ls) {
        check_context = l.name;
        Graph g;
        g.set_io_data_type(fe::DataType_t::FLOAT).set_intermediate_data_type(fe::DataType_t::FLOAT).set_compute_data_type(fe::DataType_t::FLOAT);
        Case c;
        Inputs in = inputs(g, c, 500);
        auto a    = SDPA_attributes().set_name("lw").set_attn_scale(kScale);
        l.set(g, a, in.q);
        auto out = g.sdpa(in.q, in.k, in.v, a);
        out[0]->set_output(true);
        CHECK_FE_OK(g.validate());
        CHECK_FE_OK(g.build_operation_graph(st_handle()));
        auto e = g.create_execution_plans({fe::HeurMode_t::A});
        if (e.is_good()) e = g.check_support(st_handle());
        std::printf("%s: lowered; %s\n", l.name, e.is_good() ? "a CPU engine takes it" : e.err_msg.c_str());
        // No CPU engine has Philox dropout or a dropout mask: the message gives each engine's reason.
        if (std::string(l.name).rfind("dropout", 0) == 0)
            CHECK(e.is_bad() && e.get_code() == EC::HEURISTIC_QUERY_FAILED &&
                  e.err_msg.find("create_execution_plans: no engine applies to the graph: ") != std::string::npos &&
                  e.err_msg.find(std::string(l.name).find("RNG") != std::string::npos ? "hipdnngo_cpu_reference: node 0 ('lw', Sdpa): an rng_dump output is not supported"
                                                                       : "hipdnngo_cpu_reference: node 0 ('lw', Sdpa): a dropout mask tensor is not supported") != std::string::npos &&
                  (!st_engine_loaded("HIPDNNGO_ONEDNN") ||
                   e.err_msg.find("hipdnngo_onednn: node 0 ('lw'): SDPA with") != std::string::npos));
    }
    // sdpa_fp8 with per-tensor descales and scales: the six scalars and both amax outputs go to
    // the forward operation (no CPU engine has FP8; the cuDNN engine runs it).
    {
        check_context = "sdpa_fp8";
        Graph g;
        g.set_io_data_type(fe::DataType_t::FP8_E4M3).set_intermediate_data_type(fe::DataType_t::FLOAT).set_compute_data_type(fe::DataType_t::FLOAT);
        auto t = [&](const char* n, std::vector<int64_t> d, fe::DataType_t dt) {
            return g.tensor(Tensor_attributes().set_name(n).set_dim(d).set_stride(st_packed(d)).set_data_type(dt));
        };
        auto q = t("Q", {2, 2, 5, 16}, fe::DataType_t::FP8_E4M3), k = t("K", {2, 2, 7, 16}, fe::DataType_t::FP8_E4M3),
             v = t("V", {2, 2, 7, 16}, fe::DataType_t::FP8_E4M3);
        std::vector<TP> sc;
        for (const char* n : {"descale_q", "descale_k", "descale_v", "descale_s", "scale_s", "scale_o"})
            sc.push_back(t(n, {1, 1, 1, 1}, fe::DataType_t::FLOAT));
        auto out = g.sdpa_fp8(q, k, v, sc[0], sc[1], sc[2], sc[3], sc[4], sc[5],
                              fe::graph::SDPA_fp8_attributes().set_name("f8").set_attn_scale(kScale).set_generate_stats(true).set_causal_mask(true));
        out[0]->set_output(true);
        out[1]->set_output(true).set_data_type(fe::DataType_t::FLOAT);
        for (int i : {2, 3}) out[i]->set_output(true).set_data_type(fe::DataType_t::FLOAT);
        CHECK_FE_OK(g.validate());
        CHECK(out[0]->get_dim() == (std::vector<int64_t>{2, 2, 5, 16}));
        CHECK(out[2]->get_dim() == (std::vector<int64_t>{1, 1, 1, 1}) && out[3]->get_dim() == (std::vector<int64_t>{1, 1, 1, 1}));
        CHECK_FE_OK(g.build_operation_graph(st_handle()));
        auto e = g.create_execution_plans({fe::HeurMode_t::A});
        std::printf("sdpa_fp8: lowered; %s\n", e.is_good() ? "an engine takes it" : e.err_msg.c_str());
    }
    // Inferred shapes of the extra outputs.
    {
        check_context = "inferred RNG dump and max shapes";
        Graph g;
        g.set_io_data_type(fe::DataType_t::FLOAT).set_intermediate_data_type(fe::DataType_t::FLOAT);
        Case c;
        Inputs in = inputs(g, c, 600);
        auto seed = g.tensor(Tensor_attributes(int64_t{1}));
        auto off  = g.tensor(Tensor_attributes(int64_t{2}));
        auto dump = std::make_shared<Tensor_attributes>(), mx = std::make_shared<Tensor_attributes>();
        auto a    = SDPA_attributes().set_dropout(0.1f, seed, off).set_rng_dump(dump).set_logit_max(mx);
        (void)g.sdpa(in.q, in.k, in.v, a);
        CHECK_FE_OK(g.validate());
        CHECK(dump->get_dim() == (std::vector<int64_t>{c.b, c.hq, c.sq, c.skv}));
        CHECK(mx->get_dim() == (std::vector<int64_t>{c.b, c.hq, c.sq, 1}));
    }
    check_context = nullptr;
}

// ragged: packed (THD) Q, K, V, O with ragged offsets lower to tensors that name their offsets
// tensor (HIPDNN_ATTR_TENSOR_RAGGED_OFFSET_DESC), which joins the variant pack.
void
ragged() {
    check_context = "ragged offsets";
    int64_t const b = 2, h = 2, s = 6, d = 8;
    for (bool bwd : {false, true}) {
        Graph g;
        g.set_io_data_type(fe::DataType_t::FLOAT).set_intermediate_data_type(fe::DataType_t::FLOAT).set_compute_data_type(fe::DataType_t::FLOAT);
        auto i32 = [&](const char* n, int64_t rows) {
            return g.tensor(Tensor_attributes().set_name(n).set_dim({rows, 1, 1, 1}).set_stride({1, 1, 1, 1}).set_data_type(fe::DataType_t::INT32));
        };
        auto off = i32("ragged_offsets", b + 1);
        auto packed = [&](const char* n) {
            return g.tensor(Tensor_attributes().set_name(n).set_dim({b, h, s, d}).set_stride({h * s * d, d, h * d, 1}).set_data_type(fe::DataType_t::FLOAT).set_ragged_offset(off));
        };
        auto q = packed("Q"), k = packed("K"), v = packed("V");
        auto sq = i32("seq_q", b), skv = i32("seq_kv", b);
        if (!bwd) {
            auto out = g.sdpa(q, k, v, SDPA_attributes().set_attn_scale(kScale).set_padding_mask(true).set_seq_len_q(sq).set_seq_len_kv(skv));
            out[0]->set_output(true).set_stride({h * s * d, d, h * d, 1}).set_ragged_offset(off);
        } else {
            auto o = packed("O"), dO = packed("dO");
            auto st = g.tensor(Tensor_attributes().set_name("Stats").set_dim({b, h, s, 1}).set_stride({h * s, s, 1, 1}).set_data_type(fe::DataType_t::FLOAT));
            auto gr = g.sdpa_backward(q, k, v, o, dO, st,
                                      SDPA_backward_attributes().set_padding_mask(true).set_seq_len_q(sq).set_seq_len_kv(skv).set_max_total_seq_len_q(b * s));
            for (auto& t : gr) t->set_output(true).set_ragged_offset(off);
        }
        CHECK_FE_OK(g.validate());
        CHECK_FE_OK(g.build_operation_graph(st_handle()));
        CHECK(off->get_uid() > 0);
        auto e = g.create_execution_plans({fe::HeurMode_t::A});
        std::printf("ragged %s: lowered; %s\n", bwd ? "sdpa_backward" : "sdpa", e.is_good() ? "an engine takes it" : e.err_msg.c_str());
    }
    {
        Graph g;
        auto off = g.tensor(Tensor_attributes().set_name("off").set_dim({3, 1, 1, 1}).set_stride({1, 1, 1, 1}).set_data_type(fe::DataType_t::INT32));
        auto q = g.tensor(Tensor_attributes().set_name("Q").set_dim({2, 2, 6, 8}).set_stride({96, 8, 16, 1}).set_data_type(fe::DataType_t::FLOAT).set_ragged_offset(off));
        (void)g.sdpa(q, q, q, SDPA_attributes().set_name("rg"));
        CHECK_FE_ERR(EC::GRAPH_NOT_SUPPORTED, "ragged offsets (set_ragged_offset) need set_padding_mask(true)", g.validate());
    }
    check_context = nullptr;
}

// errors: what hipDNN cannot express is refused by name; ill-formed attributes with upstream's
// codes.
void
errors() {
    struct E {
        EC code;
        const char* needle;
        std::function<void(Graph&, Inputs&)> add;
    };
    auto fwd = [](std::function<void(Graph&, Inputs&, SDPA_attributes&)> f) {
        return [f](Graph& g, Inputs& in) {
            auto a = SDPA_attributes().set_name("e");
            f(g, in, a);
            auto o = g.sdpa(in.q, in.k, in.v, a);
            o[0]->set_output(true);
        };
    };
    auto bwd = [](std::function<void(Graph&, Inputs&, SDPA_backward_attributes&)> f) {
        return [f](Graph& g, Inputs& in) {
            auto a = SDPA_backward_attributes().set_name("eb");
            f(g, in, a);
            auto O  = input(g, "O", make({2, 2, 5, 8}, false, 1));
            auto dO = input(g, "dO", make({2, 2, 5, 8}, false, 2));
            auto S  = input(g, "Stats", make({2, 2, 5, 1}, false, 3));
            (void)g.sdpa_backward(in.q, in.k, in.v, O, dO, S, a);
        };
    };
    auto sc = [](Graph& g) { return g.tensor(Tensor_attributes(0.5f)); };
    std::vector<E> es = {
        {EC::GRAPH_NOT_SUPPORTED, "set_score_mod", fwd([](Graph&, Inputs&, SDPA_attributes& a) {
             a.set_score_mod([](std::shared_ptr<Graph>, TP s) { return s; });
         })},
        {EC::GRAPH_NOT_SUPPORTED, "set_unfuse_fma", fwd([](Graph&, Inputs&, SDPA_attributes& a) { a.set_unfuse_fma(true); })},
        {EC::GRAPH_NOT_SUPPORTED, "_set_mma_core_mode(FLOAT)",
         fwd([](Graph&, Inputs&, SDPA_attributes& a) { a._set_mma_core_mode(fe::DataType_t::FLOAT); })},
        {EC::ATTRIBUTE_NOT_SET, "set_attn_scale was given both",
         fwd([sc](Graph& g, Inputs&, SDPA_attributes& a) { a.set_attn_scale(0.5f).set_attn_scale(sc(g)); })},
        {EC::ATTRIBUTE_NOT_SET, "set_padding_mask(true) needs both",
         fwd([](Graph&, Inputs&, SDPA_attributes& a) { a.set_padding_mask(true); })},
        {EC::ATTRIBUTE_NOT_SET, "used only with set_padding_mask",
         fwd([](Graph& g, Inputs&, SDPA_attributes& a) {
             a.set_seq_len_q(g.tensor(Tensor_attributes().set_name("sq").set_dim({2, 1, 1, 1}).set_stride({1, 1, 1, 1}).set_data_type(fe::DataType_t::INT32)));
         })},
        {EC::ATTRIBUTE_NOT_SET, "set_dropout(1.0",
         fwd([](Graph& g, Inputs&, SDPA_attributes& a) {
             a.set_dropout(1.0f, g.tensor(Tensor_attributes(int64_t{1})), g.tensor(Tensor_attributes(int64_t{2})));
         })},
        {EC::GRAPH_NOT_SUPPORTED, "set_sliding_window_length(0)",
         fwd([](Graph&, Inputs&, SDPA_attributes& a) { a.set_causal_mask(true).set_sliding_window_length(0); })},
        {EC::INVALID_VALUE, "set_diagonal_band_right_bound(-1)",
         fwd([](Graph&, Inputs&, SDPA_attributes& a) { a.set_diagonal_band_right_bound(-1); })},
        {EC::GRAPH_NOT_SUPPORTED, "set_alibi_mask(true) needs a causal mask",
         fwd([](Graph&, Inputs&, SDPA_attributes& a) { a.set_alibi_mask(true); })},
        {EC::GRAPH_NOT_SUPPORTED, "set_paged_attention_max_seq_len_kv is only used",
         fwd([](Graph&, Inputs&, SDPA_attributes& a) { a.set_paged_attention_max_seq_len_kv(16); })},
        {EC::GRAPH_NOT_SUPPORTED, "not a multiple of K's 3",
         [](Graph& g, Inputs& in) {
             auto k = input(g, "K3", make({2, 3, 7, 8}, false, 9)), v = input(g, "V3", make({2, 3, 7, 8}, false, 10));
             (void)g.sdpa(in.q, k, v, SDPA_attributes().set_name("e"));
         }},
        {EC::INVALID_VALUE, "O is [2,2,5,4]",
         [](Graph& g, Inputs& in) {
             auto o = g.sdpa(in.q, in.k, in.v, SDPA_attributes().set_name("e"));
             o[0]->set_dim({2, 2, 5, 4}).set_stride({40, 20, 4, 1});
             (void)g;
         }},
        {EC::ATTRIBUTE_NOT_SET, "attention tensors are 4-D",
         [](Graph& g, Inputs& in) {
             auto q3 = g.tensor(Tensor_attributes().set_name("Q3").set_dim({2, 5, 8}).set_stride({40, 8, 1}).set_data_type(fe::DataType_t::FLOAT));
             (void)g.sdpa(q3, in.k, in.v, SDPA_attributes().set_name("e"));
         }},
        {EC::GRAPH_NOT_SUPPORTED, "block-scaled (MXFP8)",
         [](Graph& g, Inputs& in) {
             auto ds = g.tensor(Tensor_attributes().set_name("sf").set_dim({2, 2, 128, 4}).set_stride({1024, 512, 4, 1}).set_data_type(fe::DataType_t::FP8_E8M0).set_reordering_type(fe::TensorReordering_t::F8_128x4));
             (void)g.sdpa_fp8(in.q, in.k, in.v, ds, ds, ds, fe::graph::SDPA_fp8_attributes().set_name("mx"));
         }},
        {EC::GRAPH_NOT_SUPPORTED, "needs sm_100 (Blackwell) or newer, as upstream; this device is sm_90",
         [](Graph& g, Inputs& in) {
             g.set_sm_version(90);
             auto ds = g.tensor(Tensor_attributes(1.0f));
             (void)g.sdpa_fp8(in.q, in.k, in.v, ds, ds, ds, ds, ds, ds,
                              fe::graph::SDPA_fp8_attributes().set_name("br").set_causal_mask_bottom_right(true));
         }},
        {EC::GRAPH_NOT_SUPPORTED, "set_score_mod_bprop", bwd([](Graph&, Inputs&, SDPA_backward_attributes& a) {
             a.set_score_mod_bprop([](std::shared_ptr<Graph>, TP s) { return s; });
         })},
        {EC::GRAPH_NOT_SUPPORTED, "set_sink_token", bwd([](Graph& g, Inputs&, SDPA_backward_attributes& a) {
             a.set_sink_token(g.tensor(Tensor_attributes().set_name("sink").set_dim({1, 2, 1, 1}).set_stride({2, 1, 1, 1}).set_data_type(fe::DataType_t::FLOAT)));
         })},
        {EC::GRAPH_NOT_SUPPORTED, "set_rng_dump", bwd([](Graph&, Inputs&, SDPA_backward_attributes& a) {
             a.set_rng_dump(std::make_shared<Tensor_attributes>());
         })},
        {EC::GRAPH_NOT_SUPPORTED, "set_max_total_seq_len_q/kv is only used with ragged",
         bwd([](Graph&, Inputs&, SDPA_backward_attributes& a) { a.set_max_total_seq_len_q(64); })},
        {EC::INVALID_VALUE, "the window must be > 0",
         bwd([](Graph&, Inputs&, SDPA_backward_attributes& a) { a.set_causal_mask(true).set_sliding_window_length(0); })},
        {EC::ATTRIBUTE_NOT_SET, "needs the scale_inv tensor",
         bwd([sc](Graph& g, Inputs&, SDPA_backward_attributes& a) {
             auto mask = g.tensor(Tensor_attributes().set_name("mask").set_dim({2, 2, 5, 7}).set_stride({70, 35, 7, 1}).set_data_type(fe::DataType_t::FLOAT));
             a.set_dropout(mask, sc(g), nullptr);
         })},
        {EC::ATTRIBUTE_NOT_SET, "set_dbias needs set_bias", bwd([](Graph&, Inputs&, SDPA_backward_attributes& a) {
             a.set_dbias(std::make_shared<Tensor_attributes>());
         })},
    };
    for (auto const& e : es) {
        check_context = e.needle;
        Graph g;
        g.set_io_data_type(fe::DataType_t::FLOAT).set_intermediate_data_type(fe::DataType_t::FLOAT).set_compute_data_type(fe::DataType_t::FLOAT);
        Case c;
        Inputs in = inputs(g, c, 700);
        e.add(g, in);
        CHECK_FE_ERR(e.code, e.needle, g.validate());
    }
    // The fp8 backward stays a Tier-2 stub: hipDNN's backward has no fp8 scales.
    check_context = "sdpa_fp8_backward";
    {
        Graph g;
        auto x = st_tensor(g, "X", {1, 2, 4, 8});
        (void)g.sdpa_fp8_backward(x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x,
                                  fe::graph::SDPA_fp8_backward_attributes().set_name("b8"));
        CHECK_FE_ERR(EC::GRAPH_NOT_SUPPORTED, "sdpa_fp8_backward 'b8': not supported: hipDNN's SDPA backward", g.validate());
        CHECK_FE_ERR(EC::GRAPH_NOT_SUPPORTED, "[Tier-2 stub]", g.validate());
    }
    check_context = nullptr;
}

// A deterministic backward deselects NONDETERMINISTIC configs and still runs.
void
deterministic() {
    Case c;
    c.name = "deterministic backward";
    check_context = c.name;
    Graph g;
    g.set_io_data_type(fe::DataType_t::FLOAT).set_intermediate_data_type(fe::DataType_t::FLOAT).set_compute_data_type(fe::DataType_t::FLOAT);
    Inputs in = inputs(g, c, 800);
    auto O = input(g, "O", make({2, 2, 5, 8}, false, 1)), dO = input(g, "dO", make({2, 2, 5, 8}, false, 2));
    auto S = input(g, "Stats", make({2, 2, 5, 1}, false, 3));
    auto a = SDPA_backward_attributes().set_attn_scale(kScale).set_deterministic_algorithm(true);
    auto gr = g.sdpa_backward(in.q, in.k, in.v, O, dO, S, a);
    for (auto& t : gr) t->set_output(true);
    (void)st_build(g, c.name);  // records a failure on the CPU build; the GPU build reports a decline
    check_context = nullptr;
}

}  // namespace

int
main() {
    for (auto const& c : cases()) {
        forward(c);
        backward(c);
    }
    bf16_forward();
    deprecated_alias();
    paged();
    lowers();
    ragged();
    errors();
    deterministic();
    return st_finish("test_shim_attention");
}
