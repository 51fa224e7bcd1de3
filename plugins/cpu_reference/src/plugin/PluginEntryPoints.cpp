// The C entry points of libhipdnngo_cpu_reference.so (engine plugin ABI, API version 1.4.0).
//
// Every entry has the same shape: check pointers, call one internal function, map exceptions to
// a status and the thread's last error (entry() below). No exception crosses the C boundary.
//
// Execution is synchronous on the host: ExecuteOpGraph returns when the results are written.
// The HIP stream given to SetStream is recorded and otherwise ignored — there is no device work
// to order. All tensor pointers must be host memory; the backend checks that before executing
// (it asks hipdnnEnginePluginIsHostMemoryEngine_ext).
#include "core/TensorView.hpp"
#include "plugin/ExecutionContext.hpp"

#include <hipdnn_plugin_sdk/EnginePluginApi.h>
#include <hipdnn_plugin_sdk/EnginePluginExtensions.h>
#include <hipdnn_plugin_sdk/PluginApi.h>
#include <hipdnn_plugin_sdk/helpers/EngineId.h>
#include <hipdnn_plugin_sdk/helpers/LastError.h>
#include <hipdnn_plugin_sdk/helpers/PluginHelpers.hpp>

#include <atomic>
#include <string>

using namespace hipdnngo::cpu_reference;
using hipdnn_plugin_sdk::fail;
using hipdnn_plugin_sdk::requireNotNull;

// The opaque handle types of the ABI.
struct HipdnnEnginePluginHandle
{
    hipStream_t stream = nullptr; // recorded only: execution is synchronous on the host
};
struct HipdnnEnginePluginExecutionContext
{
    std::unique_ptr<ExecutionContext> impl;
};

namespace
{

constexpr const char* kPluginName = "hipdnngo_cpu_reference";
constexpr const char* kPluginVersion = "1.0.0";
constexpr const char* kEngineName = "HIPDNNGO_CPU_REFERENCE";
constexpr int64_t kEngineId = hipdnn_plugin_sdk::engineNameToId("HIPDNNGO_CPU_REFERENCE");
static_assert(kEngineId != 0, "engine id must be non-zero");

hipdnn_plugin_sdk::PluginLog logAt{"hipdnngo_cpu_reference"};

// entry runs an entry point body: kernel shape errors become BAD_PARAM, everything else maps as
// in the SDK's guard (PluginError -> its status, bad_alloc -> ALLOC_FAILED, other ->
// INTERNAL_ERROR).
template <typename Body>
hipdnnPluginStatus_t entry(Body&& body) noexcept
{
    return hipdnn_plugin_sdk::guard([&]() {
        try
        {
            body();
        }
        catch(const KernelError& e)
        {
            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, e.what());
        }
        catch(const Unsupported& e)
        {
            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, std::string("graph is not supported by HIPDNNGO_CPU_REFERENCE: ") + e.what());
        }
    });
}

void requireEngine(int64_t engineId)
{
    if(engineId != kEngineId)
    {
        fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "engine id " + std::to_string(engineId)
                                                 + " does not belong to hipdnngo_cpu_reference (its only engine is " + kEngineName
                                                 + " = " + std::to_string(kEngineId) + ")");
    }
}

ExecutionContext& contextOf(hipdnnEnginePluginExecutionContext_t ctx)
{
    requireNotNull(ctx, "execution_context");
    if(!ctx->impl)
    {
        fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "execution_context is not initialised");
    }
    return *ctx->impl;
}

// applicabilityOf returns "" when the engine can run the graph, else the reason.
std::string applicabilityOf(const fbs::Graph& graph)
{
    if(std::string host = hipdnn_plugin_sdk::hostFeatureProblem(graph); !host.empty())
    {
        return host;
    }
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

} // namespace

extern "C" {

// ---- base plugin API -------------------------------------------------------------------------

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetName(const char** name)
{
    return entry([&] {
        requireNotNull(name, "name");
        *name = kPluginName;
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetVersion(const char** version)
{
    return entry([&] {
        requireNotNull(version, "version");
        *version = kPluginVersion;
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetApiVersion(const char** version)
{
    return entry([&] {
        requireNotNull(version, "version");
        *version = HIPDNN_ENGINE_API_VERSION;
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetType(hipdnnPluginType_t* type)
{
    return entry([&] {
        requireNotNull(type, "type");
        *type = HIPDNN_PLUGIN_TYPE_ENGINE;
    });
}

HIPDNN_PLUGIN_EXPORT void hipdnnPluginGetLastErrorString(const char** error_str)
{
    if(error_str != nullptr)
    {
        *error_str = hipdnnPluginGetLastError();
    }
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginSetLoggingCallback(hipdnnCallback_t callback)
{
    logAt.setCallback(callback);
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginSetLogLevel(hipdnnSeverity_t level)
{
    return entry([&] {
        if(static_cast<int>(level) < HIPDNN_SEV_INFO || static_cast<int>(level) > HIPDNN_SEV_OFF)
        {
            fail(HIPDNN_PLUGIN_STATUS_INVALID_VALUE, "log level " + std::to_string(static_cast<int>(level)) + " is unknown");
        }
        logAt.setLevel(level);
    });
}

// ---- engine plugin API -----------------------------------------------------------------------

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetAllEngineIds(int64_t* engine_ids, uint32_t max_engines,
                                                                            uint32_t* num_engines)
{
    return entry([&] {
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
    return entry([&] {
        requireNotNull(name, "name");
        if(engine_id != kEngineId)
        {
            fail(HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE, "no engine " + std::to_string(engine_id) + " in this plugin");
        }
        *name = kEngineName;
    });
}

// hipdnnEnginePluginIsHostMemoryEngine_ext (our extension, ignored by AMD's host): *is_host = 1
// when the engine reads and writes tensors in host memory. BAD_PARAM for an unknown engine id or
// a NULL is_host.
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginIsHostMemoryEngine_ext(int64_t engine_id, int32_t* is_host)
{
    return entry([&] {
        requireNotNull(is_host, "is_host");
        requireEngine(engine_id);
        *is_host = 1;
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginCreate(hipdnnEnginePluginHandle_t* handle)
{
    return entry([&] {
        requireNotNull(handle, "handle");
        *handle = new HipdnnEnginePluginHandle();
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroy(hipdnnEnginePluginHandle_t handle)
{
    return entry([&] {
        requireNotNull(handle, "handle");
        delete handle;
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginSetStream(hipdnnEnginePluginHandle_t handle, hipStream_t stream)
{
    return entry([&] {
        requireNotNull(handle, "handle");
        handle->stream = stream;
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetApplicableEngineIds(hipdnnEnginePluginHandle_t handle,
                                                                                   const hipdnnPluginConstData_t* op_graph,
                                                                                   int64_t* engine_ids, uint32_t max_engines,
                                                                                   uint32_t* num_engines)
{
    return entry([&] {
        requireNotNull(handle, "handle");
        requireNotNull(num_engines, "num_engines");
        const fbs::Graph* graph = hipdnn_plugin_sdk::verifyGraph(op_graph);
        const std::string reason = applicabilityOf(*graph);
        if(!reason.empty())
        {
            logAt(HIPDNN_SEV_INFO, "not applicable: " + reason);
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
    return entry([&] {
        requireNotNull(handle, "handle");
        requireNotNull(engine_details, "engine_details");
        requireEngine(engine_id);
        hipdnn_plugin_sdk::verifyGraph(op_graph);
        // No knobs, no behaviour notes: the engine has one way of running a graph.
        hipdnn_plugin_sdk::EngineDetailsBuilder(kEngineId).publish(engine_details);
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroyEngineDetails(hipdnnEnginePluginHandle_t handle,
                                                                                 hipdnnPluginConstData_t* engine_details)
{
    return entry([&] {
        requireNotNull(handle, "handle");
        hipdnn_plugin_sdk::releaseBuffer(engine_details);
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetWorkspaceSize(hipdnnEnginePluginHandle_t handle,
                                                                             const hipdnnPluginConstData_t* engine_config,
                                                                             const hipdnnPluginConstData_t* op_graph,
                                                                             size_t* workspace_size)
{
    return entry([&] {
        requireNotNull(handle, "handle");
        requireNotNull(workspace_size, "workspace_size");
        *workspace_size = createContext(kEngineId, engine_config, op_graph)->plan->workspaceSize();
    });
}

// hipdnnEnginePluginGetNumericalNotesV1_ext (our extension): no notes. Every output element is
// computed by one thread in a fixed order, so results are bitwise reproducible (no
// NONDETERMINISTIC), in the tensors' own type with no tensor cores or transforms.
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetNumericalNotesV1_ext(hipdnnEnginePluginHandle_t handle,
                                                                                    const hipdnnPluginConstData_t* engine_config,
                                                                                    const hipdnnPluginConstData_t* op_graph,
                                                                                    int32_t* notes, uint32_t max_notes,
                                                                                    uint32_t* num_notes)
{
    (void)notes;
    (void)max_notes;
    return entry([&] {
        requireNotNull(handle, "handle");
        requireNotNull(num_notes, "num_notes");
        createContext(kEngineId, engine_config, op_graph); // verifies the config and the graph
        *num_notes = 0;
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginCreateExecutionContext(
    hipdnnEnginePluginHandle_t handle, const hipdnnPluginConstData_t* engine_config, const hipdnnPluginConstData_t* op_graph,
    hipdnnEnginePluginExecutionContext_t* execution_context)
{
    return entry([&] {
        requireNotNull(handle, "handle");
        requireNotNull(execution_context, "execution_context");
        auto impl = createContext(kEngineId, engine_config, op_graph);
        logAt(HIPDNN_SEV_INFO, "execution context with " + std::to_string(impl->plan->nodeCount()) + " nodes, workspace "
                                   + std::to_string(impl->plan->workspaceSize()) + " bytes");
        *execution_context = new HipdnnEnginePluginExecutionContext{std::move(impl)};
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroyExecutionContext(
    hipdnnEnginePluginHandle_t handle, hipdnnEnginePluginExecutionContext_t execution_context)
{
    return entry([&] {
        requireNotNull(handle, "handle");
        requireNotNull(execution_context, "execution_context");
        delete execution_context;
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginSerializeExecutionContext(
    hipdnnEnginePluginHandle_t handle, hipdnnEnginePluginExecutionContext_t execution_context,
    hipdnnPluginConstData_t* serialized_context)
{
    return entry([&] {
        requireNotNull(handle, "handle");
        requireNotNull(serialized_context, "serialized_context");
        const std::vector<uint8_t> bytes = serializeContext(contextOf(execution_context));
        hipdnn_plugin_sdk::publishBytes(bytes.data(), bytes.size(), serialized_context);
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroySerializedExecutionContext(
    hipdnnEnginePluginHandle_t handle, hipdnnPluginConstData_t* serialized_context)
{
    return entry([&] {
        requireNotNull(handle, "handle");
        hipdnn_plugin_sdk::releaseBuffer(serialized_context);
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginCreateExecutionContextFromSerialized(
    hipdnnEnginePluginHandle_t handle, const hipdnnPluginConstData_t* serialized_context,
    hipdnnEnginePluginExecutionContext_t* execution_context)
{
    return entry([&] {
        requireNotNull(handle, "handle");
        requireNotNull(execution_context, "execution_context");
        *execution_context = new HipdnnEnginePluginExecutionContext{deserializeContext(kEngineId, serialized_context)};
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext(
    hipdnnEnginePluginHandle_t handle, hipdnnEnginePluginExecutionContext_t execution_context, size_t* workspace_size)
{
    return entry([&] {
        requireNotNull(handle, "handle");
        requireNotNull(workspace_size, "workspace_size");
        *workspace_size = contextOf(execution_context).plan->workspaceSize();
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginExecuteOpGraph(hipdnnEnginePluginHandle_t handle,
                                                                           hipdnnEnginePluginExecutionContext_t execution_context,
                                                                           void* workspace,
                                                                           const hipdnnPluginDeviceBuffer_t* device_buffers,
                                                                           uint32_t num_device_buffers)
{
    return entry([&] {
        requireNotNull(handle, "handle");
        contextOf(execution_context).plan->execute(workspace, device_buffers, num_device_buffers);
    });
}

} // extern "C"
