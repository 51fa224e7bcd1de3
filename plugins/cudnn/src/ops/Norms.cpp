// Normalizations: layernorm, RMSNorm and batchnorm (training) forward, the three backward
// passes, and batchnorm inference, which cuDNN has no operation for and is lowered to pointwise
// ops. OpSpec t = norm fwd x scale bias eps y mean invvar | norm bwd x dy scale mean invvar eps dx.
#include "Composite.hpp"

#include <algorithm>

namespace hipdnngo::cudnn
{

namespace
{

void lowerBatchnormInference(Model& m, const OpSpec& op, CompositeBuilder& g)
{
    const fbs::BatchnormInferenceAttributes& a = *op.bnInference;
    // Before a norm backward (batchnorm inference -> ReLU backward -> batchnorm backward) cuDNN
    // 9.14 fuses only its own norm-forward inference op, the form NVIDIA's frontend emits: it
    // offers no config for the pointwise form there (H200, NVIDIA's "BN_inference DRelu DBN").
    const bool beforeNormBackward
        = std::any_of(m.ops.begin(), m.ops.end(), [](const OpSpec& o) { return o.kind == OpKind::NormBwd; });
    if(beforeNormBackward)
    {
        OpSpec n;
        n.kind = OpKind::NormFwd;
        n.compute = op.compute;
        n.mode = CUDNN_BATCH_NORM;
        n.phase = CUDNN_NORM_FWD_INFERENCE;
        n.t = {a.x_tensor_uid(),  a.scale_tensor_uid(), a.bias_tensor_uid(),        -1,
               a.y_tensor_uid(), a.mean_tensor_uid(),  a.inv_variance_tensor_uid()};
        g.ops.push_back(n);
        return;
    }
    // Elsewhere: y = ((x - mean) * inv_variance) * scale + bias, fp32 intermediates.
    const TensorSpec* x = m.find(a.x_tensor_uid());
    if(x == nullptr)
        throw Unsupported("batchnorm inference: unknown x tensor");
    const std::vector<int64_t> dims = x->dims;
    const int64_t t1 = g.add(CUDNN_DATA_FLOAT, dims).uid, t2 = g.add(CUDNN_DATA_FLOAT, dims).uid,
                  t3 = g.add(CUDNN_DATA_FLOAT, dims).uid;
    g.pointwise(CUDNN_POINTWISE_SUB, a.x_tensor_uid(), a.mean_tensor_uid(), -1, t1, op.compute);
    g.pointwise(CUDNN_POINTWISE_MUL, t1, a.inv_variance_tensor_uid(), -1, t2, op.compute);
    g.pointwise(CUDNN_POINTWISE_MUL, t2, a.scale_tensor_uid(), -1, t3, op.compute);
    g.pointwise(CUDNN_POINTWISE_ADD, t3, a.bias_tensor_uid(), -1, a.y_tensor_uid(), op.compute);
}

} // namespace

void readLayernorm(const fbs::Node& node, OpSpec& op, ReadState& state)
{
    const auto* a = node.attributes_as_LayernormAttributes();
    op.kind = OpKind::NormFwd;
    op.mode = CUDNN_LAYER_NORM;
    op.t = {a->x_tensor_uid(),
            a->scale_tensor_uid(),
            a->bias_tensor_uid(),
            a->epsilon_tensor_uid(),
            a->y_tensor_uid(),
            a->mean_tensor_uid().has_value() ? a->mean_tensor_uid().value() : -1,
            a->inv_variance_tensor_uid().has_value() ? a->inv_variance_tensor_uid().value() : -1};
    requireKnown(a->forward_phase(), fbs::NormFwdPhase::MAX, "forward_phase");
    const bool training = a->forward_phase() == fbs::NormFwdPhase::TRAINING
                          || (a->forward_phase() == fbs::NormFwdPhase::NOT_SET && op.t[5] >= 0);
    op.phase = training ? CUDNN_NORM_FWD_TRAINING : CUDNN_NORM_FWD_INFERENCE;
    if(training && (op.t[5] < 0 || op.t[6] < 0))
        throw Unsupported("layernorm training without mean / inv_variance outputs");
    state.model.summary += "layernorm";
}

void readRmsnorm(const fbs::Node& node, OpSpec& op, ReadState& state)
{
    const auto* a = node.attributes_as_RMSNormAttributes();
    op.kind = OpKind::NormFwd;
    op.mode = CUDNN_RMS_NORM;
    op.t = {a->x_tensor_uid(),
            a->scale_tensor_uid(),
            a->bias_tensor_uid().has_value() ? a->bias_tensor_uid().value() : -1,
            a->epsilon_tensor_uid(),
            a->y_tensor_uid(),
            -1,
            a->inv_rms_tensor_uid().has_value() ? a->inv_rms_tensor_uid().value() : -1};
    requireKnown(a->forward_phase(), fbs::NormFwdPhase::MAX, "forward_phase");
    const bool training = a->forward_phase() == fbs::NormFwdPhase::TRAINING
                          || (a->forward_phase() == fbs::NormFwdPhase::NOT_SET && op.t[6] >= 0);
    op.phase = training ? CUDNN_NORM_FWD_TRAINING : CUDNN_NORM_FWD_INFERENCE;
    if(training && op.t[6] < 0)
        throw Unsupported("rmsnorm training without an inv_rms output");
    state.model.summary += "rmsnorm";
}

void readBatchnorm(const fbs::Node& node, OpSpec& op, ReadState& state)
{
    const auto* a = node.attributes_as_BatchnormAttributes();
    if(a->peer_stats_tensor_uid() != nullptr && a->peer_stats_tensor_uid()->size() > 0)
        throw Unsupported("batchnorm with peer statistics is not translated");
    op.kind = OpKind::NormFwd;
    op.mode = CUDNN_BATCH_NORM;
    op.phase = CUDNN_NORM_FWD_TRAINING;
    op.t = {a->x_tensor_uid(),
            a->scale_tensor_uid(),
            a->bias_tensor_uid(),
            a->epsilon_tensor_uid(),
            a->y_tensor_uid(),
            uidOrAbsent(a->mean_tensor_uid()),
            uidOrAbsent(a->inv_variance_tensor_uid())};
    op.extra = {uidOrAbsent(a->momentum_tensor_uid()), uidOrAbsent(a->prev_running_mean_tensor_uid()),
                uidOrAbsent(a->prev_running_variance_tensor_uid()), uidOrAbsent(a->next_running_mean_tensor_uid()),
                uidOrAbsent(a->next_running_variance_tensor_uid())};
    if(op.t[5] < 0 || op.t[6] < 0)
        throw Unsupported("batchnorm training without mean / inv_variance outputs is not translated");
    state.model.summary += "batchnorm";
}

// readNormBackward reads the batchnorm, layernorm and RMSNorm backward nodes; dscale and dbias
// go to extra[0] and extra[1].
void readNormBackward(const fbs::Node& node, OpSpec& op, ReadState& state)
{
    op.kind = OpKind::NormBwd;
    if(const auto* a = node.attributes_as_BatchnormBackwardAttributes())
    {
        if(a->peer_stats_tensor_uid() != nullptr && a->peer_stats_tensor_uid()->size() > 0)
            throw Unsupported("batchnorm backward with peer statistics is not translated");
        op.mode = CUDNN_BATCH_NORM;
        op.t = {a->x_tensor_uid(),
                a->dy_tensor_uid(),
                a->scale_tensor_uid(),
                uidOrAbsent(a->mean_tensor_uid()),
                uidOrAbsent(a->inv_variance_tensor_uid()),
                -1,
                a->dx_tensor_uid()};
        op.extra[0] = a->dscale_tensor_uid();
        op.extra[1] = a->dbias_tensor_uid();
        state.model.summary += "batchnorm_backward";
    }
    else if(const auto* a = node.attributes_as_LayernormBackwardAttributes())
    {
        op.mode = CUDNN_LAYER_NORM;
        op.t = {a->x_tensor_uid(),
                a->dy_tensor_uid(),
                a->scale_tensor_uid(),
                uidOrAbsent(a->mean_tensor_uid()),
                uidOrAbsent(a->inv_variance_tensor_uid()),
                uidOrAbsent(a->epsilon_tensor_uid()),
                a->dx_tensor_uid()};
        op.extra[0] = a->dscale_tensor_uid();
        op.extra[1] = a->dbias_tensor_uid();
        state.model.summary += "layernorm_backward";
    }
    else
    {
        const auto* r = node.attributes_as_RMSNormBackwardAttributes();
        op.mode = CUDNN_RMS_NORM;
        op.t = {r->x_tensor_uid(), r->dy_tensor_uid(), r->scale_tensor_uid(), -1, r->inv_rms_tensor_uid(), -1,
                r->dx_tensor_uid()};
        op.extra[0] = r->dscale_tensor_uid();
        op.extra[1] = uidOrAbsent(r->dbias_tensor_uid());
        state.model.summary += "rmsnorm_backward";
    }
    if(op.t[4] < 0 || (op.mode != CUDNN_RMS_NORM && op.t[3] < 0))
        throw Unsupported("norm backward without the saved statistics is not translated");
}

void readBatchnormInference(const fbs::Node& node, OpSpec& op, ReadState& state)
{
    op.kind = OpKind::Composite;
    op.lower = lowerBatchnormInference;
    op.bnInference = node.attributes_as_BatchnormInferenceAttributes();
    state.model.summary += "batchnorm_inference";
}

DescPtr buildNormFwd(const OpSpec& op, BuildContext& ctx)
{
    auto node = std::make_shared<Desc>(CUDNN_BACKEND_OPERATION_NORM_FORWARD_DESCRIPTOR);
    cudnnBackendNormMode_t mode = static_cast<cudnnBackendNormMode_t>(op.mode);
    cudnnBackendNormFwdPhase_t phase = static_cast<cudnnBackendNormFwdPhase_t>(op.phase);
    node->set(CUDNN_ATTR_OPERATION_NORM_FWD_MODE, CUDNN_TYPE_NORM_MODE, 1, &mode, "norm fwd");
    node->set(CUDNN_ATTR_OPERATION_NORM_FWD_PHASE, CUDNN_TYPE_NORM_FWD_PHASE, 1, &phase, "norm fwd");
    node->setDesc(CUDNN_ATTR_OPERATION_NORM_FWD_XDESC, ctx.tensor(op.t[0]), "norm fwd");
    node->setDesc(CUDNN_ATTR_OPERATION_NORM_FWD_SCALE_DESC, ctx.tensor(op.t[1]), "norm fwd");
    if(op.t[2] >= 0)
        node->setDesc(CUDNN_ATTR_OPERATION_NORM_FWD_BIAS_DESC, ctx.tensor(op.t[2]), "norm fwd");
    if(op.t[3] >= 0) // batchnorm inference takes its statistics as given and has no epsilon
        node->setDesc(CUDNN_ATTR_OPERATION_NORM_FWD_EPSILON_DESC, ctx.tensor(op.t[3]), "norm fwd");
    node->setDesc(CUDNN_ATTR_OPERATION_NORM_FWD_YDESC, ctx.tensor(op.t[4]), "norm fwd");
    // Training writes mean and inv_variance; batchnorm inference reads them.
    if(op.phase == CUDNN_NORM_FWD_TRAINING || op.mode == CUDNN_BATCH_NORM)
    {
        if(op.t[5] >= 0)
            node->setDesc(CUDNN_ATTR_OPERATION_NORM_FWD_MEAN_DESC, ctx.tensor(op.t[5]), "norm fwd");
        if(op.t[6] >= 0)
            node->setDesc(CUDNN_ATTR_OPERATION_NORM_FWD_INV_VARIANCE_DESC, ctx.tensor(op.t[6]), "norm fwd");
    }
    const cudnnBackendAttributeName_t running[5] = {
        CUDNN_ATTR_OPERATION_NORM_FWD_EXP_AVG_FACTOR_DESC, CUDNN_ATTR_OPERATION_NORM_FWD_INPUT_RUNNING_MEAN_DESC,
        CUDNN_ATTR_OPERATION_NORM_FWD_INPUT_RUNNING_VAR_DESC, CUDNN_ATTR_OPERATION_NORM_FWD_OUTPUT_RUNNING_MEAN_DESC,
        CUDNN_ATTR_OPERATION_NORM_FWD_OUTPUT_RUNNING_VAR_DESC};
    for(int i = 0; i < 5; ++i)
        if(op.mode == CUDNN_BATCH_NORM && op.extra[static_cast<size_t>(i)] >= 0)
            node->setDesc(running[i], ctx.tensor(op.extra[static_cast<size_t>(i)]), "norm fwd");
    node->finalize("norm forward operation");
    return node;
}

DescPtr buildNormBwd(const OpSpec& op, BuildContext& ctx)
{
    auto node = std::make_shared<Desc>(CUDNN_BACKEND_OPERATION_NORM_BACKWARD_DESCRIPTOR);
    cudnnBackendNormMode_t mode = static_cast<cudnnBackendNormMode_t>(op.mode);
    node->set(CUDNN_ATTR_OPERATION_NORM_BWD_MODE, CUDNN_TYPE_NORM_MODE, 1, &mode, "norm bwd");
    node->setDesc(CUDNN_ATTR_OPERATION_NORM_BWD_XDESC, ctx.tensor(op.t[0]), "norm bwd");
    node->setDesc(CUDNN_ATTR_OPERATION_NORM_BWD_DYDESC, ctx.tensor(op.t[1]), "norm bwd");
    node->setDesc(CUDNN_ATTR_OPERATION_NORM_BWD_SCALE_DESC, ctx.tensor(op.t[2]), "norm bwd");
    if(op.t[3] >= 0)
        node->setDesc(CUDNN_ATTR_OPERATION_NORM_BWD_MEAN_DESC, ctx.tensor(op.t[3]), "norm bwd");
    node->setDesc(CUDNN_ATTR_OPERATION_NORM_BWD_INV_VARIANCE_DESC, ctx.tensor(op.t[4]), "norm bwd");
    if(op.t[5] >= 0)
        node->setDesc(CUDNN_ATTR_OPERATION_NORM_BWD_EPSILON_DESC, ctx.tensor(op.t[5]), "norm bwd");
    node->setDesc(CUDNN_ATTR_OPERATION_NORM_BWD_DXDESC, ctx.tensor(op.t[6]), "norm bwd");
    node->setDesc(CUDNN_ATTR_OPERATION_NORM_BWD_DSCALE_DESC, ctx.tensor(op.extra[0]), "norm bwd");
    if(op.extra[1] >= 0)
        node->setDesc(CUDNN_ATTR_OPERATION_NORM_BWD_DBIAS_DESC, ctx.tensor(op.extra[1]), "norm bwd");
    node->finalize("norm backward operation");
    return node;
}

} // namespace hipdnngo::cudnn
