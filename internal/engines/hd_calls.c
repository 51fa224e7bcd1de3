/* Trampolines: one per plugin entry point. Each makes the whole call and, on failure, copies
 * the plugin's last-error text on the same thread (see shim.h). */
#include <stdlib.h>
#include <string.h>

#include "shim.h"

#define FN(t, idx, type) ((type)(t)->slot[idx])
#define H(h) ((hipdnnEnginePluginHandle_t)(h))
#define CTX(c) ((hipdnnEnginePluginExecutionContext_t)(c))

/* Copies the calling thread's last error of the plugin after a failed call. */
static char* hd_last_error(const hd_table* t) {
    const char* text = NULL;
    hipdnnPluginGetLastErrorString_fn get = FN(t, HD_SLOT_GET_LAST_ERROR, hipdnnPluginGetLastErrorString_fn);
    if (get != NULL) {
        get(&text);
    }
    return strdup(text != NULL ? text : "");
}

static hd_result hd_finish(const hd_table* t, hipdnnPluginStatus_t status, hd_result r) {
    r.status = (int)status;
    if (status != HIPDNN_PLUGIN_STATUS_SUCCESS) {
        r.err = hd_last_error(t);
    }
    return r;
}

static hd_result hd_missing(void) {
    hd_result r = {0};
    r.status = HD_STATUS_MISSING;
    return r;
}

#define REQUIRE(t, idx)               \
    do {                              \
        if ((t)->slot[idx] == NULL) { \
            return hd_missing();      \
        }                             \
    } while (0)

hd_result hd_get_string(const hd_table* t, int slot) {
    hd_result r = {0};
    const char* s = NULL;
    REQUIRE(t, slot);
    hipdnnPluginStatus_t st = FN(t, slot, hipdnnPluginGetName_fn)(&s);
    r.ptr = (void*)s;
    return hd_finish(t, st, r);
}

hd_result hd_get_type(const hd_table* t) {
    hd_result r = {0};
    hipdnnPluginType_t type = HIPDNN_PLUGIN_TYPE_UNSPECIFIED;
    REQUIRE(t, HD_SLOT_GET_TYPE);
    hipdnnPluginStatus_t st = FN(t, HD_SLOT_GET_TYPE, hipdnnPluginGetType_fn)(&type);
    r.u = (uint64_t)type;
    return hd_finish(t, st, r);
}

hd_result hd_set_logging_callback(const hd_table* t, hipdnnCallback_t sink) {
    hd_result r = {0};
    REQUIRE(t, HD_SLOT_SET_LOGGING_CALLBACK);
    return hd_finish(t, FN(t, HD_SLOT_SET_LOGGING_CALLBACK, hipdnnPluginSetLoggingCallback_fn)(sink), r);
}

hd_result hd_set_log_level(const hd_table* t, int level) {
    hd_result r = {0};
    REQUIRE(t, HD_SLOT_SET_LOG_LEVEL);
    return hd_finish(t, FN(t, HD_SLOT_SET_LOG_LEVEL, hipdnnPluginSetLogLevel_fn)((hipdnnSeverity_t)level), r);
}

hd_result hd_get_all_engine_ids(const hd_table* t, int64_t* ids, uint32_t max) {
    hd_result r = {0};
    uint32_t n = 0;
    REQUIRE(t, HD_SLOT_GET_ALL_ENGINE_IDS);
    hipdnnPluginStatus_t st = FN(t, HD_SLOT_GET_ALL_ENGINE_IDS, hipdnnEnginePluginGetAllEngineIds_fn)(ids, max, &n);
    r.u = n;
    return hd_finish(t, st, r);
}

/* The name is read only on SUCCESS; any other status leaves ptr NULL so the string a failing
 * plugin wrote can never surface. NOT_APPLICABLE is a decline, not a failure: no error text. */
hd_result hd_get_engine_name(const hd_table* t, int64_t id) {
    hd_result r = {0};
    const char* name = NULL;
    REQUIRE(t, HD_SLOT_GET_ENGINE_NAME);
    hipdnnPluginStatus_t st = FN(t, HD_SLOT_GET_ENGINE_NAME, hipdnnEnginePluginGetEngineName_fn)(id, &name);
    if (st == HIPDNN_PLUGIN_STATUS_SUCCESS) {
        r.ptr = (void*)name;
    }
    if (st == HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE) {
        r.status = (int)st;
        return r;
    }
    return hd_finish(t, st, r);
}

hd_result hd_is_host_memory(const hd_table* t, int64_t id) {
    hd_result r = {0};
    int32_t is_host = 0;
    REQUIRE(t, HD_SLOT_IS_HOST_MEMORY);
    hipdnnPluginStatus_t st = FN(t, HD_SLOT_IS_HOST_MEMORY, hipdnnEnginePluginIsHostMemoryEngine_ext_fn)(id, &is_host);
    r.u = (uint64_t)(is_host != 0);
    return hd_finish(t, st, r);
}

hd_result hd_get_memory_kinds(const hd_table* t, int64_t id) {
    hd_result r = {0};
    uint32_t kinds = 0;
    REQUIRE(t, HD_SLOT_GET_MEMORY_KINDS);
    hipdnnPluginStatus_t st = FN(t, HD_SLOT_GET_MEMORY_KINDS, hipdnnEnginePluginGetMemoryKinds_ext_fn)(id, &kinds);
    r.u = kinds;
    return hd_finish(t, st, r);
}

hd_result hd_get_numerical_notes(const hd_table* t, uintptr_t h, const void* config, size_t config_size, const void* graph,
                                 size_t graph_size, int32_t* notes, uint32_t max) {
    hd_result r = {0};
    hipdnnPluginConstData_t c = {config, config_size};
    hipdnnPluginConstData_t g = {graph, graph_size};
    uint32_t n = 0;
    REQUIRE(t, HD_SLOT_GET_NUMERICAL_NOTES);
    hipdnnPluginStatus_t st =
        FN(t, HD_SLOT_GET_NUMERICAL_NOTES, hipdnnEnginePluginGetNumericalNotesV1_ext_fn)(H(h), &c, &g, notes, max, &n);
    r.u = n;
    return hd_finish(t, st, r);
}

hd_result hd_create(const hd_table* t) {
    hd_result r = {0};
    hipdnnEnginePluginHandle_t h = NULL;
    REQUIRE(t, HD_SLOT_CREATE);
    hipdnnPluginStatus_t st = FN(t, HD_SLOT_CREATE, hipdnnEnginePluginCreate_fn)(&h);
    r.ptr = (void*)h;
    return hd_finish(t, st, r);
}

hd_result hd_destroy(const hd_table* t, uintptr_t h) {
    hd_result r = {0};
    REQUIRE(t, HD_SLOT_DESTROY);
    return hd_finish(t, FN(t, HD_SLOT_DESTROY, hipdnnEnginePluginDestroy_fn)(H(h)), r);
}

hd_result hd_set_stream(const hd_table* t, uintptr_t h, uintptr_t stream) {
    hd_result r = {0};
    REQUIRE(t, HD_SLOT_SET_STREAM);
    return hd_finish(t, FN(t, HD_SLOT_SET_STREAM, hipdnnEnginePluginSetStream_fn)(H(h), (hipStream_t)stream), r);
}

hd_result hd_get_applicable(const hd_table* t, uintptr_t h, const void* graph, size_t graph_size, int64_t* ids, uint32_t max,
                            int want_reason) {
    hd_result r = {0};
    hipdnnPluginConstData_t g = {graph, graph_size};
    uint32_t n = 0;
    REQUIRE(t, HD_SLOT_GET_APPLICABLE);
    hipdnnPluginStatus_t st = FN(t, HD_SLOT_GET_APPLICABLE, hipdnnEnginePluginGetApplicableEngineIds_fn)(H(h), &g, ids, max, &n);
    r.u = n;
    if (want_reason && st == HIPDNN_PLUGIN_STATUS_SUCCESS && n == 0) {
        r.err = hd_last_error(t); /* a decline's reason, where the plugin leaves one */
    }
    return hd_finish(t, st, r);
}

hd_result hd_get_details(const hd_table* t, uintptr_t h, int64_t id, const void* graph, size_t graph_size) {
    hd_result r = {0};
    hipdnnPluginConstData_t g = {graph, graph_size};
    hipdnnPluginConstData_t out = {NULL, 0};
    REQUIRE(t, HD_SLOT_GET_DETAILS);
    hipdnnPluginStatus_t st = FN(t, HD_SLOT_GET_DETAILS, hipdnnEnginePluginGetEngineDetails_fn)(H(h), id, &g, &out);
    r.ptr = (void*)out.ptr;
    r.size = out.size;
    return hd_finish(t, st, r);
}

hd_result hd_destroy_details(const hd_table* t, uintptr_t h, void* ptr, size_t size) {
    hd_result r = {0};
    hipdnnPluginConstData_t d = {ptr, size};
    REQUIRE(t, HD_SLOT_DESTROY_DETAILS);
    return hd_finish(t, FN(t, HD_SLOT_DESTROY_DETAILS, hipdnnEnginePluginDestroyEngineDetails_fn)(H(h), &d), r);
}

hd_result hd_get_workspace(const hd_table* t, uintptr_t h, const void* config, size_t config_size, const void* graph,
                           size_t graph_size) {
    hd_result r = {0};
    hipdnnPluginConstData_t c = {config, config_size};
    hipdnnPluginConstData_t g = {graph, graph_size};
    size_t ws = 0;
    REQUIRE(t, HD_SLOT_GET_WORKSPACE);
    hipdnnPluginStatus_t st = FN(t, HD_SLOT_GET_WORKSPACE, hipdnnEnginePluginGetWorkspaceSize_fn)(H(h), &c, &g, &ws);
    r.u = (uint64_t)ws;
    return hd_finish(t, st, r);
}

hd_result hd_create_context(const hd_table* t, uintptr_t h, const void* config, size_t config_size, const void* graph,
                            size_t graph_size) {
    hd_result r = {0};
    hipdnnPluginConstData_t c = {config, config_size};
    hipdnnPluginConstData_t g = {graph, graph_size};
    hipdnnEnginePluginExecutionContext_t ctx = NULL;
    REQUIRE(t, HD_SLOT_CREATE_CONTEXT);
    hipdnnPluginStatus_t st = FN(t, HD_SLOT_CREATE_CONTEXT, hipdnnEnginePluginCreateExecutionContext_fn)(H(h), &c, &g, &ctx);
    r.ptr = (void*)ctx;
    return hd_finish(t, st, r);
}

hd_result hd_destroy_context(const hd_table* t, uintptr_t h, uintptr_t ctx) {
    hd_result r = {0};
    REQUIRE(t, HD_SLOT_DESTROY_CONTEXT);
    return hd_finish(t, FN(t, HD_SLOT_DESTROY_CONTEXT, hipdnnEnginePluginDestroyExecutionContext_fn)(H(h), CTX(ctx)), r);
}

hd_result hd_context_workspace(const hd_table* t, uintptr_t h, uintptr_t ctx) {
    hd_result r = {0};
    size_t ws = 0;
    REQUIRE(t, HD_SLOT_CONTEXT_WORKSPACE);
    hipdnnPluginStatus_t st =
        FN(t, HD_SLOT_CONTEXT_WORKSPACE, hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext_fn)(H(h), CTX(ctx), &ws);
    r.u = (uint64_t)ws;
    return hd_finish(t, st, r);
}

hd_result hd_serialize_context(const hd_table* t, uintptr_t h, uintptr_t ctx) {
    hd_result r = {0};
    hipdnnPluginConstData_t out = {NULL, 0};
    REQUIRE(t, HD_SLOT_SERIALIZE_CONTEXT);
    hipdnnPluginStatus_t st =
        FN(t, HD_SLOT_SERIALIZE_CONTEXT, hipdnnEnginePluginSerializeExecutionContext_fn)(H(h), CTX(ctx), &out);
    r.ptr = (void*)out.ptr;
    r.size = out.size;
    return hd_finish(t, st, r);
}

hd_result hd_destroy_serialized(const hd_table* t, uintptr_t h, void* ptr, size_t size) {
    hd_result r = {0};
    hipdnnPluginConstData_t d = {ptr, size};
    REQUIRE(t, HD_SLOT_DESTROY_SERIALIZED);
    return hd_finish(t, FN(t, HD_SLOT_DESTROY_SERIALIZED, hipdnnEnginePluginDestroySerializedExecutionContext_fn)(H(h), &d), r);
}

hd_result hd_context_from_serialized(const hd_table* t, uintptr_t h, const void* payload, size_t payload_size) {
    hd_result r = {0};
    hipdnnPluginConstData_t p = {payload, payload_size};
    hipdnnEnginePluginExecutionContext_t ctx = NULL;
    REQUIRE(t, HD_SLOT_CONTEXT_FROM_SERIALIZED);
    hipdnnPluginStatus_t st =
        FN(t, HD_SLOT_CONTEXT_FROM_SERIALIZED, hipdnnEnginePluginCreateExecutionContextFromSerialized_fn)(H(h), &p, &ctx);
    r.ptr = (void*)ctx;
    return hd_finish(t, st, r);
}

#define BUFS(b) ((const hipdnnPluginDeviceBuffer_t*)(b))

hd_result hd_execute(uintptr_t table, uintptr_t h, uintptr_t ctx, uintptr_t workspace, uintptr_t buffers, uint32_t count) {
    const hd_table* t = (const hd_table*)table;
    hd_result r = {0};
    hipdnnPluginStatus_t st =
        FN(t, HD_SLOT_EXECUTE, hipdnnEnginePluginExecuteOpGraph_fn)(H(h), CTX(ctx), (void*)workspace, BUFS(buffers), count);
    if (st != HIPDNN_PLUGIN_STATUS_SUCCESS) {
        return hd_finish(t, st, r);
    }
    return r;
}

hd_result hd_execute_overrides(uintptr_t table, uintptr_t h, uintptr_t ctx, uintptr_t workspace, uintptr_t buffers,
                               uint32_t count, uintptr_t overrides) {
    const hd_table* t = (const hd_table*)table;
    const hd_overrides* ov = (const hd_overrides*)overrides;
    hd_result r = {0};
    REQUIRE(t, HD_SLOT_EXECUTE_OVERRIDES);
    hipdnnPluginStatus_t st = FN(t, HD_SLOT_EXECUTE_OVERRIDES, hipdnnEnginePluginExecuteOpGraphWithOverrides_fn)(
        H(h), CTX(ctx), (void*)workspace, BUFS(buffers), count, ov->count, ov->ids, ov->lengths, ov->shapes, ov->strides);
    if (st != HIPDNN_PLUGIN_STATUS_SUCCESS) {
        return hd_finish(t, st, r);
    }
    return r;
}

int hd_execute_loop(uintptr_t table, uintptr_t h, uintptr_t ctx, uintptr_t workspace, uintptr_t buffers, uint32_t count,
                    int64_t iterations) {
    const hd_table* t = (const hd_table*)table;
    hipdnnEnginePluginExecuteOpGraph_fn execute = FN(t, HD_SLOT_EXECUTE, hipdnnEnginePluginExecuteOpGraph_fn);
    for (int64_t i = 0; i < iterations; ++i) {
        hipdnnPluginStatus_t st = execute(H(h), CTX(ctx), (void*)workspace, BUFS(buffers), count);
        if (st != HIPDNN_PLUGIN_STATUS_SUCCESS) {
            return (int)st;
        }
    }
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}
