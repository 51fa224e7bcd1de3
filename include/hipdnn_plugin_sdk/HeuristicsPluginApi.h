/*
 * hipdnn_plugin_sdk/HeuristicsPluginApi.h
 *
 * The heuristic-plugin C ABI: engine-selection policies loaded by the host in addition to its
 * built-in ones. A heuristic plugin exports the base functions of PluginApi.h (GetApiVersion and
 * SetLoggingCallback are required here; GetType must report HIPDNN_PLUGIN_TYPE_HEURISTIC and
 * GetApiVersion the HIPDNN_HEURISTIC_API_VERSION of heuristic_api_version.h) plus the functions
 * below.
 *
 * A plugin offers one or more policies, each identified by a policy id equal to the FNV-1a-64
 * hash of its canonical name (helpers/EngineId.h, hipdnnPluginPolicyNameToId). How the host uses
 * a policy, per engine-heuristic descriptor finalize:
 *
 *   HandleCreate (once per plugin per hipDNN handle)
 *   HandleSetDeviceProperties (once per handle per finalize, before any policy call)
 *   PolicyDescriptorCreate (one per policy slot)
 *   PolicySetEngineIds, PolicySetSerializedGraph,
 *   PolicyFinalizeWithHost (if exported) or PolicyFinalize
 *   if applied: PolicyGetSortedEngineIds (two calls), PolicyGetEngineConfig per returned engine
 *   PolicyDescriptorDestroy, ..., HandleDestroy
 *
 * A heuristic handle and its descriptors are used from one thread at a time.
 * Ownership: buffers returned by the plugin stay owned by it (see each function); everything the
 * host passes in, including the host callback table, is borrowed for the duration of the call.
 */
#ifndef HIPDNN_PLUGIN_SDK_HEURISTICS_PLUGIN_API_H
#define HIPDNN_PLUGIN_SDK_HEURISTICS_PLUGIN_API_H

#include <stddef.h>
#include <stdint.h>

#include "PluginApi.h"
#include "PluginApiDataTypes.h"
#include "PluginExport.h"
#include "heuristic_api_version.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Per-hipDNN-handle state of a heuristic plugin (caches, device properties). */
typedef struct hipdnnHeuristicHandle_opaque* hipdnnHeuristicHandle_t;

/* One policy slot of an engine-heuristic descriptor: candidates, graph, finalize result. */
typedef struct hipdnnHeuristicPolicyDescriptor_opaque* hipdnnHeuristicPolicyDescriptor_t;

/* Current version of hipdnnHeuristicHostCallbacks_t. */
#define HIPDNN_HEURISTIC_HOST_CALLBACKS_VERSION 2

/*
 * Services the host offers a policy during hipdnnHeuristicPolicyFinalizeWithHost.
 * Field order is ABI (LP64 offsets): version @0, struct_size @8, context @16,
 * get_prediction @24, ranking_metric @32; 40 bytes for version 2. Later versions only append
 * fields: check `version` and `struct_size` before reading anything past get_prediction
 * (ranking_metric exists from version 2 on; a version-1 table means "tflops").
 *
 * get_prediction asks the engine plugins for a prediction of one candidate engine (only ids
 * from the descriptor's candidate list) in the table's ranking metric, synchronously on the
 * finalize thread. On SUCCESS *prediction holds a serialized EnginePrediction the host has
 * already validated; it is owned by the host.
 *
 * The table, its context, the metric string and every returned prediction are valid only until
 * the finalize call returns.
 */
typedef struct hipdnnHeuristicHostCallbacks_t
{
    uint32_t version;
    size_t struct_size;
    void* context;
    hipdnnPluginStatus_t (*get_prediction)(void* context,
                                           int64_t engine_id,
                                           hipdnnEnginePredictionKind_t kind,
                                           hipdnnPluginConstData_t* prediction);
    const char* ranking_metric;
} hipdnnHeuristicHostCallbacks_t;

/*
 * Lists the plugin's policy ids. Same two-pass protocol as hipdnnEnginePluginGetAllEngineIds:
 * policy_ids == NULL or max_policies == 0 -> *num_policies = total; otherwise writes
 * min(max_policies, total) ids and sets *num_policies to the number written. The host rejects a
 * count of 0, differing counts and duplicate ids (also across plugins and built-in policies).
 */
HIPDNN_PLUGIN_NODISCARD HIPDNN_HEURISTIC_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnHeuristicPluginGetAllPolicyIds(int64_t* policy_ids,
                                         uint32_t max_policies,
                                         uint32_t* num_policies);

/*
 * Canonical name of a policy (static lifetime). The host requires a non-empty name that hashes to
 * policy_id. BAD_PARAM for an unknown id or a NULL name pointer.
 */
HIPDNN_PLUGIN_NODISCARD HIPDNN_HEURISTIC_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnHeuristicPluginGetPolicyName(int64_t policy_id, const char** name);

/* Creates the plugin's state for one hipDNN handle. */
HIPDNN_PLUGIN_NODISCARD HIPDNN_HEURISTIC_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnHeuristicHandleCreate(hipdnnHeuristicHandle_t* out_handle);

/* Destroys a handle and everything it caches. */
HIPDNN_PLUGIN_NODISCARD HIPDNN_HEURISTIC_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnHeuristicHandleDestroy(hipdnnHeuristicHandle_t handle);

/*
 * Hands the handle a serialized DeviceProperties FlatBuffer (file identifier "HDDP") describing
 * the device of the hipDNN handle. The plugin verifies it and copies what it needs (the buffer is
 * borrowed for the call); it must not query the device through HIP itself. A failure disables all
 * of this plugin's policies for the current finalize.
 */
HIPDNN_PLUGIN_NODISCARD HIPDNN_HEURISTIC_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnHeuristicHandleSetDeviceProperties(hipdnnHeuristicHandle_t handle,
                                             const hipdnnPluginConstData_t* device_props_serialized);

/* Creates a descriptor bound to a handle and one policy. BAD_PARAM for an unknown policy id. */
HIPDNN_PLUGIN_NODISCARD HIPDNN_HEURISTIC_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnHeuristicPolicyDescriptorCreate(hipdnnHeuristicHandle_t plugin_handle,
                                          int64_t policy_id,
                                          hipdnnHeuristicPolicyDescriptor_t* out_desc);

/* Destroys a descriptor and every buffer it still owns. */
HIPDNN_PLUGIN_NODISCARD HIPDNN_HEURISTIC_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnHeuristicPolicyDescriptorDestroy(hipdnnHeuristicPolicyDescriptor_t desc);

/*
 * Sets the candidate engines (the applicable engines of all engine plugins, in host order).
 * The array is borrowed for the call. Invalidates any previous finalize result.
 */
HIPDNN_PLUGIN_NODISCARD HIPDNN_HEURISTIC_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnHeuristicPolicySetEngineIds(hipdnnHeuristicPolicyDescriptor_t desc,
                                      const int64_t* engine_ids,
                                      size_t engine_id_count);

/*
 * Sets the serialized Graph the candidates were chosen for (borrowed for the call: copy it).
 * Invalidates any previous finalize result.
 */
HIPDNN_PLUGIN_NODISCARD HIPDNN_HEURISTIC_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnHeuristicPolicySetSerializedGraph(hipdnnHeuristicPolicyDescriptor_t desc,
                                            const hipdnnPluginConstData_t* serialized_graph);

/*
 * Runs the selection. *out_applied = 1: the policy produced an ordering and wins;
 * *out_applied = 0: the policy declines and the host tries the next one. A non-SUCCESS status is
 * logged by the host, which then also moves on to the next policy.
 */
HIPDNN_PLUGIN_NODISCARD HIPDNN_HEURISTIC_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnHeuristicPolicyFinalize(hipdnnHeuristicPolicyDescriptor_t desc, int32_t* out_applied);

/*
 * Optional (heuristic API 0.1.0). Used by the host instead of hipdnnHeuristicPolicyFinalize when
 * exported. host may be NULL (no predictions available); otherwise see
 * hipdnnHeuristicHostCallbacks_t. A prediction-ranking policy orders candidates by
 * host->ranking_metric in that metric's direction and declines when no candidate has a usable
 * prediction.
 */
HIPDNN_PLUGIN_NODISCARD HIPDNN_HEURISTIC_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnHeuristicPolicyFinalizeWithHost(hipdnnHeuristicPolicyDescriptor_t desc,
                                          const hipdnnHeuristicHostCallbacks_t* host,
                                          int32_t* out_applied);

/*
 * Optional (heuristic API 0.1.0). After a successful finalize, points *engine_config at a
 * serialized EngineConfig for one of the returned engines (its engine_id must match). The buffer
 * is owned by the descriptor and stays valid until the descriptor is next modified or destroyed;
 * the host copies it at once. NOT_APPLICABLE: no config for this engine (the result is id-only).
 */
HIPDNN_PLUGIN_NODISCARD HIPDNN_HEURISTIC_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnHeuristicPolicyGetEngineConfig(hipdnnHeuristicPolicyDescriptor_t desc,
                                         int64_t engine_id,
                                         hipdnnPluginConstData_t* engine_config);

/*
 * The ordering chosen by a finalize that returned applied = 1 (NOT_INITIALIZED otherwise).
 * Two calls: with engine_ids == NULL, *num_engines receives the total count; then, with
 * *num_engines holding the capacity of engine_ids, the plugin writes min(capacity, total) ids and
 * sets *num_engines to the number written (truncation is silent and still SUCCESS). The ids form a
 * permutation or subset of the candidates, without repeats. Note the size_t counts.
 */
HIPDNN_PLUGIN_NODISCARD HIPDNN_HEURISTIC_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnHeuristicPolicyGetSortedEngineIds(hipdnnHeuristicPolicyDescriptor_t desc,
                                            int64_t* engine_ids,
                                            size_t* num_engines);

/*
 * Declared for observability tools; the host does not resolve it. Points *trace_json at a JSON
 * object describing how the engine was ranked (descriptor-owned). NOT_INITIALIZED before a
 * finalize, NOT_APPLICABLE when there is no trace.
 */
HIPDNN_PLUGIN_NODISCARD HIPDNN_HEURISTIC_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnHeuristicPolicyGetTrace(hipdnnHeuristicPolicyDescriptor_t desc,
                                  int64_t engine_id,
                                  const char** trace_json);

/* Pointer types of the functions above, for hosts that resolve them with dlsym. */
typedef hipdnnPluginStatus_t (*hipdnnHeuristicPluginGetAllPolicyIds_fn)(int64_t*, uint32_t, uint32_t*);
typedef hipdnnPluginStatus_t (*hipdnnHeuristicPluginGetPolicyName_fn)(int64_t, const char**);
typedef hipdnnPluginStatus_t (*hipdnnHeuristicHandleCreate_fn)(hipdnnHeuristicHandle_t*);
typedef hipdnnPluginStatus_t (*hipdnnHeuristicHandleDestroy_fn)(hipdnnHeuristicHandle_t);
typedef hipdnnPluginStatus_t (*hipdnnHeuristicHandleSetDeviceProperties_fn)(
    hipdnnHeuristicHandle_t, const hipdnnPluginConstData_t*);
typedef hipdnnPluginStatus_t (*hipdnnHeuristicPolicyDescriptorCreate_fn)(
    hipdnnHeuristicHandle_t, int64_t, hipdnnHeuristicPolicyDescriptor_t*);
typedef hipdnnPluginStatus_t (*hipdnnHeuristicPolicyDescriptorDestroy_fn)(
    hipdnnHeuristicPolicyDescriptor_t);
typedef hipdnnPluginStatus_t (*hipdnnHeuristicPolicySetEngineIds_fn)(
    hipdnnHeuristicPolicyDescriptor_t, const int64_t*, size_t);
typedef hipdnnPluginStatus_t (*hipdnnHeuristicPolicySetSerializedGraph_fn)(
    hipdnnHeuristicPolicyDescriptor_t, const hipdnnPluginConstData_t*);
typedef hipdnnPluginStatus_t (*hipdnnHeuristicPolicyFinalize_fn)(hipdnnHeuristicPolicyDescriptor_t,
                                                                 int32_t*);
typedef hipdnnPluginStatus_t (*hipdnnHeuristicPolicyFinalizeWithHost_fn)(
    hipdnnHeuristicPolicyDescriptor_t, const hipdnnHeuristicHostCallbacks_t*, int32_t*);
typedef hipdnnPluginStatus_t (*hipdnnHeuristicPolicyGetEngineConfig_fn)(
    hipdnnHeuristicPolicyDescriptor_t, int64_t, hipdnnPluginConstData_t*);
typedef hipdnnPluginStatus_t (*hipdnnHeuristicPolicyGetSortedEngineIds_fn)(
    hipdnnHeuristicPolicyDescriptor_t, int64_t*, size_t*);
typedef hipdnnPluginStatus_t (*hipdnnHeuristicPolicyGetTrace_fn)(hipdnnHeuristicPolicyDescriptor_t,
                                                                 int64_t,
                                                                 const char**);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* HIPDNN_PLUGIN_SDK_HEURISTICS_PLUGIN_API_H */
