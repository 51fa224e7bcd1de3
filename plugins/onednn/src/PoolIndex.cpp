#include "PoolIndex.hpp"

#include <hipdnn_plugin_sdk/helpers/PluginHelpers.hpp>

#include <algorithm>
#include <atomic>
#include <limits>

namespace hipdnngo::onednn
{

namespace
{

// Offsets tables longer than this (3-D windows over large planes) are not built.
constexpr int64_t kMaxTaps = int64_t(1) << 20;

int64_t readIndex(fbs::DataType t, const void* base, int64_t at)
{
    switch(t)
    {
    case fbs::DataType::INT8: return static_cast<const int8_t*>(base)[at];
    case fbs::DataType::UINT8: return static_cast<const uint8_t*>(base)[at];
    case fbs::DataType::INT32: return static_cast<const int32_t*>(base)[at];
    default: return static_cast<const int64_t*>(base)[at];
    }
}

} // namespace

int64_t firstPaddingTap(const int64_t origin[3], const int64_t in[3], const int64_t window[3])
{
    if(origin[0] < 0 || origin[1] < 0 || origin[2] < 0)
        return 0;
    if(in[2] - origin[2] < window[2])
        return in[2] - origin[2];
    if(in[1] - origin[1] < window[1])
        return (in[1] - origin[1]) * window[2];
    if(in[0] - origin[0] < window[0])
        return (in[0] - origin[0]) * window[1] * window[2];
    return -1;
}

bool indexTypeSupported(fbs::DataType t)
{
    return t == fbs::DataType::INT8 || t == fbs::DataType::UINT8 || t == fbs::DataType::INT32 || t == fbs::DataType::INT64;
}

PoolIndexConverter::PoolIndexConverter(PoolIndexGeometry g) : g_(std::move(g))
{
    // Offset of window position (w0, w1, w2) from the window origin, as a flat in-plane index.
    const int64_t span = ((g_.window[0] - 1) * g_.in[1] + g_.window[1] - 1) * g_.in[2] + g_.window[2];
    if(span > kMaxTaps)
        return;
    std::vector<Tap> taps(static_cast<size_t>(span), Tap{{0, 0, 0}, -1});
    int32_t k = 0;
    for(int32_t w0 = 0; w0 < g_.window[0]; ++w0)
        for(int32_t w1 = 0; w1 < g_.window[1]; ++w1)
            for(int32_t w2 = 0; w2 < g_.window[2]; ++w2, ++k)
            {
                Tap& t = taps[static_cast<size_t>((w0 * g_.in[1] + w1) * g_.in[2] + w2)];
                if(t.k >= 0)
                    return; // a window wider than the input: two positions share an offset
                t = Tap{{w0, w1, w2}, k};
            }
    taps_ = std::move(taps);
}

namespace
{

// Row converts `count` index elements (src, stepping srcStep) whose outputs' window origins
// start at origin and move by `move` per element, into workspace elements (dst, stepping
// dstStep). Everything it reads is copied into locals first: the workspace may be bytes, and
// a byte store would otherwise make the compiler reload the geometry after every element.
// Returns false when some element is bad (the others are still written).
template <typename I, typename W>
bool row(const PoolIndexGeometry& g, const PoolIndexConverter::Tap* taps, int64_t span, const I* src, int64_t srcStep, W* dst,
         int64_t dstStep, int64_t count, const int64_t origin[3], const int64_t move[3])
{
    const int64_t in0 = g.in[0], in1 = g.in[1], in2 = g.in[2], plane = in0 * in1 * in2;
    const int64_t win0 = g.window[0], win1 = g.window[1], win2 = g.window[2];
    const int64_t m0 = move[0], m1 = move[1], m2 = move[2];
    int64_t o0 = origin[0], o1 = origin[1], o2 = origin[2];
    bool good = true;
    for(int64_t j = 0; j < count; ++j, o0 += m0, o1 += m1, o2 += m2)
    {
        const int64_t v = static_cast<int64_t>(src[j * srcStep]);
        int64_t w0 = -1, w1 = -1, w2 = -1, k = -1;
        if(v == -1)
        {
            // A padding maximum: oneDNN's workspace names a padding tap, whose gradient
            // oneDNN's max-pool backward drops (its kernels visit only taps inside the input).
            const int64_t o[3] = {o0, o1, o2};
            const int64_t pad = firstPaddingTap(o, g.in, g.window);
            if(pad < 0)
            {
                good = false;
                continue;
            }
            dst[j * dstStep] = static_cast<W>(pad);
            continue;
        }
        if(v >= 0 && v < plane)
        {
            if(taps)
            {
                const int64_t rel = v - ((o0 * in1 + o1) * in2 + o2);
                if(rel >= 0 && rel < span)
                {
                    const PoolIndexConverter::Tap& t = taps[rel];
                    w0 = t.w[0], w1 = t.w[1], w2 = t.w[2], k = t.k;
                }
            }
            else
            {
                w2 = v % in2 - o2;
                w1 = v / in2 % in1 - o1;
                w0 = v / (in2 * in1) - o0;
                k = (w0 * win1 + w1) * win2 + w2;
            }
        }
        // Inside the window and inside the input (from an origin in the padding, an offset can
        // wrap into the previous row).
        if(k < 0 || w0 < 0 || w0 >= win0 || w1 < 0 || w1 >= win1 || w2 < 0 || w2 >= win2 || o0 + w0 < 0 || o0 + w0 >= in0
           || o1 + w1 < 0 || o1 + w1 >= in1 || o2 + w2 < 0 || o2 + w2 >= in2)
        {
            good = false;
            continue;
        }
        dst[j * dstStep] = static_cast<W>(k);
    }
    return good;
}

} // namespace

// convert runs over the index in its memory order (the five dims [N, C, out0, out1, out2]
// sorted by stride, the outer two in parallel, the innermost as rows), so a channels-last
// index is read line by line rather than one cache line per element. Returns the row-major
// position in [N, C, out...] of the first bad element, or -1.
template <typename I, typename W>
int64_t PoolIndexConverter::convert(const void* index, void* workspace) const
{
    const PoolIndexGeometry& g = g_;
    const int64_t dims[5] = {g.n, g.c, g.out[0], g.out[1], g.out[2]};
    const int64_t* is = g.indexStrides;
    const int64_t* ws = g.workspaceStrides;
    int perm[5] = {0, 1, 2, 3, 4};
    // Size-1 dims outermost (they cost a loop level each), then by decreasing stride.
    std::stable_sort(perm, perm + 5,
                     [&](int a, int b) { return (dims[a] == 1) != (dims[b] == 1) ? dims[a] == 1 : is[a] > is[b]; });
    const int64_t outer = dims[perm[0]] * dims[perm[1]];
    const int inner = perm[4];
    // Per element of a row, how far each window origin moves (0 unless the row is spatial).
    const int64_t move[3] = {inner == 2 ? g.stride[0] : 0, inner == 3 ? g.stride[1] : 0, inner == 4 ? g.stride[2] : 0};
    const Tap* taps = taps_.empty() ? nullptr : taps_.data();
    const int64_t span = static_cast<int64_t>(taps_.size());
    std::atomic<int64_t> firstBad{std::numeric_limits<int64_t>::max()};
#pragma omp parallel for schedule(static)
    for(int64_t ab = 0; ab < outer; ++ab)
    {
        int64_t at[5];
        at[perm[0]] = ab / dims[perm[1]];
        at[perm[1]] = ab % dims[perm[1]];
        at[inner] = 0;
        for(int64_t x = 0; x < dims[perm[2]]; ++x)
            for(int64_t y = 0; y < dims[perm[3]]; ++y)
            {
                at[perm[2]] = x;
                at[perm[3]] = y;
                const I* src =
                    static_cast<const I*>(index) + at[0] * is[0] + at[1] * is[1] + at[2] * is[2] + at[3] * is[3] + at[4] * is[4];
                W* dst =
                    static_cast<W*>(workspace) + at[0] * ws[0] + at[1] * ws[1] + at[2] * ws[2] + at[3] * ws[3] + at[4] * ws[4];
                const int64_t origin[3] = {at[2] * g.stride[0] - g.pre[0], at[3] * g.stride[1] - g.pre[1],
                                           at[4] * g.stride[2] - g.pre[2]};
                if(row(g, taps, span, src, is[inner], dst, ws[inner], dims[inner], origin, move))
                    continue;
                // Some element of the row is bad: find the first, by row-major position.
                for(int64_t j = 0; j < dims[inner]; ++j)
                {
                    const int64_t o[3] = {origin[0] + j * move[0], origin[1] + j * move[1], origin[2] + j * move[2]};
                    if(row(g, taps, span, src + j * is[inner], 0, dst + j * ws[inner], 0, 1, o, move))
                        continue;
                    at[inner] = j;
                    int64_t pos = 0;
                    for(int d = 0; d < 5; ++d)
                        pos = pos * dims[d] + at[d];
                    at[inner] = 0;
                    int64_t seen = firstBad.load();
                    while(pos < seen && !firstBad.compare_exchange_weak(seen, pos))
                    {
                    }
                }
            }
    }
    const int64_t bad = firstBad.load();
    return bad == std::numeric_limits<int64_t>::max() ? -1 : bad;
}

void PoolIndexConverter::run(const void* index, void* workspace) const
{
    auto as = [&](auto indexType) {
        using I = decltype(indexType);
        return g_.workspaceS32 ? convert<I, int32_t>(index, workspace) : convert<I, uint8_t>(index, workspace);
    };
    int64_t bad = -1;
    switch(g_.indexType)
    {
    case fbs::DataType::INT8: bad = as(int8_t{}); break;
    case fbs::DataType::UINT8: bad = as(uint8_t{}); break;
    case fbs::DataType::INT32: bad = as(int32_t{}); break;
    default: bad = as(int64_t{}); break;
    }
    if(bad < 0)
        return;
    // Name the element by its [n, c, spatial...] coordinates and quote its value.
    const PoolIndexGeometry& g = g_;
    const int64_t outVolume = g.out[0] * g.out[1] * g.out[2];
    const int64_t pc = bad / outVolume, r = bad % outVolume;
    const int64_t o[3] = {r / (g.out[1] * g.out[2]), r / g.out[2] % g.out[1], r % g.out[2]};
    int64_t at = pc / g.c * g.indexStrides[0] + pc % g.c * g.indexStrides[1];
    std::string where = "[" + std::to_string(pc / g.c) + ", " + std::to_string(pc % g.c);
    for(int d = 3 - g.spatial; d < 3; ++d)
    {
        at += o[d] * g.indexStrides[2 + d];
        where += ", " + std::to_string(o[d]);
    }
    hipdnn_plugin_sdk::fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                            "max-pool index tensor " + g.indexLabel + ": element " + where + "] is "
                                + std::to_string(readIndex(g.indexType, index, at))
                                + ", which is not an input position inside that output's pooling window "
                                  "(flat index within the (n, c) input plane; -1, a padding maximum, only where "
                                  "the window reaches into the padding)");
}

PoolArgmax::PoolArgmax(PoolIndexGeometry g, const int64_t yStrides[5], bool zeroPad, bool writeIndex)
    : g_(std::move(g)), zeroPad_(zeroPad), writeIndex_(writeIndex)
{
    std::copy(yStrides, yStrides + 5, yStrides_);
    for(int64_t w0 = 0; w0 < g_.window[0]; ++w0)
        for(int64_t w1 = 0; w1 < g_.window[1]; ++w1)
            for(int64_t w2 = 0; w2 < g_.window[2]; ++w2)
                tapOffset_.push_back((w0 * g_.in[1] + w1) * g_.in[2] + w2);
}

template <typename I, typename W>
void PoolArgmax::convert(const void* workspace, void* index, float* y) const
{
    const PoolIndexGeometry& g = g_;
    const int64_t* is = g.indexStrides;
    const int64_t* wst = g.workspaceStrides;
    const int64_t* ys = yStrides_;
    const int64_t* taps = tapOffset_.data();
    const int64_t volume = static_cast<int64_t>(tapOffset_.size());
    const float padValue = zeroPad_ ? 0.f : -std::numeric_limits<float>::infinity();
#pragma omp parallel for schedule(static)
    for(int64_t nc = 0; nc < g.n * g.c; ++nc)
    {
        const int64_t n = nc / g.c, c = nc % g.c;
        const W* wsBase = static_cast<const W*>(workspace) + n * wst[0] + c * wst[1];
        I* idxBase = writeIndex_ ? static_cast<I*>(index) + n * is[0] + c * is[1] : nullptr;
        float* yBase = y + n * ys[0] + c * ys[1];
        for(int64_t o0 = 0; o0 < g.out[0]; ++o0)
            for(int64_t o1 = 0; o1 < g.out[1]; ++o1)
                for(int64_t o2 = 0; o2 < g.out[2]; ++o2)
                {
                    const int64_t origin[3] = {o0 * g.stride[0] - g.pre[0], o1 * g.stride[1] - g.pre[1],
                                               o2 * g.stride[2] - g.pre[2]};
                    const int64_t k = static_cast<int64_t>(wsBase[o0 * wst[2] + o1 * wst[3] + o2 * wst[4]]);
                    int64_t flat = (origin[0] * g.in[1] + origin[1]) * g.in[2] + origin[2] + (k < volume ? taps[k] : 0);
                    const int64_t pad = firstPaddingTap(origin, g.in, g.window);
                    if(pad >= 0)
                    {
                        bool inside = true;
                        for(int d = 0; d < 3; ++d)
                            inside = inside && std::max<int64_t>(origin[d], 0) < std::min(origin[d] + g.window[d], g.in[d]);
                        float& yv = yBase[o0 * ys[2] + o1 * ys[3] + o2 * ys[4]];
                        if(!inside)
                        {
                            yv = padValue;
                            flat = -1;
                        }
                        else if(zeroPad_ && (yv < 0.f || (yv == 0.f && pad < k)))
                        {
                            yv = 0.f;
                            flat = -1;
                        }
                    }
                    if(idxBase)
                        idxBase[o0 * is[2] + o1 * is[3] + o2 * is[4]] = static_cast<I>(flat);
                }
    }
}

void PoolArgmax::run(const void* workspace, void* index, float* y) const
{
    auto as = [&](auto indexType) {
        using I = decltype(indexType);
        if(g_.workspaceS32)
            convert<I, int32_t>(workspace, index, y);
        else
            convert<I, uint8_t>(workspace, index, y);
    };
    switch(g_.indexType)
    {
    case fbs::DataType::INT8: as(int8_t{}); break;
    case fbs::DataType::UINT8: as(uint8_t{}); break;
    case fbs::DataType::INT32: as(int32_t{}); break;
    default: as(int64_t{}); break;
    }
}

} // namespace hipdnngo::onednn
