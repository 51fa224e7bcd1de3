/* check.h - the one assertion core of the project's tests (C99 and C++), free of the backend so
 * that plugin tests which never load it can use it too.
 *
 * CHECK keeps going after a failure, so one run shows every failure; it prints file:line, the
 * case being run (check_context, when a test sets it) and the expression, and counts checks and
 * failures. check_finish turns the count into the exit status. tests/c/testutil.h adds the
 * backend-aware checks (statuses, last-error messages) on top of this. */
#ifndef HIPDNN_TESTS_COMMON_CHECK_H
#define HIPDNN_TESTS_COMMON_CHECK_H

#include <stdio.h>

/* One counter per test program (every test is one executable). */
static int check_failures __attribute__((unused)) = 0;
static int check_count __attribute__((unused)) = 0;
/* The case being run, named in failure messages; NULL for none. */
static const char* check_context __attribute__((unused)) = NULL;

#define CHECK_FAIL(...)                                                    \
    do {                                                                   \
        fprintf(stderr, "%s:%d: FAIL: ", __FILE__, __LINE__);              \
        if (check_context != NULL) fprintf(stderr, "[%s] ", check_context); \
        fprintf(stderr, __VA_ARGS__);                                      \
        fputc('\n', stderr);                                               \
        check_failures++;                                                  \
    } while (0)

#define CHECK(cond)                   \
    do {                              \
        check_count++;                \
        if (!(cond))                  \
            CHECK_FAIL("%s", #cond);  \
    } while (0)

/* CHECK_MSG(cond, fmt, ...): CHECK with a message that says what was expected. */
#define CHECK_MSG(cond, ...)        \
    do {                            \
        check_count++;              \
        if (!(cond))                \
            CHECK_FAIL(__VA_ARGS__); \
    } while (0)

/* check_finish reports the counts under `name` and returns the exit status. */
static inline int check_finish(const char* name) {
    if (check_failures) {
        fprintf(stderr, "%s: %d of %d checks failed\n", name, check_failures, check_count);
        return 1;
    }
    printf("%s: all %d checks passed\n", name, check_count);
    return 0;
}

#endif
