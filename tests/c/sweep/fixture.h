/* A small conv -> bias -> ReLU graph built through the public C API (builders.h) on the
 * heuristic's first engine, with host buffers and a double-precision reference. Shared by
 * test_e2e_conv_bias_relu, test_sweep_misuse, test_concurrency*, test_soak. Thread-safe: no
 * globals; every failure is reported through the caller's fx_err, never through testutil's
 * counters. */
#ifndef HIPDNN_TESTS_SWEEP_FIXTURE_H
#define HIPDNN_TESTS_SWEEP_FIXTURE_H

#include <hipdnn_backend.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../builders.h"

/* The first failure of a fixture call: the call's text, its status and the last error. */
typedef struct {
    char text[512];
    hipdnnStatus_t status;
} fx_err;

/* fx_note records a failure in e unless e already holds one: where, the call, its status and
 * the last error. */
static inline void fx_note(fx_err* e, const char* file, int line, const char* call, hipdnnStatus_t st) {
    if (e->status != HIPDNN_STATUS_SUCCESS)
        return;
    char le[256];
    hipdnnPeekLastErrorString_ext(le, sizeof le);
    snprintf(e->text, sizeof e->text, "%s:%d: %s -> %s (%s)", file, line, call, hipdnnGetErrorString(st), le);
    e->status = st;
}

#define FX_TRY(err, call)                                      \
    do {                                                       \
        hipdnnStatus_t fx_st_ = (call);                        \
        if (fx_st_ != HIPDNN_STATUS_SUCCESS) {                 \
            fx_note((err), __FILE__, __LINE__, #call, fx_st_); \
            goto fx_fail;                                      \
        }                                                      \
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

/* fx_keep ends a fixture builder: with st a success *out takes d; otherwise d, when it was
 * created, is destroyed and e records the failure of `call`. */
static inline hipdnnStatus_t fx_keep(fx_err* e, const char* call, hipdnnStatus_t st, hipdnnBackendDescriptor_t d,
                                     hipdnnBackendDescriptor_t* out) {
    if (st == HIPDNN_STATUS_SUCCESS) {
        *out = d;
        return st;
    }
    fx_note(e, __FILE__, __LINE__, call, st);
    if (d)
        hipdnnBackendDestroyDescriptor(d), FX_ON_DESTROY();
    return e->status;
}

/* tu_tensor4 (unnamed) and tu_pointwise (two inputs, unnamed) for callers that report through
 * an fx_err and want nothing left behind on failure. */
static inline hipdnnStatus_t fx_tensor(fx_err* e, hipdnnBackendDescriptor_t* out, int64_t uid, int64_t n, int64_t c, int64_t h,
                                       int64_t w, bool virt) {
    hipdnnBackendDescriptor_t t = NULL;
    hipdnnStatus_t st = tu_tensor4(&t, uid, NULL, n, c, h, w, virt);
    return fx_keep(e, "tu_tensor4", st, t, out);
}

static inline hipdnnStatus_t fx_pointwise(fx_err* e, hipdnnBackendDescriptor_t* out, hipdnnPointwiseMode_t mode,
                                          hipdnnBackendDescriptor_t in0, hipdnnBackendDescriptor_t in1,
                                          hipdnnBackendDescriptor_t y) {
    hipdnnBackendDescriptor_t op = NULL;
    hipdnnStatus_t st = tu_pointwise(&op, mode, in0, in1, NULL, y, NULL);
    return fx_keep(e, "tu_pointwise", st, op, out);
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
    FX_TRY(e, tu_tensor4(&f->t[0], 1, NULL, n, c, h, w, false));
    FX_TRY(e, tu_tensor4(&f->t[1], 2, NULL, k, c, FX_R, FX_S, false));
    FX_TRY(e, tu_tensor4(&f->t[2], 3, NULL, n, k, h, w, true));
    FX_TRY(e, tu_tensor4(&f->t[3], 4, NULL, 1, k, 1, 1, false));
    FX_TRY(e, tu_tensor4(&f->t[4], 5, NULL, n, k, h, w, true));
    FX_TRY(e, tu_tensor4(&f->t[5], 6, NULL, n, k, h, w, false));
    FX_TRY(e, tu_conv_fwd(&f->conv, f->t[0], f->t[1], f->t[2], 1, 1, NULL));
    FX_TRY(e, tu_pointwise(&f->add, HIPDNN_POINTWISE_ADD, f->t[2], f->t[3], NULL, f->t[4], NULL));
    FX_TRY(e, tu_pointwise(&f->relu, HIPDNN_POINTWISE_RELU_FWD, f->t[4], NULL, NULL, f->t[5], NULL));
    {
        hipdnnBackendDescriptor_t ops[3] = {f->conv, f->add, f->relu};
        FX_TRY(e, tu_graph(&f->graph, handle, 3, ops));
    }
    FX_TRY(e, tu_heur_config(&f->heur, &f->cfg, f->graph));
    FX_TRY(e, tu_plan(&f->plan, f->cfg));
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
        FX_TRY(e, tu_pack(&f->pack, 4, uids, ptrs, f->workspace));
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
