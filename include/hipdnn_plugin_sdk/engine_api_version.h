/*
 * hipdnn_plugin_sdk/engine_api_version.h
 *
 * Version of the engine-plugin C ABI described by EnginePluginApi.h. These macros are the single
 * source of truth for the API version this project's host implements (the Go host reads them
 * through cgo) and the version an engine plugin built against these headers reports from
 * hipdnnPluginGetApiVersion.
 *
 * Versioning rules:
 *   - a different MAJOR is incompatible: the host refuses to load the plugin;
 *   - MINOR adds optional features; the host asks a plugin only for graphs whose features are
 *     covered by the plugin's reported version (the floors below);
 *   - PATCH never changes the ABI.
 */
#ifndef HIPDNN_PLUGIN_SDK_ENGINE_API_VERSION_H
#define HIPDNN_PLUGIN_SDK_ENGINE_API_VERSION_H

#define HIPDNN_ENGINE_API_VERSION_MAJOR 1
#define HIPDNN_ENGINE_API_VERSION_MINOR 4
#define HIPDNN_ENGINE_API_VERSION_PATCH 0

#define HIPDNN_ENGINE_API_VERSION_STR_(x) #x
#define HIPDNN_ENGINE_API_VERSION_STR(x) HIPDNN_ENGINE_API_VERSION_STR_(x)

/* "MAJOR.MINOR.PATCH", built from the three numbers above. */
#define HIPDNN_ENGINE_API_VERSION                                              \
    HIPDNN_ENGINE_API_VERSION_STR(HIPDNN_ENGINE_API_VERSION_MAJOR)             \
    "." HIPDNN_ENGINE_API_VERSION_STR(HIPDNN_ENGINE_API_VERSION_MINOR) "."     \
        HIPDNN_ENGINE_API_VERSION_STR(HIPDNN_ENGINE_API_VERSION_PATCH)

/*
 * Oldest plugin API version the host accepts for any graph (the baseline surface). A plugin that
 * does not export hipdnnPluginGetApiVersion is assumed to implement exactly this version.
 */
#define HIPDNN_ENGINE_API_VERSION_MIN_SUPPORTED_MAJOR 1
#define HIPDNN_ENGINE_API_VERSION_MIN_SUPPORTED_MINOR 0
#define HIPDNN_ENGINE_API_VERSION_MIN_SUPPORTED_PATCH 0

/*
 * Per-feature floors: the lowest plugin API version that may be offered a graph using the
 * feature.
 */

/* 1.1.0: execute-time shape overrides (graph flag is_override_shape_enabled). The plugin must
 * also export hipdnnEnginePluginExecuteOpGraphWithOverrides. */
#define HIPDNN_ENGINE_API_VERSION_OVERRIDE_MAJOR 1
#define HIPDNN_ENGINE_API_VERSION_OVERRIDE_MINOR 1
#define HIPDNN_ENGINE_API_VERSION_OVERRIDE_PATCH 0

/* 1.2.0: runtime pass-by-value scalar tensors (TensorAttributes.is_runtime_pass_by_value). */
#define HIPDNN_ENGINE_API_VERSION_RUNTIME_PASS_BY_VALUE_MAJOR 1
#define HIPDNN_ENGINE_API_VERSION_RUNTIME_PASS_BY_VALUE_MINOR 2
#define HIPDNN_ENGINE_API_VERSION_RUNTIME_PASS_BY_VALUE_PATCH 0

/* 1.3.0: ragged tensors (TensorAttributes.ragged_offset_tensor_uid). */
#define HIPDNN_ENGINE_API_VERSION_RAGGED_MAJOR 1
#define HIPDNN_ENGINE_API_VERSION_RAGGED_MINOR 3
#define HIPDNN_ENGINE_API_VERSION_RAGGED_PATCH 0

/* 1.3.0: tensors whose required byte alignment differs from 16 (TensorAttributes.alignment). */
#define HIPDNN_ENGINE_API_VERSION_ALIGNMENT_MAJOR 1
#define HIPDNN_ENGINE_API_VERSION_ALIGNMENT_MINOR 3
#define HIPDNN_ENGINE_API_VERSION_ALIGNMENT_PATCH 0

/* 1.4.0: optional hipdnnEnginePluginGetEngineName. The host keys this feature on the presence
 * of the symbol only; the floor documents when the entry point was introduced. */
#define HIPDNN_ENGINE_API_VERSION_ENGINE_NAME_MAJOR 1
#define HIPDNN_ENGINE_API_VERSION_ENGINE_NAME_MINOR 4
#define HIPDNN_ENGINE_API_VERSION_ENGINE_NAME_PATCH 0

#endif /* HIPDNN_PLUGIN_SDK_ENGINE_API_VERSION_H */
