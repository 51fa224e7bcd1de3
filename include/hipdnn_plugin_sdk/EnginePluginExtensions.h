/*
 * hipdnn_plugin_sdk/EnginePluginExtensions.h
 *
 * Optional engine-plugin entry points of this project, beyond AMD's EnginePluginApi.h. The
 * host looks each one up by symbol after the plugin loads; a plugin without it behaves as the
 * comment of each says. None adds a field to an AMD table (EngineDetails' next slot is AMD's
 * to take). A changed contract gets a new name (V2 …); the host takes the newest it knows.
 */
#ifndef HIPDNN_PLUGIN_SDK_ENGINE_PLUGIN_EXTENSIONS_H
#define HIPDNN_PLUGIN_SDK_ENGINE_PLUGIN_EXTENSIONS_H

#include <stddef.h>
#include <stdint.h>

#include "EnginePluginApi.h"
#include "PluginApiDataTypes.h"
#include "PluginExport.h"

#include <HipdnnBackendNumericalNote.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Host memory (since 0.1.0). *is_host = 1 when the engine reads and writes tensors in host
 * memory: the host then refuses device pointers before executing, and prefers the engine only
 * where no GPU engine applies. Handle-free. BAD_PARAM for an unknown engine id or a NULL
 * is_host. Without it an engine is taken to run on the device.
 */
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnEnginePluginIsHostMemoryEngine_ext(int64_t engine_id, int32_t* is_host);

/*
 * Numerical notes, version 1 (since 0.1.0). The notes (hipdnnBackendNumericalNote_t values) of
 * the engine configuration engine_config (an EngineConfig flatbuffer: engine id and knob
 * settings; no settings means the defaults) on op_graph. Both buffers are borrowed for the
 * call. The plugin writes min(count, max_notes) notes to notes (which may be NULL when
 * max_notes is 0) and the full count to *num_notes. An engine that reports no
 * NONDETERMINISTIC note promises bitwise-identical results for identical inputs.
 * BAD_PARAM for a NULL num_notes, an unknown engine, or bad knob settings.
 * Without this entry point the host reports no notes for the plugin's engines.
 */
HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnEnginePluginGetNumericalNotesV1_ext(hipdnnEnginePluginHandle_t handle,
                                              const hipdnnPluginConstData_t* engine_config,
                                              const hipdnnPluginConstData_t* op_graph,
                                              int32_t* notes,
                                              uint32_t max_notes,
                                              uint32_t* num_notes);

/*
 * Memory kinds (since 0.1.0). The kinds of memory engine_id accepts for tensors and workspace,
 * as a mask of the HIPDNN_PLUGIN_MEMORY_* bits below. Before a plan and a variant pack first run
 * together, the host classifies every pointer (once per variant pack) and refuses a pointer of
 * a kind outside the mask with BAD_PARAM, without calling the engine, so that one caller's host
 * pointer never faults a kernel and with it the process's GPU context. Device memory must
 * belong to the device the plan was built for. Runtime pass-by-value scalars are host pointers
 * for every engine and are not checked against the mask. Handle-free. BAD_PARAM for an unknown
 * engine id or a NULL kinds. Without it: HOST_PINNED | HOST_PAGEABLE for a host-memory engine
 * (hipdnnEnginePluginIsHostMemoryEngine_ext), DEVICE | MANAGED for any other.
 */
#define HIPDNN_PLUGIN_MEMORY_DEVICE 0x1u
#define HIPDNN_PLUGIN_MEMORY_MANAGED 0x2u
#define HIPDNN_PLUGIN_MEMORY_HOST_PINNED 0x4u
#define HIPDNN_PLUGIN_MEMORY_HOST_PAGEABLE 0x8u

HIPDNN_PLUGIN_NODISCARD HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t
    hipdnnEnginePluginGetMemoryKinds_ext(int64_t engine_id, uint32_t* kinds);

typedef hipdnnPluginStatus_t (*hipdnnEnginePluginIsHostMemoryEngine_ext_fn)(int64_t, int32_t*);
typedef hipdnnPluginStatus_t (*hipdnnEnginePluginGetMemoryKinds_ext_fn)(int64_t, uint32_t*);
typedef hipdnnPluginStatus_t (*hipdnnEnginePluginGetNumericalNotesV1_ext_fn)(
    hipdnnEnginePluginHandle_t, const hipdnnPluginConstData_t*, const hipdnnPluginConstData_t*, int32_t*,
    uint32_t, uint32_t*);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* HIPDNN_PLUGIN_SDK_ENGINE_PLUGIN_EXTENSIONS_H */
