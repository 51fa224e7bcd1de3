// SdpaRows: the row steps the SDPA kernels with sequence lengths share (SdpaVarlen.cpp forward,
// SdpaVarlenBackward.cpp): softmax rows, bias / ALiBi terms, rows converted between a tensor's
// type and f32, and K / V rows handed to sgemm in segments (dense or paged).
#pragma once

#include "../Convert.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <string>

namespace hipdnngo::onednn::sdpa_rows
{

constexpr int64_t kBlockRows = 64; // query rows per block
constexpr int64_t kScratchFloats = int64_t{1} << 21; // per thread: 8 MiB of scores at most
// Rows of K and V are taken kSegRows at a time where they must be converted (16-bit types, or
// rows closer together than they are wide).
constexpr int64_t kSegRows = 256;

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

// The row steps of the softmax (the hot loops: GCC leaves them scalar at baseline x86-64); the
// Avx2 forms use AVX2 + FMA, for where the engine's conversions do (convertIsa():
// ONEDNN_MAX_CPU_ISA and HIPDNNGO_ONEDNN_CONVERT=scalar choose the plain loops on any machine).
float rowMax(const float* x, int64_t n);
// expRow: x[c] = expShifted(x[c] - m) in place; returns their sum.
float expRow(float* x, int64_t n, float m);
float rowMaxAvx2(const float* x, int64_t n);
float expRowAvx2(float* x, int64_t n, float m);

// addScoreTerms: the bias (its dense copy, strides bs, 0 where it broadcasts) and ALiBi
// (slope * (j - i)) on columns [rb, re) of a row of scores whose column 0 is key kb.
void addScoreTerms(float* row, int64_t rb, int64_t re, const float* bias, const std::array<int64_t, 5>& bs, int64_t b,
                   int64_t hk, int64_t g, int64_t i, int64_t kb, float slope);

// loadRow / storeRow: w elements of a row of `type` (FLOAT, HALF, BFLOAT16) at element `at` of
// base, as f32; zeroRow writes w zeros there.
void loadRow(fbs::DataType type, const void* base, int64_t at, float* dst, int64_t w, ConvertIsa isa);
void storeRow(fbs::DataType type, void* base, int64_t at, const float* src, int64_t w, ConvertIsa isa);
void zeroRow(fbs::DataType type, void* base, int64_t at, int64_t w);

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
                         int64_t& ld) const;
};

// checkPages fails the execution (BAD_PARAM, naming the entry) when a block a valid key of some
// batch uses is not in the cache; nothing is read before.
void checkPages(const int32_t* table, const int32_t* lkv, int64_t B, int64_t pages, int64_t block, int64_t blocks,
                const char* role, const std::string& name);

} // namespace hipdnngo::onednn::sdpa_rows
