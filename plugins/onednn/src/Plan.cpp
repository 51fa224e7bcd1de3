#include "Plan.hpp"

#include <hipdnn_plugin_sdk/helpers/PluginHelpers.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <unordered_map>

namespace hipdnngo::onednn
{

using dnnl::algorithm;
using mdesc = dnnl::memory::desc;
using dt = dnnl::memory::data_type;

namespace
{

constexpr size_t kAlign = 64;

size_t alignUp(size_t v) { return (v + kAlign - 1) / kAlign * kAlign; }

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

// A unary pointwise mode as a oneDNN eltwise algorithm.
struct EltwiseOp
{
    algorithm alg;
    float alpha = 0.f, beta = 0.f;
};

// A binary pointwise mode as a oneDNN binary algorithm; swapped: the algorithm that gives the
// same result with the operands exchanged (nullopt when there is none).
struct BinaryOp
{
    algorithm alg;
    std::optional<algorithm> swapped;
};

std::string modeName(fbs::PointwiseMode m)
{
    const char* n = fbs::EnumNamePointwiseMode(m);
    return n && *n ? n : std::to_string(static_cast<int>(m));
}

// mapUnary: nullopt when the mode is not unary or oneDNN has no equivalent; *why says which.
std::optional<EltwiseOp> mapUnary(const fbs::PointwiseAttributes& a, std::string* why)
{
    const float inf = std::numeric_limits<float>::infinity();
    switch(a.operation())
    {
    case fbs::PointwiseMode::RELU_FWD:
    {
        const float lo = a.relu_lower_clip().value_or(0.f);
        const float hi = a.relu_upper_clip().value_or(inf);
        const float slope = a.relu_lower_clip_slope().value_or(0.f);
        if(std::isinf(hi) && lo == 0.f)
            return EltwiseOp{algorithm::eltwise_relu, slope, 0.f};
        if(slope == 0.f)
            return EltwiseOp{algorithm::eltwise_clip_v2, lo, std::isinf(hi) ? std::numeric_limits<float>::max() : hi};
        if(why)
            *why = "relu_fwd with both a lower clip and a lower clip slope";
        return std::nullopt;
    }
    case fbs::PointwiseMode::TANH_FWD: return EltwiseOp{algorithm::eltwise_tanh};
    case fbs::PointwiseMode::SIGMOID_FWD: return EltwiseOp{algorithm::eltwise_logistic};
    case fbs::PointwiseMode::ELU_FWD:
    case fbs::PointwiseMode::GELU_FWD:
    case fbs::PointwiseMode::GELU_APPROX_TANH_FWD:
    case fbs::PointwiseMode::LOG:
        // oneDNN computes these with a large relative error where the result is near zero
        // (elu: exp(x) - 1 without expm1; gelu: 1 + erf(x) or 1 + tanh(u) cancels for negative x;
        // log: near 1), beyond the
        // fp32 tolerance the results are checked against.
        if(why)
            *why = "pointwise mode " + modeName(a.operation())
                   + ": oneDNN's eltwise is not accurate enough near zero (declined, see docs/compatibility.md)";
        return std::nullopt;
    case fbs::PointwiseMode::SWISH_FWD: return EltwiseOp{algorithm::eltwise_swish, a.swish_beta().value_or(1.f)};
    case fbs::PointwiseMode::SOFTPLUS_FWD:
        if(a.softplus_beta().value_or(1.f) == 1.f)
            return EltwiseOp{algorithm::eltwise_soft_relu};
        if(why)
            *why = "softplus_fwd with beta != 1 (oneDNN 2.x soft_relu has no beta)";
        return std::nullopt;
    case fbs::PointwiseMode::EXP: return EltwiseOp{algorithm::eltwise_exp};
    case fbs::PointwiseMode::SQRT: return EltwiseOp{algorithm::eltwise_sqrt};
    case fbs::PointwiseMode::ABS: return EltwiseOp{algorithm::eltwise_abs};
    case fbs::PointwiseMode::NEG: return EltwiseOp{algorithm::eltwise_linear, -1.f, 0.f};
    case fbs::PointwiseMode::RECIPROCAL: return EltwiseOp{algorithm::eltwise_pow, 1.f, -1.f};
    case fbs::PointwiseMode::RSQRT: return EltwiseOp{algorithm::eltwise_pow, 1.f, -0.5f};
    default: break;
    }
    if(why)
        *why = "pointwise mode " + modeName(a.operation()) + " has no oneDNN eltwise equivalent";
    return std::nullopt;
}

std::optional<BinaryOp> mapBinary(fbs::PointwiseMode m)
{
    switch(m)
    {
    case fbs::PointwiseMode::ADD: return BinaryOp{algorithm::binary_add, algorithm::binary_add};
    case fbs::PointwiseMode::MUL: return BinaryOp{algorithm::binary_mul, algorithm::binary_mul};
    case fbs::PointwiseMode::SUB: return BinaryOp{algorithm::binary_sub, std::nullopt};
    case fbs::PointwiseMode::DIV: return BinaryOp{algorithm::binary_div, std::nullopt};
    case fbs::PointwiseMode::MAX_OP: return BinaryOp{algorithm::binary_max, algorithm::binary_max};
    case fbs::PointwiseMode::MIN_OP: return BinaryOp{algorithm::binary_min, algorithm::binary_min};
    case fbs::PointwiseMode::CMP_EQ: return BinaryOp{algorithm::binary_eq, algorithm::binary_eq};
    case fbs::PointwiseMode::CMP_NEQ: return BinaryOp{algorithm::binary_ne, algorithm::binary_ne};
    case fbs::PointwiseMode::CMP_GT: return BinaryOp{algorithm::binary_gt, algorithm::binary_lt};
    case fbs::PointwiseMode::CMP_GE: return BinaryOp{algorithm::binary_ge, algorithm::binary_le};
    case fbs::PointwiseMode::CMP_LT: return BinaryOp{algorithm::binary_lt, algorithm::binary_gt};
    case fbs::PointwiseMode::CMP_LE: return BinaryOp{algorithm::binary_le, algorithm::binary_ge};
    default: return std::nullopt;
    }
}

// The backward eltwise modes: in_0 = dy, in_1 = x, out = dx.
std::optional<EltwiseOp> mapBackward(const fbs::PointwiseAttributes& a)
{
    switch(a.operation())
    {
    case fbs::PointwiseMode::RELU_BWD:
        if(a.relu_lower_clip().value_or(0.f) == 0.f && !a.relu_upper_clip().has_value())
            return EltwiseOp{algorithm::eltwise_relu, a.relu_lower_clip_slope().value_or(0.f)};
        return std::nullopt;
    case fbs::PointwiseMode::TANH_BWD: return EltwiseOp{algorithm::eltwise_tanh};
    case fbs::PointwiseMode::SIGMOID_BWD: return EltwiseOp{algorithm::eltwise_logistic};
    case fbs::PointwiseMode::ELU_BWD: return EltwiseOp{algorithm::eltwise_elu, a.elu_alpha().value_or(1.f)};
    // GELU_BWD and GELU_APPROX_TANH_BWD: oneDNN's derivatives are off by far more than the fp32
    // tolerance near their zeros; declined.
    case fbs::PointwiseMode::SWISH_BWD: return EltwiseOp{algorithm::eltwise_swish, a.swish_beta().value_or(1.f)};
    default: return std::nullopt;
    }
}

// broadcastDims: `dims` left-padded with 1s to `rank`; nullopt if the result does not broadcast
// to `target` (every dim 1 or equal).
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

// slowImpl: oneDNN fell back to a reference or gemm-based convolution.
bool slowImpl(const api::Built& b) { return b.impl.find("ref") != std::string::npos || b.impl.find("gemm") != std::string::npos; }

// A post-op candidate absorbed from a following pointwise node.
struct PostOp
{
    bool binary = false;
    EltwiseOp elt{algorithm::eltwise_relu};
    algorithm bin = algorithm::binary_add;
    int src1 = -1; // tensor index of the other operand (binary)
    int out = -1; // the node's output tensor index
    std::string name;
};

} // namespace

// PlanBuilder fills a Plan while walking the graph's nodes.
class PlanBuilder
{
public:
    PlanBuilder(Plan& plan, const fbs::Graph& graph, bool build) : p_(plan), g_(graph), build_(build) {}

    void run();

private:
    Plan& p_;
    const fbs::Graph& g_;
    bool build_;
    std::vector<const fbs::Node*> nodes_;
    std::vector<int> consumers_;
    std::vector<std::optional<Buffer>> loc_;
    size_t wsTop_ = 0;
    size_t scratchMax_ = 0;
    size_t next_ = 0; // index of the next node to plan
    bool viaF32_ = false; // the node being planned converts bf16/f16 inputs to f32 itself (SDPA)

    // ---- tensors ---------------------------------------------------------------------------
    const Tensor& tensor(int64_t uid, const char* role, const std::string& node)
    {
        const Tensor* t = p_.tensors_.find(uid);
        if(t == nullptr)
            throw Unsupported(node + ": " + role + " tensor uid " + std::to_string(uid) + " is not in the graph");
        if(!mapType(t->dtype))
            throw Unsupported(node + ": " + role + " tensor " + t->label() + " has data type " + fbs::EnumNameDataType(t->dtype)
                              + ", which the oneDNN engine does not handle");
        // SDPA computes on exact f32 copies; every other node hands the type to oneDNN's kernels.
        if(!viaF32_ && !api::hasKernelsFor(*mapType(t->dtype)))
        {
            const std::string type = fbs::EnumNameDataType(t->dtype), version = api::versionString();
            throw Unsupported(node + ": " + role + " tensor " + t->label() + " is " + type + "; oneDNN "
                              + version.substr(0, version.find(' ')) + " has no " + type
                              + " kernels for this CPU (bfloat16 needs AVX-512, half AVX512-FP16)");
        }
        return *t;
    }

    static mdesc mdOf(const Tensor& t)
    {
        if(t.isConstant)
            return mdesc(dnnl::memory::dims(t.dims.size(), 1), dt::f32, dnnl::memory::dims(t.dims.size(), 1));
        return mdesc(t.dims, *mapType(t.dtype), t.strides);
    }

    static mdesc mdWith(const std::vector<int64_t>& dims, fbs::DataType type, const std::vector<int64_t>& strides)
    {
        return mdesc(dims, *mapType(type), strides);
    }

    size_t allocate(size_t bytes)
    {
        wsTop_ = alignUp(wsTop_);
        const size_t at = wsTop_;
        wsTop_ += bytes;
        return at;
    }

    Buffer input(const Tensor& t, const std::string& node)
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
            b.kind = Buffer::Kind::External;
            b.tensor = t.index;
            p_.externals_.push_back(t.index);
        }
        loc_[static_cast<size_t>(t.index)] = b;
        return b;
    }

    Buffer output(const Tensor& t, const std::string& node)
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
            b.kind = Buffer::Kind::External;
            b.tensor = t.index;
            p_.externals_.push_back(t.index);
        }
        loc_[static_cast<size_t>(t.index)] = b;
        return b;
    }

    Buffer temp(const mdesc& md)
    {
        Buffer b;
        b.kind = Buffer::Kind::Workspace;
        b.offset = allocate(md.get_size());
        return b;
    }

    void addStep(const api::Built& built, std::vector<Arg> args, const std::string& what)
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

    void addReorder(const mdesc& from, Buffer fromBuf, const mdesc& to, Buffer toBuf, const std::string& what)
    {
        const api::Built r = api::reorder(from, to, build_);
        addStep(r, {Arg{DNNL_ARG_FROM, from, fromBuf}, Arg{DNNL_ARG_TO, to, toBuf}}, "reorder " + what);
    }

    // inputAs is input(t) in layout `want`: the tensor's own buffer when `have` (its layout) is
    // `want`, else a workspace copy reordered before the next step.
    Buffer inputAs(const Tensor& t, const mdesc& have, const mdesc& want, const std::string& node, const std::string& what)
    {
        Buffer b = input(t, node);
        if(want == have)
            return b;
        const Buffer copy = temp(want);
        addReorder(have, b, want, copy, node + " " + what);
        return copy;
    }

    // fastest builds a primitive with the tensors' own layouts (build(false)) and, when oneDNN
    // would run that on a gemm or reference kernel, with layouts of oneDNN's choosing
    // (build(true)), reordered around it.
    template <typename Build>
    static api::Built fastest(Build&& build)
    {
        api::Built built = build(false);
        if(slowImpl(built))
        {
            try
            {
                api::Built alt = build(true);
                if(!slowImpl(alt))
                    built = alt;
            }
            catch(const dnnl::error&)
            {
            }
        }
        return built;
    }

    // ---- post-op chains --------------------------------------------------------------------
    // collectChain: the pointwise nodes right after the current one that can become post-ops
    // of a primitive writing tensor `out` (each reads the previous result, which is virtual and
    // read by nobody else, and writes a tensor of the same dims).
    std::vector<PostOp> collectChain(int out)
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
    mdesc src1Md(const Tensor& t, const std::vector<int64_t>& dims, std::optional<dt> as = std::nullopt)
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
    dnnl::primitive_attr attrFor(const std::vector<PostOp>& chain, size_t from, size_t to, const std::vector<int64_t>& dims,
                                 std::vector<Arg>* args, std::string* names)
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

    // A [N, C, spatial] tensor's md as oneDNN should see it: the tensor itself when it is dense
    // channels-last or channels-first, else dense channels-last (then *reorder is set).
    mdesc nativeMd(const Tensor& t, bool* reorder)
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

    // ---- ops -------------------------------------------------------------------------------
    template <typename Attrs>
    api::ConvGeometry geometry(const Attrs& a, int spatial, const std::string& node, const Tensor& w)
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

    struct ConvShape
    {
        int64_t groups = 1;
        mdesc userW; // the user's weights, grouped view when groups > 1
        mdesc anyW; // same dims, format any
    };

    ConvShape convShape(const Tensor& x, const Tensor& w, const Tensor& y, const std::string& node)
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

    void convForward(const fbs::Node& n, const std::string& name)
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
        for(size_t i = 0; i + 1 < used; ++i)
            loc_[static_cast<size_t>(chain[i].out)] = Buffer{Buffer::Kind::Fused, -1, 0};
        if(used > 0)
            loc_[static_cast<size_t>(y.index)] = Buffer{Buffer::Kind::Fused, -1, 0};
        attrFor(chain, withBias ? 1 : 0, used, dst.dims, &args, &names);
        const Buffer dOut = output(dst, name);
        const bool dReorder = built->dst != mdOf(dst);
        const Buffer db = dReorder ? temp(built->dst) : dOut;
        args.push_back(Arg{DNNL_ARG_DST, built->dst, db});
        addStep(*built, std::move(args), "conv_fwd" + names);
        if(dReorder)
            addReorder(built->dst, db, mdOf(dst), dOut, name + " y");
        next_ += used;
    }

    void convBackwardData(const fbs::Node& n, const std::string& name)
    {
        const auto& a = *n.attributes_as_ConvolutionBwdAttributes();
        const Tensor& dy = tensor(a.dy_tensor_uid(), "dy", name);
        const Tensor& w = tensor(a.w_tensor_uid(), "w", name);
        const Tensor& dx = tensor(a.dx_tensor_uid(), "dx", name);
        const ConvShape cs = convShape(dx, w, dy, name);
        const api::ConvGeometry g = geometry(a, dx.rank() - 2, name, w);
        bool dyR = false, dxR = false;
        const mdesc dyNative = nativeMd(dy, &dyR), dxNative = nativeMd(dx, &dxR);
        const mdesc dyAny(dy.dims, *mapType(dy.dtype), dnnl::memory::format_tag::any);
        const mdesc dxAny(dx.dims, *mapType(dx.dtype), dnnl::memory::format_tag::any);
        api::Built built;
        try
        {
            // Channels-first activations: let oneDNN pick (blocked) layouts and reorder.
            built = fastest([&](bool any) {
                return any ? api::convBackwardData(dxAny, cs.anyW, dyAny, g, build_)
                           : api::convBackwardData(dxNative, cs.anyW, dyNative, g, build_);
            });
        }
        catch(const dnnl::error& e)
        {
            throw Unsupported(name + ": oneDNN has no convolution backward data for these shapes/types (" + e.what() + ")");
        }
        std::vector<Arg> args;
        args.push_back(Arg{DNNL_ARG_DIFF_DST, built.diffDst, inputAs(dy, mdOf(dy), built.diffDst, name, "dy")});
        args.push_back(Arg{DNNL_ARG_WEIGHTS, built.weights, inputAs(w, cs.userW, built.weights, name, "weights")});
        const Buffer dxOut = output(dx, name);
        dxR = built.diffSrc != mdOf(dx);
        const Buffer dxb = dxR ? temp(built.diffSrc) : dxOut;
        args.push_back(Arg{DNNL_ARG_DIFF_SRC, built.diffSrc, dxb});
        addStep(built, std::move(args), "conv_bwd_data");
        if(dxR)
            addReorder(built.diffSrc, dxb, mdOf(dx), dxOut, name + " dx");
    }

    void convBackwardWeights(const fbs::Node& n, const std::string& name)
    {
        const auto& a = *n.attributes_as_ConvolutionWrwAttributes();
        const Tensor& x = tensor(a.x_tensor_uid(), "x", name);
        const Tensor& dy = tensor(a.dy_tensor_uid(), "dy", name);
        const Tensor& dw = tensor(a.dw_tensor_uid(), "dw", name);
        const ConvShape cs = convShape(x, dw, dy, name);
        const api::ConvGeometry g = geometry(a, x.rank() - 2, name, dw);
        bool xR = false, dyR = false;
        const mdesc xNative = nativeMd(x, &xR), dyNative = nativeMd(dy, &dyR);
        const mdesc xAny(x.dims, *mapType(x.dtype), dnnl::memory::format_tag::any);
        const mdesc dyAny(dy.dims, *mapType(dy.dtype), dnnl::memory::format_tag::any);
        api::Built built;
        try
        {
            built = fastest([&](bool any) {
                return any ? api::convBackwardWeights(xAny, cs.anyW, dyAny, g, build_)
                           : api::convBackwardWeights(xNative, cs.anyW, dyNative, g, build_);
            });
        }
        catch(const dnnl::error& e)
        {
            throw Unsupported(name + ": oneDNN has no convolution backward weights for these shapes/types (" + e.what() + ")");
        }
        std::vector<Arg> args;
        args.push_back(Arg{DNNL_ARG_SRC, built.src, inputAs(x, mdOf(x), built.src, name, "x")});
        args.push_back(Arg{DNNL_ARG_DIFF_DST, built.diffDst, inputAs(dy, mdOf(dy), built.diffDst, name, "dy")});
        const Buffer dwOut = output(dw, name);
        const bool wR = built.diffWeights != cs.userW;
        const Buffer dwb = wR ? temp(built.diffWeights) : dwOut;
        args.push_back(Arg{DNNL_ARG_DIFF_WEIGHTS, built.diffWeights, dwb});
        addStep(built, std::move(args), "conv_bwd_weights");
        if(wR)
            addReorder(built.diffWeights, dwb, cs.userW, dwOut, name + " dw to the user's layout");
    }

    // A tensor's md left-padded with unit dims to `rank`.
    mdesc paddedMd(const Tensor& t, size_t rank)
    {
        std::vector<int64_t> dims(rank - t.dims.size(), 1), st(rank - t.dims.size(), 0);
        dims.insert(dims.end(), t.dims.begin(), t.dims.end());
        st.insert(st.end(), t.strides.begin(), t.strides.end());
        const int64_t outer = t.dims[0] * t.strides[0];
        for(size_t d = 0; d < rank - t.dims.size(); ++d)
            st[d] = std::max<int64_t>(outer, 1);
        return mdWith(dims, t.dtype, st);
    }

    void matmul(const fbs::Node& n, const std::string& name)
    {
        const auto& at = *n.attributes_as_MatmulAttributes();
        const Tensor& a = tensor(at.a_tensor_uid(), "a", name);
        const Tensor& b = tensor(at.b_tensor_uid(), "b", name);
        const Tensor& c = tensor(at.c_tensor_uid(), "c", name);
        const size_t rank = c.dims.size();
        if(rank < 2 || a.dims.size() < 2 || b.dims.size() < 2 || a.dims.size() > rank || b.dims.size() > rank)
            throw Unsupported(name + ": matmul tensors must have rank >= 2 and a, b no larger than c");
        const mdesc aMd = paddedMd(a, rank), bMd = paddedMd(b, rank);
        const std::vector<PostOp> chain = collectChain(c.index);
        std::optional<api::Built> built;
        size_t used = 0;
        std::string lastError;
        for(size_t k = chain.size() + 1; k-- > 0;)
        {
            const Tensor& dst = k == 0 ? c : p_.tensors_.at(chain[k - 1].out);
            std::string names;
            const dnnl::primitive_attr attr = attrFor(chain, 0, k, dst.dims, nullptr, &names);
            try
            {
                built = api::matmul(aMd, bMd, mdOf(dst), attr, build_);
                used = k;
                break;
            }
            catch(const dnnl::error& e)
            {
                lastError = e.what();
            }
        }
        if(!built)
            throw Unsupported(name + ": oneDNN has no matmul for these shapes/layouts/types (" + lastError + ")");
        const Tensor& dst = used == 0 ? c : p_.tensors_.at(chain[used - 1].out);
        std::vector<Arg> args{Arg{DNNL_ARG_SRC, aMd, input(a, name)}, Arg{DNNL_ARG_WEIGHTS, bMd, input(b, name)}};
        for(size_t i = 0; i + 1 < used; ++i)
            loc_[static_cast<size_t>(chain[i].out)] = Buffer{Buffer::Kind::Fused, -1, 0};
        if(used > 0)
            loc_[static_cast<size_t>(c.index)] = Buffer{Buffer::Kind::Fused, -1, 0};
        std::string names;
        attrFor(chain, 0, used, dst.dims, &args, &names);
        args.push_back(Arg{DNNL_ARG_DST, mdOf(dst), output(dst, name)});
        addStep(*built, std::move(args), "matmul" + names);
        next_ += used;
    }

    void pointwise(const fbs::Node& n, const std::string& name)
    {
        const auto& a = *n.attributes_as_PointwiseAttributes();
        const Tensor& in0 = tensor(a.in_0_tensor_uid(), "in_0", name);
        const Tensor& out = tensor(a.out_0_tensor_uid(), "out_0", name);
        const std::string mode = modeName(a.operation());
        std::string why;
        if(a.operation() == fbs::PointwiseMode::IDENTITY)
        {
            if(in0.dims != out.dims)
                throw Unsupported(name + ": identity with broadcasting");
            const Buffer ib = input(in0, name);
            addReorder(mdOf(in0), ib, mdOf(out), output(out, name), "identity");
            return;
        }
        if(const auto e = mapUnary(a, &why))
        {
            if(in0.dims != out.dims || in0.isConstant || in0.isPassByValue)
                throw Unsupported(name + ": unary " + mode + " with broadcasting or a scalar input");
            const Buffer ib = input(in0, name);
            const mdesc inMd = mdOf(in0), outMd = mdOf(out);
            if(inMd == outMd)
            {
                const api::Built b = api::eltwiseForward(e->alg, e->alpha, e->beta, inMd, {}, build_);
                addStep(b, {Arg{DNNL_ARG_SRC, inMd, ib}, Arg{DNNL_ARG_DST, outMd, output(out, name)}}, mode);
            }
            else
            {
                // Convert into the output's layout and type, then apply the function in place.
                const Buffer ob = output(out, name);
                addReorder(inMd, ib, outMd, ob, mode + " input to the output layout");
                const api::Built b = api::eltwiseForward(e->alg, e->alpha, e->beta, outMd, {}, build_);
                addStep(b, {Arg{DNNL_ARG_SRC, outMd, ob}, Arg{DNNL_ARG_DST, outMd, ob}}, mode);
            }
            return;
        }
        if(const auto bw = mapBackward(a))
        {
            if(!a.in_1_tensor_uid())
                throw Unsupported(name + ": " + mode + " needs in_1");
            const Tensor& x = tensor(*a.in_1_tensor_uid(), "in_1", name);
            const mdesc dyMd = mdOf(in0), xMd = mdOf(x), dxMd = mdOf(out);
            if(in0.dims != out.dims || x.dims != out.dims || dyMd != dxMd)
                throw Unsupported(name + ": " + mode + " needs dy and dx of the same layout and type, and no broadcasting");
            api::Built b;
            try
            {
                b = api::eltwiseBackward(bw->alg, bw->alpha, bw->beta, xMd, dyMd, build_);
            }
            catch(const dnnl::error& err)
            {
                throw Unsupported(name + ": oneDNN has no eltwise backward for " + mode + " (" + err.what() + ")");
            }
            addStep(b,
                    {Arg{DNNL_ARG_SRC, xMd, input(x, name)}, Arg{DNNL_ARG_DIFF_DST, dyMd, input(in0, name)},
                     Arg{DNNL_ARG_DIFF_SRC, dxMd, output(out, name)}},
                    mode);
            return;
        }
        const auto bo = mapBinary(a.operation());
        if(!bo)
            throw Unsupported(name + ": " + (why.empty() ? "pointwise mode " + mode + " has no oneDNN equivalent" : why));
        if(!a.in_1_tensor_uid())
            throw Unsupported(name + ": " + mode + " needs in_1");
        const Tensor& in1 = tensor(*a.in_1_tensor_uid(), "in_1", name);
        const Tensor* s0 = &in0;
        const Tensor* s1 = &in1;
        algorithm alg = bo->alg;
        auto full = [&](const Tensor& t) { return t.dims == out.dims && !t.isConstant && !t.isPassByValue; };
        if(!full(in0))
        {
            if(!full(in1) || !bo->swapped)
                throw Unsupported(name + ": " + mode + " whose first input is broadcast");
            std::swap(s0, s1);
            alg = *bo->swapped;
        }
        if(!broadcastTo(s1->dims, out.dims))
            throw Unsupported(name + ": " + mode + " operands do not broadcast to the output");
        const mdesc m0 = mdOf(*s0), m1 = src1Md(*s1, out.dims);
        const Buffer b0 = input(*s0, name), b1 = input(*s1, name);
        const std::vector<PostOp> chain = collectChain(out.index);
        std::optional<api::Built> built;
        size_t used = 0;
        std::string lastError;
        for(size_t k = chain.size() + 1; k-- > 0;)
        {
            const Tensor& dst = k == 0 ? out : p_.tensors_.at(chain[k - 1].out);
            std::string names;
            const dnnl::primitive_attr attr = attrFor(chain, 0, k, dst.dims, nullptr, &names);
            try
            {
                built = api::binary(alg, m0, m1, mdOf(dst), attr, build_);
                used = k;
                break;
            }
            catch(const dnnl::error& e)
            {
                lastError = e.what();
            }
        }
        if(!built)
            throw Unsupported(name + ": oneDNN has no binary " + mode + " for these shapes/types (" + lastError + ")");
        const Tensor& dst = used == 0 ? out : p_.tensors_.at(chain[used - 1].out);
        std::vector<Arg> args{Arg{DNNL_ARG_SRC_0, m0, b0}, Arg{DNNL_ARG_SRC_1, m1, b1}};
        for(size_t i = 0; i + 1 < used; ++i)
            loc_[static_cast<size_t>(chain[i].out)] = Buffer{Buffer::Kind::Fused, -1, 0};
        if(used > 0)
            loc_[static_cast<size_t>(out.index)] = Buffer{Buffer::Kind::Fused, -1, 0};
        std::string names;
        attrFor(chain, 0, used, dst.dims, &args, &names);
        args.push_back(Arg{DNNL_ARG_DST, mdOf(dst), output(dst, name)});
        addStep(*built, std::move(args), mode + names);
        next_ += used;
    }

    // scalarValue: a compile-time constant scalar input (epsilon); declined otherwise.
    double scalarValue(int64_t uid, const char* role, const std::string& node)
    {
        const Tensor* t = p_.tensors_.find(uid);
        if(t == nullptr || !t->isConstant)
            throw Unsupported(node + ": " + role
                              + " must be a compile-time constant scalar (oneDNN bakes it into the primitive)");
        return t->value;
    }

    static bool rowMajor(const Tensor& t)
    {
        return sameLayout(t.dims, t.strides, denseStrides(t.dims, channelsFirstOrder(t.rank())));
    }

    // A dense row-major tensor viewed as a contiguous 1-D vector of f32 of `n` elements.
    // (other float types are converted through a workspace copy: vin / vout).
    mdesc vectorMd(const Tensor& t, int64_t n, const char* role, const std::string& node)
    {
        const bool floating =
            t.dtype == fbs::DataType::FLOAT || t.dtype == fbs::DataType::BFLOAT16 || t.dtype == fbs::DataType::HALF;
        if(t.elements() != n || !rowMajor(t) || !floating || t.isConstant || t.isPassByValue)
            throw Unsupported(node + ": " + role + " must be a dense floating-point tensor of " + std::to_string(n)
                              + " elements");
        return mdesc({n}, dt::f32, dnnl::memory::dims{1});
    }

    // vin: a per-channel/per-row input as f32 (reordered into the workspace when it is not f32).
    Buffer vin(const Tensor& t, int64_t n, const std::string& node)
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
    Buffer vout(const Tensor& t, int64_t n, const std::string& node)
    {
        const mdesc f = vectorMd(t, n, "statistics / gradient", node);
        if(t.dtype == fbs::DataType::FLOAT)
            return output(t, node);
        const Buffer tmp = temp(f);
        pending_.push_back({tmp, t.index, n});
        return tmp;
    }

    struct PendingOut
    {
        Buffer from;
        int tensor;
        int64_t n;
    };
    std::vector<PendingOut> pending_;

    void flushOutputs(const std::string& node)
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

    void layernorm(const fbs::Node& n, const std::string& name)
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
    Buffer statFromInverse(const mdesc& statMd, Buffer inv)
    {
        const Buffer var = temp(statMd);
        const api::Built pw = api::eltwiseForward(algorithm::eltwise_pow, 1.f, -2.f, statMd, {}, build_);
        addStep(pw, {Arg{DNNL_ARG_SRC, statMd, inv}, Arg{DNNL_ARG_DST, statMd, var}}, "variance from inv_variance");
        return var;
    }

    // toInverse: in place, variance -> (variance + eps)^(-1/2).
    void toInverse(const mdesc& statMd, Buffer buf, float eps)
    {
        const api::Built lin = api::eltwiseForward(algorithm::eltwise_linear, 1.f, eps, statMd, {}, build_);
        addStep(lin, {Arg{DNNL_ARG_SRC, statMd, buf}, Arg{DNNL_ARG_DST, statMd, buf}}, "variance+eps");
        const api::Built pw = api::eltwiseForward(algorithm::eltwise_pow, 1.f, -0.5f, statMd, {}, build_);
        addStep(pw, {Arg{DNNL_ARG_SRC, statMd, buf}, Arg{DNNL_ARG_DST, statMd, buf}}, "rsqrt");
    }

    void layernormBackward(const fbs::Node& n, const std::string& name)
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
    mdesc bnData(const Tensor& t, const std::string& node)
    {
        if(t.rank() < 3)
            throw Unsupported(node + ": batchnorm needs a tensor of rank >= 3");
        bool reorder = false;
        const mdesc m = nativeMd(t, &reorder);
        if(reorder)
            throw Unsupported(node + ": batchnorm needs a dense channels-first or channels-last tensor of rank >= 3");
        return m;
    }

    void batchnormTraining(const fbs::Node& n, const std::string& name)
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

    void batchnormBackward(const fbs::Node& n, const std::string& name)
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

    // SDPA forward as oneDNN primitives: S = scale * Q K^T (+ band mask) -> softmax -> O = S V.
    // GQA/MQA: the query heads of one KV head form an extra dim that K and V broadcast over.
    // Everything beyond plain attention with an optional causal/band mask is declined.
    void sdpaForward(const fbs::Node& n, const std::string& name)
    {
        const auto& a = *n.attributes_as_SdpaAttributes();
        viaF32_ = true;
        struct Reset
        {
            bool& flag;
            ~Reset() { flag = false; }
        } reset{viaF32_};
        auto refuse = [&](const flatbuffers::Optional<int64_t>& uid, const char* what) {
            if(uid.has_value())
                throw Unsupported(name + ": SDPA with " + what + " is not supported by the oneDNN engine");
        };
        refuse(a.seq_len_q_tensor_uid(), "sequence lengths (padding)");
        refuse(a.seq_len_kv_tensor_uid(), "sequence lengths (padding)");
        refuse(a.dropout_mask_tensor_uid(), "dropout");
        refuse(a.dropout_scale_tensor_uid(), "dropout");
        refuse(a.page_table_k_tensor_uid(), "page tables");
        refuse(a.page_table_v_tensor_uid(), "page tables");
        refuse(a.block_mask_tensor_uid(), "a block mask");
        refuse(a.sink_token_tensor_uid(), "sink tokens");
        for(const auto& u : {a.descale_q_tensor_uid(), a.descale_k_tensor_uid(), a.descale_v_tensor_uid(),
                             a.descale_s_tensor_uid(), a.scale_s_tensor_uid(), a.scale_o_tensor_uid()})
            refuse(u, "fp8 scales");
        for(const auto& u : {a.stats_tensor_uid(), a.max_tensor_uid(), a.sum_exp_tensor_uid(), a.rng_dump_tensor_uid(),
                             a.amax_s_tensor_uid(), a.amax_o_tensor_uid()})
            refuse(u, "statistics / amax / rng outputs");
        if(a.alibi_mask() || a.padding_mask())
            throw Unsupported(name + ": SDPA with alibi or padding masks is not supported by the oneDNN engine");
        if(a.dropout_probability().has_value() && a.dropout_probability().value() != 0.f)
            throw Unsupported(name + ": SDPA with dropout is not supported by the oneDNN engine");
        const Tensor& q = tensor(a.q_tensor_uid(), "q", name);
        const Tensor& k = tensor(a.k_tensor_uid(), "k", name);
        const Tensor& v = tensor(a.v_tensor_uid(), "v", name);
        const Tensor& o = tensor(a.o_tensor_uid(), "o", name);
        if(q.rank() != 4 || k.rank() != 4 || v.rank() != 4 || o.rank() != 4)
            throw Unsupported(name + ": SDPA tensors must be [B, H, S, D]");
        const int64_t B = q.dims[0], H = q.dims[1], Sq = q.dims[2], D = q.dims[3];
        const int64_t Hk = k.dims[1], Skv = k.dims[2], Dv = v.dims[3];
        if(k.dims[0] != B || v.dims[0] != B || k.dims[3] != D || v.dims[1] != Hk || v.dims[2] != Skv
           || o.dims != std::vector<int64_t>{B, H, Sq, Dv} || Hk < 1 || H % Hk != 0)
            throw Unsupported(name + ": inconsistent SDPA shapes");
        const int64_t G = H / Hk;
        // Scale.
        float scale = 1.f / std::sqrt(static_cast<float>(D));
        if(a.attn_scale_value().has_value() && a.scale_tensor_uid().has_value())
            throw Unsupported(name + ": attn_scale_value and a scale tensor are both given");
        if(a.attn_scale_value().has_value())
            scale = a.attn_scale_value().value();
        else if(a.scale_tensor_uid().has_value())
            scale = static_cast<float>(scalarValue(*a.scale_tensor_uid(), "scale", name));
        // Band (reference semantics: row i sees keys [i + off - left, i + off + right]).
        int64_t left = a.left_bound().has_value() && a.left_bound().value() >= 0 ? a.left_bound().value() : -1;
        int64_t right = a.right_bound().has_value() && a.right_bound().value() >= 0 ? a.right_bound().value() : -1;
        bool bottomRight = a.diagonal_alignment() == fbs::DiagonalAlignment::BOTTOM_RIGHT;
        if(a.causal_mask() && a.causal_mask_bottom_right())
            throw Unsupported(name + ": causal_mask and causal_mask_bottom_right are both set");
        if(a.causal_mask())
        {
            if(bottomRight)
                throw Unsupported(name + ": causal_mask conflicts with diagonal_alignment BOTTOM_RIGHT");
            right = right < 0 ? 0 : std::min<int64_t>(right, 0);
        }
        if(a.causal_mask_bottom_right())
        {
            if(!bottomRight && (left >= 0 || right >= 0))
                throw Unsupported(name + ": causal_mask_bottom_right with explicit bounds on a TOP_LEFT alignment");
            bottomRight = true;
            right = right < 0 ? 0 : std::min<int64_t>(right, 0);
        }
        const bool masked = left >= 0 || right >= 0;
        const int64_t off = bottomRight ? Skv - Sq : 0;
        size_t maskOffset = 0;
        if(masked)
        {
            if(Sq * Skv > (int64_t{1} << 26))
                throw Unsupported(name + ": SDPA band mask larger than 64 Mi elements");
            // The mask values are materialised only for an execution context (not for the
            // applicability and workspace queries, which build the same plan without primitives).
            maskOffset = p_.constants_.size();
            if(build_)
                p_.constants_.resize(maskOffset + static_cast<size_t>(Sq * Skv), 0.f);
            for(int64_t i = 0; i < Sq; ++i)
            {
                const int64_t begin = left >= 0 ? std::max<int64_t>(0, i + off - left) : 0;
                const int64_t end = right >= 0 ? std::min<int64_t>(Skv, i + off + right + 1) : Skv;
                if(begin >= end)
                    throw Unsupported(name + ": SDPA mask hides every key of query row " + std::to_string(i));
                if(!build_)
                    continue;
                for(int64_t j = 0; j < Skv; ++j)
                    if(j < begin || j >= end)
                        p_.constants_[maskOffset + static_cast<size_t>(i * Skv + j)] = -std::numeric_limits<float>::infinity();
            }
        }
        // 5-D views: [B, Hk, G, S, D]; query head h = hk * G + g. Non-f32 q/k/v are converted to
        // dense f32 copies first (exact for bf16/fp16; oneDNN 2.6 has no fast mixed-type kernel).
        const bool qConvert = q.dtype != fbs::DataType::FLOAT, kConvert = k.dtype != fbs::DataType::FLOAT;
        const mdesc q5user({B, Hk, G, Sq, D}, *mapType(q.dtype),
                           dnnl::memory::dims{q.strides[0], q.strides[1] * G, q.strides[1], q.strides[2], q.strides[3]});
        const mdesc q5f({B, Hk, G, Sq, D}, dt::f32, dnnl::memory::format_tag::abcde);
        const mdesc q5 = qConvert ? q5f : q5user;
        const mdesc kUser({B, Hk, 1, Skv, D}, *mapType(k.dtype),
                          dnnl::memory::dims{k.strides[0], k.strides[1], k.strides[1], k.strides[2], k.strides[3]});
        const mdesc kF32({B, Hk, 1, Skv, D}, dt::f32, dnnl::memory::format_tag::abcde);
        // K^T: the same memory with the last two dims swapped.
        const mdesc kT = kConvert
                             ? mdesc({B, Hk, 1, D, Skv}, dt::f32, dnnl::memory::dims{Hk * Skv * D, Skv * D, Skv * D, 1, D})
                             : mdesc({B, Hk, 1, D, Skv}, dt::f32,
                                     dnnl::memory::dims{k.strides[0], k.strides[1], k.strides[1], k.strides[3], k.strides[2]});
        const dnnl::memory::dims sDims{B, Hk, G, Sq, Skv};
        const mdesc s5(sDims, dt::f32, dnnl::memory::format_tag::abcde);
        dnnl::post_ops ops;
        api::appendEltwise(ops, algorithm::eltwise_linear, scale, 0.f);
        // The mask is added by a binary primitive of its own: as a matmul post-op its broadcast
        // pattern sends oneDNN 2.6 to the reference matmul.
        const mdesc maskMd({1, 1, 1, Sq, Skv}, dt::f32, dnnl::memory::dims{Sq * Skv, Sq * Skv, Sq * Skv, Skv, 1});
        dnnl::primitive_attr attr;
        attr.set_post_ops(ops);
        // attn_mask: an additive floating-point bias broadcasting (right-aligned) to [B, H, Sq, Skv],
        // viewed like S as [B, Hk, G, Sq, Skv] and added by a binary primitive. (A row whose biases
        // are all -inf gives NaN here, 0 on the reference engine.)
        const Tensor* bias = a.attn_mask_tensor_uid() ? &tensor(*a.attn_mask_tensor_uid(), "attn_mask", name) : nullptr;
        mdesc biasMd, biasUser;
        if(bias)
        {
            if(bias->isConstant || bias->isPassByValue || bias->rank() > 4
               || !(bias->dtype == fbs::DataType::FLOAT || bias->dtype == fbs::DataType::BFLOAT16
                    || bias->dtype == fbs::DataType::HALF))
                throw Unsupported(name + ": SDPA attn_mask must be a floating-point tensor of rank 1 to 4");
            const auto bd = broadcastTo(bias->dims, {B, H, Sq, Skv});
            if(!bd)
                throw Unsupported(name + ": SDPA attn_mask does not broadcast to [B, H, Sq, Skv]");
            std::vector<int64_t> st(4 - bias->dims.size(), 0);
            st.insert(st.end(), bias->strides.begin(), bias->strides.end());
            const int64_t hb = (*bd)[1];
            const dnnl::memory::dims d5{(*bd)[0], hb == 1 ? 1 : Hk, hb == 1 ? 1 : G, (*bd)[2], (*bd)[3]};
            const dnnl::memory::dims s5v{st[0], hb == 1 ? st[1] : st[1] * G, st[1], st[2], st[3]};
            biasUser = mdesc(d5, *mapType(bias->dtype), s5v);
            biasMd = mdesc(d5, dt::f32, dnnl::memory::format_tag::abcde); // dense f32 copy
        }
        api::Built mm1, sm, mm2, madd, badd;
        const mdesc vF32({B, Hk, 1, Skv, Dv}, dt::f32, dnnl::memory::format_tag::abcde);
        const mdesc v5({B, Hk, 1, Skv, Dv}, *mapType(v.dtype),
                       dnnl::memory::dims{v.strides[0], v.strides[1], v.strides[1], v.strides[2], v.strides[3]});
        const mdesc o5({B, Hk, G, Sq, Dv}, *mapType(o.dtype),
                       dnnl::memory::dims{o.strides[0], o.strides[1] * G, o.strides[1], o.strides[2], o.strides[3]});
        const mdesc o5f(o5.dims(), dt::f32, dnnl::memory::format_tag::abcde);
        const bool vConvert = v.dtype != fbs::DataType::FLOAT;
        bool oConvert = false;
        try
        {
            mm1 = api::matmul(q5, kT, s5, attr, build_);
            if(masked)
                madd = api::binary(algorithm::binary_add, s5, maskMd, s5, {}, build_);
            if(bias)
                badd = api::binary(algorithm::binary_add, s5, biasMd, s5, {}, build_);
            sm = api::softmaxForward(s5, 4, build_);
            try
            {
                mm2 = api::matmul(s5, vConvert ? vF32 : v5, o5, {}, build_);
            }
            catch(const dnnl::error&)
            {
                oConvert = true;
                mm2 = api::matmul(s5, vConvert ? vF32 : v5, o5f, {}, build_);
            }
        }
        catch(const dnnl::error& e)
        {
            throw Unsupported(name + ": oneDNN has no matmul/softmax for this SDPA (" + e.what() + ")");
        }
        for(const api::Built* b : {&mm1, &sm, &mm2, &madd, &badd})
            if(b->impl.find("ref") != std::string::npos)
                throw Unsupported(name + ": oneDNN would run this SDPA on a reference kernel (" + b->impl
                                  + "), not faster than HIPDNNGO_CPU_REFERENCE");
        Buffer qb = input(q, name), kb = input(k, name);
        if(qConvert)
        {
            const Buffer t = temp(q5f);
            addReorder(q5user, qb, q5f, t, name + " q to f32");
            qb = t;
        }
        if(kConvert)
        {
            const Buffer t = temp(kF32);
            addReorder(kUser, kb, kF32, t, name + " k to f32");
            kb = t;
        }
        const Buffer sb = temp(s5);
        addStep(mm1, {Arg{DNNL_ARG_SRC, q5, qb}, Arg{DNNL_ARG_WEIGHTS, kT, kb}, Arg{DNNL_ARG_DST, s5, sb}},
                "sdpa S = scale*QK^T");
        if(masked)
            addStep(madd,
                    {Arg{DNNL_ARG_SRC_0, s5, sb}, Arg{DNNL_ARG_SRC_1, maskMd, Buffer{Buffer::Kind::Constant, -1, maskOffset}},
                     Arg{DNNL_ARG_DST, s5, sb}},
                    "sdpa mask");
        if(bias)
        {
            const Buffer t = temp(biasMd);
            addReorder(biasUser, input(*bias, name), biasMd, t, name + " attn_mask to f32");
            addStep(badd, {Arg{DNNL_ARG_SRC_0, s5, sb}, Arg{DNNL_ARG_SRC_1, biasMd, t}, Arg{DNNL_ARG_DST, s5, sb}}, "sdpa bias");
        }
        addStep(sm, {Arg{DNNL_ARG_SRC, s5, sb}, Arg{DNNL_ARG_DST, s5, sb}}, "sdpa softmax");
        Buffer vb = input(v, name);
        if(vConvert)
        {
            const Buffer t = temp(vF32);
            addReorder(v5, vb, vF32, t, name + " v to f32");
            vb = t;
        }
        const Buffer oOut = output(o, name);
        const Buffer ob = oConvert ? temp(o5f) : oOut;
        addStep(mm2,
                {Arg{DNNL_ARG_SRC, s5, sb}, Arg{DNNL_ARG_WEIGHTS, vConvert ? vF32 : v5, vb},
                 Arg{DNNL_ARG_DST, oConvert ? o5f : o5, ob}},
                "sdpa O = PV");
        if(oConvert)
            addReorder(o5f, ob, o5, oOut, name + " o from f32");
    }

    void reduction(const fbs::Node& n, const std::string& name)
    {
        const auto& a = *n.attributes_as_ReductionAttributes();
        const Tensor& in = tensor(a.in_tensor_uid(), "in", name);
        const Tensor& out = tensor(a.out_tensor_uid(), "out", name);
        algorithm alg = algorithm::reduction_sum;
        float p = 0.f;
        switch(a.mode())
        {
        case fbs::ReductionMode::ADD: alg = algorithm::reduction_sum; break;
        case fbs::ReductionMode::MUL: alg = algorithm::reduction_mul; break;
        case fbs::ReductionMode::MIN_OP: alg = algorithm::reduction_min; break;
        case fbs::ReductionMode::MAX_OP: alg = algorithm::reduction_max; break;
        case fbs::ReductionMode::AVG: alg = algorithm::reduction_mean; break;
        case fbs::ReductionMode::NORM1: alg = algorithm::reduction_norm_lp_sum, p = 1.f; break;
        case fbs::ReductionMode::NORM2: alg = algorithm::reduction_norm_lp_sum, p = 2.f; break;
        default:
            throw Unsupported(name + ": reduction mode " + std::string(fbs::EnumNameReductionMode(a.mode()))
                              + " has no oneDNN equivalent");
        }
        if(in.rank() != out.rank())
            throw Unsupported(name + ": reduction input and output ranks differ");
        for(size_t d = 0; d < in.dims.size(); ++d)
            if(out.dims[d] != 1 && out.dims[d] != in.dims[d])
                throw Unsupported(name + ": reduction output dims must be 1 or the input's");
        api::Built b;
        try
        {
            b = api::reduction(alg, mdOf(in), mdOf(out), p, build_);
        }
        catch(const dnnl::error& e)
        {
            throw Unsupported(name + ": oneDNN has no reduction for these shapes/types (" + e.what() + ")");
        }
        addStep(b, {Arg{DNNL_ARG_SRC, mdOf(in), input(in, name)}, Arg{DNNL_ARG_DST, mdOf(out), output(out, name)}}, "reduction");
    }

    void poolingBackward(const fbs::Node& n, const std::string& name)
    {
        const auto& a = *n.attributes_as_ResampleBwdAttributes();
        const Tensor& dy = tensor(a.dy_tensor_uid(), "dy", name);
        const Tensor& dx = tensor(a.dx_tensor_uid(), "dx", name);
        const int spatial = dx.rank() - 2;
        if(spatial < 1 || spatial > 3 || dy.rank() != dx.rank())
            throw Unsupported(name + ": pooling tensors must have rank 3 to 5");
        auto read = [&](const flatbuffers::Vector<int64_t>* v, const char* what) {
            if(v == nullptr || v->size() != static_cast<flatbuffers::uoffset_t>(spatial))
                throw Unsupported(name + ": " + what + " needs " + std::to_string(spatial) + " entries");
            return dnnl::memory::dims(v->begin(), v->end());
        };
        const auto padL = read(a.pre_padding(), "pre_padding"), padR = read(a.post_padding(), "post_padding");
        const auto strides = read(a.stride(), "stride"), kernel = read(a.window(), "window");
        algorithm alg;
        const Tensor* index = nullptr;
        switch(a.resample_mode())
        {
        case fbs::ResampleMode::AVGPOOL_INCLUDE_PADDING: alg = algorithm::pooling_avg_include_padding; break;
        case fbs::ResampleMode::AVGPOOL_EXCLUDE_PADDING: alg = algorithm::pooling_avg_exclude_padding; break;
        case fbs::ResampleMode::MAXPOOL:
            alg = algorithm::pooling_max;
            index = &maxPoolIndex(a, dy, padL, padR, kernel, name);
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
        Buffer dyb = input(dy, name);
        if(dyR)
        {
            const Buffer t = temp(dyMd);
            addReorder(mdOf(dy), dyb, dyMd, t, name + " dy");
            dyb = t;
        }
        std::vector<Arg> args;
        if(index)
            args.push_back(
                Arg{DNNL_ARG_WORKSPACE, b.workspace, indexAsWorkspace(*index, b.workspace, dy, dx, padL, strides, kernel, name)});
        const Buffer dxOut = output(dx, name);
        const Buffer dxb = dxR ? temp(dxMd) : dxOut;
        args.push_back(Arg{DNNL_ARG_DIFF_DST, dyMd, dyb});
        args.push_back(Arg{DNNL_ARG_DIFF_SRC, dxMd, dxb});
        addStep(b, std::move(args), index ? "pooling_bwd(max)" : "pooling_bwd");
        if(dxR)
            addReorder(dxMd, dxb, mdOf(dx), dxOut, name + " dx");
    }

    // maxPoolIndex: the index tensor of a max-pool backward node, checked for what the
    // conversion into oneDNN's workspace (PoolIndex.hpp) can express.
    const Tensor& maxPoolIndex(const fbs::ResampleBwdAttributes& a, const Tensor& dy, const dnnl::memory::dims& padL,
                               const dnnl::memory::dims& padR, const dnnl::memory::dims& kernel, const std::string& name)
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
        bool padded = false, allPaddingWindow = false;
        for(size_t d = 0; d < kernel.size(); ++d)
        {
            padded = padded || padL[d] != 0 || padR[d] != 0;
            allPaddingWindow = allPaddingWindow || padL[d] >= kernel[d] || padR[d] >= kernel[d];
        }
        // Where the maximum can be a padding element, the index is -1 and its gradient goes
        // nowhere; oneDNN's workspace always names a window position.
        if(padded && a.padding_mode() == fbs::PaddingMode::ZERO_PAD)
            throw Unsupported(name
                              + ": max pooling backward with ZERO_PAD padding (a padding maximum, index -1, "
                                "has no oneDNN workspace form)");
        if(allPaddingWindow)
            throw Unsupported(name
                              + ": max pooling backward with padding as wide as the window (a window of only "
                                "padding has index -1, which oneDNN's workspace cannot express)");
        return *t;
    }

    // indexAsWorkspace: a workspace buffer in oneDNN's max-pool workspace layout `wsMd`, filled
    // from the index tensor by a conversion step before the backward primitive.
    Buffer indexAsWorkspace(const Tensor& index, const mdesc& wsMd, const Tensor& dy, const Tensor& dx,
                            const dnnl::memory::dims& padL, const dnnl::memory::dims& strides, const dnnl::memory::dims& kernel,
                            const std::string& name)
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

    void poolingForward(const fbs::Node& n, const std::string& name)
    {
        const auto& a = *n.attributes_as_ResampleFwdAttributes();
        const Tensor& x = tensor(a.x_tensor_uid(), "x", name);
        const Tensor& y = tensor(a.y_tensor_uid(), "y", name);
        if(a.index_tensor_uid().has_value() || a.generate_index().value_or(false))
            throw Unsupported(name + ": max-pool index output is not supported");
        const int spatial = x.rank() - 2;
        if(spatial < 1 || spatial > 3 || y.rank() != x.rank())
            throw Unsupported(name + ": pooling tensors must have rank 3 to 5");
        auto read = [&](const flatbuffers::Vector<int64_t>* v, const char* what) {
            if(v == nullptr || v->size() != static_cast<flatbuffers::uoffset_t>(spatial))
                throw Unsupported(name + ": " + what + " needs " + std::to_string(spatial) + " entries");
            return dnnl::memory::dims(v->begin(), v->end());
        };
        const auto padL = read(a.pre_padding(), "pre_padding"), padR = read(a.post_padding(), "post_padding");
        const auto strides = read(a.stride(), "stride"), kernel = read(a.window(), "window");
        bool padded = false;
        for(int d = 0; d < spatial; ++d)
            padded = padded || padL[static_cast<size_t>(d)] != 0 || padR[static_cast<size_t>(d)] != 0;
        algorithm alg;
        switch(a.resample_mode())
        {
        case fbs::ResampleMode::MAXPOOL:
            if(padded && a.padding_mode() == fbs::PaddingMode::ZERO_PAD)
                throw Unsupported(name + ": max pooling with zero padding (oneDNN pads with -inf)");
            alg = algorithm::pooling_max;
            break;
        case fbs::ResampleMode::AVGPOOL_INCLUDE_PADDING: alg = algorithm::pooling_avg_include_padding; break;
        case fbs::ResampleMode::AVGPOOL_EXCLUDE_PADDING: alg = algorithm::pooling_avg_exclude_padding; break;
        default: throw Unsupported(name + ": resample mode is not a pooling mode");
        }
        bool xR = false, yR = false;
        const mdesc xMd = nativeMd(x, &xR), yMd = nativeMd(y, &yR);
        api::Built b;
        try
        {
            b = api::poolingForward(alg, xMd, yMd, strides, kernel, padL, padR, false, build_);
        }
        catch(const dnnl::error& e)
        {
            throw Unsupported(name + ": oneDNN has no pooling for these shapes/types (" + e.what() + ")");
        }
        Buffer xb = input(x, name);
        if(xR)
        {
            const Buffer t = temp(xMd);
            addReorder(mdOf(x), xb, xMd, t, name + " x");
            xb = t;
        }
        const Buffer yOut = output(y, name);
        const Buffer yb = yR ? temp(yMd) : yOut;
        addStep(b, {Arg{DNNL_ARG_SRC, xMd, xb}, Arg{DNNL_ARG_DST, yMd, yb}}, "pooling_fwd");
        if(yR)
            addReorder(yMd, yb, mdOf(y), yOut, name + " y");
    }

    void batchnormInference(const fbs::Node& n, const std::string& name)
    {
        const auto& a = *n.attributes_as_BatchnormInferenceAttributes();
        const Tensor& x = tensor(a.x_tensor_uid(), "x", name);
        const Tensor& inv = tensor(a.inv_variance_tensor_uid(), "inv_variance", name);
        batchnormInferenceCore(name, x, tensor(a.mean_tensor_uid(), "mean", name), inv,
                               tensor(a.scale_tensor_uid(), "scale", name), tensor(a.bias_tensor_uid(), "bias", name),
                               tensor(a.y_tensor_uid(), "y", name), std::nullopt);
    }

    void batchnormInferenceVariance(const fbs::Node& n, const std::string& name)
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
    void batchnormInferenceCore(const std::string& name, const Tensor& x, const Tensor& mean, const Tensor& inv,
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
};

void PlanBuilder::run()
{
    const size_t ntensors = p_.tensors_.size();
    consumers_.assign(ntensors, 0);
    loc_.assign(ntensors, std::nullopt);
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
    // Count readers of every tensor (input uids of each node type we know).
    auto reads = [&](int64_t uid) {
        if(const Tensor* t = p_.tensors_.find(uid))
            ++consumers_[static_cast<size_t>(t->index)];
    };
    for(const fbs::Node* n : nodes_)
    {
        switch(n->attributes_type())
        {
        case fbs::NodeAttributes::ConvolutionFwdAttributes:
        {
            const auto* a = n->attributes_as_ConvolutionFwdAttributes();
            reads(a->x_tensor_uid()), reads(a->w_tensor_uid());
            break;
        }
        case fbs::NodeAttributes::ConvolutionBwdAttributes:
        {
            const auto* a = n->attributes_as_ConvolutionBwdAttributes();
            reads(a->dy_tensor_uid()), reads(a->w_tensor_uid());
            break;
        }
        case fbs::NodeAttributes::ConvolutionWrwAttributes:
        {
            const auto* a = n->attributes_as_ConvolutionWrwAttributes();
            reads(a->x_tensor_uid()), reads(a->dy_tensor_uid());
            break;
        }
        case fbs::NodeAttributes::MatmulAttributes:
        {
            const auto* a = n->attributes_as_MatmulAttributes();
            reads(a->a_tensor_uid()), reads(a->b_tensor_uid());
            break;
        }
        case fbs::NodeAttributes::PointwiseAttributes:
        {
            const auto* a = n->attributes_as_PointwiseAttributes();
            reads(a->in_0_tensor_uid());
            if(a->in_1_tensor_uid())
                reads(*a->in_1_tensor_uid());
            if(a->in_2_tensor_uid())
                reads(*a->in_2_tensor_uid());
            break;
        }
        case fbs::NodeAttributes::BatchnormInferenceAttributes:
        {
            const auto* a = n->attributes_as_BatchnormInferenceAttributes();
            for(int64_t u : {a->x_tensor_uid(), a->mean_tensor_uid(), a->inv_variance_tensor_uid(), a->scale_tensor_uid(),
                             a->bias_tensor_uid()})
                reads(u);
            break;
        }
        case fbs::NodeAttributes::LayernormAttributes:
        {
            const auto* a = n->attributes_as_LayernormAttributes();
            reads(a->x_tensor_uid()), reads(a->scale_tensor_uid()), reads(a->bias_tensor_uid());
            break;
        }
        case fbs::NodeAttributes::ReductionAttributes: reads(n->attributes_as_ReductionAttributes()->in_tensor_uid()); break;
        case fbs::NodeAttributes::ResampleFwdAttributes: reads(n->attributes_as_ResampleFwdAttributes()->x_tensor_uid()); break;
        case fbs::NodeAttributes::ResampleBwdAttributes: reads(n->attributes_as_ResampleBwdAttributes()->dy_tensor_uid()); break;
        case fbs::NodeAttributes::SdpaAttributes:
        {
            const auto* a = n->attributes_as_SdpaAttributes();
            reads(a->q_tensor_uid()), reads(a->k_tensor_uid()), reads(a->v_tensor_uid());
            if(a->attn_mask_tensor_uid())
                reads(*a->attn_mask_tensor_uid());
            break;
        }
        case fbs::NodeAttributes::BatchnormInferenceAttributesVarianceExt:
        {
            const auto* a = n->attributes_as_BatchnormInferenceAttributesVarianceExt();
            for(int64_t u :
                {a->x_tensor_uid(), a->mean_tensor_uid(), a->variance_tensor_uid(), a->scale_tensor_uid(), a->bias_tensor_uid()})
                reads(u);
            break;
        }
        case fbs::NodeAttributes::LayernormBackwardAttributes:
        {
            const auto* a = n->attributes_as_LayernormBackwardAttributes();
            reads(a->dy_tensor_uid()), reads(a->x_tensor_uid()), reads(a->scale_tensor_uid());
            break;
        }
        case fbs::NodeAttributes::BatchnormAttributes:
        {
            const auto* a = n->attributes_as_BatchnormAttributes();
            reads(a->x_tensor_uid()), reads(a->scale_tensor_uid()), reads(a->bias_tensor_uid());
            break;
        }
        case fbs::NodeAttributes::BatchnormBackwardAttributes:
        {
            const auto* a = n->attributes_as_BatchnormBackwardAttributes();
            reads(a->dy_tensor_uid()), reads(a->x_tensor_uid()), reads(a->scale_tensor_uid());
            break;
        }
        default: break; // declined below
        }
    }
    while(next_ < nodes_.size())
    {
        const fbs::Node& n = *nodes_[next_];
        const std::string name =
            "node " + std::to_string(next_) + (n.name() && n.name()->size() ? " ('" + n.name()->str() + "')" : "");
        ++next_;
        switch(n.attributes_type())
        {
        case fbs::NodeAttributes::ConvolutionFwdAttributes: convForward(n, name); break;
        case fbs::NodeAttributes::ConvolutionBwdAttributes: convBackwardData(n, name); break;
        case fbs::NodeAttributes::ConvolutionWrwAttributes: convBackwardWeights(n, name); break;
        case fbs::NodeAttributes::MatmulAttributes: matmul(n, name); break;
        case fbs::NodeAttributes::PointwiseAttributes: pointwise(n, name); break;
        case fbs::NodeAttributes::BatchnormInferenceAttributes: batchnormInference(n, name); break;
        case fbs::NodeAttributes::BatchnormInferenceAttributesVarianceExt: batchnormInferenceVariance(n, name); break;
        case fbs::NodeAttributes::LayernormAttributes: layernorm(n, name); break;
        case fbs::NodeAttributes::LayernormBackwardAttributes: layernormBackward(n, name); break;
        case fbs::NodeAttributes::BatchnormAttributes: batchnormTraining(n, name); break;
        case fbs::NodeAttributes::BatchnormBackwardAttributes: batchnormBackward(n, name); break;
        case fbs::NodeAttributes::ReductionAttributes: reduction(n, name); break;
        case fbs::NodeAttributes::ResampleFwdAttributes: poolingForward(n, name); break;
        case fbs::NodeAttributes::ResampleBwdAttributes: poolingBackward(n, name); break;
        case fbs::NodeAttributes::SdpaAttributes: sdpaForward(n, name); break;
        default:
        {
            const char* t = fbs::EnumNameNodeAttributes(n.attributes_type());
            throw Unsupported(name + ": operation " + std::string(t && *t ? t : "unknown")
                              + " is not implemented by the oneDNN engine");
        }
        }
    }
    p_.scratchOffset_ = alignUp(wsTop_);
    p_.workspaceSize_ = scratchMax_ > 0 ? p_.scratchOffset_ + scratchMax_ : wsTop_;
    std::sort(p_.externals_.begin(), p_.externals_.end());
    p_.externals_.erase(std::unique(p_.externals_.begin(), p_.externals_.end()), p_.externals_.end());
}

Plan::Plan(const fbs::Graph& graph, bool build) : tensors_(graph) { PlanBuilder(*this, graph, build).run(); }

std::string Plan::describe() const
{
    std::string s;
    for(const Step& st : steps_)
        s += (s.empty() ? "" : "; ") + st.what;
    return s;
}

void Plan::execute(void* workspace, const hipdnnPluginDeviceBuffer_t* buffers, uint32_t count) const
{
    using hipdnn_plugin_sdk::fail;
    if(workspaceSize_ > 0 && workspace == nullptr)
        fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "workspace is NULL but the plan needs " + std::to_string(workspaceSize_) + " bytes");
    if(count > 0 && buffers == nullptr)
        fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "device_buffers is NULL but num_device_buffers is " + std::to_string(count));
    std::vector<void*> ptrs(tensors_.size(), nullptr);
    for(uint32_t i = 0; i < count; ++i)
        if(const Tensor* t = tensors_.find(buffers[i].uid))
            ptrs[static_cast<size_t>(t->index)] = buffers[i].ptr;
    for(int idx : externals_)
        if(ptrs[static_cast<size_t>(idx)] == nullptr)
            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "no device buffer for tensor " + tensors_.at(idx).label());
    auto* ws = static_cast<uint8_t*>(workspace);
    auto* constants = const_cast<float*>(constants_.data());
    const dnnl::engine& eng = api::cpuEngine();
    dnnl::stream stream(eng);
    std::unordered_map<int, dnnl::memory> args;
    auto where = [&](const Buffer& b) -> void* {
        switch(b.kind)
        {
        case Buffer::Kind::External: return ptrs[static_cast<size_t>(b.tensor)];
        case Buffer::Kind::Workspace: return ws + b.offset;
        case Buffer::Kind::Scratch: return ws + scratchOffset_;
        case Buffer::Kind::Constant: return constants + b.offset;
        case Buffer::Kind::Fused: break; // never an argument
        }
        return nullptr;
    };
    for(const Step& s : steps_)
    {
        if(s.convert)
        {
            stream.wait(); // the index may be an earlier step's output
            s.convert->converter.run(where(s.convert->index), where(s.convert->workspace));
            continue;
        }
        args.clear();
        for(const Arg& a : s.args)
            args.emplace(a.id, dnnl::memory(a.md, eng, where(a.buf)));
        s.prim.execute(stream, args);
    }
    stream.wait();
}

} // namespace hipdnngo::onednn
