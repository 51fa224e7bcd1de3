/* HIPDNN_HEUR_RANKING_METRIC naming no registered metric ("bogus", set by
 * test_heur_metric_env_bad.cmake): every heuristic finalize is BAD_PARAM naming the value,
 * whatever the attribute says, also when no engine applies (the metric is resolved before the
 * candidates are collected, spec plugin_api.md §2.3). */
#include "plugin_testutil.h"

int main(void) {
    const char* engines[] = {PT_GOOD};
    pt_engine_paths(1, engines);
    pt_heur_paths(0, NULL);
    hipdnnHandle_t h = pt_create(NULL, 0);
    hipdnnBackendDescriptor_t g = pt_pointwise_graph(h, NULL);
    hipdnnBackendDescriptor_t hd = NULL;
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "bogus", pt_heur(g, -1, NULL, &hd));
    hd = pt_new(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR);
    hipdnnBackendHeurMode_t mode = HIPDNN_HEUR_MODE_FALLBACK;
    CHECK_OK(hipdnnBackendSetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &g));
    CHECK_OK(hipdnnBackendSetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &mode));
    CHECK_OK(hipdnnBackendSetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_RANKING_METRIC_EXT, HIPDNN_TYPE_CHAR, 4, "time"));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "bogus", hipdnnBackendFinalize(hd));
    pt_release_all();
    CHECK_OK(hipdnnDestroy(h));

    const char* none[] = {PT_CUSTOM("test_no_applicable_engines_a_plugin")};
    pt_engine_paths(1, none);
    h = pt_create(NULL, 0);
    g = pt_pointwise_graph(h, NULL);
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "bogus", pt_heur(g, -1, NULL, &hd));
    pt_release_all();
    CHECK_OK(hipdnnDestroy(h));
    return check_finish("test_heur_metric_env_bad");
}
