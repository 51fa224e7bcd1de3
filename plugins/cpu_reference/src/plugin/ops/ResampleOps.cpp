// Prepare functions for ResampleFwd / ResampleBwd (pooling).
#include "kernels/Resample.hpp"
#include "plugin/OpRegistry.hpp"

namespace hipdnngo::cpu_reference
{
namespace
{

template <typename Attrs>
ResampleParams resampleParams(NodeContext& ctx, const Attrs& a, int rank)
{
    ResampleParams p;
    p.spatialDims = rank - 2;
    ctx.require(p.spatialDims >= 1 && p.spatialDims <= 3,
                "tensors of rank " + std::to_string(rank) + " (supported: 3 to 5, i.e. 1-D to 3-D windows)");
    struct
    {
        const flatbuffers::Vector<int64_t>* v;
        const char* what;
        int64_t* out;
    } fields[] = {{a.pre_padding(), "pre_padding", p.prePadding},
                  {a.post_padding(), "post_padding", p.postPadding},
                  {a.stride(), "stride", p.stride},
                  {a.window(), "window", p.window}};
    for(const auto& f : fields)
    {
        ctx.require(f.v != nullptr && f.v->size() == static_cast<flatbuffers::uoffset_t>(p.spatialDims),
                    std::string(f.what) + " needs " + std::to_string(p.spatialDims) + " entries");
        for(int i = 0; i < p.spatialDims; ++i)
            f.out[i] = f.v->Get(static_cast<flatbuffers::uoffset_t>(i));
    }
    switch(a.resample_mode())
    {
    case fbs::ResampleMode::MAXPOOL: p.mode = ResampleMode::MaxPool; break;
    case fbs::ResampleMode::AVGPOOL_EXCLUDE_PADDING: p.mode = ResampleMode::AvgPoolExcludePadding; break;
    case fbs::ResampleMode::AVGPOOL_INCLUDE_PADDING: p.mode = ResampleMode::AvgPoolIncludePadding; break;
    default: ctx.require(false, "resample_mode is not set");
    }
    switch(a.padding_mode())
    {
    case fbs::PaddingMode::NEG_INF_PAD: p.padding = PaddingMode::NegInfPad; break;
    case fbs::PaddingMode::ZERO_PAD: p.padding = PaddingMode::ZeroPad; break;
    default:
        // Averages never read padding values, so an unset mode is unambiguous only for them.
        ctx.require(p.mode != ResampleMode::MaxPool, "MAXPOOL needs padding_mode NEG_INF_PAD or ZERO_PAD");
        p.padding = PaddingMode::ZeroPad;
    }
    ctx.require(!(p.mode == ResampleMode::AvgPoolIncludePadding && p.padding == PaddingMode::NegInfPad),
                "AVGPOOL_INCLUDE_PADDING with NEG_INF_PAD has no finite result");
    return p;
}

} // namespace

std::unique_ptr<PreparedNode> prepareResampleFwd(NodeContext& ctx)
{
    const auto& a = *ctx.node.attributes_as_ResampleFwdAttributes();
    const int x = ctx.input(a.x_tensor_uid(), "x");
    const int y = ctx.output(a.y_tensor_uid(), "y");
    ctx.requireFloating({x, y});
    int index = -1;
    if(a.index_tensor_uid().has_value())
        index = ctx.output(a.index_tensor_uid().value(), "index");
    ctx.require(!(a.generate_index().has_value() && a.generate_index().value() && index < 0),
                "generate_index is set but there is no index tensor");
    const ResampleParams p = resampleParams(ctx, a, ctx.shape(x).rank);
    ctx.check(checkResample(ctx.shape(x), ctx.shape(y), index >= 0 ? &ctx.shape(index) : nullptr, p));
    return ctx.makeNode([=](const TensorBindings& t) {
        const TensorView iv = index >= 0 ? t.view(index) : TensorView{};
        resampleForward(t.view(x), t.view(y), index >= 0 ? &iv : nullptr, p);
    });
}

std::unique_ptr<PreparedNode> prepareResampleBwd(NodeContext& ctx)
{
    const auto& a = *ctx.node.attributes_as_ResampleBwdAttributes();
    const int dy = ctx.input(a.dy_tensor_uid(), "dy");
    const int dx = ctx.output(a.dx_tensor_uid(), "dx");
    ctx.requireFloating({dy, dx});
    int index = -1;
    if(a.index_tensor_uid().has_value())
        index = ctx.input(a.index_tensor_uid().value(), "index");
    const ResampleParams p = resampleParams(ctx, a, ctx.shape(dx).rank);
    // The node carries no forward input, so MAXPOOL can only route gradients through the index.
    ctx.require(p.mode != ResampleMode::MaxPool || index >= 0, "MAXPOOL backward needs the index tensor");
    ctx.check(checkResample(ctx.shape(dx), ctx.shape(dy), index >= 0 ? &ctx.shape(index) : nullptr, p));
    return ctx.makeNode([=](const TensorBindings& t) {
        const TensorView iv = index >= 0 ? t.view(index) : TensorView{};
        resampleBackward(t.view(dy), t.view(dx), index >= 0 ? &iv : nullptr, nullptr, p);
    });
}

} // namespace hipdnngo::cpu_reference
