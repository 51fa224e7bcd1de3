/* Operation graph descriptor and graph serialization (conformance checklist items 33-42):
 * the graph attribute table (OPS append, size query, full-count rule, returned handles; data
 * types, name, preferred engine id, override flag; reads before finalize), binary and JSON
 * serialization with the two-call convention, deserialization of bad input, the reader-version
 * guard, graph-and-plan containers, and a conv -> bias -> ReLU graph built with descriptors,
 * serialized, deserialized and finalized again. */
#include <stdbool.h>

#include "builders.h"
#include "testutil.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

enum { N = 1, C = 3, H = 5, W = 5, K = 4, R = 3, S = 3 };

/* The pieces of a conv -> bias -> ReLU graph: 6 tensors and 3 operations. */
struct cbr {
    hipdnnBackendDescriptor_t t[6];
    hipdnnBackendDescriptor_t ops[3];
};

static void make_cbr(struct cbr* g) {
    CHECK_OK(tu_tensor4(&g->t[0], 1, "x", N, C, H, W, false));
    CHECK_OK(tu_tensor4(&g->t[1], 2, "w", K, C, R, S, false));
    CHECK_OK(tu_tensor4(&g->t[2], 3, "conv_out", N, K, H, W, true));
    CHECK_OK(tu_tensor4(&g->t[3], 4, "bias", 1, K, 1, 1, false));
    CHECK_OK(tu_tensor4(&g->t[4], 5, "biased", N, K, H, W, true));
    CHECK_OK(tu_tensor4(&g->t[5], 6, "y", N, K, H, W, false));
    CHECK_OK(tu_conv_fwd(&g->ops[0], g->t[0], g->t[1], g->t[2], 1, 1, "conv"));
    CHECK_OK(tu_pointwise(&g->ops[1], HIPDNN_POINTWISE_ADD, g->t[2], g->t[3], NULL, g->t[4], "bias_add"));
    CHECK_OK(tu_pointwise(&g->ops[2], HIPDNN_POINTWISE_RELU_FWD, g->t[4], NULL, NULL, g->t[5], "relu"));
}

static void free_cbr(struct cbr* g) {
    for (size_t i = 0; i < 3; i++)
        CHECK_OK(hipdnnBackendDestroyDescriptor(g->ops[i]));
    for (size_t i = 0; i < 6; i++)
        CHECK_OK(hipdnnBackendDestroyDescriptor(g->t[i]));
}

static int32_t op_type(hipdnnBackendDescriptor_t op) {
    int32_t t = -1;
    CHECK_OK(hipdnnBackendGetAttribute(op, HIPDNN_ATTR_OPERATION_TYPE_EXT, HIPDNN_TYPE_OPERATION_TYPE_EXT, 1, NULL, &t));
    return t;
}

static int64_t op_count(hipdnnBackendDescriptor_t g) {
    int64_t n = -1;
    CHECK_OK(hipdnnBackendGetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0, &n, NULL));
    return n;
}

/* Reads a JSON serialization into a malloc'd string. */
static char* json_of(hipdnnBackendDescriptor_t g) {
    size_t size = 0;
    CHECK_OK(hipdnnBackendGetSerializedJsonGraph_ext(g, 0, &size, NULL));
    if (size == 0)
        return NULL;
    char* s = malloc(size);
    size_t again = 0;
    CHECK_OK(hipdnnBackendGetSerializedJsonGraph_ext(g, size, &again, s));
    CHECK_EQ_INT(again, size);
    CHECK_EQ_INT(strlen(s) + 1, size);
    return s;
}

static uint8_t* binary_of(hipdnnBackendDescriptor_t g, size_t* size) {
    *size = 0;
    CHECK_OK(hipdnnBackendGetSerializedBinaryGraph_ext(g, 0, size, NULL));
    uint8_t* b = malloc(*size ? *size : 1);
    size_t again = 0;
    CHECK_OK(hipdnnBackendGetSerializedBinaryGraph_ext(g, *size, &again, b));
    CHECK_EQ_INT(again, *size);
    return b;
}

/* Items 33, 36 and the attribute table. */
static void check_attributes(hipdnnHandle_t h) {
    struct cbr p;
    make_cbr(&p);
    hipdnnBackendDescriptor_t g = NULL;
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, &g));
    /* 33: nothing set */
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "GraphDescriptor::finalize() failed: required attribute(s) not set: HIPDNN_ATTR_OPERATIONGRAPH_HANDLE",
              hipdnnBackendFinalize(g));
    /* 36: a handle but no operations */
    CHECK_OK(hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &h));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "GraphDescriptor::finalize() failed: the graph has no operations (set HIPDNN_ATTR_OPERATIONGRAPH_OPS",
              hipdnnBackendFinalize(g));
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED,
              "GraphDescriptor::getAttribute() failed: attribute HIPDNN_ATTR_OPERATIONGRAPH_HANDLE cannot be read",
              hipdnnBackendGetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, NULL, &h));

    /* Unset optionals before finalize: OPS count 0, data types and preferred engine count 0. */
    CHECK_EQ_INT(op_count(g), 0);
    static const hipdnnBackendAttributeName_t dtattrs[3] = {HIPDNN_ATTR_OPERATIONGRAPH_COMPUTE_DATA_TYPE_EXT,
                                                            HIPDNN_ATTR_OPERATIONGRAPH_INTERMEDIATE_DATA_TYPE_EXT,
                                                            HIPDNN_ATTR_OPERATIONGRAPH_IO_DATA_TYPE_EXT};
    for (int i = 0; i < 3; i++) {
        int64_t n = -1;
        hipdnnDataType_t dt = (hipdnnDataType_t)77;
        CHECK_OK(hipdnnBackendGetAttribute(g, dtattrs[i], HIPDNN_TYPE_DATA_TYPE, 1, &n, &dt));
        CHECK_EQ_INT(n, 0);
        CHECK_EQ_INT(dt, 77);
    }
    int64_t n = -1, pref = 77;
    CHECK_OK(hipdnnBackendGetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_PREFERRED_ENGINE_ID_EXT, HIPDNN_TYPE_INT64, 1, &n, &pref));
    CHECK_EQ_INT(n, 0);
    CHECK_EQ_INT(pref, 77);
    bool flag = true;
    n = -1; /* the override flag defaults to false */
    CHECK_OK(hipdnnBackendGetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_IS_OVERRIDE_SHAPE_ENABLED_EXT, HIPDNN_TYPE_BOOLEAN, 1, &n,
                                       &flag));
    CHECK_EQ_INT(n, 1);
    CHECK(!flag);

    /* OPS appends: one op, then two more. */
    CHECK_OK(hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &p.ops[0]));
    CHECK_EQ_INT(op_count(g), 1);
    CHECK_OK(hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 2, &p.ops[1]));
    CHECK_EQ_INT(op_count(g), 3);
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "GraphDescriptor::setAttribute() failed: HIPDNN_ATTR_OPERATIONGRAPH_OPS takes at least 1 element(s), got 0",
              hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0, &p.ops[0]));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "GraphDescriptor::setAttribute() failed: attribute HIPDNN_ATTR_OPERATIONGRAPH_OPS takes HIPDNN_TYPE_BACKEND_DESCRIPTOR, not HIPDNN_TYPE_INT64",
        hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_INT64, 1, &p.ops[0]));
    /* Full-count rule: fewer slots than operations is BAD_PARAM. */
    hipdnnBackendDescriptor_t back[4] = {NULL, NULL, NULL, NULL};
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "GraphDescriptor::getAttribute() failed: HIPDNN_ATTR_OPERATIONGRAPH_OPS has 3 elements; requestedElementCount 2 is too small",
        hipdnnBackendGetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 2, &n, back));
    CHECK(back[0] == NULL);
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "GraphDescriptor::getAttribute() failed: attribute HIPDNN_ATTR_OPERATIONGRAPH_OPS has type HIPDNN_TYPE_BACKEND_DESCRIPTOR, not HIPDNN_TYPE_INT64",
        hipdnnBackendGetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_INT64, 3, &n, back));
    n = -1;
    CHECK_OK(hipdnnBackendGetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 4, &n, back));
    CHECK_EQ_INT(n, 3);
    CHECK(back[3] == NULL);
    static const int32_t want_types[3] = {HIPDNN_OPERATION_TYPE_CONVOLUTION_FORWARD_EXT, HIPDNN_OPERATION_TYPE_POINTWISE_EXT,
                                          HIPDNN_OPERATION_TYPE_POINTWISE_EXT};
    for (int i = 0; i < 3; i++) {
        CHECK(back[i] != NULL);
        CHECK(back[i] != p.ops[0] && back[i] != p.ops[1] && back[i] != p.ops[2]); /* new handles */
        CHECK_EQ_INT(op_type(back[i]), want_types[i]);
    }
    char name[32] = {0};
    CHECK_OK(hipdnnBackendGetAttribute(back[1], HIPDNN_ATTR_OPERATION_NAME_EXT, HIPDNN_TYPE_CHAR, sizeof name, &n, name));
    CHECK_STREQ(name, "bias_add");
    for (int i = 0; i < 3; i++)
        CHECK_OK(hipdnnBackendDestroyDescriptor(back[i]));
    /* A second read gives yet other handles. */
    hipdnnBackendDescriptor_t again[3] = {NULL, NULL, NULL};
    CHECK_OK(hipdnnBackendGetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 3, &n, again));
    CHECK_EQ_INT(op_type(again[2]), HIPDNN_OPERATION_TYPE_POINTWISE_EXT);
    for (int i = 0; i < 3; i++)
        CHECK_OK(hipdnnBackendDestroyDescriptor(again[i]));

    /* Data types, name, preferred engine, override flag: set and read back before finalize. */
    hipdnnDataType_t dts[3] = {HIPDNN_DATA_FLOAT, HIPDNN_DATA_HALF, HIPDNN_DATA_BFLOAT16};
    for (int i = 0; i < 3; i++)
        CHECK_OK(hipdnnBackendSetAttribute(g, dtattrs[i], HIPDNN_TYPE_DATA_TYPE, 1, &dts[i]));
    hipdnnDataType_t bad = (hipdnnDataType_t)1000;
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "GraphDescriptor::setAttribute() failed: 1000 is not a hipdnnDataType_t",
              hipdnnBackendSetAttribute(g, dtattrs[0], HIPDNN_TYPE_DATA_TYPE, 1, &bad));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "GraphDescriptor::setAttribute() failed: attribute HIPDNN_ATTR_OPERATIONGRAPH_COMPUTE_DATA_TYPE_EXT takes HIPDNN_TYPE_DATA_TYPE, not HIPDNN_TYPE_INT64",
        hipdnnBackendSetAttribute(g, dtattrs[0], HIPDNN_TYPE_INT64, 1, &pref));
    for (int i = 0; i < 3; i++) {
        hipdnnDataType_t dt = (hipdnnDataType_t)77;
        n = -1;
        CHECK_OK(hipdnnBackendGetAttribute(g, dtattrs[i], HIPDNN_TYPE_DATA_TYPE, 1, &n, &dt));
        CHECK_EQ_INT(n, 1);
        CHECK_EQ_INT(dt, dts[i]);
    }
    const char* gname = "conv_bias_relu";
    CHECK_OK(hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_NAME_EXT, HIPDNN_TYPE_CHAR, (int64_t)strlen(gname), gname));
    n = -1;
    CHECK_OK(hipdnnBackendGetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_NAME_EXT, HIPDNN_TYPE_CHAR, 0, &n, NULL));
    CHECK_EQ_INT(n, (int64_t)strlen(gname) + 1);
    char nb[64];
    CHECK_OK(hipdnnBackendGetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_NAME_EXT, HIPDNN_TYPE_CHAR, sizeof nb, &n, nb));
    CHECK_STREQ(nb, gname);
    pref = -7424244430098340505LL;
    CHECK_OK(hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_PREFERRED_ENGINE_ID_EXT, HIPDNN_TYPE_INT64, 1, &pref));
    int64_t prefback = 0;
    n = -1;
    CHECK_OK(
        hipdnnBackendGetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_PREFERRED_ENGINE_ID_EXT, HIPDNN_TYPE_INT64, 1, &n, &prefback));
    CHECK_EQ_INT(n, 1);
    CHECK(prefback == pref);
    flag = true;
    CHECK_OK(
        hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_IS_OVERRIDE_SHAPE_ENABLED_EXT, HIPDNN_TYPE_BOOLEAN, 1, &flag));
    flag = false;
    CHECK_OK(hipdnnBackendGetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_IS_OVERRIDE_SHAPE_ENABLED_EXT, HIPDNN_TYPE_BOOLEAN, 1, &n,
                                       &flag));
    CHECK(flag);
    flag = false;
    CHECK_OK(
        hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_IS_OVERRIDE_SHAPE_ENABLED_EXT, HIPDNN_TYPE_BOOLEAN, 1, &flag));
    /* Attributes hipDNN does not support on graphs. */
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED,
              "GraphDescriptor does not support attribute HIPDNN_ATTR_OPERATIONGRAPH_ENGINE_GLOBAL_COUNT (602",
              hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_ENGINE_GLOBAL_COUNT, HIPDNN_TYPE_INT64, 1, &pref));
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED,
              "GraphDescriptor does not support attribute HIPDNN_ATTR_OPERATIONGRAPH_ENGINE_GLOBAL_COUNT (602",
              hipdnnBackendGetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_ENGINE_GLOBAL_COUNT, HIPDNN_TYPE_INT64, 1, &n, &pref));
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED,
              "GraphDescriptor does not support attribute HIPDNN_ATTR_OPERATIONGRAPH_IS_DYNAMIC_SHAPE_ENABLED (603",
              hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_IS_DYNAMIC_SHAPE_ENABLED, HIPDNN_TYPE_BOOLEAN, 1, &flag));
    CHECK_ERR(
        HIPDNN_STATUS_NOT_SUPPORTED,
        "GraphDescriptor does not support attribute HIPDNN_ATTR_OPERATIONGRAPH_IS_DYNAMIC_SHAPE_ENABLED (603",
        hipdnnBackendGetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_IS_DYNAMIC_SHAPE_ENABLED, HIPDNN_TYPE_BOOLEAN, 1, &n, &flag));

    CHECK_OK(hipdnnBackendFinalize(g));
    CHECK_ERR(HIPDNN_STATUS_NOT_INITIALIZED, "GraphDescriptor::setAttribute() failed: Already finalized.",
              hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_NAME_EXT, HIPDNN_TYPE_CHAR, 1, "x"));
    CHECK_ERR(HIPDNN_STATUS_NOT_INITIALIZED, "GraphDescriptor::setAttribute() failed: Already finalized.",
              hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &h));
    CHECK_EQ_INT(op_count(g), 3);
    CHECK_OK(hipdnnBackendDestroyDescriptor(g));

    /* Operations outlive the caller's handles: a graph keeps them. */
    hipdnnBackendDescriptor_t g2 = NULL;
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, &g2));
    CHECK_OK(hipdnnBackendSetAttribute(g2, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 3, p.ops));
    free_cbr(&p);
    CHECK_OK(hipdnnBackendSetAttribute(g2, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &h));
    CHECK_OK(hipdnnBackendFinalize(g2));
    CHECK_OK(hipdnnBackendDestroyDescriptor(g2));
}

/* Items 37, 38, 41 (output side): the two-call convention for binary and JSON. */
static void check_serialize_calls(hipdnnHandle_t h) {
    size_t size = 0;
    uint8_t byte = 0;
    /* 38: an empty, never-finalized graph serializes. */
    hipdnnBackendDescriptor_t empty = NULL;
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, &empty));
    CHECK_OK(hipdnnBackendGetSerializedBinaryGraph_ext(empty, 0, &size, NULL));
    CHECK(size > 0);
    size = 0;
    CHECK_OK(hipdnnBackendGetSerializedJsonGraph_ext(empty, 0, &size, NULL));
    CHECK(size > 1);
    CHECK_OK(hipdnnBackendDestroyDescriptor(empty));

    struct cbr p;
    make_cbr(&p);
    hipdnnBackendDescriptor_t g = NULL;
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, &g));
    CHECK_OK(hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 3, p.ops));
    CHECK_OK(hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_NAME_EXT, HIPDNN_TYPE_CHAR, 3, "cbr"));
    hipdnnDataType_t f = HIPDNN_DATA_FLOAT;
    CHECK_OK(hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_COMPUTE_DATA_TYPE_EXT, HIPDNN_TYPE_DATA_TYPE, 1, &f));

    /* 37: NULL arguments and a descriptor of another kind. */
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "hipdnnBackendDescriptor_t is nullptr",
              hipdnnBackendGetSerializedBinaryGraph_ext(NULL, 0, &size, NULL));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
              "Null pointer provided to hipdnnBackendGetSerializedBinaryGraph_ext: graphByteSize is NULL",
              hipdnnBackendGetSerializedBinaryGraph_ext(g, 0, NULL, NULL));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "hipdnnBackendGetSerializedBinaryGraph_ext: Descriptor type mismatch: HIPDNN_BACKEND_TENSOR_DESCRIPTOR is not an operation graph",
        hipdnnBackendGetSerializedBinaryGraph_ext(p.t[0], 0, &size, NULL));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "hipdnnBackendDescriptor_t 0x1234 was never created or was destroyed long ago",
              hipdnnBackendGetSerializedBinaryGraph_ext((hipdnnBackendDescriptor_t)0x1234, 0, &size, NULL));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "hipdnnBackendDescriptor_t is nullptr",
              hipdnnBackendGetSerializedJsonGraph_ext(NULL, 0, &size, NULL));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
              "Null pointer provided to hipdnnBackendGetSerializedJsonGraph_ext: graphByteSize is NULL",
              hipdnnBackendGetSerializedJsonGraph_ext(g, 0, NULL, NULL));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "hipdnnBackendGetSerializedJsonGraph_ext: Descriptor type mismatch: HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR is not an operation graph",
        hipdnnBackendGetSerializedJsonGraph_ext(p.ops[0], 0, &size, NULL));

    /* Binary: query, exact, larger, smaller. Not finalized yet (38). */
    size = 0;
    CHECK_OK(hipdnnBackendGetSerializedBinaryGraph_ext(g, 0, &size, NULL));
    CHECK(size > 0);
    size_t want = size;
    uint8_t* exact = malloc(want);
    uint8_t* larger = malloc(want + 64);
    memset(larger, 0xEE, want + 64);
    size = 0;
    CHECK_OK(hipdnnBackendGetSerializedBinaryGraph_ext(g, want, &size, exact));
    CHECK_EQ_INT(size, want);
    size = 0;
    CHECK_OK(hipdnnBackendGetSerializedBinaryGraph_ext(g, want + 64, &size, larger));
    CHECK_EQ_INT(size, want);
    CHECK(memcmp(exact, larger, want) == 0);
    CHECK(larger[want] == 0xEE); /* nothing past the blob */
    size = 0;
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT, "hipdnnBackendGetSerializedBinaryGraph_ext: the buffer holds ",
              hipdnnBackendGetSerializedBinaryGraph_ext(g, want - 1, &size, larger));
    CHECK_EQ_INT(size, want); /* the size is reported even then */
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT, "hipdnnBackendGetSerializedBinaryGraph_ext: the buffer holds ",
              hipdnnBackendGetSerializedBinaryGraph_ext(g, 1, &size, &byte));
    /* A size query with a non-zero requested size and NULL buffer is still a query. */
    size = 0;
    CHECK_OK(hipdnnBackendGetSerializedBinaryGraph_ext(g, 12345, &size, NULL));
    CHECK_EQ_INT(size, want);

    /* JSON: the size includes the NUL; one byte short fails. */
    size = 0;
    CHECK_OK(hipdnnBackendGetSerializedJsonGraph_ext(g, 0, &size, NULL));
    size_t jwant = size;
    char* js = malloc(jwant + 8);
    memset(js, '#', jwant + 8);
    CHECK_OK(hipdnnBackendGetSerializedJsonGraph_ext(g, jwant, &size, js));
    CHECK_EQ_INT(size, jwant);
    CHECK_EQ_INT(strlen(js) + 1, jwant);
    size = 0;
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT, "hipdnnBackendGetSerializedJsonGraph_ext: the buffer holds ",
              hipdnnBackendGetSerializedJsonGraph_ext(g, jwant - 1, &size, js));
    CHECK_EQ_INT(size, jwant);
    CHECK_OK(hipdnnBackendGetSerializedJsonGraph_ext(g, jwant + 8, &size, js));
    CHECK_EQ_INT(size, jwant);
    /* 41: the JSON has the documented keys. */
    static const char* keys[] = {"\"name\"", "\"compute_data_type\"", "\"nodes\"", "\"tensors\"", "\"cbr\""};
    for (size_t i = 0; i < N_ELEMS(keys); i++)
        if (strstr(js, keys[i]) == NULL)
            CHECK_FAIL("graph JSON lacks %s", keys[i]);

    /* Finalizing does not change what an unchanged graph serializes to. */
    CHECK_OK(hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &h));
    CHECK_OK(hipdnnBackendFinalize(g));
    size_t fsize = 0;
    uint8_t* fin = binary_of(g, &fsize);
    CHECK_EQ_INT(fsize, want);
    CHECK(fsize == want && memcmp(fin, exact, want) == 0);
    free(fin);

    free(js);
    free(larger);
    free(exact);
    CHECK_OK(hipdnnBackendDestroyDescriptor(g));
    free_cbr(&p);
}

/* A hand-written JSON relu graph; EXTRA is spliced in as extra top-level members. */
#define RELU_JSON(EXTRA)                                                                                      \
    "{" EXTRA "\"name\": \"json_relu\", \"compute_data_type\": \"float\", \"io_data_type\": \"float\","       \
    " \"intermediate_data_type\": \"float\", \"tensors\": [{\"uid\": 1, \"name\": \"x\", \"dims\": [2, 3],"   \
    " \"strides\": [3, 1], \"data_type\": \"float\", \"virtual\": false}, {\"uid\": 2, \"name\": \"y\","      \
    " \"dims\": [2, 3], \"strides\": [3, 1], \"data_type\": \"float\", \"virtual\": false}], \"nodes\": "     \
    "[{\"name\": \"relu_node\", \"type\": \"PointwiseAttributes\", \"compute_data_type\": \"float\","         \
    " \"inputs\": {\"operation\": \"relu_fwd\", \"in_0_tensor_uid\": 1}, \"outputs\": {\"out_0_tensor_uid\":" \
    " 2}}]}"

/* Items 34, 35, 40, 41 (input side): deserialization of good and bad input. */
static void check_deserialize(hipdnnHandle_t h) {
    static const char good[] = RELU_JSON("");
    hipdnnBackendDescriptor_t d = NULL;

    /* 41: NULL text, NULL out, size 0, invalid text, valid JSON that is no graph. */
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
              "Null pointer provided to hipdnnBackendCreateAndDeserializeJsonGraph_ext: jsonGraph is NULL",
              hipdnnBackendCreateAndDeserializeJsonGraph_ext(&d, NULL, 10));
    CHECK(d == NULL);
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
              "Null pointer provided to hipdnnBackendCreateAndDeserializeJsonGraph_ext: descriptor is NULL",
              hipdnnBackendCreateAndDeserializeJsonGraph_ext(NULL, good, strlen(good)));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "hipdnnBackendCreateAndDeserializeJsonGraph_ext: jsonGraph has size 0",
              hipdnnBackendCreateAndDeserializeJsonGraph_ext(&d, good, 0));
    CHECK(d == NULL);
    static const char* not_graphs[] = {"{ this is not json", "[1, 2, 3]", "\"a string\"", "{\"nodes\": 5}", "{\"tensors\": {}}"};
    for (size_t i = 0; i < N_ELEMS(not_graphs); i++) {
        d = NULL;
        tu_clear_last_error();
        hipdnnStatus_t st = hipdnnBackendCreateAndDeserializeJsonGraph_ext(&d, not_graphs[i], strlen(not_graphs[i]));
        if (st != HIPDNN_STATUS_BAD_PARAM)
            CHECK_FAIL("JSON %s: got %s, want BAD_PARAM", not_graphs[i], hipdnnGetErrorString(st));
        if (d != NULL)
            CHECK_FAIL("JSON %s: out pointer written on failure", not_graphs[i]);
        char msg[HIPDNN_ERROR_STRING_MAX_LENGTH];
        hipdnnGetLastErrorString(msg, sizeof msg);
        if (msg[0] == '\0')
            CHECK_FAIL("JSON %s: no last error", not_graphs[i]);
    }
    /* Truncated JSON text. */
    d = NULL;
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "JSON graph: graph JSON: unexpected end of input",
              hipdnnBackendCreateAndDeserializeJsonGraph_ext(&d, good, strlen(good) / 2));
    CHECK(d == NULL);

    /* Valid JSON with and without its NUL; 35: handle + finalize succeeds. */
    CHECK_OK(hipdnnBackendCreateAndDeserializeJsonGraph_ext(&d, good, strlen(good)));
    CHECK(d != NULL);
    hipdnnBackendDescriptor_t d2 = NULL;
    CHECK_OK(hipdnnBackendCreateAndDeserializeJsonGraph_ext(&d2, good, sizeof good));
    CHECK(d2 != NULL);
    CHECK_EQ_INT(op_count(d), 1);
    char name[32] = {0};
    int64_t n = -1;
    CHECK_OK(hipdnnBackendGetAttribute(d, HIPDNN_ATTR_OPERATIONGRAPH_NAME_EXT, HIPDNN_TYPE_CHAR, sizeof name, &n, name));
    CHECK_STREQ(name, "json_relu");
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "GraphDescriptor::finalize() failed: required attribute(s) not set: HIPDNN_ATTR_OPERATIONGRAPH_HANDLE",
              hipdnnBackendFinalize(d)); /* no handle yet */
    CHECK_OK(hipdnnBackendSetAttribute(d, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &h));
    CHECK_OK(hipdnnBackendFinalize(d));

    /* 34: binary input. */
    size_t bsize = 0;
    uint8_t* bin = binary_of(d, &bsize);
    hipdnnBackendDescriptor_t b = NULL;
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
              "Null pointer provided to hipdnnBackendCreateAndDeserializeGraph_ext: serializedGraph is NULL",
              hipdnnBackendCreateAndDeserializeGraph_ext(&b, NULL, 0));
    CHECK(b == NULL);
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
              "Null pointer provided to hipdnnBackendCreateAndDeserializeGraph_ext: serializedGraph is NULL",
              hipdnnBackendCreateAndDeserializeGraph_ext(&b, NULL, bsize));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
              "Null pointer provided to hipdnnBackendCreateAndDeserializeGraph_ext: descriptor is NULL",
              hipdnnBackendCreateAndDeserializeGraph_ext(NULL, bin, bsize));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "hipdnnBackendCreateAndDeserializeGraph_ext: serializedGraph has size 0",
              hipdnnBackendCreateAndDeserializeGraph_ext(&b, bin, 0));
    CHECK(b == NULL);
    uint8_t garbage[256];
    for (size_t i = 0; i < sizeof garbage; i++)
        garbage[i] = (uint8_t)(i * 37 + 11);
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "serialized graph: graph buffer truncated: graph.root: root table at 2052403211 (1 bytes) exceeds 256-byte buffer",
              hipdnnBackendCreateAndDeserializeGraph_ext(&b, garbage, sizeof garbage));
    CHECK(b == NULL);
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "serialized graph: graph buffer truncated: 3 bytes, a flatbuffer needs at least 12",
              hipdnnBackendCreateAndDeserializeGraph_ext(&b, garbage, 3));
    CHECK(b == NULL);
    /* (A cut of a byte or two may only remove alignment padding, which is still a valid buffer.) */
    static const size_t cuts[] = {8, 16, 32};
    for (size_t i = 0; i < N_ELEMS(cuts); i++) {
        b = NULL;
        if (cuts[i] >= bsize)
            continue;
        hipdnnStatus_t st = hipdnnBackendCreateAndDeserializeGraph_ext(&b, bin, bsize - cuts[i]);
        if (st != HIPDNN_STATUS_BAD_PARAM)
            CHECK_FAIL("graph truncated by %zu bytes: got %s, want BAD_PARAM", cuts[i], hipdnnGetErrorString(st));
        if (b != NULL)
            CHECK_FAIL("truncated graph: out pointer written");
    }
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM, hipdnnBackendCreateAndDeserializeGraph_ext(&b, bin, bsize / 2));
    CHECK(b == NULL);
    /* A JSON text is not a binary graph. */
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM, hipdnnBackendCreateAndDeserializeGraph_ext(&b, (const uint8_t*)good, strlen(good)));
    CHECK(b == NULL);
    tu_clear_last_error();
    CHECK_OK(hipdnnBackendCreateAndDeserializeGraph_ext(&b, bin, bsize));
    CHECK(b != NULL);
    CHECK_OK(hipdnnBackendSetAttribute(b, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &h));
    CHECK_OK(hipdnnBackendFinalize(b));
    /* The deserialized ops are finalized: they cannot be changed. */
    hipdnnBackendDescriptor_t op = NULL;
    CHECK_OK(hipdnnBackendGetAttribute(b, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &n, &op));
    hipdnnPointwiseMode_t m = HIPDNN_POINTWISE_ABS;
    CHECK_STATUS(HIPDNN_STATUS_NOT_INITIALIZED,
                 hipdnnBackendSetAttribute(op, HIPDNN_ATTR_POINTWISE_MODE, HIPDNN_TYPE_POINTWISE_MODE, 1, &m));
    CHECK_OK(hipdnnBackendGetAttribute(op, HIPDNN_ATTR_POINTWISE_MODE, HIPDNN_TYPE_POINTWISE_MODE, 1, &n, &m));
    CHECK_EQ_INT(m, HIPDNN_POINTWISE_RELU_FWD);
    CHECK_OK(hipdnnBackendDestroyDescriptor(op));
    tu_clear_last_error();

    /* 40: reader-version guard. Versions this build hosts load; one far above does not. */
    static const char newer[] = RELU_JSON("\"min_required_engine_api_version\": {\"major\": 999, \"minor\": 0, \"patch\": 0}, ");
    static const char older[] = RELU_JSON("\"min_required_engine_api_version\": {\"major\": 1, \"minor\": 0, \"patch\": 0}, ");
    hipdnnBackendDescriptor_t v = NULL;
    CHECK_OK(hipdnnBackendCreateAndDeserializeJsonGraph_ext(&v, older, strlen(older)));
    if (v)
        CHECK_OK(hipdnnBackendDestroyDescriptor(v));
    v = NULL;
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED,
              "graph: min_required_engine_api_version is 999.0.0, but this build hosts engine plugin API versions up to 1.4.0",
              hipdnnBackendCreateAndDeserializeJsonGraph_ext(&v, newer, strlen(newer)));
    CHECK(v == NULL);
    if (v)
        CHECK_OK(hipdnnBackendDestroyDescriptor(v));

    /* 40: a runtime pass-by-value tensor raises the version the graph declares. */
    {
        char* plain = json_of(d);
        hipdnnBackendDescriptor_t x = NULL, y = NULL, rop = NULL, rg = NULL;
        const int64_t dims[2] = {2, 3};
        bool yes = true;
        CHECK_OK(tu_tensor_open(&x, 1, HIPDNN_DATA_FLOAT, 2, dims));
        CHECK_OK(hipdnnBackendSetAttribute(x, HIPDNN_ATTR_TENSOR_IS_RUNTIME_PASS_BY_VALUE_EXT, HIPDNN_TYPE_BOOLEAN, 1, &yes));
        CHECK_OK(hipdnnBackendFinalize(x));
        CHECK_OK(tu_tensor_open(&y, 2, HIPDNN_DATA_FLOAT, 2, dims));
        CHECK_OK(hipdnnBackendFinalize(y));
        CHECK_OK(tu_pointwise(&rop, HIPDNN_POINTWISE_RELU_FWD, x, NULL, NULL, y, "relu"));
        CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, &rg));
        CHECK_OK(hipdnnBackendSetAttribute(rg, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &rop));
        char* pbv = json_of(rg);
        const char* key = "\"min_required_engine_api_version\"";
        const char *a = plain ? strstr(plain, key) : NULL, *bb = pbv ? strstr(pbv, key) : NULL;
        CHECK(a != NULL && bb != NULL);
        if (a && bb) {
            /* Compare the declared versions as text up to the closing brace. */
            const char *ea = strchr(a, '}'), *eb = strchr(bb, '}');
            CHECK(ea && eb);
            if (ea && eb && (ea - a) == (eb - bb) && memcmp(a, bb, (size_t)(ea - a)) == 0)
                CHECK_FAIL("a runtime pass-by-value graph declares the same minimum version as a plain one");
        }
        free(plain);
        free(pbv);
        hipdnnBackendDescriptor_t all[] = {rg, rop, y, x};
        for (size_t i = 0; i < N_ELEMS(all); i++)
            CHECK_OK(hipdnnBackendDestroyDescriptor(all[i]));
    }

    free(bin);
    CHECK_OK(hipdnnBackendDestroyDescriptor(b));
    CHECK_OK(hipdnnBackendDestroyDescriptor(d2));
    CHECK_OK(hipdnnBackendDestroyDescriptor(d));
}

/* Builds a plan for a finalized graph on the CPU engine (NULL if no engine offers one). */
static hipdnnBackendDescriptor_t plan_for(hipdnnBackendDescriptor_t g) {
    hipdnnBackendDescriptor_t heur = NULL, cfg = NULL, plan = NULL;
    hipdnnStatus_t st = tu_heur_config(&heur, &cfg, g);
    CHECK_STATUS(HIPDNN_STATUS_SUCCESS, st); /* else no engine offers the conv -> bias -> ReLU graph */
    if (st == HIPDNN_STATUS_SUCCESS)
        CHECK_OK(tu_plan(&plan, cfg));
    if (cfg)
        CHECK_OK(hipdnnBackendDestroyDescriptor(cfg));
    if (heur)
        CHECK_OK(hipdnnBackendDestroyDescriptor(heur));
    return plan;
}

static uint8_t* container_of(hipdnnBackendDescriptor_t g, hipdnnBackendDescriptor_t plan, size_t* size) {
    *size = 0;
    CHECK_OK(hipdnnBackendGetSerializedBinaryGraphAndPlan_ext(g, plan, 0, size, NULL));
    uint8_t* b = malloc(*size ? *size : 1);
    size_t again = 0;
    CHECK_OK(hipdnnBackendGetSerializedBinaryGraphAndPlan_ext(g, plan, *size, &again, b));
    CHECK_EQ_INT(again, *size);
    return b;
}

/* Item 42 and the conv -> bias -> ReLU round trip (item 39). */
static void check_round_trip_and_containers(hipdnnHandle_t h) {
    struct cbr p;
    make_cbr(&p);
    hipdnnBackendDescriptor_t g = NULL;
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, &g));
    CHECK_OK(hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 3, p.ops));
    CHECK_OK(hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_NAME_EXT, HIPDNN_TYPE_CHAR, 14, "conv_bias_relu"));
    hipdnnDataType_t dts[3] = {HIPDNN_DATA_FLOAT, HIPDNN_DATA_HALF, HIPDNN_DATA_BFLOAT16};
    CHECK_OK(hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_COMPUTE_DATA_TYPE_EXT, HIPDNN_TYPE_DATA_TYPE, 1, &dts[0]));
    CHECK_OK(
        hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_INTERMEDIATE_DATA_TYPE_EXT, HIPDNN_TYPE_DATA_TYPE, 1, &dts[1]));
    CHECK_OK(hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_IO_DATA_TYPE_EXT, HIPDNN_TYPE_DATA_TYPE, 1, &dts[2]));
    int64_t pref = 42;
    CHECK_OK(hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_PREFERRED_ENGINE_ID_EXT, HIPDNN_TYPE_INT64, 1, &pref));
    CHECK_OK(hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &h));
    CHECK_OK(hipdnnBackendFinalize(g));

    size_t bsize = 0;
    uint8_t* bin = binary_of(g, &bsize);
    char* json = json_of(g);

    /* Binary and JSON both come back as equivalent graphs. */
    hipdnnBackendDescriptor_t fromb = NULL, fromj = NULL;
    CHECK_OK(hipdnnBackendCreateAndDeserializeGraph_ext(&fromb, bin, bsize));
    CHECK_OK(hipdnnBackendCreateAndDeserializeJsonGraph_ext(&fromj, json, strlen(json) + 1));
    hipdnnBackendDescriptor_t back[2] = {fromb, fromj};
    for (int k = 0; k < 2; k++) {
        hipdnnBackendDescriptor_t d = back[k];
        if (d == NULL)
            continue;
        CHECK_EQ_INT(op_count(d), 3);
        char name[32] = {0};
        int64_t n = -1;
        CHECK_OK(hipdnnBackendGetAttribute(d, HIPDNN_ATTR_OPERATIONGRAPH_NAME_EXT, HIPDNN_TYPE_CHAR, 0, &n, NULL));
        CHECK_EQ_INT(n, 15);
        CHECK_OK(hipdnnBackendGetAttribute(d, HIPDNN_ATTR_OPERATIONGRAPH_NAME_EXT, HIPDNN_TYPE_CHAR, sizeof name, &n, name));
        CHECK_STREQ(name, "conv_bias_relu");
        static const hipdnnBackendAttributeName_t dtattrs[3] = {HIPDNN_ATTR_OPERATIONGRAPH_COMPUTE_DATA_TYPE_EXT,
                                                                HIPDNN_ATTR_OPERATIONGRAPH_INTERMEDIATE_DATA_TYPE_EXT,
                                                                HIPDNN_ATTR_OPERATIONGRAPH_IO_DATA_TYPE_EXT};
        for (int i = 0; i < 3; i++) {
            hipdnnDataType_t dt = (hipdnnDataType_t)77;
            CHECK_OK(hipdnnBackendGetAttribute(d, dtattrs[i], HIPDNN_TYPE_DATA_TYPE, 1, &n, &dt));
            CHECK_EQ_INT(dt, dts[i]);
        }
        int64_t pb = 0;
        CHECK_OK(hipdnnBackendGetAttribute(d, HIPDNN_ATTR_OPERATIONGRAPH_PREFERRED_ENGINE_ID_EXT, HIPDNN_TYPE_INT64, 1, &n, &pb));
        CHECK_EQ_INT(pb, 42);
        /* Operation types and names in order; the conv's tensors and parameters survive. */
        hipdnnBackendDescriptor_t ops[3] = {NULL, NULL, NULL};
        CHECK_OK(hipdnnBackendGetAttribute(d, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 3, &n, ops));
        CHECK_EQ_INT(op_type(ops[0]), HIPDNN_OPERATION_TYPE_CONVOLUTION_FORWARD_EXT);
        static const char* names[3] = {"conv", "bias_add", "relu"};
        for (int i = 0; i < 3; i++) {
            char on[32] = {0};
            CHECK_OK(hipdnnBackendGetAttribute(ops[i], HIPDNN_ATTR_OPERATION_NAME_EXT, HIPDNN_TYPE_CHAR, sizeof on, &n, on));
            CHECK_STREQ(on, names[i]);
        }
        hipdnnBackendDescriptor_t wt = NULL;
        CHECK_OK(hipdnnBackendGetAttribute(ops[0], HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1,
                                           &n, &wt));
        int64_t wdims[4] = {0}, wuid = 0;
        CHECK_OK(hipdnnBackendGetAttribute(wt, HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, 4, &n, wdims));
        CHECK_OK(hipdnnBackendGetAttribute(wt, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, &n, &wuid));
        CHECK(wdims[0] == K && wdims[1] == C && wdims[2] == R && wdims[3] == S);
        CHECK_EQ_INT(wuid, 2);
        char tn[16] = {0};
        CHECK_OK(hipdnnBackendGetAttribute(wt, HIPDNN_ATTR_TENSOR_NAME_EXT, HIPDNN_TYPE_CHAR, sizeof tn, &n, tn));
        CHECK_STREQ(tn, "w");
        int64_t pads[2] = {0};
        CHECK_OK(hipdnnBackendGetAttribute(ops[0], HIPDNN_ATTR_CONVOLUTION_PRE_PADDINGS, HIPDNN_TYPE_INT64, 2, &n, pads));
        CHECK(n == 2 && pads[0] == 1 && pads[1] == 1);
        CHECK_OK(hipdnnBackendDestroyDescriptor(wt));
        for (int i = 0; i < 3; i++)
            CHECK_OK(hipdnnBackendDestroyDescriptor(ops[i]));
        /* Canonical JSON of the copy equals the original's. */
        char* j2 = json_of(d);
        if (j2 && json && strcmp(j2, json) != 0)
            CHECK_FAIL("graph %d: JSON after the round trip differs from the original", k);
        free(j2);
        /* Then a handle and finalize. */
        CHECK_OK(hipdnnBackendSetAttribute(d, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &h));
        CHECK_OK(hipdnnBackendFinalize(d));
    }

    /* 42: containers. */
    int flags = -1;
    CHECK_OK(hipdnnBackendGetSerializedBinaryContents_ext(bin, bsize, &flags));
    CHECK_EQ_INT(flags, HIPDNN_SERIALIZED_CONTENT_GRAPH); /* a bare graph */
    uint8_t junk[32];
    memset(junk, 0x5A, sizeof junk);
    flags = -1;
    CHECK_OK(hipdnnBackendGetSerializedBinaryContents_ext(junk, sizeof junk, &flags));
    CHECK_EQ_INT(flags, HIPDNN_SERIALIZED_CONTENT_GRAPH); /* anything not a container */
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
              "Null pointer provided to hipdnnBackendGetSerializedBinaryContents_ext: serializedBlob is NULL",
              hipdnnBackendGetSerializedBinaryContents_ext(NULL, bsize, &flags));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
              "Null pointer provided to hipdnnBackendGetSerializedBinaryContents_ext: contentFlags is NULL",
              hipdnnBackendGetSerializedBinaryContents_ext(bin, bsize, NULL));

    size_t csize = 0;
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "hipdnnBackendDescriptor_t is nullptr",
              hipdnnBackendGetSerializedBinaryGraphAndPlan_ext(NULL, NULL, 0, &csize, NULL));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
              "Null pointer provided to hipdnnBackendGetSerializedBinaryGraphAndPlan_ext: blobByteSize is NULL",
              hipdnnBackendGetSerializedBinaryGraphAndPlan_ext(g, NULL, 0, NULL, NULL));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "hipdnnBackendGetSerializedBinaryGraphAndPlan_ext: Descriptor type mismatch: HIPDNN_BACKEND_TENSOR_DESCRIPTOR is not an operation graph",
        hipdnnBackendGetSerializedBinaryGraphAndPlan_ext(p.t[0], NULL, 0, &csize, NULL));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "hipdnnBackendGetSerializedBinaryGraphAndPlan_ext: Descriptor type mismatch: HIPDNN_BACKEND_TENSOR_DESCRIPTOR is not an execution plan",
        hipdnnBackendGetSerializedBinaryGraphAndPlan_ext(g, p.t[0], 0, &csize, NULL));
    uint8_t* gonly = container_of(g, NULL, &csize);
    CHECK(csize > bsize);
    uint8_t tiny = 0;
    size_t reported = 0;
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT, "hipdnnBackendGetSerializedBinaryGraphAndPlan_ext: the buffer holds ",
              hipdnnBackendGetSerializedBinaryGraphAndPlan_ext(g, NULL, 1, &reported, &tiny));
    CHECK_EQ_INT(reported, csize);
    CHECK(csize >= 8 && memcmp(gonly + 4, "HDGP", 4) == 0); /* the container file identifier */
    flags = -1;
    CHECK_OK(hipdnnBackendGetSerializedBinaryContents_ext(gonly, csize, &flags));
    CHECK_EQ_INT(flags, HIPDNN_SERIALIZED_CONTENT_GRAPH);
    hipdnnBackendDescriptor_t pd = NULL;
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "the graph-and-plan container holds no execution plan",
              hipdnnBackendCreateAndDeserializeExecutionPlan_ext(h, &pd, gonly, csize));
    CHECK(pd == NULL);
    hipdnnBackendDescriptor_t fromc = NULL;
    CHECK_OK(hipdnnBackendCreateAndDeserializeGraph_ext(&fromc, gonly, csize));
    if (fromc) {
        CHECK_EQ_INT(op_count(fromc), 3);
        CHECK_OK(hipdnnBackendDestroyDescriptor(fromc));
    }
    /* A truncated container fails verification. */
    flags = -1;
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "graph-and-plan container: graph-and-plan container truncated: graph_blob vector at 24 declares ",
              hipdnnBackendGetSerializedBinaryContents_ext(gonly, csize / 2, &flags));

    /* With a plan. An unfinalized plan cannot be serialized. */
    hipdnnBackendDescriptor_t raw = NULL;
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, &raw));
    CHECK_ERR(HIPDNN_STATUS_NOT_INITIALIZED, "ExecutionPlanDescriptor: the plan is not finalized",
              hipdnnBackendGetSerializedBinaryGraphAndPlan_ext(g, raw, 0, &csize, NULL));
    CHECK_OK(hipdnnBackendDestroyDescriptor(raw));
    hipdnnBackendDescriptor_t plan = plan_for(g);
    if (plan) {
        size_t fsize = 0;
        uint8_t* full = container_of(g, plan, &fsize);
        flags = -1;
        CHECK_OK(hipdnnBackendGetSerializedBinaryContents_ext(full, fsize, &flags));
        CHECK_EQ_INT(flags, HIPDNN_SERIALIZED_CONTENT_GRAPH | HIPDNN_SERIALIZED_CONTENT_EXECUTION_PLAN);
        hipdnnBackendDescriptor_t gp = NULL, pp = NULL;
        CHECK_OK(hipdnnBackendCreateAndDeserializeGraph_ext(&gp, full, fsize)); /* the plan is ignored */
        CHECK_OK(hipdnnBackendCreateAndDeserializeExecutionPlan_ext(h, &pp, full, fsize));
        if (gp) {
            CHECK_EQ_INT(op_count(gp), 3);
            CHECK_OK(hipdnnBackendDestroyDescriptor(gp));
        }
        if (pp) {
            int64_t ws1 = -1, ws2 = -2;
            CHECK_OK(
                hipdnnBackendGetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1, NULL, &ws1));
            CHECK_OK(hipdnnBackendGetAttribute(pp, HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1, NULL, &ws2));
            CHECK_EQ_INT(ws2, ws1);
            CHECK_OK(hipdnnBackendDestroyDescriptor(pp));
        }
        free(full);
        CHECK_OK(hipdnnBackendDestroyDescriptor(plan));
    }

    free(gonly);
    free(json);
    free(bin);
    if (fromb)
        CHECK_OK(hipdnnBackendDestroyDescriptor(fromb));
    if (fromj)
        CHECK_OK(hipdnnBackendDestroyDescriptor(fromj));
    CHECK_OK(hipdnnBackendDestroyDescriptor(g));
    free_cbr(&p);
}

/* A scalar constant (pass-by-value, dims [1,1,1,1]) with uid 10 and the given value. */
static hipdnnBackendDescriptor_t make_scalar(float value) {
    const int64_t one[4] = {1, 1, 1, 1};
    hipdnnBackendDescriptor_t t = NULL;
    CHECK_OK(tu_tensor_open(&t, 10, HIPDNN_DATA_FLOAT, 4, one));
    CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_NAME_EXT, HIPDNN_TYPE_CHAR, 4, "half"));
    CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_VALUE_EXT, HIPDNN_TYPE_CHAR, (int64_t)sizeof value, &value));
    CHECK_OK(hipdnnBackendFinalize(t));
    return t;
}

/* A frontend may make one descriptor per use of a tensor. Two identical descriptors of one
 * pass-by-value scalar are the same tensor: y = x * c, z = y + c with c described twice. A
 * second descriptor of uid 10 with another value is a different tensor and is refused. */
static void check_shared_scalar(hipdnnHandle_t h) {
    hipdnnBackendDescriptor_t x = NULL, y = NULL, z = NULL, mul = NULL, add = NULL, g = NULL, add2 = NULL, g2 = NULL;
    CHECK_OK(tu_tensor4(&x, 1, "x", N, C, H, W, false));
    CHECK_OK(tu_tensor4(&y, 2, "y", N, C, H, W, true));
    CHECK_OK(tu_tensor4(&z, 3, "z", N, C, H, W, false));
    hipdnnBackendDescriptor_t c1 = make_scalar(0.5f), c2 = make_scalar(0.5f);
    CHECK_OK(tu_pointwise(&mul, HIPDNN_POINTWISE_MUL, x, c1, NULL, y, "scale"));
    CHECK_OK(tu_pointwise(&add, HIPDNN_POINTWISE_ADD, y, c2, NULL, z, "shift"));
    hipdnnBackendDescriptor_t ops[2] = {mul, add};
    CHECK_OK(tu_graph(&g, h, 2, ops));

    hipdnnBackendDescriptor_t other = make_scalar(0.25f);
    CHECK_OK(tu_pointwise(&add2, HIPDNN_POINTWISE_ADD, y, other, NULL, z, "shift"));
    hipdnnBackendDescriptor_t ops2[2] = {mul, add2};
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "share uid 10", tu_graph(&g2, h, 2, ops2));

    hipdnnBackendDescriptor_t all[] = {g2, add2, other, g, add, mul, c2, c1, z, y, x};
    for (size_t i = 0; i < N_ELEMS(all); i++)
        CHECK_OK(hipdnnBackendDestroyDescriptor(all[i]));
}

int main(void) {
    hipdnnHandle_t h = NULL;
    CHECK_OK(hipdnnCreate(&h));
    tu_clear_last_error();
    check_attributes(h);
    check_serialize_calls(h);
    check_deserialize(h);
    check_round_trip_and_containers(h);
    check_shared_scalar(h);
    CHECK_OK(hipdnnDestroy(h));
    return check_finish("test_graph");
}
