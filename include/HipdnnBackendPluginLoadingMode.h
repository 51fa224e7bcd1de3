/*
 * HipdnnBackendPluginLoadingMode.h - hipdnnPluginLoadingMode_ext_t, how the paths given to
 * hipdnnSetEnginePluginPaths_ext / hipdnnSetHeuristicPluginPaths_ext combine with the default
 * plugin search path.
 */
#ifndef HIPDNN_BACKEND_PLUGIN_LOADING_MODE_H
#define HIPDNN_BACKEND_PLUGIN_LOADING_MODE_H

typedef enum
{
    /* The given paths are searched in addition to the default path (which the environment
     * variables HIPDNN_PLUGIN_DIR / HIPDNN_HEURISTIC_PLUGIN_DIR replace). */
    HIPDNN_PLUGIN_LOADING_ADDITIVE = 0,
    /* Only the paths of the latest call are searched; the default path is ignored. */
    HIPDNN_PLUGIN_LOADING_ABSOLUTE = 1
} hipdnnPluginLoadingMode_ext_t;

/* The mode in force before any setter is called. AMD's header declares it as a C++ constexpr
 * only; C code gets the same name as a macro. */
#ifdef __cplusplus
constexpr hipdnnPluginLoadingMode_ext_t HIPDNN_DEFAULT_PLUGIN_LOADING_MODE
    = HIPDNN_PLUGIN_LOADING_ADDITIVE;
#else
#define HIPDNN_DEFAULT_PLUGIN_LOADING_MODE HIPDNN_PLUGIN_LOADING_ADDITIVE
#endif

#endif /* HIPDNN_BACKEND_PLUGIN_LOADING_MODE_H */
