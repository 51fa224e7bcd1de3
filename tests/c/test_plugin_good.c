/* Engine plugin loading through explicit files (ABSOLUTE) with two well-behaved plugins, the
 * good plugin (engine -2, unnamed) and the hashed-name plugin (TEST_HASHED_NAME_ENGINE):
 * loaded-path query (item 65), engine enumeration and name/id lookups (items 69, 70), paths
 * frozen while a handle lives (item 63), and the host's bookkeeping as the good plugin's
 * accessors see it (plugin handles per hipdnnHandle, stream and log level forwarded, every
 * object released). */
#define _XOPEN_SOURCE 700
#include <limits.h>

#include "plugin_testutil.h"

static char good_real[PATH_MAX], hashed_real[PATH_MAX];

static void check_loaded_paths(hipdnnHandle_t h) {
    size_t n = 0, len = 0;
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "hipdnnHandle_t is NULL", hipdnnGetLoadedEnginePluginPaths_ext(NULL, &n, NULL, &len));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "numPluginPaths is NULL", hipdnnGetLoadedEnginePluginPaths_ext(h, NULL, NULL, &len));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "maxStringLen is NULL", hipdnnGetLoadedEnginePluginPaths_ext(h, &n, NULL, NULL));
    tu_clear_last_error();

    CHECK_OK(hipdnnGetLoadedEnginePluginPaths_ext(h, &n, NULL, &len));
    CHECK_EQ_INT(n, 2);
    size_t want_len = strlen(good_real) > strlen(hashed_real) ? strlen(good_real) : strlen(hashed_real);
    CHECK_EQ_INT(len, want_len + 1);

    char a[PATH_MAX], b[PATH_MAX];
    char* bufs[2] = {a, b};
    size_t n2 = 2, len2 = len;
    CHECK_OK(hipdnnGetLoadedEnginePluginPaths_ext(h, &n2, bufs, &len2));
    CHECK_EQ_INT(n2, 2);
    /* canonical paths, sorted: libtest_good_plugin.so < libtest_hashed_name_plugin.so */
    CHECK_STREQ(a, good_real);
    CHECK_STREQ(b, hashed_real);

    size_t one = 1;
    len2 = len;
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "hipdnnGetLoadedEnginePluginPaths_ext: Insufficient buffer space provided. (2 paths of up to ",
              hipdnnGetLoadedEnginePluginPaths_ext(h, &one, bufs, &len2));
    n2 = 2;
    len2 = len - 1;
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "hipdnnGetLoadedEnginePluginPaths_ext: Insufficient buffer space provided. (2 paths of up to ",
              hipdnnGetLoadedEnginePluginPaths_ext(h, &n2, bufs, &len2));
    char* with_null[2] = {a, NULL};
    n2 = 2;
    len2 = len;
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "hipdnnGetLoadedEnginePluginPaths_ext: pluginPaths[1] is NULL",
              hipdnnGetLoadedEnginePluginPaths_ext(h, &n2, with_null, &len2));
}

static void check_engine_info(hipdnnHandle_t h) {
    size_t n = 0;
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "hipdnnHandle_t is NULL", hipdnnGetEngineCount_ext(NULL, &n));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "numEngines is NULL", hipdnnGetEngineCount_ext(h, NULL));
    CHECK_OK(hipdnnGetEngineCount_ext(h, &n));
    CHECK_EQ_INT(n, 2);

    /* sizes: any NULL buffer writes all four sizes (NUL included) */
    int64_t id = 0;
    size_t ln = 0, lp = 0, lv = 0, lt = 0;
    CHECK_OK(hipdnnGetEngineInfo_ext(h, 0, &id, NULL, &ln, NULL, &lp, NULL, &lv, NULL, &lt));
    CHECK_EQ_INT(id, PT_ID_GOOD); /* "0xFFFFFFFFFFFFFFFE" sorts before "TEST_HASHED_NAME_ENGINE" */
    CHECK_EQ_INT(ln, strlen("0xFFFFFFFFFFFFFFFE") + 1);
    CHECK_EQ_INT(lp, strlen("test_good_plugin") + 1);
    CHECK_EQ_INT(lv, strlen("1.0.0-test") + 1);
    CHECK(lt > 1);
    char name[64], plugin[64], ver[64], type[64];
    size_t ln2 = ln, lp2 = 0, lv2 = lv, lt2 = lt;
    /* one buffer NULL is still a size query, even with the others present */
    CHECK_OK(hipdnnGetEngineInfo_ext(h, 0, NULL, name, &ln2, NULL, &lp2, ver, &lv2, type, &lt2));
    CHECK_EQ_INT(lp2, lp);

    id = 0;
    CHECK_OK(hipdnnGetEngineInfo_ext(h, 0, &id, name, &ln, plugin, &lp, ver, &lv, type, &lt));
    CHECK_EQ_INT(id, PT_ID_GOOD);
    CHECK_STREQ(name, "0xFFFFFFFFFFFFFFFE");
    CHECK_STREQ(plugin, "test_good_plugin");
    CHECK_STREQ(ver, "1.0.0-test");
    CHECK(type[0] != '\0');
    printf("engine 0: id %lld name %s plugin %s version %s type %s\n", (long long)id, name, plugin, ver, type);

    /* engineId is optional */
    ln = lp = lv = lt = 64;
    CHECK_OK(hipdnnGetEngineInfo_ext(h, 1, NULL, name, &ln, plugin, &lp, ver, &lv, type, &lt));
    CHECK_STREQ(name, "TEST_HASHED_NAME_ENGINE");
    CHECK_STREQ(plugin, "test_hashed_name_plugin");

    /* a buffer one byte short */
    ln = strlen("TEST_HASHED_NAME_ENGINE");
    lp = lv = lt = 64;
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "hipdnnGetEngineInfo_ext: Insufficient buffer space provided. (engineName needs 24 bytes, got 23",
              hipdnnGetEngineInfo_ext(h, 1, &id, name, &ln, plugin, &lp, ver, &lv, type, &lt));
    ln = 64;
    lt = 1;
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "hipdnnGetEngineInfo_ext: Insufficient buffer space provided. (type needs 7 bytes, got 1",
              hipdnnGetEngineInfo_ext(h, 1, &id, name, &ln, plugin, &lp, ver, &lv, type, &lt));
    /* index out of range */
    ln = lp = lv = lt = 64;
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "hipdnnGetEngineInfo_ext: engineIndex 2 is out of range (2 engines",
              hipdnnGetEngineInfo_ext(h, 2, &id, name, &ln, plugin, &lp, ver, &lv, type, &lt));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "hipdnnGetEngineInfo_ext: engineIndex 18446744073709551615 is out of range (2 engines",
              hipdnnGetEngineInfo_ext(h, (size_t)-1, &id, NULL, &ln, NULL, &lp, NULL, &lv, NULL, &lt));
    /* NULL handle or any NULL length pointer */
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "hipdnnHandle_t is NULL", hipdnnGetEngineInfo_ext(NULL, 0, &id, name, &ln, plugin, &lp, ver, &lv, type, &lt));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "engineNameLen is NULL", hipdnnGetEngineInfo_ext(h, 0, &id, name, NULL, plugin, &lp, ver, &lv, type, &lt));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "pluginNameLen is NULL", hipdnnGetEngineInfo_ext(h, 0, &id, name, &ln, plugin, NULL, ver, &lv, type, &lt));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "versionLen is NULL", hipdnnGetEngineInfo_ext(h, 0, &id, name, &ln, plugin, &lp, ver, NULL, type, &lt));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "typeLen is NULL", hipdnnGetEngineInfo_ext(h, 0, &id, NULL, &ln, NULL, &lp, NULL, &lv, NULL, NULL));
    tu_clear_last_error();
}

static void check_lookups(hipdnnHandle_t h) {
    int64_t id = 0;
    CHECK_EQ_INT(pt_fnv1a("TEST_HASHED_NAME_ENGINE"), PT_ID_HASHED);
    CHECK_OK(hipdnnGetEngineIdByName_ext(h, "TEST_HASHED_NAME_ENGINE", &id));
    CHECK_EQ_INT(id, PT_ID_HASHED);
    CHECK_OK(hipdnnGetEngineIdByName_ext(h, "0xFFFFFFFFFFFFFFFE", &id));
    CHECK_EQ_INT(id, PT_ID_GOOD);
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED, "hipdnnGetEngineIdByName_ext: no loaded engine is named \"NO_SUCH_ENGINE",
              hipdnnGetEngineIdByName_ext(h, "NO_SUCH_ENGINE", &id));
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED, "hipdnnGetEngineIdByName_ext: no loaded engine is named",
              hipdnnGetEngineIdByName_ext(h, "", &id));
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED, "hipdnnGetEngineIdByName_ext: no loaded engine is named \"test_hashed_name_engine",
              hipdnnGetEngineIdByName_ext(h, "test_hashed_name_engine", &id));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "hipdnnHandle_t is NULL", hipdnnGetEngineIdByName_ext(NULL, "TEST_HASHED_NAME_ENGINE", &id));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "engineName is NULL", hipdnnGetEngineIdByName_ext(h, NULL, &id));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "engineId is NULL", hipdnnGetEngineIdByName_ext(h, "TEST_HASHED_NAME_ENGINE", NULL));

    char name[64];
    size_t len = 0;
    CHECK_OK(hipdnnGetEngineNameById_ext(h, PT_ID_HASHED, NULL, &len));
    CHECK_EQ_INT(len, strlen("TEST_HASHED_NAME_ENGINE") + 1);
    CHECK_OK(hipdnnGetEngineNameById_ext(h, PT_ID_HASHED, name, &len));
    CHECK_STREQ(name, "TEST_HASHED_NAME_ENGINE");
    len = 19;
    CHECK_OK(hipdnnGetEngineNameById_ext(h, PT_ID_GOOD, name, &len));
    CHECK_STREQ(name, "0xFFFFFFFFFFFFFFFE");
    len = 18;
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "hipdnnGetEngineNameById_ext: Insufficient buffer space provided. (engineName needs 19 bytes, got 18",
              hipdnnGetEngineNameById_ext(h, PT_ID_GOOD, name, &len));
    len = sizeof name;
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED, "hipdnnGetEngineNameById_ext: no loaded engine has id",
              hipdnnGetEngineNameById_ext(h, 12345, name, &len));
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED, "hipdnnGetEngineNameById_ext: no loaded engine has id",
              hipdnnGetEngineNameById_ext(h, 12345, NULL, &len));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "engineNameLen is NULL", hipdnnGetEngineNameById_ext(h, PT_ID_GOOD, name, NULL));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "hipdnnHandle_t is NULL", hipdnnGetEngineNameById_ext(NULL, PT_ID_GOOD, name, &len));

    /* every enumerated name resolves back to its id, and the id back to the name */
    size_t n = pt_engine_count(h);
    for (size_t i = 0; i < n; i++) {
        int64_t eid = 0, back = 0;
        size_t ln = sizeof name, lp = 64, lv = 64, lt = 64;
        char p[64], v[64], t[64], again[64];
        size_t la = sizeof again;
        CHECK_OK(hipdnnGetEngineInfo_ext(h, i, &eid, name, &ln, p, &lp, v, &lv, t, &lt));
        CHECK_OK(hipdnnGetEngineIdByName_ext(h, name, &back));
        CHECK_EQ_INT(back, eid);
        CHECK_OK(hipdnnGetEngineNameById_ext(h, eid, again, &la));
        CHECK_STREQ(again, name);
    }
    tu_clear_last_error();
}

int main(void) {
    const char* files[] = {PT_HASHED, PT_GOOD}; /* given unsorted on purpose */
    CHECK(realpath(PT_GOOD, good_real) != NULL);
    CHECK(realpath(PT_HASHED, hashed_real) != NULL);
    pt_engine_paths(PT_COUNT(files), files);
    pt_heur_paths(0, NULL);

    char err[HIPDNN_ERROR_STRING_MAX_LENGTH];
    hipdnnHandle_t h = pt_create(err, sizeof err);
    CHECK_STREQ(err, ""); /* nothing was rejected */
    CHECK_EQ_INT(pt_loaded_count(h), 2);

    check_loaded_paths(h);
    check_engine_info(h);
    check_lookups(h);

    /* Paths are frozen while a handle lives; the configuration in force may be repeated. */
    const char* other[] = {PT_GOOD};
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED, "Cannot set engine plugin paths with an active handle",
              hipdnnSetEnginePluginPaths_ext(1, other, HIPDNN_PLUGIN_LOADING_ABSOLUTE));
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED, "Cannot set engine plugin paths with an active handle",
              hipdnnSetEnginePluginPaths_ext(0, NULL, HIPDNN_PLUGIN_LOADING_ABSOLUTE));
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED, "Cannot set engine plugin paths with an active handle",
              hipdnnSetEnginePluginPaths_ext(1, other, HIPDNN_PLUGIN_LOADING_ADDITIVE));
    CHECK_OK(hipdnnSetEnginePluginPaths_ext(PT_COUNT(files), files, HIPDNN_PLUGIN_LOADING_ABSOLUTE));
    const char* heur[] = {PT_HEUR("test_good_heuristic_plugin")};
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED, "Cannot set heuristic plugin paths with an active handle",
              hipdnnSetHeuristicPluginPaths_ext(1, heur, HIPDNN_PLUGIN_LOADING_ABSOLUTE));
    CHECK_OK(hipdnnSetHeuristicPluginPaths_ext(0, NULL, HIPDNN_PLUGIN_LOADING_ABSOLUTE));

    /* What the good plugin saw: one plugin handle per hipdnnHandle, the stream and log
     * level forwarded, contexts and details released. */
    PT_FN(hipdnnTestGetLiveObjects_fn, live, PT_GOOD, "hipdnnTestGetLiveObjects");
    PT_FN(hipdnnTestGetLastStream_fn, last_stream, PT_GOOD, "hipdnnTestGetLastStream");
    PT_FN(hipdnnTestGetLastLogLevel_fn, last_level, PT_GOOD, "hipdnnTestGetLastLogLevel");
    CHECK(live != NULL && last_stream != NULL && last_level != NULL);
    if (live && last_stream && last_level) {
        CHECK_EQ_INT(live(0), 1);
        hipdnnHandle_t h2 = pt_create(NULL, 0);
        CHECK_EQ_INT(live(0), 2);
        CHECK_EQ_INT(pt_engine_count(h2), 2);

        hipStream_t s = (hipStream_t)(uintptr_t)0x5000;
        CHECK_OK(hipdnnSetStream(h2, s));
        CHECK(last_stream() == (void*)s);
        hipStream_t got = NULL;
        CHECK_OK(hipdnnGetStream(h2, &got));
        CHECK(got == s);

        CHECK_OK(hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_ERROR));
        CHECK_EQ_INT(last_level(), HIPDNN_SEV_ERROR);
        CHECK_OK(hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_OFF));
        CHECK_EQ_INT(last_level(), HIPDNN_SEV_OFF);

        /* a plan on each handle, then everything released */
        hipdnnBackendDescriptor_t g = pt_pointwise_graph(h2, NULL);
        pt_plan_for(g, PT_ID_GOOD);
        int64_t ids[4];
        int n = pt_rank(g, -1, NULL, ids, 4);
        CHECK_EQ_INT(n, 2);
        CHECK(live(1) >= 1);
        pt_release_all();
        CHECK_EQ_INT(live(1), 0);
        CHECK_EQ_INT(live(2), 0);
        CHECK_EQ_INT(live(3), 0);
        CHECK_EQ_INT(live(99), -1);
        CHECK_OK(hipdnnDestroy(h2));
        CHECK_EQ_INT(live(0), 1);
    }
    CHECK_OK(hipdnnDestroy(h));
    /* The refused hipdnnSetEnginePluginPaths_ext calls above dropped the LAZY keep-alive
     * (spec backend_api.md row 23: it is dropped before the live-handle check), so the last
     * hipdnnDestroy unloaded the plugins. */
    CHECK(!pt_mapped("/libtest_good_plugin.so"));

    /* no handle left: the paths can change again */
    CHECK_OK(hipdnnSetEnginePluginPaths_ext(1, other, HIPDNN_PLUGIN_LOADING_ABSOLUTE));
    h = pt_create(NULL, 0);
    CHECK_EQ_INT(pt_engine_count(h), 1);
    CHECK_OK(hipdnnDestroy(h));
    return check_finish("test_plugin_good");
}
