// Convert: fp32 staging conversions (see Convert.hpp).
#include "Convert.hpp"

#include <hipdnn_plugin_sdk/helpers/FloatFormats.h>

#include <oneapi/dnnl/dnnl.hpp>

// GCC 12 warns inside its own AVX-512 headers (_mm512_undefined_*, GCC PR 105593).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace hipdnngo::onednn
{

namespace
{

// ---- scalar: the SDK's conversions (the definition; also every vector path's tail) ----------

void halfToFloat(const uint16_t* __restrict s, float* __restrict d, int64_t n)
{
    for(int64_t i = 0; i < n; ++i)
        d[i] = hipdnnHalfToFloat(s[i]);
}

void bfloat16ToFloat(const uint16_t* __restrict s, float* __restrict d, int64_t n)
{
    for(int64_t i = 0; i < n; ++i)
        d[i] = hipdnnBfloat16ToFloat(s[i]);
}

void floatToHalf(const float* __restrict s, uint16_t* __restrict d, int64_t n)
{
    for(int64_t i = 0; i < n; ++i)
        d[i] = hipdnnFloatToHalf(s[i]);
}

void floatToBfloat16(const float* __restrict s, uint16_t* __restrict d, int64_t n)
{
    for(int64_t i = 0; i < n; ++i)
        d[i] = hipdnnFloatToBfloat16(s[i]);
}

// ---- AVX2 + F16C, 8 lanes ----------------------------------------------------------------
// NaN mends (see Convert.hpp): widening, a NaN lane gets float bit 22 (the quiet bit) from the
// half's bit 9 instead of the hardware's forced 1; narrowing, a NaN lane is first replaced by
// the quiet NaN of its sign, which vcvtps2ph turns into sign | 0x7E00, as FloatFormats.h does.
// bf16 narrowing is integer (vcvtneps2bf16 would flush float denormals): add 0x7FFF plus the
// kept part's lowest bit, drop 16 bits; NaN: the top half | 0x40.

#define HIPDNNGO_AVX2 __attribute__((target("avx2,f16c,fma")))
#define HIPDNNGO_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx2,f16c,fma")))

// The fp16 mends cost more than the conversion itself, so each block of 16 (AVX2) or 32
// (AVX-512) elements first asks whether it holds a NaN at all (NaNs are rare: one well-predicted
// branch), and only then mends.

HIPDNNGO_AVX2 void halfToFloatAvx2(const uint16_t* __restrict s, float* __restrict d, int64_t n)
{
    const __m256i quiet = _mm256_set1_epi32(0x400000), magnitude = _mm256_set1_epi16(0x7FFF), inf = _mm256_set1_epi16(0x7C00);
    int64_t i = 0;
    for(; i + 16 <= n; i += 16)
    {
        const __m256i h = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i));
        const __m128i lo = _mm256_castsi256_si128(h), hi = _mm256_extracti128_si256(h, 1);
        __m256 f0 = _mm256_cvtph_ps(lo), f1 = _mm256_cvtph_ps(hi);
        if(!_mm256_testz_si256(_mm256_cmpgt_epi16(_mm256_and_si256(h, magnitude), inf), _mm256_set1_epi32(-1)))
        {
            const __m256i w0 = _mm256_andnot_si256(_mm256_slli_epi32(_mm256_cvtepu16_epi32(lo), 13), quiet);
            const __m256i w1 = _mm256_andnot_si256(_mm256_slli_epi32(_mm256_cvtepu16_epi32(hi), 13), quiet);
            f0 = _mm256_xor_ps(f0, _mm256_and_ps(_mm256_cmp_ps(f0, f0, _CMP_UNORD_Q), _mm256_castsi256_ps(w0)));
            f1 = _mm256_xor_ps(f1, _mm256_and_ps(_mm256_cmp_ps(f1, f1, _CMP_UNORD_Q), _mm256_castsi256_ps(w1)));
        }
        _mm256_storeu_ps(d + i, f0);
        _mm256_storeu_ps(d + i + 8, f1);
    }
    halfToFloat(s + i, d + i, n - i);
}

HIPDNNGO_AVX2 void floatToHalfAvx2(const float* __restrict s, uint16_t* __restrict d, int64_t n)
{
    const __m256 signExp = _mm256_castsi256_ps(_mm256_set1_epi32(static_cast<int>(0xFF800000u)));
    const __m256 quiet = _mm256_castsi256_ps(_mm256_set1_epi32(0x400000));
    int64_t i = 0;
    for(; i + 16 <= n; i += 16)
    {
        __m256 f0 = _mm256_loadu_ps(s + i), f1 = _mm256_loadu_ps(s + i + 8);
        const __m256 nan0 = _mm256_cmp_ps(f0, f0, _CMP_UNORD_Q), nan1 = _mm256_cmp_ps(f1, f1, _CMP_UNORD_Q);
        if(!_mm256_testz_ps(_mm256_or_ps(nan0, nan1), _mm256_or_ps(nan0, nan1)))
        {
            f0 = _mm256_blendv_ps(f0, _mm256_or_ps(_mm256_and_ps(f0, signExp), quiet), nan0);
            f1 = _mm256_blendv_ps(f1, _mm256_or_ps(_mm256_and_ps(f1, signExp), quiet), nan1);
        }
        _mm_storeu_si128(reinterpret_cast<__m128i*>(d + i), _mm256_cvtps_ph(f0, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(d + i + 8), _mm256_cvtps_ph(f1, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    }
    floatToHalf(s + i, d + i, n - i);
}

HIPDNNGO_AVX2 void bfloat16ToFloatAvx2(const uint16_t* __restrict s, float* __restrict d, int64_t n)
{
    int64_t i = 0;
    for(; i + 8 <= n; i += 8)
    {
        const __m256i u = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i)));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i), _mm256_slli_epi32(u, 16));
    }
    bfloat16ToFloat(s + i, d + i, n - i);
}

HIPDNNGO_AVX2 void floatToBfloat16Avx2(const float* __restrict s, uint16_t* __restrict d, int64_t n)
{
    const __m256i one = _mm256_set1_epi32(1), half = _mm256_set1_epi32(0x7FFF), quiet = _mm256_set1_epi32(0x40);
    int64_t i = 0;
    for(; i + 8 <= n; i += 8)
    {
        const __m256 f = _mm256_loadu_ps(s + i);
        const __m256i u = _mm256_castps_si256(f), top = _mm256_srli_epi32(u, 16);
        const __m256i r = _mm256_srli_epi32(_mm256_add_epi32(_mm256_add_epi32(u, half), _mm256_and_si256(top, one)), 16);
        const __m256i nan = _mm256_castps_si256(_mm256_cmp_ps(f, f, _CMP_UNORD_Q));
        const __m256i v = _mm256_blendv_epi8(r, _mm256_or_si256(top, quiet), nan);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(d + i),
                         _mm_packus_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1)));
    }
    floatToBfloat16(s + i, d + i, n - i);
}

// ---- AVX-512, 16 lanes: the same steps with mask registers -----------------------------------

HIPDNNGO_AVX512 void halfToFloatAvx512(const uint16_t* __restrict s, float* __restrict d, int64_t n)
{
    const __m512i quiet = _mm512_set1_epi32(0x400000), magnitude = _mm512_set1_epi16(0x7FFF), inf = _mm512_set1_epi16(0x7C00);
    int64_t i = 0;
    for(; i + 32 <= n; i += 32)
    {
        const __m512i h = _mm512_loadu_si512(s + i);
        const __m256i lo = _mm512_castsi512_si256(h), hi = _mm512_extracti64x4_epi64(h, 1);
        __m512i u0 = _mm512_castps_si512(_mm512_cvtph_ps(lo)), u1 = _mm512_castps_si512(_mm512_cvtph_ps(hi));
        if(_mm512_cmpgt_epi16_mask(_mm512_and_si512(h, magnitude), inf) != 0)
        {
            const __m512i w0 = _mm512_andnot_si512(_mm512_slli_epi32(_mm512_cvtepu16_epi32(lo), 13), quiet);
            const __m512i w1 = _mm512_andnot_si512(_mm512_slli_epi32(_mm512_cvtepu16_epi32(hi), 13), quiet);
            const __m512 f0 = _mm512_castsi512_ps(u0), f1 = _mm512_castsi512_ps(u1);
            u0 = _mm512_mask_xor_epi32(u0, _mm512_cmp_ps_mask(f0, f0, _CMP_UNORD_Q), u0, w0);
            u1 = _mm512_mask_xor_epi32(u1, _mm512_cmp_ps_mask(f1, f1, _CMP_UNORD_Q), u1, w1);
        }
        _mm512_storeu_si512(d + i, u0);
        _mm512_storeu_si512(d + i + 16, u1);
    }
    halfToFloat(s + i, d + i, n - i);
}

HIPDNNGO_AVX512 void floatToHalfAvx512(const float* __restrict s, uint16_t* __restrict d, int64_t n)
{
    const __m512i signExp = _mm512_set1_epi32(static_cast<int>(0xFF800000u)), quiet = _mm512_set1_epi32(0x400000);
    int64_t i = 0;
    for(; i + 32 <= n; i += 32)
    {
        __m512 f0 = _mm512_loadu_ps(s + i), f1 = _mm512_loadu_ps(s + i + 16);
        const __mmask16 nan0 = _mm512_cmp_ps_mask(f0, f0, _CMP_UNORD_Q), nan1 = _mm512_cmp_ps_mask(f1, f1, _CMP_UNORD_Q);
        if((nan0 | nan1) != 0)
        {
            const __m512i u0 = _mm512_castps_si512(f0), u1 = _mm512_castps_si512(f1);
            f0 = _mm512_castsi512_ps(_mm512_mask_mov_epi32(u0, nan0, _mm512_or_si512(_mm512_and_si512(u0, signExp), quiet)));
            f1 = _mm512_castsi512_ps(_mm512_mask_mov_epi32(u1, nan1, _mm512_or_si512(_mm512_and_si512(u1, signExp), quiet)));
        }
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i), _mm512_cvtps_ph(f0, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i + 16),
                            _mm512_cvtps_ph(f1, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    }
    floatToHalf(s + i, d + i, n - i);
}

HIPDNNGO_AVX512 void bfloat16ToFloatAvx512(const uint16_t* __restrict s, float* __restrict d, int64_t n)
{
    int64_t i = 0;
    for(; i + 16 <= n; i += 16)
    {
        const __m512i u = _mm512_cvtepu16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i)));
        _mm512_storeu_si512(d + i, _mm512_slli_epi32(u, 16));
    }
    bfloat16ToFloat(s + i, d + i, n - i);
}

HIPDNNGO_AVX512 void floatToBfloat16Avx512(const float* __restrict s, uint16_t* __restrict d, int64_t n)
{
    const __m512i one = _mm512_set1_epi32(1), half = _mm512_set1_epi32(0x7FFF), quiet = _mm512_set1_epi32(0x40);
    int64_t i = 0;
    for(; i + 16 <= n; i += 16)
    {
        const __m512 f = _mm512_loadu_ps(s + i);
        const __m512i u = _mm512_castps_si512(f), top = _mm512_srli_epi32(u, 16);
        const __m512i r = _mm512_srli_epi32(_mm512_add_epi32(_mm512_add_epi32(u, half), _mm512_and_si512(top, one)), 16);
        const __mmask16 nan = _mm512_cmp_ps_mask(f, f, _CMP_UNORD_Q);
        const __m512i v = _mm512_mask_mov_epi32(r, nan, _mm512_or_si512(top, quiet));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i), _mm512_cvtepi32_epi16(v));
    }
    floatToBfloat16(s + i, d + i, n - i);
}

ConvertIsa detect()
{
    __builtin_cpu_init();
    ConvertIsa best = ConvertIsa::Scalar;
    if(__builtin_cpu_supports("avx2") && __builtin_cpu_supports("f16c") && __builtin_cpu_supports("fma"))
        best = ConvertIsa::Avx2;
    if(best == ConvertIsa::Avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")
       && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq"))
        best = ConvertIsa::Avx512;
    // oneDNN's cap (ONEDNN_MAX_CPU_ISA): below AVX-512 the engine converts as an AVX2 CPU would.
    switch(dnnl::get_effective_cpu_isa())
    {
    case dnnl::cpu_isa::sse41:
    case dnnl::cpu_isa::avx: best = ConvertIsa::Scalar; break;
    case dnnl::cpu_isa::avx2:
    case dnnl::cpu_isa::avx2_vnni:
    case dnnl::cpu_isa::avx512_mic:
    case dnnl::cpu_isa::avx512_mic_4ops: best = std::min(best, ConvertIsa::Avx2); break;
    default: break;
    }
    if(const char* force = std::getenv("HIPDNNGO_ONEDNN_CONVERT"))
    {
        if(std::strcmp(force, "scalar") == 0)
            best = ConvertIsa::Scalar;
        else if(std::strcmp(force, "avx2") == 0)
            best = std::min(best, ConvertIsa::Avx2);
    }
    return best;
}

// Chunks of 16 Ki elements: enough work per OpenMP iteration, a multiple of every vector width.
constexpr int64_t kChunk = 16384;

template <typename From, typename To, typename Row>
void chunked(const From* src, To* dst, int64_t n, Row row)
{
    if(n <= kChunk)
    {
        row(src, dst, n);
        return;
    }
    const int64_t chunks = (n + kChunk - 1) / kChunk;
#pragma omp parallel for schedule(static)
    for(int64_t c = 0; c < chunks; ++c)
    {
        const int64_t at = c * kChunk;
        row(src + at, dst + at, std::min(kChunk, n - at));
    }
}

} // namespace

ConvertIsa convertIsa()
{
    static const ConvertIsa isa = detect();
    return isa;
}

bool available(ConvertIsa isa)
{
    __builtin_cpu_init();
    switch(isa)
    {
    case ConvertIsa::Scalar: return true;
    case ConvertIsa::Avx2: return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("f16c") && __builtin_cpu_supports("fma");
    case ConvertIsa::Avx512:
        return available(ConvertIsa::Avx2) && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")
               && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
    }
    return false;
}

const char* name(ConvertIsa isa)
{
    switch(isa)
    {
    case ConvertIsa::Scalar: return "scalar";
    case ConvertIsa::Avx2: return "avx2+f16c";
    case ConvertIsa::Avx512: return "avx512";
    }
    return "?";
}

bool isStageable(fbs::DataType t) { return t == fbs::DataType::HALF || t == fbs::DataType::BFLOAT16; }

void widenRow(ConvertIsa isa, fbs::DataType from, const uint16_t* src, float* dst, int64_t n)
{
    const bool half = from == fbs::DataType::HALF;
    switch(isa)
    {
    case ConvertIsa::Avx512: half ? halfToFloatAvx512(src, dst, n) : bfloat16ToFloatAvx512(src, dst, n); return;
    case ConvertIsa::Avx2: half ? halfToFloatAvx2(src, dst, n) : bfloat16ToFloatAvx2(src, dst, n); return;
    case ConvertIsa::Scalar: half ? halfToFloat(src, dst, n) : bfloat16ToFloat(src, dst, n); return;
    }
}

void narrowRow(ConvertIsa isa, fbs::DataType to, const float* src, uint16_t* dst, int64_t n)
{
    const bool half = to == fbs::DataType::HALF;
    switch(isa)
    {
    case ConvertIsa::Avx512: half ? floatToHalfAvx512(src, dst, n) : floatToBfloat16Avx512(src, dst, n); return;
    case ConvertIsa::Avx2: half ? floatToHalfAvx2(src, dst, n) : floatToBfloat16Avx2(src, dst, n); return;
    case ConvertIsa::Scalar: half ? floatToHalf(src, dst, n) : floatToBfloat16(src, dst, n); return;
    }
}

void widen(fbs::DataType from, const void* src, float* dst, int64_t n)
{
    const ConvertIsa isa = convertIsa();
    chunked(static_cast<const uint16_t*>(src), dst, n,
            [isa, from](const uint16_t* s, float* d, int64_t m) { widenRow(isa, from, s, d, m); });
}

void narrow(fbs::DataType to, const float* src, void* dst, int64_t n)
{
    const ConvertIsa isa = convertIsa();
    chunked(src, static_cast<uint16_t*>(dst), n,
            [isa, to](const float* s, uint16_t* d, int64_t m) { narrowRow(isa, to, s, d, m); });
}

} // namespace hipdnngo::onednn
