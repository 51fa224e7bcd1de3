/* The descriptor builders the C tests share, one per concept: a packed tensor, a pointwise
 * operation, a convolution forward operation, an operation graph, the heuristic's first engine
 * config, an execution plan and a variant pack. The tests of an attribute itself set it by hand instead.
 *
 * Every builder stops at the first call that fails and returns that call's status (its message
 * stays in the last error), so tests assert on it with CHECK_OK or CHECK_ERR. Each descriptor
 * it makes is written to its out pointer as soon as it is created, whatever the status; the
 * caller destroys it. Builders check nothing themselves and touch no globals (no testutil.h
 * counters), so the thread-safe sweep fixture uses them too. */
#ifndef HIPDNN_TESTS_BUILDERS_H
#define HIPDNN_TESTS_BUILDERS_H

#include <hipdnn_backend.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* One attribute to set. An entry whose value is NULL is skipped: an optional attribute. */
typedef struct {
    hipdnnBackendAttributeName_t attr;
    hipdnnBackendAttributeType_t type;
    int64_t count;
    const void* value;
} tu_attr;

/* tu_set sets n attributes of d in order and then finalizes d when finalize is true. */
static inline hipdnnStatus_t tu_set(hipdnnBackendDescriptor_t d, const tu_attr* set, size_t n, bool finalize) {
    hipdnnStatus_t st = HIPDNN_STATUS_SUCCESS;
    for (size_t i = 0; st == HIPDNN_STATUS_SUCCESS && i < n; i++)
        if (set[i].value != NULL)
            st = hipdnnBackendSetAttribute(d, set[i].attr, set[i].type, set[i].count, set[i].value);
    return st == HIPDNN_STATUS_SUCCESS && finalize ? hipdnnBackendFinalize(d) : st;
}

/* tu_build creates a descriptor of kind `kind` in *d and hands it to tu_set. */
static inline hipdnnStatus_t tu_build(hipdnnBackendDescriptor_t* d, hipdnnBackendDescriptorType_t kind, const tu_attr* set,
                                      size_t n, bool finalize) {
    *d = NULL;
    hipdnnStatus_t st = hipdnnBackendCreateDescriptor(kind, d);
    return st == HIPDNN_STATUS_SUCCESS ? tu_set(*d, set, n, finalize) : st;
}

#define TU_MAX_DIMS 8

/* tu_tensor_open creates a tensor with unique id uid, data type dt and nd (1 to TU_MAX_DIMS)
 * dims with packed row-major strides, and leaves it unfinalized for the caller's further
 * attributes (a name, a value, an alignment ...). A bad nd is BAD_PARAM, and nothing is
 * created. */
static inline hipdnnStatus_t tu_tensor_open(hipdnnBackendDescriptor_t* t, int64_t uid, hipdnnDataType_t dt, int nd,
                                            const int64_t* dims) {
    *t = NULL;
    if (nd < 1 || nd > TU_MAX_DIMS)
        return HIPDNN_STATUS_BAD_PARAM;
    int64_t strides[TU_MAX_DIMS];
    int64_t s = 1;
    for (int i = nd - 1; i >= 0; i--) {
        strides[i] = s;
        s *= dims[i];
    }
    const tu_attr set[] = {
        {HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, &uid},
        {HIPDNN_ATTR_TENSOR_DATA_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &dt},
        {HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, nd, dims},
        {HIPDNN_ATTR_TENSOR_STRIDES, HIPDNN_TYPE_INT64, nd, strides},
    };
    return tu_build(t, HIPDNN_BACKEND_TENSOR_DESCRIPTOR, set, sizeof set / sizeof set[0], false);
}

/* tu_tensor4 creates an fp32 NCHW tensor [n, c, h, w] as tu_tensor_open does, named `name`
 * unless that is NULL, virtual when virt, and finalizes it. */
static inline hipdnnStatus_t tu_tensor4(hipdnnBackendDescriptor_t* t, int64_t uid, const char* name, int64_t n, int64_t c,
                                        int64_t h, int64_t w, bool virt) {
    const int64_t dims[4] = {n, c, h, w};
    const tu_attr set[] = {
        {HIPDNN_ATTR_TENSOR_IS_VIRTUAL, HIPDNN_TYPE_BOOLEAN, 1, &virt},
        {HIPDNN_ATTR_TENSOR_NAME_EXT, HIPDNN_TYPE_CHAR, name ? (int64_t)strlen(name) : 0, name},
    };
    hipdnnStatus_t st = tu_tensor_open(t, uid, HIPDNN_DATA_FLOAT, 4, dims);
    return st == HIPDNN_STATUS_SUCCESS ? tu_set(*t, set, sizeof set / sizeof set[0], true) : st;
}

/* tu_pointwise creates a pointwise operation out = mode(in0[, in1[, in2]]) with fp32 math,
 * named `name`; in1, in2 and name are left unset when NULL. It finalizes it. */
static inline hipdnnStatus_t tu_pointwise(hipdnnBackendDescriptor_t* op, hipdnnPointwiseMode_t mode,
                                          hipdnnBackendDescriptor_t in0, hipdnnBackendDescriptor_t in1,
                                          hipdnnBackendDescriptor_t in2, hipdnnBackendDescriptor_t out, const char* name) {
    hipdnnDataType_t prec = HIPDNN_DATA_FLOAT;
    const tu_attr set[] = {
        {HIPDNN_ATTR_OPERATION_POINTWISE_IN_0_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &in0},
        {HIPDNN_ATTR_OPERATION_POINTWISE_IN_1_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, in1 ? &in1 : NULL},
        {HIPDNN_ATTR_OPERATION_POINTWISE_IN_2_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, in2 ? &in2 : NULL},
        {HIPDNN_ATTR_OPERATION_POINTWISE_OUT_0_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &out},
        {HIPDNN_ATTR_POINTWISE_MODE, HIPDNN_TYPE_POINTWISE_MODE, 1, &mode},
        {HIPDNN_ATTR_POINTWISE_MATH_PREC, HIPDNN_TYPE_DATA_TYPE, 1, &prec},
        {HIPDNN_ATTR_OPERATION_NAME_EXT, HIPDNN_TYPE_CHAR, name ? (int64_t)strlen(name) : 0, name},
    };
    return tu_build(op, HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR, set, sizeof set / sizeof set[0], true);
}

/* tu_conv_fwd creates a 2-D convolution forward operation x * w -> y with `pad` before and
 * after and `stride` in both spatial dimensions, dilation 1, cross-correlation and fp32
 * compute, named `name` unless that is NULL, and finalizes it. */
static inline hipdnnStatus_t tu_conv_fwd(hipdnnBackendDescriptor_t* op, hipdnnBackendDescriptor_t x, hipdnnBackendDescriptor_t w,
                                         hipdnnBackendDescriptor_t y, int64_t pad, int64_t stride, const char* name) {
    int64_t pads[2] = {pad, pad}, strides[2] = {stride, stride}, one[2] = {1, 1};
    hipdnnConvolutionMode_t mode = HIPDNN_CROSS_CORRELATION;
    hipdnnDataType_t comp = HIPDNN_DATA_FLOAT;
    const tu_attr set[] = {
        {HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &x},
        {HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &w},
        {HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &y},
        {HIPDNN_ATTR_CONVOLUTION_PRE_PADDINGS, HIPDNN_TYPE_INT64, 2, pads},
        {HIPDNN_ATTR_CONVOLUTION_POST_PADDINGS, HIPDNN_TYPE_INT64, 2, pads},
        {HIPDNN_ATTR_CONVOLUTION_FILTER_STRIDES, HIPDNN_TYPE_INT64, 2, strides},
        {HIPDNN_ATTR_CONVOLUTION_DILATIONS, HIPDNN_TYPE_INT64, 2, one},
        {HIPDNN_ATTR_CONVOLUTION_CONV_MODE, HIPDNN_TYPE_CONVOLUTION_MODE, 1, &mode},
        {HIPDNN_ATTR_CONVOLUTION_COMP_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &comp},
        {HIPDNN_ATTR_OPERATION_NAME_EXT, HIPDNN_TYPE_CHAR, name ? (int64_t)strlen(name) : 0, name},
    };
    return tu_build(op, HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR, set, sizeof set / sizeof set[0], true);
}

/* tu_graph creates an operation graph of nops operations on handle h and finalizes it. */
static inline hipdnnStatus_t tu_graph(hipdnnBackendDescriptor_t* g, hipdnnHandle_t h, int64_t nops,
                                      const hipdnnBackendDescriptor_t* ops) {
    const tu_attr set[] = {
        {HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, nops, ops},
        {HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &h},
    };
    return tu_build(g, HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, set, sizeof set / sizeof set[0], true);
}

/* tu_heur_config ranks the finalized graph g with a FALLBACK engine heuristic (*heur) and
 * writes its first result into a new engine config (*cfg), which it finalizes. When the
 * heuristic ranks no engine the config stays empty and its finalize fails, naming the engine
 * attribute. */
static inline hipdnnStatus_t tu_heur_config(hipdnnBackendDescriptor_t* heur, hipdnnBackendDescriptor_t* cfg,
                                            hipdnnBackendDescriptor_t g) {
    hipdnnBackendHeurMode_t mode = HIPDNN_HEUR_MODE_FALLBACK;
    const tu_attr set[] = {
        {HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &g},
        {HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &mode},
    };
    int64_t n = 0;
    *cfg = NULL;
    hipdnnStatus_t st = tu_build(heur, HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, set, sizeof set / sizeof set[0], true);
    if (st == HIPDNN_STATUS_SUCCESS)
        st = hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, cfg);
    if (st == HIPDNN_STATUS_SUCCESS)
        st = hipdnnBackendGetAttribute(*heur, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &n, cfg);
    return st == HIPDNN_STATUS_SUCCESS ? hipdnnBackendFinalize(*cfg) : st;
}

/* tu_plan creates an execution plan for the finalized engine config cfg and finalizes it. */
static inline hipdnnStatus_t tu_plan(hipdnnBackendDescriptor_t* plan, hipdnnBackendDescriptor_t cfg) {
    const tu_attr set[] = {{HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &cfg}};
    return tu_build(plan, HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, set, 1, true);
}

/* tu_pack creates a variant pack of n (uid, pointer) pairs and a workspace pointer and
 * finalizes it. */
static inline hipdnnStatus_t tu_pack(hipdnnBackendDescriptor_t* pack, int64_t n, const int64_t* uids, void* const* ptrs,
                                     void* workspace) {
    const tu_attr set[] = {
        {HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR, n, ptrs},
        {HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, n, uids},
        {HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR, 1, &workspace},
    };
    return tu_build(pack, HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, set, sizeof set / sizeof set[0], true);
}

#endif
