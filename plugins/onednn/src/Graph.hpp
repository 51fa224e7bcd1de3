// Graph: the oneDNN engine's reading of a hipDNN Graph flatbuffer (tensor table, the
// "not supported" signal). No oneDNN types here.
#pragma once

#include <hipdnn_flatbuffers_sdk/graph_generated.h>
#include <hipdnn_plugin_sdk/helpers/TensorTable.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace hipdnngo::onednn
{

namespace fbs = hipdnn_flatbuffers_sdk::data_objects;

// Unsupported: the graph is well formed but this engine declines it. Applicability turns it into
// "not applicable" (with a log line naming the feature); other entry points into BAD_PARAM.
struct Unsupported : std::runtime_error
{
    explicit Unsupported(const std::string& reason) : std::runtime_error(reason) {}
};

// Tensor and TensorTable are the SDK's reader (hipdnn_plugin_sdk/helpers/TensorTable.hpp) with
// this engine's rules: rank 1 to 12, scalars addressed with stride 1, ragged tensors kept (the
// nodes that take them claim them: PlanBuilder::claimRagged). Types are checked where a
// tensor is used (a node may carry an INT64 tensor the engine never touches); dataTypeSize() == 0
// means the engine cannot address it.
using Tensor = hipdnn_plugin_sdk::TensorRecord;

class TensorTable : public hipdnn_plugin_sdk::TensorTable<Unsupported>
{
public:
    explicit TensorTable(const fbs::Graph& graph)
        : hipdnn_plugin_sdk::TensorTable<Unsupported>(graph, {1, 12, int64_t{1}, /*allowRagged*/ true})
    {
    }

    // computeAs: tensor `index` is computed in type t (fp32 staging: the caller's buffer keeps
    // its own type, Plan::stored_ remembers it).
    void computeAs(int index, fbs::DataType t) { record(index).dtype = t; }
    // restride: tensor `index` is computed in a copy with these strides (ragged tensors).
    void restride(int index, std::vector<int64_t> strides) { record(index).strides = std::move(strides); }
};

// spanOf: elements from a tensor's first to its last addressed element, inclusive.
int64_t spanOf(const Tensor& t);

// dataTypeSize: bytes per element of the types the engine accepts (0 otherwise).
size_t dataTypeSize(fbs::DataType t);

// isDensePermutation: strides describe a dense tensor whose dims are laid out in some order
// (size-1 dims may have any stride). order receives the dims outermost first.
bool isDensePermutation(const std::vector<int64_t>& dims, const std::vector<int64_t>& strides, std::vector<int>* order = nullptr);

// denseStrides: row-major strides for dims laid out in `order` (outermost first).
std::vector<int64_t> denseStrides(const std::vector<int64_t>& dims, const std::vector<int>& order);

// channelsLastOrder / channelsFirstOrder for a rank-r [N, C, spatial...] tensor.
std::vector<int> channelsLastOrder(int rank);
std::vector<int> channelsFirstOrder(int rank);

} // namespace hipdnngo::onednn
