/*
 * HipdnnBackendPluginUnloadingMode.h - hipdnnPluginUnloadingMode_ext_t, when loaded plugins are
 * unloaded; set with hipdnnSetPluginUnloadMode_ext. Applies to engine and heuristic plugins.
 */
#ifndef HIPDNN_BACKEND_PLUGIN_UNLOADING_MODE_H
#define HIPDNN_BACKEND_PLUGIN_UNLOADING_MODE_H

typedef enum
{
    /* Plugins stay loaded after the last handle is destroyed, until the process exits or the
     * plugin paths change. */
    HIPDNN_PLUGIN_UNLOAD_LAZY = 0,
    /* Plugins are unloaded when the last handle is destroyed and loaded again by the next
     * hipdnnCreate. */
    HIPDNN_PLUGIN_UNLOAD_EAGER = 1
} hipdnnPluginUnloadingMode_ext_t;

/* The mode in force before hipdnnSetPluginUnloadMode_ext is called. AMD's header declares it as
 * a C++ constexpr only; C code gets the same name as a macro. */
#ifdef __cplusplus
constexpr hipdnnPluginUnloadingMode_ext_t HIPDNN_DEFAULT_PLUGIN_UNLOADING_MODE
    = HIPDNN_PLUGIN_UNLOAD_LAZY;
#else
#define HIPDNN_DEFAULT_PLUGIN_UNLOADING_MODE HIPDNN_PLUGIN_UNLOAD_LAZY
#endif

#endif /* HIPDNN_BACKEND_PLUGIN_UNLOADING_MODE_H */
