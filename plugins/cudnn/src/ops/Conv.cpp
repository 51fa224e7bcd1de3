// Convolution forward, backward data (dgrad) and backward weights (wgrad), 2-D and 3-D:
// OpSpec t = conv fwd x w y | dgrad dy w dx | wgrad x dy dw.
#include "Ops.hpp"

#include <algorithm>

namespace hipdnngo::cudnn
{

namespace
{

// readConvCommon reads what the three directions share: padding, stride, dilation, mode.
template <typename A>
void readConvCommon(const A* a, OpSpec& op, ReadState& state)
{
    op.prePad = longs(a->pre_padding());
    op.postPad = longs(a->post_padding());
    op.stride = longs(a->stride());
    op.dilation = longs(a->dilation());
    requireKnown(a->conv_mode(), fbs::ConvMode::MAX, "conv_mode");
    op.mode = a->conv_mode() == fbs::ConvMode::CONVOLUTION ? CUDNN_CONVOLUTION : CUDNN_CROSS_CORRELATION;
    const size_t sp = op.stride.size();
    if(sp < 2 || sp > 3 || op.prePad.size() != sp || op.postPad.size() != sp || op.dilation.size() != sp)
        throw Unsupported("convolution with " + std::to_string(sp)
                          + " spatial dims (cuDNN needs 2 or 3, with matching padding/dilation)");
    state.minRank = std::max(state.minRank, static_cast<int>(sp) + 2);
    state.spatial = true;
}

DescPtr convolutionDescriptor(const OpSpec& op)
{
    auto conv = std::make_shared<Desc>(CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR);
    cudnnDataType_t ct = op.compute;
    cudnnConvolutionMode_t mode = static_cast<cudnnConvolutionMode_t>(op.mode);
    const int64_t sp = static_cast<int64_t>(op.stride.size());
    conv->set(CUDNN_ATTR_CONVOLUTION_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &ct, "convolution");
    conv->set(CUDNN_ATTR_CONVOLUTION_CONV_MODE, CUDNN_TYPE_CONVOLUTION_MODE, 1, &mode, "convolution");
    conv->setInt(CUDNN_ATTR_CONVOLUTION_SPATIAL_DIMS, sp, "convolution");
    conv->set(CUDNN_ATTR_CONVOLUTION_DILATIONS, CUDNN_TYPE_INT64, sp, op.dilation.data(), "convolution");
    conv->set(CUDNN_ATTR_CONVOLUTION_FILTER_STRIDES, CUDNN_TYPE_INT64, sp, op.stride.data(), "convolution");
    conv->set(CUDNN_ATTR_CONVOLUTION_PRE_PADDINGS, CUDNN_TYPE_INT64, sp, op.prePad.data(), "convolution");
    conv->set(CUDNN_ATTR_CONVOLUTION_POST_PADDINGS, CUDNN_TYPE_INT64, sp, op.postPad.data(), "convolution");
    conv->finalize("convolution descriptor");
    return conv;
}

// ConvAttrs names one direction's operation descriptor and its attributes, in the order
// x-like, w-like, y-like (the order of OpSpec::t).
struct ConvAttrs
{
    cudnnBackendDescriptorType_t type;
    cudnnBackendAttributeName_t t0, t1, t2, convDesc, alpha, beta;
    const char* what; // for set()
    const char* finalizeWhat;
};

const ConvAttrs kConvFwd{CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR,
                         CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X,
                         CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W,
                         CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y,
                         CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_CONV_DESC,
                         CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_ALPHA,
                         CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_BETA,
                         "conv fwd",
                         "convolution forward operation"};
const ConvAttrs kConvDgrad{CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR,
                           CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DY,
                           CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_W,
                           CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DX,
                           CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_CONV_DESC,
                           CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_ALPHA,
                           CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_BETA,
                           "conv dgrad",
                           "convolution backward-data operation"};
const ConvAttrs kConvWgrad{CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR,
                           CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_X,
                           CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DY,
                           CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DW,
                           CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_CONV_DESC,
                           CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_ALPHA,
                           CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_BETA,
                           "conv wgrad",
                           "convolution backward-filter operation"};

} // namespace

void readConvFwd(const fbs::Node& node, OpSpec& op, ReadState& state)
{
    const auto* a = node.attributes_as_ConvolutionFwdAttributes();
    op.kind = OpKind::ConvFwd;
    op.t = {a->x_tensor_uid(), a->w_tensor_uid(), a->y_tensor_uid(), -1, -1, -1, -1};
    readConvCommon(a, op, state);
    state.model.summary += "conv_fwd";
}

void readConvDgrad(const fbs::Node& node, OpSpec& op, ReadState& state)
{
    const auto* a = node.attributes_as_ConvolutionBwdAttributes();
    op.kind = OpKind::ConvDgrad;
    op.t = {a->dy_tensor_uid(), a->w_tensor_uid(), a->dx_tensor_uid(), -1, -1, -1, -1};
    readConvCommon(a, op, state);
    state.model.summary += "conv_dgrad";
}

void readConvWgrad(const fbs::Node& node, OpSpec& op, ReadState& state)
{
    const auto* a = node.attributes_as_ConvolutionWrwAttributes();
    op.kind = OpKind::ConvWgrad;
    op.t = {a->x_tensor_uid(), a->dy_tensor_uid(), a->dw_tensor_uid(), -1, -1, -1, -1};
    readConvCommon(a, op, state);
    state.model.summary += "conv_wgrad";
}

DescPtr buildConv(const OpSpec& op, BuildContext& ctx)
{
    const float one = 1.0f, zero = 0.0f;
    DescPtr conv = convolutionDescriptor(op);
    ctx.keep(conv);
    const ConvAttrs& k = op.kind == OpKind::ConvFwd ? kConvFwd : op.kind == OpKind::ConvDgrad ? kConvDgrad : kConvWgrad;
    auto node = std::make_shared<Desc>(k.type);
    node->setDesc(k.t0, ctx.tensor(op.t[0]), k.what);
    node->setDesc(k.t1, ctx.tensor(op.t[1]), k.what);
    node->setDesc(k.t2, ctx.tensor(op.t[2]), k.what);
    node->setDesc(k.convDesc, *conv, k.what);
    node->set(k.alpha, CUDNN_TYPE_FLOAT, 1, &one, k.what);
    node->set(k.beta, CUDNN_TYPE_FLOAT, 1, &zero, k.what);
    node->finalize(k.finalizeWhat);
    return node;
}

} // namespace hipdnngo::cudnn
