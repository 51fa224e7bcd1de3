/* Variant packs, execution plans and hipdnnBackendExecute misuse (conformance checklist items
 * 57-61, the parts that need no test plugin), with a plan built on the CPU reference engine:
 * workspace and other plan attributes read back, plan serialization round trip, and execution
 * of the original and the deserialized plan giving the same numbers. */
#include <stdbool.h>

#include "builders.h"
#include "testutil.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

enum { N = 1, C = 2, H = 4, W = 4, K = 3, R = 3, S = 3 };

/* conv (uid 1, 2 -> virtual 3) -> ReLU -> y (uid 4), finalized on h. */
struct graph {
    hipdnnBackendDescriptor_t t[4], conv, relu, g;
};

static void make_graph(struct graph* s, hipdnnHandle_t h) {
    CHECK_OK(tu_tensor4(&s->t[0], 1, NULL, N, C, H, W, false));
    CHECK_OK(tu_tensor4(&s->t[1], 2, NULL, K, C, R, S, false));
    CHECK_OK(tu_tensor4(&s->t[2], 3, NULL, N, K, H, W, true));
    CHECK_OK(tu_tensor4(&s->t[3], 4, NULL, N, K, H, W, false));
    CHECK_OK(tu_conv_fwd(&s->conv, s->t[0], s->t[1], s->t[2], 1, 1, NULL));
    CHECK_OK(tu_pointwise(&s->relu, HIPDNN_POINTWISE_RELU_FWD, s->t[2], NULL, NULL, s->t[3], NULL));
    hipdnnBackendDescriptor_t ops[2] = {s->conv, s->relu};
    CHECK_OK(tu_graph(&s->g, h, 2, ops));
}

static void free_graph(struct graph* s) {
    hipdnnBackendDescriptor_t all[] = {s->g, s->relu, s->conv, s->t[3], s->t[2], s->t[1], s->t[0]};
    for (size_t i = 0; i < N_ELEMS(all); i++)
        CHECK_OK(hipdnnBackendDestroyDescriptor(all[i]));
}

/* The heuristic's first engine config for g. */
static hipdnnBackendDescriptor_t make_config(hipdnnBackendDescriptor_t g) {
    hipdnnBackendDescriptor_t heur = NULL, cfg = NULL;
    CHECK_OK(tu_heur_config(&heur, &cfg, g));
    CHECK_OK(hipdnnBackendDestroyDescriptor(heur));
    return cfg;
}

/* Items 58-60: the variant pack on its own. */
static void check_variant_pack(void) {
    hipdnnBackendDescriptor_t v = NULL;
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, &v));
    float a[4], b[4], ws[4];
    void* ptrs[3] = {a, b, NULL};
    int64_t uids[3] = {10, 20, 30};
    void* wsp = ws;
    int64_t n = -1;

    /* 59: nothing set. */
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "VariantDescriptor::finalize() failed: no HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS",
              hipdnnBackendFinalize(v));
    /* 14: get before finalize. */
    CHECK_ERR(HIPDNN_STATUS_NOT_INITIALIZED, "VariantDescriptor::getAttribute() failed: Not finalized.",
              hipdnnBackendGetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, 3, &n, uids));
    /* 58: wrong types, wrong workspace count, NULL arrays. */
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "VariantDescriptor::setAttribute() failed: attribute HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS takes HIPDNN_TYPE_VOID_PTR, not HIPDNN_TYPE_INT64",
        hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_INT64, 3, ptrs));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "VariantDescriptor::setAttribute() failed: attribute HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS takes HIPDNN_TYPE_INT64, not HIPDNN_TYPE_VOID_PTR",
        hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_VOID_PTR, 3, uids));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "VariantDescriptor::setAttribute() failed: attribute HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS takes HIPDNN_TYPE_INT64, not HIPDNN_TYPE_INT32",
        hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT32, 3, uids));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "VariantDescriptor::setAttribute() failed: attribute HIPDNN_ATTR_VARIANT_PACK_WORKSPACE takes HIPDNN_TYPE_VOID_PTR, not HIPDNN_TYPE_INT64",
        hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_INT64, 1, &wsp));
    void* two_ws[2] = {ws, ws};
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "VariantDescriptor::setAttribute() failed: HIPDNN_ATTR_VARIANT_PACK_WORKSPACE takes exactly 1 element(s), got 2",
              hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR, 2, two_ws));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
              "VariantDescriptor::setAttribute() failed: arrayOfElements is NULL for HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS",
              hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR, 3, NULL));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
              "VariantDescriptor::setAttribute() failed: arrayOfElements is NULL for HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS",
              hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, 3, NULL));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
              "VariantDescriptor::setAttribute() failed: arrayOfElements is NULL for HIPDNN_ATTR_VARIANT_PACK_WORKSPACE",
              hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR, 1, NULL));
    /* spec §3.7: the variant pack rejects a NULL arrayOfElements for every attribute, even with
     * a count of 0. */
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
              "VariantDescriptor::setAttribute() failed: arrayOfElements is NULL for HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS",
              hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR, 0, NULL));
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED,
              "VariantDescriptor does not support attribute HIPDNN_ATTR_VARIANT_PACK_INTERMEDIATES (702",
              hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_INTERMEDIATES, HIPDNN_TYPE_VOID_PTR, 1, ptrs));

    /* 59: mismatched counts. */
    CHECK_OK(hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, 3, uids));
    CHECK_OK(hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR, 2, ptrs));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "VariantDescriptor::finalize() failed: 2 data pointers for 3 unique ids",
              hipdnnBackendFinalize(v));
    /* A later set replaces the earlier value. A NULL data pointer and a NULL workspace are values. */
    CHECK_OK(hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR, 3, ptrs));
    void* nullws = NULL;
    CHECK_OK(hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR, 1, &nullws));
    CHECK_OK(hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR, 1, &wsp));
    /* The pack copies: changing the caller's arrays afterwards changes nothing. */
    uids[0] = 999;
    ptrs[0] = b;
    CHECK_OK(hipdnnBackendFinalize(v));
    CHECK_OK(hipdnnBackendFinalize(v)); /* re-validates */

    /* 60: read back. */
    int64_t ub[4] = {0};
    n = -1;
    CHECK_OK(hipdnnBackendGetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, 0, &n, NULL));
    CHECK_EQ_INT(n, 3);
    CHECK_OK(hipdnnBackendGetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, 4, &n, ub));
    CHECK_EQ_INT(n, 3);
    CHECK(ub[0] == 10 && ub[1] == 20 && ub[2] == 30);
    void* pb[4] = {NULL, NULL, NULL, NULL};
    CHECK_OK(hipdnnBackendGetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR, 4, &n, pb));
    CHECK_EQ_INT(n, 3);
    CHECK(pb[0] == (void*)a && pb[1] == (void*)b && pb[2] == NULL);
    void* pb2[2] = {NULL, NULL}; /* fewer slots: a prefix */
    CHECK_OK(hipdnnBackendGetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR, 2, &n, pb2));
    CHECK_EQ_INT(n, 2);
    CHECK(pb2[0] == (void*)a && pb2[1] == (void*)b);
    void* wb = NULL;
    CHECK_OK(hipdnnBackendGetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR, 1, &n, &wb));
    CHECK(wb == (void*)ws);
    CHECK_EQ_INT(n, 1);
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "VariantDescriptor::getAttribute() failed: HIPDNN_ATTR_VARIANT_PACK_WORKSPACE is one element; requestedElementCount must be 1, got 2",
        hipdnnBackendGetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR, 2, &n, pb));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "VariantDescriptor::getAttribute() failed: attribute HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS has type HIPDNN_TYPE_INT64, not HIPDNN_TYPE_VOID_PTR",
        hipdnnBackendGetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_VOID_PTR, 4, &n, ub));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "VariantDescriptor::getAttribute() failed: attribute HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS has type HIPDNN_TYPE_VOID_PTR, not HIPDNN_TYPE_INT64",
        hipdnnBackendGetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_INT64, 4, &n, pb));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
        "VariantDescriptor::getAttribute() failed: HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS needs both arrayOfElements and elementCount",
        hipdnnBackendGetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR, 4, &n, NULL));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
        "VariantDescriptor::getAttribute() failed: HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS needs both arrayOfElements and elementCount",
        hipdnnBackendGetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR, 4, NULL, pb));
    CHECK_ERR(HIPDNN_STATUS_NOT_INITIALIZED, "VariantDescriptor::setAttribute() failed: Already finalized.",
              hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, 3, uids));
    CHECK_ERR(HIPDNN_STATUS_NOT_INITIALIZED, "VariantDescriptor::setAttribute() failed: Already finalized.",
              hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR, 1, &wsp));
    /* Overrides never set read back with count 0. */
    n = -1;
    CHECK_OK(hipdnnBackendGetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_OVERRIDE_UNIQUE_IDS_EXT, HIPDNN_TYPE_INT64, 4, &n, ub));
    CHECK_EQ_INT(n, 0);
    CHECK_OK(hipdnnBackendDestroyDescriptor(v));

    /* A pack without a workspace is fine. */
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, &v));
    CHECK_OK(hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, 1, uids));
    CHECK_OK(hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR, 1, ptrs));
    CHECK_OK(hipdnnBackendFinalize(v));
    CHECK_OK(hipdnnBackendDestroyDescriptor(v));
}

/* Shape overrides: the finalize rules of spec §3.7. */
static hipdnnStatus_t override_pack(const int64_t* oids, int64_t nids, const int64_t* lens, int64_t nlens, int64_t nshape,
                                    int64_t nstride) {
    hipdnnBackendDescriptor_t v = NULL;
    float a[1], b[1];
    void* ptrs[2] = {a, b};
    int64_t uids[2] = {1, 2};
    int64_t vals[16];
    for (int i = 0; i < 16; i++)
        vals[i] = i + 1;
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, &v));
    CHECK_OK(hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, 2, uids));
    CHECK_OK(hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR, 2, ptrs));
    CHECK_OK(hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_OVERRIDE_UNIQUE_IDS_EXT, HIPDNN_TYPE_INT64, nids, oids));
    CHECK_OK(hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_OVERRIDE_LENGTHS_EXT, HIPDNN_TYPE_INT64, nlens, lens));
    CHECK_OK(hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_OVERRIDE_SHAPES_EXT, HIPDNN_TYPE_INT64, nshape, vals));
    CHECK_OK(hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_OVERRIDE_STRIDES_EXT, HIPDNN_TYPE_INT64, nstride, vals));
    hipdnnStatus_t st = hipdnnBackendFinalize(v);
    if (st == HIPDNN_STATUS_SUCCESS) {
        int64_t back[16], n = -1;
        CHECK_OK(hipdnnBackendGetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_OVERRIDE_SHAPES_EXT, HIPDNN_TYPE_INT64, 16, &n, back));
        CHECK_EQ_INT(n, nshape);
        CHECK(memcmp(back, vals, sizeof(int64_t) * (size_t)nshape) == 0);
        CHECK_OK(hipdnnBackendGetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_OVERRIDE_LENGTHS_EXT, HIPDNN_TYPE_INT64, 16, &n, back));
        CHECK_EQ_INT(n, nlens);
        CHECK(memcmp(back, lens, sizeof(int64_t) * (size_t)nlens) == 0);
    }
    CHECK_OK(hipdnnBackendDestroyDescriptor(v));
    return st;
}

static void check_overrides(void) {
    int64_t ids[2] = {1, 2}, dup[2] = {2, 2}, unknown[2] = {1, 7};
    int64_t lens[2] = {2, 3}, zero[2] = {2, 0};
    CHECK_OK(override_pack(ids, 2, lens, 2, 5, 5));
    CHECK_OK(override_pack(ids, 1, lens, 1, 2, 2));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "VariantDescriptor::finalize() failed: 2 override ids but 1 override lengths",
              override_pack(ids, 2, lens, 1, 2, 2)); /* ids vs lengths */
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "VariantDescriptor::finalize() failed: override id 2 appears twice",
              override_pack(dup, 2, lens, 2, 5, 5)); /* duplicate id */
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "7", override_pack(unknown, 2, lens, 2, 5, 5)); /* not a pack uid */
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "VariantDescriptor::finalize() failed: override length 0 (for id 2) must be in [1, 2^32-1]",
              override_pack(ids, 2, zero, 2, 2, 2)); /* a length of 0 */
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "VariantDescriptor::finalize() failed: the override lengths add up to 5, but there are 4 shape and 5 stride values",
              override_pack(ids, 2, lens, 2, 4, 5)); /* shapes != sum */
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "VariantDescriptor::finalize() failed: the override lengths add up to 5, but there are 5 shape and 6 stride values",
              override_pack(ids, 2, lens, 2, 5, 6)); /* strides != sum */
}

static void fill(float* p, int n, int seed) {
    for (int i = 0; i < n; i++)
        p[i] = (float)(((i + 1) * (seed + 7) * 37) % 23 - 11) / 8.0f;
}

/* Item 57, the CPU engine's workspace, serialization, and item 61 misuse of Execute. */
static void check_plan_and_execute(void) {
    hipdnnHandle_t h = NULL, h2 = NULL;
    CHECK_OK(hipdnnCreate(&h));
    CHECK_OK(hipdnnCreate(&h2));
    tu_clear_last_error();
    struct graph s;
    make_graph(&s, h);
    hipdnnBackendDescriptor_t cfg = make_config(s.g);

    /* 57 */
    hipdnnBackendDescriptor_t plan = NULL;
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, &plan));
    int64_t ws = -1, n = -1;
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
              "ExecutionPlanDescriptor::setAttribute() failed: arrayOfElements is NULL for HIPDNN_ATTR_EXECUTION_PLAN_HANDLE",
              hipdnnBackendSetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_HANDLE, HIPDNN_TYPE_HANDLE, 1, NULL));
    hipdnnHandle_t garbage = (hipdnnHandle_t)0x1234;
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "hipdnnHandle_t 0x1234 was never created or was destroyed long ago",
              hipdnnBackendSetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_HANDLE, HIPDNN_TYPE_HANDLE, 1, &garbage));
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED,
              "ExecutionPlanDescriptor::setAttribute() failed: attribute HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE is read-only",
              hipdnnBackendSetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1, &ws));
    CHECK_ERR(HIPDNN_STATUS_NOT_INITIALIZED, "ExecutionPlanDescriptor::getAttribute() failed: Not finalized.",
              hipdnnBackendGetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1, &n, &ws));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "ExecutionPlanDescriptor::finalize() failed: required attribute(s) not set: HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG",
        hipdnnBackendFinalize(plan)); /* nothing set */
    CHECK_OK(hipdnnBackendSetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_HANDLE, HIPDNN_TYPE_HANDLE, 1, &h));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG", hipdnnBackendFinalize(plan)); /* handle only */
    /* Serializing an unfinalized plan. */
    size_t psize = 0;
    CHECK_ERR(HIPDNN_STATUS_NOT_INITIALIZED, "ExecutionPlanDescriptor: the plan is not finalized",
              hipdnnBackendGetSerializedExecutionPlan_ext(plan, 0, &psize, NULL));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "hipdnnBackendDescriptor_t is nullptr",
              hipdnnBackendGetSerializedExecutionPlan_ext(NULL, 0, &psize, NULL));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "hipdnnBackendGetSerializedExecutionPlan_ext: Descriptor type mismatch: HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR is not an execution plan",
        hipdnnBackendGetSerializedExecutionPlan_ext(s.g, 0, &psize, NULL));
    CHECK_OK(hipdnnBackendSetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &cfg));
    CHECK_OK(hipdnnBackendFinalize(plan));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "ExecutionPlanDescriptor::finalize() failed: Already finalized.",
              hipdnnBackendFinalize(plan));

    /* Workspace: the CPU engine keeps the virtual conv output (N*K*H*W floats) there. */
    n = -1;
    CHECK_OK(hipdnnBackendGetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 0, &n, NULL));
    CHECK_EQ_INT(n, 1);
    CHECK_OK(hipdnnBackendGetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1, &n, &ws));
    CHECK_EQ_INT(n, 1);
    CHECK(ws >= (int64_t)(N * K * H * W * sizeof(float)));
    int64_t cfg_ws = -2;
    CHECK_OK(hipdnnBackendGetAttribute(cfg, HIPDNN_ATTR_ENGINECFG_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1, NULL, &cfg_ws));
    CHECK_EQ_INT(cfg_ws, ws);
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "ExecutionPlanDescriptor::getAttribute() failed: HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE is one element; requestedElementCount must be 1, got 2",
        hipdnnBackendGetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 2, &n, &ws));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "ExecutionPlanDescriptor::getAttribute() failed: attribute HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE has type HIPDNN_TYPE_INT64, not HIPDNN_TYPE_INT32",
        hipdnnBackendGetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, HIPDNN_TYPE_INT32, 1, &n, &ws));
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED,
              "ExecutionPlanDescriptor::getAttribute() failed: attribute HIPDNN_ATTR_EXECUTION_PLAN_HANDLE cannot be read",
              hipdnnBackendGetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_HANDLE, HIPDNN_TYPE_HANDLE, 1, &n, &h));
    CHECK_ERR(HIPDNN_STATUS_NOT_INITIALIZED, "ExecutionPlanDescriptor::setAttribute() failed: Already finalized.",
              hipdnnBackendSetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &cfg));
    /* Tensor UIDs (full-count rule), engine id, override flag. */
    int64_t uids[8] = {0};
    n = -1;
    CHECK_OK(hipdnnBackendGetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_TENSOR_UIDS_EXT, HIPDNN_TYPE_INT64, 0, &n, NULL));
    CHECK_EQ_INT(n, 4);
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "ExecutionPlanDescriptor::getAttribute() failed: HIPDNN_ATTR_EXECUTION_PLAN_TENSOR_UIDS_EXT has 4 elements; requestedElementCount 3 is too small",
        hipdnnBackendGetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_TENSOR_UIDS_EXT, HIPDNN_TYPE_INT64, 3, &n, uids));
    CHECK_OK(hipdnnBackendGetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_TENSOR_UIDS_EXT, HIPDNN_TYPE_INT64, 8, &n, uids));
    CHECK_EQ_INT(n, 4);
    bool seen[5] = {false};
    for (int i = 0; i < 4; i++)
        if (uids[i] >= 1 && uids[i] <= 4)
            seen[uids[i]] = true;
    CHECK(seen[1] && seen[2] && seen[3] && seen[4]);
    hipdnnBackendDescriptor_t eng = NULL;
    int64_t eid = 0, peid = 1;
    CHECK_OK(hipdnnBackendGetAttribute(cfg, HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, NULL, &eng));
    CHECK_OK(hipdnnBackendGetAttribute(eng, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, HIPDNN_TYPE_INT64, 1, NULL, &eid));
    CHECK_OK(hipdnnBackendDestroyDescriptor(eng));
    CHECK_OK(
        hipdnnBackendGetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_GLOBAL_INDEX_EXT, HIPDNN_TYPE_INT64, 1, NULL, &peid));
    CHECK(peid == eid);
    bool ov = true;
    CHECK_OK(hipdnnBackendGetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_IS_OVERRIDE_SHAPE_ENABLED_EXT, HIPDNN_TYPE_BOOLEAN, 1,
                                       NULL, &ov));
    CHECK(!ov);

    /* Buffers. */
    static float x[N * C * H * W], w[K * C * R * S], y1[N * K * H * W], y2[N * K * H * W];
    static float xa[N * C * H * W + 8];
    fill(x, N * C * H * W, 1);
    fill(w, K * C * R * S, 2);
    void* workspace = malloc((size_t)ws + 64);
    void* ptrs[3] = {x, w, y1};
    int64_t puids[3] = {1, 2, 4};
    hipdnnBackendDescriptor_t pack = NULL, raw_pack = NULL;
    CHECK_OK(tu_pack(&pack, 3, puids, ptrs, workspace));
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, &raw_pack));
    hipdnnBackendDescriptor_t raw_plan = NULL;
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, &raw_plan));

    /* 61: NULL, garbage, unfinalized, wrong kinds, destroyed handle. */
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "hipdnnHandle_t is NULL", hipdnnBackendExecute(NULL, plan, pack));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
              "Null pointer provided to hipdnnBackendExecute: executionPlan is NULL", hipdnnBackendExecute(h, NULL, pack));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
              "Null pointer provided to hipdnnBackendExecute: variantPack is NULL", hipdnnBackendExecute(h, plan, NULL));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "hipdnnHandle_t 0x1234 was never created or was destroyed long ago",
              hipdnnBackendExecute(garbage, plan, pack));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "hipdnnBackendDescriptor_t 0x1234 was never created or was destroyed long ago",
              hipdnnBackendExecute(h, (hipdnnBackendDescriptor_t)0x1234, pack));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "hipdnnBackendDescriptor_t 0x1234 was never created or was destroyed long ago",
              hipdnnBackendExecute(h, plan, (hipdnnBackendDescriptor_t)0x1234));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "hipdnnBackendExecute: the execution plan is not finalized",
              hipdnnBackendExecute(h, raw_plan, pack));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "hipdnnBackendExecute: the variant pack is not finalized",
              hipdnnBackendExecute(h, plan, raw_pack));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "hipdnnBackendExecute: executionPlan is a HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, not an execution plan",
              hipdnnBackendExecute(h, pack, plan));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "hipdnnBackendExecute: executionPlan is a HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, not an execution plan",
              hipdnnBackendExecute(h, cfg, pack));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "names an object of another kind", hipdnnBackendExecute((hipdnnHandle_t)plan, plan, pack));
    /* A misaligned pointer for a tensor with the default 16-byte alignment. */
    {
        hipdnnBackendDescriptor_t bad = NULL;
        void* bptrs[3] = {(char*)xa + 4, w, y1};
        if (((uintptr_t)xa + 4) % 16 == 0)
            bptrs[0] = (char*)xa + 8;
        CHECK_OK(tu_pack(&bad, 3, puids, bptrs, workspace));
        CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "align", hipdnnBackendExecute(h, plan, bad));
        CHECK_OK(hipdnnBackendDestroyDescriptor(bad));
    }

    /* It runs; the output is conv + ReLU (spot check: no negative outputs, not all zero). */
    memset(y1, 0xFF, sizeof y1);
    CHECK_OK(hipdnnBackendExecute(h, plan, pack));
    int neg = 0, pos = 0;
    for (int i = 0; i < N * K * H * W; i++) {
        if (!(y1[i] >= 0))
            neg++;
        if (y1[i] > 0)
            pos++;
    }
    CHECK_EQ_INT(neg, 0);
    CHECK(pos > 0);
    /* spec §1 (hipdnnBackendExecute): the passed handle's plugins run the plan; another handle of
     * the same process serves too. */
    CHECK_STATUS(HIPDNN_STATUS_SUCCESS, hipdnnBackendExecute(h2, plan, pack));
    tu_clear_last_error();

    /* Serialization round trip; the restored plan gives the same numbers. */
    psize = 0;
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
              "Null pointer provided to hipdnnBackendGetSerializedExecutionPlan_ext: planByteSize is NULL",
              hipdnnBackendGetSerializedExecutionPlan_ext(plan, 0, NULL, NULL));
    CHECK_OK(hipdnnBackendGetSerializedExecutionPlan_ext(plan, 0, &psize, NULL));
    CHECK(psize > 0);
    uint8_t* blob = malloc(psize);
    size_t got = 0;
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT, "hipdnnBackendGetSerializedExecutionPlan_ext: the buffer holds ",
              hipdnnBackendGetSerializedExecutionPlan_ext(plan, psize - 1, &got, blob));
    CHECK_OK(hipdnnBackendGetSerializedExecutionPlan_ext(plan, psize, &got, blob));
    CHECK_EQ_INT(got, psize);
    int flags = -1;
    CHECK_OK(hipdnnBackendGetSerializedBinaryContents_ext(blob, psize, &flags));
    CHECK_EQ_INT(flags, HIPDNN_SERIALIZED_CONTENT_GRAPH); /* a bare blob is not a container */
    hipdnnBackendDescriptor_t plan2 = NULL;
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "hipdnnHandle_t is NULL",
              hipdnnBackendCreateAndDeserializeExecutionPlan_ext(NULL, &plan2, blob, psize));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
              "Null pointer provided to hipdnnBackendCreateAndDeserializeExecutionPlan_ext: descriptor is NULL",
              hipdnnBackendCreateAndDeserializeExecutionPlan_ext(h, NULL, blob, psize));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
              "Null pointer provided to hipdnnBackendCreateAndDeserializeExecutionPlan_ext: serializedPlan is NULL",
              hipdnnBackendCreateAndDeserializeExecutionPlan_ext(h, &plan2, NULL, psize));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "hipdnnBackendCreateAndDeserializeExecutionPlan_ext: serializedPlan has size 0",
              hipdnnBackendCreateAndDeserializeExecutionPlan_ext(h, &plan2, blob, 0));
    uint8_t junk[64];
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = (uint8_t)(i * 13 + 5);
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "serialized execution plan: serialized execution plan: SerializedExecutionPlan root at 740233733 (1 bytes) exceeds 64-byte buffer",
        hipdnnBackendCreateAndDeserializeExecutionPlan_ext(h, &plan2, junk, sizeof junk));
    CHECK(plan2 == NULL);
    CHECK_OK(hipdnnBackendCreateAndDeserializeExecutionPlan_ext(h, &plan2, blob, psize));
    if (plan2) {
        int64_t ws2 = -1, eid2 = 0;
        CHECK_OK(hipdnnBackendGetAttribute(plan2, HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1, NULL, &ws2));
        CHECK_EQ_INT(ws2, ws);
        CHECK_OK(hipdnnBackendGetAttribute(plan2, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_GLOBAL_INDEX_EXT, HIPDNN_TYPE_INT64, 1, NULL,
                                           &eid2));
        CHECK(eid2 == eid);
        n = -1;
        CHECK_OK(hipdnnBackendGetAttribute(plan2, HIPDNN_ATTR_EXECUTION_PLAN_TENSOR_UIDS_EXT, HIPDNN_TYPE_INT64, 0, &n, NULL));
        CHECK_EQ_INT(n, 4);
        CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "ExecutionPlanDescriptor::finalize() failed: Already finalized.",
                  hipdnnBackendFinalize(plan2)); /* it comes finalized */
        hipdnnBackendDescriptor_t pack2 = NULL;
        void* ptrs2[3] = {x, w, y2};
        CHECK_OK(tu_pack(&pack2, 3, puids, ptrs2, workspace));
        memset(y2, 0, sizeof y2);
        CHECK_OK(hipdnnBackendExecute(h, plan2, pack2));
        CHECK(memcmp(y1, y2, sizeof y1) == 0);
        CHECK_OK(hipdnnBackendDestroyDescriptor(pack2));
        CHECK_OK(hipdnnBackendDestroyDescriptor(plan2));
    }
    free(blob);

    hipdnnBackendDescriptor_t all[] = {raw_plan, raw_pack, pack, plan, cfg};
    for (size_t i = 0; i < N_ELEMS(all); i++)
        CHECK_OK(hipdnnBackendDestroyDescriptor(all[i]));
    free_graph(&s);
    free(workspace);
    CHECK_OK(hipdnnDestroy(h2));
    CHECK_OK(hipdnnDestroy(h));
}

int main(void) {
    check_variant_pack();
    check_overrides();
    check_plan_and_execute();
    return check_finish("test_variant_pack_plan");
}
