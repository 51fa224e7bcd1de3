// gelu_bound.cu: is y = GELU((x + bias) * scale) on 1 GiB of bf16 bound by memory or by arithmetic
// on this GPU? The README's "Memory-bound graphs" section cites it. A standalone CUDA program, not
// part of the build (CI has no CUDA toolkit); on a GPU machine:
//
//   nvcc -O3 -arch=sm_90 -o gelu_bound bench/gelu_bound.cu && ./gelu_bound
//
// The same traffic as hipdnn-gpu-memory-bench's chain ([32, 64, 512, 512] bf16 in and out, a bf16
// bias and scale per channel), with the last op swapped: none (a copy kernel), exact erf GELU, tanh
// GELU, ReLU, Abramowitz-Stegun 7.1.26 erf (IEEE and fast reciprocal). Inputs span [-4, 4). Each
// runs in two loop forms: a grid-stride loop of one chunk at a time over several grid sizes, and
// U chunks loaded together before the arithmetic (the form hipdnn's pointwise kernels had before).
// Times are CUDA events around 10 launches after one warm-up; fractions are of cudaMemcpy's time.
#include <cuda_bf16.h>

#include <cstdint>
#include <cstdio>

#define CK(x)                                                                                                          \
    do                                                                                                                 \
    {                                                                                                                  \
        cudaError_t e_ = (x);                                                                                          \
        if(e_ != cudaSuccess)                                                                                          \
        {                                                                                                              \
            std::printf("%s: %s\n", #x, cudaGetErrorString(e_));                                                       \
            return 1;                                                                                                  \
        }                                                                                                              \
    } while(0)

namespace
{

constexpr int64_t kN = 32, kC = 64, kHW = 512 * 512, kElems = kN * kC * kHW;
constexpr int64_t kChunks = kElems / 8;

struct alignas(16) Chunk
{
    __nv_bfloat162 h[4];
};

enum Op
{
    kNone,
    kErfGelu,
    kTanhGelu,
    kRelu,
    kAsGelu,
    kAsFastGelu,
    kOps
};
const char* const kOpNames[kOps] = {"copy", "erf GELU", "tanh GELU", "ReLU", "A-S GELU", "A-S fast GELU"};

// asGelu: 0.5 t (1 + erf(t / sqrt 2)) with erfc(z) = u P(u) exp(-z^2), u = 1 / (1 + p z).
template <bool Fast>
__device__ __forceinline__ float asGelu(float t)
{
    const float z = fabsf(t) * 0.70710678f;
    const float u = Fast ? __fdividef(1.0f, 1.0f + 0.3275911f * z) : __frcp_rn(1.0f + 0.3275911f * z);
    const float poly = u * (0.254829592f + u * (-0.284496736f + u * (1.421413741f + u * (-1.453152027f + u * 1.061405429f))));
    const float q = poly * (Fast ? exp2f(-z * z * 1.44269504f) : __expf(-z * z));
    return t >= 0.0f ? t - 0.5f * t * q : 0.5f * t * q;
}

template <int OP>
__device__ __forceinline__ float apply(float v, float b, float s)
{
    if(OP == kNone)
        return v;
    const float t = (v + b) * s;
    if(OP == kErfGelu)
        return 0.5f * t * (1.0f + erff(t * 0.70710678f));
    if(OP == kTanhGelu)
        return 0.5f * t * (1.0f + tanhf(0.7978845608f * (t + 0.044715f * t * t * t)));
    if(OP == kRelu)
        return t > 0.0f ? t : 0.0f;
    return asGelu<OP == kAsFastGelu>(t);
}

template <int OP>
__device__ __forceinline__ Chunk chunkOp(const Chunk& a, float b, float s)
{
    Chunk o;
#pragma unroll
    for(int j = 0; j < 4; ++j)
    {
        const float2 v = __bfloat1622float2(a.h[j]);
        o.h[j] = __floats2bfloat162_rn(apply<OP>(v.x, b, s), apply<OP>(v.y, b, s));
    }
    return o;
}

// U chunks a grid stride apart per iteration, all loaded before any is computed (U = 1: a plain
// grid-stride loop).
template <int OP, int U>
__global__ void __launch_bounds__(256) kernel(const Chunk* __restrict__ x, const __nv_bfloat16* __restrict__ bias,
                                              const __nv_bfloat16* __restrict__ scale, Chunk* __restrict__ y)
{
    const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
    for(int64_t c0 = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; c0 < kChunks; c0 += stride * U)
    {
        Chunk r[U];
        float b[U], s[U];
#pragma unroll
        for(int u = 0; u < U; ++u)
        {
            const int64_t c = c0 + u * stride;
            if(c >= kChunks)
                break;
            r[u] = x[c];
            const int ch = static_cast<int>((c * 8 / kHW) % kC);
            b[u] = __bfloat162float(bias[ch]);
            s[u] = __bfloat162float(scale[ch]);
        }
#pragma unroll
        for(int u = 0; u < U; ++u)
        {
            const int64_t c = c0 + u * stride;
            if(c >= kChunks)
                break;
            y[c] = chunkOp<OP>(r[u], b[u], s[u]);
        }
    }
}

__global__ void fill(__nv_bfloat16* x, int64_t n)
{
    for(int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += static_cast<int64_t>(gridDim.x) * blockDim.x)
        x[i] = __float2bfloat16(static_cast<float>((static_cast<uint64_t>(i) * 2654435761ull) % 2000) / 250.0f - 4.0f);
}

struct Buffers
{
    const Chunk* x;
    const __nv_bfloat16* bias;
    const __nv_bfloat16* scale;
    Chunk* y;
};

template <typename Launch>
float timeMs(Launch launch)
{
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    launch();
    cudaEventRecord(e0);
    for(int r = 0; r < 10; ++r)
        launch();
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float ms = 0;
    cudaEventElapsedTime(&ms, e0, e1);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    return ms / 10;
}

template <int OP, int U>
float run(const Buffers& m, int grid)
{
    return timeMs([&] { kernel<OP, U><<<grid, 256>>>(m.x, m.bias, m.scale, m.y); });
}

template <int OP>
void row(const Buffers& m, int grid, float copyMs)
{
    const float one = run<OP, 1>(m, grid), four = run<OP, 4>(m, grid);
    std::printf("| %-13s | %7d | %.3f | %.2f | %.2f |\n", kOpNames[OP], grid, one, copyMs / one, copyMs / four);
}

} // namespace

int main()
{
    Chunk *x = nullptr, *y = nullptr;
    __nv_bfloat16 *bias = nullptr, *scale = nullptr;
    CK(cudaMalloc(&x, kElems * 2));
    CK(cudaMalloc(&y, kElems * 2));
    CK(cudaMalloc(&bias, kC * 2));
    CK(cudaMalloc(&scale, kC * 2));
    fill<<<4096, 256>>>(reinterpret_cast<__nv_bfloat16*>(x), kElems);
    CK(cudaMemset(bias, 0, kC * 2));
    CK(cudaMemset(scale, 0x3f, kC * 2)); // 0x3f3f: about 0.75
    CK(cudaDeviceSynchronize());
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    cudaDeviceProp prop{};
    CK(cudaGetDeviceProperties(&prop, 0));

    const float copyMs = timeMs([&] { cudaMemcpyAsync(y, x, kElems * 2, cudaMemcpyDeviceToDevice); });
    std::printf("%s, %d SMs; cudaMemcpy of 1 GiB: %.3f ms, %.2f TB/s (read + write)\n\n", prop.name, sms, copyMs,
                2.0 * kElems * 2 / copyMs / 1e9);
    std::printf("| last op | grid | ms, one chunk at a time | of copy | of copy, 4 chunks loaded together |\n|---|---|---|---|---|\n");
    const Buffers m{x, bias, scale, y};
    for(int grid : {sms * 8, sms * 16, static_cast<int>(kChunks / 256 / 4), static_cast<int>(kChunks / 256)})
    {
        row<kNone>(m, grid, copyMs);
        row<kErfGelu>(m, grid, copyMs);
        row<kTanhGelu>(m, grid, copyMs);
        row<kRelu>(m, grid, copyMs);
        row<kAsGelu>(m, grid, copyMs);
        row<kAsFastGelu>(m, grid, copyMs);
    }
    CK(cudaGetLastError());
    return 0;
}
