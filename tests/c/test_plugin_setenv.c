/* Environment variables set by the program itself with setenv() (as AMD's own tests do with a
 * scoped environment variable) must count like the ones it was started with: the backend reads
 * them when it uses them (hipdnnCreate for HIPDNN_PLUGIN_DIR, each heuristic finalize for
 * HIPDNN_HEUR_POLICY_ORDER), not a copy taken when the library was loaded. */
#define _XOPEN_SOURCE 700
#include "plugin_testutil.h"

int main(void) {
    /* before the first backend call */
    CHECK(setenv("HIPDNN_PLUGIN_DIR", PT_DIR "/default", 1) == 0);
    CHECK(unsetenv("HIPDNN_HEUR_POLICY_ORDER") == 0);

    hipdnnHandle_t h = pt_create(NULL, 0);
    CHECK_EQ_INT(pt_loaded_count(h), 1);
    CHECK(pt_loaded_has(h, "/default/libtest_good_default_plugin.so"));
    CHECK(!pt_loaded_has(h, "/libhipdnngo_cpu_reference.so"));
    CHECK(pt_has_engine(h, PT_ID_GOOD_DEFAULT));

    /* a policy order set at run time, after the handle exists */
    hipdnnBackendDescriptor_t g = pt_pointwise_graph(h, NULL);
    CHECK(setenv("HIPDNN_HEUR_POLICY_ORDER", "SelectionHeuristic::StaticOrdering", 1) == 0);
    hipdnnBackendDescriptor_t hd = NULL;
    const int64_t order[] = {PT_POLICY_CONFIG, PT_POLICY_STATIC};
    CHECK_OK(pt_heur(g, 2, order, &hd));
    int64_t got[4] = {0}, n = 0;
    CHECK_OK(hipdnnBackendGetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_POLICY_ORDER_EXT, HIPDNN_TYPE_INT64, 4, &n, got));
    CHECK_EQ_INT(n, 1);
    CHECK_EQ_INT(got[0], PT_POLICY_STATIC);
    CHECK(unsetenv("HIPDNN_HEUR_POLICY_ORDER") == 0);
    CHECK_OK(pt_heur(g, 2, order, &hd));
    CHECK_OK(hipdnnBackendGetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_POLICY_ORDER_EXT, HIPDNN_TYPE_INT64, 4, &n, got));
    CHECK_EQ_INT(n, 2);
    CHECK_EQ_INT(got[0], PT_POLICY_CONFIG);
    CHECK_EQ_INT(got[1], PT_POLICY_STATIC);
    pt_release_all();
    CHECK_OK(hipdnnDestroy(h));
    return check_finish("test_plugin_setenv");
}
