// The norm nodes' reading and checks (layernorm / RMSNorm forward and backward, batchnorm) and
// batchnorm inference lowered to pointwise ops.
#include "ModelRead.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace hipdnngo::cuda_rtc::model
{

// splitRows: x's elements as rows (the axes before `from`) of n normalized elements each.
static void splitRows(const Tensor& x, int from, int64_t* rows, int64_t* n)
{
    *rows = 1;
    *n = 1;
    for(int d = 0; d < x.rank(); ++d)
        (d < from ? *rows : *n) *= x.dims[static_cast<size_t>(d)];
}

NormFwd readLayernorm(const fbs::LayernormAttributes& a, const Program& p)
{
    NormFwd n;
    n.kind = NormKind::Layer;
    n.training = a.forward_phase() == fbs::NormFwdPhase::TRAINING;
    n.x = a.x_tensor_uid();
    n.scale = a.scale_tensor_uid();
    n.bias = a.bias_tensor_uid();
    n.eps = a.epsilon_tensor_uid();
    n.y = a.y_tensor_uid();
    n.mean = a.mean_tensor_uid().has_value() ? a.mean_tensor_uid().value() : -1;
    n.inv = a.inv_variance_tensor_uid().has_value() ? a.inv_variance_tensor_uid().value() : -1;
    const int64_t count = a.normalized_dim_count();
    const Tensor& x = p.t(n.x);
    if(count < 0 || count > x.rank())
        throw Unsupported("layernorm: normalized_dim_count " + std::to_string(count) + " is outside [0, rank of x]");
    n.k = static_cast<int>(count); // 0: from the scale tensor, below
    return n;
}

NormFwd readRmsnorm(const fbs::RMSNormAttributes& a)
{
    NormFwd n;
    n.kind = NormKind::Rms;
    n.training = a.forward_phase() == fbs::NormFwdPhase::TRAINING;
    n.x = a.x_tensor_uid();
    n.scale = a.scale_tensor_uid();
    n.bias = a.bias_tensor_uid().has_value() ? a.bias_tensor_uid().value() : -1;
    n.eps = a.epsilon_tensor_uid();
    n.y = a.y_tensor_uid();
    n.inv = a.inv_rms_tensor_uid().has_value() ? a.inv_rms_tensor_uid().value() : -1;
    n.k = 0; // from the scale tensor
    return n;
}

// normAxesFromScale: the reference engine's rule (kernels/LayerNorm.hpp): the axes where the
// right-aligned scale is not 1; scale 1 everywhere normalizes every axis but the first. The
// engine needs them to be the trailing axes; returns their count.
int trailingAxesFromScale(const Tensor& x, const Tensor& scale)
{
    const std::vector<int64_t> a = aligned(scale.dims, x.dims.size());
    if(a.empty())
        throw Unsupported("norm: scale has a higher rank than x");
    const int r = x.rank();
    std::vector<bool> mask(static_cast<size_t>(r), false);
    bool any = false;
    for(int d = 0; d < r; ++d)
    {
        mask[static_cast<size_t>(d)] = a[static_cast<size_t>(d)] != 1;
        any = any || mask[static_cast<size_t>(d)];
    }
    if(!any)
        for(int d = r >= 2 ? 1 : 0; d < r; ++d)
            mask[static_cast<size_t>(d)] = true;
    if(mask[0] && r >= 2)
        throw Unsupported("norm: scale varies along axis 0 of x; the batch axis is never normalized");
    // The first normalized axis onwards must all be normalized (size-1 axes do not matter).
    int first = r;
    for(int d = 0; d < r; ++d)
        if(mask[static_cast<size_t>(d)])
        {
            first = d;
            break;
        }
    for(int d = first; d < r; ++d)
        if(!mask[static_cast<size_t>(d)] && x.dims[static_cast<size_t>(d)] != 1)
            throw Unsupported("norm: the normalized axes are not the trailing axes of x (scale [" + dimsText(scale.dims) + "], x ["
                              + dimsText(x.dims) + "])");
    return r - first;
}

// denseOver reports whether t's strides over axes [from, rank) (aligned to x's rank) are packed
// row-major: the normalized part of a row is contiguous. Size-1 axes are ignored.
bool denseOver(const Tensor& t, int from)
{
    int64_t expect = 1;
    for(int d = t.rank() - 1; d >= from && d >= 0; --d)
    {
        const size_t i = static_cast<size_t>(d);
        if(t.dims[i] == 1)
            continue;
        if(t.strides[i] != expect)
            return false;
        expect *= t.dims[i];
    }
    return true;
}

void checkNormFwd(Program& p)
{
    NormFwd& n = p.norm;
    const char* what = n.kind == NormKind::Layer ? "layernorm" : "rmsnorm";
    for(int64_t uid : {n.x, n.scale, n.bias, n.y, n.mean, n.inv})
        if(uid >= 0 && !p.has(uid))
            throw Unsupported(std::string(what) + ": tensor uid " + std::to_string(uid) + " is not in the graph");
    const Tensor& x = p.t(n.x);
    const Tensor& y = p.t(n.y);
    if(x.isVirtual || x.scalarArg())
        throw Unsupported(std::string(what) + ": x must be a tensor in memory (a prologue before the norm is not fused yet)");
    if(y.dims != x.dims)
        throw Unsupported(std::string(what) + ": y must have the dims of x");
    const Tensor& scale = p.t(n.scale);
    if(n.k == 0)
        n.k = trailingAxesFromScale(x, scale);
    const int r = x.rank();
    const int from = r - n.k;
    p.space = x.dims;
    splitRows(x, from, &n.rows, &n.n);
    if(!denseOver(x, from) || (!y.isVirtual && !denseOver(y, from)))
        throw Unsupported(std::string(what) + ": the normalized axes of x and y must be packed (contiguous rows)");
    for(int64_t uid : {n.scale, n.bias})
    {
        if(uid < 0)
            continue;
        const Tensor& t = p.t(uid);
        if(t.isVirtual)
            throw Unsupported(std::string(what) + ": scale and bias must be tensors in memory");
        if(!broadcastsTo(t, x.dims))
            throw Unsupported(std::string(what) + ": tensor " + std::to_string(uid) + " [" + dimsText(t.dims)
                              + "] does not broadcast to x [" + dimsText(x.dims) + "]");
        const std::vector<int64_t> a = aligned(t.dims, x.dims.size());
        for(int d = 0; d < from; ++d)
            if(a[static_cast<size_t>(d)] != 1)
                throw Unsupported(std::string(what) + ": tensor " + std::to_string(uid)
                                  + " varies along a kept (row) axis; it must broadcast over the rows");
    }
    for(int64_t uid : {n.mean, n.inv})
    {
        if(uid < 0)
            continue;
        const Tensor& t = p.t(uid);
        if(t.isVirtual)
            throw Unsupported(std::string(what) + ": statistics outputs read by later nodes are not fused yet");
        bool ok = t.rank() == r;
        for(int d = 0; ok && d < r; ++d)
            ok = t.dims[static_cast<size_t>(d)] == (d < from ? x.dims[static_cast<size_t>(d)] : 1);
        if(!ok)
            throw Unsupported(std::string(what) + ": statistics tensor " + std::to_string(uid)
                              + " must have x's dims with the normalized axes set to 1");
    }
    const Tensor& eps = p.t(n.eps);
    if(eps.elements() != 1)
        throw Unsupported(std::string(what) + ": epsilon must hold one element");
}

void checkBatchnorm(Program& p)
{
    Batchnorm& b = p.bn;
    const bool fwd = p.pattern == Pattern::BnFwd;
    const char* what = fwd ? "batchnorm" : "batchnorm backward";
    for(int64_t uid : {b.x, b.scale, b.bias, b.eps, b.momentum, b.prevMean, b.prevVar, b.y, b.mean, b.inv, b.nextMean, b.nextVar,
                       b.dy, b.dx, b.dscale, b.dbias})
        if(uid >= 0 && !p.has(uid))
            throw Unsupported(std::string(what) + ": tensor uid " + std::to_string(uid) + " is not in the graph");
    const Tensor& x = p.t(b.x);
    if(x.rank() < 2)
        throw Unsupported(std::string(what) + ": x needs rank 2 or more (channels on axis 1)");
    if(x.isVirtual || x.scalarArg())
        throw Unsupported(std::string(what) + ": x must be a tensor in memory");
    b.channels = x.dims[1];
    b.members = x.elements() / b.channels;
    p.space = x.dims;
    for(int64_t uid : {b.y, b.dy, b.dx})
        if(uid >= 0 && p.t(uid).dims != x.dims)
            throw Unsupported(std::string(what) + ": tensor " + std::to_string(uid) + " must have the dims of x");
    for(int64_t uid : {b.dy, b.dx})
        if(uid >= 0 && p.t(uid).isVirtual)
            throw Unsupported(std::string(what) + ": dy and dx must be in memory");
    for(int64_t uid : {b.scale, b.bias, b.prevMean, b.prevVar, b.mean, b.inv, b.nextMean, b.nextVar, b.dscale, b.dbias})
    {
        if(uid < 0)
            continue;
        const Tensor& t = p.t(uid);
        if(t.isVirtual || t.scalarArg())
            throw Unsupported(std::string(what) + ": per-channel tensor " + std::to_string(uid) + " must be in memory");
        const std::vector<int64_t> a = aligned(t.dims, x.dims.size());
        bool ok = !a.empty();
        for(size_t d = 0; ok && d < a.size(); ++d)
            ok = a[d] == (d == 1 ? b.channels : 1);
        if(!ok)
            throw Unsupported(std::string(what) + ": tensor " + std::to_string(uid) + " [" + dimsText(t.dims)
                              + "] is not per channel [1, C, 1, ...]");
    }
    for(int64_t uid : {b.eps, b.momentum})
        if(uid >= 0 && p.t(uid).elements() != 1)
            throw Unsupported(std::string(what) + ": epsilon and momentum must hold one element");
    if(b.nextVar >= 0 && b.members < 2)
        throw Unsupported("batchnorm: the unbiased running variance needs more than one element per channel");
}

void checkNormBwd(Program& p)
{
    NormBwd& b = p.bwd;
    const char* what = b.kind == NormKind::Layer ? "layernorm backward" : "rmsnorm backward";
    for(int64_t uid : {b.dy, b.x, b.scale, b.mean, b.inv, b.eps, b.dx, b.dscale, b.dbias})
        if(uid >= 0 && !p.has(uid))
            throw Unsupported(std::string(what) + ": tensor uid " + std::to_string(uid) + " is not in the graph");
    for(int64_t uid : {b.dy, b.x, b.scale, b.mean, b.inv, b.dx, b.dscale, b.dbias})
        if(uid >= 0 && (p.t(uid).isVirtual || p.t(uid).scalarArg()))
            throw Unsupported(std::string(what) + ": tensor " + std::to_string(uid) + " must be in memory");
    const Tensor& x = p.t(b.x);
    if(p.t(b.dy).dims != x.dims || p.t(b.dx).dims != x.dims)
        throw Unsupported(std::string(what) + ": dy and dx must have the dims of x");
    if((b.mean >= 0) != (b.inv >= 0) && b.kind == NormKind::Layer)
        throw Unsupported(std::string(what) + ": mean and inv_variance must be given together");
    if(b.kind == NormKind::Layer && b.inv < 0 && b.eps < 0)
        throw Unsupported(std::string(what) + ": without saved statistics an epsilon is needed to recompute them");
    if(b.kind == NormKind::Layer && b.inv < 0 && p.t(b.eps).elements() != 1)
        throw Unsupported(std::string(what) + ": epsilon must hold one element");
    if(b.k == 0)
        b.k = trailingAxesFromScale(x, p.t(b.scale));
    if(b.k < 1 || b.k > x.rank())
        throw Unsupported(std::string(what) + ": normalized_dim_count " + std::to_string(b.k) + " is outside [1, rank of x]");
    const int r = x.rank();
    const int from = r - b.k;
    p.space = x.dims;
    splitRows(x, from, &b.rows, &b.n);
    if(!denseOver(x, from) || !denseOver(p.t(b.dy), from) || !denseOver(p.t(b.dx), from))
        throw Unsupported(std::string(what) + ": the normalized axes of x, dy and dx must be packed (contiguous rows)");
    // scale and its gradients: one value per normalized position, broadcast over the rows.
    for(int64_t uid : {b.scale, b.dscale, b.dbias})
    {
        if(uid < 0)
            continue;
        const std::vector<int64_t> a = aligned(p.t(uid).dims, x.dims.size());
        bool ok = !a.empty();
        for(int d = 0; ok && d < r; ++d)
            ok = a[static_cast<size_t>(d)] == (d < from ? 1 : x.dims[static_cast<size_t>(d)]);
        if(!ok)
            throw Unsupported(std::string(what) + ": tensor " + std::to_string(uid) + " [" + dimsText(p.t(uid).dims)
                              + "] must have x's normalized dims and 1 on the row axes");
    }
    for(int64_t uid : {b.mean, b.inv})
    {
        if(uid < 0)
            continue;
        const Tensor& t = p.t(uid);
        bool ok = t.rank() == r;
        for(int d = 0; ok && d < r; ++d)
            ok = t.dims[static_cast<size_t>(d)] == (d < from ? x.dims[static_cast<size_t>(d)] : 1);
        if(!ok)
            throw Unsupported(std::string(what) + ": statistics tensor " + std::to_string(uid)
                              + " must have x's dims with the normalized axes set to 1");
    }
}

// lowerBatchnormInference appends the pointwise ops of a batchnorm inference node, as the
// reference computes it in fp32: y = scale * ((x - mean) * inv) + bias, with
// inv = 1 / sqrt(variance + epsilon) in the variance form. Intermediates are virtual fp32 tensors
// with fresh uids.
void lowerBatchnormInference(Program& p, int64_t x, int64_t mean, int64_t inv, int64_t var, int64_t eps, int64_t scale,
                             int64_t bias, int64_t y)
{
    for(int64_t uid : {x, mean, inv, var, eps, scale, bias, y})
        if(uid != -1 && !p.has(uid))
            throw Unsupported("batchnorm inference: tensor uid " + std::to_string(uid) + " is not in the graph");
    int64_t next = 0;
    for(const Tensor& t : p.tensors)
        next = std::max(next, t.uid);
    auto temp = [&](const std::vector<int64_t>& dims) {
        Tensor t;
        t.uid = ++next;
        t.name = "batchnorm_tmp";
        t.dt = DType::F32;
        t.dims = dims;
        t.strides.assign(dims.size(), 0);
        t.isVirtual = true;
        p.tensors.push_back(t);
        return t.uid;
    };
    const std::vector<int64_t> xdims = p.t(x).dims;
    auto op = [&](fbs::PointwiseMode m, int64_t a, int64_t b, int64_t out) {
        PwOp o;
        o.mode = static_cast<int>(m);
        o.in[0] = a;
        o.in[1] = b;
        o.out = out;
        p.pw.push_back(o);
    };
    if(var >= 0)
    {
        const std::vector<int64_t> vdims = p.t(var).dims;
        const int64_t sum = temp(vdims);
        op(fbs::PointwiseMode::ADD, var, eps, sum);
        inv = temp(vdims);
        op(fbs::PointwiseMode::RSQRT, sum, -1, inv);
    }
    const int64_t d = temp(xdims), n = temp(xdims), g = temp(xdims);
    op(fbs::PointwiseMode::SUB, x, mean, d);
    op(fbs::PointwiseMode::MUL, d, inv, n);
    op(fbs::PointwiseMode::MUL, scale, n, g);
    op(fbs::PointwiseMode::ADD, g, bias, y);
}

} // namespace hipdnngo::cuda_rtc::model
