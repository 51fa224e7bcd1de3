// What the SDPA kernels share (Sdpa.cpp: forward, SdpaBackward.cpp: backward): the problem's
// geometry and shape checks, per-batch lengths and key bands, and the rows and scores in Acc.
#pragma once

#include "kernels/Sdpa.hpp"
#include "kernels/SdpaLayout.hpp"

#include <hipdnn_plugin_sdk/helpers/Attention.hpp>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace hipdnngo::cpu_reference::sdpa_detail
{

// Geometry is the problem size read from q, k, v (skv given: paged K / V do not hold it).
struct Geometry
{
    int64_t b, hq, sq, d, hk, skv, hv, dv;
    Geometry(const TensorView& q, const TensorView& k, const TensorView& v, int64_t kvLen)
        : b(q.dims[0]), hq(q.dims[1]), sq(q.dims[2]), d(q.dims[3]), hk(k.dims[1]), skv(kvLen), hv(v.dims[1]), dv(v.dims[3])
    {
    }
};

// PagedKv is what a forward's page tables say: pages per batch of k and v (0: not paged).
struct PagedKv
{
    int64_t pagesK = 0, pagesV = 0;
};

// dimsOk: "" when t has exactly the dims `want`, else a message naming role and both shapes.
std::string dimsOk(const TensorView& t, const char* role, std::initializer_list<int64_t> want);
// allRank4: whether every view is rank 4 (else *err names the first that is not).
bool allRank4(std::initializer_list<std::pair<const TensorView*, const char*>> views, std::string* err);
// checkCommon: the checks forward and backward share (heads, k / v / o shapes, bias, lengths, stats).
std::string checkCommon(const TensorView& k, const TensorView& v, const TensorView& o, const Geometry& g,
                        const PagedKv& paged, const TensorView* bias, const TensorView* seqLenQ, const TensorView* seqLenKv,
                        const TensorView* stats);
// checkRagged checks each tensor's offsets; q-side tensors need seq_len_q, k-side seq_len_kv.
std::string checkRagged(std::initializer_list<std::pair<const TensorView*, const char*>> qSide,
                        std::initializer_list<std::pair<const TensorView*, const char*>> kvSide, int64_t batch, bool haveQ,
                        bool haveKv);
// statsRank4 sees a [B, H, S] stats tensor as [B, H, S, 1].
TensorView statsRank4(const TensorView& stats);
// lengths reads per-batch valid lengths (or `full` for every batch when t is null).
std::vector<int64_t> lengths(const TensorView* t, int64_t batch, int64_t full, const char* role);
void throwIf(const std::string& err);

// visibleRange returns [begin, end) of the keys row i sees (band ∩ [0, skvB)).
inline void visibleRange(const SdpaMask& m, int64_t i, int64_t sqB, int64_t skvB, int64_t& begin, int64_t& end)
{
    const int64_t off = m.bottomRight ? skvB - sqB : 0;
    begin = m.leftBound >= 0 ? std::max<int64_t>(0, i + off - m.leftBound) : 0;
    end = m.rightBound >= 0 ? std::min<int64_t>(skvB, i + off + m.rightBound + 1) : skvB;
}

// Dense is a tensor widened to Acc in packed [B, H, S, W] order (rows it does not hold are 0).
template <typename Acc>
struct Dense
{
    std::vector<Acc> data;
    int64_t h, s, d;
    Dense(const SdpaRows& rows, int64_t batch, int64_t heads, int64_t seq, int64_t width, const std::vector<int64_t>& valid)
        : data(static_cast<size_t>(batch * heads * seq * width)), h(heads), s(seq), d(width)
    {
        gatherRows(rows, batch, heads, seq, width, valid, data.data());
    }
    const Acc* row(int64_t b, int64_t head, int64_t i) const { return data.data() + ((b * h + head) * s + i) * d; }
};

// Scores computes the scaled, biased scores of one row over its visible range.
template <typename Acc>
struct Scorer
{
    const Dense<Acc>& q;
    const Dense<Acc>& k;
    const TensorView* bias; // broadcast to [B, Hq, Sq, Skv] or null
    Acc scale;
    int64_t groupK;
    std::vector<Acc> alibi; // a slope per query head, or empty

    Acc score(int64_t b, int64_t h, int64_t i, int64_t j) const
    {
        const Acc* qr = q.row(b, h, i);
        const Acc* kr = k.row(b, h / groupK, j);
        Acc dot = Acc(0);
        for(int64_t x = 0; x < q.d; ++x)
            dot += qr[x] * kr[x];
        Acc s = dot * scale;
        if(bias != nullptr)
            s += bias->load<Acc>(b * bias->strides[0] + h * bias->strides[1] + i * bias->strides[2] + j * bias->strides[3]);
        if(!alibi.empty())
            s += alibi[static_cast<size_t>(h)] * static_cast<Acc>(j - i);
        return s;
    }
};

template <typename Acc>
std::vector<Acc> alibiOf(const SdpaParams& p, int64_t heads)
{
    std::vector<Acc> slopes;
    if(p.alibi)
        for(float x : hipdnn_plugin_sdk::alibiSlopes(heads))
            slopes.push_back(static_cast<Acc>(x));
    return slopes;
}

template <typename Acc>
Acc resolveScale(const SdpaParams& p, int64_t headDim)
{
    return p.hasScale ? static_cast<Acc>(p.scale) : Acc(1) / std::sqrt(static_cast<Acc>(headDim));
}

} // namespace hipdnngo::cpu_reference::sdpa_detail
