// SDPA forward and backward with sequence lengths (padded, ragged and paged batches), computed for
// the lengths each execution brings instead of the padded extents. Serving graphs pad far beyond what a batch
// uses (NVIDIA's paged prefill sample: Sq 512 and Skv 32768 for 16-32 queries and a few thousand
// keys), so the full [B, H, Sq, Skv] scores of the dense path would be gigabytes of workspace and
// hundreds of times the work.
//
// One engine kernel walks blocks of up to kBlockRows query rows of one (batch, query head), in
// parallel: S = scale * Q K^T over the keys the block's rows can see (oneDNN's sgemm, row lengths
// known only now), bias / ALiBi / band on each row's visible range, E = exp(S - M) with
// M = max(row max, sink), Z = rowsum(E) (+ exp(sink - M)), O = (E V) / Z (sgemm), and the row
// outputs stats = M + log(Z), max = M, sum_exp = Z. Rows past seq_len_q and rows that see no key
// are written as the dense path writes them (Sdpa.hpp, SdpaStats). The backward: sdpaVarlenBackward.
#include "Sdpa.hpp"

#include "../Convert.hpp"

#include <hipdnn_plugin_sdk/helpers/Attention.hpp>
#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace hipdnngo::onednn
{

namespace
{

constexpr int64_t kBlockRows = 64;
constexpr int64_t kScratchFloats = int64_t{1} << 21; // per thread: 8 MiB of scores at most

// expShifted: e^x for a score minus its row's max (or its logsumexp): x = n ln2 + r with
// |r| <= ln2 / 2, e^r by Cephes' expf polynomial, 2^n by exponent bits. Below -87 (and for -inf)
// it is 0, above 88 e^88; the relative error is about 1e-7.
inline float expShifted(float x)
{
    const float kMagic = 12582912.f; // 1.5 * 2^23: adding it rounds to an integer
    const float xc = std::min(std::max(x, -87.f), 88.f);
    const float n = (xc * 1.44269504f + kMagic) - kMagic;
    const float r = (xc - n * 0.693359375f) + n * 2.12194440e-4f;
    const float z = r * r;
    const float p =
        ((((1.9875691500e-4f * r + 1.3981999507e-3f) * r + 8.3334519073e-3f) * r + 4.1665795894e-2f) * r + 1.6666665459e-1f) * r
        + 5.0000001201e-1f;
    const float e = p * z + r + 1.f;
    const int32_t bits = (static_cast<int32_t>(n) + 127) << 23;
    float two;
    std::memcpy(&two, &bits, sizeof two);
    return e * two * static_cast<float>(x >= -87.f);
}

// The row steps of the softmax (the hot loops: GCC leaves them scalar at baseline x86-64), on
// AVX2 + FMA where the engine's conversions use it (convertIsa(): ONEDNN_MAX_CPU_ISA and
// HIPDNNGO_ONEDNN_CONVERT=scalar choose the plain loops on any machine).
#define HIPDNNGO_AVX2 __attribute__((target("avx2,fma")))

float rowMax(const float* x, int64_t n)
{
    float m = -std::numeric_limits<float>::infinity();
    for(int64_t c = 0; c < n; ++c)
        m = std::max(m, x[c]);
    return m;
}

// expRow: x[c] = expShifted(x[c] - m) in place; returns their sum.
float expRow(float* x, int64_t n, float m)
{
    float z = 0.f;
    for(int64_t c = 0; c < n; ++c)
    {
        x[c] = expShifted(x[c] - m);
        z += x[c];
    }
    return z;
}

HIPDNNGO_AVX2 float rowMaxAvx2(const float* x, int64_t n)
{
    __m256 m8 = _mm256_set1_ps(-std::numeric_limits<float>::infinity());
    int64_t c = 0;
    for(; c + 8 <= n; c += 8)
        m8 = _mm256_max_ps(m8, _mm256_loadu_ps(x + c));
    alignas(32) float lanes[8];
    _mm256_store_ps(lanes, m8);
    float m = rowMax(x + c, n - c);
    for(float v : lanes)
        m = std::max(m, v);
    return m;
}

// exp8: expShifted on eight lanes (the same steps and constants).
HIPDNNGO_AVX2 __m256 exp8(__m256 x)
{
    const __m256 xc = _mm256_min_ps(_mm256_max_ps(x, _mm256_set1_ps(-87.f)), _mm256_set1_ps(88.f));
    const __m256 n = _mm256_round_ps(_mm256_mul_ps(xc, _mm256_set1_ps(1.44269504f)), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    const __m256 r = _mm256_fmadd_ps(n, _mm256_set1_ps(2.12194440e-4f), _mm256_fnmadd_ps(n, _mm256_set1_ps(0.693359375f), xc));
    __m256 p = _mm256_fmadd_ps(_mm256_set1_ps(1.9875691500e-4f), r, _mm256_set1_ps(1.3981999507e-3f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(8.3334519073e-3f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(4.1665795894e-2f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.6666665459e-1f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(5.0000001201e-1f));
    const __m256 e = _mm256_add_ps(_mm256_fmadd_ps(p, _mm256_mul_ps(r, r), r), _mm256_set1_ps(1.f));
    const __m256i bits = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
    const __m256 keep = _mm256_cmp_ps(x, _mm256_set1_ps(-87.f), _CMP_GE_OQ); // -inf and below: 0
    return _mm256_and_ps(_mm256_mul_ps(e, _mm256_castsi256_ps(bits)), keep);
}

HIPDNNGO_AVX2 float expRowAvx2(float* x, int64_t n, float m)
{
    const __m256 m8 = _mm256_set1_ps(m);
    __m256 z8 = _mm256_setzero_ps();
    int64_t c = 0;
    for(; c + 8 <= n; c += 8)
    {
        const __m256 e = exp8(_mm256_sub_ps(_mm256_loadu_ps(x + c), m8));
        _mm256_storeu_ps(x + c, e);
        z8 = _mm256_add_ps(z8, e);
    }
    alignas(32) float lanes[8];
    _mm256_store_ps(lanes, z8);
    float z = expRow(x + c, n - c, m);
    for(float v : lanes)
        z += v;
    return z;
}

// addScoreTerms: the bias (its dense copy, strides bs, 0 where it broadcasts) and ALiBi
// (slope * (j - i)) on columns [rb, re) of a row of scores whose column 0 is key kb.
void addScoreTerms(float* row, int64_t rb, int64_t re, const float* bias, const std::array<int64_t, 5>& bs, int64_t b,
                   int64_t hk, int64_t g, int64_t i, int64_t kb, float slope)
{
    if(bias)
    {
        const float* br = bias + b * bs[0] + hk * bs[1] + g * bs[2] + i * bs[3] + kb * bs[4];
        for(int64_t c = rb; c < re; ++c)
            row[c] += br[c * bs[4]];
    }
    if(slope != 0.f)
        for(int64_t c = rb; c < re; ++c)
            row[c] += slope * static_cast<float>(kb + c - i);
}


// Rows of K and V are taken kSegRows at a time where they must be converted (16-bit types, or
// rows closer together than they are wide).
constexpr int64_t kSegRows = 256;

// loadRow / storeRow: w elements of a row of `type` at element `at` of base, as f32.
void loadRow(fbs::DataType type, const void* base, int64_t at, float* dst, int64_t w, ConvertIsa isa)
{
    if(type == fbs::DataType::FLOAT)
        std::memcpy(dst, static_cast<const float*>(base) + at, static_cast<size_t>(w) * sizeof(float));
    else
        widenRow(isa, type, static_cast<const uint16_t*>(base) + at, dst, w);
}

void storeRow(fbs::DataType type, void* base, int64_t at, const float* src, int64_t w, ConvertIsa isa)
{
    if(type == fbs::DataType::FLOAT)
        std::memcpy(static_cast<float*>(base) + at, src, static_cast<size_t>(w) * sizeof(float));
    else
        narrowRow(isa, type, src, static_cast<uint16_t*>(base) + at, w);
}

void zeroRow(fbs::DataType type, void* base, int64_t at, int64_t w)
{
    if(type == fbs::DataType::FLOAT)
        std::fill_n(static_cast<float*>(base) + at, w, 0.f);
    else
        std::fill_n(static_cast<uint16_t*>(base) + at, w, uint16_t{0}); // +0 in both 16-bit types
}

// KeyRows: the K or V rows of one (batch, KV head) as the caller holds them: dense (row j at
// b * sb + hk * sh + j * si) or a paged cache (row j % block of block table[b][j / block], the
// cache's strides in sb, sh, si). segment() hands sgemm rows [j0, j1): in place where they are
// f32 rows at least w apart, else widened into `scratch` (at most kSegRows rows); j1 stops at
// the end of a page and at jmax.
struct KeyRows
{
    const void* base;
    fbs::DataType type;
    int64_t sb, sh, si, w;
    const int32_t* table; // null: dense
    int64_t pages, block;

    const float* segment(int64_t b, int64_t hk, int64_t j0, int64_t jmax, float* scratch, ConvertIsa isa, int64_t& j1,
                         int64_t& ld) const
    {
        j1 = jmax;
        int64_t at = b * sb + hk * sh + j0 * si;
        if(table)
        {
            const int64_t p = j0 / block;
            j1 = std::min(jmax, (p + 1) * block);
            at = table[b * pages + p] * sb + hk * sh + (j0 - p * block) * si;
        }
        if(type == fbs::DataType::FLOAT && si >= w)
        {
            ld = si;
            return static_cast<const float*>(base) + at;
        }
        j1 = std::min(j1, j0 + kSegRows);
        ld = w;
        for(int64_t j = j0; j < j1; ++j)
            loadRow(type, base, at + (j - j0) * si, scratch + (j - j0) * w, w, isa);
        return scratch;
    }
};

// checkPages fails the execution (BAD_PARAM, naming the entry) when a block a valid key of some
// batch uses is not in the cache; nothing is read before.
void checkPages(const int32_t* table, const int32_t* lkv, int64_t B, int64_t pages, int64_t block, int64_t blocks,
                const char* role, const std::string& name)
{
    for(int64_t b = 0; b < B; ++b)
        for(int64_t p = 0; p * block < lkv[b]; ++p)
            if(const int32_t e = table[b * pages + p]; e < 0 || e >= blocks)
                hipdnn_plugin_sdk::fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                                        name + ": " + role + "[" + std::to_string(b) + "][" + std::to_string(p) + "] = "
                                            + std::to_string(e) + " names no block of the " + std::to_string(blocks)
                                            + "-block cache");
}

} // namespace

// sdpaVarlenOperand: an operand as rows with a unit inner stride: the caller's own buffer where
// its rows have one and a type the kernel reads (f32Only: FLOAT; else FLOAT, HALF or BFLOAT16,
// a staged tensor in its stored type, so that no whole-tensor f32 copy is made), else a dense f32
// copy (a reorder).
PlanBuilder::SdpaOperand PlanBuilder::sdpaVarlenOperand(const Tensor& t, bool f32Only, const mdesc& user, const mdesc& dense,
                                                        int64_t groups, const std::string& what, const std::string& name)
{
    const dnnl::memory::dims d = dense.dims();
    if(t.strides[3] == 1)
    {
        const SdpaOperand rows{Buffer::none(), t.strides[0], t.strides[1] * groups, groups > 1 ? t.strides[1] : 0, t.strides[2], t.dtype};
        if(const std::optional<fbs::DataType> raw = f32Only ? std::nullopt : rawType(t, false); raw && isStageable(*raw))
            return {rawBuffer(t, false, name), rows.sb, rows.shk, rows.sg, rows.si, *raw};
        if(t.dtype == fbs::DataType::FLOAT || (!f32Only && isStageable(t.dtype)))
            return {input(t, name), rows.sb, rows.shk, rows.sg, rows.si, t.dtype};
    }
    const Buffer copy = temp(dense);
    addReorder(user, input(t, name), dense, copy, name + " " + what + " to dense f32");
    return {copy, d[1] * d[2] * d[3] * d[4], d[2] * d[3] * d[4], d[3] * d[4], d[4], fbs::DataType::FLOAT};
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
    const SdpaOperand q = sdpaVarlenOperand(*s.q, false, l.q5user, l.q5f, G, "q", name);
    // A paged cache [blocks, Hk, block, W] is read through its table (sdpaPaging checked its type
    // and unit inner stride); its sb, shk, si are the cache's strides.
    auto keyOperand = [&](const Tensor& t, const Tensor* table, const mdesc& user, const mdesc& dense, const char* what) {
        if(!table)
            return sdpaVarlenOperand(t, false, user, dense, 1, what, name);
        const std::optional<fbs::DataType> raw = rawType(t, false);
        return SdpaOperand{raw ? rawBuffer(t, false, name) : input(t, name), t.strides[0], t.strides[1], 0, t.strides[2],
                           raw ? *raw : t.dtype};
    };
    const SdpaOperand k = keyOperand(*s.k, s.paging.tableK, l.kUser, l.kF32, "k");
    const SdpaOperand v = keyOperand(*s.v, s.paging.tableV, l.v5, l.vF32, "v");
    const std::pair<Buffer, std::array<int64_t, 5>> biasRows = sdpaBiasRows(l, name);
    const Buffer bias = biasRows.first;
    const std::array<int64_t, 5> bs = biasRows.second;
    // O: the caller's rows in their own type (staged: the stored one) where they have a unit
    // inner stride, else dense f32 rows reordered into O afterwards.
    const Tensor& ot = *s.o;
    const std::optional<fbs::DataType> oRaw = ot.strides[3] == 1 ? rawType(ot, true) : std::nullopt;
    const bool oOwn = ot.strides[3] == 1 && (oRaw ? isStageable(*oRaw) : ot.dtype == fbs::DataType::FLOAT || isStageable(ot.dtype));
    BoundOutput out;
    if(oRaw && oOwn)
        out.written = out.tensor = rawBuffer(ot, true, name);
    else
        out = bindOutput(ot, l.o5f, !oOwn, name);
    const SdpaOperand o = oOwn ? SdpaOperand{out.written, ot.strides[0], ot.strides[1] * G, ot.strides[1], ot.strides[2],
                                             oRaw ? *oRaw : ot.dtype}
                               : SdpaOperand{out.written, Hk * G * Sq * Dv, G * Sq * Dv, Sq * Dv, Dv, fbs::DataType::FLOAT};
    const int threads = std::max(1, omp_get_max_threads());
    // A task is a block of query rows of one (batch, KV head) with the G query heads of the group
    // stacked: one sgemm per K / V segment serves them all, and K / V are converted once per block.
    const int64_t blockRows = std::clamp<int64_t>(kScratchFloats / std::max<int64_t>(G * Skv, 1), 1, kBlockRows);
    const int64_t GB = G * blockRows;
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
#pragma omp parallel num_threads(nthr) reduction(| : failed)
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
                            const int64_t rb = std::max(keys.first(i), kb) - kb, re = std::max(std::min(keys.last(i), ke) - kb, rb);
                            addScoreTerms(row, rb, re, bias, bs, b, hk, g, i, kb, slopes.empty() ? 0.f : slopes[static_cast<size_t>(h)]);
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
                        failed |= dnnl_sgemm('N', 'N', heads * m, Dv, j1 - j0, 1.f, S + (j0 - kb), n, vp, ld, j0 == kb ? 0.f : 1.f,
                                             Os, Dv)
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
// sdpaVarlenBackward: the backward with sequence lengths, over each batch's rows and keys only.
// One task per (batch, KV head) owns that head's dK and dV rows, so they accumulate without
// partial copies in a fixed order (query heads of the group, then row blocks); per block of query
// rows: S = scale Q K^T over the keys the block sees (bias, ALiBi), P = exp(S - stats) on each
// row's band, dP = dO V^T, dS = P (dP - Delta) with Delta = rowsum(dO O), dQ = scale dS K,
// dK += scale dS^T Q, dV += P^T dO (sgemm each). Rows past seq_len_q, rows the forward saw
// nothing for (stats -inf) and keys no row sees get zero gradients.
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
    const SdpaOperand q = sdpaVarlenOperand(*s.q, true, l.q5user, qRowsF, G, "q", name);
    const SdpaOperand k = sdpaVarlenOperand(*s.k, true, l.kUser, l.kF32, 1, "k", name);
    const SdpaOperand v = sdpaVarlenOperand(*s.v, true, l.v5, l.vF32, 1, "v", name);
    const SdpaOperand o = sdpaVarlenOperand(*s.o, true, l.o5, oRowsF, G, "o", name);
    const SdpaOperand go = sdpaVarlenOperand(dO, true, view5(dO, G, Sq, Dv), oRowsF, G, "dO", name);
    const std::pair<Buffer, std::array<int64_t, 5>> biasRows = sdpaBiasRows(l, name);
    const Buffer bias = biasRows.first;
    const std::array<int64_t, 5> bs = biasRows.second;
    // The gradients are written as dense f32 rows, then reordered into the caller's tensors.
    const BoundOutput dqOut = bindOutput(dQ, qRowsF, true, name), dkOut = bindOutput(dK, l.kF32, true, name),
                      dvOut = bindOutput(dV, l.vF32, true, name);
    const int threads = std::max(1, omp_get_max_threads());
    const int64_t blockRows = std::clamp<int64_t>(kScratchFloats / std::max<int64_t>(Skv, 1), 1, kBlockRows);
    const int64_t perThread = 2 * blockRows * std::max<int64_t>(Skv, 1); // P, then dP / dS
    const Buffer scratch = temp(mdesc({threads, perThread}, dt::f32, tag::ab));
    std::vector<Buffer> bufs{q.buf, k.buf, v.buf, o.buf, go.buf, input(stats, name), bias, dqOut.written, dkOut.written,
                             dvOut.written, scratch, seqQ ? input(*seqQ, name) : Buffer::none(),
                             seqKv ? input(*seqKv, name) : Buffer::none(),
                             scale.runtime ? input(*scale.runtime, name) : Buffer::none()};
    const std::vector<float> slopes = s.alibi ? hipdnn_plugin_sdk::alibiSlopes(H) : std::vector<float>{};
    const SdpaOperand dqRows{Buffer::none(), Hk * G * Sq * D, G * Sq * D, Sq * D, D}; // dQ as dense f32 rows
    const float scaleValue = scale.value;
    const bool avx2 = convertIsa() != ConvertIsa::Scalar;
    addKernel(
        std::move(bufs),
        [=](void* const* at) {
            const float* Q = static_cast<const float*>(at[0]);
            const float* K = static_cast<const float*>(at[1]);
            const float* V = static_cast<const float*>(at[2]);
            const float* O = static_cast<const float*>(at[3]);
            const float* GO = static_cast<const float*>(at[4]);
            const float* lse = static_cast<const float*>(at[5]);
            const float* bias = static_cast<const float*>(at[6]);
            float* gQ = static_cast<float*>(at[7]);
            float* gK = static_cast<float*>(at[8]);
            float* gV = static_cast<float*>(at[9]);
            float* scratchAll = static_cast<float*>(at[10]);
            const int32_t* lq = static_cast<const int32_t*>(at[11]); // null: full length
            const int32_t* lkv = static_cast<const int32_t*>(at[12]);
            const float sc = at[13] ? *static_cast<const float*>(at[13]) : scaleValue;
            sdpaCheckLengths(lq, lkv, B, Sq, Skv, name);
            constexpr float negInf = -std::numeric_limits<float>::infinity();
            const int64_t blocks = (Sq + blockRows - 1) / blockRows;
            int failed = 0;
            // Fewer (batch, KV head) tasks than threads: one task at a time, each sgemm on every thread.
            const int nthr = std::min(threads, omp_get_max_threads());
#pragma omp parallel num_threads(nthr) if(B * Hk >= nthr) reduction(| : failed)
            {
                float* P = scratchAll + static_cast<int64_t>(omp_get_thread_num()) * perThread;
                float* T = P + blockRows * Skv; // dP, then dS
#pragma omp for schedule(dynamic, 1)
                for(int64_t task = 0; task < B * Hk; ++task)
                {
                    const int64_t b = task / Hk, hk = task % Hk;
                    const int64_t sq = lq ? lq[b] : Sq, skv = lkv ? lkv[b] : Skv;
                    const SdpaKeys keys(band, sq, skv);
                    float* dk = gK + (b * Hk + hk) * Skv * D;
                    float* dv = gV + (b * Hk + hk) * Skv * Dv;
                    std::fill(dk, dk + Skv * D, 0.f);
                    std::fill(dv, dv + Skv * Dv, 0.f);
                    for(int64_t g = 0; g < G; ++g)
                        for(int64_t blk = 0; blk < blocks; ++blk)
                        {
                            const int64_t h = hk * G + g, i0 = blk * blockRows, i1 = std::min(Sq, i0 + blockRows);
                            const int64_t iv = std::clamp(sq, i0, i1), m = iv - i0;
                            const int64_t kb = m > 0 ? keys.first(i0) : 0, ke = m > 0 ? keys.last(iv - 1) : 0;
                            const int64_t n = std::max<int64_t>(ke - kb, 0);
                            float* dq = gQ + dqRows.at(b, hk, g, i0);
                            if(n == 0)
                            {
                                std::fill(dq, dq + (i1 - i0) * D, 0.f);
                                continue;
                            }
                            std::fill(dq + m * D, dq + (i1 - i0) * D, 0.f); // rows past seq_len_q
                            const float* qb = Q + q.at(b, hk, g, i0);
                            const float* gob = GO + go.at(b, hk, g, i0);
                            failed |= dnnl_sgemm('N', 'T', m, n, D, sc, qb, q.si, K + k.at(b, hk, 0, kb), k.si, 0.f, P, n)
                                      != dnnl_success;
                            failed |= dnnl_sgemm('N', 'T', m, n, Dv, 1.f, gob, go.si, V + v.at(b, hk, 0, kb), v.si, 0.f, T, n)
                                      != dnnl_success;
                            for(int64_t i = i0; i < iv; ++i)
                            {
                                float* p = P + (i - i0) * n;
                                float* t = T + (i - i0) * n;
                                const float rowLse = lse[(b * H + h) * Sq + i];
                                const int64_t rb = std::max(keys.first(i), kb) - kb, re = std::max(std::min(keys.last(i), ke) - kb, rb);
                                if(rowLse == negInf) // the forward saw nothing: no gradient from this row
                                {
                                    std::fill(p, p + n, 0.f);
                                    std::fill(t, t + n, 0.f);
                                    continue;
                                }
                                addScoreTerms(p, rb, re, bias, bs, b, hk, g, i, kb, slopes.empty() ? 0.f : slopes[static_cast<size_t>(h)]);
                                std::fill(p, p + rb, 0.f);
                                std::fill(p + re, p + n, 0.f);
                                if(avx2)
                                    expRowAvx2(p + rb, re - rb, rowLse);
                                else
                                    expRow(p + rb, re - rb, rowLse);
                                const float* orow = O + o.at(b, hk, g, i);
                                const float* gorow = GO + go.at(b, hk, g, i);
                                float dlt = 0.f;
                                for(int64_t c = 0; c < Dv; ++c)
                                    dlt += gorow[c] * orow[c];
                                for(int64_t c = 0; c < n; ++c)
                                    t[c] = p[c] * (t[c] - dlt);
                            }
                            failed |= dnnl_sgemm('N', 'N', m, D, n, sc, T, n, K + k.at(b, hk, 0, kb), k.si, 0.f, dq, D)
                                      != dnnl_success;
                            failed |= dnnl_sgemm('T', 'N', n, D, m, sc, T, n, qb, q.si, 1.f, dk + kb * D, D) != dnnl_success;
                            failed |= dnnl_sgemm('T', 'N', n, Dv, m, 1.f, P, n, gob, go.si, 1.f, dv + kb * Dv, Dv) != dnnl_success;
                        }
                }
            }
            if(failed)
                hipdnn_plugin_sdk::fail(HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR, name + ": oneDNN's sgemm refused an SDPA backward block");
        },
        name + " sdpa backward with sequence lengths: P, dS and the gradients over each batch's keys only (sgemm per block of "
            + std::to_string(blockRows) + " query rows)");
    finishOutput(dqOut, qRowsF, view5(dQ, G, Sq, D), name + " dQ from f32");
    finishOutput(dkOut, l.kF32, view5(dK, 1, Skv, D), name + " dK from f32");
    finishOutput(dvOut, l.vF32, view5(dV, 1, Skv, Dv), name + " dV from f32");
}

} // namespace hipdnngo::onednn
