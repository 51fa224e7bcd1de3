// mha_case.h - the attention cases the MHA driver runs, their inputs, their storage layouts (as
// PyTorch hands them to MHA.cpp) and a double-precision reference for the forward (O, logsumexp)
// and the backward (dQ, dK, dV).
//
// Values are kept "logically": a [b, h, s, d] array, packed, with s the longest sequence; in a
// nested (ragged) case only the first seq[bi] rows of each batch exist. A Layout maps a logical
// element to its place in storage: BHSD, BSHD (PyTorch's usual transposed view) or THD (nested).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace mha {

// ---- fp16 / bf16 storage (round to nearest even) ----
inline uint16_t
toBf16(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    u += 0x7fffu + ((u >> 16) & 1u);
    return static_cast<uint16_t>(u >> 16);
}
inline float
fromBf16(uint16_t h) {
    uint32_t u = static_cast<uint32_t>(h) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}
inline uint16_t
toHalf(float f) {  // finite inputs of modest range only (the test data)
    uint32_t u;
    std::memcpy(&u, &f, 4);
    uint32_t const sign = (u >> 16) & 0x8000u;
    float a             = std::fabs(f);
    if (a < 6.103515625e-05f) {  // subnormal: multiples of 2^-24
        return static_cast<uint16_t>(sign | static_cast<uint32_t>(std::nearbyint(a * 16777216.0f)));
    }
    std::memcpy(&u, &a, 4);
    uint32_t const rest = u & 0x1fffu, keep = u >> 13;
    uint32_t r          = keep + ((rest > 0x1000u || (rest == 0x1000u && (keep & 1u))) ? 1u : 0u);
    r -= (112u << 10);  // rebias the exponent from 127 to 15
    return static_cast<uint16_t>(sign | r);
}
inline float
fromHalf(uint16_t h) {
    uint32_t const sign = (h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    float f;
    if (e == 0) {
        f = std::ldexp(static_cast<float>(m), -24);
        return sign ? -f : f;
    }
    uint32_t const u = sign | ((e + 112u) << 23) | (m << 13);
    std::memcpy(&f, &u, 4);
    return f;
}
inline uint16_t
toIo(float f, bool bf16) {
    return bf16 ? toBf16(f) : toHalf(f);
}
inline float
fromIo(uint16_t h, bool bf16) {
    return bf16 ? fromBf16(h) : fromHalf(h);
}
// eps: the spacing of the I/O type at 1.
inline double
ioEps(bool bf16) {
    return bf16 ? 1.0 / 128 : 1.0 / 1024;
}

struct Case {
    std::string name;
    bool bf16 = false, nested = false, causal = false, bias = false, bshd = false, stats = true, backward = false;
    bool padding = false;  // dense graphs with seq_len_q/kv and a padding mask (own graphs only)
    int64_t b = 2, hq = 4, hk = 4, hv = 4, sq = 16, skv = 16, d = 32, dv = 32;
    std::vector<int64_t> seq_q, seq_kv;  // nested / padding: lengths per batch
    double dropout = 0;                  // > 0: Philox dropout (seed 1234, offset 0)
    float scale    = 0.125f;

    int64_t lenQ(int64_t bi) const { return seq_q.empty() ? sq : seq_q[static_cast<size_t>(bi)]; }
    int64_t lenKv(int64_t bi) const { return seq_kv.empty() ? skv : seq_kv[static_cast<size_t>(bi)]; }
};

// Layout: where logical element (bi, h, i, e) of a [b, H, S, D] tensor is stored.
struct Layout {
    enum Kind { BHSD, BSHD, THD } kind = BHSD;
    int64_t b = 0, H = 0, S = 0, D = 0;
    std::vector<int64_t> cum;  // THD: first token of each batch, b + 1 entries

    size_t at(int64_t bi, int64_t h, int64_t i, int64_t e) const {
        switch (kind) {
            case BHSD: return static_cast<size_t>(((bi * H + h) * S + i) * D + e);
            case BSHD: return static_cast<size_t>(((bi * S + i) * H + h) * D + e);
            default: return static_cast<size_t>((cum[static_cast<size_t>(bi)] + i) * H * D + h * D + e);
        }
    }
    size_t elements() const { return static_cast<size_t>((kind == THD ? cum.back() : b * S) * H * D); }
    // The storage tensor PyTorch passes: [b, H, S, D] (a view for BSHD) or [T, H, D].
    std::vector<int64_t> sizes() const {
        if (kind == THD) return {cum.back(), H, D};
        return {b, H, S, D};
    }
    std::vector<int64_t> strides() const {
        if (kind == THD) return {H * D, D, 1};
        if (kind == BSHD) return {S * H * D, D, H * D, 1};
        return {H * S * D, S * D, D, 1};
    }
};

inline std::vector<int64_t>
cumulative(std::vector<int64_t> const& len) {
    std::vector<int64_t> c{0};
    for (auto l : len) c.push_back(c.back() + l);
    return c;
}

inline Layout
layoutOf(Case const& c, int64_t H, int64_t S, int64_t D, bool queryRows) {
    Layout l;
    l.kind = c.nested ? Layout::THD : c.bshd ? Layout::BSHD : Layout::BHSD;
    l.b = c.b, l.H = H, l.S = S, l.D = D;
    if (c.nested) l.cum = cumulative(queryRows ? c.seq_q : c.seq_kv);
    return l;
}

// Logical holds a packed [b, H, S, D] array of values already rounded to the I/O type.
struct Logical {
    int64_t b = 0, H = 0, S = 0, D = 0;
    std::vector<double> v;
    double operator()(int64_t bi, int64_t h, int64_t i, int64_t e) const {
        return v[static_cast<size_t>(((bi * H + h) * S + i) * D + e)];
    }
    double& operator()(int64_t bi, int64_t h, int64_t i, int64_t e) {
        return v[static_cast<size_t>(((bi * H + h) * S + i) * D + e)];
    }
};

inline Logical
randomLogical(int64_t b, int64_t H, int64_t S, int64_t D, unsigned seed, bool bf16, double lo = -1, double hi = 1) {
    Logical t{b, H, S, D, std::vector<double>(static_cast<size_t>(b * H * S * D))};
    std::mt19937 g(seed);
    std::uniform_real_distribution<float> u(static_cast<float>(lo), static_cast<float>(hi));
    for (auto& x : t.v) x = fromIo(toIo(u(g), bf16), bf16);
    return t;
}

// Ref: forward results per query row [b, hq, sq] (rows beyond a sequence are not valid).
struct Ref {
    Logical O;                       // [b, hq, sq, dv]
    std::vector<double> lse, P;      // lse [b*hq*sq], P [b*hq*sq*skv]
    std::vector<bool> row;           // valid (attending) rows
    Logical dQ, dK, dV;              // backward only
};

inline bool
visible(Case const& c, int64_t bi, int64_t i, int64_t j) {
    if (i >= c.lenQ(bi) || j >= c.lenKv(bi)) return false;
    return !(c.causal && j > i);  // cuDNN's causal mask is top-left aligned, as PyTorch's is_causal
}

// forward: softmax(scale * Q K^T + bias) V in double, with GQA head sharing.
inline Ref
forward(Case const& c, Logical const& Q, Logical const& K, Logical const& V, Logical const* B) {
    Ref r;
    r.O = Logical{c.b, c.hq, c.sq, c.dv, std::vector<double>(static_cast<size_t>(c.b * c.hq * c.sq * c.dv), 0)};
    size_t const rows = static_cast<size_t>(c.b * c.hq * c.sq);
    r.lse.assign(rows, 0);
    r.P.assign(rows * static_cast<size_t>(c.skv), 0);
    r.row.assign(rows, false);
    for (int64_t bi = 0; bi < c.b; ++bi)
        for (int64_t h = 0; h < c.hq; ++h)
            for (int64_t i = 0; i < c.sq; ++i) {
                size_t const row = static_cast<size_t>((bi * c.hq + h) * c.sq + i);
                int64_t const hk = h / (c.hq / c.hk), hv = h / (c.hq / c.hv);
                std::vector<double> s(static_cast<size_t>(c.skv), -std::numeric_limits<double>::infinity());
                double m = -std::numeric_limits<double>::infinity();
                for (int64_t j = 0; j < c.skv; ++j) {
                    if (!visible(c, bi, i, j)) continue;
                    double dot = 0;
                    for (int64_t e = 0; e < c.d; ++e) dot += Q(bi, h, i, e) * K(bi, hk, j, e);
                    double x = c.scale * dot;
                    if (B) x += (*B)(B->b == 1 ? 0 : bi, B->H == 1 ? 0 : h, i, j);
                    s[static_cast<size_t>(j)] = x;
                    m                         = std::max(m, x);
                }
                if (m == -std::numeric_limits<double>::infinity()) continue;
                r.row[row] = true;
                double l   = 0;
                for (auto x : s) l += std::exp(x - m);
                r.lse[row] = m + std::log(l);
                for (int64_t j = 0; j < c.skv; ++j) {
                    double const p = std::exp(s[static_cast<size_t>(j)] - m) / l;
                    r.P[row * static_cast<size_t>(c.skv) + static_cast<size_t>(j)] = p;
                    for (int64_t e = 0; e < c.dv; ++e) r.O(bi, h, i, e) += p * V(bi, hv, j, e);
                }
            }
    return r;
}

// backward: the analytic gradients given O (as stored, rounded) and dO; delta = rowsum(dO * O).
inline void
backward(Case const& c, Ref& r, Logical const& Q, Logical const& K, Logical const& V, Logical const& O,
         Logical const& dO) {
    r.dQ = Logical{c.b, c.hq, c.sq, c.d, std::vector<double>(Q.v.size(), 0)};
    r.dK = Logical{c.b, c.hk, c.skv, c.d, std::vector<double>(K.v.size(), 0)};
    r.dV = Logical{c.b, c.hv, c.skv, c.dv, std::vector<double>(V.v.size(), 0)};
    for (int64_t bi = 0; bi < c.b; ++bi)
        for (int64_t h = 0; h < c.hq; ++h) {
            int64_t const hk = h / (c.hq / c.hk), hv = h / (c.hq / c.hv);
            for (int64_t i = 0; i < c.sq; ++i) {
                size_t const row = static_cast<size_t>((bi * c.hq + h) * c.sq + i);
                if (!r.row[row]) continue;
                double delta = 0;
                for (int64_t e = 0; e < c.dv; ++e) delta += dO(bi, h, i, e) * O(bi, h, i, e);
                for (int64_t j = 0; j < c.skv; ++j) {
                    double const p = r.P[row * static_cast<size_t>(c.skv) + static_cast<size_t>(j)];
                    if (p == 0) continue;
                    double dp = 0;
                    for (int64_t e = 0; e < c.dv; ++e) {
                        dp += dO(bi, h, i, e) * V(bi, hv, j, e);
                        r.dV(bi, hv, j, e) += p * dO(bi, h, i, e);
                    }
                    double const ds = p * (dp - delta) * c.scale;
                    for (int64_t e = 0; e < c.d; ++e) {
                        r.dQ(bi, h, i, e) += ds * K(bi, hk, j, e);
                        r.dK(bi, hk, j, e) += ds * Q(bi, h, i, e);
                    }
                }
            }
        }
}

// rowValid: whether logical row (bi, h, i) of a [b, H, S, *] tensor exists in the case (nested or
// padded sequences end early; keys/values use the kv lengths).
inline bool
rowExists(Case const& c, int64_t bi, int64_t i, bool queryRows) {
    return i < (queryRows ? c.lenQ(bi) : c.lenKv(bi));
}

}  // namespace mha
