/* C side of the cgo boundary: the calling thread's last error and the trampolines Go needs
 * to call C function pointers. Everything here is hidden by the linker version script. */
#ifndef HIPDNN_CAPI_BOUNDARY_H
#define HIPDNN_CAPI_BOUNDARY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Last error, stored in C thread-local storage so it follows the OS thread that called in. */
void hipdnn_capi_set_last_error(const char* msg, size_t len);
void hipdnn_capi_copy_last_error(char* out, size_t max, int clear);

/* Calls a hipdnnUserLogCallback_t; a C++ exception it throws is swallowed here, before it
 * could unwind into Go frames. */
void hipdnn_capi_call_user_log(uintptr_t callback, uintptr_t user_handle, int severity, const char* msg);

#ifdef __cplusplus
}
#endif
#endif
