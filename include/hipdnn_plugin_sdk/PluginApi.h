/*
 * hipdnn_plugin_sdk/PluginApi.h
 *
 * The base entry points every hipDNN plugin exports, whatever its type. Engine plugins add the
 * functions of EnginePluginApi.h, heuristic plugins those of HeuristicsPluginApi.h.
 *
 * What the host requires:
 *   function                          engine host                heuristic host
 *   hipdnnPluginGetName               required                   required (name must not be empty)
 *   hipdnnPluginGetVersion            required                   required
 *   hipdnnPluginGetApiVersion         optional (absent: 1.0.0)   required
 *   hipdnnPluginGetType               required                   required
 *   hipdnnPluginGetLastErrorString    required                   required
 *   hipdnnPluginSetLoggingCallback    optional                   required
 *   hipdnnPluginSetLogLevel           optional                   optional
 * A conforming plugin exports all seven.
 */
#ifndef HIPDNN_PLUGIN_SDK_PLUGIN_API_H
#define HIPDNN_PLUGIN_SDK_PLUGIN_API_H

#include "PluginApiDataTypes.h"
#include "PluginExport.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Writes the plugin's name to *name: a NUL-terminated string owned by the plugin and valid for
 * the lifetime of the library. BAD_PARAM if name is NULL.
 */
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnPluginGetName(const char** name);

/*
 * Writes the plugin's own implementation version (free-form, informational) to *version.
 * Same ownership as hipdnnPluginGetName.
 */
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnPluginGetVersion(const char** version);

/*
 * Writes the version of the plugin C ABI the plugin implements, "MAJOR.MINOR.PATCH", to *version
 * (engine plugins: HIPDNN_ENGINE_API_VERSION from engine_api_version.h; heuristic plugins:
 * HIPDNN_HEURISTIC_API_VERSION from heuristic_api_version.h). The host rejects a plugin whose
 * major differs from its own and uses minor/patch to decide which optional features it may use.
 */
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnPluginGetApiVersion(const char** version);

/* Writes HIPDNN_PLUGIN_TYPE_ENGINE or HIPDNN_PLUGIN_TYPE_HEURISTIC to *type. */
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnPluginGetType(hipdnnPluginType_t* type);

/*
 * Points *error_str at the calling thread's last error message (plugin-owned, per thread, at most
 * HIPDNN_PLUGIN_ERROR_STRING_MAX_LENGTH bytes including the NUL). Does nothing when error_str is
 * NULL. The host calls it right after a failing call on the same thread and copies the text at
 * once, so the buffer only has to survive until the next plugin call on that thread.
 */
HIPDNN_PLUGIN_EXPORT void hipdnnPluginGetLastErrorString(const char** error_str);

/*
 * Installs the host's log sink. The host calls it once right after loading the plugin; the
 * plugin should route its log messages there (messages are copied by the host during the call).
 * A NULL callback turns plugin logging off.
 */
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnPluginSetLoggingCallback(hipdnnCallback_t callback);

/*
 * Sets the lowest severity the plugin should forward to the log sink. The host calls it after
 * SetLoggingCallback and again whenever the global log level changes. SUCCESS and INVALID_VALUE
 * are both accepted silently by the host.
 */
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnPluginSetLogLevel(hipdnnSeverity_t level);

/* Pointer types of the functions above, for hosts that resolve them with dlsym. */
typedef hipdnnPluginStatus_t (*hipdnnPluginGetName_fn)(const char** name);
typedef hipdnnPluginStatus_t (*hipdnnPluginGetVersion_fn)(const char** version);
typedef hipdnnPluginStatus_t (*hipdnnPluginGetApiVersion_fn)(const char** version);
typedef hipdnnPluginStatus_t (*hipdnnPluginGetType_fn)(hipdnnPluginType_t* type);
typedef void (*hipdnnPluginGetLastErrorString_fn)(const char** error_str);
typedef hipdnnPluginStatus_t (*hipdnnPluginSetLoggingCallback_fn)(hipdnnCallback_t callback);
typedef hipdnnPluginStatus_t (*hipdnnPluginSetLogLevel_fn)(hipdnnSeverity_t level);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* HIPDNN_PLUGIN_SDK_PLUGIN_API_H */
