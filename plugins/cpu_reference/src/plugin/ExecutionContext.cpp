#include "plugin/ExecutionContext.hpp"

#include <hipdnn_plugin_sdk/helpers/ContextPayload.hpp>
#include <hipdnn_plugin_sdk/helpers/PluginHelpers.hpp>

#include <limits>
#include <unordered_map>

namespace hipdnngo::cpu_reference
{

using hipdnn_plugin_sdk::fail;

ExecutionPlan::ExecutionPlan(const fbs::Graph& graph) : tensors_(graph)
{
    const auto& all = tensors_.all();
    used_.assign(all.size(), false);
    std::vector<bool> written(all.size(), false);
    if(graph.nodes() == nullptr || graph.nodes()->size() == 0)
    {
        throw Unsupported("graph has no nodes");
    }
    int position = 0;
    for(const fbs::Node* node : *graph.nodes())
    {
        if(node == nullptr)
        {
            throw Unsupported("node " + std::to_string(position) + " is null");
        }
        std::unique_ptr<PreparedNode> prepared = prepareNode(*node, tensors_, position);
        for(int i : prepared->inputs)
        {
            const TensorInfo& t = all[static_cast<size_t>(i)];
            if(t.isVirtual && !written[static_cast<size_t>(i)])
            {
                throw Unsupported(prepared->name() + ": virtual tensor " + t.label() + " is read before any node writes it");
            }
            used_[static_cast<size_t>(i)] = true;
        }
        for(int i : prepared->outputs)
        {
            written[static_cast<size_t>(i)] = true;
            used_[static_cast<size_t>(i)] = true;
        }
        nodes_.push_back(std::move(prepared));
        ++position;
    }

    // Lay out virtual tensors in the workspace; materialise constants.
    workspaceOffset_.assign(all.size(), std::numeric_limits<size_t>::max());
    constantStorage_.assign(all.size(), 0.0);
    for(const TensorInfo& t : all)
    {
        if(t.isVirtual && used_[static_cast<size_t>(t.index)])
        {
            workspaceSize_ = (workspaceSize_ + kWorkspaceAlignment - 1) / kWorkspaceAlignment * kWorkspaceAlignment;
            workspaceOffset_[static_cast<size_t>(t.index)] = workspaceSize_;
            workspaceSize_ += static_cast<size_t>(t.shape.spanElements()) * dataTypeSize(t.shape.dtype);
        }
        if(t.isConstant)
        {
            TensorView slot = t.shape;
            slot.data = &constantStorage_[static_cast<size_t>(t.index)];
            slot.store(0, t.constantValue); // in the tensor's own type, at offset 0
        }
    }
}

void ExecutionPlan::execute(void* workspace, const hipdnnPluginDeviceBuffer_t* buffers, uint32_t count) const
{
    const auto& all = tensors_.all();
    if(workspaceSize_ > 0 && workspace == nullptr)
    {
        fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "workspace is NULL but the plan needs " + std::to_string(workspaceSize_) + " bytes");
    }
    if(count > 0 && buffers == nullptr)
    {
        fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "device_buffers is NULL but num_device_buffers is " + std::to_string(count));
    }
    std::vector<void*> pointers(all.size(), nullptr);
    for(uint32_t i = 0; i < count; ++i)
    {
        const TensorInfo* t = tensors_.find(buffers[i].uid);
        if(t == nullptr || t->isVirtual || t->isConstant)
        {
            continue; // not ours to read: unknown uids, workspace tensors, baked constants
        }
        void*& slot = pointers[static_cast<size_t>(t->index)];
        if(slot != nullptr && buffers[i].ptr != nullptr && slot != buffers[i].ptr)
        {
            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "device_buffers names tensor " + t->label() + " twice");
        }
        if(buffers[i].ptr != nullptr)
        {
            slot = buffers[i].ptr; // host memory (the backend checked); pass-by-value: host scalar
        }
    }
    for(const TensorInfo& t : all)
    {
        const size_t i = static_cast<size_t>(t.index);
        if(t.isConstant)
        {
            pointers[i] = const_cast<double*>(&constantStorage_[i]);
        }
        else if(t.isVirtual && used_[i])
        {
            pointers[i] = static_cast<char*>(workspace) + workspaceOffset_[i];
        }
        else if(used_[i] && pointers[i] == nullptr)
        {
            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, std::string(t.isPassByValue ? "runtime pass-by-value scalar " : "tensor ")
                                                     + t.label() + " has no pointer in device_buffers");
        }
    }
    const TensorBindings bindings(all, pointers);
    for(const auto& node : nodes_)
    {
        node->run(bindings);
    }
}

namespace
{

constexpr char kMagic[5] = "HGCR";
constexpr uint32_t kFormatVersion = 1;

void checkEngineConfig(int64_t engineId, const fbs::EngineConfig& config)
{
    if(config.engine_id() != engineId)
    {
        fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "engine config names engine " + std::to_string(config.engine_id())
                                                 + ", not HIPDNNGO_CPU_REFERENCE (" + std::to_string(engineId) + ")");
    }
    if(config.knobs() == nullptr)
    {
        return;
    }
    for(const fbs::KnobSetting* knob : *config.knobs())
    {
        const std::string id = knob && knob->knob_id() ? knob->knob_id()->str() : "";
        // Global knobs (benchmarking, determinism, workspace limit) need no action: the engine
        // is deterministic and its workspace is fixed by the graph.
        if(id.rfind("global.", 0) != 0)
        {
            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "knob '" + id + "' is not a knob of HIPDNNGO_CPU_REFERENCE");
        }
    }
}

std::unique_ptr<ExecutionContext> buildContext(int64_t engineId, std::vector<uint8_t> configBytes,
                                               std::vector<uint8_t> graphBytes)
{
    const hipdnnPluginConstData_t config{configBytes.data(), configBytes.size()};
    const hipdnnPluginConstData_t graph{graphBytes.data(), graphBytes.size()};
    checkEngineConfig(engineId, *hipdnn_plugin_sdk::verifyEngineConfig(&config));
    const fbs::Graph* g = hipdnn_plugin_sdk::verifyGraph(&graph);
    auto ctx = std::make_unique<ExecutionContext>();
    try
    {
        ctx->plan = std::make_unique<ExecutionPlan>(*g);
    }
    catch(const Unsupported& e)
    {
        fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, std::string("graph is not supported by HIPDNNGO_CPU_REFERENCE: ") + e.what());
    }
    ctx->graphBytes = std::move(graphBytes);
    ctx->configBytes = std::move(configBytes);
    return ctx;
}

} // namespace

std::unique_ptr<ExecutionContext> createContext(int64_t engineId, const hipdnnPluginConstData_t* engineConfig,
                                                const hipdnnPluginConstData_t* opGraph)
{
    return buildContext(engineId, hipdnn_plugin_sdk::copyBuffer(engineConfig, "EngineConfig"),
                        hipdnn_plugin_sdk::copyBuffer(opGraph, "Graph"));
}

std::vector<uint8_t> serializeContext(const ExecutionContext& ctx)
{
    hipdnn_plugin_sdk::ContextPayloadWriter w(kMagic, kFormatVersion);
    w.blob(ctx.graphBytes);
    w.blob(ctx.configBytes);
    return w.take();
}

std::unique_ptr<ExecutionContext> deserializeContext(int64_t engineId, const hipdnnPluginConstData_t* payload)
{
    hipdnn_plugin_sdk::ContextPayloadReader r(payload, kMagic, kFormatVersion, "HIPDNNGO_CPU_REFERENCE");
    std::vector<uint8_t> graph = r.blob();
    std::vector<uint8_t> config = r.blob();
    r.finish();
    return buildContext(engineId, std::move(config), std::move(graph));
}

} // namespace hipdnngo::cpu_reference
