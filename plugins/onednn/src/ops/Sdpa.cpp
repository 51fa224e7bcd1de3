// Scaled dot-product attention forward as oneDNN primitives: S = scale * Q K^T (+ band mask)
// (+ attn_mask bias) (+ ALiBi, an engine kernel) -> softmax (with sink tokens) -> O = S V.
// GQA/MQA: the query heads of one KV head form an extra dim that K and V broadcast over.
// With sequence lengths (padded, ragged or paged batches) the forward runs over each batch's rows
// and keys only (SdpaVarlen.cpp), reading paged K / V caches through their tables (SdpaPaged.cpp
// checks them). Everything beyond attention with an optional causal/band mask, bias, ALiBi,
// sinks, lengths and paged caches is declined.
#include "Sdpa.hpp"

#include <hipdnn_plugin_sdk/helpers/Attention.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <tuple>

namespace hipdnngo::onednn
{

namespace
{

// refuseSdpaFeatures declines what the oneDNN lowering does not compute.
void refuseSdpaFeatures(const fbs::SdpaAttributes& a, const std::string& name)
{
    auto refuse = [&](const flatbuffers::Optional<int64_t>& uid, const char* what) {
        if(uid.has_value())
            throw Unsupported(name + ": SDPA with " + what + " is not supported by the oneDNN engine");
    };
    refuse(a.dropout_mask_tensor_uid(), "dropout");
    refuse(a.dropout_scale_tensor_uid(), "dropout");
    refuse(a.block_mask_tensor_uid(), "a block mask");
    for(const auto& u : {a.descale_q_tensor_uid(), a.descale_k_tensor_uid(), a.descale_v_tensor_uid(),
                         a.descale_s_tensor_uid(), a.scale_s_tensor_uid(), a.scale_o_tensor_uid()})
        refuse(u, "fp8 scales");
    for(const auto& u : {a.rng_dump_tensor_uid(), a.amax_s_tensor_uid(), a.amax_o_tensor_uid()})
        refuse(u, "amax / rng outputs");
    const bool lengths = a.seq_len_q_tensor_uid().has_value() || a.seq_len_kv_tensor_uid().has_value();
    if(a.padding_mask() && !lengths)
        throw Unsupported(name + ": SDPA padding_mask is set but there is no seq_len_q / seq_len_kv tensor");
    if(a.dropout_probability().has_value() && a.dropout_probability().value() != 0.f)
        throw Unsupported(name + ": SDPA with dropout is not supported by the oneDNN engine");
}

} // namespace

void sdpaForwardInputs(const fbs::Node& n, const InputCounter& reads)
{
    const auto* a = n.attributes_as_SdpaAttributes();
    reads(a->q_tensor_uid()), reads(a->k_tensor_uid()), reads(a->v_tensor_uid());
    if(a->attn_mask_tensor_uid())
        reads(*a->attn_mask_tensor_uid());
    for(const auto& uid : {a->sink_token_tensor_uid(), a->seq_len_q_tensor_uid(), a->seq_len_kv_tensor_uid(),
                           a->page_table_k_tensor_uid(), a->page_table_v_tensor_uid()})
        if(uid)
            reads(*uid);
}

// SDPA's q/k/v are converted to f32 by the plan itself, so tensor() accepts types oneDNN has no
// kernels for while it is planned (viaF32_).
void PlanBuilder::sdpaForward(const fbs::Node& n, const std::string& name)
{
    const auto& a = *n.attributes_as_SdpaAttributes();
    viaF32_ = true;
    struct Reset
    {
        bool& flag;
        ~Reset() { flag = false; }
    } reset{viaF32_};
    refuseSdpaFeatures(a, name);
    const Tensor &q = tensor(a.q_tensor_uid(), "q", name), &k = tensor(a.k_tensor_uid(), "k", name),
                 &v = tensor(a.v_tensor_uid(), "v", name), &o = tensor(a.o_tensor_uid(), "o", name);
    const Tensor* stats = a.stats_tensor_uid() ? &tensor(*a.stats_tensor_uid(), "stats", name) : nullptr;
    const Tensor* max = a.max_tensor_uid() ? &tensor(*a.max_tensor_uid(), "max", name) : nullptr;
    const Tensor* sumExp = a.sum_exp_tensor_uid() ? &tensor(*a.sum_exp_tensor_uid(), "sum_exp", name) : nullptr;
    const Tensor* sink = a.sink_token_tensor_uid() ? &tensor(*a.sink_token_tensor_uid(), "sink_token", name) : nullptr;
    const Tensor* seqQ = sdpaLengths(a.seq_len_q_tensor_uid(), "seq_len_q", q.dims[0], name);
    const Tensor* seqKv = sdpaLengths(a.seq_len_kv_tensor_uid(), "seq_len_kv", q.dims[0], name);
    const SdpaPaging paging = sdpaPaging(a, q, k, v, seqKv, name);
    // Ragged (THD) tensors are computed on dense row-major copies (Ragged.cpp), their rows past
    // the lengths masked as padding; claimed before anything below reads their strides.
    for(const Tensor* t : {&q, &o, stats, max, sumExp})
        claimRagged(t, seqQ, "seq_len_q", name);
    for(const Tensor* t : {&k, &v})
        claimRagged(t, seqKv, "seq_len_kv", name);
    SdpaShape shape = sdpaShape(q, k, v, o, name, &paging);
    shape.alibi = a.alibi_mask();
    const SdpaScale scale = sdpaScale(a.attn_scale_value(), a.scale_tensor_uid(), shape.D, name);
    // With sequence lengths sdpaVarlen applies the band row by row (a BOTTOM_RIGHT diagonal sits
    // at skv_b - sq_b, one per batch) and builds no dense primitive. Without them the band is a
    // constant added to S.
    const bool padded = seqQ || seqKv;
    const SdpaBand band = resolveSdpaBand(sdpaBandOf(a), name);
    const std::optional<size_t> mask = padded ? std::nullopt : sdpaBandMask(band, shape, name);
    const SdpaLayouts layouts = sdpaLayouts(a.attn_mask_tensor_uid(), shape, false, name);
    if(sink && (sink->dtype != fbs::DataType::FLOAT || sink->elements() != shape.H || !rowMajor(*sink) || sink->isConstant
                || sink->isPassByValue))
        throw Unsupported(name + ": SDPA sink tokens must be a dense FLOAT tensor of one logit per query head ([1, "
                          + std::to_string(shape.H) + ", 1, 1])");
    // Row outputs, sinks and lengths take the softmax apart (M, E, Z); plain attention keeps
    // oneDNN's softmax.
    const bool rows = stats || max || sumExp || sink || padded;
    SdpaStats st = rows ? sdpaStatsLayout(stats, max, sumExp, padded, shape, layouts, name) : SdpaStats{};
    st.sink = sink;
    st.seqQ = seqQ;
    st.seqKv = seqKv;
    st.band = band;
    if(padded)
    {
        sdpaVarlen(shape, layouts, scale, st, name);
        return;
    }
    sdpaSteps(shape, layouts, sdpaPrimitives(layouts, scale, mask.has_value(), name), mask, rows ? &st : nullptr, name);
}

// sdpaStatsLayout: the row outputs (stats, max, sum_exp: tensors [B, H, Sq, 1] or [B, H, Sq])
// as dense f32 row vectors in the order of S's rows, and the primitives of the forward that
// writes them (see sdpaSteps; with padding sdpaVarlen writes them and no primitive is built).
// Per-row operands use a [1, rows, n] view, oneDNN 2.6's vectorised per-channel broadcast.
PlanBuilder::SdpaStats PlanBuilder::sdpaStatsLayout(const Tensor* stats, const Tensor* max, const Tensor* sumExp, bool padded,
                                                    const SdpaShape& s, const SdpaLayouts& l, const std::string& name)
{
    using tag = dnnl::memory::format_tag;
    for(auto [t, what] : {std::pair{stats, "stats"}, std::pair{max, "max"}, std::pair{sumExp, "sum_exp"}})
    {
        if(t == nullptr)
            continue;
        const bool dimsOk =
            t->dims == std::vector<int64_t>{s.B, s.H, s.Sq, 1} || t->dims == std::vector<int64_t>{s.B, s.H, s.Sq};
        if(!dimsOk || t->dtype != fbs::DataType::FLOAT || !rowMajor(*t) || t->isConstant || t->isPassByValue)
            throw Unsupported(name + ": SDPA " + what + " must be a dense row-major FLOAT tensor [B, H, Sq, 1]");
    }
    SdpaStats st;
    st.stats = stats;
    st.max = max;
    st.sumExp = sumExp;
    st.rows = s.B * s.H * s.Sq;
    st.row5 = mdesc({s.B, s.Hk, s.G, s.Sq, 1}, dt::f32, tag::abcde);
    st.s3 = mdesc({1, st.rows, s.Skv}, dt::f32, tag::abc);
    st.row3 = mdesc({1, st.rows, 1}, dt::f32, tag::abc);
    st.o3f = mdesc({1, st.rows, s.Dv}, dt::f32, tag::abc);
    if(padded)
        return st; // sdpaVarlen computes it all in one kernel
    // O is divided straight into the caller's buffer when its rows are dense in (b, h, i) order.
    const Tensor& o = *s.o;
    st.oDirect = o.strides[3] == 1 && o.strides[2] == s.Dv && o.strides[1] == s.Sq * s.Dv && o.strides[0] == s.H * s.Sq * s.Dv;
    st.o3 = mdesc({1, st.rows, s.Dv}, *mapType(o.dtype), tag::abc);
    try
    {
        st.rowMax = api::reduction(algorithm::reduction_max, l.s5, st.row5, 0.f, build_);
        st.rowSum = api::reduction(algorithm::reduction_sum, l.s5, st.row5, 0.f, build_);
        dnnl::post_ops expOps;
        api::appendEltwise(expOps, algorithm::eltwise_exp, 0.f, 0.f);
        dnnl::primitive_attr expAttr;
        expAttr.set_post_ops(expOps);
        st.expSub = api::binary(algorithm::binary_sub, st.s3, st.row3, st.s3, expAttr, build_);
        st.ev = api::matmul(l.s5, l.vConvert ? l.vF32 : l.v5, l.o5f, {}, build_);
        // Into a 16-bit O, oneDNN 2.6's binary is a reference kernel: divide in f32, then reorder.
        if(st.oDirect)
        {
            st.divO = api::binary(algorithm::binary_div, st.o3f, st.row3, st.o3, {}, build_);
            st.oDirect = st.divO.impl.find("ref") == std::string::npos;
        }
        if(!st.oDirect)
            st.divO = api::binary(algorithm::binary_div, st.o3f, st.row3, st.o3f, {}, build_);
    }
    catch(const dnnl::error& e)
    {
        throw Unsupported(name + ": oneDNN has no reduction/binary for the SDPA statistics (" + e.what() + ")");
    }
    for(const api::Built* b : {&st.rowMax, &st.rowSum, &st.expSub, &st.ev, &st.divO})
        if(b->impl.find("ref") != std::string::npos)
            throw Unsupported(name + ": oneDNN would compute the SDPA statistics on a reference kernel (" + b->impl + ")");
    return st;
}

// A paged K or V is a container [blocks, Hk, block, W]: only its head and width dims are
// checked against the problem here (sdpaPaging checked that its pages cover Skv).
PlanBuilder::SdpaShape PlanBuilder::sdpaShape(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& o,
                                              const std::string& name, const SdpaPaging* paging)
{
    if(q.rank() != 4 || k.rank() != 4 || v.rank() != 4 || o.rank() != 4)
        throw Unsupported(name + ": SDPA tensors must be [B, H, S, D]");
    const SdpaPaging pg = paging ? *paging : SdpaPaging{};
    const int64_t B = q.dims[0], H = q.dims[1], Sq = q.dims[2], D = q.dims[3];
    const int64_t Hk = k.dims[1], Skv = pg.tableK || pg.tableV ? pg.skv : k.dims[2], Dv = v.dims[3];
    const bool kOk = pg.tableK || (k.dims[0] == B && k.dims[2] == Skv), vOk = pg.tableV || (v.dims[0] == B && v.dims[2] == Skv);
    if(!kOk || !vOk || k.dims[3] != D || v.dims[1] != Hk || o.dims != std::vector<int64_t>{B, H, Sq, Dv} || Hk < 1 || H % Hk != 0)
        throw Unsupported(name + ": inconsistent SDPA shapes");
    const int64_t G = H / Hk;
    return {&q, &k, &v, &o, B, H, Sq, D, Hk, Skv, Dv, G, false, pg};
}

// sdpaScale: attn_scale_value, else the scale tensor (a constant, or an f32 pass-by-value scalar
// read at execute), else 1/sqrt(D).
PlanBuilder::SdpaScale PlanBuilder::sdpaScale(flatbuffers::Optional<float> value, flatbuffers::Optional<int64_t> scaleUid,
                                              int64_t D, const std::string& name)
{
    SdpaScale scale;
    scale.value = 1.f / std::sqrt(static_cast<float>(D));
    if(value.has_value() && scaleUid.has_value())
        throw Unsupported(name + ": attn_scale_value and a scale tensor are both given");
    if(value.has_value())
        scale.value = value.value();
    else if(scaleUid.has_value())
    {
        const Tensor* t = p_.tensors_.find(*scaleUid);
        if(t && t->isPassByValue && t->dtype == fbs::DataType::FLOAT && t->elements() == 1)
            scale.runtime = t;
        else if(t && t->isPassByValue)
            throw Unsupported(name + ": SDPA scale must be a constant or a one-element FLOAT pass-by-value scalar");
        else
            scale.value = static_cast<float>(scalarValue(*scaleUid, "scale", name));
    }
    return scale;
}

std::vector<Arg> PlanBuilder::sdpaScaleArgs(const SdpaScale& scale, const std::string& name)
{
    if(!scale.runtime)
        return {};
    return {Arg{DNNL_ARG_ATTR_OUTPUT_SCALES, mdesc({1}, dt::f32, dnnl::memory::dims{1}), input(*scale.runtime, name)}};
}

// mergeRows: the layouts keep (G, Sq) of q mergeable into one dim of G * Sq rows (the backward's
// dK = dS^T Q over all query heads of a KV head), copying q when its strides do not.
PlanBuilder::SdpaLayouts PlanBuilder::sdpaLayouts(flatbuffers::Optional<int64_t> maskUid, const SdpaShape& s, bool mergeRows,
                                                  const std::string& name)
{
    const Tensor &q = *s.q, &k = *s.k, &v = *s.v, &o = *s.o;
    const int64_t B = s.B, H = s.H, Sq = s.Sq, D = s.D, Hk = s.Hk, Skv = s.Skv, Dv = s.Dv, G = s.G;
    // 5-D views: [B, Hk, G, S, D]; query head h = hk * G + g. Non-f32 q/k/v are converted to
    // dense f32 copies first (exact for bf16/fp16; oneDNN 2.6 has no fast mixed-type kernel).
    const bool qConvert = q.dtype != fbs::DataType::FLOAT || (mergeRows && G > 1 && q.strides[1] != Sq * q.strides[2]),
               kConvert = k.dtype != fbs::DataType::FLOAT || s.paging.tableK;
    const mdesc q5user({B, Hk, G, Sq, D}, *mapType(q.dtype),
                       dnnl::memory::dims{q.strides[0], q.strides[1] * G, q.strides[1], q.strides[2], q.strides[3]});
    const mdesc q5f({B, Hk, G, Sq, D}, dt::f32, dnnl::memory::format_tag::abcde);
    const mdesc q5 = qConvert ? q5f : q5user;
    // A paged K or V has no such view: only sdpaVarlen reads it (a paged cache comes with lengths).
    const mdesc kUser = s.paging.tableK ? mdesc()
                                        : mdesc({B, Hk, 1, Skv, D}, *mapType(k.dtype),
                                                dnnl::memory::dims{k.strides[0], k.strides[1], k.strides[1], k.strides[2], k.strides[3]});
    const mdesc kF32({B, Hk, 1, Skv, D}, dt::f32, dnnl::memory::format_tag::abcde);
    // K^T: the same memory with the last two dims swapped.
    const mdesc kT = kConvert
                         ? mdesc({B, Hk, 1, D, Skv}, dt::f32, dnnl::memory::dims{Hk * Skv * D, Skv * D, Skv * D, 1, D})
                         : mdesc({B, Hk, 1, D, Skv}, dt::f32,
                                 dnnl::memory::dims{k.strides[0], k.strides[1], k.strides[1], k.strides[3], k.strides[2]});
    const dnnl::memory::dims sDims{B, Hk, G, Sq, Skv};
    const mdesc s5(sDims, dt::f32, dnnl::memory::format_tag::abcde);
    // The mask is added by a binary primitive of its own: as a matmul post-op its broadcast
    // pattern sends oneDNN 2.6 to the reference matmul.
    const mdesc maskMd({1, 1, 1, Sq, Skv}, dt::f32, dnnl::memory::dims{Sq * Skv, Sq * Skv, Sq * Skv, Skv, 1});
    // attn_mask: an additive floating-point bias broadcasting (right-aligned) to [B, H, Sq, Skv],
    // viewed like S as [B, Hk, G, Sq, Skv] and added by a binary primitive. (A row whose biases
    // are all -inf gives NaN here, 0 on the reference engine.)
    const Tensor* bias = maskUid ? &tensor(*maskUid, "attn_mask", name) : nullptr;
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
    const mdesc vF32({B, Hk, 1, Skv, Dv}, dt::f32, dnnl::memory::format_tag::abcde);
    const mdesc v5 = s.paging.tableV ? mdesc()
                                     : mdesc({B, Hk, 1, Skv, Dv}, *mapType(v.dtype),
                                             dnnl::memory::dims{v.strides[0], v.strides[1], v.strides[1], v.strides[2], v.strides[3]});
    const mdesc o5({B, Hk, G, Sq, Dv}, *mapType(o.dtype),
                   dnnl::memory::dims{o.strides[0], o.strides[1] * G, o.strides[1], o.strides[2], o.strides[3]});
    const mdesc o5f(o5.dims(), dt::f32, dnnl::memory::format_tag::abcde);
    const bool vConvert = v.dtype != fbs::DataType::FLOAT || s.paging.tableV;
    return {qConvert, kConvert, vConvert, q5user, q5f, q5, kUser, kF32, kT, s5, maskMd, v5, vF32, o5, o5f,
            bias, biasMd, biasUser};
}

PlanBuilder::SdpaPrimitives PlanBuilder::sdpaPrimitives(const SdpaLayouts& l, const SdpaScale& scale, bool masked,
                                                        const std::string& name)
{
    const mdesc &q5 = l.q5, &kT = l.kT, &s5 = l.s5, &maskMd = l.maskMd, &biasMd = l.biasMd, &v5 = l.v5, &vF32 = l.vF32,
                &o5 = l.o5, &o5f = l.o5f;
    const bool vConvert = l.vConvert;
    const Tensor* bias = l.bias;
    const dnnl::primitive_attr attr = scale.attr();
    SdpaPrimitives p;
    p.scale = scale;
    api::Built &mm1 = p.mm1, &sm = p.sm, &mm2 = p.mm2, &madd = p.madd, &badd = p.badd;
    bool& oConvert = p.oConvert;
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
    p.biasKernel = bias && badd.impl.find("ref") != std::string::npos;
    if(p.biasKernel)
        badd = {}; // not run: the engine's kernel adds the bias
    for(const api::Built* b : {&mm1, &sm, &mm2, &madd, &badd})
        if(b->impl.find("ref") != std::string::npos)
            throw Unsupported(name + ": oneDNN would run this SDPA on a reference kernel (" + b->impl
                              + "), not faster than HIPDNNGO_CPU_REFERENCE");
    return p;
}

// addBiasKernel: S += bias for a broadcast oneDNN 2.6's binary has no fast kernel for. S is dense
// [B, Hk, G, Sq, Skv]; the bias its dense f32 copy with those dims or 1 (broadcast). Row by row:
// each row of S takes one row of the bias, or its one value where the bias's last dim is 1.
void PlanBuilder::addBiasKernel(const SdpaLayouts& l, const Buffer& scores, const Buffer& bias, const std::string& name)
{
    const dnnl::memory::dims bd = l.biasMd.dims(), sd = l.s5.dims();
    // The bias's row-major strides over S's first four dims, 0 where it broadcasts.
    std::array<int64_t, 4> bs{};
    int64_t stride = bd[4];
    for(int d = 3; d >= 0; --d)
    {
        bs[static_cast<size_t>(d)] = bd[static_cast<size_t>(d)] == 1 ? 0 : stride;
        stride *= bd[static_cast<size_t>(d)];
    }
    const int64_t rows = sd[0] * sd[1] * sd[2] * sd[3], Skv = sd[4];
    const int64_t d1 = sd[1], d2 = sd[2], d3 = sd[3];
    const bool perKey = bd[4] != 1;
    addKernel({scores, bias},
              [=](void* const* at) {
                  float* S = static_cast<float*>(at[0]);
                  const float* b = static_cast<const float*>(at[1]);
#pragma omp parallel for schedule(static)
                  for(int64_t r = 0; r < rows; ++r)
                  {
                      const int64_t i = r % d3, g = (r / d3) % d2, hk = (r / (d3 * d2)) % d1, bb = r / (d3 * d2 * d1);
                      const float* br = b + bb * bs[0] + hk * bs[1] + g * bs[2] + i * bs[3];
                      float* row = S + r * Skv;
                      if(perKey)
                      {
#pragma omp simd
                          for(int64_t j = 0; j < Skv; ++j)
                              row[j] += br[j];
                      }
                      else
                      {
                          const float v = br[0];
#pragma omp simd
                          for(int64_t j = 0; j < Skv; ++j)
                              row[j] += v;
                      }
                  }
              },
              name + " sdpa bias (engine kernel: oneDNN's binary has only a reference kernel for this broadcast)");
}

// sdpaScores: the steps up to S = scale * Q K^T (+ band mask) (+ bias) in its workspace buffer.
PlanBuilder::SdpaScores PlanBuilder::sdpaScores(const SdpaShape& s, const SdpaLayouts& l, const SdpaPrimitives& p,
                                                std::optional<size_t> mask, const std::string& name)
{
    Buffer qb = input(*s.q, name), kb = input(*s.k, name);
    if(l.qConvert)
    {
        const Buffer t = temp(l.q5f);
        addReorder(l.q5user, qb, l.q5f, t, name + " q to f32");
        qb = t;
    }
    if(l.kConvert)
    {
        const Buffer t = temp(l.kF32);
        addReorder(l.kUser, kb, l.kF32, t, name + " k to f32");
        kb = t;
    }
    const Buffer sb = temp(l.s5);
    std::vector<Arg> mm1Args{Arg{DNNL_ARG_SRC, l.q5, qb}, Arg{DNNL_ARG_WEIGHTS, l.kT, kb}, Arg{DNNL_ARG_DST, l.s5, sb}};
    for(const Arg& a : sdpaScaleArgs(p.scale, name))
        mm1Args.push_back(a);
    addStep(p.mm1, std::move(mm1Args), "sdpa S = scale*QK^T");
    if(mask)
        addStep(p.madd,
                {Arg{DNNL_ARG_SRC_0, l.s5, sb}, Arg{DNNL_ARG_SRC_1, l.maskMd, Buffer{Buffer::Kind::Constant, -1, *mask}},
                 Arg{DNNL_ARG_DST, l.s5, sb}},
                "sdpa mask");
    if(l.bias)
    {
        const Buffer t = temp(l.biasMd);
        addReorder(l.biasUser, input(*l.bias, name), l.biasMd, t, name + " attn_mask to f32");
        if(p.biasKernel)
            addBiasKernel(l, sb, t, name);
        else
            addStep(p.badd, {Arg{DNNL_ARG_SRC_0, l.s5, sb}, Arg{DNNL_ARG_SRC_1, l.biasMd, t}, Arg{DNNL_ARG_DST, l.s5, sb}},
                    "sdpa bias");
    }
    if(s.alibi)
    {
        // S [B, Hk, G, Sq, Skv] dense: row r is query i = r % Sq of head h = (r / Sq) % H.
        const std::vector<float> slopes = hipdnn_plugin_sdk::alibiSlopes(s.H);
        const int64_t rows = s.B * s.H * s.Sq, H = s.H, Sq = s.Sq, Skv = s.Skv;
        addKernel({sb},
                  [slopes, rows, H, Sq, Skv](void* const* at) {
                      float* scores = static_cast<float*>(at[0]);
#pragma omp parallel for schedule(static)
                      for(int64_t r = 0; r < rows; ++r)
                      {
                          const float slope = slopes[static_cast<size_t>((r / Sq) % H)];
                          const float i = static_cast<float>(r % Sq);
                          float* row = scores + r * Skv;
#pragma omp simd
                          for(int64_t j = 0; j < Skv; ++j)
                              row[j] += slope * (static_cast<float>(j) - i);
                      }
                  },
                  name + " sdpa S += ALiBi slope_h * (j - i)");
    }
    return {qb, kb, sb};
}

// sdpaSteps: the forward. Without row outputs: softmax in place, O = P V. With them: M = rowmax(S),
// E = exp(S - M) in place, Z = rowsum(E), O = (E V) / Z, and stats = M + log(Z), max = M,
// sum_exp = Z: the passes over S of a softmax, plus the sum that gives the row outputs, and the
// normalisation moved onto O (Dv columns instead of Skv). Only without sequence lengths (those
// go to sdpaVarlen).
void PlanBuilder::sdpaSteps(const SdpaShape& s, const SdpaLayouts& l, const SdpaPrimitives& p, std::optional<size_t> mask,
                            const SdpaStats* stats, const std::string& name)
{
    const SdpaScores sc = sdpaScores(s, l, p, mask, name);
    Buffer rowMax, rowSum;
    if(stats)
    {
        rowMax = temp(stats->row5), rowSum = temp(stats->row5);
        addStep(stats->rowMax, {Arg{DNNL_ARG_SRC, l.s5, sc.s}, Arg{DNNL_ARG_DST, stats->row5, rowMax}}, "sdpa M = rowmax(S)");
        // Sinks: row r of head h = (r / Sq) % H joins max(M, sink_h) and, below, Z += exp(sink_h - M).
        const Buffer sink = stats->sink ? input(*stats->sink, name) : Buffer{};
        const int64_t rows = stats->rows, H = s.H, Sq = s.Sq;
        if(stats->sink)
            addKernel({rowMax, sink},
                      [rows, H, Sq](void* const* at) {
                          float* m = static_cast<float*>(at[0]);
                          const float* sk = static_cast<const float*>(at[1]);
                          for(int64_t r = 0; r < rows; ++r)
                              m[r] = std::max(m[r], sk[(r / Sq) % H]);
                      },
                      name + " sdpa M = max(M, sink)");
        addStep(stats->expSub,
                {Arg{DNNL_ARG_SRC_0, stats->s3, sc.s}, Arg{DNNL_ARG_SRC_1, stats->row3, rowMax},
                 Arg{DNNL_ARG_DST, stats->s3, sc.s}},
                "sdpa E = exp(S - M)");
        addStep(stats->rowSum, {Arg{DNNL_ARG_SRC, l.s5, sc.s}, Arg{DNNL_ARG_DST, stats->row5, rowSum}}, "sdpa Z = rowsum(E)");
        if(stats->sink)
            addKernel({rowMax, rowSum, sink},
                      [rows, H, Sq](void* const* at) {
                          const float* m = static_cast<const float*>(at[0]);
                          float* z = static_cast<float*>(at[1]);
                          const float* sk = static_cast<const float*>(at[2]);
                          for(int64_t r = 0; r < rows; ++r)
                              z[r] += std::exp(sk[(r / Sq) % H] - m[r]);
                      },
                      name + " sdpa Z += exp(sink - M)");
        // The row outputs asked for, from M and Z (a missing one is a null operand).
        std::vector<Buffer> bufs{rowMax, rowSum};
        for(const Tensor* t : {stats->stats, stats->max, stats->sumExp})
            bufs.push_back(t ? output(*t, name) : Buffer::none());
        addKernel(std::move(bufs),
                  [rows](void* const* at) {
                      const float* m = static_cast<const float*>(at[0]);
                      const float* z = static_cast<const float*>(at[1]);
                      float* lse = static_cast<float*>(at[2]); // null when not asked for
                      float* mx = static_cast<float*>(at[3]);
                      float* se = static_cast<float*>(at[4]);
                      for(int64_t r = 0; r < rows; ++r)
                      {
                          if(lse)
                              lse[r] = m[r] + std::log(z[r]);
                          if(mx)
                              mx[r] = m[r];
                          if(se)
                              se[r] = z[r];
                      }
                  },
                  name + " row outputs (stats = M + log(Z), max = M, sum_exp = Z)");
    }
    else
        addStep(p.sm, {Arg{DNNL_ARG_SRC, l.s5, sc.s}, Arg{DNNL_ARG_DST, l.s5, sc.s}}, "sdpa softmax");
    Buffer vb = input(*s.v, name);
    if(l.vConvert)
    {
        const Buffer t = temp(l.vF32);
        addReorder(l.v5, vb, l.vF32, t, name + " v to f32");
        vb = t;
    }
    const mdesc& vMd = l.vConvert ? l.vF32 : l.v5;
    if(stats)
    {
        const BoundOutput out = bindOutput(*s.o, l.o5f, !stats->oDirect, name);
        const Buffer ev = stats->oDirect ? temp(l.o5f) : out.written;
        addStep(stats->ev, {Arg{DNNL_ARG_SRC, l.s5, sc.s}, Arg{DNNL_ARG_WEIGHTS, vMd, vb}, Arg{DNNL_ARG_DST, l.o5f, ev}},
                "sdpa EV");
        addStep(stats->divO,
                {Arg{DNNL_ARG_SRC_0, stats->o3f, ev}, Arg{DNNL_ARG_SRC_1, stats->row3, rowSum},
                 Arg{DNNL_ARG_DST, stats->oDirect ? stats->o3 : stats->o3f, stats->oDirect ? out.tensor : ev}},
                "sdpa O = EV / Z");
        finishOutput(out, l.o5f, l.o5, name + " o from f32");
        return;
    }
    const BoundOutput out = bindOutput(*s.o, l.o5f, p.oConvert, name);
    addStep(p.mm2,
            {Arg{DNNL_ARG_SRC, l.s5, sc.s}, Arg{DNNL_ARG_WEIGHTS, vMd, vb},
             Arg{DNNL_ARG_DST, p.oConvert ? l.o5f : l.o5, out.written}},
            "sdpa O = PV");
    finishOutput(out, l.o5f, l.o5, name + " o from f32");
}

} // namespace hipdnngo::onednn
