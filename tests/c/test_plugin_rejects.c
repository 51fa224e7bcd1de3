/* Engine plugins the host must reject or skip at load (items 8, 67): hipdnnCreate still
 * succeeds, the reason is left in the last error, nothing of the plugin is enumerated, and the
 * handle stays usable. Also the plugins that must load despite looking odd (API 0.0.0, no
 * optional entry points), bad path entries, and an empty plugin folder. Each scenario sets
 * its own ABSOLUTE paths while no handle exists. */
#define _XOPEN_SOURCE 700
#include <stdlib.h>
#include <unistd.h>

#include "plugin_testutil.h"

/* Loads exactly `files`, checks the last error of hipdnnCreate contains every needle (or is
 * empty when needles is NULL), that `engines` engines and `loaded` plugin files are there, and
 * that a heuristic query on a graph still works and offers `applicable` engines. */
static void scenario(const char* what, size_t nfiles, const char* const* files, const char* const* needles, size_t engines,
                     size_t loaded, int applicable) {
    char err[HIPDNN_ERROR_STRING_MAX_LENGTH];
    printf("-- %s\n", what);
    pt_engine_paths(nfiles, files);
    hipdnnHandle_t h = pt_create(err, sizeof err);
    if (needles == NULL) {
        CHECK_STREQ(err, "");
    } else {
        for (size_t i = 0; needles[i] != NULL; i++)
            CHECK_CONTAINS(err, needles[i]);
    }
    CHECK_EQ_INT(pt_engine_count(h), engines);
    CHECK_EQ_INT(pt_loaded_count(h), loaded);

    hipdnnBackendDescriptor_t g = pt_pointwise_graph(h, NULL);
    int64_t ids[8];
    int n = pt_rank(g, -1, NULL, ids, 8);
    CHECK_EQ_INT(n, applicable);
    pt_release_all();
    CHECK_OK(hipdnnDestroy(h));
}

int main(void) {
    pt_heur_paths(0, NULL);

    {
        const char* f[] = {PT_CUSTOM("test_incomplete_api_plugin")};
        const char* want[] = {"Failed to get symbol", "hipdnnEnginePluginGetWorkspaceSize", "libtest_incomplete_api_plugin.so",
                              NULL};
        scenario("missing required symbol", 1, f, want, 0, 0, 0);
    }
    {
        const char* f[] = {PT_CUSTOM("test_incompatible_version_plugin")};
        const char* want[] = {"does not match expected engine API major version", NULL};
        scenario("API major 2", 1, f, want, 0, 0, 0);
    }
    {
        const char* f[] = {PT_CUSTOM("test_malformed_version_plugin")};
        const char* want[] = {"libtest_malformed_version_plugin.so", "one.two", NULL};
        scenario("API version \"one.two\"", 1, f, want, 0, 0, 0);
    }
    {
        const char* f[] = {PT_FAULTY("test_faulty_zero_engines_plugin")};
        const char* want[] = {"libtest_faulty_zero_engines_plugin.so", NULL};
        scenario("GetAllEngineIds reports 0 engines", 1, f, want, 0, 0, 0);
    }
    {
        const char* f[] = {PT_FAULTY("test_faulty_count_mismatch_plugin")};
        const char* want[] = {"libtest_faulty_count_mismatch_plugin.so", NULL};
        scenario("GetAllEngineIds count mismatch", 1, f, want, 0, 0, 0);
    }
    {
        const char* f[] = {PT_FAULTY("test_faulty_duplicate_ids_plugin")};
        const char* want[] = {"libtest_faulty_duplicate_ids_plugin.so", NULL};
        scenario("GetAllEngineIds lists an id twice", 1, f, want, 0, 0, 0);
    }
    {
        const char* f[] = {PT_FAULTY("test_faulty_wrong_type_plugin")};
        const char* want[] = {"type mismatch", "libtest_faulty_wrong_type_plugin.so", NULL};
        scenario("GetType answers HEURISTIC", 1, f, want, 0, 0, 0);
    }
    {
        const char* f[] = {PT_HEUR("test_good_heuristic_plugin")};
        const char* want[] = {"libtest_good_heuristic_plugin.so", NULL};
        scenario("a heuristic plugin on the engine path", 1, f, want, 0, 0, 0);
    }
    {
        const char* f[] = {PT_DIR "/support/libtest_plugin_shared_handle_anchor.so"};
        const char* want[] = {"Failed to get symbol", "hipdnnPlugin", NULL};
        scenario("a library that is no plugin", 1, f, want, 0, 0, 0);
    }
    {
        const char* f[] = {PT_DIR "/custom/libno_such_plugin.so"};
        const char* want[] = {"libno_such_plugin.so", NULL};
        scenario("a file that does not exist", 1, f, want, 0, 0, 0);
    }
    {
        /* bad ones around a good one: the good one loads, every reason is reported */
        const char* f[] = {PT_CUSTOM("test_incomplete_api_plugin"), PT_GOOD, PT_CUSTOM("test_incompatible_version_plugin"),
                           PT_CUSTOM("test_malformed_version_plugin")};
        const char* want[] = {"Failed to get symbol", "does not match expected engine API major version",
                              "libtest_malformed_version_plugin.so", NULL};
        scenario("good plugin among bad ones", PT_COUNT(f), f, want, 1, 1, 1);
    }

    /* an empty folder: no plugin, no error */
    char dir[] = "/tmp/hipdnn_test_plugin_rejects_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    {
        const char* f[] = {dir};
        scenario("empty plugin folder", 1, f, NULL, 0, 0, 0);
    }
    /* a file that is neither a directory nor a .so: rejected, creation still succeeds */
    char txt[sizeof dir + 16];
    snprintf(txt, sizeof txt, "%s/plugin.txt", dir);
    FILE* fp = fopen(txt, "w");
    CHECK(fp != NULL);
    if (fp)
        fclose(fp);
    {
        const char* f[] = {txt, PT_GOOD};
        const char* want[] = {"plugin.txt", NULL};
        scenario("a path with another extension", 2, f, want, 1, 1, 1);
    }
    {
        /* the folder now holds only plugin.txt, which a folder scan ignores */
        const char* f[] = {dir};
        scenario("folder without *.so", 1, f, NULL, 0, 0, 0);
    }
    remove(txt);
    rmdir(dir);

    /* API 0.0.0 loads (major-0 shim) but is below every graph's 1.0.0 floor */
    {
        const char* f[] = {PT_CUSTOM("test_version_zero_plugin")};
        scenario("API 0.0.0", 1, f, NULL, 1, 1, 0);
        pt_engine_paths(1, f);
        hipdnnHandle_t h = pt_create(NULL, 0);
        CHECK(pt_has_engine(h, -17));
        hipdnnBackendDescriptor_t g = pt_pointwise_graph(h, NULL);
        hipdnnStatus_t st;
        pt_engine(g, -17, &st);
        CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM, st);
        char err[HIPDNN_ERROR_STRING_MAX_LENGTH];
        CHECK_STREQ(pt_take_error(err, sizeof err),
                    "EngineDescriptor::finalize() failed: Engine id is not in a valid range of engine IDs");
        pt_release_all();
        CHECK_OK(hipdnnDestroy(h));
    }
    /* only the required symbols: loads as API 1.0.0 and runs */
    {
        const char* f[] = {PT_CUSTOM("test_minimal_plugin")};
        scenario("minimal plugin", 1, f, NULL, 1, 1, 1);
        pt_engine_paths(1, f);
        hipdnnHandle_t h = pt_create(NULL, 0);
        char name[32];
        CHECK_STREQ(pt_engine_name(h, -30, name, sizeof name), "0xFFFFFFFFFFFFFFE2");
        hipdnnBackendDescriptor_t g = pt_pointwise_graph(h, NULL);
        hipdnnBackendDescriptor_t plan = pt_plan_for(g, -30);
        float x[120], y[120];
        int64_t uids[2] = {1, 2};
        void* ptrs[2] = {x, y};
        hipdnnBackendDescriptor_t pack = pt_pack(2, uids, ptrs, NULL);
        CHECK_OK(hipdnnBackendExecute(h, plan, pack));
        /* no serialization entry points */
        size_t size = 0;
        CHECK_ERR(
            HIPDNN_STATUS_NOT_SUPPORTED,
            "plugin test_minimal_plugin does not export hipdnnEnginePluginSerializeExecutionContext, hipdnnEnginePluginDestroySerializedExecutionContext, hipdnnEnginePluginCreateExecutionContextFromSerialized (plan serialization needs all three entry points",
            hipdnnBackendGetSerializedExecutionPlan_ext(plan, 0, &size, NULL));
        pt_release_all();
        CHECK_OK(hipdnnDestroy(h));
    }
    return check_finish("test_plugin_rejects");
}
