/* Execution plan serialization through plugins (spec backend_api.md rows 17-20): the good
 * plugin's plan round trip (two-call size protocol, deserialize on the same and another handle,
 * execute the restored plan), graph-and-plan containers (content flags 3 / 1), a plugin without
 * the serialization entry points (NOT_SUPPORTED), the plugin's serialized buffers all given
 * back, and a plan whose handle was destroyed (execute is BAD_PARAM, no crash). */
#include "plugin_testutil.h"

static float xs[120], ys[120];
static int64_t uids[2] = {1, 2};
static void* ptrs[2] = {xs, ys};

int main(void) {
    const char* files[] = {PT_GOOD, PT_CUSTOM("test_knobs_plugin")};
    pt_engine_paths(PT_COUNT(files), files);
    pt_heur_paths(0, NULL);
    hipdnnHandle_t h = pt_create(NULL, 0);
    PT_FN(hipdnnTestGetLiveObjects_fn, live, PT_GOOD, "hipdnnTestGetLiveObjects");
    CHECK(live != NULL);

    hipdnnBackendDescriptor_t g = pt_pointwise_graph(h, NULL);
    hipdnnBackendDescriptor_t plan = pt_plan_for(g, PT_ID_GOOD);
    static unsigned char ws[2048]; /* the test engine's workspace */
    hipdnnBackendDescriptor_t pack = pt_pack(2, uids, ptrs, ws);

    /* two-call serialization */
    size_t size = 0, size2 = 0;
    CHECK_OK(hipdnnBackendGetSerializedExecutionPlan_ext(plan, 0, &size, NULL));
    CHECK(size > 0);
    uint8_t* blob = (uint8_t*)malloc(size + 16);
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT, "hipdnnBackendGetSerializedExecutionPlan_ext: the buffer holds ",
              hipdnnBackendGetSerializedExecutionPlan_ext(plan, size - 1, &size2, blob));
    CHECK_OK(hipdnnBackendGetSerializedExecutionPlan_ext(plan, size + 16, &size2, blob));
    CHECK_EQ_INT(size2, size);
    if (live)
        CHECK_EQ_INT(live(HIPDNN_TEST_LIVE_SERIALIZED_CONTEXTS), 0);
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, hipdnnBackendGetSerializedExecutionPlan_ext(NULL, 0, &size2, NULL));
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, hipdnnBackendGetSerializedExecutionPlan_ext(plan, 0, NULL, NULL));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "hipdnnBackendGetSerializedExecutionPlan_ext: Descriptor type mismatch: HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR is not an execution plan",
        hipdnnBackendGetSerializedExecutionPlan_ext(g, 0, &size2, NULL));
    hipdnnBackendDescriptor_t open_plan = pt_new(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR);
    CHECK_ERR(HIPDNN_STATUS_NOT_INITIALIZED, "ExecutionPlanDescriptor: the plan is not finalized",
              hipdnnBackendGetSerializedExecutionPlan_ext(open_plan, 0, &size2, NULL));

    /* restore on the same handle and execute */
    hipdnnBackendDescriptor_t restored = NULL;
    CHECK_OK(hipdnnBackendCreateAndDeserializeExecutionPlan_ext(h, &restored, blob, size));
    CHECK(restored != NULL);
    pt_track(restored);
    if (restored) {
        CHECK_EQ_INT(pt_get_int64(restored, HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE), 2048);
        CHECK_EQ_INT(pt_get_int64(restored, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_GLOBAL_INDEX_EXT), PT_ID_GOOD);
        CHECK_OK(hipdnnBackendExecute(h, restored, pack));
        /* a restored plan serializes again */
        size_t again = 0;
        CHECK_OK(hipdnnBackendGetSerializedExecutionPlan_ext(restored, 0, &again, NULL));
        CHECK(again > 0);
    }
    hipdnnBackendDescriptor_t none = NULL;
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
                 hipdnnBackendCreateAndDeserializeExecutionPlan_ext(NULL, &none, blob, size));
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, hipdnnBackendCreateAndDeserializeExecutionPlan_ext(h, NULL, blob, size));
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, hipdnnBackendCreateAndDeserializeExecutionPlan_ext(h, &none, NULL, size));
    tu_clear_last_error();
    uint8_t junk[64];
    memset(junk, 0x5A, sizeof junk);
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "serialized execution plan: serialized execution plan: SerializedExecutionPlan root at 1515870810 (1 bytes) exceeds 64-byte buffer",
        hipdnnBackendCreateAndDeserializeExecutionPlan_ext(h, &none, junk, sizeof junk));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "serialized execution plan: serialized execution plan: tensor_uids at 580 (1 bytes) exceeds 300-byte buffer",
              hipdnnBackendCreateAndDeserializeExecutionPlan_ext(h, &none, blob, size / 2));
    CHECK(none == NULL);

    /* graph-and-plan container */
    size_t csize = 0;
    CHECK_OK(hipdnnBackendGetSerializedBinaryGraphAndPlan_ext(g, plan, 0, &csize, NULL));
    uint8_t* container = (uint8_t*)malloc(csize);
    size_t csize2 = 0;
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT, "hipdnnBackendGetSerializedBinaryGraphAndPlan_ext: the buffer holds ",
              hipdnnBackendGetSerializedBinaryGraphAndPlan_ext(g, plan, csize - 1, &csize2, container));
    CHECK_OK(hipdnnBackendGetSerializedBinaryGraphAndPlan_ext(g, plan, csize, &csize2, container));
    CHECK_EQ_INT(csize2, csize);
    int flags = 0;
    CHECK_OK(hipdnnBackendGetSerializedBinaryContents_ext(container, csize, &flags));
    CHECK_EQ_INT(flags, HIPDNN_SERIALIZED_CONTENT_GRAPH | HIPDNN_SERIALIZED_CONTENT_EXECUTION_PLAN);
    hipdnnBackendDescriptor_t from_container = NULL;
    CHECK_OK(hipdnnBackendCreateAndDeserializeExecutionPlan_ext(h, &from_container, container, csize));
    pt_track(from_container);
    if (from_container)
        CHECK_OK(hipdnnBackendExecute(h, from_container, pack));
    hipdnnBackendDescriptor_t g2 = NULL;
    CHECK_OK(hipdnnBackendCreateAndDeserializeGraph_ext(&g2, container, csize));
    pt_track(g2);
    /* graph only */
    size_t gsize = 0;
    CHECK_OK(hipdnnBackendGetSerializedBinaryGraphAndPlan_ext(g, NULL, 0, &gsize, NULL));
    uint8_t* graph_only = (uint8_t*)malloc(gsize);
    CHECK_OK(hipdnnBackendGetSerializedBinaryGraphAndPlan_ext(g, NULL, gsize, &gsize, graph_only));
    CHECK_OK(hipdnnBackendGetSerializedBinaryContents_ext(graph_only, gsize, &flags));
    CHECK_EQ_INT(flags, HIPDNN_SERIALIZED_CONTENT_GRAPH);
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "the graph-and-plan container holds no execution plan",
              hipdnnBackendCreateAndDeserializeExecutionPlan_ext(h, &none, graph_only, gsize));
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, hipdnnBackendGetSerializedBinaryContents_ext(NULL, gsize, &flags));
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, hipdnnBackendGetSerializedBinaryContents_ext(graph_only, gsize, NULL));
    tu_clear_last_error();

    /* a plugin without the serialization entry points */
    hipdnnBackendDescriptor_t kplan = pt_plan_for(g, -8);
    CHECK_ERR(
        HIPDNN_STATUS_NOT_SUPPORTED,
        "plugin test_knobs_plugin does not export hipdnnEnginePluginSerializeExecutionContext, hipdnnEnginePluginDestroySerializedExecutionContext, hipdnnEnginePluginCreateExecutionContextFromSerialized (plan serialization needs all three entry points",
        hipdnnBackendGetSerializedExecutionPlan_ext(kplan, 0, &size2, NULL));
    CHECK_ERR(
        HIPDNN_STATUS_NOT_SUPPORTED,
        "plugin test_knobs_plugin does not export hipdnnEnginePluginSerializeExecutionContext, hipdnnEnginePluginDestroySerializedExecutionContext, hipdnnEnginePluginCreateExecutionContextFromSerialized (plan serialization needs all three entry points",
        hipdnnBackendGetSerializedBinaryGraphAndPlan_ext(g, kplan, 0, &size2, NULL));

    /* restore on another handle: bound to it */
    hipdnnHandle_t h3 = pt_create(NULL, 0);
    hipdnnBackendDescriptor_t on3 = NULL;
    CHECK_OK(hipdnnBackendCreateAndDeserializeExecutionPlan_ext(h3, &on3, blob, size));
    if (on3) {
        CHECK_OK(hipdnnBackendExecute(h3, on3, pack));
        CHECK_OK(hipdnnBackendDestroyDescriptor(on3));
    }
    CHECK_OK(hipdnnDestroy(h3));

    /* a plan outliving its handle */
    hipdnnHandle_t h2 = pt_create(NULL, 0);
    hipdnnBackendDescriptor_t g_h2 = pt_pointwise_graph(h2, NULL);
    hipdnnBackendDescriptor_t plan_h2 = pt_plan_for(g_h2, PT_ID_GOOD);
    hipdnnBackendDescriptor_t plan_h2_restored = NULL;
    CHECK_OK(hipdnnBackendCreateAndDeserializeExecutionPlan_ext(h2, &plan_h2_restored, blob, size));
    pt_track(plan_h2_restored);
    CHECK_OK(hipdnnBackendExecute(h2, plan_h2, pack));
    int64_t contexts = live ? live(HIPDNN_TEST_LIVE_EXECUTION_CONTEXTS) : 0;
    CHECK_OK(hipdnnDestroy(h2));
    if (live)
        CHECK_EQ_INT(live(HIPDNN_TEST_LIVE_EXECUTION_CONTEXTS), contexts - 2);
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "was already destroyed", hipdnnBackendExecute(h2, plan_h2, pack)); /* stale handle value */
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "hipdnnBackendExecute with a handle other than the plan's: the handle this plan was built with was destroyed",
              hipdnnBackendExecute(h, plan_h2, pack));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "hipdnnBackendExecute with a handle other than the plan's: the handle this plan was built with was destroyed",
              hipdnnBackendExecute(h, plan_h2_restored, pack));
    hipdnnHandle_t h4 = pt_create(NULL, 0);
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "hipdnnBackendExecute with a handle other than the plan's: the handle this plan was built with was destroyed",
              hipdnnBackendExecute(h4, plan_h2, pack));
    CHECK_OK(hipdnnDestroy(h4));

    pt_release_all(); /* destroys plan_h2 and its graph after their handle: no crash */
    if (live) {
        CHECK_EQ_INT(live(HIPDNN_TEST_LIVE_EXECUTION_CONTEXTS), 0);
        CHECK_EQ_INT(live(HIPDNN_TEST_LIVE_SERIALIZED_CONTEXTS), 0);
        CHECK_EQ_INT(live(HIPDNN_TEST_LIVE_ENGINE_DETAILS), 0);
        CHECK_EQ_INT(live(HIPDNN_TEST_LIVE_HANDLES), 1);
    }
    CHECK_OK(hipdnnDestroy(h));
    free(container);
    free(graph_only);

    /* the engine that made the plan is not loaded: refused, nothing written */
    const char* other[] = {PT_HASHED};
    pt_engine_paths(1, other);
    h = pt_create(NULL, 0);
    none = NULL;
    hipdnnStatus_t st = hipdnnBackendCreateAndDeserializeExecutionPlan_ext(h, &none, blob, size);
    char err[HIPDNN_ERROR_STRING_MAX_LENGTH];
    printf("restoring a plan of an engine that is not loaded: %s: %s\n", hipdnnGetErrorString(st),
           pt_take_error(err, sizeof err));
    CHECK(st != HIPDNN_STATUS_SUCCESS);
    CHECK(none == NULL);
    CHECK_OK(hipdnnDestroy(h));
    free(blob);
    return check_finish("test_engine_serialization");
}
