/* HIPDNN_PLUGIN_DIR (set to <test plugins>/default by test_plugin_env_dir.cmake) replaces the
 * default engine plugin folder (item 64): alone it loads only the good default plugin (not the
 * CPU reference engine of the built-in default), ADDITIVE adds custom paths to it, ABSOLUTE
 * ignores it. */
#include "plugin_testutil.h"

int main(void) {
    const char* env = getenv("HIPDNN_PLUGIN_DIR");
    CHECK(env != NULL && strstr(env, "/default") != NULL);
    pt_heur_paths(0, NULL);

    char err[HIPDNN_ERROR_STRING_MAX_LENGTH];
    hipdnnHandle_t h = pt_create(err, sizeof err);
    CHECK_STREQ(err, "");
    CHECK_EQ_INT(pt_loaded_count(h), 1);
    CHECK(pt_loaded_has(h, "/default/libtest_good_default_plugin.so"));
    CHECK(!pt_loaded_has(h, "/libhipdnngo_cpu_reference.so"));
    CHECK_EQ_INT(pt_engine_count(h), 1);
    CHECK(pt_has_engine(h, PT_ID_GOOD_DEFAULT));
    char name[64];
    CHECK_STREQ(pt_engine_name(h, PT_ID_GOOD_DEFAULT, name, sizeof name), "TEST_GOOD_DEFAULT_ENGINE");
    /* the engine runs */
    hipdnnBackendDescriptor_t g = pt_pointwise_graph(h, NULL);
    int64_t ids[4];
    int n = pt_rank(g, -1, NULL, ids, 4);
    CHECK_IDS(n, ids, PT_ID_GOOD_DEFAULT);
    pt_release_all();
    CHECK_OK(hipdnnDestroy(h));

    const char* good[] = {PT_GOOD};
    CHECK_OK(hipdnnSetEnginePluginPaths_ext(1, good, HIPDNN_PLUGIN_LOADING_ADDITIVE));
    h = pt_create(err, sizeof err);
    CHECK_STREQ(err, "");
    CHECK_EQ_INT(pt_loaded_count(h), 2);
    CHECK(pt_loaded_has(h, "/default/libtest_good_default_plugin.so"));
    CHECK(pt_loaded_has(h, "/custom/libtest_good_plugin.so"));
    CHECK_OK(hipdnnDestroy(h));

    CHECK_OK(hipdnnSetEnginePluginPaths_ext(1, good, HIPDNN_PLUGIN_LOADING_ABSOLUTE));
    h = pt_create(err, sizeof err);
    CHECK_STREQ(err, "");
    CHECK_EQ_INT(pt_loaded_count(h), 1);
    CHECK(pt_loaded_has(h, "/custom/libtest_good_plugin.so"));
    CHECK_OK(hipdnnDestroy(h));
    return check_finish("test_plugin_env_dir");
}
