// plugin.h: the C side of heuristic plugin hosting. Go cannot call a C function pointer, so
// every call into a plugin goes through one of these helpers; each makes the whole call,
// and when the plugin reports a failure it fetches the plugin's last-error text at once, on
// the same thread, into the caller's buffer (plugins keep that text per thread).
#ifndef HIPDNN_GO_HEURISTICS_PLUGIN_H
#define HIPDNN_GO_HEURISTICS_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#include <hipdnn_plugin_sdk/HeuristicsPluginApi.h>

// Size of the error buffers the helpers fill (HIPDNN_PLUGIN_ERROR_STRING_MAX_LENGTH).
#define HIPDNN_HEUR_ERRLEN 2048

// Helper results that are not plugin statuses.
#define HIPDNN_HEUR_ABSENT (-1) // optional entry point not exported
#define HIPDNN_HEUR_TOO_MANY (-2) // GetSortedEngineIds announced more ids than the capacity

// Steps of hd_heur_finalize, reported through *step on failure.
#define HIPDNN_HEUR_STEP_SET_ENGINE_IDS 1
#define HIPDNN_HEUR_STEP_SET_GRAPH 2
#define HIPDNN_HEUR_STEP_FINALIZE 3

// The entry points of one loaded heuristic plugin. Lives in C memory for the plugin's
// lifetime.
typedef struct hd_heur_plugin {
    void* lib;
    hipdnnPluginGetName_fn get_name;
    hipdnnPluginGetVersion_fn get_version;
    hipdnnPluginGetApiVersion_fn get_api_version;
    hipdnnPluginGetType_fn get_type;
    hipdnnPluginGetLastErrorString_fn get_last_error;
    hipdnnPluginSetLoggingCallback_fn set_logging_callback;
    hipdnnPluginSetLogLevel_fn set_log_level; // optional
    hipdnnHeuristicPluginGetAllPolicyIds_fn get_all_policy_ids;
    hipdnnHeuristicPluginGetPolicyName_fn get_policy_name;
    hipdnnHeuristicHandleCreate_fn handle_create;
    hipdnnHeuristicHandleDestroy_fn handle_destroy;
    hipdnnHeuristicHandleSetDeviceProperties_fn set_device_properties;
    hipdnnHeuristicPolicyDescriptorCreate_fn desc_create;
    hipdnnHeuristicPolicyDescriptorDestroy_fn desc_destroy;
    hipdnnHeuristicPolicySetEngineIds_fn set_engine_ids;
    hipdnnHeuristicPolicySetSerializedGraph_fn set_graph;
    hipdnnHeuristicPolicyFinalize_fn finalize;
    hipdnnHeuristicPolicyFinalizeWithHost_fn finalize_with_host; // optional
    hipdnnHeuristicPolicyGetEngineConfig_fn get_engine_config; // optional
    hipdnnHeuristicPolicyGetSortedEngineIds_fn get_sorted_engine_ids;
} hd_heur_plugin;

// dlopen(RTLD_NOW | RTLD_LOCAL) and resolve every entry point. Returns 0, or non-zero with
// the reason in err (the dlopen error, or "Failed to get symbol <name>: <dlerror>"); the
// library is closed again on failure.
int hd_heur_open(const char* path, hd_heur_plugin* p, char* err, size_t errlen);
void hd_heur_close(hd_heur_plugin* p);

// Base entry points. which: 0 name, 1 version, 2 API version.
int hd_heur_get_string(const hd_heur_plugin* p, int which, const char** out, char* err, size_t errlen);
int hd_heur_get_type(const hd_heur_plugin* p, int* type, char* err, size_t errlen);
int hd_heur_set_logging(const hd_heur_plugin* p, char* err, size_t errlen);
int hd_heur_set_log_level(const hd_heur_plugin* p, int level, char* err, size_t errlen);

// Policy enumeration.
int hd_heur_policy_ids(const hd_heur_plugin* p, int64_t* ids, uint32_t max, uint32_t* n, char* err, size_t errlen);
int hd_heur_policy_name(const hd_heur_plugin* p, int64_t id, const char** out, char* err, size_t errlen);

// Handles and descriptors.
int hd_heur_handle_create(const hd_heur_plugin* p, void** h, char* err, size_t errlen);
int hd_heur_handle_destroy(const hd_heur_plugin* p, void* h, char* err, size_t errlen);
int hd_heur_set_device_properties(const hd_heur_plugin* p, void* h, const void* data, size_t size, char* err, size_t errlen);
int hd_heur_desc_create(const hd_heur_plugin* p, void* h, int64_t id, void** d, char* err, size_t errlen);
int hd_heur_desc_destroy(const hd_heur_plugin* p, void* d, char* err, size_t errlen);

// SetEngineIds, SetSerializedGraph, then FinalizeWithHost (when exported, with a version-2
// host table built on this call's stack: context = ctx, get_prediction, ranking_metric =
// metric) or Finalize. On failure *step names the step.
int hd_heur_finalize(const hd_heur_plugin* p, void* d, const int64_t* ids, size_t n, const void* graph, size_t graph_size,
                     uintptr_t ctx, const char* metric, int32_t* applied, int* step, char* err, size_t errlen);

// Both calls of GetSortedEngineIds: the count, then at most cap ids into buf. Returns
// HIPDNN_HEUR_TOO_MANY (with *n = the count) when the count exceeds cap.
int hd_heur_sorted_ids(const hd_heur_plugin* p, void* d, int64_t* buf, size_t cap, size_t* n, char* err, size_t errlen);

// GetEngineConfig; HIPDNN_HEUR_ABSENT when the plugin does not export it.
int hd_heur_engine_config(const hd_heur_plugin* p, void* d, int64_t id, const void** ptr, size_t* size, char* err, size_t errlen);

#endif
