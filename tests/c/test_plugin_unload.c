/* Plugin unloading (item 66), observed in /proc/self/maps: LAZY (the default) keeps the
 * plugins mapped after the last handle; switching to EAGER with no handle unmaps them at once;
 * under EAGER the last hipdnnDestroy unmaps and the next hipdnnCreate maps them again; new
 * engine plugin paths drop LAZY-cached plugins. Heuristic plugins follow the same mode. */
#include "plugin_testutil.h"

#define GOOD_SO "/libtest_good_plugin.so"
#define HASHED_SO "/libtest_hashed_name_plugin.so"
#define HEUR_SO "/libtest_good_heuristic_plugin.so"

int main(void) {
    const char* good[] = {PT_GOOD};
    const char* heur[] = {PT_HEUR("test_good_heuristic_plugin")};
    pt_engine_paths(1, good);
    pt_heur_paths(1, heur);
    CHECK(!pt_mapped(GOOD_SO));

    /* LAZY */
    hipdnnHandle_t h = pt_create(NULL, 0);
    CHECK(pt_mapped(GOOD_SO));
    CHECK(pt_mapped(HEUR_SO));
    CHECK_OK(hipdnnDestroy(h));
    CHECK(pt_mapped(GOOD_SO));
    CHECK(pt_mapped(HEUR_SO));
    /* a new handle reuses the cached plugins */
    h = pt_create(NULL, 0);
    CHECK_EQ_INT(pt_engine_count(h), 1);
    CHECK_OK(hipdnnDestroy(h));
    CHECK(pt_mapped(GOOD_SO));

    /* LAZY -> EAGER with no handle: unmapped immediately */
    CHECK_OK(hipdnnSetPluginUnloadMode_ext(HIPDNN_PLUGIN_UNLOAD_EAGER));
    CHECK(!pt_mapped(GOOD_SO));
    CHECK(!pt_mapped(HEUR_SO));

    /* EAGER: mapped while a handle lives, unmapped with the last one, reloaded on demand */
    h = pt_create(NULL, 0);
    CHECK(pt_mapped(GOOD_SO));
    CHECK(pt_mapped(HEUR_SO));
    hipdnnHandle_t h2 = pt_create(NULL, 0);
    CHECK_OK(hipdnnDestroy(h));
    CHECK(pt_mapped(GOOD_SO));
    CHECK_EQ_INT(pt_engine_count(h2), 1);
    CHECK_OK(hipdnnDestroy(h2));
    CHECK(!pt_mapped(GOOD_SO));
    CHECK(!pt_mapped(HEUR_SO));
    h = pt_create(NULL, 0);
    CHECK(pt_mapped(GOOD_SO));
    CHECK_EQ_INT(pt_engine_count(h), 1);
    hipdnnBackendDescriptor_t g = pt_pointwise_graph(h, NULL);
    int64_t ids[4];
    CHECK_IDS(pt_rank(g, -1, NULL, ids, 4), ids, PT_ID_GOOD);
    pt_release_all();
    /* switching to LAZY while a handle lives keeps the set after the last destroy */
    CHECK_OK(hipdnnSetPluginUnloadMode_ext(HIPDNN_PLUGIN_UNLOAD_LAZY));
    CHECK_OK(hipdnnDestroy(h));
    CHECK(pt_mapped(GOOD_SO));

    /* LAZY: repeating the configuration in force keeps the cache ... */
    CHECK_OK(hipdnnSetEnginePluginPaths_ext(1, good, HIPDNN_PLUGIN_LOADING_ABSOLUTE));
    CHECK(pt_mapped(GOOD_SO));
    /* ... new engine paths drop it */
    const char* hashed[] = {PT_HASHED};
    CHECK_OK(hipdnnSetEnginePluginPaths_ext(1, hashed, HIPDNN_PLUGIN_LOADING_ABSOLUTE));
    CHECK(!pt_mapped(GOOD_SO));
    CHECK(!pt_mapped(HASHED_SO));
    h = pt_create(NULL, 0);
    CHECK(pt_mapped(HASHED_SO));
    CHECK(!pt_mapped(GOOD_SO));
    CHECK_OK(hipdnnDestroy(h));
    CHECK(pt_mapped(HASHED_SO));
    /* new heuristic paths drop the cached heuristic plugins */
    CHECK(pt_mapped(HEUR_SO));
    CHECK_OK(hipdnnSetHeuristicPluginPaths_ext(0, NULL, HIPDNN_PLUGIN_LOADING_ABSOLUTE));
    CHECK(!pt_mapped(HEUR_SO));
    return check_finish("test_plugin_unload");
}
