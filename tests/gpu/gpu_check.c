/* gpu_check: what the backend does on a machine with a GPU runtime (run on the H200 device
 * machine; there is no GPU in CI). It shows, through the public C API:
 *   1. hipdnnCreate and hipdnnSetStream with the HIP layer on the CUDA (or AMD) path: with
 *      HIPDNN_LOG_LEVEL=info the backend logs the stream's device properties;
 *   2. a device-pointer attribute query: the CPU reference engine runs on host memory, so
 *      executing it with a device pointer must be refused (BAD_PARAM naming device memory),
 *      while the same plan with host pointers runs.
 * Build: gcc -std=c11 -I<prefix>/include gpu_check.c -L<prefix>/lib -lhipdnn_backend -ldl
 *        -Wl,-rpath,<prefix>/lib -o gpu_check */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hipdnn_backend.h>

static int fails = 0;
#define OK(call)                                                              \
    do {                                                                      \
        hipdnnStatus_t s_ = (call);                                           \
        if (s_ != HIPDNN_STATUS_SUCCESS) {                                    \
            char m_[2048];                                                    \
            hipdnnGetLastErrorString(m_, sizeof m_);                          \
            printf("FAIL %s: %s: %s\n", #call, hipdnnGetErrorString(s_), m_); \
            fails++;                                                          \
        }                                                                     \
    } while (0)

static hipdnnBackendDescriptor_t tensor(int64_t uid, int virt) {
    hipdnnBackendDescriptor_t t;
    int64_t dims[2] = {4, 8}, strides[2] = {8, 1};
    hipdnnDataType_t dt = HIPDNN_DATA_FLOAT;
    _Bool v = virt;
    OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_TENSOR_DESCRIPTOR, &t));
    OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, &uid));
    OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_DATA_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &dt));
    OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, 2, dims));
    OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_STRIDES, HIPDNN_TYPE_INT64, 2, strides));
    OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_IS_VIRTUAL, HIPDNN_TYPE_BOOLEAN, 1, &v));
    OK(hipdnnBackendFinalize(t));
    return t;
}

int main(void) {
    hipdnnHandle_t h = NULL;
    OK(hipdnnCreate(&h));
    OK(hipdnnSetStream(h, NULL)); /* logs the device of the default stream at INFO */

    int64_t major, minor, patch;
    OK(hipdnnGetComponentVersion_ext(HIPDNN_VERSION_KIND_PRODUCT_EXT, &major, &minor, &patch));
    printf("backend %s\n", hipdnnVersionString_ext());

    /* relu on [4, 8] floats, planned on the CPU reference engine */
    hipdnnBackendDescriptor_t x = tensor(1, 0), y = tensor(2, 0), op, g, heur, cfg, plan;
    hipdnnPointwiseMode_t mode = HIPDNN_POINTWISE_RELU_FWD;
    hipdnnDataType_t prec = HIPDNN_DATA_FLOAT;
    OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR, &op));
    OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_POINTWISE_IN_0_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &x));
    OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_POINTWISE_OUT_0_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &y));
    OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_POINTWISE_MODE, HIPDNN_TYPE_POINTWISE_MODE, 1, &mode));
    OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_POINTWISE_MATH_PREC, HIPDNN_TYPE_DATA_TYPE, 1, &prec));
    OK(hipdnnBackendFinalize(op));
    OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, &g));
    OK(hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &op));
    OK(hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &h));
    OK(hipdnnBackendFinalize(g));
    hipdnnBackendHeurMode_t hm = HIPDNN_HEUR_MODE_FALLBACK;
    OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, &heur));
    OK(hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &g));
    OK(hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &hm));
    OK(hipdnnBackendFinalize(heur));
    OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, &cfg));
    int64_t n = 0;
    OK(hipdnnBackendGetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &n, &cfg));
    OK(hipdnnBackendFinalize(cfg));
    OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, &plan));
    OK(hipdnnBackendSetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &cfg));
    OK(hipdnnBackendFinalize(plan));

    float hx[32], hy[32];
    for (int i = 0; i < 32; i++)
        hx[i] = (float)(i - 16);
    int64_t uids[2] = {1, 2};
    void* ws = NULL;

    /* Device memory from the CUDA runtime (or HIP), through dlopen like the backend does. */
    void* cudart = dlopen("libcudart.so.13", RTLD_NOW);
    if (!cudart)
        cudart = dlopen("libcudart.so.12", RTLD_NOW);
    if (!cudart)
        cudart = dlopen("libcudart.so", RTLD_NOW);
    int (*cmalloc)(void**, size_t) = cudart ? (int (*)(void**, size_t))dlsym(cudart, "cudaMalloc") : NULL;
    void* dx = NULL;
    if (cmalloc && cmalloc(&dx, sizeof hx) == 0) {
        void* ptrs[2] = {dx, hy};
        hipdnnBackendDescriptor_t pack;
        OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, &pack));
        OK(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR, 2, ptrs));
        OK(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, 2, uids));
        OK(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR, 1, &ws));
        OK(hipdnnBackendFinalize(pack));
        hipdnnStatus_t st = hipdnnBackendExecute(h, plan, pack);
        char msg[2048];
        hipdnnGetLastErrorString(msg, sizeof msg);
        printf("execute with a device pointer: %s: %s\n", hipdnnGetErrorString(st), msg);
        if (st != HIPDNN_STATUS_BAD_PARAM || !strstr(msg, "device memory"))
            fails++;
        OK(hipdnnBackendDestroyDescriptor(pack));
    } else {
        printf("no CUDA runtime to allocate device memory: device-pointer check skipped\n");
    }

    void* ptrs[2] = {hx, hy};
    hipdnnBackendDescriptor_t pack;
    OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, &pack));
    OK(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR, 2, ptrs));
    OK(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, 2, uids));
    OK(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR, 1, &ws));
    OK(hipdnnBackendFinalize(pack));
    OK(hipdnnBackendExecute(h, plan, pack));
    int bad = 0;
    for (int i = 0; i < 32; i++)
        bad += hy[i] != (hx[i] > 0 ? hx[i] : 0);
    printf("execute with host pointers: %s (%d wrong values)\n", bad ? "WRONG" : "correct", bad);
    fails += bad;
    OK(hipdnnDestroy(h));
    printf("%s\n", fails ? "gpu_check: FAILED" : "gpu_check: passed");
    return fails != 0;
}
