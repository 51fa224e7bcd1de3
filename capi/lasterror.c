/* The per-thread last-error string. hipDNN's contract is per OS thread (a C thread calling in),
 * so it lives in C, keyed by a pthread key, not in a Go map. The buffer is allocated on the
 * thread's first error and freed when the thread exits.
 *
 * No __thread storage here: a library that is dlopened after start-up gets its static TLS from
 * glibc's small surplus, which a 2 KiB buffer exhausts ("cannot allocate memory in static TLS
 * block"). tests/c/test_tls_size checks the library's TLS segment stays small. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <hipdnn_backend.h>

#include "boundary.h"

typedef struct {
    size_t len;
    char text[HIPDNN_ERROR_STRING_MAX_LENGTH];
} last_error_t;

static pthread_key_t last_error_key;
static pthread_once_t last_error_once = PTHREAD_ONCE_INIT;
static int last_error_key_ok;

static void last_error_make_key(void) { last_error_key_ok = pthread_key_create(&last_error_key, free) == 0; }

/* The calling thread's buffer, allocated when create is set; NULL when there is none. */
static last_error_t* last_error_slot(int create) {
    pthread_once(&last_error_once, last_error_make_key);
    if (!last_error_key_ok) {
        return NULL;
    }
    last_error_t* e = pthread_getspecific(last_error_key);
    if (e == NULL && create) {
        e = calloc(1, sizeof *e);
        if (e != NULL && pthread_setspecific(last_error_key, e) != 0) {
            free(e);
            e = NULL;
        }
    }
    return e;
}

void hipdnn_capi_set_last_error(const char* msg, size_t len) {
    last_error_t* e = last_error_slot(len > 0);
    if (e == NULL) {
        return; /* clearing a thread that never had an error, or out of memory */
    }
    if (len > HIPDNN_ERROR_STRING_MAX_LENGTH - 1) {
        len = HIPDNN_ERROR_STRING_MAX_LENGTH - 1;
    }
    memcpy(e->text, msg, len);
    e->text[len] = '\0';
    e->len = len;
}

void hipdnn_capi_copy_last_error(char* out, size_t max, int clear) {
    last_error_t* e = last_error_slot(0);
    size_t n = 0;
    if (e != NULL) {
        n = e->len < max - 1 ? e->len : max - 1;
        memcpy(out, e->text, n);
        if (clear) {
            e->text[0] = '\0';
            e->len = 0;
        }
    }
    out[n] = '\0';
}
