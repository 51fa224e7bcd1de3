// Pooling (ResampleFwd / ResampleBwd): max and average, 1-D to 3-D. Max-pool backward takes
// hipDNN's index tensor, converted into oneDNN's workspace by an engine step (PoolIndex.hpp).
#include "../PlanBuilder.hpp"

#include <memory>

namespace hipdnngo::onednn
{

namespace
{

// PoolWindow is a pooling node's geometry, one entry per spatial dimension.
struct PoolWindow
{
    dnnl::memory::dims padL, padR, strides, kernel;
};

// poolWindow reads the geometry of a forward or backward pooling node whose data tensors have
// ranks `rank` (x or dx) and `otherRank` (y or dy).
template <typename Attributes>
PoolWindow poolWindow(const Attributes& a, int rank, int otherRank, const std::string& name)
{
    const int spatial = rank - 2;
    if(spatial < 1 || spatial > 3 || otherRank != rank)
        throw Unsupported(name + ": pooling tensors must have rank 3 to 5");
    auto read = [&](const flatbuffers::Vector<int64_t>* v, const char* what) {
        if(v == nullptr || v->size() != static_cast<flatbuffers::uoffset_t>(spatial))
            throw Unsupported(name + ": " + what + " needs " + std::to_string(spatial) + " entries");
        return dnnl::memory::dims(v->begin(), v->end());
    };
    // Braced initialisation evaluates in order: the first missing field is the one reported.
    return {read(a.pre_padding(), "pre_padding"), read(a.post_padding(), "post_padding"), read(a.stride(), "stride"),
            read(a.window(), "window")};
}

} // namespace

void poolingForwardInputs(const fbs::Node& n, const InputCounter& reads)
{
    reads(n.attributes_as_ResampleFwdAttributes()->x_tensor_uid());
}

void poolingBackwardInputs(const fbs::Node& n, const InputCounter& reads)
{
    reads(n.attributes_as_ResampleBwdAttributes()->dy_tensor_uid());
}

void PlanBuilder::poolingForward(const fbs::Node& n, const std::string& name)
{
    const auto& a = *n.attributes_as_ResampleFwdAttributes();
    const Tensor& x = tensor(a.x_tensor_uid(), "x", name);
    const Tensor& y = tensor(a.y_tensor_uid(), "y", name);
    const auto [padL, padR, strides, kernel] = poolWindow(a, x.rank(), y.rank(), name);
    bool padded = false, allPaddingWindow = false;
    for(size_t d = 0; d < padL.size(); ++d)
    {
        padded = padded || padL[d] != 0 || padR[d] != 0;
        allPaddingWindow = allPaddingWindow || padL[d] >= kernel[d] || padR[d] >= kernel[d];
    }
    const Tensor* index = nullptr;
    if(a.index_tensor_uid())
    {
        index = p_.tensors_.find(*a.index_tensor_uid());
        if(index == nullptr)
            throw Unsupported(name + ": index tensor uid " + std::to_string(*a.index_tensor_uid()) + " is not in the graph");
        if(index->isConstant || index->isPassByValue || (index->isVirtual && !mapType(index->dtype)))
            throw Unsupported(name + ": index tensor " + index->label() + " must be a non-virtual tensor");
    }
    algorithm alg;
    switch(a.resample_mode())
    {
    case fbs::ResampleMode::MAXPOOL: alg = algorithm::pooling_max; break;
    case fbs::ResampleMode::AVGPOOL_INCLUDE_PADDING: alg = algorithm::pooling_avg_include_padding; break;
    case fbs::ResampleMode::AVGPOOL_EXCLUDE_PADDING: alg = algorithm::pooling_avg_exclude_padding; break;
    default: throw Unsupported(name + ": resample mode is not a pooling mode");
    }
    // The engine's argmax step (PoolIndex.hpp): the index output, and y where hipDNN's padding
    // differs from oneDNN's -inf (ZERO_PAD, windows entirely in the padding).
    const bool maxPool = alg == algorithm::pooling_max;
    const bool argmax =
        maxPool && (index != nullptr || (padded && a.padding_mode() == fbs::PaddingMode::ZERO_PAD) || allPaddingWindow);
    if(index && !maxPool)
        throw Unsupported(name + ": an index output is only defined for MAXPOOL");
    if(argmax && y.dtype != fbs::DataType::FLOAT)
        throw Unsupported(name + ": max pooling with an index output or zero padding writes y in f32 (y is "
                          + fbs::EnumNameDataType(y.dtype) + "; 16-bit tensors are staged)");
    if(index)
    {
        if(!indexTypeSupported(index->dtype))
            throw Unsupported(name + ": index tensor " + index->label() + " has data type "
                              + fbs::EnumNameDataType(index->dtype) + " (INT8, UINT8, INT32 or INT64 expected)");
        if(index->dims != y.dims)
            throw Unsupported(name + ": index tensor " + index->label() + " must have y's dims");
        const int64_t plane = x.elements() / (x.dims[0] * x.dims[1]);
        if((index->dtype == fbs::DataType::INT8 && plane > 127) || (index->dtype == fbs::DataType::UINT8 && plane > 255))
            throw Unsupported(name + ": index tensor " + index->label() + " of type " + fbs::EnumNameDataType(index->dtype)
                              + " cannot address an input plane of " + std::to_string(plane) + " elements");
    }
    bool xR = false, yR = false;
    const mdesc xMd = nativeMd(x, &xR), yMd = nativeMd(y, &yR);
    api::Built b;
    try
    {
        b = api::poolingForward(alg, xMd, yMd, strides, kernel, padL, padR, argmax, build_);
    }
    catch(const dnnl::error& e)
    {
        throw Unsupported(name + ": oneDNN has no pooling for these shapes/types (" + e.what() + ")");
    }
    const Buffer xb = xR ? inputAs(x, mdOf(x), xMd, name, "x") : input(x, name);
    const BoundOutput out = bindOutput(y, yMd, yR, name);
    std::vector<Arg> args{Arg{DNNL_ARG_SRC, xMd, xb}, Arg{DNNL_ARG_DST, yMd, out.written}};
    Buffer ws;
    if(argmax)
    {
        const dnnl_memory_desc_t& w = b.workspace.data;
        const bool plain = w.format_kind == dnnl_blocked && w.format_desc.blocking.inner_nblks == 0;
        if(!plain || (w.data_type != dnnl_u8 && w.data_type != dnnl_s32) || w.ndims != y.rank())
            throw Unsupported(name + ": oneDNN's max-pool workspace for these shapes is not a plain u8/s32 tensor");
        ws = temp(b.workspace);
        args.push_back(Arg{DNNL_ARG_WORKSPACE, b.workspace, ws});
    }
    addStep(b, std::move(args), argmax ? "pooling_fwd(max, training)" : "pooling_fwd");
    finishOutput(out, yMd, mdOf(y), name + " y");
    if(!argmax)
        return;
    const dnnl_memory_desc_t& w = b.workspace.data;
    PoolIndexGeometry g;
    const int spatial = y.rank() - 2;
    g.indexType = index ? index->dtype : fbs::DataType::INT32;
    g.workspaceS32 = w.data_type == dnnl_s32;
    g.spatial = spatial;
    g.n = y.dims[0];
    g.c = y.dims[1];
    int64_t ys[5] = {y.strides[0], y.strides[1], 0, 0, 0};
    for(int d = 0; d < 2; ++d)
    {
        g.indexStrides[d] = index ? index->strides[static_cast<size_t>(d)] : 0;
        g.workspaceStrides[d] = w.format_desc.blocking.strides[d];
    }
    for(int d = 0; d < spatial; ++d)
    {
        const int at = 3 - spatial + d;
        const size_t sd = static_cast<size_t>(d);
        g.in[at] = x.dims[2 + sd];
        g.out[at] = y.dims[2 + sd];
        g.window[at] = kernel[sd];
        g.stride[at] = strides[sd];
        g.pre[at] = padL[sd];
        g.indexStrides[2 + at] = index ? index->strides[2 + sd] : 0;
        g.workspaceStrides[2 + at] = w.format_desc.blocking.strides[2 + d];
        ys[2 + at] = y.strides[2 + sd];
    }
    g.indexLabel = index ? index->label() : "";
    const auto step = std::make_shared<const PoolArgmax>(std::move(g), ys, a.padding_mode() == fbs::PaddingMode::ZERO_PAD,
                                                         index != nullptr);
    addKernel({ws, index ? output(*index, name) : Buffer::none(), out.tensor},
              [step](void* const* at) { step->run(at[0], at[1], static_cast<float*>(at[2])); },
              index ? "max-pool index from oneDNN workspace" : "max-pool zero padding");
}

void PlanBuilder::poolingBackward(const fbs::Node& n, const std::string& name)
{
    const auto& a = *n.attributes_as_ResampleBwdAttributes();
    const Tensor& dy = tensor(a.dy_tensor_uid(), "dy", name);
    const Tensor& dx = tensor(a.dx_tensor_uid(), "dx", name);
    const auto [padL, padR, strides, kernel] = poolWindow(a, dx.rank(), dy.rank(), name);
    algorithm alg;
    const Tensor* index = nullptr;
    switch(a.resample_mode())
    {
    case fbs::ResampleMode::AVGPOOL_INCLUDE_PADDING: alg = algorithm::pooling_avg_include_padding; break;
    case fbs::ResampleMode::AVGPOOL_EXCLUDE_PADDING: alg = algorithm::pooling_avg_exclude_padding; break;
    case fbs::ResampleMode::MAXPOOL:
        alg = algorithm::pooling_max;
        index = &maxPoolIndex(a, dy, name);
        break;
    default: throw Unsupported(name + ": resample mode is not a pooling mode");
    }
    bool dyR = false, dxR = false;
    const mdesc dyMd = nativeMd(dy, &dyR), dxMd = nativeMd(dx, &dxR);
    api::Built b;
    try
    {
        b = api::poolingBackward(alg, dxMd, dyMd, strides, kernel, padL, padR, build_);
    }
    catch(const dnnl::error& e)
    {
        throw Unsupported(name + ": oneDNN has no pooling backward for these shapes/types (" + e.what() + ")");
    }
    const Buffer dyb = dyR ? inputAs(dy, mdOf(dy), dyMd, name, "dy") : input(dy, name);
    std::vector<Arg> args;
    if(index)
        args.push_back(
            Arg{DNNL_ARG_WORKSPACE, b.workspace, indexAsWorkspace(*index, b.workspace, dy, dx, padL, strides, kernel, name)});
    const BoundOutput out = bindOutput(dx, dxMd, dxR, name);
    args.push_back(Arg{DNNL_ARG_DIFF_DST, dyMd, dyb});
    args.push_back(Arg{DNNL_ARG_DIFF_SRC, dxMd, out.written});
    addStep(b, std::move(args), index ? "pooling_bwd(max)" : "pooling_bwd");
    finishOutput(out, dxMd, mdOf(dx), name + " dx");
}

// maxPoolIndex: the index tensor of a max-pool backward node, checked for what the
// conversion into oneDNN's workspace (PoolIndex.hpp) can express.
const Tensor& PlanBuilder::maxPoolIndex(const fbs::ResampleBwdAttributes& a, const Tensor& dy, const std::string& name)
{
    if(!a.index_tensor_uid().has_value())
        throw Unsupported(name
                          + ": max pooling backward without an index tensor (the node carries no forward input "
                            "to recompute the maxima from)");
    const Tensor* t = p_.tensors_.find(*a.index_tensor_uid());
    if(t == nullptr)
        throw Unsupported(name + ": index tensor uid " + std::to_string(*a.index_tensor_uid()) + " is not in the graph");
    if(!indexTypeSupported(t->dtype))
        throw Unsupported(name + ": index tensor " + t->label() + " has data type " + fbs::EnumNameDataType(t->dtype)
                          + " (INT8, UINT8, INT32 or INT64 expected)");
    if(t->dims != dy.dims || t->isConstant || t->isPassByValue)
        throw Unsupported(name + ": index tensor " + t->label() + " must be a tensor with dy's dims");
    return *t;
}

// indexAsWorkspace: a workspace buffer in oneDNN's max-pool workspace layout `wsMd`, filled
// from the index tensor by a conversion step before the backward primitive.
Buffer PlanBuilder::indexAsWorkspace(const Tensor& index, const mdesc& wsMd, const Tensor& dy, const Tensor& dx,
                                     const dnnl::memory::dims& padL, const dnnl::memory::dims& strides,
                                     const dnnl::memory::dims& kernel, const std::string& name)
{
    const dnnl_memory_desc_t& w = wsMd.data;
    const bool plain = w.format_kind == dnnl_blocked && w.format_desc.blocking.inner_nblks == 0;
    if(!plain || (w.data_type != dnnl_u8 && w.data_type != dnnl_s32) || w.ndims != dy.rank())
        throw Unsupported(name + ": oneDNN's max-pool workspace for these shapes is not a plain u8/s32 tensor");
    PoolIndexGeometry g;
    const int spatial = dy.rank() - 2;
    g.indexType = index.dtype;
    g.workspaceS32 = w.data_type == dnnl_s32;
    g.spatial = spatial;
    g.n = dy.dims[0];
    g.c = dy.dims[1];
    g.indexStrides[0] = index.strides[0];
    g.indexStrides[1] = index.strides[1];
    g.workspaceStrides[0] = w.format_desc.blocking.strides[0];
    g.workspaceStrides[1] = w.format_desc.blocking.strides[1];
    for(int d = 0; d < spatial; ++d)
    {
        const int at = 3 - spatial + d; // spatial dims padded to three, leading 1s
        const size_t s = static_cast<size_t>(d);
        g.in[at] = dx.dims[2 + s];
        g.out[at] = dy.dims[2 + s];
        g.window[at] = kernel[s];
        g.stride[at] = strides[s];
        g.pre[at] = padL[s];
        g.indexStrides[2 + at] = index.strides[2 + s];
        g.workspaceStrides[2 + at] = w.format_desc.blocking.strides[2 + s];
    }
    g.indexLabel = index.label();
    Step s;
    s.what = "max-pool index to oneDNN workspace [hipdnngo]";
    s.convert = IndexConversion{PoolIndexConverter(std::move(g)), input(index, name), temp(wsMd)};
    const Buffer ws = s.convert->workspace;
    p_.steps_.push_back(std::move(s));
    return ws;
}

} // namespace hipdnngo::onednn
