/* A small conv -> bias -> ReLU graph (the e2e test's graph, smaller) built through the public C
 * API on the CPU reference engine, with host buffers and a double-precision reference.
 * Shared by test_sweep_misuse, test_concurrency*, test_soak. Thread-safe: no globals; every
 * failure is reported through the caller's fx_err, never through testutil's counters. */
#ifndef HIPDNN_TESTS_SWEEP_FIXTURE_H
#define HIPDNN_TESTS_SWEEP_FIXTURE_H

#include <hipdnn_backend.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../conv_op.h"

/* The first failure of a fixture call: the call's text, its status and the last error. */
typedef struct {
    char text[512];
    hipdnnStatus_t status;
} fx_err;

#define FX_TRY(err, call)                                                                                   \
    do {                                                                                                    \
        hipdnnStatus_t fx_st_ = (call);                                                                     \
        if (fx_st_ != HIPDNN_STATUS_SUCCESS) {                                                              \
            if ((err)->status == HIPDNN_STATUS_SUCCESS) {                                                   \
                char fx_le_[256];                                                                           \
                hipdnnPeekLastErrorString_ext(fx_le_, sizeof fx_le_);                                       \
                snprintf((err)->text, sizeof(err)->text, "%s:%d: %s -> %s (%s)", __FILE__, __LINE__, #call, \
                         hipdnnGetErrorString(fx_st_), fx_le_);                                             \
                (err)->status = fx_st_;                                                                     \
            }                                                                                               \
            goto fx_fail;                                                                                   \
        }                                                                                                   \
    } while (0)

/* Called after every descriptor destroy the fixture makes (the concurrency tests count them). */
#ifndef FX_ON_DESTROY
#define FX_ON_DESTROY() ((void)0)
#endif

enum { FX_R = 3, FX_S = 3 };

typedef struct {
    int n, c, h, w, k;
    /* x, w, conv_out (virtual), b, biased (virtual), y */
    hipdnnBackendDescriptor_t t[6];
    hipdnnBackendDescriptor_t conv, add, relu, graph, heur, cfg, plan, pack;
    float *xs, *ws, *bs, *ys;
    void* workspace;
    int64_t ws_size;
} fx_conv;

static inline hipdnnStatus_t fx_tensor(fx_err* e, hipdnnBackendDescriptor_t* out, int64_t uid, int64_t n, int64_t c, int64_t h,
                                       int64_t w, bool virt) {
    hipdnnBackendDescriptor_t t = NULL;
    int64_t dims[4] = {n, c, h, w};
    int64_t strides[4] = {c * h * w, h * w, w, 1};
    hipdnnDataType_t dt = HIPDNN_DATA_FLOAT;
    FX_TRY(e, hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_TENSOR_DESCRIPTOR, &t));
    FX_TRY(e, hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, &uid));
    FX_TRY(e, hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_DATA_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &dt));
    FX_TRY(e, hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, 4, dims));
    FX_TRY(e, hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_STRIDES, HIPDNN_TYPE_INT64, 4, strides));
    FX_TRY(e, hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_IS_VIRTUAL, HIPDNN_TYPE_BOOLEAN, 1, &virt));
    FX_TRY(e, hipdnnBackendFinalize(t));
    *out = t;
    return HIPDNN_STATUS_SUCCESS;
fx_fail:
    if (t)
        hipdnnBackendDestroyDescriptor(t), FX_ON_DESTROY();
    return e->status;
}

static inline hipdnnStatus_t fx_pointwise(fx_err* e, hipdnnBackendDescriptor_t* out, hipdnnPointwiseMode_t mode,
                                          hipdnnBackendDescriptor_t in0, hipdnnBackendDescriptor_t in1,
                                          hipdnnBackendDescriptor_t y) {
    hipdnnBackendDescriptor_t op = NULL;
    hipdnnDataType_t prec = HIPDNN_DATA_FLOAT;
    FX_TRY(e, hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR, &op));
    FX_TRY(e, hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_POINTWISE_IN_0_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &in0));
    if (in1)
        FX_TRY(e,
               hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_POINTWISE_IN_1_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &in1));
    FX_TRY(e, hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_POINTWISE_OUT_0_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &y));
    FX_TRY(e, hipdnnBackendSetAttribute(op, HIPDNN_ATTR_POINTWISE_MODE, HIPDNN_TYPE_POINTWISE_MODE, 1, &mode));
    FX_TRY(e, hipdnnBackendSetAttribute(op, HIPDNN_ATTR_POINTWISE_MATH_PREC, HIPDNN_TYPE_DATA_TYPE, 1, &prec));
    FX_TRY(e, hipdnnBackendFinalize(op));
    *out = op;
    return HIPDNN_STATUS_SUCCESS;
fx_fail:
    if (op)
        hipdnnBackendDestroyDescriptor(op), FX_ON_DESTROY();
    return e->status;
}

/* Destroys everything fx_conv_build made (safe on a partly built fixture); returns the first
 * failing destroy's status. */
static inline hipdnnStatus_t fx_conv_destroy(fx_conv* f) {
    hipdnnStatus_t first = HIPDNN_STATUS_SUCCESS;
    hipdnnBackendDescriptor_t all[] = {f->pack, f->plan, f->cfg,  f->heur, f->graph, f->relu, f->add,
                                       f->conv, f->t[5], f->t[4], f->t[3], f->t[2],  f->t[1], f->t[0]};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        if (!all[i])
            continue;
        hipdnnStatus_t st = hipdnnBackendDestroyDescriptor(all[i]);
        FX_ON_DESTROY();
        if (st != HIPDNN_STATUS_SUCCESS && first == HIPDNN_STATUS_SUCCESS)
            first = st;
    }
    free(f->xs);
    free(f->ws);
    free(f->bs);
    free(f->ys);
    free(f->workspace);
    memset(f, 0, sizeof *f);
    return first;
}

/* Builds graph, engine configuration (first heuristic result), plan, host buffers filled from
 * seed, and a finalized variant pack. On failure everything is released and e says why. */
static inline hipdnnStatus_t fx_conv_build(fx_err* e, fx_conv* f, hipdnnHandle_t handle, int n, int c, int h, int w, int k,
                                           unsigned seed) {
    memset(f, 0, sizeof *f);
    f->n = n, f->c = c, f->h = h, f->w = w, f->k = k;
    FX_TRY(e, fx_tensor(e, &f->t[0], 1, n, c, h, w, false));
    FX_TRY(e, fx_tensor(e, &f->t[1], 2, k, c, FX_R, FX_S, false));
    FX_TRY(e, fx_tensor(e, &f->t[2], 3, n, k, h, w, true));
    FX_TRY(e, fx_tensor(e, &f->t[3], 4, 1, k, 1, 1, false));
    FX_TRY(e, fx_tensor(e, &f->t[4], 5, n, k, h, w, true));
    FX_TRY(e, fx_tensor(e, &f->t[5], 6, n, k, h, w, false));
    FX_TRY(e, tu_conv_fwd(&f->conv, f->t[0], f->t[1], f->t[2], 1, 1, NULL));
    FX_TRY(e, fx_pointwise(e, &f->add, HIPDNN_POINTWISE_ADD, f->t[2], f->t[3], f->t[4]));
    FX_TRY(e, fx_pointwise(e, &f->relu, HIPDNN_POINTWISE_RELU_FWD, f->t[4], NULL, f->t[5]));
    {
        hipdnnBackendDescriptor_t ops[3] = {f->conv, f->add, f->relu};
        FX_TRY(e, hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, &f->graph));
        FX_TRY(e, hipdnnBackendSetAttribute(f->graph, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 3, ops));
        FX_TRY(e, hipdnnBackendSetAttribute(f->graph, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &handle));
        FX_TRY(e, hipdnnBackendFinalize(f->graph));
    }
    {
        hipdnnBackendHeurMode_t hmode = HIPDNN_HEUR_MODE_FALLBACK;
        int64_t count = 0;
        FX_TRY(e, hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, &f->heur));
        FX_TRY(e, hipdnnBackendSetAttribute(f->heur, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1,
                                            &f->graph));
        FX_TRY(e, hipdnnBackendSetAttribute(f->heur, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &hmode));
        FX_TRY(e, hipdnnBackendFinalize(f->heur));
        FX_TRY(e, hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, &f->cfg));
        FX_TRY(e, hipdnnBackendGetAttribute(f->heur, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &count,
                                            &f->cfg));
        FX_TRY(e, hipdnnBackendFinalize(f->cfg));
    }
    FX_TRY(e, hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, &f->plan));
    FX_TRY(e, hipdnnBackendSetAttribute(f->plan, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1,
                                        &f->cfg));
    FX_TRY(e, hipdnnBackendFinalize(f->plan));
    FX_TRY(e, hipdnnBackendGetAttribute(f->plan, HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1, NULL,
                                        &f->ws_size));

    f->xs = (float*)malloc(sizeof(float) * (size_t)(n * c * h * w));
    f->ws = (float*)malloc(sizeof(float) * (size_t)(k * c * FX_R * FX_S));
    f->bs = (float*)malloc(sizeof(float) * (size_t)k);
    f->ys = (float*)malloc(sizeof(float) * (size_t)(n * k * h * w));
    f->workspace = malloc((size_t)f->ws_size + 64);
    if (!f->xs || !f->ws || !f->bs || !f->ys || !f->workspace) {
        snprintf(e->text, sizeof e->text, "fixture: out of memory");
        e->status = HIPDNN_STATUS_INTERNAL_ERROR;
        goto fx_fail;
    }
    for (int i = 0; i < n * c * h * w; i++)
        f->xs[i] = (float)((int)((i * 37u + seed) % 17u) - 8) / 8.0f;
    for (int i = 0; i < k * c * FX_R * FX_S; i++)
        f->ws[i] = (float)((int)((i * 11u + seed) % 13u) - 6) / 13.0f;
    for (int i = 0; i < k; i++)
        f->bs[i] = (float)((i + (int)(seed % 5u)) % 4) * 0.25f - 0.4f;
    for (int i = 0; i < n * k * h * w; i++)
        f->ys[i] = NAN;
    {
        void* ptrs[4] = {f->xs, f->ws, f->bs, f->ys};
        int64_t uids[4] = {1, 2, 4, 6};
        FX_TRY(e, hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, &f->pack));
        FX_TRY(e, hipdnnBackendSetAttribute(f->pack, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR, 4, ptrs));
        FX_TRY(e, hipdnnBackendSetAttribute(f->pack, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, 4, uids));
        FX_TRY(e, hipdnnBackendSetAttribute(f->pack, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR, 1, &f->workspace));
        FX_TRY(e, hipdnnBackendFinalize(f->pack));
    }
    return HIPDNN_STATUS_SUCCESS;
fx_fail:
    fx_conv_destroy(f);
    return e->status;
}

/* Max |y - reference| over the output; NaN (never written) counts as infinite. */
static inline double fx_conv_max_error(const fx_conv* f) {
    double max_err = 0;
    const int C = f->c, H = f->h, W = f->w, K = f->k;
    for (int n = 0; n < f->n; n++)
        for (int k = 0; k < K; k++)
            for (int h = 0; h < H; h++)
                for (int w = 0; w < W; w++) {
                    double acc = f->bs[k];
                    for (int c = 0; c < C; c++)
                        for (int r = 0; r < FX_R; r++)
                            for (int s = 0; s < FX_S; s++) {
                                int ih = h + r - 1, iw = w + s - 1;
                                if (ih < 0 || ih >= H || iw < 0 || iw >= W)
                                    continue;
                                acc +=
                                    (double)f->xs[((n * C + c) * H + ih) * W + iw] * f->ws[((k * C + c) * FX_R + r) * FX_S + s];
                            }
                    double want = acc > 0 ? acc : 0;
                    double got = f->ys[((n * K + k) * H + h) * W + w];
                    double err = isnan(got) ? INFINITY : fabs(want - got);
                    if (err > max_err)
                        max_err = err;
                }
    return max_err;
}

/* Executes the plan on handle and checks the output (tolerance 1e-4). Returns SUCCESS, the
 * failing status, or INTERNAL_ERROR for wrong numbers (e says which). */
static inline hipdnnStatus_t fx_conv_run_check(fx_err* e, fx_conv* f, hipdnnHandle_t handle) {
    for (int i = 0; i < f->n * f->k * f->h * f->w; i++)
        f->ys[i] = NAN;
    FX_TRY(e, hipdnnBackendExecute(handle, f->plan, f->pack));
    {
        double err = fx_conv_max_error(f);
        if (!(err < 1e-4)) {
            snprintf(e->text, sizeof e->text, "wrong numbers: max |error| %g", err);
            e->status = HIPDNN_STATUS_INTERNAL_ERROR;
            return e->status;
        }
    }
    return HIPDNN_STATUS_SUCCESS;
fx_fail:
    return e->status;
}

#endif
