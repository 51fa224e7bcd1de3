// WindowGeometry: the sliding-window arithmetic shared by convolution and resample (pooling).
#pragma once

#include <algorithm>
#include <cstdint>

namespace hipdnngo::cpu_reference
{

// windowOutputSize is (in + pre + post - window) / stride + 1 with floor division, where window
// is the effective (dilated) window extent; values below 1 mean "no valid output".
inline int64_t windowOutputSize(int64_t in, int64_t pre, int64_t post, int64_t window, int64_t stride)
{
    const int64_t span = in + pre + post - window;
    if(span < 0 || stride < 1)
    {
        return 0;
    }
    return span / stride + 1;
}

// floorDiv / ceilDiv divide rounding toward -inf / +inf (b > 0).
inline int64_t floorDiv(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
inline int64_t ceilDiv(int64_t a, int64_t b) { return -floorDiv(-a, b); }

// validOutputRange sets [lo, hi) to the outputs o in [0, out) whose input position
// o·stride + offset lies in [0, in).
inline void validOutputRange(int64_t in, int64_t offset, int64_t stride, int64_t out, int64_t* lo, int64_t* hi)
{
    *lo = std::max<int64_t>(0, ceilDiv(-offset, stride));
    *hi = std::min<int64_t>(out, floorDiv(in - 1 - offset, stride) + 1);
    if(*hi < *lo)
    {
        *hi = *lo;
    }
}

} // namespace hipdnngo::cpu_reference
