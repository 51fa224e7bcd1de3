/* End to end through the public C API on the first CPU engine the heuristic ranks (oneDNN or the
 * CPU reference engine): a conv -> bias -> ReLU
 * graph built with descriptors, engines picked by the heuristic, a plan built and executed on
 * host memory, and the output checked against a naive loop. */
#include <math.h>
#include <stdbool.h>

#include "conv_op.h"
#include "testutil.h"

enum { N = 2, C = 3, H = 6, W = 5, K = 4, R = 3, S = 3 };

static hipdnnBackendDescriptor_t make_tensor(int64_t uid, int64_t n, int64_t c, int64_t h, int64_t w, bool virt) {
    hipdnnBackendDescriptor_t t = NULL;
    int64_t dims[4] = {n, c, h, w};
    int64_t strides[4] = {c * h * w, h * w, w, 1};
    hipdnnDataType_t dt = HIPDNN_DATA_FLOAT;
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_TENSOR_DESCRIPTOR, &t));
    CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, &uid));
    CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_DATA_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &dt));
    CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, 4, dims));
    CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_STRIDES, HIPDNN_TYPE_INT64, 4, strides));
    CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_IS_VIRTUAL, HIPDNN_TYPE_BOOLEAN, 1, &virt));
    CHECK_OK(hipdnnBackendFinalize(t));
    return t;
}

static hipdnnBackendDescriptor_t make_pointwise(hipdnnPointwiseMode_t mode, hipdnnBackendDescriptor_t in0,
                                                hipdnnBackendDescriptor_t in1, hipdnnBackendDescriptor_t out) {
    hipdnnBackendDescriptor_t op = NULL;
    hipdnnDataType_t prec = HIPDNN_DATA_FLOAT;
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR, &op));
    CHECK_OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_POINTWISE_IN_0_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &in0));
    if (in1)
        CHECK_OK(
            hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_POINTWISE_IN_1_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &in1));
    CHECK_OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_POINTWISE_OUT_0_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &out));
    CHECK_OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_POINTWISE_MODE, HIPDNN_TYPE_POINTWISE_MODE, 1, &mode));
    CHECK_OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_POINTWISE_MATH_PREC, HIPDNN_TYPE_DATA_TYPE, 1, &prec));
    CHECK_OK(hipdnnBackendFinalize(op));
    return op;
}

int main(void) {
    hipdnnHandle_t handle = NULL;
    CHECK_OK(hipdnnCreate(&handle));

    hipdnnBackendDescriptor_t x = make_tensor(1, N, C, H, W, false);
    hipdnnBackendDescriptor_t w = make_tensor(2, K, C, R, S, false);
    hipdnnBackendDescriptor_t conv_out = make_tensor(3, N, K, H, W, true);
    hipdnnBackendDescriptor_t b = make_tensor(4, 1, K, 1, 1, false);
    hipdnnBackendDescriptor_t biased = make_tensor(5, N, K, H, W, true);
    hipdnnBackendDescriptor_t y = make_tensor(6, N, K, H, W, false);

    hipdnnBackendDescriptor_t conv = NULL;
    CHECK_OK(tu_conv_fwd(&conv, x, w, conv_out, 1, 1, NULL));
    hipdnnBackendDescriptor_t add = make_pointwise(HIPDNN_POINTWISE_ADD, conv_out, b, biased);
    hipdnnBackendDescriptor_t relu = make_pointwise(HIPDNN_POINTWISE_RELU_FWD, biased, NULL, y);

    hipdnnBackendDescriptor_t graph = NULL;
    hipdnnBackendDescriptor_t ops[3] = {conv, add, relu};
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, &graph));
    CHECK_OK(hipdnnBackendSetAttribute(graph, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 3, ops));
    CHECK_OK(hipdnnBackendSetAttribute(graph, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &handle));
    CHECK_OK(hipdnnBackendFinalize(graph));

    hipdnnBackendDescriptor_t heur = NULL;
    hipdnnBackendHeurMode_t hmode = HIPDNN_HEUR_MODE_FALLBACK;
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, &heur));
    CHECK_OK(hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &graph));
    CHECK_OK(hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &hmode));
    CHECK_OK(hipdnnBackendFinalize(heur));
    int64_t count = 0;
    CHECK_OK(hipdnnBackendGetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0, &count, NULL));
    CHECK(count >= 1);

    hipdnnBackendDescriptor_t cfg = NULL;
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, &cfg));
    CHECK_OK(hipdnnBackendGetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &count, &cfg));
    CHECK_EQ_INT(count, 1);
    CHECK_OK(hipdnnBackendFinalize(cfg));
    hipdnnBackendDescriptor_t engine = NULL;
    CHECK_OK(hipdnnBackendGetAttribute(cfg, HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, NULL, &engine));
    char name[128] = {0};
    int64_t name_len = 0;
    CHECK_OK(hipdnnBackendGetAttribute(engine, HIPDNN_ATTR_ENGINE_NAME_EXT, HIPDNN_TYPE_CHAR, sizeof name, &name_len, name));
    /* The default ranking puts the oneDNN engine (when installed) before the reference engine. */
    CHECK(strcmp(name, "HIPDNNGO_ONEDNN") == 0 || strcmp(name, "HIPDNNGO_CPU_REFERENCE") == 0);
    CHECK_OK(hipdnnBackendDestroyDescriptor(engine));

    hipdnnBackendDescriptor_t plan = NULL;
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, &plan));
    CHECK_OK(hipdnnBackendSetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &cfg));
    CHECK_OK(hipdnnBackendFinalize(plan));
    int64_t ws_size = -1;
    CHECK_OK(hipdnnBackendGetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1, NULL, &ws_size));
    CHECK(ws_size >= 2 * N * K * H * W * 4); /* two virtual fp32 tensors live in the workspace */

    static float xs[N * C * H * W], ws[K * C * R * S], bs[K], ys[N * K * H * W];
    for (int i = 0; i < N * C * H * W; i++)
        xs[i] = (float)((i * 37) % 17 - 8) / 8.0f;
    for (int i = 0; i < K * C * R * S; i++)
        ws[i] = (float)((i * 11) % 13 - 6) / 13.0f;
    for (int i = 0; i < K; i++)
        bs[i] = (float)i * 0.25f - 0.4f;
    void* workspace = malloc((size_t)ws_size + 1);
    void* ptrs[4] = {xs, ws, bs, ys};
    int64_t uids[4] = {1, 2, 4, 6};
    hipdnnBackendDescriptor_t pack = NULL;
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, &pack));
    CHECK_OK(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR, 4, ptrs));
    CHECK_OK(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, 4, uids));
    CHECK_OK(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR, 1, &workspace));
    CHECK_OK(hipdnnBackendFinalize(pack));
    CHECK_OK(hipdnnBackendExecute(handle, plan, pack));

    double max_err = 0;
    for (int n = 0; n < N; n++)
        for (int k = 0; k < K; k++)
            for (int h = 0; h < H; h++)
                for (int ww = 0; ww < W; ww++) {
                    double acc = bs[k];
                    for (int c = 0; c < C; c++)
                        for (int r = 0; r < R; r++)
                            for (int s = 0; s < S; s++) {
                                int ih = h + r - 1, iw = ww + s - 1;
                                if (ih < 0 || ih >= H || iw < 0 || iw >= W)
                                    continue;
                                acc += (double)xs[((n * C + c) * H + ih) * W + iw] * ws[((k * C + c) * R + r) * S + s];
                            }
                    double want = acc > 0 ? acc : 0;
                    double err = fabs(want - ys[((n * K + k) * H + h) * W + ww]);
                    if (err > max_err)
                        max_err = err;
                }
    CHECK(max_err < 1e-5);
    printf("max |error| vs naive loop: %g\n", max_err);

    hipdnnBackendDescriptor_t all[] = {pack, plan, cfg, heur, graph, relu, add, conv, y, biased, b, conv_out, w, x};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        CHECK_OK(hipdnnBackendDestroyDescriptor(all[i]));
    free(workspace);
    CHECK_OK(hipdnnDestroy(handle));
    return tu_finish("test_e2e_conv_bias_relu");
}
