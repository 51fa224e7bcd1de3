// SdpaRows: the row steps of the attention with sequence lengths (SdpaVarlen.cpp,
// SdpaVarlenBackward.cpp): softmax rows, score terms, row conversion and K / V row segments.
#include "SdpaRows.hpp"

#include <hipdnn_plugin_sdk/helpers/PluginHelpers.hpp>
#include <immintrin.h>

#include <algorithm>
#include <cstring>
#include <limits>

namespace hipdnngo::onednn::sdpa_rows
{

#define HIPDNNGO_AVX2 __attribute__((target("avx2,fma")))

float rowMax(const float* x, int64_t n)
{
    float m = -std::numeric_limits<float>::infinity();
    for(int64_t c = 0; c < n; ++c)
        m = std::max(m, x[c]);
    return m;
}

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
static HIPDNNGO_AVX2 __m256 exp8(__m256 x)
{
    const __m256 xc = _mm256_min_ps(_mm256_max_ps(x, _mm256_set1_ps(-87.f)), _mm256_set1_ps(88.f));
    const __m256 n =
        _mm256_round_ps(_mm256_mul_ps(xc, _mm256_set1_ps(1.44269504f)), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
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

const float* KeyRows::segment(int64_t b, int64_t hk, int64_t j0, int64_t jmax, float* scratch, ConvertIsa isa, int64_t& j1,
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

} // namespace hipdnngo::onednn::sdpa_rows
