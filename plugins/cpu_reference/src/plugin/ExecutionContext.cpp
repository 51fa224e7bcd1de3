#include "plugin/ExecutionContext.hpp"

#include <hipdnn_plugin_sdk/helpers/PluginHelpers.hpp>

#include <cstring>
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

constexpr char kMagic[4] = {'H', 'G', 'C', 'R'};
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

void putU64(std::vector<uint8_t>& out, uint64_t v)
{
    for(int i = 0; i < 8; ++i)
        out.push_back(static_cast<uint8_t>(v >> (8 * i)));
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
    std::vector<uint8_t> out(kMagic, kMagic + 4);
    for(int i = 0; i < 4; ++i)
        out.push_back(static_cast<uint8_t>(kFormatVersion >> (8 * i)));
    putU64(out, ctx.graphBytes.size());
    out.insert(out.end(), ctx.graphBytes.begin(), ctx.graphBytes.end());
    putU64(out, ctx.configBytes.size());
    out.insert(out.end(), ctx.configBytes.begin(), ctx.configBytes.end());
    return out;
}

std::unique_ptr<ExecutionContext> deserializeContext(int64_t engineId, const hipdnnPluginConstData_t* payload)
{
    const std::vector<uint8_t> bytes = hipdnn_plugin_sdk::copyBuffer(payload, "serialized context");
    size_t pos = 0;
    auto need = [&](uint64_t n) {
        if(n > bytes.size() - pos)
            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "serialized context is truncated");
    };
    auto getU64 = [&] {
        need(8);
        uint64_t v = 0;
        for(int i = 0; i < 8; ++i)
            v |= static_cast<uint64_t>(bytes[pos + static_cast<size_t>(i)]) << (8 * i);
        pos += 8;
        return v;
    };
    need(8);
    if(std::memcmp(bytes.data(), kMagic, 4) != 0)
        fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "serialized context was not made by HIPDNNGO_CPU_REFERENCE");
    const uint32_t version = bytes[4] | (bytes[5] << 8) | (bytes[6] << 16) | (static_cast<uint32_t>(bytes[7]) << 24);
    if(version != kFormatVersion)
        fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "serialized context format " + std::to_string(version) + " is not supported");
    pos = 8;
    const uint64_t graphSize = getU64();
    need(graphSize);
    std::vector<uint8_t> graph(bytes.begin() + static_cast<long>(pos), bytes.begin() + static_cast<long>(pos + graphSize));
    pos += graphSize;
    const uint64_t configSize = getU64();
    need(configSize);
    std::vector<uint8_t> config(bytes.begin() + static_cast<long>(pos), bytes.begin() + static_cast<long>(pos + configSize));
    return buildContext(engineId, std::move(config), std::move(graph));
}

} // namespace hipdnngo::cpu_reference
