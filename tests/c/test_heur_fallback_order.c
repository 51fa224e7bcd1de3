/* HIPDNN_HEUR_FALLBACK_ENGINE_ORDER (set by test_heur_fallback_order.cmake to
 * "NOT_AN_ENGINE, 6895129033112041900 , TEST_HASHED_NAME_ENGINE,0xFFFFFFFFFFFFFFFE"):
 * SelectionHeuristic::StaticOrdering returns the listed candidates in list order and drops the
 * others (engine -26 here); when no listed engine is a candidate it declines, and with nothing
 * after it the finalize fails. */
#include "plugin_testutil.h"

int main(void) {
    CHECK(getenv("HIPDNN_HEUR_FALLBACK_ENGINE_ORDER") != NULL);
    const char* engines[] = {PT_GOOD, PT_HASHED, PT_GOOD_DEFAULT, PT_CUSTOM("test_lying_engine_name_plugin")};
    pt_engine_paths(PT_COUNT(engines), engines);
    pt_heur_paths(0, NULL);
    hipdnnHandle_t h = pt_create(NULL, 0);
    hipdnnBackendDescriptor_t g = pt_pointwise_graph(h, NULL);
    int64_t ids[8];

    /* four candidates, three listed */
    hipdnnBackendDescriptor_t hd = NULL;
    const int64_t o_static[] = {PT_POLICY_STATIC};
    CHECK_IDS(pt_rank(g, 1, o_static, ids, 8), ids, PT_ID_GOOD_DEFAULT, PT_ID_HASHED, PT_ID_GOOD);
    /* the default order: Config declines (no rule file), StaticOrdering decides */
    CHECK_IDS(pt_rank(g, -1, NULL, ids, 8), ids, PT_ID_GOOD_DEFAULT, PT_ID_HASHED, PT_ID_GOOD);
    pt_release_all();
    CHECK_OK(hipdnnDestroy(h));

    /* no listed engine among the candidates: StaticOrdering declines */
    const char* lying[] = {PT_CUSTOM("test_lying_engine_name_plugin")};
    pt_engine_paths(1, lying);
    h = pt_create(NULL, 0);
    g = pt_pointwise_graph(h, NULL);
    char err[HIPDNN_ERROR_STRING_MAX_LENGTH];
    CHECK_STATUS(HIPDNN_STATUS_INTERNAL_ERROR, pt_heur(g, 1, o_static, &hd));
    CHECK(strncmp(pt_take_error(err, sizeof err), "No heuristic policy succeeded", 29) == 0);
    CHECK_STATUS(HIPDNN_STATUS_INTERNAL_ERROR, pt_heur(g, -1, NULL, &hd));
    CHECK(strncmp(pt_take_error(err, sizeof err), "No heuristic policy succeeded", 29) == 0);
    pt_release_all();
    CHECK_OK(hipdnnDestroy(h));
    return check_finish("test_heur_fallback_order");
}
