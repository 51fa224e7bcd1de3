/* Assertion helpers shared by the C conformance tests, on top of tests/common/check.h (CHECK,
 * CHECK_FAIL, check_finish): statuses with the backend's last error, messages, strings and
 * integers. Each test is one executable; checks keep running so one run shows every failure. */
#ifndef HIPDNN_TESTS_TESTUTIL_H
#define HIPDNN_TESTS_TESTUTIL_H

#include <hipdnn_backend.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/check.h"

/* CHECK_STATUS(expected, call): the call must return exactly `expected`. */
#define CHECK_STATUS(expected, call)                                                                                                \
    do {                                                                                                                            \
        check_count++;                                                                                                              \
        hipdnnStatus_t tu_got_ = (call);                                                                                            \
        if (tu_got_ != (expected)) {                                                                                                \
            char tu_msg_[HIPDNN_ERROR_STRING_MAX_LENGTH];                                                                           \
            hipdnnPeekLastErrorString_ext(tu_msg_, sizeof tu_msg_);                                                                 \
            CHECK_FAIL("%s returned %s (%d), want %s (%d); last error: \"%s\"", #call, hipdnnGetErrorString(tu_got_), (int)tu_got_, \
                    hipdnnGetErrorString(expected), (int)(expected), tu_msg_);                                                      \
        }                                                                                                                           \
    } while (0)

#define CHECK_OK(call) CHECK_STATUS(HIPDNN_STATUS_SUCCESS, call)

/* CHECK_ERR(expected, needle, call): status must match and the last error (which is then
 * consumed) must contain `needle`, which names what was wrong; an empty needle is a test bug. */
#define CHECK_ERR(expected, needle, call)                                                                    \
    do {                                                                                                     \
        CHECK_STATUS(expected, call);                                                                        \
        char tu_err_[HIPDNN_ERROR_STRING_MAX_LENGTH];                                                        \
        hipdnnGetLastErrorString(tu_err_, sizeof tu_err_);                                                   \
        check_count++;                                                                                       \
        if ((needle)[0] == '\0')                                                                             \
            CHECK_FAIL("%s: CHECK_ERR needs the message substring it expects (got \"%s\")", #call, tu_err_); \
        else if (tu_err_[0] == '\0' || strstr(tu_err_, (needle)) == NULL)                                    \
            CHECK_FAIL("%s: last error \"%s\" does not contain \"%s\"", #call, tu_err_, (needle));           \
    } while (0)

#define CHECK_STREQ(a, b)                                                                                    \
    do {                                                                                                     \
        check_count++;                                                                                       \
        const char* tu_a_ = (a);                                                                             \
        const char* tu_b_ = (b);                                                                             \
        if (tu_a_ == NULL || tu_b_ == NULL || strcmp(tu_a_, tu_b_) != 0)                                     \
            CHECK_FAIL("%s == \"%s\", want \"%s\"", #a, tu_a_ ? tu_a_ : "(null)", tu_b_ ? tu_b_ : "(null)"); \
    } while (0)

#define CHECK_EQ_INT(a, b)                                         \
    do {                                                           \
        check_count++;                                             \
        long long tu_a_ = (long long)(a);                          \
        long long tu_b_ = (long long)(b);                          \
        if (tu_a_ != tu_b_)                                        \
            CHECK_FAIL("%s == %lld, want %lld", #a, tu_a_, tu_b_); \
    } while (0)

/* Clears the calling thread's last error so a following check sees only new messages. */
static inline void tu_clear_last_error(void) {
    char buf[8];
    hipdnnGetLastErrorString(buf, sizeof buf);
}


/* A log counter: counts the messages of one severity that contain a substring, through a
 * synchronous user log callback (the global level must let them through). */
typedef struct {
    hipdnnSeverity_t severity;
    const char* needle;
    pthread_mutex_t mu;
    int count;
} tu_log_counter;

static inline void tu_log_counter_cb(hipdnnUserLogCallbackHandle_t user, hipdnnSeverity_t sev, const char* msg) {
    tu_log_counter* c = (tu_log_counter*)user;
    if (sev != c->severity || msg == NULL || strstr(msg, c->needle) == NULL)
        return;
    pthread_mutex_lock(&c->mu);
    c->count++;
    pthread_mutex_unlock(&c->mu);
}

static inline void tu_count_logs(tu_log_counter* c, hipdnnSeverity_t severity, const char* needle) {
    c->severity = severity;
    c->needle = needle;
    c->count = 0;
    pthread_mutex_init(&c->mu, NULL);
    CHECK_OK(hipdnnSetUserLogCallback_ext(tu_log_counter_cb, severity, HIPDNN_LOG_CALLBACK_SYNC, c));
}

static inline int tu_logs_counted(tu_log_counter* c) {
    pthread_mutex_lock(&c->mu);
    int n = c->count;
    pthread_mutex_unlock(&c->mu);
    return n;
}

static inline void tu_stop_counting(tu_log_counter* c) {
    CHECK_OK(hipdnnSetUserLogCallback_ext(tu_log_counter_cb, HIPDNN_SEV_OFF, HIPDNN_LOG_CALLBACK_SYNC, c));
}

#endif
