// PlanBuilder's core: the walk over the nodes, tensor buffers and the workspace layout, steps,
// post-op chains, per-channel vectors. The op families are in ops/.
#include "PlanBuilder.hpp"

#include "Convert.hpp"

#include <algorithm>

namespace hipdnngo::onednn
{

std::optional<dt> mapType(fbs::DataType t)
{
    switch(t)
    {
    case fbs::DataType::FLOAT: return dt::f32;
    case fbs::DataType::HALF: return dt::f16;
    case fbs::DataType::BFLOAT16: return dt::bf16;
    case fbs::DataType::INT32: return dt::s32;
    case fbs::DataType::INT8: return dt::s8;
    case fbs::DataType::UINT8: return dt::u8;
    default: return std::nullopt;
    }
}

bool sameLayout(const std::vector<int64_t>& dims, const std::vector<int64_t>& a, const std::vector<int64_t>& b)
{
    for(size_t d = 0; d < dims.size(); ++d)
        if(dims[d] != 1 && a[d] != b[d])
            return false;
    return true;
}

std::optional<std::vector<int64_t>> broadcastTo(const std::vector<int64_t>& dims, const std::vector<int64_t>& target)
{
    if(dims.size() > target.size())
        return std::nullopt;
    std::vector<int64_t> out(target.size() - dims.size(), 1);
    out.insert(out.end(), dims.begin(), dims.end());
    for(size_t d = 0; d < target.size(); ++d)
        if(out[d] != 1 && out[d] != target[d])
            return std::nullopt;
    return out;
}

// ---- the walk --------------------------------------------------------------------------------

void PlanBuilder::run()
{
    const size_t ntensors = p_.tensors_.size();
    consumers_.assign(ntensors, 0);
    loc_.assign(ntensors, std::nullopt);
    ragged_.assign(ntensors, RaggedTensor{});
    if(g_.nodes() == nullptr || g_.nodes()->size() == 0)
        throw Unsupported("graph has no nodes");
    for(const fbs::Node* n : *g_.nodes())
    {
        if(n == nullptr)
            throw Unsupported("graph has a null node");
        if(n->attributes_type() != fbs::NodeAttributes::NONE && n->attributes() == nullptr)
            throw Unsupported("node " + std::to_string(nodes_.size()) + " has a type but no attributes");
        nodes_.push_back(n);
    }
    p_.stored_.clear();
    for(const Tensor& t : p_.tensors_.all())
        p_.stored_.push_back(t.dtype);
    if(staged_)
        for(const Tensor& t : p_.tensors_.all())
            if(isStageable(t.dtype))
                p_.tensors_.computeAs(t.index, fbs::DataType::FLOAT);
    countConsumers();
    while(next_ < nodes_.size())
    {
        const fbs::Node& n = *nodes_[next_];
        const std::string name =
            "node " + std::to_string(next_) + (n.name() && n.name()->size() ? " ('" + n.name()->str() + "')" : "");
        ++next_;
        const OpFamilyRow* family = findOpFamily(n.attributes_type());
        if(family == nullptr)
        {
            const char* t = fbs::EnumNameNodeAttributes(n.attributes_type());
            throw Unsupported(name + ": operation " + std::string(t && *t ? t : "unknown")
                              + " is not implemented by the oneDNN engine");
        }
        (this->*family->plan)(n, name);
        flushStaged();
    }
    p_.scratchOffset_ = alignUp(wsTop_);
    p_.workspaceSize_ = scratchMax_ > 0 ? p_.scratchOffset_ + scratchMax_ : wsTop_;
    std::sort(p_.externals_.begin(), p_.externals_.end());
    p_.externals_.erase(std::unique(p_.externals_.begin(), p_.externals_.end()), p_.externals_.end());
}

// countConsumers counts the readers of every tensor, over all nodes before any is planned (a
// node type the engine does not plan reads nothing here; it is declined when its turn comes).
void PlanBuilder::countConsumers()
{
    const InputCounter reads(p_.tensors_, consumers_);
    for(const fbs::Node* n : nodes_)
        if(const OpFamilyRow* family = findOpFamily(n->attributes_type()))
            family->inputs(*n, reads);
}

// ---- tensors and buffers ---------------------------------------------------------------------

const Tensor& PlanBuilder::tensor(int64_t uid, const char* role, const std::string& node)
{
    const Tensor* t = p_.tensors_.find(uid);
    if(t == nullptr)
        throw Unsupported(node + ": " + role + " tensor uid " + std::to_string(uid) + " is not in the graph");
    if(!mapType(t->dtype))
        throw Unsupported(node + ": " + role + " tensor " + t->label() + " has data type " + fbs::EnumNameDataType(t->dtype)
                          + ", which the oneDNN engine does not handle");
    // SDPA computes on exact f32 copies; every other node hands the type to oneDNN's kernels
    // (a type without them is staged through f32 by the Plan, so this guards the staging).
    if(!viaF32_ && !api::nativeKernelsFor(*mapType(t->dtype)))
    {
        const std::string type = fbs::EnumNameDataType(t->dtype), version = api::versionString();
        throw Unsupported(node + ": " + role + " tensor " + t->label() + " is " + type + "; oneDNN "
                          + version.substr(0, version.find(' ')) + " has no " + type
                          + " kernels for this CPU (bfloat16 needs AVX-512, half AVX512-FP16)");
    }
    return *t;
}

mdesc PlanBuilder::mdOf(const Tensor& t)
{
    if(t.isConstant)
        return mdesc(dnnl::memory::dims(t.dims.size(), 1), dt::f32, dnnl::memory::dims(t.dims.size(), 1));
    return mdesc(t.dims, *mapType(t.dtype), t.strides);
}

mdesc PlanBuilder::mdWith(const std::vector<int64_t>& dims, fbs::DataType type, const std::vector<int64_t>& strides)
{
    return mdesc(dims, *mapType(type), strides);
}

size_t PlanBuilder::allocate(size_t bytes)
{
    wsTop_ = alignUp(wsTop_);
    const size_t at = wsTop_;
    wsTop_ += bytes;
    return at;
}

Buffer PlanBuilder::input(const Tensor& t, const std::string& node)
{
    if(loc_[static_cast<size_t>(t.index)])
    {
        if(loc_[static_cast<size_t>(t.index)]->kind == Buffer::Kind::Fused)
            throw Unsupported(node + ": reads " + t.label() + ", an intermediate fused into an earlier primitive");
        return *loc_[static_cast<size_t>(t.index)];
    }
    if(t.isVirtual)
        throw Unsupported(node + ": virtual tensor " + t.label() + " is read before any node writes it");
    Buffer b;
    if(t.isConstant)
    {
        b.kind = Buffer::Kind::Constant;
        b.offset = p_.constants_.size();
        p_.constants_.push_back(static_cast<float>(t.value));
    }
    else
    {
        b = t.raggedOffsetUid ? raggedIn(t, node) : isStaged(t) ? stageIn(t) : external(t);
    }
    loc_[static_cast<size_t>(t.index)] = b;
    return b;
}

// external: the caller's own buffer of t (a variant-pack pointer).
Buffer PlanBuilder::external(const Tensor& t)
{
    requireClaimed(t);
    Buffer b;
    b.kind = Buffer::Kind::External;
    b.tensor = t.index;
    p_.externals_.push_back(t.index);
    return b;
}

Buffer PlanBuilder::output(const Tensor& t, const std::string& node)
{
    if(t.isConstant || t.isPassByValue)
        throw Unsupported(node + ": output " + t.label() + " is a scalar tensor");
    if(loc_[static_cast<size_t>(t.index)])
        throw Unsupported(node + ": tensor " + t.label() + " is written twice or read before it is written");
    Buffer b;
    if(t.isVirtual)
    {
        b.kind = Buffer::Kind::Workspace;
        b.offset = allocate(mdOf(t).get_size());
    }
    else
    {
        b = t.raggedOffsetUid ? raggedOut(t, node) : isStaged(t) ? stageOut(t) : external(t);
    }
    loc_[static_cast<size_t>(t.index)] = b;
    return b;
}

Buffer PlanBuilder::temp(const mdesc& md)
{
    Buffer b;
    b.kind = Buffer::Kind::Workspace;
    b.offset = allocate(md.get_size());
    return b;
}

void PlanBuilder::addStep(const api::Built& built, std::vector<Arg> args, const std::string& what)
{
    Step s;
    s.prim = built.prim;
    s.args = std::move(args);
    const size_t scratch = built.scratchpad.get_size();
    if(scratch > 0)
    {
        Buffer b;
        b.kind = Buffer::Kind::Scratch;
        s.args.push_back(Arg{DNNL_ARG_SCRATCHPAD, built.scratchpad, b});
        scratchMax_ = std::max(scratchMax_, scratch);
    }
    s.what = what + " [" + built.impl + "]";
    p_.steps_.push_back(std::move(s));
}

void PlanBuilder::addReorder(const mdesc& from, Buffer fromBuf, const mdesc& to, Buffer toBuf, const std::string& what)
{
    const api::Built r = api::reorder(from, to, build_);
    addStep(r, {Arg{DNNL_ARG_FROM, from, fromBuf}, Arg{DNNL_ARG_TO, to, toBuf}}, "reorder " + what);
}

void PlanBuilder::addKernel(std::vector<Buffer> bufs, std::function<void(void* const*)> run, const std::string& what)
{
    if(bufs.size() > Kernel::kMaxBuffers)
        throw std::logic_error("hipdnngo_onednn: a kernel step with more than Kernel::kMaxBuffers buffers");
    Step s;
    s.what = what + " [hipdnngo]";
    s.kernel = Kernel{std::move(bufs), std::move(run)};
    p_.steps_.push_back(std::move(s));
}

// ---- fp32 staging ----------------------------------------------------------------------------

bool PlanBuilder::isStaged(const Tensor& t) const
{
    return p_.stored_[static_cast<size_t>(t.index)] != t.dtype;
}

// stageIn widens the whole addressed span (the caller's buffer covers it), gaps included, so
// the copy keeps the tensor's strides; one pass, vectorised.
Buffer PlanBuilder::stageIn(const Tensor& t)
{
    const Buffer user = external(t);
    const int64_t n = spanOf(t);
    Buffer f32;
    f32.kind = Buffer::Kind::Workspace;
    f32.offset = allocate(static_cast<size_t>(n) * sizeof(float));
    const fbs::DataType from = p_.stored_[static_cast<size_t>(t.index)];
    addKernel({user, f32}, [from, n](void* const* at) { widen(from, at[0], static_cast<float*>(at[1]), n); },
              std::string("stage ") + t.label() + " " + fbs::EnumNameDataType(from) + " to f32");
    return f32;
}

Buffer PlanBuilder::stageOut(const Tensor& t)
{
    Buffer f32;
    f32.kind = Buffer::Kind::Workspace;
    f32.offset = allocate(static_cast<size_t>(spanOf(t)) * sizeof(float));
    stagedOut_.push_back({t.index, f32});
    return f32;
}

// flushStaged narrows the outputs the node just wrote. A dense tensor is narrowed in one
// vectorised pass; any other layout through a oneDNN reorder, which writes only the tensor's
// elements (the gaps of a strided output may be someone else's data).
void PlanBuilder::flushStaged()
{
    for(const StagedOut& o : stagedOut_)
    {
        const Tensor& t = p_.tensors_.at(o.tensor);
        const fbs::DataType to = p_.stored_[static_cast<size_t>(o.tensor)];
        const Buffer user = external(t);
        const std::string what = std::string("stage ") + t.label() + " f32 to " + fbs::EnumNameDataType(to);
        if(isDensePermutation(t.dims, t.strides))
        {
            const int64_t n = t.elements();
            addKernel({o.f32, user}, [to, n](void* const* at) { narrow(to, static_cast<const float*>(at[0]), at[1], n); },
                      what);
        }
        else
            addReorder(mdesc(t.dims, dt::f32, t.strides), o.f32, mdWith(t.dims, to, t.strides), user, what);
    }
    stagedOut_.clear();
    for(const RaggedOut& o : raggedOut_)
        raggedStep(p_.tensors_.at(o.tensor), RaggedStep::Scatter, o.dense, o.node);
    raggedOut_.clear();
}

std::optional<fbs::DataType> PlanBuilder::rawType(const Tensor& t, bool isOutput) const
{
    const size_t i = static_cast<size_t>(t.index);
    if(!isStaged(t) || t.isVirtual || t.isConstant || t.isPassByValue || t.raggedOffsetUid || loc_[i]
       || (isOutput && consumers_[i] != 0))
        return std::nullopt;
    return p_.stored_[i];
}

std::optional<Storage> PlanBuilder::rawStorage(std::initializer_list<const Tensor*> ins,
                                               std::initializer_list<const Tensor*> outs) const
{
    std::optional<fbs::DataType> type;
    auto fits = [&](const Tensor& t, bool isOutput) {
        const std::optional<fbs::DataType> raw = rawType(t, isOutput);
        if(!raw || (type && *type != *raw))
            return false;
        type = raw;
        return true;
    };
    for(const Tensor* t : ins)
        if(!fits(*t, false))
            return std::nullopt;
    for(const Tensor* t : outs)
        if(!fits(*t, true))
            return std::nullopt;
    if(!type)
        return std::nullopt;
    return *type == fbs::DataType::HALF ? Storage::F16 : Storage::BF16;
}

// rawBuffer: the caller's own buffer of t (after rawStorage said yes). An input is not
// recorded, so a later reader still gets a staged f32 copy; an output is (nobody reads it).
Buffer PlanBuilder::rawBuffer(const Tensor& t, bool isOutput, const std::string& node)
{
    const Buffer b = external(t);
    if(isOutput)
    {
        if(loc_[static_cast<size_t>(t.index)])
            throw Unsupported(node + ": tensor " + t.label() + " is written twice or read before it is written");
        loc_[static_cast<size_t>(t.index)] = b;
    }
    return b;
}

// inputAs is input(t) in layout `want`: the tensor's own buffer when `have` (its layout) is
// `want`, else a workspace copy reordered before the next step.
Buffer PlanBuilder::inputAs(const Tensor& t, const mdesc& have, const mdesc& want, const std::string& node,
                            const std::string& what)
{
    Buffer b = input(t, node);
    if(want == have)
        return b;
    const Buffer copy = temp(want);
    addReorder(have, b, want, copy, node + " " + what);
    return copy;
}

BoundOutput PlanBuilder::bindOutput(const Tensor& t, const mdesc& written, bool reorder, const std::string& node)
{
    BoundOutput o;
    o.tensor = output(t, node);
    o.reorder = reorder;
    o.written = reorder ? temp(written) : o.tensor;
    return o;
}

void PlanBuilder::finishOutput(const BoundOutput& o, const mdesc& written, const mdesc& want, const std::string& what)
{
    if(o.reorder)
        addReorder(written, o.written, want, o.tensor, what);
}

// ---- post-op chains --------------------------------------------------------------------------

// collectChain: the pointwise nodes right after the current one that can become post-ops
// of a primitive writing tensor `out` (each reads the previous result, which is virtual and
// read by nobody else, and writes a tensor of the same dims).
std::vector<PostOp> PlanBuilder::collectChain(int out)
{
    std::vector<PostOp> chain;
    int cur = out;
    for(size_t j = next_; j < nodes_.size(); ++j)
    {
        const fbs::Node& n = *nodes_[j];
        if(n.attributes_type() != fbs::NodeAttributes::PointwiseAttributes)
            break;
        const Tensor& c = p_.tensors_.at(cur);
        if(!c.isVirtual || consumers_[static_cast<size_t>(cur)] != 1)
            break;
        const auto& a = *n.attributes_as_PointwiseAttributes();
        const Tensor* o = p_.tensors_.find(a.out_0_tensor_uid());
        if(o == nullptr || o->dims != c.dims || !mapType(o->dtype))
            break;
        PostOp op;
        op.out = o->index;
        op.name = modeName(a.operation());
        if(auto e = mapUnary(a, nullptr); e && a.in_0_tensor_uid() == c.uid && !a.in_1_tensor_uid().has_value())
        {
            op.elt = *e;
        }
        else if(auto b = mapBinary(a.operation()); b && a.in_1_tensor_uid().has_value())
        {
            int64_t other = -1;
            algorithm alg = b->alg;
            if(a.in_0_tensor_uid() == c.uid && *a.in_1_tensor_uid() != c.uid)
                other = *a.in_1_tensor_uid();
            else if(*a.in_1_tensor_uid() == c.uid && a.in_0_tensor_uid() != c.uid && b->swapped)
            {
                other = a.in_0_tensor_uid();
                alg = *b->swapped;
            }
            else
                break;
            const Tensor* s1 = p_.tensors_.find(other);
            if(s1 == nullptr || !mapType(s1->dtype) || !broadcastTo(s1->dims, c.dims))
                break;
            if(s1->isVirtual && !loc_[static_cast<size_t>(s1->index)])
                break;
            op.binary = true;
            op.bin = alg;
            op.src1 = s1->index;
        }
        else
            break;
        chain.push_back(op);
        cur = op.out;
    }
    return chain;
}

// The md of a post-op's second operand, broadcast to `dims`.
mdesc PlanBuilder::src1Md(const Tensor& t, const std::vector<int64_t>& dims, std::optional<dt> as)
{
    const std::vector<int64_t> bd = *broadcastTo(t.dims, dims);
    if(t.isConstant || t.isPassByValue)
        return mdesc(bd, t.isConstant ? dt::f32 : *mapType(t.dtype), dnnl::memory::dims(bd.size(), 1));
    std::vector<int64_t> st(bd.size() - t.dims.size(), 0);
    st.insert(st.end(), t.strides.begin(), t.strides.end());
    for(size_t d = 0; d < bd.size(); ++d)
        if(bd[d] == 1 && st[d] == 0)
            st[d] = 1;
    return mdesc(bd, as ? *as : *mapType(t.dtype), st);
}

// attrFor: post-ops for chain[from, to); appends the src1 args.
dnnl::primitive_attr PlanBuilder::attrFor(const std::vector<PostOp>& chain, size_t from, size_t to,
                                          const std::vector<int64_t>& dims, std::vector<Arg>* args, std::string* names)
{
    dnnl::post_ops ops;
    int k = 0;
    for(size_t i = from; i < to; ++i, ++k)
    {
        const PostOp& op = chain[i];
        *names += "+" + op.name;
        if(op.binary)
        {
            const Tensor& s1 = p_.tensors_.at(op.src1);
            const mdesc m = src1Md(s1, dims);
            api::appendBinary(ops, op.bin, m);
            if(args)
                args->push_back(Arg{DNNL_ARG_ATTR_MULTIPLE_POST_OP(k) | DNNL_ARG_SRC_1, m, input(s1, op.name)});
        }
        else
            api::appendEltwise(ops, op.elt.alg, op.elt.alpha, op.elt.beta);
    }
    dnnl::primitive_attr attr;
    attr.set_post_ops(ops);
    return attr;
}

void PlanBuilder::markFused(const std::vector<PostOp>& chain, size_t used, int out)
{
    for(size_t i = 0; i + 1 < used; ++i)
        loc_[static_cast<size_t>(chain[i].out)] = Buffer{Buffer::Kind::Fused, -1, 0};
    if(used > 0)
        loc_[static_cast<size_t>(out)] = Buffer{Buffer::Kind::Fused, -1, 0};
}

// A [N, C, spatial] tensor's md as oneDNN should see it: the tensor itself when it is dense
// channels-last or channels-first, else dense channels-last (then *reorder is set).
mdesc PlanBuilder::nativeMd(const Tensor& t, bool* reorder)
{
    if(t.rank() < 3)
        throw Unsupported("tensor " + t.label() + ": rank " + std::to_string(t.rank())
                          + " where [N, C, spatial...] is needed");
    const std::vector<int64_t> cl = denseStrides(t.dims, channelsLastOrder(t.rank()));
    const std::vector<int64_t> cf = denseStrides(t.dims, channelsFirstOrder(t.rank()));
    *reorder = false;
    if(sameLayout(t.dims, t.strides, cl))
        return mdWith(t.dims, t.dtype, cl);
    if(sameLayout(t.dims, t.strides, cf))
        return mdWith(t.dims, t.dtype, cf);
    *reorder = true;
    return mdWith(t.dims, t.dtype, cl);
}

// ---- scalars and per-channel vectors ---------------------------------------------------------

// scalarValue: a compile-time constant scalar input (epsilon); declined otherwise.
double PlanBuilder::scalarValue(int64_t uid, const char* role, const std::string& node)
{
    const Tensor* t = p_.tensors_.find(uid);
    if(t == nullptr || !t->isConstant)
        throw Unsupported(node + ": " + role
                          + " must be a compile-time constant scalar (oneDNN bakes it into the primitive)");
    return t->value;
}

bool PlanBuilder::rowMajor(const Tensor& t)
{
    return sameLayout(t.dims, t.strides, denseStrides(t.dims, channelsFirstOrder(t.rank())));
}

// A dense row-major tensor viewed as a contiguous 1-D vector of f32 of `n` elements.
// (other float types are converted through a workspace copy: vin / vout).
mdesc PlanBuilder::vectorMd(const Tensor& t, int64_t n, const char* role, const std::string& node)
{
    const bool floating =
        t.dtype == fbs::DataType::FLOAT || t.dtype == fbs::DataType::BFLOAT16 || t.dtype == fbs::DataType::HALF;
    if(t.elements() != n || !rowMajor(t) || !floating || t.isConstant || t.isPassByValue)
        throw Unsupported(node + ": " + role + " must be a dense floating-point tensor of " + std::to_string(n)
                          + " elements");
    return mdesc({n}, dt::f32, dnnl::memory::dims{1});
}

// vin: a per-channel/per-row input as f32 (reordered into the workspace when it is not f32).
Buffer PlanBuilder::vin(const Tensor& t, int64_t n, const std::string& node)
{
    const mdesc f = vectorMd(t, n, "statistics / scale", node);
    const Buffer b = input(t, node);
    if(t.dtype == fbs::DataType::FLOAT)
        return b;
    const Buffer tmp = temp(f);
    addReorder(mdesc({n}, *mapType(t.dtype), dnnl::memory::dims{1}), b, f, tmp, node + " " + t.name + " to f32");
    return tmp;
}

// vout: where a primitive writes an f32 vector output; non-f32 outputs are converted by
// flushOutputs() after the node's steps.
Buffer PlanBuilder::vout(const Tensor& t, int64_t n, const std::string& node)
{
    const mdesc f = vectorMd(t, n, "statistics / gradient", node);
    if(t.dtype == fbs::DataType::FLOAT)
        return output(t, node);
    const Buffer tmp = temp(f);
    pending_.push_back({tmp, t.index, n});
    return tmp;
}

void PlanBuilder::flushOutputs(const std::string& node)
{
    for(const PendingOut& po : pending_)
    {
        const Tensor& t = p_.tensors_.at(po.tensor);
        addReorder(mdesc({po.n}, dt::f32, dnnl::memory::dims{1}), po.from,
                   mdesc({po.n}, *mapType(t.dtype), dnnl::memory::dims{1}), output(t, node),
                   node + " " + t.name + " from f32");
    }
    pending_.clear();
}

} // namespace hipdnngo::onednn
