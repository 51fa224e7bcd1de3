/* The generic descriptor API (conformance checklist items 9-18) over every descriptor kind:
 * the factory table of backend_api.md §3.0, NULL / garbage / destroyed descriptors,
 * set-after-finalize, get-before-finalize, re-finalize, unknown attributes, wrong types and
 * counts, and descriptor-valued attributes, including the engine / configuration / heuristic /
 * plan chain built on the CPU reference engine. */
#include <stdbool.h>

#include "builders.h"
#include "descriptor_kinds.h"
#include "testutil.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* Every kind the header does not mark "enum only" (descriptor_kinds.h, generated from it). */
#define KIND_ELEMENT(k) k,
static const hipdnnBackendDescriptorType_t creatable[] = {HIPDNN_CREATABLE_KINDS(KIND_ELEMENT)};
static const hipdnnBackendDescriptorType_t enum_only[] = {HIPDNN_ENUM_ONLY_KINDS(KIND_ELEMENT)};

/* An attribute id no descriptor handles. */
#define NO_SUCH_ATTRIBUTE ((hipdnnBackendAttributeName_t)123456)

static void check_factory(void) {
    /* 33 creatable kinds and 5 enum-only ones, as backend_api.md §3.0 counts them. */
    CHECK_EQ_INT(N_ELEMS(creatable), 33);
    CHECK_EQ_INT(N_ELEMS(enum_only), 5);
    for (size_t i = 0; i < N_ELEMS(enum_only); i++) {
        hipdnnBackendDescriptor_t d = NULL;
        CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED, "is not supported: it cannot be created",
                  hipdnnBackendCreateDescriptor(enum_only[i], &d));
        CHECK(d == NULL);
    }
    for (size_t i = 0; i < N_ELEMS(creatable); i++) {
        hipdnnBackendDescriptor_t d = NULL;
        hipdnnStatus_t st = hipdnnBackendCreateDescriptor(creatable[i], &d);
        if (st != HIPDNN_STATUS_SUCCESS || d == NULL) {
            CHECK_FAIL("CreateDescriptor(%d) returned %s", (int)creatable[i], hipdnnGetErrorString(st));
            continue;
        }
        /* 9: NULL out pointer, for every kind. */
        CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
                  "Null pointer provided to hipdnnBackendCreateDescriptor: descriptor is NULL",
                  hipdnnBackendCreateDescriptor(creatable[i], NULL));
        /* 16: an attribute the kind does not have, on set (unfinalized descriptor). */
        int64_t v = 1;
        tu_clear_last_error();
        st = hipdnnBackendSetAttribute(d, NO_SUCH_ATTRIBUTE, HIPDNN_TYPE_INT64, 1, &v);
        if (st != HIPDNN_STATUS_NOT_SUPPORTED)
            CHECK_FAIL("kind %d: set of an unknown attribute returned %s, want NOT_SUPPORTED", (int)creatable[i],
                    hipdnnGetErrorString(st));
        char msg[HIPDNN_ERROR_STRING_MAX_LENGTH];
        hipdnnGetLastErrorString(msg, sizeof msg);
        if (strstr(msg, "123456") == NULL)
            CHECK_FAIL("kind %d: unknown-attribute message \"%s\" does not name 123456", (int)creatable[i], msg);
        /* A fresh descriptor of any kind lacks something Finalize needs. */
        st = hipdnnBackendFinalize(d);
        if (st != HIPDNN_STATUS_BAD_PARAM)
            CHECK_FAIL("kind %d: finalize of a fresh descriptor returned %s, want BAD_PARAM", (int)creatable[i],
                    hipdnnGetErrorString(st));
        hipdnnGetLastErrorString(msg, sizeof msg);
        if (msg[0] == '\0')
            CHECK_FAIL("kind %d: fresh finalize left no last error", (int)creatable[i]);
        CHECK_OK(hipdnnBackendDestroyDescriptor(d));
    }
    /* 10: kinds that exist only in the enum, and values outside it. */
    static const int not_creatable[] = {0, 5, 8, 9, 12, 13, 39, 40, 100, -1, 0x7fffffff};
    for (size_t i = 0; i < N_ELEMS(not_creatable); i++) {
        hipdnnBackendDescriptor_t d = (hipdnnBackendDescriptor_t)0x1;
        tu_clear_last_error();
        hipdnnStatus_t st = hipdnnBackendCreateDescriptor((hipdnnBackendDescriptorType_t)not_creatable[i], &d);
        if (st != HIPDNN_STATUS_NOT_SUPPORTED)
            CHECK_FAIL("CreateDescriptor(%d) returned %s, want NOT_SUPPORTED", not_creatable[i], hipdnnGetErrorString(st));
        if (d != (hipdnnBackendDescriptor_t)0x1)
            CHECK_FAIL("CreateDescriptor(%d) wrote the out pointer on failure", not_creatable[i]);
        char msg[HIPDNN_ERROR_STRING_MAX_LENGTH];
        hipdnnGetLastErrorString(msg, sizeof msg);
        if (strstr(msg, "not supported") == NULL)
            CHECK_FAIL("CreateDescriptor(%d): message \"%s\" lacks \"not supported\"", not_creatable[i], msg);
        /* NULL out pointer is checked before the kind. */
        CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
                     hipdnnBackendCreateDescriptor((hipdnnBackendDescriptorType_t)not_creatable[i], NULL));
    }
    tu_clear_last_error();
}

/* 11, 12 and garbage / destroyed descriptors. */
static void check_null_and_garbage(void) {
    int64_t v = 0, n = 0;
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "hipdnnBackendDescriptor_t is nullptr", hipdnnBackendDestroyDescriptor(NULL));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "hipdnnBackendDescriptor_t is nullptr", hipdnnBackendFinalize(NULL));
    /* NULL descriptor wins over a nonsense name and type. */
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "hipdnnBackendDescriptor_t is nullptr",
              hipdnnBackendSetAttribute(NULL, (hipdnnBackendAttributeName_t)-5, (hipdnnBackendAttributeType_t)9999, 1, &v));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "hipdnnBackendDescriptor_t is nullptr",
              hipdnnBackendGetAttribute(NULL, (hipdnnBackendAttributeName_t)-5, (hipdnnBackendAttributeType_t)9999, 1, &n, &v));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "hipdnnBackendDescriptor_t is nullptr",
              hipdnnBackendSetAttribute(NULL, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, NULL));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
              "Null pointer provided to hipdnnBackendGetAttribute: elementCount and arrayOfElements is NULL",
              hipdnnBackendGetAttribute(NULL, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, NULL, NULL));

    /* A value that was never a descriptor. */
    hipdnnBackendDescriptor_t garbage = (hipdnnBackendDescriptor_t)0x1234;
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "hipdnnBackendDescriptor_t", hipdnnBackendDestroyDescriptor(garbage));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "hipdnnBackendDescriptor_t", hipdnnBackendFinalize(garbage));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "hipdnnBackendDescriptor_t",
              hipdnnBackendSetAttribute(garbage, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, &v));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "hipdnnBackendDescriptor_t",
              hipdnnBackendGetAttribute(garbage, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, &n, &v));

    /* A destroyed descriptor, and a second destroy. */
    hipdnnBackendDescriptor_t d = NULL;
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_TENSOR_DESCRIPTOR, &d));
    CHECK_OK(hipdnnBackendDestroyDescriptor(d));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "destroyed", hipdnnBackendDestroyDescriptor(d));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "destroyed", hipdnnBackendFinalize(d));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "destroyed",
              hipdnnBackendSetAttribute(d, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, &v));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "destroyed",
              hipdnnBackendGetAttribute(d, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, &n, &v));

    /* A handle is not a descriptor. */
    hipdnnHandle_t h = NULL;
    CHECK_OK(hipdnnCreate(&h));
    tu_clear_last_error();
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "names an object of another kind", hipdnnBackendFinalize((hipdnnBackendDescriptor_t)h));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "names an object of another kind",
              hipdnnBackendDestroyDescriptor((hipdnnBackendDescriptor_t)h));
    CHECK_OK(hipdnnDestroy(h));
}

/* An fp32 [rows, cols] tensor, finalized or left open. */
static hipdnnBackendDescriptor_t make_tensor(int64_t uid, int64_t rows, int64_t cols, bool finalize) {
    hipdnnBackendDescriptor_t t = NULL;
    const int64_t dims[2] = {rows, cols};
    CHECK_OK(tu_tensor_open(&t, uid, HIPDNN_DATA_FLOAT, 2, dims));
    if (finalize)
        CHECK_OK(hipdnnBackendFinalize(t));
    return t;
}

static hipdnnBackendDescriptor_t make_relu(hipdnnBackendDescriptor_t x, hipdnnBackendDescriptor_t y) {
    hipdnnBackendDescriptor_t op = NULL;
    CHECK_OK(tu_pointwise(&op, HIPDNN_POINTWISE_RELU_FWD, x, NULL, NULL, y, NULL));
    return op;
}

/* Items 13-18 on tensors, operations, graphs and variant packs. */
static void check_simple_kinds(void) {
    int64_t v = 5, n = -1;
    hipdnnBackendDescriptor_t x = make_tensor(1, 2, 3, false);

    /* 14: tensor get before finalize. */
    CHECK_ERR(HIPDNN_STATUS_NOT_INITIALIZED, "TensorDescriptor::getAttribute() failed: Not finalized.",
              hipdnnBackendGetAttribute(x, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, &n, &v));
    /* 17: wrong type, wrong count, NULL array (known attribute, unfinalized descriptor). */
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "TensorDescriptor::setAttribute() failed: attribute HIPDNN_ATTR_TENSOR_UNIQUE_ID takes HIPDNN_TYPE_INT64, not HIPDNN_TYPE_INT32",
        hipdnnBackendSetAttribute(x, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT32, 1, &v));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "TensorDescriptor::setAttribute() failed: attribute HIPDNN_ATTR_TENSOR_UNIQUE_ID takes HIPDNN_TYPE_INT64, not HIPDNN_TYPE_DOUBLE",
        hipdnnBackendSetAttribute(x, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_DOUBLE, 1, &v));
    int64_t two[2] = {1, 2};
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "TensorDescriptor::setAttribute() failed: HIPDNN_ATTR_TENSOR_UNIQUE_ID takes exactly 1 element(s), got 2",
              hipdnnBackendSetAttribute(x, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 2, two));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "TensorDescriptor::setAttribute() failed: HIPDNN_ATTR_TENSOR_UNIQUE_ID takes exactly 1 element(s), got 0",
              hipdnnBackendSetAttribute(x, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 0, two));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
              "TensorDescriptor::setAttribute() failed: arrayOfElements is NULL for HIPDNN_ATTR_TENSOR_UNIQUE_ID",
              hipdnnBackendSetAttribute(x, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, NULL));
    bool t = true;
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "TensorDescriptor::setAttribute() failed: attribute HIPDNN_ATTR_TENSOR_IS_VIRTUAL takes HIPDNN_TYPE_BOOLEAN, not HIPDNN_TYPE_INT64",
        hipdnnBackendSetAttribute(x, HIPDNN_ATTR_TENSOR_IS_VIRTUAL, HIPDNN_TYPE_INT64, 1, &v));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "TensorDescriptor::setAttribute() failed: HIPDNN_ATTR_TENSOR_IS_VIRTUAL takes exactly 1 element(s), got 2",
              hipdnnBackendSetAttribute(x, HIPDNN_ATTR_TENSOR_IS_VIRTUAL, HIPDNN_TYPE_BOOLEAN, 2, &t));
    /* 16: an attribute of another kind. */
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED, "TensorDescriptor does not support attribute HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS (700",
              hipdnnBackendSetAttribute(x, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, 1, &v));
    CHECK_OK(hipdnnBackendFinalize(x));
    /* 15 (tensor): re-finalize validates again and succeeds. */
    CHECK_OK(hipdnnBackendFinalize(x));
    /* 13: set after finalize. */
    CHECK_ERR(HIPDNN_STATUS_NOT_INITIALIZED, "finalized",
              hipdnnBackendSetAttribute(x, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, &v));
    /* 16: unknown / foreign attribute on get of a finalized descriptor. */
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED, "TensorDescriptor does not support attribute AttributeName(123456) (123456",
              hipdnnBackendGetAttribute(x, NO_SUCH_ATTRIBUTE, HIPDNN_TYPE_INT64, 1, &n, &v));
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED, "TensorDescriptor does not support attribute HIPDNN_ATTR_OPERATIONGRAPH_OPS (601",
              hipdnnBackendGetAttribute(x, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &n, &v));
    /* 17 on get: wrong type; NULL array with requested 1 is a size query needing elementCount. */
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "TensorDescriptor::getAttribute() failed: attribute HIPDNN_ATTR_TENSOR_UNIQUE_ID has type HIPDNN_TYPE_INT64, not HIPDNN_TYPE_DOUBLE",
        hipdnnBackendGetAttribute(x, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_DOUBLE, 1, &n, &v));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
              "Null pointer provided to hipdnnBackendGetAttribute: elementCount and arrayOfElements is NULL",
              hipdnnBackendGetAttribute(x, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 0, NULL, NULL));
    n = -1;
    CHECK_OK(hipdnnBackendGetAttribute(x, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 0, &n, NULL));
    CHECK_EQ_INT(n, 1);
    v = 0;
    CHECK_OK(hipdnnBackendGetAttribute(x, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, NULL, &v));
    CHECK_EQ_INT(v, 1);
    /* spec §3.0: a scalar get that is not a size query needs requestedElementCount >= 1. */
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "TensorDescriptor::getAttribute() failed: requestedElementCount -1 is negative",
              hipdnnBackendGetAttribute(x, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, -1, &n, &v));
    int64_t dimsback[2] = {0, 0};
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "TensorDescriptor::getAttribute() failed: requestedElementCount -2 is negative",
              hipdnnBackendGetAttribute(x, HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, -2, &n, dimsback));

    /* 18 on an operation's tensor slot. */
    hipdnnBackendDescriptor_t y = make_tensor(2, 2, 3, true);
    hipdnnBackendDescriptor_t unfinished = make_tensor(3, 2, 3, false);
    hipdnnBackendDescriptor_t op = NULL, nulldesc = NULL;
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR, &op));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
        "PointwiseOperationDescriptor::setAttribute() failed: HIPDNN_ATTR_OPERATION_POINTWISE_IN_0_EXT was given a NULL descriptor",
        hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_POINTWISE_IN_0_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &nulldesc));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
        "PointwiseOperationDescriptor::setAttribute() failed: arrayOfElements is NULL for HIPDNN_ATTR_OPERATION_POINTWISE_IN_0_EXT",
        hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_POINTWISE_IN_0_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, NULL));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED,
        "PointwiseOperationDescriptor::setAttribute() failed: the HIPDNN_BACKEND_TENSOR_DESCRIPTOR given for HIPDNN_ATTR_OPERATION_POINTWISE_IN_0_EXT is not finalized",
        hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_POINTWISE_IN_0_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &unfinished));
    hipdnnBackendDescriptor_t wrongkind = NULL;
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, &wrongkind));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "PointwiseOperationDescriptor::setAttribute() failed: Descriptor type mismatch: HIPDNN_ATTR_OPERATION_POINTWISE_IN_0_EXT takes HIPDNN_BACKEND_TENSOR_DESCRIPTOR, not HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR",
        hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_POINTWISE_IN_0_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &wrongkind));
    hipdnnBackendDescriptor_t garbage = (hipdnnBackendDescriptor_t)0x1234;
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "PointwiseOperationDescriptor::setAttribute() failed: the descriptor given for HIPDNN_ATTR_OPERATION_POINTWISE_IN_0_EXT was never created or was destroyed long ago",
        hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_POINTWISE_IN_0_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &garbage));
    CHECK_OK(hipdnnBackendDestroyDescriptor(op));

    /* Operations re-finalize; graphs read before finalize; set-after-finalize. */
    op = make_relu(x, y);
    CHECK_OK(hipdnnBackendFinalize(op));
    hipdnnPointwiseMode_t m = HIPDNN_POINTWISE_ABS;
    CHECK_ERR(HIPDNN_STATUS_NOT_INITIALIZED, "PointwiseOperationDescriptor::setAttribute() failed: Already finalized.",
              hipdnnBackendSetAttribute(op, HIPDNN_ATTR_POINTWISE_MODE, HIPDNN_TYPE_POINTWISE_MODE, 1, &m));
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED,
              "PointwiseOperationDescriptor does not support attribute AttributeName(123456) (123456",
              hipdnnBackendGetAttribute(op, NO_SUCH_ATTRIBUTE, HIPDNN_TYPE_INT64, 1, &n, &v));

    hipdnnBackendDescriptor_t g = NULL;
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, &g));
    n = -1;
    CHECK_OK(hipdnnBackendGetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0, &n, NULL));
    CHECK_EQ_INT(n, 0);
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED, "GraphDescriptor does not support attribute AttributeName(123456) (123456",
              hipdnnBackendGetAttribute(g, NO_SUCH_ATTRIBUTE, HIPDNN_TYPE_INT64, 1, &n, &v));
    /* graph OPS: a tensor is not an operation; NULL element; unfinalized op. */
    CHECK_STATUS(HIPDNN_STATUS_NOT_SUPPORTED,
                 hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &x));
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
                 hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &nulldesc));
    hipdnnBackendDescriptor_t rawop = NULL;
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR, &rawop));
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED,
                 hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &rawop));
    /* All-or-nothing: a good op followed by a bad one appends neither. */
    hipdnnBackendDescriptor_t mixed[2] = {op, rawop};
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED,
                 hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 2, mixed));
    n = -1;
    CHECK_OK(hipdnnBackendGetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0, &n, NULL));
    CHECK_EQ_INT(n, 0);
    tu_clear_last_error();

    /* Variant pack: get before finalize, set after finalize, re-finalize. */
    hipdnnBackendDescriptor_t pack = wrongkind;
    int64_t uid = 1;
    void* ptr = &v;
    CHECK_ERR(HIPDNN_STATUS_NOT_INITIALIZED, "VariantDescriptor::getAttribute() failed: Not finalized.",
              hipdnnBackendGetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, 1, &n, &v));
    CHECK_OK(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, 1, &uid));
    CHECK_OK(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR, 1, &ptr));
    CHECK_OK(hipdnnBackendFinalize(pack));
    CHECK_OK(hipdnnBackendFinalize(pack));
    CHECK_ERR(HIPDNN_STATUS_NOT_INITIALIZED, "VariantDescriptor::setAttribute() failed: Already finalized.",
              hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, 1, &uid));

    hipdnnBackendDescriptor_t all[] = {g, rawop, op, pack, unfinished, y, x};
    for (size_t i = 0; i < N_ELEMS(all); i++)
        CHECK_OK(hipdnnBackendDestroyDescriptor(all[i]));
}

/* Items 13-18 on the engine chain: graph -> heuristic -> engine config -> engine -> plan. */
static void check_engine_chain(void) {
    hipdnnHandle_t h = NULL;
    CHECK_OK(hipdnnCreate(&h));
    tu_clear_last_error();
    int64_t n = -1, v = 0;
    hipdnnBackendDescriptor_t nulldesc = NULL;

    hipdnnBackendDescriptor_t x = make_tensor(1, 2, 3, true), y = make_tensor(2, 2, 3, true);
    hipdnnBackendDescriptor_t op = make_relu(x, y);
    hipdnnBackendDescriptor_t g = NULL, g_unfinalized = NULL;
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, &g));
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, &g_unfinalized));
    CHECK_OK(hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &op));
    CHECK_OK(hipdnnBackendSetAttribute(g_unfinalized, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &op));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
              "GraphDescriptor::setAttribute() failed: arrayOfElements is NULL for HIPDNN_ATTR_OPERATIONGRAPH_HANDLE",
              hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, NULL));
    hipdnnHandle_t nullh = NULL;
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
                 hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &nullh));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "GraphDescriptor::setAttribute() failed: attribute HIPDNN_ATTR_OPERATIONGRAPH_HANDLE takes HIPDNN_TYPE_HANDLE, not HIPDNN_TYPE_INT64",
        hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_INT64, 1, &h));
    CHECK_OK(hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &h));
    CHECK_OK(hipdnnBackendFinalize(g));
    CHECK_OK(hipdnnBackendFinalize(g)); /* graphs re-validate */
    CHECK_ERR(HIPDNN_STATUS_NOT_INITIALIZED, "GraphDescriptor::setAttribute() failed: Already finalized.",
              hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &op));

    /* Heuristic. */
    hipdnnBackendDescriptor_t heur = NULL;
    hipdnnBackendHeurMode_t mode = HIPDNN_HEUR_MODE_FALLBACK;
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, &heur));
    /* 14: the heuristic answers BAD_PARAM_NOT_FINALIZED before finalize. */
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED, "EngineHeuristicDescriptor::getAttribute() failed: Not finalized.",
              hipdnnBackendGetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0, &n, NULL));
    /* 18 */
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
        "EngineHeuristicDescriptor::setAttribute() failed: HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH was given a NULL descriptor",
        hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &nulldesc));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "EngineHeuristicDescriptor::setAttribute() failed: Descriptor type mismatch: HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH takes HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, not HIPDNN_BACKEND_TENSOR_DESCRIPTOR",
        hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &x));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED,
        "EngineHeuristicDescriptor::setAttribute() failed: the HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR given for HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH is not finalized",
        hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1,
                                  &g_unfinalized));
    /* 17: wrong type / count for the mode. */
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "EngineHeuristicDescriptor::setAttribute() failed: attribute HIPDNN_ATTR_ENGINEHEUR_MODE takes HIPDNN_TYPE_HEUR_MODE, not HIPDNN_TYPE_INT64",
        hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_INT64, 1, &v));
    hipdnnBackendHeurMode_t modes[2] = {mode, mode};
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "EngineHeuristicDescriptor::setAttribute() failed: HIPDNN_ATTR_ENGINEHEUR_MODE takes exactly 1 element(s), got 2",
              hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 2, modes));
    CHECK_OK(hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &g));
    CHECK_OK(hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &mode));
    CHECK_OK(hipdnnBackendFinalize(heur));
    /* 15: a second finalize of a heuristic fails. */
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "finalized", hipdnnBackendFinalize(heur));
    /* 13 */
    CHECK_ERR(HIPDNN_STATUS_NOT_INITIALIZED, "EngineHeuristicDescriptor::setAttribute() failed: Already finalized.",
              hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &mode));
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED, "EngineHeuristicDescriptor does not support attribute AttributeName(123456) (123456",
              hipdnnBackendGetAttribute(heur, NO_SUCH_ATTRIBUTE, HIPDNN_TYPE_INT64, 1, &n, &v));
    n = -1;
    CHECK_OK(hipdnnBackendGetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0, &n, NULL));
    CHECK(n >= 1);

    /* Engine config filled by the heuristic. */
    hipdnnBackendDescriptor_t cfg = NULL;
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, &cfg));
    CHECK_OK(hipdnnBackendGetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &n, &cfg));
    CHECK_EQ_INT(n, 1);
    /* 14: engine config before finalize. */
    CHECK_ERR(HIPDNN_STATUS_NOT_INITIALIZED, "EngineConfigDescriptor::getAttribute() failed: Not finalized.",
              hipdnnBackendGetAttribute(cfg, HIPDNN_ATTR_ENGINECFG_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1, &n, &v));
    CHECK_OK(hipdnnBackendFinalize(cfg));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "finalized", hipdnnBackendFinalize(cfg)); /* 15 */
    hipdnnBackendDescriptor_t eng = NULL, eng2 = NULL;
    CHECK_OK(hipdnnBackendGetAttribute(cfg, HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, NULL, &eng));
    CHECK_OK(hipdnnBackendGetAttribute(cfg, HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, NULL, &eng2));
    CHECK(eng != NULL && eng2 != NULL && eng != eng2); /* a new handle on every get */
    CHECK_ERR(HIPDNN_STATUS_NOT_INITIALIZED, "EngineConfigDescriptor::setAttribute() failed: Already finalized.",
              hipdnnBackendSetAttribute(cfg, HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &eng));
    int64_t id = 0;
    CHECK_OK(hipdnnBackendGetAttribute(eng, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, HIPDNN_TYPE_INT64, 1, NULL, &id));
    CHECK_OK(hipdnnBackendDestroyDescriptor(eng2));
    /* 15: engine re-finalize; 13: engine set after finalize. */
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "finalized", hipdnnBackendFinalize(eng));
    CHECK_ERR(HIPDNN_STATUS_NOT_INITIALIZED, "EngineDescriptor::setAttribute() failed: Already finalized.",
              hipdnnBackendSetAttribute(eng, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, HIPDNN_TYPE_INT64, 1, &id));

    /* A fresh engine descriptor made by hand. */
    hipdnnBackendDescriptor_t e = NULL;
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINE_DESCRIPTOR, &e));
    CHECK_ERR(HIPDNN_STATUS_NOT_INITIALIZED, "EngineDescriptor::getAttribute() failed: Not finalized.",
              hipdnnBackendGetAttribute(e, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, HIPDNN_TYPE_INT64, 1, &n, &v));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
              "EngineDescriptor::setAttribute() failed: HIPDNN_ATTR_ENGINE_OPERATION_GRAPH was given a NULL descriptor",
              hipdnnBackendSetAttribute(e, HIPDNN_ATTR_ENGINE_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &nulldesc));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "EngineDescriptor::setAttribute() failed: Descriptor type mismatch: HIPDNN_ATTR_ENGINE_OPERATION_GRAPH takes HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, not HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR",
        hipdnnBackendSetAttribute(e, HIPDNN_ATTR_ENGINE_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &heur));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED,
        "EngineDescriptor::setAttribute() failed: the HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR given for HIPDNN_ATTR_ENGINE_OPERATION_GRAPH is not finalized",
        hipdnnBackendSetAttribute(e, HIPDNN_ATTR_ENGINE_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &g_unfinalized));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "EngineDescriptor::setAttribute() failed: attribute HIPDNN_ATTR_ENGINE_GLOBAL_INDEX takes HIPDNN_TYPE_INT64, not HIPDNN_TYPE_INT32",
        hipdnnBackendSetAttribute(e, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, HIPDNN_TYPE_INT32, 1, &id));
    CHECK_OK(hipdnnBackendSetAttribute(e, HIPDNN_ATTR_ENGINE_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &g));
    CHECK_OK(hipdnnBackendSetAttribute(e, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, HIPDNN_TYPE_INT64, 1, &id));
    CHECK_OK(hipdnnBackendFinalize(e));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "EngineDescriptor::finalize() failed: Already finalized.", hipdnnBackendFinalize(e));
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED, "EngineDescriptor does not support attribute AttributeName(123456) (123456",
              hipdnnBackendGetAttribute(e, NO_SUCH_ATTRIBUTE, HIPDNN_TYPE_INT64, 1, &n, &v));

    /* Engine config by hand: 18 on ENGINECFG_ENGINE. */
    hipdnnBackendDescriptor_t c2 = NULL, e_unfinalized = NULL;
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, &c2));
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINE_DESCRIPTOR, &e_unfinalized));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
              "EngineConfigDescriptor::setAttribute() failed: HIPDNN_ATTR_ENGINECFG_ENGINE was given a NULL descriptor",
              hipdnnBackendSetAttribute(c2, HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &nulldesc));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "EngineConfigDescriptor::setAttribute() failed: Descriptor type mismatch: HIPDNN_ATTR_ENGINECFG_ENGINE takes HIPDNN_BACKEND_ENGINE_DESCRIPTOR, not HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR",
        hipdnnBackendSetAttribute(c2, HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &g));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED,
        "EngineConfigDescriptor::setAttribute() failed: the HIPDNN_BACKEND_ENGINE_DESCRIPTOR given for HIPDNN_ATTR_ENGINECFG_ENGINE is not finalized",
        hipdnnBackendSetAttribute(c2, HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &e_unfinalized));
    CHECK_OK(hipdnnBackendSetAttribute(c2, HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &e));
    CHECK_OK(hipdnnBackendFinalize(c2));
    int64_t ws = -1;
    CHECK_OK(hipdnnBackendGetAttribute(c2, HIPDNN_ATTR_ENGINECFG_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1, NULL, &ws));
    CHECK(ws >= 0);
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "EngineConfigDescriptor::getAttribute() failed: attribute HIPDNN_ATTR_ENGINECFG_WORKSPACE_SIZE has type HIPDNN_TYPE_INT64, not HIPDNN_TYPE_INT32",
        hipdnnBackendGetAttribute(c2, HIPDNN_ATTR_ENGINECFG_WORKSPACE_SIZE, HIPDNN_TYPE_INT32, 1, NULL, &ws));
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED, "EngineConfigDescriptor does not support attribute AttributeName(123456) (123456",
              hipdnnBackendGetAttribute(c2, NO_SUCH_ATTRIBUTE, HIPDNN_TYPE_INT64, 1, &n, &v));

    /* Execution plan: 14, 18, 15, 13. */
    hipdnnBackendDescriptor_t plan = NULL, c_unfinalized = NULL;
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, &plan));
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, &c_unfinalized));
    CHECK_ERR(HIPDNN_STATUS_NOT_INITIALIZED, "ExecutionPlanDescriptor::getAttribute() failed: Not finalized.",
              hipdnnBackendGetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1, &n, &ws));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
        "ExecutionPlanDescriptor::setAttribute() failed: HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG was given a NULL descriptor",
        hipdnnBackendSetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &nulldesc));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "ExecutionPlanDescriptor::setAttribute() failed: Descriptor type mismatch: HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG takes HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, not HIPDNN_BACKEND_ENGINE_DESCRIPTOR",
        hipdnnBackendSetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &e));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED,
        "ExecutionPlanDescriptor::setAttribute() failed: the HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR given for HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG is not finalized",
        hipdnnBackendSetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1,
                                  &c_unfinalized));
    CHECK_OK(hipdnnBackendSetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &cfg));
    CHECK_OK(hipdnnBackendFinalize(plan));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "finalized", hipdnnBackendFinalize(plan));
    CHECK_ERR(HIPDNN_STATUS_NOT_INITIALIZED, "ExecutionPlanDescriptor::setAttribute() failed: Already finalized.",
              hipdnnBackendSetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &cfg));
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED, "ExecutionPlanDescriptor does not support attribute AttributeName(123456) (123456",
              hipdnnBackendGetAttribute(plan, NO_SUCH_ATTRIBUTE, HIPDNN_TYPE_INT64, 1, &n, &v));
    /* The plan's config comes back as a new handle that outlives our own config handle. */
    hipdnnBackendDescriptor_t cfg_back = NULL;
    CHECK_OK(hipdnnBackendGetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, NULL,
                                       &cfg_back));
    CHECK(cfg_back != NULL && cfg_back != cfg);

    hipdnnBackendDescriptor_t all[] = {plan, c_unfinalized, c2, e_unfinalized, e, eng, cfg, heur, g_unfinalized, g, op, y, x};
    for (size_t i = 0; i < N_ELEMS(all); i++)
        CHECK_OK(hipdnnBackendDestroyDescriptor(all[i]));
    /* cfg_back still works after every other handle to the chain is gone. */
    ws = -1;
    CHECK_OK(hipdnnBackendGetAttribute(cfg_back, HIPDNN_ATTR_ENGINECFG_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1, NULL, &ws));
    CHECK(ws >= 0);
    CHECK_OK(hipdnnBackendDestroyDescriptor(cfg_back));
    CHECK_OK(hipdnnDestroy(h));
}

/* Knob descriptors: get before finalize, re-finalize, set after finalize. */
static void check_knobs(void) {
    int64_t n = -1, v = 0;
    hipdnnBackendDescriptor_t kc = NULL;
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR, &kc));
    CHECK_ERR(HIPDNN_STATUS_NOT_INITIALIZED, "KnobSettingDescriptor::getAttribute() failed: Not finalized.",
              hipdnnBackendGetAttribute(kc, HIPDNN_ATTR_KNOB_CHOICE_KNOB_VALUE, HIPDNN_TYPE_INT64, 1, &n, &v));
    CHECK_OK(hipdnnBackendSetAttribute(kc, HIPDNN_ATTR_KNOB_CHOICE_KNOB_TYPE, HIPDNN_TYPE_CHAR, 4, "tile"));
    v = 64;
    CHECK_OK(hipdnnBackendSetAttribute(kc, HIPDNN_ATTR_KNOB_CHOICE_KNOB_VALUE, HIPDNN_TYPE_INT64, 1, &v));
    CHECK_OK(hipdnnBackendFinalize(kc));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "KnobSettingDescriptor::finalize() failed: Already finalized.", hipdnnBackendFinalize(kc));
    CHECK_ERR(HIPDNN_STATUS_NOT_INITIALIZED, "KnobSettingDescriptor::setAttribute() failed: Already finalized.",
              hipdnnBackendSetAttribute(kc, HIPDNN_ATTR_KNOB_CHOICE_KNOB_VALUE, HIPDNN_TYPE_INT64, 1, &v));
    v = 0;
    CHECK_OK(hipdnnBackendGetAttribute(kc, HIPDNN_ATTR_KNOB_CHOICE_KNOB_VALUE, HIPDNN_TYPE_INT64, 1, &n, &v));
    CHECK_EQ_INT(v, 64);
    CHECK_OK(hipdnnBackendDestroyDescriptor(kc));
}

int main(void) {
    check_factory();
    check_null_and_garbage();
    check_simple_kinds();
    check_engine_chain();
    check_knobs();
    return check_finish("test_descriptor_generic");
}
