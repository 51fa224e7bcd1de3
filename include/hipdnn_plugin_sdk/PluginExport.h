/*
 * hipdnn_plugin_sdk/PluginExport.h
 *
 * Symbol-visibility macros for plugin shared objects.
 *
 * Plugins are meant to be compiled with -fvisibility=hidden so that only the C entry points the
 * host resolves with dlsym end up in the dynamic symbol table. Every entry point declared by the
 * SDK headers carries HIPDNN_PLUGIN_EXPORT (engine and base functions) or
 * HIPDNN_HEURISTIC_PLUGIN_EXPORT (heuristic functions); a plugin that includes the header before
 * defining the function therefore exports exactly the functions it implements.
 *
 * Define HIPDNN_PLUGIN_STATIC_DEFINE / HIPDNN_HEURISTIC_PLUGIN_STATIC_DEFINE when the entry points
 * are linked statically into another binary (no export decoration is wanted then).
 */
#ifndef HIPDNN_PLUGIN_SDK_PLUGIN_EXPORT_H
#define HIPDNN_PLUGIN_SDK_PLUGIN_EXPORT_H

#if defined(_WIN32) || defined(__CYGWIN__)
#define HIPDNN_PLUGIN_SDK_VISIBLE_ __declspec(dllexport)
#elif defined(__GNUC__) || defined(__clang__)
#define HIPDNN_PLUGIN_SDK_VISIBLE_ __attribute__((visibility("default")))
#else
#define HIPDNN_PLUGIN_SDK_VISIBLE_
#endif

#ifndef HIPDNN_PLUGIN_EXPORT
#ifdef HIPDNN_PLUGIN_STATIC_DEFINE
#define HIPDNN_PLUGIN_EXPORT
#else
#define HIPDNN_PLUGIN_EXPORT HIPDNN_PLUGIN_SDK_VISIBLE_
#endif
#endif

#ifndef HIPDNN_HEURISTIC_PLUGIN_EXPORT
#ifdef HIPDNN_HEURISTIC_PLUGIN_STATIC_DEFINE
#define HIPDNN_HEURISTIC_PLUGIN_EXPORT
#else
#define HIPDNN_HEURISTIC_PLUGIN_EXPORT HIPDNN_PLUGIN_SDK_VISIBLE_
#endif
#endif

/* [[nodiscard]] for C++17 callers; nothing in C. */
#ifndef HIPDNN_PLUGIN_NODISCARD
#if defined(__cplusplus) && __cplusplus >= 201703L
#define HIPDNN_PLUGIN_NODISCARD [[nodiscard]]
#else
#define HIPDNN_PLUGIN_NODISCARD
#endif
#endif

#endif /* HIPDNN_PLUGIN_SDK_PLUGIN_EXPORT_H */
