/* Version negotiation as AMD's runtime-loading frontend does it (spec backend_api.md §8.1,
 * usage_and_tests.md §3), in a process that is not linked against the backend and has not
 * loaded it: dlopen <dir>/libhipdnn_backend.so, dlsym every symbol the frontend's wrapper
 * resolves and every function of hipdnn_backend.h, then apply the version gate:
 * hipdnnVersionString_ext() parsed with "%d.%d.%d" must have the MAJOR the frontend was
 * compiled for. Also checks hipdnnGetComponentVersion_ext against the header macros and the
 * plugin SDK macros (engine_api_version.h, heuristic_api_version.h), and drives a short
 * session through the resolved pointers only.
 *
 *   consumer_frontend LIBDIR */
#define _GNU_SOURCE /* dladdr, RTLD_NOLOAD */
#include <dlfcn.h>
#include <stdbool.h>

#include <hipdnn_backend.h>
#include <hipdnn_plugin_sdk/engine_api_version.h>
#include <hipdnn_plugin_sdk/heuristic_api_version.h>

#include "header_functions.h"

/* testutil.h's checks report the backend's last error; here they reach it through pointers
 * resolved from the opened library (the names are macros from this point on). */
static void (*fe_peek_last_error)(char*, size_t);
static const char* (*fe_error_string)(hipdnnStatus_t);
static void (*fe_get_last_error)(char*, size_t);
#define hipdnnPeekLastErrorString_ext (*fe_peek_last_error)
#define hipdnnGetErrorString (*fe_error_string)
#define hipdnnGetLastErrorString (*fe_get_last_error)
#include "testutil.h"

/* The frontend major this library serves. AMD's frontend refuses a backend whose MAJOR differs
 * from its own compiled HIPDNN_FRONTEND_VERSION_MAJOR; version.json (0.x) is what this project
 * pairs with. */
#define FRONTEND_MAJOR_SERVED 0

/* Every symbol the runtime-loading frontend resolves at wrapper construction (§8.1); a missing
 * one would make that call return HIPDNN_STATUS_VERSION_MISMATCH. */
static const char* const frontend_symbols[] = {
    "hipdnnCreate",
    "hipdnnDestroy",
    "hipdnnSetStream",
    "hipdnnGetStream",
    "hipdnnBackendCreateDescriptor",
    "hipdnnBackendDestroyDescriptor",
    "hipdnnBackendExecute",
    "hipdnnBackendFinalize",
    "hipdnnBackendGetAttribute",
    "hipdnnBackendSetAttribute",
    "hipdnnGetErrorString",
    "hipdnnGetLastErrorString",
    "hipdnnVersionString_ext",
    "hipdnnBackendCreateAndDeserializeGraph_ext",
    "hipdnnBackendGetSerializedBinaryGraph_ext",
    "hipdnnBackendGetSerializedJsonGraph_ext",
    "hipdnnBackendCreateAndDeserializeJsonGraph_ext",
    "hipdnnBackendGetSerializedExecutionPlan_ext",
    "hipdnnBackendCreateAndDeserializeExecutionPlan_ext",
    "hipdnnBackendGetSerializedBinaryGraphAndPlan_ext",
    "hipdnnBackendGetSerializedBinaryContents_ext",
    "hipdnnLoggingCallback_ext",
    "hipdnnSetEnginePluginPaths_ext",
    "hipdnnSetHeuristicPluginPaths_ext",
    "hipdnnGetLoadedEnginePluginPaths_ext",
    "hipdnnGetEngineNameById_ext",
    "hipdnnGetHeuristicPolicyCount_ext",
    "hipdnnGetHeuristicPolicyInfo_ext",
    "hipdnnSetUserLogCallback_ext",
    "hipdnnBackendSetGlobalLogLevel_ext",
    "hipdnnBackendGetGlobalLogLevel_ext",
    "hipdnnBackendWriteEngineRankingResults_ext",
};

static void* lib;

/* dlsym into a typed function pointer (ISO C has no object -> function pointer cast). */
#define RESOLVE(var, name)                                       \
    do {                                                         \
        void* r_ = dlsym(lib, name);                             \
        check_count++;                                           \
        if (r_ == NULL)                                          \
            CHECK_FAIL("dlsym(%s) failed: %s", name, dlerror()); \
        memcpy(&(var), &r_, sizeof(var));                        \
    } while (0)

/* The frontend's gate: "%d.%d.%d" must parse and the MAJOR must be the frontend's. */
static bool frontend_accepts(const char* v, int frontend_major) {
    int major = -1, minor = -1, patch = -1;
    if (v == NULL || sscanf(v, "%d.%d.%d", &major, &minor, &patch) != 3)
        return false;
    return major == frontend_major;
}

static void check_triple(const char* what, hipdnnStatus_t (*get)(hipdnnVersionKind_ext_t, int64_t*, int64_t*, int64_t*),
                         hipdnnVersionKind_ext_t kind, long long a, long long b, long long c) {
    int64_t x = -1, y = -1, z = -1;
    CHECK_OK(get(kind, &x, &y, &z));
    check_count++;
    if (x != a || y != b || z != c)
        CHECK_FAIL("%s: the library reports %lld.%lld.%lld, the headers say %lld.%lld.%lld", what, (long long)x, (long long)y,
                (long long)z, a, b, c);
}

/* A "MAJOR.MINOR.PATCH" macro string equals the three macros. */
static void check_string_macro(const char* what, const char* s, int a, int b, int c) {
    int x = -1, y = -1, z = -1, used = 0;
    check_count++;
    if (sscanf(s, "%d.%d.%d%n", &x, &y, &z, &used) != 3 || s[used] != '\0' || x != a || y != b || z != c)
        CHECK_FAIL("%s is \"%s\", the numeric macros say %d.%d.%d", what, s, a, b, c);
}

/* The names of every function the installed header declares. */
static const char* const header_functions[] = {
#define X(name) #name,
    HIPDNN_HEADER_FUNCTIONS(X)
#undef X
};

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: consumer_frontend LIBDIR\n");
        return 2;
    }
    /* 1. Open <dir>/libhipdnn_backend.so, the name the frontend's directory search asks for, in
     * a process that has not loaded it (dlopen of a loaded library proves nothing). */
    char path[4096];
    snprintf(path, sizeof path, "%s/libhipdnn_backend.so", argv[1]);
    if (dlopen(path, RTLD_NOW | RTLD_NOLOAD) != NULL) {
        fprintf(stderr, "consumer_frontend: the backend is already loaded\n");
        return 1;
    }
    lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        fprintf(stderr, "consumer_frontend: dlopen(%s): %s\n", path, dlerror());
        return 1;
    }
    RESOLVE(fe_peek_last_error, "hipdnnPeekLastErrorString_ext");
    RESOLVE(fe_error_string, "hipdnnGetErrorString");
    RESOLVE(fe_get_last_error, "hipdnnGetLastErrorString");
    if (fe_peek_last_error == NULL || fe_error_string == NULL || fe_get_last_error == NULL)
        return check_finish("consumer_frontend");
    /* The soname names the same library. */
    char soname[4096];
    snprintf(soname, sizeof soname, "%s/libhipdnn_backend.so.%d", argv[1], HIPDNN_BACKEND_VERSION_MAJOR);
    void* by_soname = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    check_count++;
    if (by_soname != lib)
        CHECK_FAIL("dlopen(%s) = %p, want the opened library %p", soname, by_soname, lib);
    if (by_soname)
        dlclose(by_soname);
    Dl_info self;
    void* anchor = dlsym(lib, "hipdnnVersionString_ext");
    if (anchor == NULL || dladdr(anchor, &self) == 0) {
        CHECK_FAIL("dladdr cannot place hipdnnVersionString_ext");
        return check_finish("consumer_frontend");
    }

    /* 2. Every frontend symbol and every header function resolves, to this library. */
    for (size_t i = 0; i < sizeof frontend_symbols / sizeof frontend_symbols[0]; i++) {
        void* s = dlsym(lib, frontend_symbols[i]);
        Dl_info where;
        check_count++;
        if (s == NULL)
            CHECK_FAIL("the frontend resolves %s; dlsym: %s", frontend_symbols[i], dlerror());
        else if (dladdr(s, &where) == 0 || where.dli_fbase != self.dli_fbase)
            CHECK_FAIL("%s is not defined by %s", frontend_symbols[i], self.dli_fname);
    }
    /* AMD's 38 functions and hipdnnGetComponentVersion_ext. */
    CHECK_EQ_INT(HIPDNN_HEADER_FUNCTION_COUNT, 39);
    for (size_t i = 0; i < sizeof header_functions / sizeof header_functions[0]; i++) {
        void* s = dlsym(lib, header_functions[i]);
        Dl_info where;
        check_count++;
        if (s == NULL || dladdr(s, &where) == 0 || where.dli_fbase != self.dli_fbase)
            CHECK_FAIL("%s: dlsym gives %p, not a definition in %s", header_functions[i], s, self.dli_fname);
    }
    /* A name the library lacks stays NULL, so a frontend notices and answers VERSION_MISMATCH. */
    CHECK(dlsym(lib, "hipdnnNoSuchFunction_ext") == NULL);

    /* 3. The version gate through the resolved pointer. */
    const char* (*version_string)(void) = NULL;
    RESOLVE(version_string, "hipdnnVersionString_ext");
    if (version_string == NULL)
        return check_finish("consumer_frontend");
    const char* v = version_string();
    CHECK(v != NULL);
    int major = -1, minor = -1, patch = -1, used = 0;
    CHECK_EQ_INT(sscanf(v ? v : "", "%d.%d.%d%n", &major, &minor, &patch, &used), 3);
    CHECK_EQ_INT(major, HIPDNN_BACKEND_VERSION_MAJOR);
    CHECK_EQ_INT(minor, HIPDNN_BACKEND_VERSION_MINOR);
    CHECK_EQ_INT(patch, HIPDNN_BACKEND_VERSION_PATCH);
    CHECK_EQ_INT(major, FRONTEND_MAJOR_SERVED);
    /* "[.TWEAK]": a non-empty tweak (the commit) follows, which "%d.%d.%d" ignores. */
    CHECK(v && v[used] == '.' && v[used + 1] != '\0');
    CHECK(frontend_accepts(v, FRONTEND_MAJOR_SERVED));
    CHECK(!frontend_accepts(v, FRONTEND_MAJOR_SERVED + 1));
    CHECK(!frontend_accepts(NULL, FRONTEND_MAJOR_SERVED));

    /* 4. Component versions against the header and the plugin SDK. */
    hipdnnStatus_t (*component)(hipdnnVersionKind_ext_t, int64_t*, int64_t*, int64_t*) = NULL;
    RESOLVE(component, "hipdnnGetComponentVersion_ext");
    if (component) {
        check_triple("product", component, HIPDNN_VERSION_KIND_PRODUCT_EXT, HIPDNN_BACKEND_VERSION_MAJOR,
                     HIPDNN_BACKEND_VERSION_MINOR, HIPDNN_BACKEND_VERSION_PATCH);
        check_triple("C ABI", component, HIPDNN_VERSION_KIND_C_ABI_EXT, HIPDNN_BACKEND_C_ABI_VERSION_MAJOR,
                     HIPDNN_BACKEND_C_ABI_VERSION_MINOR, HIPDNN_BACKEND_C_ABI_VERSION_PATCH);
        check_triple("engine plugin API max", component, HIPDNN_VERSION_KIND_ENGINE_PLUGIN_API_MAX_EXT,
                     HIPDNN_ENGINE_API_VERSION_MAJOR, HIPDNN_ENGINE_API_VERSION_MINOR, HIPDNN_ENGINE_API_VERSION_PATCH);
        check_triple("engine plugin API min", component, HIPDNN_VERSION_KIND_ENGINE_PLUGIN_API_MIN_EXT,
                     HIPDNN_ENGINE_API_VERSION_MIN_SUPPORTED_MAJOR, HIPDNN_ENGINE_API_VERSION_MIN_SUPPORTED_MINOR,
                     HIPDNN_ENGINE_API_VERSION_MIN_SUPPORTED_PATCH);
        check_triple("heuristic plugin API", component, HIPDNN_VERSION_KIND_HEURISTIC_PLUGIN_API_EXT,
                     HIPDNN_HEURISTIC_API_VERSION_MAJOR, HIPDNN_HEURISTIC_API_VERSION_MINOR, HIPDNN_HEURISTIC_API_VERSION_PATCH);
        int64_t gm = -1, gn = -1, gp = -1;
        CHECK_OK(component(HIPDNN_VERSION_KIND_GRAPH_SCHEMA_EXT, &gm, &gn, &gp));
        CHECK(gm >= 1 && gn >= 0 && gp >= 0);
        /* The C ABI promise: a program built against C ABI M.m runs with a library M.n, n >= m. */
        int64_t am = -1, an = -1, ap = -1;
        CHECK_OK(component(HIPDNN_VERSION_KIND_C_ABI_EXT, &am, &an, &ap));
        CHECK(am == HIPDNN_BACKEND_C_ABI_VERSION_MAJOR && an >= HIPDNN_BACKEND_C_ABI_VERSION_MINOR);
        /* The engine feature floors the header names lie inside the hosted range. */
        CHECK(HIPDNN_ENGINE_API_VERSION_ALIGNMENT_MAJOR == HIPDNN_ENGINE_API_VERSION_MAJOR
              && HIPDNN_ENGINE_API_VERSION_ENGINE_NAME_MINOR <= HIPDNN_ENGINE_API_VERSION_MINOR);
    }
    check_string_macro("HIPDNN_ENGINE_API_VERSION", HIPDNN_ENGINE_API_VERSION, HIPDNN_ENGINE_API_VERSION_MAJOR,
                       HIPDNN_ENGINE_API_VERSION_MINOR, HIPDNN_ENGINE_API_VERSION_PATCH);
    check_string_macro("HIPDNN_HEURISTIC_API_VERSION", HIPDNN_HEURISTIC_API_VERSION, HIPDNN_HEURISTIC_API_VERSION_MAJOR,
                       HIPDNN_HEURISTIC_API_VERSION_MINOR, HIPDNN_HEURISTIC_API_VERSION_PATCH);
    CHECK_EQ_INT(HIPDNN_HEURISTIC_API_VERSION_MAJOR, 0);

    /* 5. A short session through resolved pointers only, with the frontend's error reporting
     * (hipdnnGetErrorString(status) + hipdnnGetLastErrorString, which clears). */
    hipdnnStatus_t (*create)(hipdnnHandle_t*) = NULL;
    hipdnnStatus_t (*destroy)(hipdnnHandle_t) = NULL;
    const char* (*error_string)(hipdnnStatus_t) = NULL;
    void (*last_error)(char*, size_t) = NULL;
    RESOLVE(create, "hipdnnCreate");
    RESOLVE(destroy, "hipdnnDestroy");
    RESOLVE(error_string, "hipdnnGetErrorString");
    RESOLVE(last_error, "hipdnnGetLastErrorString");
    if (create && destroy && error_string && last_error) {
        hipdnnHandle_t h = NULL;
        CHECK_OK(create(&h));
        CHECK(h != NULL);
        char msg[HIPDNN_ERROR_STRING_MAX_LENGTH];
        last_error(msg, sizeof msg); /* drop anything plugin loading left */
        CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, destroy(NULL));
        CHECK_STREQ(error_string(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER), "HIPDNN_STATUS_BAD_PARAM_NULL_POINTER");
        last_error(msg, sizeof msg);
        CHECK(msg[0] != '\0');
        last_error(msg, sizeof msg);
        CHECK_STREQ(msg, "");
        /* The status a frontend reports for a symbol it could not resolve has its name. */
        CHECK_STREQ(error_string(HIPDNN_STATUS_VERSION_MISMATCH), "HIPDNN_STATUS_VERSION_MISMATCH");
        if (h)
            CHECK_OK(destroy(h));
    }

    /* The Go runtime inside stays loaded; this drops only our reference. */
    dlclose(lib);
    return check_finish("consumer_frontend");
}
