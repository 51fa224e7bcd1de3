// Trampoline for user log callbacks (Go cannot call a C function pointer). A callback that
// throws must not take the library down: the exception stops here.
#include "boundary.h"

#include <hipdnn_backend.h>

extern "C" void hipdnn_capi_call_user_log(uintptr_t callback, uintptr_t user_handle, int severity, const char* msg) {
    auto fn = reinterpret_cast<hipdnnUserLogCallback_t>(callback);
    try {
        fn(reinterpret_cast<hipdnnUserLogCallbackHandle_t>(user_handle), static_cast<hipdnnSeverity_t>(severity), msg);
    } catch (...) {
    }
}
