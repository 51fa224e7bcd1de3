/*
 * hipdnn_plugin_sdk/heuristic_api_version.h
 *
 * Version of the heuristic-plugin C ABI described by HeuristicsPluginApi.h, reported by heuristic
 * plugins from hipdnnPluginGetApiVersion. The host rejects a heuristic plugin whose MAJOR differs
 * from HIPDNN_HEURISTIC_API_VERSION_MAJOR or whose version string does not parse.
 */
#ifndef HIPDNN_PLUGIN_SDK_HEURISTIC_API_VERSION_H
#define HIPDNN_PLUGIN_SDK_HEURISTIC_API_VERSION_H

#define HIPDNN_HEURISTIC_API_VERSION_MAJOR 0
#define HIPDNN_HEURISTIC_API_VERSION_MINOR 1
#define HIPDNN_HEURISTIC_API_VERSION_PATCH 0

#define HIPDNN_HEURISTIC_API_VERSION_STR_(x) #x
#define HIPDNN_HEURISTIC_API_VERSION_STR(x) HIPDNN_HEURISTIC_API_VERSION_STR_(x)

/* "MAJOR.MINOR.PATCH" = "0.1.0". */
#define HIPDNN_HEURISTIC_API_VERSION                                                 \
    HIPDNN_HEURISTIC_API_VERSION_STR(HIPDNN_HEURISTIC_API_VERSION_MAJOR)             \
    "." HIPDNN_HEURISTIC_API_VERSION_STR(HIPDNN_HEURISTIC_API_VERSION_MINOR) "."     \
        HIPDNN_HEURISTIC_API_VERSION_STR(HIPDNN_HEURISTIC_API_VERSION_PATCH)

#endif /* HIPDNN_PLUGIN_SDK_HEURISTIC_API_VERSION_H */
