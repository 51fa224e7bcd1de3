// Scaled dot-product attention, forward and backward. cuDNN has no single SDPA operation in its
// backend API, so each node is lowered (expandComposites) into the pattern cuDNN's fused
// attention engines recognise, the pattern NVIDIA's cudnn-frontend emits for cuDNN 9 before the
// unified softmax/mask operations: S = Q.K^T; S *= scale; S += bias (+ ALiBi); padding and band
// masks as gen_index / compare / binary_select; softmax as max, sub, exp, sum, div (log + add for
// stats); O = P.V. Intermediates are virtual fp32 (indices int32, masks boolean). The Rng
// (dropout) and Reshape (transposed views) operations exist for this lowering and are built here
// too.
#include "SdpaPatterns.hpp"

#include <algorithm>
#include <cmath>

namespace hipdnngo::cudnn
{

namespace
{

using namespace sdpa;

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

// Softmax is the softmax's numerator exp(S - max) and its row sum, before the division.
struct Softmax
{
    int64_t ex, sum;
};

// rowOutput is the node's fp32 per-row output `uid` ([b, h, s_q, 1]), or a new virtual tensor.
int64_t rowOutput(Model& m, CompositeBuilder& g, const flatbuffers::Optional<int64_t>& uid,
                  const std::vector<int64_t>& rowDims, const char* what)
{
    if(!uid.has_value())
        return g.add(CUDNN_DATA_FLOAT, rowDims).uid;
    rowVector(m, uid.value(), rowDims, what);
    if(m.find(uid.value())->dtype != CUDNN_DATA_FLOAT)
        throw Unsupported(std::string("sdpa: ") + what + " must be fp32 (cuDNN writes it as fp32)");
    return uid.value();
}

// softmaxWithStats emits max, sub, exp, sum over the scores s, and either the statistics
// max + log(sum) into the node's stats output (or a virtual tensor), or the max and sum
// themselves into its max and sum_exp outputs: cudnn-frontend's two forms before cuDNN 9.21.
// Sink tokens ([1, h, 1, 1], one logit per head that joins every row's softmax without a value)
// as cudnn-frontend's softmax adds them for cuDNN 9.13+: max = max(row max, sink),
// sum = row sum + exp(sink - max).
Softmax softmaxWithStats(Model& m, const fbs::SdpaAttributes& a, CompositeBuilder& g, int64_t s,
                         const std::vector<int64_t>& sDims, const std::vector<int64_t>& rowDims, int64_t sink)
{
    const bool split = a.max_tensor_uid().has_value() || a.sum_exp_tensor_uid().has_value();
    refuse(a.max_tensor_uid().has_value() != a.sum_exp_tensor_uid().has_value(),
           "a max output without sum_exp, or sum_exp without max (cuDNN's softmax writes both or neither)");
    refuse(split && a.stats_tensor_uid().has_value(),
           "stats together with max and sum_exp (cuDNN before 9.21 writes one or the other)");
    const int64_t maxOut = split ? rowOutput(m, g, a.max_tensor_uid(), rowDims, "max") : -1;
    const int64_t sumOut = split ? rowOutput(m, g, a.sum_exp_tensor_uid(), rowDims, "sum_exp") : -1;
    int64_t mx = sink < 0 && split ? maxOut : g.add(CUDNN_DATA_FLOAT, rowDims).uid;
    g.reduce(CUDNN_REDUCE_TENSOR_MAX, s, mx);
    if(sink >= 0)
    {
        const int64_t withSink = split ? maxOut : g.add(CUDNN_DATA_FLOAT, rowDims).uid;
        g.pointwise(CUDNN_POINTWISE_MAX, mx, sink, -1, withSink);
        mx = withSink;
    }
    const int64_t sub = g.add(CUDNN_DATA_FLOAT, sDims).uid;
    g.pointwise(CUDNN_POINTWISE_SUB, s, mx, -1, sub);
    const int64_t ex = g.add(CUDNN_DATA_FLOAT, sDims).uid;
    g.pointwise(CUDNN_POINTWISE_EXP, sub, -1, -1, ex);
    int64_t sum = sink < 0 && split ? sumOut : g.add(CUDNN_DATA_FLOAT, rowDims).uid;
    if(sink >= 0)
    {
        const int64_t sinkSub = g.add(CUDNN_DATA_FLOAT, rowDims).uid;
        g.pointwise(CUDNN_POINTWISE_SUB, sink, mx, -1, sinkSub);
        const int64_t sinkExp = g.add(CUDNN_DATA_FLOAT, rowDims).uid;
        g.pointwise(CUDNN_POINTWISE_EXP, sinkSub, -1, -1, sinkExp);
        g.reduce(CUDNN_REDUCE_TENSOR_ADD, ex, sum);
        const int64_t total = split ? sumOut : g.add(CUDNN_DATA_FLOAT, rowDims).uid;
        g.pointwise(CUDNN_POINTWISE_ADD, sum, sinkExp, -1, total);
        sum = total;
    }
    else
        g.reduce(CUDNN_REDUCE_TENSOR_ADD, ex, sum);
    if(split)
        return {ex, sum};
    // Stats (max + log(sum)) are part of the pattern even when the graph does not ask for
    // them: without the log/add pair cuDNN 9.14 tags no fused-attention mode ("The mode for
    // fused attention was not found"; H200 probe, also what cudnn-frontend emits). Unasked,
    // they go to a virtual tensor.
    const int64_t stats = rowOutput(m, g, a.stats_tensor_uid(), rowDims, "stats");
    const int64_t lg = g.add(CUDNN_DATA_FLOAT, rowDims).uid;
    g.pointwise(CUDNN_POINTWISE_LOG, sum, -1, -1, lg);
    g.pointwise(CUDNN_POINTWISE_ADD, mx, lg, -1, stats);
    return {ex, sum};
}

// unifiedMiss is what keeps an SDPA forward node from cuDNN's single SDPA operation as cuDNN
// 9.13.1 to 9.20 take it (Q, K, V, O, optional stats, the scale; fp16 / bf16, fp32 compute), the
// set cudnn-frontend's AUTO checks before it picks that operation; "" when the node fits.
std::string unifiedMiss(const Model& m, const fbs::SdpaAttributes& a, cudnnDataType_t compute)
{
    struct Feature
    {
        bool on;
        const char* name;
    };
    const Feature features[] = {
        {a.attn_mask_tensor_uid().has_value(), "a bias"},
        {a.alibi_mask(), "an ALiBi mask"},
        {a.causal_mask() || a.causal_mask_bottom_right() || a.left_bound().has_value() || a.right_bound().has_value()
             || a.diagonal_alignment() != fbs::DiagonalAlignment::TOP_LEFT,
         "a causal or band mask"},
        {a.padding_mask() || a.seq_len_q_tensor_uid().has_value() || a.seq_len_kv_tensor_uid().has_value(),
         "sequence lengths"},
        {a.page_table_k_tensor_uid().has_value() || a.page_table_v_tensor_uid().has_value(), "a paged KV cache"},
        {a.dropout_probability().has_value() || a.seed_tensor_uid().has_value() || a.offset_tensor_uid().has_value()
             || a.dropout_mask_tensor_uid().has_value() || a.dropout_scale_tensor_uid().has_value()
             || a.rng_dump_tensor_uid().has_value(),
         "dropout"},
        {a.block_mask_tensor_uid().has_value(), "a block mask"},
        {a.sink_token_tensor_uid().has_value(), "sink tokens"},
        {a.max_tensor_uid().has_value() || a.sum_exp_tensor_uid().has_value(), "max / sum_exp outputs"},
        {a.descale_q_tensor_uid().has_value() || a.descale_k_tensor_uid().has_value() || a.descale_v_tensor_uid().has_value()
             || a.descale_s_tensor_uid().has_value() || a.scale_s_tensor_uid().has_value() || a.scale_o_tensor_uid().has_value()
             || a.amax_s_tensor_uid().has_value() || a.amax_o_tensor_uid().has_value(),
         "fp8 scaling"},
        {compute != CUDNN_DATA_FLOAT, "a compute type other than fp32"},
    };
    for(const Feature& f : features)
        if(f.on)
            return f.name;
    const TensorSpec* q = m.find(a.q_tensor_uid());
    for(int64_t uid : {a.q_tensor_uid(), a.k_tensor_uid(), a.v_tensor_uid(), a.o_tensor_uid()})
    {
        const TensorSpec* t = m.find(uid);
        if(t == nullptr || t->dims.size() != 4)
            return "tensors that are not rank 4";
        if(t->dtype != q->dtype || (t->dtype != CUDNN_DATA_HALF && t->dtype != CUDNN_DATA_BFLOAT16))
            return "Q, K, V and O not all fp16 or all bf16";
        if(t->raggedOffset >= 0)
            return "ragged tensors";
    }
    if(a.stats_tensor_uid().has_value())
    {
        const TensorSpec* st = m.find(a.stats_tensor_uid().value());
        if(st == nullptr || st->dtype != CUDNN_DATA_FLOAT || st->raggedOffset >= 0)
            return "stats that are not fp32";
    }
    return "";
}

// lowerUnified emits the node as cuDNN's single SDPA forward operation (OpKind::SdpaFwd).
void lowerUnified(Model& m, const fbs::SdpaAttributes& a, CompositeBuilder& g)
{
    const TensorSpec* q = m.find(a.q_tensor_uid());
    const std::vector<int64_t> rowDims{q->dims[0], q->dims[1], q->dims[2], 1};
    OpSpec op;
    op.kind = OpKind::SdpaFwd;
    op.t = {a.q_tensor_uid(), a.k_tensor_uid(), a.v_tensor_uid(), a.o_tensor_uid(), -1, scaleOf(a, g, q->dims[3]), -1};
    if(a.stats_tensor_uid().has_value())
    {
        rowVector(m, a.stats_tensor_uid().value(), rowDims, "stats");
        op.t[4] = a.stats_tensor_uid().value();
    }
    g.ops.push_back(op);
    m.summary += "(cuDNN's single SDPA operation)";
    m.unifiedSdpaAuto = m.unifiedSdpaAuto || a.implementation() == fbs::AttentionImplementation::AUTO;
}

// lowerSdpaFwdNode: S = Q.K^T; S *= scale; S += bias (+ ALiBi); padding and band masks; softmax
// as max, sub, exp, sum, div (log + add for stats; sink tokens in max and sum); O = P.V. Paged
// K / V come from paged-cache loads; ragged tensors keep their offsets (Graph.cpp sets them on
// cuDNN's tensor descriptors).
void lowerSdpaFwdNode(Model& m, const fbs::SdpaAttributes& a, CompositeBuilder& g, cudnnDataType_t compute)
{
    if(a.implementation() != fbs::AttentionImplementation::COMPOSITE)
    {
        const std::string miss = unifiedMiss(m, a, compute);
        if(a.implementation() == fbs::AttentionImplementation::UNIFIED)
        {
            if(!m.unifiedSdpa)
                throw Unsupported("sdpa: implementation UNIFIED needs cuDNN's single SDPA operation, which the loaded "
                                  "cuDNN does not have (9.13.1 or newer)");
            if(!miss.empty())
                throw Unsupported("sdpa: implementation UNIFIED with " + miss + " (cuDNN's single SDPA operation takes "
                                  "neither before 9.21; implementation AUTO or COMPOSITE runs it as the composite pattern)");
        }
        if(m.unifiedSdpa && miss.empty())
            return lowerUnified(m, a, g);
    }
    Dropout drop = dropoutOf(a, a.rng_dump_tensor_uid().has_value() ? a.rng_dump_tensor_uid().value() : -1);
    refuse(a.block_mask_tensor_uid().has_value(), "a block mask");
    const Fp8Scales fp8 = fp8ScalesOf(a, m);
    refuse(fp8.on && drop.on, "fp8 attention with dropout");
    const TensorSpec* o = m.find(a.o_tensor_uid());
    if(o == nullptr || o->dims.size() != 4)
        throw Unsupported("sdpa: O must be a rank-4 tensor [b, h, s, d]");
    const int64_t oUid = o->uid;
    PagedKv paged;
    if(a.page_table_k_tensor_uid().has_value() || a.page_table_v_tensor_uid().has_value())
        paged = pagedKvOf(m, a);
    const Qkv x = paged.k || paged.v ? paged.x : transposeKv(m, a.q_tensor_uid(), a.k_tensor_uid(), a.v_tensor_uid(), false);
    const Band band = bandOf(a, m, x);
    const bool ragged = takeRagged(m,
                                   {a.q_tensor_uid(), paged.k ? -1 : a.k_tensor_uid(), paged.v ? -1 : a.v_tensor_uid(), oUid,
                                    uidOrAbsent(a.stats_tensor_uid()), uidOrAbsent(a.max_tensor_uid()),
                                    uidOrAbsent(a.sum_exp_tensor_uid()), uidOrAbsent(a.page_table_k_tensor_uid()),
                                    uidOrAbsent(a.page_table_v_tensor_uid())},
                                   x.b);
    requireLengthsForRagged(ragged, band);
    const int64_t sink = uidOrAbsent(a.sink_token_tensor_uid());
    if(sink >= 0)
        headVector(m, sink, x.hq, "sink_token");

    const std::vector<int64_t> sDims{x.b, x.hq, x.sq, x.skv}, rowDims{x.b, x.hq, x.sq, 1};
    const int64_t kT = paged.k ? pagedKT(m, a, g, x, band.seqKv) : a.k_tensor_uid();
    int64_t s = g.add(CUDNN_DATA_FLOAT, sDims).uid;
    OpSpec& bmm1 = g.matmul(a.q_tensor_uid(), kT, s);
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
    if(a.alibi_mask())
        s = alibi(g, s, sDims, x.hq);
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
    const Softmax sm = softmaxWithStats(m, a, g, s, sDims, rowDims, sink);
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
    const int64_t vIn = paged.v ? pagedV(m, a, g, x, band.seqKv) : a.v_tensor_uid();
    if(!fp8.on)
    {
        OpSpec& bmm2 = g.matmul(p, vIn, oUid);
        bmm2.mOverride = band.seqQ;
        bmm2.kOverride = band.seqKv;
        return;
    }
    // fp8: O = (P·V)·descale_s·descale_v, amax_o of that, then ·scale_o into O's type.
    const std::vector<int64_t> oDims = m.find(oUid)->dims;
    int64_t acc = g.add(CUDNN_DATA_FLOAT, oDims).uid;
    OpSpec& bmm2 = g.matmul(p, vIn, acc);
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

// sdpaBwdDq emits dQ = dS.K: K^T viewed back as K (ragged as K is), an fp32 accumulator, then
// dQ's type. With a dbias output the matmul writes dQ directly: cudnn-frontend then picks
// cuDNN's dP-workspace form, the only one with dbias.
void sdpaBwdDq(Model& m, const fbs::SdpaBackwardAttributes& a, CompositeBuilder& g, const Qkv& x, const Band& band,
               int64_t dS)
{
    TensorSpec& kView = g.add(m.find(a.k_tensor_uid())->dtype, {x.b, x.hk, x.skv, x.d});
    {
        const TensorSpec* kt = m.find(a.k_tensor_uid());
        kView.strides = {kt->strides[0], kt->strides[1], kt->strides[3], kt->strides[2]};
        kView.raggedOffset = kt->raggedOffset;
        kView.raggedTaken = kt->raggedOffset >= 0;
    }
    const int64_t kUid = kView.uid;
    g.reshape(a.k_tensor_uid(), kUid);
    if(a.dbias_tensor_uid().has_value())
    {
        OpSpec& bmm3 = g.matmul(dS, kUid, a.dq_tensor_uid());
        bmm3.mOverride = band.seqQ;
        bmm3.kOverride = band.seqKv;
        return;
    }
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
// and Δ times the inverse scale. dbias: dS before the softmax scale, summed over the dims the
// bias broadcasts (dQ then written without the accumulator). Ragged tensors as in the forward.
void lowerSdpaBwdNode(Model& m, const fbs::SdpaBackwardAttributes& a, CompositeBuilder& g)
{
    Dropout drop = dropoutOf(a, -1);
    if(drop.on && !drop.philox)
        throw Unsupported("sdpa backward with a given dropout_mask is not run on cuDNN: 9.14 leaves dropout_scale_inv off "
                          "the softmax sum there (H200: dQ and dK came out as P·(M·dP - Δ)·scale; a seed/offset draw is right)");
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
    requireLengthsForRagged(takeRagged(m,
                                       {a.q_tensor_uid(), a.k_tensor_uid(), a.v_tensor_uid(), a.o_tensor_uid(),
                                        a.do_tensor_uid(), a.stats_tensor_uid(), a.dq_tensor_uid(), a.dk_tensor_uid(),
                                        a.dv_tensor_uid()},
                                       x.b),
                            band);
    const std::vector<int64_t> sDims{x.b, x.hq, x.sq, x.skv}, rowDims{x.b, x.hq, x.sq, 1};
    const int64_t dbias = uidOrAbsent(a.dbias_tensor_uid());
    if(dbias >= 0)
    {
        const TensorSpec* t = m.find(dbias);
        const bool fits = t != nullptr && t->dims.size() == 4 && (t->dims[0] == 1 || t->dims[0] == x.b)
                          && (t->dims[1] == 1 || t->dims[1] == x.hq) && t->dims[2] == x.sq && t->dims[3] == x.skv;
        if(!fits)
            throw Unsupported("sdpa backward: dbias must be [1 or b, 1 or h_q, s_q, s_kv]");
    }
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
    if(a.alibi_mask())
        s = alibi(g, s, sDims, x.hq);
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
    if(dbias >= 0) // the bias enters after the scale: its gradient is dS before it, summed over broadcast dims
        g.reduce(CUDNN_REDUCE_TENSOR_ADD, dS, dbias);
    dS = pointwiseNew(CUDNN_POINTWISE_MUL, dS, scale);

    // dK = dS^T.Q.
    perHead(transposed(dS), a.q_tensor_uid(), a.dk_tensor_uid(), x.hk, x.d);

    sdpaBwdDq(m, a, g, x, band, dS);
}

} // namespace

void readSdpaFwd(const fbs::Node& node, OpSpec& op, ReadState& state)
{
    op.kind = OpKind::Composite;
    op.lower = [](Model& m, const OpSpec& o, CompositeBuilder& g) { lowerSdpaFwdNode(m, *o.sdpa, g, o.compute); };
    op.sdpa = node.attributes_as_SdpaAttributes();
    requireKnown(op.sdpa->diagonal_alignment(), fbs::DiagonalAlignment::MAX, "sdpa diagonal_alignment");
    requireKnown(op.sdpa->implementation(), fbs::AttentionImplementation::MAX, "sdpa implementation");
    requireKnown(op.sdpa->mma_core_mode(), fbs::DataType::MAX, "sdpa mma_core_mode");
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

// buildSdpaFwd: cuDNN's single SDPA forward operation; OpSpec t = q k v o stats scale.
DescPtr buildSdpaFwd(const OpSpec& op, BuildContext& ctx)
{
    auto node = std::make_shared<Desc>(CUDNN_BACKEND_OPERATION_SDPA_FWD_DESCRIPTOR);
    node->setDesc(CUDNN_ATTR_OPERATION_SDPA_FWD_QDESC, ctx.tensor(op.t[0]), "sdpa");
    node->setDesc(CUDNN_ATTR_OPERATION_SDPA_FWD_KDESC, ctx.tensor(op.t[1]), "sdpa");
    node->setDesc(CUDNN_ATTR_OPERATION_SDPA_FWD_VDESC, ctx.tensor(op.t[2]), "sdpa");
    node->setDesc(CUDNN_ATTR_OPERATION_SDPA_FWD_ODESC, ctx.tensor(op.t[3]), "sdpa");
    if(op.t[4] >= 0)
        node->setDesc(CUDNN_ATTR_OPERATION_SDPA_FWD_STATSDESC, ctx.tensor(op.t[4]), "sdpa");
    node->setDesc(CUDNN_ATTR_OPERATION_SDPA_FWD_SCALEDESC, ctx.tensor(op.t[5]), "sdpa");
    node->finalize("sdpa operation");
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
