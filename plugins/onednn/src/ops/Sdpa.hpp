// The SDPA planning structures shared by the forward (Sdpa.cpp) and the backward
// (SdpaBackward.cpp): shapes, the 5-D layouts [B, Hk, G, S, D] and the score primitives.
#pragma once

#include "../PlanBuilder.hpp"

#include <algorithm>

namespace hipdnngo::onednn
{

// resolveSdpaBand folds the causal flags into the bounds: row i sees keys [i + off - left,
// i + off + right] (-1: that side open), off = 0 on a TOP_LEFT diagonal, Skv - Sq (or, with
// lengths, seq_len_kv[b] - seq_len_q[b]) on a BOTTOM_RIGHT one. Contradictory flags are declined.
SdpaBand resolveSdpaBand(const SdpaBand& a, const std::string& name);

// SdpaKeys: the keys row i of a batch with lengths sq, skv sees, [first(i), last(i)): keys
// i + off - left to i + off + right within [0, skv), off = skv - sq on a BOTTOM_RIGHT diagonal
// (a resolved band; a bound < 0 is open). The one place the band's arithmetic lives.
struct SdpaKeys
{
    SdpaBand band;
    int64_t skv, off;
    SdpaKeys(const SdpaBand& b, int64_t sq, int64_t skvB) : band(b), skv(skvB), off(b.bottomRight ? skvB - sq : 0) {}
    int64_t first(int64_t i) const { return band.left >= 0 ? std::clamp<int64_t>(i + off - band.left, 0, skv) : 0; }
    int64_t last(int64_t i) const { return band.right >= 0 ? std::clamp<int64_t>(i + off + band.right + 1, 0, skv) : skv; }
};

// sdpaCheckLengths fails the execution (BAD_PARAM, naming the entry) when a sequence length is
// outside [0, extent]; a null array is the full extent.
void sdpaCheckLengths(const int32_t* lq, const int32_t* lkv, int64_t batch, int64_t Sq, int64_t Skv, const std::string& name);

// sdpaMaskRow sets the scores of query row i that a batch with lengths sq, skv hides (outside the
// band, or past skv) to -inf, and says whether a key is left visible: a row past sq, or one whose
// band and bias leave nothing, has none. Its keys are SdpaKeys', as the forward's with lengths are:
// forward and backward must agree on this exactly.
bool sdpaMaskRow(float* row, int64_t i, int64_t sq, int64_t skv, int64_t Skv, const SdpaBand& band);

// sdpaMaskRows (the dense backward, with a dbias): an execution's row masking with sequence
// lengths (lq, lkv: INT32 per batch, null for the full extent) over S, dense [B * H * Sq, Skv] in
// (b, h, i) order. It checks the lengths, masks every row (sdpaMaskRow) and hands it to
// done(r, row, padding, visible), where padding says that the row lies past seq_len_q. Rows run
// in parallel.
template <typename Done>
void sdpaMaskRows(float* scores, const int32_t* lq, const int32_t* lkv, int64_t B, int64_t H, int64_t Sq, int64_t Skv,
                  const SdpaBand& band, const std::string& name, const Done& done)
{
    sdpaCheckLengths(lq, lkv, B, Sq, Skv, name);
    const int64_t rows = B * H * Sq;
#pragma omp parallel for schedule(static)
    for(int64_t r = 0; r < rows; ++r)
    {
        const int64_t b = r / (H * Sq), i = r % Sq, sq = lq ? lq[b] : Sq;
        float* row = scores + r * Skv;
        const bool visible = sdpaMaskRow(row, i, sq, lkv ? lkv[b] : Skv, Skv, band);
        done(r, row, i >= sq, visible);
    }
}

// SdpaPaging: a forward's paged K / V caches. A paged tensor is a container [blocks, Hk, block,
// W] whose table (INT32 [B, P] or [B, 1, P, 1]) lists each batch's blocks: key j of batch b is row
// j % block of block table[b][j / block]. Skv is max_seq_len_kv, else the unpaged tensor's S, else
// the bias's last dim, else the smaller P * block (cuDNN's inference); seq_len_kv is required.
struct PlanBuilder::SdpaPaging
{
    const Tensor *tableK = nullptr, *tableV = nullptr; // null: that tensor is dense
    int64_t pagesK = 0, pagesV = 0; // P
    int64_t skv = 0;
    const Tensor* seqKv = nullptr;
};

// SdpaShape: Q [B, H, Sq, D], K [B, Hk, Skv, D], V [B, Hk, Skv, Dv], O [B, H, Sq, Dv]; G = H / Hk.
struct PlanBuilder::SdpaShape
{
    const Tensor *q, *k, *v, *o;
    int64_t B, H, Sq, D, Hk, Skv, Dv, G;
    bool alibi = false; // add cudnn-frontend's ALiBi bias to the scores
    SdpaPaging paging; // paged K / V: read through their tables (sdpaVarlen)
};

// SdpaLayouts: the 5-D views [B, Hk, G, S, D] (query head h = hk * G + g) of the tensors as the
// user holds them and as the primitives take them (dense f32 copies of non-f32 inputs).
struct PlanBuilder::SdpaLayouts
{
    bool qConvert, kConvert, vConvert;
    mdesc q5user, q5f, q5, kUser, kF32, kT, s5, maskMd, v5, vF32, o5, o5f;
    const Tensor* bias = nullptr; // attn_mask
    mdesc biasMd, biasUser;
};

// SdpaScale: the attention scale, baked into the matmuls as an eltwise post-op, or a runtime
// f32 pass-by-value scalar that oneDNN reads at execute as the matmul's output scale.
struct PlanBuilder::SdpaScale
{
    float value = 1.f;
    const Tensor* runtime = nullptr;

    dnnl::primitive_attr attr() const
    {
        dnnl::primitive_attr a;
        if(runtime)
            a.set_output_scales(0, {DNNL_RUNTIME_F32_VAL});
        else
        {
            dnnl::post_ops ops;
            api::appendEltwise(ops, algorithm::eltwise_linear, value, 0.f);
            a.set_post_ops(ops);
        }
        return a;
    }
};

// SdpaOperand: an SDPA operand as rows of `type` (FLOAT, or HALF / BFLOAT16 that the kernels with
// sequence lengths convert a block at a time) with a unit inner stride: row i of (b, hk, g) starts at
// element b * sb + hk * shk + g * sg + i * si (sdpaVarlen).
struct PlanBuilder::SdpaOperand
{
    Buffer buf;
    int64_t sb = 0, shk = 0, sg = 0, si = 0;
    fbs::DataType type = fbs::DataType::FLOAT;
    int64_t at(int64_t b, int64_t hk, int64_t g, int64_t i) const { return b * sb + hk * shk + g * sg + i * si; }
    // rows: t's rows as the caller holds them (heads h = hk * groups + g of a [B, H, S, W] tensor)
    // in `buf` of `type`; dense: the rows of a dense f32 [B, Hk, G, S, W] buffer.
    static SdpaOperand rows(const Tensor& t, int64_t groups, Buffer buf, fbs::DataType type)
    {
        return {buf, t.strides[0], t.strides[1] * groups, groups > 1 ? t.strides[1] : 0, t.strides[2], type};
    }
    static SdpaOperand dense(const mdesc& md, Buffer buf)
    {
        const dnnl::memory::dims d = md.dims();
        return {buf, d[1] * d[2] * d[3] * d[4], d[2] * d[3] * d[4], d[3] * d[4], d[4], fbs::DataType::FLOAT};
    }
};

struct PlanBuilder::SdpaPrimitives
{
    SdpaScale scale;
    api::Built mm1, sm, mm2, madd, badd;
    bool oConvert = false; // O is written as f32 and reordered into its type
    // The bias broadcast has only a reference binary in oneDNN 2.6 (over the batch alone, for
    // one): an engine kernel adds it instead of badd.
    bool biasKernel = false;
};

// SdpaStats: the forward with row outputs or sink tokens (rows in S's order b, h, i):
// M = rowmax(S) (max(M, sink_h)), E = exp(S - M), Z = rowsum(E) (+ exp(sink_h - M)),
// O = (E V) / Z; stats = M + log(Z), max = M, sum_exp = Z. With sequence lengths, keys past
// seq_len_kv are masked, and rows past seq_len_q or without a visible key are written as the
// reference engine writes them (O = 0, stats and max -inf, sum_exp 0; a row without a visible
// key but with a sink: O = 0, stats = max = sink, sum_exp = 1).
struct PlanBuilder::SdpaStats
{
    const Tensor *stats = nullptr, *max = nullptr, *sumExp = nullptr; // the row outputs asked for
    const Tensor* sink = nullptr; // sink tokens: one FLOAT logit per query head in M and Z
    const Tensor *seqQ = nullptr, *seqKv = nullptr; // padding: INT32 lengths per batch
    SdpaBand band; // resolved; with lengths the padding kernel applies it (no constant mask)
    int64_t rows = 0;
    mdesc row5; // [B, Hk, G, Sq, 1]
    mdesc s3, row3, o3f, o3; // [1, rows, Skv], [1, rows, 1], [1, rows, Dv] f32 and in O's type
    bool oDirect = false; // O's rows are dense: the division writes O itself
    api::Built rowMax, expSub, rowSum, ev, divO;
};

} // namespace hipdnngo::onednn
