/* fault_drill: a caller's mistakes on the GPU path, each in a process of its own, through the
 * public C API and the cuDNN engine (run on the H200 device machine; there is no GPU in CI).
 *
 *   fault_drill all                 every case below, each in a fresh process (fork + exec)
 *   fault_drill CASE                one case: host, pinned, managed, foreign, null-tensor,
 *                                   missing, null-workspace, destroyed, reuse
 *   fault_drill soak N              N cycles of stream, handle, plan, execute and destroy;
 *                                   device memory is read at cycle 1, 100 and N
 *   fault_drill cost N              host time of N executes with one variant pack, then with a
 *                                   new pack each (whose pointers the backend classifies once)
 *   fault_drill threads N           8 threads x N executes with a handle and stream each, then
 *                                   8 threads x N sharing one handle and plan; every output
 *                                   must equal the single-threaded one bit for bit
 *
 * A bad-input case passes when the call returns the expected status and a message naming what
 * was wrong, and a valid execute in the same process afterwards still succeeds, synchronizes
 * and computes the right numbers: the GPU context survived.
 *
 * Build: gcc -std=c11 -O2 -pthread -I<prefix>/include fault_drill.c -L<prefix>/lib
 *        -lhipdnn_backend -ldl -lm -Wl,-rpath,<prefix>/lib -o fault_drill */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <hipdnn_backend.h>

#include "../c/builders.h"

/* conv [N,C,H,W] * [K,C,3,3], pad 1, fp32 NCHW: uids 1 x, 2 w, 3 y */
enum { N = 4, C = 16, H = 16, W = 16, K = 32, R = 3 };
#define XS (N * C * H * W)
#define WS (K * C * R * R)
#define YS (N * K * H * W)

/* ---- the CUDA runtime, dlopened (no CUDA headers needed to build) ---- */
typedef void* stream_t;
static struct {
    int (*Malloc)(void**, size_t);
    int (*Free)(void*);
    int (*MallocHost)(void**, size_t);
    int (*FreeHost)(void*);
    int (*MallocManaged)(void**, size_t, unsigned);
    int (*Memcpy)(void*, const void*, size_t, int);
    int (*MemsetAsync)(void*, int, size_t, stream_t);
    int (*StreamCreate)(stream_t*);
    int (*StreamDestroy)(stream_t);
    int (*StreamSynchronize)(stream_t);
    int (*MemGetInfo)(size_t*, size_t*);
    int (*SetDevice)(int);
    int (*GetDeviceCount)(int*);
    const char* (*GetErrorString)(int);
} cu;

static void load_cuda(void) {
    const char* libs[] = {"libcudart.so.13", "libcudart.so.12", "libcudart.so"};
    void* h = NULL;
    for (size_t i = 0; h == NULL && i < sizeof libs / sizeof libs[0]; i++)
        h = dlopen(libs[i], RTLD_NOW | RTLD_GLOBAL);
    if (h == NULL) {
        printf("FAIL no CUDA runtime: %s\n", dlerror());
        exit(2);
    }
#define SYM(f)                                                   \
    *(void**)&cu.f = dlsym(h, "cuda" #f);                        \
    if (cu.f == NULL) {                                          \
        printf("FAIL the CUDA runtime lacks cuda%s\n", #f);      \
        exit(2);                                                 \
    }
    SYM(Malloc) SYM(Free) SYM(MallocHost) SYM(FreeHost) SYM(MallocManaged) SYM(Memcpy) SYM(MemsetAsync) SYM(StreamCreate)
        SYM(StreamDestroy) SYM(StreamSynchronize) SYM(MemGetInfo) SYM(SetDevice) SYM(GetDeviceCount) SYM(GetErrorString)
#undef SYM
}

static void cuda_ok(int err, const char* what) {
    if (err != 0) {
        printf("FAIL %s: CUDA error %d (%s)\n", what, err, cu.GetErrorString(err));
        exit(1);
    }
}

static void* dev_alloc(size_t n) {
    void* p = NULL;
    cuda_ok(cu.Malloc(&p, n), "cudaMalloc");
    return p;
}

/* ---- the graph, its plan on HIPDNNGO_CUDNN, and the reference ---- */
static float hx[XS], hw[WS], ref[YS];

static void fill_and_reference(void) {
    unsigned s = 12345;
    for (int i = 0; i < XS; i++)
        hx[i] = (float)((s = s * 1103515245u + 12345u) >> 9) / (float)(1u << 23) - 0.5f;
    for (int i = 0; i < WS; i++)
        hw[i] = (float)((s = s * 1103515245u + 12345u) >> 9) / (float)(1u << 23) - 0.5f;
    for (int n = 0; n < N; n++)
        for (int k = 0; k < K; k++)
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++) {
                    double acc = 0;
                    for (int c = 0; c < C; c++)
                        for (int r = 0; r < R; r++)
                            for (int q = 0; q < R; q++) {
                                int yy = y + r - 1, xx = x + q - 1;
                                if (yy >= 0 && yy < H && xx >= 0 && xx < W)
                                    acc += (double)hx[((n * C + c) * H + yy) * W + xx] * hw[((k * C + c) * R + r) * R + q];
                            }
                    ref[((n * K + k) * H + y) * W + x] = (float)acc;
                }
}

typedef struct {
    hipdnnBackendDescriptor_t t[3], op, graph, heur, cfgs[16], plan;
    int64_t ncfg, workspace;
} built;

static void expect_ok(hipdnnStatus_t st, const char* what) {
    if (st != HIPDNN_STATUS_SUCCESS) {
        char m[2048];
        hipdnnGetLastErrorString(m, sizeof m);
        printf("FAIL %s: %s: %s\n", what, hipdnnGetErrorString(st), m);
        exit(1);
    }
}

/* build_plan builds the conv graph on handle h and plans it on the cuDNN engine. */
static built build_plan(hipdnnHandle_t h) {
    built b;
    memset(&b, 0, sizeof b);
    expect_ok(tu_tensor4(&b.t[0], 1, "x", N, C, H, W, false), "tensor x");
    expect_ok(tu_tensor4(&b.t[1], 2, "w", K, C, R, R, false), "tensor w");
    expect_ok(tu_tensor4(&b.t[2], 3, "y", N, K, H, W, false), "tensor y");
    expect_ok(tu_conv_fwd(&b.op, b.t[0], b.t[1], b.t[2], 1, 1, "conv"), "conv");
    expect_ok(tu_graph(&b.graph, h, 1, &b.op), "graph");
    hipdnnBackendHeurMode_t mode = HIPDNN_HEUR_MODE_FALLBACK;
    const tu_attr set[] = {
        {HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &b.graph},
        {HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &mode},
    };
    expect_ok(tu_build(&b.heur, HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, set, 2, true), "heuristic");
    for (int i = 0; i < 16; i++)
        expect_ok(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, &b.cfgs[i]), "config");
    expect_ok(hipdnnBackendGetAttribute(b.heur, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 16, &b.ncfg, b.cfgs),
              "heuristic results");
    for (int64_t i = 0; i < b.ncfg && b.plan == NULL; i++) {
        hipdnnBackendDescriptor_t engine = NULL;
        char name[128] = {0};
        int64_t len = 0;
        expect_ok(hipdnnBackendFinalize(b.cfgs[i]), "config finalize");
        expect_ok(hipdnnBackendGetAttribute(b.cfgs[i], HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, NULL, &engine),
                  "config engine");
        expect_ok(hipdnnBackendGetAttribute(engine, HIPDNN_ATTR_ENGINE_NAME_EXT, HIPDNN_TYPE_CHAR, sizeof name, &len, name),
                  "engine name");
        hipdnnBackendDestroyDescriptor(engine);
        if (strcmp(name, "HIPDNNGO_CUDNN") == 0)
            expect_ok(tu_plan(&b.plan, b.cfgs[i]), "plan");
    }
    if (b.plan == NULL) {
        printf("FAIL the heuristic offered %lld configs, none on HIPDNNGO_CUDNN\n", (long long)b.ncfg);
        exit(1);
    }
    expect_ok(hipdnnBackendGetAttribute(b.plan, HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1, NULL, &b.workspace),
              "workspace size");
    return b;
}

static void destroy_built(built* b) {
    hipdnnBackendDestroyDescriptor(b->plan);
    for (int i = 0; i < 16; i++)
        hipdnnBackendDestroyDescriptor(b->cfgs[i]);
    hipdnnBackendDestroyDescriptor(b->heur);
    hipdnnBackendDestroyDescriptor(b->graph);
    hipdnnBackendDestroyDescriptor(b->op);
    for (int i = 0; i < 3; i++)
        hipdnnBackendDestroyDescriptor(b->t[i]);
}

/* run executes plan with x, w, y (and the workspace) and returns the status; the message goes
 * to msg. */
static hipdnnStatus_t run(hipdnnHandle_t h, hipdnnBackendDescriptor_t plan, void* x, void* w, void* y, void* ws, int n,
                          const int64_t* uids, char* msg, size_t cap) {
    void* ptrs[3] = {x, w, y};
    hipdnnBackendDescriptor_t pack = NULL;
    hipdnnStatus_t st = tu_pack(&pack, n, uids, ptrs, ws);
    if (st == HIPDNN_STATUS_SUCCESS)
        st = hipdnnBackendExecute(h, plan, pack);
    msg[0] = '\0';
    if (st != HIPDNN_STATUS_SUCCESS)
        hipdnnGetLastErrorString(msg, cap);
    hipdnnBackendDestroyDescriptor(pack);
    return st;
}

static const int64_t kUIDs[3] = {1, 2, 3};

/* device buffers with the inputs copied in */
typedef struct {
    void *x, *w, *y, *ws;
} dbufs;

static dbufs device_buffers(int64_t workspace) {
    dbufs d = {dev_alloc(sizeof hx), dev_alloc(sizeof hw), dev_alloc(sizeof ref), NULL};
    cuda_ok(cu.Memcpy(d.x, hx, sizeof hx, 1), "copy x");
    cuda_ok(cu.Memcpy(d.w, hw, sizeof hw, 1), "copy w");
    if (workspace > 0)
        d.ws = dev_alloc((size_t)workspace);
    return d;
}

static double max_error(const float* y) {
    double e = 0;
    for (int i = 0; i < YS; i++)
        e = fmax(e, fabs((double)y[i] - ref[i]));
    return e;
}

/* alive: a valid execute on h still succeeds and computes the conv: the context survived. */
static int alive(hipdnnHandle_t h, built* b, stream_t stream) {
    static float y[YS];
    char msg[2048];
    dbufs d = device_buffers(b->workspace);
    hipdnnStatus_t st = run(h, b->plan, d.x, d.w, d.y, d.ws, 3, kUIDs, msg, sizeof msg);
    int sync = cu.StreamSynchronize(stream);
    int copy = cu.Memcpy(y, d.y, sizeof y, 2);
    double err = copy == 0 ? max_error(y) : INFINITY;
    cu.Free(d.x), cu.Free(d.w), cu.Free(d.y), cu.Free(d.ws);
    if (st != HIPDNN_STATUS_SUCCESS || sync != 0 || copy != 0 || !(err < 1e-3)) {
        printf("FAIL valid execute afterwards: %s (%s), sync %d, copy %d, max error %g\n", hipdnnGetErrorString(st), msg, sync, copy,
               err);
        return 0;
    }
    printf("  then a valid execute: SUCCESS, synchronized, max error %.2g\n", err);
    return 1;
}

/* ---- the cases ---- */
typedef struct {
    hipdnnHandle_t h;
    stream_t stream;
    built b;
} rig;

static rig setup(void) {
    rig r;
    cuda_ok(cu.StreamCreate(&r.stream), "cudaStreamCreate");
    expect_ok(hipdnnCreate(&r.h), "hipdnnCreate");
    expect_ok(hipdnnSetStream(r.h, r.stream), "hipdnnSetStream");
    r.b = build_plan(r.h);
    return r;
}

/* refused: the call must fail with want_status and a message containing want. */
static int refused(const char* name, hipdnnStatus_t st, const char* msg, hipdnnStatus_t want_status, const char* want) {
    int ok = st == want_status && strstr(msg, want) != NULL;
    printf("%s %s: %s: %s\n", ok ? "PASS" : "FAIL", name, hipdnnGetErrorString(st), msg);
    if (!ok)
        printf("  expected %s with \"%s\"\n", hipdnnGetErrorString(want_status), want);
    return ok;
}

static int case_memory(const char* name) {
    rig r = setup();
    char msg[2048];
    dbufs d = device_buffers(r.b.workspace);
    int ok = 1;
    if (strcmp(name, "host") == 0) {
        float* x = malloc(sizeof hx);
        memcpy(x, hx, sizeof hx);
        ok = refused(name, run(r.h, r.b.plan, x, d.w, d.y, d.ws, 3, kUIDs, msg, sizeof msg), msg, HIPDNN_STATUS_BAD_PARAM,
                     "for tensor uid 1 (\"x\", x of ConvolutionFwd node \"conv\") is host pageable memory");
        free(x);
    } else if (strcmp(name, "pinned") == 0) {
        void* x = NULL;
        cuda_ok(cu.MallocHost(&x, sizeof hx), "cudaMallocHost");
        ok = refused(name, run(r.h, r.b.plan, x, d.w, d.y, d.ws, 3, kUIDs, msg, sizeof msg), msg, HIPDNN_STATUS_BAD_PARAM,
                     "is host pinned memory; engine HIPDNNGO_CUDNN accepts device or managed memory");
        cu.FreeHost(x);
    } else if (strcmp(name, "managed") == 0) {
        void *x = NULL, *w = NULL, *y = NULL;
        static float out[YS];
        cuda_ok(cu.MallocManaged(&x, sizeof hx, 1), "cudaMallocManaged");
        cuda_ok(cu.MallocManaged(&w, sizeof hw, 1), "cudaMallocManaged");
        cuda_ok(cu.MallocManaged(&y, sizeof ref, 1), "cudaMallocManaged");
        memcpy(x, hx, sizeof hx);
        memcpy(w, hw, sizeof hw);
        hipdnnStatus_t st = run(r.h, r.b.plan, x, w, y, d.ws, 3, kUIDs, msg, sizeof msg);
        cuda_ok(cu.StreamSynchronize(r.stream), "sync");
        memcpy(out, y, sizeof out);
        double err = max_error(out);
        ok = st == HIPDNN_STATUS_SUCCESS && err < 1e-3;
        printf("%s managed: %s %s, max error %.2g (managed memory is accepted)\n", ok ? "PASS" : "FAIL", hipdnnGetErrorString(st),
               msg, err);
        cu.Free(x), cu.Free(w), cu.Free(y);
    } else if (strcmp(name, "foreign") == 0) {
        int n = 0;
        cu.GetDeviceCount(&n);
        if (n < 2) {
            printf("SKIP foreign: %d device(s); a pointer of another device needs two\n", n);
        } else {
            void* x = NULL;
            cuda_ok(cu.SetDevice(1), "cudaSetDevice(1)");
            cuda_ok(cu.Malloc(&x, sizeof hx), "cudaMalloc on device 1");
            cuda_ok(cu.SetDevice(0), "cudaSetDevice(0)");
            ok = refused(name, run(r.h, r.b.plan, x, d.w, d.y, d.ws, 3, kUIDs, msg, sizeof msg), msg, HIPDNN_STATUS_BAD_PARAM,
                         "is memory of device 1; engine HIPDNNGO_CUDNN runs this plan on device 0");
            cu.Free(x);
        }
    } else if (strcmp(name, "null-tensor") == 0) {
        ok = refused(name, run(r.h, r.b.plan, d.x, d.w, NULL, d.ws, 3, kUIDs, msg, sizeof msg), msg, HIPDNN_STATUS_BAD_PARAM,
                     "variant pack: the pointer for tensor uid 3 (\"y\", y of ConvolutionFwd node \"conv\") is NULL");
    } else if (strcmp(name, "missing") == 0) {
        const int64_t two[2] = {1, 3};
        ok = refused(name, run(r.h, r.b.plan, d.x, d.y, NULL, d.ws, 2, two, msg, sizeof msg), msg, HIPDNN_STATUS_BAD_PARAM,
                     "no pointer for tensor uid 2 (\"w\", w of ConvolutionFwd node \"conv\")");
    } else if (strcmp(name, "null-workspace") == 0) {
        if (r.b.workspace == 0)
            printf("SKIP null-workspace: this plan needs no workspace (the CPU tests cover it)\n");
        else
            ok = refused(name, run(r.h, r.b.plan, d.x, d.w, d.y, NULL, 3, kUIDs, msg, sizeof msg), msg, HIPDNN_STATUS_BAD_PARAM,
                         "the workspace is NULL");
    } else if (strcmp(name, "destroyed") == 0) {
        hipdnnHandle_t h2 = NULL;
        built b2;
        expect_ok(hipdnnCreate(&h2), "hipdnnCreate");
        b2 = build_plan(h2);
        expect_ok(hipdnnDestroy(h2), "hipdnnDestroy");
        ok = refused("destroyed handle's plan", run(r.h, b2.plan, d.x, d.w, d.y, d.ws, 3, kUIDs, msg, sizeof msg), msg,
                     HIPDNN_STATUS_BAD_PARAM, "destroyed");
        destroy_built(&b2);
        hipdnnBackendDescriptor_t pack = NULL;
        void* ptrs[3] = {d.x, d.w, d.y};
        expect_ok(tu_pack(&pack, 3, kUIDs, ptrs, d.ws), "pack");
        hipdnnBackendDestroyDescriptor(pack);
        hipdnnStatus_t st = hipdnnBackendExecute(r.h, r.b.plan, pack);
        hipdnnGetLastErrorString(msg, sizeof msg);
        ok &= refused("destroyed variant pack", st, msg, HIPDNN_STATUS_BAD_PARAM, "");
    } else if (strcmp(name, "reuse") == 0) {
        /* A stream destroyed and a new one (often at the same address) on a new handle. */
        for (int i = 0; i < 3 && ok; i++) {
            rig n = setup();
            printf("  stream %p\n", n.stream);
            ok = alive(n.h, &n.b, n.stream);
            destroy_built(&n.b);
            hipdnnDestroy(n.h);
            cu.StreamDestroy(n.stream);
        }
        printf("%s reuse: three streams in turn, each with a new handle\n", ok ? "PASS" : "FAIL");
    } else {
        printf("FAIL unknown case %s\n", name);
        return 0;
    }
    cu.Free(d.x), cu.Free(d.w), cu.Free(d.y), cu.Free(d.ws);
    ok &= alive(r.h, &r.b, r.stream);
    destroy_built(&r.b);
    hipdnnDestroy(r.h);
    cu.StreamDestroy(r.stream);
    return ok;
}

static double mib(size_t bytes) { return (double)bytes / (1024.0 * 1024.0); }

/* case_soak: each cycle makes a stream, a handle and a plan, executes, and destroys them all.
 * FAULT_DRILL_KEEP=stream keeps one stream (and renews the rest); =handle keeps one stream,
 * handle and plan (a new pack per cycle); =cuda makes and destroys only a stream and buffers,
 * and clears y on the stream (work of the CUDA runtime alone, on as many streams): ways to find
 * where device memory goes when it does. */
static int case_soak(long cycles) {
    size_t free0 = 0, free100 = 0, total = 0, f = 0;
    const char* keep = getenv("FAULT_DRILL_KEEP");
    keep = keep ? keep : "";
    rig kept;
    memset(&kept, 0, sizeof kept);
    if (strcmp(keep, "stream") == 0)
        cuda_ok(cu.StreamCreate(&kept.stream), "cudaStreamCreate");
    if (strcmp(keep, "handle") == 0)
        kept = setup();
    for (long i = 1; i <= cycles; i++) {
        rig r;
        if (strcmp(keep, "handle") == 0) {
            r = kept;
        } else if (strcmp(keep, "cuda") == 0) {
            cuda_ok(cu.StreamCreate(&r.stream), "cudaStreamCreate");
            r.b.workspace = 0;
        } else if (strcmp(keep, "stream") == 0) {
            r.stream = kept.stream;
            expect_ok(hipdnnCreate(&r.h), "hipdnnCreate");
            expect_ok(hipdnnSetStream(r.h, r.stream), "hipdnnSetStream");
            r.b = build_plan(r.h);
        } else {
            r = setup();
        }
        dbufs d = device_buffers(r.b.workspace);
        char msg[2048] = "";
        hipdnnStatus_t st = HIPDNN_STATUS_SUCCESS;
        if (strcmp(keep, "cuda") == 0)
            cuda_ok(cu.MemsetAsync(d.y, 0, sizeof ref, r.stream), "cudaMemsetAsync");
        else
            st = run(r.h, r.b.plan, d.x, d.w, d.y, d.ws, 3, kUIDs, msg, sizeof msg);
        int sync = cu.StreamSynchronize(r.stream);
        if (st != HIPDNN_STATUS_SUCCESS || sync != 0) {
            printf("FAIL soak cycle %ld: %s (%s), sync %d\n", i, hipdnnGetErrorString(st), msg, sync);
            return 0;
        }
        cu.Free(d.x), cu.Free(d.w), cu.Free(d.y), cu.Free(d.ws);
        if (strcmp(keep, "handle") != 0 && strcmp(keep, "cuda") != 0) {
            destroy_built(&r.b);
            hipdnnDestroy(r.h);
        }
        if (strcmp(keep, "") == 0 || strcmp(keep, "cuda") == 0)
            cu.StreamDestroy(r.stream);
        if (i == 1 || i == 100 || i == cycles || i % 1000 == 0) {
            cu.MemGetInfo(&f, &total);
            if (i == 1)
                free0 = f;
            if (i == 100)
                free100 = f;
            printf("  cycle %6ld: device memory in use %.1f MiB (%+.1f MiB since cycle 1)\n", i, mib(total - f),
                   mib(free0) - mib(f));
        }
    }
    /* Flat: past the first 100 cycles (which fill the engine's idle handles) device memory may
     * move by at most the CUDA allocator's 2 MiB granularity. */
    if (cycles < 100) {
        printf("PASS soak: %ld cycles; device memory %+.1f MiB from cycle 1\n", cycles, mib(free0) - mib(f));
        return 1;
    }
    double growth = mib(free100) - mib(f);
    int ok = growth <= 2.0;
    printf("%s soak: %ld cycles; device memory %+.1f MiB from cycle 1, %+.1f MiB from cycle 100 to the end\n",
           ok ? "PASS" : "FAIL", cycles, mib(free0) - mib(f), growth);
    return ok;
}

/* ---- threads ---- */
typedef struct {
    hipdnnHandle_t h;
    stream_t stream;
    hipdnnBackendDescriptor_t plan;
    int64_t workspace;
    long iters;
    const float* want;
    int ok;
} worker;

static void* work(void* arg) {
    worker* w = (worker*)arg;
    static __thread float y[YS];
    dbufs d = device_buffers(w->workspace);
    void* ptrs[3] = {d.x, d.w, d.y};
    hipdnnBackendDescriptor_t pack = NULL;
    w->ok = tu_pack(&pack, 3, kUIDs, ptrs, d.ws) == HIPDNN_STATUS_SUCCESS;
    for (long i = 0; i < w->iters && w->ok; i++) {
        cu.Memcpy(d.y, ref, sizeof ref, 1); /* stale data a skipped execute would leave */
        w->ok = hipdnnBackendExecute(w->h, w->plan, pack) == HIPDNN_STATUS_SUCCESS && cu.StreamSynchronize(w->stream) == 0
                && cu.Memcpy(y, d.y, sizeof y, 2) == 0 && memcmp(y, w->want, sizeof y) == 0;
    }
    hipdnnBackendDestroyDescriptor(pack);
    cu.Free(d.x), cu.Free(d.w), cu.Free(d.y), cu.Free(d.ws);
    return NULL;
}

static int case_threads(long iters) {
    enum { T = 8 };
    static float want[YS];
    rig base = setup();
    dbufs d = device_buffers(base.b.workspace);
    char msg[2048];
    expect_ok(run(base.h, base.b.plan, d.x, d.w, d.y, d.ws, 3, kUIDs, msg, sizeof msg), "single-threaded execute");
    cuda_ok(cu.StreamSynchronize(base.stream), "sync");
    cuda_ok(cu.Memcpy(want, d.y, sizeof want, 2), "copy y");
    printf("  single-threaded: max error %.2g\n", max_error(want));
    worker ws[T];
    pthread_t th[T];
    rig own[T];
    int ok = 1;
    for (int mode = 0; mode < 2; mode++) {
        for (int i = 0; i < T; i++) {
            if (mode == 0)
                own[i] = setup();
            ws[i] = (worker){mode == 0 ? own[i].h : base.h, mode == 0 ? own[i].stream : base.stream,
                             mode == 0 ? own[i].b.plan : base.b.plan, base.b.workspace, iters, want, 0};
            pthread_create(&th[i], NULL, work, &ws[i]);
        }
        int good = 0;
        for (int i = 0; i < T; i++) {
            pthread_join(th[i], NULL);
            good += ws[i].ok;
        }
        printf("%s threads (%s): %d of %d threads x %ld executes bitwise equal to the single-threaded output\n",
               good == T ? "PASS" : "FAIL", mode == 0 ? "a handle, stream and plan each" : "one shared handle and plan", good, T,
               iters);
        ok &= good == T;
    }
    for (int i = 0; i < T; i++) {
        destroy_built(&own[i].b);
        hipdnnDestroy(own[i].h);
        cu.StreamDestroy(own[i].stream);
    }
    cu.Free(d.x), cu.Free(d.w), cu.Free(d.y), cu.Free(d.ws);
    return ok;
}

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/* case_cost: the host time an execute takes with its pack reused and with a new pack per call
 * (create, set, finalize, execute, destroy; the first execute of a pack classifies its three
 * pointers through the runtime). The stream is synchronized outside the timed loops. */
static int case_cost(long n) {
    rig r = setup();
    dbufs d = device_buffers(r.b.workspace);
    void* ptrs[3] = {d.x, d.w, d.y};
    hipdnnBackendDescriptor_t pack = NULL;
    expect_ok(tu_pack(&pack, 3, kUIDs, ptrs, d.ws), "pack");
    double best_reused = INFINITY, best_fresh = INFINITY;
    for (int rep = 0; rep < 5; rep++) {
        double t0 = now_us();
        for (long i = 0; i < n; i++)
            expect_ok(hipdnnBackendExecute(r.h, r.b.plan, pack), "execute");
        double t1 = now_us();
        cuda_ok(cu.StreamSynchronize(r.stream), "sync");
        double t2 = now_us();
        for (long i = 0; i < n; i++) {
            hipdnnBackendDescriptor_t v = NULL;
            expect_ok(tu_pack(&v, 3, kUIDs, ptrs, d.ws), "pack");
            expect_ok(hipdnnBackendExecute(r.h, r.b.plan, v), "execute");
            hipdnnBackendDestroyDescriptor(v);
        }
        double t3 = now_us();
        cuda_ok(cu.StreamSynchronize(r.stream), "sync");
        best_reused = fmin(best_reused, (t1 - t0) / n);
        best_fresh = fmin(best_fresh, (t3 - t2) / n);
    }
    printf("PASS cost: host time per execute, best of 5 x %ld: pack reused %.2f us, a new pack per call %.2f us\n", n,
           best_reused, best_fresh);
    hipdnnBackendDestroyDescriptor(pack);
    cu.Free(d.x), cu.Free(d.w), cu.Free(d.y), cu.Free(d.ws);
    destroy_built(&r.b);
    hipdnnDestroy(r.h);
    cu.StreamDestroy(r.stream);
    return 1;
}

int main(int argc, char** argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: fault_drill all | CASE | soak N | threads N\n");
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (strcmp(argv[1], "all") == 0) {
        const char* cases[] = {"host", "pinned", "managed", "foreign", "null-tensor", "missing", "null-workspace", "destroyed", "reuse"};
        int failed = 0;
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            fflush(stdout);
            pid_t pid = fork();
            if (pid == 0) {
                execl("/proc/self/exe", argv[0], cases[i], (char*)NULL);
                _exit(127);
            }
            int status = 0;
            waitpid(pid, &status, 0);
            if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
                printf("FAIL case %s: process %s %d\n", cases[i], WIFEXITED(status) ? "exited" : "killed by signal",
                       WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
                failed++;
            }
        }
        printf("%zu passed, %d failed\n", sizeof cases / sizeof cases[0] - failed, failed);
        return failed != 0;
    }
    load_cuda();
    fill_and_reference();
    if (strcmp(argv[1], "soak") == 0)
        return !case_soak(argc > 2 ? atol(argv[2]) : 10000);
    if (strcmp(argv[1], "cost") == 0)
        return !case_cost(argc > 2 ? atol(argv[2]) : 2000);
    if (strcmp(argv[1], "threads") == 0)
        return !case_threads(argc > 2 ? atol(argv[2]) : 600);
    return !case_memory(argv[1]);
}
