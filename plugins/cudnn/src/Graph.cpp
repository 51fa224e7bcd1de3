#include "Graph.hpp"

#include "ops/Composite.hpp"

#include <hipdnn_plugin_sdk/helpers/TensorTable.hpp>

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

// KeyWriter appends the raw bytes of scalars and length-prefixed vectors: the plan-cache key.
struct KeyWriter
{
    std::string s;
    template <typename T>
    void append(const T& v)
    {
        s.append(reinterpret_cast<const char*>(&v), sizeof v);
    }
    template <typename T>
    void append(const std::vector<T>& v)
    {
        append(static_cast<uint64_t>(v.size()));
        s.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
    }
};

// readNodes reads every node through its family's reader (ops/Registry.cpp), in graph order.
// Nodes come before tensors: they decide the minimum rank.
void readNodes(const fbs::Graph& graph, cudnnDataType_t graphCompute, ReadState& state)
{
    Model& m = state.model;
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
        const NodeReaderRow* reader = findNodeReader(n->attributes_type());
        if(reader == nullptr)
            throw Unsupported(std::string("node type ") + fbs::EnumNameNodeAttributes(n->attributes_type())
                              + " is not translated to cuDNN by this engine yet");
        reader->read(*n, op, state);
        m.summary += "+";
        m.ops.push_back(op);
    }
    if(!m.summary.empty())
        m.summary.pop_back();
}

// scalarValue stores a constant's value in s the way cuDNN takes it by value: integers as
// INT32 / INT64 (exact, read from the buffer, not through TensorRecord's double), everything
// else as fp32.
void scalarValue(const fbs::TensorAttributes& t, const hipdnn_plugin_sdk::TensorRecord& r, TensorSpec& s)
{
    switch(t.value_type())
    {
    case fbs::TensorValue::Int32Value:
    {
        const int32_t v = t.value_as_Int32Value()->value();
        s.dtype = CUDNN_DATA_INT32;
        std::memcpy(s.value.data(), &v, sizeof v);
        return;
    }
    case fbs::TensorValue::Int64Value:
    {
        const int64_t v = t.value_as_Int64Value()->value();
        s.dtype = CUDNN_DATA_INT64;
        std::memcpy(s.value.data(), &v, sizeof v);
        return;
    }
    case fbs::TensorValue::Float32Value:
    case fbs::TensorValue::Float16Value:
    case fbs::TensorValue::BFloat16Value:
    case fbs::TensorValue::Float64Value:
    {
        const float f = static_cast<float>(r.value);
        s.dtype = CUDNN_DATA_FLOAT; // scalars travel as fp32 by value
        std::memcpy(s.value.data(), &f, sizeof f);
        return;
    }
    default: throw Unsupported("tensor " + r.label() + ": constant of this value type is not supported");
    }
}

// readTensors reads the tensor table (the SDK's TensorTable runs the checks every engine
// shares), padding every tensor to the model's rank.
void readTensors(const fbs::Graph& graph, ReadState& state)
{
    Model& m = state.model;
    // cuDNN: at most 8 dims. Ragged tensors are kept for SDPA's lowering (checkModel declines
    // any it did not take).
    const hipdnn_plugin_sdk::TensorTable<Unsupported> table(graph, {0, 8, std::nullopt, true});
    int maxRank = 0;
    for(const hipdnn_plugin_sdk::TensorRecord& r : table.all())
        maxRank = std::max(maxRank, r.rank());
    m.rank = std::max(state.minRank, maxRank);
    if(state.spatial && maxRank != state.minRank)
        throw Unsupported("convolution or pooling graph mixes tensor ranks " + std::to_string(maxRank) + " and "
                          + std::to_string(state.minRank));
    if(m.rank > 8)
        throw Unsupported("rank " + std::to_string(m.rank) + " exceeds cuDNN's 8");

    for(const hipdnn_plugin_sdk::TensorRecord& r : table.all())
    {
        TensorSpec s;
        s.uid = r.uid;
        if(!mapType(r.dtype, &s.dtype))
            throw Unsupported("tensor " + r.label() + ": data type " + fbs::EnumNameDataType(r.dtype)
                              + " is not supported");
        // Pad leading unit dims (numpy broadcasting), with a stride past the tensor's extent.
        int64_t extent = 1;
        for(int d = 0; d < r.rank(); ++d)
            extent = std::max(extent, r.dims[d] * std::max<int64_t>(r.strides[d], 1));
        const size_t pad = static_cast<size_t>(m.rank - r.rank());
        s.dims.assign(pad, 1);
        s.strides.assign(pad, extent);
        s.dims.insert(s.dims.end(), r.dims.begin(), r.dims.end());
        s.strides.insert(s.strides.end(), r.strides.begin(), r.strides.end());
        for(int64_t& st : s.strides)
            st = std::max<int64_t>(st, 1); // cuDNN rejects zero strides; broadcast dims are size 1
        const fbs::TensorAttributes& t = *graph.tensors()->Get(static_cast<flatbuffers::uoffset_t>(r.index));
        s.alignment = t.alignment();
        s.isVirtual = r.isVirtual;
        s.byValue = r.isPassByValue || r.isConstant; // TensorTable checked: one element, not virtual
        if(r.isConstant)
        {
            s.constant = true;
            scalarValue(t, r, s);
        }
        if(s.byValue)
            std::fill(s.strides.begin(), s.strides.end(), 1);
        // TensorTable refuses a ragged_offset_multiplier other than 1; cuDNN reads element offsets.
        s.raggedOffset = r.raggedOffsetUid.value_or(-1);
        m.tensors.push_back(std::move(s));
    }
}

// declineOuterBroadcast: in a rank-3 graph of pointwise ops only, an input of size 1 in the
// outermost dimension broadcast against a larger output is read by cuDNN 9.14 at its stride
// there (H200: [2,3,5] - [1,1,5] is right in the first slice and wrong past it; the middle
// dimension broadcasts right, and so does rank 4, as batchnorm inference's [1,C,1,1] over N),
// the fault the matmul check below names for B's batch.
void declineOuterBroadcast(const Model& m)
{
    if(m.rank != 3)
        return;
    for(const OpSpec& op : m.ops)
        if(op.kind != OpKind::Pointwise)
            return;
    for(const OpSpec& op : m.ops)
    {
        const TensorSpec* out = m.find(op.t[3]);
        for(int i = 0; out != nullptr && !out->dims.empty() && i < 3; ++i)
        {
            const TensorSpec* in = m.find(op.t[static_cast<size_t>(i)]);
            if(in != nullptr && !in->byValue && !in->dims.empty() && in->dims[0] == 1 && out->dims[0] > 1)
                throw Unsupported("pointwise input uid " + std::to_string(in->uid)
                                  + " broadcast over the outermost dimension is not run on cuDNN: 9.14 reads it "
                                    "at its stride there (H200)");
        }
    }
}

// checkModel declines what cuDNN runs wrong and what references unknown tensors, sets the
// numerical-note flags, and shifts gen_index axes by the rank padding.
void checkModel(const fbs::Graph& graph, Model& m)
{
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
    for(const OpSpec& mm : m.ops)
        for(const OpSpec& pw : m.ops)
            m.matmulGelu = m.matmulGelu
                           || (mm.kind == OpKind::Matmul && pw.kind == OpKind::Pointwise && pw.mode == CUDNN_POINTWISE_GELU_FWD
                               && pw.t[0] == mm.t[2]);
    declineOuterBroadcast(m);
    // Pointwise-only graphs keep their rank: rank-3 coalesced views built plans that failed at
    // execute or gave wrong results on the H200 (corpus run 2, commit 8b1048d withdrew them).

    // Ragged tensors: only where SDPA's lowering took them (its Q, K, V, O, stats and
    // gradients), with an offsets tensor that exists.
    for(const TensorSpec& t : m.tensors)
    {
        if(t.raggedOffset < 0)
            continue;
        if(!t.raggedTaken)
            throw Unsupported("tensor uid " + std::to_string(t.uid)
                              + ": a ragged tensor is translated only as SDPA's Q, K, V, O, stats, max, sum_exp, dO, dQ, dK "
                                "or dV");
        if(m.find(t.raggedOffset) == nullptr)
            throw Unsupported("tensor uid " + std::to_string(t.uid) + ": ragged offset tensor uid "
                              + std::to_string(t.raggedOffset) + " is not in the graph");
    }

    // Check every op references tensors that exist; shift gen_index axes by the padding.
    for(OpSpec& op : m.ops)
    {
        for(int64_t uid : op.extra)
            if(uid >= 0 && m.find(uid) == nullptr)
                throw Unsupported("node references unknown tensor uid " + std::to_string(uid));
        for(int64_t uid : op.t)
            if(uid >= 0 && m.find(uid) == nullptr)
                throw Unsupported("node references unknown tensor uid " + std::to_string(uid));
        if(op.kind == OpKind::Matmul && op.t[0] < kSyntheticUid && op.t[2] < kSyntheticUid) // not attention's (GQA/MQA)
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

}

std::string modelKey(const Model& m)
{
    KeyWriter k;
    k.append(m.rank);
    for(const TensorSpec& t : m.tensors)
    {
        k.append(t.uid);
        k.append(static_cast<int>(t.dtype));
        k.append(t.dims);
        k.append(t.strides);
        k.append(t.alignment);
        k.append(static_cast<char>(t.isVirtual * 1 + t.byValue * 2 + t.constant * 4));
        if(t.constant)
            k.append(t.value);
        k.append(t.deviceValues);
        k.append(t.wsOffset);
        k.append(t.raggedOffset);
    }
    for(const OpSpec& op : m.ops)
    {
        k.append(static_cast<int>(op.kind));
        k.append(static_cast<int>(op.compute));
        k.append(op.mode);
        k.append(op.phase);
        k.append(op.t);
        k.append(op.prePad);
        k.append(op.postPad);
        k.append(op.stride);
        k.append(op.dilation);
        k.append(op.window);
        for(float f : {op.reluLower, op.reluUpper, op.reluSlope, op.swishBeta, op.eluAlpha, op.softplusBeta})
            k.append(f);
        k.append(op.axis);
        k.append(op.keepProbability);
        k.append(op.extra);
        k.append(op.mOverride);
        k.append(op.nOverride);
        k.append(op.kOverride);
    }
    return std::move(k.s);
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

Model readModel(const fbs::Graph& graph, bool unifiedSdpa)
{
    Model m;
    m.unifiedSdpa = unifiedSdpa;
    if(graph.tensors() == nullptr || graph.nodes() == nullptr || graph.nodes()->size() == 0)
        throw Unsupported("graph has no tensors or no nodes");

    cudnnDataType_t graphCompute = CUDNN_DATA_FLOAT;
    if(graph.compute_data_type() != fbs::DataType::UNSET && !mapType(graph.compute_data_type(), &graphCompute))
        throw Unsupported("graph compute type " + std::string(fbs::EnumNameDataType(graph.compute_data_type()))
                          + " is not supported");

    ReadState state{m};
    readNodes(graph, graphCompute, state);
    readTensors(graph, state);
    if(state.resampleIn >= 0 && m.find(state.resampleIn) != nullptr && m.find(state.resampleIn)->dtype == CUDNN_DATA_BFLOAT16)
        throw Unsupported("bf16 pooling is not run on cuDNN: 9.14 returns wrong values for it (H200: max pooling off by "
                          "up to 2, average pooling NaN), while fp16 and fp32 are right");
    expandComposites(m);
    checkModel(graph, m);
    m.key = modelKey(m);
    return m;
}

// ---- building cuDNN descriptors --------------------------------------------------------------

const Desc& BuildContext::tensor(int64_t uid)
{
    for(auto& [u, d] : tensors_)
        if(u == uid)
            return *d;
    const TensorSpec* s = model_.find(uid);
    // A ragged tensor names its offsets tensor's descriptor, which must exist (finalized) first.
    const Desc* offsets = s->raggedOffset >= 0 ? &tensor(s->raggedOffset) : nullptr;
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
    if(offsets != nullptr)
        d->setDesc(CUDNN_ATTR_TENSOR_RAGGED_OFFSET_DESC, *offsets, what.c_str());
    d->finalize(what.c_str());
    tensors_.emplace_back(uid, d);
    graph_.keep.push_back(d);
    return *d;
}

std::shared_ptr<OpGraph> buildOpGraph(const Model& m, cudnnHandle_t handle)
{
    auto g = std::make_shared<OpGraph>();
    BuildContext ctx(m, *g);
    std::vector<cudnnBackendDescriptor_t> ops;
    for(const OpSpec& op : m.ops)
    {
        const OpBuilder build = findOpBuilder(op.kind);
        if(build == nullptr)
            throw Unsupported("internal: an SDPA node was not expanded");
        DescPtr node = build(op, ctx);
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
