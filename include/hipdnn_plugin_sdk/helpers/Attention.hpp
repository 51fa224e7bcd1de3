// Attention definitions engines share, so that every engine computes the same thing.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace hipdnn_plugin_sdk
{

// alibiSlopes: the ALiBi slope of each of `heads` query heads, as cudnn-frontend computes them
// (in float) for SDPA's alibi_mask, whose bias is slope_h * (key position - query position).
// With n the largest power of two <= heads: 2^(-8(h + 1)/n) for head h < n, then
// 2^(-8(k + 1/2)/n) for the k-th head after those.
inline std::vector<float> alibiSlopes(int64_t heads)
{
    int64_t n = 1;
    while(n * 2 <= heads)
        n *= 2;
    std::vector<float> slopes;
    for(int64_t h = 0; h < heads; ++h)
    {
        const float e = h < n ? static_cast<float>(h + 1) : static_cast<float>(2 * (h - n) + 1) * 0.5f;
        slopes.push_back(std::pow(2.0f, e * -8.0f / static_cast<float>(n)));
    }
    return slopes;
}

} // namespace hipdnn_plugin_sdk
