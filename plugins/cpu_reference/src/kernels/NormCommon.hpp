// NormCommon: what the normalization kernels (batchnorm, layernorm, RMSNorm) share.
//
// A normalization splits the axes of x into "kept" axes and "normalized" axes. Every position of
// the kept axes is one group (a channel for batchnorm, a row for layernorm); the statistics of a
// group are taken over its members, the positions of the normalized axes. AxisSplit enumerates
// groups and members in logical row-major order and turns them into element offsets of any view
// that has been broadcast to x's shape, so a kernel is:
//
//   for every group g (parallel):  for every member m:  x[xg[g] + xm[m]], scale[sg[g] + sm[m]] …
//
// Offsets are precomputed once per view (O(groups + members) memory), so the inner loops do no
// index arithmetic at all.
//
// blockedSum adds terms in blocks of kSumBlock, then adds the block sums: the rounding error
// grows like (kSumBlock + n / kSumBlock)·ε instead of n·ε, which matters for batchnorm channels
// with hundreds of thousands of members accumulated in fp32.
#pragma once

#include "core/StridedLoop.hpp"
#include "core/TensorView.hpp"

#include <array>
#include <string>
#include <vector>

namespace hipdnngo::cpu_reference
{

// AxisMask marks axes (true = normalized / reduced).
using AxisMask = std::array<bool, kMaxRank>;

class AxisSplit
{
public:
    // AxisSplit splits `shape`'s axes: reduced[d] true puts axis d inside a group.
    AxisSplit(const TensorView& shape, const AxisMask& reduced) : shape_(shape), reduced_(reduced)
    {
        groups_ = 1;
        members_ = 1;
        for(int d = 0; d < shape.rank; ++d)
        {
            (reduced[static_cast<size_t>(d)] ? members_ : groups_) *= shape.dims[d];
        }
    }

    int64_t groups() const { return groups_; }
    int64_t members() const { return members_; }

    // groupOffsets / memberOffsets return, for `view` (same rank and dims as the shape, usually
    // via broadcastTo), the offset contributed by the kept axes of each group and by the
    // normalized axes of each member, both in logical row-major order.
    std::vector<int64_t> groupOffsets(const TensorView& view) const { return offsets(view, false); }
    std::vector<int64_t> memberOffsets(const TensorView& view) const { return offsets(view, true); }

    // denseGroupView returns a shape-only view over the full shape whose "offset" is the group
    // index: stride 0 on normalized axes, packed row-major strides on kept axes. Use it to index
    // per-group scratch buffers (statistics) from any AxisSplit over the same shape.
    TensorView denseGroupView() const
    {
        TensorView v = shape_;
        v.data = nullptr;
        int64_t s = 1;
        for(int d = shape_.rank - 1; d >= 0; --d)
        {
            if(reduced_[static_cast<size_t>(d)])
            {
                v.strides[d] = 0;
            }
            else
            {
                v.strides[d] = s;
                s *= shape_.dims[d];
            }
        }
        return v;
    }

private:
    std::vector<int64_t> offsets(const TensorView& view, bool wantReduced) const
    {
        if(view.rank != shape_.rank)
        {
            throw KernelError("axis split: view rank " + std::to_string(view.rank) + " differs from "
                              + std::to_string(shape_.rank));
        }
        int axes[kMaxRank];
        int n = 0;
        for(int d = 0; d < shape_.rank; ++d)
        {
            if(reduced_[static_cast<size_t>(d)] == wantReduced)
            {
                axes[n++] = d;
            }
        }
        const int64_t total = wantReduced ? members_ : groups_;
        std::vector<int64_t> out(static_cast<size_t>(total));
        int64_t index[kMaxRank] = {};
        int64_t off = 0;
        for(int64_t i = 0; i < total; ++i)
        {
            out[static_cast<size_t>(i)] = off;
            for(int p = n - 1; p >= 0; --p) // odometer over the selected axes, last fastest
            {
                const int d = axes[p];
                if(++index[d] < shape_.dims[d])
                {
                    off += view.strides[d];
                    break;
                }
                off -= (shape_.dims[d] - 1) * view.strides[d];
                index[d] = 0;
            }
        }
        return out;
    }

    TensorView shape_;
    AxisMask reduced_;
    int64_t groups_ = 1;
    int64_t members_ = 1;
};

constexpr int64_t kSumBlock = 256;

// blockedSum returns Σ_{k<n} term(k) in Acc, summed in blocks (see the file comment).
template <typename Acc, typename F>
Acc blockedSum(int64_t n, F&& term)
{
    Acc total = Acc(0);
    for(int64_t begin = 0; begin < n; begin += kSumBlock)
    {
        const int64_t end = begin + kSumBlock < n ? begin + kSumBlock : n;
        Acc part = Acc(0);
        for(int64_t k = begin; k < end; ++k)
        {
            part += term(k);
        }
        total += part;
    }
    return total;
}

// alignedDims returns `view`'s dims right-aligned to `rank` (missing leading dims are 1), or an
// empty vector when view.rank > rank.
inline std::vector<int64_t> alignedDims(const TensorView& view, int rank)
{
    if(view.rank > rank)
    {
        return {};
    }
    std::vector<int64_t> out(static_cast<size_t>(rank), 1);
    for(int d = 0; d < view.rank; ++d)
    {
        out[static_cast<size_t>(rank - view.rank + d)] = view.dims[d];
    }
    return out;
}

// reducedAxesOf marks the axes where `small` (right-aligned, broadcastable to `full`) is 1 and
// `full` is not: the axes a gradient of `small` sums over.
inline AxisMask reducedAxesOf(const TensorView& full, const TensorView& small)
{
    AxisMask m{};
    const std::vector<int64_t> a = alignedDims(small, full.rank);
    for(int d = 0; d < full.rank; ++d)
    {
        m[static_cast<size_t>(d)] = !a.empty() && a[static_cast<size_t>(d)] == 1 && full.dims[d] != 1;
    }
    return m;
}

} // namespace hipdnngo::cpu_reference
