// OpRegistry: which graph node types the CPU reference engine runs, and how each one is turned
// from a flatbuffer Node into a prepared, flatbuffer-free call of a kernel.
//
// Adding an op = one kernel file under src/kernels/ + one prepare function under
// src/plugin/ops/ + one line in kOps (OpRegistry.cpp). A prepare function:
//   1. reads the node's attribute table (ctx.node.attributes_as_XxxAttributes()),
//   2. binds its tensors with ctx.input(uid, "role") / ctx.output(uid, "role") (these throw
//      Unsupported for a uid that is not in the graph, an output that is a scalar or overlaps
//      itself, …) and checks types with ctx.requireFloating(...),
//   3. validates the shapes with the kernel's check* function and throws Unsupported(reason)
//      for anything the kernel cannot do exactly,
//   4. returns ctx.makeNode([=](const TensorBindings& t) { kernel(t.view(i), …, params); }).
// Everything that can be decided without data happens in prepare, at applicability time; the
// returned node only runs the kernel.
#pragma once

#include "core/StridedLoop.hpp"
#include "plugin/GraphModel.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace hipdnngo::cpu_reference
{

// TensorBindings gives a node its tensors at execute time: the prepared shape with the data
// pointer of this call.
class TensorBindings
{
public:
    TensorBindings(const std::vector<TensorInfo>& tensors, const std::vector<void*>& pointers)
        : tensors_(tensors), pointers_(pointers)
    {
    }

    TensorView view(int index) const
    {
        TensorView v = tensors_[static_cast<size_t>(index)].shape;
        v.data = pointers_[static_cast<size_t>(index)];
        return v;
    }

private:
    const std::vector<TensorInfo>& tensors_;
    const std::vector<void*>& pointers_;
};

// PreparedNode is one validated node, ready to run.
class PreparedNode
{
public:
    PreparedNode(std::string name, std::function<void(const TensorBindings&)> run) : name_(std::move(name)), run_(std::move(run))
    {
    }

    const std::string& name() const { return name_; }
    void run(const TensorBindings& t) const { run_(t); }

    std::vector<int> inputs; // tensor indices read
    std::vector<int> outputs; // tensor indices written

private:
    std::string name_;
    std::function<void(const TensorBindings&)> run_;
};

// NodeContext is what a prepare function works with.
class NodeContext
{
public:
    NodeContext(const fbs::Node& node, const TensorTable& tensors, int position);

    const fbs::Node& node;
    const TensorTable& tensors;
    const std::string name; // "node 2 ('ConvolutionFprop_0', ConvolutionFwd)"-style, for messages

    // input / output bind a tensor by uid and return its index (see TensorBindings::view).
    int input(int64_t uid, const char* role);
    int output(int64_t uid, const char* role);

    // raggedOffsets claims a bound tensor's ragged layout: it returns the index of its offsets
    // tensor (bound as an input), or -1 when the tensor is dense. makeNode refuses every bound
    // tensor that is ragged but was not claimed, so ops that know nothing of ragged layouts
    // decline them.
    int raggedOffsets(int index, const char* role);

    // shape returns the shape-only view of a bound tensor.
    const TensorView& shape(int index) const;

    // requireFloating throws Unsupported unless every listed tensor is float/half/bf16/double.
    void requireFloating(std::initializer_list<int> indices) const;

    // require throws Unsupported(name + ": " + reason) when ok is false.
    void require(bool ok, const std::string& reason) const;

    // check throws Unsupported when a kernel check* function returned a non-empty reason.
    void check(const std::string& kernelReason) const;

    // accumulator is Double when the node's compute_data_type is DOUBLE, Auto otherwise.
    Accumulator accumulator() const;

    // makeNode wraps the kernel call; the bound tensors travel with it.
    std::unique_ptr<PreparedNode> makeNode(std::function<void(const TensorBindings&)> run);

private:
    std::vector<int> inputs_, outputs_, claimedRagged_;
};

using PrepareFn = std::unique_ptr<PreparedNode> (*)(NodeContext& ctx);

// OpEntry is one row of the registration table.
struct OpEntry
{
    fbs::NodeAttributes type;
    const char* name;
    PrepareFn prepare;
};

// findOp returns the entry for a node type, or nullptr when the engine does not run it.
const OpEntry* findOp(fbs::NodeAttributes type);

// prepareNode validates one node and prepares it; throws Unsupported.
std::unique_ptr<PreparedNode> prepareNode(const fbs::Node& node, const TensorTable& tensors, int position);

// Prepare functions (src/plugin/ops/).
std::unique_ptr<PreparedNode> prepareConvolutionFwd(NodeContext& ctx);
std::unique_ptr<PreparedNode> prepareConvolutionBwdData(NodeContext& ctx);
std::unique_ptr<PreparedNode> prepareConvolutionBwdFilter(NodeContext& ctx);
std::unique_ptr<PreparedNode> prepareMatmul(NodeContext& ctx);
std::unique_ptr<PreparedNode> preparePointwise(NodeContext& ctx);
std::unique_ptr<PreparedNode> prepareReduction(NodeContext& ctx);
std::unique_ptr<PreparedNode> prepareResampleFwd(NodeContext& ctx);
std::unique_ptr<PreparedNode> prepareResampleBwd(NodeContext& ctx);
std::unique_ptr<PreparedNode> prepareBatchnormInference(NodeContext& ctx);
std::unique_ptr<PreparedNode> prepareBatchnormInferenceVariance(NodeContext& ctx);
std::unique_ptr<PreparedNode> prepareBatchnormTraining(NodeContext& ctx);
std::unique_ptr<PreparedNode> prepareBatchnormBackward(NodeContext& ctx);
std::unique_ptr<PreparedNode> prepareLayernorm(NodeContext& ctx);
std::unique_ptr<PreparedNode> prepareLayernormBackward(NodeContext& ctx);
std::unique_ptr<PreparedNode> prepareRmsnorm(NodeContext& ctx);
std::unique_ptr<PreparedNode> prepareRmsnormBackward(NodeContext& ctx);
std::unique_ptr<PreparedNode> prepareSdpaForward(NodeContext& ctx);
std::unique_ptr<PreparedNode> prepareSdpaBackward(NodeContext& ctx);

} // namespace hipdnngo::cpu_reference
