// SDPA tests: forward and backward against double-precision loops written here (their own mask
// rule, softmax and gradient formulas over logical indices), plus a finite-difference check of
// the backward against the forward in double.
//
// Cases: MHA, GQA 8:2, MQA 8:1, different K and V head counts, D != Dv; Sq < Skv and Sq > Skv;
// no mask, causal top-left and bottom-right, sliding windows (left/right bounds, both
// alignments), fully masked rows; additive bias in several broadcast shapes with -inf entries;
// seq_len_q / seq_len_kv padding (with bottom-right alignment following the per-batch lengths);
// stats as [B,H,Sq,1] and [B,H,Sq]; explicit scale (including 0.0) and the 1/√D default;
// layouts BHSD (packed), BSHD, SBHD and reversed-with-gaps; float, half, bfloat16, double.
//
// Tolerances: |got − exact| <= outRel·|exact| + accRel·scale.
//   outRel  one rounding of the output type (toleranceFor(type, 1)).
//   accRel  1e-13 when the kernel computes in double, 1e-5 in fp32 (float, half, bfloat16).
//   scale   why it is larger than a dot product's: the softmax turns an absolute score error δ
//           into a relative weight error δ, so the error of o is about 2·δ·Σ_j P_j·|v_j| plus
//           the Skv-term weighted sum's rounding. δ is the D-term dot-product error
//           (<= D·2^-24·|scale|·Σ_d|q_d·k_d|, D <= 64 here: <= 4e-6 of it) plus the rounding
//           of s − m. So for o: scale = (A + Skv)·Σ_j P_j·|v_j|, with
//           A = 1 + max_j(|scale|·Σ_d|q_d·k_jd| + |bias_j|) + max_j|s_j − m|.
//           For stats (m + log l): A + 1 (absolute). For the gradients: each dS term
//           P·(dP − Δ) carries P's relative error (A, with |stats| in place of |s − m|) and the
//           Dv-term dot products dP and Δ, summed over Skv (dQ) or the head group's rows (dK,
//           dV); the scale functions below add these magnitudes term by term.
//           A masking or indexing bug moves o by a whole key's weight (≥ ~1/Skv of Σ P|v|),
//           far above these bounds.
#include "TestSupport.hpp"

#include "kernels/Sdpa.hpp"

#include <hipdnn_plugin_sdk/helpers/Attention.hpp>

#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <optional>

using namespace cpuref_test;
namespace cr = hipdnngo::cpu_reference;

namespace
{

constexpr double kInf = std::numeric_limits<double>::infinity();

struct Problem
{
    Problem(std::string n, int64_t b, int64_t hq, int64_t hk, int64_t hv, int64_t sq, int64_t skv, int64_t d, int64_t dv)
        : name(std::move(n)), B(b), Hq(hq), Hk(hk), Hv(hv), Sq(sq), Skv(skv), D(d), Dv(dv)
    {
    }
    std::string name;
    int64_t B, Hq, Hk, Hv, Sq, Skv, D, Dv;
    int64_t left = -1, right = -1;
    bool bottomRight = false;
    Dims biasDims; // empty: no bias
    std::vector<int64_t> lensQ, lensKv; // empty: full lengths
    bool hasScale = false;
    double scale = 0.0;
    bool stats3 = false; // stats as [B,H,Sq] instead of [B,H,Sq,1]
    bool alibi = false;
};

// alibiSlope: cudnn-frontend's ALiBi slope of head h of hq, stated here in double: with n the
// largest power of two <= hq, 2^(-8(h + 1)/n) for h < n, else 2^(-8(h - n + 1/2)/n).
double alibiSlope(int64_t h, int64_t hq)
{
    int64_t n = 1;
    while(n * 2 <= hq)
        n *= 2;
    const double e = h < n ? static_cast<double>(h + 1) : static_cast<double>(h - n) + 0.5;
    return std::exp2(-8.0 * e / static_cast<double>(n));
}

Layout bhsdLayout(const std::string& name)
{
    if(name == "bshd")
        return {"bshd", {0, 2, 1, 3}, 0};
    if(name == "sbhd")
        return {"sbhd", {2, 0, 1, 3}, 0};
    if(name == "reversed+gap")
        return {"reversed+gap", {3, 2, 1, 0}, 3};
    return {"bhsd", {}, 0};
}

// Inputs of one problem in one dtype and layout.
struct Inputs
{
    Problem p;
    std::unique_ptr<Tensor> q, k, v, bias, lensQ, lensKv;
    double scale = 0;

    Inputs(const Problem& prob, DataType t, const Layout& layout, std::mt19937& rng) : p(prob)
    {
        q = std::make_unique<Tensor>(t, Dims{p.B, p.Hq, p.Sq, p.D}, layout);
        k = std::make_unique<Tensor>(t, Dims{p.B, p.Hk, p.Skv, p.D}, layout);
        v = std::make_unique<Tensor>(t, Dims{p.B, p.Hv, p.Skv, p.Dv}, layout);
        q->fillUniform(rng, -1, 1);
        k->fillUniform(rng, -1, 1);
        v->fillUniform(rng, -1, 1);
        if(!p.biasDims.empty())
        {
            bias = std::make_unique<Tensor>(t, p.biasDims);
            bias->fillUniform(rng, -2, 2);
            int n = 0; // some -inf entries: masking through the bias
            bias->forEachIndex([&](const Dims& i) {
                if(++n % 5 == 0)
                    bias->set(i, -kInf);
            });
        }
        if(!p.lensQ.empty())
        {
            lensQ = std::make_unique<Tensor>(DataType::Int32, Dims{p.B});
            for(int64_t b = 0; b < p.B; ++b)
                lensQ->set({b}, static_cast<double>(p.lensQ[static_cast<size_t>(b)]));
        }
        if(!p.lensKv.empty())
        {
            lensKv = std::make_unique<Tensor>(DataType::Int32, Dims{p.B});
            for(int64_t b = 0; b < p.B; ++b)
                lensKv->set({b}, static_cast<double>(p.lensKv[static_cast<size_t>(b)]));
        }
        scale = p.hasScale ? p.scale : 1.0 / std::sqrt(static_cast<double>(p.D));
    }

    int64_t sqLen(int64_t b) const { return p.lensQ.empty() ? p.Sq : p.lensQ[static_cast<size_t>(b)]; }
    int64_t skvLen(int64_t b) const { return p.lensKv.empty() ? p.Skv : p.lensKv[static_cast<size_t>(b)]; }

    // visible: the test's own statement of the band: signed distance of key j from row i's
    // diagonal, within [-left, right] (a negative bound is no limit on that side).
    bool visible(int64_t b, int64_t i, int64_t j) const
    {
        const int64_t sq = sqLen(b), skv = skvLen(b);
        if(i >= sq || j >= skv)
            return false;
        const int64_t diagonal = i + (p.bottomRight ? skv - sq : 0);
        const int64_t dist = j - diagonal;
        return (p.right < 0 || dist <= p.right) && (p.left < 0 || -dist <= p.left);
    }

    double biasAt(int64_t b, int64_t h, int64_t i, int64_t j) const
    {
        if(!bias)
            return 0.0;
        const int64_t full[4] = {b, h, i, j};
        Dims idx(p.biasDims.size());
        const size_t lead = 4 - p.biasDims.size();
        for(size_t a = 0; a < p.biasDims.size(); ++a)
            idx[a] = p.biasDims[a] == 1 ? 0 : full[lead + a];
        return bias->at(idx);
    }

    // The row's exact scores and magnitudes: s[j] (-inf if masked), and Σ_d|q·k|·|scale| + |bias|.
    void scores(int64_t b, int64_t h, int64_t i, std::vector<double>& s, std::vector<double>& mag) const
    {
        s.assign(static_cast<size_t>(p.Skv), -kInf);
        mag.assign(static_cast<size_t>(p.Skv), 0.0);
        const int64_t hk = h / (p.Hq / p.Hk);
        for(int64_t j = 0; j < p.Skv; ++j)
        {
            if(!visible(b, i, j))
                continue;
            double dot = 0, absDot = 0;
            for(int64_t d = 0; d < p.D; ++d)
            {
                dot += q->at({b, h, i, d}) * k->at({b, hk, j, d});
                absDot += std::fabs(q->at({b, h, i, d}) * k->at({b, hk, j, d}));
            }
            const double bj = biasAt(b, h, i, j);
            const double alibi = p.alibi ? alibiSlope(h, p.Hq) * static_cast<double>(j - i) : 0.0;
            s[static_cast<size_t>(j)] = scale * dot + bj + alibi;
            mag[static_cast<size_t>(j)] = std::fabs(scale) * absDot + (std::isinf(bj) ? 0.0 : std::fabs(bj)) + std::fabs(alibi);
        }
    }
};

// Forward reference for one row.
struct RowRef
{
    std::vector<double> P; // probabilities (0 where masked)
    std::vector<double> o; // [Dv]
    std::vector<double> oScale; // [Dv] tolerance magnitude
    double lse = -kInf;
    double max = -kInf, sumExp = 0; // the softmax's row max and sum of exp(s - max)
    double A = 1;
};

RowRef forwardRow(const Inputs& in, int64_t b, int64_t h, int64_t i)
{
    const Problem& p = in.p;
    RowRef r;
    r.P.assign(static_cast<size_t>(p.Skv), 0.0);
    r.o.assign(static_cast<size_t>(p.Dv), 0.0);
    r.oScale.assign(static_cast<size_t>(p.Dv), 0.0);
    std::vector<double> s, mag;
    in.scores(b, h, i, s, mag);
    double m = -kInf;
    for(double x : s)
        m = std::max(m, x);
    if(m == -kInf)
        return r; // fully masked: o = 0, lse = -inf
    double l = 0, maxMag = 0, maxSpread = 0;
    for(int64_t j = 0; j < p.Skv; ++j)
    {
        const double sj = s[static_cast<size_t>(j)];
        if(sj == -kInf)
            continue;
        l += std::exp(sj - m);
        maxMag = std::max(maxMag, mag[static_cast<size_t>(j)]);
        maxSpread = std::max(maxSpread, m - sj);
    }
    r.A = 1 + maxMag + maxSpread;
    const int64_t hv = h / (p.Hq / p.Hv);
    for(int64_t j = 0; j < p.Skv; ++j)
    {
        const double sj = s[static_cast<size_t>(j)];
        if(sj == -kInf)
            continue;
        const double pj = std::exp(sj - m) / l;
        r.P[static_cast<size_t>(j)] = pj;
        for(int64_t x = 0; x < p.Dv; ++x)
        {
            r.o[static_cast<size_t>(x)] += pj * in.v->at({b, hv, j, x});
            r.oScale[static_cast<size_t>(x)] += pj * std::fabs(in.v->at({b, hv, j, x}));
        }
    }
    for(double& x : r.oScale)
        x *= r.A + static_cast<double>(p.Skv);
    r.lse = m + std::log(l);
    r.max = m;
    r.sumExp = l;
    return r;
}

Tolerance tolFor(DataType out, bool doubleAcc)
{
    Tolerance t = toleranceFor(out, 1);
    t.accRel = doubleAcc ? 1e-13 : 1e-5;
    t.abs = out == DataType::Half ? 1e-7 : 1e-30;
    return t;
}

cr::SdpaParams paramsOf(const Problem& p)
{
    cr::SdpaParams prm;
    prm.hasScale = p.hasScale;
    prm.scale = p.scale;
    prm.mask.leftBound = p.left;
    prm.mask.rightBound = p.right;
    prm.mask.bottomRight = p.bottomRight;
    prm.alibi = p.alibi;
    return prm;
}

Dims statsDims(const Problem& p) { return p.stats3 ? Dims{p.B, p.Hq, p.Sq} : Dims{p.B, p.Hq, p.Sq, 1}; }

Dims statsIndex(const Problem& p, int64_t b, int64_t h, int64_t i) { return p.stats3 ? Dims{b, h, i} : Dims{b, h, i, 0}; }

std::vector<Problem> forwardProblems()
{
    std::vector<Problem> ps;
    auto add = [&](Problem p) { ps.push_back(std::move(p)); };
    add(Problem("mha", 2, 3, 3, 3, 5, 7, 8, 6));
    add(Problem("mha sq>skv", 1, 2, 2, 2, 7, 4, 5, 5));
    add(Problem("gqa 8:2", 1, 8, 2, 2, 4, 6, 8, 8));
    add(Problem("mqa 8:1", 2, 8, 1, 1, 3, 5, 4, 4));
    add(Problem("k heads 2, v heads 4", 1, 8, 2, 4, 3, 5, 6, 3));
    Problem p("causal top-left sq<skv", 2, 2, 2, 2, 5, 8, 8, 8);
    p.right = 0;
    add(p);
    p = Problem("causal top-left sq>skv", 1, 2, 1, 1, 8, 5, 8, 8);
    p.right = 0;
    add(p);
    p = Problem("causal bottom-right sq<skv", 2, 2, 2, 2, 5, 8, 8, 8);
    p.right = 0;
    p.bottomRight = true;
    add(p);
    p = Problem("causal bottom-right sq>skv (fully masked rows)", 1, 2, 2, 2, 8, 5, 8, 8);
    p.right = 0;
    p.bottomRight = true;
    add(p);
    p = Problem("window left 2 right 0 top-left", 1, 2, 2, 2, 9, 9, 8, 8);
    p.left = 2;
    p.right = 0;
    add(p);
    p = Problem("window left 3 right 1 bottom-right gqa", 1, 4, 2, 2, 6, 10, 8, 8);
    p.left = 3;
    p.right = 1;
    p.bottomRight = true;
    add(p);
    p = Problem("left bound only", 1, 2, 2, 2, 6, 6, 4, 4);
    p.left = 0;
    add(p);
    p = Problem("bias full", 2, 2, 2, 2, 4, 6, 8, 8);
    p.biasDims = {2, 2, 4, 6};
    add(p);
    p = Problem("bias [1,H,Sq,Skv] + causal", 2, 2, 1, 1, 4, 6, 8, 8);
    p.biasDims = {1, 2, 4, 6};
    p.right = 0;
    p.bottomRight = true;
    add(p);
    p = Problem("bias [Sq,Skv]", 1, 3, 3, 3, 5, 5, 4, 4);
    p.biasDims = {5, 5};
    add(p);
    p = Problem("bias [B,1,1,Skv]", 2, 2, 2, 2, 3, 7, 4, 4);
    p.biasDims = {2, 1, 1, 7};
    add(p);
    p = Problem("padding", 3, 2, 2, 2, 6, 7, 8, 8);
    p.lensQ = {6, 3, 0};
    p.lensKv = {7, 2, 5};
    add(p);
    p = Problem("padding + causal bottom-right + window", 2, 4, 2, 2, 6, 8, 8, 8);
    p.lensQ = {4, 6};
    p.lensKv = {7, 5};
    p.right = 0;
    p.left = 2;
    p.bottomRight = true;
    add(p);
    p = Problem("seq_len_kv only + stats rank 3", 2, 2, 2, 2, 4, 6, 4, 4);
    p.lensKv = {3, 6};
    p.stats3 = true;
    add(p);
    p = Problem("explicit scale 0.3", 1, 2, 2, 2, 4, 5, 16, 8);
    p.hasScale = true;
    p.scale = 0.3;
    add(p);
    p = Problem("explicit scale 0.0 (uniform weights)", 1, 2, 2, 2, 4, 5, 8, 8);
    p.hasScale = true;
    p.scale = 0.0;
    add(p);
    p = Problem("head dim 64", 1, 2, 2, 2, 3, 9, 64, 32);
    add(p);
    p = Problem("alibi + causal, 6 heads (slopes past the power of two)", 2, 6, 3, 3, 5, 7, 8, 8);
    p.alibi = true;
    p.right = 0;
    add(p);
    p = Problem("alibi + bias + padding, no band", 2, 4, 2, 2, 5, 6, 8, 8);
    p.alibi = true;
    p.biasDims = {1, 4, 5, 6};
    p.lensQ = {5, 3};
    p.lensKv = {6, 4};
    add(p);
    return ps;
}

} // namespace

CPUREF_TEST(sdpa_forward_masks_heads_layouts_types)
{
    std::mt19937 rng(301);
    const char* layouts[] = {"bhsd", "bshd", "sbhd", "reversed+gap"};
    int li = 0;
    for(const Problem& p : forwardProblems())
        for(DataType t : floatTypes())
        {
            const Layout layout = bhsdLayout(layouts[li++ % 4]);
            Inputs in(p, t, layout, rng);
            Tensor o(t, {p.B, p.Hq, p.Sq, p.Dv}, bhsdLayout(layouts[li % 4]));
            o.fillUniform(rng, 5, 6); // garbage that must be overwritten (padding rows too)
            const DataType statsType = t == DataType::Double ? DataType::Double : DataType::Float;
            Tensor stats(statsType, statsDims(p)), max(statsType, statsDims(p)), sumExp(statsType, statsDims(p));
            cr::SdpaForwardViews views{in.q->view, in.k->view, in.v->view, o.view};
            views.bias = in.bias ? &in.bias->view : nullptr;
            views.seqLenQ = in.lensQ ? &in.lensQ->view : nullptr;
            views.seqLenKv = in.lensKv ? &in.lensKv->view : nullptr;
            views.stats = &stats.view;
            views.max = &max.view;
            views.sumExp = &sumExp.view;
            cr::sdpaForward(views, paramsOf(p));

            const std::string what = "sdpa fwd '" + p.name + "'/" + cr::dataTypeName(t) + "/" + layout.name;
            std::map<Dims, RowRef> rows;
            auto row = [&](int64_t b, int64_t h, int64_t i) -> const RowRef& {
                const Dims key{b, h, i};
                auto it = rows.find(key);
                if(it == rows.end())
                    it = rows.emplace(key, forwardRow(in, b, h, i)).first;
                return it->second;
            };
            const bool dbl = t == DataType::Double;
            expectClose(
                what + " o", o, [&](const Dims& x) { return row(x[0], x[1], x[2]).o[static_cast<size_t>(x[3])]; },
                [&](const Dims& x) { return row(x[0], x[1], x[2]).oScale[static_cast<size_t>(x[3])]; }, tolFor(t, dbl));
            expectClose(
                what + " stats", stats, [&](const Dims& x) { return row(x[0], x[1], x[2]).lse; },
                [&](const Dims& x) { return row(x[0], x[1], x[2]).A + 1; }, tolFor(statsType, dbl));
            expectClose(
                what + " max", max, [&](const Dims& x) { return row(x[0], x[1], x[2]).max; },
                [&](const Dims& x) { return row(x[0], x[1], x[2]).A + 1; }, tolFor(statsType, dbl));
            expectClose(
                what + " sum_exp", sumExp, [&](const Dims& x) { return row(x[0], x[1], x[2]).sumExp; },
                [&](const Dims& x) { return row(x[0], x[1], x[2]).sumExp * (row(x[0], x[1], x[2]).A + 1); },
                tolFor(statsType, dbl));
        }
}

CPUREF_TEST(sdpa_alibi_slopes_are_cudnn_frontends)
{
    // 8 heads: 2^-1 .. 2^-8; 6 heads: n = 4 gives 2^-2, 2^-4, 2^-6, 2^-8, then 2^-1, 2^-3.
    const std::vector<float> eight = hipdnn_plugin_sdk::alibiSlopes(8), six = hipdnn_plugin_sdk::alibiSlopes(6);
    const std::vector<float> wantEight{0.5f, 0.25f, 0.125f, 0.0625f, 0.03125f, 0.015625f, 0.0078125f, 0.00390625f};
    const std::vector<float> wantSix{0.25f, 0.0625f, 0.015625f, 0.00390625f, 0.5f, 0.125f};
    CPUREF_CHECK(eight == wantEight, "alibi slopes for 8 heads");
    CPUREF_CHECK(six == wantSix, "alibi slopes for 6 heads");
    for(int64_t h = 0; h < 12; ++h)
        CPUREF_CHECK(std::fabs(hipdnn_plugin_sdk::alibiSlopes(12)[static_cast<size_t>(h)] - alibiSlope(h, 12)) <= 1e-7 * alibiSlope(h, 12),
                     "alibi slope of head " << h << " of 12");
}

namespace
{

// Backward reference: dQ, dK, dV and their tolerance magnitudes, from P = exp(s − stats) with
// the stats and O as stored (the kernel's defined inputs) and Δ = Σ dO·O.
struct GradRef
{
    std::map<Dims, double> dq, dk, dv, dqMag, dkMag, dvMag;
};

GradRef backwardRef(const Inputs& in, const Tensor& o, const Tensor& dO, const Tensor& stats)
{
    const Problem& p = in.p;
    GradRef g;
    const int64_t gk = p.Hq / p.Hk, gv = p.Hq / p.Hv;
    for(int64_t b = 0; b < p.B; ++b)
        for(int64_t h = 0; h < p.Hq; ++h)
            for(int64_t i = 0; i < p.Sq; ++i)
            {
                std::vector<double> s, mag;
                in.scores(b, h, i, s, mag);
                const double lse = stats.at(statsIndex(p, b, h, i));
                double delta = 0, deltaAbs = 0;
                for(int64_t x = 0; x < p.Dv; ++x)
                {
                    delta += dO.at({b, h, i, x}) * o.at({b, h, i, x});
                    deltaAbs += std::fabs(dO.at({b, h, i, x}) * o.at({b, h, i, x}));
                }
                double maxMag = 0;
                for(double m : mag)
                    maxMag = std::max(maxMag, m);
                const double A = 1 + maxMag + std::fabs(lse);
                for(int64_t j = 0; j < p.Skv; ++j)
                {
                    const double sj = s[static_cast<size_t>(j)];
                    if(sj == -kInf || lse == -kInf || i >= in.sqLen(b))
                        continue;
                    const double P = std::exp(sj - lse);
                    double dP = 0, dPAbs = 0;
                    for(int64_t x = 0; x < p.Dv; ++x)
                    {
                        dP += dO.at({b, h, i, x}) * in.v->at({b, h / gv, j, x});
                        dPAbs += std::fabs(dO.at({b, h, i, x}) * in.v->at({b, h / gv, j, x}));
                    }
                    const double dS = P * (dP - delta);
                    const double dSMag = P * (A * std::fabs(dP - delta) + dPAbs + deltaAbs) * (1 + static_cast<double>(p.Skv));
                    for(int64_t d = 0; d < p.D; ++d)
                    {
                        g.dq[{b, h, i, d}] += in.scale * dS * in.k->at({b, h / gk, j, d});
                        g.dqMag[{b, h, i, d}] += std::fabs(in.scale) * dSMag * std::fabs(in.k->at({b, h / gk, j, d}));
                        g.dk[{b, h / gk, j, d}] += in.scale * dS * in.q->at({b, h, i, d});
                        g.dkMag[{b, h / gk, j, d}] += std::fabs(in.scale) * dSMag * std::fabs(in.q->at({b, h, i, d}));
                    }
                    for(int64_t x = 0; x < p.Dv; ++x)
                    {
                        g.dv[{b, h / gv, j, x}] += P * dO.at({b, h, i, x});
                        g.dvMag[{b, h / gv, j, x}] += P * A * std::fabs(dO.at({b, h, i, x})) * (1 + static_cast<double>(p.Sq));
                    }
                }
            }
    return g;
}

double lookup(const std::map<Dims, double>& m, const Dims& i)
{
    const auto it = m.find(i);
    return it == m.end() ? 0.0 : it->second;
}

// forwardInto runs the kernel forward into o and stats.
void forwardInto(const Inputs& in, Tensor& o, Tensor& stats)
{
    cr::SdpaForwardViews views{in.q->view, in.k->view, in.v->view, o.view};
    views.bias = in.bias ? &in.bias->view : nullptr;
    views.seqLenQ = in.lensQ ? &in.lensQ->view : nullptr;
    views.seqLenKv = in.lensKv ? &in.lensKv->view : nullptr;
    views.stats = &stats.view;
    cr::sdpaForward(views, paramsOf(in.p));
}

struct Grads
{
    Tensor dq, dk, dv;
};

Grads backwardOf(const Inputs& in, const Tensor& o, const Tensor& dO, const Tensor& stats, DataType t, const Layout& layout)
{
    const Problem& p = in.p;
    Grads g{Tensor(t, {p.B, p.Hq, p.Sq, p.D}, layout), Tensor(t, {p.B, p.Hk, p.Skv, p.D}, layout),
            Tensor(t, {p.B, p.Hv, p.Skv, p.Dv}, layout)};
    cr::SdpaBackwardViews views{in.q->view, in.k->view, in.v->view, o.view, dO.view, stats.view, g.dq.view, g.dk.view, g.dv.view};
    views.bias = in.bias ? &in.bias->view : nullptr;
    views.seqLenQ = in.lensQ ? &in.lensQ->view : nullptr;
    views.seqLenKv = in.lensKv ? &in.lensKv->view : nullptr;
    cr::sdpaBackward(views, paramsOf(p));
    return g;
}

} // namespace

CPUREF_TEST(sdpa_backward_against_analytic_reference)
{
    std::mt19937 rng(302);
    std::vector<Problem> ps;
    for(const Problem& p : forwardProblems())
        if(p.D <= 16) // keep the double-loop reference quick
            ps.push_back(p);
    const char* layouts[] = {"bhsd", "bshd", "reversed+gap"};
    int li = 0;
    for(const Problem& p : ps)
        for(DataType t : floatTypes())
        {
            const Layout layout = bhsdLayout(layouts[li++ % 3]);
            Inputs in(p, t, layout, rng);
            const DataType statsType = t == DataType::Double ? DataType::Double : DataType::Float;
            Tensor o(t, {p.B, p.Hq, p.Sq, p.Dv}, layout), stats(statsType, statsDims(p)), dO(t, {p.B, p.Hq, p.Sq, p.Dv});
            forwardInto(in, o, stats);
            dO.fillUniform(rng, -1, 1);
            const Grads g = backwardOf(in, o, dO, stats, t, layout);
            const GradRef ref = backwardRef(in, o, dO, stats);
            const std::string what = "sdpa bwd '" + p.name + "'/" + cr::dataTypeName(t) + "/" + layout.name;
            const Tolerance tol = tolFor(t, t == DataType::Double);
            expectClose(
                what + " dQ", g.dq, [&](const Dims& i) { return lookup(ref.dq, i); },
                [&](const Dims& i) { return lookup(ref.dqMag, i); }, tol);
            expectClose(
                what + " dK", g.dk, [&](const Dims& i) { return lookup(ref.dk, i); },
                [&](const Dims& i) { return lookup(ref.dkMag, i); }, tol);
            expectClose(
                what + " dV", g.dv, [&](const Dims& i) { return lookup(ref.dv, i); },
                [&](const Dims& i) { return lookup(ref.dvMag, i); }, tol);
        }
}

CPUREF_TEST(sdpa_backward_matches_finite_differences_of_forward)
{
    // Loss L = Σ o·dO; the kernel backward must equal ∂L/∂{q,k,v} by central differences of the
    // kernel forward, all in double. Step h = 1e-5: truncation ~h²·|L'''| ≈ 1e-10, rounding
    // ~2^-53·|L|/h ≈ 1e-11; we allow 1e-7·(1 + |grad|).
    std::vector<Problem> ps;
    Problem p("gqa 4:2 + causal bottom-right + bias + padding", 2, 4, 2, 1, 3, 5, 3, 2);
    p.right = 0;
    p.bottomRight = true;
    p.biasDims = {1, 4, 3, 5};
    p.lensQ = {3, 2};
    p.lensKv = {5, 3};
    p.hasScale = true;
    p.scale = 0.7;
    ps.push_back(p);
    p = Problem("window top-left sq>skv, default scale", 1, 2, 1, 2, 5, 4, 4, 3);
    p.left = 1;
    p.right = 1;
    ps.push_back(p);
    std::mt19937 rng(303);
    for(const Problem& prob : ps)
    {
        Inputs in(prob, DataType::Double, {}, rng);
        Tensor o(DataType::Double, {prob.B, prob.Hq, prob.Sq, prob.Dv}), stats(DataType::Double, statsDims(prob)),
            dO(DataType::Double, {prob.B, prob.Hq, prob.Sq, prob.Dv});
        dO.fillUniform(rng, -1, 1);
        forwardInto(in, o, stats);
        const Grads g = backwardOf(in, o, dO, stats, DataType::Double, {});
        auto loss = [&] {
            Tensor o2(DataType::Double, {prob.B, prob.Hq, prob.Sq, prob.Dv}), s2(DataType::Double, statsDims(prob));
            forwardInto(in, o2, s2);
            double l = 0;
            o2.forEachIndex([&](const Dims& i) { l += o2.at(i) * dO.at(i); });
            return l;
        };
        const double h = 1e-5;
        auto check = [&](Tensor& input, const Tensor& grad, const char* name) {
            input.forEachIndex([&](const Dims& i) {
                const double x0 = input.at(i);
                input.set(i, x0 + h);
                const double up = loss();
                input.set(i, x0 - h);
                const double down = loss();
                input.set(i, x0);
                const double numeric = (up - down) / (2 * h), analytic = grad.at(i);
                CPUREF_CHECK(std::fabs(numeric - analytic) <= 1e-7 * (1 + std::fabs(analytic)),
                             prob.name << " d" << name << dimsString(i) << ": kernel " << analytic << " vs finite difference "
                                       << numeric);
            });
        };
        check(*in.q, g.dq, "Q");
        check(*in.k, g.dk, "K");
        check(*in.v, g.dv, "V");
    }
}

CPUREF_TEST(sdpa_rejects_bad_shapes_and_lengths)
{
    Tensor q(DataType::Float, {1, 3, 4, 8}), k(DataType::Float, {1, 2, 5, 8}), v(DataType::Float, {1, 2, 5, 8}),
        o(DataType::Float, {1, 3, 4, 8});
    cr::SdpaForwardViews bad{q.view, k.view, v.view, o.view};
    CPUREF_CHECK(!cr::checkSdpaForward(bad).empty(), "3 query heads over 2 key heads accepted");
    Tensor q2(DataType::Float, {1, 4, 4, 8}), o2(DataType::Float, {1, 4, 4, 8}), kd(DataType::Float, {1, 2, 5, 6});
    cr::SdpaForwardViews wrongD{q2.view, kd.view, v.view, o2.view};
    CPUREF_CHECK(!cr::checkSdpaForward(wrongD).empty(), "q/k head dims differ");
    cr::SdpaForwardViews ok{q2.view, k.view, v.view, o2.view};
    CPUREF_CHECK(cr::checkSdpaForward(ok).empty(), "valid GQA rejected: " << cr::checkSdpaForward(ok));
    Tensor bias(DataType::Float, {3, 5});
    ok.bias = &bias.view;
    CPUREF_CHECK(!cr::checkSdpaForward(ok).empty(), "bias [3,5] does not broadcast to [1,4,4,5]");
    ok.bias = nullptr;
    Tensor lensF(DataType::Float, {1});
    ok.seqLenQ = &lensF.view;
    CPUREF_CHECK(!cr::checkSdpaForward(ok).empty(), "float seq_len accepted");
    Tensor lens(DataType::Int32, {1});
    lens.set({0}, 9); // > Sq
    ok.seqLenQ = &lens.view;
    bool threw = false;
    try
    {
        cr::sdpaForward(ok, {});
    }
    catch(const cr::KernelError&)
    {
        threw = true;
    }
    CPUREF_CHECK(threw, "seq_len_q 9 > Sq 4 must fail at execute");
}
