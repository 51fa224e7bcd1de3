/*
 * test_header_cpp.cpp - hipdnn_backend.h as a C++17 user sees it.
 *
 * It includes nothing but the public header and is compiled with -Wall -Wextra -Werror
 * -pedantic (test_header_cpp.cmake). Each function's exact type is compared at compile time with
 * the reference signature (shared spec, backend_api.md section 1), const-ness included; each is
 * then read through a volatile pointer so the program links against the C names (a missing
 * extern "C" or export fails the link). At run time the library must report the version numbers
 * of this header.
 */
#include <hipdnn_backend.h>

namespace {

template <typename A, typename B>
struct same_type {
    static constexpr bool value = false;
};
template <typename A>
struct same_type<A, A> {
    static constexpr bool value = true;
};

// X(function, expected pointer type) for every function of the interface.
#define HIPDNN_TEST_FUNCTIONS(X)                                                                                                \
    X(hipdnnCreate, hipdnnStatus_t (*)(hipdnnHandle_t*))                                                                        \
    X(hipdnnDestroy, hipdnnStatus_t (*)(hipdnnHandle_t))                                                                        \
    X(hipdnnSetStream, hipdnnStatus_t (*)(hipdnnHandle_t, hipStream_t))                                                         \
    X(hipdnnGetStream, hipdnnStatus_t (*)(hipdnnHandle_t, hipStream_t*))                                                        \
    X(hipdnnBackendCreateDescriptor, hipdnnStatus_t (*)(hipdnnBackendDescriptorType_t, hipdnnBackendDescriptor_t*))             \
    X(hipdnnBackendDestroyDescriptor, hipdnnStatus_t (*)(hipdnnBackendDescriptor_t))                                            \
    X(hipdnnBackendExecute, hipdnnStatus_t (*)(hipdnnHandle_t, hipdnnBackendDescriptor_t, hipdnnBackendDescriptor_t))           \
    X(hipdnnBackendFinalize, hipdnnStatus_t (*)(hipdnnBackendDescriptor_t))                                                     \
    X(hipdnnBackendGetAttribute, hipdnnStatus_t (*)(hipdnnBackendDescriptor_t, hipdnnBackendAttributeName_t,                    \
                                                    hipdnnBackendAttributeType_t, int64_t, int64_t*, void*))                    \
    X(hipdnnBackendSetAttribute, hipdnnStatus_t (*)(hipdnnBackendDescriptor_t, hipdnnBackendAttributeName_t,                    \
                                                    hipdnnBackendAttributeType_t, int64_t, const void*))                        \
    X(hipdnnGetErrorString, const char* (*)(hipdnnStatus_t))                                                                    \
    X(hipdnnGetLastErrorString, void (*)(char*, size_t))                                                                        \
    X(hipdnnPeekLastErrorString_ext, void (*)(char*, size_t))                                                                   \
    X(hipdnnBackendCreateAndDeserializeGraph_ext, hipdnnStatus_t (*)(hipdnnBackendDescriptor_t*, const uint8_t*, size_t))       \
    X(hipdnnBackendGetSerializedBinaryGraph_ext, hipdnnStatus_t (*)(hipdnnBackendDescriptor_t, size_t, size_t*, uint8_t*))      \
    X(hipdnnBackendGetSerializedJsonGraph_ext, hipdnnStatus_t (*)(hipdnnBackendDescriptor_t, size_t, size_t*, char*))           \
    X(hipdnnBackendGetSerializedExecutionPlan_ext, hipdnnStatus_t (*)(hipdnnBackendDescriptor_t, size_t, size_t*, uint8_t*))    \
    X(hipdnnBackendCreateAndDeserializeExecutionPlan_ext,                                                                       \
      hipdnnStatus_t (*)(hipdnnHandle_t, hipdnnBackendDescriptor_t*, const uint8_t*, size_t))                                   \
    X(hipdnnBackendGetSerializedBinaryGraphAndPlan_ext,                                                                         \
      hipdnnStatus_t (*)(hipdnnBackendDescriptor_t, hipdnnBackendDescriptor_t, size_t, size_t*, uint8_t*))                      \
    X(hipdnnBackendGetSerializedBinaryContents_ext, hipdnnStatus_t (*)(const uint8_t*, size_t, int*))                           \
    X(hipdnnBackendCreateAndDeserializeJsonGraph_ext, hipdnnStatus_t (*)(hipdnnBackendDescriptor_t*, const char*, size_t))      \
    X(hipdnnLoggingCallback_ext, void (*)(hipdnnSeverity_t, const char*))                                                       \
    X(hipdnnSetEnginePluginPaths_ext, hipdnnStatus_t (*)(size_t, const char* const*, hipdnnPluginLoadingMode_ext_t))            \
    X(hipdnnSetHeuristicPluginPaths_ext, hipdnnStatus_t (*)(size_t, const char* const*, hipdnnPluginLoadingMode_ext_t))         \
    X(hipdnnSetPluginUnloadMode_ext, hipdnnStatus_t (*)(hipdnnPluginUnloadingMode_ext_t))                                       \
    X(hipdnnGetLoadedEnginePluginPaths_ext, hipdnnStatus_t (*)(hipdnnHandle_t, size_t*, char**, size_t*))                       \
    X(hipdnnSetUserLogCallback_ext,                                                                                             \
      hipdnnStatus_t (*)(hipdnnUserLogCallback_t, hipdnnSeverity_t, hipdnnLogCallbackMode_t, hipdnnUserLogCallbackHandle_t))    \
    X(hipdnnBackendSetGlobalLogLevel_ext, hipdnnStatus_t (*)(hipdnnSeverity_t))                                                 \
    X(hipdnnBackendGetGlobalLogLevel_ext, hipdnnStatus_t (*)(hipdnnSeverity_t*))                                                \
    X(hipdnnGetEngineCount_ext, hipdnnStatus_t (*)(hipdnnHandle_t, size_t*))                                                    \
    X(hipdnnGetEngineInfo_ext,                                                                                                  \
      hipdnnStatus_t (*)(hipdnnHandle_t, size_t, int64_t*, char*, size_t*, char*, size_t*, char*, size_t*, char*, size_t*))     \
    X(hipdnnGetEngineIdByName_ext, hipdnnStatus_t (*)(hipdnnHandle_t, const char*, int64_t*))                                   \
    X(hipdnnGetEngineNameById_ext, hipdnnStatus_t (*)(hipdnnHandle_t, int64_t, char*, size_t*))                                 \
    X(hipdnnGetHeuristicPolicyCount_ext, hipdnnStatus_t (*)(hipdnnHandle_t, size_t*))                                           \
    X(hipdnnGetHeuristicPolicyInfo_ext,                                                                                         \
      hipdnnStatus_t (*)(hipdnnHandle_t, size_t, int64_t*, char*, size_t*, char*, size_t*, char*, size_t*, char*, size_t*))     \
    X(hipdnnBackendWriteEngineRankingResults_ext, hipdnnStatus_t (*)(hipdnnHandle_t, hipdnnBackendDescriptor_t, const int64_t*, \
                                                                     size_t, hipdnnAutotuneCacheWriteOutcome_ext_t*))           \
    X(hipdnnGetVersion_ext, hipdnnStatus_t (*)(const char**))                                                                   \
    X(hipdnnVersionString_ext, const char* (*)(void))                                                                           \
    X(hipdnnGetComponentVersion_ext, hipdnnStatus_t (*)(hipdnnVersionKind_ext_t, int64_t*, int64_t*, int64_t*))

// Taking hipdnnGetVersion_ext's address is intended here.
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif

#define HIPDNN_TEST_DECLARE(fn, ...)                                                        \
    static_assert(same_type<decltype(&fn), __VA_ARGS__>::value, #fn " has the wrong type"); \
    decltype(&fn) volatile p_##fn = &fn;
HIPDNN_TEST_FUNCTIONS(HIPDNN_TEST_DECLARE)
#undef HIPDNN_TEST_DECLARE

#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

// The C++-only defaults of the plugin mode headers.
static_assert(same_type<decltype(HIPDNN_DEFAULT_PLUGIN_LOADING_MODE), const hipdnnPluginLoadingMode_ext_t>::value,
              "HIPDNN_DEFAULT_PLUGIN_LOADING_MODE type");
static_assert(HIPDNN_DEFAULT_PLUGIN_LOADING_MODE == HIPDNN_PLUGIN_LOADING_ADDITIVE, "HIPDNN_DEFAULT_PLUGIN_LOADING_MODE value");
static_assert(same_type<decltype(HIPDNN_DEFAULT_PLUGIN_UNLOADING_MODE), const hipdnnPluginUnloadingMode_ext_t>::value,
              "HIPDNN_DEFAULT_PLUGIN_UNLOADING_MODE type");
static_assert(HIPDNN_DEFAULT_PLUGIN_UNLOADING_MODE == HIPDNN_PLUGIN_UNLOAD_LAZY, "HIPDNN_DEFAULT_PLUGIN_UNLOADING_MODE value");

} // namespace

int main() {
    int failures = 0;

    // Reading each volatile pointer keeps its relocation, so every function must be resolved.
#define HIPDNN_TEST_READ(fn, ...) failures |= p_##fn == nullptr;
    HIPDNN_TEST_FUNCTIONS(HIPDNN_TEST_READ)
#undef HIPDNN_TEST_READ

    // The library that runs is the one this header was installed with.
    const char* running = p_hipdnnVersionString_ext();
    const char* compiled = HIPDNN_BACKEND_VERSION_STRING;
    if (running == nullptr) {
        failures |= 2;
    } else {
        size_t i = 0;
        while (compiled[i] != '\0' && running[i] == compiled[i]) {
            i++;
        }
        if (running[i] != compiled[i])
            failures |= 4;
    }
    int64_t major = -1;
    int64_t minor = -1;
    int64_t patch = -1;
    if (p_hipdnnGetComponentVersion_ext(HIPDNN_VERSION_KIND_C_ABI_EXT, &major, &minor, &patch) != HIPDNN_STATUS_SUCCESS
        || major != HIPDNN_BACKEND_C_ABI_VERSION_MAJOR || minor != HIPDNN_BACKEND_C_ABI_VERSION_MINOR
        || patch != HIPDNN_BACKEND_C_ABI_VERSION_PATCH) {
        failures |= 8;
    }

    // Exit status: 1 a NULL function pointer, 2 no version string, 4 the version string differs
    // from the header's, 8 the C ABI version differs from the header's; 0 when all pass.
    return failures;
}
