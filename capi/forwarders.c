/* The public symbols of libhipdnn_backend.so, with the exact prototypes of hipdnn_backend.h.
 * Each forwards to its Go implementation (hipdnnGo_*), converting handles and descriptors to
 * uintptr_t: a caller may pass any value as a handle, and Go must never hold such a value in a
 * pointer-typed variable. Function pointers and opaque user handles travel the same way. */
#include <hipdnn_backend.h>

#include "_cgo_export.h"
#include "fast_execute.h"

typedef uintptr_t u;
#define H(x) ((u)(x))

hipdnnStatus_t hipdnnCreate(hipdnnHandle_t* handle) { return (hipdnnStatus_t)hipdnnGo_Create((u*)handle); }
hipdnnStatus_t hipdnnDestroy(hipdnnHandle_t handle) { return (hipdnnStatus_t)hipdnnGo_Destroy(H(handle)); }
hipdnnStatus_t hipdnnSetStream(hipdnnHandle_t handle, hipStream_t streamId) {
    return (hipdnnStatus_t)hipdnnGo_SetStream(H(handle), H(streamId));
}
hipdnnStatus_t hipdnnGetStream(hipdnnHandle_t handle, hipStream_t* streamId) {
    return (hipdnnStatus_t)hipdnnGo_GetStream(H(handle), (u*)streamId);
}

hipdnnStatus_t hipdnnBackendCreateDescriptor(hipdnnBackendDescriptorType_t descriptorType,
                                             hipdnnBackendDescriptor_t* descriptor) {
    return (hipdnnStatus_t)hipdnnGo_CreateDescriptor((int)descriptorType, (u*)descriptor);
}
hipdnnStatus_t hipdnnBackendDestroyDescriptor(hipdnnBackendDescriptor_t descriptor) {
    return (hipdnnStatus_t)hipdnnGo_DestroyDescriptor(H(descriptor));
}
/* Execute tries the C fast path first (internal/engines/hd_fast.c): published plans and packs
 * run without entering Go; everything else, and every error but a plugin failure, is the Go
 * path's. */
hipdnnStatus_t hipdnnBackendExecute(hipdnnHandle_t handle, hipdnnBackendDescriptor_t executionPlan,
                                    hipdnnBackendDescriptor_t variantPack) {
    int plugin_status = 0;
    char* plugin_error = NULL;
    switch (hd_fast_execute(H(handle), H(executionPlan), H(variantPack), &plugin_status, &plugin_error)) {
    case HD_FAST_DONE: return HIPDNN_STATUS_SUCCESS;
    case HD_FAST_PLUGIN_FAILED: return (hipdnnStatus_t)hipdnnGo_ExecuteFailed(H(executionPlan), plugin_status, plugin_error);
    }
    return (hipdnnStatus_t)hipdnnGo_Execute(H(handle), H(executionPlan), H(variantPack));
}
hipdnnStatus_t hipdnnBackendFinalize(hipdnnBackendDescriptor_t descriptor) {
    return (hipdnnStatus_t)hipdnnGo_Finalize(H(descriptor));
}
hipdnnStatus_t hipdnnBackendGetAttribute(hipdnnBackendDescriptor_t descriptor, hipdnnBackendAttributeName_t attributeName,
                                         hipdnnBackendAttributeType_t attributeType, int64_t requestedElementCount,
                                         int64_t* elementCount, void* arrayOfElements) {
    return (hipdnnStatus_t)hipdnnGo_GetAttribute(H(descriptor), (int)attributeName, (int)attributeType, requestedElementCount,
                                                 elementCount, arrayOfElements);
}
hipdnnStatus_t hipdnnBackendSetAttribute(hipdnnBackendDescriptor_t descriptor, hipdnnBackendAttributeName_t attributeName,
                                         hipdnnBackendAttributeType_t attributeType, int64_t elementCount,
                                         const void* arrayOfElements) {
    return (hipdnnStatus_t)hipdnnGo_SetAttribute(H(descriptor), (int)attributeName, (int)attributeType, elementCount,
                                                 (void*)arrayOfElements);
}

const char* hipdnnGetErrorString(hipdnnStatus_t status) { return hipdnnGo_GetErrorString((int)status); }
void hipdnnGetLastErrorString(char* message, size_t maxSize) { hipdnnGo_GetLastErrorString(message, maxSize); }
void hipdnnPeekLastErrorString_ext(char* message, size_t maxSize) { hipdnnGo_PeekLastErrorString(message, maxSize); }

hipdnnStatus_t hipdnnBackendCreateAndDeserializeGraph_ext(hipdnnBackendDescriptor_t* descriptor, const uint8_t* serializedGraph,
                                                          size_t graphByteSize) {
    return (hipdnnStatus_t)hipdnnGo_CreateAndDeserializeGraph((u*)descriptor, (void*)serializedGraph, graphByteSize);
}
hipdnnStatus_t hipdnnBackendGetSerializedBinaryGraph_ext(hipdnnBackendDescriptor_t descriptor, size_t requestedByteSize,
                                                         size_t* graphByteSize, uint8_t* serializedGraph) {
    return (hipdnnStatus_t)hipdnnGo_GetSerializedBinaryGraph(H(descriptor), requestedByteSize, graphByteSize, serializedGraph);
}
hipdnnStatus_t hipdnnBackendGetSerializedJsonGraph_ext(hipdnnBackendDescriptor_t descriptor, size_t requestedByteSize,
                                                       size_t* graphByteSize, char* serializedJsonGraph) {
    return (hipdnnStatus_t)hipdnnGo_GetSerializedJsonGraph(H(descriptor), requestedByteSize, graphByteSize, serializedJsonGraph);
}
hipdnnStatus_t hipdnnBackendGetSerializedExecutionPlan_ext(hipdnnBackendDescriptor_t descriptor, size_t requestedByteSize,
                                                           size_t* planByteSize, uint8_t* serializedPlan) {
    return (hipdnnStatus_t)hipdnnGo_GetSerializedExecutionPlan(H(descriptor), requestedByteSize, planByteSize, serializedPlan);
}
hipdnnStatus_t hipdnnBackendCreateAndDeserializeExecutionPlan_ext(hipdnnHandle_t handle, hipdnnBackendDescriptor_t* descriptor,
                                                                  const uint8_t* serializedPlan, size_t planByteSize) {
    return (hipdnnStatus_t)hipdnnGo_CreateAndDeserializeExecutionPlan(H(handle), (u*)descriptor, (void*)serializedPlan,
                                                                      planByteSize);
}
hipdnnStatus_t hipdnnBackendGetSerializedBinaryGraphAndPlan_ext(hipdnnBackendDescriptor_t graphDescriptor,
                                                                hipdnnBackendDescriptor_t executionPlanDescriptor,
                                                                size_t requestedByteSize, size_t* blobByteSize,
                                                                uint8_t* serializedBlob) {
    return (hipdnnStatus_t)hipdnnGo_GetSerializedBinaryGraphAndPlan(H(graphDescriptor), H(executionPlanDescriptor),
                                                                    requestedByteSize, blobByteSize, serializedBlob);
}
hipdnnStatus_t hipdnnBackendGetSerializedBinaryContents_ext(const uint8_t* serializedBlob, size_t blobByteSize,
                                                            int* contentFlags) {
    return (hipdnnStatus_t)hipdnnGo_GetSerializedBinaryContents((void*)serializedBlob, blobByteSize, contentFlags);
}
hipdnnStatus_t hipdnnBackendCreateAndDeserializeJsonGraph_ext(hipdnnBackendDescriptor_t* descriptor, const char* jsonGraph,
                                                              size_t jsonByteSize) {
    return (hipdnnStatus_t)hipdnnGo_CreateAndDeserializeJsonGraph((u*)descriptor, (void*)jsonGraph, jsonByteSize);
}

void hipdnnLoggingCallback_ext(hipdnnSeverity_t severity, const char* msg) {
    hipdnnGo_LoggingCallback((int)severity, (char*)msg);
}
hipdnnStatus_t hipdnnSetEnginePluginPaths_ext(size_t numPaths, const char* const* pluginPaths,
                                              hipdnnPluginLoadingMode_ext_t loadingMode) {
    return (hipdnnStatus_t)hipdnnGo_SetEnginePluginPaths(numPaths, (char**)pluginPaths, (int)loadingMode);
}
hipdnnStatus_t hipdnnSetHeuristicPluginPaths_ext(size_t numPaths, const char* const* pluginPaths,
                                                 hipdnnPluginLoadingMode_ext_t loadingMode) {
    return (hipdnnStatus_t)hipdnnGo_SetHeuristicPluginPaths(numPaths, (char**)pluginPaths, (int)loadingMode);
}
hipdnnStatus_t hipdnnSetPluginUnloadMode_ext(hipdnnPluginUnloadingMode_ext_t unloadingMode) {
    return (hipdnnStatus_t)hipdnnGo_SetPluginUnloadMode((int)unloadingMode);
}
hipdnnStatus_t hipdnnGetLoadedEnginePluginPaths_ext(hipdnnHandle_t handle, size_t* numPluginPaths, char** pluginPaths,
                                                    size_t* maxStringLen) {
    return (hipdnnStatus_t)hipdnnGo_GetLoadedEnginePluginPaths(H(handle), numPluginPaths, pluginPaths, maxStringLen);
}
hipdnnStatus_t hipdnnSetUserLogCallback_ext(hipdnnUserLogCallback_t callback, hipdnnSeverity_t minLevel,
                                            hipdnnLogCallbackMode_t mode, hipdnnUserLogCallbackHandle_t userHandle) {
    return (hipdnnStatus_t)hipdnnGo_SetUserLogCallback(H(callback), (int)minLevel, (int)mode, H(userHandle));
}
hipdnnStatus_t hipdnnBackendSetGlobalLogLevel_ext(hipdnnSeverity_t level) {
    return (hipdnnStatus_t)hipdnnGo_SetGlobalLogLevel((int)level);
}
hipdnnStatus_t hipdnnBackendGetGlobalLogLevel_ext(hipdnnSeverity_t* level) {
    return (hipdnnStatus_t)hipdnnGo_GetGlobalLogLevel((int*)level);
}
hipdnnStatus_t hipdnnGetEngineCount_ext(hipdnnHandle_t handle, size_t* numEngines) {
    return (hipdnnStatus_t)hipdnnGo_GetEngineCount(H(handle), numEngines);
}
hipdnnStatus_t hipdnnGetEngineInfo_ext(hipdnnHandle_t handle, size_t engineIndex, int64_t* engineId, char* engineName,
                                       size_t* engineNameLen, char* pluginName, size_t* pluginNameLen, char* version,
                                       size_t* versionLen, char* type, size_t* typeLen) {
    return (hipdnnStatus_t)hipdnnGo_GetEngineInfo(H(handle), engineIndex, engineId, engineName, engineNameLen, pluginName,
                                                  pluginNameLen, version, versionLen, type, typeLen);
}
hipdnnStatus_t hipdnnGetEngineIdByName_ext(hipdnnHandle_t handle, const char* engineName, int64_t* engineId) {
    return (hipdnnStatus_t)hipdnnGo_GetEngineIdByName(H(handle), (char*)engineName, engineId);
}
hipdnnStatus_t hipdnnGetEngineNameById_ext(hipdnnHandle_t handle, int64_t engineId, char* engineName, size_t* engineNameLen) {
    return (hipdnnStatus_t)hipdnnGo_GetEngineNameById(H(handle), engineId, engineName, engineNameLen);
}
hipdnnStatus_t hipdnnGetHeuristicPolicyCount_ext(hipdnnHandle_t handle, size_t* numPolicies) {
    return (hipdnnStatus_t)hipdnnGo_GetHeuristicPolicyCount(H(handle), numPolicies);
}
hipdnnStatus_t hipdnnGetHeuristicPolicyInfo_ext(hipdnnHandle_t handle, size_t policyIndex, int64_t* policyId, char* policyName,
                                                size_t* policyNameLen, char* pluginName, size_t* pluginNameLen,
                                                char* pluginVersion, size_t* pluginVersionLen, char* apiVersion,
                                                size_t* apiVersionLen) {
    return (hipdnnStatus_t)hipdnnGo_GetHeuristicPolicyInfo(H(handle), policyIndex, policyId, policyName, policyNameLen,
                                                           pluginName, pluginNameLen, pluginVersion, pluginVersionLen, apiVersion,
                                                           apiVersionLen);
}
hipdnnStatus_t hipdnnBackendWriteEngineRankingResults_ext(hipdnnHandle_t handle, hipdnnBackendDescriptor_t graphDescriptor,
                                                          const int64_t* engineIdsInRankOrder, size_t engineIdCount,
                                                          hipdnnAutotuneCacheWriteOutcome_ext_t* outcome) {
    return (hipdnnStatus_t)hipdnnGo_WriteEngineRankingResults(H(handle), H(graphDescriptor), (int64_t*)engineIdsInRankOrder,
                                                              engineIdCount, (int*)outcome);
}
hipdnnStatus_t hipdnnGetVersion_ext(const char** version) { return (hipdnnStatus_t)hipdnnGo_GetVersion((char**)version); }
const char* hipdnnVersionString_ext(void) { return hipdnnGo_VersionString(); }
hipdnnStatus_t hipdnnGetComponentVersion_ext(hipdnnVersionKind_ext_t kind, int64_t* major, int64_t* minor, int64_t* patch) {
    return (hipdnnStatus_t)hipdnnGo_GetComponentVersion((int)kind, major, minor, patch);
}
