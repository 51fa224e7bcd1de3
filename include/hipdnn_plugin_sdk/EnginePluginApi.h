/*
 * hipdnn_plugin_sdk/EnginePluginApi.h
 *
 * The engine-plugin C ABI: the entry points an engine plugin exports in addition to the base
 * functions of PluginApi.h (hipdnnPluginGetType must report HIPDNN_PLUGIN_TYPE_ENGINE).
 *
 * An engine plugin offers one or more engines, each identified by a signed 64-bit engine id
 * (see helpers/EngineId.h for the id of a named engine). Typical call sequence from the host:
 *
 *   load      GetAllEngineIds (two passes), GetEngineName per engine (if exported)
 *   per hipDNN handle
 *             Create, SetStream (whenever the user sets a stream), ..., Destroy
 *   per graph GetApplicableEngineIds, GetEngineDetails / DestroyEngineDetails,
 *             GetWorkspaceSize
 *   per plan  CreateExecutionContext, GetWorkspaceSizeFromExecutionContext,
 *             ExecuteOpGraph / ExecuteOpGraphWithOverrides, DestroyExecutionContext,
 *             optionally SerializeExecutionContext / DestroySerializedExecutionContext /
 *             CreateExecutionContextFromSerialized
 *
 * Required entry points: a plugin missing any of them is not loaded. Optional ones are marked
 * below. Serialized objects (Graph, EngineConfig, EngineDetails) are FlatBuffers of the hipDNN
 * schemas, finished without file identifier; the host verifies everything a plugin returns.
 *
 * Ownership: every buffer a plugin returns is plugin-allocated and released through the matching
 * Destroy entry point; every buffer the host passes in is valid only during the call.
 */
#ifndef HIPDNN_PLUGIN_SDK_ENGINE_PLUGIN_API_H
#define HIPDNN_PLUGIN_SDK_ENGINE_PLUGIN_API_H

#include <stddef.h>
#include <stdint.h>

#include "PluginApi.h"
#include "PluginApiDataTypes.h"
#include "PluginExport.h"
#include "engine_api_version.h"

/*
 * hipStream_t: taken from the HIP runtime headers when they are available. Otherwise (or when
 * HIPDNN_PLUGIN_SDK_NO_HIP_HEADERS is defined) it is declared as the opaque pointer type HIP
 * itself uses. HIPDNN_HIPSTREAM_DECLARED marks "hipStream_t is declared"; the backend's public
 * header hipdnn_backend.h guards its own fallback declaration with HIPDNN_HIP_STREAM_T_DECLARED,
 * so both macros are honoured and defined here and the two headers never declare it twice,
 * whichever is included first.
 */
#if !defined(HIPDNN_HIPSTREAM_DECLARED) && !defined(HIPDNN_HIP_STREAM_T_DECLARED)
#if !defined(HIPDNN_PLUGIN_SDK_NO_HIP_HEADERS) && defined(__has_include)
#if __has_include(<hip/hip_runtime_api.h>)
#include <hip/hip_runtime_api.h>
#define HIPDNN_PLUGIN_SDK_HAVE_HIP_HEADERS_ 1
#endif
#endif
#ifndef HIPDNN_PLUGIN_SDK_HAVE_HIP_HEADERS_
typedef struct ihipStream_t* hipStream_t;
#endif
#endif
/* hipStream_t is declared from here on, one way or the other. */
#ifndef HIPDNN_HIPSTREAM_DECLARED
#define HIPDNN_HIPSTREAM_DECLARED 1
#endif
#ifndef HIPDNN_HIP_STREAM_T_DECLARED
#define HIPDNN_HIP_STREAM_T_DECLARED
#endif

#ifdef __cplusplus
extern "C" {
#endif

/*
 * 1. Lists every engine the plugin offers (handle-free). Two-pass protocol:
 *    - count query: engine_ids == NULL or max_engines == 0 -> *num_engines = total count;
 *    - fetch: engine_ids has room for max_engines ids -> the plugin writes min(max_engines, total)
 *      ids and sets *num_engines to the number written.
 *    The host calls the count query, then fetches with a buffer of exactly that size, and rejects
 *    the plugin when the count is 0, when the two counts differ or when ids repeat.
 *    BAD_PARAM if num_engines is NULL.
 */
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnEnginePluginGetAllEngineIds(int64_t* engine_ids,
                                      uint32_t max_engines,
                                      uint32_t* num_engines);

/*
 * 2. Creates the plugin's per-hipDNN-handle state. *handle must be a fresh, non-NULL pointer that
 *    no other plugin can return (plugins hide their internal symbols to guarantee it).
 */
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnEnginePluginCreate(hipdnnEnginePluginHandle_t* handle);

/* 3. Destroys a handle from hipdnnEnginePluginCreate. */
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnEnginePluginDestroy(hipdnnEnginePluginHandle_t handle);

/*
 * 4. Sets the HIP stream later work on this handle is enqueued on. Until it is called the plugin
 *    uses the default (NULL) stream. The stream is owned by the caller.
 */
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnEnginePluginSetStream(hipdnnEnginePluginHandle_t handle, hipStream_t stream);

/*
 * 5. Reports which of the plugin's engines can run the serialized Graph in op_graph. Writes at
 *    most max_engines ids; *num_engines receives the number of applicable engines. The host calls
 *    once with max_engines equal to the plugin's total engine count and treats
 *    *num_engines > max_engines, repeated ids or ids the plugin never declared as a plugin
 *    error. Zero applicable engines is a normal answer (SUCCESS with *num_engines = 0).
 */
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnEnginePluginGetApplicableEngineIds(hipdnnEnginePluginHandle_t handle,
                                             const hipdnnPluginConstData_t* op_graph,
                                             int64_t* engine_ids,
                                             uint32_t max_engines,
                                             uint32_t* num_engines);

/*
 * 6. Fills *engine_details with a plugin-allocated, serialized EngineDetails for engine_id and the
 *    graph (knobs, behaviour notes). Must be non-NULL and non-empty; the host verifies it and
 *    releases it with hipdnnEnginePluginDestroyEngineDetails. EngineDetails.name is recorded but
 *    never used to name an engine (hipdnnEnginePluginGetEngineName does that).
 */
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnEnginePluginGetEngineDetails(hipdnnEnginePluginHandle_t handle,
                                       int64_t engine_id,
                                       const hipdnnPluginConstData_t* op_graph,
                                       hipdnnPluginConstData_t* engine_details);

/*
 * 7. Frees a buffer produced by hipdnnEnginePluginGetEngineDetails and zeroes both fields of
 *    *engine_details.
 */
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnEnginePluginDestroyEngineDetails(hipdnnEnginePluginHandle_t handle,
                                           hipdnnPluginConstData_t* engine_details);

/*
 * 8. Workspace bytes an (EngineConfig, Graph) pair needs, without building an execution context.
 */
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnEnginePluginGetWorkspaceSize(hipdnnEnginePluginHandle_t handle,
                                       const hipdnnPluginConstData_t* engine_config,
                                       const hipdnnPluginConstData_t* op_graph,
                                       size_t* workspace_size);

/*
 * 9. Builds everything needed to execute the graph with the given EngineConfig (the engine id and
 *    knob settings). The plugin copies what it needs: neither buffer outlives the call. Invalid
 *    knob settings (unknown knob, wrong value type, value outside the constraint) are BAD_PARAM.
 *    The context is released with hipdnnEnginePluginDestroyExecutionContext.
 */
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnEnginePluginCreateExecutionContext(hipdnnEnginePluginHandle_t handle,
                                             const hipdnnPluginConstData_t* engine_config,
                                             const hipdnnPluginConstData_t* op_graph,
                                             hipdnnEnginePluginExecutionContext_t* execution_context);

/* 10. Releases an execution context. */
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnEnginePluginDestroyExecutionContext(hipdnnEnginePluginHandle_t handle,
                                              hipdnnEnginePluginExecutionContext_t execution_context);

/*
 * 11. Optional (execution-plan serialization). Produces opaque, plugin-allocated bytes from which
 *     hipdnnEnginePluginCreateExecutionContextFromSerialized can recreate the context. The host
 *     copies them and then calls hipdnnEnginePluginDestroySerializedExecutionContext. NULL or
 *     empty output is an error. The host supports serialization for a plugin only when entry
 *     points 11, 12 and 13 are all exported.
 */
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnEnginePluginSerializeExecutionContext(hipdnnEnginePluginHandle_t handle,
                                                hipdnnEnginePluginExecutionContext_t execution_context,
                                                hipdnnPluginConstData_t* serialized_context);

/*
 * 12. Optional (required together with 11). Frees bytes from
 *     hipdnnEnginePluginSerializeExecutionContext and zeroes both fields.
 */
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnEnginePluginDestroySerializedExecutionContext(hipdnnEnginePluginHandle_t handle,
                                                        hipdnnPluginConstData_t* serialized_context);

/*
 * 13. Optional (required together with 11). Recreates an execution context from bytes produced by
 *     hipdnnEnginePluginSerializeExecutionContext (possibly in another process). The bytes are
 *     borrowed for the call. The plugin owns payload compatibility: it returns BAD_PARAM for a
 *     payload it cannot use.
 */
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnEnginePluginCreateExecutionContextFromSerialized(
        hipdnnEnginePluginHandle_t handle,
        const hipdnnPluginConstData_t* serialized_context,
        hipdnnEnginePluginExecutionContext_t* execution_context);

/*
 * 14. Workspace bytes a built context needs; the host exposes this value as the execution plan's
 *     workspace size.
 */
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext(
        hipdnnEnginePluginHandle_t handle,
        hipdnnEnginePluginExecutionContext_t execution_context,
        size_t* workspace_size);

/*
 * 15. Enqueues the work on the handle's stream. device_buffers maps tensor uids to pointers
 *     (see hipdnnPluginDeviceBuffer_t); the array is host-owned and valid only during the call,
 *     and host pointers of runtime pass-by-value scalars must be read before returning.
 *     workspace may be NULL when the workspace size is 0.
 */
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnEnginePluginExecuteOpGraph(hipdnnEnginePluginHandle_t handle,
                                     hipdnnEnginePluginExecutionContext_t execution_context,
                                     void* workspace,
                                     const hipdnnPluginDeviceBuffer_t* device_buffers,
                                     uint32_t num_device_buffers);

/*
 * 16. Optional, since API 1.1.0. Like 15, with execute-time shapes and strides for selected
 *     tensors: override i applies to tensor override_unique_ids[i], has rank override_lengths[i],
 *     and override_shapes[i] / override_strides[i] each point to override_lengths[i] values.
 *     Every overridden uid is also present in device_buffers. All arrays are borrowed for the call.
 *     The host calls this only with num_overrides > 0 and never falls back to 15 when overrides
 *     exist; a plugin that exports it but cannot honour overrides for some graph must not report
 *     its engines applicable to that graph.
 */
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnEnginePluginExecuteOpGraphWithOverrides(
        hipdnnEnginePluginHandle_t handle,
        hipdnnEnginePluginExecutionContext_t execution_context,
        void* workspace,
        const hipdnnPluginDeviceBuffer_t* device_buffers,
        uint32_t num_device_buffers,
        uint32_t num_overrides,
        const int64_t* override_unique_ids,
        const uint32_t* override_lengths,
        const int64_t* const* override_shapes,
        const int64_t* const* override_strides);

/*
 * 17. Optional, since API 1.4.0 (the host uses it whenever it is exported). Handle-free and
 *     thread-safe.
 *     SUCCESS        *name = plugin-owned NUL-terminated name valid for the library's lifetime;
 *                    it must hash to engine_id (see helpers/EngineId.h). NULL or "" counts as
 *                    "no name".
 *     NOT_APPLICABLE no name for this engine (also the answer for an unknown engine_id); the
 *                    penalty-free decline.
 *     BAD_PARAM      name is NULL.
 *     The host reads *name only on SUCCESS; any other status drops that engine.
 */
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnEnginePluginGetEngineName(int64_t engine_id, const char** name);

/* Pointer types of the functions above, for hosts that resolve them with dlsym. */
typedef hipdnnPluginStatus_t (*hipdnnEnginePluginGetAllEngineIds_fn)(int64_t*, uint32_t, uint32_t*);
typedef hipdnnPluginStatus_t (*hipdnnEnginePluginCreate_fn)(hipdnnEnginePluginHandle_t*);
typedef hipdnnPluginStatus_t (*hipdnnEnginePluginDestroy_fn)(hipdnnEnginePluginHandle_t);
typedef hipdnnPluginStatus_t (*hipdnnEnginePluginSetStream_fn)(hipdnnEnginePluginHandle_t,
                                                               hipStream_t);
typedef hipdnnPluginStatus_t (*hipdnnEnginePluginGetApplicableEngineIds_fn)(
    hipdnnEnginePluginHandle_t, const hipdnnPluginConstData_t*, int64_t*, uint32_t, uint32_t*);
typedef hipdnnPluginStatus_t (*hipdnnEnginePluginGetEngineDetails_fn)(
    hipdnnEnginePluginHandle_t, int64_t, const hipdnnPluginConstData_t*, hipdnnPluginConstData_t*);
typedef hipdnnPluginStatus_t (*hipdnnEnginePluginDestroyEngineDetails_fn)(
    hipdnnEnginePluginHandle_t, hipdnnPluginConstData_t*);
typedef hipdnnPluginStatus_t (*hipdnnEnginePluginGetWorkspaceSize_fn)(
    hipdnnEnginePluginHandle_t,
    const hipdnnPluginConstData_t*,
    const hipdnnPluginConstData_t*,
    size_t*);
typedef hipdnnPluginStatus_t (*hipdnnEnginePluginCreateExecutionContext_fn)(
    hipdnnEnginePluginHandle_t,
    const hipdnnPluginConstData_t*,
    const hipdnnPluginConstData_t*,
    hipdnnEnginePluginExecutionContext_t*);
typedef hipdnnPluginStatus_t (*hipdnnEnginePluginDestroyExecutionContext_fn)(
    hipdnnEnginePluginHandle_t, hipdnnEnginePluginExecutionContext_t);
typedef hipdnnPluginStatus_t (*hipdnnEnginePluginSerializeExecutionContext_fn)(
    hipdnnEnginePluginHandle_t, hipdnnEnginePluginExecutionContext_t, hipdnnPluginConstData_t*);
typedef hipdnnPluginStatus_t (*hipdnnEnginePluginDestroySerializedExecutionContext_fn)(
    hipdnnEnginePluginHandle_t, hipdnnPluginConstData_t*);
typedef hipdnnPluginStatus_t (*hipdnnEnginePluginCreateExecutionContextFromSerialized_fn)(
    hipdnnEnginePluginHandle_t,
    const hipdnnPluginConstData_t*,
    hipdnnEnginePluginExecutionContext_t*);
typedef hipdnnPluginStatus_t (*hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext_fn)(
    hipdnnEnginePluginHandle_t, hipdnnEnginePluginExecutionContext_t, size_t*);
typedef hipdnnPluginStatus_t (*hipdnnEnginePluginExecuteOpGraph_fn)(
    hipdnnEnginePluginHandle_t,
    hipdnnEnginePluginExecutionContext_t,
    void*,
    const hipdnnPluginDeviceBuffer_t*,
    uint32_t);
typedef hipdnnPluginStatus_t (*hipdnnEnginePluginExecuteOpGraphWithOverrides_fn)(
    hipdnnEnginePluginHandle_t,
    hipdnnEnginePluginExecutionContext_t,
    void*,
    const hipdnnPluginDeviceBuffer_t*,
    uint32_t,
    uint32_t,
    const int64_t*,
    const uint32_t*,
    const int64_t* const*,
    const int64_t* const*);
typedef hipdnnPluginStatus_t (*hipdnnEnginePluginGetEngineName_fn)(int64_t, const char**);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* HIPDNN_PLUGIN_SDK_ENGINE_PLUGIN_API_H */
