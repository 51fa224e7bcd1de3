/* Engine plugin API negotiation (plugin_api.md §1.5): the host loads a plugin whose API major is
 * its own whatever the minor, and uses it only within what the host knows; a different major is
 * rejected with a message naming both versions.
 *
 * This one file is two programs. Built normally it is the test. Built with
 * -DTEST_COMPAT_PLUGIN (test_compat_plugin_version.cmake) it is a minimal engine plugin written
 * in C against the installed SDK only, reporting engine API "1.9.0", a minor newer than any
 * this host knows. The plugin offers one engine for every graph, executes nothing, and
 * records what the host asked (hipdnnTestCompatGetStats). */

#ifdef TEST_COMPAT_PLUGIN
/* ======================================= the plugin ========================================= */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <hipdnn_plugin_sdk/EnginePluginApi.h>
#include <hipdnn_plugin_sdk/helpers/EngineId.h>
#include <hipdnn_plugin_sdk/helpers/LastError.h>

#define ENGINE_NAME "TEST_COMPAT_FUTURE_MINOR_ENGINE"
#define API_VERSION "1.9.0" /* same major as the host, a minor it does not know */

struct HipdnnEnginePluginHandle {
    hipStream_t stream;
};
struct HipdnnEnginePluginExecutionContext {
    int64_t engine_id;
};

static uint64_t applicable_calls, executes, set_streams;
static uint32_t last_min_version[3];

static int64_t engine_id(void) { return hipdnnPluginEngineNameToId(ENGINE_NAME); }

static uint32_t rd32(const uint8_t* p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Graph.min_required_engine_api_version (slot 8; absent means 1.0.0), read without the
 * FlatBuffers library: root uoffset -> table -> vtable entry -> inline struct. A real plugin
 * would verify the buffer first; the host has verified it already. */
static void record_min_version(const hipdnnPluginConstData_t* graph) {
    const uint8_t* b = (const uint8_t*)graph->ptr;
    last_min_version[0] = 1, last_min_version[1] = 0, last_min_version[2] = 0;
    if (b == NULL || graph->size < 8)
        return;
    uint32_t table = rd32(b);
    uint32_t vtable = table - rd32(b + table);
    uint32_t vsize = (uint32_t)b[vtable] | (uint32_t)b[vtable + 1] << 8;
    if (vsize < 4 + 2 * 9)
        return;
    uint32_t off = (uint32_t)b[vtable + 4 + 2 * 8] | (uint32_t)b[vtable + 5 + 2 * 8] << 8;
    if (off == 0)
        return;
    for (int i = 0; i < 3; i++)
        last_min_version[i] = rd32(b + table + off + 4 * i);
}

HIPDNN_PLUGIN_EXPORT void hipdnnTestCompatGetStats(uint64_t* applicable, uint64_t* executed, uint64_t* streams,
                                                   uint32_t* min_version) {
    *applicable = applicable_calls;
    *executed = executes;
    *streams = set_streams;
    memcpy(min_version, last_min_version, sizeof last_min_version);
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetName(const char** name) {
    if (name == NULL)
        return hipdnnPluginFail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "name is NULL");
    *name = "test_compat_future_minor_plugin";
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetVersion(const char** version) {
    if (version == NULL)
        return hipdnnPluginFail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "version is NULL");
    *version = "1.0.0-compat";
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetApiVersion(const char** version) {
    if (version == NULL)
        return hipdnnPluginFail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "version is NULL");
    *version = API_VERSION;
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetType(hipdnnPluginType_t* type) {
    if (type == NULL)
        return hipdnnPluginFail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "type is NULL");
    *type = HIPDNN_PLUGIN_TYPE_ENGINE;
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT void hipdnnPluginGetLastErrorString(const char** error_str) {
    if (error_str != NULL)
        *error_str = hipdnnPluginGetLastError();
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginSetLoggingCallback(hipdnnCallback_t callback) {
    (void)callback;
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetAllEngineIds(int64_t* engine_ids, uint32_t max_engines,
                                                                            uint32_t* num_engines) {
    if (num_engines == NULL)
        return hipdnnPluginFail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "num_engines is NULL");
    if (engine_ids == NULL || max_engines == 0) {
        *num_engines = 1;
        return HIPDNN_PLUGIN_STATUS_SUCCESS;
    }
    engine_ids[0] = engine_id();
    *num_engines = 1;
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetEngineName(int64_t id, const char** name) {
    if (name == NULL)
        return hipdnnPluginFail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "name is NULL");
    if (id != engine_id())
        return HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE;
    *name = ENGINE_NAME;
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginCreate(hipdnnEnginePluginHandle_t* handle) {
    if (handle == NULL)
        return hipdnnPluginFail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "handle is NULL");
    *handle = calloc(1, sizeof **handle);
    return *handle ? HIPDNN_PLUGIN_STATUS_SUCCESS : hipdnnPluginFail(HIPDNN_PLUGIN_STATUS_ALLOC_FAILED, "out of memory");
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroy(hipdnnEnginePluginHandle_t handle) {
    free(handle);
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginSetStream(hipdnnEnginePluginHandle_t handle, hipStream_t stream) {
    if (handle == NULL)
        return hipdnnPluginFail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "handle is NULL");
    handle->stream = stream;
    __atomic_fetch_add(&set_streams, 1, __ATOMIC_RELAXED);
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetApplicableEngineIds(hipdnnEnginePluginHandle_t handle,
                                                                                   const hipdnnPluginConstData_t* op_graph,
                                                                                   int64_t* engine_ids, uint32_t max_engines,
                                                                                   uint32_t* num_engines) {
    if (handle == NULL || op_graph == NULL || num_engines == NULL)
        return hipdnnPluginFail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "NULL argument");
    __atomic_fetch_add(&applicable_calls, 1, __ATOMIC_RELAXED);
    record_min_version(op_graph);
    if (engine_ids != NULL && max_engines >= 1)
        engine_ids[0] = engine_id();
    *num_engines = 1;
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

/* EngineDetails { engine_id: int64 (slot 0) } as a finished flatbuffer, laid out by hand:
 *   0  uoffset to the table (12)
 *   4  vtable: size 6, table size 12, slot 0 at +4
 *  10  2 bytes padding
 *  12  table: soffset to the vtable (12 - 4 = 8)
 *  16  engine_id (8-aligned) */
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetEngineDetails(hipdnnEnginePluginHandle_t handle, int64_t id,
                                                                             const hipdnnPluginConstData_t* op_graph,
                                                                             hipdnnPluginConstData_t* engine_details) {
    (void)op_graph;
    if (handle == NULL || engine_details == NULL)
        return hipdnnPluginFail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "NULL argument");
    if (id != engine_id())
        return hipdnnPluginFail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "unknown engine id %lld", (long long)id);
    uint64_t* words = calloc(3, sizeof(uint64_t));
    if (words == NULL)
        return hipdnnPluginFail(HIPDNN_PLUGIN_STATUS_ALLOC_FAILED, "out of memory");
    uint8_t* b = (uint8_t*)words;
    const uint8_t head[16] = {12, 0, 0, 0, 6, 0, 12, 0, 4, 0, 0, 0, 8, 0, 0, 0};
    memcpy(b, head, sizeof head);
    uint64_t u = (uint64_t)id;
    for (int i = 0; i < 8; i++)
        b[16 + i] = (uint8_t)(u >> (8 * i));
    engine_details->ptr = b;
    engine_details->size = 24;
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroyEngineDetails(hipdnnEnginePluginHandle_t handle,
                                                                                 hipdnnPluginConstData_t* engine_details) {
    (void)handle;
    if (engine_details == NULL)
        return hipdnnPluginFail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "engine_details is NULL");
    free((void*)engine_details->ptr);
    engine_details->ptr = NULL;
    engine_details->size = 0;
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetWorkspaceSize(hipdnnEnginePluginHandle_t handle,
                                                                             const hipdnnPluginConstData_t* engine_config,
                                                                             const hipdnnPluginConstData_t* op_graph,
                                                                             size_t* workspace_size) {
    (void)handle, (void)engine_config, (void)op_graph;
    if (workspace_size == NULL)
        return hipdnnPluginFail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "workspace_size is NULL");
    *workspace_size = 0;
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginCreateExecutionContext(
    hipdnnEnginePluginHandle_t handle, const hipdnnPluginConstData_t* engine_config, const hipdnnPluginConstData_t* op_graph,
    hipdnnEnginePluginExecutionContext_t* execution_context) {
    (void)engine_config, (void)op_graph;
    if (handle == NULL || execution_context == NULL)
        return hipdnnPluginFail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "NULL argument");
    *execution_context = calloc(1, sizeof **execution_context);
    if (*execution_context == NULL)
        return hipdnnPluginFail(HIPDNN_PLUGIN_STATUS_ALLOC_FAILED, "out of memory");
    (*execution_context)->engine_id = engine_id();
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroyExecutionContext(hipdnnEnginePluginHandle_t handle,
                                                                                    hipdnnEnginePluginExecutionContext_t ctx) {
    (void)handle;
    free(ctx);
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext(
    hipdnnEnginePluginHandle_t handle, hipdnnEnginePluginExecutionContext_t ctx, size_t* workspace_size) {
    (void)handle;
    if (ctx == NULL || workspace_size == NULL)
        return hipdnnPluginFail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "NULL argument");
    *workspace_size = 0;
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginExecuteOpGraph(hipdnnEnginePluginHandle_t handle,
                                                                           hipdnnEnginePluginExecutionContext_t ctx,
                                                                           void* workspace,
                                                                           const hipdnnPluginDeviceBuffer_t* device_buffers,
                                                                           uint32_t num_device_buffers) {
    (void)workspace, (void)device_buffers, (void)num_device_buffers;
    if (handle == NULL || ctx == NULL)
        return hipdnnPluginFail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "NULL argument");
    __atomic_fetch_add(&executes, 1, __ATOMIC_RELAXED);
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

#else
/* ======================================== the test ========================================== */
#include <hipdnn_plugin_sdk/engine_api_version.h>

#include "plugin_testutil.h"

#define ENGINE_NAME "TEST_COMPAT_FUTURE_MINOR_ENGINE"

typedef void (*stats_fn)(uint64_t*, uint64_t*, uint64_t*, uint32_t*);

struct stats {
    uint64_t applicable, executes, streams;
    uint32_t min[3];
};

static struct stats read_stats(stats_fn f) {
    struct stats s = {0, 0, 0, {0, 0, 0}};
    if (f)
        f(&s.applicable, &s.executes, &s.streams, s.min);
    return s;
}

#define CHECK_MIN(s, a, b, c) CHECK((s).min[0] == (a) && (s).min[1] == (b) && (s).min[2] == (c))

/* A plugin reporting 1.9.0 loads and runs every graph whose features this host knows. */
static void newer_minor(void) {
    const int64_t id = pt_fnv1a(ENGINE_NAME);
    const char* files[] = {COMPAT_PLUGIN_PATH};
    char err[HIPDNN_ERROR_STRING_MAX_LENGTH];
    pt_engine_paths(1, files);
    hipdnnHandle_t h = pt_create(err, sizeof err);
    CHECK_STREQ(err, "");
    CHECK_EQ_INT(pt_engine_count(h), 1);
    CHECK_EQ_INT(pt_loaded_count(h), 1);
    CHECK(pt_has_engine(h, id));
    char name[64];
    CHECK_STREQ(pt_engine_name(h, id, name, sizeof name), ENGINE_NAME);
    PT_FN(stats_fn, stats, COMPAT_PLUGIN_PATH, "hipdnnTestCompatGetStats");
    CHECK(stats != NULL);
    /* No stream is pushed when a handle is created (plugins start on the default stream); each
     * hipdnnSetStream reaches the plugin handle once. */
    CHECK_EQ_INT(read_stats(stats).streams, 0);
    CHECK_OK(hipdnnSetStream(h, NULL));
    CHECK_EQ_INT(read_stats(stats).streams, 1);

    /* Plain graph: offered, planned, executed. */
    int64_t ids[8];
    struct stats s0 = read_stats(stats);
    hipdnnBackendDescriptor_t g = pt_pointwise_graph(h, NULL);
    CHECK_IDS(pt_rank(g, -1, NULL, ids, 8), ids, id);
    struct stats s1 = read_stats(stats);
    CHECK(s1.applicable > s0.applicable);
    CHECK_MIN(s1, 1, 0, 0);
    hipdnnBackendDescriptor_t plan = pt_plan_for(g, id);
    float x[120], y[120];
    int64_t uids[2] = {1, 2};
    void* ptrs[2] = {x, y};
    CHECK_OK(hipdnnBackendExecute(h, plan, pt_pack(2, uids, ptrs, NULL)));
    CHECK_EQ_INT(read_stats(stats).executes, s1.executes + 1);

    /* Graphs needing the 1.2 and 1.3 floors are offered: 1.9.0 is above both. */
    pt_graph_opts pbv = {0, false, true, HIPDNN_DATA_FLOAT, 0};
    g = pt_pointwise_graph(h, &pbv);
    CHECK_IDS(pt_rank(g, -1, NULL, ids, 8), ids, id);
    CHECK_MIN(read_stats(stats), 1, 2, 0);
    pt_graph_opts aligned = {64, false, false, HIPDNN_DATA_FLOAT, 0};
    g = pt_pointwise_graph(h, &aligned);
    CHECK_IDS(pt_rank(g, -1, NULL, ids, 8), ids, id);
    CHECK_MIN(read_stats(stats), 1, 3, 0);
    /* Every graph the host offers declares a version the host itself knows. */
    struct stats s2 = read_stats(stats);
    CHECK(s2.min[0] == HIPDNN_ENGINE_API_VERSION_MAJOR && s2.min[1] <= HIPDNN_ENGINE_API_VERSION_MINOR);

    /* Override shapes need 1.1.0 and the override entry point: the version alone is not enough,
     * so the plugin is never asked about such a graph. */
    pt_graph_opts over = {0, true, false, HIPDNN_DATA_FLOAT, 0};
    g = pt_pointwise_graph(h, &over);
    CHECK_EQ_INT(pt_rank(g, -1, NULL, ids, 8), 0);
    CHECK_EQ_INT(read_stats(stats).applicable, s2.applicable);

    pt_release_all();
    CHECK_OK(hipdnnDestroy(h));
}

/* A plugin reporting API 2.0.0 is rejected at load with both versions in the message; the
 * plugin next to it still loads. */
static void newer_major(void) {
    const char* bad = PT_CUSTOM("test_incompatible_version_plugin");
    const char* files[] = {bad, COMPAT_PLUGIN_PATH};
    char err[HIPDNN_ERROR_STRING_MAX_LENGTH];
    pt_engine_paths(2, files);
    hipdnnHandle_t h = pt_create(err, sizeof err);
    CHECK_CONTAINS(err, "libtest_incompatible_version_plugin.so");
    CHECK_CONTAINS(err, "engine API version 2.0.0");
    CHECK_CONTAINS(err, "does not match expected engine API major version 1");
    CHECK_CONTAINS(err, "this host implements " HIPDNN_ENGINE_API_VERSION);
    CHECK_EQ_INT(pt_engine_count(h), 1);
    CHECK(!pt_has_engine(h, -11));
    CHECK(pt_has_engine(h, pt_fnv1a(ENGINE_NAME)));
    pt_release_all();
    CHECK_OK(hipdnnDestroy(h));
}

int main(void) {
    pt_heur_paths(0, NULL);
    newer_minor();
    newer_major();
    return check_finish("test_compat_plugin_version");
}
#endif
