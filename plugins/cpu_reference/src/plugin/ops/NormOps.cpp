// Prepare functions for the normalization nodes: batchnorm (inference, inference with variance,
// training, backward), layernorm (forward, backward) and RMSNorm (forward, backward).
//
// Scalars (epsilon, momentum) are one-element tensors: a compile-time constant
// (TensorAttributes.value), a runtime pass-by-value host scalar or an ordinary one-element
// tensor; all are read when the node runs.
#include "kernels/BatchNorm.hpp"
#include "kernels/LayerNorm.hpp"
#include "plugin/OpRegistry.hpp"

namespace hipdnngo::cpu_reference
{
namespace
{

// scalarInput binds a one-element floating-point tensor (epsilon, momentum).
int scalarInput(NodeContext& ctx, int64_t uid, const char* role)
{
    const int i = ctx.input(uid, role);
    ctx.require(ctx.shape(i).elementCount() == 1,
                std::string(role) + " " + ctx.shape(i).describe() + " must be a scalar (one element)");
    ctx.requireFloating({i});
    return i;
}

double scalarValue(const TensorBindings& t, int index) { return t.view(index).load<double>(0); }

// optionalInput / optionalOutput bind a tensor when the uid is present, else return -1.
int optionalInput(NodeContext& ctx, const flatbuffers::Optional<int64_t>& uid, const char* role)
{
    return uid.has_value() ? ctx.input(uid.value(), role) : -1;
}

int optionalOutput(NodeContext& ctx, const flatbuffers::Optional<int64_t>& uid, const char* role)
{
    return uid.has_value() ? ctx.output(uid.value(), role) : -1;
}

void requireNoPeerStats(NodeContext& ctx, const flatbuffers::Vector<int64_t>* peerStats)
{
    ctx.require(peerStats == nullptr || peerStats->size() == 0, "peer_stats (multi-device statistics exchange) is not supported");
}

// View / pointer helpers for optional tensors inside node lambdas.
struct OptionalView
{
    TensorView view;
    const TensorView* ptr = nullptr;
    OptionalView(const TensorBindings& t, int index)
    {
        if(index >= 0)
        {
            view = t.view(index);
            ptr = &view;
        }
    }
    OptionalView(const OptionalView&) = delete;
};

const TensorView* shapeOrNull(NodeContext& ctx, int index) { return index >= 0 ? &ctx.shape(index) : nullptr; }

std::unique_ptr<PreparedNode> batchnormInferenceNode(NodeContext& ctx, int x, int mean, int stat, int scale, int bias, int y,
                                                     int eps)
{
    ctx.requireFloating({x, mean, stat, scale, bias, y});
    ctx.check(
        checkBatchnormInference(ctx.shape(x), ctx.shape(mean), ctx.shape(stat), ctx.shape(scale), ctx.shape(bias), ctx.shape(y)));
    BatchnormInferenceParams p;
    p.varianceForm = eps >= 0;
    p.accumulator = ctx.accumulator();
    return ctx.makeNode([=](const TensorBindings& t) {
        BatchnormInferenceParams run = p;
        if(eps >= 0)
            run.epsilon = scalarValue(t, eps);
        batchnormInference(t.view(x), t.view(mean), t.view(stat), t.view(scale), t.view(bias), t.view(y), run);
    });
}

} // namespace

std::unique_ptr<PreparedNode> prepareBatchnormInference(NodeContext& ctx)
{
    const auto& a = *ctx.node.attributes_as_BatchnormInferenceAttributes();
    const int x = ctx.input(a.x_tensor_uid(), "x");
    const int mean = ctx.input(a.mean_tensor_uid(), "mean");
    const int inv = ctx.input(a.inv_variance_tensor_uid(), "inv_variance");
    const int scale = ctx.input(a.scale_tensor_uid(), "scale");
    const int bias = ctx.input(a.bias_tensor_uid(), "bias");
    const int y = ctx.output(a.y_tensor_uid(), "y");
    return batchnormInferenceNode(ctx, x, mean, inv, scale, bias, y, -1);
}

std::unique_ptr<PreparedNode> prepareBatchnormInferenceVariance(NodeContext& ctx)
{
    const auto& a = *ctx.node.attributes_as_BatchnormInferenceAttributesVarianceExt();
    const int x = ctx.input(a.x_tensor_uid(), "x");
    const int mean = ctx.input(a.mean_tensor_uid(), "mean");
    const int var = ctx.input(a.variance_tensor_uid(), "variance");
    const int scale = ctx.input(a.scale_tensor_uid(), "scale");
    const int bias = ctx.input(a.bias_tensor_uid(), "bias");
    const int eps = scalarInput(ctx, a.epsilon_tensor_uid(), "epsilon");
    const int y = ctx.output(a.y_tensor_uid(), "y");
    return batchnormInferenceNode(ctx, x, mean, var, scale, bias, y, eps);
}

std::unique_ptr<PreparedNode> prepareBatchnormTraining(NodeContext& ctx)
{
    const auto& a = *ctx.node.attributes_as_BatchnormAttributes();
    requireNoPeerStats(ctx, a.peer_stats_tensor_uid());
    const int x = ctx.input(a.x_tensor_uid(), "x");
    const int scale = ctx.input(a.scale_tensor_uid(), "scale");
    const int bias = ctx.input(a.bias_tensor_uid(), "bias");
    const int eps = scalarInput(ctx, a.epsilon_tensor_uid(), "epsilon");
    const int y = ctx.output(a.y_tensor_uid(), "y");
    const int savedMean = optionalOutput(ctx, a.mean_tensor_uid(), "mean");
    const int savedInv = optionalOutput(ctx, a.inv_variance_tensor_uid(), "inv_variance");
    const bool nextMean = a.next_running_mean_tensor_uid().has_value();
    const bool nextVar = a.next_running_variance_tensor_uid().has_value();
    // Running statistics are read only when their update is requested.
    ctx.require(!nextMean || a.prev_running_mean_tensor_uid().has_value(), "next_running_mean needs prev_running_mean");
    ctx.require(!nextVar || a.prev_running_variance_tensor_uid().has_value(),
                "next_running_variance needs prev_running_variance");
    ctx.require(!(nextMean || nextVar) || a.momentum_tensor_uid().has_value(), "running statistics need a momentum");
    const int prevMean = nextMean ? ctx.input(a.prev_running_mean_tensor_uid().value(), "prev_running_mean") : -1;
    const int prevVar = nextVar ? ctx.input(a.prev_running_variance_tensor_uid().value(), "prev_running_variance") : -1;
    const int momentum = (nextMean || nextVar) ? scalarInput(ctx, a.momentum_tensor_uid().value(), "momentum") : -1;
    const int outMean = nextMean ? ctx.output(a.next_running_mean_tensor_uid().value(), "next_running_mean") : -1;
    const int outVar = nextVar ? ctx.output(a.next_running_variance_tensor_uid().value(), "next_running_variance") : -1;
    ctx.requireFloating({x, scale, bias, y});
    for(int i : {savedMean, savedInv, prevMean, prevVar, outMean, outVar})
        if(i >= 0)
            ctx.requireFloating({i});
    BatchnormTrainingViews shapes{ctx.shape(x), ctx.shape(scale), ctx.shape(bias), ctx.shape(y)};
    shapes.savedMean = shapeOrNull(ctx, savedMean);
    shapes.savedInvVariance = shapeOrNull(ctx, savedInv);
    shapes.prevRunningMean = shapeOrNull(ctx, prevMean);
    shapes.prevRunningVariance = shapeOrNull(ctx, prevVar);
    shapes.nextRunningMean = shapeOrNull(ctx, outMean);
    shapes.nextRunningVariance = shapeOrNull(ctx, outVar);
    ctx.check(checkBatchnormTraining(shapes));
    const Accumulator acc = ctx.accumulator();
    return ctx.makeNode([=](const TensorBindings& t) {
        const OptionalView sm(t, savedMean), si(t, savedInv), pm(t, prevMean), pv(t, prevVar), nm(t, outMean), nv(t, outVar);
        BatchnormTrainingViews v{t.view(x), t.view(scale), t.view(bias), t.view(y)};
        v.savedMean = sm.ptr;
        v.savedInvVariance = si.ptr;
        v.prevRunningMean = pm.ptr;
        v.prevRunningVariance = pv.ptr;
        v.nextRunningMean = nm.ptr;
        v.nextRunningVariance = nv.ptr;
        BatchnormTrainingParams p;
        p.epsilon = scalarValue(t, eps);
        p.momentum = momentum >= 0 ? scalarValue(t, momentum) : 0.0;
        p.accumulator = acc;
        batchnormTraining(v, p);
    });
}

std::unique_ptr<PreparedNode> prepareBatchnormBackward(NodeContext& ctx)
{
    const auto& a = *ctx.node.attributes_as_BatchnormBackwardAttributes();
    requireNoPeerStats(ctx, a.peer_stats_tensor_uid());
    // The node has no epsilon, so the statistics cannot be recomputed from x.
    ctx.require(a.mean_tensor_uid().has_value() && a.inv_variance_tensor_uid().has_value(),
                "batchnorm backward needs the saved mean and inv_variance (the node has no epsilon to recompute them)");
    const int dy = ctx.input(a.dy_tensor_uid(), "dy");
    const int x = ctx.input(a.x_tensor_uid(), "x");
    const int mean = ctx.input(a.mean_tensor_uid().value(), "mean");
    const int inv = ctx.input(a.inv_variance_tensor_uid().value(), "inv_variance");
    const int scale = ctx.input(a.scale_tensor_uid(), "scale");
    const int dx = ctx.output(a.dx_tensor_uid(), "dx");
    const int dscale = ctx.output(a.dscale_tensor_uid(), "dscale");
    const int dbias = ctx.output(a.dbias_tensor_uid(), "dbias");
    ctx.requireFloating({dy, x, mean, inv, scale, dx, dscale, dbias});
    ctx.check(checkBatchnormBackward(ctx.shape(dy), ctx.shape(x), ctx.shape(mean), ctx.shape(inv), ctx.shape(scale),
                                     ctx.shape(dx), ctx.shape(dscale), ctx.shape(dbias)));
    const Accumulator acc = ctx.accumulator();
    return ctx.makeNode([=](const TensorBindings& t) {
        batchnormBackward(t.view(dy), t.view(x), t.view(mean), t.view(inv), t.view(scale), t.view(dx), t.view(dscale),
                          t.view(dbias), acc);
    });
}

std::unique_ptr<PreparedNode> prepareLayernorm(NodeContext& ctx)
{
    const auto& a = *ctx.node.attributes_as_LayernormAttributes();
    const int x = ctx.input(a.x_tensor_uid(), "x");
    const int scale = ctx.input(a.scale_tensor_uid(), "scale");
    const int bias = ctx.input(a.bias_tensor_uid(), "bias");
    const int eps = scalarInput(ctx, a.epsilon_tensor_uid(), "epsilon");
    const int y = ctx.output(a.y_tensor_uid(), "y");
    // The statistics are written whenever their tensors are given (forward_phase does not
    // change y; INFERENCE graphs simply have no statistics outputs).
    const int mean = optionalOutput(ctx, a.mean_tensor_uid(), "mean");
    const int inv = optionalOutput(ctx, a.inv_variance_tensor_uid(), "inv_variance");
    ctx.requireFloating({x, scale, bias, y});
    for(int i : {mean, inv})
        if(i >= 0)
            ctx.requireFloating({i});
    AxisMask axes{};
    ctx.check(a.normalized_dim_count() != 0 ? normAxesFromCount(ctx.shape(x), a.normalized_dim_count(), axes)
                                            : normAxesFromScale(ctx.shape(x), ctx.shape(scale), axes));
    LayernormForwardViews shapes{ctx.shape(x), ctx.shape(scale), ctx.shape(bias), ctx.shape(y)};
    shapes.mean = shapeOrNull(ctx, mean);
    shapes.invVariance = shapeOrNull(ctx, inv);
    ctx.check(checkLayernormForward(shapes, axes));
    const Accumulator acc = ctx.accumulator();
    return ctx.makeNode([=](const TensorBindings& t) {
        const OptionalView m(t, mean), r(t, inv);
        LayernormForwardViews v{t.view(x), t.view(scale), t.view(bias), t.view(y)};
        v.mean = m.ptr;
        v.invVariance = r.ptr;
        layernormForward(v, axes, scalarValue(t, eps), acc);
    });
}

std::unique_ptr<PreparedNode> prepareLayernormBackward(NodeContext& ctx)
{
    const auto& a = *ctx.node.attributes_as_LayernormBackwardAttributes();
    const int dy = ctx.input(a.dy_tensor_uid(), "dy");
    const int x = ctx.input(a.x_tensor_uid(), "x");
    const int scale = ctx.input(a.scale_tensor_uid(), "scale");
    const bool haveStats = a.mean_tensor_uid().has_value() && a.inv_variance_tensor_uid().has_value();
    ctx.require(a.mean_tensor_uid().has_value() == a.inv_variance_tensor_uid().has_value(),
                "mean and inv_variance must be given together");
    ctx.require(haveStats || a.epsilon_tensor_uid().has_value(),
                "without mean / inv_variance the statistics must be recomputed, which needs epsilon");
    const int mean = haveStats ? ctx.input(a.mean_tensor_uid().value(), "mean") : -1;
    const int inv = haveStats ? ctx.input(a.inv_variance_tensor_uid().value(), "inv_variance") : -1;
    const int eps = haveStats ? -1 : scalarInput(ctx, a.epsilon_tensor_uid().value(), "epsilon");
    const int dx = ctx.output(a.dx_tensor_uid(), "dx");
    const int dscale = ctx.output(a.dscale_tensor_uid(), "dscale");
    const int dbias = ctx.output(a.dbias_tensor_uid(), "dbias");
    ctx.requireFloating({dy, x, scale, dx, dscale, dbias});
    if(haveStats)
        ctx.requireFloating({mean, inv});
    AxisMask axes{};
    ctx.check(a.normalized_dim_count() != 0 ? normAxesFromCount(ctx.shape(x), a.normalized_dim_count(), axes)
                                            : normAxesFromScale(ctx.shape(x), ctx.shape(scale), axes));
    LayernormBackwardViews shapes{ctx.shape(dy), ctx.shape(x),      ctx.shape(scale),
                                  ctx.shape(dx), ctx.shape(dscale), ctx.shape(dbias)};
    shapes.mean = shapeOrNull(ctx, mean);
    shapes.invVariance = shapeOrNull(ctx, inv);
    ctx.check(checkLayernormBackward(shapes, axes));
    const Accumulator acc = ctx.accumulator();
    return ctx.makeNode([=](const TensorBindings& t) {
        const OptionalView m(t, mean), r(t, inv);
        LayernormBackwardViews v{t.view(dy), t.view(x), t.view(scale), t.view(dx), t.view(dscale), t.view(dbias)};
        v.mean = m.ptr;
        v.invVariance = r.ptr;
        layernormBackward(v, axes, eps >= 0 ? scalarValue(t, eps) : 0.0, acc);
    });
}

std::unique_ptr<PreparedNode> prepareRmsnorm(NodeContext& ctx)
{
    const auto& a = *ctx.node.attributes_as_RMSNormAttributes();
    const int x = ctx.input(a.x_tensor_uid(), "x");
    const int scale = ctx.input(a.scale_tensor_uid(), "scale");
    const int eps = scalarInput(ctx, a.epsilon_tensor_uid(), "epsilon");
    const int bias = optionalInput(ctx, a.bias_tensor_uid(), "bias");
    const int y = ctx.output(a.y_tensor_uid(), "y");
    const int invRms = optionalOutput(ctx, a.inv_rms_tensor_uid(), "inv_rms");
    ctx.requireFloating({x, scale, y});
    for(int i : {bias, invRms})
        if(i >= 0)
            ctx.requireFloating({i});
    AxisMask axes{};
    ctx.check(normAxesFromScale(ctx.shape(x), ctx.shape(scale), axes));
    RmsnormForwardViews shapes{ctx.shape(x), ctx.shape(scale), ctx.shape(y)};
    shapes.bias = shapeOrNull(ctx, bias);
    shapes.invRms = shapeOrNull(ctx, invRms);
    ctx.check(checkRmsnormForward(shapes, axes));
    const Accumulator acc = ctx.accumulator();
    return ctx.makeNode([=](const TensorBindings& t) {
        const OptionalView b(t, bias), r(t, invRms);
        RmsnormForwardViews v{t.view(x), t.view(scale), t.view(y)};
        v.bias = b.ptr;
        v.invRms = r.ptr;
        rmsnormForward(v, axes, scalarValue(t, eps), acc);
    });
}

std::unique_ptr<PreparedNode> prepareRmsnormBackward(NodeContext& ctx)
{
    const auto& a = *ctx.node.attributes_as_RMSNormBackwardAttributes();
    const int dy = ctx.input(a.dy_tensor_uid(), "dy");
    const int x = ctx.input(a.x_tensor_uid(), "x");
    const int scale = ctx.input(a.scale_tensor_uid(), "scale");
    const int invRms = ctx.input(a.inv_rms_tensor_uid(), "inv_rms");
    const int dx = ctx.output(a.dx_tensor_uid(), "dx");
    const int dscale = ctx.output(a.dscale_tensor_uid(), "dscale");
    const int dbias = optionalOutput(ctx, a.dbias_tensor_uid(), "dbias");
    ctx.requireFloating({dy, x, scale, invRms, dx, dscale});
    if(dbias >= 0)
        ctx.requireFloating({dbias});
    AxisMask axes{};
    ctx.check(normAxesFromScale(ctx.shape(x), ctx.shape(scale), axes));
    RmsnormBackwardViews shapes{ctx.shape(dy),     ctx.shape(x),  ctx.shape(scale),
                                ctx.shape(invRms), ctx.shape(dx), ctx.shape(dscale)};
    shapes.dbias = shapeOrNull(ctx, dbias);
    ctx.check(checkRmsnormBackward(shapes, axes));
    const Accumulator acc = ctx.accumulator();
    return ctx.makeNode([=](const TensorBindings& t) {
        const OptionalView b(t, dbias);
        RmsnormBackwardViews v{t.view(dy), t.view(x), t.view(scale), t.view(invRms), t.view(dx), t.view(dscale)};
        v.dbias = b.ptr;
        rmsnormBackward(v, axes, acc);
    });
}

} // namespace hipdnngo::cpu_reference
