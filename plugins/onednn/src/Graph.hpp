// Graph: the oneDNN engine's reading of a hipDNN Graph flatbuffer (tensor table, the
// "not supported" signal). No oneDNN types here.
#pragma once

#include <hipdnn_flatbuffers_sdk/graph_generated.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_map>
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

struct Tensor
{
    int index = 0;
    int64_t uid = 0;
    std::string name;
    fbs::DataType dtype = fbs::DataType::UNSET;
    std::vector<int64_t> dims, strides;
    bool isVirtual = false;
    bool isConstant = false; // compile-time scalar (TensorAttributes.value)
    double value = 0.0;
    bool isPassByValue = false; // host pointer to one element at execute

    int rank() const { return static_cast<int>(dims.size()); }
    int64_t elements() const;
    std::string label() const; // "uid 5 ('conv::Y')"
};

class TensorTable
{
public:
    explicit TensorTable(const fbs::Graph& graph);
    const Tensor* find(int64_t uid) const;
    const Tensor& at(int index) const { return tensors_[static_cast<size_t>(index)]; }
    size_t size() const { return tensors_.size(); }

private:
    std::vector<Tensor> tensors_;
    std::unordered_map<int64_t, int> byUid_;
};

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
