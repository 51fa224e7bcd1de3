/* HIPDNN_HEUR_POLICY_ORDER naming only policies nobody provides (item 55; set by
 * test_heur_env_order_unknown.cmake): every heuristic finalize fails with INTERNAL_ERROR "No
 * heuristic policy succeeded", whatever the attribute says; without candidates no policy runs
 * and the finalize succeeds. */
#include "plugin_testutil.h"

int main(void) {
    const char* engines[] = {PT_GOOD};
    pt_engine_paths(1, engines);
    pt_heur_paths(0, NULL);
    hipdnnHandle_t h = pt_create(NULL, 0);
    hipdnnBackendDescriptor_t g = pt_pointwise_graph(h, NULL);
    char err[HIPDNN_ERROR_STRING_MAX_LENGTH];
    hipdnnBackendDescriptor_t hd = NULL;
    const int64_t both[] = {PT_POLICY_CONFIG, PT_POLICY_STATIC};
    CHECK_STATUS(HIPDNN_STATUS_INTERNAL_ERROR, pt_heur(g, 2, both, &hd));
    CHECK(strncmp(pt_take_error(err, sizeof err), "No heuristic policy succeeded", 29) == 0);
    CHECK_STATUS(HIPDNN_STATUS_INTERNAL_ERROR, pt_heur(g, -1, NULL, &hd));
    CHECK(strncmp(pt_take_error(err, sizeof err), "No heuristic policy succeeded", 29) == 0);
    pt_release_all();
    CHECK_OK(hipdnnDestroy(h));

    const char* none[] = {PT_CUSTOM("test_no_applicable_engines_a_plugin")};
    pt_engine_paths(1, none);
    h = pt_create(NULL, 0);
    g = pt_pointwise_graph(h, NULL);
    CHECK_OK(pt_heur(g, -1, NULL, &hd));
    pt_release_all();
    CHECK_OK(hipdnnDestroy(h));
    return check_finish("test_heur_env_order_unknown");
}
