/* Logging (conformance checklist items 74-76): the global level, user log callbacks (sync and
 * async, per-callback level, update, removal with no call after it returns, argument checks),
 * hipdnnLoggingCallback_ext, and the line format seen through a callback. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdbool.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"

struct sink {
    pthread_mutex_t mu;
    int calls;
    int errors; /* records with severity ERROR */
    int after_removal; /* calls that arrived after removal returned */
    bool removed; /* set by the test right after removal returns */
    long last_tid; /* OS thread the last call ran on */
    hipdnnSeverity_t last_sev;
    char last[2048];
    bool saw_create_success;
    char create_line[2048];
    bool reenter; /* log from inside the callback */
};

static long gettid_now(void) { return (long)syscall(SYS_gettid); }

static void record(void* user, hipdnnSeverity_t sev, const char* msg) {
    struct sink* s = user;
    pthread_mutex_lock(&s->mu);
    s->calls++;
    if (s->removed)
        s->after_removal++;
    if (sev == HIPDNN_SEV_ERROR)
        s->errors++;
    s->last_tid = gettid_now();
    s->last_sev = sev;
    snprintf(s->last, sizeof s->last, "%s", msg ? msg : "(null)");
    if (msg && strstr(msg, "API success: [hipdnnCreate]") && !s->saw_create_success) {
        s->saw_create_success = true;
        snprintf(s->create_line, sizeof s->create_line, "%s", msg);
    }
    bool reenter = s->reenter;
    pthread_mutex_unlock(&s->mu);
    if (reenter)
        hipdnnLoggingCallback_ext(HIPDNN_SEV_ERROR, "[test] logged from inside a callback");
}

static void cb_a(hipdnnUserLogCallbackHandle_t user, hipdnnSeverity_t sev, const char* msg) { record(user, sev, msg); }
static void cb_b(hipdnnUserLogCallbackHandle_t user, hipdnnSeverity_t sev, const char* msg) { record(user, sev, msg); }

static void sink_init(struct sink* s) {
    memset(s, 0, sizeof *s);
    pthread_mutex_init(&s->mu, NULL);
}

static int calls(struct sink* s) {
    pthread_mutex_lock(&s->mu);
    int n = s->calls;
    pthread_mutex_unlock(&s->mu);
    return n;
}

static void sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Waits up to 3 s for at least `want` calls (async delivery). */
static bool wait_calls(struct sink* s, int want) {
    for (int i = 0; i < 300; i++) {
        if (calls(s) >= want)
            return true;
        sleep_ms(10);
    }
    return calls(s) >= want;
}

static void make_some_logs(void) {
    hipdnnHandle_t h = NULL;
    (void)hipdnnCreate(&h);
    if (h)
        (void)hipdnnDestroy(h);
    tu_clear_last_error();
}

static bool digits(const char* p, int n) {
    for (int i = 0; i < n; i++)
        if (p[i] < '0' || p[i] > '9')
            return false;
    return true;
}

/* "[YYYY-mm-dd HH:MM:SS.mmm] [tid N] [<level>] <rest>": returns rest, or NULL; *tid gets N. */
static const char* parse_line(const char* l, const char* level, long* tid) {
    if (l[0] != '[' || !digits(l + 1, 4) || l[5] != '-' || !digits(l + 6, 2) || l[8] != '-' || !digits(l + 9, 2) || l[11] != ' '
        || !digits(l + 12, 2) || l[14] != ':' || !digits(l + 15, 2) || l[17] != ':' || !digits(l + 18, 2) || l[20] != '.'
        || !digits(l + 21, 3) || strncmp(l + 24, "] [tid ", 7) != 0)
        return NULL;
    const char* p = l + 31;
    if (!digits(p, 1))
        return NULL;
    char* end = NULL;
    *tid = strtol(p, &end, 10);
    char want[32];
    snprintf(want, sizeof want, "] [%s] ", level);
    if (strncmp(end, want, strlen(want)) != 0)
        return NULL;
    return end + strlen(want);
}

/* 74 */
static void check_global_level(void) {
    hipdnnSeverity_t lvl = (hipdnnSeverity_t)77;
    CHECK_OK(hipdnnBackendGetGlobalLogLevel_ext(&lvl));
    CHECK(lvl >= HIPDNN_SEV_INFO && lvl <= HIPDNN_SEV_OFF);
    static const hipdnnSeverity_t ok[] = {HIPDNN_SEV_INFO, HIPDNN_SEV_WARN, HIPDNN_SEV_ERROR, HIPDNN_SEV_FATAL, HIPDNN_SEV_OFF};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        CHECK_OK(hipdnnBackendSetGlobalLogLevel_ext(ok[i]));
        lvl = (hipdnnSeverity_t)77;
        CHECK_OK(hipdnnBackendGetGlobalLogLevel_ext(&lvl));
        CHECK_EQ_INT(lvl, ok[i]);
    }
    CHECK_OK(hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_WARN));
    /* Bad values are refused and change nothing; these calls do not set the last error. */
    tu_clear_last_error();
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM, hipdnnBackendSetGlobalLogLevel_ext((hipdnnSeverity_t)999));
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM, hipdnnBackendSetGlobalLogLevel_ext((hipdnnSeverity_t)5));
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM, hipdnnBackendSetGlobalLogLevel_ext((hipdnnSeverity_t)-1));
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM, hipdnnBackendGetGlobalLogLevel_ext(NULL)); /* not NULL_POINTER */
    char msg[64] = "x";
    hipdnnPeekLastErrorString_ext(msg, sizeof msg);
    CHECK_STREQ(msg, "");
    CHECK_OK(hipdnnBackendGetGlobalLogLevel_ext(&lvl));
    CHECK_EQ_INT(lvl, HIPDNN_SEV_WARN);
}

/* 75: argument checks. */
static void check_callback_arguments(void) {
    struct sink s;
    sink_init(&s);
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM, hipdnnSetUserLogCallback_ext(NULL, HIPDNN_SEV_INFO, HIPDNN_LOG_CALLBACK_SYNC, &s));
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM, hipdnnSetUserLogCallback_ext(cb_a, HIPDNN_SEV_INFO, HIPDNN_LOG_CALLBACK_SYNC, NULL));
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM, hipdnnSetUserLogCallback_ext(cb_a, HIPDNN_SEV_INFO, (hipdnnLogCallbackMode_t)2, &s));
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM, hipdnnSetUserLogCallback_ext(cb_a, HIPDNN_SEV_INFO, (hipdnnLogCallbackMode_t)-1, &s));
    /* Removing a pair that was never registered. */
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM, hipdnnSetUserLogCallback_ext(cb_a, HIPDNN_SEV_OFF, HIPDNN_LOG_CALLBACK_SYNC, &s));
    /* Registered with one handle, removed with another. */
    struct sink other;
    sink_init(&other);
    CHECK_OK(hipdnnSetUserLogCallback_ext(cb_a, HIPDNN_SEV_INFO, HIPDNN_LOG_CALLBACK_SYNC, &s));
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM, hipdnnSetUserLogCallback_ext(cb_a, HIPDNN_SEV_OFF, HIPDNN_LOG_CALLBACK_SYNC, &other));
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM, hipdnnSetUserLogCallback_ext(cb_b, HIPDNN_SEV_OFF, HIPDNN_LOG_CALLBACK_SYNC, &s));
    CHECK_OK(hipdnnSetUserLogCallback_ext(cb_a, HIPDNN_SEV_OFF, HIPDNN_LOG_CALLBACK_SYNC, &s));
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM, hipdnnSetUserLogCallback_ext(cb_a, HIPDNN_SEV_OFF, HIPDNN_LOG_CALLBACK_SYNC, &s));

    /* spec §4 and the header: hipdnnSetUserLogCallback_ext does not set the last error. */
    tu_clear_last_error();
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM, hipdnnSetUserLogCallback_ext(NULL, HIPDNN_SEV_INFO, HIPDNN_LOG_CALLBACK_SYNC, &s));
    char msg[HIPDNN_ERROR_STRING_MAX_LENGTH] = "x";
    hipdnnPeekLastErrorString_ext(msg, sizeof msg);
    if (msg[0] != '\0')
        CHECK_FAIL("hipdnnSetUserLogCallback_ext(NULL, ...) set the last error: \"%s\"", msg);
    check_count++;
    tu_clear_last_error();
}

/* 75, 76: a synchronous callback, its level, the global level, the line format, removal. */
static void check_sync(void) {
    struct sink s;
    sink_init(&s);
    CHECK_OK(hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_INFO));
    CHECK_OK(hipdnnSetUserLogCallback_ext(cb_a, HIPDNN_SEV_INFO, HIPDNN_LOG_CALLBACK_SYNC, &s));
    hipdnnHandle_t h = NULL;
    CHECK_OK(hipdnnCreate(&h));
    /* Synchronous: delivered before hipdnnCreate returned, on this thread. */
    CHECK(s.saw_create_success);
    CHECK(s.calls >= 2); /* "API called" and "API success" at least */
    CHECK_EQ_INT(s.last_tid, gettid_now());
    long tid = -1;
    const char* rest = parse_line(s.create_line, "info", &tid);
    if (!rest)
        CHECK_FAIL("line \"%s\" does not match \"[YYYY-mm-dd HH:MM:SS.mmm] [tid N] [info] ...\"", s.create_line);
    else {
        CHECK_EQ_INT(tid, gettid_now());
        CHECK(strncmp(rest, "[hipdnn_backend] API success: [hipdnnCreate]", 44) == 0);
        CHECK(strchr(s.create_line, '\n') == NULL); /* a callback gets the line without a newline */
    }
    /* The line carries the current date and time. */
    time_t now = time(NULL);
    struct tm tmv;
    localtime_r(&now, &tmv);
    char year[16];
    snprintf(year, sizeof year, "[%04d", tmv.tm_year + 1900);
    if (strncmp(s.create_line, year, 5) != 0) {
        /* allow the year to have turned over or UTC vs local time around new year */
        CHECK_FAIL("line \"%.30s\" does not start with the current year %s", s.create_line, year + 1);
    }
    check_count++;
    CHECK_OK(hipdnnDestroy(h));

    /* A NULL-pointer error gives an ERROR record, "[error]" in the line. */
    int errs = s.errors;
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, hipdnnCreate(NULL));
    CHECK(s.errors > errs);
    CHECK_EQ_INT(s.last_sev, HIPDNN_SEV_ERROR);
    tid = -1;
    if (!parse_line(s.last, "error", &tid))
        CHECK_FAIL("error line \"%s\" has the wrong format", s.last);
    check_count++;
    tu_clear_last_error();

    /* Re-registering the same pair updates its level: ERROR only now. */
    CHECK_OK(hipdnnSetUserLogCallback_ext(cb_a, HIPDNN_SEV_ERROR, HIPDNN_LOG_CALLBACK_SYNC, &s));
    int before = s.calls;
    make_some_logs(); /* INFO records only */
    CHECK_EQ_INT(s.calls, before);
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, hipdnnCreate(NULL));
    CHECK_EQ_INT(s.calls, before + 1);
    CHECK_EQ_INT(s.last_sev, HIPDNN_SEV_ERROR);
    tu_clear_last_error();

    /* The global level gates callbacks too. */
    CHECK_OK(hipdnnSetUserLogCallback_ext(cb_a, HIPDNN_SEV_INFO, HIPDNN_LOG_CALLBACK_SYNC, &s));
    CHECK_OK(hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_FATAL));
    before = s.calls;
    make_some_logs();
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, hipdnnCreate(NULL));
    tu_clear_last_error();
    CHECK_EQ_INT(s.calls, before);
    CHECK_OK(hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_OFF));
    hipdnnLoggingCallback_ext(HIPDNN_SEV_FATAL, "[test] while OFF");
    CHECK_EQ_INT(s.calls, before);

    /* hipdnnLoggingCallback_ext: the message reaches the callback with its severity. */
    CHECK_OK(hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_WARN));
    hipdnnLoggingCallback_ext(HIPDNN_SEV_INFO, "[test] below the level");
    CHECK_EQ_INT(s.calls, before);
    hipdnnLoggingCallback_ext(HIPDNN_SEV_WARN, "[hipdnn_frontend] a frontend warning");
    CHECK_EQ_INT(s.calls, before + 1);
    CHECK_EQ_INT(s.last_sev, HIPDNN_SEV_WARN);
    rest = parse_line(s.last, "warn", &tid);
    CHECK(rest != NULL && strcmp(rest, "[hipdnn_frontend] a frontend warning") == 0);
    hipdnnLoggingCallback_ext(HIPDNN_SEV_FATAL, "[test] fatal");
    CHECK_EQ_INT(s.last_sev, HIPDNN_SEV_FATAL);
    CHECK(parse_line(s.last, "critical", &tid) != NULL);
    hipdnnLoggingCallback_ext(HIPDNN_SEV_ERROR, NULL); /* no crash */
    hipdnnLoggingCallback_ext((hipdnnSeverity_t)99, "[test] bad"); /* no crash */

    /* Logging from inside a synchronous callback is dropped, not recursed into. */
    before = s.calls;
    s.reenter = true;
    hipdnnLoggingCallback_ext(HIPDNN_SEV_ERROR, "[test] outer");
    s.reenter = false;
    CHECK_EQ_INT(s.calls, before + 1);

    /* Two user handles with one callback are two registrations. */
    struct sink s2;
    sink_init(&s2);
    CHECK_OK(hipdnnSetUserLogCallback_ext(cb_a, HIPDNN_SEV_INFO, HIPDNN_LOG_CALLBACK_SYNC, &s2));
    before = s.calls;
    hipdnnLoggingCallback_ext(HIPDNN_SEV_ERROR, "[test] both");
    CHECK_EQ_INT(s.calls, before + 1);
    CHECK_EQ_INT(s2.calls, 1);
    CHECK_OK(hipdnnSetUserLogCallback_ext(cb_a, HIPDNN_SEV_OFF, HIPDNN_LOG_CALLBACK_SYNC, &s2));

    /* OFF removes: no call once it has returned. */
    CHECK_OK(hipdnnSetUserLogCallback_ext(cb_a, HIPDNN_SEV_OFF, HIPDNN_LOG_CALLBACK_SYNC, &s));
    pthread_mutex_lock(&s.mu);
    s.removed = true;
    pthread_mutex_unlock(&s.mu);
    CHECK_OK(hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_INFO));
    make_some_logs();
    hipdnnLoggingCallback_ext(HIPDNN_SEV_ERROR, "[test] after removal");
    CHECK_EQ_INT(s.after_removal, 0);
    CHECK_EQ_INT(s2.calls, 1);
    CHECK_OK(hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_OFF));
}

/* 75: an asynchronous callback runs on another thread; removal stops it. */
struct spammer {
    volatile bool stop;
};

static void* spam(void* arg) {
    struct spammer* sp = arg;
    while (!sp->stop)
        hipdnnLoggingCallback_ext(HIPDNN_SEV_WARN, "[test] spam");
    return NULL;
}

static void check_async(void) {
    struct sink s;
    sink_init(&s);
    CHECK_OK(hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_INFO));
    CHECK_OK(hipdnnSetUserLogCallback_ext(cb_b, HIPDNN_SEV_INFO, HIPDNN_LOG_CALLBACK_ASYNC, &s));
    make_some_logs();
    CHECK(wait_calls(&s, 2));
    pthread_mutex_lock(&s.mu);
    bool saw = s.saw_create_success;
    long tid = s.last_tid;
    pthread_mutex_unlock(&s.mu);
    CHECK(saw);
    CHECK(tid != gettid_now()); /* a worker thread */
    long ltid = -1;
    CHECK(parse_line(s.create_line, "info", &ltid) != NULL);
    CHECK_EQ_INT(ltid, gettid_now()); /* the line names the thread that logged */

    /* Update to SYNC on the same pair: now on this thread. */
    CHECK_OK(hipdnnSetUserLogCallback_ext(cb_b, HIPDNN_SEV_WARN, HIPDNN_LOG_CALLBACK_SYNC, &s));
    int before = calls(&s);
    hipdnnLoggingCallback_ext(HIPDNN_SEV_WARN, "[test] sync now");
    CHECK_EQ_INT(calls(&s), before + 1);
    CHECK_EQ_INT(s.last_tid, gettid_now());
    CHECK_OK(hipdnnSetUserLogCallback_ext(cb_b, HIPDNN_SEV_INFO, HIPDNN_LOG_CALLBACK_ASYNC, &s));

    /* Removal while another thread keeps logging: nothing arrives after it returns. */
    struct spammer sp = {false};
    pthread_t t;
    CHECK(pthread_create(&t, NULL, spam, &sp) == 0);
    int base = calls(&s);
    CHECK(wait_calls(&s, base + 10));
    CHECK_OK(hipdnnSetUserLogCallback_ext(cb_b, HIPDNN_SEV_OFF, HIPDNN_LOG_CALLBACK_ASYNC, &s));
    pthread_mutex_lock(&s.mu);
    s.removed = true;
    pthread_mutex_unlock(&s.mu);
    sleep_ms(200); /* the worker drains its queue meanwhile */
    sp.stop = true;
    pthread_join(t, NULL);
    make_some_logs();
    sleep_ms(100);
    pthread_mutex_lock(&s.mu);
    int late = s.after_removal;
    pthread_mutex_unlock(&s.mu);
    CHECK_EQ_INT(late, 0);
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM, hipdnnSetUserLogCallback_ext(cb_b, HIPDNN_SEV_OFF, HIPDNN_LOG_CALLBACK_ASYNC, &s));
    tu_clear_last_error();
    CHECK_OK(hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_OFF));
}

int main(void) {
    check_global_level();
    check_callback_arguments();
    check_sync();
    check_async();
    return check_finish("test_logging");
}
