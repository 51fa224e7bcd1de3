// SDPA backward with sequence lengths (padded and ragged batches), computed for the lengths each
// execution brings: see sdpaVarlenBackward below; the forward is SdpaVarlen.cpp, the row steps
// both use SdpaRows.hpp.
#include "Sdpa.hpp"
#include "SdpaRows.hpp"

#include <hipdnn_plugin_sdk/helpers/Attention.hpp>
#include <omp.h>

#include <algorithm>
#include <limits>

namespace hipdnngo::onednn
{

using namespace sdpa_rows;

// sdpaVarlenBackward: the backward with sequence lengths, over each batch's rows and keys only.
// One task per (batch, KV head) owns that head's dK and dV rows (summed in the thread's scratch,
// then stored), so they sum without partial copies in a fixed order (query heads of the group,
// then row blocks); with fewer such pairs than threads, each pair's (head, block) items are split
// into parts whose sums are added in part order afterwards. Per block of query rows:
// S = scale Q K^T over the keys the block sees (bias, ALiBi), P = exp(S - stats) on each row's
// band, dP = dO V^T, dS = P (dP - Delta) with Delta = rowsum(dO O), dQ = scale dS K,
// dK += scale dS^T Q, dV += P^T dO (sgemm each). Q, K, V, O, dO are read and dQ, dK, dV written in
// their own types, a block of rows at a time. Rows past seq_len_q, rows the forward saw nothing
// for (stats -inf) and keys no row sees get zero gradients.
void PlanBuilder::sdpaVarlenBackward(const SdpaShape& s, const SdpaLayouts& l, const SdpaScale& scale, const SdpaBand& band,
                                     const Tensor* seqQ, const Tensor* seqKv, const Tensor& stats, const Tensor& dO,
                                     const Tensor& dQ, const Tensor& dK, const Tensor& dV, const std::string& name)
{
    using tag = dnnl::memory::format_tag;
    const int64_t B = s.B, H = s.H, Hk = s.Hk, G = s.G, Sq = s.Sq, Skv = s.Skv, D = s.D, Dv = s.Dv;
    // [B, Hk, groups, S, W] views of a [B, H or Hk, S, W] tensor as the caller holds it.
    auto view5 = [&](const Tensor& t, int64_t groups, int64_t S, int64_t W) {
        return mdesc({B, Hk, groups, S, W}, *mapType(t.dtype),
                     dnnl::memory::dims{t.strides[0], t.strides[1] * groups, t.strides[1], t.strides[2], t.strides[3]});
    };
    const mdesc qRowsF({B, Hk, G, Sq, D}, dt::f32, tag::abcde), oRowsF({B, Hk, G, Sq, Dv}, dt::f32, tag::abcde);
    const SdpaOperand q = sdpaVarlenOperand(*s.q, l.q5user, qRowsF, G, "q", name);
    const SdpaOperand k = sdpaVarlenOperand(*s.k, l.kUser, l.kF32, 1, "k", name);
    const SdpaOperand v = sdpaVarlenOperand(*s.v, l.v5, l.vF32, 1, "v", name);
    const SdpaOperand o = sdpaVarlenOperand(*s.o, l.o5, oRowsF, G, "o", name);
    const SdpaOperand go = sdpaVarlenOperand(dO, view5(dO, G, Sq, Dv), oRowsF, G, "dO", name);
    const std::pair<Buffer, std::array<int64_t, 5>> biasRows = sdpaBiasRows(l, name);
    const Buffer bias = biasRows.first;
    const std::array<int64_t, 5> bs = biasRows.second;
    BoundOutput dqOut, dkOut, dvOut;
    const SdpaOperand dq = sdpaVarlenOutput(dQ, qRowsF, G, dqOut, name), dk = sdpaVarlenOutput(dK, l.kF32, 1, dkOut, name),
                      dv = sdpaVarlenOutput(dV, l.vF32, 1, dvOut, name);
    const int maxThreads = std::max(1, omp_get_max_threads());
    const int64_t blockRows = std::clamp<int64_t>(kScratchFloats / std::max<int64_t>(Skv, 1), 1, kBlockRows);
    const int64_t blocksQ = (Sq + blockRows - 1) / blockRows, items = G * blocksQ; // (query head, row block) pairs
    const int64_t skv1 = std::max<int64_t>(Skv, 1), W = std::max(D, Dv), acc = skv1 * (D + Dv);
    // Fewer (batch, KV head) pairs than threads: each pair's items are split into parts (at most
    // partsMax), each summing its own dK / dV, added in part order afterwards.
    const int64_t partsMax = B * Hk < maxThreads ? std::min<int64_t>(items, (maxThreads + B * Hk - 1) / (B * Hk)) : 1;
    const int threads = static_cast<int>(std::min<int64_t>(maxThreads, B * Hk * partsMax));
    // Per thread: P and dP / dS (blockRows x Skv each), the block's Q, dO and dQ rows, a row of O,
    // converted K / V rows. dK / dV sums (Skv rows each): one per thread, or one per part.
    const int64_t perThread = 2 * blockRows * skv1 + blockRows * (2 * D + Dv) + Dv + kSegRows * W;
    const int64_t sums = partsMax > 1 ? B * Hk * partsMax : threads;
    const Buffer scratch = temp(mdesc({threads * perThread + sums * acc}, dt::f32, tag::a));
    std::vector<Buffer> bufs{q.buf, k.buf, v.buf, o.buf, go.buf, input(stats, name), bias, dq.buf, dk.buf, dv.buf, scratch,
                             seqQ ? input(*seqQ, name) : Buffer::none(), seqKv ? input(*seqKv, name) : Buffer::none(),
                             scale.runtime ? input(*scale.runtime, name) : Buffer::none()};
    const std::vector<float> slopes = s.alibi ? hipdnn_plugin_sdk::alibiSlopes(H) : std::vector<float>{};
    const float scaleValue = scale.value;
    const ConvertIsa isa = convertIsa();
    const bool avx2 = isa != ConvertIsa::Scalar;
    addKernel(
        std::move(bufs),
        [=](void* const* at) {
            const void *Q = at[0], *O = at[3], *GO = at[4];
            const float* lse = static_cast<const float*>(at[5]);
            const float* bias = static_cast<const float*>(at[6]);
            void *gQ = at[7], *gK = at[8], *gV = at[9];
            float* scratchAll = static_cast<float*>(at[10]);
            const int32_t* lq = static_cast<const int32_t*>(at[11]); // null: full length
            const int32_t* lkv = static_cast<const int32_t*>(at[12]);
            const float sc = at[13] ? *static_cast<const float*>(at[13]) : scaleValue;
            sdpaCheckLengths(lq, lkv, B, Sq, Skv, name);
            const KeyRows kr{at[1], k.type, k.sb, k.shk, k.si, D, nullptr, 0, 0};
            const KeyRows vr{at[2], v.type, v.sb, v.shk, v.si, Dv, nullptr, 0, 0};
            constexpr float negInf = -std::numeric_limits<float>::infinity();
            int failed = 0;
            const int nthr = std::min(threads, omp_get_max_threads());
            const int64_t parts = B * Hk < nthr ? std::min<int64_t>(partsMax, (nthr + B * Hk - 1) / (B * Hk)) : 1;
            const int64_t tasks = B * Hk * parts;
            float* sumsAll = scratchAll + static_cast<int64_t>(threads) * perThread;
            // storeSums: rows [j0, j1) of (b, hk)'s dK and dV from its sums at `first` (with parts,
            // each part's sums acc floats apart, added in part order into `row`).
            auto storeSums = [&](int64_t b, int64_t hk, const float* first, int64_t j0, int64_t j1, float* row) {
                auto summed = [&](const float* src, int64_t w) {
                    if(parts == 1)
                        return src;
                    std::copy(src, src + w, row);
                    for(int64_t p = 1; p < parts; ++p)
                        for(int64_t c = 0; c < w; ++c)
                            row[c] += src[p * acc + c];
                    return static_cast<const float*>(row);
                };
                for(int64_t j = j0; j < j1; ++j)
                {
                    storeRow(dk.type, gK, dk.at(b, hk, 0, j), summed(first + j * D, D), D, isa);
                    storeRow(dv.type, gV, dv.at(b, hk, 0, j), summed(first + skv1 * D + j * Dv, Dv), Dv, isa);
                }
            };
#pragma omp parallel num_threads(static_cast<int>(std::min<int64_t>(nthr, tasks))) reduction(| : failed)
            {
                float* P = scratchAll + static_cast<int64_t>(omp_get_thread_num()) * perThread;
                float* T = P + blockRows * skv1; // dP, then dS
                float* Qs = T + blockRows * skv1;
                float* GOs = Qs + blockRows * D;
                float* dQs = GOs + blockRows * Dv;
                float* orow = dQs + blockRows * D;
                float* seg = orow + Dv;
#pragma omp for schedule(dynamic, 1)
                for(int64_t task = 0; task < tasks; ++task)
                {
                    const int64_t part = task % parts, b = task / (parts * Hk), hk = (task / parts) % Hk;
                    const int64_t sq = lq ? lq[b] : Sq, skv = lkv ? lkv[b] : Skv;
                    const SdpaKeys keys(band, sq, skv);
                    // The sums: this thread's, or (parts) this part's, (b, hk)'s parts side by side.
                    float* dKs = sumsAll + (parts > 1 ? task : omp_get_thread_num()) * acc;
                    float* dVs = dKs + skv1 * D;
                    std::fill(dKs, dKs + acc, 0.f);
                    for(int64_t item = part * items / parts; item < (part + 1) * items / parts; ++item)
                    {
                        const int64_t g = item / blocksQ, blk = item % blocksQ;
                        const int64_t h = hk * G + g, i0 = blk * blockRows, i1 = std::min(Sq, i0 + blockRows);
                        const int64_t iv = std::clamp(sq, i0, i1), m = iv - i0;
                        const int64_t kb = m > 0 ? keys.first(i0) : 0, ke = m > 0 ? keys.last(iv - 1) : 0;
                        const int64_t n = std::max<int64_t>(ke - kb, 0);
                        for(int64_t i = n == 0 ? i0 : iv; i < i1; ++i) // rows past seq_len_q, or seeing no key
                            zeroRow(dq.type, gQ, dq.at(b, hk, g, i), D);
                        if(n == 0)
                            continue;
                        for(int64_t i = i0; i < iv; ++i)
                        {
                            loadRow(q.type, Q, q.at(b, hk, g, i), Qs + (i - i0) * D, D, isa);
                            loadRow(go.type, GO, go.at(b, hk, g, i), GOs + (i - i0) * Dv, Dv, isa);
                        }
                        int64_t j1 = 0, ld = 0;
                        for(int64_t j0 = kb; j0 < ke; j0 = j1)
                        {
                            const float* kp = kr.segment(b, hk, j0, ke, seg, isa, j1, ld);
                            failed |= dnnl_sgemm('N', 'T', m, j1 - j0, D, sc, Qs, D, kp, ld, 0.f, P + (j0 - kb), n)
                                      != dnnl_success;
                        }
                        for(int64_t j0 = kb; j0 < ke; j0 = j1)
                        {
                            const float* vp = vr.segment(b, hk, j0, ke, seg, isa, j1, ld);
                            failed |= dnnl_sgemm('N', 'T', m, j1 - j0, Dv, 1.f, GOs, Dv, vp, ld, 0.f, T + (j0 - kb), n)
                                      != dnnl_success;
                        }
                        for(int64_t i = i0; i < iv; ++i)
                        {
                            float* p = P + (i - i0) * n;
                            float* t = T + (i - i0) * n;
                            const float rowLse = lse[(b * H + h) * Sq + i];
                            const int64_t rb = std::max(keys.first(i), kb) - kb;
                            const int64_t re = std::max(std::min(keys.last(i), ke) - kb, rb);
                            if(rowLse == negInf) // the forward saw nothing: no gradient from this row
                            {
                                std::fill(p, p + n, 0.f);
                                std::fill(t, t + n, 0.f);
                                continue;
                            }
                            const float slope = slopes.empty() ? 0.f : slopes[static_cast<size_t>(h)];
                            addScoreTerms(p, rb, re, bias, bs, b, hk, g, i, kb, slope);
                            std::fill(p, p + rb, 0.f);
                            std::fill(p + re, p + n, 0.f);
                            if(avx2)
                                expRowAvx2(p + rb, re - rb, rowLse);
                            else
                                expRow(p + rb, re - rb, rowLse);
                            loadRow(o.type, O, o.at(b, hk, g, i), orow, Dv, isa);
                            const float* gorow = GOs + (i - i0) * Dv;
                            float dlt = 0.f;
                            for(int64_t c = 0; c < Dv; ++c)
                                dlt += gorow[c] * orow[c];
                            for(int64_t c = 0; c < n; ++c)
                                t[c] = p[c] * (t[c] - dlt);
                        }
                        for(int64_t j0 = kb; j0 < ke; j0 = j1)
                        {
                            const float* kp = kr.segment(b, hk, j0, ke, seg, isa, j1, ld);
                            const float beta = j0 == kb ? 0.f : 1.f;
                            failed |= dnnl_sgemm('N', 'N', m, D, j1 - j0, sc, T + (j0 - kb), n, kp, ld, beta, dQs, D)
                                      != dnnl_success;
                        }
                        for(int64_t i = i0; i < iv; ++i)
                            storeRow(dq.type, gQ, dq.at(b, hk, g, i), dQs + (i - i0) * D, D, isa);
                        failed |= dnnl_sgemm('T', 'N', n, D, m, sc, T, n, Qs, D, 1.f, dKs + kb * D, D) != dnnl_success;
                        failed |= dnnl_sgemm('T', 'N', n, Dv, m, 1.f, P, n, GOs, Dv, 1.f, dVs + kb * Dv, Dv) != dnnl_success;
                    }
                    if(parts == 1)
                        storeSums(b, hk, dKs, 0, Skv, seg);
                }
            }
            if(parts > 1) // the parts' sums, added in part order; rows of (b, hk) in chunks
            {
                const int64_t chunk = 64, chunks = (Skv + chunk - 1) / chunk;
#pragma omp parallel num_threads(nthr)
                {
                    float* row = scratchAll + static_cast<int64_t>(omp_get_thread_num()) * perThread; // W floats
#pragma omp for schedule(static)
                    for(int64_t c = 0; c < B * Hk * chunks; ++c)
                    {
                        const int64_t bh = c / chunks, j0 = (c % chunks) * chunk;
                        storeSums(bh / Hk, bh % Hk, sumsAll + bh * parts * acc, j0, std::min(Skv, j0 + chunk), row);
                    }
                }
            }
            if(failed)
                hipdnn_plugin_sdk::fail(HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR,
                                        name + ": oneDNN's sgemm refused an SDPA backward block");
        },
        name + " sdpa backward with sequence lengths: P, dS and the gradients over each batch's keys only (sgemm per block of "
            + std::to_string(blockRows) + " query rows)");
    finishOutput(dqOut, qRowsF, view5(dQ, G, Sq, D), name + " dQ from f32");
    finishOutput(dkOut, l.kF32, view5(dK, 1, Skv, D), name + " dK from f32");
    finishOutput(dvOut, l.vF32, view5(dV, 1, Skv, Dv), name + " dV from f32");
}

} // namespace hipdnngo::onednn
