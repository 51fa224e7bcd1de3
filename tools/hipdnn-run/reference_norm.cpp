// Reference normalizations with statistics: layernorm, RMSNorm and batchnorm training forward,
// and the three backward passes. One model covers them all: x is split into groups (the
// elements sharing one statistic) by the normalised axes,
//
//   forward   μ = Σx/n (0 for RMSNorm), σ² = Σ(x − μ)²/n, r = 1/√(σ² + ε),
//             y = scale·(x − μ)·r + bias
//   backward  x̂ = (x − μ)·r with μ and r as given, g = dy·scale,
//             dx = r·(g − mean(g) − x̂·mean(g·x̂))       (RMSNorm: without the mean(g) term)
//             dscale = Σ dy·x̂,  dbias = Σ dy           (summed where the parameter broadcasts)
//
// Batchnorm normalises every axis but the channel axis 1; layernorm the trailing
// normalized_dim_count axes; RMSNorm, and layernorm with a zero count, the axes where the scale
// has x's extent. Where the graph has a statistics tensor (mean, inv_variance, inv_rms) its shape
// decides instead: the normalised axes are those where it is 1 and x is not. Running statistics
// (batchnorm training) follow cuDNN / PyTorch: next = (1 − m)·prev + m·batch, with the unbiased
// variance σ²·M/(M − 1) for the running variance.
#include "reference_ops.hpp"

#include <algorithm>
#include <cmath>

namespace hdrun
{

namespace
{

double sumTol(double u, double terms, double absSum) { return kSumFactor * std::sqrt(std::max(terms, 1.0)) * u * absSum; }

std::string missing(const char* role) { return std::string("no reference: required tensor ") + role + " is missing"; }

struct NormAxes
{
    std::vector<bool> norm;
    std::vector<int64_t> groupStride; // per x axis: stride into the dense group index (0 if normalised)
    int64_t groups = 1, perGroup = 1;
    std::string how;
};

void finishAxes(const std::vector<int64_t>& x, NormAxes* a)
{
    a->groupStride.assign(x.size(), 0);
    int64_t s = 1;
    a->groups = 1;
    a->perGroup = 1;
    for(size_t i = x.size(); i-- > 0;)
    {
        if(a->norm[i])
        {
            a->perGroup *= x[i];
        }
        else
        {
            a->groupStride[i] = s;
            s *= x[i];
            a->groups *= x[i];
        }
    }
    std::string list;
    for(size_t i = 0; i < x.size(); ++i)
        if(a->norm[i])
            list += (list.empty() ? "" : ",") + std::to_string(i);
    a->how = "normalised over axes {" + list + "} " + a->how;
}

bool axesFromStat(const std::vector<int64_t>& x, const std::vector<int64_t>& stat, NormAxes* a)
{
    a->norm.assign(x.size(), false);
    int64_t shift = static_cast<int64_t>(stat.size()) - static_cast<int64_t>(x.size());
    bool any = false;
    for(size_t i = 0; i < x.size(); ++i)
    {
        int64_t j = static_cast<int64_t>(i) + shift;
        int64_t sd = j >= 0 ? stat[static_cast<size_t>(j)] : 1;
        if(sd == x[i])
            continue;
        if(sd != 1)
            return false;
        a->norm[i] = true;
        any = true;
    }
    return any;
}

enum class NormKind
{
    Layernorm,
    Rmsnorm,
    Batchnorm
};

// normAxes decides the normalised axes (see the file comment).
std::string normAxes(OpContext& c, NormKind kind, const std::vector<int64_t>& x, const std::vector<const char*>& statKeys,
                     const RefTensor* scale, NormAxes* a)
{
    if(kind == NormKind::Batchnorm)
    {
        if(x.size() < 2)
            return "no reference: batchnorm x needs rank >= 2";
        a->norm.assign(x.size(), true);
        a->norm[1] = false;
        a->how = "(all but the channel axis)";
        finishAxes(x, a);
        return "";
    }
    for(const char* key : statKeys)
    {
        const Tensor* st = c.tensor(c.node.uid(key));
        if(st != nullptr)
        {
            if(!axesFromStat(x, st->dims, a))
                return "no reference: statistics shape " + dimsText(st->dims) + " does not match x " + dimsText(x);
            a->how = std::string("(from the ") + key + " shape)";
            finishAxes(x, a);
            return "";
        }
    }
    a->norm.assign(x.size(), false);
    const hdjson::Value* ndc = c.node.field("normalized_dim_count");
    if(kind == NormKind::Layernorm && ndc && ndc->asInt() > 0)
    {
        int64_t k = std::min<int64_t>(ndc->asInt(), static_cast<int64_t>(x.size()));
        for(int64_t i = static_cast<int64_t>(x.size()) - k; i < static_cast<int64_t>(x.size()); ++i)
            a->norm[static_cast<size_t>(i)] = true;
        a->how = "(normalized_dim_count " + std::to_string(k) + ")";
        finishAxes(x, a);
        return "";
    }
    bool any = false;
    int64_t shift = static_cast<int64_t>(x.size()) - static_cast<int64_t>(scale->dims.size());
    for(size_t j = 0; j < scale->dims.size(); ++j)
    {
        int64_t i = static_cast<int64_t>(j) + shift;
        if(i < 0)
            continue;
        if(scale->dims[j] == x[static_cast<size_t>(i)] && x[static_cast<size_t>(i)] != 1)
        {
            a->norm[static_cast<size_t>(i)] = true;
            any = true;
        }
    }
    if(!any)
        return "no reference: cannot tell the normalised axes (no statistics tensor, scale " + dimsText(scale->dims) + ")";
    a->how = "(from the scale shape)";
    finishAxes(x, a);
    return "";
}

int64_t groupOf(const std::vector<int64_t>& idx, const NormAxes& a)
{
    int64_t gidx = 0;
    for(size_t d = 0; d < idx.size(); ++d)
        gidx += idx[d] * a.groupStride[d];
    return gidx;
}

// A parameter (scale, bias, their gradients) broadcast against x.
struct Param
{
    const RefTensor* t = nullptr;
    std::vector<int64_t> s;
    double at(const std::vector<int64_t>& idx, int64_t* off) const
    {
        int64_t o = 0;
        for(size_t d = 0; d < idx.size(); ++d)
            o += idx[d] * s[d];
        *off = o;
        return t->v[static_cast<size_t>(o)];
    }
};

std::string bindParam(OpContext& c, const char* key, const std::vector<int64_t>& xdims, bool required, Param* p)
{
    if(c.node.uid(key) < 0)
        return required ? missing(key) : "";
    p->t = c.in(c.node.uid(key));
    if(!p->t)
        return missing(key);
    if(!bcastStrides(p->t->dims, xdims, &p->s))
        return "no reference: " + std::string(key) + " " + dimsText(p->t->dims) + " does not broadcast to " + dimsText(xdims);
    return "";
}

struct GroupStats
{
    std::vector<double> mean, emean, var, evar, r, er;
};

// groupStats computes μ (0 when not centred), the biased σ² and r = 1/√(σ² + ε) per group, with
// error bounds (an engine may form σ² as E[x²] − μ², so its bound uses E[x²]).
GroupStats groupStats(const RefTensor& x, const NormAxes& a, bool centred, double eps, double u)
{
    const size_t G = static_cast<size_t>(a.groups);
    const double n = static_cast<double>(a.perGroup);
    GroupStats s;
    s.mean.assign(G, 0.0);
    s.emean.assign(G, 0.0);
    s.var.assign(G, 0.0);
    s.evar.assign(G, 0.0);
    std::vector<double> sumAbs(G, 0.0), sq(G, 0.0);
    if(centred)
    {
        std::vector<double> sumErr(G, 0.0);
        forEachIndex(x.dims, [&](const std::vector<int64_t>& idx, int64_t lin) {
            size_t gi = static_cast<size_t>(groupOf(idx, a));
            s.mean[gi] += x.v[static_cast<size_t>(lin)];
            sumAbs[gi] += std::fabs(x.v[static_cast<size_t>(lin)]);
            sumErr[gi] += x.err(lin);
        });
        for(size_t gi = 0; gi < G; ++gi)
        {
            s.mean[gi] /= n;
            s.emean[gi] = (sumErr[gi] + sumTol(u, n, sumAbs[gi])) / n;
        }
    }
    forEachIndex(x.dims, [&](const std::vector<int64_t>& idx, int64_t lin) {
        size_t gi = static_cast<size_t>(groupOf(idx, a));
        double xv = x.v[static_cast<size_t>(lin)], d = xv - s.mean[gi];
        s.var[gi] += d * d;
        sq[gi] += xv * xv;
        s.evar[gi] += 2.0 * std::fabs(d) * (x.err(lin) + s.emean[gi]);
    });
    s.r.resize(G);
    s.er.resize(G);
    for(size_t gi = 0; gi < G; ++gi)
    {
        s.var[gi] /= n;
        s.evar[gi] = s.evar[gi] / n + sumTol(u, n, sq[gi]) / n;
        s.r[gi] = 1.0 / std::sqrt(s.var[gi] + eps);
        s.er[gi] = 0.5 * s.r[gi] * s.r[gi] * s.r[gi] * s.evar[gi] + kOpFactor * u * s.r[gi];
    }
    return s;
}

// normApply writes y = scale·(x − μ)·r + bias.
void normApply(OpContext& c, const RefTensor& x, const NormAxes& a, const GroupStats& s, const Param& scale, const Param* bias,
               RefTensor* y)
{
    forEachIndex(x.dims, [&](const std::vector<int64_t>& idx, int64_t lin) {
        size_t gi = static_cast<size_t>(groupOf(idx, a));
        int64_t so = 0, bo = 0;
        const double g = scale.at(idx, &so);
        const double b = bias ? bias->at(idx, &bo) : 0.0;
        const double xv = x.v[static_cast<size_t>(lin)];
        const double centred = xv - s.mean[gi];
        y->v[static_cast<size_t>(lin)] = centred * s.r[gi] * g + b;
        y->e[static_cast<size_t>(lin)] = std::fabs(s.r[gi] * g) * (x.err(lin) + s.emean[gi]) + std::fabs(centred * g) * s.er[gi]
                                         + std::fabs(centred) * s.r[gi] * scale.t->err(so) + (bias ? bias->t->err(bo) : 0.0)
                                         + kOpFactor * c.u * (std::fabs(centred * s.r[gi] * g) + std::fabs(b));
    });
}

// writeGroupOutput stores one value per group into the output uid (mean, inv_variance, ...).
std::string writeGroupOutput(OpContext& c, const char* key, const std::vector<double>& v, const std::vector<double>& e)
{
    const Tensor* t = c.tensor(c.node.uid(key));
    if(!t)
        return "";
    RefTensor* r = c.out(t->uid);
    if(r->v.size() != v.size())
        return "no reference: " + std::string(key) + " " + dimsText(t->dims) + " does not hold one value per group ("
               + std::to_string(v.size()) + ")";
    r->v = v;
    r->e = e;
    return "";
}

std::string readEpsilon(OpContext& c, double* eps)
{
    if(!c.scalar(c.node.uid("epsilon_tensor_uid"), eps))
        return missing("epsilon");
    return "";
}

// normForward: layernorm, RMSNorm and batchnorm training.
std::string normForward(OpContext& c, NormKind kind)
{
    const RefTensor* x = c.in(c.node.uid("x_tensor_uid"));
    const Tensor* yt = c.tensor(c.node.uid("y_tensor_uid"));
    if(!x || !yt)
        return missing("x or y");
    if(yt->dims != x->dims)
        return "no reference: y dims differ from x dims";
    if(kind == NormKind::Batchnorm && !c.node.ints("peer_stats_tensor_uid").empty())
        return "no reference for batchnorm with peer statistics";
    double eps = 0;
    std::string why = readEpsilon(c, &eps);
    Param scale, bias;
    if(why.empty())
        why = bindParam(c, "scale_tensor_uid", x->dims, true, &scale);
    if(why.empty())
        why = bindParam(c, "bias_tensor_uid", x->dims, kind != NormKind::Rmsnorm, &bias);
    if(!why.empty())
        return why;
    NormAxes a;
    std::vector<const char*> stats = kind == NormKind::Rmsnorm
                                         ? std::vector<const char*>{"inv_rms_tensor_uid"}
                                         : std::vector<const char*>{"mean_tensor_uid", "inv_variance_tensor_uid"};
    why = normAxes(c, kind, x->dims, stats, scale.t, &a);
    if(!why.empty())
        return why;
    c.notes.push_back(a.how);
    GroupStats s = groupStats(*x, a, kind != NormKind::Rmsnorm, eps, c.u);
    normApply(c, *x, a, s, scale, bias.t ? &bias : nullptr, c.out(yt->uid));
    if(kind == NormKind::Rmsnorm)
        return writeGroupOutput(c, "inv_rms_tensor_uid", s.r, s.er);
    why = writeGroupOutput(c, "mean_tensor_uid", s.mean, s.emean);
    if(why.empty())
        why = writeGroupOutput(c, "inv_variance_tensor_uid", s.r, s.er);
    if(!why.empty() || kind != NormKind::Batchnorm)
        return why;

    // Running statistics.
    const bool nextMean = c.node.uid("next_running_mean_tensor_uid") >= 0;
    const bool nextVar = c.node.uid("next_running_variance_tensor_uid") >= 0;
    if(!nextMean && !nextVar)
        return "";
    double m = 0;
    if(!c.scalar(c.node.uid("momentum_tensor_uid"), &m))
        return missing("momentum");
    const double M = static_cast<double>(a.perGroup);
    if(nextVar && M < 2)
        return "no reference: a running variance needs at least 2 elements per channel";
    c.notes.push_back("running variance unbiased (x M/(M-1))");
    for(int which = 0; which < 2; ++which)
    {
        const char* prevKey = which == 0 ? "prev_running_mean_tensor_uid" : "prev_running_variance_tensor_uid";
        const char* nextKey = which == 0 ? "next_running_mean_tensor_uid" : "next_running_variance_tensor_uid";
        if(c.node.uid(nextKey) < 0)
            continue;
        const RefTensor* prev = c.in(c.node.uid(prevKey));
        if(!prev || prev->numel() != a.groups)
            return "no reference: " + std::string(prevKey) + " missing or not one value per channel";
        std::vector<double> v(static_cast<size_t>(a.groups)), e(v.size());
        for(size_t gi = 0; gi < v.size(); ++gi)
        {
            const double batch = which == 0 ? s.mean[gi] : s.var[gi] * M / (M - 1.0);
            const double eb = which == 0 ? s.emean[gi] : s.evar[gi] * M / (M - 1.0);
            v[gi] = (1.0 - m) * prev->v[gi] + m * batch;
            e[gi] = std::fabs(1.0 - m) * prev->err(static_cast<int64_t>(gi)) + std::fabs(m) * eb
                    + kOpFactor * c.u * (std::fabs((1.0 - m) * prev->v[gi]) + std::fabs(m * batch));
        }
        why = writeGroupOutput(c, nextKey, v, e);
        if(!why.empty())
            return why;
    }
    return "";
}

// normBackward: layernorm, RMSNorm and batchnorm backward with the statistics as given (or, for
// layernorm without them, recomputed from x with epsilon).
std::string normBackward(OpContext& c, NormKind kind)
{
    const RefTensor* x = c.in(c.node.uid("x_tensor_uid"));
    const RefTensor* dy = c.in(c.node.uid("dy_tensor_uid"));
    const Tensor* dxt = c.tensor(c.node.uid("dx_tensor_uid"));
    if(!x || !dy || !dxt)
        return missing("x, dy or dx");
    if(dy->dims != x->dims || dxt->dims != x->dims)
        return "no reference: dy / dx dims differ from x dims";
    if(kind == NormKind::Batchnorm && !c.node.ints("peer_stats_tensor_uid").empty())
        return "no reference for batchnorm with peer statistics";
    Param scale;
    std::string why = bindParam(c, "scale_tensor_uid", x->dims, true, &scale);
    if(!why.empty())
        return why;
    NormAxes a;
    std::vector<const char*> stats = kind == NormKind::Rmsnorm
                                         ? std::vector<const char*>{"inv_rms_tensor_uid"}
                                         : std::vector<const char*>{"mean_tensor_uid", "inv_variance_tensor_uid"};
    why = normAxes(c, kind, x->dims, stats, scale.t, &a);
    if(!why.empty())
        return why;
    c.notes.push_back(a.how);
    const size_t G = static_cast<size_t>(a.groups);
    const bool centred = kind != NormKind::Rmsnorm;

    // Statistics: the given tensors, else (layernorm) recomputed from x.
    GroupStats s;
    const int64_t meanUid = c.node.uid(kind == NormKind::Rmsnorm ? "" : "mean_tensor_uid");
    const int64_t rUid = c.node.uid(kind == NormKind::Rmsnorm ? "inv_rms_tensor_uid" : "inv_variance_tensor_uid");
    if(rUid >= 0 && (!centred || meanUid >= 0))
    {
        const RefTensor* rt = c.in(rUid);
        const RefTensor* mt = centred ? c.in(meanUid) : nullptr;
        if(!rt || rt->numel() != a.groups || (centred && (!mt || mt->numel() != a.groups)))
            return "no reference: statistics inputs missing or not one value per group";
        s.mean.assign(G, 0.0);
        s.emean.assign(G, 0.0);
        s.r = rt->v;
        s.er.resize(G);
        for(size_t gi = 0; gi < G; ++gi)
        {
            s.er[gi] = rt->err(static_cast<int64_t>(gi));
            if(centred)
            {
                s.mean[gi] = mt->v[gi];
                s.emean[gi] = mt->err(static_cast<int64_t>(gi));
            }
        }
    }
    else if(kind == NormKind::Layernorm && rUid < 0 && meanUid < 0)
    {
        double eps = 0;
        why = readEpsilon(c, &eps);
        if(!why.empty())
            return "no reference: layernorm backward has neither statistics nor epsilon";
        s = groupStats(*x, a, true, eps, c.u);
        c.notes.push_back("statistics recomputed from x");
    }
    else
    {
        return "no reference: backward needs its saved statistics (mean and inv_variance / inv_rms)";
    }

    const double n = static_cast<double>(a.perGroup);
    // Row sums A = Σg, B = Σg·x̂ (g = dy·scale, x̂ = (x − μ)·r), with errors.
    std::vector<double> A(G, 0.0), eA(G, 0.0), absA(G, 0.0), B(G, 0.0), eB(G, 0.0), absB(G, 0.0);
    auto terms = [&](const std::vector<int64_t>& idx, int64_t lin, size_t gi, double* g, double* eg, double* xh, double* exh,
                     int64_t* so) {
        const double sc = scale.at(idx, so);
        const double d = dy->v[static_cast<size_t>(lin)];
        const double centredX = x->v[static_cast<size_t>(lin)] - s.mean[gi];
        *xh = centredX * s.r[gi];
        *exh = s.r[gi] * (x->err(lin) + s.emean[gi]) + std::fabs(centredX) * s.er[gi] + kOpFactor * c.u * std::fabs(*xh);
        *g = d * sc;
        *eg = std::fabs(sc) * dy->err(lin) + std::fabs(d) * scale.t->err(*so) + kOpFactor * c.u * std::fabs(*g);
    };
    forEachIndex(x->dims, [&](const std::vector<int64_t>& idx, int64_t lin) {
        size_t gi = static_cast<size_t>(groupOf(idx, a));
        double g, eg, xh, exh;
        int64_t so;
        terms(idx, lin, gi, &g, &eg, &xh, &exh, &so);
        A[gi] += g;
        eA[gi] += eg;
        absA[gi] += std::fabs(g);
        B[gi] += g * xh;
        eB[gi] += std::fabs(xh) * eg + std::fabs(g) * exh;
        absB[gi] += std::fabs(g * xh);
    });
    for(size_t gi = 0; gi < G; ++gi)
    {
        eA[gi] += sumTol(c.u, n, absA[gi]);
        eB[gi] += sumTol(c.u, n, absB[gi]);
    }

    RefTensor* dx = c.out(dxt->uid);
    // Parameter gradients accumulate into their own (broadcast) shapes.
    struct Grad
    {
        RefTensor* t = nullptr;
        std::vector<int64_t> s;
        std::vector<double> abs, count;
    } dscale, dbias;
    auto bindGrad = [&](const char* key, Grad* gr) -> std::string {
        const Tensor* t = c.tensor(c.node.uid(key));
        if(!t)
            return "";
        if(!bcastStrides(t->dims, x->dims, &gr->s))
            return "no reference: " + std::string(key) + " " + dimsText(t->dims) + " does not broadcast to " + dimsText(x->dims);
        gr->t = c.out(t->uid);
        gr->abs.assign(gr->t->v.size(), 0.0);
        gr->count.assign(gr->t->v.size(), 0.0);
        return "";
    };
    why = bindGrad("dscale_tensor_uid", &dscale);
    if(why.empty())
        why = bindGrad("dbias_tensor_uid", &dbias);
    if(!why.empty())
        return why;
    forEachIndex(x->dims, [&](const std::vector<int64_t>& idx, int64_t lin) {
        size_t gi = static_cast<size_t>(groupOf(idx, a));
        double g, eg, xh, exh;
        int64_t so;
        terms(idx, lin, gi, &g, &eg, &xh, &exh, &so);
        const double inner = g - (centred ? A[gi] / n : 0.0) - xh * B[gi] / n;
        const size_t i = static_cast<size_t>(lin);
        dx->v[i] = s.r[gi] * inner;
        dx->e[i] =
            s.r[gi] * (eg + (centred ? eA[gi] / n : 0.0) + std::fabs(xh) * eB[gi] / n + exh * std::fabs(B[gi]) / n)
            + s.er[gi] * std::fabs(inner)
            + kOpFactor * c.u * s.r[gi] * (std::fabs(g) + (centred ? std::fabs(A[gi]) / n : 0.0) + std::fabs(xh * B[gi]) / n);
        const double d = dy->v[i];
        for(Grad* gr : {&dscale, &dbias})
        {
            if(!gr->t)
                continue;
            int64_t o = 0;
            for(size_t k = 0; k < idx.size(); ++k)
                o += idx[k] * gr->s[k];
            const size_t oi = static_cast<size_t>(o);
            const bool isScale = gr == &dscale;
            const double term = isScale ? d * xh : d;
            gr->t->v[oi] += term;
            gr->t->e[oi] += isScale ? std::fabs(xh) * dy->err(lin) + std::fabs(d) * exh : dy->err(lin);
            gr->abs[oi] += std::fabs(term);
            gr->count[oi] += 1;
        }
    });
    for(Grad* gr : {&dscale, &dbias})
    {
        if(!gr->t)
            continue;
        for(size_t i = 0; i < gr->t->v.size(); ++i)
            gr->t->e[i] += sumTol(c.u, gr->count[i], gr->abs[i]);
    }
    return "";
}

} // namespace

std::string refLayernorm(OpContext& c) { return normForward(c, NormKind::Layernorm); }

std::string refRmsnorm(OpContext& c) { return normForward(c, NormKind::Rmsnorm); }

std::string refBatchnormTraining(OpContext& c) { return normForward(c, NormKind::Batchnorm); }

std::string refLayernormBackward(OpContext& c) { return normBackward(c, NormKind::Layernorm); }

std::string refRmsnormBackward(OpContext& c) { return normBackward(c, NormKind::Rmsnorm); }

std::string refBatchnormBackward(OpContext& c) { return normBackward(c, NormKind::Batchnorm); }

} // namespace hdrun
