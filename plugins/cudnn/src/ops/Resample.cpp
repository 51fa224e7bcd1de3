// Resampling (pooling) forward and backward, 2-D and 3-D: OpSpec t = fwd x y | bwd dy dx;
// mode = cudnnResampleMode_t, phase = cudnnPaddingMode_t.
#include "Ops.hpp"

#include <algorithm>

namespace hipdnngo::cudnn
{

namespace
{

// readResampleCommon reads mode, padding, window and stride; op.t must be set (its t[0] is the
// pooling input the core checks for bf16).
template <typename A>
void readResampleCommon(const A* a, OpSpec& op, ReadState& state)
{
    requireKnown(a->resample_mode(), fbs::ResampleMode::MAX, "resample_mode");
    requireKnown(a->padding_mode(), fbs::PaddingMode::MAX, "padding_mode");
    switch(a->resample_mode())
    {
    case fbs::ResampleMode::MAXPOOL: op.mode = CUDNN_RESAMPLE_MAXPOOL; break;
    case fbs::ResampleMode::AVGPOOL_EXCLUDE_PADDING: op.mode = CUDNN_RESAMPLE_AVGPOOL_EXCLUDE_PADDING; break;
    case fbs::ResampleMode::AVGPOOL_INCLUDE_PADDING: op.mode = CUDNN_RESAMPLE_AVGPOOL_INCLUDE_PADDING; break;
    default: throw Unsupported("resample without a resample_mode");
    }
    // Unset padding: -inf for max pooling, zero for averages (what the reference engine does).
    switch(a->padding_mode())
    {
    case fbs::PaddingMode::NEG_INF_PAD: op.phase = CUDNN_NEG_INF_PAD; break;
    case fbs::PaddingMode::ZERO_PAD: op.phase = CUDNN_ZERO_PAD; break;
    default: op.phase = op.mode == CUDNN_RESAMPLE_MAXPOOL ? CUDNN_NEG_INF_PAD : CUDNN_ZERO_PAD; break;
    }
    op.prePad = longs(a->pre_padding());
    op.postPad = longs(a->post_padding());
    op.stride = longs(a->stride());
    op.window = longs(a->window());
    const size_t sp = op.window.size();
    if(sp < 2 || sp > 3 || op.prePad.size() != sp || op.postPad.size() != sp || op.stride.size() != sp)
        throw Unsupported("resample with " + std::to_string(sp)
                          + " spatial dims (cuDNN needs 2 or 3, with matching padding/stride)");
    state.minRank = std::max(state.minRank, static_cast<int>(sp) + 2);
    state.spatial = true;
    state.resampleIn = op.t[0];
}

} // namespace

void readResampleFwd(const fbs::Node& node, OpSpec& op, ReadState& state)
{
    const auto* a = node.attributes_as_ResampleFwdAttributes();
    op.kind = OpKind::ResampleFwd;
    op.t = {a->x_tensor_uid(), a->y_tensor_uid(), -1, -1, -1, -1, -1};
    if(a->index_tensor_uid().has_value())
        throw Unsupported("resample with an index output is not translated (cuDNN's index encoding differs)");
    readResampleCommon(a, op, state);
    state.model.summary += "resample_fwd";
}

void readResampleBwd(const fbs::Node& node, OpSpec& op, ReadState& state)
{
    const auto* a = node.attributes_as_ResampleBwdAttributes();
    op.kind = OpKind::ResampleBwd;
    op.t = {a->dy_tensor_uid(), a->dx_tensor_uid(), -1, -1, -1, -1, -1};
    readResampleCommon(a, op, state);
    if(op.mode == CUDNN_RESAMPLE_MAXPOOL || a->index_tensor_uid().has_value())
        throw Unsupported("max-pool backward is not translated: it needs the forward's indices, which cuDNN "
                          "encodes differently from hipDNN's flat positions");
    state.model.summary += "resample_bwd";
}

DescPtr buildResample(const OpSpec& op, BuildContext& ctx)
{
    DescPtr node;
    auto rs = std::make_shared<Desc>(CUDNN_BACKEND_RESAMPLE_DESCRIPTOR);
    cudnnResampleMode_t mode = static_cast<cudnnResampleMode_t>(op.mode);
    cudnnPaddingMode_t pad = static_cast<cudnnPaddingMode_t>(op.phase);
    cudnnDataType_t ct = op.compute;
    const int64_t sp = static_cast<int64_t>(op.window.size());
    rs->set(CUDNN_ATTR_RESAMPLE_MODE, CUDNN_TYPE_RESAMPLE_MODE, 1, &mode, "resample");
    rs->set(CUDNN_ATTR_RESAMPLE_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &ct, "resample");
    rs->set(CUDNN_ATTR_RESAMPLE_PADDING_MODE, CUDNN_TYPE_PADDING_MODE, 1, &pad, "resample");
    rs->setInt(CUDNN_ATTR_RESAMPLE_SPATIAL_DIMS, sp, "resample");
    rs->set(CUDNN_ATTR_RESAMPLE_WINDOW_DIMS, CUDNN_TYPE_INT64, sp, op.window.data(), "resample");
    rs->set(CUDNN_ATTR_RESAMPLE_STRIDES, CUDNN_TYPE_INT64, sp, op.stride.data(), "resample");
    rs->set(CUDNN_ATTR_RESAMPLE_PRE_PADDINGS, CUDNN_TYPE_INT64, sp, op.prePad.data(), "resample");
    rs->set(CUDNN_ATTR_RESAMPLE_POST_PADDINGS, CUDNN_TYPE_INT64, sp, op.postPad.data(), "resample");
    rs->finalize("resample descriptor");
    ctx.keep(rs);
    if(op.kind == OpKind::ResampleFwd)
    {
        node = std::make_shared<Desc>(CUDNN_BACKEND_OPERATION_RESAMPLE_FWD_DESCRIPTOR);
        node->setDesc(CUDNN_ATTR_OPERATION_RESAMPLE_FWD_XDESC, ctx.tensor(op.t[0]), "resample fwd");
        node->setDesc(CUDNN_ATTR_OPERATION_RESAMPLE_FWD_YDESC, ctx.tensor(op.t[1]), "resample fwd");
        node->setDesc(CUDNN_ATTR_OPERATION_RESAMPLE_FWD_DESC, *rs, "resample fwd");
        node->finalize("resample forward operation");
    }
    else
    {
        node = std::make_shared<Desc>(CUDNN_BACKEND_OPERATION_RESAMPLE_BWD_DESCRIPTOR);
        node->setDesc(CUDNN_ATTR_OPERATION_RESAMPLE_BWD_DYDESC, ctx.tensor(op.t[0]), "resample bwd");
        node->setDesc(CUDNN_ATTR_OPERATION_RESAMPLE_BWD_DXDESC, ctx.tensor(op.t[1]), "resample bwd");
        node->setDesc(CUDNN_ATTR_OPERATION_RESAMPLE_BWD_DESC, *rs, "resample bwd");
        node->finalize("resample backward operation");
    }
    return node;
}

} // namespace hipdnngo::cudnn
