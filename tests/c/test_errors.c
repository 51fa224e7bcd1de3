/* Status strings and the per-thread last error (conformance checklist items 19-26). */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>

#include "testutil.h"

/* 19: every status by name, and HIPDNN_STATUS_UNKNOWN for values that are not statuses. */
static void check_status_strings(void) {
    static const struct {
        int value;
        const char* name;
    } names[] = {
        {0, "HIPDNN_STATUS_SUCCESS"},
        {1, "HIPDNN_STATUS_NOT_INITIALIZED"},
        {2, "HIPDNN_STATUS_BAD_PARAM"},
        {3, "HIPDNN_STATUS_BAD_PARAM_NULL_POINTER"},
        {4, "HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED"},
        {5, "HIPDNN_STATUS_BAD_PARAM_OUT_OF_BOUND"},
        {6, "HIPDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT"},
        {7, "HIPDNN_STATUS_BAD_PARAM_STREAM_MISMATCH"},
        {8, "HIPDNN_STATUS_NOT_SUPPORTED"},
        {9, "HIPDNN_STATUS_INTERNAL_ERROR"},
        {10, "HIPDNN_STATUS_ALLOC_FAILED"},
        {11, "HIPDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED"},
        {12, "HIPDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED"},
        {13, "HIPDNN_STATUS_EXECUTION_FAILED"},
        {14, "HIPDNN_STATUS_PLUGIN_ERROR"},
        {15, "HIPDNN_STATUS_VERSION_MISMATCH"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char* got = hipdnnGetErrorString((hipdnnStatus_t)names[i].value);
        CHECK_STREQ(got, names[i].name);
        /* static: the same pointer every time */
        CHECK(got == hipdnnGetErrorString((hipdnnStatus_t)names[i].value));
    }
    CHECK_STREQ(hipdnnGetErrorString(HIPDNN_STATUS_SUCCESS), "HIPDNN_STATUS_SUCCESS");
    CHECK_STREQ(hipdnnGetErrorString(HIPDNN_STATUS_PLUGIN_ERROR), "HIPDNN_STATUS_PLUGIN_ERROR");
    static const int unknown[] = {-999, -1, 16, 17, 63, 64, 1000, 0x7fffffff};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++)
        CHECK_STREQ(hipdnnGetErrorString((hipdnnStatus_t)unknown[i]), "HIPDNN_STATUS_UNKNOWN");
    /* hipdnnGetErrorString does not touch the last error. */
    tu_clear_last_error();
    (void)hipdnnGetErrorString((hipdnnStatus_t)-999);
    char buf[64] = "x";
    hipdnnPeekLastErrorString_ext(buf, sizeof buf);
    CHECK_STREQ(buf, "");
}

/* Makes a failure with a known message on the calling thread. */
static void provoke(void) { (void)hipdnnCreate(NULL); }

/* 21, 22: get copies then clears; peek copies without clearing. */
static void check_get_and_peek(void) {
    tu_clear_last_error();
    char a[HIPDNN_ERROR_STRING_MAX_LENGTH], b[HIPDNN_ERROR_STRING_MAX_LENGTH];
    hipdnnGetLastErrorString(a, sizeof a);
    CHECK_STREQ(a, ""); /* nothing recorded */

    provoke();
    hipdnnPeekLastErrorString_ext(a, sizeof a);
    CHECK(a[0] != '\0');
    CHECK(strstr(a, "hipdnnCreate") != NULL); /* names the function */
    hipdnnPeekLastErrorString_ext(b, sizeof b);
    CHECK_STREQ(b, a); /* repeated peeks agree */
    hipdnnGetLastErrorString(b, sizeof b);
    CHECK_STREQ(b, a); /* peek then get: same text */
    hipdnnGetLastErrorString(b, sizeof b);
    CHECK_STREQ(b, ""); /* cleared */
    hipdnnPeekLastErrorString_ext(b, sizeof b);
    CHECK_STREQ(b, "");

    /* A newer failure replaces the older message. */
    provoke();
    hipdnnBackendDescriptor_t d = NULL;
    CHECK_STATUS(HIPDNN_STATUS_NOT_SUPPORTED, hipdnnBackendCreateDescriptor(HIPDNN_INVALID_TYPE_EXT, &d));
    hipdnnGetLastErrorString(a, sizeof a);
    CHECK(strstr(a, "hipdnnCreate") == NULL);
    CHECK(strstr(a, "not supported") != NULL);
}

/* 23, 25: truncation keeps a NUL; oversized buffers give the same text as exact ones. */
static void check_truncation(void) {
    provoke();
    char full[HIPDNN_ERROR_STRING_MAX_LENGTH];
    hipdnnPeekLastErrorString_ext(full, sizeof full);
    size_t n = strlen(full);
    CHECK(n > 4);

    char two[4] = {'#', '#', '#', '#'};
    hipdnnPeekLastErrorString_ext(two, 2);
    CHECK(two[0] == full[0]);
    CHECK(two[1] == '\0');
    CHECK(two[2] == '#'); /* nothing written past maxSize */

    char one[2] = {'#', '#'};
    hipdnnPeekLastErrorString_ext(one, 1);
    CHECK(one[0] == '\0');
    CHECK(one[1] == '#');

    char five[8];
    memset(five, '#', sizeof five);
    hipdnnPeekLastErrorString_ext(five, 5);
    CHECK(strlen(five) == 4);
    CHECK(strncmp(five, full, 4) == 0);
    CHECK(five[5] == '#');

    /* Exactly large enough, and larger than the maximum. */
    char* exact = malloc(n + 1);
    char big[HIPDNN_ERROR_STRING_MAX_LENGTH + 1028];
    hipdnnPeekLastErrorString_ext(exact, n + 1);
    CHECK_STREQ(exact, full);
    hipdnnPeekLastErrorString_ext(big, sizeof big);
    CHECK_STREQ(big, full);
    /* A truncating get still clears the whole message. */
    hipdnnGetLastErrorString(exact, 3);
    CHECK(strlen(exact) == 2);
    hipdnnPeekLastErrorString_ext(big, sizeof big);
    CHECK_STREQ(big, "");
    free(exact);

    /* A message longer than the buffer is stored as HIPDNN_ERROR_STRING_MAX_LENGTH - 1 chars. */
    hipdnnHandle_t h = NULL;
    CHECK_OK(hipdnnCreate(&h));
    static char longname[5000];
    memset(longname, 'n', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    int64_t id = 0;
    tu_clear_last_error();
    CHECK_STATUS(HIPDNN_STATUS_NOT_SUPPORTED, hipdnnGetEngineIdByName_ext(h, longname, &id));
    hipdnnPeekLastErrorString_ext(big, sizeof big);
    CHECK_EQ_INT(strlen(big), HIPDNN_ERROR_STRING_MAX_LENGTH - 1);
    char same[HIPDNN_ERROR_STRING_MAX_LENGTH];
    hipdnnPeekLastErrorString_ext(same, sizeof same);
    CHECK_STREQ(same, big);
    char mid[1028];
    hipdnnGetLastErrorString(mid, sizeof mid);
    CHECK_EQ_INT(strlen(mid), sizeof mid - 1);
    CHECK(strncmp(mid, big, sizeof mid - 1) == 0);
    CHECK_OK(hipdnnDestroy(h));
}

/* 24: NULL buffer or size 0 copy nothing, do not crash, and record the misuse. */
static void check_null_buffers(void) {
    tu_clear_last_error();
    hipdnnGetLastErrorString(NULL, 100);
    hipdnnPeekLastErrorString_ext(NULL, 100);
    char msg[HIPDNN_ERROR_STRING_MAX_LENGTH];
    hipdnnPeekLastErrorString_ext(msg, sizeof msg);
    CHECK(msg[0] != '\0'); /* the misuse itself is the new last error */
    CHECK(strstr(msg, "NULL") != NULL || strstr(msg, "null") != NULL);

    provoke();
    char keep[4] = {'#', '#', '#', '#'};
    hipdnnGetLastErrorString(keep, 0);
    CHECK(keep[0] == '#'); /* nothing copied */
    hipdnnPeekLastErrorString_ext(keep, 0);
    CHECK(keep[0] == '#');
    hipdnnGetLastErrorString(msg, sizeof msg);
    CHECK(msg[0] != '\0');
    CHECK(strstr(msg, "hipdnnCreate") == NULL); /* replaced by the maxSize-0 misuse */
    hipdnnGetLastErrorString(NULL, 0);
    hipdnnPeekLastErrorString_ext(NULL, 0);
    tu_clear_last_error();
}

/* 26: a successful call leaves the stored message alone. */
static void check_success_keeps_message(void) {
    provoke();
    char before[HIPDNN_ERROR_STRING_MAX_LENGTH], after[HIPDNN_ERROR_STRING_MAX_LENGTH];
    hipdnnPeekLastErrorString_ext(before, sizeof before);
    hipdnnBackendDescriptor_t d = NULL;
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_TENSOR_DESCRIPTOR, &d));
    CHECK_OK(hipdnnBackendDestroyDescriptor(d));
    int64_t ma, mi, pa;
    CHECK_OK(hipdnnGetComponentVersion_ext(HIPDNN_VERSION_KIND_C_ABI_EXT, &ma, &mi, &pa));
    hipdnnSeverity_t lvl;
    CHECK_OK(hipdnnBackendGetGlobalLogLevel_ext(&lvl));
    hipdnnPeekLastErrorString_ext(after, sizeof after);
    CHECK_STREQ(after, before);
    tu_clear_last_error();
}

/* 20: the last error is per thread. */
struct thread_result {
    char seen_at_start[HIPDNN_ERROR_STRING_MAX_LENGTH];
    char own[HIPDNN_ERROR_STRING_MAX_LENGTH];
    pthread_barrier_t* barrier;
};

static void* other_thread(void* arg) {
    struct thread_result* r = arg;
    /* The main thread has a message pending; this thread must not see it. */
    hipdnnPeekLastErrorString_ext(r->seen_at_start, sizeof r->seen_at_start);
    /* Make a different failure here while the main thread keeps its own. */
    hipdnnBackendDescriptor_t d = NULL;
    (void)hipdnnBackendCreateDescriptor((hipdnnBackendDescriptorType_t)999, &d);
    pthread_barrier_wait(r->barrier); /* main thread checks its message now */
    pthread_barrier_wait(r->barrier); /* main thread has cleared its message */
    hipdnnGetLastErrorString(r->own, sizeof r->own);
    return NULL;
}

static void check_threads(void) {
    tu_clear_last_error();
    provoke();
    char mine[HIPDNN_ERROR_STRING_MAX_LENGTH];
    hipdnnPeekLastErrorString_ext(mine, sizeof mine);

    pthread_barrier_t barrier;
    pthread_barrier_init(&barrier, NULL, 2);
    struct thread_result r;
    memset(&r, 0, sizeof r);
    r.barrier = &barrier;
    pthread_t t;
    CHECK(pthread_create(&t, NULL, other_thread, &r) == 0);
    pthread_barrier_wait(&barrier);
    char now[HIPDNN_ERROR_STRING_MAX_LENGTH];
    hipdnnPeekLastErrorString_ext(now, sizeof now);
    CHECK_STREQ(now, mine); /* the other thread's failure did not land here */
    tu_clear_last_error(); /* clearing here does not clear the other thread's */
    pthread_barrier_wait(&barrier);
    pthread_join(t, NULL);
    pthread_barrier_destroy(&barrier);

    CHECK_STREQ(r.seen_at_start, "");
    CHECK(strstr(r.own, "999") != NULL);
    CHECK(strstr(r.own, "hipdnnCreate") == NULL);
    hipdnnPeekLastErrorString_ext(now, sizeof now);
    CHECK_STREQ(now, "");
}

int main(void) {
    check_status_strings();
    check_get_and_peek();
    check_truncation();
    check_null_buffers();
    check_success_keeps_message();
    check_threads();
    return check_finish("test_errors");
}
