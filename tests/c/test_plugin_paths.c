/* hipdnnSetEnginePluginPaths_ext and friends (items 62, 64): argument checks, the default
 * folder (<dir of libhipdnn_backend.so>/hipdnn_plugins/engines/, holding the CPU reference
 * engine in the staged install), ADDITIVE unions with the default, ABSOLUTE replaces it,
 * (0, NULL, ABSOLUTE) loads nothing, files / folders / bare names / relative paths, and
 * duplicate files loaded once. Requires HIPDNN_PLUGIN_DIR to be unset. */
#include "plugin_testutil.h"

#define CPU_PLUGIN "/hipdnn_plugins/engines/libhipdnngo_cpu_reference.so"

/* The plugins of the default folder: the CPU reference engine and whatever other engines the
 * install holds (counted once, with nothing configured). */
static size_t ndefault;

/* Creates a handle with the current configuration and checks what it loaded: the suffixes
 * listed, plus the other plugins of the default folder when with_default is set. */
static void expect_loaded(const char* what, bool with_default, size_t nloaded, const char* const* suffixes) {
    printf("-- %s\n", what);
    char err[HIPDNN_ERROR_STRING_MAX_LENGTH];
    hipdnnHandle_t h = pt_create(err, sizeof err);
    CHECK_STREQ(err, "");
    CHECK_EQ_INT(pt_loaded_count(h), nloaded + (with_default ? ndefault - 1 : 0));
    for (size_t i = 0; i < nloaded; i++) {
        check_count++;
        if (!pt_loaded_has(h, suffixes[i]))
            CHECK_FAIL("%s: %s is not loaded", what, suffixes[i]);
    }
    CHECK_OK(hipdnnDestroy(h));
}

int main(void) {
    if (getenv("HIPDNN_PLUGIN_DIR") != NULL) {
        fprintf(stderr, "HIPDNN_PLUGIN_DIR is set; this test needs the built-in default\n");
        return 1;
    }
    pt_heur_paths(0, NULL);

    /* nothing configured: the default folder */
    {
        hipdnnHandle_t h = pt_create(NULL, 0);
        ndefault = pt_loaded_count(h);
        CHECK(ndefault >= 1 && pt_loaded_has(h, CPU_PLUGIN));
        CHECK_OK(hipdnnDestroy(h));
    }
    {
        const char* s[] = {CPU_PLUGIN};
        expect_loaded("default folder", true, 1, s);
        hipdnnHandle_t h = pt_create(NULL, 0);
        int64_t id = 0;
        CHECK_OK(hipdnnGetEngineIdByName_ext(h, "HIPDNNGO_CPU_REFERENCE", &id));
        CHECK_EQ_INT(id, pt_fnv1a("HIPDNNGO_CPU_REFERENCE"));
        CHECK_OK(hipdnnDestroy(h));
    }

    /* argument checks; none of them changes the configuration */
    const char* with_null[] = {PT_GOOD, NULL};
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, hipdnnSetEnginePluginPaths_ext(1, NULL, HIPDNN_PLUGIN_LOADING_ABSOLUTE));
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
                 hipdnnSetEnginePluginPaths_ext(2, with_null, HIPDNN_PLUGIN_LOADING_ABSOLUTE));
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
                 hipdnnSetEnginePluginPaths_ext(2, with_null, HIPDNN_PLUGIN_LOADING_ADDITIVE));
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
                 hipdnnSetHeuristicPluginPaths_ext(1, NULL, HIPDNN_PLUGIN_LOADING_ABSOLUTE));
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
                 hipdnnSetHeuristicPluginPaths_ext(2, with_null, HIPDNN_PLUGIN_LOADING_ADDITIVE));
    const char* good[] = {PT_GOOD};
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "hipdnnSetEnginePluginPaths_ext: loadingMode 2 is neither HIPDNN_PLUGIN_LOADING_ADDITIVE (0) nor HIPDNN_PLUGIN_LOADING_ABSOLUTE (1",
        hipdnnSetEnginePluginPaths_ext(1, good, (hipdnnPluginLoadingMode_ext_t)2));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "hipdnnSetEnginePluginPaths_ext: loadingMode -1 is neither HIPDNN_PLUGIN_LOADING_ADDITIVE (0) nor HIPDNN_PLUGIN_LOADING_ABSOLUTE (1",
        hipdnnSetEnginePluginPaths_ext(1, good, (hipdnnPluginLoadingMode_ext_t)-1));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "hipdnnSetHeuristicPluginPaths_ext: loadingMode 7 is neither HIPDNN_PLUGIN_LOADING_ADDITIVE (0) nor HIPDNN_PLUGIN_LOADING_ABSOLUTE (1",
        hipdnnSetHeuristicPluginPaths_ext(0, NULL, (hipdnnPluginLoadingMode_ext_t)7));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "plugin unloading mode 2 is not HIPDNN_PLUGIN_UNLOAD_LAZY (0) or HIPDNN_PLUGIN_UNLOAD_EAGER (1",
              hipdnnSetPluginUnloadMode_ext((hipdnnPluginUnloadingMode_ext_t)2));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "plugin unloading mode -1 is not HIPDNN_PLUGIN_UNLOAD_LAZY (0) or HIPDNN_PLUGIN_UNLOAD_EAGER (1",
              hipdnnSetPluginUnloadMode_ext((hipdnnPluginUnloadingMode_ext_t)-1));
    {
        const char* s[] = {CPU_PLUGIN};
        expect_loaded("default folder after rejected calls", true, 1, s);
    }

    /* ADDITIVE: the default plus the union of the paths given so far */
    CHECK_OK(hipdnnSetEnginePluginPaths_ext(1, good, HIPDNN_PLUGIN_LOADING_ADDITIVE));
    {
        const char* s[] = {CPU_PLUGIN, "/custom/libtest_good_plugin.so"};
        expect_loaded("ADDITIVE file", true, 2, s);
    }
    const char* bare[] = {PT_DIR "/custom/test_hashed_name_plugin"};
    CHECK_OK(hipdnnSetEnginePluginPaths_ext(1, bare, HIPDNN_PLUGIN_LOADING_ADDITIVE));
    {
        const char* s[] = {CPU_PLUGIN, "/custom/libtest_good_plugin.so", "/custom/libtest_hashed_name_plugin.so"};
        expect_loaded("ADDITIVE bare name, union with the earlier path", true, 3, s);
    }

    /* ABSOLUTE: only the given paths; a folder loads every *.so in it */
    const char* folder[] = {PT_DIR "/default"};
    CHECK_OK(hipdnnSetEnginePluginPaths_ext(1, folder, HIPDNN_PLUGIN_LOADING_ABSOLUTE));
    {
        const char* s[] = {"/default/libtest_good_default_plugin.so"};
        expect_loaded("ABSOLUTE folder", false, 1, s);
    }
    /* the same file through a folder, a file path and a non-canonical path: loaded once */
    const char* same[] = {PT_DIR "/default", PT_GOOD_DEFAULT, PT_DIR "/custom/../default/libtest_good_default_plugin.so",
                          PT_DIR "/default/test_good_default_plugin"};
    CHECK_OK(hipdnnSetEnginePluginPaths_ext(PT_COUNT(same), same, HIPDNN_PLUGIN_LOADING_ABSOLUTE));
    {
        const char* s[] = {"/default/libtest_good_default_plugin.so"};
        expect_loaded("one file named four ways", false, 1, s);
        hipdnnHandle_t h = pt_create(NULL, 0);
        CHECK_EQ_INT(pt_engine_count(h), 1);
        CHECK_OK(hipdnnDestroy(h));
    }
    /* relative paths resolve against the backend library's folder, not the working folder */
    const char* rel[] = {"hipdnn_plugins/engines"};
    CHECK_OK(hipdnnSetEnginePluginPaths_ext(1, rel, HIPDNN_PLUGIN_LOADING_ABSOLUTE));
    {
        const char* s[] = {CPU_PLUGIN};
        expect_loaded("ABSOLUTE relative folder (the default folder itself)", true, 1, s);
    }

    /* (0, NULL, ABSOLUTE): no engine plugin at all; the handle works, no engine applies */
    CHECK_OK(hipdnnSetEnginePluginPaths_ext(0, NULL, HIPDNN_PLUGIN_LOADING_ABSOLUTE));
    {
        expect_loaded("ABSOLUTE nothing", false, 0, NULL);
        hipdnnHandle_t h = pt_create(NULL, 0);
        CHECK_EQ_INT(pt_engine_count(h), 0);
        size_t n = 99, len = 0;
        CHECK_OK(hipdnnGetLoadedEnginePluginPaths_ext(h, &n, NULL, &len));
        CHECK_EQ_INT(n, 0);
        hipdnnBackendDescriptor_t g = pt_pointwise_graph(h, NULL);
        hipdnnBackendDescriptor_t hd = NULL;
        CHECK_OK(pt_heur(g, -1, NULL, &hd));
        int64_t count = -1;
        CHECK_OK(hipdnnBackendGetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0, &count, NULL));
        CHECK_EQ_INT(count, 0);
        /* engine-level calls have nothing to route to */
        hipdnnStatus_t st;
        pt_engine(g, PT_ID_GOOD, &st);
        CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM, st);
        tu_clear_last_error();
        pt_release_all();
        CHECK_OK(hipdnnDestroy(h));
    }

    /* ADDITIVE after ABSOLUTE: the default comes back, plus the new path */
    CHECK_OK(hipdnnSetEnginePluginPaths_ext(1, good, HIPDNN_PLUGIN_LOADING_ADDITIVE));
    {
        const char* s[] = {CPU_PLUGIN, "/custom/libtest_good_plugin.so"};
        expect_loaded("ADDITIVE after ABSOLUTE", true, 2, s);
    }
    return check_finish("test_plugin_paths");
}
