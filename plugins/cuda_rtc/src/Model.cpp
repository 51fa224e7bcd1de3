#include "Model.hpp"

#include <hipdnn_plugin_sdk/helpers/PluginHelpers.hpp>
#include <hipdnn_plugin_sdk/helpers/TensorTable.hpp>

#include <algorithm>
#include <map>
#include <set>

namespace hipdnngo::cuda_rtc
{

const char* dtypeName(DType t)
{
    switch(t)
    {
    case DType::F32: return "fp32";
    case DType::F16: return "fp16";
    case DType::BF16: return "bf16";
    }
    return "?";
}

const char* reductionName(int mode)
{
    static const char* const names[] = {"unset", "add", "mul", "min", "max", "amax", "avg", "norm1", "norm2", "mul_no_zeros"};
    return mode >= 0 && mode <= 9 ? names[mode] : "unknown";
}

int dtypeBytes(DType t) { return t == DType::F32 ? 4 : 2; }

int64_t Tensor::elements() const
{
    int64_t n = 1;
    for(int64_t d : dims)
        n *= d;
    return n;
}

const Tensor& Program::t(int64_t uid) const
{
    for(const Tensor& x : tensors)
        if(x.uid == uid)
            return x;
    throw Unsupported("tensor uid " + std::to_string(uid) + " is not in the graph");
}

bool Program::has(int64_t uid) const
{
    for(const Tensor& x : tensors)
        if(x.uid == uid)
            return true;
    return false;
}

const char* pwModeName(int mode)
{
    static const char* const names[] = {"unset", "abs", "add", "add_square", "binary_select", "ceil", "cmp_eq", "cmp_ge",
                                        "cmp_gt", "cmp_le", "cmp_lt", "cmp_neq", "div", "elu_bwd", "elu_fwd", "erf", "exp",
                                        "floor", "gelu_approx_tanh_bwd", "gelu_approx_tanh_fwd", "gelu_bwd", "gelu_fwd",
                                        "gen_index", "identity", "log", "logical_and", "logical_not", "logical_or", "max",
                                        "min", "mul", "neg", "reciprocal", "relu_bwd", "relu_fwd", "rsqrt", "sigmoid_bwd",
                                        "sigmoid_fwd", "sin", "softplus_bwd", "softplus_fwd", "sqrt", "sub", "swish_bwd",
                                        "swish_fwd", "tan", "tanh_bwd", "tanh_fwd"};
    return mode >= 0 && mode < static_cast<int>(sizeof names / sizeof names[0]) ? names[mode] : "unknown";
}

int pwArity(int mode)
{
    using M = fbs::PointwiseMode;
    switch(static_cast<M>(mode))
    {
    case M::BINARY_SELECT: return 3;
    case M::ADD:
    case M::ADD_SQUARE:
    case M::CMP_EQ:
    case M::CMP_GE:
    case M::CMP_GT:
    case M::CMP_LE:
    case M::CMP_LT:
    case M::CMP_NEQ:
    case M::DIV:
    case M::LOGICAL_AND:
    case M::LOGICAL_OR:
    case M::MAX_OP:
    case M::MIN_OP:
    case M::MUL:
    case M::SUB:
    case M::ELU_BWD:
    case M::GELU_APPROX_TANH_BWD:
    case M::GELU_BWD:
    case M::RELU_BWD:
    case M::SIGMOID_BWD:
    case M::SOFTPLUS_BWD:
    case M::SWISH_BWD:
    case M::TANH_BWD: return 2;
    case M::GEN_INDEX: return 0;
    default: return 1;
    }
}

namespace
{

std::string dimsText(const std::vector<int64_t>& d)
{
    std::string s;
    for(size_t i = 0; i < d.size(); ++i)
        s += (i ? "x" : "") + std::to_string(d[i]);
    return s;
}

// alignedDims: t's dims right-aligned to `rank` (leading 1s), or empty when t's rank is larger.
std::vector<int64_t> aligned(const std::vector<int64_t>& dims, size_t rank)
{
    if(dims.size() > rank)
        return {};
    std::vector<int64_t> out(rank, 1);
    std::copy(dims.begin(), dims.end(), out.begin() + static_cast<std::ptrdiff_t>(rank - dims.size()));
    return out;
}

bool broadcastsTo(const Tensor& t, const std::vector<int64_t>& space)
{
    const std::vector<int64_t> a = aligned(t.dims, space.size());
    if(a.empty())
        return false;
    for(size_t d = 0; d < space.size(); ++d)
        if(a[d] != 1 && a[d] != space[d])
            return false;
    return true;
}

std::vector<Tensor> readTensors(const fbs::Graph& graph)
{
    const hipdnn_plugin_sdk::TensorTable<Unsupported> table(graph, {0, 8, std::nullopt});
    std::vector<Tensor> out;
    for(const hipdnn_plugin_sdk::TensorRecord& r : table.all())
    {
        Tensor t;
        t.uid = r.uid;
        t.name = r.name;
        t.dims = r.dims;
        t.strides = r.strides;
        t.isVirtual = r.isVirtual;
        t.isConstant = r.isConstant;
        t.byValue = r.isPassByValue;
        t.value = r.value;
        t.wireType = r.dtype;
        t.alignment = graph.tensors()->Get(static_cast<flatbuffers::uoffset_t>(r.index))->alignment();
        if(t.dims.empty()) // a rank-0 scalar: one element
        {
            t.dims = {1};
            t.strides = {1};
        }
        switch(r.dtype)
        {
        case fbs::DataType::FLOAT: t.dt = DType::F32; break;
        case fbs::DataType::HALF: t.dt = DType::F16; break;
        case fbs::DataType::BFLOAT16: t.dt = DType::BF16; break;
        default:
            // Scalars travel as fp32 kernel arguments whatever their type, if it is a float type.
            if(t.scalarArg() && (r.dtype == fbs::DataType::DOUBLE))
            {
                t.dt = DType::F32;
                break;
            }
            throw Unsupported("tensor " + r.label() + ": data type " + std::string(fbs::EnumNameDataType(r.dtype))
                              + " (supported: FLOAT, HALF, BFLOAT16)");
        }
        out.push_back(std::move(t));
    }
    return out;
}

PwOp readPointwise(const fbs::PointwiseAttributes& a)
{
    PwOp p;
    p.mode = static_cast<int>(a.operation());
    if(p.mode < 1 || p.mode > static_cast<int>(fbs::PointwiseMode::TANH_FWD))
        throw Unsupported("pointwise mode " + std::to_string(p.mode) + " is unknown");
    if(a.relu_lower_clip().has_value())
        p.reluLo = a.relu_lower_clip().value();
    if(a.relu_upper_clip().has_value())
        p.reluHi = a.relu_upper_clip().value();
    if(a.relu_lower_clip_slope().has_value())
        p.reluSlope = a.relu_lower_clip_slope().value();
    if(a.swish_beta().has_value())
        p.swishBeta = a.swish_beta().value();
    if(a.elu_alpha().has_value())
        p.eluAlpha = a.elu_alpha().value();
    if(a.softplus_beta().has_value())
        p.softplusBeta = a.softplus_beta().value();
    const int arity = pwArity(p.mode);
    if(p.mode == static_cast<int>(fbs::PointwiseMode::GEN_INDEX))
    {
        if(!a.axis_tensor_uid().has_value())
            throw Unsupported("pointwise gen_index needs an axis");
        p.axis = a.axis_tensor_uid().value();
    }
    else
    {
        p.in[0] = a.in_0_tensor_uid();
    }
    if(arity >= 2)
    {
        if(!a.in_1_tensor_uid().has_value())
            throw Unsupported(std::string("pointwise ") + pwModeName(p.mode) + " needs in_1");
        p.in[1] = a.in_1_tensor_uid().value();
    }
    if(arity >= 3)
    {
        if(!a.in_2_tensor_uid().has_value())
            throw Unsupported(std::string("pointwise ") + pwModeName(p.mode) + " needs in_2");
        p.in[2] = a.in_2_tensor_uid().value();
    }
    if((p.mode == static_cast<int>(fbs::PointwiseMode::SOFTPLUS_FWD) || p.mode == static_cast<int>(fbs::PointwiseMode::SOFTPLUS_BWD))
       && p.softplusBeta == 0.0f)
        throw Unsupported("pointwise softplus: softplus_beta must not be 0");
    p.out = a.out_0_tensor_uid();
    return p;
}

// checkPointwiseDag checks the pointwise nodes against the iteration space: every node's
// inputs exist and broadcast to the space, its output has the space's dims (virtual
// intermediates may be smaller only when no GEN_INDEX reads their shape), each tensor is written
// once, and no node reads a tensor a later node writes. `produced` holds the tensors written
// before the first pointwise node (a norm's y).
void checkPointwiseDag(const Program& p, std::set<int64_t> produced, std::set<int64_t> written)
{
    for(const PwOp& op : p.pw)
        written.insert(op.out);
    for(const PwOp& op : p.pw)
    {
        const std::string what = std::string("pointwise ") + pwModeName(op.mode);
        for(int i = 0; i < pwArity(op.mode); ++i)
        {
            const Tensor& t = p.t(op.in[i]);
            if(produced.count(t.uid) == 0 && written.count(t.uid) != 0)
                throw Unsupported(what + ": input " + std::to_string(t.uid) + " is written by the graph after it is read");
            if(t.isVirtual && produced.count(t.uid) == 0)
                throw Unsupported(what + ": virtual input " + std::to_string(t.uid) + " is read before it is written");
            if(!broadcastsTo(t, p.space))
                throw Unsupported(what + ": input " + std::to_string(t.uid) + " [" + dimsText(t.dims)
                                  + "] does not broadcast to [" + dimsText(p.space) + "]");
        }
        const Tensor& o = p.t(op.out);
        if(o.scalarArg())
            throw Unsupported(what + ": output " + std::to_string(o.uid) + " is a scalar argument");
        if(produced.count(o.uid) != 0)
            throw Unsupported(what + ": tensor " + std::to_string(o.uid) + " is written twice");
        const std::vector<int64_t> a = aligned(o.dims, p.space.size());
        if(a != p.space)
        {
            if(!o.isVirtual || op.mode == static_cast<int>(fbs::PointwiseMode::GEN_INDEX) || !broadcastsTo(o, p.space))
                throw Unsupported(what + ": output " + std::to_string(o.uid) + " [" + dimsText(o.dims)
                                  + "] is not the iteration space [" + dimsText(p.space) + "]");
        }
        produced.insert(o.uid);
    }
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
    n.rows = 1;
    n.n = 1;
    for(int d = 0; d < r; ++d)
        (d < from ? n.rows : n.n) *= x.dims[static_cast<size_t>(d)];
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
    b.rows = 1;
    b.n = 1;
    for(int d = 0; d < r; ++d)
        (d < from ? b.rows : b.n) *= x.dims[static_cast<size_t>(d)];
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

bool sameAligned(const Tensor& t, const std::vector<int64_t>& dims)
{
    return aligned(t.dims, dims.size()) == dims;
}

} // namespace

Level Program::level(int64_t uid) const
{
    const Tensor& x = t(uid);
    if(x.scalarArg())
        return Level::Scalar;
    const int R = static_cast<int>(space.size());
    const int from = R - rp.k;
    std::vector<int64_t> rowDims = space;
    for(int d = from; d < R; ++d)
        rowDims[static_cast<size_t>(d)] = 1;
    if(sameAligned(x, space))
        return Level::Full;
    if(sameAligned(x, rowDims))
        return Level::Row;
    const std::vector<int64_t> a = aligned(x.dims, space.size());
    bool param = !a.empty();
    for(int d = 0; param && d < R; ++d)
        param = d < from ? a[static_cast<size_t>(d)] == 1
                         : (a[static_cast<size_t>(d)] == 1 || a[static_cast<size_t>(d)] == space[static_cast<size_t>(d)]);
    if(param)
        return Level::Param;
    throw Unsupported("row program: tensor " + std::to_string(uid) + " [" + dimsText(x.dims)
                      + "] is neither per element, per row nor broadcast over the rows of [" + dimsText(space) + "]");
}

namespace
{

// readRowProgram: a graph of pointwise and reduction nodes whose reductions all reduce the same
// trailing axes of the same shape (softmax: max, sub, exp, sum, div). Layernorm / RMSNorm forward
// nodes in it (a pointwise prologue: residual add -> layernorm) are lowered to the same ops, as
// the reference computes them (two passes, fp32).
Program readRowProgram(const fbs::Graph& graph, Program p)
{
    p.pattern = Pattern::RowProgram;
    RowProg& rp = p.rp;
    // The shape and the reduced axes: from the first reduction or norm.
    bool found = false;
    for(const fbs::Node* node : *graph.nodes())
    {
        if(node->attributes_type() == fbs::NodeAttributes::ReductionAttributes)
        {
            const fbs::ReductionAttributes& a = *node->attributes_as_ReductionAttributes();
            if(!p.has(a.in_tensor_uid()) || !p.has(a.out_tensor_uid()))
                throw Unsupported("reduction: a tensor is not in the graph");
            const Tensor& in = p.t(a.in_tensor_uid());
            const Tensor& out = p.t(a.out_tensor_uid());
            if(in.rank() != out.rank())
                throw Unsupported("reduction: input and output must have the same rank");
            p.space = in.dims;
            const int R = in.rank();
            int from = R;
            while(from > 0 && out.dims[static_cast<size_t>(from) - 1] == 1)
                --from;
            for(int d = 0; d < from; ++d)
                if(out.dims[static_cast<size_t>(d)] != in.dims[static_cast<size_t>(d)])
                    throw Unsupported("row program: a reduction must reduce the trailing axes only");
            rp.k = R - from;
            found = true;
        }
        else if(node->attributes_type() == fbs::NodeAttributes::LayernormAttributes
                || node->attributes_type() == fbs::NodeAttributes::RMSNormAttributes)
        {
            const NormFwd n = node->attributes_type() == fbs::NodeAttributes::LayernormAttributes
                                  ? readLayernorm(*node->attributes_as_LayernormAttributes(), p)
                                  : readRmsnorm(*node->attributes_as_RMSNormAttributes());
            if(!p.has(n.x) || !p.has(n.scale))
                throw Unsupported("norm: a tensor is not in the graph");
            p.space = p.t(n.x).dims;
            rp.k = n.k != 0 ? n.k : trailingAxesFromScale(p.t(n.x), p.t(n.scale));
            found = true;
        }
        if(found)
            break;
    }
    if(!found || rp.k == 0)
        throw Unsupported("row program: nothing is reduced");
    const int R = static_cast<int>(p.space.size());
    const int from = R - rp.k;
    for(int d = 0; d < R; ++d)
        (d < from ? rp.rows : rp.n) *= p.space[static_cast<size_t>(d)];
    std::vector<int64_t> rowDims = p.space;
    for(int d = from; d < R; ++d)
        rowDims[static_cast<size_t>(d)] = 1;

    // The ops: graph nodes, with norms lowered.
    std::vector<RowOp> raw;
    int64_t next = 0;
    for(const Tensor& t : p.tensors)
        next = std::max(next, t.uid);
    auto temp = [&](bool full) {
        Tensor t;
        t.uid = ++next;
        t.name = "row_tmp";
        t.dims = full ? p.space : rowDims;
        t.strides.assign(t.dims.size(), 0);
        t.isVirtual = true;
        p.tensors.push_back(t);
        return t.uid;
    };
    auto pw = [&](fbs::PointwiseMode m, int64_t a, int64_t b, int64_t out) {
        RowOp op;
        op.pw.mode = static_cast<int>(m);
        op.pw.in[0] = a;
        op.pw.in[1] = b;
        op.pw.out = out;
        raw.push_back(op);
    };
    auto red = [&](fbs::ReductionMode m, int64_t in, int64_t out) {
        RowOp op;
        op.reduce = true;
        op.redMode = static_cast<int>(m);
        op.pw.in[0] = in;
        op.pw.out = out;
        raw.push_back(op);
    };
    for(const fbs::Node* node : *graph.nodes())
    {
        const fbs::NodeAttributes type = node->attributes_type();
        if(type == fbs::NodeAttributes::ReductionAttributes)
        {
            const fbs::ReductionAttributes& a = *node->attributes_as_ReductionAttributes();
            if(static_cast<int>(a.mode()) < 1 || static_cast<int>(a.mode()) > 9)
                throw Unsupported("reduction mode " + std::to_string(static_cast<int>(a.mode())) + " is unknown");
            red(a.mode(), a.in_tensor_uid(), a.out_tensor_uid());
        }
        else if(type == fbs::NodeAttributes::PointwiseAttributes)
        {
            RowOp op;
            op.pw = readPointwise(*node->attributes_as_PointwiseAttributes());
            raw.push_back(op);
        }
        else
        {
            const bool layer = type == fbs::NodeAttributes::LayernormAttributes;
            const NormFwd n = layer ? readLayernorm(*node->attributes_as_LayernormAttributes(), p)
                                    : readRmsnorm(*node->attributes_as_RMSNormAttributes());
            for(int64_t uid : {n.x, n.scale, n.bias, n.eps, n.y, n.mean, n.inv})
                if(uid >= 0 && !p.has(uid))
                    throw Unsupported("norm: tensor uid " + std::to_string(uid) + " is not in the graph");
            const int k = n.k != 0 ? n.k : trailingAxesFromScale(p.t(n.x), p.t(n.scale));
            if(k != rp.k || p.t(n.x).dims != p.space)
                throw Unsupported("row program: the norm does not normalize the same trailing axes of the same shape");
            if(!p.t(n.eps).scalarArg())
                throw Unsupported("row program: a norm's epsilon must be a constant or a pass-by-value scalar here");
            const int64_t eps = n.eps;
            const int64_t sq = temp(true), var = temp(false), ve = temp(false), inv = temp(false), xh = temp(true);
            int64_t centered = n.x;
            int64_t mean = -1;
            if(layer)
            {
                mean = temp(false);
                centered = temp(true);
                red(fbs::ReductionMode::AVG, n.x, mean);
                pw(fbs::PointwiseMode::SUB, n.x, mean, centered);
            }
            pw(fbs::PointwiseMode::MUL, centered, centered, sq);
            red(fbs::ReductionMode::AVG, sq, var);
            pw(fbs::PointwiseMode::ADD, var, eps, ve);
            pw(fbs::PointwiseMode::RSQRT, ve, -1, inv);
            pw(fbs::PointwiseMode::MUL, centered, inv, xh);
            if(n.bias >= 0)
            {
                const int64_t ys = temp(true);
                pw(fbs::PointwiseMode::MUL, xh, n.scale, ys);
                pw(fbs::PointwiseMode::ADD, ys, n.bias, n.y);
            }
            else
            {
                pw(fbs::PointwiseMode::MUL, xh, n.scale, n.y);
            }
            if(layer && n.mean >= 0)
                pw(fbs::PointwiseMode::IDENTITY, mean, -1, n.mean);
            if(n.inv >= 0)
                pw(fbs::PointwiseMode::IDENTITY, inv, -1, n.inv);
        }
    }

    std::set<int64_t> produced, written;
    for(const RowOp& op : raw) // every tensor the graph writes
        written.insert(op.pw.out);
    for(RowOp op : raw)
    {
        if(op.reduce)
        {
            if(!p.has(op.pw.in[0]) || !p.has(op.pw.out) || p.level(op.pw.in[0]) != Level::Full || p.level(op.pw.out) != Level::Row)
                throw Unsupported("row program: every reduction must reduce the same trailing axes of the same shape");
            op.level = Level::Row;
        }
        else
        {
            if(op.pw.mode == static_cast<int>(fbs::PointwiseMode::GEN_INDEX))
                throw Unsupported("row program: gen_index is not supported");
            bool full = false;
            for(int i = 0; i < pwArity(op.pw.mode); ++i)
            {
                if(!p.has(op.pw.in[i]))
                    throw Unsupported("pointwise input uid " + std::to_string(op.pw.in[i]) + " is not in the graph");
                const Level l = p.level(op.pw.in[i]);
                full = full || l == Level::Full || l == Level::Param;
            }
            if(!p.has(op.pw.out))
                throw Unsupported("pointwise output uid " + std::to_string(op.pw.out) + " is not in the graph");
            op.level = full ? Level::Full : Level::Row;
            if(p.level(op.pw.out) != op.level)
                throw Unsupported("row program: pointwise output " + std::to_string(op.pw.out) + " does not have the shape of its inputs");
        }
        for(int i = 0; i < (op.reduce ? 1 : pwArity(op.pw.mode)); ++i)
        {
            const Tensor& t = p.t(op.pw.in[i]);
            if(t.isVirtual && produced.count(t.uid) == 0)
                throw Unsupported("row program: virtual input " + std::to_string(t.uid) + " is read before it is written");
            if(!t.isVirtual && written.count(t.uid) != 0 && produced.count(t.uid) == 0)
                throw Unsupported("row program: tensor " + std::to_string(t.uid) + " is read before the graph writes it");
            if(!t.isVirtual && p.level(t.uid) == Level::Full && !denseOver(t, from))
                throw Unsupported("row program: the rows of tensor " + std::to_string(t.uid) + " must be packed (contiguous)");
        }
        const Tensor& o = p.t(op.pw.out);
        if(produced.count(o.uid) != 0 || o.scalarArg())
            throw Unsupported("row program: tensor " + std::to_string(o.uid) + " is written twice or is a scalar");
        if(!o.isVirtual && op.level == Level::Full && !denseOver(o, from))
            throw Unsupported("row program: the rows of output " + std::to_string(o.uid) + " must be packed (contiguous)");
        produced.insert(o.uid);
        rp.ops.push_back(op);
    }
    p.summary = "row_program(" + dimsText(p.space) + ", " + std::to_string(rp.rows) + " rows of " + std::to_string(rp.n) + ":";
    for(const RowOp& op : rp.ops)
        p.summary += std::string(" ") + (op.reduce ? std::string("reduce_") + reductionName(op.redMode) : pwModeName(op.pw.mode));
    p.summary += ")";
    return p;
}

// isRowProgram: pointwise and reduction nodes only, with a reduction that a single-reduction
// pattern does not cover (more than one, or pointwise work before it).
bool isRowProgram(const fbs::Graph& graph, bool* maybe)
{
    int reductions = 0;
    *maybe = false;
    bool pointwiseFirst = false;
    for(flatbuffers::uoffset_t i = 0; i < graph.nodes()->size(); ++i)
    {
        const fbs::Node* n = graph.nodes()->Get(i);
        if(n == nullptr)
            return false;
        if(n->attributes_type() == fbs::NodeAttributes::ReductionAttributes)
        {
            reductions++;
            pointwiseFirst = pointwiseFirst || i > 0;
        }
        else if(n->attributes_type() == fbs::NodeAttributes::LayernormAttributes
                || n->attributes_type() == fbs::NodeAttributes::RMSNormAttributes)
        {
            if(i == 0) // a norm first is the norm-forward pattern (with its epilogue)
                return false;
            reductions += 2;
        }
        else if(n->attributes_type() != fbs::NodeAttributes::PointwiseAttributes)
            return false;
    }
    *maybe = reductions == 1 && graph.nodes()->size() > 1; // reduction -> pointwise that may read x again
    return reductions > 1 || (reductions == 1 && pointwiseFirst);
}

Program readSingle(const fbs::Graph& graph, Program p);

} // namespace

Program readProgram(const fbs::Graph& graph)
{
    const std::string host = hipdnn_plugin_sdk::hostFeatureProblem(graph);
    if(!host.empty())
        throw Unsupported(host);
    Program p;
    p.tensors = readTensors(graph);
    if(graph.nodes() == nullptr || graph.nodes()->size() == 0)
        throw Unsupported("graph has no nodes");
    bool maybeRows = false;
    if(isRowProgram(graph, &maybeRows))
        return readRowProgram(graph, std::move(p));
    if(maybeRows)
    {
        Program single = p;
        try
        {
            return readSingle(graph, std::move(single));
        }
        catch(const Unsupported& first)
        {
            try
            {
                return readRowProgram(graph, std::move(p));
            }
            catch(const Unsupported&)
            {
                throw first;
            }
        }
    }
    return readSingle(graph, std::move(p));
}

namespace
{

Program readSingle(const fbs::Graph& graph, Program p)
{
    std::set<int64_t> produced;
    size_t first = 0;
    const fbs::Node* head = graph.nodes()->Get(0);
    if(head == nullptr)
        throw Unsupported("graph has a null node");
    switch(head->attributes_type())
    {
    case fbs::NodeAttributes::LayernormAttributes:
        p.pattern = Pattern::NormFwd;
        p.norm = readLayernorm(*head->attributes_as_LayernormAttributes(), p);
        first = 1;
        break;
    case fbs::NodeAttributes::RMSNormAttributes:
        p.pattern = Pattern::NormFwd;
        p.norm = readRmsnorm(*head->attributes_as_RMSNormAttributes());
        first = 1;
        break;
    case fbs::NodeAttributes::PointwiseAttributes:
    case fbs::NodeAttributes::BatchnormInferenceAttributes:
    case fbs::NodeAttributes::BatchnormInferenceAttributesVarianceExt: p.pattern = Pattern::Pointwise; break;
    case fbs::NodeAttributes::BatchnormAttributes:
    {
        const fbs::BatchnormAttributes& a = *head->attributes_as_BatchnormAttributes();
        if(a.peer_stats_tensor_uid() != nullptr && a.peer_stats_tensor_uid()->size() != 0)
            throw Unsupported("batchnorm: peer statistics (multi-device) are not supported");
        p.pattern = Pattern::BnFwd;
        Batchnorm& b = p.bn;
        auto opt = [](const flatbuffers::Optional<int64_t>& v) { return v.has_value() ? v.value() : int64_t{-1}; };
        b.x = a.x_tensor_uid();
        b.scale = a.scale_tensor_uid();
        b.bias = a.bias_tensor_uid();
        b.eps = a.epsilon_tensor_uid();
        b.y = a.y_tensor_uid();
        b.mean = opt(a.mean_tensor_uid());
        b.inv = opt(a.inv_variance_tensor_uid());
        b.nextMean = opt(a.next_running_mean_tensor_uid());
        b.nextVar = opt(a.next_running_variance_tensor_uid());
        b.prevMean = b.nextMean >= 0 ? opt(a.prev_running_mean_tensor_uid()) : -1;
        b.prevVar = b.nextVar >= 0 ? opt(a.prev_running_variance_tensor_uid()) : -1;
        b.momentum = (b.nextMean >= 0 || b.nextVar >= 0) ? opt(a.momentum_tensor_uid()) : -1;
        if((b.nextMean >= 0 && b.prevMean < 0) || (b.nextVar >= 0 && b.prevVar < 0)
           || ((b.nextMean >= 0 || b.nextVar >= 0) && b.momentum < 0))
            throw Unsupported("batchnorm: running statistics need the previous ones and a momentum");
        first = 1;
        break;
    }
    case fbs::NodeAttributes::BatchnormBackwardAttributes:
    {
        const fbs::BatchnormBackwardAttributes& a = *head->attributes_as_BatchnormBackwardAttributes();
        if(a.peer_stats_tensor_uid() != nullptr && a.peer_stats_tensor_uid()->size() != 0)
            throw Unsupported("batchnorm backward: peer statistics (multi-device) are not supported");
        if(!a.mean_tensor_uid().has_value() || !a.inv_variance_tensor_uid().has_value())
            throw Unsupported("batchnorm backward needs the saved mean and inv_variance");
        p.pattern = Pattern::BnBwd;
        Batchnorm& b = p.bn;
        b.dy = a.dy_tensor_uid();
        b.x = a.x_tensor_uid();
        b.mean = a.mean_tensor_uid().value();
        b.inv = a.inv_variance_tensor_uid().value();
        b.scale = a.scale_tensor_uid();
        b.dx = a.dx_tensor_uid();
        b.dscale = a.dscale_tensor_uid();
        b.dbias = a.dbias_tensor_uid();
        first = 1;
        break;
    }
    case fbs::NodeAttributes::ReductionAttributes:
    {
        const fbs::ReductionAttributes& a = *head->attributes_as_ReductionAttributes();
        p.pattern = Pattern::Reduce;
        p.red.mode = static_cast<int>(a.mode());
        if(p.red.mode < 1 || p.red.mode > 9)
            throw Unsupported("reduction mode " + std::to_string(p.red.mode) + " is unknown");
        p.red.in = a.in_tensor_uid();
        p.red.out = a.out_tensor_uid();
        first = 1;
        break;
    }
    case fbs::NodeAttributes::LayernormBackwardAttributes:
    {
        const fbs::LayernormBackwardAttributes& a = *head->attributes_as_LayernormBackwardAttributes();
        p.pattern = Pattern::NormBwd;
        NormBwd& b = p.bwd;
        b.kind = NormKind::Layer;
        b.dy = a.dy_tensor_uid();
        b.x = a.x_tensor_uid();
        b.scale = a.scale_tensor_uid();
        b.mean = a.mean_tensor_uid().has_value() ? a.mean_tensor_uid().value() : -1;
        b.inv = a.inv_variance_tensor_uid().has_value() ? a.inv_variance_tensor_uid().value() : -1;
        b.eps = a.epsilon_tensor_uid().has_value() ? a.epsilon_tensor_uid().value() : -1;
        b.dx = a.dx_tensor_uid();
        b.dscale = a.dscale_tensor_uid();
        b.dbias = a.dbias_tensor_uid();
        b.k = static_cast<int>(a.normalized_dim_count());
        first = 1;
        break;
    }
    case fbs::NodeAttributes::RMSNormBackwardAttributes:
    {
        const fbs::RMSNormBackwardAttributes& a = *head->attributes_as_RMSNormBackwardAttributes();
        p.pattern = Pattern::NormBwd;
        NormBwd& b = p.bwd;
        b.kind = NormKind::Rms;
        b.dy = a.dy_tensor_uid();
        b.x = a.x_tensor_uid();
        b.scale = a.scale_tensor_uid();
        b.inv = a.inv_rms_tensor_uid();
        b.dx = a.dx_tensor_uid();
        b.dscale = a.dscale_tensor_uid();
        b.dbias = a.dbias_tensor_uid().has_value() ? a.dbias_tensor_uid().value() : -1;
        b.k = 0;
        first = 1;
        break;
    }
    default:
        throw Unsupported(std::string("node '") + (head->name() ? head->name()->str() : "") + "' ("
                          + fbs::EnumNameNodeAttributes(head->attributes_type())
                          + ") is not a pattern this engine generates code for (pointwise chains, layernorm and RMSNorm "
                            "forward with a pointwise epilogue)");
    }
    for(flatbuffers::uoffset_t i = static_cast<flatbuffers::uoffset_t>(first); i < graph.nodes()->size(); ++i)
    {
        const fbs::Node* node = graph.nodes()->Get(i);
        if(node == nullptr)
            throw Unsupported("graph has a null node");
        if(p.pattern == Pattern::Pointwise && node->attributes_type() == fbs::NodeAttributes::BatchnormInferenceAttributes)
        {
            const fbs::BatchnormInferenceAttributes& a = *node->attributes_as_BatchnormInferenceAttributes();
            lowerBatchnormInference(p, a.x_tensor_uid(), a.mean_tensor_uid(), a.inv_variance_tensor_uid(), -1, -1,
                                    a.scale_tensor_uid(), a.bias_tensor_uid(), a.y_tensor_uid());
            continue;
        }
        if(p.pattern == Pattern::Pointwise && node->attributes_type() == fbs::NodeAttributes::BatchnormInferenceAttributesVarianceExt)
        {
            const fbs::BatchnormInferenceAttributesVarianceExt& a = *node->attributes_as_BatchnormInferenceAttributesVarianceExt();
            if(p.t(a.epsilon_tensor_uid()).elements() != 1)
                throw Unsupported("batchnorm inference: epsilon must hold one element");
            lowerBatchnormInference(p, a.x_tensor_uid(), a.mean_tensor_uid(), -1, a.variance_tensor_uid(), a.epsilon_tensor_uid(),
                                    a.scale_tensor_uid(), a.bias_tensor_uid(), a.y_tensor_uid());
            continue;
        }
        if(node->attributes_type() != fbs::NodeAttributes::PointwiseAttributes)
            throw Unsupported(std::string("node '") + (node->name() ? node->name()->str() : "") + "' ("
                              + fbs::EnumNameNodeAttributes(node->attributes_type())
                              + ") after the first node: only pointwise nodes (and batchnorm inference in pointwise "
                                "graphs) are fused after it");
        p.pw.push_back(readPointwise(*node->attributes_as_PointwiseAttributes()));
        const PwOp& op = p.pw.back();
        for(int k = 0; k < pwArity(op.mode); ++k)
            if(!p.has(op.in[k]))
                throw Unsupported("pointwise input uid " + std::to_string(op.in[k]) + " is not in the graph");
        if(!p.has(op.out))
            throw Unsupported("pointwise output uid " + std::to_string(op.out) + " is not in the graph");
    }

    if(p.pattern == Pattern::BnBwd && !p.pw.empty())
        throw Unsupported("pointwise nodes after a batchnorm backward are not fused yet");
    if(p.pattern == Pattern::BnFwd || p.pattern == Pattern::BnBwd)
    {
        checkBatchnorm(p);
        if(p.pattern == Pattern::BnFwd)
        {
            produced.insert(p.bn.y);
        }
        else
        {
            const Tensor& x = p.t(p.bn.x);
            p.summary = "batchnorm_bwd(" + std::string(dtypeName(x.dt)) + " " + dimsText(x.dims) + ")";
            return p;
        }
    }
    else if(p.pattern == Pattern::NormBwd)
    {
        if(!p.pw.empty())
            throw Unsupported("pointwise nodes after a norm backward are not fused yet");
        checkNormBwd(p);
        const Tensor& x = p.t(p.bwd.x);
        p.summary = std::string(p.bwd.kind == NormKind::Layer ? "layernorm" : "rmsnorm") + "_bwd(" + dtypeName(x.dt) + " "
                    + dimsText(x.dims) + ", " + std::to_string(p.bwd.rows) + " rows of " + std::to_string(p.bwd.n) + ")";
        return p;
    }
    if(p.pattern == Pattern::BnFwd)
    {
        const Tensor& x = p.t(p.bn.x);
        p.summary = "batchnorm_fwd(" + std::string(dtypeName(x.dt)) + " " + dimsText(x.dims) + ", " + std::to_string(p.bn.channels)
                    + " channels of " + std::to_string(p.bn.members) + ")";
        if(p.t(p.bn.y).isVirtual && p.pw.empty())
            throw Unsupported("batchnorm output y is virtual and nothing reads it");
    }
    else if(p.pattern == Pattern::Reduce)
    {
        Reduce& r = p.red;
        for(int64_t uid : {r.in, r.out})
            if(!p.has(uid))
                throw Unsupported("reduction: tensor uid " + std::to_string(uid) + " is not in the graph");
        const Tensor& in = p.t(r.in);
        const Tensor& out = p.t(r.out);
        if(in.isVirtual || in.scalarArg())
            throw Unsupported("reduction: the input must be a tensor in memory (a pointwise prologue is not fused yet)");
        if(out.rank() != in.rank())
            throw Unsupported("reduction: input and output must have the same rank");
        for(int d = 0; d < in.rank(); ++d)
            if(out.dims[static_cast<size_t>(d)] != 1 && out.dims[static_cast<size_t>(d)] != in.dims[static_cast<size_t>(d)])
                throw Unsupported("reduction: output dims must equal the input's or be 1");
        if(out.isVirtual && p.pw.empty())
            throw Unsupported("reduction output is virtual and nothing reads it");
        r.inDims = in.dims;
        p.space = out.dims;
        r.rows = out.elements();
        r.members = in.elements() / r.rows;
        produced.insert(r.out);
        p.summary = std::string("reduction_") + reductionName(r.mode) + "(" + dtypeName(in.dt) + " " + dimsText(in.dims) + " -> "
                    + dimsText(out.dims) + ")";
    }
    else if(p.pattern == Pattern::NormFwd)
    {
        checkNormFwd(p);
        produced.insert(p.norm.y);
        const Tensor& x = p.t(p.norm.x);
        p.summary = std::string(p.norm.kind == NormKind::Layer ? "layernorm" : "rmsnorm") + "_fwd("
                    + dtypeName(x.dt) + " " + dimsText(x.dims) + ", " + std::to_string(p.norm.rows) + " rows of "
                    + std::to_string(p.norm.n) + ")";
        if(p.t(p.norm.y).isVirtual && p.pw.empty())
            throw Unsupported("norm output y is virtual and nothing reads it");
    }
    else
    {
        // The iteration space: the dims of the non-virtual outputs (all the same).
        for(const PwOp& op : p.pw)
        {
            const Tensor& o = p.t(op.out);
            if(o.isVirtual)
                continue;
            if(p.space.empty())
                p.space = o.dims;
            else if(o.dims != p.space)
                throw Unsupported("pointwise outputs of different dims ([" + dimsText(p.space) + "] and [" + dimsText(o.dims)
                                  + "]) are not fused into one kernel");
        }
        if(p.space.empty())
            throw Unsupported("pointwise graph writes no tensor in memory");
        p.summary = "pointwise(" + dimsText(p.space) + ")";
    }
    std::set<int64_t> written;
    if(p.pattern == Pattern::Reduce)
        written.insert(p.red.out);
    if(p.pattern == Pattern::BnFwd)
        for(int64_t uid : {p.bn.y, p.bn.mean, p.bn.inv, p.bn.nextMean, p.bn.nextVar})
            if(uid >= 0)
                written.insert(uid);
    if(p.pattern == Pattern::NormFwd)
        for(int64_t uid : {p.norm.y, p.norm.mean, p.norm.inv})
            if(uid >= 0)
                written.insert(uid);
    checkPointwiseDag(p, produced, written);
    // Every virtual tensor must be written by a node of the graph; every written non-virtual
    // tensor is an output in the space (checked above).
    for(const PwOp& op : p.pw)
        p.summary += std::string("+") + pwModeName(op.mode);
    return p;
}

} // namespace

} // namespace hipdnngo::cuda_rtc
