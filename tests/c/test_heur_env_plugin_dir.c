/* Heuristic plugin paths (spec plugin_api.md §5.1, §5.2): HIPDNN_HEURISTIC_PLUGIN_DIR (set by
 * test_heur_env_plugin_dir.cmake to the good heuristic plugin's file) replaces the default
 * folder; ADDITIVE adds configured paths to it; ABSOLUTE ignores it; the built-in policies are
 * there in every mode. */
#include "plugin_testutil.h"

static bool has_policy(hipdnnHandle_t h, const char* name) {
    size_t n = 0;
    CHECK_OK(hipdnnGetHeuristicPolicyCount_ext(h, &n));
    for (size_t i = 0; i < n; i++) {
        int64_t id = 0;
        size_t a = 0, b = 0, c = 0, d = 0;
        CHECK_OK(hipdnnGetHeuristicPolicyInfo_ext(h, i, &id, NULL, &a, NULL, &b, NULL, &c, NULL, &d));
        if (id == pt_fnv1a(name))
            return true;
    }
    return false;
}

static size_t policies(hipdnnHandle_t h) {
    size_t n = 0;
    CHECK_OK(hipdnnGetHeuristicPolicyCount_ext(h, &n));
    return n;
}

int main(void) {
    const char* engines[] = {PT_GOOD};
    pt_engine_paths(1, engines);

    char err[HIPDNN_ERROR_STRING_MAX_LENGTH];
    hipdnnHandle_t h = pt_create(err, sizeof err);
    CHECK_STREQ(err, "");
    CHECK_EQ_INT(policies(h), 5);
    CHECK(has_policy(h, "TestHeuristic::Reverse"));
    CHECK(has_policy(h, "SelectionHeuristic::Config"));
    CHECK_OK(hipdnnDestroy(h));

    const char* noopt[] = {PT_HEUR("test_no_optional_heuristic_plugin")};
    CHECK_OK(hipdnnSetHeuristicPluginPaths_ext(1, noopt, HIPDNN_PLUGIN_LOADING_ADDITIVE));
    h = pt_create(err, sizeof err);
    CHECK_STREQ(err, "");
    CHECK_EQ_INT(policies(h), 6);
    CHECK(has_policy(h, "TestHeuristic::Reverse"));
    CHECK(has_policy(h, "TestHeuristic::NoOptional"));
    CHECK_OK(hipdnnDestroy(h));

    CHECK_OK(hipdnnSetHeuristicPluginPaths_ext(1, noopt, HIPDNN_PLUGIN_LOADING_ABSOLUTE));
    h = pt_create(err, sizeof err);
    CHECK_STREQ(err, "");
    CHECK_EQ_INT(policies(h), 5);
    CHECK(!has_policy(h, "TestHeuristic::Reverse"));
    CHECK(has_policy(h, "TestHeuristic::NoOptional"));
    CHECK(has_policy(h, "SelectionHeuristic::StaticOrdering"));
    CHECK_OK(hipdnnDestroy(h));

    /* a heuristic path that is not a plugin file: skipped with a reason, creation succeeds */
    const char* bad[] = {PT_DIR "/heuristics/libno_such_heuristic.so"};
    CHECK_OK(hipdnnSetHeuristicPluginPaths_ext(1, bad, HIPDNN_PLUGIN_LOADING_ABSOLUTE));
    h = pt_create(err, sizeof err);
    CHECK_CONTAINS(err, "libno_such_heuristic.so");
    CHECK_EQ_INT(policies(h), 4);
    CHECK_OK(hipdnnDestroy(h));
    return check_finish("test_heur_env_plugin_dir");
}
