// Scaled dot-product attention backward as oneDNN primitives, from the forward's stats
// (Stats = log-sum-exp of each row of S):
//   S = scale * Q K^T (+ band mask) (+ bias) (+ ALiBi)   the forward's score steps (Sdpa.cpp)
//   P = exp(S - Stats)                            binary sub with a per-row operand + exp post-op
//   dV = P^T dO                                   matmul, (G, Sq) merged: sums over a KV head's query heads
//   dP = dO V^T                                   matmul
//   Delta = rowsum(dO * O)                        engine kernel (rows x Dv, small)
//   dS = P * (dP - Delta)                         binary sub with a per-row operand + mul post-op
//   dQ = scale * dS K,  dK = scale * dS^T Q       matmuls (dK merged as dV)
//   dbias = dS summed where the bias broadcasts   engine kernel (optional: [1 or B, 1 or H, Sq, Skv])
// The per-row binaries view S as [1, rows, Skv] so that the row operand is oneDNN's per-channel
// broadcast (a vectorised kernel in oneDNN 2.6; the 5-D per-row pattern is a reference kernel).
// With sequence lengths and no dbias, sdpaVarlenBackward (SdpaVarlenBackward.cpp) computes it all
// over the lengths only.
#include "Sdpa.hpp"

#include <algorithm>
#include <array>
#include <limits>

namespace hipdnngo::onednn
{

namespace
{

void refuseSdpaBackwardFeatures(const fbs::SdpaBackwardAttributes& a, const std::string& name)
{
    auto refuse = [&](const flatbuffers::Optional<int64_t>& uid, const char* what) {
        if(uid.has_value())
            throw Unsupported(name + ": SDPA backward with " + what + " is not supported by the oneDNN engine");
    };
    refuse(a.dropout_mask_tensor_uid(), "dropout");
    refuse(a.dropout_scale_tensor_uid(), "dropout");
    refuse(a.dropout_scale_inv_tensor_uid(), "dropout");
    if(a.padding_mask() && !a.seq_len_q_tensor_uid().has_value() && !a.seq_len_kv_tensor_uid().has_value())
        throw Unsupported(name + ": SDPA backward padding_mask is set but there is no seq_len_q / seq_len_kv tensor");
    if(a.dropout_probability().has_value() && a.dropout_probability().value() != 0.f)
        throw Unsupported(name + ": SDPA backward with dropout is not supported by the oneDNN engine");
}

using Strides5 = std::array<int64_t, 5>;

// The 5-D strides [B, Hk, G, S, D] of a [B, H, S, D] tensor (query head h = hk * G + g).
Strides5 headStrides(const Tensor& t, int64_t G)
{
    return {t.strides[0], t.strides[1] * G, t.strides[1], t.strides[2], t.strides[3]};
}

Strides5 denseStrides5(const dnnl::memory::dims& d)
{
    return {d[1] * d[2] * d[3] * d[4], d[2] * d[3] * d[4], d[3] * d[4], d[4], 1};
}

} // namespace

void sdpaBackwardInputs(const fbs::Node& n, const InputCounter& reads)
{
    const auto* a = n.attributes_as_SdpaBackwardAttributes();
    for(int64_t uid : {a->q_tensor_uid(), a->k_tensor_uid(), a->v_tensor_uid(), a->o_tensor_uid(), a->do_tensor_uid(),
                       a->stats_tensor_uid()})
        reads(uid);
    for(const auto& uid : {a->attn_mask_tensor_uid(), a->seq_len_q_tensor_uid(), a->seq_len_kv_tensor_uid()})
        if(uid)
            reads(*uid);
}

void PlanBuilder::sdpaBackward(const fbs::Node& n, const std::string& name)
{
    const auto& a = *n.attributes_as_SdpaBackwardAttributes();
    viaF32_ = true;
    struct Reset
    {
        bool& flag;
        ~Reset() { flag = false; }
    } reset{viaF32_};
    refuseSdpaBackwardFeatures(a, name);
    SdpaShape s = sdpaShape(tensor(a.q_tensor_uid(), "q", name), tensor(a.k_tensor_uid(), "k", name),
                            tensor(a.v_tensor_uid(), "v", name), tensor(a.o_tensor_uid(), "o", name), name);
    s.alibi = a.alibi_mask();
    const Tensor& dO = tensor(a.do_tensor_uid(), "dO", name);
    const Tensor& dQ = tensor(a.dq_tensor_uid(), "dQ", name);
    const Tensor& dK = tensor(a.dk_tensor_uid(), "dK", name);
    const Tensor& dV = tensor(a.dv_tensor_uid(), "dV", name);
    const Tensor& stats = tensor(a.stats_tensor_uid(), "stats", name);
    const int64_t B = s.B, H = s.H, Sq = s.Sq, D = s.D, Hk = s.Hk, Skv = s.Skv, Dv = s.Dv, G = s.G;
    // With sequence lengths the band is applied row by row, as in the forward (Sdpa.cpp).
    const Tensor* seqQ = sdpaLengths(a.seq_len_q_tensor_uid(), "seq_len_q", B, name);
    const Tensor* seqKv = sdpaLengths(a.seq_len_kv_tensor_uid(), "seq_len_kv", B, name);
    const bool padded = seqQ || seqKv;
    // Ragged (THD) tensors: computed on dense copies (Ragged.cpp), as in the forward; claimed
    // before anything reads their strides.
    for(const Tensor* t : {s.q, s.o, &dO, &dQ, &stats})
        claimRagged(t, seqQ, "seq_len_q", name);
    for(const Tensor* t : {s.k, s.v, &dK, &dV})
        claimRagged(t, seqKv, "seq_len_kv", name);
    if(dO.dims != s.o->dims || dQ.dims != s.q->dims || dK.dims != s.k->dims || dV.dims != s.v->dims)
        throw Unsupported(name + ": SDPA backward gradients do not have the shapes of o, q, k and v");
    const bool statsOk = stats.dims == std::vector<int64_t>{B, H, Sq, 1} || stats.dims == std::vector<int64_t>{B, H, Sq};
    if(!statsOk || stats.dtype != fbs::DataType::FLOAT || !rowMajor(stats) || stats.isConstant || stats.isPassByValue)
        throw Unsupported(name + ": SDPA stats must be a dense row-major FLOAT tensor [B, H, Sq, 1]");
    const Tensor* dBias = a.dbias_tensor_uid() ? &tensor(*a.dbias_tensor_uid(), "dbias", name) : nullptr;
    if(dBias
       && (dBias->rank() != 4 || (dBias->dims[0] != 1 && dBias->dims[0] != B) || (dBias->dims[1] != 1 && dBias->dims[1] != H)
           || dBias->dims[2] != Sq || dBias->dims[3] != Skv || dBias->isConstant || dBias->isPassByValue))
    {
        std::string dims;
        for(int64_t d : dBias->dims)
            dims += (dims.empty() ? "" : ", ") + std::to_string(d);
        throw Unsupported(name + ": SDPA dbias [" + dims + "] must be [1 or B = " + std::to_string(B) + ", 1 or H = "
                          + std::to_string(H) + ", Sq = " + std::to_string(Sq) + ", Skv = " + std::to_string(Skv) + "]");
    }
    const SdpaScale scale = sdpaScale(a.attn_scale_value(), a.scale_tensor_uid(), D, name);
    const SdpaBand band = resolveSdpaBand(sdpaBandOf(a), name);
    const std::optional<size_t> mask = padded ? std::nullopt : sdpaBandMask(band, s, name);
    const SdpaLayouts l = sdpaLayouts(a.attn_mask_tensor_uid(), s, true, name);
    if(padded && !dBias)
    {
        sdpaVarlenBackward(s, l, scale, band, seqQ, seqKv, stats, dO, dQ, dK, dV, name);
        return;
    }
    const SdpaPrimitives prims = sdpaPrimitives(l, scale, mask.has_value(), name);

    using tag = dnnl::memory::format_tag;
    const int64_t rows = B * H * Sq;
    const mdesc s3({1, rows, Skv}, dt::f32, tag::abc), row3({1, rows, 1}, dt::f32, tag::abc);
    // P^T and dS^T over the merged (G, Sq) rows of a KV head: [B, Hk, Skv, G * Sq].
    const mdesc sT({B, Hk, Skv, G * Sq}, dt::f32, dnnl::memory::dims{Hk * G * Sq * Skv, G * Sq * Skv, 1, Skv});
    // dO as the matmuls read it: 5-D [B, Hk, G, Sq, Dv] and merged [B, Hk, G * Sq, Dv]; a dense f32
    // copy when it is not f32 or its heads and rows do not merge. O: f32 for the Delta kernel.
    const bool doConvert = dO.dtype != fbs::DataType::FLOAT || (G > 1 && dO.strides[1] != Sq * dO.strides[2]);
    const dnnl::memory::dims do5dims{B, Hk, G, Sq, Dv};
    const Strides5 doUserSt = headStrides(dO, G), oUserSt = headStrides(*s.o, G);
    const mdesc do5user(do5dims, *mapType(dO.dtype), dnnl::memory::dims(doUserSt.begin(), doUserSt.end()));
    const mdesc do5f(do5dims, dt::f32, tag::abcde);
    const mdesc do5 = doConvert ? do5f : do5user;
    const Strides5 doSt = doConvert ? denseStrides5(do5dims) : doUserSt;
    const mdesc doM({B, Hk, G * Sq, Dv}, dt::f32, dnnl::memory::dims{doSt[0], doSt[1], doSt[3], doSt[4]});
    const bool oConvert = s.o->dtype != fbs::DataType::FLOAT;
    const Strides5 oSt = oConvert ? denseStrides5(do5dims) : oUserSt;
    // V^T: [B, Hk, 1, Dv, Skv] over V as the forward's layouts hold it.
    const dnnl::memory::dims vTStrides =
        l.vConvert ? dnnl::memory::dims{Hk * Skv * Dv, Skv * Dv, Skv * Dv, 1, Dv}
                   : dnnl::memory::dims{s.v->strides[0], s.v->strides[1], s.v->strides[1], s.v->strides[3], s.v->strides[2]};
    const mdesc vT({B, Hk, 1, Dv, Skv}, dt::f32, vTStrides);
    const mdesc k5 = l.kConvert ? l.kF32 : l.kUser;
    // Q merged [B, Hk, G * Sq, D] (sdpaLayouts copied it where its strides do not merge).
    const Strides5 qSt = l.qConvert ? denseStrides5({B, Hk, G, Sq, D}) : headStrides(*s.q, G);
    const mdesc qM({B, Hk, G * Sq, D}, dt::f32, dnnl::memory::dims{qSt[0], qSt[1], qSt[3], qSt[4]});
    // Gradients: written in place when f32 (or staged), else through a dense f32 copy.
    auto gradMd = [](const dnnl::memory::dims& dims, const Tensor& t, const dnnl::memory::dims& strides, bool f32) {
        return f32 ? mdesc(dims, dt::f32, tag::abcde) : mdesc(dims, *mapType(t.dtype), strides);
    };
    const dnnl::memory::dims dq5dims{B, Hk, G, Sq, D}, dk5dims{B, Hk, 1, Skv, D}, dv5dims{B, Hk, 1, Skv, Dv};
    const Strides5 dqSt = headStrides(dQ, G);
    const dnnl::memory::dims dqUserSt(dqSt.begin(), dqSt.end()),
        dkUserSt{dK.strides[0], dK.strides[1], dK.strides[1], dK.strides[2], dK.strides[3]},
        dvUserSt{dV.strides[0], dV.strides[1], dV.strides[1], dV.strides[2], dV.strides[3]};
    const bool dqConv = dQ.dtype != fbs::DataType::FLOAT, dkConv = dK.dtype != fbs::DataType::FLOAT,
               dvConv = dV.dtype != fbs::DataType::FLOAT;
    const mdesc dqUser = gradMd(dq5dims, dQ, dqUserSt, false), dkUser = gradMd(dk5dims, dK, dkUserSt, false),
                dvUser = gradMd(dv5dims, dV, dvUserSt, false);
    const mdesc dqW = dqConv ? gradMd(dq5dims, dQ, dqUserSt, true) : dqUser;
    const mdesc dkW = dkConv ? gradMd(dk5dims, dK, dkUserSt, true) : dkUser;
    const mdesc dvW = dvConv ? gradMd(dv5dims, dV, dvUserSt, true) : dvUser;
    // The merged matmuls write dK / dV as [B, Hk, Skv, D].
    auto drop2 = [](const mdesc& m) {
        const dnnl::memory::dims d = m.dims();
        const auto& st = m.data.format_desc.blocking.strides;
        return mdesc({d[0], d[1], d[3], d[4]}, m.data_type(), dnnl::memory::dims{st[0], st[1], st[3], st[4]});
    };
    const mdesc dk4 = drop2(dkW), dv4 = drop2(dvW);

    api::Built pExp, mmDv, mmDp, dsMul, mmDq, mmDk;
    try
    {
        dnnl::post_ops expOps;
        api::appendEltwise(expOps, algorithm::eltwise_exp, 0.f, 0.f);
        dnnl::primitive_attr expAttr;
        expAttr.set_post_ops(expOps);
        pExp = api::binary(algorithm::binary_sub, s3, row3, s3, expAttr, build_);
        mmDv = api::matmul(sT, doM, dv4, {}, build_);
        mmDp = api::matmul(do5, vT, l.s5, {}, build_);
        dnnl::post_ops mulOps;
        api::appendBinary(mulOps, algorithm::binary_mul, s3);
        dnnl::primitive_attr mulAttr;
        mulAttr.set_post_ops(mulOps);
        dsMul = api::binary(algorithm::binary_sub, s3, row3, s3, mulAttr, build_);
        const dnnl::primitive_attr scaleAttr = scale.attr();
        mmDq = api::matmul(l.s5, k5, dqW, scaleAttr, build_);
        mmDk = api::matmul(sT, qM, dk4, scaleAttr, build_);
    }
    catch(const dnnl::error& e)
    {
        throw Unsupported(name + ": oneDNN has no matmul/binary for this SDPA backward (" + e.what() + ")");
    }
    for(const api::Built* b : {&pExp, &mmDv, &mmDp, &dsMul, &mmDq, &mmDk})
        if(b->impl.find("ref") != std::string::npos)
            throw Unsupported(name + ": oneDNN would run this SDPA backward on a reference kernel (" + b->impl
                              + "), not faster than HIPDNNGO_CPU_REFERENCE");

    // S, then P = exp(S - Stats) in place.
    const SdpaScores sc = sdpaScores(s, l, prims, mask, name);
    Buffer rowStats = input(stats, name);
    if(padded)
    {
        // Padding: the forward's masking of S; a row the forward wrote as dead (stats -inf) gets
        // S = -inf and stats 0 here, so P, dS and its share of dQ, dK, dV are 0.
        const Buffer adjusted = temp(row3);
        addKernel({sc.s, rowStats, seqQ ? input(*seqQ, name) : Buffer::none(), seqKv ? input(*seqKv, name) : Buffer::none(),
                   adjusted},
                  [B, H, Sq, Skv, band, name](void* const* at) {
                      float* scores = static_cast<float*>(at[0]);
                      const float* st = static_cast<const float*>(at[1]);
                      const int32_t* lq = static_cast<const int32_t*>(at[2]); // null: full length
                      const int32_t* lkv = static_cast<const int32_t*>(at[3]);
                      float* out = static_cast<float*>(at[4]);
                      sdpaMaskRows(scores, lq, lkv, B, H, Sq, Skv, band, name, [&](int64_t r, float* row, bool, bool visible) {
                          if(!visible)
                              std::fill(row, row + Skv, -std::numeric_limits<float>::infinity());
                          out[r] = visible ? st[r] : 0.f;
                      });
                  },
                  name + " sdpa padding: keys outside the band or past seq_len_kv masked, dead rows zeroed");
        rowStats = adjusted;
    }
    addStep(pExp, {Arg{DNNL_ARG_SRC_0, s3, sc.s}, Arg{DNNL_ARG_SRC_1, row3, rowStats}, Arg{DNNL_ARG_DST, s3, sc.s}},
            "sdpa P = exp(S - stats)");
    Buffer dob = input(dO, name);
    if(doConvert)
    {
        const Buffer t = temp(do5f);
        addReorder(do5user, dob, do5f, t, name + " dO to f32");
        dob = t;
    }
    const BoundOutput dvOut = bindOutput(dV, dvW, dvConv, name);
    addStep(mmDv, {Arg{DNNL_ARG_SRC, sT, sc.s}, Arg{DNNL_ARG_WEIGHTS, doM, dob}, Arg{DNNL_ARG_DST, dv4, dvOut.written}},
            "sdpa dV = P^T dO");
    finishOutput(dvOut, dvW, dvUser, name + " dV from f32");
    Buffer vb = input(*s.v, name);
    if(l.vConvert)
    {
        const Buffer t = temp(l.vF32);
        addReorder(l.v5, vb, l.vF32, t, name + " v to f32");
        vb = t;
    }
    const Buffer dp = temp(l.s5);
    addStep(mmDp, {Arg{DNNL_ARG_SRC, do5, dob}, Arg{DNNL_ARG_WEIGHTS, vT, vb}, Arg{DNNL_ARG_DST, l.s5, dp}},
            "sdpa dP = dO V^T");
    // Delta = rowsum(dO * O), rows in S's order (b, hk, g, i).
    Buffer ob = input(*s.o, name);
    if(oConvert)
    {
        const Buffer t = temp(do5f);
        addReorder(l.o5, ob, do5f, t, name + " o to f32");
        ob = t;
    }
    const Buffer delta = temp(row3);
    const std::array<int64_t, 5> dims{B, Hk, G, Sq, Dv};
    addKernel({dob, ob, delta},
              [dims, doSt, oSt](void* const* at) {
                  const float* x = static_cast<const float*>(at[0]);
                  const float* y = static_cast<const float*>(at[1]);
                  float* out = static_cast<float*>(at[2]);
                  const int64_t nrows = dims[0] * dims[1] * dims[2] * dims[3], width = dims[4];
#pragma omp parallel for schedule(static)
                  for(int64_t r = 0; r < nrows; ++r)
                  {
                      int64_t rest = r;
                      const int64_t i = rest % dims[3];
                      rest /= dims[3];
                      const int64_t g = rest % dims[2];
                      rest /= dims[2];
                      const int64_t hk = rest % dims[1], b = rest / dims[1];
                      const float* xr = x + b * doSt[0] + hk * doSt[1] + g * doSt[2] + i * doSt[3];
                      const float* yr = y + b * oSt[0] + hk * oSt[1] + g * oSt[2] + i * oSt[3];
                      float sum = 0.f;
                      for(int64_t c = 0; c < width; ++c)
                          sum += xr[c * doSt[4]] * yr[c * oSt[4]];
                      out[r] = sum;
                  }
              },
              name + " Delta = rowsum(dO * O)");
    // dS = (dP - Delta) * P, in dP's buffer.
    addStep(dsMul,
            {Arg{DNNL_ARG_SRC_0, s3, dp}, Arg{DNNL_ARG_SRC_1, row3, delta}, Arg{DNNL_ARG_DST, s3, dp},
             Arg{DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1, s3, sc.s}},
            "sdpa dS = P * (dP - Delta)");
    if(dBias)
        sdpaDbias(*dBias, dp, B, H, Sq, Skv, name);
    const BoundOutput dqOut = bindOutput(dQ, dqW, dqConv, name);
    const BoundOutput dkOut = bindOutput(dK, dkW, dkConv, name);
    std::vector<Arg> dqArgs{Arg{DNNL_ARG_SRC, l.s5, dp}, Arg{DNNL_ARG_WEIGHTS, k5, sc.k}, Arg{DNNL_ARG_DST, dqW, dqOut.written}};
    std::vector<Arg> dkArgs{Arg{DNNL_ARG_SRC, sT, dp}, Arg{DNNL_ARG_WEIGHTS, qM, sc.q}, Arg{DNNL_ARG_DST, dk4, dkOut.written}};
    for(const Arg& arg : sdpaScaleArgs(scale, name))
        dqArgs.push_back(arg), dkArgs.push_back(arg);
    addStep(mmDq, std::move(dqArgs), "sdpa dQ = scale*dS K");
    finishOutput(dqOut, dqW, dqUser, name + " dQ from f32");
    addStep(mmDk, std::move(dkArgs), "sdpa dK = scale*dS^T Q");
    finishOutput(dkOut, dkW, dkUser, name + " dK from f32");
}

// sdpaDbias: dbias [Bb, Hb, Sq, Skv] (Bb 1 or B, Hb 1 or H) from dS, dense f32 rows in (b, h, i)
// order: row (bb, hb, i) sums the rows of b = bb, bb + Bb, ... and h = hb, hb + Hb, ... in that
// order, one thread per output row (the sum does not depend on the thread count).
void PlanBuilder::sdpaDbias(const Tensor& dBias, const Buffer& dS, int64_t B, int64_t H, int64_t Sq, int64_t Skv,
                            const std::string& name)
{
    using tag = dnnl::memory::format_tag;
    const int64_t Bb = dBias.dims[0], Hb = dBias.dims[1];
    const mdesc f32({Bb, Hb, Sq, Skv}, dt::f32, tag::abcd);
    const mdesc user({Bb, Hb, Sq, Skv}, *mapType(dBias.dtype), dnnl::memory::dims(dBias.strides.begin(), dBias.strides.end()));
    const BoundOutput out = bindOutput(dBias, f32, dBias.dtype != fbs::DataType::FLOAT || !rowMajor(dBias), name);
    addKernel({dS, out.written},
              [B, H, Sq, Skv, Bb, Hb](void* const* at) {
                  const float* ds = static_cast<const float*>(at[0]);
                  float* db = static_cast<float*>(at[1]);
                  const int64_t rows = Bb * Hb * Sq;
#pragma omp parallel for schedule(static)
                  for(int64_t r = 0; r < rows; ++r)
                  {
                      const int64_t i = r % Sq, hb = (r / Sq) % Hb, bb = r / (Sq * Hb);
                      float* dst = db + r * Skv;
                      std::fill(dst, dst + Skv, 0.f);
                      for(int64_t b = bb; b < B; b += Bb)
                          for(int64_t h = hb; h < H; h += Hb)
                          {
                              const float* src = ds + ((b * H + h) * Sq + i) * Skv;
#pragma omp simd
                              for(int64_t j = 0; j < Skv; ++j)
                                  dst[j] += src[j];
                          }
                  }
              },
              name + " sdpa dbias = dS summed where the bias broadcasts");
    finishOutput(out, f32, user, name + " dbias from f32");
}

} // namespace hipdnngo::onednn
