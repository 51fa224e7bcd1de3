// Normalizations: layernorm forward and backward, batchnorm training (with running statistics)
// and backward, batchnorm inference (from inv_variance, or from variance and epsilon). Statistics
// and per-channel vectors travel as f32 vectors (vin / vout in PlanBuilder.cpp).
#include "../PlanBuilder.hpp"

namespace hipdnngo::onednn
{

void layernormInputs(const fbs::Node& n, const InputCounter& reads)
{
    const auto* a = n.attributes_as_LayernormAttributes();
    reads(a->x_tensor_uid()), reads(a->scale_tensor_uid()), reads(a->bias_tensor_uid());
}

void layernormBackwardInputs(const fbs::Node& n, const InputCounter& reads)
{
    const auto* a = n.attributes_as_LayernormBackwardAttributes();
    reads(a->dy_tensor_uid()), reads(a->x_tensor_uid()), reads(a->scale_tensor_uid());
}

void batchnormTrainingInputs(const fbs::Node& n, const InputCounter& reads)
{
    const auto* a = n.attributes_as_BatchnormAttributes();
    reads(a->x_tensor_uid()), reads(a->scale_tensor_uid()), reads(a->bias_tensor_uid());
}

void batchnormBackwardInputs(const fbs::Node& n, const InputCounter& reads)
{
    const auto* a = n.attributes_as_BatchnormBackwardAttributes();
    reads(a->dy_tensor_uid()), reads(a->x_tensor_uid()), reads(a->scale_tensor_uid());
}

void batchnormInferenceInputs(const fbs::Node& n, const InputCounter& reads)
{
    const auto* a = n.attributes_as_BatchnormInferenceAttributes();
    for(int64_t u : {a->x_tensor_uid(), a->mean_tensor_uid(), a->inv_variance_tensor_uid(), a->scale_tensor_uid(),
                     a->bias_tensor_uid()})
        reads(u);
}

void batchnormInferenceVarianceInputs(const fbs::Node& n, const InputCounter& reads)
{
    const auto* a = n.attributes_as_BatchnormInferenceAttributesVarianceExt();
    for(int64_t u : {a->x_tensor_uid(), a->mean_tensor_uid(), a->variance_tensor_uid(), a->scale_tensor_uid(),
                     a->bias_tensor_uid()})
        reads(u);
}

void PlanBuilder::layernorm(const fbs::Node& n, const std::string& name)
{
    const auto& a = *n.attributes_as_LayernormAttributes();
    const Tensor& x = tensor(a.x_tensor_uid(), "x", name);
    const Tensor& y = tensor(a.y_tensor_uid(), "y", name);
    const Tensor& scale = tensor(a.scale_tensor_uid(), "scale", name);
    const Tensor& bias = tensor(a.bias_tensor_uid(), "bias", name);
    const float eps = static_cast<float>(scalarValue(a.epsilon_tensor_uid(), "epsilon", name));
    const int64_t count = a.normalized_dim_count();
    if(count < 1 || count > x.rank())
        throw Unsupported(name + ": layernorm normalized_dim_count " + std::to_string(count) + " (supported: 1 to rank)");
    if(x.dims != y.dims || !rowMajor(x) || !rowMajor(y))
        throw Unsupported(name + ": layernorm needs dense row-major x and y of the same dims");
    int64_t inner = 1;
    for(int d = x.rank() - static_cast<int>(count); d < x.rank(); ++d)
        inner *= x.dims[static_cast<size_t>(d)];
    const int64_t outer = x.elements() / inner;
    const mdesc xMd({outer, inner}, *mapType(x.dtype), dnnl::memory::dims{inner, 1});
    const mdesc yMd({outer, inner}, *mapType(y.dtype), dnnl::memory::dims{inner, 1});
    const mdesc statMd({outer}, dt::f32, dnnl::memory::dims{1});
    const mdesc sMd = vectorMd(scale, inner, "scale", name), bMd = vectorMd(bias, inner, "bias", name);
    const Tensor* mean = a.mean_tensor_uid() ? &tensor(*a.mean_tensor_uid(), "mean", name) : nullptr;
    const Tensor* inv = a.inv_variance_tensor_uid() ? &tensor(*a.inv_variance_tensor_uid(), "inv_variance", name) : nullptr;
    const bool training = mean != nullptr || inv != nullptr;
    if(training)
    {
        // The statistics are outputs here: oneDNN writes them through its own layout.
        for(const Tensor* t : {mean, inv})
            if(t)
                vectorMd(*t, outer, "mean / inv_variance", name);
    }
    // 16-bit x and y in a staged plan: the engine's kernel reads and writes them itself
    // (NormKernels.hpp), instead of widening x and narrowing y around oneDNN's f32 primitive.
    if(const std::optional<Storage> raw = rawStorage({&x}, {&y}))
    {
        RmsNormShape sh;
        sh.a = outer;
        sh.n = inner;
        sh.data = *raw;
        std::vector<Buffer> bufs{rawBuffer(x, false, name), vin(scale, scale.elements(), name), vin(bias, bias.elements(), name),
                                 rawBuffer(y, true, name), mean ? vout(*mean, mean->elements(), name) : Buffer::none(),
                                 inv ? vout(*inv, inv->elements(), name) : Buffer::none()};
        addKernel(std::move(bufs),
                  [sh, eps](void* const* at) {
                      layerNormForward(sh, at[0], static_cast<const float*>(at[1]), static_cast<const float*>(at[2]), eps, at[3],
                                       static_cast<float*>(at[4]), static_cast<float*>(at[5]));
                  },
                  "layernorm_fwd (16-bit x, y) [" + std::to_string(outer) + "," + std::to_string(inner) + "]");
        flushOutputs(name);
        return;
    }
    api::Built b;
    try
    {
        b = api::layernormForward(xMd, statMd, eps, training, build_);
    }
    catch(const dnnl::error& e)
    {
        throw Unsupported(name + ": oneDNN has no layer normalization for these types (" + e.what() + ")");
    }
    if(b.dst != yMd) // oneDNN 2.x layer normalization writes dst in src's type
        throw Unsupported(name + ": layernorm with y of another data type than x");
    std::vector<Arg> args{Arg{DNNL_ARG_SRC, xMd, input(x, name)},
                          Arg{DNNL_ARG_SCALE, sMd, vin(scale, scale.elements(), name)},
                          Arg{DNNL_ARG_SHIFT, bMd, vin(bias, bias.elements(), name)}};
    Buffer meanBuf, varBuf;
    if(training)
    {
        meanBuf = mean ? vout(*mean, mean->elements(), name) : temp(statMd);
        varBuf = inv ? vout(*inv, inv->elements(), name) : temp(statMd);
        args.push_back(Arg{DNNL_ARG_MEAN, statMd, meanBuf});
        args.push_back(Arg{DNNL_ARG_VARIANCE, statMd, varBuf});
    }
    args.push_back(Arg{DNNL_ARG_DST, yMd, output(y, name)});
    addStep(b, std::move(args), "layernorm_fwd");
    if(inv)
        toInverse(statMd, varBuf, eps);
    flushOutputs(name);
}

// statFromInverse: variance = inv_variance^-2 into a temp buffer (backward primitives take
// variance and epsilon; with epsilon 0 they recover exactly the caller's inv_variance).
Buffer PlanBuilder::statFromInverse(const mdesc& statMd, Buffer inv)
{
    const Buffer var = temp(statMd);
    const api::Built power = api::eltwiseForward(algorithm::eltwise_pow, 1.f, -2.f, statMd, {}, build_);
    addStep(power, {Arg{DNNL_ARG_SRC, statMd, inv}, Arg{DNNL_ARG_DST, statMd, var}}, "variance from inv_variance");
    return var;
}

// toInverse: in place, variance -> (variance + eps)^(-1/2).
void PlanBuilder::toInverse(const mdesc& statMd, Buffer buf, float eps)
{
    const api::Built linear = api::eltwiseForward(algorithm::eltwise_linear, 1.f, eps, statMd, {}, build_);
    addStep(linear, {Arg{DNNL_ARG_SRC, statMd, buf}, Arg{DNNL_ARG_DST, statMd, buf}}, "variance+eps");
    const api::Built power = api::eltwiseForward(algorithm::eltwise_pow, 1.f, -0.5f, statMd, {}, build_);
    addStep(power, {Arg{DNNL_ARG_SRC, statMd, buf}, Arg{DNNL_ARG_DST, statMd, buf}}, "rsqrt");
}

void PlanBuilder::layernormBackward(const fbs::Node& n, const std::string& name)
{
    const auto& a = *n.attributes_as_LayernormBackwardAttributes();
    const Tensor& dy = tensor(a.dy_tensor_uid(), "dy", name);
    const Tensor& x = tensor(a.x_tensor_uid(), "x", name);
    const Tensor& scale = tensor(a.scale_tensor_uid(), "scale", name);
    const Tensor& dx = tensor(a.dx_tensor_uid(), "dx", name);
    const Tensor& dscale = tensor(a.dscale_tensor_uid(), "dscale", name);
    const Tensor& dbias = tensor(a.dbias_tensor_uid(), "dbias", name);
    if(!a.mean_tensor_uid() || !a.inv_variance_tensor_uid())
        throw Unsupported(name + ": layernorm backward without saved mean and inv_variance");
    const Tensor& mean = tensor(*a.mean_tensor_uid(), "mean", name);
    const Tensor& inv = tensor(*a.inv_variance_tensor_uid(), "inv_variance", name);
    const int64_t count = a.normalized_dim_count();
    if(count < 1 || count > x.rank())
        throw Unsupported(name + ": layernorm normalized_dim_count " + std::to_string(count));
    if(x.dims != dy.dims || dx.dims != x.dims || !rowMajor(x) || !rowMajor(dy) || !rowMajor(dx) || dy.dtype != dx.dtype)
        throw Unsupported(name + ": layernorm backward needs dense row-major x, dy, dx (dy and dx of one type)");
    int64_t inner = 1;
    for(int d = x.rank() - static_cast<int>(count); d < x.rank(); ++d)
        inner *= x.dims[static_cast<size_t>(d)];
    const int64_t outer = x.elements() / inner;
    const mdesc xMd({outer, inner}, *mapType(x.dtype), dnnl::memory::dims{inner, 1});
    const mdesc dMd({outer, inner}, *mapType(dy.dtype), dnnl::memory::dims{inner, 1});
    const mdesc statMd = vectorMd(mean, outer, "mean", name);
    vectorMd(inv, outer, "inv_variance", name);
    const mdesc sMd = vectorMd(scale, inner, "scale", name);
    vectorMd(dscale, inner, "dscale", name);
    vectorMd(dbias, inner, "dbias", name);
    api::Built b;
    try
    {
        b = api::layernormBackward(xMd, dMd, statMd, 0.f, build_);
    }
    catch(const dnnl::error& e)
    {
        throw Unsupported(name + ": oneDNN has no layer normalization backward for these types (" + e.what() + ")");
    }
    const Buffer var = statFromInverse(statMd, vin(inv, inv.elements(), name));
    addStep(b,
            {Arg{DNNL_ARG_SRC, xMd, input(x, name)}, Arg{DNNL_ARG_DIFF_DST, dMd, input(dy, name)},
             Arg{DNNL_ARG_MEAN, statMd, vin(mean, mean.elements(), name)}, Arg{DNNL_ARG_VARIANCE, statMd, var},
             Arg{DNNL_ARG_SCALE, sMd, vin(scale, scale.elements(), name)},
             Arg{DNNL_ARG_SHIFT, sMd, temp(sMd)}, // required by oneDNN 2.x, not read
             Arg{DNNL_ARG_DIFF_SRC, dMd, output(dx, name)},
             Arg{DNNL_ARG_DIFF_SCALE, sMd, vout(dscale, dscale.elements(), name)},
             Arg{DNNL_ARG_DIFF_SHIFT, sMd, vout(dbias, dbias.elements(), name)}},
            "layernorm_bwd");
    flushOutputs(name);
}

// bnData: x's md for batch normalization (dense channels-first or channels-last only).
mdesc PlanBuilder::bnData(const Tensor& t, const std::string& node)
{
    if(t.rank() < 3)
        throw Unsupported(node + ": batchnorm needs a tensor of rank >= 3");
    bool reorder = false;
    const mdesc m = nativeMd(t, &reorder);
    if(reorder)
        throw Unsupported(node + ": batchnorm needs a dense channels-first or channels-last tensor of rank >= 3");
    return m;
}

void PlanBuilder::batchnormTraining(const fbs::Node& n, const std::string& name)
{
    const auto& a = *n.attributes_as_BatchnormAttributes();
    if(a.peer_stats_tensor_uid() && a.peer_stats_tensor_uid()->size() > 0)
        throw Unsupported(name + ": batchnorm peer statistics (multi-device) are not supported");
    const Tensor& x = tensor(a.x_tensor_uid(), "x", name);
    const Tensor& y = tensor(a.y_tensor_uid(), "y", name);
    const Tensor& scale = tensor(a.scale_tensor_uid(), "scale", name);
    const Tensor& bias = tensor(a.bias_tensor_uid(), "bias", name);
    const float eps = static_cast<float>(scalarValue(a.epsilon_tensor_uid(), "epsilon", name));
    const mdesc xMd = bnData(x, name); // rank >= 3 checked here
    const int64_t C = x.dims[1];
    if(y.dims != x.dims)
        throw Unsupported(name + ": batchnorm x and y dims differ");
    bool yR = false;
    const mdesc yMd = nativeMd(y, &yR);
    if(yR || yMd != xMd)
        throw Unsupported(name + ": batchnorm y must have x's layout and type");
    const mdesc cMd = vectorMd(scale, C, "scale", name);
    vectorMd(bias, C, "bias", name);
    auto opt = [&](const flatbuffers::Optional<int64_t>& uid, const char* role) -> const Tensor* {
        if(!uid)
            return nullptr;
        const Tensor& t = tensor(*uid, role, name);
        vectorMd(t, C, role, name);
        return &t;
    };
    const Tensor* mean = opt(a.mean_tensor_uid(), "mean");
    const Tensor* inv = opt(a.inv_variance_tensor_uid(), "inv_variance");
    const Tensor* prevMean = opt(a.prev_running_mean_tensor_uid(), "prev_running_mean");
    const Tensor* prevVar = opt(a.prev_running_variance_tensor_uid(), "prev_running_variance");
    const Tensor* nextMean = opt(a.next_running_mean_tensor_uid(), "next_running_mean");
    const Tensor* nextVar = opt(a.next_running_variance_tensor_uid(), "next_running_variance");
    float momentum = 0.f;
    if(nextMean || nextVar)
    {
        if(!a.momentum_tensor_uid())
            throw Unsupported(name + ": running statistics without a momentum");
        momentum = static_cast<float>(scalarValue(*a.momentum_tensor_uid(), "momentum", name));
        if((nextMean && !prevMean) || (nextVar && !prevVar))
            throw Unsupported(name + ": next running statistics without the previous ones");
        if(nextVar && momentum >= 1.f)
            throw Unsupported(name + ": running variance with momentum >= 1");
    }
    api::Built b;
    try
    {
        b = api::batchnormTraining(xMd, eps, build_);
    }
    catch(const dnnl::error& e)
    {
        throw Unsupported(name + ": oneDNN has no batch normalization for these shapes/types (" + e.what() + ")");
    }
    const mdesc statMd({C}, dt::f32, dnnl::memory::dims{1});
    const Buffer meanBuf = mean ? vout(*mean, mean->elements(), name) : temp(statMd);
    const Buffer varBuf = inv ? vout(*inv, inv->elements(), name) : temp(statMd);
    std::vector<Arg> args{Arg{DNNL_ARG_SRC, xMd, input(x, name)},
                          Arg{DNNL_ARG_SCALE, cMd, vin(scale, scale.elements(), name)},
                          Arg{DNNL_ARG_SHIFT, cMd, vin(bias, bias.elements(), name)},
                          Arg{DNNL_ARG_MEAN, statMd, meanBuf},
                          Arg{DNNL_ARG_VARIANCE, statMd, varBuf},
                          Arg{DNNL_ARG_DST, yMd, output(y, name)}};
    if(b.workspace.get_size() > 0)
        args.push_back(Arg{DNNL_ARG_WORKSPACE, b.workspace, temp(b.workspace)});
    addStep(b, std::move(args), "batchnorm_fwd_training");
    if(nextMean)
    {
        // next = prev + momentum * (mean - prev)
        dnnl::post_ops ops;
        api::appendEltwise(ops, algorithm::eltwise_linear, momentum, 0.f);
        api::appendBinary(ops, algorithm::binary_add, statMd);
        dnnl::primitive_attr attr;
        attr.set_post_ops(ops);
        const api::Built u = api::binary(algorithm::binary_sub, statMd, statMd, statMd, attr, build_);
        const Buffer prev = vin(*prevMean, C, name);
        addStep(u,
                {Arg{DNNL_ARG_SRC_0, statMd, meanBuf}, Arg{DNNL_ARG_SRC_1, statMd, prev},
                 Arg{DNNL_ARG_ATTR_MULTIPLE_POST_OP(1) | DNNL_ARG_SRC_1, statMd, prev},
                 Arg{DNNL_ARG_DST, statMd, vout(*nextMean, C, name)}},
                "running mean");
    }
    if(nextVar)
    {
        // next = (1 - m) * prev + m * var * M / (M - 1) = (1 - m) * (prev + k * var),
        // k = m * M / ((M - 1) * (1 - m)); M = elements per channel.
        const double M = static_cast<double>(x.elements() / C);
        if(M < 2)
            throw Unsupported(name + ": running variance with one element per channel");
        const float k = static_cast<float>(momentum * M / ((M - 1) * (1.0 - momentum)));
        const Buffer t = temp(statMd);
        const api::Built sc = api::eltwiseForward(algorithm::eltwise_linear, k, 0.f, statMd, {}, build_);
        addStep(sc, {Arg{DNNL_ARG_SRC, statMd, varBuf}, Arg{DNNL_ARG_DST, statMd, t}}, "scaled variance");
        dnnl::post_ops ops;
        api::appendEltwise(ops, algorithm::eltwise_linear, 1.f - momentum, 0.f);
        dnnl::primitive_attr attr;
        attr.set_post_ops(ops);
        const api::Built u = api::binary(algorithm::binary_add, statMd, statMd, statMd, attr, build_);
        addStep(u,
                {Arg{DNNL_ARG_SRC_0, statMd, t}, Arg{DNNL_ARG_SRC_1, statMd, vin(*prevVar, C, name)},
                 Arg{DNNL_ARG_DST, statMd, vout(*nextVar, C, name)}},
                "running variance");
    }
    if(inv)
        toInverse(statMd, varBuf, eps);
    flushOutputs(name);
}

void PlanBuilder::batchnormBackward(const fbs::Node& n, const std::string& name)
{
    const auto& a = *n.attributes_as_BatchnormBackwardAttributes();
    if(a.peer_stats_tensor_uid() && a.peer_stats_tensor_uid()->size() > 0)
        throw Unsupported(name + ": batchnorm peer statistics (multi-device) are not supported");
    const Tensor& dy = tensor(a.dy_tensor_uid(), "dy", name);
    const Tensor& x = tensor(a.x_tensor_uid(), "x", name);
    const Tensor& scale = tensor(a.scale_tensor_uid(), "scale", name);
    const Tensor& dx = tensor(a.dx_tensor_uid(), "dx", name);
    const Tensor& dscale = tensor(a.dscale_tensor_uid(), "dscale", name);
    const Tensor& dbias = tensor(a.dbias_tensor_uid(), "dbias", name);
    if(!a.mean_tensor_uid() || !a.inv_variance_tensor_uid())
        throw Unsupported(name + ": batchnorm backward without saved mean and inv_variance");
    const Tensor& mean = tensor(*a.mean_tensor_uid(), "mean", name);
    const Tensor& inv = tensor(*a.inv_variance_tensor_uid(), "inv_variance", name);
    const mdesc xMd = bnData(x, name), dyMd = bnData(dy, name), dxMd = bnData(dx, name); // rank >= 3
    const int64_t C = x.dims[1];
    if(dy.dims != x.dims || dx.dims != x.dims || dyMd != dxMd)
        throw Unsupported(name + ": batchnorm backward needs dy and dx of one layout and type");
    const mdesc cMd = vectorMd(scale, C, "scale", name);
    const mdesc statMd = vectorMd(mean, C, "mean", name);
    vectorMd(inv, C, "inv_variance", name);
    vectorMd(dscale, C, "dscale", name);
    vectorMd(dbias, C, "dbias", name);
    api::Built b;
    try
    {
        b = api::batchnormBackward(xMd, dyMd, 0.f, build_);
    }
    catch(const dnnl::error& e)
    {
        throw Unsupported(name + ": oneDNN has no batch normalization backward for these shapes/types (" + e.what() + ")");
    }
    const Buffer var = statFromInverse(statMd, vin(inv, inv.elements(), name));
    addStep(b,
            {Arg{DNNL_ARG_SRC, xMd, input(x, name)}, Arg{DNNL_ARG_DIFF_DST, dyMd, input(dy, name)},
             Arg{DNNL_ARG_MEAN, statMd, vin(mean, mean.elements(), name)}, Arg{DNNL_ARG_VARIANCE, statMd, var},
             Arg{DNNL_ARG_SCALE, cMd, vin(scale, scale.elements(), name)},
             Arg{DNNL_ARG_SHIFT, cMd, temp(cMd)}, // required by oneDNN 2.x, not read
             Arg{DNNL_ARG_DIFF_SRC, dxMd, output(dx, name)},
             Arg{DNNL_ARG_DIFF_SCALE, cMd, vout(dscale, dscale.elements(), name)},
             Arg{DNNL_ARG_DIFF_SHIFT, cMd, vout(dbias, dbias.elements(), name)}},
            "batchnorm_bwd");
    flushOutputs(name);
}

void PlanBuilder::batchnormInference(const fbs::Node& n, const std::string& name)
{
    const auto& a = *n.attributes_as_BatchnormInferenceAttributes();
    const Tensor& x = tensor(a.x_tensor_uid(), "x", name);
    const Tensor& inv = tensor(a.inv_variance_tensor_uid(), "inv_variance", name);
    batchnormInferenceCore(name, x, tensor(a.mean_tensor_uid(), "mean", name), inv,
                           tensor(a.scale_tensor_uid(), "scale", name), tensor(a.bias_tensor_uid(), "bias", name),
                           tensor(a.y_tensor_uid(), "y", name), std::nullopt);
}

void PlanBuilder::batchnormInferenceVariance(const fbs::Node& n, const std::string& name)
{
    const auto& a = *n.attributes_as_BatchnormInferenceAttributesVarianceExt();
    const float eps = static_cast<float>(scalarValue(a.epsilon_tensor_uid(), "epsilon", name));
    batchnormInferenceCore(name, tensor(a.x_tensor_uid(), "x", name), tensor(a.mean_tensor_uid(), "mean", name),
                           tensor(a.variance_tensor_uid(), "variance", name), tensor(a.scale_tensor_uid(), "scale", name),
                           tensor(a.bias_tensor_uid(), "bias", name), tensor(a.y_tensor_uid(), "y", name), eps);
}

// y = (x - mean) * inv_variance * scale + bias: one binary primitive with three per-channel
// post-ops. With `eps` the graph carries the variance: inv_variance = (variance + eps)^-1/2
// is computed first into the workspace.
void PlanBuilder::batchnormInferenceCore(const std::string& name, const Tensor& x, const Tensor& mean, const Tensor& inv,
                                         const Tensor& scale, const Tensor& bias, const Tensor& y, std::optional<float> eps)
{
    if(x.dims != y.dims || x.rank() < 2)
        throw Unsupported(name + ": batchnorm x and y must have the same dims, rank >= 2");
    for(const Tensor* t : {&mean, &inv, &scale, &bias})
    {
        const auto bd = broadcastTo(t->dims, x.dims);
        bool perChannel = bd.has_value();
        for(size_t d = 0; perChannel && d < bd->size(); ++d)
            perChannel = d == 1 || (*bd)[d] == 1;
        if(!perChannel)
            throw Unsupported(name + ": batchnorm statistics must be per channel");
    }
    mdesc invMd = src1Md(inv, x.dims);
    Buffer invBuf = input(inv, name);
    if(eps)
    {
        const mdesc f = src1Md(inv, x.dims, dt::f32);
        const Buffer t = temp(f);
        addReorder(invMd, invBuf, f, t, name + " variance to f32");
        toInverse(f, t, *eps);
        invMd = f;
        invBuf = t;
    }
    dnnl::post_ops ops;
    std::vector<Arg> args{Arg{DNNL_ARG_SRC_0, mdOf(x), input(x, name)},
                          Arg{DNNL_ARG_SRC_1, src1Md(mean, x.dims), input(mean, name)}};
    int k = 0;
    api::appendBinary(ops, algorithm::binary_mul, invMd);
    args.push_back(Arg{DNNL_ARG_ATTR_MULTIPLE_POST_OP(k++) | DNNL_ARG_SRC_1, invMd, invBuf});
    for(auto [t, alg] : {std::pair<const Tensor*, algorithm>{&scale, algorithm::binary_mul}, {&bias, algorithm::binary_add}})
    {
        const mdesc m = src1Md(*t, x.dims);
        api::appendBinary(ops, alg, m);
        args.push_back(Arg{DNNL_ARG_ATTR_MULTIPLE_POST_OP(k++) | DNNL_ARG_SRC_1, m, input(*t, name)});
    }
    dnnl::primitive_attr attr;
    attr.set_post_ops(ops);
    api::Built b;
    try
    {
        b = api::binary(algorithm::binary_sub, mdOf(x), src1Md(mean, x.dims), mdOf(y), attr, build_);
    }
    catch(const dnnl::error& e)
    {
        throw Unsupported(name + ": oneDNN binary with per-channel post-ops failed (" + e.what() + ")");
    }
    args.push_back(Arg{DNNL_ARG_DST, mdOf(y), output(y, name)});
    addStep(b, std::move(args), "batchnorm_inference(sub+mul+mul+add)");
}

} // namespace hipdnngo::onednn
