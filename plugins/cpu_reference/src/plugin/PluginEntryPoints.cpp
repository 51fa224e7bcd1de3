// The C entry points of libhipdnngo_cpu_reference.so (engine plugin ABI, API version 1.4.0),
// emitted by the SDK's plugin skeleton (hipdnn_plugin_sdk/helpers/EnginePlugin.hpp) from the
// engine class below: the skeleton checks pointers, resolves handles and maps exceptions; the
// hooks here say what this engine does.
//
// Execution is synchronous on the host: ExecuteOpGraph returns when the results are written.
// The HIP stream given to SetStream is recorded and otherwise ignored — there is no device work
// to order. All tensor pointers must be host memory; the backend checks that before executing
// (it asks hipdnnEnginePluginIsHostMemoryEngine_ext).
#include "core/TensorView.hpp"
#include "plugin/ExecutionContext.hpp"

#include <hipdnn_plugin_sdk/helpers/EnginePlugin.hpp>

#include <string>

namespace hipdnngo::cpu_reference
{

using hipdnn_plugin_sdk::fail;

struct CpuReferenceEngine : hipdnn_plugin_sdk::EngineDefaults
{
    static constexpr const char* kPluginName = "hipdnngo_cpu_reference";
    static constexpr const char* kPluginVersion = "1.0.0";
    static constexpr const char* kEngineName = "HIPDNNGO_CPU_REFERENCE";
    static constexpr bool kHostMemory = true;

    using Context = ExecutionContext;
    using Plugin = hipdnn_plugin_sdk::EnginePlugin<CpuReferenceEngine>;

    // Kernel shape errors and declines outside applicability are the caller's graph: BAD_PARAM.
    static void translateException(const char* /*entry*/)
    {
        hipdnn_plugin_sdk::rethrowAs<KernelError>(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "");
        hipdnn_plugin_sdk::rethrowAs<Unsupported>(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                                                  "graph is not supported by HIPDNNGO_CPU_REFERENCE: ");
    }

    static std::string applicability(Handle&, const fbs::Graph& graph)
    {
        try
        {
            ExecutionPlan plan(graph);
        }
        catch(const Unsupported& e)
        {
            return e.what();
        }
        return "";
    }

    // No knobs, no behaviour notes: the engine has one way of running a graph.
    static void engineDetails(Handle&, const fbs::Graph&, hipdnn_plugin_sdk::EngineDetailsBuilder&) {}

    static size_t workspaceSize(Handle&, const hipdnnPluginConstData_t* config, const hipdnnPluginConstData_t* graph)
    {
        return hipdnngo::cpu_reference::createContext(Plugin::kEngineId, config, graph)->plan->workspaceSize();
    }

    // No notes. Every output element is computed by one thread in a fixed order, so results are
    // bitwise reproducible (no NONDETERMINISTIC), in the tensors' own type with no tensor cores
    // or transforms. Building the context verifies the config and the graph.
    static std::vector<int32_t> numericalNotes(Handle&, const hipdnnPluginConstData_t* config,
                                               const hipdnnPluginConstData_t* graph)
    {
        hipdnngo::cpu_reference::createContext(Plugin::kEngineId, config, graph);
        return {};
    }

    static std::unique_ptr<Context> createContext(Handle&, const hipdnnPluginConstData_t* config,
                                                  const hipdnnPluginConstData_t* graph)
    {
        auto context = hipdnngo::cpu_reference::createContext(Plugin::kEngineId, config, graph);
        Plugin::log()(HIPDNN_SEV_INFO, "execution context with " + std::to_string(context->plan->nodeCount())
                                           + " nodes, workspace " + std::to_string(context->plan->workspaceSize())
                                           + " bytes");
        return context;
    }

    static size_t contextWorkspaceSize(const Context& context) { return context.plan->workspaceSize(); }

    static void execute(Handle&, Context& context, void* workspace, const hipdnnPluginDeviceBuffer_t* buffers,
                        uint32_t count)
    {
        context.plan->execute(workspace, buffers, count);
    }

    static std::vector<uint8_t> serializeContext(Handle&, const Context& context)
    {
        return hipdnngo::cpu_reference::serializeContext(context);
    }

    static std::unique_ptr<Context> deserializeContext(Handle&, const hipdnnPluginConstData_t* serialized)
    {
        return hipdnngo::cpu_reference::deserializeContext(Plugin::kEngineId, serialized);
    }
};

} // namespace hipdnngo::cpu_reference

HIPDNN_ENGINE_PLUGIN(hipdnngo::cpu_reference::CpuReferenceEngine)
HIPDNN_ENGINE_PLUGIN_SERIALIZATION(hipdnngo::cpu_reference::CpuReferenceEngine)
