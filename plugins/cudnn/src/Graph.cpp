#include "Graph.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace hipdnngo::cudnn
{

// ---- Desc ------------------------------------------------------------------------------------

Desc::Desc(cudnnBackendDescriptorType_t type)
{
    const cudnnStatus_t s = api().CreateDescriptor(type, &d_);
    if(s != CUDNN_STATUS_SUCCESS)
    {
        d_ = nullptr;
        throw Unsupported(statusText(("cudnnBackendCreateDescriptor(" + std::to_string(type) + ")").c_str(), s));
    }
}

Desc::~Desc()
{
    if(d_ != nullptr)
    {
        api().DestroyDescriptor(d_);
    }
}

void Desc::set(cudnnBackendAttributeName_t name, cudnnBackendAttributeType_t type, int64_t count, const void* values,
               const char* what)
{
    const cudnnStatus_t s = api().SetAttribute(d_, name, type, count, values);
    if(s != CUDNN_STATUS_SUCCESS)
    {
        throw Unsupported(statusText((std::string("set attribute ") + std::to_string(name) + " of " + what).c_str(), s));
    }
}

void Desc::setDesc(cudnnBackendAttributeName_t name, const Desc& other, const char* what)
{
    cudnnBackendDescriptor_t d = other.get();
    set(name, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &d, what);
}

void Desc::finalize(const char* what)
{
    const cudnnStatus_t s = api().Finalize(d_);
    if(s != CUDNN_STATUS_SUCCESS)
    {
        throw Unsupported(statusText((std::string("finalize ") + what).c_str(), s));
    }
}

// ---- reading the FlatBuffer ------------------------------------------------------------------

namespace
{

bool mapType(fbs::DataType t, cudnnDataType_t* out)
{
    switch(t)
    {
    case fbs::DataType::FLOAT: *out = CUDNN_DATA_FLOAT; return true;
    case fbs::DataType::HALF: *out = CUDNN_DATA_HALF; return true;
    case fbs::DataType::BFLOAT16: *out = CUDNN_DATA_BFLOAT16; return true;
    case fbs::DataType::DOUBLE: *out = CUDNN_DATA_DOUBLE; return true;
    case fbs::DataType::UINT8: *out = CUDNN_DATA_UINT8; return true;
    case fbs::DataType::INT32: *out = CUDNN_DATA_INT32; return true;
    case fbs::DataType::INT8: *out = CUDNN_DATA_INT8; return true;
    case fbs::DataType::INT64: *out = CUDNN_DATA_INT64; return true;
    case fbs::DataType::FP8_E4M3: *out = CUDNN_DATA_FP8_E4M3; return true;
    case fbs::DataType::FP8_E5M2: *out = CUDNN_DATA_FP8_E5M2; return true;
    default: return false;
    }
}

// requireKnown declines a value beyond this build's schema (a newer writer's graph, kept opaque
// by the host): the engine cannot know what it asks for, so it never maps it to a default.
template <typename E>
void requireKnown(E v, E max, const char* what)
{
    const int n = static_cast<int>(v);
    if(n < 0 || n > static_cast<int>(max))
        throw Unsupported(std::string(what) + " value " + std::to_string(n) + " is not known to this engine (a newer schema)");
}

int pointwiseMode(fbs::PointwiseMode m)
{
    using P = fbs::PointwiseMode;
    switch(m)
    {
    case P::ABS: return CUDNN_POINTWISE_ABS;
    case P::ADD: return CUDNN_POINTWISE_ADD;
    case P::ADD_SQUARE: return CUDNN_POINTWISE_ADD_SQUARE;
    case P::BINARY_SELECT: return CUDNN_POINTWISE_BINARY_SELECT;
    case P::CEIL: return CUDNN_POINTWISE_CEIL;
    case P::CMP_EQ: return CUDNN_POINTWISE_CMP_EQ;
    case P::CMP_GE: return CUDNN_POINTWISE_CMP_GE;
    case P::CMP_GT: return CUDNN_POINTWISE_CMP_GT;
    case P::CMP_LE: return CUDNN_POINTWISE_CMP_LE;
    case P::CMP_LT: return CUDNN_POINTWISE_CMP_LT;
    case P::CMP_NEQ: return CUDNN_POINTWISE_CMP_NEQ;
    case P::DIV: return CUDNN_POINTWISE_DIV;
    case P::ELU_BWD: return CUDNN_POINTWISE_ELU_BWD;
    case P::ELU_FWD: return CUDNN_POINTWISE_ELU_FWD;
    case P::ERF: return CUDNN_POINTWISE_ERF;
    case P::EXP: return CUDNN_POINTWISE_EXP;
    case P::FLOOR: return CUDNN_POINTWISE_FLOOR;
    case P::GELU_APPROX_TANH_BWD: return CUDNN_POINTWISE_GELU_APPROX_TANH_BWD;
    case P::GELU_APPROX_TANH_FWD: return CUDNN_POINTWISE_GELU_APPROX_TANH_FWD;
    case P::GELU_BWD: return CUDNN_POINTWISE_GELU_BWD;
    case P::GELU_FWD: return CUDNN_POINTWISE_GELU_FWD;
    case P::GEN_INDEX: return CUDNN_POINTWISE_GEN_INDEX;
    case P::IDENTITY: return CUDNN_POINTWISE_IDENTITY;
    case P::LOG: return CUDNN_POINTWISE_LOG;
    case P::LOGICAL_AND: return CUDNN_POINTWISE_LOGICAL_AND;
    case P::LOGICAL_NOT: return CUDNN_POINTWISE_LOGICAL_NOT;
    case P::LOGICAL_OR: return CUDNN_POINTWISE_LOGICAL_OR;
    case P::MAX_OP: return CUDNN_POINTWISE_MAX;
    case P::MIN_OP: return CUDNN_POINTWISE_MIN;
    case P::MUL: return CUDNN_POINTWISE_MUL;
    case P::NEG: return CUDNN_POINTWISE_NEG;
    case P::RECIPROCAL: return CUDNN_POINTWISE_RECIPROCAL;
    case P::RELU_BWD: return CUDNN_POINTWISE_RELU_BWD;
    case P::RELU_FWD: return CUDNN_POINTWISE_RELU_FWD;
    case P::RSQRT: return CUDNN_POINTWISE_RSQRT;
    case P::SIGMOID_BWD: return CUDNN_POINTWISE_SIGMOID_BWD;
    case P::SIGMOID_FWD: return CUDNN_POINTWISE_SIGMOID_FWD;
    case P::SIN: return CUDNN_POINTWISE_SIN;
    case P::SOFTPLUS_BWD: return CUDNN_POINTWISE_SOFTPLUS_BWD;
    case P::SOFTPLUS_FWD: return CUDNN_POINTWISE_SOFTPLUS_FWD;
    case P::SQRT: return CUDNN_POINTWISE_SQRT;
    case P::SUB: return CUDNN_POINTWISE_SUB;
    case P::SWISH_BWD: return CUDNN_POINTWISE_SWISH_BWD;
    case P::SWISH_FWD: return CUDNN_POINTWISE_SWISH_FWD;
    case P::TAN: return CUDNN_POINTWISE_TAN;
    case P::TANH_BWD: return CUDNN_POINTWISE_TANH_BWD;
    case P::TANH_FWD: return CUDNN_POINTWISE_TANH_FWD;
    default: return -1;
    }
}

bool isBackwardMode(int m) { return m >= 200 && m < 300; }
int arityOf(int m)
{
    if(m == CUDNN_POINTWISE_BINARY_SELECT)
        return 3;
    if((m >= 0 && m <= 9) || isBackwardMode(m) || (m >= 300 && m <= 401))
        return 2;
    return 1;
}

int reductionOp(fbs::ReductionMode m)
{
    using R = fbs::ReductionMode;
    switch(m)
    {
    case R::ADD: return CUDNN_REDUCE_TENSOR_ADD;
    case R::MUL: return CUDNN_REDUCE_TENSOR_MUL;
    case R::MIN_OP: return CUDNN_REDUCE_TENSOR_MIN;
    case R::MAX_OP: return CUDNN_REDUCE_TENSOR_MAX;
    case R::AMAX: return CUDNN_REDUCE_TENSOR_AMAX;
    case R::AVG: return CUDNN_REDUCE_TENSOR_AVG;
    case R::NORM1: return CUDNN_REDUCE_TENSOR_NORM1;
    case R::NORM2: return CUDNN_REDUCE_TENSOR_NORM2;
    case R::MUL_NO_ZEROS: return CUDNN_REDUCE_TENSOR_MUL_NO_ZEROS;
    default: return -1;
    }
}

std::vector<int64_t> longs(const flatbuffers::Vector<int64_t>* v)
{
    std::vector<int64_t> out;
    if(v != nullptr)
        out.assign(v->begin(), v->end());
    return out;
}

int64_t elementSize(cudnnDataType_t t)
{
    switch(t)
    {
    case CUDNN_DATA_DOUBLE:
    case CUDNN_DATA_INT64: return 8;
    case CUDNN_DATA_HALF:
    case CUDNN_DATA_BFLOAT16: return 2;
    case CUDNN_DATA_INT8:
    case CUDNN_DATA_UINT8:
    case CUDNN_DATA_BOOLEAN:
    case CUDNN_DATA_FP8_E4M3:
    case CUDNN_DATA_FP8_E5M2: return 1;
    default: return 4;
    }
}

// Key writer: appends raw bytes of scalars and vectors.
struct KeyWriter
{
    std::string s;
    template <typename T>
    void put(const T& v)
    {
        s.append(reinterpret_cast<const char*>(&v), sizeof v);
    }
    void put(const std::vector<int64_t>& v)
    {
        put(static_cast<uint64_t>(v.size()));
        s.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(int64_t));
    }
};

float optF(const flatbuffers::Optional<float>& o) { return o.has_value() ? o.value() : std::numeric_limits<float>::quiet_NaN(); }

// SdpaBuilder lowers one SDPA forward node into the backend-operation pattern cuDNN's fused
// attention engines recognise (the pattern NVIDIA's cudnn-frontend emits for cuDNN 9 before the
// unified softmax/mask operations): S = Q.K^T; S *= scale; S += bias; padding and band masks
// as gen_index / compare / binary_select; softmax as max, sub, exp, sum, div (log + add for
// stats); O = P.V. Intermediates are virtual fp32 (indices int32, masks boolean).
struct SdpaBuilder
{
    Model& m;
    int64_t next;
    std::vector<OpSpec> ops;

    TensorSpec& add(cudnnDataType_t t, std::vector<int64_t> dims, bool isVirtual = true)
    {
        TensorSpec s;
        s.uid = next++;
        s.dtype = t;
        s.dims = std::move(dims);
        s.strides.assign(s.dims.size(), 1);
        for(size_t i = s.dims.size() - 1; i-- > 0;)
            s.strides[i] = s.strides[i + 1] * s.dims[i + 1];
        s.isVirtual = isVirtual;
        m.tensors.push_back(s);
        return m.tensors.back();
    }
    // addWorkspace adds a non-virtual intermediate held in the engine's part of the workspace,
    // 256-byte aligned.
    TensorSpec& addWorkspace(cudnnDataType_t t, std::vector<int64_t> dims)
    {
        TensorSpec& s = add(t, std::move(dims), false);
        int64_t n = 1;
        for(int64_t d : s.dims)
            n *= d;
        s.wsOffset = m.wsBytes;
        m.wsBytes += (n * elementSize(t) + 255) / 256 * 256;
        return s;
    }
    void rng(int64_t seed, int64_t offset, int64_t y, double keep)
    {
        OpSpec op;
        op.kind = OpKind::Rng;
        op.t = {seed, offset, y, -1, -1, -1, -1};
        op.keepProbability = keep;
        ops.push_back(op);
    }
    void reshape(int64_t x, int64_t y)
    {
        OpSpec op;
        op.kind = OpKind::Reshape;
        op.t = {x, y, -1, -1, -1, -1, -1};
        ops.push_back(op);
    }
    int64_t constant(float v)
    {
        TensorSpec& s = add(CUDNN_DATA_FLOAT, std::vector<int64_t>(4, 1), false);
        s.constant = s.byValue = true;
        std::memcpy(s.value.data(), &v, sizeof v);
        return s.uid;
    }
    int64_t constantInt(int32_t v)
    {
        TensorSpec& s = add(CUDNN_DATA_INT32, std::vector<int64_t>(4, 1), false);
        s.constant = s.byValue = true;
        std::memcpy(s.value.data(), &v, sizeof v);
        return s.uid;
    }
    OpSpec& pw(int mode, int64_t a, int64_t b, int64_t c, int64_t out, cudnnDataType_t compute = CUDNN_DATA_FLOAT)
    {
        OpSpec op;
        op.kind = OpKind::Pointwise;
        op.mode = mode;
        op.compute = compute;
        op.t = {a, b, c, out, -1, -1, -1};
        op.reluLower = op.reluUpper = op.reluSlope = op.swishBeta = op.eluAlpha = op.softplusBeta =
            std::numeric_limits<float>::quiet_NaN();
        ops.push_back(op);
        return ops.back();
    }
    void reduce(int mode, int64_t x, int64_t y)
    {
        OpSpec op;
        op.kind = OpKind::Reduction;
        op.mode = mode;
        op.t = {x, y, -1, -1, -1, -1, -1};
        ops.push_back(op);
    }
    OpSpec& matmul(int64_t a, int64_t b, int64_t c)
    {
        OpSpec op;
        op.kind = OpKind::Matmul;
        op.t = {a, b, c, -1, -1, -1, -1};
        ops.push_back(op);
        return ops.back();
    }
};

void refuse(bool cond, const char* what)
{
    if(cond)
        throw Unsupported(std::string("sdpa: ") + what + " is not translated to cuDNN by this engine yet");
}

// scaleOf is the node's softmax scale as a tensor uid: attn_scale_value, else the scale tensor,
// else hipDNN's default 1/sqrt(d) (as the reference engine; both given is ambiguous there too).
template <typename A>
int64_t scaleOf(const A& a, SdpaBuilder& g, int64_t dHead)
{
    refuse(a.attn_scale_value().has_value() && a.scale_tensor_uid().has_value(),
           "attn_scale_value together with a scale tensor (ambiguous)");
    if(a.attn_scale_value().has_value())
        return g.constant(a.attn_scale_value().value());
    if(a.scale_tensor_uid().has_value())
        return a.scale_tensor_uid().value();
    return g.constant(1.0f / std::sqrt(static_cast<float>(dHead)));
}

// Dropout is an SDPA node's dropout as cuDNN's pattern spells it: the probabilities are
// multiplied by a mask (a Bernoulli draw from the Philox seed and offset, or the node's own
// dropout_mask) and by scale = 1 / (1 - p) (or the node's dropout_scale).
struct Dropout
{
    bool on = false, philox = false;
    int64_t mask = -1, scale = -1, scaleInv = -1; // tensor uids once emitted / given
    double p = 0;
    int64_t seed = -1, offset = -1, dump = -1;
};

template <typename A>
Dropout dropoutOf(const A& a, int64_t dumpUid)
{
    Dropout d;
    d.p = a.dropout_probability().has_value() ? a.dropout_probability().value() : 0.0;
    d.seed = a.seed_tensor_uid().has_value() ? a.seed_tensor_uid().value() : -1;
    d.offset = a.offset_tensor_uid().has_value() ? a.offset_tensor_uid().value() : -1;
    d.dump = dumpUid;
    if(a.dropout_mask_tensor_uid().has_value())
    {
        refuse(d.p > 0, "a dropout_probability together with a dropout_mask (ill-formed)");
        refuse(!a.dropout_scale_tensor_uid().has_value(), "a dropout_mask without a dropout_scale");
        refuse(dumpUid >= 0, "an rng_dump output with a given dropout_mask");
        d.on = true;
        d.mask = a.dropout_mask_tensor_uid().value();
        d.scale = a.dropout_scale_tensor_uid().value();
        return d;
    }
    refuse(d.p < 0 || d.p >= 1, "a dropout_probability outside [0, 1)");
    refuse(a.dropout_scale_tensor_uid().has_value(), "a dropout_scale without a dropout_mask");
    if(d.p == 0)
    {
        refuse(dumpUid >= 0, "an rng_dump output without dropout");
        return d;
    }
    refuse(d.seed < 0 || d.offset < 0, "a dropout_probability without seed and offset tensors");
    d.on = d.philox = true;
    return d;
}

// rowVector makes a per-row tensor [b, h, s_q] (rank-padded to [1, b, h, s_q]) the
// [b, h, s_q, 1] cuDNN's pattern uses; a [b, h, s_q, 1] tensor is kept.
void rowVector(Model& m, int64_t uid, const std::vector<int64_t>& rowDims, const char* what)
{
    TensorSpec* t = m.find(uid);
    if(t == nullptr)
        throw Unsupported(std::string("sdpa: unknown ") + what + " tensor");
    if(t->dims == rowDims)
        return;
    if(t->dims == std::vector<int64_t>{1, rowDims[0], rowDims[1], rowDims[2]})
    {
        t->dims = rowDims;
        t->strides = {t->strides[1], t->strides[2], t->strides[3], 1};
        return;
    }
    throw Unsupported(std::string("sdpa: ") + what + " must be [b, h, s_q, 1] or [b, h, s_q]");
}

// batchVector makes a per-batch tensor of b values (sequence lengths: [b], rank-padded to
// [1, 1, 1, b]) the [b, 1, 1, 1] cuDNN broadcasts against [b, h, s_q, s_kv].
void batchVector(Model& m, int64_t uid, int64_t b)
{
    TensorSpec* t = m.find(uid);
    if(t == nullptr)
        throw Unsupported("sdpa: unknown sequence-length tensor");
    int64_t n = 1;
    for(int64_t d : t->dims)
        n *= d;
    if(n != b)
        throw Unsupported("sdpa: a sequence-length tensor must hold one value per batch (" + std::to_string(b) + ")");
    int64_t stride = 1;
    for(size_t d = 0; d < t->dims.size(); ++d)
        if(t->dims[d] == b)
            stride = t->strides[d];
    t->dims = {b, 1, 1, 1};
    t->strides = {stride, 1, 1, 1};
}

// Qkv is the attention geometry of Q [b, h_q, s_q, d], K [b, h_k, s_kv, d], V [b, h_v, s_kv, d_v].
struct Qkv
{
    int64_t b = 0, hq = 0, hk = 0, hv = 0, sq = 0, skv = 0, d = 0, dv = 0;
    cudnnDataType_t qType = CUDNN_DATA_FLOAT;
};

// transposeKv reads the geometry and turns K (and V when `vt`) into the transposed views cuDNN's
// matmuls take: K^T [b, h_k, d, s_kv], V^T [b, h_v, d_v, s_kv], strides swapped, same memory.
Qkv transposeKv(Model& m, int64_t qUid, int64_t kUid, int64_t vUid, bool vt)
{
    const TensorSpec* q = m.find(qUid);
    TensorSpec* k = m.find(kUid);
    TensorSpec* v = m.find(vUid);
    if(!q || !k || !v || q->dims.size() != 4 || k->dims.size() != 4 || v->dims.size() != 4)
        throw Unsupported("sdpa: Q, K, V must be rank-4 tensors [b, h, s, d]");
    Qkv x{q->dims[0], q->dims[1], k->dims[1], v->dims[1], q->dims[2], k->dims[2], q->dims[3], v->dims[3], q->dtype};
    std::swap(k->dims[2], k->dims[3]);
    std::swap(k->strides[2], k->strides[3]);
    if(vt)
    {
        std::swap(v->dims[2], v->dims[3]);
        std::swap(v->strides[2], v->strides[3]);
    }
    return x;
}

// Band is an SDPA node's masking in hipDNN's convention (docs/compatibility.md): keep key j of
// row i when j < seq_len_kv, i < seq_len_q, and j in [i + off - left, i + off + right] (a bound
// < 0 is open), off = s_kv - s_q on the BOTTOM_RIGHT diagonal. Forward and backward share it;
// bandOf also makes the sequence-length tensors the [b, 1, 1, 1] cuDNN broadcasts.
struct Band
{
    int64_t left = -1, right = -1, off = 0;
    int64_t seqQ = -1, seqKv = -1; // tensor uids
    bool seqLens() const { return seqQ >= 0 || seqKv >= 0; }
    bool bounded() const { return left >= 0 || right >= 0; }
};

template <typename A>
Band bandOf(const A& a, Model& m, const Qkv& x)
{
    const int64_t sq = x.sq, skv = x.skv;
    Band b;
    b.left = a.left_bound().has_value() && a.left_bound().value() >= 0 ? a.left_bound().value() : -1;
    b.right = a.right_bound().has_value() && a.right_bound().value() >= 0 ? a.right_bound().value() : -1;
    b.seqQ = a.seq_len_q_tensor_uid().has_value() ? a.seq_len_q_tensor_uid().value() : -1;
    b.seqKv = a.seq_len_kv_tensor_uid().has_value() ? a.seq_len_kv_tensor_uid().value() : -1;
    refuse(a.causal_mask() && a.causal_mask_bottom_right(), "causal_mask with causal_mask_bottom_right");
    bool bottomRight = a.diagonal_alignment() == fbs::DiagonalAlignment::BOTTOM_RIGHT;
    if(a.causal_mask())
    {
        refuse(bottomRight, "causal_mask with diagonal_alignment BOTTOM_RIGHT");
        b.right = b.right < 0 ? 0 : std::min<int64_t>(b.right, 0);
    }
    if(a.causal_mask_bottom_right())
    {
        refuse(!bottomRight && b.bounded(), "causal_mask_bottom_right with bounds on a TOP_LEFT diagonal");
        bottomRight = true;
        b.right = b.right < 0 ? 0 : std::min<int64_t>(b.right, 0);
    }
    refuse(a.padding_mask() && !b.seqLens(), "padding_mask without sequence lengths");
    refuse(bottomRight && b.seqLens() && b.bounded(), "a BOTTOM_RIGHT band with sequence lengths");
    refuse(a.alibi_mask(), "an ALiBi mask");
    b.off = bottomRight ? skv - sq : 0;
    for(int64_t uid : {b.seqQ, b.seqKv})
        if(uid >= 0)
            batchVector(m, uid, x.b);
    return b;
}

// Masker applies a Band to score tensors of shape sDims, as cuDNN's pattern spells masks:
// gen_index rows and columns, compares, and binary_select with -inf.
struct Masker
{
    SdpaBuilder& g;
    std::vector<int64_t> sDims;
    const Band& band;
    int64_t row = -1, col = -1, negInf = -1;

    void indices(int64_t s)
    {
        if(row >= 0)
            return;
        row = g.add(CUDNN_DATA_INT32, sDims).uid;
        g.pw(CUDNN_POINTWISE_GEN_INDEX, s, -1, -1, row).axis = 2;
        col = g.add(CUDNN_DATA_INT32, sDims).uid;
        g.pw(CUDNN_POINTWISE_GEN_INDEX, s, -1, -1, col).axis = 3;
    }
    int64_t select(int64_t s, int64_t keep)
    {
        const int64_t t = g.add(CUDNN_DATA_FLOAT, sDims).uid;
        g.pw(CUDNN_POINTWISE_BINARY_SELECT, s, negInf, keep, t);
        return t;
    }
    int64_t boolean(int mode, int64_t a, int64_t b)
    {
        const int64_t t = g.add(CUDNN_DATA_BOOLEAN, sDims).uid;
        g.pw(mode, a, b, -1, t, CUDNN_DATA_BOOLEAN);
        return t;
    }
    // padding masks rows i >= seq_len_q and keys j >= seq_len_kv.
    int64_t padding(int64_t s)
    {
        if(!band.seqLens())
            return s;
        indices(s);
        int64_t keep = band.seqQ >= 0 ? boolean(CUDNN_POINTWISE_CMP_LT, row, band.seqQ) : -1;
        if(band.seqKv >= 0)
        {
            const int64_t kkv = boolean(CUDNN_POINTWISE_CMP_LT, col, band.seqKv);
            keep = keep >= 0 ? boolean(CUDNN_POINTWISE_LOGICAL_AND, keep, kkv) : kkv;
        }
        return select(s, keep);
    }
    // bounds masks keys outside the diagonal band.
    int64_t bounds(int64_t s)
    {
        if(band.right >= 0)
        {
            indices(s);
            int64_t r = row; // keep j <= i + off + right
            if(band.off + band.right != 0)
            {
                r = g.add(CUDNN_DATA_INT32, sDims).uid;
                g.pw(CUDNN_POINTWISE_ADD, row, g.constantInt(static_cast<int32_t>(band.off + band.right)), -1, r,
                     CUDNN_DATA_INT32);
            }
            s = select(s, boolean(CUDNN_POINTWISE_CMP_GE, r, col));
        }
        if(band.left >= 0)
        {
            indices(s);
            int64_t c = col; // keep j >= i + off - left, i.e. j + left - off >= i
            if(band.left - band.off != 0)
            {
                c = g.add(CUDNN_DATA_INT32, sDims).uid;
                g.pw(CUDNN_POINTWISE_ADD, col, g.constantInt(static_cast<int32_t>(band.left - band.off)), -1, c,
                     CUDNN_DATA_INT32);
            }
            s = select(s, boolean(CUDNN_POINTWISE_CMP_GE, c, row));
        }
        return s;
    }
};

// Fp8Scales is an fp8 SDPA's per-tensor scaling, as cudnn-frontend lowers it for Hopper:
// descale_q and descale_k on the scores, amax_s of P, P·scale_s in fp8 for P·V, then
// descale_s and descale_v on P·V, amax_o of that, and scale_o into O. All or none of the six
// scale tensors; the amax outputs are optional fp32 scalars.
struct Fp8Scales
{
    bool on = false;
    int64_t descaleQ = -1, descaleK = -1, descaleV = -1, descaleS = -1, scaleS = -1, scaleO = -1, amaxS = -1, amaxO = -1;
};

Fp8Scales fp8ScalesOf(const fbs::SdpaAttributes& a, const Model& m)
{
    auto uid = [](const flatbuffers::Optional<int64_t>& o) { return o.has_value() ? o.value() : int64_t{-1}; };
    Fp8Scales f;
    f.descaleQ = uid(a.descale_q_tensor_uid());
    f.descaleK = uid(a.descale_k_tensor_uid());
    f.descaleV = uid(a.descale_v_tensor_uid());
    f.descaleS = uid(a.descale_s_tensor_uid());
    f.scaleS = uid(a.scale_s_tensor_uid());
    f.scaleO = uid(a.scale_o_tensor_uid());
    f.amaxS = uid(a.amax_s_tensor_uid());
    f.amaxO = uid(a.amax_o_tensor_uid());
    const int64_t scales[] = {f.descaleQ, f.descaleK, f.descaleV, f.descaleS, f.scaleS, f.scaleO};
    int given = 0;
    for(int64_t u : scales)
        given += u >= 0;
    const TensorSpec* q = m.find(a.q_tensor_uid());
    const bool fp8Q = q && (q->dtype == CUDNN_DATA_FP8_E4M3 || q->dtype == CUDNN_DATA_FP8_E5M2);
    if(given == 0 && f.amaxS < 0 && f.amaxO < 0)
    {
        refuse(fp8Q, "fp8 Q without descale / scale tensors");
        return f;
    }
    refuse(given != 6, "fp8 attention without all six descale_q/k/v/s, scale_s, scale_o tensors");
    refuse(!fp8Q, "fp8 scaling with Q not in fp8");
    for(int64_t u : {f.amaxS, f.amaxO})
    {
        const TensorSpec* t = u >= 0 ? m.find(u) : nullptr;
        refuse(u >= 0 && (t == nullptr || t->dtype != CUDNN_DATA_FLOAT), "an amax output that is not fp32");
    }
    f.on = true;
    return f;
}

// dropMask emits the Bernoulli draw (keep with probability 1 - p) into the node's rng_dump
// output when it has one, else into a virtual fp32 [b, h, s_q, s_kv] tensor.
int64_t dropMask(Model& m, SdpaBuilder& g, const Dropout& d, const std::vector<int64_t>& sDims)
{
    int64_t y = d.dump;
    if(y >= 0)
    {
        const TensorSpec* t = m.find(y);
        if(t == nullptr || t->dims != sDims)
            throw Unsupported("sdpa: rng_dump must be [b, h, s_q, s_kv]");
    }
    else
        y = g.add(CUDNN_DATA_FLOAT, sDims).uid;
    g.rng(d.seed, d.offset, y, 1.0 - d.p);
    return y;
}

// lowerSdpaFwd: S = Q.K^T; S *= scale; S += bias; padding and band masks; softmax as max, sub,
// exp, sum, div (log + add for stats); O = P.V.
void lowerSdpaFwd(Model& m, const fbs::SdpaAttributes& a, SdpaBuilder& g)
{
    Dropout drop = dropoutOf(a, a.rng_dump_tensor_uid().has_value() ? a.rng_dump_tensor_uid().value() : -1);
    refuse(a.page_table_k_tensor_uid().has_value() || a.page_table_v_tensor_uid().has_value(), "a paged KV cache");
    refuse(a.block_mask_tensor_uid().has_value(), "a block mask");
    refuse(a.sink_token_tensor_uid().has_value(), "sink tokens");
    const Fp8Scales fp8 = fp8ScalesOf(a, m);
    refuse(fp8.on && drop.on, "fp8 attention with dropout");
    refuse(a.max_tensor_uid().has_value() || a.sum_exp_tensor_uid().has_value(), "max / sum_exp outputs");
    const TensorSpec* o = m.find(a.o_tensor_uid());
    if(o == nullptr || o->dims.size() != 4)
        throw Unsupported("sdpa: O must be a rank-4 tensor [b, h, s, d]");
    const int64_t oUid = o->uid;
    const Qkv x = transposeKv(m, a.q_tensor_uid(), a.k_tensor_uid(), a.v_tensor_uid(), false);
    const Band band = bandOf(a, m, x);

    const std::vector<int64_t> sDims{x.b, x.hq, x.sq, x.skv}, rowDims{x.b, x.hq, x.sq, 1};
    int64_t s = g.add(CUDNN_DATA_FLOAT, sDims).uid;
    OpSpec& bmm1 = g.matmul(a.q_tensor_uid(), a.k_tensor_uid(), s);
    bmm1.mOverride = band.seqQ;
    bmm1.nOverride = band.seqKv;
    const int64_t scale = scaleOf(a, g, x.d);
    for(int64_t factor : {scale, fp8.descaleQ, fp8.descaleK}) // fp8: the scores of Q·descale_q, K·descale_k
    {
        if(factor < 0)
            continue;
        const int64_t t = g.add(CUDNN_DATA_FLOAT, sDims).uid;
        g.pw(CUDNN_POINTWISE_MUL, s, factor, -1, t);
        s = t;
    }
    if(a.attn_mask_tensor_uid().has_value())
    {
        const int64_t t = g.add(CUDNN_DATA_FLOAT, sDims).uid;
        g.pw(CUDNN_POINTWISE_ADD, s, a.attn_mask_tensor_uid().value(), -1, t);
        s = t;
    }
    Masker mask{g, sDims, band};
    if(band.seqLens() || band.bounded())
    {
        mask.negInf = g.constant(-std::numeric_limits<float>::infinity());
        mask.indices(s);
    }
    s = mask.padding(s);
    if(band.seqLens())
        mask.row = mask.col = -1; // the band gets its own indices after padding: with shared ones
            // cuDNN 9.14 offers no config (H200, causal + sequence lengths)
    s = mask.bounds(s);
    // Softmax.
    const int64_t mx = g.add(CUDNN_DATA_FLOAT, rowDims).uid;
    g.reduce(CUDNN_REDUCE_TENSOR_MAX, s, mx);
    const int64_t sub = g.add(CUDNN_DATA_FLOAT, sDims).uid;
    g.pw(CUDNN_POINTWISE_SUB, s, mx, -1, sub);
    const int64_t ex = g.add(CUDNN_DATA_FLOAT, sDims).uid;
    g.pw(CUDNN_POINTWISE_EXP, sub, -1, -1, ex);
    const int64_t sum = g.add(CUDNN_DATA_FLOAT, rowDims).uid;
    g.reduce(CUDNN_REDUCE_TENSOR_ADD, ex, sum);
    // Stats (max + log(sum)) are part of the pattern even when the graph does not ask for
    // them: without the log/add pair cuDNN 9.14 tags no fused-attention mode ("The mode for
    // fused attention was not found"; H200 probe, also what cudnn-frontend emits). Unasked,
    // they go to a virtual tensor.
    int64_t stats = -1;
    if(a.stats_tensor_uid().has_value())
    {
        rowVector(m, a.stats_tensor_uid().value(), rowDims, "stats");
        if(m.find(a.stats_tensor_uid().value())->dtype != CUDNN_DATA_FLOAT)
            throw Unsupported("sdpa: stats must be fp32 (cuDNN writes them as fp32)");
        stats = a.stats_tensor_uid().value();
    }
    else
        stats = g.add(CUDNN_DATA_FLOAT, rowDims).uid;
    const int64_t lg = g.add(CUDNN_DATA_FLOAT, rowDims).uid;
    g.pw(CUDNN_POINTWISE_LOG, sum, -1, -1, lg);
    g.pw(CUDNN_POINTWISE_ADD, mx, lg, -1, stats);
    // cuDNN takes the second matmul's A (the probabilities) in the I/O type of Q.
    m.sdpaNarrowP = m.sdpaNarrowP || x.qType != CUDNN_DATA_FLOAT;
    int64_t p = g.add(drop.on || fp8.on ? CUDNN_DATA_FLOAT : x.qType, sDims).uid;
    g.pw(CUDNN_POINTWISE_DIV, ex, sum, -1, p);
    if(fp8.on)
    {
        // fp8: amax_s = max P, then P·scale_s in Q's fp8 type for P·V.
        if(fp8.amaxS >= 0)
            g.reduce(CUDNN_REDUCE_TENSOR_AMAX, p, fp8.amaxS);
        const int64_t t = g.add(x.qType, sDims).uid;
        g.pw(CUDNN_POINTWISE_MUL, p, fp8.scaleS, -1, t);
        p = t;
    }
    if(drop.on)
    {
        // Philox: P·mask·scale; a given mask: P·scale·mask (cudnn-frontend's two orders).
        if(drop.philox)
        {
            drop.mask = dropMask(m, g, drop, sDims);
            drop.scale = g.constant(static_cast<float>(1.0 / (1.0 - drop.p)));
        }
        const int64_t first = drop.philox ? drop.mask : drop.scale, second = drop.philox ? drop.scale : drop.mask;
        const int64_t t = g.add(CUDNN_DATA_FLOAT, sDims).uid;
        g.pw(CUDNN_POINTWISE_MUL, p, first, -1, t);
        p = g.add(x.qType, sDims).uid;
        g.pw(CUDNN_POINTWISE_MUL, t, second, -1, p);
    }
    if(!fp8.on)
    {
        OpSpec& bmm2 = g.matmul(p, a.v_tensor_uid(), oUid);
        bmm2.mOverride = band.seqQ;
        bmm2.kOverride = band.seqKv;
        return;
    }
    // fp8: O = (P·V)·descale_s·descale_v, amax_o of that, then ·scale_o into O's type.
    const std::vector<int64_t> oDims = m.find(oUid)->dims;
    int64_t acc = g.add(CUDNN_DATA_FLOAT, oDims).uid;
    OpSpec& bmm2 = g.matmul(p, a.v_tensor_uid(), acc);
    bmm2.mOverride = band.seqQ;
    bmm2.kOverride = band.seqKv;
    for(int64_t factor : {fp8.descaleS, fp8.descaleV})
    {
        const int64_t t = g.add(CUDNN_DATA_FLOAT, oDims).uid;
        g.pw(CUDNN_POINTWISE_MUL, acc, factor, -1, t);
        acc = t;
    }
    if(fp8.amaxO >= 0)
        g.reduce(CUDNN_REDUCE_TENSOR_AMAX, acc, fp8.amaxO);
    g.pw(CUDNN_POINTWISE_MUL, acc, fp8.scaleO, -1, oUid);
}

// lowerSdpaBwd emits the backward pattern of cuDNN's fused attention (what cudnn-frontend
// builds for cuDNN 9): Δ = Σ dO·O into a softmax-sum tensor; P = exp(scale·Q.K^T + bias - stats)
// with the masks; dV = P^T.dO; dS = P·(dO.V^T - Δ)·scale; dK = dS^T.Q; dQ = dS.K through an
// fp32 accumulator. Δ and the dQ accumulator are real memory (the engine's workspace); P^T and
// dS^T are reshape views in Q's type. GQA/MQA: full-head dK/dV, then summed per shared head.
// Dropout: the forward's mask (the same Philox draw, or the node's mask) and scale on P and dP,
// and Δ times the inverse scale.
void lowerSdpaBwd(Model& m, const fbs::SdpaBackwardAttributes& a, SdpaBuilder& g)
{
    Dropout drop = dropoutOf(a, -1);
    if(drop.on && !drop.philox)
        throw Unsupported("sdpa backward with a given dropout_mask is not run on cuDNN: 9.14 leaves dropout_scale_inv off "
                          "the softmax sum there (H200: dQ and dK came out as P·(M·dP - Δ)·scale; a seed/offset draw is right)");
    refuse(a.dbias_tensor_uid().has_value(), "a dbias output");
    const Qkv x = transposeKv(m, a.q_tensor_uid(), a.k_tensor_uid(), a.v_tensor_uid(), true);
    refuse(x.qType == CUDNN_DATA_FP8_E4M3 || x.qType == CUDNN_DATA_FP8_E5M2,
           "an fp8 backward (cuDNN's needs descale / scale tensors that hipDNN's SdpaBackward does not have)");
    for(int64_t uid : {a.o_tensor_uid(), a.do_tensor_uid(), a.dq_tensor_uid(), a.dk_tensor_uid(), a.dv_tensor_uid()})
    {
        const TensorSpec* t = m.find(uid);
        if(t == nullptr || t->dims.size() != 4)
            throw Unsupported("sdpa backward: O, dO, dQ, dK, dV must be rank-4 tensors");
    }
    if(x.hq % x.hk != 0 || x.hq % x.hv != 0)
        throw Unsupported("sdpa backward: query heads must be a multiple of key and value heads");
    const Band band = bandOf(a, m, x);
    const std::vector<int64_t> sDims{x.b, x.hq, x.sq, x.skv}, rowDims{x.b, x.hq, x.sq, 1};
    rowVector(m, a.stats_tensor_uid(), rowDims, "stats");
    if(m.find(a.stats_tensor_uid())->dtype != CUDNN_DATA_FLOAT)
        throw Unsupported("sdpa backward: stats must be fp32");
    // P^T and dS^T: [b, h, s_kv, s_q] views of row-major [b, h, s_q, s_kv] data.
    const std::vector<int64_t> tDims{x.b, x.hq, x.skv, x.sq}, tStrides{x.hq * x.sq * x.skv, x.sq * x.skv, 1, x.skv};

    if(drop.philox)
    {
        drop.mask = dropMask(m, g, drop, sDims);
        drop.scale = g.constant(static_cast<float>(1.0 / (1.0 - drop.p)));
        drop.scaleInv = g.constant(static_cast<float>(1.0 - drop.p));
    }

    // Δ = Σ_d dO·O, times the inverse dropout scale (one without dropout) into softmax_sum.
    const int64_t dOO = g.add(CUDNN_DATA_FLOAT, {x.b, x.hq, x.sq, x.dv}).uid;
    g.pw(CUDNN_POINTWISE_MUL, a.do_tensor_uid(), a.o_tensor_uid(), -1, dOO);
    const int64_t delta = g.add(CUDNN_DATA_FLOAT, rowDims).uid;
    g.reduce(CUDNN_REDUCE_TENSOR_ADD, dOO, delta);
    const int64_t softmaxSum = g.addWorkspace(CUDNN_DATA_FLOAT, rowDims).uid;
    g.pw(CUDNN_POINTWISE_MUL, delta, drop.on ? drop.scaleInv : g.constant(1.0f), -1, softmaxSum);

    // P = exp(masked scaled scores - stats).
    int64_t s = g.add(CUDNN_DATA_FLOAT, sDims).uid;
    OpSpec& bmm1 = g.matmul(a.q_tensor_uid(), a.k_tensor_uid(), s);
    bmm1.mOverride = band.seqQ;
    bmm1.nOverride = band.seqKv;
    const int64_t scale = scaleOf(a, g, x.d);
    auto pointwise = [&](int mode, int64_t in0, int64_t in1, cudnnDataType_t t = CUDNN_DATA_FLOAT,
                         const std::vector<int64_t>* dims = nullptr) {
        const int64_t out = g.add(t, dims ? *dims : sDims).uid;
        g.pw(mode, in0, in1, -1, out);
        return out;
    };
    s = pointwise(CUDNN_POINTWISE_MUL, s, scale);
    if(a.attn_mask_tensor_uid().has_value())
        s = pointwise(CUDNN_POINTWISE_ADD, s, a.attn_mask_tensor_uid().value());
    Masker pad{g, sDims, band};
    if(band.seqLens() || band.bounded())
        pad.negInf = g.constant(-std::numeric_limits<float>::infinity());
    s = pad.padding(s);
    s = pointwise(CUDNN_POINTWISE_SUB, s, a.stats_tensor_uid());
    Masker window{g, sDims, band, -1, -1, pad.negInf};
    s = window.bounds(s);
    const int64_t p = pointwise(CUDNN_POINTWISE_EXP, s, -1);

    // dV = P^T.dO (per query head, then summed over the heads sharing a value head).
    auto transposed = [&](int64_t src) {
        TensorSpec& t = g.add(x.qType, tDims);
        t.strides = tStrides;
        g.reshape(src, t.uid);
        return t.uid;
    };
    auto perHead = [&](int64_t aT, int64_t b, int64_t out, int64_t heads, int64_t width) {
        if(heads == x.hq)
        {
            OpSpec& mm = g.matmul(aT, b, out);
            mm.mOverride = band.seqKv;
            mm.kOverride = band.seqQ;
            return;
        }
        const int64_t full = g.add(x.qType, {x.b, x.hq, x.skv, width}).uid;
        OpSpec& mm = g.matmul(aT, b, full);
        mm.mOverride = band.seqKv;
        mm.kOverride = band.seqQ;
        g.reduce(CUDNN_REDUCE_TENSOR_ADD, full, out);
    };
    m.sdpaNarrowP = m.sdpaNarrowP || x.qType != CUDNN_DATA_FLOAT;
    int64_t pDrop = p; // P·mask·scale: what multiplied V in the forward pass
    if(drop.on)
        pDrop = pointwise(CUDNN_POINTWISE_MUL, pointwise(CUDNN_POINTWISE_MUL, p, drop.mask), drop.scale);
    perHead(transposed(pDrop), a.do_tensor_uid(), a.dv_tensor_uid(), x.hv, x.dv);

    // dS = P·(dO.V^T - Δ)·scale.
    const int64_t dP = g.add(CUDNN_DATA_FLOAT, sDims).uid;
    OpSpec& bmm2 = g.matmul(a.do_tensor_uid(), a.v_tensor_uid(), dP);
    bmm2.mOverride = band.seqQ;
    bmm2.nOverride = band.seqKv;
    int64_t dS = drop.on ? pointwise(CUDNN_POINTWISE_MUL, dP, drop.mask) : dP;
    dS = pointwise(CUDNN_POINTWISE_SUB, dS, softmaxSum);
    dS = pointwise(CUDNN_POINTWISE_MUL, dS, p);
    if(drop.on)
        dS = pointwise(CUDNN_POINTWISE_MUL, dS, drop.scale);
    dS = pointwise(CUDNN_POINTWISE_MUL, dS, scale);

    // dK = dS^T.Q.
    perHead(transposed(dS), a.q_tensor_uid(), a.dk_tensor_uid(), x.hk, x.d);

    // dQ = dS.K: K^T viewed back as K, an fp32 accumulator, then dQ's type.
    TensorSpec& kView = g.add(m.find(a.k_tensor_uid())->dtype, {x.b, x.hk, x.skv, x.d});
    {
        const TensorSpec* kt = m.find(a.k_tensor_uid());
        kView.strides = {kt->strides[0], kt->strides[1], kt->strides[3], kt->strides[2]};
    }
    const int64_t kUid = kView.uid;
    g.reshape(a.k_tensor_uid(), kUid);
    const int64_t dQacc = g.addWorkspace(CUDNN_DATA_FLOAT, {x.b, x.hq, x.sq, x.d}).uid;
    OpSpec& bmm3 = g.matmul(dS, kUid, dQacc);
    bmm3.mOverride = band.seqQ;
    bmm3.kOverride = band.seqKv;
    g.pw(CUDNN_POINTWISE_IDENTITY, dQacc, -1, -1, a.dq_tensor_uid());
}

void expandSdpa(Model& m)
{
    int64_t maxUid = 0;
    for(const TensorSpec& t : m.tensors)
        maxUid = std::max(maxUid, t.uid);
    std::vector<OpSpec> out;
    for(OpSpec& op : m.ops)
    {
        if(op.kind != OpKind::Sdpa)
        {
            out.push_back(op);
            continue;
        }
        SdpaBuilder g{m, std::max<int64_t>(maxUid + 1, int64_t{1} << 40), {}};
        if(op.bnInference != nullptr)
        {
            // y = ((x - mean) * inv_variance) * scale + bias, fp32 intermediates.
            const fbs::BatchnormInferenceAttributes& a = *op.bnInference;
            const TensorSpec* x = m.find(a.x_tensor_uid());
            if(x == nullptr)
                throw Unsupported("batchnorm inference: unknown x tensor");
            const std::vector<int64_t> dims = x->dims;
            const int64_t t1 = g.add(CUDNN_DATA_FLOAT, dims).uid, t2 = g.add(CUDNN_DATA_FLOAT, dims).uid,
                          t3 = g.add(CUDNN_DATA_FLOAT, dims).uid;
            g.pw(CUDNN_POINTWISE_SUB, a.x_tensor_uid(), a.mean_tensor_uid(), -1, t1, op.compute);
            g.pw(CUDNN_POINTWISE_MUL, t1, a.inv_variance_tensor_uid(), -1, t2, op.compute);
            g.pw(CUDNN_POINTWISE_MUL, t2, a.scale_tensor_uid(), -1, t3, op.compute);
            g.pw(CUDNN_POINTWISE_ADD, t3, a.bias_tensor_uid(), -1, a.y_tensor_uid(), op.compute);
        }
        else if(op.sdpaBwd != nullptr)
            lowerSdpaBwd(m, *op.sdpaBwd, g);
        else
            lowerSdpaFwd(m, *op.sdpa, g);
        out.insert(out.end(), g.ops.begin(), g.ops.end());
        maxUid = g.next;
    }
    m.ops = std::move(out);
}
} // namespace

const TensorSpec* Model::find(int64_t uid) const
{
    for(const TensorSpec& t : tensors)
        if(t.uid == uid)
            return &t;
    return nullptr;
}

TensorSpec* Model::find(int64_t uid) { return const_cast<TensorSpec*>(static_cast<const Model&>(*this).find(uid)); }

Model readModel(const fbs::Graph& graph)
{
    Model m;
    if(graph.tensors() == nullptr || graph.nodes() == nullptr || graph.nodes()->size() == 0)
        throw Unsupported("graph has no tensors or no nodes");

    cudnnDataType_t graphCompute = CUDNN_DATA_FLOAT;
    if(graph.compute_data_type() != fbs::DataType::UNSET && !mapType(graph.compute_data_type(), &graphCompute))
        throw Unsupported("graph compute type " + std::string(fbs::EnumNameDataType(graph.compute_data_type()))
                          + " is not supported");

    // Nodes first (they decide the minimum rank).
    int minRank = 3;
    bool spatial = false; // convolution or pooling: one rank for all tensors
    int64_t resampleIn = -1; // a pooling's input (x, or dy backward)
    for(const fbs::Node* n : *graph.nodes())
    {
        if(n == nullptr)
            throw Unsupported("graph has a null node");
        OpSpec op;
        op.compute = graphCompute;
        if(n->compute_data_type() != fbs::DataType::UNSET && !mapType(n->compute_data_type(), &op.compute))
            throw Unsupported("node compute type " + std::string(fbs::EnumNameDataType(n->compute_data_type()))
                              + " is not supported");
        op.reluLower = op.reluUpper = op.reluSlope = op.swishBeta = op.eluAlpha = op.softplusBeta =
            std::numeric_limits<float>::quiet_NaN();
        auto convCommon = [&](const auto* a) {
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
            minRank = std::max(minRank, static_cast<int>(sp) + 2);
            spatial = true;
        };
        auto resampleCommon = [&](const auto* a) {
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
            minRank = std::max(minRank, static_cast<int>(sp) + 2);
            spatial = true;
            resampleIn = op.t[0];
        };
        switch(n->attributes_type())
        {
        case fbs::NodeAttributes::ConvolutionFwdAttributes:
        {
            const auto* a = n->attributes_as_ConvolutionFwdAttributes();
            op.kind = OpKind::ConvFwd;
            op.t = {a->x_tensor_uid(), a->w_tensor_uid(), a->y_tensor_uid(), -1, -1, -1, -1};
            convCommon(a);
            m.summary += "conv_fwd";
            break;
        }
        case fbs::NodeAttributes::ConvolutionBwdAttributes:
        {
            const auto* a = n->attributes_as_ConvolutionBwdAttributes();
            op.kind = OpKind::ConvDgrad;
            op.t = {a->dy_tensor_uid(), a->w_tensor_uid(), a->dx_tensor_uid(), -1, -1, -1, -1};
            convCommon(a);
            m.summary += "conv_dgrad";
            break;
        }
        case fbs::NodeAttributes::ConvolutionWrwAttributes:
        {
            const auto* a = n->attributes_as_ConvolutionWrwAttributes();
            op.kind = OpKind::ConvWgrad;
            op.t = {a->x_tensor_uid(), a->dy_tensor_uid(), a->dw_tensor_uid(), -1, -1, -1, -1};
            convCommon(a);
            m.summary += "conv_wgrad";
            break;
        }
        case fbs::NodeAttributes::MatmulAttributes:
        {
            const auto* a = n->attributes_as_MatmulAttributes();
            op.kind = OpKind::Matmul;
            op.t = {a->a_tensor_uid(), a->b_tensor_uid(), a->c_tensor_uid(), -1, -1, -1, -1};
            m.summary += "matmul";
            break;
        }
        case fbs::NodeAttributes::PointwiseAttributes:
        {
            const auto* a = n->attributes_as_PointwiseAttributes();
            op.kind = OpKind::Pointwise;
            requireKnown(a->operation(), fbs::PointwiseMode::MAX, "pointwise mode");
            op.mode = pointwiseMode(a->operation());
            if(op.mode < 0)
                throw Unsupported("pointwise mode " + std::string(fbs::EnumNamePointwiseMode(a->operation()))
                                  + " has no cuDNN equivalent");
            const int arity = arityOf(op.mode);
            op.t[0] = a->in_0_tensor_uid();
            op.t[1] = a->in_1_tensor_uid().has_value() ? a->in_1_tensor_uid().value() : -1;
            op.t[2] = a->in_2_tensor_uid().has_value() ? a->in_2_tensor_uid().value() : -1;
            op.t[3] = a->out_0_tensor_uid();
            if((arity >= 2 && op.t[1] < 0) || (arity >= 3 && op.t[2] < 0))
                throw Unsupported("pointwise " + std::string(fbs::EnumNamePointwiseMode(a->operation())) + " lacks an input");
            if(arity < 3)
                op.t[2] = -1;
            if(arity < 2)
                op.t[1] = -1;
            op.reluLower = optF(a->relu_lower_clip());
            op.reluUpper = optF(a->relu_upper_clip());
            op.reluSlope = optF(a->relu_lower_clip_slope());
            op.swishBeta = optF(a->swish_beta());
            op.eluAlpha = optF(a->elu_alpha());
            op.softplusBeta = optF(a->softplus_beta());
            if(op.mode == CUDNN_POINTWISE_GEN_INDEX)
            {
                if(!a->axis_tensor_uid().has_value())
                    throw Unsupported("gen_index without an axis");
                op.axis = a->axis_tensor_uid().value();
            }
            m.summary += std::string("pointwise(") + fbs::EnumNamePointwiseMode(a->operation()) + ")";
            break;
        }
        case fbs::NodeAttributes::ReductionAttributes:
        {
            const auto* a = n->attributes_as_ReductionAttributes();
            op.kind = OpKind::Reduction;
            requireKnown(a->mode(), fbs::ReductionMode::MAX, "reduction mode");
            op.mode = reductionOp(a->mode());
            if(op.mode < 0)
                throw Unsupported("reduction mode " + std::string(fbs::EnumNameReductionMode(a->mode())) + " is not supported");
            op.t[0] = a->in_tensor_uid();
            op.t[1] = a->out_tensor_uid();
            m.summary += "reduction";
            break;
        }
        case fbs::NodeAttributes::LayernormAttributes:
        {
            const auto* a = n->attributes_as_LayernormAttributes();
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
            m.summary += "layernorm";
            break;
        }
        case fbs::NodeAttributes::RMSNormAttributes:
        {
            const auto* a = n->attributes_as_RMSNormAttributes();
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
            m.summary += "rmsnorm";
            break;
        }
        case fbs::NodeAttributes::BatchnormAttributes:
        {
            const auto* a = n->attributes_as_BatchnormAttributes();
            if(a->peer_stats_tensor_uid() != nullptr && a->peer_stats_tensor_uid()->size() > 0)
                throw Unsupported("batchnorm with peer statistics is not translated");
            op.kind = OpKind::NormFwd;
            op.mode = CUDNN_BATCH_NORM;
            op.phase = CUDNN_NORM_FWD_TRAINING;
            auto opt = [](const flatbuffers::Optional<int64_t>& o) { return o.has_value() ? o.value() : int64_t{-1}; };
            op.t = {a->x_tensor_uid(),
                    a->scale_tensor_uid(),
                    a->bias_tensor_uid(),
                    a->epsilon_tensor_uid(),
                    a->y_tensor_uid(),
                    opt(a->mean_tensor_uid()),
                    opt(a->inv_variance_tensor_uid())};
            op.extra = {opt(a->momentum_tensor_uid()), opt(a->prev_running_mean_tensor_uid()),
                        opt(a->prev_running_variance_tensor_uid()), opt(a->next_running_mean_tensor_uid()),
                        opt(a->next_running_variance_tensor_uid())};
            if(op.t[5] < 0 || op.t[6] < 0)
                throw Unsupported("batchnorm training without mean / inv_variance outputs is not translated");
            m.summary += "batchnorm";
            break;
        }
        case fbs::NodeAttributes::BatchnormBackwardAttributes:
        case fbs::NodeAttributes::LayernormBackwardAttributes:
        case fbs::NodeAttributes::RMSNormBackwardAttributes:
        {
            op.kind = OpKind::NormBwd;
            auto opt = [](const flatbuffers::Optional<int64_t>& o) { return o.has_value() ? o.value() : int64_t{-1}; };
            if(const auto* a = n->attributes_as_BatchnormBackwardAttributes())
            {
                if(a->peer_stats_tensor_uid() != nullptr && a->peer_stats_tensor_uid()->size() > 0)
                    throw Unsupported("batchnorm backward with peer statistics is not translated");
                op.mode = CUDNN_BATCH_NORM;
                op.t = {a->x_tensor_uid(),
                        a->dy_tensor_uid(),
                        a->scale_tensor_uid(),
                        opt(a->mean_tensor_uid()),
                        opt(a->inv_variance_tensor_uid()),
                        -1,
                        a->dx_tensor_uid()};
                op.extra[0] = a->dscale_tensor_uid();
                op.extra[1] = a->dbias_tensor_uid();
                m.summary += "batchnorm_backward";
            }
            else if(const auto* a = n->attributes_as_LayernormBackwardAttributes())
            {
                op.mode = CUDNN_LAYER_NORM;
                op.t = {a->x_tensor_uid(),
                        a->dy_tensor_uid(),
                        a->scale_tensor_uid(),
                        opt(a->mean_tensor_uid()),
                        opt(a->inv_variance_tensor_uid()),
                        opt(a->epsilon_tensor_uid()),
                        a->dx_tensor_uid()};
                op.extra[0] = a->dscale_tensor_uid();
                op.extra[1] = a->dbias_tensor_uid();
                m.summary += "layernorm_backward";
            }
            else
            {
                const auto* r = n->attributes_as_RMSNormBackwardAttributes();
                op.mode = CUDNN_RMS_NORM;
                op.t = {r->x_tensor_uid(), r->dy_tensor_uid(), r->scale_tensor_uid(), -1, r->inv_rms_tensor_uid(), -1,
                        r->dx_tensor_uid()};
                op.extra[0] = r->dscale_tensor_uid();
                op.extra[1] = opt(r->dbias_tensor_uid());
                m.summary += "rmsnorm_backward";
            }
            if(op.t[4] < 0 || (op.mode != CUDNN_RMS_NORM && op.t[3] < 0))
                throw Unsupported("norm backward without the saved statistics is not translated");
            break;
        }
        case fbs::NodeAttributes::BatchnormInferenceAttributes:
        {
            op.kind = OpKind::Sdpa; // expanded later, into pointwise ops
            op.bnInference = n->attributes_as_BatchnormInferenceAttributes();
            m.summary += "batchnorm_inference";
            break;
        }
        case fbs::NodeAttributes::SdpaAttributes:
        {
            op.kind = OpKind::Sdpa;
            op.sdpa = n->attributes_as_SdpaAttributes();
            requireKnown(op.sdpa->diagonal_alignment(), fbs::DiagonalAlignment::MAX, "sdpa diagonal_alignment");
            requireKnown(op.sdpa->implementation(), fbs::AttentionImplementation::MAX, "sdpa implementation");
            requireKnown(op.sdpa->mma_core_mode(), fbs::DataType::MAX, "sdpa mma_core_mode");
            if(op.sdpa->implementation() == fbs::AttentionImplementation::UNIFIED)
                throw Unsupported(
                    "sdpa implementation UNIFIED is not offered: this engine lowers SDPA to cuDNN's composite pattern");
            // mma_core_mode asks for an accumulator precision (docs/compatibility.md). cuDNN's
            // attention accumulates in fp32, which meets FLOAT and anything coarser.
            switch(op.sdpa->mma_core_mode())
            {
            case fbs::DataType::UNSET:
            case fbs::DataType::FLOAT:
            case fbs::DataType::HALF:
            case fbs::DataType::BFLOAT16:
            case fbs::DataType::FP8_E4M3:
            case fbs::DataType::FP8_E5M2: break;
            default:
                throw Unsupported(std::string("sdpa mma_core_mode ") + fbs::EnumNameDataType(op.sdpa->mma_core_mode())
                                  + " is not offered: cuDNN's attention accumulates in fp32");
            }
            minRank = std::max(minRank, 4);
            m.summary += "sdpa_fwd";
            break;
        }
        case fbs::NodeAttributes::SdpaBackwardAttributes:
        {
            op.kind = OpKind::Sdpa;
            op.sdpaBwd = n->attributes_as_SdpaBackwardAttributes();
            requireKnown(op.sdpaBwd->diagonal_alignment(), fbs::DiagonalAlignment::MAX, "sdpa_backward diagonal_alignment");
            minRank = std::max(minRank, 4);
            m.summary += "sdpa_bwd";
            break;
        }
        case fbs::NodeAttributes::ResampleFwdAttributes:
        {
            const auto* a = n->attributes_as_ResampleFwdAttributes();
            op.kind = OpKind::ResampleFwd;
            op.t = {a->x_tensor_uid(), a->y_tensor_uid(), -1, -1, -1, -1, -1};
            if(a->index_tensor_uid().has_value())
                throw Unsupported("resample with an index output is not translated (cuDNN's index encoding differs)");
            resampleCommon(a);
            m.summary += "resample_fwd";
            break;
        }
        case fbs::NodeAttributes::ResampleBwdAttributes:
        {
            const auto* a = n->attributes_as_ResampleBwdAttributes();
            op.kind = OpKind::ResampleBwd;
            op.t = {a->dy_tensor_uid(), a->dx_tensor_uid(), -1, -1, -1, -1, -1};
            resampleCommon(a);
            if(op.mode == CUDNN_RESAMPLE_MAXPOOL || a->index_tensor_uid().has_value())
                throw Unsupported("max-pool backward is not translated: it needs the forward's indices, which cuDNN "
                                  "encodes differently from hipDNN's flat positions");
            m.summary += "resample_bwd";
            break;
        }
        default:
            throw Unsupported(std::string("node type ") + fbs::EnumNameNodeAttributes(n->attributes_type())
                              + " is not translated to cuDNN by this engine yet");
        }
        m.summary += "+";
        m.ops.push_back(op);
    }
    if(!m.summary.empty())
        m.summary.pop_back();

    int maxRank = 0;
    for(const fbs::TensorAttributes* t : *graph.tensors())
    {
        if(t == nullptr)
            throw Unsupported("graph has a null tensor");
        maxRank = std::max<int>(maxRank, t->dims() ? static_cast<int>(t->dims()->size()) : 0);
    }
    m.rank = std::max(minRank, maxRank);
    if(spatial && maxRank != minRank)
        throw Unsupported("convolution or pooling graph mixes tensor ranks " + std::to_string(maxRank) + " and "
                          + std::to_string(minRank));
    if(m.rank > 8)
        throw Unsupported("rank " + std::to_string(m.rank) + " exceeds cuDNN's 8");

    for(const fbs::TensorAttributes* t : *graph.tensors())
    {
        TensorSpec s;
        s.uid = t->uid();
        const std::string what = "tensor uid " + std::to_string(s.uid);
        if(m.find(s.uid) != nullptr)
            throw Unsupported(what + " appears twice");
        if(!mapType(t->data_type(), &s.dtype))
            throw Unsupported(what + ": data type " + fbs::EnumNameDataType(t->data_type()) + " is not supported");
        if(t->ragged_offset_tensor_uid().has_value() || t->ragged_offset_multiplier() != 1)
            throw Unsupported(what + ": ragged tensors are not supported");
        const std::vector<int64_t> dims = longs(t->dims()), strides = longs(t->strides());
        if(dims.size() != strides.size())
            throw Unsupported(what + ": dims and strides differ in length");
        for(size_t d = 0; d < dims.size(); ++d)
            if(dims[d] < 1 || strides[d] < 0)
                throw Unsupported(what + ": dims must be >= 1 and strides >= 0");
        // Pad leading unit dims (numpy broadcasting), with a stride past the tensor's extent.
        int64_t extent = 1;
        for(size_t d = 0; d < dims.size(); ++d)
            extent = std::max(extent, dims[d] * std::max<int64_t>(strides[d], 1));
        const size_t pad = static_cast<size_t>(m.rank) - dims.size();
        s.dims.assign(pad, 1);
        s.strides.assign(pad, extent);
        s.dims.insert(s.dims.end(), dims.begin(), dims.end());
        s.strides.insert(s.strides.end(), strides.begin(), strides.end());
        for(int64_t& st : s.strides)
            st = std::max<int64_t>(st, 1); // cuDNN rejects zero strides; broadcast dims are size 1
        s.alignment = t->alignment();
        s.isVirtual = t->virtual_();
        s.byValue = t->is_runtime_pass_by_value();
        if(t->value_type() != fbs::TensorValue::NONE)
        {
            s.constant = s.byValue = true;
            float f = 0;
            switch(t->value_type())
            {
            case fbs::TensorValue::Float32Value: f = t->value_as_Float32Value()->value(); break;
            case fbs::TensorValue::Float16Value: f = t->value_as_Float16Value()->value(); break;
            case fbs::TensorValue::BFloat16Value: f = t->value_as_BFloat16Value()->value(); break;
            case fbs::TensorValue::Float64Value: f = static_cast<float>(t->value_as_Float64Value()->value()); break;
            case fbs::TensorValue::Int32Value:
            {
                const int32_t v = t->value_as_Int32Value()->value();
                s.dtype = CUDNN_DATA_INT32;
                std::memcpy(s.value.data(), &v, sizeof v);
                break;
            }
            case fbs::TensorValue::Int64Value:
            {
                const int64_t v = t->value_as_Int64Value()->value();
                s.dtype = CUDNN_DATA_INT64;
                std::memcpy(s.value.data(), &v, sizeof v);
                break;
            }
            default: throw Unsupported(what + ": constant of this value type is not supported");
            }
            if(s.dtype != CUDNN_DATA_INT32 && s.dtype != CUDNN_DATA_INT64)
            {
                s.dtype = CUDNN_DATA_FLOAT; // scalars travel as fp32 by value
                std::memcpy(s.value.data(), &f, sizeof f);
            }
        }
        if(s.byValue)
        {
            int64_t n = 1;
            for(int64_t d : s.dims)
                n *= d;
            if(n != 1)
                throw Unsupported(what + ": a by-value scalar must hold one element");
            if(s.isVirtual)
                throw Unsupported(what + ": a scalar cannot be virtual");
            std::fill(s.strides.begin(), s.strides.end(), 1);
        }
        m.tensors.push_back(std::move(s));
    }

    if(resampleIn >= 0 && m.find(resampleIn) != nullptr && m.find(resampleIn)->dtype == CUDNN_DATA_BFLOAT16)
        throw Unsupported("bf16 pooling is not run on cuDNN: 9.14 returns wrong values for it (H200: max pooling off by "
                          "up to 2, average pooling NaN), while fp16 and fp32 are right");
    expandSdpa(m);
    bool allFp32 = true, matmul = false, conv = false;
    for(const TensorSpec& t : m.tensors)
        allFp32 = allFp32 && (t.dtype == CUDNN_DATA_FLOAT || t.dtype == CUDNN_DATA_BOOLEAN || t.dtype == CUDNN_DATA_INT32);
    for(const OpSpec& op : m.ops)
    {
        const bool isConv = op.kind == OpKind::ConvFwd || op.kind == OpKind::ConvDgrad || op.kind == OpKind::ConvWgrad;
        matmul = matmul || op.kind == OpKind::Matmul;
        conv = conv || isConv;
        for(int i = 0; (isConv || op.kind == OpKind::Matmul) && i < 2; ++i)
        {
            const TensorSpec* t = m.find(op.t[static_cast<size_t>(i)]);
            m.fp8Gemm = m.fp8Gemm || (t && (t->dtype == CUDNN_DATA_FP8_E4M3 || t->dtype == CUDNN_DATA_FP8_E5M2));
        }
    }
    m.fp32Matmul = allFp32 && matmul;
    m.fp32Gemm = allFp32 && (matmul || conv);
    // Pointwise-only graphs keep their rank: rank-3 coalesced views built plans that failed at
    // execute or gave wrong results on the H200 (corpus run 2, commit 8b1048d withdrew them).

    // Check every op references tensors that exist; shift gen_index axes by the padding.
    for(OpSpec& op : m.ops)
    {
        for(int64_t uid : op.extra)
            if(uid >= 0 && m.find(uid) == nullptr)
                throw Unsupported("node references unknown tensor uid " + std::to_string(uid));
        for(int64_t uid : op.t)
            if(uid >= 0 && m.find(uid) == nullptr)
                throw Unsupported("node references unknown tensor uid " + std::to_string(uid));
        constexpr int64_t kSynthetic = int64_t{1} << 40; // uids made by expandSdpa
        if(op.kind == OpKind::Matmul && op.t[0] < kSynthetic && op.t[2] < kSynthetic) // not attention's (GQA/MQA)
        {
            // B broadcast over a batch dimension (B's 1 against A's > 1) gives NaN past batch 0 on
            // cuDNN 9.14 (H200: it reads B at its batch stride); A broadcast runs right.
            const TensorSpec *a = m.find(op.t[0]), *b = m.find(op.t[1]);
            for(size_t d = 0; d + 2 < a->dims.size(); ++d)
                if(b->dims[d] == 1 && a->dims[d] > 1)
                    throw Unsupported("matmul with B broadcast over a batch dimension (A " + std::to_string(a->dims[d])
                                      + " vs B 1) is not run on cuDNN: 9.14 reads B past its batch (H200)");
        }
        if(op.kind == OpKind::Pointwise && op.mode == CUDNN_POINTWISE_GEN_INDEX)
        {
            const fbs::TensorAttributes* out = nullptr;
            for(const fbs::TensorAttributes* t : *graph.tensors())
                if(t->uid() == op.t[3])
                    out = t;
            const int64_t r = out && out->dims() ? static_cast<int64_t>(out->dims()->size()) : m.rank;
            op.axis += m.rank - r;
        }
    }

    KeyWriter k;
    k.put(m.rank);
    for(const TensorSpec& t : m.tensors)
    {
        k.put(t.uid);
        k.put(static_cast<int>(t.dtype));
        k.put(t.dims);
        k.put(t.strides);
        k.put(t.alignment);
        k.put(static_cast<char>(t.isVirtual * 1 + t.byValue * 2 + t.constant * 4));
        if(t.constant)
            k.put(t.value);
        k.put(t.wsOffset);
    }
    for(const OpSpec& op : m.ops)
    {
        k.put(static_cast<int>(op.kind));
        k.put(static_cast<int>(op.compute));
        k.put(op.mode);
        k.put(op.phase);
        k.put(op.t);
        k.put(op.prePad);
        k.put(op.postPad);
        k.put(op.stride);
        k.put(op.dilation);
        k.put(op.window);
        for(float f : {op.reluLower, op.reluUpper, op.reluSlope, op.swishBeta, op.eluAlpha, op.softplusBeta})
            k.put(f);
        k.put(op.axis);
        k.put(op.keepProbability);
        k.put(op.extra);
        k.put(op.mOverride);
        k.put(op.nOverride);
        k.put(op.kOverride);
    }
    m.key = std::move(k.s);
    return m;
}

// ---- building cuDNN descriptors --------------------------------------------------------------

std::shared_ptr<OpGraph> buildOpGraph(const Model& m, cudnnHandle_t handle)
{
    auto g = std::make_shared<OpGraph>();
    std::vector<std::pair<int64_t, DescPtr>> tensors;
    auto tensor = [&](int64_t uid) -> const Desc& {
        for(auto& [u, d] : tensors)
            if(u == uid)
                return *d;
        const TensorSpec* s = m.find(uid);
        auto d = std::make_shared<Desc>(CUDNN_BACKEND_TENSOR_DESCRIPTOR);
        const std::string what = "tensor uid " + std::to_string(uid);
        cudnnDataType_t dt = s->dtype;
        d->set(CUDNN_ATTR_TENSOR_DATA_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &dt, what.c_str());
        d->set(CUDNN_ATTR_TENSOR_DIMENSIONS, CUDNN_TYPE_INT64, static_cast<int64_t>(s->dims.size()), s->dims.data(),
               what.c_str());
        d->set(CUDNN_ATTR_TENSOR_STRIDES, CUDNN_TYPE_INT64, static_cast<int64_t>(s->strides.size()), s->strides.data(),
               what.c_str());
        d->setInt(CUDNN_ATTR_TENSOR_UNIQUE_ID, uid, what.c_str());
        d->setInt(CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT, s->alignment > 0 ? s->alignment : 16, what.c_str());
        const bool v = s->isVirtual, bv = s->byValue;
        d->set(CUDNN_ATTR_TENSOR_IS_VIRTUAL, CUDNN_TYPE_BOOLEAN, 1, &v, what.c_str());
        if(bv)
            d->set(CUDNN_ATTR_TENSOR_IS_BY_VALUE, CUDNN_TYPE_BOOLEAN, 1, &bv, what.c_str());
        d->finalize(what.c_str());
        tensors.emplace_back(uid, d);
        g->keep.push_back(d);
        return *d;
    };

    std::vector<cudnnBackendDescriptor_t> ops;
    const float one = 1.0f, zero = 0.0f;
    for(const OpSpec& op : m.ops)
    {
        DescPtr node;
        switch(op.kind)
        {
        case OpKind::ConvFwd:
        case OpKind::ConvDgrad:
        case OpKind::ConvWgrad:
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
            g->keep.push_back(conv);
            if(op.kind == OpKind::ConvFwd)
            {
                node = std::make_shared<Desc>(CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR);
                node->setDesc(CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, tensor(op.t[0]), "conv fwd");
                node->setDesc(CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W, tensor(op.t[1]), "conv fwd");
                node->setDesc(CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y, tensor(op.t[2]), "conv fwd");
                node->setDesc(CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_CONV_DESC, *conv, "conv fwd");
                node->set(CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_ALPHA, CUDNN_TYPE_FLOAT, 1, &one, "conv fwd");
                node->set(CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_BETA, CUDNN_TYPE_FLOAT, 1, &zero, "conv fwd");
                node->finalize("convolution forward operation");
            }
            else if(op.kind == OpKind::ConvDgrad)
            {
                node = std::make_shared<Desc>(CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR);
                node->setDesc(CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DY, tensor(op.t[0]), "conv dgrad");
                node->setDesc(CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_W, tensor(op.t[1]), "conv dgrad");
                node->setDesc(CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DX, tensor(op.t[2]), "conv dgrad");
                node->setDesc(CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_CONV_DESC, *conv, "conv dgrad");
                node->set(CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_ALPHA, CUDNN_TYPE_FLOAT, 1, &one, "conv dgrad");
                node->set(CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_BETA, CUDNN_TYPE_FLOAT, 1, &zero, "conv dgrad");
                node->finalize("convolution backward-data operation");
            }
            else
            {
                node = std::make_shared<Desc>(CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR);
                node->setDesc(CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_X, tensor(op.t[0]), "conv wgrad");
                node->setDesc(CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DY, tensor(op.t[1]), "conv wgrad");
                node->setDesc(CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DW, tensor(op.t[2]), "conv wgrad");
                node->setDesc(CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_CONV_DESC, *conv, "conv wgrad");
                node->set(CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_ALPHA, CUDNN_TYPE_FLOAT, 1, &one, "conv wgrad");
                node->set(CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_BETA, CUDNN_TYPE_FLOAT, 1, &zero, "conv wgrad");
                node->finalize("convolution backward-filter operation");
            }
            break;
        }
        case OpKind::Matmul:
        {
            auto mm = std::make_shared<Desc>(CUDNN_BACKEND_MATMUL_DESCRIPTOR);
            cudnnDataType_t ct = op.compute;
            mm->set(CUDNN_ATTR_MATMUL_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &ct, "matmul");
            mm->finalize("matmul descriptor");
            g->keep.push_back(mm);
            node = std::make_shared<Desc>(CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR);
            node->setDesc(CUDNN_ATTR_OPERATION_MATMUL_ADESC, tensor(op.t[0]), "matmul");
            node->setDesc(CUDNN_ATTR_OPERATION_MATMUL_BDESC, tensor(op.t[1]), "matmul");
            node->setDesc(CUDNN_ATTR_OPERATION_MATMUL_CDESC, tensor(op.t[2]), "matmul");
            node->setDesc(CUDNN_ATTR_OPERATION_MATMUL_DESC, *mm, "matmul");
            if(op.mOverride >= 0)
                node->setDesc(CUDNN_ATTR_OPERATION_MATMUL_GEMM_M_OVERRIDE_DESC, tensor(op.mOverride), "matmul");
            if(op.nOverride >= 0)
                node->setDesc(CUDNN_ATTR_OPERATION_MATMUL_GEMM_N_OVERRIDE_DESC, tensor(op.nOverride), "matmul");
            if(op.kOverride >= 0)
                node->setDesc(CUDNN_ATTR_OPERATION_MATMUL_GEMM_K_OVERRIDE_DESC, tensor(op.kOverride), "matmul");
            node->finalize("matmul operation");
            break;
        }
        case OpKind::Pointwise:
        {
            auto pw = std::make_shared<Desc>(CUDNN_BACKEND_POINTWISE_DESCRIPTOR);
            cudnnPointwiseMode_t mode = static_cast<cudnnPointwiseMode_t>(op.mode);
            cudnnDataType_t ct = op.compute;
            pw->set(CUDNN_ATTR_POINTWISE_MODE, CUDNN_TYPE_POINTWISE_MODE, 1, &mode, "pointwise");
            pw->set(CUDNN_ATTR_POINTWISE_MATH_PREC, CUDNN_TYPE_DATA_TYPE, 1, &ct, "pointwise");
            auto optional = [&](cudnnBackendAttributeName_t name, float v) {
                if(std::isnan(v))
                    return;
                if(ct == CUDNN_DATA_DOUBLE)
                {
                    const double dv = v;
                    pw->set(name, CUDNN_TYPE_DOUBLE, 1, &dv, "pointwise");
                }
                else
                    pw->set(name, CUDNN_TYPE_FLOAT, 1, &v, "pointwise");
            };
            optional(CUDNN_ATTR_POINTWISE_RELU_LOWER_CLIP, op.reluLower);
            optional(CUDNN_ATTR_POINTWISE_RELU_UPPER_CLIP, op.reluUpper);
            optional(CUDNN_ATTR_POINTWISE_RELU_LOWER_CLIP_SLOPE, op.reluSlope);
            optional(CUDNN_ATTR_POINTWISE_SWISH_BETA, op.swishBeta);
            optional(CUDNN_ATTR_POINTWISE_ELU_ALPHA, op.eluAlpha);
            optional(CUDNN_ATTR_POINTWISE_SOFTPLUS_BETA, op.softplusBeta);
            if(op.mode == CUDNN_POINTWISE_GEN_INDEX)
                pw->setInt(CUDNN_ATTR_POINTWISE_AXIS, op.axis, "pointwise");
            pw->finalize("pointwise descriptor");
            g->keep.push_back(pw);
            node = std::make_shared<Desc>(CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR);
            node->setDesc(CUDNN_ATTR_OPERATION_POINTWISE_PW_DESCRIPTOR, *pw, "pointwise");
            if(isBackwardMode(op.mode))
            {
                node->setDesc(CUDNN_ATTR_OPERATION_POINTWISE_DYDESC, tensor(op.t[0]), "pointwise");
                node->setDesc(CUDNN_ATTR_OPERATION_POINTWISE_XDESC, tensor(op.t[1]), "pointwise");
                node->setDesc(CUDNN_ATTR_OPERATION_POINTWISE_DXDESC, tensor(op.t[3]), "pointwise");
            }
            else
            {
                node->setDesc(CUDNN_ATTR_OPERATION_POINTWISE_XDESC, tensor(op.t[0]), "pointwise");
                if(op.t[1] >= 0)
                    node->setDesc(CUDNN_ATTR_OPERATION_POINTWISE_BDESC, tensor(op.t[1]), "pointwise");
                if(op.t[2] >= 0)
                    node->setDesc(CUDNN_ATTR_OPERATION_POINTWISE_TDESC, tensor(op.t[2]), "pointwise");
                node->setDesc(CUDNN_ATTR_OPERATION_POINTWISE_YDESC, tensor(op.t[3]), "pointwise");
            }
            node->finalize("pointwise operation");
            break;
        }
        case OpKind::Reduction:
        {
            auto red = std::make_shared<Desc>(CUDNN_BACKEND_REDUCTION_DESCRIPTOR);
            cudnnReduceTensorOp_t rop = static_cast<cudnnReduceTensorOp_t>(op.mode);
            cudnnDataType_t ct = op.compute;
            red->set(CUDNN_ATTR_REDUCTION_OPERATOR, CUDNN_TYPE_REDUCTION_OPERATOR_TYPE, 1, &rop, "reduction");
            red->set(CUDNN_ATTR_REDUCTION_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &ct, "reduction");
            red->finalize("reduction descriptor");
            g->keep.push_back(red);
            node = std::make_shared<Desc>(CUDNN_BACKEND_OPERATION_REDUCTION_DESCRIPTOR);
            node->setDesc(CUDNN_ATTR_OPERATION_REDUCTION_XDESC, tensor(op.t[0]), "reduction");
            node->setDesc(CUDNN_ATTR_OPERATION_REDUCTION_YDESC, tensor(op.t[1]), "reduction");
            node->setDesc(CUDNN_ATTR_OPERATION_REDUCTION_DESC, *red, "reduction");
            node->finalize("reduction operation");
            break;
        }
        case OpKind::NormFwd:
        {
            node = std::make_shared<Desc>(CUDNN_BACKEND_OPERATION_NORM_FORWARD_DESCRIPTOR);
            cudnnBackendNormMode_t mode = static_cast<cudnnBackendNormMode_t>(op.mode);
            cudnnBackendNormFwdPhase_t phase = static_cast<cudnnBackendNormFwdPhase_t>(op.phase);
            node->set(CUDNN_ATTR_OPERATION_NORM_FWD_MODE, CUDNN_TYPE_NORM_MODE, 1, &mode, "norm fwd");
            node->set(CUDNN_ATTR_OPERATION_NORM_FWD_PHASE, CUDNN_TYPE_NORM_FWD_PHASE, 1, &phase, "norm fwd");
            node->setDesc(CUDNN_ATTR_OPERATION_NORM_FWD_XDESC, tensor(op.t[0]), "norm fwd");
            node->setDesc(CUDNN_ATTR_OPERATION_NORM_FWD_SCALE_DESC, tensor(op.t[1]), "norm fwd");
            if(op.t[2] >= 0)
                node->setDesc(CUDNN_ATTR_OPERATION_NORM_FWD_BIAS_DESC, tensor(op.t[2]), "norm fwd");
            node->setDesc(CUDNN_ATTR_OPERATION_NORM_FWD_EPSILON_DESC, tensor(op.t[3]), "norm fwd");
            node->setDesc(CUDNN_ATTR_OPERATION_NORM_FWD_YDESC, tensor(op.t[4]), "norm fwd");
            if(op.phase == CUDNN_NORM_FWD_TRAINING)
            {
                if(op.t[5] >= 0)
                    node->setDesc(CUDNN_ATTR_OPERATION_NORM_FWD_MEAN_DESC, tensor(op.t[5]), "norm fwd");
                if(op.t[6] >= 0)
                    node->setDesc(CUDNN_ATTR_OPERATION_NORM_FWD_INV_VARIANCE_DESC, tensor(op.t[6]), "norm fwd");
            }
            const cudnnBackendAttributeName_t running[5] = {
                CUDNN_ATTR_OPERATION_NORM_FWD_EXP_AVG_FACTOR_DESC, CUDNN_ATTR_OPERATION_NORM_FWD_INPUT_RUNNING_MEAN_DESC,
                CUDNN_ATTR_OPERATION_NORM_FWD_INPUT_RUNNING_VAR_DESC, CUDNN_ATTR_OPERATION_NORM_FWD_OUTPUT_RUNNING_MEAN_DESC,
                CUDNN_ATTR_OPERATION_NORM_FWD_OUTPUT_RUNNING_VAR_DESC};
            for(int i = 0; i < 5; ++i)
                if(op.mode == CUDNN_BATCH_NORM && op.extra[static_cast<size_t>(i)] >= 0)
                    node->setDesc(running[i], tensor(op.extra[static_cast<size_t>(i)]), "norm fwd");
            node->finalize("norm forward operation");
            break;
        }
        case OpKind::NormBwd:
        {
            node = std::make_shared<Desc>(CUDNN_BACKEND_OPERATION_NORM_BACKWARD_DESCRIPTOR);
            cudnnBackendNormMode_t mode = static_cast<cudnnBackendNormMode_t>(op.mode);
            node->set(CUDNN_ATTR_OPERATION_NORM_BWD_MODE, CUDNN_TYPE_NORM_MODE, 1, &mode, "norm bwd");
            node->setDesc(CUDNN_ATTR_OPERATION_NORM_BWD_XDESC, tensor(op.t[0]), "norm bwd");
            node->setDesc(CUDNN_ATTR_OPERATION_NORM_BWD_DYDESC, tensor(op.t[1]), "norm bwd");
            node->setDesc(CUDNN_ATTR_OPERATION_NORM_BWD_SCALE_DESC, tensor(op.t[2]), "norm bwd");
            if(op.t[3] >= 0)
                node->setDesc(CUDNN_ATTR_OPERATION_NORM_BWD_MEAN_DESC, tensor(op.t[3]), "norm bwd");
            node->setDesc(CUDNN_ATTR_OPERATION_NORM_BWD_INV_VARIANCE_DESC, tensor(op.t[4]), "norm bwd");
            if(op.t[5] >= 0)
                node->setDesc(CUDNN_ATTR_OPERATION_NORM_BWD_EPSILON_DESC, tensor(op.t[5]), "norm bwd");
            node->setDesc(CUDNN_ATTR_OPERATION_NORM_BWD_DXDESC, tensor(op.t[6]), "norm bwd");
            node->setDesc(CUDNN_ATTR_OPERATION_NORM_BWD_DSCALE_DESC, tensor(op.extra[0]), "norm bwd");
            if(op.extra[1] >= 0)
                node->setDesc(CUDNN_ATTR_OPERATION_NORM_BWD_DBIAS_DESC, tensor(op.extra[1]), "norm bwd");
            node->finalize("norm backward operation");
            break;
        }
        case OpKind::Rng:
        {
            auto rng = std::make_shared<Desc>(CUDNN_BACKEND_RNG_DESCRIPTOR);
            cudnnRngDistribution_t dist = CUDNN_RNG_DISTRIBUTION_BERNOULLI;
            rng->set(CUDNN_ATTR_RNG_DISTRIBUTION, CUDNN_TYPE_RNG_DISTRIBUTION, 1, &dist, "rng");
            rng->set(CUDNN_ATTR_RNG_BERNOULLI_DIST_PROBABILITY, CUDNN_TYPE_DOUBLE, 1, &op.keepProbability, "rng");
            rng->finalize("rng descriptor");
            g->keep.push_back(rng);
            node = std::make_shared<Desc>(CUDNN_BACKEND_OPERATION_RNG_DESCRIPTOR);
            node->setDesc(CUDNN_ATTR_OPERATION_RNG_YDESC, tensor(op.t[2]), "rng");
            node->setDesc(CUDNN_ATTR_OPERATION_RNG_DESC, *rng, "rng");
            node->setDesc(CUDNN_ATTR_OPERATION_RNG_SEED, tensor(op.t[0]), "rng");
            node->setDesc(CUDNN_ATTR_OPERATION_RNG_OFFSET_DESC, tensor(op.t[1]), "rng");
            node->finalize("rng operation");
            break;
        }
        case OpKind::Reshape:
        {
            node = std::make_shared<Desc>(CUDNN_BACKEND_OPERATION_RESHAPE_DESCRIPTOR);
            node->setDesc(CUDNN_ATTR_OPERATION_RESHAPE_XDESC, tensor(op.t[0]), "reshape");
            node->setDesc(CUDNN_ATTR_OPERATION_RESHAPE_YDESC, tensor(op.t[1]), "reshape");
            node->finalize("reshape operation");
            break;
        }
        case OpKind::ResampleFwd:
        case OpKind::ResampleBwd:
        {
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
            g->keep.push_back(rs);
            if(op.kind == OpKind::ResampleFwd)
            {
                node = std::make_shared<Desc>(CUDNN_BACKEND_OPERATION_RESAMPLE_FWD_DESCRIPTOR);
                node->setDesc(CUDNN_ATTR_OPERATION_RESAMPLE_FWD_XDESC, tensor(op.t[0]), "resample fwd");
                node->setDesc(CUDNN_ATTR_OPERATION_RESAMPLE_FWD_YDESC, tensor(op.t[1]), "resample fwd");
                node->setDesc(CUDNN_ATTR_OPERATION_RESAMPLE_FWD_DESC, *rs, "resample fwd");
                node->finalize("resample forward operation");
            }
            else
            {
                node = std::make_shared<Desc>(CUDNN_BACKEND_OPERATION_RESAMPLE_BWD_DESCRIPTOR);
                node->setDesc(CUDNN_ATTR_OPERATION_RESAMPLE_BWD_DYDESC, tensor(op.t[0]), "resample bwd");
                node->setDesc(CUDNN_ATTR_OPERATION_RESAMPLE_BWD_DXDESC, tensor(op.t[1]), "resample bwd");
                node->setDesc(CUDNN_ATTR_OPERATION_RESAMPLE_BWD_DESC, *rs, "resample bwd");
                node->finalize("resample backward operation");
            }
            break;
        }
        case OpKind::Sdpa: throw Unsupported("internal: an SDPA node was not expanded");
        }
        g->keep.push_back(node);
        ops.push_back(node->get());
    }

    g->graph = std::make_shared<Desc>(CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR);
    g->graph->set(CUDNN_ATTR_OPERATIONGRAPH_HANDLE, CUDNN_TYPE_HANDLE, 1, &handle, "operation graph");
    g->graph->set(CUDNN_ATTR_OPERATIONGRAPH_OPS, CUDNN_TYPE_BACKEND_DESCRIPTOR, static_cast<int64_t>(ops.size()), ops.data(),
                  "operation graph");
    g->graph->finalize("operation graph");
    return g;
}

} // namespace hipdnngo::cudnn
