/* The one call capi makes into the engines' C code: hipdnnBackendExecute's C fast path.
 * capi owns this contract; internal/engines/hd_fast.c implements it. Whether a (plan, pack)
 * pair may be served here is decided in Go alone (internal/engines/pack_check.go): C only
 * looks the pair up and calls the plugin. */
#ifndef HIPDNN_CAPI_FAST_EXECUTE_H
#define HIPDNN_CAPI_FAST_EXECUTE_H

#include <stdint.h>

enum { HD_FAST_NOT_HANDLED = 0, HD_FAST_DONE = 1, HD_FAST_PLUGIN_FAILED = 2 };

/* HD_FAST_DONE, HD_FAST_NOT_HANDLED (the Go path must serve the call) or HD_FAST_PLUGIN_FAILED
 * with the plugin's status and its malloc'd last error (may be NULL). */
int hd_fast_execute(uintptr_t handle, uintptr_t plan, uintptr_t pack, int* plugin_status, char** plugin_error);

#endif /* HIPDNN_CAPI_FAST_EXECUTE_H */
