// C entry points of libhipdnngo_onednn.so (engine plugin ABI 1.4.0): one engine,
// HIPDNNGO_ONEDNN, running graphs on oneDNN's CPU primitives.
//
// Each entry point checks its pointers and runs its body inside entry(), which turns every
// exception (oneDNN's dnnl::error included) into a status and the thread's last error, so
// nothing is thrown across the C boundary. Execution is synchronous on the host; the stream from
// SetStream is recorded only. Tensors are host memory (hipdnnEnginePluginIsHostMemoryEngine_ext).
#include "Plan.hpp"

#include <hipdnn_plugin_sdk/EnginePluginApi.h>
#include <hipdnn_plugin_sdk/EnginePluginExtensions.h>
#include <hipdnn_plugin_sdk/PluginApi.h>
#include <hipdnn_plugin_sdk/helpers/EngineId.h>
#include <hipdnn_plugin_sdk/helpers/LastError.h>
#include <hipdnn_plugin_sdk/helpers/PluginHelpers.hpp>

#include <atomic>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace hipdnngo::onednn;
using hipdnn_plugin_sdk::fail;
using hipdnn_plugin_sdk::requireNotNull;

struct HipdnnEnginePluginHandle
{
    hipStream_t stream = nullptr;
};
struct HipdnnEnginePluginExecutionContext
{
    std::unique_ptr<Plan> plan;
    std::vector<uint8_t> config, graph; // copies, for plan serialization
};

namespace
{

constexpr const char* kPluginName = "hipdnngo_onednn";
constexpr const char* kPluginVersion = "1.0.0";
constexpr const char* kEngineName = "HIPDNNGO_ONEDNN";
constexpr int64_t kEngineId = hipdnn_plugin_sdk::engineNameToId("HIPDNNGO_ONEDNN");
static_assert(kEngineId != 0, "engine id must not be 0");

hipdnn_plugin_sdk::PluginLog gLog{"hipdnngo_onednn"};

template <typename Body>
hipdnnPluginStatus_t entry(const char* what, Body&& body) noexcept
{
    return hipdnn_plugin_sdk::guard([&]() {
        try
        {
            body();
        }
        catch(const Unsupported& e)
        {
            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, std::string("graph is not supported by HIPDNNGO_ONEDNN: ") + e.what());
        }
        catch(const dnnl::error& e)
        {
            fail(HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR,
                 std::string(what) + ": oneDNN error " + std::to_string(static_cast<int>(e.status)) + ": " + e.what());
        }
    });
}

void requireEngine(int64_t id)
{
    if(id != kEngineId)
        fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
             "engine id " + std::to_string(id) + " is not HIPDNNGO_ONEDNN (" + std::to_string(kEngineId) + ")");
}

std::unique_ptr<Plan> makePlan(const hipdnnPluginConstData_t* engineConfig, const hipdnnPluginConstData_t* opGraph, bool build)
{
    const fbs::EngineConfig* cfg = hipdnn_plugin_sdk::verifyEngineConfig(engineConfig);
    requireEngine(cfg->engine_id());
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

// Serialized context: "HGOD", format version (u32 LE), then the EngineConfig and the Graph,
// each as u64 LE size + bytes. Deserializing rebuilds the plan from them (oneDNN primitives are
// not serializable in 2.x).
constexpr char kMagic[4] = {'H', 'G', 'O', 'D'};
constexpr uint32_t kFormat = 1;

void putLe(std::vector<uint8_t>& out, uint64_t v, int bytes)
{
    for(int i = 0; i < bytes; ++i)
        out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

HipdnnEnginePluginExecutionContext* newContext(std::vector<uint8_t> config, std::vector<uint8_t> graph)
{
    const hipdnnPluginConstData_t c{config.data(), config.size()}, g{graph.data(), graph.size()};
    std::unique_ptr<Plan> plan = makePlan(&c, &g, true);
    gLog(HIPDNN_SEV_INFO,
         "execution context: " + plan->describe() + "; workspace " + std::to_string(plan->workspaceSize()) + " bytes");
    return new HipdnnEnginePluginExecutionContext{std::move(plan), std::move(config), std::move(graph)};
}

Plan& planOf(hipdnnEnginePluginExecutionContext_t ctx)
{
    requireNotNull(ctx, "execution_context");
    if(!ctx->plan)
        fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "execution_context is not initialised");
    return *ctx->plan;
}

} // namespace

extern "C" {

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetName(const char** name)
{
    return entry("GetName", [&] {
        requireNotNull(name, "name");
        *name = kPluginName;
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetVersion(const char** version)
{
    return entry("GetVersion", [&] {
        requireNotNull(version, "version");
        *version = kPluginVersion;
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetApiVersion(const char** version)
{
    return entry("GetApiVersion", [&] {
        requireNotNull(version, "version");
        *version = HIPDNN_ENGINE_API_VERSION;
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetType(hipdnnPluginType_t* type)
{
    return entry("GetType", [&] {
        requireNotNull(type, "type");
        *type = HIPDNN_PLUGIN_TYPE_ENGINE;
    });
}

HIPDNN_PLUGIN_EXPORT void hipdnnPluginGetLastErrorString(const char** error_str)
{
    if(error_str != nullptr)
        *error_str = hipdnnPluginGetLastError();
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginSetLoggingCallback(hipdnnCallback_t callback)
{
    gLog.setCallback(callback);
    gLog(HIPDNN_SEV_INFO, "oneDNN " + api::versionString());
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginSetLogLevel(hipdnnSeverity_t level)
{
    return entry("SetLogLevel", [&] {
        if(static_cast<int>(level) < HIPDNN_SEV_INFO || static_cast<int>(level) > HIPDNN_SEV_OFF)
            fail(HIPDNN_PLUGIN_STATUS_INVALID_VALUE, "unknown log level " + std::to_string(static_cast<int>(level)));
        gLog.setLevel(level);
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetAllEngineIds(int64_t* engine_ids, uint32_t max_engines,
                                                                            uint32_t* num_engines)
{
    return entry("GetAllEngineIds", [&] {
        requireNotNull(num_engines, "num_engines");
        if(max_engines > 0)
        {
            requireNotNull(engine_ids, "engine_ids");
            engine_ids[0] = kEngineId;
        }
        *num_engines = 1;
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetEngineName(int64_t engine_id, const char** name)
{
    return entry("GetEngineName", [&] {
        requireNotNull(name, "name");
        if(engine_id != kEngineId)
            fail(HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE, "no engine " + std::to_string(engine_id) + " in hipdnngo_onednn");
        *name = kEngineName;
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginIsHostMemoryEngine_ext(int64_t engine_id, int32_t* is_host)
{
    return entry("IsHostMemoryEngine", [&] {
        requireNotNull(is_host, "is_host");
        requireEngine(engine_id);
        *is_host = 1;
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginCreate(hipdnnEnginePluginHandle_t* handle)
{
    return entry("Create", [&] {
        requireNotNull(handle, "handle");
        *handle = new HipdnnEnginePluginHandle();
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroy(hipdnnEnginePluginHandle_t handle)
{
    return entry("Destroy", [&] {
        requireNotNull(handle, "handle");
        delete handle;
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginSetStream(hipdnnEnginePluginHandle_t handle, hipStream_t stream)
{
    return entry("SetStream", [&] {
        requireNotNull(handle, "handle");
        handle->stream = stream;
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetApplicableEngineIds(hipdnnEnginePluginHandle_t handle,
                                                                                   const hipdnnPluginConstData_t* op_graph,
                                                                                   int64_t* engine_ids, uint32_t max_engines,
                                                                                   uint32_t* num_engines)
{
    return entry("GetApplicableEngineIds", [&] {
        requireNotNull(handle, "handle");
        requireNotNull(num_engines, "num_engines");
        const fbs::Graph* graph = hipdnn_plugin_sdk::verifyGraph(op_graph);
        std::string reason = hipdnn_plugin_sdk::hostFeatureProblem(*graph);
        if(reason.empty())
        {
            try
            {
                const Plan plan(*graph, false);
                gLog(HIPDNN_SEV_INFO, "applicable: " + plan.describe());
            }
            catch(const Unsupported& e)
            {
                reason = e.what();
            }
            catch(const dnnl::error& e)
            {
                reason = std::string("oneDNN error: ") + e.what();
            }
        }
        if(!reason.empty())
        {
            gLog(HIPDNN_SEV_INFO, "not applicable: " + reason);
            *num_engines = 0;
            return;
        }
        if(max_engines > 0)
        {
            requireNotNull(engine_ids, "engine_ids");
            engine_ids[0] = kEngineId;
        }
        *num_engines = 1;
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetEngineDetails(hipdnnEnginePluginHandle_t handle, int64_t engine_id,
                                                                             const hipdnnPluginConstData_t* op_graph,
                                                                             hipdnnPluginConstData_t* engine_details)
{
    return entry("GetEngineDetails", [&] {
        requireNotNull(handle, "handle");
        requireNotNull(engine_details, "engine_details");
        requireEngine(engine_id);
        hipdnn_plugin_sdk::verifyGraph(op_graph);
        hipdnn_plugin_sdk::EngineDetailsBuilder(kEngineId).publish(engine_details);
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroyEngineDetails(hipdnnEnginePluginHandle_t handle,
                                                                                 hipdnnPluginConstData_t* engine_details)
{
    return entry("DestroyEngineDetails", [&] {
        requireNotNull(handle, "handle");
        hipdnn_plugin_sdk::releaseBuffer(engine_details);
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetWorkspaceSize(hipdnnEnginePluginHandle_t handle,
                                                                             const hipdnnPluginConstData_t* engine_config,
                                                                             const hipdnnPluginConstData_t* op_graph,
                                                                             size_t* workspace_size)
{
    return entry("GetWorkspaceSize", [&] {
        requireNotNull(handle, "handle");
        requireNotNull(workspace_size, "workspace_size");
        *workspace_size = makePlan(engine_config, op_graph, false)->workspaceSize();
    });
}

// hipdnnEnginePluginGetNumericalNotesV1_ext (our extension): no notes. The primitives run in the
// tensors' own types with f32 accumulation, and a plan gives bitwise-identical results run after
// run, also from several threads (onednn_concurrency), so no NONDETERMINISTIC.
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetNumericalNotesV1_ext(hipdnnEnginePluginHandle_t handle,
                                                                                    const hipdnnPluginConstData_t* engine_config,
                                                                                    const hipdnnPluginConstData_t* op_graph,
                                                                                    int32_t* notes, uint32_t max_notes,
                                                                                    uint32_t* num_notes)
{
    (void)notes;
    (void)max_notes;
    return entry("GetNumericalNotesV1_ext", [&] {
        requireNotNull(handle, "handle");
        requireNotNull(num_notes, "num_notes");
        makePlan(engine_config, op_graph, false); // verifies the config and the graph
        *num_notes = 0;
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginCreateExecutionContext(
    hipdnnEnginePluginHandle_t handle, const hipdnnPluginConstData_t* engine_config, const hipdnnPluginConstData_t* op_graph,
    hipdnnEnginePluginExecutionContext_t* execution_context)
{
    return entry("CreateExecutionContext", [&] {
        requireNotNull(handle, "handle");
        requireNotNull(execution_context, "execution_context");
        *execution_context = newContext(hipdnn_plugin_sdk::copyBuffer(engine_config, "EngineConfig"),
                                        hipdnn_plugin_sdk::copyBuffer(op_graph, "Graph"));
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroyExecutionContext(
    hipdnnEnginePluginHandle_t handle, hipdnnEnginePluginExecutionContext_t execution_context)
{
    return entry("DestroyExecutionContext", [&] {
        requireNotNull(handle, "handle");
        requireNotNull(execution_context, "execution_context");
        delete execution_context;
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginSerializeExecutionContext(
    hipdnnEnginePluginHandle_t handle, hipdnnEnginePluginExecutionContext_t execution_context,
    hipdnnPluginConstData_t* serialized_context)
{
    return entry("SerializeExecutionContext", [&] {
        requireNotNull(handle, "handle");
        requireNotNull(serialized_context, "serialized_context");
        planOf(execution_context);
        std::vector<uint8_t> out(kMagic, kMagic + 4);
        putLe(out, kFormat, 4);
        putLe(out, execution_context->config.size(), 8);
        out.insert(out.end(), execution_context->config.begin(), execution_context->config.end());
        putLe(out, execution_context->graph.size(), 8);
        out.insert(out.end(), execution_context->graph.begin(), execution_context->graph.end());
        hipdnn_plugin_sdk::publishBytes(out.data(), out.size(), serialized_context);
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroySerializedExecutionContext(
    hipdnnEnginePluginHandle_t handle, hipdnnPluginConstData_t* serialized_context)
{
    return entry("DestroySerializedExecutionContext", [&] {
        requireNotNull(handle, "handle");
        hipdnn_plugin_sdk::releaseBuffer(serialized_context);
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginCreateExecutionContextFromSerialized(
    hipdnnEnginePluginHandle_t handle, const hipdnnPluginConstData_t* serialized_context,
    hipdnnEnginePluginExecutionContext_t* execution_context)
{
    return entry("CreateExecutionContextFromSerialized", [&] {
        requireNotNull(handle, "handle");
        requireNotNull(execution_context, "execution_context");
        const std::vector<uint8_t> in = hipdnn_plugin_sdk::copyBuffer(serialized_context, "serialized context");
        size_t pos = 0;
        auto get = [&](int bytes) {
            if(in.size() - pos < static_cast<size_t>(bytes))
                fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "serialized context is truncated");
            uint64_t v = 0;
            for(int i = 0; i < bytes; ++i)
                v |= static_cast<uint64_t>(in[pos + static_cast<size_t>(i)]) << (8 * i);
            pos += static_cast<size_t>(bytes);
            return v;
        };
        if(in.size() < 8 || std::memcmp(in.data(), kMagic, 4) != 0)
            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "serialized context is not a HIPDNNGO_ONEDNN context");
        pos = 4;
        const uint64_t format = get(4);
        if(format != kFormat)
            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "serialized context format " + std::to_string(format) + " is unknown");
        auto blob = [&]() {
            const uint64_t n = get(8);
            if(n > in.size() - pos)
                fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "serialized context is truncated");
            std::vector<uint8_t> b(in.begin() + static_cast<std::ptrdiff_t>(pos),
                                   in.begin() + static_cast<std::ptrdiff_t>(pos + n));
            pos += n;
            return b;
        };
        std::vector<uint8_t> config = blob();
        std::vector<uint8_t> graph = blob();
        *execution_context = newContext(std::move(config), std::move(graph));
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext(
    hipdnnEnginePluginHandle_t handle, hipdnnEnginePluginExecutionContext_t execution_context, size_t* workspace_size)
{
    return entry("GetWorkspaceSizeFromExecutionContext", [&] {
        requireNotNull(handle, "handle");
        requireNotNull(workspace_size, "workspace_size");
        *workspace_size = planOf(execution_context).workspaceSize();
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginExecuteOpGraph(hipdnnEnginePluginHandle_t handle,
                                                                           hipdnnEnginePluginExecutionContext_t execution_context,
                                                                           void* workspace,
                                                                           const hipdnnPluginDeviceBuffer_t* device_buffers,
                                                                           uint32_t num_device_buffers)
{
    return entry("ExecuteOpGraph", [&] {
        requireNotNull(handle, "handle");
        planOf(execution_context).execute(workspace, device_buffers, num_device_buffers);
    });
}

} // extern "C"
