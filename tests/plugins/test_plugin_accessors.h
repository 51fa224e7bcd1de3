/*
 * Extra functions some test plugins export next to the plugin API, so host tests can observe
 * what a plugin saw. Resolve them with dlsym on the plugin file (dlopen it with RTLD_NOLOAD after
 * the backend has loaded it, to get the same instance). Which plugin exports which function is
 * listed in tests/plugins/README.md.
 */
#ifndef HIPDNN_TEST_PLUGIN_ACCESSORS_H
#define HIPDNN_TEST_PLUGIN_ACCESSORS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- test_good_plugin -------------------------------------------------------------------- */

/* Objects the plugin currently has alive, by kind. Lets a test check that the host released
 * everything (all zero after the last hipdnnHandle and its plans are destroyed). */
#define HIPDNN_TEST_LIVE_HANDLES 0
#define HIPDNN_TEST_LIVE_EXECUTION_CONTEXTS 1
#define HIPDNN_TEST_LIVE_ENGINE_DETAILS 2
#define HIPDNN_TEST_LIVE_SERIALIZED_CONTEXTS 3
/* Returns the count, or -1 for an unknown kind. */
typedef int64_t (*hipdnnTestGetLiveObjects_fn)(int32_t kind);
#define HIPDNN_TEST_GET_LIVE_OBJECTS "hipdnnTestGetLiveObjects"

/* The stream most recently passed to hipdnnEnginePluginSetStream on any handle (NULL if none). */
typedef void* (*hipdnnTestGetLastStream_fn)(void);
#define HIPDNN_TEST_GET_LAST_STREAM "hipdnnTestGetLastStream"

/* The level most recently passed to hipdnnPluginSetLogLevel, or -1 when it was never called. */
typedef int32_t (*hipdnnTestGetLastLogLevel_fn)(void);
#define HIPDNN_TEST_GET_LAST_LOG_LEVEL "hipdnnTestGetLastLogLevel"

/* ---- override family (-12, -13, -14, -15) ------------------------------------------------- */

/* Number of ExecuteOpGraph and ExecuteOpGraphWithOverrides calls that reached the plugin, and
 * num_overrides of the latest override call (0 if none). Any pointer may be NULL. */
typedef void (*hipdnnTestGetExecuteStats_fn)(uint64_t* plain_calls, uint64_t* override_calls, uint32_t* last_num_overrides);
#define HIPDNN_TEST_GET_EXECUTE_STATS "hipdnnTestGetExecuteStats"

/* Shape and strides the latest override call supplied for `uid`: copies up to `capacity` values
 * into shape/strides (either may be NULL) and returns the rank, or -1 when that call had no
 * override for uid. */
typedef int32_t (*hipdnnTestGetLastOverride_fn)(int64_t uid, int64_t* shape, int64_t* strides, uint32_t capacity);
#define HIPDNN_TEST_GET_LAST_OVERRIDE "hipdnnTestGetLastOverride"

/* ---- test_pass_by_value_recorder_plugin (-25) --------------------------------------------- */

/* Bytes the latest execute read through the variant-pack pointer of runtime pass-by-value
 * tensor `uid` (element size of its data type times its element count, at most 64). Copies
 * min(n, recorded) bytes into out (may be NULL) and returns the recorded size, or -1 when
 * nothing was recorded for uid. */
typedef int64_t (*hipdnnTestRecorderGetLast_fn)(int64_t uid, void* out, size_t n);
#define HIPDNN_TEST_RECORDER_GET_LAST "hipdnnTestRecorderGetLast"

/* Forgets everything recorded so far. */
typedef void (*hipdnnTestRecorderClear_fn)(void);
#define HIPDNN_TEST_RECORDER_CLEAR "hipdnnTestRecorderClear"

/* ---- test_graph_recorder_plugin (-31) ---------------------------------------------------- */

/* Which entry point's graph hipdnnTestGraphRecorderGetLast returns. */
#define HIPDNN_TEST_GRAPH_AT_APPLICABLE 0 /* hipdnnEnginePluginGetApplicableEngineIds */
#define HIPDNN_TEST_GRAPH_AT_ENGINE_DETAILS 1 /* hipdnnEnginePluginGetEngineDetails */
#define HIPDNN_TEST_GRAPH_AT_CREATE_CONTEXT 2 /* hipdnnEnginePluginCreateExecutionContext */

/* The graph bytes the latest call of entry point `at` received: copies min(n, size) bytes into
 * out (may be NULL), stores the number of calls so far in *calls (may be NULL) and returns the
 * size (0 before any call), or -1 for an unknown `at`. */
typedef int64_t (*hipdnnTestGraphRecorderGetLast_fn)(int32_t at, void* out, size_t n, int64_t* calls);
#define HIPDNN_TEST_GRAPH_RECORDER_GET_LAST "hipdnnTestGraphRecorderGetLast"

/* Forgets every recorded graph and call count. */
typedef void (*hipdnnTestGraphRecorderClear_fn)(void);
#define HIPDNN_TEST_GRAPH_RECORDER_CLEAR "hipdnnTestGraphRecorderClear"

/* ---- test_good_heuristic_plugin ----------------------------------------------------------- */

/* What the latest finalize of the plugin saw. used_host_table: 1 when it came through
 * FinalizeWithHost with a non-NULL table, 0 otherwise; host_version / host_struct_size from that
 * table (0 otherwise); ranking_metric: the table's metric ("" when absent); device_arch: the
 * architecture_name from the latest SetDeviceProperties ("" when none). Strings are truncated to
 * the given lengths (NUL included). Returns 1 after at least one finalize, else 0. */
typedef int32_t (*hipdnnTestHeuristicGetLastFinalize_fn)(int32_t* used_host_table, uint32_t* host_version,
                                                         size_t* host_struct_size, char* ranking_metric,
                                                         size_t ranking_metric_length, char* device_arch,
                                                         size_t device_arch_length);
#define HIPDNN_TEST_HEURISTIC_GET_LAST_FINALIZE "hipdnnTestHeuristicGetLastFinalize"

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* HIPDNN_TEST_PLUGIN_ACCESSORS_H */
