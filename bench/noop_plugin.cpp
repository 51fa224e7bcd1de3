// A no-op engine plugin for the overhead benchmarks: one engine, HIPDNNGO_BENCH_NOOP, applicable
// to every graph that verifies, no workspace, and an execute that only validates its arguments.
// Its entry points share no lock, so whatever does not scale in a benchmark is the backend's.
#include <atomic>
#include <cstring>

#include <hipdnn_plugin_sdk/EnginePluginApi.h>
#include <hipdnn_plugin_sdk/PluginApi.h>
#include <hipdnn_plugin_sdk/engine_api_version.h>
#include <hipdnn_plugin_sdk/helpers/EngineId.h>
#include <hipdnn_plugin_sdk/helpers/PluginHelpers.hpp>

namespace sdk = hipdnn_plugin_sdk;

struct HipdnnEnginePluginHandle
{
    int unused;
};
struct HipdnnEnginePluginExecutionContext
{
    int64_t engine;
};

namespace
{
constexpr const char* kEngineName = "HIPDNNGO_BENCH_NOOP";
int64_t engineId() { return hipdnnPluginEngineNameToId(kEngineName); }
} // namespace

#define EXPORT extern "C" __attribute__((visibility("default")))

EXPORT hipdnnPluginStatus_t hipdnnPluginGetName(const char** name)
{
    HIPDNN_PLUGIN_GUARD(sdk::requireNotNull(name, "name"); *name = "hipdnngo_bench_noop";);
}
EXPORT hipdnnPluginStatus_t hipdnnPluginGetVersion(const char** v)
{
    HIPDNN_PLUGIN_GUARD(sdk::requireNotNull(v, "version"); *v = "1.0.0";);
}
EXPORT hipdnnPluginStatus_t hipdnnPluginGetApiVersion(const char** v)
{
    HIPDNN_PLUGIN_GUARD(sdk::requireNotNull(v, "version"); *v = HIPDNN_ENGINE_API_VERSION;);
}
EXPORT hipdnnPluginStatus_t hipdnnPluginGetType(hipdnnPluginType_t* t)
{
    HIPDNN_PLUGIN_GUARD(sdk::requireNotNull(t, "type"); *t = HIPDNN_PLUGIN_TYPE_ENGINE;);
}
EXPORT void hipdnnPluginGetLastErrorString(const char** s)
{
    if(s)
        *s = hipdnnPluginGetLastError();
}
EXPORT hipdnnPluginStatus_t hipdnnPluginSetLoggingCallback(hipdnnCallback_t) { return HIPDNN_PLUGIN_STATUS_SUCCESS; }
EXPORT hipdnnPluginStatus_t hipdnnPluginSetLogLevel(hipdnnSeverity_t) { return HIPDNN_PLUGIN_STATUS_SUCCESS; }

EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetAllEngineIds(int64_t* ids, uint32_t max, uint32_t* n)
{
    HIPDNN_PLUGIN_GUARD(sdk::requireNotNull(n, "num_engines"); if(max > 0) {
        sdk::requireNotNull(ids, "engine_ids");
        ids[0] = engineId();
    }* n = 1;);
}
EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetEngineName(int64_t id, const char** name)
{
    if(!name)
        return HIPDNN_PLUGIN_STATUS_BAD_PARAM;
    if(id != engineId())
        return HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE;
    *name = kEngineName;
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}
EXPORT hipdnnPluginStatus_t hipdnnEnginePluginCreate(hipdnnEnginePluginHandle_t* h)
{
    HIPDNN_PLUGIN_GUARD(sdk::requireNotNull(h, "handle"); *h = new HipdnnEnginePluginHandle{};);
}
EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroy(hipdnnEnginePluginHandle_t h) { HIPDNN_PLUGIN_GUARD(delete h;); }
EXPORT hipdnnPluginStatus_t hipdnnEnginePluginSetStream(hipdnnEnginePluginHandle_t, hipStream_t)
{
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}
EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetApplicableEngineIds(hipdnnEnginePluginHandle_t h,
                                                                     const hipdnnPluginConstData_t* graph, int64_t* ids,
                                                                     uint32_t max, uint32_t* n)
{
    HIPDNN_PLUGIN_GUARD(sdk::requireNotNull(h, "handle"); sdk::requireNotNull(n, "num_engines"); sdk::verifyGraph(graph); *n = 0;
                        if(max > 0) {
                            sdk::requireNotNull(ids, "engine_ids");
                            ids[0] = engineId();
                            *n = 1;
                        });
}
EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetEngineDetails(hipdnnEnginePluginHandle_t h, int64_t id,
                                                               const hipdnnPluginConstData_t* graph,
                                                               hipdnnPluginConstData_t* details)
{
    HIPDNN_PLUGIN_GUARD(sdk::requireNotNull(h, "handle"); sdk::requireNotNull(details, "engine_details"); sdk::verifyGraph(graph);
                        sdk::EngineDetailsBuilder(id).publish(details););
}
EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroyEngineDetails(hipdnnEnginePluginHandle_t, hipdnnPluginConstData_t* details)
{
    HIPDNN_PLUGIN_GUARD(sdk::releaseBuffer(details););
}
EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetWorkspaceSize(hipdnnEnginePluginHandle_t, const hipdnnPluginConstData_t*,
                                                               const hipdnnPluginConstData_t*, size_t* ws)
{
    HIPDNN_PLUGIN_GUARD(sdk::requireNotNull(ws, "workspace_size"); *ws = 0;);
}
EXPORT hipdnnPluginStatus_t hipdnnEnginePluginCreateExecutionContext(hipdnnEnginePluginHandle_t h,
                                                                     const hipdnnPluginConstData_t* cfg,
                                                                     const hipdnnPluginConstData_t* graph,
                                                                     hipdnnEnginePluginExecutionContext_t* ctx)
{
    HIPDNN_PLUGIN_GUARD(sdk::requireNotNull(h, "handle"); sdk::requireNotNull(ctx, "execution_context");
                        auto* c = sdk::verifyEngineConfig(cfg); sdk::verifyGraph(graph);
                        *ctx = new HipdnnEnginePluginExecutionContext{c->engine_id()};);
}
EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroyExecutionContext(hipdnnEnginePluginHandle_t,
                                                                      hipdnnEnginePluginExecutionContext_t ctx)
{
    HIPDNN_PLUGIN_GUARD(delete ctx;);
}
EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext(hipdnnEnginePluginHandle_t,
                                                                                   hipdnnEnginePluginExecutionContext_t,
                                                                                   size_t* ws)
{
    HIPDNN_PLUGIN_GUARD(sdk::requireNotNull(ws, "workspace_size"); *ws = 0;);
}
EXPORT hipdnnPluginStatus_t hipdnnEnginePluginExecuteOpGraph(hipdnnEnginePluginHandle_t h,
                                                             hipdnnEnginePluginExecutionContext_t ctx, void*,
                                                             const hipdnnPluginDeviceBuffer_t* buffers, uint32_t n)
{
    // Argument checks only: the cost of a real engine's launch is what the benchmark excludes.
    if(!h || !ctx || (n > 0 && !buffers))
        return HIPDNN_PLUGIN_STATUS_BAD_PARAM;
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}
