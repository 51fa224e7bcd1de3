/*
 * hipdnn-demo: a convolution -> bias add -> ReLU graph built through the hipDNN descriptor API,
 * planned by the heuristic, executed on the first host-memory CPU engine the heuristic ranks
 * (HIPDNNGO_ONEDNN when the oneDNN plugin is installed, else the CPU reference engine; no GPU),
 * and checked against a naive double-precision loop.
 *
 *   y = relu(conv(x, w) + b)      x [4,16,32,32], w [32,16,3,3], pad 1, stride 1, b [1,32,1,1]
 *
 * Everything is float32 in NCHW layout. The intermediate tensors (conv output, biased) are
 * virtual: the engine keeps them in the plan's workspace.
 *
 * With --gpu the same graph runs on the GPU engine HIPDNNGO_CUDNN (plugins/cudnn): x, w, b and y
 * are copied to and from device memory through the CUDA runtime, opened with dlopen (never
 * linked), so the demo builds and runs without CUDA.
 *
 * Exit code: 0 on PASS, 1 on FAIL or any API error.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <dlfcn.h>

#include "hipdnn_backend.h"

enum
{
    N = 4,
    C = 16,
    H = 32,
    W = 32,
    K = 32,
    R = 3,
    S = 3,
    PAD = 1,
    ITERS = 10
};

/* The host-memory CPU engines of this project; the demo runs on whichever the heuristic ranks first. */
#define CPU_ENGINE_NAMES "HIPDNNGO_ONEDNN or HIPDNNGO_CPU_REFERENCE"
static int is_cpu_engine(const char* name)
{
    return strcmp(name, "HIPDNNGO_ONEDNN") == 0 || strcmp(name, "HIPDNNGO_CPU_REFERENCE") == 0;
}

/* The CUDA runtime calls --gpu needs (cudaMemcpyKind: 1 host to device, 2 device to host). */
static int (*cuda_malloc)(void**, size_t);
static int (*cuda_free)(void*);
static int (*cuda_memcpy)(void*, const void*, size_t, int);
static int (*cuda_sync)(void);

static int load_cudart(void)
{
    void* lib = dlopen("libcudart.so.13", RTLD_NOW);
    if(lib == NULL)
        lib = dlopen("libcudart.so.12", RTLD_NOW);
    if(lib == NULL)
    {
        fprintf(stderr, "--gpu: no CUDA runtime (libcudart.so.13 / .12)\n");
        return 1;
    }
    *(void**)(&cuda_malloc) = dlsym(lib, "cudaMalloc");
    *(void**)(&cuda_free) = dlsym(lib, "cudaFree");
    *(void**)(&cuda_memcpy) = dlsym(lib, "cudaMemcpy");
    *(void**)(&cuda_sync) = dlsym(lib, "cudaDeviceSynchronize");
    if(cuda_malloc == NULL || cuda_free == NULL || cuda_memcpy == NULL || cuda_sync == NULL)
    {
        fprintf(stderr, "--gpu: the CUDA runtime lacks cudaMalloc/cudaMemcpy\n");
        return 1;
    }
    return 0;
}

/* to_device copies bytes of host into new device memory (*dev); 0 on success. */
static int to_device(void** dev, const void* host, size_t bytes)
{
    if(cuda_malloc(dev, bytes) != 0 || (host != NULL && cuda_memcpy(*dev, host, bytes, 1) != 0))
    {
        fprintf(stderr, "--gpu: cudaMalloc/cudaMemcpy of %zu bytes failed\n", bytes);
        return 1;
    }
    return 0;
}

/* check prints the failing call, the status name and the library's last error message. */
static int check(hipdnnStatus_t status, const char* call, int line)
{
    char message[HIPDNN_ERROR_STRING_MAX_LENGTH];
    if(status == HIPDNN_STATUS_SUCCESS)
    {
        return 0;
    }
    hipdnnGetLastErrorString(message, sizeof message);
    fprintf(stderr, "line %d: %s\n  -> %s: %s\n", line, call, hipdnnGetErrorString(status), message);
    return 1;
}

#define CHECK(call)                             \
    do                                          \
    {                                           \
        if(check((call), #call, __LINE__) != 0) \
        {                                       \
            exit(1);                            \
        }                                       \
    } while(0)

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* A seeded splitmix64 generator: the same numbers on every run and platform. */
static uint64_t rng_state = 0x5EEDu;

static float uniform(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (float)((double)(z >> 11) / 9007199254740992.0 * 2.0 - 1.0); /* [-1, 1) */
}

static hipdnnBackendDescriptor_t make_tensor(int64_t uid, int64_t n, int64_t c, int64_t h, int64_t w, int is_virtual)
{
    hipdnnBackendDescriptor_t t = NULL;
    int64_t dims[4];
    int64_t strides[4];
    hipdnnDataType_t type = HIPDNN_DATA_FLOAT;
    int64_t alignment = 16;
    _Bool virt = is_virtual ? 1 : 0;
    dims[0] = n;
    dims[1] = c;
    dims[2] = h;
    dims[3] = w;
    strides[0] = c * h * w; /* NCHW, packed */
    strides[1] = h * w;
    strides[2] = w;
    strides[3] = 1;
    CHECK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_TENSOR_DESCRIPTOR, &t));
    CHECK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, &uid));
    CHECK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_DATA_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &type));
    CHECK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, 4, dims));
    CHECK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_STRIDES, HIPDNN_TYPE_INT64, 4, strides));
    CHECK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_BYTE_ALIGNMENT, HIPDNN_TYPE_INT64, 1, &alignment));
    CHECK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_IS_VIRTUAL, HIPDNN_TYPE_BOOLEAN, 1, &virt));
    CHECK(hipdnnBackendFinalize(t));
    return t;
}

static hipdnnBackendDescriptor_t make_pointwise(hipdnnPointwiseMode_t mode, hipdnnBackendDescriptor_t in0,
                                                hipdnnBackendDescriptor_t in1, hipdnnBackendDescriptor_t out)
{
    hipdnnBackendDescriptor_t op = NULL;
    hipdnnDataType_t precision = HIPDNN_DATA_FLOAT;
    CHECK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR, &op));
    CHECK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_POINTWISE_MODE, HIPDNN_TYPE_POINTWISE_MODE, 1, &mode));
    CHECK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_POINTWISE_MATH_PREC, HIPDNN_TYPE_DATA_TYPE, 1, &precision));
    CHECK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_POINTWISE_IN_0_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &in0));
    if(in1 != NULL)
    {
        CHECK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_POINTWISE_IN_1_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &in1));
    }
    CHECK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_POINTWISE_OUT_0_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &out));
    CHECK(hipdnnBackendFinalize(op));
    return op;
}

static int compare_doubles(const void* a, const void* b)
{
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

int main(int argc, char** argv)
{
    static float x[N * C * H * W], w[K * C * R * S], b[K], y[N * K * H * W];
    hipdnnHandle_t handle = NULL;
    hipdnnBackendDescriptor_t xt, wt, conv_out, bt, biased, yt, conv, add, relu, graph, heur, plan, pack;
    hipdnnBackendDescriptor_t* configs;
    hipdnnBackendDescriptor_t chosen = NULL;
    int64_t pad[2] = {PAD, PAD}, one[2] = {1, 1};
    hipdnnConvolutionMode_t conv_mode = HIPDNN_CROSS_CORRELATION;
    hipdnnDataType_t compute = HIPDNN_DATA_FLOAT;
    hipdnnBackendHeurMode_t heur_mode = HIPDNN_HEUR_MODE_FALLBACK;
    hipdnnBackendDescriptor_t ops[3];
    int64_t count = 0, returned = 0, engine_id = 0, workspace_size = 0, i;
    char engine_name[256];
    double t0, build_ms, times[ITERS], max_err = 0, worst_ratio = 0;
    void* workspace = NULL;
    void* pointers[4];
    int64_t uids[4] = {1, 2, 4, 6};
    int n, k, h, ww, c, r, s, pass;
    int gpu = argc > 1 && strcmp(argv[1], "--gpu") == 0;
    void* device[4] = {NULL, NULL, NULL, NULL};

    printf("hipdnn-demo: conv [%d,%d,%d,%d] * [%d,%d,%d,%d] (pad %d) -> + bias -> ReLU, float32 NCHW\n", N, C, H, W, K, C, R, S,
           PAD);
    printf("library: hipDNN backend %s\n", hipdnnVersionString_ext());
    CHECK(hipdnnCreate(&handle));

    /* Tensors: x, w, b and y live in host buffers; the two intermediates are virtual. */
    xt = make_tensor(1, N, C, H, W, 0);
    wt = make_tensor(2, K, C, R, S, 0);
    conv_out = make_tensor(3, N, K, H, W, 1);
    bt = make_tensor(4, 1, K, 1, 1, 0);
    biased = make_tensor(5, N, K, H, W, 1);
    yt = make_tensor(6, N, K, H, W, 0);

    CHECK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR, &conv));
    CHECK(hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &xt));
    CHECK(hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &wt));
    CHECK(hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1,
                                    &conv_out));
    CHECK(hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_CONVOLUTION_PRE_PADDINGS, HIPDNN_TYPE_INT64, 2, pad));
    CHECK(hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_CONVOLUTION_POST_PADDINGS, HIPDNN_TYPE_INT64, 2, pad));
    CHECK(hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_CONVOLUTION_FILTER_STRIDES, HIPDNN_TYPE_INT64, 2, one));
    CHECK(hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_CONVOLUTION_DILATIONS, HIPDNN_TYPE_INT64, 2, one));
    CHECK(hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_CONVOLUTION_CONV_MODE, HIPDNN_TYPE_CONVOLUTION_MODE, 1, &conv_mode));
    CHECK(hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_CONVOLUTION_COMP_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &compute));
    CHECK(hipdnnBackendFinalize(conv));
    add = make_pointwise(HIPDNN_POINTWISE_ADD, conv_out, bt, biased);
    relu = make_pointwise(HIPDNN_POINTWISE_RELU_FWD, biased, NULL, yt);

    ops[0] = conv;
    ops[1] = add;
    ops[2] = relu;
    CHECK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, &graph));
    CHECK(hipdnnBackendSetAttribute(graph, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 3, ops));
    CHECK(hipdnnBackendSetAttribute(graph, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &handle));
    CHECK(hipdnnBackendFinalize(graph));

    /* Plan build (timed): heuristic -> engine configuration -> execution plan. The demo uses
     * host buffers, so it takes the first configuration whose engine is the CPU engine. */
    t0 = now_ms();
    CHECK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, &heur));
    CHECK(hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &graph));
    CHECK(hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &heur_mode));
    CHECK(hipdnnBackendFinalize(heur));
    CHECK(hipdnnBackendGetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0, &count, NULL));
    if(count < 1)
    {
        fprintf(stderr, "the heuristic found no engine for the graph\n");
        return 1;
    }
    configs = (hipdnnBackendDescriptor_t*)calloc((size_t)count, sizeof *configs);
    if(configs == NULL)
    {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    for(i = 0; i < count; i++)
    {
        CHECK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, &configs[i]));
    }
    CHECK(hipdnnBackendGetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, count, &returned,
                                    configs));
    for(i = 0; i < returned && chosen == NULL; i++)
    {
        hipdnnBackendDescriptor_t engine = NULL;
        int64_t len = 0;
        CHECK(hipdnnBackendFinalize(configs[i]));
        CHECK(hipdnnBackendGetAttribute(configs[i], HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, NULL,
                                        &engine));
        CHECK(hipdnnBackendGetAttribute(engine, HIPDNN_ATTR_ENGINE_NAME_EXT, HIPDNN_TYPE_CHAR, (int64_t)sizeof engine_name, &len,
                                        engine_name));
        CHECK(hipdnnBackendGetAttribute(engine, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, HIPDNN_TYPE_INT64, 1, NULL, &engine_id));
        CHECK(hipdnnBackendDestroyDescriptor(engine));
        if(gpu ? strcmp(engine_name, "HIPDNNGO_CUDNN") == 0 : is_cpu_engine(engine_name))
        {
            chosen = configs[i];
        }
    }
    if(chosen == NULL)
    {
        fprintf(stderr, "the heuristic offered %lld configuration(s), none on %s\n", (long long)returned,
                gpu ? "HIPDNNGO_CUDNN (is there an NVIDIA GPU with cuDNN 9?)" : CPU_ENGINE_NAMES);
        return 1;
    }
    CHECK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, &plan));
    CHECK(hipdnnBackendSetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &chosen));
    CHECK(hipdnnBackendFinalize(plan));
    build_ms = now_ms() - t0;
    CHECK(
        hipdnnBackendGetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1, NULL, &workspace_size));
    printf("engine: %s (id 0x%016llX), first %s engine of %lld heuristic result(s)\n", engine_name, (unsigned long long)engine_id,
           gpu ? "GPU" : "CPU", (long long)returned);
    printf("plan build: %.3f ms (heuristic + engine config + plan finalize)\n", build_ms);

    /* Host buffers from a seeded generator. */
    for(i = 0; i < N * C * H * W; i++)
        x[i] = uniform();
    for(i = 0; i < K * C * R * S; i++)
        w[i] = uniform();
    for(i = 0; i < K; i++)
        b[i] = uniform();
    if(gpu
       && (load_cudart() || to_device(&device[0], x, sizeof x) || to_device(&device[1], w, sizeof w)
           || to_device(&device[2], b, sizeof b) || to_device(&device[3], NULL, sizeof y)
           || (workspace_size > 0 && to_device(&workspace, NULL, (size_t)workspace_size))))
        return 1;
    if(workspace_size > 0 && !gpu)
    {
        workspace = malloc((size_t)workspace_size);
        if(workspace == NULL)
        {
            fprintf(stderr, "out of memory (workspace of %lld bytes)\n", (long long)workspace_size);
            return 1;
        }
    }
    pointers[0] = x;
    pointers[1] = w;
    pointers[2] = b;
    pointers[3] = y;
    if(gpu)
        memcpy(pointers, device, sizeof pointers);
    CHECK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, &pack));
    CHECK(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, 4, uids));
    CHECK(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR, 4, pointers));
    CHECK(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR, 1, &workspace));
    CHECK(hipdnnBackendFinalize(pack));

    /* One warm-up run, then ITERS timed runs (the CPU engine is synchronous; on the GPU each run
     * is followed by a device synchronize). */
    CHECK(hipdnnBackendExecute(handle, plan, pack));
    for(i = 0; i < ITERS; i++)
    {
        double start = now_ms();
        CHECK(hipdnnBackendExecute(handle, plan, pack));
        if(gpu && cuda_sync() != 0)
        {
            fprintf(stderr, "--gpu: cudaDeviceSynchronize failed\n");
            return 1;
        }
        times[i] = now_ms() - start;
    }
    if(gpu && cuda_memcpy(y, device[3], sizeof y, 2) != 0)
    {
        fprintf(stderr, "--gpu: cudaMemcpy of y back to the host failed\n");
        return 1;
    }
    qsort(times, ITERS, sizeof times[0], compare_doubles);
    printf("execute: %.3f ms median of %d runs (workspace %lld bytes)\n", 0.5 * (times[ITERS / 2 - 1] + times[ITERS / 2]), ITERS,
           (long long)workspace_size);

    /* Naive double loop. Tolerance per element: 2^-20 * (sum |x*w| + |b|), i.e. 16 float32 unit
     * roundoffs of the terms' magnitude, ample for a 144-term float32 sum. */
    for(n = 0; n < N; n++)
        for(k = 0; k < K; k++)
            for(h = 0; h < H; h++)
                for(ww = 0; ww < W; ww++)
                {
                    double acc = b[k], mag = fabs((double)b[k]), want, err, tol;
                    for(c = 0; c < C; c++)
                        for(r = 0; r < R; r++)
                            for(s = 0; s < S; s++)
                            {
                                int ih = h + r - PAD, iw = ww + s - PAD;
                                double term;
                                if(ih < 0 || ih >= H || iw < 0 || iw >= W)
                                    continue;
                                term = (double)x[((n * C + c) * H + ih) * W + iw] * (double)w[((k * C + c) * R + r) * S + s];
                                acc += term;
                                mag += fabs(term);
                            }
                    want = acc > 0 ? acc : 0;
                    err = fabs(want - (double)y[((n * K + k) * H + h) * W + ww]);
                    tol = ldexp(mag, -20);
                    if(!(err <= max_err))
                        max_err = err;
                    if(!(err / tol <= worst_ratio))
                        worst_ratio = err / tol;
                }
    pass = worst_ratio <= 1.0;
    printf("max |error| vs naive double loop: %.3g (worst error/tolerance %.3g)\n", max_err, worst_ratio);
    printf("%s\n", pass ? "PASS" : "FAIL");

    {
        hipdnnBackendDescriptor_t all[] = {pack, plan, heur, graph, relu, add, conv, yt, biased, bt, conv_out, wt, xt};
        size_t j;
        for(j = 0; j < sizeof all / sizeof all[0]; j++)
            CHECK(hipdnnBackendDestroyDescriptor(all[j]));
        for(i = 0; i < count; i++)
            CHECK(hipdnnBackendDestroyDescriptor(configs[i]));
    }
    free(configs);
    if(gpu)
    {
        for(i = 0; i < 4; i++)
            cuda_free(device[i]);
        if(workspace != NULL)
            cuda_free(workspace);
    }
    else
        free(workspace);
    CHECK(hipdnnDestroy(handle));
    return pass ? 0 : 1;
}
