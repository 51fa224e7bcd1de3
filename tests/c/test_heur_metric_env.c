/* HIPDNN_HEUR_RANKING_METRIC (" time ", set by test_heur_metric_env.cmake) beats the
 * descriptor's RANKING_METRIC_EXT attribute: the effective metric read back, the metric the
 * good heuristic plugin receives in the host table, and the one stamped on the result configs
 * are all "time". */
#include "plugin_testutil.h"

#define GOOD_HEUR PT_HEUR("test_good_heuristic_plugin")

int main(void) {
    const char* engines[] = {PT_GOOD, PT_HASHED};
    const char* heur[] = {GOOD_HEUR};
    pt_engine_paths(PT_COUNT(engines), engines);
    pt_heur_paths(1, heur);
    hipdnnHandle_t h = pt_create(NULL, 0);
    hipdnnBackendDescriptor_t g = pt_pointwise_graph(h, NULL);

    const int64_t order[] = {pt_fnv1a("TestHeuristic::Reverse")};
    for (int with_attr = 0; with_attr < 2; with_attr++) {
        hipdnnBackendDescriptor_t hd = pt_new(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR);
        hipdnnBackendHeurMode_t mode = HIPDNN_HEUR_MODE_FALLBACK;
        CHECK_OK(hipdnnBackendSetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &g));
        CHECK_OK(hipdnnBackendSetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &mode));
        CHECK_OK(hipdnnBackendSetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_POLICY_ORDER_EXT, HIPDNN_TYPE_INT64, 1, order));
        if (with_attr)
            CHECK_OK(hipdnnBackendSetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_RANKING_METRIC_EXT, HIPDNN_TYPE_CHAR, 6, "tflops"));
        CHECK_OK(hipdnnBackendFinalize(hd));
        char m[16] = "";
        int64_t n = 0;
        CHECK_OK(hipdnnBackendGetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_RANKING_METRIC_EXT, HIPDNN_TYPE_CHAR, sizeof m, &n, m));
        CHECK_STREQ(m, "time");
        PT_FN(hipdnnTestHeuristicGetLastFinalize_fn, seen, GOOD_HEUR, "hipdnnTestHeuristicGetLastFinalize");
        CHECK(seen != NULL);
        if (seen) {
            char metric[16] = "", arch[64];
            CHECK_EQ_INT(seen(NULL, NULL, NULL, metric, sizeof metric, arch, sizeof arch), 1);
            CHECK_STREQ(metric, "time");
        }
        hipdnnBackendDescriptor_t cfg = pt_new(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR);
        CHECK_OK(hipdnnBackendGetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &n, &cfg));
        CHECK_OK(hipdnnBackendGetAttribute(cfg, HIPDNN_ATTR_ENGINECFG_RANKING_METRIC_EXT, HIPDNN_TYPE_CHAR, sizeof m, &n, m));
        CHECK_STREQ(m, "time");
    }
    pt_release_all();
    CHECK_OK(hipdnnDestroy(h));
    return check_finish("test_heur_metric_env");
}
