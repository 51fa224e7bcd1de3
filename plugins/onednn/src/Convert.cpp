// Convert: fp32 staging loops (see Convert.hpp).
#include "Convert.hpp"

#include <hipdnn_plugin_sdk/helpers/FloatFormats.h>

#include <algorithm>

namespace hipdnngo::onednn
{

namespace
{

// Chunks of 16 Ki elements: enough work per OpenMP iteration, a multiple of every vector width.
constexpr int64_t kChunk = 16384;

// x86-64-v4: AVX-512 F/BW/DQ/VL (16-bit lanes need BW); x86-64-v3: AVX2, FMA, F16C.
#define HIPDNNGO_VECTOR_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))

HIPDNNGO_VECTOR_CLONES void halfToFloat(const uint16_t* __restrict s, float* __restrict d, int64_t n)
{
    for(int64_t i = 0; i < n; ++i)
        d[i] = hipdnnHalfToFloat(s[i]);
}

HIPDNNGO_VECTOR_CLONES void bfloat16ToFloat(const uint16_t* __restrict s, float* __restrict d, int64_t n)
{
    for(int64_t i = 0; i < n; ++i)
        d[i] = hipdnnBfloat16ToFloat(s[i]);
}

HIPDNNGO_VECTOR_CLONES void floatToHalf(const float* __restrict s, uint16_t* __restrict d, int64_t n)
{
    for(int64_t i = 0; i < n; ++i)
        d[i] = hipdnnFloatToHalf(s[i]);
}

HIPDNNGO_VECTOR_CLONES void floatToBfloat16(const float* __restrict s, uint16_t* __restrict d, int64_t n)
{
    for(int64_t i = 0; i < n; ++i)
        d[i] = hipdnnFloatToBfloat16(s[i]);
}

template <typename From, typename To, typename Loop>
void chunked(const From* src, To* dst, int64_t n, Loop loop)
{
    if(n <= kChunk)
    {
        loop(src, dst, n);
        return;
    }
    const int64_t chunks = (n + kChunk - 1) / kChunk;
#pragma omp parallel for schedule(static)
    for(int64_t c = 0; c < chunks; ++c)
    {
        const int64_t at = c * kChunk;
        loop(src + at, dst + at, std::min(kChunk, n - at));
    }
}

} // namespace

bool isStageable(fbs::DataType t) { return t == fbs::DataType::HALF || t == fbs::DataType::BFLOAT16; }

void widen(fbs::DataType from, const void* src, float* dst, int64_t n)
{
    const auto* s = static_cast<const uint16_t*>(src);
    if(from == fbs::DataType::HALF)
        chunked(s, dst, n, halfToFloat);
    else
        chunked(s, dst, n, bfloat16ToFloat);
}

void narrow(fbs::DataType to, const float* src, void* dst, int64_t n)
{
    auto* d = static_cast<uint16_t*>(dst);
    if(to == fbs::DataType::HALF)
        chunked(src, d, n, floatToHalf);
    else
        chunked(src, d, n, floatToBfloat16);
}

} // namespace hipdnngo::onednn
