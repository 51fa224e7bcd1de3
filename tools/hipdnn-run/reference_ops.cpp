// Reference ops: convolution (fwd, bwd data, bwd filter), matmul, pointwise, reduction,
// batchnorm inference, resample (pooling) forward and backward. Normalizations with statistics live in
// reference_norm.cpp, SDPA in reference_sdpa.cpp.
// Written from the op definitions (cuDNN / hipDNN semantics), in double, with the error
// estimate described in reference.hpp. Nothing here is shared with any engine.
#include "reference_ops.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace hdrun
{

namespace
{

constexpr double kInf = std::numeric_limits<double>::infinity();

double sumTol(double u, double terms, double absSum) { return kSumFactor * std::sqrt(std::max(terms, 1.0)) * u * absSum; }

int64_t product(const std::vector<int64_t>& v, size_t from = 0, size_t to = SIZE_MAX)
{
    int64_t p = 1;
    for(size_t i = from; i < v.size() && i < to; ++i)
    {
        p *= v[i];
    }
    return p;
}

std::string missing(const char* role) { return std::string("no reference: required tensor ") + role + " is missing"; }

// ------------------------------------------------------------------------------------------
// Convolution geometry shared by the three directions.

struct ConvGeom
{
    int64_t N = 0, C = 0, K = 0, G = 1, Cg = 0, Kg = 0;
    int64_t Sin = 1, R = 1, O = 1; // flattened spatial sizes: input, filter, output
    std::vector<int64_t> tab; // [O][R]: flat input position read by output o at tap r, or -1
    bool flip = false; // CONVOLUTION mode: the filter is applied mirrored
    int64_t tap(int64_t r) const { return flip ? R - 1 - r : r; }
};

std::string convGeometry(OpContext& c, const std::vector<int64_t>& x, const std::vector<int64_t>& w,
                         const std::vector<int64_t>& y, ConvGeom* g)
{
    if(x.size() < 3 || w.size() != x.size() || y.size() != x.size())
    {
        return "no reference: convolution tensors must share a rank >= 3";
    }
    size_t nsp = x.size() - 2;
    g->N = x[0];
    g->C = x[1];
    g->K = w[0];
    g->Cg = w[1];
    if(y[0] != g->N || y[1] != g->K || g->Cg <= 0 || g->C % g->Cg != 0)
    {
        return "no reference: convolution shapes are inconsistent (x " + dimsText(x) + ", w " + dimsText(w) + ", y " + dimsText(y)
               + ")";
    }
    g->G = g->C / g->Cg;
    if(g->K % g->G != 0)
    {
        return "no reference: output channels not divisible by the group count";
    }
    g->Kg = g->K / g->G;
    std::string mode = c.node.str("conv_mode");
    if(mode == "CONVOLUTION")
    {
        g->flip = true;
    }
    else if(mode != "CROSS_CORRELATION")
    {
        return "no reference: conv_mode " + (mode.empty() ? std::string("unset") : mode);
    }
    std::vector<int64_t> pre = c.node.ints("pre_padding"), stride = c.node.ints("stride"), dil = c.node.ints("dilation");
    pre.resize(nsp, 0);
    stride.resize(nsp, 1);
    dil.resize(nsp, 1);
    std::vector<int64_t> in(x.begin() + 2, x.end()), filt(w.begin() + 2, w.end()), out(y.begin() + 2, y.end());
    g->Sin = product(in);
    g->R = product(filt);
    g->O = product(out);
    g->tab.assign(static_cast<size_t>(g->O * g->R), -1);
    std::vector<int64_t> inStr = denseStrides(in);
    forEachIndex(out, [&](const std::vector<int64_t>& o, int64_t ol) {
        forEachIndex(filt, [&](const std::vector<int64_t>& r, int64_t rl) {
            int64_t flat = 0;
            for(size_t d = 0; d < nsp; ++d)
            {
                int64_t i = o[d] * stride[d] - pre[d] + r[d] * dil[d];
                if(i < 0 || i >= in[d])
                {
                    return;
                }
                flat += i * inStr[d];
            }
            g->tab[static_cast<size_t>(ol * g->R + rl)] = flat;
        });
    });
    if(g->flip)
    {
        c.notes.push_back("CONVOLUTION mode (mirrored filter)");
    }
    if(g->G > 1)
    {
        c.notes.push_back(std::to_string(g->G) + " groups");
    }
    return "";
}

} // namespace

std::string refConvFwd(OpContext& c)
{
    const RefTensor* x = c.in(c.node.uid("x_tensor_uid"));
    const RefTensor* w = c.in(c.node.uid("w_tensor_uid"));
    const Tensor* yt = c.tensor(c.node.uid("y_tensor_uid"));
    if(!x || !w || !yt)
        return missing("x, w or y");
    ConvGeom g;
    std::string why = convGeometry(c, x->dims, w->dims, yt->dims, &g);
    if(!why.empty())
        return why;
    RefTensor* y = c.out(yt->uid);
    const bool err = !x->e.empty() || !w->e.empty();
    const double terms = static_cast<double>(g.Cg * g.R);
    for(int64_t n = 0; n < g.N; ++n)
        for(int64_t k = 0; k < g.K; ++k)
        {
            const int64_t grp = k / g.Kg;
            for(int64_t o = 0; o < g.O; ++o)
            {
                double acc = 0, abs = 0, ein = 0;
                const int64_t* tab = &g.tab[static_cast<size_t>(o * g.R)];
                for(int64_t cc = 0; cc < g.Cg; ++cc)
                {
                    const int64_t xb = (n * g.C + grp * g.Cg + cc) * g.Sin;
                    const int64_t wb = (k * g.Cg + cc) * g.R;
                    for(int64_t r = 0; r < g.R; ++r)
                    {
                        if(tab[r] < 0)
                            continue;
                        const double xv = x->v[static_cast<size_t>(xb + tab[r])];
                        const double wv = w->v[static_cast<size_t>(wb + g.tap(r))];
                        acc += xv * wv;
                        abs += std::fabs(xv * wv);
                        if(err)
                            ein += std::fabs(xv) * w->err(wb + g.tap(r)) + std::fabs(wv) * x->err(xb + tab[r]);
                    }
                }
                const size_t yi = static_cast<size_t>((n * g.K + k) * g.O + o);
                y->v[yi] = acc;
                y->e[yi] = ein + sumTol(c.u, terms, abs);
            }
        }
    return "";
}

std::string refConvBwdData(OpContext& c)
{
    const RefTensor* dy = c.in(c.node.uid("dy_tensor_uid"));
    const RefTensor* w = c.in(c.node.uid("w_tensor_uid"));
    const Tensor* dxt = c.tensor(c.node.uid("dx_tensor_uid"));
    if(!dy || !w || !dxt)
        return missing("dy, w or dx");
    ConvGeom g;
    std::string why = convGeometry(c, dxt->dims, w->dims, dy->dims, &g);
    if(!why.empty())
        return why;
    RefTensor* dx = c.out(dxt->uid);
    std::vector<double> abs(dx->v.size(), 0.0);
    const bool err = !dy->e.empty() || !w->e.empty();
    for(int64_t n = 0; n < g.N; ++n)
        for(int64_t k = 0; k < g.K; ++k)
        {
            const int64_t grp = k / g.Kg;
            const int64_t dyb = (n * g.K + k) * g.O;
            for(int64_t cc = 0; cc < g.Cg; ++cc)
            {
                const int64_t dxb = (n * g.C + grp * g.Cg + cc) * g.Sin;
                const int64_t wb = (k * g.Cg + cc) * g.R;
                for(int64_t o = 0; o < g.O; ++o)
                {
                    const double dyv = dy->v[static_cast<size_t>(dyb + o)];
                    const int64_t* tab = &g.tab[static_cast<size_t>(o * g.R)];
                    for(int64_t r = 0; r < g.R; ++r)
                    {
                        if(tab[r] < 0)
                            continue;
                        const double wv = w->v[static_cast<size_t>(wb + g.tap(r))];
                        const size_t i = static_cast<size_t>(dxb + tab[r]);
                        dx->v[i] += dyv * wv;
                        abs[i] += std::fabs(dyv * wv);
                        if(err)
                            dx->e[i] += std::fabs(dyv) * w->err(wb + g.tap(r)) + std::fabs(wv) * dy->err(dyb + o);
                    }
                }
            }
        }
    const double terms = static_cast<double>(g.Kg * g.R);
    for(size_t i = 0; i < dx->v.size(); ++i)
        dx->e[i] += sumTol(c.u, terms, abs[i]);
    return "";
}

std::string refConvBwdFilter(OpContext& c)
{
    const RefTensor* x = c.in(c.node.uid("x_tensor_uid"));
    const RefTensor* dy = c.in(c.node.uid("dy_tensor_uid"));
    const Tensor* dwt = c.tensor(c.node.uid("dw_tensor_uid"));
    if(!x || !dy || !dwt)
        return missing("x, dy or dw");
    ConvGeom g;
    std::string why = convGeometry(c, x->dims, dwt->dims, dy->dims, &g);
    if(!why.empty())
        return why;
    RefTensor* dw = c.out(dwt->uid);
    const bool err = !x->e.empty() || !dy->e.empty();
    const double terms = static_cast<double>(g.N * g.O);
    for(int64_t k = 0; k < g.K; ++k)
    {
        const int64_t grp = k / g.Kg;
        for(int64_t cc = 0; cc < g.Cg; ++cc)
            for(int64_t r = 0; r < g.R; ++r)
            {
                double acc = 0, abs = 0, ein = 0;
                for(int64_t n = 0; n < g.N; ++n)
                {
                    const int64_t xb = (n * g.C + grp * g.Cg + cc) * g.Sin;
                    const int64_t dyb = (n * g.K + k) * g.O;
                    for(int64_t o = 0; o < g.O; ++o)
                    {
                        const int64_t i = g.tab[static_cast<size_t>(o * g.R + r)];
                        if(i < 0)
                            continue;
                        const double xv = x->v[static_cast<size_t>(xb + i)];
                        const double dyv = dy->v[static_cast<size_t>(dyb + o)];
                        acc += xv * dyv;
                        abs += std::fabs(xv * dyv);
                        if(err)
                            ein += std::fabs(xv) * dy->err(dyb + o) + std::fabs(dyv) * x->err(xb + i);
                    }
                }
                const size_t wi = static_cast<size_t>((k * g.Cg + cc) * g.R + g.tap(r));
                dw->v[wi] = acc;
                dw->e[wi] = ein + sumTol(c.u, terms, abs);
            }
    }
    return "";
}

// ------------------------------------------------------------------------------------------

std::string refMatmul(OpContext& c)
{
    const RefTensor* a = c.in(c.node.uid("a_tensor_uid"));
    const RefTensor* b = c.in(c.node.uid("b_tensor_uid"));
    const Tensor* ct = c.tensor(c.node.uid("c_tensor_uid"));
    if(!a || !b || !ct)
        return missing("a, b or c");
    const auto &ad = a->dims, &bd = b->dims, &cd = ct->dims;
    if(ad.size() < 2 || bd.size() < 2 || cd.size() < 2)
        return "no reference: matmul operands must have rank >= 2";
    const int64_t M = ad[ad.size() - 2], K = ad.back(), N = bd.back();
    if(bd[bd.size() - 2] != K || cd[cd.size() - 2] != M || cd.back() != N)
        return "no reference: matmul shapes " + dimsText(ad) + " x " + dimsText(bd) + " -> " + dimsText(cd) + " do not agree";
    std::vector<int64_t> ab(ad.begin(), ad.end() - 2), bb(bd.begin(), bd.end() - 2), cb(cd.begin(), cd.end() - 2);
    std::vector<int64_t> as, bs;
    if(!bcastStrides(ab, cb, &as) || !bcastStrides(bb, cb, &bs))
        return "no reference: matmul batch dims do not broadcast";
    RefTensor* out = c.out(ct->uid);
    const bool err = !a->e.empty() || !b->e.empty();
    forEachIndex(cb, [&](const std::vector<int64_t>& idx, int64_t lin) {
        int64_t ao = 0, bo = 0;
        for(size_t d = 0; d < idx.size(); ++d)
        {
            ao += idx[d] * as[d];
            bo += idx[d] * bs[d];
        }
        ao *= M * K;
        bo *= K * N;
        const int64_t co = lin * M * N;
        for(int64_t m = 0; m < M; ++m)
            for(int64_t n = 0; n < N; ++n)
            {
                double acc = 0, abs = 0, ein = 0;
                for(int64_t k = 0; k < K; ++k)
                {
                    const int64_t ai = ao + m * K + k, bi = bo + k * N + n;
                    const double av = a->v[static_cast<size_t>(ai)], bv = b->v[static_cast<size_t>(bi)];
                    acc += av * bv;
                    abs += std::fabs(av * bv);
                    if(err)
                        ein += std::fabs(av) * b->err(bi) + std::fabs(bv) * a->err(ai);
                }
                const size_t ci = static_cast<size_t>(co + m * N + n);
                out->v[ci] = acc;
                out->e[ci] = ein + sumTol(c.u, static_cast<double>(K), abs);
            }
    });
    if(cb.empty() && (!ab.empty() || !bb.empty()))
        c.notes.push_back("batch broadcast");
    return "";
}

// ------------------------------------------------------------------------------------------
// Pointwise

namespace
{

enum class Pw
{
    Unknown,
    Add,
    Sub,
    Mul,
    Div,
    AddSquare,
    MaxOp,
    MinOp,
    Identity,
    Neg,
    Abs,
    Exp,
    Log,
    Sqrt,
    Rsqrt,
    Reciprocal,
    Sin,
    Tan,
    Erf,
    Ceil,
    Floor,
    TanhFwd,
    SigmoidFwd,
    ReluFwd,
    EluFwd,
    GeluFwd,
    GeluTanhFwd,
    SoftplusFwd,
    SwishFwd,
    CmpEq,
    CmpNeq,
    CmpGt,
    CmpGe,
    CmpLt,
    CmpLe,
    LogicalAnd,
    LogicalOr,
    LogicalNot,
    BinarySelect,
    ReluBwd,
    TanhBwd,
    SigmoidBwd,
    EluBwd,
    SoftplusBwd,
    SwishBwd,
    GeluBwd,
    GeluTanhBwd
};

struct PwName
{
    const char* name;
    Pw mode;
    int arity;
};

const PwName kPwModes[] = {
    {"add", Pw::Add, 2},
    {"sub", Pw::Sub, 2},
    {"mul", Pw::Mul, 2},
    {"div", Pw::Div, 2},
    {"add_square", Pw::AddSquare, 2},
    {"max_op", Pw::MaxOp, 2},
    {"min_op", Pw::MinOp, 2},
    {"identity", Pw::Identity, 1},
    {"neg", Pw::Neg, 1},
    {"abs", Pw::Abs, 1},
    {"exp", Pw::Exp, 1},
    {"log", Pw::Log, 1},
    {"sqrt", Pw::Sqrt, 1},
    {"rsqrt", Pw::Rsqrt, 1},
    {"reciprocal", Pw::Reciprocal, 1},
    {"sin", Pw::Sin, 1},
    {"tan", Pw::Tan, 1},
    {"erf", Pw::Erf, 1},
    {"ceil", Pw::Ceil, 1},
    {"floor", Pw::Floor, 1},
    {"tanh_fwd", Pw::TanhFwd, 1},
    {"sigmoid_fwd", Pw::SigmoidFwd, 1},
    {"relu_fwd", Pw::ReluFwd, 1},
    {"elu_fwd", Pw::EluFwd, 1},
    {"gelu_fwd", Pw::GeluFwd, 1},
    {"gelu_approx_tanh_fwd", Pw::GeluTanhFwd, 1},
    {"softplus_fwd", Pw::SoftplusFwd, 1},
    {"swish_fwd", Pw::SwishFwd, 1},
    {"cmp_eq", Pw::CmpEq, 2},
    {"cmp_neq", Pw::CmpNeq, 2},
    {"cmp_gt", Pw::CmpGt, 2},
    {"cmp_ge", Pw::CmpGe, 2},
    {"cmp_lt", Pw::CmpLt, 2},
    {"cmp_le", Pw::CmpLe, 2},
    {"logical_and", Pw::LogicalAnd, 2},
    {"logical_or", Pw::LogicalOr, 2},
    {"logical_not", Pw::LogicalNot, 1},
    {"binary_select", Pw::BinarySelect, 3},
    {"relu_bwd", Pw::ReluBwd, 2},
    {"tanh_bwd", Pw::TanhBwd, 2},
    {"sigmoid_bwd", Pw::SigmoidBwd, 2},
    {"elu_bwd", Pw::EluBwd, 2},
    {"softplus_bwd", Pw::SoftplusBwd, 2},
    {"swish_bwd", Pw::SwishBwd, 2},
    {"gelu_bwd", Pw::GeluBwd, 2},
    {"gelu_approx_tanh_bwd", Pw::GeluTanhBwd, 2},
};

struct PwParams
{
    Pw mode = Pw::Unknown;
    double lo = 0, hi = kInf, slope = 0; // relu
    double swishBeta = 1, eluAlpha = 1, softplusBeta = 1;
};

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// pwValue evaluates a pointwise mode; a, b, z are in_0, in_1, in_2 (for the _bwd modes a is dy
// and b the forward input x). Semantics as in cuDNN's pointwise modes.
double pwValue(const PwParams& p, double a, double b, double z)
{
    constexpr double kSqrt2OverPi = 0.79788456080286535588;
    switch(p.mode)
    {
    case Pw::Add: return a + b;
    case Pw::Sub: return a - b;
    case Pw::Mul: return a * b;
    case Pw::Div: return a / b;
    case Pw::AddSquare: return a + b * b;
    case Pw::MaxOp: return (std::isnan(a) || std::isnan(b)) ? std::nan("") : std::max(a, b);
    case Pw::MinOp: return (std::isnan(a) || std::isnan(b)) ? std::nan("") : std::min(a, b);
    case Pw::Identity: return a;
    case Pw::Neg: return -a;
    case Pw::Abs: return std::fabs(a);
    case Pw::Exp: return std::exp(a);
    case Pw::Log: return std::log(a);
    case Pw::Sqrt: return std::sqrt(a);
    case Pw::Rsqrt: return 1.0 / std::sqrt(a);
    case Pw::Reciprocal: return 1.0 / a;
    case Pw::Sin: return std::sin(a);
    case Pw::Tan: return std::tan(a);
    case Pw::Erf: return std::erf(a);
    case Pw::Ceil: return std::ceil(a);
    case Pw::Floor: return std::floor(a);
    case Pw::TanhFwd: return std::tanh(a);
    case Pw::SigmoidFwd: return sigmoid(a);
    case Pw::ReluFwd:
        if(a <= p.lo)
            return p.lo + p.slope * (a - p.lo);
        return a >= p.hi ? p.hi : a;
    case Pw::EluFwd: return a > 0 ? a : p.eluAlpha * (std::exp(a) - 1.0);
    case Pw::GeluFwd: return 0.5 * a * (1.0 + std::erf(a / std::sqrt(2.0)));
    case Pw::GeluTanhFwd: return 0.5 * a * (1.0 + std::tanh(kSqrt2OverPi * (a + 0.044715 * a * a * a)));
    case Pw::SoftplusFwd: return std::log1p(std::exp(p.softplusBeta * a)) / p.softplusBeta;
    case Pw::SwishFwd: return a * sigmoid(p.swishBeta * a);
    case Pw::CmpEq: return a == b ? 1 : 0;
    case Pw::CmpNeq: return a != b ? 1 : 0;
    case Pw::CmpGt: return a > b ? 1 : 0;
    case Pw::CmpGe: return a >= b ? 1 : 0;
    case Pw::CmpLt: return a < b ? 1 : 0;
    case Pw::CmpLe: return a <= b ? 1 : 0;
    case Pw::LogicalAnd: return (a != 0 && b != 0) ? 1 : 0;
    case Pw::LogicalOr: return (a != 0 || b != 0) ? 1 : 0;
    case Pw::LogicalNot: return a == 0 ? 1 : 0;
    case Pw::BinarySelect: return z != 0 ? a : b;
    case Pw::ReluBwd: return a * (b <= p.lo ? p.slope : (b > p.hi ? 0.0 : 1.0));
    case Pw::TanhBwd: return a * (1.0 - std::tanh(b) * std::tanh(b));
    case Pw::SigmoidBwd: return a * sigmoid(b) * (1.0 - sigmoid(b));
    case Pw::EluBwd: return a * (b > 0 ? 1.0 : p.eluAlpha * std::exp(b));
    case Pw::SoftplusBwd: return a * sigmoid(p.softplusBeta * b);
    case Pw::SwishBwd:
    {
        double s = sigmoid(p.swishBeta * b);
        return a * (s + p.swishBeta * b * s * (1.0 - s));
    }
    case Pw::GeluBwd:
    {
        double cdf = 0.5 * (1.0 + std::erf(b / std::sqrt(2.0)));
        double pdf = std::exp(-0.5 * b * b) / std::sqrt(2.0 * M_PI);
        return a * (cdf + b * pdf);
    }
    case Pw::GeluTanhBwd:
    {
        double t = std::tanh(kSqrt2OverPi * (b + 0.044715 * b * b * b));
        return a * (0.5 * (1.0 + t) + 0.5 * b * (1.0 - t * t) * kSqrt2OverPi * (1.0 + 3.0 * 0.044715 * b * b));
    }
    case Pw::Unknown: break;
    }
    return std::nan("");
}

double optionalParam(const Node& n, const char* key, double fallback)
{
    const hdjson::Value* v = n.field(key);
    return (v != nullptr && v->isNumber()) ? v->asDouble() : fallback;
}

} // namespace

// intermediateScale is the size of the intermediates of the activations that compute a small
// value from large ones, so that their rounding is absolute, not relative to the value: GELU and
// swish compute x * g(x) (exact GELU(-6.3) is -2e-10, and fp32's 1 + erf(x / sqrt 2) is then 0);
// softplus log(1 + e^x) and ELU alpha(e^x - 1) round around 1. Zero for every other mode.
double intermediateScale(const PwParams& p, double x)
{
    switch(p.mode)
    {
    case Pw::GeluFwd:
    case Pw::GeluTanhFwd:
    case Pw::SwishFwd: return std::fabs(x);
    case Pw::SoftplusFwd: return std::max(1.0, std::fabs(x));
    case Pw::EluFwd: return std::max(1.0, std::fabs(x)) * std::fabs(p.eluAlpha);
    default: return 0.0;
    }
}

std::string refPointwise(OpContext& c)
{
    PwParams p;
    const std::string modeName = c.node.str("operation");
    int arity = 0;
    for(const auto& m : kPwModes)
    {
        if(modeName == m.name)
        {
            p.mode = m.mode;
            arity = m.arity;
        }
    }
    p.lo = optionalParam(c.node, "relu_lower_clip", 0.0);
    p.hi = optionalParam(c.node, "relu_upper_clip", kInf);
    p.slope = optionalParam(c.node, "relu_lower_clip_slope", 0.0);
    p.swishBeta = optionalParam(c.node, "swish_beta", 1.0);
    p.eluAlpha = optionalParam(c.node, "elu_alpha", 1.0);
    p.softplusBeta = optionalParam(c.node, "softplus_beta", 1.0);
    const Tensor* ot = c.tensor(c.node.uid("out_0_tensor_uid"));
    if(!ot)
        return missing("out_0");
    if(modeName == "gen_index")
    {
        const hdjson::Value* axisV = c.node.field("axis_tensor_uid");
        int64_t axis = axisV ? axisV->asInt(-1) : -1;
        if(axis < 0 || axis >= static_cast<int64_t>(ot->dims.size()))
            return "no reference: gen_index without a valid axis";
        RefTensor* out = c.out(ot->uid);
        forEachIndex(ot->dims, [&](const std::vector<int64_t>& idx, int64_t lin) {
            out->v[static_cast<size_t>(lin)] = static_cast<double>(idx[static_cast<size_t>(axis)]);
        });
        return "";
    }
    if(p.mode == Pw::Unknown)
        return "no reference for pointwise mode " + (modeName.empty() ? std::string("(unset)") : modeName);
    const char* keys[3] = {"in_0_tensor_uid", "in_1_tensor_uid", "in_2_tensor_uid"};
    const RefTensor* ins[3] = {nullptr, nullptr, nullptr};
    std::vector<int64_t> strides[3];
    for(int i = 0; i < 3; ++i)
    {
        strides[i].assign(ot->dims.size(), 0);
    }
    for(int i = 0; i < arity; ++i)
    {
        ins[i] = c.in(c.node.uid(keys[i]));
        if(!ins[i])
            return missing(keys[i]);
        if(!bcastStrides(ins[i]->dims, ot->dims, &strides[i]))
            return "no reference: " + std::string(keys[i]) + " " + dimsText(ins[i]->dims) + " does not broadcast to "
                   + dimsText(ot->dims);
    }
    RefTensor* out = c.out(ot->uid);
    const double u = c.u;
    const bool intOut = dtypeIsInt(ot->dtype);
    bool anyErr = false;
    for(int i = 0; i < arity; ++i)
        anyErr = anyErr || !ins[i]->e.empty();
    forEachOffsets<3>(ot->dims, {&strides[0], &strides[1], &strides[2]}, [&](int64_t lin, const int64_t* off) {
        double x[3] = {0, 0, 0}, e[3] = {0, 0, 0};
        for(int i = 0; i < arity; ++i)
        {
            x[i] = ins[i]->v[static_cast<size_t>(off[i])];
            e[i] = anyErr ? ins[i]->err(off[i]) : 0.0;
        }
        const double r = pwValue(p, x[0], x[1], x[2]);
        // First-order error: the op evaluated at each input moved by its own error bound, plus
        // the rounding of the op itself: relative to the value, or to its intermediates where
        // those are larger (intermediateScale).
        double err = intOut ? 0.0 : kOpFactor * u * std::max(std::fabs(r), intermediateScale(p, x[0]));
        for(int i = 0; i < arity; ++i)
        {
            if(e[i] <= 0)
                continue;
            double moved[3] = {x[0], x[1], x[2]};
            moved[i] = x[i] + e[i];
            double up = std::fabs(pwValue(p, moved[0], moved[1], moved[2]) - r);
            moved[i] = x[i] - e[i];
            double down = std::fabs(pwValue(p, moved[0], moved[1], moved[2]) - r);
            double d = std::max(up, down);
            err += std::isnan(d) ? kInf : d;
        }
        out->v[static_cast<size_t>(lin)] = r;
        out->e[static_cast<size_t>(lin)] = err;
    });
    return "";
}

// ------------------------------------------------------------------------------------------

std::string refReduction(OpContext& c)
{
    const RefTensor* in = c.in(c.node.uid("in_tensor_uid"));
    const Tensor* ot = c.tensor(c.node.uid("out_tensor_uid"));
    if(!in || !ot)
        return missing("in or out");
    const std::string mode = c.node.str("mode");
    static const char* kModes[] = {"ADD", "MUL", "MIN", "MAX", "AMAX", "AVG", "NORM1", "NORM2", "MUL_NO_ZEROS"};
    bool knownMode = false;
    for(const char* m : kModes)
        knownMode = knownMode || mode == m;
    if(!knownMode)
        return "no reference for reduction mode " + (mode.empty() ? std::string("(unset)") : mode);
    std::vector<int64_t> os; // out index strides along the input's dims
    if(in->dims.size() != ot->dims.size() || !bcastStrides(ot->dims, in->dims, &os))
        return "no reference: reduction output " + dimsText(ot->dims) + " does not reduce " + dimsText(in->dims);
    RefTensor* out = c.out(ot->uid);
    const size_t n = out->v.size();
    std::vector<double> acc(n), abs(n, 0.0), ein(n, 0.0), prodAbsErr(n, 1.0), count(n, 0.0);
    std::vector<uint8_t> first(n, 1);
    const bool isMul = mode == "MUL" || mode == "MUL_NO_ZEROS";
    const bool isMinMax = mode == "MIN" || mode == "MAX" || mode == "AMAX";
    for(size_t i = 0; i < n; ++i)
        acc[i] = isMul ? 1.0 : 0.0;
    forEachIndex(in->dims, [&](const std::vector<int64_t>& idx, int64_t lin) {
        int64_t o = 0;
        for(size_t d = 0; d < idx.size(); ++d)
            o += idx[d] * os[d];
        const size_t oi = static_cast<size_t>(o);
        const double x = in->v[static_cast<size_t>(lin)];
        const double e = in->err(lin);
        if(isMinMax)
        {
            double val = mode == "AMAX" ? std::fabs(x) : x;
            bool take = first[oi] || (mode == "MIN" ? val < acc[oi] : val > acc[oi]);
            if(take)
                acc[oi] = val;
            first[oi] = 0;
            ein[oi] = std::max(ein[oi], e);
            return;
        }
        if(mode == "MUL_NO_ZEROS" && x == 0)
            return;
        count[oi] += 1;
        if(isMul)
        {
            acc[oi] *= x;
            prodAbsErr[oi] *= std::fabs(x) + e;
            return;
        }
        if(mode == "NORM2")
        {
            acc[oi] += x * x;
            abs[oi] += x * x;
            ein[oi] += 2.0 * std::fabs(x) * e;
            return;
        }
        acc[oi] += (mode == "NORM1") ? std::fabs(x) : x;
        abs[oi] += std::fabs(x);
        ein[oi] += e;
    });
    const double perOut = static_cast<double>(in->v.size()) / static_cast<double>(std::max<size_t>(n, 1));
    for(size_t i = 0; i < n; ++i)
    {
        double v = acc[i], e = 0;
        if(isMinMax)
        {
            e = ein[i];
        }
        else if(isMul)
        {
            e = (prodAbsErr[i] - std::fabs(v)) + sumTol(c.u, count[i], std::fabs(v) * std::sqrt(count[i]));
        }
        else if(mode == "NORM2")
        {
            v = std::sqrt(acc[i]);
            e = v > 0 ? (0.5 * ein[i] / v + sumTol(c.u, perOut, abs[i]) / (2.0 * v)) : std::sqrt(ein[i]);
            e += kOpFactor * c.u * v;
        }
        else
        {
            e = ein[i] + sumTol(c.u, perOut, abs[i]);
            if(mode == "AVG")
            {
                v /= perOut;
                e /= perOut;
            }
        }
        out->v[i] = v;
        out->e[i] = e;
    }
    return "";
}

// ------------------------------------------------------------------------------------------
// Batchnorm inference: y = (x - mean) · inv_variance · scale + bias, parameters broadcast.

namespace
{

struct BnParams
{
    const RefTensor* t = nullptr;
    std::vector<int64_t> s;
};

std::string bindParam(OpContext& c, const char* key, const std::vector<int64_t>& xdims, BnParams* p)
{
    p->t = c.in(c.node.uid(key));
    if(!p->t)
        return missing(key);
    if(!bcastStrides(p->t->dims, xdims, &p->s))
        return "no reference: " + std::string(key) + " " + dimsText(p->t->dims) + " does not broadcast to " + dimsText(xdims);
    return "";
}

std::string batchnormInference(OpContext& c, bool withVariance)
{
    const RefTensor* x = c.in(c.node.uid("x_tensor_uid"));
    const Tensor* yt = c.tensor(c.node.uid("y_tensor_uid"));
    if(!x || !yt)
        return missing("x or y");
    BnParams mean, var, scale, bias;
    std::string why = bindParam(c, "mean_tensor_uid", x->dims, &mean);
    if(why.empty())
        why = bindParam(c, withVariance ? "variance_tensor_uid" : "inv_variance_tensor_uid", x->dims, &var);
    if(why.empty())
        why = bindParam(c, "scale_tensor_uid", x->dims, &scale);
    if(why.empty())
        why = bindParam(c, "bias_tensor_uid", x->dims, &bias);
    if(!why.empty())
        return why;
    double eps = 0;
    if(withVariance && !c.scalar(c.node.uid("epsilon_tensor_uid"), &eps))
        return missing("epsilon");
    if(yt->dims != x->dims)
        return "no reference: y dims differ from x dims";
    RefTensor* y = c.out(yt->uid);
    const double u = c.u;
    forEachIndex(x->dims, [&](const std::vector<int64_t>& idx, int64_t lin) {
        int64_t om = 0, ov = 0, os = 0, ob = 0;
        for(size_t d = 0; d < idx.size(); ++d)
        {
            om += idx[d] * mean.s[d];
            ov += idx[d] * var.s[d];
            os += idx[d] * scale.s[d];
            ob += idx[d] * bias.s[d];
        }
        const double xv = x->v[static_cast<size_t>(lin)], m = mean.t->v[static_cast<size_t>(om)];
        const double g = scale.t->v[static_cast<size_t>(os)], b = bias.t->v[static_cast<size_t>(ob)];
        double iv, eiv;
        if(withVariance)
        {
            const double vv = var.t->v[static_cast<size_t>(ov)] + eps;
            iv = 1.0 / std::sqrt(vv);
            eiv = 0.5 * iv * var.t->err(ov) / vv + kOpFactor * u * iv;
        }
        else
        {
            iv = var.t->v[static_cast<size_t>(ov)];
            eiv = var.t->err(ov);
        }
        const double centered = xv - m;
        const double r = centered * iv * g + b;
        double e = std::fabs(iv * g) * (x->err(lin) + mean.t->err(om)) + std::fabs(centered * g) * eiv
                   + std::fabs(centered * iv) * scale.t->err(os) + bias.t->err(ob)
                   + kOpFactor * u * (std::fabs(centered * iv * g) + std::fabs(b) + std::fabs(xv * iv * g));
        y->v[static_cast<size_t>(lin)] = r;
        y->e[static_cast<size_t>(lin)] = e;
    });
    return "";
}

} // namespace

std::string refBatchnormInference(OpContext& c) { return batchnormInference(c, false); }

std::string refBatchnormInferenceVariance(OpContext& c) { return batchnormInference(c, true); }

// ------------------------------------------------------------------------------------------
// Resample forward (pooling). Window of output o along a spatial axis: input positions
// o·stride - pre + w, w in [0, window); positions outside the input are padding.

std::string refResampleFwd(OpContext& c)
{
    const RefTensor* x = c.in(c.node.uid("x_tensor_uid"));
    const Tensor* yt = c.tensor(c.node.uid("y_tensor_uid"));
    if(!x || !yt)
        return missing("x or y");
    if(c.node.uid("index_tensor_uid") >= 0)
        return "no reference for ResampleFwd with an index output (index convention is engine-defined)";
    const std::string mode = c.node.str("resample_mode");
    const std::string pad = c.node.str("padding_mode");
    const bool maxpool = mode == "MAXPOOL";
    const bool include = mode == "AVGPOOL_INCLUDE_PADDING";
    if(!maxpool && !include && mode != "AVGPOOL_EXCLUDE_PADDING")
        return "no reference for resample mode " + (mode.empty() ? std::string("(unset)") : mode);
    if(maxpool && pad != "NEG_INF_PAD" && pad != "ZERO_PAD")
        return "no reference: MAXPOOL without a padding mode";
    const auto& xd = x->dims;
    const auto& yd = yt->dims;
    if(xd.size() < 3 || yd.size() != xd.size() || xd[0] != yd[0] || xd[1] != yd[1])
        return "no reference: resample shapes " + dimsText(xd) + " -> " + dimsText(yd) + " do not agree";
    const size_t nsp = xd.size() - 2;
    std::vector<int64_t> pre = c.node.ints("pre_padding"), stride = c.node.ints("stride"), win = c.node.ints("window");
    pre.resize(nsp, 0);
    stride.resize(nsp, 1);
    win.resize(nsp, 1);
    std::vector<int64_t> in(xd.begin() + 2, xd.end()), out(yd.begin() + 2, yd.end());
    const std::vector<int64_t> inStr = denseStrides(in);
    const int64_t Sin = product(in), O = product(out), planes = xd[0] * xd[1];
    const double volume = static_cast<double>(product(win));
    RefTensor* y = c.out(yt->uid);
    forEachIndex(out, [&](const std::vector<int64_t>& o, int64_t ol) {
        // Collect the window's in-range positions once, then apply them to every plane.
        std::vector<int64_t> inside;
        int64_t padded = 0;
        forEachIndex(win, [&](const std::vector<int64_t>& w, int64_t) {
            int64_t flat = 0;
            for(size_t d = 0; d < nsp; ++d)
            {
                int64_t i = o[d] * stride[d] - pre[d] + w[d];
                if(i < 0 || i >= in[d])
                {
                    ++padded;
                    return;
                }
                flat += i * inStr[d];
            }
            inside.push_back(flat);
        });
        for(int64_t pl = 0; pl < planes; ++pl)
        {
            const int64_t base = pl * Sin;
            double r = 0, e = 0, abs = 0;
            if(maxpool)
            {
                r = (padded > 0 && pad == "ZERO_PAD") ? 0.0 : -kInf;
                for(int64_t i : inside)
                {
                    r = std::max(r, x->v[static_cast<size_t>(base + i)]);
                    e = std::max(e, x->err(base + i));
                }
            }
            else
            {
                for(int64_t i : inside)
                {
                    r += x->v[static_cast<size_t>(base + i)];
                    abs += std::fabs(x->v[static_cast<size_t>(base + i)]);
                    e += x->err(base + i);
                }
                double div = include ? volume : static_cast<double>(inside.size());
                if(div > 0)
                {
                    r /= div;
                    e = (e + sumTol(c.u, static_cast<double>(inside.size()), abs)) / div;
                }
            }
            const size_t yi = static_cast<size_t>(pl * O + ol);
            y->v[yi] = r;
            y->e[yi] = e;
        }
    });
    return "";
}

// ------------------------------------------------------------------------------------------
// Resample backward (pooling). dx is overwritten. AVGPOOL_*: every in-range input of output o's
// window receives dy[o] / divisor(o) (window volume, or the number of in-range positions).
// MAXPOOL: dx[index(o)] += dy[o], index being the flat position of the maximum within its
// (n, c) input plane (d·H·W + h·W + w, PyTorch's convention); -1 (a padding maximum) routes
// nothing. The node carries no forward input, so MAXPOOL needs the index tensor.

std::string refResampleBwd(OpContext& c)
{
    const RefTensor* dy = c.in(c.node.uid("dy_tensor_uid"));
    const Tensor* dxt = c.tensor(c.node.uid("dx_tensor_uid"));
    if(!dy || !dxt)
        return missing("dy or dx");
    const std::string mode = c.node.str("resample_mode");
    const bool maxpool = mode == "MAXPOOL";
    const bool include = mode == "AVGPOOL_INCLUDE_PADDING";
    if(!maxpool && !include && mode != "AVGPOOL_EXCLUDE_PADDING")
        return "no reference for resample mode " + (mode.empty() ? std::string("(unset)") : mode);
    const int64_t indexUid = c.node.uid("index_tensor_uid");
    const RefTensor* index = indexUid >= 0 ? c.in(indexUid) : nullptr;
    if(maxpool && !index)
        return "no reference: MAXPOOL backward without an index tensor (the node carries no forward input)";
    const auto& xd = dxt->dims;
    const auto& yd = dy->dims;
    if(xd.size() < 3 || yd.size() != xd.size() || xd[0] != yd[0] || xd[1] != yd[1])
        return "no reference: resample shapes " + dimsText(xd) + " <- " + dimsText(yd) + " do not agree";
    if(index && index->dims != yd)
        return "no reference: index " + dimsText(index->dims) + " must have dy's dims " + dimsText(yd);
    const size_t nsp = xd.size() - 2;
    std::vector<int64_t> pre = c.node.ints("pre_padding"), post = c.node.ints("post_padding"), stride = c.node.ints("stride"),
                         win = c.node.ints("window");
    if(pre.size() != nsp || post.size() != nsp || stride.size() != nsp || win.size() != nsp)
        return "no reference: padding, stride and window need " + std::to_string(nsp) + " entries each";
    for(size_t d = 0; d < nsp; ++d)
    {
        if(stride[d] < 1 || win[d] < 1 || yd[2 + d] != (xd[2 + d] + pre[d] + post[d] - win[d]) / stride[d] + 1)
            return "no reference: dy " + dimsText(yd) + " is not the pooled size of dx " + dimsText(xd);
    }
    std::vector<int64_t> in(xd.begin() + 2, xd.end()), out(yd.begin() + 2, yd.end());
    const std::vector<int64_t> inStr = denseStrides(in);
    const int64_t Sin = product(in), O = product(out), planes = xd[0] * xd[1];
    const double volume = static_cast<double>(product(win));
    RefTensor* dx = c.out(dxt->uid);
    // Per dx element: Σ|terms| and the number of terms, for the summation bound.
    std::vector<double> absSum(dx->v.size(), 0.0), terms(dx->v.size(), 0.0);
    std::string bad;
    forEachIndex(out, [&](const std::vector<int64_t>& o, int64_t ol) {
        if(!bad.empty())
            return;
        std::vector<int64_t> inside;
        forEachIndex(win, [&](const std::vector<int64_t>& w, int64_t) {
            int64_t flat = 0;
            for(size_t d = 0; d < nsp; ++d)
            {
                const int64_t i = o[d] * stride[d] - pre[d] + w[d];
                if(i < 0 || i >= in[d])
                    return;
                flat += i * inStr[d];
            }
            inside.push_back(flat);
        });
        const double div = include ? volume : static_cast<double>(inside.size());
        for(int64_t pl = 0; pl < planes; ++pl)
        {
            const int64_t yi = pl * O + ol;
            const double g = dy->v[static_cast<size_t>(yi)], ge = dy->err(yi);
            auto add = [&](int64_t at, double share, double shareErr) {
                const size_t xi = static_cast<size_t>(pl * Sin + at);
                dx->v[xi] += share;
                dx->e[xi] += shareErr;
                absSum[xi] += std::fabs(share);
                terms[xi] += 1;
            };
            if(maxpool)
            {
                const double t = index->v[static_cast<size_t>(yi)];
                if(t == -1)
                    continue;
                if(t < 0 || t >= static_cast<double>(Sin) || t != std::floor(t))
                {
                    bad = "no reference: index " + std::to_string(t) + " is outside the input plane of " + std::to_string(Sin)
                          + " elements";
                    return;
                }
                add(static_cast<int64_t>(t), g, ge);
            }
            else if(div > 0)
            {
                const double share = g / div;
                for(int64_t i : inside)
                    add(i, share, ge / div + kOpFactor * c.u * std::fabs(share));
            }
        }
    });
    if(!bad.empty())
        return bad;
    for(size_t i = 0; i < dx->v.size(); ++i)
        dx->e[i] += terms[i] > 1 ? sumTol(c.u, terms[i], absSum[i]) : 0.0;
    return "";
}

} // namespace hdrun
