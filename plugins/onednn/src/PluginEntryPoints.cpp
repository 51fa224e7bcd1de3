// C entry points of libhipdnngo_onednn.so (engine plugin ABI 1.4.0): one engine,
// HIPDNNGO_ONEDNN, running graphs on oneDNN's CPU primitives.
//
// The exports come from the SDK's plugin skeleton (hipdnn_plugin_sdk/helpers/EnginePlugin.hpp);
// the engine class below holds what is oneDNN's: its hooks, and translateException, which turns
// oneDNN's dnnl::error into INTERNAL_ERROR naming the entry point. Execution is synchronous on
// the host; the stream from SetStream is recorded only. Tensors are host memory
// (hipdnnEnginePluginIsHostMemoryEngine_ext).
#include "Plan.hpp"

#include <hipdnn_plugin_sdk/helpers/ContextPayload.hpp>
#include <hipdnn_plugin_sdk/helpers/EnginePlugin.hpp>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace hipdnngo::onednn
{

using hipdnn_plugin_sdk::fail;

// OnednnContext is the execution context: the plan and copies of the buffers it was built from,
// for plan serialization.
struct OnednnContext
{
    std::unique_ptr<Plan> plan;
    std::vector<uint8_t> config, graph;
};

struct OnednnEngine : hipdnn_plugin_sdk::EngineDefaults
{
    static constexpr const char* kPluginName = "hipdnngo_onednn";
    static constexpr const char* kPluginVersion = "1.0.0";
    static constexpr const char* kEngineName = "HIPDNNGO_ONEDNN";
    static constexpr bool kHostMemory = true;

    using Context = OnednnContext;
    using Plugin = hipdnn_plugin_sdk::EnginePlugin<OnednnEngine>;

    static void translateException(const char* entry)
    {
        hipdnn_plugin_sdk::rethrowAs<Unsupported>(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "graph is not supported by HIPDNNGO_ONEDNN: ");
        try
        {
            throw;
        }
        catch(const dnnl::error& e)
        {
            fail(HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR,
                 std::string(entry) + ": oneDNN error " + std::to_string(static_cast<int>(e.status)) + ": " + e.what());
        }
        catch(...)
        {
        }
    }

    // loggingStarted: once INFO is enabled, one line naming what the engine runs natively and
    // what it stages through f32 on this machine (hipdnn-info prints it: "capabilities: ...").
    static void loggingStarted()
    {
        static std::atomic<bool> done{false};
        if(!Plugin::log().enabled(HIPDNN_SEV_INFO) || done.exchange(true))
            return;
        std::string types;
        for(auto [t, name] : {std::pair{dnnl::memory::data_type::bf16, "BFLOAT16"}, {dnnl::memory::data_type::f16, "HALF"}})
            types += std::string("; ") + name + (api::nativeKernelsFor(t) ? " native" : " staged through f32");
        Plugin::log()(HIPDNN_SEV_INFO, "capabilities: oneDNN " + api::versionString() + ", effective ISA " + api::isaName()
                                           + " (ONEDNN_MAX_CPU_ISA caps it)" + types);
    }

    static std::string applicability(Handle&, const fbs::Graph& graph)
    {
        try
        {
            const Plan plan(graph, false);
            Plugin::log()(HIPDNN_SEV_INFO, "applicable: " + plan.describe());
        }
        catch(const Unsupported& e)
        {
            return e.what();
        }
        catch(const dnnl::error& e)
        {
            return std::string("oneDNN error: ") + e.what();
        }
        return "";
    }

    static void engineDetails(Handle&, const fbs::Graph&, hipdnn_plugin_sdk::EngineDetailsBuilder&) {}

    static size_t workspaceSize(Handle&, const hipdnnPluginConstData_t* config, const hipdnnPluginConstData_t* graph)
    {
        return makePlan(config, graph, false)->workspaceSize();
    }

    // No notes. The primitives run in the tensors' own types with f32 accumulation, or (staged
    // plans) on exact f32 copies of 16-bit tensors with one rounding of the outputs: nothing is
    // down-converted, so no DOWN_CONVERT_INPUTS. A plan gives bitwise-identical results run after
    // run, also from several threads (onednn_concurrency), so no NONDETERMINISTIC. Building the
    // plan verifies config and graph.
    static std::vector<int32_t> numericalNotes(Handle&, const hipdnnPluginConstData_t* config,
                                               const hipdnnPluginConstData_t* graph)
    {
        makePlan(config, graph, false);
        return {};
    }

    static std::unique_ptr<Context> createContext(Handle&, const hipdnnPluginConstData_t* config,
                                                  const hipdnnPluginConstData_t* graph)
    {
        return newContext(hipdnn_plugin_sdk::copyBuffer(config, "EngineConfig"), hipdnn_plugin_sdk::copyBuffer(graph, "Graph"));
    }

    static size_t contextWorkspaceSize(const Context& context) { return context.plan->workspaceSize(); }

    static void execute(Handle&, Context& context, void* workspace, const hipdnnPluginDeviceBuffer_t* buffers,
                        uint32_t count)
    {
        context.plan->execute(workspace, buffers, count);
    }

    static std::vector<uint8_t> serializeContext(Handle&, const Context& context)
    {
        hipdnn_plugin_sdk::ContextPayloadWriter w(kMagic, kFormat);
        w.blob(context.config);
        w.blob(context.graph);
        return w.take();
    }

    static std::unique_ptr<Context> deserializeContext(Handle&, const hipdnnPluginConstData_t* serialized_context)
    {
        hipdnn_plugin_sdk::ContextPayloadReader r(serialized_context, kMagic, kFormat, kEngineName);
        std::vector<uint8_t> config = r.blob();
        std::vector<uint8_t> graph = r.blob();
        r.finish();
        return newContext(std::move(config), std::move(graph));
    }

private:
    static std::unique_ptr<Plan> makePlan(const hipdnnPluginConstData_t* engineConfig, const hipdnnPluginConstData_t* opGraph, bool build)
    {
        const fbs::EngineConfig* cfg = hipdnn_plugin_sdk::verifyEngineConfig(engineConfig);
        Plugin::requireEngine(cfg->engine_id());
        if(cfg->knobs())
            for(const fbs::KnobSetting* k : *cfg->knobs())
            {
                const std::string id = k && k->knob_id() ? k->knob_id()->str() : "";
                if(id.rfind("global.", 0) != 0)
                    fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "HIPDNNGO_ONEDNN has no knob '" + id + "'");
            }
        const fbs::Graph* graph = hipdnn_plugin_sdk::verifyGraph(opGraph);
        const std::string problem = hipdnn_plugin_sdk::hostFeatureProblem(*graph);
        if(!problem.empty())
            throw Unsupported(problem);
        return std::make_unique<Plan>(*graph, build);
    }

    // Serialized context (ContextPayload.hpp): "HGOD", then the EngineConfig and the Graph.
    // Deserializing rebuilds the plan from them (oneDNN primitives are not serializable in 2.x).
    static constexpr char kMagic[5] = "HGOD";
    static constexpr uint32_t kFormat = 1;

    static std::unique_ptr<OnednnContext> newContext(std::vector<uint8_t> config, std::vector<uint8_t> graph)
    {
        const hipdnnPluginConstData_t c{config.data(), config.size()}, g{graph.data(), graph.size()};
        std::unique_ptr<Plan> plan = makePlan(&c, &g, true);
        Plugin::log()(HIPDNN_SEV_INFO,
             "execution context: " + plan->describe() + "; workspace " + std::to_string(plan->workspaceSize()) + " bytes");
        return std::make_unique<OnednnContext>(OnednnContext{std::move(plan), std::move(config), std::move(graph)});
    }
};

} // namespace hipdnngo::onednn

HIPDNN_ENGINE_PLUGIN(hipdnngo::onednn::OnednnEngine)
HIPDNN_ENGINE_PLUGIN_SERIALIZATION(hipdnngo::onednn::OnednnEngine)
