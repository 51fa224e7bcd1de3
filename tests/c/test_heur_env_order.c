/* HIPDNN_HEUR_POLICY_ORDER beats the descriptor attribute (item 54): tokens are policy names or
 * decimal int64 ids (negatives allowed), trimmed, empty tokens skipped. The environment (set
 * by test_heur_env_order.cmake) is
 *   "  TestHeuristic::Reverse , ,-5112828146460458467,8780545043193714113  ,"
 * = [TestHeuristic::Reverse, StaticOrdering, Config]. The good heuristic plugin (Reverse)
 * reports through its accessor that it ran, although the attribute did not name it. */
#include "plugin_testutil.h"

#define GOOD_HEUR PT_HEUR("test_good_heuristic_plugin")

static void check_resolved(hipdnnBackendDescriptor_t hd) {
    int64_t got[8] = {0}, n = 0;
    CHECK_OK(hipdnnBackendGetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_POLICY_ORDER_EXT, HIPDNN_TYPE_INT64, 8, &n, got));
    CHECK_IDS((int)n, got, pt_fnv1a("TestHeuristic::Reverse"), PT_POLICY_STATIC, PT_POLICY_CONFIG);
}

int main(void) {
    const char* engines[] = {PT_GOOD, PT_HASHED};
    const char* heur[] = {GOOD_HEUR};
    pt_engine_paths(PT_COUNT(engines), engines);
    pt_heur_paths(1, heur);
    hipdnnHandle_t h = pt_create(NULL, 0);
    hipdnnBackendDescriptor_t g = pt_pointwise_graph(h, NULL);
    PT_FN(hipdnnTestHeuristicGetLastFinalize_fn, seen, GOOD_HEUR, "hipdnnTestHeuristicGetLastFinalize");
    CHECK(seen != NULL);
    if (seen)
        CHECK_EQ_INT(seen(NULL, NULL, NULL, NULL, 0, NULL, 0), 0);

    /* the attribute asks for StaticOrdering only; the environment wins */
    const int64_t o_static[] = {PT_POLICY_STATIC};
    hipdnnBackendDescriptor_t hd = NULL;
    CHECK_OK(pt_heur(g, 1, o_static, &hd));
    check_resolved(hd);
    if (seen)
        CHECK_EQ_INT(seen(NULL, NULL, NULL, NULL, 0, NULL, 0), 1);
    int64_t first[4];
    int n = pt_result_ids(hd, first, 4);
    CHECK_EQ_INT(n, 2);

    /* an explicit empty order would fail; the environment wins again */
    CHECK_OK(pt_heur(g, 0, NULL, &hd));
    check_resolved(hd);
    int64_t ids[4];
    CHECK_IDS(pt_result_ids(hd, ids, 4), ids, first[0], first[1]);
    /* nothing set */
    CHECK_OK(pt_heur(g, -1, NULL, &hd));
    check_resolved(hd);
    CHECK_IDS(pt_result_ids(hd, ids, 4), ids, first[0], first[1]);

    pt_release_all();
    CHECK_OK(hipdnnDestroy(h));
    return check_finish("test_heur_env_order");
}
