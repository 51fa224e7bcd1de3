// GraphModel: the CPU engine's reading of a hipDNN Graph flatbuffer — the tensor table with
// types mapped onto the kernels' DataType, and the "not supported" signal used by applicability.
#pragma once

#include "core/TensorView.hpp"

#include <hipdnn_flatbuffers_sdk/graph_generated.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace hipdnngo::cpu_reference
{

namespace fbs = hipdnn_flatbuffers_sdk::data_objects;

// Unsupported says the graph is well formed but this engine cannot run it (or cannot run it
// with certainty of the right numbers). GetApplicableEngineIds turns it into "not applicable";
// every other entry point into BAD_PARAM with the reason.
struct Unsupported : std::runtime_error
{
    explicit Unsupported(const std::string& reason) : std::runtime_error(reason) {}
};

// mapDataType maps a wire DataType onto the kernels' one; nullopt for types the engine lacks
// (UNSET, FP8/FP6/FP4/INT4 variants).
std::optional<DataType> mapDataType(fbs::DataType type);

// TensorInfo is one TensorAttributes entry as the engine uses it.
struct TensorInfo
{
    int index = 0; // position in TensorTable::all()
    int64_t uid = 0;
    std::string name;
    TensorView shape; // data == nullptr; scalars (constant / pass-by-value) get zero strides
    bool isVirtual = false;
    bool isConstant = false; // TensorAttributes.value present: compile-time scalar
    double constantValue = 0.0;
    bool isPassByValue = false; // host pointer in device_buffers at execute
    std::optional<int64_t> raggedOffsetUid; // ragged_offset_tensor_uid; only nodes that claim it accept it

    // label renders "uid 5 ('conv::Y')" for messages.
    std::string label() const;
};

// TensorTable indexes a graph's tensors by uid. The constructor runs the SDK reader's checks
// (hipdnn_plugin_sdk/helpers/TensorTable.hpp: null entries, duplicate uids, a ragged offset
// multiplier other than 1, dims/strides mismatch, rank above kMaxRank, dims < 1, negative strides, scalars of more than
// one element) and refuses the data types the kernels lack; each throws Unsupported. Ragged
// tensors are kept; NodeContext refuses them in every node that does not claim them.
class TensorTable
{
public:
    explicit TensorTable(const fbs::Graph& graph);

    // find returns the tensor with `uid`, or nullptr.
    const TensorInfo* find(int64_t uid) const;

    const std::vector<TensorInfo>& all() const { return tensors_; }

private:
    std::vector<TensorInfo> tensors_;
    std::unordered_map<int64_t, int> byUid_;
};

// isNonOverlapping reports whether distinct indices of `view` address distinct elements
// (checked by sorting dims by stride; size-1 dims are ignored). Outputs must satisfy it.
bool isNonOverlapping(const TensorView& view);

} // namespace hipdnngo::cpu_reference
