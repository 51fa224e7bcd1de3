// Scaled dot-product attention, forward and backward. cuDNN has no single SDPA operation in its
// backend API, so each node is lowered (expandComposites) into the pattern cuDNN's fused
// attention engines recognise, the pattern NVIDIA's cudnn-frontend emits for cuDNN 9 before the
// unified softmax/mask operations: S = Q.K^T; S *= scale; S += bias; padding and band masks as
// gen_index / compare / binary_select; softmax as max, sub, exp, sum, div (log + add for stats);
// O = P.V. Intermediates are virtual fp32 (indices int32, masks boolean). The Rng (dropout) and
// Reshape (transposed views) operations exist for this lowering and are built here too.
#include "Composite.hpp"

#include <algorithm>
#include <cmath>

namespace hipdnngo::cudnn
{

namespace
{

void refuse(bool cond, const char* what)
{
    if(cond)
        throw Unsupported(std::string("sdpa: ") + what + " is not translated to cuDNN by this engine yet");
}

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

// Softmax is the softmax's numerator exp(S - max) and its row sum, before the division.
struct Softmax
{
    int64_t ex, sum;
};

// softmaxWithStats emits max, sub, exp, sum over the scores s, and the statistics max + log(sum)
// into the node's stats output (or a virtual tensor).
Softmax softmaxWithStats(Model& m, const fbs::SdpaAttributes& a, CompositeBuilder& g, int64_t s,
                         const std::vector<int64_t>& sDims, const std::vector<int64_t>& rowDims)
{
    const int64_t mx = g.add(CUDNN_DATA_FLOAT, rowDims).uid;
    g.reduce(CUDNN_REDUCE_TENSOR_MAX, s, mx);
    const int64_t sub = g.add(CUDNN_DATA_FLOAT, sDims).uid;
    g.pointwise(CUDNN_POINTWISE_SUB, s, mx, -1, sub);
    const int64_t ex = g.add(CUDNN_DATA_FLOAT, sDims).uid;
    g.pointwise(CUDNN_POINTWISE_EXP, sub, -1, -1, ex);
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
    g.pointwise(CUDNN_POINTWISE_LOG, sum, -1, -1, lg);
    g.pointwise(CUDNN_POINTWISE_ADD, mx, lg, -1, stats);
    return {ex, sum};
}

// lowerSdpaFwdNode: S = Q.K^T; S *= scale; S += bias; padding and band masks; softmax as max, sub,
// exp, sum, div (log + add for stats); O = P.V.
void lowerSdpaFwdNode(Model& m, const fbs::SdpaAttributes& a, CompositeBuilder& g)
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
        g.pointwise(CUDNN_POINTWISE_MUL, s, factor, -1, t);
        s = t;
    }
    if(a.attn_mask_tensor_uid().has_value())
    {
        const int64_t t = g.add(CUDNN_DATA_FLOAT, sDims).uid;
        g.pointwise(CUDNN_POINTWISE_ADD, s, a.attn_mask_tensor_uid().value(), -1, t);
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
    const Softmax sm = softmaxWithStats(m, a, g, s, sDims, rowDims);
    const int64_t ex = sm.ex, sum = sm.sum;
    // cuDNN takes the second matmul's A (the probabilities) in the I/O type of Q.
    m.sdpaNarrowP = m.sdpaNarrowP || x.qType != CUDNN_DATA_FLOAT;
    int64_t p = g.add(drop.on || fp8.on ? CUDNN_DATA_FLOAT : x.qType, sDims).uid;
    g.pointwise(CUDNN_POINTWISE_DIV, ex, sum, -1, p);
    if(fp8.on)
    {
        // fp8: amax_s = max P, then P·scale_s in Q's fp8 type for P·V.
        if(fp8.amaxS >= 0)
            g.reduce(CUDNN_REDUCE_TENSOR_AMAX, p, fp8.amaxS);
        const int64_t t = g.add(x.qType, sDims).uid;
        g.pointwise(CUDNN_POINTWISE_MUL, p, fp8.scaleS, -1, t);
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
        g.pointwise(CUDNN_POINTWISE_MUL, p, first, -1, t);
        p = g.add(x.qType, sDims).uid;
        g.pointwise(CUDNN_POINTWISE_MUL, t, second, -1, p);
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
        g.pointwise(CUDNN_POINTWISE_MUL, acc, factor, -1, t);
        acc = t;
    }
    if(fp8.amaxO >= 0)
        g.reduce(CUDNN_REDUCE_TENSOR_AMAX, acc, fp8.amaxO);
    g.pointwise(CUDNN_POINTWISE_MUL, acc, fp8.scaleO, -1, oUid);
}

// sdpaBwdDq emits dQ = dS.K: K^T viewed back as K, an fp32 accumulator, then dQ's type.
void sdpaBwdDq(Model& m, const fbs::SdpaBackwardAttributes& a, CompositeBuilder& g, const Qkv& x, const Band& band,
               int64_t dS)
{
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
    g.pointwise(CUDNN_POINTWISE_IDENTITY, dQacc, -1, -1, a.dq_tensor_uid());
}

// lowerSdpaBwdNode emits the backward pattern of cuDNN's fused attention (what cudnn-frontend
// builds for cuDNN 9): Δ = Σ dO·O into a softmax-sum tensor; P = exp(scale·Q.K^T + bias - stats)
// with the masks; dV = P^T.dO; dS = P·(dO.V^T - Δ)·scale; dK = dS^T.Q; dQ = dS.K through an
// fp32 accumulator. Δ and the dQ accumulator are real memory (the engine's workspace); P^T and
// dS^T are reshape views in Q's type. GQA/MQA: full-head dK/dV, then summed per shared head.
// Dropout: the forward's mask (the same Philox draw, or the node's mask) and scale on P and dP,
// and Δ times the inverse scale.
void lowerSdpaBwdNode(Model& m, const fbs::SdpaBackwardAttributes& a, CompositeBuilder& g)
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
    g.pointwise(CUDNN_POINTWISE_MUL, a.do_tensor_uid(), a.o_tensor_uid(), -1, dOO);
    const int64_t delta = g.add(CUDNN_DATA_FLOAT, rowDims).uid;
    g.reduce(CUDNN_REDUCE_TENSOR_ADD, dOO, delta);
    const int64_t softmaxSum = g.addWorkspace(CUDNN_DATA_FLOAT, rowDims).uid;
    g.pointwise(CUDNN_POINTWISE_MUL, delta, drop.on ? drop.scaleInv : g.constant(1.0f), -1, softmaxSum);

    // P = exp(masked scaled scores - stats).
    int64_t s = g.add(CUDNN_DATA_FLOAT, sDims).uid;
    OpSpec& bmm1 = g.matmul(a.q_tensor_uid(), a.k_tensor_uid(), s);
    bmm1.mOverride = band.seqQ;
    bmm1.nOverride = band.seqKv;
    const int64_t scale = scaleOf(a, g, x.d);
    auto pointwiseNew = [&](int mode, int64_t in0, int64_t in1, cudnnDataType_t t = CUDNN_DATA_FLOAT,
                            const std::vector<int64_t>* dims = nullptr) {
        const int64_t out = g.add(t, dims ? *dims : sDims).uid;
        g.pointwise(mode, in0, in1, -1, out);
        return out;
    };
    s = pointwiseNew(CUDNN_POINTWISE_MUL, s, scale);
    if(a.attn_mask_tensor_uid().has_value())
        s = pointwiseNew(CUDNN_POINTWISE_ADD, s, a.attn_mask_tensor_uid().value());
    Masker pad{g, sDims, band};
    if(band.seqLens() || band.bounded())
        pad.negInf = g.constant(-std::numeric_limits<float>::infinity());
    s = pad.padding(s);
    s = pointwiseNew(CUDNN_POINTWISE_SUB, s, a.stats_tensor_uid());
    Masker window{g, sDims, band, -1, -1, pad.negInf};
    s = window.bounds(s);
    const int64_t p = pointwiseNew(CUDNN_POINTWISE_EXP, s, -1);

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
        pDrop = pointwiseNew(CUDNN_POINTWISE_MUL, pointwiseNew(CUDNN_POINTWISE_MUL, p, drop.mask), drop.scale);
    perHead(transposed(pDrop), a.do_tensor_uid(), a.dv_tensor_uid(), x.hv, x.dv);

    // dS = P·(dO.V^T - Δ)·scale.
    const int64_t dP = g.add(CUDNN_DATA_FLOAT, sDims).uid;
    OpSpec& bmm2 = g.matmul(a.do_tensor_uid(), a.v_tensor_uid(), dP);
    bmm2.mOverride = band.seqQ;
    bmm2.nOverride = band.seqKv;
    int64_t dS = drop.on ? pointwiseNew(CUDNN_POINTWISE_MUL, dP, drop.mask) : dP;
    dS = pointwiseNew(CUDNN_POINTWISE_SUB, dS, softmaxSum);
    dS = pointwiseNew(CUDNN_POINTWISE_MUL, dS, p);
    if(drop.on)
        dS = pointwiseNew(CUDNN_POINTWISE_MUL, dS, drop.scale);
    dS = pointwiseNew(CUDNN_POINTWISE_MUL, dS, scale);

    // dK = dS^T.Q.
    perHead(transposed(dS), a.q_tensor_uid(), a.dk_tensor_uid(), x.hk, x.d);

    sdpaBwdDq(m, a, g, x, band, dS);
}

} // namespace

void readSdpaFwd(const fbs::Node& node, OpSpec& op, ReadState& state)
{
    op.kind = OpKind::Composite;
    op.lower = [](Model& m, const OpSpec& o, CompositeBuilder& g) { lowerSdpaFwdNode(m, *o.sdpa, g); };
    op.sdpa = node.attributes_as_SdpaAttributes();
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
    state.minRank = std::max(state.minRank, 4);
    state.model.summary += "sdpa_fwd";
}

void readSdpaBwd(const fbs::Node& node, OpSpec& op, ReadState& state)
{
    op.kind = OpKind::Composite;
    op.lower = [](Model& m, const OpSpec& o, CompositeBuilder& g) { lowerSdpaBwdNode(m, *o.sdpaBwd, g); };
    op.sdpaBwd = node.attributes_as_SdpaBackwardAttributes();
    requireKnown(op.sdpaBwd->diagonal_alignment(), fbs::DiagonalAlignment::MAX, "sdpa_backward diagonal_alignment");
    state.minRank = std::max(state.minRank, 4);
    state.model.summary += "sdpa_bwd";
}

// buildRng: a Bernoulli mask (P(1) = keepProbability) from a Philox seed and offset;
// OpSpec t = seed offset y.
DescPtr buildRng(const OpSpec& op, BuildContext& ctx)
{
    auto rng = std::make_shared<Desc>(CUDNN_BACKEND_RNG_DESCRIPTOR);
    cudnnRngDistribution_t dist = CUDNN_RNG_DISTRIBUTION_BERNOULLI;
    rng->set(CUDNN_ATTR_RNG_DISTRIBUTION, CUDNN_TYPE_RNG_DISTRIBUTION, 1, &dist, "rng");
    rng->set(CUDNN_ATTR_RNG_BERNOULLI_DIST_PROBABILITY, CUDNN_TYPE_DOUBLE, 1, &op.keepProbability, "rng");
    rng->finalize("rng descriptor");
    ctx.keep(rng);
    auto node = std::make_shared<Desc>(CUDNN_BACKEND_OPERATION_RNG_DESCRIPTOR);
    node->setDesc(CUDNN_ATTR_OPERATION_RNG_YDESC, ctx.tensor(op.t[2]), "rng");
    node->setDesc(CUDNN_ATTR_OPERATION_RNG_DESC, *rng, "rng");
    node->setDesc(CUDNN_ATTR_OPERATION_RNG_SEED, ctx.tensor(op.t[0]), "rng");
    node->setDesc(CUDNN_ATTR_OPERATION_RNG_OFFSET_DESC, ctx.tensor(op.t[1]), "rng");
    node->finalize("rng operation");
    return node;
}

// buildReshape: a view, x and y share memory; OpSpec t = x y.
DescPtr buildReshape(const OpSpec& op, BuildContext& ctx)
{
    auto node = std::make_shared<Desc>(CUDNN_BACKEND_OPERATION_RESHAPE_DESCRIPTOR);
    node->setDesc(CUDNN_ATTR_OPERATION_RESHAPE_XDESC, ctx.tensor(op.t[0]), "reshape");
    node->setDesc(CUDNN_ATTR_OPERATION_RESHAPE_YDESC, ctx.tensor(op.t[1]), "reshape");
    node->finalize("reshape operation");
    return node;
}

} // namespace hipdnngo::cudnn
