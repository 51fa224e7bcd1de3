// The pieces of cuDNN's fused-attention pattern that the SDPA forward and backward lowerings
// (ops/Sdpa.cpp) share: the node's dropout, scale, band and sequence lengths read the same way,
// the masks emitted the same way. Internal to the cuDNN engine.
#pragma once

#include "Composite.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>

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



// headVector makes a per-head tensor of h values (sink tokens: [h], rank-padded to
// [1, 1, 1, h]) the [1, h, 1, 1] cuDNN broadcasts against [b, h, s_q, 1].
void headVector(Model& m, int64_t uid, int64_t h, const char* what);

// takeRagged accepts the ragged (packed, THD) layouts among an SDPA's tensors `uids`: each
// ragged one is marked taken and its offsets tensor made the [b + 1, 1, 1, 1] cuDNN reads.
// Returns whether any of them is ragged.
bool takeRagged(Model& m, std::initializer_list<int64_t> uids, int64_t b);

// Qkv is the attention geometry of Q [b, h_q, s_q, d], K [b, h_k, s_kv, d], V [b, h_v, s_kv, d_v].
struct Qkv
{
    int64_t b = 0, hq = 0, hk = 0, hv = 0, sq = 0, skv = 0, d = 0, dv = 0;
    cudnnDataType_t qType = CUDNN_DATA_FLOAT;
};

// transposeKv reads the geometry and turns K (and V when `vt`) into the transposed views cuDNN's
// matmuls take: K^T [b, h_k, d, s_kv], V^T [b, h_v, d_v, s_kv], strides swapped, same memory.
Qkv transposeKv(Model& m, int64_t qUid, int64_t kUid, int64_t vUid, bool vt);

// PagedKv is an SDPA forward's K and V when either lives in a paged cache (PagedCache.cpp):
// the geometry, with s_kv from max_seq_len_kv, an unpaged K or V, or the page tables, and the
// containers and page tables checked (a page table becomes the [b, 1, pages, 1] cuDNN reads).
struct PagedKv
{
    bool k = false, v = false; // which cache is paged
    Qkv x;
};
PagedKv pagedKvOf(Model& m, const fbs::SdpaAttributes& a);

// pagedKT / pagedV emit a paged-cache load of K^T [b, h_k, d, s_kv] / V [b, h_v, s_kv, d_v]
// into a virtual tensor, gathered from the node's container through its page table for the
// lengths seq_len_kv, and return that tensor's uid (cudnn-frontend's layouts for both).
int64_t pagedKT(Model& m, const fbs::SdpaAttributes& a, CompositeBuilder& g, const Qkv& x, int64_t seqKv);
int64_t pagedV(Model& m, const fbs::SdpaAttributes& a, CompositeBuilder& g, const Qkv& x, int64_t seqKv);

// Band is an SDPA node's masking in hipDNN's convention (docs/compatibility.md): keep key j of
// row i when j < seq_len_kv, i < seq_len_q, and j in [i + off - left, i + off + right] (a bound
// < 0 is open), off = s_kv - s_q on the BOTTOM_RIGHT diagonal. Forward and backward share it;
// bandOf also makes the sequence-length tensors the [b, 1, 1, 1] cuDNN broadcasts.
struct Band
{
    int64_t left = -1, right = -1, off = 0;
    int64_t seqQ = -1, seqKv = -1; // tensor uids
    bool bottomRight = false;
    int64_t sq = 0, skv = 0; // the extents, standing in for a missing sequence length
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
    refuse(a.alibi_mask() && (b.right != 0 || bottomRight),
           "ALiBi without a top-left causal mask (the only ALiBi cudnn-frontend builds)");
    b.off = bottomRight ? skv - sq : 0;
    b.bottomRight = bottomRight;
    b.sq = sq;
    b.skv = skv;
    for(int64_t uid : {b.seqQ, b.seqKv})
        if(uid >= 0)
            batchVector(m, uid, x.b);
    return b;
}

// alibi adds cudnn-frontend's ALiBi bias to the scores s (dims sDims, h query heads):
// slope_h * (col - row) from gen_index rows and columns, with the slopes a [1, h, 1, 1] device
// constant, as its attn::score_modifiers::alibi_mask builds it. Returns the new scores.
int64_t alibi(CompositeBuilder& g, int64_t s, const std::vector<int64_t>& sDims, int64_t heads);

// requireLengthsForRagged declines ragged tensors without both sequence lengths: cuDNN's packed
// layouts are masked by them (cudnn-frontend: ragged offsets only with the padding mask).
void requireLengthsForRagged(bool ragged, const Band& band);

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
    int64_t integer(int mode, int64_t a, int64_t b)
    {
        const int64_t t = g.add(CUDNN_DATA_INT32, sDims).uid;
        g.pointwise(mode, a, b, -1, t, CUDNN_DATA_INT32);
        return t;
    }
    // lengthOr is a sequence-length tensor, or the extent as an int32 constant when it is absent.
    int64_t lengthOr(int64_t uid, int64_t extent) { return uid >= 0 ? uid : g.constantInt(static_cast<int32_t>(extent)); }
    // perBatchBounds: the BOTTOM_RIGHT band with sequence lengths, whose diagonal moves per batch
    // (off_b = s_kv[b] - s_q[b]), in the form cudnn-frontend's diagonal band mask gives cuDNN:
    // keep row + s_kv - s_q (+ right) >= col, and col + (left + 1) - s_kv + s_q > row.
    int64_t perBatchBounds(int64_t s)
    {
        if(band.right >= 0)
        {
            indices(s);
            int64_t r = integer(CUDNN_POINTWISE_ADD, row, lengthOr(band.seqKv, band.skv));
            r = integer(CUDNN_POINTWISE_SUB, r, lengthOr(band.seqQ, band.sq));
            if(band.right != 0)
                r = integer(CUDNN_POINTWISE_ADD, r, g.constantInt(static_cast<int32_t>(band.right)));
            s = select(s, boolean(CUDNN_POINTWISE_CMP_GE, r, col));
        }
        if(band.left >= 0)
        {
            indices(s);
            int64_t c = integer(CUDNN_POINTWISE_ADD, col, g.constantInt(static_cast<int32_t>(band.left + 1)));
            c = integer(CUDNN_POINTWISE_SUB, c, lengthOr(band.seqKv, band.skv));
            c = integer(CUDNN_POINTWISE_ADD, c, lengthOr(band.seqQ, band.sq));
            s = select(s, boolean(CUDNN_POINTWISE_CMP_GT, c, row));
        }
        return s;
    }
    // bounds masks keys outside the diagonal band.
    int64_t bounds(int64_t s)
    {
        if(band.bottomRight && band.seqLens())
            return perBatchBounds(s);
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
