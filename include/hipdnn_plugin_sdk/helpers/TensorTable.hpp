// hipdnn_plugin_sdk/helpers/TensorTable.hpp
//
// One reader of a verified Graph's tensor list, with the checks every engine needs before it
// can trust a tensor: no null entries, unique uids, no ragged tensors (unless the engine takes
// them: TensorRules::allowRagged), as many strides as dims,
// a rank the engine handles, dims >= 1 and strides >= 0, and scalars (a constant value or a
// runtime pass-by-value tensor) holding one element and not virtual. Data types are left to the
// engine: a node may carry a tensor the engine never addresses. Optional, header-only, C++17.
//
//   const fbs::Graph* graph = hipdnn_plugin_sdk::verifyGraph(op_graph);
//   hipdnn_plugin_sdk::TensorTable<MyUnsupported> tensors(*graph, {/*minRank*/ 1, /*maxRank*/ 8});
//   const hipdnn_plugin_sdk::TensorRecord* x = tensors.find(x_uid);
//
// A failed check throws Unsupported(message): the graph is well formed for the host but this
// engine cannot run it, which the engine reports as "not applicable" (applicability) or as
// BAD_PARAM (elsewhere). Messages start with "tensor uid N ('name')".
#ifndef HIPDNN_PLUGIN_SDK_HELPERS_TENSOR_TABLE_HPP
#define HIPDNN_PLUGIN_SDK_HELPERS_TENSOR_TABLE_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <hipdnn_flatbuffers_sdk/graph_generated.h>

#include "PluginHelpers.hpp"

namespace hipdnn_plugin_sdk
{

// TensorRecord is one TensorAttributes entry, checked and copied out of the buffer (the record
// outlives the call that lent the graph).
struct TensorRecord
{
    int index = 0; // position in the graph's tensor list
    int64_t uid = 0;
    std::string name;
    fbs::DataType dtype = fbs::DataType::UNSET;
    std::vector<int64_t> dims, strides;
    bool isVirtual = false;
    bool isConstant = false; // TensorAttributes.value present: a compile-time scalar
    double value = 0.0; // the constant, when isConstant
    bool isPassByValue = false; // a host pointer to one element arrives at execute
    // Ragged tensors (only with TensorRules::allowRagged): the uid of the per-batch offsets
    // tensor (-1: not ragged) and the factor that turns a stored offset into elements.
    int64_t raggedOffsetUid = -1;
    int64_t raggedOffsetMultiplier = 1;

    int rank() const { return static_cast<int>(dims.size()); }

    int64_t elements() const
    {
        int64_t n = 1;
        for(int64_t d : dims)
        {
            n *= d;
        }
        return n;
    }

    // label renders "uid 5 ('conv::Y')" for messages.
    std::string label() const { return "uid " + std::to_string(uid) + (name.empty() ? "" : " ('" + name + "')"); }
};

// TensorRules: what the engine accepts beyond the common checks.
struct TensorRules
{
    int minRank = 0;
    int maxRank = 8;
    // scalarStride, when set, replaces every stride of a scalar tensor (its declared strides
    // mean nothing for one element; engines want 0 to broadcast or 1 to address it densely).
    std::optional<int64_t> scalarStride;
    // allowRagged keeps ragged tensors (recorded in TensorRecord) instead of declining them;
    // the engine then checks where they appear.
    bool allowRagged = false;
};

// TensorTable indexes a graph's tensors by uid. Building it runs every check; Unsupported is
// the engine's decline exception, constructible from a std::string.
template <typename Unsupported>
class TensorTable
{
public:
    explicit TensorTable(const fbs::Graph& graph, const TensorRules& rules = TensorRules())
    {
        if(graph.tensors() == nullptr)
        {
            return;
        }
        records_.reserve(graph.tensors()->size());
        for(const fbs::TensorAttributes* t : *graph.tensors())
        {
            if(t == nullptr)
            {
                throw Unsupported("graph has a null tensor entry");
            }
            add(*t, rules);
        }
    }

    // find returns the tensor with `uid`, or nullptr.
    const TensorRecord* find(int64_t uid) const
    {
        const auto it = byUid_.find(uid);
        return it == byUid_.end() ? nullptr : &records_[static_cast<size_t>(it->second)];
    }

    const TensorRecord& at(int index) const { return records_[static_cast<size_t>(index)]; }
    size_t size() const { return records_.size(); }
    const std::vector<TensorRecord>& all() const { return records_; }

protected:
    // record: a mutable entry, for an engine's table that rewrites what it computes in (the
    // oneDNN engine's fp32 staging sets dtype to FLOAT). uid and index must stay as they are.
    TensorRecord& record(int index) { return records_[static_cast<size_t>(index)]; }

private:
    void add(const fbs::TensorAttributes& t, const TensorRules& rules)
    {
        TensorRecord r;
        r.index = static_cast<int>(records_.size());
        r.uid = t.uid();
        r.name = t.name() ? t.name()->str() : "";
        r.dtype = t.data_type();
        const std::string what = "tensor " + r.label();
        if(byUid_.count(r.uid) != 0)
        {
            throw Unsupported(what + " appears twice");
        }
        if(t.ragged_offset_tensor_uid().has_value() || t.ragged_offset_multiplier() != 1)
        {
            if(!rules.allowRagged)
            {
                throw Unsupported(what + ": ragged tensors are not supported");
            }
            r.raggedOffsetUid = t.ragged_offset_tensor_uid().has_value() ? t.ragged_offset_tensor_uid().value() : -1;
            r.raggedOffsetMultiplier = t.ragged_offset_multiplier();
        }
        const size_t rank = t.dims() ? t.dims()->size() : 0;
        const size_t strideCount = t.strides() ? t.strides()->size() : 0;
        if(rank != strideCount)
        {
            throw Unsupported(what + ": " + std::to_string(rank) + " dims but " + std::to_string(strideCount)
                              + " strides");
        }
        if(rank < static_cast<size_t>(rules.minRank) || rank > static_cast<size_t>(rules.maxRank))
        {
            throw Unsupported(what + ": rank " + std::to_string(rank) + " (supported: " + std::to_string(rules.minRank)
                              + " to " + std::to_string(rules.maxRank) + ")");
        }
        r.dims.reserve(rank);
        r.strides.reserve(rank);
        for(flatbuffers::uoffset_t d = 0; d < rank; ++d)
        {
            r.dims.push_back(t.dims()->Get(d));
            r.strides.push_back(t.strides()->Get(d));
            if(r.dims.back() < 1 || r.strides.back() < 0)
            {
                throw Unsupported(what + ": dims must be >= 1 and strides >= 0");
            }
        }
        r.isVirtual = t.virtual_();
        r.isPassByValue = t.is_runtime_pass_by_value();
        if(const std::optional<double> constant = constantValue<Unsupported>(t))
        {
            r.isConstant = true;
            r.value = *constant;
        }
        if(r.isConstant || r.isPassByValue)
        {
            if(r.elements() != 1)
            {
                throw Unsupported(what + ": a scalar (constant or pass-by-value) tensor must hold one element");
            }
            if(r.isVirtual)
            {
                throw Unsupported(what + ": a scalar tensor cannot be virtual");
            }
            if(rules.scalarStride)
            {
                r.strides.assign(r.strides.size(), *rules.scalarStride);
            }
        }
        byUid_[r.uid] = r.index;
        records_.push_back(std::move(r));
    }

    std::vector<TensorRecord> records_;
    std::unordered_map<int64_t, int> byUid_;
};

} // namespace hipdnn_plugin_sdk

#endif // HIPDNN_PLUGIN_SDK_HELPERS_TENSOR_TABLE_HPP
