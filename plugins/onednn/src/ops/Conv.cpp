// Convolution forward (with a bias and the following pointwise nodes fused as post-ops),
// backward data and backward weights; 1-D to 3-D, grouped.
#include "../PlanBuilder.hpp"

namespace hipdnngo::onednn
{

void convForwardInputs(const fbs::Node& n, const InputCounter& reads)
{
    const auto* a = n.attributes_as_ConvolutionFwdAttributes();
    reads(a->x_tensor_uid()), reads(a->w_tensor_uid());
}

void convBackwardDataInputs(const fbs::Node& n, const InputCounter& reads)
{
    const auto* a = n.attributes_as_ConvolutionBwdAttributes();
    reads(a->dy_tensor_uid()), reads(a->w_tensor_uid());
}

void convBackwardWeightsInputs(const fbs::Node& n, const InputCounter& reads)
{
    const auto* a = n.attributes_as_ConvolutionWrwAttributes();
    reads(a->x_tensor_uid()), reads(a->dy_tensor_uid());
}

template <typename Attrs>
api::ConvGeometry PlanBuilder::geometry(const Attrs& a, int spatial, const std::string& node, const Tensor& w)
{
    auto read = [&](const flatbuffers::Vector<int64_t>* v, const char* what) {
        if(v == nullptr || v->size() != static_cast<flatbuffers::uoffset_t>(spatial))
            throw Unsupported(node + ": " + what + " needs " + std::to_string(spatial) + " entries");
        return dnnl::memory::dims(v->begin(), v->end());
    };
    api::ConvGeometry g;
    g.padL = read(a.pre_padding(), "pre_padding");
    g.padR = read(a.post_padding(), "post_padding");
    g.strides = read(a.stride(), "stride");
    g.dilates = read(a.dilation(), "dilation");
    for(auto& d : g.dilates)
    {
        if(d < 1)
            throw Unsupported(node + ": dilation must be >= 1");
        d -= 1;
    }
    bool unitFilter = true;
    for(int d = 2; d < w.rank(); ++d)
        unitFilter = unitFilter && w.dims[static_cast<size_t>(d)] == 1;
    if(a.conv_mode() == fbs::ConvMode::CONVOLUTION && !unitFilter)
        throw Unsupported(node
                          + ": conv_mode CONVOLUTION (flipped filter) is not supported by oneDNN, "
                            "only CROSS_CORRELATION");
    if(a.conv_mode() != fbs::ConvMode::CONVOLUTION && a.conv_mode() != fbs::ConvMode::CROSS_CORRELATION)
        throw Unsupported(node + ": conv_mode is not set");
    return g;
}

PlanBuilder::ConvShape PlanBuilder::convShape(const Tensor& x, const Tensor& w, const Tensor& y, const std::string& node)
{
    const int rank = x.rank();
    if(rank < 3 || rank > 5 || w.rank() != rank || y.rank() != rank)
        throw Unsupported(node + ": convolution tensors must all have rank 3 to 5 (1-D to 3-D)");
    const int64_t C = x.dims[1], K = w.dims[0], Cg = w.dims[1];
    if(Cg < 1 || C % Cg != 0)
        throw Unsupported(node + ": x channels " + std::to_string(C) + " not a multiple of w channels " + std::to_string(Cg));
    ConvShape s;
    s.groups = C / Cg;
    if(K % s.groups != 0 || y.dims[1] != K || y.dims[0] != x.dims[0])
        throw Unsupported(node + ": inconsistent convolution channel counts");
    std::vector<int64_t> dims = w.dims, strides = w.strides;
    if(s.groups > 1)
    {
        dims.insert(dims.begin(), s.groups);
        dims[1] = K / s.groups;
        strides.insert(strides.begin(), w.strides[0] * (K / s.groups));
    }
    s.userW = mdWith(dims, w.dtype, strides);
    s.anyW = mdesc(dims, *mapType(w.dtype), dnnl::memory::format_tag::any);
    return s;
}

void PlanBuilder::convForward(const fbs::Node& n, const std::string& name)
{
    const auto& a = *n.attributes_as_ConvolutionFwdAttributes();
    const Tensor& x = tensor(a.x_tensor_uid(), "x", name);
    const Tensor& w = tensor(a.w_tensor_uid(), "w", name);
    const Tensor& y = tensor(a.y_tensor_uid(), "y", name);
    const ConvShape cs = convShape(x, w, y, name);
    const api::ConvGeometry g = geometry(a, x.rank() - 2, name, w);
    bool xReorder = false;
    const mdesc xNative = nativeMd(x, &xReorder);

    const std::vector<PostOp> chain = collectChain(y.index);
    struct Choice
    {
        std::optional<api::Built> built;
        size_t used = 0;
        bool withBias = false;
    };
    std::string lastError;
    // attempt: the longest fusable prefix of the chain for which oneDNN has a convolution,
    // with src/dst in the user's (native) layout or, when blocked, in oneDNN's choice.
    auto attempt = [&](bool blocked) {
        Choice got;
        const mdesc srcMd = blocked ? mdesc(x.dims, *mapType(x.dtype), dnnl::memory::format_tag::any) : xNative;
        for(size_t k = chain.size() + 1; k-- > 0;)
        {
            const Tensor& dst = k == 0 ? y : p_.tensors_.at(chain[k - 1].out);
            bool dReorder = false;
            const mdesc dMd =
                blocked ? mdesc(dst.dims, *mapType(dst.dtype), dnnl::memory::format_tag::any) : nativeMd(dst, &dReorder);
            // A per-output-channel ADD right after the convolution becomes its bias.
            std::optional<mdesc> biasMd;
            if(k >= 1 && chain[0].binary && chain[0].bin == algorithm::binary_add)
            {
                const Tensor& b = p_.tensors_.at(chain[0].src1);
                const auto bd = broadcastTo(b.dims, y.dims);
                bool perChannel = bd && !b.isConstant && !b.isPassByValue
                                  && (b.dtype == fbs::DataType::FLOAT || b.dtype == fbs::DataType::BFLOAT16);
                for(size_t d = 0; perChannel && d < bd->size(); ++d)
                    perChannel = d == 1 || (*bd)[d] == 1;
                const size_t kDim = b.dims.size() - (y.dims.size() - 1); // index of C in b
                if(perChannel && kDim < b.dims.size() && (b.dims[kDim] == 1 || b.strides[kDim] == 1)
                   && b.dims[kDim] == y.dims[1])
                    biasMd = mdesc({y.dims[1]}, *mapType(b.dtype), dnnl::memory::dims{1});
            }
            std::string names;
            const dnnl::primitive_attr attr = attrFor(chain, biasMd ? 1 : 0, k, dst.dims, nullptr, &names);
            try
            {
                got.built = api::convForward(srcMd, cs.anyW, biasMd ? &*biasMd : nullptr, dMd, g, attr, build_);
                got.used = k;
                got.withBias = biasMd.has_value();
                return got;
            }
            catch(const dnnl::error& e)
            {
                lastError = e.what();
            }
        }
        return got;
    };
    auto slow = [](const api::Built& b) { return slowImpl(b); };
    Choice pick = attempt(false);
    if(!pick.built || slow(*pick.built))
    {
        // oneDNN's direct kernels want channels-last or blocked activations; reordering
        // channels-first ones costs far less than a gemm- or reference-based convolution.
        Choice alt = attempt(true);
        if(alt.built && !slow(*alt.built) && (!pick.built || alt.used >= pick.used))
            pick = std::move(alt);
    }
    std::optional<api::Built>& built = pick.built;
    const size_t used = pick.used;
    const bool withBias = pick.withBias;
    if(!built)
        throw Unsupported(name + ": oneDNN has no convolution forward for these shapes/types (" + lastError + ")");

    const Tensor& dst = used == 0 ? y : p_.tensors_.at(chain[used - 1].out);
    std::vector<Arg> args;
    // Source: the user's tensor, or a copy in the layout the primitive was created for.
    args.push_back(Arg{DNNL_ARG_SRC, built->src, inputAs(x, mdOf(x), built->src, name, "x")});
    // Weights: reordered into oneDNN's preferred layout unless it is the user's.
    args.push_back(Arg{DNNL_ARG_WEIGHTS, built->weights, inputAs(w, cs.userW, built->weights, name, "weights")});
    std::string names;
    if(withBias)
    {
        const Tensor& b = p_.tensors_.at(chain[0].src1);
        args.push_back(Arg{DNNL_ARG_BIAS, built->bias, input(b, name)});
        names = "+bias";
    }
    // The fused chain's intermediate tensors never exist; mark them written.
    markFused(chain, used, y.index);
    attrFor(chain, withBias ? 1 : 0, used, dst.dims, &args, &names);
    const BoundOutput d = bindOutput(dst, built->dst, built->dst != mdOf(dst), name);
    args.push_back(Arg{DNNL_ARG_DST, built->dst, d.written});
    addStep(*built, std::move(args), "conv_fwd" + names);
    finishOutput(d, built->dst, mdOf(dst), name + " y");
    next_ += used;
}

// convBackwardBuilt: a backward convolution `make(aMd, bMd)` over activations a and b in their
// own layouts (dense channels-last or channels-first), or, when oneDNN would run that on a gemm
// or reference kernel, in layouts of its choosing (fastest); the caller reorders around it.
// `what` names the direction in the decline.
template <typename Make>
api::Built PlanBuilder::convBackwardBuilt(const Tensor& a, const Tensor& b, Make&& make, const std::string& node,
                                          const char* what)
{
    bool aReorder = false, bReorder = false;
    const mdesc aNative = nativeMd(a, &aReorder), bNative = nativeMd(b, &bReorder);
    const mdesc aAny(a.dims, *mapType(a.dtype), dnnl::memory::format_tag::any);
    const mdesc bAny(b.dims, *mapType(b.dtype), dnnl::memory::format_tag::any);
    try
    {
        // Channels-first activations: let oneDNN pick (blocked) layouts and reorder.
        return fastest([&](bool any) { return any ? make(aAny, bAny) : make(aNative, bNative); });
    }
    catch(const dnnl::error& e)
    {
        throw Unsupported(node + ": oneDNN has no convolution backward " + what + " for these shapes/types (" + e.what() + ")");
    }
}

void PlanBuilder::convBackwardData(const fbs::Node& n, const std::string& name)
{
    const auto& a = *n.attributes_as_ConvolutionBwdAttributes();
    const Tensor& dy = tensor(a.dy_tensor_uid(), "dy", name);
    const Tensor& w = tensor(a.w_tensor_uid(), "w", name);
    const Tensor& dx = tensor(a.dx_tensor_uid(), "dx", name);
    const ConvShape cs = convShape(dx, w, dy, name);
    const api::ConvGeometry g = geometry(a, dx.rank() - 2, name, w);
    const api::Built built = convBackwardBuilt(
        dy, dx, [&](const mdesc& dyMd, const mdesc& dxMd) { return api::convBackwardData(dxMd, cs.anyW, dyMd, g, build_); },
        name, "data");
    std::vector<Arg> args;
    args.push_back(Arg{DNNL_ARG_DIFF_DST, built.diffDst, inputAs(dy, mdOf(dy), built.diffDst, name, "dy")});
    args.push_back(Arg{DNNL_ARG_WEIGHTS, built.weights, inputAs(w, cs.userW, built.weights, name, "weights")});
    const BoundOutput out = bindOutput(dx, built.diffSrc, built.diffSrc != mdOf(dx), name);
    args.push_back(Arg{DNNL_ARG_DIFF_SRC, built.diffSrc, out.written});
    addStep(built, std::move(args), "conv_bwd_data");
    finishOutput(out, built.diffSrc, mdOf(dx), name + " dx");
}

void PlanBuilder::convBackwardWeights(const fbs::Node& n, const std::string& name)
{
    const auto& a = *n.attributes_as_ConvolutionWrwAttributes();
    const Tensor& x = tensor(a.x_tensor_uid(), "x", name);
    const Tensor& dy = tensor(a.dy_tensor_uid(), "dy", name);
    const Tensor& dw = tensor(a.dw_tensor_uid(), "dw", name);
    const ConvShape cs = convShape(x, dw, dy, name);
    const api::ConvGeometry g = geometry(a, x.rank() - 2, name, dw);
    const api::Built built = convBackwardBuilt(
        x, dy, [&](const mdesc& xMd, const mdesc& dyMd) { return api::convBackwardWeights(xMd, cs.anyW, dyMd, g, build_); },
        name, "weights");
    std::vector<Arg> args;
    args.push_back(Arg{DNNL_ARG_SRC, built.src, inputAs(x, mdOf(x), built.src, name, "x")});
    args.push_back(Arg{DNNL_ARG_DIFF_DST, built.diffDst, inputAs(dy, mdOf(dy), built.diffDst, name, "dy")});
    const BoundOutput out = bindOutput(dw, built.diffWeights, built.diffWeights != cs.userW, name);
    args.push_back(Arg{DNNL_ARG_DIFF_WEIGHTS, built.diffWeights, out.written});
    addStep(built, std::move(args), "conv_bwd_weights");
    finishOutput(out, built.diffWeights, cs.userW, name + " dw to the user's layout");
}

} // namespace hipdnngo::onednn
