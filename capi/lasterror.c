/* The per-thread last-error buffer (HIPDNN_ERROR_STRING_MAX_LENGTH bytes including the NUL).
 * Kept in C thread-local storage rather than a Go map: a C thread calling in is an OS thread,
 * and that is the identity hipDNN's contract is about. */
#include <string.h>

#include <hipdnn_backend.h>

#include "boundary.h"

static __thread char last_error[HIPDNN_ERROR_STRING_MAX_LENGTH];
static __thread size_t last_error_len;

void hipdnn_capi_set_last_error(const char* msg, size_t len) {
    if (len > HIPDNN_ERROR_STRING_MAX_LENGTH - 1) {
        len = HIPDNN_ERROR_STRING_MAX_LENGTH - 1;
    }
    memcpy(last_error, msg, len);
    last_error[len] = '\0';
    last_error_len = len;
}

void hipdnn_capi_copy_last_error(char* out, size_t max, int clear) {
    size_t n = last_error_len < max - 1 ? last_error_len : max - 1;
    memcpy(out, last_error, n);
    out[n] = '\0';
    if (clear) {
        last_error[0] = '\0';
        last_error_len = 0;
    }
}
