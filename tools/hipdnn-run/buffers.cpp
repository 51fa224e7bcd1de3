#include "buffers.hpp"

#include "hdtool.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace hdrun
{

namespace
{

template <class I>
I saturate(double v)
{
    if(std::isnan(v))
    {
        return 0;
    }
    v = std::trunc(v);
    if(v <= static_cast<double>(std::numeric_limits<I>::min()))
    {
        return std::numeric_limits<I>::min();
    }
    if(v >= static_cast<double>(std::numeric_limits<I>::max()))
    {
        return std::numeric_limits<I>::max();
    }
    return static_cast<I>(v);
}

template <class T>
T loadAs(const void* base, int64_t offset)
{
    T v;
    std::memcpy(&v, static_cast<const char*>(base) + offset * static_cast<int64_t>(sizeof(T)), sizeof v);
    return v;
}

template <class T>
void storeAs(void* base, int64_t offset, T v)
{
    std::memcpy(static_cast<char*>(base) + offset * static_cast<int64_t>(sizeof(T)), &v, sizeof v);
}

std::vector<int64_t> denseOrder(const std::vector<int64_t>& dims)
{
    std::vector<int64_t> s(dims.size(), 1);
    for(size_t i = dims.size(); i-- > 1;)
    {
        s[i - 1] = s[i] * dims[i];
    }
    return s;
}

} // namespace

double loadElement(DType t, const void* base, int64_t offset)
{
    switch(t)
    {
    case DType::Float: return loadAs<float>(base, offset);
    case DType::Double: return loadAs<double>(base, offset);
    case DType::Half: return hipdnnHalfToFloat(loadAs<uint16_t>(base, offset));
    case DType::BFloat16: return hipdnnBfloat16ToFloat(loadAs<uint16_t>(base, offset));
    case DType::Uint8: return loadAs<uint8_t>(base, offset);
    case DType::Int8: return loadAs<int8_t>(base, offset);
    case DType::Int32: return loadAs<int32_t>(base, offset);
    case DType::Int64: return static_cast<double>(loadAs<int64_t>(base, offset));
    case DType::Fp8E4M3: return hd_fp8_to_double(loadAs<uint8_t>(base, offset), 0);
    case DType::Fp8E5M2: return hd_fp8_to_double(loadAs<uint8_t>(base, offset), 1);
    default: return std::numeric_limits<double>::quiet_NaN();
    }
}

void storeElement(DType t, void* base, int64_t offset, double v)
{
    switch(t)
    {
    case DType::Float: storeAs<float>(base, offset, static_cast<float>(v)); break;
    case DType::Double: storeAs<double>(base, offset, v); break;
    case DType::Half: storeAs<uint16_t>(base, offset, hipdnnDoubleToHalf(v)); break;
    case DType::BFloat16: storeAs<uint16_t>(base, offset, hipdnnDoubleToBfloat16(v)); break;
    case DType::Uint8: storeAs<uint8_t>(base, offset, saturate<uint8_t>(v)); break;
    case DType::Int8: storeAs<int8_t>(base, offset, saturate<int8_t>(v)); break;
    case DType::Int32: storeAs<int32_t>(base, offset, saturate<int32_t>(v)); break;
    case DType::Int64: storeAs<int64_t>(base, offset, saturate<int64_t>(v)); break;
    case DType::Fp8E4M3: storeAs<uint8_t>(base, offset, hd_double_to_fp8(v, 0)); break;
    case DType::Fp8E5M2: storeAs<uint8_t>(base, offset, hd_double_to_fp8(v, 1)); break;
    default: break;
    }
}

size_t tensorBytes(const Tensor& t)
{
    if(t.isVirtual || t.hasValue)
    {
        return 0;
    }
    int64_t n = t.passByValue ? 1 : t.span();
    return static_cast<size_t>(n) * static_cast<size_t>(t.elemSize);
}

namespace
{

void setRule(std::map<int64_t, FillRule>* rules, int64_t uid, FillRule::Kind kind, const std::string& why, double value = 0,
             int64_t limit = 0)
{
    if(uid < 0)
    {
        return;
    }
    // When several readers constrain one tensor the strictest rule wins: a specific value or
    // integer domain, then positive (which is also non-zero), then non-zero.
    auto rank = [](FillRule::Kind k) {
        return k == FillRule::Uniform ? 0 : k == FillRule::NonZero ? 1 : k == FillRule::Positive ? 2 : 3;
    };
    auto it = rules->find(uid);
    if(it != rules->end() && rank(it->second.kind) >= rank(kind))
    {
        return;
    }
    FillRule r;
    r.kind = kind;
    r.value = value;
    r.limit = limit;
    r.why = why;
    (*rules)[uid] = r;
}

} // namespace

std::map<int64_t, FillRule> fillRules(const Graph& g)
{
    std::map<int64_t, FillRule> rules;
    for(const Node& n : g.nodes)
    {
        const std::string& t = n.type;
        if(t == "PointwiseAttributes")
        {
            std::string op = n.str("operation");
            if(op == "log" || op == "sqrt" || op == "rsqrt")
                setRule(&rules, n.uid("in_0_tensor_uid"), FillRule::Positive, op + " operand");
            if(op == "reciprocal")
                setRule(&rules, n.uid("in_0_tensor_uid"), FillRule::NonZero, "reciprocal operand");
            if(op == "div")
                setRule(&rules, n.uid("in_1_tensor_uid"), FillRule::NonZero, "divisor");
        }
        else if(t == "BatchnormInferenceAttributes" || t == "BatchnormBackwardAttributes")
        {
            setRule(&rules, n.uid("inv_variance_tensor_uid"), FillRule::Positive, "inverse variance");
        }
        else if(t == "BatchnormInferenceAttributesVarianceExt")
        {
            setRule(&rules, n.uid("variance_tensor_uid"), FillRule::Positive, "variance");
            setRule(&rules, n.uid("epsilon_tensor_uid"), FillRule::Constant, "epsilon", 1e-5);
        }
        else if(t == "BatchnormAttributes")
        {
            setRule(&rules, n.uid("epsilon_tensor_uid"), FillRule::Constant, "epsilon", 1e-5);
            setRule(&rules, n.uid("momentum_tensor_uid"), FillRule::Constant, "momentum", 0.1);
            setRule(&rules, n.uid("prev_running_variance_tensor_uid"), FillRule::Positive, "running variance");
        }
        else if(t == "LayernormAttributes" || t == "RMSNormAttributes")
        {
            setRule(&rules, n.uid("epsilon_tensor_uid"), FillRule::Constant, "epsilon", 1e-5);
        }
        else if(t == "LayernormBackwardAttributes")
        {
            setRule(&rules, n.uid("epsilon_tensor_uid"), FillRule::Constant, "epsilon", 1e-5);
            setRule(&rules, n.uid("inv_variance_tensor_uid"), FillRule::Positive, "inverse variance");
        }
        else if(t == "RMSNormBackwardAttributes")
        {
            setRule(&rules, n.uid("inv_rms_tensor_uid"), FillRule::Positive, "inverse rms");
        }
        else if(t == "SdpaAttributes" || t == "SdpaBackwardAttributes")
        {
            const Tensor* q = g.tensor(n.uid("q_tensor_uid"));
            const Tensor* k = g.tensor(n.uid("k_tensor_uid"));
            bool paged = n.uid("page_table_k_tensor_uid") >= 0;
            int64_t headDim = (q && q->dims.size() == 4) ? q->dims[3] : 64;
            setRule(&rules, n.uid("scale_tensor_uid"), FillRule::Constant, "attention scale",
                    1.0 / std::sqrt(static_cast<double>(headDim)));
            if(q && q->dims.size() == 4)
                setRule(&rules, n.uid("seq_len_q_tensor_uid"), FillRule::SeqLen, "query sequence lengths", 0, q->dims[2]);
            // Skv, the limit of seq_len_kv: with paged caches the rule of reference_sdpa.cpp
            // (max_seq_len_kv, else the unpaged tensor's S, else the smaller pages * block).
            const Tensor* v = g.tensor(n.uid("v_tensor_uid"));
            int64_t kvLimit = (k && k->dims.size() == 4) ? k->dims[2] : 1;
            const bool pagedV = n.uid("page_table_v_tensor_uid") >= 0;
            if(paged || pagedV)
            {
                // pagesTimesBlock: the keys a paged cache covers, or its S when it is dense.
                auto pagesTimesBlock = [&](const char* tableKey, const Tensor* cache) {
                    const int64_t s = (cache && cache->dims.size() == 4) ? cache->dims[2] : 1;
                    const Tensor* pt = g.tensor(n.uid(tableKey));
                    const int64_t pages = (pt && !pt->dims.empty() && pt->dims[0] > 0) ? pt->numel() / pt->dims[0] : 1;
                    return n.uid(tableKey) >= 0 ? pages * s : s;
                };
                kvLimit = std::min(pagesTimesBlock("page_table_k_tensor_uid", k), pagesTimesBlock("page_table_v_tensor_uid", v));
                if(const hdjson::Value* m = n.field("max_seq_len_kv"))
                {
                    if(m->asInt() > 0 && m->asInt() < kvLimit)
                        kvLimit = m->asInt();
                }
                int64_t blocks = (k && !k->dims.empty()) ? k->dims[0] : 1;
                setRule(&rules, n.uid("page_table_k_tensor_uid"), FillRule::PageTable, "page table", 0, blocks);
                int64_t vblocks = (v && !v->dims.empty()) ? v->dims[0] : 1;
                setRule(&rules, n.uid("page_table_v_tensor_uid"), FillRule::PageTable, "page table", 0, vblocks);
            }
            setRule(&rules, n.uid("seq_len_kv_tensor_uid"), FillRule::SeqLen, "key/value sequence lengths", 0, kvLimit);
            // Ragged tensors: their offsets pack the batches back to back by the lengths
            // (cuDNN's THD cumulative sums). The first tensor to name an offsets tensor decides.
            static const char* kQSide[] = {"q_tensor_uid",  "o_tensor_uid",  "stats_tensor_uid",
                                           "do_tensor_uid", "dq_tensor_uid"};
            static const char* kKvSide[] = {"k_tensor_uid", "v_tensor_uid", "dk_tensor_uid", "dv_tensor_uid"};
            auto ragged = [&](const char* key, const char* lengthsKey) {
                const Tensor* rt = g.tensor(n.uid(key));
                if(rt == nullptr || rt->raggedUid < 0 || rules.count(rt->raggedUid))
                    return;
                setRule(&rules, rt->raggedUid, FillRule::RaggedOffset, std::string("ragged offsets of ") + key);
                rules[rt->raggedUid].raggedOf = rt->uid;
                rules[rt->raggedUid].lengthsOf = n.uid(lengthsKey);
            };
            for(const char* key : kQSide)
                ragged(key, "seq_len_q_tensor_uid");
            for(const char* key : kKvSide)
                ragged(key, "seq_len_kv_tensor_uid");
            setRule(&rules, n.uid("seed_tensor_uid"), FillRule::Constant, "dropout seed", 1234);
            setRule(&rules, n.uid("offset_tensor_uid"), FillRule::Constant, "dropout offset", 0);
            static const char* kOnes[] = {
                "dropout_scale_tensor_uid", "dropout_scale_inv_tensor_uid", "descale_q_tensor_uid", "descale_k_tensor_uid",
                "descale_v_tensor_uid",     "descale_s_tensor_uid",         "scale_s_tensor_uid",   "scale_o_tensor_uid"};
            for(const char* key : kOnes)
                setRule(&rules, n.uid(key), FillRule::Constant, "scale factor", 1.0);
        }
        else if(t == "ResampleBwdAttributes")
        {
            // An index must name a position inside its output's window, as a forward pass
            // would have produced it.
            const Tensor* dx = g.tensor(n.uid("dx_tensor_uid"));
            setRule(&rules, n.uid("index_tensor_uid"), FillRule::PoolIndex, "pooling index");
            auto it = rules.find(n.uid("index_tensor_uid"));
            if(it != rules.end() && it->second.kind == FillRule::PoolIndex && dx && dx->dims.size() >= 3)
            {
                it->second.in.assign(dx->dims.begin() + 2, dx->dims.end());
                it->second.window = n.ints("window");
                it->second.stride = n.ints("stride");
                it->second.pre = n.ints("pre_padding");
            }
        }
    }
    return rules;
}

Buffers::~Buffers()
{
    for(auto& b : list_)
    {
        std::free(b.data);
    }
    std::free(workspace_);
}

namespace
{

void* alignedAlloc(size_t bytes)
{
    size_t rounded = (bytes + 63) / 64 * 64;
    return std::aligned_alloc(64, rounded == 0 ? 64 : rounded);
}

} // namespace

bool Buffers::allocate(const Graph& g, std::string* error)
{
    for(const Tensor& t : g.tensors)
    {
        if(t.isVirtual || t.hasValue)
        {
            continue;
        }
        if(t.elemSize <= 0)
        {
            *error = "tensor uid " + std::to_string(t.uid) + " has type " + t.dtypeText + ", which hipdnn-run cannot lay out";
            return false;
        }
        HostBuffer b;
        b.tensor = &t;
        b.bytes = tensorBytes(t);
        b.output = g.isOutput(t.uid);
        b.data = alignedAlloc(b.bytes);
        if(b.data == nullptr)
        {
            *error = "out of memory allocating " + std::to_string(b.bytes) + " bytes for tensor uid " + std::to_string(t.uid);
            return false;
        }
        std::memset(b.data, 0, (b.bytes + 63) / 64 * 64);
        list_.push_back(b);
    }
    return true;
}

bool Buffers::allocateWorkspace(int64_t bytes, std::string* error)
{
    if(bytes <= 0)
    {
        return true;
    }
    workspace_ = alignedAlloc(static_cast<size_t>(bytes));
    workspaceBytes_ = static_cast<size_t>(bytes);
    if(workspace_ == nullptr)
    {
        *error = "out of memory allocating a workspace of " + std::to_string(bytes) + " bytes";
        return false;
    }
    return true;
}

namespace
{

// poolIndex: for the element at row-major position lin of an index tensor [N, C, out...], a
// random in-range input position of that output's window, flat within the input plane; -1 when
// the window holds no input position or the geometry does not fit the tensor.
int64_t poolIndex(const FillRule& r, const std::vector<int64_t>& dims, int64_t lin, hd_rng* rng)
{
    const size_t nsp = r.in.size();
    if(dims.size() != nsp + 2 || r.window.size() != nsp || r.stride.size() != nsp || r.pre.size() != nsp)
    {
        return -1;
    }
    std::vector<int64_t> o(nsp);
    for(size_t d = nsp; d-- > 0;)
    {
        o[d] = lin % dims[2 + d];
        lin /= dims[2 + d];
    }
    int64_t flat = 0;
    for(size_t d = 0; d < nsp; ++d)
    {
        const int64_t start = o[d] * r.stride[d] - r.pre[d];
        const int64_t lo = std::max<int64_t>(start, 0), hi = std::min<int64_t>(start + r.window[d], r.in[d]) - 1;
        if(lo > hi)
        {
            return -1;
        }
        flat = flat * r.in[d] + hd_rng_int(rng, lo, hi);
    }
    return flat;
}

} // namespace

void Buffers::fill(const Graph& g, const std::map<int64_t, FillRule>& rules, uint64_t seed)
{
    for(auto& b : list_)
    {
        const Tensor& t = *b.tensor;
        if(b.output)
        {
            std::memset(b.data, 0xFF, b.bytes);
            continue;
        }
        if(t.dtype == DType::Other)
        {
            continue; // left zero: neither filled nor checked
        }
        FillRule rule;
        auto it = rules.find(t.uid);
        if(it != rules.end())
        {
            rule = it->second;
        }
        else if(t.passByValue)
        {
            rule.kind = FillRule::Positive;
        }
        // One stream per tensor (seed, uid), so adding a tensor does not shift the others.
        hd_rng rng;
        hd_rng_seed(&rng, seed * 0x100000001B3ull + static_cast<uint64_t>(t.uid));
        bool isInt = dtypeIsInt(t.dtype);
        std::vector<int64_t> dims = t.passByValue ? std::vector<int64_t>{} : t.dims;
        std::vector<int64_t> strides = t.passByValue ? std::vector<int64_t>{} : t.strides;
        forEachOffsets<1>(dims, {&strides}, [&](int64_t lin, const int64_t* off) {
            double v = 0;
            switch(rule.kind)
            {
            case FillRule::Uniform:
                v = isInt ? static_cast<double>(hd_rng_int(&rng, 0, 3)) : hd_rng_uniform(&rng, -1.0, 1.0);
                break;
            case FillRule::Positive:
                v = isInt ? static_cast<double>(hd_rng_int(&rng, 1, 3)) : hd_rng_uniform(&rng, 0.25, 1.0);
                break;
            case FillRule::NonZero:
            {
                double m = isInt ? static_cast<double>(hd_rng_int(&rng, 1, 3)) : hd_rng_uniform(&rng, 0.5, 1.0);
                v = (hd_rng_next(&rng) & 1u) ? m : -m;
                break;
            }
            case FillRule::Constant: v = rule.value; break;
            case FillRule::SeqLen: v = static_cast<double>(hd_rng_int(&rng, 1, rule.limit > 0 ? rule.limit : 1)); break;
            // A stride coprime with most block counts scatters the pages over the container.
            case FillRule::PageTable: v = static_cast<double>(rule.limit > 0 ? (lin * 5 + 3) % rule.limit : 0); break;
            case FillRule::RaggedOffset: v = 0; break; // set below, once the lengths are filled
            case FillRule::Zero: v = 0; break;
            case FillRule::PoolIndex: v = static_cast<double>(poolIndex(rule, dims, lin, &rng)); break;
            }
            storeElement(t.dtype, b.data, off[0], v);
        });
    }
    // Ragged offsets: offsets[0] = 0, offsets[b+1] = offsets[b] + the span of batch b's
    // lengths[b] rows (every dimension but the batch at full extent, S = dims[2] at lengths[b]).
    for(auto& b : list_)
    {
        auto it = rules.find(b.tensor->uid);
        if(b.output || it == rules.end() || it->second.kind != FillRule::RaggedOffset)
            continue;
        const Tensor* rt = g.tensor(it->second.raggedOf);
        const HostBuffer* lens = it->second.lengthsOf >= 0 ? find(it->second.lengthsOf) : nullptr;
        if(rt == nullptr || rt->dims.size() < 3)
            continue;
        const std::vector<double> lengths = lens ? dense(*lens->tensor) : std::vector<double>();
        std::vector<double> offsets(static_cast<size_t>(b.tensor->numel()), 0.0);
        double at = 0;
        for(size_t k = 0; k < offsets.size(); ++k)
        {
            offsets[k] = at;
            const int64_t rows = static_cast<int64_t>(k < lengths.size() ? lengths[k] : rt->dims[2]);
            int64_t span = rows > 0 ? 1 + (rows - 1) * rt->strides[2] : 0;
            for(size_t d = 1; d < rt->dims.size() && rows > 0; ++d)
                span += d == 2 ? 0 : (rt->dims[d] - 1) * rt->strides[d];
            at += static_cast<double>(span);
        }
        setDense(*b.tensor, offsets);
    }
}

const HostBuffer* Buffers::find(int64_t uid) const
{
    for(const auto& b : list_)
    {
        if(b.tensor->uid == uid)
        {
            return &b;
        }
    }
    return nullptr;
}

size_t Buffers::totalBytes() const
{
    size_t n = workspaceBytes_;
    for(const auto& b : list_)
    {
        n += b.bytes;
    }
    return n;
}

void Buffers::setDense(const Tensor& t, const std::vector<double>& v)
{
    const HostBuffer* b = find(t.uid);
    if(b == nullptr || static_cast<int64_t>(v.size()) < std::max<int64_t>(t.numel(), 1))
    {
        return;
    }
    if(t.passByValue)
    {
        storeElement(t.dtype, b->data, 0, v[0]);
        return;
    }
    forEachElement(t, [&](int64_t lin, int64_t off) {
        if(off >= 0)
        {
            storeElement(t.dtype, b->data, off, v[static_cast<size_t>(lin)]);
        }
    });
}

// raggedOffsets returns element (b) offsets of a ragged tensor's batches: its offsets tensor's
// first B values; empty when the tensor is not ragged or the offsets are not readable.
std::vector<int64_t> Buffers::raggedOffsets(const Tensor& t) const
{
    std::vector<int64_t> out;
    const HostBuffer* ob = t.raggedUid >= 0 ? find(t.raggedUid) : nullptr;
    if(ob == nullptr || t.dims.empty() || ob->tensor->numel() < t.dims[0])
    {
        return out;
    }
    const Tensor& o = *ob->tensor;
    forEachOffsets<1>(o.dims, {&o.strides}, [&](int64_t lin, const int64_t* off) {
        if(lin < t.dims[0])
        {
            out.push_back(static_cast<int64_t>(loadElement(o.dtype, ob->data, off[0])));
        }
    });
    return out;
}

// forEachElement calls f(lin, offset) for each logical element of t; a ragged tensor places
// batch b at its offset (elements outside the buffer's span get offset -1).
template <class F>
void Buffers::forEachElement(const Tensor& t, F&& f) const
{
    const std::vector<int64_t> base = raggedOffsets(t);
    if(!t.ragged || base.empty())
    {
        forEachOffsets<1>(t.dims, {&t.strides}, [&](int64_t lin, const int64_t* off) { f(lin, off[0]); });
        return;
    }
    const int64_t perBatch = t.numel() / t.dims[0], span = t.span();
    std::vector<int64_t> inner(t.dims.begin() + 1, t.dims.end()), innerStrides(t.strides.begin() + 1, t.strides.end());
    for(int64_t b = 0; b < t.dims[0]; ++b)
    {
        forEachOffsets<1>(inner, {&innerStrides}, [&](int64_t lin, const int64_t* off) {
            const int64_t at = base[static_cast<size_t>(b)] + off[0];
            f(b * perBatch + lin, at >= 0 && at < span ? at : -1);
        });
    }
}

std::vector<double> Buffers::dense(const Tensor& t) const
{
    std::vector<double> out;
    const HostBuffer* b = find(t.uid);
    if(b == nullptr)
    {
        return out;
    }
    if(t.passByValue)
    {
        out.assign(static_cast<size_t>(t.numel() > 0 ? t.numel() : 1), loadElement(t.dtype, b->data, 0));
        return out;
    }
    out.resize(static_cast<size_t>(t.numel() > 0 ? t.numel() : 0));
    if(t.dtype == DType::Float && t.strides == denseOrder(t.dims) && !t.ragged)
    {
        const float* p = static_cast<const float*>(b->data);
        for(size_t i = 0; i < out.size(); ++i)
        {
            out[i] = p[i];
        }
        return out;
    }
    forEachElement(t, [&](int64_t lin, int64_t off) {
        out[static_cast<size_t>(lin)] = off >= 0 ? loadElement(t.dtype, b->data, off) : std::numeric_limits<double>::quiet_NaN();
    });
    return out;
}

int64_t Buffers::nonFinite(const Tensor& t, const std::vector<int64_t>* rows) const
{
    const HostBuffer* b = find(t.uid);
    if(b == nullptr || t.passByValue)
    {
        return 0;
    }
    const bool byRow = rows != nullptr && t.dims.size() == 4 && static_cast<int64_t>(rows->size()) >= t.dims[0];
    const int64_t perBatch = byRow && t.dims[0] > 0 ? t.numel() / t.dims[0] : 1;
    int64_t n = 0;
    forEachElement(t, [&](int64_t lin, int64_t off) {
        if(off < 0)
        {
            return;
        }
        if(byRow && (lin / t.dims[3]) % t.dims[2] >= (*rows)[static_cast<size_t>(lin / perBatch)])
        {
            return;
        }
        n += std::isfinite(loadElement(t.dtype, b->data, off)) ? 0 : 1;
    });
    return n;
}

} // namespace hdrun
