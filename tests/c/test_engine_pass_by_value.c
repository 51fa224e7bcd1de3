/* Runtime pass-by-value scalars (RFC 0016; spec plugin_api.md §0, §6 step 7): a graph with an
 * IS_RUNTIME_PASS_BY_VALUE_EXT tensor needs engine API >= 1.2.0 (the 1.0.0 plugin is not
 * offered it), and at execute the host passes the user's host pointer for that tensor, so the
 * recorder plugin (-25) reads exactly the scalar the caller supplied (hipdnnTestRecorderGetLast). */
#define _XOPEN_SOURCE 700
#include <stdlib.h>

#include "plugin_testutil.h"

#define RECORDER PT_CUSTOM("test_pass_by_value_recorder_plugin")

int main(void) {
    const char* files[] = {RECORDER, PT_CUSTOM("test_pass_by_value_plugin"), PT_CUSTOM("test_override_omitting_plugin"), PT_GOOD};
    pt_engine_paths(PT_COUNT(files), files);
    pt_heur_paths(0, NULL);
    hipdnnHandle_t h = pt_create(NULL, 0);
    PT_FN(hipdnnTestRecorderGetLast_fn, last, RECORDER, "hipdnnTestRecorderGetLast");
    PT_FN(hipdnnTestRecorderClear_fn, clear, RECORDER, "hipdnnTestRecorderClear");
    CHECK(last != NULL && clear != NULL);

    pt_graph_opts o = {0, false, true, HIPDNN_DATA_FLOAT, 0};
    hipdnnBackendDescriptor_t g = pt_pointwise_graph(h, &o);
    int64_t ids[8];
    int n = pt_rank(g, -1, NULL, ids, 8);
    CHECK_EQ_INT(n, 3);
    for (int i = 0; i < n; i++)
        CHECK(ids[i] == -25 || ids[i] == -24 || ids[i] == PT_ID_GOOD);
    hipdnnStatus_t st;
    pt_engine(g, -13, &st);
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM, st);
    tu_clear_last_error();
    /* an ordinary graph is offered to the 1.0.0 plugin too */
    hipdnnBackendDescriptor_t plain = pt_pointwise_graph(h, NULL);
    CHECK_EQ_INT(pt_rank(plain, -1, NULL, ids, 8), 4);

    static float x[120], y[120];
    /* The scalars live in 16-byte aligned storage: the host checks every non-NULL pointer
     * against its tensor's alignment (default 16), scalars included. */
    void* mem = NULL;
    CHECK(posix_memalign(&mem, 16, 64) == 0);
    float* scalar = (float*)mem;
    double* dscalar = (double*)mem;
    *scalar = 2.5f;
    int64_t uids[3] = {1, 2, 3};
    void* ptrs[3] = {x, y, scalar};
    hipdnnBackendDescriptor_t plan = pt_plan_for(g, -25);
    hipdnnBackendDescriptor_t pack = pt_pack(3, uids, ptrs, NULL);
    if (clear)
        clear();
    CHECK_OK(hipdnnBackendExecute(h, plan, pack));
    float got = 0;
    if (last) {
        CHECK_EQ_INT(last(3, &got, sizeof got), 4);
        CHECK(got == 2.5f);
        CHECK_EQ_INT(last(1, NULL, 0), -1); /* ordinary tensors are not read */
    }
    /* the pointer, not a copy made when the pack was finalized: a new value is seen */
    *scalar = -7.75f;
    CHECK_OK(hipdnnBackendExecute(h, plan, pack));
    if (last) {
        CHECK_EQ_INT(last(3, &got, sizeof got), 4);
        CHECK(got == -7.75f);
    }

    /* a double scalar: 8 bytes */
    pt_graph_opts od = {0, false, true, HIPDNN_DATA_DOUBLE, 0};
    hipdnnBackendDescriptor_t gd = pt_pointwise_graph(h, &od);
    hipdnnBackendDescriptor_t pland = pt_plan_for(gd, -25);
    double dgot = 0;
    *dscalar = 1.0 / 3.0;
    void* dptrs[3] = {x, y, dscalar};
    CHECK_OK(hipdnnBackendExecute(h, pland, pt_pack(3, uids, dptrs, NULL)));
    if (last) {
        CHECK_EQ_INT(last(3, &dgot, sizeof dgot), 8);
        CHECK(dgot == 1.0 / 3.0);
    }

    /* the scalar missing from the pack: the plugin refuses the execute */
    void* two[2] = {x, y};
    hipdnnBackendDescriptor_t short_pack = pt_pack(2, uids, two, NULL);
    st = hipdnnBackendExecute(h, plan, short_pack);
    char err[HIPDNN_ERROR_STRING_MAX_LENGTH];
    printf("execute without the scalar: %s: %s\n", hipdnnGetErrorString(st), pt_take_error(err, sizeof err));
    CHECK(st == HIPDNN_STATUS_PLUGIN_ERROR || st == HIPDNN_STATUS_BAD_PARAM);

    pt_release_all();
    CHECK_OK(hipdnnDestroy(h));
    free(mem);
    return check_finish("test_engine_pass_by_value");
}
