// hipdnn_plugin_sdk/helpers/EnginePluginExports.hpp
//
// The macros of the plugin skeleton: each emits `extern "C"` entry points of the engine-plugin
// ABI, every one a single call into hipdnn_plugin_sdk::EnginePlugin<E> (EnginePlugin.hpp, which
// includes this file and documents the engine class E). Kept apart because it is the one place
// that spells out the ABI's prototypes; C++17.
#ifndef HIPDNN_PLUGIN_SDK_HELPERS_ENGINE_PLUGIN_EXPORTS_HPP
#define HIPDNN_PLUGIN_SDK_HELPERS_ENGINE_PLUGIN_EXPORTS_HPP

#include "../EnginePluginApi.h"
#include "../EnginePluginExtensions.h"
#include "../PluginApi.h"

// HIPDNN_ENGINE_PLUGIN(E): the required exports of an engine plugin, plus IsHostMemoryEngine_ext
// and GetNumericalNotesV1_ext. Use once, at global scope, in one source file of the plugin.
#define HIPDNN_ENGINE_PLUGIN(E)                                                                                           \
    extern "C" {                                                                                                          \
    HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetName(const char** name)                                      \
    {                                                                                                                     \
        return ::hipdnn_plugin_sdk::EnginePlugin<E>::getString("GetName", name, "name", E::kPluginName);                 \
    }                                                                                                                     \
    HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetVersion(const char** version)                                \
    {                                                                                                                     \
        return ::hipdnn_plugin_sdk::EnginePlugin<E>::getString("GetVersion", version, "version", E::kPluginVersion);     \
    }                                                                                                                     \
    HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetApiVersion(const char** version)                             \
    {                                                                                                                     \
        return ::hipdnn_plugin_sdk::EnginePlugin<E>::getString("GetApiVersion", version, "version",                     \
                                                               HIPDNN_ENGINE_API_VERSION);                                \
    }                                                                                                                     \
    HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetType(hipdnnPluginType_t* type)                               \
    {                                                                                                                     \
        return ::hipdnn_plugin_sdk::EnginePlugin<E>::getType(type);                                                       \
    }                                                                                                                     \
    HIPDNN_PLUGIN_EXPORT void hipdnnPluginGetLastErrorString(const char** error_str)                                      \
    {                                                                                                                     \
        ::hipdnn_plugin_sdk::EnginePlugin<E>::getLastErrorString(error_str);                                              \
    }                                                                                                                     \
    HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginSetLoggingCallback(hipdnnCallback_t callback)                   \
    {                                                                                                                     \
        return ::hipdnn_plugin_sdk::EnginePlugin<E>::setLoggingCallback(callback);                                        \
    }                                                                                                                     \
    HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginSetLogLevel(hipdnnSeverity_t level)                             \
    {                                                                                                                     \
        return ::hipdnn_plugin_sdk::EnginePlugin<E>::setLogLevel(level);                                                  \
    }                                                                                                                     \
    HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetAllEngineIds(int64_t* engine_ids, uint32_t max_engines, \
                                                                                uint32_t* num_engines)                   \
    {                                                                                                                     \
        return ::hipdnn_plugin_sdk::EnginePlugin<E>::getAllEngineIds(engine_ids, max_engines, num_engines);               \
    }                                                                                                                     \
    HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetEngineName(int64_t engine_id, const char** name)       \
    {                                                                                                                     \
        return ::hipdnn_plugin_sdk::EnginePlugin<E>::getEngineName(engine_id, name);                                      \
    }                                                                                                                     \
    HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginIsHostMemoryEngine_ext(int64_t engine_id,                 \
                                                                                       int32_t* is_host)                  \
    {                                                                                                                     \
        return ::hipdnn_plugin_sdk::EnginePlugin<E>::isHostMemoryEngine(engine_id, is_host);                              \
    }                                                                                                                     \
    HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginCreate(hipdnnEnginePluginHandle_t* handle)                \
    {                                                                                                                     \
        return ::hipdnn_plugin_sdk::EnginePlugin<E>::create(handle);                                                      \
    }                                                                                                                     \
    HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroy(hipdnnEnginePluginHandle_t handle)                \
    {                                                                                                                     \
        return ::hipdnn_plugin_sdk::EnginePlugin<E>::destroy(handle);                                                     \
    }                                                                                                                     \
    HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginSetStream(hipdnnEnginePluginHandle_t handle,              \
                                                                          hipStream_t stream)                             \
    {                                                                                                                     \
        return ::hipdnn_plugin_sdk::EnginePlugin<E>::setStream(handle, stream);                                           \
    }                                                                                                                     \
    HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetApplicableEngineIds(                                   \
        hipdnnEnginePluginHandle_t handle, const hipdnnPluginConstData_t* op_graph, int64_t* engine_ids,                  \
        uint32_t max_engines, uint32_t* num_engines)                                                                      \
    {                                                                                                                     \
        return ::hipdnn_plugin_sdk::EnginePlugin<E>::getApplicableEngineIds(handle, op_graph, engine_ids, max_engines,    \
                                                                            num_engines);                                 \
    }                                                                                                                     \
    HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetEngineDetails(                                         \
        hipdnnEnginePluginHandle_t handle, int64_t engine_id, const hipdnnPluginConstData_t* op_graph,                    \
        hipdnnPluginConstData_t* engine_details)                                                                          \
    {                                                                                                                     \
        return ::hipdnn_plugin_sdk::EnginePlugin<E>::getEngineDetails(handle, engine_id, op_graph, engine_details);       \
    }                                                                                                                     \
    HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroyEngineDetails(                                     \
        hipdnnEnginePluginHandle_t handle, hipdnnPluginConstData_t* engine_details)                                       \
    {                                                                                                                     \
        return ::hipdnn_plugin_sdk::EnginePlugin<E>::destroyBuffer("DestroyEngineDetails", handle, engine_details);       \
    }                                                                                                                     \
    HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetWorkspaceSize(                                         \
        hipdnnEnginePluginHandle_t handle, const hipdnnPluginConstData_t* engine_config,                                  \
        const hipdnnPluginConstData_t* op_graph, size_t* workspace_size)                                                  \
    {                                                                                                                     \
        return ::hipdnn_plugin_sdk::EnginePlugin<E>::getWorkspaceSize(handle, engine_config, op_graph, workspace_size);   \
    }                                                                                                                     \
    HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetNumericalNotesV1_ext(                                  \
        hipdnnEnginePluginHandle_t handle, const hipdnnPluginConstData_t* engine_config,                                  \
        const hipdnnPluginConstData_t* op_graph, int32_t* notes, uint32_t max_notes, uint32_t* num_notes)                 \
    {                                                                                                                     \
        return ::hipdnn_plugin_sdk::EnginePlugin<E>::getNumericalNotes(handle, engine_config, op_graph, notes, max_notes, \
                                                                       num_notes);                                        \
    }                                                                                                                     \
    HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginCreateExecutionContext(                                   \
        hipdnnEnginePluginHandle_t handle, const hipdnnPluginConstData_t* engine_config,                                  \
        const hipdnnPluginConstData_t* op_graph, hipdnnEnginePluginExecutionContext_t* execution_context)                 \
    {                                                                                                                     \
        return ::hipdnn_plugin_sdk::EnginePlugin<E>::createExecutionContext(handle, engine_config, op_graph,              \
                                                                            execution_context);                           \
    }                                                                                                                     \
    HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroyExecutionContext(                                  \
        hipdnnEnginePluginHandle_t handle, hipdnnEnginePluginExecutionContext_t execution_context)                        \
    {                                                                                                                     \
        return ::hipdnn_plugin_sdk::EnginePlugin<E>::destroyExecutionContext(handle, execution_context);                  \
    }                                                                                                                     \
    HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext(                     \
        hipdnnEnginePluginHandle_t handle, hipdnnEnginePluginExecutionContext_t execution_context,                        \
        size_t* workspace_size)                                                                                           \
    {                                                                                                                     \
        return ::hipdnn_plugin_sdk::EnginePlugin<E>::getContextWorkspaceSize(handle, execution_context, workspace_size);  \
    }                                                                                                                     \
    HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginExecuteOpGraph(                                           \
        hipdnnEnginePluginHandle_t handle, hipdnnEnginePluginExecutionContext_t execution_context, void* workspace,       \
        const hipdnnPluginDeviceBuffer_t* device_buffers, uint32_t num_device_buffers)                                    \
    {                                                                                                                     \
        return ::hipdnn_plugin_sdk::EnginePlugin<E>::execute(handle, execution_context, workspace, device_buffers,        \
                                                             num_device_buffers);                                         \
    }                                                                                                                     \
    } /* extern "C" */

// HIPDNN_ENGINE_PLUGIN_SERIALIZATION(E): the three optional serialization exports (all or none,
// as the host wants them). E provides serializeContext and deserializeContext.
#define HIPDNN_ENGINE_PLUGIN_SERIALIZATION(E)                                                                             \
    extern "C" {                                                                                                          \
    HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginSerializeExecutionContext(                                \
        hipdnnEnginePluginHandle_t handle, hipdnnEnginePluginExecutionContext_t execution_context,                        \
        hipdnnPluginConstData_t* serialized_context)                                                                      \
    {                                                                                                                     \
        return ::hipdnn_plugin_sdk::EnginePlugin<E>::serializeContext(handle, execution_context, serialized_context);     \
    }                                                                                                                     \
    HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroySerializedExecutionContext(                        \
        hipdnnEnginePluginHandle_t handle, hipdnnPluginConstData_t* serialized_context)                                   \
    {                                                                                                                     \
        return ::hipdnn_plugin_sdk::EnginePlugin<E>::destroyBuffer("DestroySerializedExecutionContext", handle,           \
                                                                   serialized_context);                                   \
    }                                                                                                                     \
    HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginCreateExecutionContextFromSerialized(                     \
        hipdnnEnginePluginHandle_t handle, const hipdnnPluginConstData_t* serialized_context,                             \
        hipdnnEnginePluginExecutionContext_t* execution_context)                                                          \
    {                                                                                                                     \
        return ::hipdnn_plugin_sdk::EnginePlugin<E>::deserializeContext(handle, serialized_context, execution_context);   \
    }                                                                                                                     \
    } /* extern "C" */

// HIPDNN_ENGINE_PLUGIN_MEMORY_KINDS(E): hipdnnEnginePluginGetMemoryKinds_ext answering
// E::kMemoryKinds. Without it the host derives the kinds from IsHostMemoryEngine_ext.
#define HIPDNN_ENGINE_PLUGIN_MEMORY_KINDS(E)                                                                              \
    extern "C" HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetMemoryKinds_ext(int64_t engine_id,         \
                                                                                              uint32_t* kinds)            \
    {                                                                                                                     \
        return ::hipdnn_plugin_sdk::EnginePlugin<E>::getMemoryKinds(engine_id, kinds);                                    \
    }

#endif // HIPDNN_PLUGIN_SDK_HELPERS_ENGINE_PLUGIN_EXPORTS_HPP
