// ExecutionPlan: a graph prepared for repeated execution on the host, and the execution
// context the plugin hands to the host (plan + the bytes needed to serialize it again).
#pragma once

#include "plugin/GraphModel.hpp"
#include "plugin/OpRegistry.hpp"

#include <hipdnn_plugin_sdk/PluginApiDataTypes.h>

#include <memory>
#include <vector>

namespace hipdnngo::cpu_reference
{

// kWorkspaceAlignment is the byte alignment of every virtual tensor inside the workspace.
constexpr size_t kWorkspaceAlignment = 64;

class ExecutionPlan
{
public:
    // build validates the whole graph and prepares every node in graph order (nodes are
    // topologically sorted by contract; a virtual tensor read before any node wrote it is
    // rejected). Throws Unsupported.
    explicit ExecutionPlan(const fbs::Graph& graph);

    // workspaceSize is the bytes needed for all virtual tensors, each at a 64-byte-aligned offset.
    size_t workspaceSize() const { return workspaceSize_; }

    // execute runs the nodes synchronously on the calling thread (and the pool). Pointers come
    // from `buffers` (uid -> host pointer), virtual tensors from the workspace, constants from
    // the plan. Throws PluginError(BAD_PARAM) naming the uid of a missing pointer.
    void execute(void* workspace, const hipdnnPluginDeviceBuffer_t* buffers, uint32_t count) const;

    size_t nodeCount() const { return nodes_.size(); }

private:
    TensorTable tensors_;
    std::vector<std::unique_ptr<PreparedNode>> nodes_;
    std::vector<size_t> workspaceOffset_; // per tensor index; SIZE_MAX when not virtual
    std::vector<bool> used_; // per tensor index: read or written by some node
    std::vector<double> constantStorage_; // one 8-byte slot per tensor index (constants only)
    size_t workspaceSize_ = 0;
};

// ExecutionContext is the object behind hipdnnEnginePluginExecutionContext_t.
struct ExecutionContext
{
    std::vector<uint8_t> graphBytes; // owned copies: the host's buffers die after the call
    std::vector<uint8_t> configBytes;
    std::unique_ptr<ExecutionPlan> plan;
};

// createContext verifies the config (engine id, knobs) and graph, copies both, builds the plan.
std::unique_ptr<ExecutionContext> createContext(int64_t engineId, const hipdnnPluginConstData_t* engineConfig,
                                                const hipdnnPluginConstData_t* opGraph);

// serializeContext / deserializeContext: the SDK's payload format (ContextPayload.hpp) with magic
// "HGCR": the graph, then the config.
std::vector<uint8_t> serializeContext(const ExecutionContext& ctx);
std::unique_ptr<ExecutionContext> deserializeContext(int64_t engineId, const hipdnnPluginConstData_t* payload);

} // namespace hipdnngo::cpu_reference
