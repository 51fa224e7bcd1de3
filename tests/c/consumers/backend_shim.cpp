// A backend shim in the style of hipDNNEP's: the consumer links this library instead of the
// backend; every export is a forwarder that opens the backend on first use with
// RTLD_NOW | RTLD_LOCAL, first from the absolute path baked in at build time
// (HIPDNN_SHIM_BAKED_PATH), then by the bare name through the loader's search path. It never
// closes it. Without a backend, status calls return INTERNAL_ERROR and string calls a marker.
//
// Each forwarder is declared by the public header, so the compiler checks its signature.
#include <dlfcn.h>

#include <cstdio>
#include <type_traits>

#include <hipdnn_backend.h>

#ifndef HIPDNN_SHIM_BAKED_PATH
#error "HIPDNN_SHIM_BAKED_PATH must name the backend's absolute path"
#endif

namespace {

void* backend() {
    static void* lib = [] {
        void* h = dlopen(HIPDNN_SHIM_BAKED_PATH, RTLD_NOW | RTLD_LOCAL);
        if (h == nullptr)
            h = dlopen("libhipdnn_backend.so", RTLD_NOW | RTLD_LOCAL);
        if (h == nullptr)
            std::fprintf(stderr, "hipdnn shim: cannot open the backend: %s\n", dlerror());
        return h;
    }();
    return lib;
}

void* symbol(const char* name) {
    void* lib = backend();
    return lib != nullptr ? dlsym(lib, name) : nullptr;
}

template <class R>
R unavailable() {
    if constexpr (std::is_same_v<R, hipdnnStatus_t>)
        return HIPDNN_STATUS_INTERNAL_ERROR;
    else if constexpr (std::is_same_v<R, const char*>)
        return "(hipdnn_backend not loaded)";
    else
        return R();
}

} // namespace

#define FORWARD(R, name, params, args)                                \
    extern "C" __attribute__((visibility("default"))) R name params { \
        static void* const sym = symbol(#name);                       \
        if (sym == nullptr)                                           \
            return unavailable<R>();                                  \
        return reinterpret_cast<decltype(&name)>(sym) args;           \
    }

FORWARD(hipdnnStatus_t, hipdnnCreate, (hipdnnHandle_t * handle), (handle))
FORWARD(hipdnnStatus_t, hipdnnDestroy, (hipdnnHandle_t handle), (handle))
FORWARD(hipdnnStatus_t, hipdnnSetStream, (hipdnnHandle_t handle, hipStream_t streamId), (handle, streamId))
FORWARD(hipdnnStatus_t, hipdnnGetStream, (hipdnnHandle_t handle, hipStream_t* streamId), (handle, streamId))
FORWARD(hipdnnStatus_t, hipdnnBackendCreateDescriptor,
        (hipdnnBackendDescriptorType_t descriptorType, hipdnnBackendDescriptor_t* descriptor), (descriptorType, descriptor))
FORWARD(hipdnnStatus_t, hipdnnBackendDestroyDescriptor, (hipdnnBackendDescriptor_t descriptor), (descriptor))
FORWARD(hipdnnStatus_t, hipdnnBackendExecute,
        (hipdnnHandle_t handle, hipdnnBackendDescriptor_t executionPlan, hipdnnBackendDescriptor_t variantPack),
        (handle, executionPlan, variantPack))
FORWARD(hipdnnStatus_t, hipdnnBackendFinalize, (hipdnnBackendDescriptor_t descriptor), (descriptor))
FORWARD(hipdnnStatus_t, hipdnnBackendGetAttribute,
        (hipdnnBackendDescriptor_t descriptor, hipdnnBackendAttributeName_t attributeName,
         hipdnnBackendAttributeType_t attributeType, int64_t requestedElementCount, int64_t* elementCount, void* arrayOfElements),
        (descriptor, attributeName, attributeType, requestedElementCount, elementCount, arrayOfElements))
FORWARD(hipdnnStatus_t, hipdnnBackendSetAttribute,
        (hipdnnBackendDescriptor_t descriptor, hipdnnBackendAttributeName_t attributeName,
         hipdnnBackendAttributeType_t attributeType, int64_t elementCount, const void* arrayOfElements),
        (descriptor, attributeName, attributeType, elementCount, arrayOfElements))
FORWARD(const char*, hipdnnGetErrorString, (hipdnnStatus_t status), (status))
FORWARD(void, hipdnnGetLastErrorString, (char* message, size_t maxSize), (message, maxSize))
FORWARD(void, hipdnnPeekLastErrorString_ext, (char* message, size_t maxSize), (message, maxSize))
FORWARD(hipdnnStatus_t, hipdnnBackendCreateAndDeserializeGraph_ext,
        (hipdnnBackendDescriptor_t * descriptor, const uint8_t* serializedGraph, size_t graphByteSize),
        (descriptor, serializedGraph, graphByteSize))
FORWARD(hipdnnStatus_t, hipdnnBackendGetSerializedBinaryGraph_ext,
        (hipdnnBackendDescriptor_t descriptor, size_t requestedByteSize, size_t* graphByteSize, uint8_t* serializedGraph),
        (descriptor, requestedByteSize, graphByteSize, serializedGraph))
FORWARD(hipdnnStatus_t, hipdnnBackendGetSerializedJsonGraph_ext,
        (hipdnnBackendDescriptor_t descriptor, size_t requestedByteSize, size_t* graphByteSize, char* serializedJsonGraph),
        (descriptor, requestedByteSize, graphByteSize, serializedJsonGraph))
FORWARD(hipdnnStatus_t, hipdnnBackendGetSerializedExecutionPlan_ext,
        (hipdnnBackendDescriptor_t descriptor, size_t requestedByteSize, size_t* planByteSize, uint8_t* serializedPlan),
        (descriptor, requestedByteSize, planByteSize, serializedPlan))
FORWARD(hipdnnStatus_t, hipdnnBackendCreateAndDeserializeExecutionPlan_ext,
        (hipdnnHandle_t handle, hipdnnBackendDescriptor_t* descriptor, const uint8_t* serializedPlan, size_t planByteSize),
        (handle, descriptor, serializedPlan, planByteSize))
FORWARD(hipdnnStatus_t, hipdnnBackendGetSerializedBinaryGraphAndPlan_ext,
        (hipdnnBackendDescriptor_t graphDescriptor, hipdnnBackendDescriptor_t executionPlanDescriptor, size_t requestedByteSize,
         size_t* blobByteSize, uint8_t* serializedBlob),
        (graphDescriptor, executionPlanDescriptor, requestedByteSize, blobByteSize, serializedBlob))
FORWARD(hipdnnStatus_t, hipdnnBackendGetSerializedBinaryContents_ext,
        (const uint8_t* serializedBlob, size_t blobByteSize, int* contentFlags), (serializedBlob, blobByteSize, contentFlags))
FORWARD(hipdnnStatus_t, hipdnnBackendCreateAndDeserializeJsonGraph_ext,
        (hipdnnBackendDescriptor_t * descriptor, const char* jsonGraph, size_t jsonByteSize),
        (descriptor, jsonGraph, jsonByteSize))
FORWARD(hipdnnStatus_t, hipdnnSetEnginePluginPaths_ext,
        (size_t numPaths, const char* const* pluginPaths, hipdnnPluginLoadingMode_ext_t loadingMode),
        (numPaths, pluginPaths, loadingMode))
FORWARD(hipdnnStatus_t, hipdnnSetHeuristicPluginPaths_ext,
        (size_t numPaths, const char* const* pluginPaths, hipdnnPluginLoadingMode_ext_t loadingMode),
        (numPaths, pluginPaths, loadingMode))
FORWARD(hipdnnStatus_t, hipdnnSetPluginUnloadMode_ext, (hipdnnPluginUnloadingMode_ext_t unloadingMode), (unloadingMode))
FORWARD(hipdnnStatus_t, hipdnnGetLoadedEnginePluginPaths_ext,
        (hipdnnHandle_t handle, size_t* numPluginPaths, char** pluginPaths, size_t* maxStringLen),
        (handle, numPluginPaths, pluginPaths, maxStringLen))
FORWARD(hipdnnStatus_t, hipdnnGetEngineCount_ext, (hipdnnHandle_t handle, size_t* numEngines), (handle, numEngines))
FORWARD(hipdnnStatus_t, hipdnnGetEngineInfo_ext,
        (hipdnnHandle_t handle, size_t engineIndex, int64_t* engineId, char* engineName, size_t* engineNameLen, char* pluginName,
         size_t* pluginNameLen, char* version, size_t* versionLen, char* type, size_t* typeLen),
        (handle, engineIndex, engineId, engineName, engineNameLen, pluginName, pluginNameLen, version, versionLen, type, typeLen))
FORWARD(hipdnnStatus_t, hipdnnGetEngineIdByName_ext, (hipdnnHandle_t handle, const char* engineName, int64_t* engineId),
        (handle, engineName, engineId))
FORWARD(hipdnnStatus_t, hipdnnGetEngineNameById_ext,
        (hipdnnHandle_t handle, int64_t engineId, char* engineName, size_t* engineNameLen),
        (handle, engineId, engineName, engineNameLen))
FORWARD(hipdnnStatus_t, hipdnnGetHeuristicPolicyCount_ext, (hipdnnHandle_t handle, size_t* numPolicies), (handle, numPolicies))
FORWARD(hipdnnStatus_t, hipdnnGetHeuristicPolicyInfo_ext,
        (hipdnnHandle_t handle, size_t policyIndex, int64_t* policyId, char* policyName, size_t* policyNameLen, char* pluginName,
         size_t* pluginNameLen, char* pluginVersion, size_t* pluginVersionLen, char* apiVersion, size_t* apiVersionLen),
        (handle, policyIndex, policyId, policyName, policyNameLen, pluginName, pluginNameLen, pluginVersion, pluginVersionLen,
         apiVersion, apiVersionLen))
FORWARD(void, hipdnnLoggingCallback_ext, (hipdnnSeverity_t severity, const char* msg), (severity, msg))
FORWARD(hipdnnStatus_t, hipdnnSetUserLogCallback_ext,
        (hipdnnUserLogCallback_t callback, hipdnnSeverity_t minLevel, hipdnnLogCallbackMode_t mode,
         hipdnnUserLogCallbackHandle_t userHandle),
        (callback, minLevel, mode, userHandle))
FORWARD(hipdnnStatus_t, hipdnnBackendSetGlobalLogLevel_ext, (hipdnnSeverity_t level), (level))
FORWARD(hipdnnStatus_t, hipdnnBackendGetGlobalLogLevel_ext, (hipdnnSeverity_t * level), (level))
FORWARD(hipdnnStatus_t, hipdnnBackendWriteEngineRankingResults_ext,
        (hipdnnHandle_t handle, hipdnnBackendDescriptor_t graphDescriptor, const int64_t* engineIdsInRankOrder,
         size_t engineIdCount, hipdnnAutotuneCacheWriteOutcome_ext_t* outcome),
        (handle, graphDescriptor, engineIdsInRankOrder, engineIdCount, outcome))
FORWARD(hipdnnStatus_t, hipdnnGetVersion_ext, (const char** version), (version))
FORWARD(const char*, hipdnnVersionString_ext, (void), ())
FORWARD(hipdnnStatus_t, hipdnnGetComponentVersion_ext,
        (hipdnnVersionKind_ext_t kind, int64_t* major, int64_t* minor, int64_t* patch), (kind, major, minor, patch))
