/* The one convolution forward operation the C tests build when they need "a conv op" (the
 * tests of the conv attributes themselves set them one by one instead). A header of its own,
 * without testutil.h's counters, so that the thread-safe sweep fixture can use it too. */
#ifndef HIPDNN_TESTS_CONV_OP_H
#define HIPDNN_TESTS_CONV_OP_H

#include <hipdnn_backend.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* tu_conv_fwd creates a 2-D convolution forward operation x * w -> y with `pad` before and
 * after and `stride` in both spatial dimensions, dilation 1, cross-correlation and fp32
 * compute, named `name` unless that is NULL, and finalizes it. It stops at the first call that
 * fails and returns that call's status (its message stays in the last error), so misuse tests
 * can assert on it. *op receives the descriptor once it is created, whatever the status; the
 * caller destroys it. Checks nothing itself and touches no globals. */
static inline hipdnnStatus_t tu_conv_fwd(hipdnnBackendDescriptor_t* op, hipdnnBackendDescriptor_t x, hipdnnBackendDescriptor_t w,
                                         hipdnnBackendDescriptor_t y, int64_t pad, int64_t stride, const char* name) {
    int64_t pads[2] = {pad, pad}, strides[2] = {stride, stride}, one[2] = {1, 1};
    hipdnnConvolutionMode_t mode = HIPDNN_CROSS_CORRELATION;
    hipdnnDataType_t comp = HIPDNN_DATA_FLOAT;
    const struct {
        hipdnnBackendAttributeName_t attr;
        hipdnnBackendAttributeType_t type;
        int64_t count;
        const void* value;
    } set[] = {
        {HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &x},
        {HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &w},
        {HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &y},
        {HIPDNN_ATTR_CONVOLUTION_PRE_PADDINGS, HIPDNN_TYPE_INT64, 2, pads},
        {HIPDNN_ATTR_CONVOLUTION_POST_PADDINGS, HIPDNN_TYPE_INT64, 2, pads},
        {HIPDNN_ATTR_CONVOLUTION_FILTER_STRIDES, HIPDNN_TYPE_INT64, 2, strides},
        {HIPDNN_ATTR_CONVOLUTION_DILATIONS, HIPDNN_TYPE_INT64, 2, one},
        {HIPDNN_ATTR_CONVOLUTION_CONV_MODE, HIPDNN_TYPE_CONVOLUTION_MODE, 1, &mode},
        {HIPDNN_ATTR_CONVOLUTION_COMP_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &comp},
        /* Last, and skipped when NULL: the name is optional. */
        {HIPDNN_ATTR_OPERATION_NAME_EXT, HIPDNN_TYPE_CHAR, name ? (int64_t)strlen(name) : 0, name},
    };
    *op = NULL;
    hipdnnStatus_t st = hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR, op);
    for (size_t i = 0; st == HIPDNN_STATUS_SUCCESS && i < sizeof set / sizeof set[0]; i++)
        if (set[i].value != NULL)
            st = hipdnnBackendSetAttribute(*op, set[i].attr, set[i].type, set[i].count, set[i].value);
    return st == HIPDNN_STATUS_SUCCESS ? hipdnnBackendFinalize(*op) : st;
}

#endif
