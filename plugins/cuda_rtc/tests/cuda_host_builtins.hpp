// The CUDA built-ins the HIPDNNGO_CUDA_RTC generator uses, for the host C++ compiler: generated
// sources are compiled with `c++ -fsyntax-only -include cuda_host_builtins.hpp` (syntax and type
// errors without a CUDA toolkit), and the conversion helpers of the prelude are run on the host
// against the SDK's FloatFormats.h. Anything the generator starts to use must be added here, so
// this file is also the list of what a hipRTC back end must provide.
#pragma once

#include <math.h>
#include <string.h>

#define __global__
#define __device__
#define __forceinline__ inline
#define __shared__ static

struct hd_dim3
{
    unsigned x, y, z;
};
extern thread_local hd_dim3 threadIdx, blockIdx, blockDim, gridDim;

inline void __syncthreads() {}
inline float __shfl_xor_sync(unsigned /*mask*/, float v, int /*lane_mask*/, int /*width*/ = 32) { return v; }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __uint_as_float(unsigned u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}
inline unsigned __float_as_uint(float f)
{
    unsigned u;
    memcpy(&u, &f, sizeof u);
    return u;
}
#define __launch_bounds__(...)
