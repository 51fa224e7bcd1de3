/* Execute-time shape overrides (RFC 0008; spec plugin_api.md §0, §6 step 7): graphs with
 * IS_OVERRIDE_SHAPE_ENABLED_EXT are offered only to plugins with API >= 1.1.0 that export
 * ExecuteOpGraphWithOverrides (-12, -15), not to the 1.0.0 one (-13) nor to the version liar
 * (-14); override executes reach the override entry with the variant pack's shapes and strides
 * (read back through the plugin's accessors), plain executes the plain entry, and overrides
 * are refused with NOT_SUPPORTED on plans that cannot take them, never silently dropped. */
#include "plugin_testutil.h"

#define OVR PT_CUSTOM("test_override_implementing_plugin")
#define OMIT PT_CUSTOM("test_override_omitting_plugin")
#define LIAR PT_CUSTOM("test_version_liar_plugin")
#define SECOND PT_CUSTOM("test_second_override_plugin")

static float xs[120], ys[120];

/* A finalized pack over uids 1, 2 with the given overrides (n = 0: none); returns the finalize
 * status and the pack in *out. */
static hipdnnStatus_t override_pack(int n, const int64_t* ids, const int64_t* lens, int64_t nvals, const int64_t* shapes,
                                    const int64_t* strides, hipdnnBackendDescriptor_t* out) {
    int64_t uids[2] = {1, 2};
    void* ptrs[2] = {xs, ys};
    void* ws = NULL;
    hipdnnBackendDescriptor_t v = pt_new(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR);
    CHECK_OK(hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR, 2, ptrs));
    CHECK_OK(hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, 2, uids));
    CHECK_OK(hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR, 1, &ws));
    if (n > 0) {
        CHECK_OK(hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_OVERRIDE_UNIQUE_IDS_EXT, HIPDNN_TYPE_INT64, n, ids));
        CHECK_OK(hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_OVERRIDE_LENGTHS_EXT, HIPDNN_TYPE_INT64, n, lens));
        CHECK_OK(hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_OVERRIDE_SHAPES_EXT, HIPDNN_TYPE_INT64, nvals, shapes));
        CHECK_OK(hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_OVERRIDE_STRIDES_EXT, HIPDNN_TYPE_INT64, nvals, strides));
    }
    *out = v;
    return hipdnnBackendFinalize(v);
}

typedef struct {
    uint64_t plain, overrides;
    uint32_t last_num;
} stats_t;

static stats_t stats(hipdnnTestGetExecuteStats_fn fn) {
    stats_t s = {0, 0, 0};
    if (fn)
        fn(&s.plain, &s.overrides, &s.last_num);
    return s;
}

int main(void) {
    const char* files[] = {OVR, OMIT, LIAR, SECOND};
    pt_engine_paths(PT_COUNT(files), files);
    pt_heur_paths(0, NULL);
    hipdnnHandle_t h = pt_create(NULL, 0);
    CHECK_EQ_INT(pt_engine_count(h), 4);
    PT_FN(hipdnnTestGetExecuteStats_fn, ovr_stats, OVR, "hipdnnTestGetExecuteStats");
    PT_FN(hipdnnTestGetLastOverride_fn, ovr_last, OVR, "hipdnnTestGetLastOverride");
    PT_FN(hipdnnTestGetExecuteStats_fn, liar_stats, LIAR, "hipdnnTestGetExecuteStats");
    PT_FN(hipdnnTestGetExecuteStats_fn, omit_stats, OMIT, "hipdnnTestGetExecuteStats");
    CHECK(ovr_stats && ovr_last && liar_stats && omit_stats);

    pt_graph_opts o = {0, true, false, HIPDNN_DATA_FLOAT, 0};
    hipdnnBackendDescriptor_t gover = pt_pointwise_graph(h, &o);
    hipdnnBackendDescriptor_t gplain = pt_pointwise_graph(h, NULL);

    /* who is offered what */
    int64_t ids[8];
    int n = pt_rank(gover, -1, NULL, ids, 8);
    CHECK_EQ_INT(n, 2);
    for (int i = 0; i < n; i++)
        CHECK(ids[i] == -12 || ids[i] == -15);
    CHECK_EQ_INT(pt_rank(gplain, -1, NULL, ids, 8), 4);
    hipdnnStatus_t st;
    char err[HIPDNN_ERROR_STRING_MAX_LENGTH];
    pt_engine(gover, -13, &st);
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM, st);
    CHECK_STREQ(pt_take_error(err, sizeof err),
                "EngineDescriptor::finalize() failed: Engine id is not in a valid range of engine IDs");
    pt_engine(gover, -14, &st);
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM, st);
    CHECK_STREQ(pt_take_error(err, sizeof err),
                "EngineDescriptor::finalize() failed: Engine id is not in a valid range of engine IDs");

    /* an override plan: overrides reach the override entry, verbatim */
    hipdnnBackendDescriptor_t plan = pt_plan_for(gover, -12);
    bool flag = false;
    int64_t cnt = 0;
    CHECK_OK(hipdnnBackendGetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_IS_OVERRIDE_SHAPE_ENABLED_EXT, HIPDNN_TYPE_BOOLEAN, 1,
                                       &cnt, &flag));
    CHECK(flag);
    stats_t before = stats(ovr_stats);
    hipdnnBackendDescriptor_t pack = NULL;
    const int64_t oid1[1] = {1}, len1[1] = {4}, shp1[4] = {1, 3, 8, 5}, str1[4] = {120, 40, 5, 1};
    CHECK_OK(override_pack(1, oid1, len1, 4, shp1, str1, &pack));
    CHECK_OK(hipdnnBackendExecute(h, plan, pack));
    stats_t after = stats(ovr_stats);
    CHECK_EQ_INT(after.overrides, before.overrides + 1);
    CHECK_EQ_INT(after.plain, before.plain);
    CHECK_EQ_INT(after.last_num, 1);
    int64_t shape[8] = {0}, strides[8] = {0};
    if (ovr_last) {
        CHECK_EQ_INT(ovr_last(1, shape, strides, 8), 4);
        CHECK(memcmp(shape, shp1, sizeof shp1) == 0);
        CHECK(memcmp(strides, str1, sizeof str1) == 0);
        CHECK_EQ_INT(ovr_last(2, shape, strides, 8), -1);
    }
    /* two tensors of different ranks sliced out of the flat arrays */
    const int64_t oid2[2] = {2, 1}, len2[2] = {4, 3};
    const int64_t shp2[7] = {2, 3, 4, 7, 6, 4, 5}, str2[7] = {84, 28, 7, 1, 20, 5, 1};
    CHECK_OK(override_pack(2, oid2, len2, 7, shp2, str2, &pack));
    CHECK_OK(hipdnnBackendExecute(h, plan, pack));
    after = stats(ovr_stats);
    CHECK_EQ_INT(after.overrides, before.overrides + 2);
    CHECK_EQ_INT(after.last_num, 2);
    if (ovr_last) {
        CHECK_EQ_INT(ovr_last(2, shape, strides, 8), 4);
        CHECK(memcmp(shape, shp2, 4 * sizeof(int64_t)) == 0);
        CHECK(memcmp(strides, str2, 4 * sizeof(int64_t)) == 0);
        CHECK_EQ_INT(ovr_last(1, shape, strides, 8), 3);
        CHECK(memcmp(shape, shp2 + 4, 3 * sizeof(int64_t)) == 0);
        CHECK(memcmp(strides, str2 + 4, 3 * sizeof(int64_t)) == 0);
    }
    /* the same plan without overrides: the plain entry */
    hipdnnBackendDescriptor_t plain_pack = NULL;
    CHECK_OK(override_pack(0, NULL, NULL, 0, NULL, NULL, &plain_pack));
    CHECK_OK(hipdnnBackendExecute(h, plan, plain_pack));
    after = stats(ovr_stats);
    CHECK_EQ_INT(after.plain, before.plain + 1);
    CHECK_EQ_INT(after.overrides, before.overrides + 2);

    /* overrides on a plan whose graph did not enable them */
    CHECK_OK(override_pack(1, oid1, len1, 4, shp1, str1, &pack));
    hipdnnBackendDescriptor_t plain_plan = pt_plan_for(gplain, -12);
    stats_t b2 = stats(ovr_stats);
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED, "execute-time shape overrides: the execution plan for engine",
              hipdnnBackendExecute(h, plain_plan, pack));
    stats_t a2 = stats(ovr_stats);
    CHECK(a2.plain == b2.plain && a2.overrides == b2.overrides);
    /* the liar and the 1.0.0 plugin never see override executes, nor a silent plain call */
    hipdnnBackendDescriptor_t liar_plan = pt_plan_for(gplain, -14);
    hipdnnBackendDescriptor_t omit_plan = pt_plan_for(gplain, -13);
    stats_t lb = stats(liar_stats), ob = stats(omit_stats);
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED, "execute-time shape overrides: the execution plan for engine",
              hipdnnBackendExecute(h, liar_plan, pack));
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED, "execute-time shape overrides: the execution plan for engine",
              hipdnnBackendExecute(h, omit_plan, pack));
    stats_t la = stats(liar_stats), oa = stats(omit_stats);
    CHECK(la.plain == lb.plain && la.overrides == lb.overrides);
    CHECK(oa.plain == ob.plain && oa.overrides == ob.overrides);
    CHECK_OK(hipdnnBackendExecute(h, liar_plan, plain_pack));
    CHECK_EQ_INT(stats(liar_stats).plain, lb.plain + 1);

    /* inconsistent override lists */
    const int64_t lens_two[2] = {4, 4};
    CHECK_OK(override_pack(0, NULL, NULL, 0, NULL, NULL, &pack));
    hipdnnBackendDescriptor_t v = NULL;
    /* one id, two lengths */
    {
        int64_t uids[2] = {1, 2};
        void* ptrs[2] = {xs, ys};
        v = pt_new(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR);
        CHECK_OK(hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR, 2, ptrs));
        CHECK_OK(hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, 2, uids));
        CHECK_OK(hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_OVERRIDE_UNIQUE_IDS_EXT, HIPDNN_TYPE_INT64, 1, oid1));
        CHECK_OK(hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_OVERRIDE_LENGTHS_EXT, HIPDNN_TYPE_INT64, 2, lens_two));
        CHECK_OK(hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_OVERRIDE_SHAPES_EXT, HIPDNN_TYPE_INT64, 4, shp1));
        CHECK_OK(hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_OVERRIDE_STRIDES_EXT, HIPDNN_TYPE_INT64, 4, str1));
        CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "VariantDescriptor::finalize() failed: 1 override ids but 2 override lengths",
                  hipdnnBackendFinalize(v));
    }
    const int64_t len3[1] = {3};
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM, override_pack(1, oid1, len3, 4, shp1, str1, &v)); /* 4 values, rank 3 */
    tu_clear_last_error();
    const int64_t len0[1] = {0};
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM, override_pack(1, oid1, len0, 4, shp1, str1, &v));
    tu_clear_last_error();
    const int64_t oid9[1] = {9};
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM, override_pack(1, oid9, len1, 4, shp1, str1, &v)); /* uid not in the pack */
    tu_clear_last_error();
    const int64_t dup[2] = {1, 1}, lens44[2] = {4, 4}, s8[8] = {1, 3, 8, 5, 1, 3, 8, 5}, t8[8] = {120, 40, 5, 1, 120, 40, 5, 1};
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM, override_pack(2, dup, lens44, 8, s8, t8, &v)); /* uid twice */
    tu_clear_last_error();

    pt_release_all();
    CHECK_OK(hipdnnDestroy(h));
    return check_finish("test_engine_overrides");
}
