// The pieces of cuDNN's fused-attention pattern that the SDPA forward and backward lowerings
// (ops/Sdpa.cpp) share: the node's dropout, scale, band and sequence lengths read the same way,
// the masks emitted the same way. Internal to the cuDNN engine.
#pragma once

#include "Composite.hpp"

#include <algorithm>
#include <cmath>

namespace hipdnngo::cudnn::sdpa
{

// refuse declines an SDPA feature the lowering does not translate, naming it.
void refuse(bool cond, const char* what);

// rowVector makes a per-row tensor [b, h, s_q] (rank-padded to [1, b, h, s_q]) the
// [b, h, s_q, 1] cuDNN's pattern uses; a [b, h, s_q, 1] tensor is kept.
void rowVector(Model& m, int64_t uid, const std::vector<int64_t>& rowDims, const char* what);

// batchVector makes a per-batch tensor of b values (sequence lengths: [b], rank-padded to
// [1, 1, 1, b]) the [b, 1, 1, 1] cuDNN broadcasts against [b, h, s_q, s_kv].
void batchVector(Model& m, int64_t uid, int64_t b);

// scaleOf is the node's softmax scale as a tensor uid: attn_scale_value, else the scale tensor,
// else hipDNN's default 1/sqrt(d) (as the reference engine; both given is ambiguous there too).
template <typename A>
int64_t scaleOf(const A& a, CompositeBuilder& g, int64_t dHead)
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

// dropMask emits the Bernoulli draw (keep with probability 1 - p) into the node's rng_dump
// output when it has one, else into a virtual fp32 [b, h, s_q, s_kv] tensor.
int64_t dropMask(Model& m, CompositeBuilder& g, const Dropout& d, const std::vector<int64_t>& sDims);



// Qkv is the attention geometry of Q [b, h_q, s_q, d], K [b, h_k, s_kv, d], V [b, h_v, s_kv, d_v].
struct Qkv
{
    int64_t b = 0, hq = 0, hk = 0, hv = 0, sq = 0, skv = 0, d = 0, dv = 0;
    cudnnDataType_t qType = CUDNN_DATA_FLOAT;
};

// transposeKv reads the geometry and turns K (and V when `vt`) into the transposed views cuDNN's
// matmuls take: K^T [b, h_k, d, s_kv], V^T [b, h_v, d_v, s_kv], strides swapped, same memory.
Qkv transposeKv(Model& m, int64_t qUid, int64_t kUid, int64_t vUid, bool vt);


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
    CompositeBuilder& g;
    std::vector<int64_t> sDims;
    const Band& band;
    int64_t row = -1, col = -1, negInf = -1;

    void indices(int64_t s)
    {
        if(row >= 0)
            return;
        row = g.add(CUDNN_DATA_INT32, sDims).uid;
        g.pointwise(CUDNN_POINTWISE_GEN_INDEX, s, -1, -1, row).axis = 2;
        col = g.add(CUDNN_DATA_INT32, sDims).uid;
        g.pointwise(CUDNN_POINTWISE_GEN_INDEX, s, -1, -1, col).axis = 3;
    }
    int64_t select(int64_t s, int64_t keep)
    {
        const int64_t t = g.add(CUDNN_DATA_FLOAT, sDims).uid;
        g.pointwise(CUDNN_POINTWISE_BINARY_SELECT, s, negInf, keep, t);
        return t;
    }
    int64_t boolean(int mode, int64_t a, int64_t b)
    {
        const int64_t t = g.add(CUDNN_DATA_BOOLEAN, sDims).uid;
        g.pointwise(mode, a, b, -1, t, CUDNN_DATA_BOOLEAN);
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
                g.pointwise(CUDNN_POINTWISE_ADD, row, g.constantInt(static_cast<int32_t>(band.off + band.right)), -1, r,
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
                g.pointwise(CUDNN_POINTWISE_ADD, col, g.constantInt(static_cast<int32_t>(band.left - band.off)), -1, c,
                     CUDNN_DATA_INT32);
            }
            s = select(s, boolean(CUDNN_POINTWISE_CMP_GE, c, row));
        }
        return s;
    }
};

} // namespace hipdnngo::cudnn::sdpa
