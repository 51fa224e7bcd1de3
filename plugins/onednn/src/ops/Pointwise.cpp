// Pointwise: unary modes as eltwise (forward and backward), binary modes as binary primitives
// with the following pointwise nodes fused as post-ops, identity as a reorder. The mode tables
// here also decide which pointwise nodes other families can fuse as post-ops.
#include "../PlanBuilder.hpp"

#include <cmath>
#include <limits>

namespace hipdnngo::onednn
{

std::string modeName(fbs::PointwiseMode m)
{
    const char* n = fbs::EnumNamePointwiseMode(m);
    return n && *n ? n : std::to_string(static_cast<int>(m));
}

std::optional<EltwiseOp> mapUnary(const fbs::PointwiseAttributes& a, std::string* why)
{
    const float inf = std::numeric_limits<float>::infinity();
    switch(a.operation())
    {
    case fbs::PointwiseMode::RELU_FWD:
    {
        const float lo = a.relu_lower_clip().value_or(0.f);
        const float hi = a.relu_upper_clip().value_or(inf);
        const float slope = a.relu_lower_clip_slope().value_or(0.f);
        if(std::isinf(hi) && lo == 0.f)
            return EltwiseOp{algorithm::eltwise_relu, slope, 0.f};
        if(slope == 0.f)
            return EltwiseOp{algorithm::eltwise_clip_v2, lo, std::isinf(hi) ? std::numeric_limits<float>::max() : hi};
        if(why)
            *why = "relu_fwd with both a lower clip and a lower clip slope";
        return std::nullopt;
    }
    case fbs::PointwiseMode::TANH_FWD: return EltwiseOp{algorithm::eltwise_tanh};
    case fbs::PointwiseMode::SIGMOID_FWD: return EltwiseOp{algorithm::eltwise_logistic};
    case fbs::PointwiseMode::ELU_FWD:
    case fbs::PointwiseMode::GELU_FWD:
    case fbs::PointwiseMode::GELU_APPROX_TANH_FWD:
    case fbs::PointwiseMode::LOG:
        // oneDNN computes these with a large relative error where the result is near zero
        // (elu: exp(x) - 1 without expm1; gelu: 1 + erf(x) or 1 + tanh(u) cancels for negative x;
        // log: near 1), beyond the
        // fp32 tolerance the results are checked against.
        if(why)
            *why = "pointwise mode " + modeName(a.operation())
                   + ": oneDNN's eltwise is not accurate enough near zero (declined, see docs/compatibility.md)";
        return std::nullopt;
    case fbs::PointwiseMode::SWISH_FWD: return EltwiseOp{algorithm::eltwise_swish, a.swish_beta().value_or(1.f)};
    case fbs::PointwiseMode::SOFTPLUS_FWD:
        if(a.softplus_beta().value_or(1.f) == 1.f)
            return EltwiseOp{algorithm::eltwise_soft_relu};
        if(why)
            *why = "softplus_fwd with beta != 1 (oneDNN 2.x soft_relu has no beta)";
        return std::nullopt;
    case fbs::PointwiseMode::EXP: return EltwiseOp{algorithm::eltwise_exp};
    case fbs::PointwiseMode::SQRT: return EltwiseOp{algorithm::eltwise_sqrt};
    case fbs::PointwiseMode::ABS: return EltwiseOp{algorithm::eltwise_abs};
    case fbs::PointwiseMode::NEG: return EltwiseOp{algorithm::eltwise_linear, -1.f, 0.f};
    case fbs::PointwiseMode::RECIPROCAL: return EltwiseOp{algorithm::eltwise_pow, 1.f, -1.f};
    case fbs::PointwiseMode::RSQRT: return EltwiseOp{algorithm::eltwise_pow, 1.f, -0.5f};
    default: break;
    }
    if(why)
        *why = "pointwise mode " + modeName(a.operation()) + " has no oneDNN eltwise equivalent";
    return std::nullopt;
}

std::optional<BinaryOp> mapBinary(fbs::PointwiseMode m)
{
    switch(m)
    {
    case fbs::PointwiseMode::ADD: return BinaryOp{algorithm::binary_add, algorithm::binary_add};
    case fbs::PointwiseMode::MUL: return BinaryOp{algorithm::binary_mul, algorithm::binary_mul};
    case fbs::PointwiseMode::SUB: return BinaryOp{algorithm::binary_sub, std::nullopt};
    case fbs::PointwiseMode::DIV: return BinaryOp{algorithm::binary_div, std::nullopt};
    case fbs::PointwiseMode::MAX_OP: return BinaryOp{algorithm::binary_max, algorithm::binary_max};
    case fbs::PointwiseMode::MIN_OP: return BinaryOp{algorithm::binary_min, algorithm::binary_min};
    case fbs::PointwiseMode::CMP_EQ: return BinaryOp{algorithm::binary_eq, algorithm::binary_eq};
    case fbs::PointwiseMode::CMP_NEQ: return BinaryOp{algorithm::binary_ne, algorithm::binary_ne};
    case fbs::PointwiseMode::CMP_GT: return BinaryOp{algorithm::binary_gt, algorithm::binary_lt};
    case fbs::PointwiseMode::CMP_GE: return BinaryOp{algorithm::binary_ge, algorithm::binary_le};
    case fbs::PointwiseMode::CMP_LT: return BinaryOp{algorithm::binary_lt, algorithm::binary_gt};
    case fbs::PointwiseMode::CMP_LE: return BinaryOp{algorithm::binary_le, algorithm::binary_ge};
    default: return std::nullopt;
    }
}

std::optional<EltwiseOp> mapBackward(const fbs::PointwiseAttributes& a)
{
    switch(a.operation())
    {
    case fbs::PointwiseMode::RELU_BWD:
        if(a.relu_lower_clip().value_or(0.f) == 0.f && !a.relu_upper_clip().has_value())
            return EltwiseOp{algorithm::eltwise_relu, a.relu_lower_clip_slope().value_or(0.f)};
        return std::nullopt;
    case fbs::PointwiseMode::TANH_BWD: return EltwiseOp{algorithm::eltwise_tanh};
    case fbs::PointwiseMode::SIGMOID_BWD: return EltwiseOp{algorithm::eltwise_logistic};
    case fbs::PointwiseMode::ELU_BWD: return EltwiseOp{algorithm::eltwise_elu, a.elu_alpha().value_or(1.f)};
    // GELU_BWD and GELU_APPROX_TANH_BWD: oneDNN's derivatives are off by far more than the fp32
    // tolerance near their zeros; declined.
    case fbs::PointwiseMode::SWISH_BWD: return EltwiseOp{algorithm::eltwise_swish, a.swish_beta().value_or(1.f)};
    default: return std::nullopt;
    }
}

void pointwiseInputs(const fbs::Node& n, const InputCounter& reads)
{
    const auto* a = n.attributes_as_PointwiseAttributes();
    reads(a->in_0_tensor_uid());
    if(a->in_1_tensor_uid())
        reads(*a->in_1_tensor_uid());
    if(a->in_2_tensor_uid())
        reads(*a->in_2_tensor_uid());
}

void PlanBuilder::pointwise(const fbs::Node& n, const std::string& name)
{
    const auto& a = *n.attributes_as_PointwiseAttributes();
    const Tensor& in0 = tensor(a.in_0_tensor_uid(), "in_0", name);
    const Tensor& out = tensor(a.out_0_tensor_uid(), "out_0", name);
    const std::string mode = modeName(a.operation());
    std::string why;
    if(a.operation() == fbs::PointwiseMode::IDENTITY)
    {
        if(in0.dims != out.dims)
            throw Unsupported(name + ": identity with broadcasting");
        const Buffer ib = input(in0, name);
        addReorder(mdOf(in0), ib, mdOf(out), output(out, name), "identity");
        return;
    }
    if(const auto e = mapUnary(a, &why))
    {
        if(in0.dims != out.dims || in0.isConstant || in0.isPassByValue)
            throw Unsupported(name + ": unary " + mode + " with broadcasting or a scalar input");
        const Buffer ib = input(in0, name);
        const mdesc inMd = mdOf(in0), outMd = mdOf(out);
        if(inMd == outMd)
        {
            const api::Built b = api::eltwiseForward(e->alg, e->alpha, e->beta, inMd, {}, build_);
            addStep(b, {Arg{DNNL_ARG_SRC, inMd, ib}, Arg{DNNL_ARG_DST, outMd, output(out, name)}}, mode);
        }
        else
        {
            // Convert into the output's layout and type, then apply the function in place.
            const Buffer ob = output(out, name);
            addReorder(inMd, ib, outMd, ob, mode + " input to the output layout");
            const api::Built b = api::eltwiseForward(e->alg, e->alpha, e->beta, outMd, {}, build_);
            addStep(b, {Arg{DNNL_ARG_SRC, outMd, ob}, Arg{DNNL_ARG_DST, outMd, ob}}, mode);
        }
        return;
    }
    if(const auto bw = mapBackward(a))
    {
        if(!a.in_1_tensor_uid())
            throw Unsupported(name + ": " + mode + " needs in_1");
        const Tensor& x = tensor(*a.in_1_tensor_uid(), "in_1", name);
        const mdesc dyMd = mdOf(in0), xMd = mdOf(x), dxMd = mdOf(out);
        if(in0.dims != out.dims || x.dims != out.dims || dyMd != dxMd)
            throw Unsupported(name + ": " + mode + " needs dy and dx of the same layout and type, and no broadcasting");
        api::Built b;
        try
        {
            b = api::eltwiseBackward(bw->alg, bw->alpha, bw->beta, xMd, dyMd, build_);
        }
        catch(const dnnl::error& err)
        {
            throw Unsupported(name + ": oneDNN has no eltwise backward for " + mode + " (" + err.what() + ")");
        }
        addStep(b,
                {Arg{DNNL_ARG_SRC, xMd, input(x, name)}, Arg{DNNL_ARG_DIFF_DST, dyMd, input(in0, name)},
                 Arg{DNNL_ARG_DIFF_SRC, dxMd, output(out, name)}},
                mode);
        return;
    }
    const auto bo = mapBinary(a.operation());
    if(!bo)
        throw Unsupported(name + ": " + (why.empty() ? "pointwise mode " + mode + " has no oneDNN equivalent" : why));
    if(!a.in_1_tensor_uid())
        throw Unsupported(name + ": " + mode + " needs in_1");
    const Tensor& in1 = tensor(*a.in_1_tensor_uid(), "in_1", name);
    const Tensor* s0 = &in0;
    const Tensor* s1 = &in1;
    algorithm alg = bo->alg;
    auto full = [&](const Tensor& t) { return t.dims == out.dims && !t.isConstant && !t.isPassByValue; };
    if(!full(in0))
    {
        if(!full(in1) || !bo->swapped)
            throw Unsupported(name + ": " + mode + " whose first input is broadcast");
        std::swap(s0, s1);
        alg = *bo->swapped;
    }
    if(!broadcastTo(s1->dims, out.dims))
        throw Unsupported(name + ": " + mode + " operands do not broadcast to the output");
    const mdesc m0 = mdOf(*s0), m1 = src1Md(*s1, out.dims);
    const Buffer b0 = input(*s0, name), b1 = input(*s1, name);
    const std::vector<PostOp> chain = collectChain(out.index);
    std::optional<api::Built> built;
    size_t used = 0;
    std::string lastError;
    for(size_t k = chain.size() + 1; k-- > 0;)
    {
        const Tensor& dst = k == 0 ? out : p_.tensors_.at(chain[k - 1].out);
        std::string names;
        const dnnl::primitive_attr attr = attrFor(chain, 0, k, dst.dims, nullptr, &names);
        try
        {
            built = api::binary(alg, m0, m1, mdOf(dst), attr, build_);
            used = k;
            break;
        }
        catch(const dnnl::error& e)
        {
            lastError = e.what();
        }
    }
    if(!built)
        throw Unsupported(name + ": oneDNN has no binary " + mode + " for these shapes/types (" + lastError + ")");
    const Tensor& dst = used == 0 ? out : p_.tensors_.at(chain[used - 1].out);
    std::vector<Arg> args{Arg{DNNL_ARG_SRC_0, m0, b0}, Arg{DNNL_ARG_SRC_1, m1, b1}};
    markFused(chain, used, out.index);
    std::string names;
    attrFor(chain, 0, used, dst.dims, &args, &names);
    args.push_back(Arg{DNNL_ARG_DST, mdOf(dst), output(dst, name)});
    addStep(*built, std::move(args), mode + names);
    next_ += used;
}

} // namespace hipdnngo::onednn
