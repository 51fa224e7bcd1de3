/* Heuristic policy plugins (items 55, 56; spec plugin_api.md §2; tests/plugins/README.md,
 * heuristics/): the whole heuristics/ folder is loaded; the bad ones (missing symbol, API 1.0.0,
 * empty policy name, duplicate policy id) are skipped with their reasons in the last error, the
 * others run. With two applicable engines the policies are told apart by RESULTS order: the
 * good plugin reverses the candidates, NoOptional keeps them, a declining policy, an invalid
 * permutation and a failing SetDeviceProperties each fall through to the next policy. */
#include "plugin_testutil.h"

#define GOOD_HEUR PT_HEUR("test_good_heuristic_plugin")

static int64_t pid(const char* name) { return pt_fnv1a(name); }

/* Policy info by id: returns whether it is listed, and fills plugin name and API version. */
static bool policy(hipdnnHandle_t h, int64_t id, char* plugin, char* api) {
    size_t n = 0;
    CHECK_OK(hipdnnGetHeuristicPolicyCount_ext(h, &n));
    for (size_t i = 0; i < n; i++) {
        int64_t got = 0;
        char name[128], ver[64];
        size_t ln = sizeof name, lp = 128, lv = sizeof ver, la = 64;
        CHECK_OK(hipdnnGetHeuristicPolicyInfo_ext(h, i, &got, name, &ln, plugin, &lp, ver, &lv, api, &la));
        if (got == id)
            return true;
    }
    return false;
}

static void expect_fail(hipdnnBackendDescriptor_t g, int n, const int64_t* order) {
    hipdnnBackendDescriptor_t hd = NULL;
    char err[HIPDNN_ERROR_STRING_MAX_LENGTH];
    CHECK_STATUS(HIPDNN_STATUS_INTERNAL_ERROR, pt_heur(g, n, order, &hd));
    pt_take_error(err, sizeof err);
    check_count++;
    if (strncmp(err, "No heuristic policy succeeded", 29) != 0)
        CHECK_FAIL("last error \"%s\"", err);
}

int main(void) {
    const char* engines[] = {PT_GOOD, PT_HASHED};
    const char* heur[] = {PT_DIR "/heuristics"};
    pt_engine_paths(PT_COUNT(engines), engines);
    pt_heur_paths(PT_COUNT(heur), heur);

    char err[HIPDNN_ERROR_STRING_MAX_LENGTH];
    hipdnnHandle_t h = pt_create(err, sizeof err);
    printf("load errors: %s\n", err);
    CHECK_CONTAINS(err, "Failed to get symbol hipdnnHeuristicPolicyGetSortedEngineIds");
    CHECK_CONTAINS(err, "libtest_incomplete_heuristic_api_plugin.so");
    CHECK_CONTAINS(err, "libtest_bad_api_version_heuristic_plugin.so");
    CHECK_CONTAINS(err, "libtest_empty_name_heuristic_plugin.so");
    CHECK_CONTAINS(err, "libtest_duplicate_policy_id_b_plugin.so");
    CHECK_NOT_CONTAINS(err, "libtest_good_heuristic_plugin.so");
    CHECK_NOT_CONTAINS(err, "libtest_no_optional_heuristic_plugin.so");
    CHECK_NOT_CONTAINS(err, "libtest_declining_heuristic_plugin.so");
    CHECK_NOT_CONTAINS(err, "libtest_device_properties_fail_heuristic_plugin.so");
    CHECK_NOT_CONTAINS(err, "libtest_invalid_permutation_heuristic_plugin.so");

    /* enumeration: four built-ins plus six plugin policies */
    size_t count = 0;
    CHECK_OK(hipdnnGetHeuristicPolicyCount_ext(h, &count));
    CHECK_EQ_INT(count, 10);
    char plugin[128], api[64];
    const char* loaded[] = {
        "TestHeuristic::Reverse",     "TestHeuristic::NoOptional",          "TestHeuristic::Duplicate",
        "TestHeuristic::Decline",     "TestHeuristic::InvalidPermutation",  "TestHeuristic::DevicePropertiesFail",
        "SelectionHeuristic::Config", "SelectionHeuristic::StaticOrdering", "SelectionHeuristic::ModeA",
        "SelectionHeuristic::ModeB"};
    for (size_t i = 0; i < PT_COUNT(loaded); i++) {
        check_count++;
        if (!policy(h, pid(loaded[i]), plugin, api))
            CHECK_FAIL("policy %s is not listed", loaded[i]);
    }
    const char* rejected[] = {"TestHeuristic::Incomplete", "TestHeuristic::BadApiVersion", "TestHeuristic::EmptyName", ""};
    for (size_t i = 0; i < PT_COUNT(rejected); i++) {
        check_count++;
        if (policy(h, pid(rejected[i]), plugin, api))
            CHECK_FAIL("policy \"%s\" is listed", rejected[i]);
    }
    CHECK(policy(h, pid("TestHeuristic::Reverse"), plugin, api));
    CHECK_STREQ(plugin, "test_good_heuristic_plugin");
    CHECK_STREQ(api, "0.1.0");
    CHECK(policy(h, pid("TestHeuristic::Duplicate"), plugin, api));
    CHECK_STREQ(plugin, "test_duplicate_policy_id_a_plugin"); /* first loaded keeps the id */

    hipdnnBackendDescriptor_t g = pt_pointwise_graph(h, NULL);
    int64_t base[4], ids[4];
    const int64_t o_static[] = {PT_POLICY_STATIC};
    int n = pt_rank(g, 1, o_static, base, 4);
    CHECK_EQ_INT(n, 2);
    int64_t a = base[0], b = base[1];
    CHECK(a != b);

    const int64_t o_rev[] = {pid("TestHeuristic::Reverse")};
    CHECK_IDS(pt_rank(g, 1, o_rev, ids, 4), ids, b, a);
    const int64_t o_noopt[] = {pid("TestHeuristic::NoOptional")};
    CHECK_IDS(pt_rank(g, 1, o_noopt, ids, 4), ids, a, b);
    const int64_t o_dup[] = {pid("TestHeuristic::Duplicate")};
    CHECK_IDS(pt_rank(g, 1, o_dup, ids, 4), ids, b, a); /* plugin a reverses, b would not */

    /* fall-through */
    const int64_t o_decl[] = {pid("TestHeuristic::Decline"), pid("TestHeuristic::Reverse")};
    CHECK_IDS(pt_rank(g, 2, o_decl, ids, 4), ids, b, a);
    const int64_t o_perm[] = {pid("TestHeuristic::InvalidPermutation"), pid("TestHeuristic::Reverse")};
    CHECK_IDS(pt_rank(g, 2, o_perm, ids, 4), ids, b, a);
    const int64_t o_dev[] = {pid("TestHeuristic::DevicePropertiesFail"), pid("TestHeuristic::Reverse")};
    CHECK_IDS(pt_rank(g, 2, o_dev, ids, 4), ids, b, a);
    const int64_t o_dev2[] = {pid("TestHeuristic::DevicePropertiesFail"), pid("TestHeuristic::NoOptional")};
    CHECK_IDS(pt_rank(g, 2, o_dev2, ids, 4), ids, a, b);
    const int64_t o_rejected[] = {pid("TestHeuristic::BadApiVersion"), pid("TestHeuristic::Incomplete"),
                                  pid("TestHeuristic::NoOptional")};
    CHECK_IDS(pt_rank(g, 3, o_rejected, ids, 4), ids, a, b);

    /* alone, each of them fails the finalize */
    expect_fail(g, 1, o_decl);
    expect_fail(g, 1, o_perm);
    expect_fail(g, 1, o_dev);
    expect_fail(g, 1, o_rejected);
    expect_fail(g, 2, o_rejected);
    const int64_t o_three[] = {pid("TestHeuristic::Decline"), pid("TestHeuristic::InvalidPermutation"),
                               pid("TestHeuristic::DevicePropertiesFail")};
    expect_fail(g, 3, o_three);

    /* what the good plugin saw: FinalizeWithHost, host table v2 of 40 bytes, the metric */
    PT_FN(hipdnnTestHeuristicGetLastFinalize_fn, seen, GOOD_HEUR, "hipdnnTestHeuristicGetLastFinalize");
    CHECK(seen != NULL);
    if (seen) {
        int32_t used = -1;
        uint32_t version = 0;
        size_t size = 0;
        char metric[32], arch[128];
        CHECK_IDS(pt_rank(g, 1, o_rev, ids, 4), ids, b, a);
        CHECK_EQ_INT(seen(&used, &version, &size, metric, sizeof metric, arch, sizeof arch), 1);
        CHECK_EQ_INT(used, 1);
        CHECK_EQ_INT(version, 2);
        CHECK_EQ_INT(size, 40);
        CHECK_STREQ(metric, "tflops");
        printf("device arch the good heuristic plugin saw: \"%s\"\n", arch);
        hipdnnBackendDescriptor_t hd = NULL;
        hipdnnBackendDescriptor_t tmp = pt_new(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR);
        hipdnnBackendHeurMode_t mode = HIPDNN_HEUR_MODE_FALLBACK;
        CHECK_OK(hipdnnBackendSetAttribute(tmp, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &g));
        CHECK_OK(hipdnnBackendSetAttribute(tmp, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &mode));
        CHECK_OK(hipdnnBackendSetAttribute(tmp, HIPDNN_ATTR_ENGINEHEUR_POLICY_ORDER_EXT, HIPDNN_TYPE_INT64, 1, o_rev));
        CHECK_OK(hipdnnBackendSetAttribute(tmp, HIPDNN_ATTR_ENGINEHEUR_RANKING_METRIC_EXT, HIPDNN_TYPE_CHAR, 4, "time"));
        CHECK_OK(hipdnnBackendFinalize(tmp));
        hd = tmp;
        CHECK_EQ_INT(seen(&used, &version, &size, metric, sizeof metric, arch, sizeof arch), 1);
        CHECK_STREQ(metric, "time");
        /* its per-engine configs carry the effective metric */
        hipdnnBackendDescriptor_t cfg = pt_new(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR);
        int64_t k = 0;
        CHECK_OK(hipdnnBackendGetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &k, &cfg));
        CHECK_OK(hipdnnBackendFinalize(cfg));
        CHECK_OK(hipdnnBackendGetAttribute(cfg, HIPDNN_ATTR_ENGINECFG_RANKING_METRIC_EXT, HIPDNN_TYPE_CHAR, sizeof metric, &k,
                                           metric));
        CHECK_STREQ(metric, "time");
        hipdnnStatus_t st;
        pt_plan(cfg, &st);
        CHECK_STATUS(HIPDNN_STATUS_SUCCESS, st);
    }

    /* a second handle sees the same policies and gets the same answers */
    hipdnnHandle_t h2 = pt_create(err, sizeof err);
    CHECK_STREQ(err, ""); /* the set is already loaded */
    size_t count2 = 0;
    CHECK_OK(hipdnnGetHeuristicPolicyCount_ext(h2, &count2));
    CHECK_EQ_INT(count2, count);
    hipdnnBackendDescriptor_t g2 = pt_pointwise_graph(h2, NULL);
    CHECK_IDS(pt_rank(g2, 2, o_dev, ids, 4), ids, b, a);

    pt_release_all();
    CHECK_OK(hipdnnDestroy(h2));
    CHECK_OK(hipdnnDestroy(h));
    return check_finish("test_heur_plugins");
}
