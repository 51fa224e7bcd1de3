/*
 * test_header_c.c - hipdnn_backend.h as a strict C99 user sees it.
 *
 * It includes nothing but the public header (which must therefore be self-contained) and is
 * compiled with -std=c99 -Wall -Wextra -Werror -pedantic. Every function is assigned to a
 * pointer whose type is written out here from the reference signatures (shared spec,
 * backend_api.md section 1), so a missing declaration, a changed parameter type or a lost
 * `const` fails the build, and a function the library does not export fails the link. At run
 * time the test checks that the library and the header come from the same build.
 */
#include <hipdnn_backend.h>

/* Taking the deprecated function's address is intended here. */
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
static hipdnnStatus_t (*volatile p_getVersion)(const char**) = hipdnnGetVersion_ext;
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

/* Core API. */
static hipdnnStatus_t (*volatile p_create)(hipdnnHandle_t*) = hipdnnCreate;
static hipdnnStatus_t (*volatile p_destroy)(hipdnnHandle_t) = hipdnnDestroy;
static hipdnnStatus_t (*volatile p_setStream)(hipdnnHandle_t, hipStream_t) = hipdnnSetStream;
static hipdnnStatus_t (*volatile p_getStream)(hipdnnHandle_t, hipStream_t*) = hipdnnGetStream;
static hipdnnStatus_t (*volatile p_createDescriptor)(hipdnnBackendDescriptorType_t,
                                                     hipdnnBackendDescriptor_t*) = hipdnnBackendCreateDescriptor;
static hipdnnStatus_t (*volatile p_destroyDescriptor)(hipdnnBackendDescriptor_t) = hipdnnBackendDestroyDescriptor;
static hipdnnStatus_t (*volatile p_execute)(hipdnnHandle_t, hipdnnBackendDescriptor_t,
                                            hipdnnBackendDescriptor_t) = hipdnnBackendExecute;
static hipdnnStatus_t (*volatile p_finalize)(hipdnnBackendDescriptor_t) = hipdnnBackendFinalize;
static hipdnnStatus_t (*volatile p_getAttribute)(hipdnnBackendDescriptor_t, hipdnnBackendAttributeName_t,
                                                 hipdnnBackendAttributeType_t, int64_t, int64_t*,
                                                 void*) = hipdnnBackendGetAttribute;
static hipdnnStatus_t (*volatile p_setAttribute)(hipdnnBackendDescriptor_t, hipdnnBackendAttributeName_t,
                                                 hipdnnBackendAttributeType_t, int64_t, const void*) = hipdnnBackendSetAttribute;
static const char* (*volatile p_getErrorString)(hipdnnStatus_t) = hipdnnGetErrorString;
static void (*volatile p_getLastErrorString)(char*, size_t) = hipdnnGetLastErrorString;

/* Extension API. */
static void (*volatile p_peekLastErrorString)(char*, size_t) = hipdnnPeekLastErrorString_ext;
static hipdnnStatus_t (*volatile p_deserializeGraph)(hipdnnBackendDescriptor_t*, const uint8_t*,
                                                     size_t) = hipdnnBackendCreateAndDeserializeGraph_ext;
static hipdnnStatus_t (*volatile p_serializeGraph)(hipdnnBackendDescriptor_t, size_t, size_t*,
                                                   uint8_t*) = hipdnnBackendGetSerializedBinaryGraph_ext;
static hipdnnStatus_t (*volatile p_serializeJsonGraph)(hipdnnBackendDescriptor_t, size_t, size_t*,
                                                       char*) = hipdnnBackendGetSerializedJsonGraph_ext;
static hipdnnStatus_t (*volatile p_serializePlan)(hipdnnBackendDescriptor_t, size_t, size_t*,
                                                  uint8_t*) = hipdnnBackendGetSerializedExecutionPlan_ext;
static hipdnnStatus_t (*volatile p_deserializePlan)(hipdnnHandle_t, hipdnnBackendDescriptor_t*, const uint8_t*,
                                                    size_t) = hipdnnBackendCreateAndDeserializeExecutionPlan_ext;
static hipdnnStatus_t (*volatile p_serializeGraphAndPlan)(hipdnnBackendDescriptor_t, hipdnnBackendDescriptor_t, size_t, size_t*,
                                                          uint8_t*) = hipdnnBackendGetSerializedBinaryGraphAndPlan_ext;
static hipdnnStatus_t (*volatile p_serializedContents)(const uint8_t*, size_t,
                                                       int*) = hipdnnBackendGetSerializedBinaryContents_ext;
static hipdnnStatus_t (*volatile p_deserializeJsonGraph)(hipdnnBackendDescriptor_t*, const char*,
                                                         size_t) = hipdnnBackendCreateAndDeserializeJsonGraph_ext;
static void (*volatile p_loggingCallback)(hipdnnSeverity_t, const char*) = hipdnnLoggingCallback_ext;
static hipdnnStatus_t (*volatile p_setEnginePluginPaths)(size_t, const char* const*,
                                                         hipdnnPluginLoadingMode_ext_t) = hipdnnSetEnginePluginPaths_ext;
static hipdnnStatus_t (*volatile p_setHeuristicPluginPaths)(size_t, const char* const*,
                                                            hipdnnPluginLoadingMode_ext_t) = hipdnnSetHeuristicPluginPaths_ext;
static hipdnnStatus_t (*volatile p_setPluginUnloadMode)(hipdnnPluginUnloadingMode_ext_t) = hipdnnSetPluginUnloadMode_ext;
static hipdnnStatus_t (*volatile p_getLoadedEnginePluginPaths)(hipdnnHandle_t, size_t*, char**,
                                                               size_t*) = hipdnnGetLoadedEnginePluginPaths_ext;
static hipdnnStatus_t (*volatile p_setUserLogCallback)(hipdnnUserLogCallback_t, hipdnnSeverity_t, hipdnnLogCallbackMode_t,
                                                       hipdnnUserLogCallbackHandle_t) = hipdnnSetUserLogCallback_ext;
static hipdnnStatus_t (*volatile p_setGlobalLogLevel)(hipdnnSeverity_t) = hipdnnBackendSetGlobalLogLevel_ext;
static hipdnnStatus_t (*volatile p_getGlobalLogLevel)(hipdnnSeverity_t*) = hipdnnBackendGetGlobalLogLevel_ext;
static hipdnnStatus_t (*volatile p_getEngineCount)(hipdnnHandle_t, size_t*) = hipdnnGetEngineCount_ext;
static hipdnnStatus_t (*volatile p_getEngineInfo)(hipdnnHandle_t, size_t, int64_t*, char*, size_t*, char*, size_t*, char*,
                                                  size_t*, char*, size_t*) = hipdnnGetEngineInfo_ext;
static hipdnnStatus_t (*volatile p_getEngineIdByName)(hipdnnHandle_t, const char*, int64_t*) = hipdnnGetEngineIdByName_ext;
static hipdnnStatus_t (*volatile p_getEngineNameById)(hipdnnHandle_t, int64_t, char*, size_t*) = hipdnnGetEngineNameById_ext;
static hipdnnStatus_t (*volatile p_getHeuristicPolicyCount)(hipdnnHandle_t, size_t*) = hipdnnGetHeuristicPolicyCount_ext;
static hipdnnStatus_t (*volatile p_getHeuristicPolicyInfo)(hipdnnHandle_t, size_t, int64_t*, char*, size_t*, char*, size_t*,
                                                           char*, size_t*, char*, size_t*) = hipdnnGetHeuristicPolicyInfo_ext;
static hipdnnStatus_t (*volatile p_writeRanking)(hipdnnHandle_t, hipdnnBackendDescriptor_t, const int64_t*, size_t,
                                                 hipdnnAutotuneCacheWriteOutcome_ext_t*) =
    hipdnnBackendWriteEngineRankingResults_ext;
static const char* (*volatile p_versionString)(void) = hipdnnVersionString_ext;

/* Project extension. */
static hipdnnStatus_t (*volatile p_getComponentVersion)(hipdnnVersionKind_ext_t, int64_t*, int64_t*,
                                                        int64_t*) = hipdnnGetComponentVersion_ext;

int main(void) {
    int failures = 0;
    size_t i;
    const char* running;
    const char* compiled = HIPDNN_BACKEND_VERSION_STRING;
    int64_t major = -1;
    int64_t minor = -1;
    int64_t patch = -1;

    /* Reading each volatile pointer keeps its relocation, so every function must be resolved by
     * the dynamic linker (a symbol missing from the library fails the link or the load). */
    failures |= p_getVersion == NULL;
    failures |= p_create == NULL;
    failures |= p_destroy == NULL;
    failures |= p_setStream == NULL;
    failures |= p_getStream == NULL;
    failures |= p_createDescriptor == NULL;
    failures |= p_destroyDescriptor == NULL;
    failures |= p_execute == NULL;
    failures |= p_finalize == NULL;
    failures |= p_getAttribute == NULL;
    failures |= p_setAttribute == NULL;
    failures |= p_getErrorString == NULL;
    failures |= p_getLastErrorString == NULL;
    failures |= p_peekLastErrorString == NULL;
    failures |= p_deserializeGraph == NULL;
    failures |= p_serializeGraph == NULL;
    failures |= p_serializeJsonGraph == NULL;
    failures |= p_serializePlan == NULL;
    failures |= p_deserializePlan == NULL;
    failures |= p_serializeGraphAndPlan == NULL;
    failures |= p_serializedContents == NULL;
    failures |= p_deserializeJsonGraph == NULL;
    failures |= p_loggingCallback == NULL;
    failures |= p_setEnginePluginPaths == NULL;
    failures |= p_setHeuristicPluginPaths == NULL;
    failures |= p_setPluginUnloadMode == NULL;
    failures |= p_getLoadedEnginePluginPaths == NULL;
    failures |= p_setUserLogCallback == NULL;
    failures |= p_setGlobalLogLevel == NULL;
    failures |= p_getGlobalLogLevel == NULL;
    failures |= p_getEngineCount == NULL;
    failures |= p_getEngineInfo == NULL;
    failures |= p_getEngineIdByName == NULL;
    failures |= p_getEngineNameById == NULL;
    failures |= p_getHeuristicPolicyCount == NULL;
    failures |= p_getHeuristicPolicyInfo == NULL;
    failures |= p_writeRanking == NULL;
    failures |= p_versionString == NULL;
    failures |= p_getComponentVersion == NULL;

    /* The library that runs is the one this header was installed with. */
    running = p_versionString();
    if (running == NULL) {
        failures |= 2;
    } else {
        for (i = 0; compiled[i] != '\0' && running[i] == compiled[i]; i++) {
        }
        if (running[i] != compiled[i])
            failures |= 4;
    }
    if (p_getComponentVersion(HIPDNN_VERSION_KIND_C_ABI_EXT, &major, &minor, &patch) != HIPDNN_STATUS_SUCCESS
        || major != HIPDNN_BACKEND_C_ABI_VERSION_MAJOR || minor != HIPDNN_BACKEND_C_ABI_VERSION_MINOR
        || patch != HIPDNN_BACKEND_C_ABI_VERSION_PATCH) {
        failures |= 8;
    }

    /* Exit status: 1 a NULL function pointer, 2 no version string, 4 the version string differs
     * from the header's, 8 the C ABI version differs from the header's; 0 when all pass. */
    return failures;
}
