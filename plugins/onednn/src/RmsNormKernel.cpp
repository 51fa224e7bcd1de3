// RmsNormKernel: see RmsNormKernel.hpp. Compiled for AVX-512, AVX2 and baseline x86-64 (the
// CPU picks at load); OpenMP over rows.
#include "RmsNormKernel.hpp"

#include <algorithm>
#include <cmath>

namespace hipdnngo::onednn
{

namespace
{

#define HIPDNNGO_VECTOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))

constexpr int64_t kBlock = 64; // b values per block when B > 1 (stack arrays)
constexpr int64_t kParts = 64; // partial sums of the parameter gradients

// The contiguous-row case (B == 1).
HIPDNNGO_VECTOR_CLONES float sumSquares(const float* __restrict x, int64_t n)
{
    float s = 0.f;
#pragma omp simd reduction(+ : s)
    for(int64_t k = 0; k < n; ++k)
        s += x[k] * x[k];
    return s;
}

HIPDNNGO_VECTOR_CLONES void scaleRow(const float* __restrict x, const float* __restrict scale, const float* __restrict bias,
                                     float inv, float* __restrict y, int64_t n, int64_t sStep, int64_t bStep)
{
    if(bias)
    {
#pragma omp simd
        for(int64_t k = 0; k < n; ++k)
            y[k] = x[k] * inv * scale[k * sStep] + bias[k * bStep];
    }
    else
    {
#pragma omp simd
        for(int64_t k = 0; k < n; ++k)
            y[k] = x[k] * inv * scale[k * sStep];
    }
}

HIPDNNGO_VECTOR_CLONES float sumGXhat(const float* __restrict dy, const float* __restrict x, const float* __restrict scale,
                                      float inv, int64_t n, int64_t sStep)
{
    float s = 0.f;
#pragma omp simd reduction(+ : s)
    for(int64_t k = 0; k < n; ++k)
        s += dy[k] * scale[k * sStep] * (x[k] * inv);
    return s;
}

HIPDNNGO_VECTOR_CLONES void dxRow(const float* __restrict dy, const float* __restrict x, const float* __restrict scale,
                                  float inv, float meanGXhat, float* __restrict dx, int64_t n, int64_t sStep)
{
#pragma omp simd
    for(int64_t k = 0; k < n; ++k)
        dx[k] = inv * (dy[k] * scale[k * sStep] - x[k] * inv * meanGXhat);
}

HIPDNNGO_VECTOR_CLONES void accumulateParams(const float* __restrict dy, const float* __restrict x, float inv,
                                             float* __restrict ds, float* __restrict db, int64_t n)
{
#pragma omp simd
    for(int64_t k = 0; k < n; ++k)
        ds[k] += dy[k] * (x[k] * inv);
    if(db)
    {
#pragma omp simd
        for(int64_t k = 0; k < n; ++k)
            db[k] += dy[k];
    }
}

// The strided case (B > 1): one block of up to kBlock b values of one a, vectorised over b.
HIPDNNGO_VECTOR_CLONES void forwardBlock(const RmsNormShape& s, const float* __restrict x, const float* __restrict scale,
                                         const float* __restrict bias, float eps, float* __restrict y, float* __restrict inv,
                                         int64_t bl)
{
    float acc[kBlock] = {};
    for(int64_t k = 0; k < s.n; ++k)
    {
        const float* xr = x + k * s.b;
#pragma omp simd
        for(int64_t j = 0; j < bl; ++j)
            acc[j] += xr[j] * xr[j];
    }
    const float count = static_cast<float>(s.n);
    for(int64_t j = 0; j < bl; ++j)
        inv[j] = 1.f / std::sqrt(acc[j] / count + eps);
    for(int64_t k = 0; k < s.n; ++k)
    {
        const float sc = scale[s.scaleScalar ? 0 : k], bi = bias ? bias[s.biasScalar ? 0 : k] : 0.f;
        const float* xr = x + k * s.b;
        float* yr = y + k * s.b;
#pragma omp simd
        for(int64_t j = 0; j < bl; ++j)
            yr[j] = xr[j] * inv[j] * sc + bi;
    }
}

HIPDNNGO_VECTOR_CLONES void backwardBlock(const RmsNormShape& s, const float* __restrict dy, const float* __restrict x,
                                          const float* __restrict scale, const float* __restrict inv, float* __restrict dx,
                                          float* __restrict ds, float* __restrict db, int64_t bl)
{
    float acc[kBlock] = {};
    for(int64_t k = 0; k < s.n; ++k)
    {
        const float sc = scale[s.scaleScalar ? 0 : k];
        const float *xr = x + k * s.b, *dyr = dy + k * s.b;
        float sumS = 0.f, sumB = 0.f;
#pragma omp simd reduction(+ : sumS, sumB)
        for(int64_t j = 0; j < bl; ++j)
        {
            const float xhat = xr[j] * inv[j];
            acc[j] += dyr[j] * sc * xhat;
            sumS += dyr[j] * xhat;
            sumB += dyr[j];
        }
        ds[k] += sumS;
        if(db)
            db[k] += sumB;
    }
    const float count = static_cast<float>(s.n);
    for(int64_t k = 0; k < s.n; ++k)
    {
        const float sc = scale[s.scaleScalar ? 0 : k];
        const float *xr = x + k * s.b, *dyr = dy + k * s.b;
        float* dxr = dx + k * s.b;
#pragma omp simd
        for(int64_t j = 0; j < bl; ++j)
            dxr[j] = inv[j] * (dyr[j] * sc - xr[j] * inv[j] * (acc[j] / count));
    }
}

} // namespace

void rmsNormForward(const RmsNormShape& s, const float* x, const float* scale, const float* bias, float eps, float* y,
                    float* invRms)
{
    const int64_t sStep = s.scaleScalar ? 0 : 1, bStep = s.biasScalar ? 0 : 1;
    if(s.b == 1)
    {
        const float count = static_cast<float>(s.n);
#pragma omp parallel for schedule(static)
        for(int64_t r = 0; r < s.a; ++r)
        {
            const float inv = 1.f / std::sqrt(sumSquares(x + r * s.n, s.n) / count + eps);
            scaleRow(x + r * s.n, scale, bias, inv, y + r * s.n, s.n, sStep, bStep);
            if(invRms)
                invRms[r] = inv;
        }
        return;
    }
    const int64_t blocks = (s.b + kBlock - 1) / kBlock;
#pragma omp parallel for schedule(static)
    for(int64_t t = 0; t < s.a * blocks; ++t)
    {
        const int64_t a = t / blocks, b0 = t % blocks * kBlock, bl = std::min(kBlock, s.b - b0);
        float inv[kBlock];
        const int64_t at = a * s.n * s.b + b0;
        forwardBlock(s, x + at, scale, bias, eps, y + at, inv, bl);
        if(invRms)
            std::copy(inv, inv + bl, invRms + a * s.b + b0);
    }
}

size_t rmsNormBackwardWorkspace(const RmsNormShape& s) { return static_cast<size_t>(2 * kParts * s.n) * sizeof(float); }

void rmsNormBackward(const RmsNormShape& s, const float* dy, const float* x, const float* scale, const float* invRms,
                     float* dx, float* dscale, float* dbias, float* work)
{
    const int64_t sStep = s.scaleScalar ? 0 : 1, n = s.n;
    const int64_t rowsOuter = s.a; // parts split the a range
    const int64_t parts = std::max<int64_t>(1, std::min(kParts, rowsOuter));
    float* partS = work;
    float* partB = work + kParts * n;
    const int64_t blocks = (s.b + kBlock - 1) / kBlock;
#pragma omp parallel for schedule(static)
    for(int64_t p = 0; p < parts; ++p)
    {
        float* ds = partS + p * n;
        float* db = dbias ? partB + p * n : nullptr;
        std::fill(ds, ds + n, 0.f);
        if(db)
            std::fill(db, db + n, 0.f);
        const int64_t begin = rowsOuter * p / parts, end = rowsOuter * (p + 1) / parts;
        for(int64_t a = begin; a < end; ++a)
        {
            if(s.b == 1)
            {
                const float *dyr = dy + a * n, *xr = x + a * n, inv = invRms[a];
                const float meanGXhat = sumGXhat(dyr, xr, scale, inv, n, sStep) / static_cast<float>(n);
                dxRow(dyr, xr, scale, inv, meanGXhat, dx + a * n, n, sStep);
                accumulateParams(dyr, xr, inv, ds, db, n);
                continue;
            }
            for(int64_t blk = 0; blk < blocks; ++blk)
            {
                const int64_t b0 = blk * kBlock, bl = std::min(kBlock, s.b - b0), at = a * n * s.b + b0;
                backwardBlock(s, dy + at, x + at, scale, invRms + a * s.b + b0, dx + at, ds, db, bl);
            }
        }
    }
    // The parameter gradients: parts added in order (a broadcast scale sums its N entries too).
    const int64_t outS = s.scaleScalar ? 1 : n;
#pragma omp parallel for schedule(static)
    for(int64_t k = 0; k < n; ++k)
    {
        float sS = 0.f, sB = 0.f;
        for(int64_t p = 0; p < parts; ++p)
        {
            sS += partS[p * n + k];
            if(dbias)
                sB += partB[p * n + k];
        }
        partS[k] = sS; // part 0 is read only by this k from here on
        if(dbias)
            partB[k] = sB;
    }
    if(outS == 1)
    {
        float sS = 0.f;
        for(int64_t k = 0; k < n; ++k)
            sS += partS[k];
        dscale[0] = sS;
    }
    else
        std::copy(partS, partS + n, dscale);
    if(dbias)
    {
        if(s.biasScalar)
        {
            float sB = 0.f;
            for(int64_t k = 0; k < n; ++k)
                sB += partB[k];
            dbias[0] = sB;
        }
        else
            std::copy(partB, partB + n, dbias);
    }
}

} // namespace hipdnngo::onednn
