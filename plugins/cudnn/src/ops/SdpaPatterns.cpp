// The non-template pieces of SdpaPatterns.hpp.
#include "SdpaPatterns.hpp"

#include <hipdnn_plugin_sdk/helpers/Attention.hpp>

namespace hipdnngo::cudnn::sdpa
{

void refuse(bool cond, const char* what)
{
    if(cond)
        throw Unsupported(std::string("sdpa: ") + what + " is not translated to cuDNN by this engine yet");
}

int64_t alibi(CompositeBuilder& g, int64_t s, const std::vector<int64_t>& sDims, int64_t heads)
{
    const int64_t row = g.add(CUDNN_DATA_INT32, sDims).uid;
    g.pointwise(CUDNN_POINTWISE_GEN_INDEX, s, -1, -1, row, CUDNN_DATA_INT32).axis = 2;
    const int64_t col = g.add(CUDNN_DATA_INT32, sDims).uid;
    g.pointwise(CUDNN_POINTWISE_GEN_INDEX, s, -1, -1, col, CUDNN_DATA_INT32).axis = 3;
    const int64_t distance = g.add(CUDNN_DATA_INT32, sDims).uid;
    g.pointwise(CUDNN_POINTWISE_SUB, col, row, -1, distance, CUDNN_DATA_INT32);
    const int64_t slopes = g.deviceConstant({1, heads, 1, 1}, hipdnn_plugin_sdk::alibiSlopes(heads));
    const int64_t bias = g.add(CUDNN_DATA_FLOAT, sDims).uid;
    g.pointwise(CUDNN_POINTWISE_MUL, distance, slopes, -1, bias);
    const int64_t out = g.add(CUDNN_DATA_FLOAT, sDims).uid;
    g.pointwise(CUDNN_POINTWISE_ADD, s, bias, -1, out);
    return out;
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

// headVector makes a per-head tensor of h values (sink tokens: [h], rank-padded to
// [1, 1, 1, h]) the [1, h, 1, 1] cuDNN broadcasts against [b, h, s_q, 1].
void headVector(Model& m, int64_t uid, int64_t h, const char* what)
{
    TensorSpec* t = m.find(uid);
    if(t == nullptr)
        throw Unsupported(std::string("sdpa: unknown ") + what + " tensor");
    int64_t n = 1, stride = 1;
    for(size_t d = 0; d < t->dims.size(); ++d)
    {
        n *= t->dims[d];
        if(t->dims[d] == h)
            stride = t->strides[d];
    }
    if(n != h)
        throw Unsupported(std::string("sdpa: ") + what + " must hold one value per query head (" + std::to_string(h) + ")");
    t->dims = {1, h, 1, 1};
    t->strides = {h * stride, stride, 1, 1};
}

bool takeRagged(Model& m, std::initializer_list<int64_t> uids, int64_t b)
{
    bool any = false;
    for(int64_t uid : uids)
    {
        TensorSpec* t = uid >= 0 ? m.find(uid) : nullptr;
        if(t == nullptr || t->raggedOffset < 0)
            continue;
        any = true;
        t->raggedTaken = true;
        TensorSpec* off = m.find(t->raggedOffset);
        if(off == nullptr)
            throw Unsupported("sdpa: tensor uid " + std::to_string(uid) + " names ragged offset tensor uid "
                              + std::to_string(t->raggedOffset) + ", which is not in the graph");
        int64_t n = 1, stride = 1;
        for(size_t d = 0; d < off->dims.size(); ++d)
        {
            n *= off->dims[d];
            if(off->dims[d] == b + 1)
                stride = off->strides[d];
        }
        if(n != b + 1)
            throw Unsupported("sdpa: ragged offset tensor uid " + std::to_string(off->uid) + " must hold b + 1 = "
                              + std::to_string(b + 1) + " offsets");
        if(off->dtype != CUDNN_DATA_INT32 && off->dtype != CUDNN_DATA_INT64)
            throw Unsupported("sdpa: ragged offset tensor uid " + std::to_string(off->uid) + " must be int32 or int64");
        off->dims = {b + 1, 1, 1, 1};
        off->strides = {stride, 1, 1, 1};
    }
    return any;
}

void requireLengthsForRagged(bool ragged, const Band& band)
{
    if(ragged && (band.seqQ < 0 || band.seqKv < 0))
        throw Unsupported("sdpa: ragged (packed) tensors need seq_len_q and seq_len_kv: cuDNN masks each packed sequence "
                          "by its lengths");
}

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

// dropMask emits the Bernoulli draw (keep with probability 1 - p) into the node's rng_dump
// output when it has one, else into a virtual fp32 [b, h, s_q, s_kv] tensor.
int64_t dropMask(Model& m, CompositeBuilder& g, const Dropout& d, const std::vector<int64_t>& sDims)
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

} // namespace hipdnngo::cudnn::sdpa
