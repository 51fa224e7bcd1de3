/* HIPDNN_LOG_FILE and HIPDNN_LOG_LEVEL (conformance checklist item 76, spec §6): set before the
 * library's first log call, the level comes from the environment (trimmed, any case) and the
 * lines are appended to the file, which is not truncated. */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"

static char* slurp(const char* path) {
    FILE* f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char* buf = malloc(cap + 1);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap + 1);
        }
    }
    fclose(f);
    buf[n] = '\0';
    return buf;
}

int main(void) {
    char path[] = "/tmp/hipdnn_test_log_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    const char* first = "a line that was here before\n";
    CHECK(write(fd, first, strlen(first)) == (ssize_t)strlen(first));
    close(fd);
    CHECK(setenv("HIPDNN_LOG_FILE", path, 1) == 0);
    CHECK(setenv("HIPDNN_LOG_LEVEL", "  Info ", 1) == 0);

    /* The first call into the library's logging. */
    hipdnnSeverity_t lvl = HIPDNN_SEV_OFF;
    CHECK_OK(hipdnnBackendGetGlobalLogLevel_ext(&lvl));
    CHECK_EQ_INT(lvl, HIPDNN_SEV_INFO);
    hipdnnHandle_t h = NULL;
    CHECK_OK(hipdnnCreate(&h));
    CHECK_OK(hipdnnDestroy(h));
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, hipdnnCreate(NULL));
    hipdnnLoggingCallback_ext(HIPDNN_SEV_WARN, "[test] marker line for the log file");

    /* The file may be written by a worker thread: wait up to 3 s. */
    char* text = NULL;
    for (int i = 0; i < 300; i++) {
        free(text);
        text = slurp(path);
        if (text && strstr(text, "marker line for the log file") && strstr(text, "API success: [hipdnnCreate]"))
            break;
        struct timespec ts = {0, 10000000L};
        nanosleep(&ts, NULL);
    }
    CHECK(text != NULL);
    if (text) {
        CHECK(strncmp(text, first, strlen(first)) == 0); /* appended, not truncated */
        const char* ok = strstr(text, "] [info] [hipdnn_backend] API success: [hipdnnCreate]");
        CHECK(ok != NULL);
        CHECK(strstr(text, "] [error] [hipdnn_backend] ") != NULL);
        CHECK(strstr(text, "] [warn] [test] marker line for the log file\n") != NULL);
        /* Every line after the first starts with a timestamp. */
        int lines = 0, bad = 0;
        for (const char* p = text + strlen(first); *p; lines++) {
            if (!(p[0] == '[' && p[1] >= '0' && p[1] <= '9' && p[5] == '-'))
                bad++;
            const char* nl = strchr(p, '\n');
            if (!nl)
                break;
            p = nl + 1;
        }
        CHECK(lines >= 3);
        CHECK_EQ_INT(bad, 0);
    }
    free(text);

    /* With the level set to OFF nothing more is written. */
    CHECK_OK(hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_OFF));
    char* before = slurp(path);
    hipdnnLoggingCallback_ext(HIPDNN_SEV_FATAL, "[test] must not appear");
    CHECK_OK(hipdnnCreate(&h));
    CHECK_OK(hipdnnDestroy(h));
    struct timespec ts = {0, 200000000L};
    nanosleep(&ts, NULL);
    char* after = slurp(path);
    CHECK(before && after && strcmp(before, after) == 0);
    free(before);
    free(after);
    unlink(path);
    tu_clear_last_error();
    return check_finish("test_logging_file");
}
