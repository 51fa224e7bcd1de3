// Prepare function for Pointwise (all 47 modes).
#include "kernels/Pointwise.hpp"
#include "plugin/OpRegistry.hpp"

namespace hipdnngo::cpu_reference
{

std::unique_ptr<PreparedNode> preparePointwise(NodeContext& ctx)
{
    const auto& a = *ctx.node.attributes_as_PointwiseAttributes();
    const int mode = static_cast<int>(a.operation());
    ctx.require(mode >= kFirstPointwiseMode && mode <= kLastPointwiseMode,
                "pointwise operation " + std::to_string(mode) + " is not supported");
    PointwiseParams p;
    p.mode = static_cast<PointwiseMode>(mode); // PointwiseMode mirrors the wire numbering
    const int arity = pointwiseArity(p.mode);
    // Optional scalars: absent means the cuDNN default.
    if(a.relu_lower_clip().has_value())
        p.reluLowerClip = a.relu_lower_clip().value();
    if(a.relu_upper_clip().has_value())
        p.reluUpperClip = a.relu_upper_clip().value();
    if(a.relu_lower_clip_slope().has_value())
        p.reluLowerClipSlope = a.relu_lower_clip_slope().value();
    if(a.swish_beta().has_value())
        p.swishBeta = a.swish_beta().value();
    if(a.elu_alpha().has_value())
        p.eluAlpha = a.elu_alpha().value();
    if(a.softplus_beta().has_value())
        p.softplusBeta = a.softplus_beta().value();
    if(p.mode == PointwiseMode::GenIndex)
    {
        ctx.require(a.axis_tensor_uid().has_value(), "gen_index needs an axis");
        p.axis = a.axis_tensor_uid().value(); // an axis index despite the field name
    }

    const int in0 = ctx.input(a.in_0_tensor_uid(), "in_0");
    int in1 = -1, in2 = -1;
    if(a.in_1_tensor_uid().has_value())
        in1 = ctx.input(a.in_1_tensor_uid().value(), "in_1");
    if(a.in_2_tensor_uid().has_value())
        in2 = ctx.input(a.in_2_tensor_uid().value(), "in_2");
    const int out = ctx.output(a.out_0_tensor_uid(), "out_0");
    ctx.require(arity < 2 || in1 >= 0, std::string(pointwiseModeName(p.mode)) + " needs in_1");
    ctx.require(arity < 3 || in2 >= 0, std::string(pointwiseModeName(p.mode)) + " needs in_2");
    const bool use1 = arity >= 2, use2 = arity >= 3;
    ctx.check(
        checkPointwise(ctx.shape(in0), use1 ? &ctx.shape(in1) : nullptr, use2 ? &ctx.shape(in2) : nullptr, ctx.shape(out), p));
    return ctx.makeNode([=](const TensorBindings& t) {
        const TensorView v1 = use1 ? t.view(in1) : TensorView{};
        const TensorView v2 = use2 ? t.view(in2) : TensorView{};
        pointwise(t.view(in0), use1 ? &v1 : nullptr, use2 ? &v2 : nullptr, t.view(out), p);
    });
}

} // namespace hipdnngo::cpu_reference
