/*
 * internal/engines/shim.h: the C half of the engine plugin host.
 *
 * Go cannot call a C function pointer, so every call into a plugin goes through one of the
 * trampolines below. Each trampoline makes the whole plugin call: it builds the
 * hipdnnPluginConstData_t arguments on its own stack, calls the entry point and, when the
 * status is not SUCCESS, fetches the plugin's last-error text on the same OS thread and copies
 * it (malloc'd, freed by Go) before returning. Reading the text in a second cgo call could land
 * on another thread, whose buffer says something else.
 *
 * Every trampoline returns an hd_result by value, so Go passes no pointers into C for the
 * outputs (a Go pointer argument would make the output variable escape to the heap, and the
 * execute path must not allocate).
 */
#ifndef HIPDNN_ENGINES_SHIM_H
#define HIPDNN_ENGINES_SHIM_H

#include <stddef.h>
#include <stdint.h>

#include <hipdnn_plugin_sdk/EnginePluginApi.h>
#include <hipdnn_plugin_sdk/EnginePluginExtensions.h>

/* Outcome of a trampoline. status is the plugin's status (HD_STATUS_MISSING when the entry
 * point is not exported); err is the copied last-error text after a failure (free with free()),
 * NULL after SUCCESS. ptr / size / u carry what the call produced. */
typedef struct hd_result {
    int status;
    uint64_t u;
    void* ptr;
    size_t size;
    char* err;
} hd_result;

#define HD_STATUS_MISSING (-1)

/* Entry points of one plugin, resolved once at load. Slots are filled by hd_table_set with the
 * index of the HD_SLOT_* constant; optional entry points stay NULL when absent. */
enum {
    HD_SLOT_GET_NAME = 0,
    HD_SLOT_GET_VERSION,
    HD_SLOT_GET_API_VERSION,
    HD_SLOT_GET_TYPE,
    HD_SLOT_GET_LAST_ERROR,
    HD_SLOT_SET_LOGGING_CALLBACK,
    HD_SLOT_SET_LOG_LEVEL,
    HD_SLOT_GET_ALL_ENGINE_IDS,
    HD_SLOT_CREATE,
    HD_SLOT_DESTROY,
    HD_SLOT_SET_STREAM,
    HD_SLOT_GET_APPLICABLE,
    HD_SLOT_GET_DETAILS,
    HD_SLOT_DESTROY_DETAILS,
    HD_SLOT_GET_WORKSPACE,
    HD_SLOT_CREATE_CONTEXT,
    HD_SLOT_DESTROY_CONTEXT,
    HD_SLOT_SERIALIZE_CONTEXT,
    HD_SLOT_DESTROY_SERIALIZED,
    HD_SLOT_CONTEXT_FROM_SERIALIZED,
    HD_SLOT_CONTEXT_WORKSPACE,
    HD_SLOT_EXECUTE,
    HD_SLOT_EXECUTE_OVERRIDES,
    HD_SLOT_GET_ENGINE_NAME,
    HD_SLOT_IS_HOST_MEMORY,
    HD_SLOT_GET_NUMERICAL_NOTES,
    HD_SLOT_GET_MEMORY_KINDS,
    HD_SLOT_COUNT
};

typedef struct hd_table {
    void* slot[HD_SLOT_COUNT];
} hd_table;

/* Override arrays in the shape ExecuteOpGraphWithOverrides wants, in one allocation. */
typedef struct hd_overrides {
    uint32_t count;
    const int64_t* ids;
    const uint32_t* lengths;
    const int64_t* const* shapes;
    const int64_t* const* strides;
} hd_overrides;

/* ---- log sink (hd_table.c) ---- */
/* The sink handed to plugins when the backend's hipdnnLoggingCallback_ext is not in this
 * object (go test): it forwards to the same Go logger. */
hipdnnCallback_t hd_fallback_sink(void);
int hd_is_fallback_sink(hipdnnCallback_t sink);

hd_table* hd_table_new(void);
void hd_table_free(hd_table* t);
void hd_table_set(hd_table* t, int slot, void* fn);
int hd_table_has(const hd_table* t, int slot);

/* ---- trampolines (hd_calls.c) ---- */
hd_result hd_get_string(const hd_table* t, int slot); /* GetName / GetVersion / GetApiVersion */
hd_result hd_get_type(const hd_table* t);
hd_result hd_set_logging_callback(const hd_table* t, hipdnnCallback_t sink);
hd_result hd_set_log_level(const hd_table* t, int level);
hd_result hd_get_all_engine_ids(const hd_table* t, int64_t* ids, uint32_t max);
hd_result hd_get_engine_name(const hd_table* t, int64_t id);
hd_result hd_is_host_memory(const hd_table* t, int64_t id);
hd_result hd_get_memory_kinds(const hd_table* t, int64_t id);
hd_result hd_get_numerical_notes(const hd_table* t, uintptr_t h, const void* config, size_t config_size, const void* graph,
                                 size_t graph_size, int32_t* notes, uint32_t max);

hd_result hd_create(const hd_table* t);
hd_result hd_destroy(const hd_table* t, uintptr_t h);
hd_result hd_set_stream(const hd_table* t, uintptr_t h, uintptr_t stream);
/* With want_reason, a decline (success, no ids) also copies the plugin's last error: its reason. */
hd_result hd_get_applicable(const hd_table* t, uintptr_t h, const void* graph, size_t graph_size, int64_t* ids, uint32_t max,
                            int want_reason);
hd_result hd_get_details(const hd_table* t, uintptr_t h, int64_t id, const void* graph, size_t graph_size);
hd_result hd_destroy_details(const hd_table* t, uintptr_t h, void* ptr, size_t size);
hd_result hd_get_workspace(const hd_table* t, uintptr_t h, const void* config, size_t config_size, const void* graph,
                           size_t graph_size);
hd_result hd_create_context(const hd_table* t, uintptr_t h, const void* config, size_t config_size, const void* graph,
                            size_t graph_size);
hd_result hd_destroy_context(const hd_table* t, uintptr_t h, uintptr_t ctx);
hd_result hd_context_workspace(const hd_table* t, uintptr_t h, uintptr_t ctx);
hd_result hd_serialize_context(const hd_table* t, uintptr_t h, uintptr_t ctx);
hd_result hd_destroy_serialized(const hd_table* t, uintptr_t h, void* ptr, size_t size);
hd_result hd_context_from_serialized(const hd_table* t, uintptr_t h, const void* payload, size_t payload_size);

/* The execute trampolines take every pointer as an integer: cgo checks each pointer-typed
 * argument for Go memory on every call, which costs more than the rest of Execute. t is an
 * hd_table*, buffers a hipdnnPluginDeviceBuffer_t*, ov an hd_overrides*, all C memory. */
hd_result hd_execute(uintptr_t t, uintptr_t h, uintptr_t ctx, uintptr_t workspace, uintptr_t buffers, uint32_t count);
hd_result hd_execute_overrides(uintptr_t t, uintptr_t h, uintptr_t ctx, uintptr_t workspace, uintptr_t buffers, uint32_t count,
                               uintptr_t ov);

/* Benchmark baseline: `iterations` plain ExecuteOpGraph calls straight from C; returns the
 * first non-SUCCESS status, or SUCCESS. */
int hd_execute_loop(uintptr_t t, uintptr_t h, uintptr_t ctx, uintptr_t workspace, uintptr_t buffers, uint32_t count,
                    int64_t iterations);

/* ---- variant-pack arrays (hd_arrays.c) ---- */
hipdnnPluginDeviceBuffer_t* hd_buffers_new(uint32_t count);

/* The execution contexts (by id) whose checks a variant pack passed with its own workspace
 * (pack_check.go writes them, the C fast path reads them; both with atomic operations). */
#define HD_VERDICTS 4
typedef struct hd_verdicts {
    uint64_t ctx[HD_VERDICTS];
    uint32_t next;
} hd_verdicts;
hd_verdicts* hd_verdicts_new(void);
hd_overrides* hd_overrides_new(uint32_t count, const int64_t* ids, const int64_t* lengths, const int64_t* shapes,
                               const int64_t* strides, size_t total);
void hd_free(void* p);

/* ---- the C fast path of hipdnnBackendExecute (hd_fast.c) ---- */
/* Publish a finalized plan / variant pack under its token; returns the entry (0: not published,
 * the Go path serves the token). ctx_id numbers the plan's context for the pack's verdicts. */
uintptr_t hd_fast_publish_plan(uintptr_t token, uintptr_t handle, uintptr_t table, uintptr_t plugin, uintptr_t ctx,
                               uint64_t ctx_id);
uintptr_t hd_fast_publish_pack(uintptr_t token, uintptr_t buffers, uint32_t nbuffers, uintptr_t workspace,
                               uintptr_t verdicts);
/* Unpublish (only entry expect, unless 0) and wait for fast calls using it; 1 if retired. */
int hd_fast_retire(uintptr_t token, uintptr_t expect);
int hd_fast_published(uintptr_t token);
void hd_fast_set_quiet(int quiet);
/* hd_fast_execute itself is declared in capi/fast_execute.h, the header capi calls it through. */

#endif /* HIPDNN_ENGINES_SHIM_H */
