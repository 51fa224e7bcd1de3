/* hipdnnBackendExecute's C fast path (internal/engines/hd_fast.c) against its Go path: the same
 * statuses, messages and log lines either way; a handle other than the plan's, swapped kinds
 * and garbage tokens still get the Go path's answers; and destroying a plan, a variant pack or
 * the handle while other threads execute them never crashes: every call returns SUCCESS or,
 * once the object is gone, BAD_PARAM. Plugins: good (-2) and execute-fails. */
#define _XOPEN_SOURCE 700
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "plugin_testutil.h"

/* ---- log capture ------------------------------------------------------------------------- */

static pthread_mutex_t log_mu = PTHREAD_MUTEX_INITIALIZER;
static char log_text[1 << 14];
static size_t log_len;

static void capture(hipdnnUserLogCallbackHandle_t user, hipdnnSeverity_t sev, const char* msg) {
    (void)user;
    (void)sev;
    pthread_mutex_lock(&log_mu);
    size_t n = strlen(msg);
    if (log_len + n + 2 < sizeof log_text) {
        memcpy(log_text + log_len, msg, n);
        log_len += n;
        log_text[log_len++] = '\n';
        log_text[log_len] = 0;
    }
    pthread_mutex_unlock(&log_mu);
}

static int log_marker;

static void log_reset(void) {
    pthread_mutex_lock(&log_mu);
    log_len = 0;
    log_text[0] = 0;
    pthread_mutex_unlock(&log_mu);
}

/* ---- same answers on both paths ---------------------------------------------------------- */

static float xs[120], ys[120];

static hipdnnBackendDescriptor_t pack_for(float* x, float* y) {
    int64_t uids[2] = {1, 2};
    void* ptrs[2] = {x, y};
    static char workspace[4096];
    return pt_pack(2, uids, ptrs, workspace);
}

/* Execute at log level OFF (served in C) and at INFO (served in Go): same status, same last
 * error, and at INFO the API lines; at OFF nothing reaches the callback. */
static void same_answers(hipdnnHandle_t h, hipdnnBackendDescriptor_t g) {
    hipdnnBackendDescriptor_t good = pt_plan_for(g, PT_ID_GOOD);
    hipdnnBackendDescriptor_t fails = pt_plan_for(g, PT_ID_EXECUTE_FAILS);
    hipdnnBackendDescriptor_t pack = pack_for(xs, ys);
    char fast_err[HIPDNN_ERROR_STRING_MAX_LENGTH], slow_err[HIPDNN_ERROR_STRING_MAX_LENGTH];

    CHECK_OK(hipdnnSetUserLogCallback_ext(capture, HIPDNN_SEV_INFO, HIPDNN_LOG_CALLBACK_SYNC, &log_marker));
    CHECK_OK(hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_OFF));
    log_reset();
    CHECK_OK(hipdnnBackendExecute(h, good, pack));
    CHECK_STATUS(HIPDNN_STATUS_PLUGIN_ERROR, hipdnnBackendExecute(h, fails, pack));
    pt_take_error(fast_err, sizeof fast_err);
    CHECK_STREQ(log_text, "");

    CHECK_OK(hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_INFO));
    log_reset();
    CHECK_OK(hipdnnBackendExecute(h, good, pack));
    CHECK_CONTAINS(log_text, "API called: [hipdnnBackendExecute]");
    CHECK_CONTAINS(log_text, "API success: [hipdnnBackendExecute]");
    CHECK_STATUS(HIPDNN_STATUS_PLUGIN_ERROR, hipdnnBackendExecute(h, fails, pack));
    pt_take_error(slow_err, sizeof slow_err);
    CHECK_CONTAINS(log_text, "Error occured in status:HIPDNN_STATUS_PLUGIN_ERROR");
    CHECK_OK(hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_OFF));
    CHECK_OK(hipdnnSetUserLogCallback_ext(capture, HIPDNN_SEV_OFF, HIPDNN_LOG_CALLBACK_SYNC, &log_marker));

    CHECK_STREQ(fast_err, slow_err);
    CHECK_CONTAINS(
        fast_err,
        "test_execute_fails_plugin: Failed to execute engine TEST_EXECUTE_FAILS_ENGINE. Status: HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR(3)");
    CHECK_CONTAINS(fast_err, "fails every execution on purpose");

    /* Success leaves the last error alone on the fast path too. */
    tu_clear_last_error();
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM, hipdnnBackendExecute(h, pack, good)); /* kinds swapped */
    CHECK_OK(hipdnnBackendExecute(h, good, pack));
    char after[HIPDNN_ERROR_STRING_MAX_LENGTH];
    CHECK_CONTAINS(pt_take_error(after, sizeof after), "not an execution plan"); /* still there */

    /* Garbage and NULL tokens get the Go path's statuses. */
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "was never created or was destroyed long ago",
              hipdnnBackendExecute(h, (hipdnnBackendDescriptor_t)(uintptr_t)0xdeadbeef, pack));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "hipdnnBackendDescriptor_t 0x1 was never created or was destroyed long ago",
              hipdnnBackendExecute(h, good, (hipdnnBackendDescriptor_t)(uintptr_t)1));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "was never created or was destroyed long ago",
              hipdnnBackendExecute((hipdnnHandle_t)(uintptr_t)0xdeadbeef, good, pack));
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, hipdnnBackendExecute(h, good, NULL));

    /* Every check of Execute holds on the C entry point: the C path serves only a (plan, pack)
     * pair the Go path has checked, so a bad pack is refused with the Go path's message on every
     * call, however often the plan ran before. */
    CHECK_OK(hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_OFF));
    static float bad_x[121];
    int64_t uids[2] = {1, 2}, only_y[1] = {2};
    void* misaligned[2] = {(char*)bad_x + 4, ys};
    void* null_x[2] = {NULL, ys};
    static char workspace[4096];
    struct {
        hipdnnBackendDescriptor_t pack;
        const char* want;
    } bad[] = {
        {pt_pack(2, uids, misaligned, workspace), "for tensor uid 1 is not aligned to 16 bytes"},
        {pt_pack(2, uids, null_x, workspace), "the pointer for tensor uid 1 (in_0 of a Pointwise node) is NULL"},
        {pt_pack(1, only_y, &null_x[1], workspace), "no pointer for tensor uid 1 (in_0 of a Pointwise node)"},
        {pt_pack(2, uids, (void* const[]){xs, ys}, NULL), "the workspace is NULL, but the plan for engine"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        for (int round = 0; round < 3; round++) {
            CHECK_OK(hipdnnBackendExecute(h, good, pack));
            CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, bad[i].want, hipdnnBackendExecute(h, good, bad[i].pack));
        }

    /* A second handle runs the plan through its own plugin handle (the Go path). */
    hipdnnHandle_t h2 = pt_create(NULL, 0);
    CHECK_OK(hipdnnBackendExecute(h2, good, pack));
    CHECK_OK(hipdnnDestroy(h2));
    CHECK_OK(hipdnnBackendExecute(h, good, pack));
}

/* ---- destroy while executing ------------------------------------------------------------- */

enum { THREADS = 4 };

typedef struct {
    hipdnnHandle_t handle;
    hipdnnBackendDescriptor_t plan, pack;
    atomic_int* stop;
    long ok, bad, other;
    hipdnnStatus_t other_status;
    atomic_int succeeded; /* set after the first SUCCESS */
} worker;

static void* run(void* arg) {
    worker* w = (worker*)arg;
    while (!atomic_load(w->stop)) {
        hipdnnStatus_t st = hipdnnBackendExecute(w->handle, w->plan, w->pack);
        if (st == HIPDNN_STATUS_SUCCESS) {
            if (w->ok++ == 0)
                atomic_store(&w->succeeded, 1);
        }
        else if (st == HIPDNN_STATUS_BAD_PARAM)
            w->bad++;
        else
            w->other++, w->other_status = st;
    }
    return NULL;
}

static void sleep_ms(long ms) {
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

enum victim { PLAN, PACKS, HANDLE };

/* Takes a descriptor off pt_new's list (it is destroyed by hand). */
static hipdnnBackendDescriptor_t untrack(hipdnnBackendDescriptor_t d) {
    for (size_t i = 0; i < pt_ntracked; i++)
        if (pt_tracked[i] == d) {
            pt_tracked[i] = pt_tracked[--pt_ntracked];
            break;
        }
    return d;
}

/* THREADS threads execute one shared plan, each with its own pack; after a while the victim
 * is destroyed under them, and they go on calling with the dead tokens for a while. */
static void destroy_while_executing(enum victim what) {
    static const char* names[] = {"plan", "packs", "handle"};
    hipdnnHandle_t h = pt_create(NULL, 0);
    hipdnnBackendDescriptor_t g = pt_pointwise_graph(h, NULL);
    hipdnnBackendDescriptor_t plan = pt_plan_for(g, PT_ID_GOOD);
    static float x[THREADS][120], y[THREADS][120];
    atomic_int stop = 0;
    worker w[THREADS];
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++) {
        w[i] = (worker){h, plan, pack_for(x[i], y[i]), &stop, 0, 0, 0, HIPDNN_STATUS_SUCCESS, 0};
        pthread_create(&t[i], NULL, run, &w[i]);
    }
    /* every thread is executing before the victim goes (each pair's first execute takes the Go
     * path, which a loaded machine may hold up) */
    for (int i = 0, waited = 0; i < THREADS && waited < 10000; i += atomic_load(&w[i].succeeded), waited++)
        if (!atomic_load(&w[i].succeeded))
            sleep_ms(1);
    sleep_ms(30);
    if (what == PLAN) {
        CHECK_OK(hipdnnBackendDestroyDescriptor(untrack(plan)));
    } else if (what == PACKS) {
        for (int i = 0; i < THREADS; i++)
            CHECK_OK(hipdnnBackendDestroyDescriptor(untrack(w[i].pack)));
    } else {
        CHECK_OK(hipdnnDestroy(h));
    }
    sleep_ms(30);
    atomic_store(&stop, 1);
    long ok = 0, bad = 0;
    for (int i = 0; i < THREADS; i++) {
        pthread_join(t[i], NULL);
        ok += w[i].ok, bad += w[i].bad;
        if (w[i].other != 0)
            CHECK_FAIL("destroying the %s: thread %d got %s %ld times", names[what], i, hipdnnGetErrorString(w[i].other_status),
                    w[i].other);
        check_count++;
    }
    printf("destroying the %s under %d executing threads: %ld SUCCESS, %ld BAD_PARAM\n", names[what], THREADS, ok, bad);
    CHECK(ok > 0);
    CHECK(bad > 0);
    /* the dead tokens stay dead */
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "was already destroyed", hipdnnBackendExecute(h, plan, w[0].pack));
    pt_release_all();
    if (what != HANDLE)
        CHECK_OK(hipdnnDestroy(h));
}

int main(void) {
    const char* files[] = {PT_GOOD, PT_CUSTOM("test_execute_fails_plugin")};
    pt_engine_paths(PT_COUNT(files), files);
    pt_heur_paths(0, NULL);
    hipdnnHandle_t h = pt_create(NULL, 0);
    hipdnnBackendDescriptor_t g = pt_pointwise_graph(h, NULL);
    same_answers(h, g);
    pt_release_all();
    CHECK_OK(hipdnnDestroy(h));

    destroy_while_executing(PLAN);
    destroy_while_executing(PACKS);
    destroy_while_executing(HANDLE);
    return check_finish("test_execute_fast");
}
