/* The concurrency test body, shared by test_concurrency (run_concurrency(0)) and
 * test_concurrency_garbage (run_concurrency(1), which adds a thread passing garbage,
 * destroyed and wrong-kind handles to every function taking one).
 *
 * For CONC_SECONDS, on one shared handle:
 *   16 workers   each builds graph -> heuristic -> config -> plan -> pack on its own descriptors
 *                (sizes differ per thread), executes twice with different inputs and checks
 *                the numbers; also executes one shared finalized plan with its own variant
 *                pack and serializes the shared graph (concurrent reads of one descriptor);
 *                its own last error must stay empty (per-thread isolation).
 *   4 churners   create/destroy handles and descriptors of mixed kinds; every 8th round a
 *                whole graph on the fresh handle, executed and checked.
 *   1 hammer     hipdnnGetLastErrorString / Peek, log level get/set over every level, user
 *                log callbacks registered / removed (sync and async), hipdnnLoggingCallback_ext.
 *   [1 garbage]  every handle- and descriptor-taking function with 0x1, 0xdeadbeef, -1, a stack
 *                pointer, destroyed handles and descriptors, and the shared handle passed as a
 *                descriptor (which must not destroy it): all BAD_PARAM with a last error.
 * A watchdog (alarm) ends a deadlocked run with a message. */
#ifndef HIPDNN_TESTS_SWEEP_CONCURRENCY_H
#define HIPDNN_TESTS_SWEEP_CONCURRENCY_H

#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

/* Every descriptor and handle destroy is counted: a destroyed token is only passed again while
 * fewer than CONC_STALE_MARGIN destroys happened since (the registry keeps 16384 destroyed
 * tokens recognisable; past that their memory may be reused for new tokens, see
 * internal/registry). */
static long conc_destroys;
#define FX_ON_DESTROY() ((void)__atomic_fetch_add(&conc_destroys, 1, __ATOMIC_SEQ_CST))
#include "fixture.h"

#define CONC_WORKERS 16
#define CONC_CHURNERS 4
#define CONC_SECONDS 3.0
#define CONC_WATCHDOG_S 120
#define CONC_STALE_MARGIN 4096

static hipdnnHandle_t conc_handle;
static fx_conv conc_shared; /* one finalized graph/plan every worker reads and executes */
static uint8_t* conc_shared_graph;
static size_t conc_shared_graph_n;
static volatile int conc_stop;
static long conc_failures;
static pthread_mutex_t conc_print = PTHREAD_MUTEX_INITIALIZER;

static double conc_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void conc_fail(const char* who, int id, const char* what) {
    __atomic_fetch_add(&conc_failures, 1, __ATOMIC_SEQ_CST);
    pthread_mutex_lock(&conc_print);
    if (conc_failures <= 40)
        fprintf(stderr, "FAIL [%s %d]: %s\n", who, id, what);
    pthread_mutex_unlock(&conc_print);
}

#define CONC_CHECK(who, id, cond, ...)            \
    do {                                          \
        if (!(cond)) {                            \
            char m_[1024];                        \
            snprintf(m_, sizeof m_, __VA_ARGS__); \
            conc_fail(who, id, m_);               \
        }                                         \
    } while (0)

static void conc_destroy_d(hipdnnBackendDescriptor_t d, const char* who, int id) {
    hipdnnStatus_t st = hipdnnBackendDestroyDescriptor(d);
    FX_ON_DESTROY();
    CONC_CHECK(who, id, st == HIPDNN_STATUS_SUCCESS, "hipdnnBackendDestroyDescriptor -> %s", hipdnnGetErrorString(st));
}

static void conc_watchdog(int sig) {
    static const char msg[] = "\nWATCHDOG: the concurrency test did not finish within its time limit "
                              "(deadlock or livelock in the library?)\n";
    (void)sig;
    if (write(2, msg, sizeof msg - 1) < 0)
        _exit(3);
    _exit(3);
}

/* ---- workers ---------------------------------------------------------------------------- */
typedef struct {
    int id;
    long iterations, executions, shared_executions;
} conc_worker;

/* Executes the shared plan through a variant pack of this thread's own buffers. */
static void conc_shared_exec(conc_worker* w, unsigned seed) {
    fx_conv v = conc_shared; /* dims; buffers replaced below */
    int nx = v.n * v.c * v.h * v.w, nw = v.k * v.c * FX_R * FX_S, ny = v.n * v.k * v.h * v.w;
    v.xs = (float*)malloc(sizeof(float) * (size_t)nx);
    v.ws = (float*)malloc(sizeof(float) * (size_t)nw);
    v.bs = (float*)malloc(sizeof(float) * (size_t)v.k);
    v.ys = (float*)malloc(sizeof(float) * (size_t)ny);
    void* workspace = malloc((size_t)conc_shared.ws_size + 64);
    for (int i = 0; i < nx; i++)
        v.xs[i] = (float)((int)((i * 29u + seed) % 19u) - 9) / 9.0f;
    for (int i = 0; i < nw; i++)
        v.ws[i] = (float)((int)((i * 7u + seed) % 11u) - 5) / 11.0f;
    for (int i = 0; i < v.k; i++)
        v.bs[i] = (float)((int)(seed % 3u) - 1) * 0.1f;
    for (int i = 0; i < ny; i++)
        v.ys[i] = NAN;
    void* ptrs[4] = {v.xs, v.ws, v.bs, v.ys};
    int64_t uids[4] = {1, 2, 4, 6};
    hipdnnBackendDescriptor_t pack = NULL;
    fx_err e = {{0}, HIPDNN_STATUS_SUCCESS};
    FX_TRY(&e, tu_pack(&pack, 4, uids, ptrs, workspace));
    FX_TRY(&e, hipdnnBackendExecute(conc_handle, conc_shared.plan, pack));
    {
        double err = fx_conv_max_error(&v);
        CONC_CHECK("worker", w->id, err < 1e-4, "shared plan: wrong numbers, max |error| %g", err);
        w->shared_executions++;
    }
fx_fail:
    if (e.status != HIPDNN_STATUS_SUCCESS)
        conc_fail("worker", w->id, e.text);
    if (pack)
        conc_destroy_d(pack, "worker", w->id);
    free(v.xs), free(v.ws), free(v.bs), free(v.ys), free(workspace);
}

static void* conc_worker_main(void* arg) {
    conc_worker* w = (conc_worker*)arg;
    const int t = w->id;
    char le[HIPDNN_ERROR_STRING_MAX_LENGTH];
    hipdnnGetLastErrorString(le, sizeof le);
    while (!conc_stop || w->iterations < 2) {
        fx_err e = {{0}, HIPDNN_STATUS_SUCCESS};
        fx_conv f;
        unsigned seed = (unsigned)(t * 100003 + w->iterations);
        if (fx_conv_build(&e, &f, conc_handle, 1 + t % 2, 1 + t % 3, 3 + t % 4, 3 + (t / 2) % 4, 1 + t % 3, seed)
            != HIPDNN_STATUS_SUCCESS) {
            conc_fail("worker", t, e.text);
            break;
        }
        if (fx_conv_run_check(&e, &f, conc_handle) != HIPDNN_STATUS_SUCCESS)
            conc_fail("worker", t, e.text);
        /* the same plan and pack again, new input values */
        for (int i = 0; i < f.n * f.c * f.h * f.w; i++)
            f.xs[i] = -f.xs[i] * 0.5f + 0.125f;
        if (fx_conv_run_check(&e, &f, conc_handle) != HIPDNN_STATUS_SUCCESS)
            conc_fail("worker", t, e.text);
        w->executions += 2;
        fx_conv_destroy(&f);
        conc_shared_exec(w, seed);
        /* concurrent reads of the shared finalized graph */
        {
            size_t n = 0;
            uint8_t* b = NULL;
            hipdnnStatus_t st = hipdnnBackendGetSerializedBinaryGraph_ext(conc_shared.graph, 0, &n, NULL);
            if (st == HIPDNN_STATUS_SUCCESS && n == conc_shared_graph_n && (b = (uint8_t*)malloc(n)) != NULL)
                st = hipdnnBackendGetSerializedBinaryGraph_ext(conc_shared.graph, n, &n, b);
            CONC_CHECK("worker", t, st == HIPDNN_STATUS_SUCCESS && b && memcmp(b, conc_shared_graph, n) == 0,
                       "serializing the shared graph concurrently: %s, %zu bytes", hipdnnGetErrorString(st), n);
            free(b);
        }
        /* every call above succeeded: this thread's last error must still be empty */
        hipdnnPeekLastErrorString_ext(le, sizeof le);
        CONC_CHECK("worker", t, le[0] == 0, "last error of a thread whose calls all succeeded: \"%.900s\"", le);
        hipdnnGetLastErrorString(le, sizeof le);
        w->iterations++;
    }
    return NULL;
}

/* ---- churners --------------------------------------------------------------------------- */
typedef struct {
    int id;
    long handles, descriptors, graphs;
} conc_churner;

static const hipdnnBackendDescriptorType_t conc_kinds[] = {
    HIPDNN_BACKEND_TENSOR_DESCRIPTOR,         HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR,
    HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR,
    HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR,      HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR,
    HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR,   HIPDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR,
    HIPDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR,    HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR};

static void* conc_churner_main(void* arg) {
    conc_churner* c = (conc_churner*)arg;
    char le[HIPDNN_ERROR_STRING_MAX_LENGTH];
    for (long round = 0; !conc_stop; round++) {
        hipdnnHandle_t h = NULL;
        hipdnnStatus_t st = hipdnnCreate(&h);
        CONC_CHECK("churner", c->id, st == HIPDNN_STATUS_SUCCESS, "hipdnnCreate -> %s", hipdnnGetErrorString(st));
        if (st != HIPDNN_STATUS_SUCCESS)
            break;
        hipdnnGetLastErrorString(le, sizeof le); /* plugin-loading notes, if any */
        c->handles++;
        size_t ne = 0;
        st = hipdnnGetEngineCount_ext(h, &ne);
        CONC_CHECK("churner", c->id, st == HIPDNN_STATUS_SUCCESS && ne > 0, "engine count on a fresh handle: %s, %zu",
                   hipdnnGetErrorString(st), ne);
        for (size_t k = 0; k < sizeof conc_kinds / sizeof conc_kinds[0]; k++) {
            hipdnnBackendDescriptor_t d = NULL;
            st = hipdnnBackendCreateDescriptor(conc_kinds[k], &d);
            CONC_CHECK("churner", c->id, st == HIPDNN_STATUS_SUCCESS, "create kind %d -> %s", (int)conc_kinds[k],
                       hipdnnGetErrorString(st));
            if (st == HIPDNN_STATUS_SUCCESS)
                conc_destroy_d(d, "churner", c->id), c->descriptors++;
        }
        {
            fx_err e = {{0}, HIPDNN_STATUS_SUCCESS};
            hipdnnBackendDescriptor_t t = NULL;
            if (fx_tensor(&e, &t, 5, 1, 2, 3, 4, round % 2 == 0) == HIPDNN_STATUS_SUCCESS) {
                conc_destroy_d(t, "churner", c->id), c->descriptors++;
            } else {
                conc_fail("churner", c->id, e.text);
            }
        }
        if (round % 8 == 0) {
            fx_err e = {{0}, HIPDNN_STATUS_SUCCESS};
            fx_conv f;
            if (fx_conv_build(&e, &f, h, 1, 2, 3, 3, 2, (unsigned)round) != HIPDNN_STATUS_SUCCESS
                || fx_conv_run_check(&e, &f, h) != HIPDNN_STATUS_SUCCESS)
                conc_fail("churner", c->id, e.text);
            fx_conv_destroy(&f);
            c->graphs++;
        }
        st = hipdnnDestroy(h);
        __atomic_fetch_add(&conc_destroys, 1, __ATOMIC_SEQ_CST);
        CONC_CHECK("churner", c->id, st == HIPDNN_STATUS_SUCCESS, "hipdnnDestroy -> %s", hipdnnGetErrorString(st));
    }
    return NULL;
}

/* ---- hammer ----------------------------------------------------------------------------- */
static long conc_cb_calls;
static int conc_cb_cookie;
static void conc_cb(hipdnnUserLogCallbackHandle_t u, hipdnnSeverity_t s, const char* m) {
    (void)s;
    if (u == &conc_cb_cookie && m)
        __atomic_fetch_add(&conc_cb_calls, 1, __ATOMIC_SEQ_CST);
}

static long conc_hammer_rounds;
static void* conc_hammer_main(void* arg) {
    (void)arg;
    char le[HIPDNN_ERROR_STRING_MAX_LENGTH];
    hipdnnGetLastErrorString(le, sizeof le);
    for (long r = 0; !conc_stop; r++) {
        hipdnnSeverity_t lv = (hipdnnSeverity_t)(r % 5), got = HIPDNN_SEV_OFF;
        hipdnnStatus_t st = hipdnnBackendSetGlobalLogLevel_ext(lv);
        CONC_CHECK("hammer", 0, st == HIPDNN_STATUS_SUCCESS, "SetGlobalLogLevel(%d) -> %s", (int)lv, hipdnnGetErrorString(st));
        st = hipdnnBackendGetGlobalLogLevel_ext(&got);
        CONC_CHECK("hammer", 0, st == HIPDNN_STATUS_SUCCESS && (int)got >= 0 && (int)got <= 4, "GetGlobalLogLevel -> %s, %d",
                   hipdnnGetErrorString(st), (int)got);
        hipdnnLogCallbackMode_t mode = (r / 5) % 2 ? HIPDNN_LOG_CALLBACK_ASYNC : HIPDNN_LOG_CALLBACK_SYNC;
        st = hipdnnSetUserLogCallback_ext(conc_cb, HIPDNN_SEV_INFO, mode, &conc_cb_cookie);
        CONC_CHECK("hammer", 0, st == HIPDNN_STATUS_SUCCESS, "register callback -> %s", hipdnnGetErrorString(st));
        hipdnnLoggingCallback_ext(HIPDNN_SEV_WARN, "concurrency hammer");
        st = hipdnnSetUserLogCallback_ext(conc_cb, HIPDNN_SEV_OFF, mode, &conc_cb_cookie);
        CONC_CHECK("hammer", 0, st == HIPDNN_STATUS_SUCCESS, "remove callback -> %s", hipdnnGetErrorString(st));
        const char* s = hipdnnGetErrorString((hipdnnStatus_t)(r % 20 - 2));
        CONC_CHECK("hammer", 0, s && strncmp(s, "HIPDNN_STATUS_", 14) == 0, "hipdnnGetErrorString");
        CONC_CHECK("hammer", 0, hipdnnVersionString_ext() != NULL, "hipdnnVersionString_ext");
        /* This thread makes no failing call: other threads' errors must never show here. */
        hipdnnPeekLastErrorString_ext(le, sizeof le);
        CONC_CHECK("hammer", 0, le[0] == 0, "another thread's error leaked into this thread: \"%.900s\"", le);
        hipdnnGetLastErrorString(le, r % 2 ? sizeof le : 7);
        conc_hammer_rounds++;
    }
    hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_OFF);
    return NULL;
}

/* ---- garbage ---------------------------------------------------------------------------- */
static long conc_garbage_calls;
static void* conc_garbage_main(void* arg) {
    (void)arg;
    int on_stack = 0;
    char le[HIPDNN_ERROR_STRING_MAX_LENGTH];
    while (!conc_stop) {
        hipdnnHandle_t hd = NULL;
        hipdnnBackendDescriptor_t mine = NULL, td = NULL;
        fx_err e = {{0}, HIPDNN_STATUS_SUCCESS};
        if (hipdnnCreate(&hd) != HIPDNN_STATUS_SUCCESS || fx_tensor(&e, &mine, 7, 1, 1, 1, 1, false) != HIPDNN_STATUS_SUCCESS
            || hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_TENSOR_DESCRIPTOR, &td) != HIPDNN_STATUS_SUCCESS) {
            conc_fail("garbage", 0, "could not make its own objects");
            break;
        }
        hipdnnDestroy(hd);
        FX_ON_DESTROY();
        hipdnnBackendDestroyDescriptor(td);
        FX_ON_DESTROY();
        long d0 = __atomic_load_n(&conc_destroys, __ATOMIC_SEQ_CST);
        hipdnnGetLastErrorString(le, sizeof le);
        uintptr_t hvals[] = {1, 0xdeadbeef, UINTPTR_MAX, (uintptr_t)&on_stack, (uintptr_t)mine, (uintptr_t)hd};
        uintptr_t dvals[] = {
            1, 0xdeadbeef, UINTPTR_MAX, (uintptr_t)&on_stack, (uintptr_t)conc_handle, (uintptr_t)hd, (uintptr_t)td};
        for (size_t i = 0; i < sizeof hvals / sizeof hvals[0] && !conc_stop; i++) {
            /* destroyed tokens only well inside the registry's quarantine window */
            if (i >= 5 && __atomic_load_n(&conc_destroys, __ATOMIC_SEQ_CST) - d0 > CONC_STALE_MARGIN)
                break;
            hipdnnHandle_t g = (hipdnnHandle_t)hvals[i];
            hipStream_t s = NULL;
            size_t n = 0, m = 0;
            int64_t id = 0;
            hipdnnBackendDescriptor_t out = NULL;
            uint8_t junk[16] = {0};
            hipdnnStatus_t sts[] = {
                hipdnnSetStream(g, NULL),
                hipdnnGetStream(g, &s),
                hipdnnGetEngineCount_ext(g, &n),
                hipdnnGetHeuristicPolicyCount_ext(g, &n),
                hipdnnGetLoadedEnginePluginPaths_ext(g, &n, NULL, &m),
                hipdnnGetEngineInfo_ext(g, 0, &id, NULL, &n, NULL, &n, NULL, &n, NULL, &n),
                hipdnnGetHeuristicPolicyInfo_ext(g, 0, &id, NULL, &n, NULL, &n, NULL, &n, NULL, &n),
                hipdnnGetEngineIdByName_ext(g, "HIPDNNGO_CPU_REFERENCE", &id),
                hipdnnGetEngineNameById_ext(g, 0, NULL, &n),
                hipdnnBackendCreateAndDeserializeExecutionPlan_ext(g, &out, junk, sizeof junk),
                hipdnnBackendExecute(g, conc_shared.plan, conc_shared.pack),
                hipdnnBackendWriteEngineRankingResults_ext(g, NULL, NULL, 0, NULL),
                hipdnnDestroy(g),
            };
            for (size_t k = 0; k < sizeof sts / sizeof sts[0]; k++) {
                hipdnnPeekLastErrorString_ext(le, sizeof le);
                CONC_CHECK("garbage", 0, sts[k] == HIPDNN_STATUS_BAD_PARAM, "handle value #%zu, call #%zu -> %s (want BAD_PARAM)",
                           i, k, hipdnnGetErrorString(sts[k]));
                conc_garbage_calls++;
            }
            CONC_CHECK("garbage", 0, le[0] != 0, "garbage handle calls left no last error");
            CONC_CHECK("garbage", 0, out == NULL && s == NULL, "an out-parameter was written by a failing call");
            hipdnnGetLastErrorString(le, sizeof le);
        }
        for (size_t i = 0; i < sizeof dvals / sizeof dvals[0] && !conc_stop; i++) {
            if (i >= 5 && __atomic_load_n(&conc_destroys, __ATOMIC_SEQ_CST) - d0 > CONC_STALE_MARGIN)
                break;
            hipdnnBackendDescriptor_t g = (hipdnnBackendDescriptor_t)dvals[i];
            int64_t v = 1, cnt = 0;
            size_t n = 0;
            hipdnnStatus_t sts[] = {
                hipdnnBackendSetAttribute(g, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, &v),
                hipdnnBackendGetAttribute(g, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, &cnt, &v),
                hipdnnBackendFinalize(g),
                hipdnnBackendExecute(conc_handle, g, conc_shared.pack),
                hipdnnBackendExecute(conc_handle, conc_shared.plan, g),
                hipdnnBackendGetSerializedBinaryGraph_ext(g, 0, &n, NULL),
                hipdnnBackendGetSerializedJsonGraph_ext(g, 0, &n, NULL),
                hipdnnBackendGetSerializedExecutionPlan_ext(g, 0, &n, NULL),
                hipdnnBackendGetSerializedBinaryGraphAndPlan_ext(g, NULL, 0, &n, NULL),
                hipdnnBackendGetSerializedBinaryGraphAndPlan_ext(conc_shared.graph, g, 0, &n, NULL),
                hipdnnBackendWriteEngineRankingResults_ext(conc_handle, g, NULL, 0, NULL),
                hipdnnBackendDestroyDescriptor(g),
            };
            for (size_t k = 0; k < sizeof sts / sizeof sts[0]; k++) {
                CONC_CHECK("garbage", 0, sts[k] == HIPDNN_STATUS_BAD_PARAM,
                           "descriptor value #%zu, call #%zu -> %s (want BAD_PARAM)", i, k, hipdnnGetErrorString(sts[k]));
                conc_garbage_calls++;
            }
            CONC_CHECK("garbage", 0, v == 1 && cnt == 0, "an out-parameter was written by a failing call");
            hipdnnGetLastErrorString(le, sizeof le);
        }
        conc_destroy_d(mine, "garbage", 0); /* still alive after hipdnnDestroy((handle)mine) */
    }
    return NULL;
}

/* ---- main ------------------------------------------------------------------------------- */
static int run_concurrency(int with_garbage) {
    const char* name = with_garbage ? "test_concurrency_garbage" : "test_concurrency";
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = conc_watchdog;
    sigaction(SIGALRM, &sa, NULL);
    alarm(CONC_WATCHDOG_S);

    fx_err e = {{0}, HIPDNN_STATUS_SUCCESS};
    if (hipdnnCreate(&conc_handle) != HIPDNN_STATUS_SUCCESS
        || fx_conv_build(&e, &conc_shared, conc_handle, 2, 3, 5, 4, 3, 99) != HIPDNN_STATUS_SUCCESS
        || fx_conv_run_check(&e, &conc_shared, conc_handle) != HIPDNN_STATUS_SUCCESS) {
        fprintf(stderr, "%s: setup failed: %s\n", name, e.text);
        return 1;
    }
    if (hipdnnBackendGetSerializedBinaryGraph_ext(conc_shared.graph, 0, &conc_shared_graph_n, NULL) != HIPDNN_STATUS_SUCCESS)
        return 1;
    conc_shared_graph = (uint8_t*)malloc(conc_shared_graph_n);
    if (hipdnnBackendGetSerializedBinaryGraph_ext(conc_shared.graph, conc_shared_graph_n, &conc_shared_graph_n, conc_shared_graph)
        != HIPDNN_STATUS_SUCCESS)
        return 1;

    /* The process's first asynchronous callback registration races with concurrent logging
     * (a logging thread can block forever; test_concurrency_async_log reproduces it). Make it
     * here, before any other thread runs, so this test exercises everything else. */
    if (hipdnnSetUserLogCallback_ext(conc_cb, HIPDNN_SEV_INFO, HIPDNN_LOG_CALLBACK_ASYNC, &conc_cb_cookie)
            != HIPDNN_STATUS_SUCCESS
        || hipdnnSetUserLogCallback_ext(conc_cb, HIPDNN_SEV_OFF, HIPDNN_LOG_CALLBACK_ASYNC, &conc_cb_cookie)
               != HIPDNN_STATUS_SUCCESS) {
        fprintf(stderr, "%s: setup: async callback registration failed\n", name);
        return 1;
    }

    pthread_t wt[CONC_WORKERS], ct[CONC_CHURNERS], ht, gt;
    conc_worker w[CONC_WORKERS];
    conc_churner c[CONC_CHURNERS];
    double t0 = conc_now();
    for (int i = 0; i < CONC_WORKERS; i++) {
        memset(&w[i], 0, sizeof w[i]);
        w[i].id = i;
        pthread_create(&wt[i], NULL, conc_worker_main, &w[i]);
    }
    for (int i = 0; i < CONC_CHURNERS; i++) {
        memset(&c[i], 0, sizeof c[i]);
        c[i].id = i;
        pthread_create(&ct[i], NULL, conc_churner_main, &c[i]);
    }
    pthread_create(&ht, NULL, conc_hammer_main, NULL);
    if (with_garbage)
        pthread_create(&gt, NULL, conc_garbage_main, NULL);
    while (conc_now() - t0 < CONC_SECONDS)
        usleep(20000);
    conc_stop = 1;
    for (int i = 0; i < CONC_WORKERS; i++)
        pthread_join(wt[i], NULL);
    for (int i = 0; i < CONC_CHURNERS; i++)
        pthread_join(ct[i], NULL);
    pthread_join(ht, NULL);
    if (with_garbage)
        pthread_join(gt, NULL);
    double secs = conc_now() - t0;

    /* The shared objects survived (in particular the handle passed as a descriptor). */
    if (fx_conv_run_check(&e, &conc_shared, conc_handle) != HIPDNN_STATUS_SUCCESS)
        conc_fail("main", 0, e.text);
    /* A registered callback is called (deterministic: sync, level INFO, on this thread). */
    {
        long before = conc_cb_calls;
        hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_INFO);
        hipdnnSetUserLogCallback_ext(conc_cb, HIPDNN_SEV_INFO, HIPDNN_LOG_CALLBACK_SYNC, &conc_cb_cookie);
        hipdnnLoggingCallback_ext(HIPDNN_SEV_WARN, "after the run");
        hipdnnSetUserLogCallback_ext(conc_cb, HIPDNN_SEV_OFF, HIPDNN_LOG_CALLBACK_SYNC, &conc_cb_cookie);
        hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_OFF);
        CONC_CHECK("main", 0, conc_cb_calls > before, "the user callback was not called after the run");
    }
    if (fx_conv_destroy(&conc_shared) != HIPDNN_STATUS_SUCCESS)
        conc_fail("main", 0, "destroying the shared graph");
    if (hipdnnDestroy(conc_handle) != HIPDNN_STATUS_SUCCESS)
        conc_fail("main", 0, "destroying the shared handle");
    alarm(0);
    free(conc_shared_graph);

    long it = 0, ex = 0, sx = 0, hs = 0, ds = 0, gs = 0, min_it = -1;
    for (int i = 0; i < CONC_WORKERS; i++) {
        it += w[i].iterations, ex += w[i].executions, sx += w[i].shared_executions;
        if (min_it < 0 || w[i].iterations < min_it)
            min_it = w[i].iterations;
    }
    for (int i = 0; i < CONC_CHURNERS; i++)
        hs += c[i].handles, ds += c[i].descriptors, gs += c[i].graphs;
    printf("%s: %.2f s; %d workers: %ld graph+plan builds (min %ld per thread), %ld own executions, %ld executions of the "
           "shared plan (%.0f executions/s); %d churners: %ld handles, %ld descriptors, %ld graphs; hammer: %ld rounds, %ld "
           "callback invocations; garbage: %ld calls; %ld destroys counted\n",
           name, secs, CONC_WORKERS, it, min_it, ex, sx, (double)(ex + sx) / secs, CONC_CHURNERS, hs, ds, gs, conc_hammer_rounds,
           conc_cb_calls, conc_garbage_calls, conc_destroys);
    CONC_CHECK("main", 0, min_it >= 2, "a worker finished fewer than 2 iterations");
    CONC_CHECK("main", 0, !with_garbage || conc_garbage_calls > 0, "the garbage thread made no call");
    if (conc_failures) {
        fprintf(stderr, "%s: %ld failure(s)\n", name, conc_failures);
        return 1;
    }
    printf("%s: passed\n", name);
    return 0;
}

#endif
