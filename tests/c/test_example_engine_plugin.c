/* The example engine plugin (examples/engine_plugin/relu_engine.cpp, written on the SDK's plugin
 * skeleton) loaded through the backend like any plugin: listed and named, offered the ReLU graph
 * and not the multiply graph, planned and executed on host buffers with every value checked
 * against max(x, 0). The plugin is built from the installed SDK headers by
 * test_example_engine_plugin.cmake and loaded by the path in EXAMPLE_PLUGIN_PATH. */
#include "plugin_testutil.h"

#define EXAMPLE_ENGINE "HIPDNNGO_EXAMPLE_RELU"
#define N 120 /* [2,3,4,5] */

int main(void) {
    const char* files[] = {EXAMPLE_PLUGIN_PATH};
    pt_engine_paths(PT_COUNT(files), files);
    pt_heur_paths(0, NULL);
    char err[HIPDNN_ERROR_STRING_MAX_LENGTH];
    hipdnnHandle_t h = pt_create(err, sizeof err);
    CHECK_STREQ(err, "");
    const int64_t id = pt_fnv1a(EXAMPLE_ENGINE);
    CHECK_EQ_INT(pt_engine_count(h), 1);
    CHECK(pt_has_engine(h, id));
    char name[64];
    CHECK_STREQ(pt_engine_name(h, id, name, sizeof name), EXAMPLE_ENGINE);

    /* y = relu(x): offered, planned without workspace, executed. */
    int64_t ids[8];
    hipdnnBackendDescriptor_t g = pt_pointwise_graph(h, NULL);
    CHECK_IDS(pt_rank(g, -1, NULL, ids, 8), ids, id);
    hipdnnBackendDescriptor_t plan = pt_plan_for(g, id);
    CHECK_EQ_INT(pt_get_int64(plan, HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE), 0);
    float x[N], y[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)(i % 17) * 0.25f - 2.0f; /* negative, zero and positive values */
        y[i] = -99.0f;
    }
    int64_t uids[2] = {1, 2};
    void* ptrs[2] = {x, y};
    CHECK_OK(hipdnnBackendExecute(h, plan, pt_pack(2, uids, ptrs, NULL)));
    int wrong = 0;
    for (int i = 0; i < N; i++) {
        const float want = x[i] > 0.0f ? x[i] : 0.0f;
        if (y[i] != want && wrong++ < 5)
            CHECK_FAIL("y[%d] = %g, want %g (x = %g)", i, (double)y[i], (double)want, (double)x[i]);
    }
    CHECK_EQ_INT(wrong, 0);

    /* y = x * s (a runtime pass-by-value scalar): the engine declines, so nothing is offered. */
    pt_graph_opts mul = {0, false, true, HIPDNN_DATA_FLOAT, 0};
    g = pt_pointwise_graph(h, &mul);
    CHECK_EQ_INT(pt_rank(g, -1, NULL, ids, 8), 0);

    pt_release_all();
    CHECK_OK(hipdnnDestroy(h));
    return check_finish("test_example_engine_plugin");
}
