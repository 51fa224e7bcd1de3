// NormKernels: see NormKernels.hpp.
#include "NormKernels.hpp"

#include "Convert.hpp"

#include <hipdnn_plugin_sdk/helpers/FloatFormats.h>

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace hipdnngo::onednn
{

namespace
{

// x86-64-v4: AVX-512 F/BW/DQ/VL (16-bit lanes need BW); x86-64-v3: AVX2, FMA, F16C.
#define HIPDNNGO_VECTOR_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#define HIPDNNGO_INLINE inline __attribute__((always_inline))
// Lambdas holding the loops are inlined into the cloned caller (else they would be compiled
// for baseline x86-64 only).
#define HIPDNNGO_LAMBDA_INLINE __attribute__((always_inline))

constexpr int64_t kBlock = 64; // b values per block when B > 1 (stack arrays)
constexpr int64_t kParts = 64; // partial sums of the parameter gradients
constexpr int64_t kRowsPerTask = 8; // rows per OpenMP iteration (B == 1)

constexpr int64_t kRowBuffer = 4096; // a 16-bit row up to this long is widened once, into L1
// Independent partial sums of a row: 4 AVX-512 or 8 AVX2 accumulators, enough to hide the add
// latency on both (32 left a two-register dependency chain on AVX-512).
constexpr int64_t kLanes = 64;

// rowSum: the sum of f(k) over k in [0, n), in kLanes partial sums.
template <class F>
HIPDNNGO_INLINE float rowSum(int64_t n, F f)
{
    float part[kLanes] = {};
    int64_t k = 0;
    for(; k + kLanes <= n; k += kLanes)
    {
#pragma omp simd
        for(int64_t j = 0; j < kLanes; ++j)
            part[j] += f(k + j);
    }
    for(; k < n; ++k)
        part[0] += f(k);
    // Pairwise fold (vector adds, not a chain of kLanes scalar adds).
    for(int64_t w = kLanes / 2; w >= 1; w /= 2)
    {
#pragma omp simd
        for(int64_t j = 0; j < w; ++j)
            part[j] += part[j + w];
    }
    return part[0];
}

// withParam calls body with an accessor k -> p[k] for a per-N vector, or k -> p[0] for a
// one-element one (or 0 for none): separate loops, so neither is a gather.
template <class Body>
HIPDNNGO_INLINE void withParam(const float* p, bool scalar, Body body)
{
    if(p == nullptr)
        body([](int64_t) HIPDNNGO_LAMBDA_INLINE { return 0.f; });
    else if(scalar)
    {
        const float v = p[0];
        body([v](int64_t) HIPDNNGO_LAMBDA_INLINE { return v; });
    }
    else
        body([p](int64_t k) HIPDNNGO_LAMBDA_INLINE { return p[k]; });
}

// Element access per storage type: widen on load, narrow (nearest even) on store.
struct F32E
{
    using T = float;
    static constexpr fbs::DataType type = fbs::DataType::FLOAT;
    static float load(T v) { return v; }
    static T store(float f) { return f; }
};
struct F16E
{
    using T = uint16_t;
    static constexpr fbs::DataType type = fbs::DataType::HALF;
    static float load(T v) { return hipdnnHalfToFloat(v); }
    static T store(float f) { return hipdnnFloatToHalf(f); }
};
struct BF16E
{
    using T = uint16_t;
    static constexpr fbs::DataType type = fbs::DataType::BFLOAT16;
    static float load(T v) { return hipdnnBfloat16ToFloat(v); }
    static T store(float f) { return hipdnnFloatToBfloat16(f); }
};

// buffered: a 16-bit row of up to kRowBuffer elements goes through f32 copies in L1, converted
// by Convert's row functions (F16C / AVX-512 hardware conversions, the scalar SDK ones on other
// CPUs): the software conversion inline in the kernels' loops cost more than the
// normalization itself (layernorm fp16 at 0.56x of fp32 on the 2-core VM).
template <class E>
HIPDNNGO_INLINE bool buffered(int64_t n)
{
    return !std::is_same<E, F32E>::value && n <= kRowBuffer;
}

// withRow calls body with an accessor k -> row element k as f32: for a buffered row, from a copy
// widened once into buf (the kernels read a row two or three times); else straight from the row.
template <class E, class Body>
HIPDNNGO_INLINE void withRow(const typename E::T* row, int64_t n, float* buf, Body body)
{
    if(!buffered<E>(n))
    {
        body([row](int64_t k) HIPDNNGO_LAMBDA_INLINE { return E::load(row[k]); });
        return;
    }
    widenRow(convertIsa(), E::type, reinterpret_cast<const uint16_t*>(row), buf, n);
    body([buf](int64_t k) HIPDNNGO_LAMBDA_INLINE { return buf[k]; });
}

// withRowSum is withRow that also passes sum(first(v)) over the row's values v; body(accessor, sum).
template <class E, class First, class Body>
HIPDNNGO_INLINE void withRowSum(const typename E::T* row, int64_t n, float* buf, First first, Body body)
{
    withRow<E>(row, n, buf, [&](auto xv) HIPDNNGO_LAMBDA_INLINE {
        body(xv, rowSum(n, [&](int64_t k) HIPDNNGO_LAMBDA_INLINE { return first(xv(k)); }));
    });
}

// withOut calls body with put(k, v), which stores f32 value v as output row element k: for a
// buffered row into out, narrowed into the row afterwards; else straight into the row.
template <class E, class Body>
HIPDNNGO_INLINE void withOut(typename E::T* row, int64_t n, float* out, Body body)
{
    if(!buffered<E>(n))
    {
        body([row](int64_t k, float v) HIPDNNGO_LAMBDA_INLINE { row[k] = E::store(v); });
        return;
    }
    body([out](int64_t k, float v) HIPDNNGO_LAMBDA_INLINE { out[k] = v; });
    narrowRow(convertIsa(), E::type, out, reinterpret_cast<uint16_t*>(row), n);
}

// ---- RMSNorm forward ----------------------------------------------------------------------

// Contiguous rows (B == 1) [r0, r1).
template <class E>
HIPDNNGO_VECTOR_CLONES void rmsForwardRows(const RmsNormShape& s, const typename E::T* __restrict x, const float* __restrict scale,
                                           const float* __restrict bias, float eps, typename E::T* __restrict y,
                                           float* __restrict invRms, int64_t r0, int64_t r1)
{
    const int64_t n = s.n;
    const float count = static_cast<float>(n);
    float buf[kRowBuffer], out[kRowBuffer];
    withParam(scale, s.scaleScalar, [&](auto sc) HIPDNNGO_LAMBDA_INLINE {
        withParam(bias, s.biasScalar, [&](auto bi) HIPDNNGO_LAMBDA_INLINE {
            for(int64_t r = r0; r < r1; ++r)
            {
                withRowSum<E>(x + r * n, n, buf, [](float v) HIPDNNGO_LAMBDA_INLINE { return v * v; },
                              [&](auto xv, float sum) HIPDNNGO_LAMBDA_INLINE {
                    const float inv = 1.f / std::sqrt(sum / count + eps);
                    withOut<E>(y + r * n, n, out, [&](auto put) HIPDNNGO_LAMBDA_INLINE {
#pragma omp simd
                        for(int64_t k = 0; k < n; ++k)
                            put(k, xv(k) * inv * sc(k) + bi(k));
                    });
                    if(invRms)
                        invRms[r] = inv;
                });
            }
        });
    });
}

// Strided rows (B > 1): one block of up to kBlock b values of one a, vectorised over b.
template <class E>
HIPDNNGO_VECTOR_CLONES void rmsForwardBlock(const RmsNormShape& s, const typename E::T* __restrict x, const float* __restrict scale,
                                            const float* __restrict bias, float eps, typename E::T* __restrict y,
                                            float* __restrict inv, int64_t bl)
{
    float acc[kBlock] = {};
    for(int64_t k = 0; k < s.n; ++k)
    {
        const typename E::T* xr = x + k * s.b;
#pragma omp simd
        for(int64_t j = 0; j < bl; ++j)
        {
            const float v = E::load(xr[j]);
            acc[j] += v * v;
        }
    }
    const float count = static_cast<float>(s.n);
    for(int64_t j = 0; j < bl; ++j)
        inv[j] = 1.f / std::sqrt(acc[j] / count + eps);
    for(int64_t k = 0; k < s.n; ++k)
    {
        const float sc = scale[s.scaleScalar ? 0 : k], bi = bias ? bias[s.biasScalar ? 0 : k] : 0.f;
        const typename E::T* xr = x + k * s.b;
        typename E::T* yr = y + k * s.b;
#pragma omp simd
        for(int64_t j = 0; j < bl; ++j)
            yr[j] = E::store(E::load(xr[j]) * inv[j] * sc + bi);
    }
}

template <class E>
void rmsForward(const RmsNormShape& s, const void* xv, const float* scale, const float* bias, float eps, void* yv, float* invRms)
{
    const auto* x = static_cast<const typename E::T*>(xv);
    auto* y = static_cast<typename E::T*>(yv);
    if(s.b == 1)
    {
        const int64_t tasks = (s.a + kRowsPerTask - 1) / kRowsPerTask;
#pragma omp parallel for schedule(static)
        for(int64_t t = 0; t < tasks; ++t)
            rmsForwardRows<E>(s, x, scale, bias, eps, y, invRms, t * kRowsPerTask, std::min(s.a, (t + 1) * kRowsPerTask));
        return;
    }
    const int64_t blocks = (s.b + kBlock - 1) / kBlock;
#pragma omp parallel for schedule(static)
    for(int64_t t = 0; t < s.a * blocks; ++t)
    {
        const int64_t a = t / blocks, b0 = t % blocks * kBlock, bl = std::min(kBlock, s.b - b0);
        float inv[kBlock];
        const int64_t at = a * s.n * s.b + b0;
        rmsForwardBlock<E>(s, x + at, scale, bias, eps, y + at, inv, bl);
        if(invRms)
            std::copy(inv, inv + bl, invRms + a * s.b + b0);
    }
}

// ---- RMSNorm backward ---------------------------------------------------------------------

// Contiguous rows [a0, a1) of one part: dx, and the part's dscale / dbias partial sums.
template <class E>
HIPDNNGO_VECTOR_CLONES void rmsBackwardRows(const RmsNormShape& s, const typename E::T* __restrict dy,
                                            const typename E::T* __restrict x, const float* __restrict scale,
                                            const float* __restrict invRms, typename E::T* __restrict dx, float* __restrict ds,
                                            float* __restrict db, int64_t a0, int64_t a1)
{
    const int64_t n = s.n;
    const float count = static_cast<float>(n);
    float dyBuf[kRowBuffer], xBuf[kRowBuffer], out[kRowBuffer];
    withParam(scale, s.scaleScalar, [&](auto sc) HIPDNNGO_LAMBDA_INLINE {
        for(int64_t a = a0; a < a1; ++a)
        {
            const float inv = invRms[a];
            withRow<E>(dy + a * n, n, dyBuf, [&](auto dyv) HIPDNNGO_LAMBDA_INLINE {
                withRow<E>(x + a * n, n, xBuf, [&](auto xv) HIPDNNGO_LAMBDA_INLINE {
                    const float meanGXhat =
                        rowSum(n, [&](int64_t k) HIPDNNGO_LAMBDA_INLINE { return dyv(k) * sc(k) * (xv(k) * inv); }) / count;
                    withOut<E>(dx + a * n, n, out, [&](auto put) HIPDNNGO_LAMBDA_INLINE {
#pragma omp simd
                        for(int64_t k = 0; k < n; ++k)
                        {
                            const float d = dyv(k), xhat = xv(k) * inv;
                            put(k, inv * (d * sc(k) - xhat * meanGXhat));
                            ds[k] += d * xhat;
                        }
                    });
                    if(db)
                    {
#pragma omp simd
                        for(int64_t k = 0; k < n; ++k)
                            db[k] += dyv(k);
                    }
                });
            });
        }
    });
}

// Strided rows: one block of up to kBlock b values of one a.
template <class E>
HIPDNNGO_VECTOR_CLONES void rmsBackwardBlock(const RmsNormShape& s, const typename E::T* __restrict dy,
                                             const typename E::T* __restrict x, const float* __restrict scale,
                                             const float* __restrict inv, typename E::T* __restrict dx, float* __restrict ds,
                                             float* __restrict db, int64_t bl)
{
    float acc[kBlock] = {};
    for(int64_t k = 0; k < s.n; ++k)
    {
        const float sc = scale[s.scaleScalar ? 0 : k];
        const typename E::T *xr = x + k * s.b, *dyr = dy + k * s.b;
        float sumS = 0.f, sumB = 0.f;
#pragma omp simd reduction(+ : sumS, sumB)
        for(int64_t j = 0; j < bl; ++j)
        {
            const float d = E::load(dyr[j]), xhat = E::load(xr[j]) * inv[j];
            acc[j] += d * sc * xhat;
            sumS += d * xhat;
            sumB += d;
        }
        ds[k] += sumS;
        if(db)
            db[k] += sumB;
    }
    const float count = static_cast<float>(s.n);
    for(int64_t k = 0; k < s.n; ++k)
    {
        const float sc = scale[s.scaleScalar ? 0 : k];
        const typename E::T *xr = x + k * s.b, *dyr = dy + k * s.b;
        typename E::T* dxr = dx + k * s.b;
#pragma omp simd
        for(int64_t j = 0; j < bl; ++j)
            dxr[j] = E::store(inv[j] * (E::load(dyr[j]) * sc - E::load(xr[j]) * inv[j] * (acc[j] / count)));
    }
}

template <class E>
void rmsBackward(const RmsNormShape& s, const void* dyv, const void* xv, const float* scale, const float* invRms, void* dxv,
                 float* dscale, float* dbias, float* work)
{
    const auto* dy = static_cast<const typename E::T*>(dyv);
    const auto* x = static_cast<const typename E::T*>(xv);
    auto* dx = static_cast<typename E::T*>(dxv);
    const int64_t n = s.n;
    const int64_t parts = std::max<int64_t>(1, std::min(kParts, s.a)); // parts split the a range
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
        const int64_t begin = s.a * p / parts, end = s.a * (p + 1) / parts;
        if(s.b == 1)
        {
            rmsBackwardRows<E>(s, dy, x, scale, invRms, dx, ds, db, begin, end);
            continue;
        }
        for(int64_t a = begin; a < end; ++a)
            for(int64_t blk = 0; blk < blocks; ++blk)
            {
                const int64_t b0 = blk * kBlock, bl = std::min(kBlock, s.b - b0), at = a * n * s.b + b0;
                rmsBackwardBlock<E>(s, dy + at, x + at, scale, invRms + a * s.b + b0, dx + at, ds, db, bl);
            }
    }
    // The parameter gradients: parts added in order (a one-element scale or bias sums its N
    // entries too).
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
        partS[k] = sS; // part 0's entry k is read only by this k
        if(dbias)
            partB[k] = sB;
    }
    auto finish = [n](const float* sums, bool scalar, float* out) {
        if(!scalar)
        {
            std::copy(sums, sums + n, out);
            return;
        }
        float total = 0.f;
        for(int64_t k = 0; k < n; ++k)
            total += sums[k];
        out[0] = total;
    };
    finish(partS, s.scaleScalar, dscale);
    if(dbias)
        finish(partB, s.biasScalar, dbias);
}

// ---- layernorm forward --------------------------------------------------------------------

template <class E>
HIPDNNGO_VECTOR_CLONES void layerForwardRows(const RmsNormShape& s, const typename E::T* __restrict x,
                                             const float* __restrict scale, const float* __restrict bias, float eps,
                                             typename E::T* __restrict y, float* __restrict meanOut,
                                             float* __restrict invOut, int64_t r0, int64_t r1)
{
    const int64_t n = s.n;
    const float count = static_cast<float>(n);
    float buf[kRowBuffer], out[kRowBuffer];
    withParam(scale, s.scaleScalar, [&](auto sc) HIPDNNGO_LAMBDA_INLINE {
        withParam(bias, s.biasScalar, [&](auto bi) HIPDNNGO_LAMBDA_INLINE {
            for(int64_t r = r0; r < r1; ++r)
            {
                withRowSum<E>(x + r * n, n, buf, [](float v) HIPDNNGO_LAMBDA_INLINE { return v; },
                              [&](auto xv, float sum) HIPDNNGO_LAMBDA_INLINE {
                    const float mean = sum / count;
                    const float sq = rowSum(n, [&](int64_t k) HIPDNNGO_LAMBDA_INLINE {
                        const float d = xv(k) - mean;
                        return d * d;
                    });
                    const float inv = 1.f / std::sqrt(sq / count + eps);
                    withOut<E>(y + r * n, n, out, [&](auto put) HIPDNNGO_LAMBDA_INLINE {
#pragma omp simd
                        for(int64_t k = 0; k < n; ++k)
                            put(k, (xv(k) - mean) * inv * sc(k) + bi(k));
                    });
                    if(meanOut)
                        meanOut[r] = mean;
                    if(invOut)
                        invOut[r] = inv;
                });
            }
        });
    });
}

template <class E>
void layerForward(const RmsNormShape& s, const void* xv, const float* scale, const float* bias, float eps, void* yv, float* mean,
                  float* inv)
{
    const auto* x = static_cast<const typename E::T*>(xv);
    auto* y = static_cast<typename E::T*>(yv);
    const int64_t tasks = (s.a + kRowsPerTask - 1) / kRowsPerTask;
#pragma omp parallel for schedule(static)
    for(int64_t t = 0; t < tasks; ++t)
        layerForwardRows<E>(s, x, scale, bias, eps, y, mean, inv, t * kRowsPerTask, std::min(s.a, (t + 1) * kRowsPerTask));
}

} // namespace

void rmsNormForward(const RmsNormShape& s, const void* x, const float* scale, const float* bias, float eps, void* y,
                    float* invRms)
{
    switch(s.data)
    {
    case Storage::F32: rmsForward<F32E>(s, x, scale, bias, eps, y, invRms); break;
    case Storage::F16: rmsForward<F16E>(s, x, scale, bias, eps, y, invRms); break;
    case Storage::BF16: rmsForward<BF16E>(s, x, scale, bias, eps, y, invRms); break;
    }
}

size_t rmsNormBackwardWorkspace(const RmsNormShape& s) { return static_cast<size_t>(2 * kParts * s.n) * sizeof(float); }

void rmsNormBackward(const RmsNormShape& s, const void* dy, const void* x, const float* scale, const float* invRms, void* dx,
                     float* dscale, float* dbias, float* work)
{
    switch(s.data)
    {
    case Storage::F32: rmsBackward<F32E>(s, dy, x, scale, invRms, dx, dscale, dbias, work); break;
    case Storage::F16: rmsBackward<F16E>(s, dy, x, scale, invRms, dx, dscale, dbias, work); break;
    case Storage::BF16: rmsBackward<BF16E>(s, dy, x, scale, invRms, dx, dscale, dbias, work); break;
    }
}

void layerNormForward(const RmsNormShape& s, const void* x, const float* scale, const float* bias, float eps, void* y,
                      float* mean, float* invVariance)
{
    switch(s.data)
    {
    case Storage::F32: layerForward<F32E>(s, x, scale, bias, eps, y, mean, invVariance); break;
    case Storage::F16: layerForward<F16E>(s, x, scale, bias, eps, y, mean, invVariance); break;
    case Storage::BF16: layerForward<BF16E>(s, x, scale, bias, eps, y, mean, invVariance); break;
    }
}

} // namespace hipdnngo::onednn
