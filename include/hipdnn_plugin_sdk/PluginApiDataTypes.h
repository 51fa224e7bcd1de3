/*
 * hipdnn_plugin_sdk/PluginApiDataTypes.h
 *
 * Plain C types shared by every hipDNN plugin ABI (engine and heuristic plugins) and by the host
 * that loads them. Everything here is part of the binary interface: enumerator values, struct
 * field order and sizes must never change.
 *
 * Conventions used throughout the plugin headers:
 *   - Every entry point has C linkage and returns hipdnnPluginStatus_t unless noted.
 *   - Buffers a plugin hands out (EngineDetails, serialized execution contexts, heuristic engine
 *     configs, ...) are allocated by the plugin and released only through the matching Destroy
 *     entry point of the same plugin; the host never free()s plugin memory.
 *   - Buffers the host passes in (graphs, engine configs, device-buffer arrays, override arrays,
 *     device properties, host callback tables) are borrowed: they are valid only for the duration
 *     of the call, so a plugin copies whatever it needs to keep.
 *   - Strings returned through `const char**` belong to the plugin. Names and versions must stay
 *     valid for the lifetime of the loaded library; error strings are per thread and may be
 *     overwritten by the next failing call on that thread.
 */
#ifndef HIPDNN_PLUGIN_SDK_PLUGIN_API_DATA_TYPES_H
#define HIPDNN_PLUGIN_SDK_PLUGIN_API_DATA_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Recommended size of a plugin's per-thread last-error buffer, NUL terminator included.
 * Messages longer than this are truncated by the SDK helpers.
 */
#define HIPDNN_PLUGIN_ERROR_STRING_MAX_LENGTH 2048

/*
 * Result of every plugin entry point.
 *
 * SUCCESS          the call did what it was asked.
 * BAD_PARAM        an argument was wrong: a required pointer was NULL, an id is unknown to the
 *                  plugin, a buffer failed verification, a knob value is of the wrong type...
 * INVALID_VALUE    a value was well formed but not acceptable.
 * INTERNAL_ERROR   the plugin failed internally (the SDK helpers map stray C++ exceptions here).
 * ALLOC_FAILED     the plugin could not allocate memory.
 * NOT_APPLICABLE   the call was well formed and the plugin simply has nothing to supply (for
 *                  example no name for an engine, no engine config, no trace). This is the only
 *                  penalty-free decline: the host treats it as "absent", never as a defect.
 * NOT_INITIALIZED  the object is not ready for this call yet (for example a heuristic policy
 *                  descriptor queried before a successful finalize).
 *
 * After any status other than SUCCESS (and the documented NOT_APPLICABLE declines) the host calls
 * hipdnnPluginGetLastErrorString on the same thread to fetch a description.
 */
typedef enum
{
    HIPDNN_PLUGIN_STATUS_SUCCESS = 0,
    HIPDNN_PLUGIN_STATUS_BAD_PARAM = 1,
    HIPDNN_PLUGIN_STATUS_INVALID_VALUE = 2,
    HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR = 3,
    HIPDNN_PLUGIN_STATUS_ALLOC_FAILED = 4,
    HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE = 5,
    HIPDNN_PLUGIN_STATUS_NOT_INITIALIZED = 6
} hipdnnPluginStatus_t;

/*
 * What a shared object implements. A plugin is either an engine plugin or a heuristic plugin,
 * never both; the host rejects a plugin whose reported type does not match the loader that
 * opened it. UNSPECIFIED is never accepted.
 */
typedef enum
{
    HIPDNN_PLUGIN_TYPE_UNSPECIFIED = 0,
    HIPDNN_PLUGIN_TYPE_ENGINE = 1,
    HIPDNN_PLUGIN_TYPE_HEURISTIC = 2
} hipdnnPluginType_t;

/*
 * What a performance prediction describes. ENGINE: ordinary execution of the engine with its own
 * choices. CONFIGURATION: one exact configuration selected by the plugin. Neither kind may
 * benchmark, tune or run the graph.
 */
typedef enum
{
    HIPDNN_ENGINE_PREDICTION_ENGINE = 0,
    HIPDNN_ENGINE_PREDICTION_CONFIGURATION = 1
} hipdnnEnginePredictionKind_t;

/*
 * A read-only byte range. Every serialized object that crosses the plugin ABI travels in one:
 * Graph, EngineConfig, EngineDetails, serialized execution contexts, DeviceProperties,
 * EnginePrediction. Layout (LP64): ptr at offset 0, size at offset 8, 16 bytes in total.
 *
 * Who owns `ptr` depends on the direction: host-to-plugin ranges are borrowed for one call;
 * plugin-to-host ranges stay owned by the plugin until the matching Destroy entry point runs.
 */
typedef struct hipdnnPluginConstData_t
{
    const void* ptr;
    size_t size;
} hipdnnPluginConstData_t;

/*
 * One entry of the variant pack handed to an execute call: the tensor uid and the pointer bound
 * to it. Layout (LP64): uid at offset 0, ptr at offset 8, 16 bytes in total.
 *
 * `ptr` is a device pointer for ordinary tensors and a host pointer for runtime pass-by-value
 * scalars (readable only during the call). Optional or virtual tensors may be absent or NULL.
 */
typedef struct hipdnnPluginDeviceBuffer_t
{
    int64_t uid;
    void* ptr;
} hipdnnPluginDeviceBuffer_t;

/*
 * Opaque engine-plugin objects. The plugin defines these structs; the host only stores and
 * passes back the pointers.
 *   hipdnnEnginePluginHandle_t: one per plugin per hipDNN handle (hipdnnEnginePluginCreate).
 *   hipdnnEnginePluginExecutionContext_t: one per execution plan
 *     (hipdnnEnginePluginCreateExecutionContext).
 */
typedef struct HipdnnEnginePluginHandle* hipdnnEnginePluginHandle_t;
typedef struct HipdnnEnginePluginExecutionContext* hipdnnEnginePluginExecutionContext_t;

/*
 * Logging types. The backend's public HipdnnBackendCallbackTypes.h declares the very same two
 * types under the same guard macro, so both headers can be included in any order: whichever
 * comes first declares them. (The backend's user-callback typedefs live outside that guard and
 * are not repeated here.)
 */
#ifndef HIPDNN_CALLBACK_TYPES_DEFINED
#define HIPDNN_CALLBACK_TYPES_DEFINED

/* Message severity, in increasing order; OFF disables logging when used as a level. */
typedef enum
{
    HIPDNN_SEV_INFO = 0,
    HIPDNN_SEV_WARN = 1,
    HIPDNN_SEV_ERROR = 2,
    HIPDNN_SEV_FATAL = 3,
    HIPDNN_SEV_OFF = 4
} hipdnnSeverity_t;

/* Log sink the host hands to plugins (hipdnnPluginSetLoggingCallback). */
typedef void (*hipdnnCallback_t)(hipdnnSeverity_t severity, const char* message);

#endif /* HIPDNN_CALLBACK_TYPES_DEFINED */

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* HIPDNN_PLUGIN_SDK_PLUGIN_API_DATA_TYPES_H */
