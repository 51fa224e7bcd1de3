// SDPA forward with sequence lengths (padded, ragged and paged batches), computed for the lengths
// each execution brings instead of the padded extents. Serving graphs pad far beyond what a batch
// uses (NVIDIA's paged prefill sample: Sq 512 and Skv 32768 for 16-32 queries and a few thousand
// keys), so the full [B, H, Sq, Skv] scores of the dense path would be gigabytes of workspace and
// hundreds of times the work.
//
// One engine kernel walks blocks of up to kBlockRows query rows of one (batch, KV head), the
// group's query heads stacked, in parallel: S = scale * Q K^T over the keys the block's rows can
// see (oneDNN's sgemm, row lengths known only now), bias / ALiBi / band on each row's visible
// range, E = exp(S - M) with M = max(row max, sink), Z = rowsum(E) (+ exp(sink - M)),
// O = (E V) / Z (sgemm), and the row outputs stats = M + log(Z), max = M, sum_exp = Z. Rows past
// seq_len_q and rows that see no key are written as the dense path writes them (Sdpa.hpp,
// SdpaStats). Q, K, V and O stay in their own types (SdpaRows.hpp converts rows as they are
// used). The backward: SdpaVarlenBackward.cpp.
#include "Sdpa.hpp"
#include "SdpaRows.hpp"

#include <hipdnn_plugin_sdk/helpers/Attention.hpp>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace hipdnngo::onednn
{

using namespace sdpa_rows;

// sdpaVarlenOperand: an operand as rows with a unit inner stride, in a type the kernels read
// (FLOAT, HALF or BFLOAT16): the caller's own buffer (a staged tensor's in its stored type, so no
// whole-tensor f32 copy is made) where it has such rows, else a dense f32 copy (a reorder).
PlanBuilder::SdpaOperand PlanBuilder::sdpaVarlenOperand(const Tensor& t, const mdesc& user, const mdesc& dense, int64_t groups,
                                                        const std::string& what, const std::string& name)
{
    if(t.strides[3] == 1)
    {
        if(const std::optional<fbs::DataType> raw = rawType(t, false); raw && isStageable(*raw))
            return SdpaOperand::rows(t, groups, rawBuffer(t, false, name), *raw);
        if(t.dtype == fbs::DataType::FLOAT || isStageable(t.dtype))
            return SdpaOperand::rows(t, groups, input(t, name), t.dtype);
    }
    const Buffer copy = temp(dense);
    addReorder(user, input(t, name), dense, copy, name + " " + what + " to dense f32");
    return SdpaOperand::dense(dense, copy);
}

// sdpaVarlenOutput: the same for an output: the caller's own rows (a staged tensor no later node
// reads: its stored type) where they have a unit inner stride, else the dense f32 rows `dense`
// that finishOutput(bound, ...) reorders into the tensor.
PlanBuilder::SdpaOperand PlanBuilder::sdpaVarlenOutput(const Tensor& t, const mdesc& dense, int64_t groups, BoundOutput& bound,
                                                       const std::string& name)
{
    const std::optional<fbs::DataType> raw = t.strides[3] == 1 ? rawType(t, true) : std::nullopt;
    const bool own = t.strides[3] == 1 && (raw ? isStageable(*raw) : t.dtype == fbs::DataType::FLOAT || isStageable(t.dtype));
    if(raw && own)
        bound.written = bound.tensor = rawBuffer(t, true, name);
    else
        bound = bindOutput(t, dense, !own, name);
    return own ? SdpaOperand::rows(t, groups, bound.written, raw ? *raw : t.dtype) : SdpaOperand::dense(dense, bound.written);
}

// sdpaBiasRows: the attn_mask as its dense f32 copy [b', Hk', G', Sq', Skv'] and its strides over
// [B, Hk, G, Sq, Skv], 0 where it broadcasts (none without a mask).
std::pair<Buffer, std::array<int64_t, 5>> PlanBuilder::sdpaBiasRows(const SdpaLayouts& l, const std::string& name)
{
    std::array<int64_t, 5> strides{};
    if(!l.bias)
        return {Buffer::none(), strides};
    const Buffer copy = temp(l.biasMd);
    addReorder(l.biasUser, input(*l.bias, name), l.biasMd, copy, name + " attn_mask to f32");
    const dnnl::memory::dims d = l.biasMd.dims();
    int64_t stride = 1;
    for(int i = 4; i >= 0; --i)
    {
        strides[static_cast<size_t>(i)] = d[static_cast<size_t>(i)] == 1 ? 0 : stride;
        stride *= d[static_cast<size_t>(i)];
    }
    return {copy, strides};
}

void PlanBuilder::sdpaVarlen(const SdpaShape& s, const SdpaLayouts& l, const SdpaScale& scale, const SdpaStats& st,
                             const std::string& name)
{
    const int64_t B = s.B, H = s.H, Hk = s.Hk, G = s.G, Sq = s.Sq, Skv = s.Skv, D = s.D, Dv = s.Dv;
    // Q, K, V and O are read and written in their own types (a staged tensor in its stored one),
    // a block at a time: no whole-tensor copies (a serving graph's would be most of its memory).
    const SdpaOperand q = sdpaVarlenOperand(*s.q, l.q5user, l.q5f, G, "q", name);
    // A paged cache [blocks, Hk, block, W] is read through its table (sdpaPaging checked its type
    // and unit inner stride); its sb, shk, si are the cache's strides.
    auto keyOperand = [&](const Tensor& t, const Tensor* table, const mdesc& user, const mdesc& dense, const char* what) {
        if(!table)
            return sdpaVarlenOperand(t, user, dense, 1, what, name);
        const std::optional<fbs::DataType> raw = rawType(t, false);
        return SdpaOperand::rows(t, 1, raw ? rawBuffer(t, false, name) : input(t, name), raw ? *raw : t.dtype);
    };
    const SdpaOperand k = keyOperand(*s.k, s.paging.tableK, l.kUser, l.kF32, "k");
    const SdpaOperand v = keyOperand(*s.v, s.paging.tableV, l.v5, l.vF32, "v");
    const std::pair<Buffer, std::array<int64_t, 5>> biasRows = sdpaBiasRows(l, name);
    const Buffer bias = biasRows.first;
    const std::array<int64_t, 5> bs = biasRows.second;
    BoundOutput out;
    const SdpaOperand o = sdpaVarlenOutput(*s.o, l.o5f, G, out, name);
    // A task is a block of query rows of one (batch, KV head) with the G query heads of the group
    // stacked: one sgemm per K / V segment serves them all, and K / V are converted once per block.
    const int64_t blockRows = std::clamp<int64_t>(kScratchFloats / std::max<int64_t>(G * Skv, 1), 1, kBlockRows);
    const int64_t GB = G * blockRows;
    // Scratch for as many threads as there can be tasks (a block's heads split G ways at most).
    const int64_t maxTasks = B * Hk * G * ((Sq + blockRows - 1) / blockRows);
    const int threads = static_cast<int>(std::clamp<int64_t>(maxTasks, 1, std::max(1, omp_get_max_threads())));
    // Per thread: the stacked Q rows, their scores, E V, 1 / Z, then converted K / V rows.
    const int64_t perThread = GB * (D + std::max<int64_t>(Skv, 1) + Dv + 1) + kSegRows * std::max(D, Dv);
    const Buffer scratch = temp(mdesc({threads, perThread}, dt::f32, dnnl::memory::format_tag::ab));
    const Tensor *tableK = s.paging.tableK, *tableV = s.paging.tableV;
    std::vector<Buffer> bufs{q.buf, k.buf, v.buf, bias, out.written, scratch,
                             st.seqQ ? input(*st.seqQ, name) : Buffer::none(),
                             st.seqKv ? input(*st.seqKv, name) : Buffer::none(),
                             st.sink ? input(*st.sink, name) : Buffer::none(),
                             scale.runtime ? input(*scale.runtime, name) : Buffer::none(),
                             tableK ? input(*tableK, name) : Buffer::none(), tableV ? input(*tableV, name) : Buffer::none()};
    for(const Tensor* t : {st.stats, st.max, st.sumExp})
        bufs.push_back(t ? output(*t, name) : Buffer::none());
    const std::vector<float> slopes = s.alibi ? hipdnn_plugin_sdk::alibiSlopes(H) : std::vector<float>{};
    const SdpaBand band = st.band;
    const float scaleValue = scale.value;
    const ConvertIsa isa = convertIsa();
    const bool avx2 = isa != ConvertIsa::Scalar;
    // Paged caches: P table entries per batch, blocks of `block` rows, `blocks` in the cache.
    const int64_t pagesK = s.paging.pagesK, pagesV = s.paging.pagesV;
    const int64_t blockK = tableK ? s.k->dims[2] : 0, blockV = tableV ? s.v->dims[2] : 0;
    const int64_t blocksK = tableK ? s.k->dims[0] : 0, blocksV = tableV ? s.v->dims[0] : 0;
    addKernel(
        std::move(bufs),
        [=](void* const* at) {
            const void* Q = at[0];
            float* scratchAll = static_cast<float*>(at[5]);
            const float* bias = static_cast<const float*>(at[3]);
            void* O = at[4];
            const int32_t* lq = static_cast<const int32_t*>(at[6]); // null: full length
            const int32_t* lkv = static_cast<const int32_t*>(at[7]);
            const float* sink = static_cast<const float*>(at[8]);
            const float qkScale = at[9] ? *static_cast<const float*>(at[9]) : scaleValue;
            const int32_t* tabK = static_cast<const int32_t*>(at[10]);
            const int32_t* tabV = static_cast<const int32_t*>(at[11]);
            float* lse = static_cast<float*>(at[12]); // the row outputs asked for (null otherwise)
            float* mxOut = static_cast<float*>(at[13]);
            float* seOut = static_cast<float*>(at[14]);
            sdpaCheckLengths(lq, lkv, B, Sq, Skv, name);
            if(tabK)
                checkPages(tabK, lkv, B, pagesK, blockK, blocksK, "page_table_k", name);
            if(tabV)
                checkPages(tabV, lkv, B, pagesV, blockV, blocksV, "page_table_v", name);
            const KeyRows kr{at[1], k.type, k.sb, k.shk, k.si, D, tabK, pagesK, blockK};
            const KeyRows vr{at[2], v.type, v.sb, v.shk, v.si, Dv, tabV, pagesV, blockV};
            constexpr float negInf = -std::numeric_limits<float>::infinity();
            const int nthr = std::min(threads, omp_get_max_threads());
            // Fewer (batch, KV head, row block) tasks than threads (decode: a row or a few per
            // head): the group's query heads are split over more tasks.
            const int64_t blocks = (Sq + blockRows - 1) / blockRows, base = B * Hk * blocks;
            const int64_t want = std::min<int64_t>(G, (nthr + base - 1) / base);
            const int64_t perPart = (G + want - 1) / want, parts = (G + perPart - 1) / perPart, tasks = base * parts;
            int failed = 0; // a refused sgemm (its arguments are the plan's: a bug, not bad input)
#pragma omp parallel num_threads(static_cast<int>(std::min<int64_t>(nthr, tasks))) reduction(| : failed)
            {
                float* Qs = scratchAll + static_cast<int64_t>(omp_get_thread_num()) * perThread;
                float* S = Qs + GB * D;
                float* Os = S + GB * std::max<int64_t>(Skv, 1);
                float* invZ = Os + GB * Dv;
                float* seg = invZ + GB;
#pragma omp for schedule(dynamic, 1)
                for(int64_t task = 0; task < tasks; ++task)
                {
                    const int64_t part = task % parts, blk = (task / parts) % blocks, hk = (task / (parts * blocks)) % Hk,
                                  b = task / (parts * blocks * Hk);
                    const int64_t g0 = part * perPart, g1 = std::min(G, g0 + perPart), heads = g1 - g0;
                    const int64_t i0 = blk * blockRows, i1 = std::min(Sq, i0 + blockRows);
                    const int64_t sq = lq ? lq[b] : Sq, skv = lkv ? lkv[b] : Skv;
                    const int64_t iv = std::clamp(sq, i0, i1), m = iv - i0; // rows [i0, iv) exist
                    const SdpaKeys keys(band, sq, skv); // the block's rows together see [kb, ke)
                    const int64_t kb = m > 0 ? keys.first(i0) : 0, ke = m > 0 ? keys.last(iv - 1) : 0;
                    const int64_t n = std::max<int64_t>(ke - kb, 0);
                    // Rows past seq_len_q: O, stats, max, sum_exp as the padding convention says.
                    for(int64_t g = g0; g < g1; ++g)
                        for(int64_t i = iv; i < i1; ++i)
                        {
                            zeroRow(o.type, O, o.at(b, hk, g, i), Dv);
                            const int64_t r = (b * H + hk * G + g) * Sq + i;
                            if(lse)
                                lse[r] = negInf;
                            if(mxOut)
                                mxOut[r] = negInf;
                            if(seOut)
                                seOut[r] = 0.f;
                        }
                    if(m == 0)
                        continue;
                    // Stacked row t = (g - g0) * m + (i - i0).
                    for(int64_t g = g0; g < g1; ++g)
                        for(int64_t i = i0; i < iv; ++i)
                            loadRow(q.type, Q, q.at(b, hk, g, i), Qs + ((g - g0) * m + i - i0) * D, D, isa);
                    int64_t j1 = 0, ld = 0;
                    for(int64_t j0 = kb; j0 < ke; j0 = j1)
                    {
                        const float* kp = kr.segment(b, hk, j0, ke, seg, isa, j1, ld);
                        failed |= dnnl_sgemm('N', 'T', heads * m, j1 - j0, D, qkScale, Qs, D, kp, ld, 0.f, S + (j0 - kb), n)
                                  != dnnl_success;
                    }
                    for(int64_t g = g0; g < g1; ++g)
                        for(int64_t i = i0; i < iv; ++i)
                        {
                            const int64_t t = (g - g0) * m + i - i0, h = hk * G + g;
                            float* row = S + t * n;
                            const int64_t rb = std::max(keys.first(i), kb) - kb;
                            const int64_t re = std::max(std::min(keys.last(i), ke) - kb, rb);
                            const float slope = slopes.empty() ? 0.f : slopes[static_cast<size_t>(h)];
                            addScoreTerms(row, rb, re, bias, bs, b, hk, g, i, kb, slope);
                            const float mx = avx2 ? rowMaxAvx2(row + rb, re - rb) : rowMax(row + rb, re - rb);
                            const bool seen = mx != negInf;
                            const float sk = sink ? sink[h] : negInf;
                            const float mAll = std::max(mx, sk);
                            float z = 0.f;
                            std::fill(row, row + rb, 0.f);
                            std::fill(row + re, row + n, 0.f);
                            if(seen)
                                z = avx2 ? expRowAvx2(row + rb, re - rb, mAll) : expRow(row + rb, re - rb, mAll);
                            if(sink)
                                z += expShifted(sk - mAll);
                            // A row that sees nothing and has no sink: O = 0, stats = max = -inf,
                            // sum_exp = 0 (with a sink: O = 0, stats = max = sink, sum_exp = 1).
                            const bool live = seen || sink;
                            const int64_t r = (b * H + h) * Sq + i;
                            if(lse)
                                lse[r] = live ? mAll + std::log(z) : negInf;
                            if(mxOut)
                                mxOut[r] = live ? mAll : negInf;
                            if(seOut)
                                seOut[r] = live ? z : 0.f;
                            invZ[t] = seen && n > 0 ? 1.f / z : 0.f;
                        }
                    for(int64_t j0 = kb; j0 < ke; j0 = j1)
                    {
                        const float* vp = vr.segment(b, hk, j0, ke, seg, isa, j1, ld);
                        const float beta = j0 == kb ? 0.f : 1.f;
                        failed |= dnnl_sgemm('N', 'N', heads * m, Dv, j1 - j0, 1.f, S + (j0 - kb), n, vp, ld, beta, Os, Dv)
                                  != dnnl_success;
                    }
                    for(int64_t g = g0; g < g1; ++g)
                        for(int64_t i = i0; i < iv; ++i)
                        {
                            const int64_t t = (g - g0) * m + i - i0;
                            const float inv = invZ[t];
                            if(inv == 0.f)
                            {
                                zeroRow(o.type, O, o.at(b, hk, g, i), Dv);
                                continue;
                            }
                            float* orow = Os + t * Dv;
#pragma omp simd
                            for(int64_t c = 0; c < Dv; ++c)
                                orow[c] *= inv;
                            storeRow(o.type, O, o.at(b, hk, g, i), orow, Dv, isa);
                        }
                }
            }
            if(failed)
                hipdnn_plugin_sdk::fail(HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR, name + ": oneDNN's sgemm refused an SDPA block");
        },
        name + " sdpa with sequence lengths: scores, softmax and E V over each batch's keys only (sgemm per block of "
            + std::to_string(blockRows) + " query rows of the " + std::to_string(G) + " query heads of a KV head)");
    finishOutput(out, l.o5f, l.o5, name + " o from f32");
}

} // namespace hipdnngo::onednn
