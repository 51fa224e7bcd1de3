// The masking of SDPA's scores, shared by the forward (Sdpa.cpp) and the backward
// (SdpaBackward.cpp): the band from the node's causal flags and bounds, as a constant [Sq, Skv]
// mask or, with sequence lengths, row by row with one diagonal per batch.
#include "Sdpa.hpp"

#include <algorithm>
#include <limits>
#include <tuple>

namespace hipdnngo::onednn
{

SdpaBand resolveSdpaBand(const SdpaBand& a, const std::string& name)
{
    SdpaBand r{a.left, a.right, a.bottomRight, false, false};
    if(a.causal && a.causalBottomRight)
        throw Unsupported(name + ": causal_mask and causal_mask_bottom_right are both set");
    if(a.causal)
    {
        if(r.bottomRight)
            throw Unsupported(name + ": causal_mask conflicts with diagonal_alignment BOTTOM_RIGHT");
        r.right = r.right < 0 ? 0 : std::min<int64_t>(r.right, 0);
    }
    if(a.causalBottomRight)
    {
        if(!r.bottomRight && (r.left >= 0 || r.right >= 0))
            throw Unsupported(name + ": causal_mask_bottom_right with explicit bounds on a TOP_LEFT alignment");
        r.bottomRight = true;
        r.right = r.right < 0 ? 0 : std::min<int64_t>(r.right, 0);
    }
    return r;
}

const Tensor* PlanBuilder::sdpaLengths(flatbuffers::Optional<int64_t> uid, const char* role, int64_t batch, const std::string& name)
{
    const Tensor* t = uid ? &tensor(*uid, role, name) : nullptr;
    if(t && (t->dtype != fbs::DataType::INT32 || t->elements() != batch || !rowMajor(*t) || t->isConstant || t->isPassByValue))
        throw Unsupported(name + ": SDPA " + role + " must be a dense INT32 tensor of one length per batch ("
                          + std::to_string(batch) + ")");
    return t;
}

void sdpaCheckLengths(const int32_t* lq, const int32_t* lkv, int64_t batch, int64_t Sq, int64_t Skv, const std::string& name)
{
    for(int64_t b = 0; b < batch; ++b)
        for(const auto& [len, extent, role] : {std::tuple{lq, Sq, "seq_len_q"}, std::tuple{lkv, Skv, "seq_len_kv"}})
            if(len && (len[b] < 0 || len[b] > extent))
                hipdnn_plugin_sdk::fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, name + ": " + role + "[" + std::to_string(b)
                                                                            + "] = " + std::to_string(len[b]) + " is outside [0, "
                                                                            + std::to_string(extent) + "]");
}

bool sdpaMaskRow(float* row, int64_t i, int64_t sq, int64_t skv, int64_t Skv, const SdpaBand& band)
{
    if(i >= sq)
        return false;
    const SdpaKeys keys(band, sq, skv);
    const int64_t begin = keys.first(i), end = keys.last(i);
    constexpr float kHidden = -std::numeric_limits<float>::infinity();
    bool visible = false;
    for(int64_t j = begin; j < end; ++j)
        visible = visible || row[j] != kHidden;
    // [0, begin) and [end, Skv) hidden; an empty band (end <= begin) hides the whole row.
    const int64_t lo = std::min(begin, Skv), hi = std::clamp<int64_t>(end, lo, Skv);
    std::fill(row, row + lo, kHidden);
    std::fill(row + hi, row + Skv, kHidden);
    return visible;
}

// sdpaBandMask: the offset in the plan's constants of the additive [Sq, Skv] mask (0 or -inf) of
// a resolved band, nullopt when the band is open on both sides.
std::optional<size_t> PlanBuilder::sdpaBandMask(const SdpaBand& band, const SdpaShape& s, const std::string& name)
{
    const int64_t Sq = s.Sq, Skv = s.Skv;
    const SdpaKeys keys(band, Sq, Skv);
    if(band.left < 0 && band.right < 0)
        return std::nullopt;
    if(Sq * Skv > (int64_t{1} << 26))
        throw Unsupported(name + ": SDPA band mask larger than 64 Mi elements");
    // The mask values are materialised only for an execution context (not for the
    // applicability and workspace queries, which build the same plan without primitives).
    const size_t maskOffset = p_.constants_.size();
    if(build_)
        p_.constants_.resize(maskOffset + static_cast<size_t>(Sq * Skv), 0.f);
    for(int64_t i = 0; i < Sq; ++i)
    {
        const int64_t begin = keys.first(i), end = keys.last(i);
        if(begin >= end)
            throw Unsupported(name + ": SDPA mask hides every key of query row " + std::to_string(i));
        if(!build_)
            continue;
        for(int64_t j = 0; j < Skv; ++j)
            if(j < begin || j >= end)
                p_.constants_[maskOffset + static_cast<size_t>(i * Skv + j)] = -std::numeric_limits<float>::infinity();
    }
    return maskOffset;
}

} // namespace hipdnngo::onednn
