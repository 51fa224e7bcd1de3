/* Engine, engine config and execution plan descriptors backed by test plugins (items 43-45,
 * 57), execution (success, a plugin failure carried as PLUGIN_ERROR, pointer alignment) and
 * argument checks of hipdnnBackendExecute. Plugins: good (-2; workspace 1024 / 2048),
 * execute-fails (TEST_EXECUTE_FAILS_ENGINE), hashed name, override-omitting (-13, API 1.0.0). */
#define _XOPEN_SOURCE 700
#include <stdlib.h>

#include "plugin_testutil.h"

static const char* NOT_IN_RANGE = "EngineDescriptor::finalize() failed: Engine id is not in a valid range of engine IDs";

static void engine_descriptor(hipdnnBackendDescriptor_t g, hipdnnHandle_t h) {
    hipdnnStatus_t st;
    char err[HIPDNN_ERROR_STRING_MAX_LENGTH];

    /* item 43: an id nobody provides */
    pt_engine(g, 12345, &st);
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM, st);
    CHECK_STREQ(pt_take_error(err, sizeof err), NOT_IN_RANGE);
    pt_engine(g, 0, &st);
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM, st);
    CHECK_STREQ(pt_take_error(err, sizeof err), NOT_IN_RANGE);

    /* item 44: graph and index are required */
    int64_t id = PT_ID_GOOD;
    hipdnnBackendDescriptor_t e = pt_new(HIPDNN_BACKEND_ENGINE_DESCRIPTOR);
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "EngineDescriptor::finalize() failed: required attribute(s) not set: HIPDNN_ATTR_ENGINE_OPERATION_GRAPH, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX",
        hipdnnBackendFinalize(e));
    CHECK_OK(hipdnnBackendSetAttribute(e, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, HIPDNN_TYPE_INT64, 1, &id));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "EngineDescriptor::finalize() failed: required attribute(s) not set: HIPDNN_ATTR_ENGINE_OPERATION_GRAPH",
              hipdnnBackendFinalize(e));
    e = pt_new(HIPDNN_BACKEND_ENGINE_DESCRIPTOR);
    CHECK_OK(hipdnnBackendSetAttribute(e, HIPDNN_ATTR_ENGINE_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &g));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "EngineDescriptor::finalize() failed: required attribute(s) not set: HIPDNN_ATTR_ENGINE_GLOBAL_INDEX",
              hipdnnBackendFinalize(e));
    /* an unfinalized graph cannot be set */
    hipdnnBackendDescriptor_t raw = pt_new(HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR);
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED,
        "EngineDescriptor::setAttribute() failed: the HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR given for HIPDNN_ATTR_ENGINE_OPERATION_GRAPH is not finalized",
        hipdnnBackendSetAttribute(e, HIPDNN_ATTR_ENGINE_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &raw));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "EngineDescriptor::setAttribute() failed: attribute HIPDNN_ATTR_ENGINE_GLOBAL_INDEX takes HIPDNN_TYPE_INT64, not HIPDNN_TYPE_INT32",
        hipdnnBackendSetAttribute(e, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, HIPDNN_TYPE_INT32, 1, &id));
    CHECK_OK(hipdnnBackendSetAttribute(e, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, HIPDNN_TYPE_INT64, 1, &id));
    int64_t n = 0;
    CHECK_ERR(HIPDNN_STATUS_NOT_INITIALIZED, "EngineDescriptor::getAttribute() failed: Not finalized.",
              hipdnnBackendGetAttribute(e, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, HIPDNN_TYPE_INT64, 1, &n, &id));
    CHECK_OK(hipdnnBackendFinalize(e));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "EngineDescriptor::finalize() failed: Already finalized.",
              hipdnnBackendFinalize(e)); /* second finalize */
    CHECK_ERR(HIPDNN_STATUS_NOT_INITIALIZED, "EngineDescriptor::setAttribute() failed: Already finalized.",
              hipdnnBackendSetAttribute(e, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, HIPDNN_TYPE_INT64, 1, &id));
    CHECK_EQ_INT(pt_get_int64(e, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX), PT_ID_GOOD);
    hipdnnBackendDescriptor_t back = NULL;
    CHECK_OK(hipdnnBackendGetAttribute(e, HIPDNN_ATTR_ENGINE_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &n, &back));
    CHECK(back != NULL && back != g);
    if (back)
        CHECK_OK(hipdnnBackendDestroyDescriptor(back));

    /* name (two-call) and behaviour notes come from the plugin */
    char name[64];
    CHECK_OK(hipdnnBackendGetAttribute(e, HIPDNN_ATTR_ENGINE_NAME_EXT, HIPDNN_TYPE_CHAR, 0, &n, NULL));
    CHECK_EQ_INT(n, 19);
    CHECK_OK(hipdnnBackendGetAttribute(e, HIPDNN_ATTR_ENGINE_NAME_EXT, HIPDNN_TYPE_CHAR, sizeof name, &n, name));
    CHECK_STREQ(name, "0xFFFFFFFFFFFFFFFE");
    hipdnnBackendBehaviorNote_t notes[8];
    CHECK_OK(hipdnnBackendGetAttribute(e, HIPDNN_ATTR_ENGINE_BEHAVIOR_NOTE, HIPDNN_TYPE_BEHAVIOR_NOTE, 8, &n, notes));
    CHECK_EQ_INT(n, 1);
    CHECK_EQ_INT(notes[0], HIPDNN_BEHAVIOR_NOTE_SUPPORTS_EXECUTION_PLAN_SERIALIZATION);
    CHECK_OK(hipdnnBackendGetAttribute(e, HIPDNN_ATTR_ENGINE_KNOB_INFO, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0, &n, NULL));
    CHECK_EQ_INT(n, 0);
    hipdnnBackendDescriptor_t eh = pt_engine(g, PT_ID_HASHED, &st);
    CHECK_STATUS(HIPDNN_STATUS_SUCCESS, st);
    CHECK_OK(hipdnnBackendGetAttribute(eh, HIPDNN_ATTR_ENGINE_NAME_EXT, HIPDNN_TYPE_CHAR, sizeof name, &n, name));
    CHECK_STREQ(name, "TEST_HASHED_NAME_ENGINE");
    CHECK_OK(hipdnnBackendGetAttribute(eh, HIPDNN_ATTR_ENGINE_BEHAVIOR_NOTE, HIPDNN_TYPE_BEHAVIOR_NOTE, 8, &n, notes));
    CHECK_EQ_INT(n, 0);
    /* numerical notes are read with their own element type; an attribute engines lack */
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "attribute HIPDNN_ATTR_ENGINE_NUMERICAL_NOTE has type HIPDNN_TYPE_NUMERICAL_NOTE, not HIPDNN_TYPE_INT64",
              hipdnnBackendGetAttribute(e, HIPDNN_ATTR_ENGINE_NUMERICAL_NOTE, HIPDNN_TYPE_INT64, 1, &n, &id));
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED, "EngineDescriptor does not support attribute HIPDNN_ATTR_ENGINE_LAYOUT_INFO",
              hipdnnBackendGetAttribute(e, HIPDNN_ATTR_ENGINE_LAYOUT_INFO, HIPDNN_TYPE_INT64, 1, &n, &id));

    /* item 45: engine config */
    hipdnnBackendDescriptor_t c = pt_new(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR);
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "EngineConfigDescriptor::finalize() failed: required attribute(s) not set: HIPDNN_ATTR_ENGINECFG_ENGINE",
              hipdnnBackendFinalize(c));
    hipdnnBackendDescriptor_t unfinalized_engine = pt_new(HIPDNN_BACKEND_ENGINE_DESCRIPTOR);
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED,
        "EngineConfigDescriptor::setAttribute() failed: the HIPDNN_BACKEND_ENGINE_DESCRIPTOR given for HIPDNN_ATTR_ENGINECFG_ENGINE is not finalized",
        hipdnnBackendSetAttribute(c, HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &unfinalized_engine));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "EngineConfigDescriptor::setAttribute() failed: Descriptor type mismatch: HIPDNN_ATTR_ENGINECFG_ENGINE takes HIPDNN_BACKEND_ENGINE_DESCRIPTOR, not HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR",
        hipdnnBackendSetAttribute(c, HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &g));
    CHECK_OK(hipdnnBackendSetAttribute(c, HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &e));
    int64_t ws = -1;
    CHECK_ERR(HIPDNN_STATUS_NOT_INITIALIZED, "EngineConfigDescriptor::getAttribute() failed: Not finalized.",
              hipdnnBackendGetAttribute(c, HIPDNN_ATTR_ENGINECFG_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1, &n, &ws));
    CHECK_OK(hipdnnBackendFinalize(c));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "EngineConfigDescriptor::finalize() failed: Already finalized.", hipdnnBackendFinalize(c));
    CHECK_OK(hipdnnBackendGetAttribute(c, HIPDNN_ATTR_ENGINECFG_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1, &n, &ws));
    CHECK_EQ_INT(ws, 1024);
    CHECK_EQ_INT(n, 1);
    double d = 0;
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "EngineConfigDescriptor::getAttribute() failed: attribute HIPDNN_ATTR_ENGINECFG_WORKSPACE_SIZE has type HIPDNN_TYPE_INT64, not HIPDNN_TYPE_DOUBLE",
        hipdnnBackendGetAttribute(c, HIPDNN_ATTR_ENGINECFG_WORKSPACE_SIZE, HIPDNN_TYPE_DOUBLE, 1, &n, &d));
    int64_t two[2];
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "EngineConfigDescriptor::getAttribute() failed: HIPDNN_ATTR_ENGINECFG_WORKSPACE_SIZE is one element; requestedElementCount must be 1, got 2",
        hipdnnBackendGetAttribute(c, HIPDNN_ATTR_ENGINECFG_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 2, &n, two));
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
                 hipdnnBackendGetAttribute(c, HIPDNN_ATTR_ENGINECFG_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1, &n, NULL));
    tu_clear_last_error();
    hipdnnBackendDescriptor_t ce = NULL;
    CHECK_OK(hipdnnBackendGetAttribute(c, HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, NULL, &ce));
    if (ce) {
        CHECK_EQ_INT(pt_get_int64(ce, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX), PT_ID_GOOD);
        CHECK_OK(hipdnnBackendDestroyDescriptor(ce));
    }

    /* item 57: execution plan */
    hipdnnBackendDescriptor_t p = pt_new(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR);
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
                 hipdnnBackendSetAttribute(p, HIPDNN_ATTR_EXECUTION_PLAN_HANDLE, HIPDNN_TYPE_HANDLE, 1, NULL));
    tu_clear_last_error();
    ws = 5;
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED,
              "ExecutionPlanDescriptor::setAttribute() failed: attribute HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE is read-only",
              hipdnnBackendSetAttribute(p, HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1, &ws));
    CHECK_ERR(HIPDNN_STATUS_NOT_INITIALIZED, "ExecutionPlanDescriptor::getAttribute() failed: Not finalized.",
              hipdnnBackendGetAttribute(p, HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1, &n, &ws));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "ExecutionPlanDescriptor::finalize() failed: required attribute(s) not set: HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG",
        hipdnnBackendFinalize(p)); /* neither */
    CHECK_OK(hipdnnBackendSetAttribute(p, HIPDNN_ATTR_EXECUTION_PLAN_HANDLE, HIPDNN_TYPE_HANDLE, 1, &h));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "ExecutionPlanDescriptor::finalize() failed: required attribute(s) not set: HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG",
        hipdnnBackendFinalize(p)); /* only the handle */
    hipdnnBackendDescriptor_t unfinalized_cfg = pt_new(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR);
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED,
        "ExecutionPlanDescriptor::setAttribute() failed: the HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR given for HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG is not finalized",
        hipdnnBackendSetAttribute(p, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1,
                                  &unfinalized_cfg));
    CHECK_OK(hipdnnBackendSetAttribute(p, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &c));
    CHECK_OK(hipdnnBackendFinalize(p));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "ExecutionPlanDescriptor::finalize() failed: Already finalized.",
              hipdnnBackendFinalize(p));
    CHECK_EQ_INT(pt_get_int64(p, HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE), 2048);
    CHECK_EQ_INT(pt_get_int64(p, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_GLOBAL_INDEX_EXT), PT_ID_GOOD);
    int64_t uids[4] = {0};
    CHECK_OK(hipdnnBackendGetAttribute(p, HIPDNN_ATTR_EXECUTION_PLAN_TENSOR_UIDS_EXT, HIPDNN_TYPE_INT64, 0, &n, NULL));
    CHECK_EQ_INT(n, 2);
    CHECK_OK(hipdnnBackendGetAttribute(p, HIPDNN_ATTR_EXECUTION_PLAN_TENSOR_UIDS_EXT, HIPDNN_TYPE_INT64, 4, &n, uids));
    CHECK(n == 2 && ((uids[0] == 1 && uids[1] == 2) || (uids[0] == 2 && uids[1] == 1)));

    /* execute */
    static float x[120], y[120];
    char workspace[2048];
    int64_t puids[2] = {1, 2};
    void* ptrs[2] = {x, y};
    hipdnnBackendDescriptor_t pack = pt_pack(2, puids, ptrs, workspace);
    CHECK_OK(hipdnnBackendExecute(h, p, pack));
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, hipdnnBackendExecute(NULL, p, pack));
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, hipdnnBackendExecute(h, NULL, pack));
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, hipdnnBackendExecute(h, p, NULL));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "hipdnnBackendExecute: executionPlan is a HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, not an execution plan",
              hipdnnBackendExecute(h, pack, p)); /* kinds swapped */
    hipdnnBackendDescriptor_t open_pack = pt_new(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR);
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "hipdnnBackendExecute: the variant pack is not finalized",
              hipdnnBackendExecute(h, p, open_pack));
    hipdnnBackendDescriptor_t open_plan = pt_new(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR);
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "hipdnnBackendExecute: the execution plan is not finalized",
              hipdnnBackendExecute(h, open_plan, pack));
}

static void execute_fails(hipdnnBackendDescriptor_t g, hipdnnHandle_t h) {
    hipdnnBackendDescriptor_t p = pt_plan_for(g, PT_ID_EXECUTE_FAILS);
    static float x[120], y[120];
    int64_t uids[2] = {1, 2};
    void* ptrs[2] = {x, y};
    hipdnnBackendDescriptor_t pack = pt_pack(2, uids, ptrs, NULL);
    char err[HIPDNN_ERROR_STRING_MAX_LENGTH];
    CHECK_STATUS(HIPDNN_STATUS_PLUGIN_ERROR, hipdnnBackendExecute(h, p, pack));
    pt_take_error(err, sizeof err);
    printf("execute-fails message: %s\n", err);
    /* "<plugin name>: Failed to <action>. Status: <name>(<n>), Error: <plugin message>" */
    CHECK(strncmp(err, "test_execute_fails_plugin: ", 27) == 0);
    CHECK_CONTAINS(err, "Status: HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR(3), Error: ");
    CHECK_CONTAINS(err, "engine 7168617596315917218 (TEST_EXECUTE_FAILS_ENGINE) fails every execution on purpose");
    /* a second execute fails the same way */
    CHECK_ERR(HIPDNN_STATUS_PLUGIN_ERROR, "fails every execution on purpose", hipdnnBackendExecute(h, p, pack));
}

/* A pointer that misses its tensor's byte alignment is BAD_PARAM, and so is a NULL pointer for a
 * tensor the plan reads or writes or a NULL workspace for a plan that needs one: each named. */
static void alignment(hipdnnHandle_t h) {
    pt_graph_opts o = {64, false, false, HIPDNN_DATA_FLOAT, 0};
    hipdnnBackendDescriptor_t g = pt_pointwise_graph(h, &o);
    /* alignment other than 16 needs engine API 1.3.0: the 1.0.0 plugin is not offered it */
    hipdnnStatus_t st;
    pt_engine(g, -13, &st);
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM, st);
    tu_clear_last_error();
    hipdnnBackendDescriptor_t p = pt_plan_for(g, PT_ID_GOOD);
    void* mem = NULL;
    CHECK(posix_memalign(&mem, 64, 1024) == 0);
    unsigned char* buf = (unsigned char*)mem;
    static float y[120];
    int64_t uids[2] = {1, 2};
    void* ok_ptrs[2] = {buf, y};
    void* bad_ptrs[2] = {buf + 16, y};
    void* null_ptrs[2] = {NULL, y};
    static unsigned char ws[2048]; /* the test engine's workspace */
    CHECK_OK(hipdnnBackendExecute(h, p, pt_pack(2, uids, ok_ptrs, ws)));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "for tensor uid 1 is not aligned to 64 bytes",
              hipdnnBackendExecute(h, p, pt_pack(2, uids, bad_ptrs, ws)));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "variant pack: the pointer for tensor uid 1 (in_0 of a Pointwise node) is NULL",
              hipdnnBackendExecute(h, p, pt_pack(2, uids, null_ptrs, ws)));
    int64_t only_y[1] = {2};
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "variant pack: no pointer for tensor uid 1 (in_0 of a Pointwise node), which the plan for engine 0xFFFFFFFFFFFFFFFE reads or writes",
              hipdnnBackendExecute(h, p, pt_pack(1, only_y, &ok_ptrs[1], ws)));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "variant pack: the workspace is NULL, but the plan for engine 0xFFFFFFFFFFFFFFFE needs 2048 bytes",
              hipdnnBackendExecute(h, p, pt_pack(2, uids, ok_ptrs, NULL)));
    /* without an explicit alignment a tensor needs the default 16 bytes */
    hipdnnBackendDescriptor_t g16 = pt_pointwise_graph(h, NULL);
    hipdnnBackendDescriptor_t p16 = pt_plan_for(g16, PT_ID_GOOD);
    void* ok16[2] = {buf + 16, y};
    void* bad16[2] = {buf + 4, y};
    CHECK_OK(hipdnnBackendExecute(h, p16, pt_pack(2, uids, ok16, ws)));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "for tensor uid 1 is not aligned to 16 bytes",
              hipdnnBackendExecute(h, p16, pt_pack(2, uids, bad16, ws)));
    pt_release_all();
    free(buf);
}

int main(void) {
    const char* files[] = {PT_GOOD, PT_CUSTOM("test_execute_fails_plugin"), PT_HASHED,
                           PT_CUSTOM("test_override_omitting_plugin")};
    pt_engine_paths(PT_COUNT(files), files);
    pt_heur_paths(0, NULL);
    hipdnnHandle_t h = pt_create(NULL, 0);
    CHECK_EQ_INT(pt_engine_count(h), 4);

    hipdnnBackendDescriptor_t g = pt_pointwise_graph(h, NULL);
    engine_descriptor(g, h);
    execute_fails(g, h);
    pt_release_all();
    alignment(h);

    CHECK_OK(hipdnnDestroy(h));
    return check_finish("test_engine_descriptor");
}
