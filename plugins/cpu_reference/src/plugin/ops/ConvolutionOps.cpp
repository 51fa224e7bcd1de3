// Prepare functions for ConvolutionFwd / ConvolutionBwd (data) / ConvolutionWrw (filter).
#include "kernels/Convolution.hpp"
#include "plugin/OpRegistry.hpp"

namespace hipdnngo::cpu_reference
{
namespace
{

// readSpatial copies one per-dimension attribute vector (must have spatialDims entries).
void readSpatial(NodeContext& ctx, const flatbuffers::Vector<int64_t>* v, const char* what, int spatialDims, int64_t* out)
{
    ctx.require(v != nullptr && v->size() == static_cast<flatbuffers::uoffset_t>(spatialDims),
                std::string(what) + " needs " + std::to_string(spatialDims) + " entries, has "
                    + std::to_string(v ? v->size() : 0));
    for(int i = 0; i < spatialDims; ++i)
        out[i] = v->Get(static_cast<flatbuffers::uoffset_t>(i));
}

template <typename Attrs>
ConvParams convParams(NodeContext& ctx, const Attrs& a, int rank)
{
    ConvParams p;
    p.spatialDims = rank - 2;
    ctx.require(p.spatialDims >= 1 && p.spatialDims <= 3,
                "tensors of rank " + std::to_string(rank) + " (supported: 3 to 5, i.e. 1-D to 3-D convolution)");
    readSpatial(ctx, a.pre_padding(), "pre_padding", p.spatialDims, p.prePadding);
    readSpatial(ctx, a.post_padding(), "post_padding", p.spatialDims, p.postPadding);
    readSpatial(ctx, a.stride(), "stride", p.spatialDims, p.stride);
    readSpatial(ctx, a.dilation(), "dilation", p.spatialDims, p.dilation);
    switch(a.conv_mode())
    {
    case fbs::ConvMode::CONVOLUTION: p.mode = ConvMode::Convolution; break;
    case fbs::ConvMode::CROSS_CORRELATION: p.mode = ConvMode::CrossCorrelation; break;
    default: ctx.require(false, "conv_mode must be CONVOLUTION or CROSS_CORRELATION");
    }
    p.accumulator = ctx.accumulator();
    return p;
}

} // namespace

std::unique_ptr<PreparedNode> prepareConvolutionFwd(NodeContext& ctx)
{
    const auto& a = *ctx.node.attributes_as_ConvolutionFwdAttributes();
    const int x = ctx.input(a.x_tensor_uid(), "x");
    const int w = ctx.input(a.w_tensor_uid(), "w");
    const int y = ctx.output(a.y_tensor_uid(), "y");
    ctx.requireFloating({x, w, y});
    const ConvParams p = convParams(ctx, a, ctx.shape(x).rank);
    ctx.check(checkConvolution(ctx.shape(x), ctx.shape(w), ctx.shape(y), p));
    const ConvPlan plan = planConvolution(ctx.shape(x), ctx.shape(w), ctx.shape(y), p); // geometry decided once, here
    return ctx.makeNode([=](const TensorBindings& t) { convolutionForward(t.view(x), t.view(w), t.view(y), plan); });
}

std::unique_ptr<PreparedNode> prepareConvolutionBwdData(NodeContext& ctx)
{
    const auto& a = *ctx.node.attributes_as_ConvolutionBwdAttributes();
    const int dy = ctx.input(a.dy_tensor_uid(), "dy");
    const int w = ctx.input(a.w_tensor_uid(), "w");
    const int dx = ctx.output(a.dx_tensor_uid(), "dx");
    ctx.requireFloating({dy, w, dx});
    const ConvParams p = convParams(ctx, a, ctx.shape(dx).rank);
    ctx.check(checkConvolution(ctx.shape(dx), ctx.shape(w), ctx.shape(dy), p));
    const ConvPlan plan = planConvolution(ctx.shape(dx), ctx.shape(w), ctx.shape(dy), p); // geometry decided once, here
    return ctx.makeNode([=](const TensorBindings& t) { convolutionBackwardData(t.view(dy), t.view(w), t.view(dx), plan); });
}

std::unique_ptr<PreparedNode> prepareConvolutionBwdFilter(NodeContext& ctx)
{
    const auto& a = *ctx.node.attributes_as_ConvolutionWrwAttributes();
    const int x = ctx.input(a.x_tensor_uid(), "x");
    const int dy = ctx.input(a.dy_tensor_uid(), "dy");
    const int dw = ctx.output(a.dw_tensor_uid(), "dw");
    ctx.requireFloating({x, dy, dw});
    const ConvParams p = convParams(ctx, a, ctx.shape(x).rank);
    ctx.check(checkConvolution(ctx.shape(x), ctx.shape(dw), ctx.shape(dy), p));
    const ConvPlan plan = planConvolution(ctx.shape(x), ctx.shape(dw), ctx.shape(dy), p); // geometry decided once, here
    return ctx.makeNode([=](const TensorBindings& t) { convolutionBackwardFilter(t.view(x), t.view(dy), t.view(dw), plan); });
}

} // namespace hipdnngo::cpu_reference
