//go:build cgo

// calls.c: one trampoline per runtime call. HIP and the CUDA runtime share every signature
// used here (hipError_t and cudaError_t are both int-sized enums, streams and events are
// opaque pointers), so one trampoline serves both families; only the table differs.
#include <string.h>

#include "shim.h"

typedef int (*int_ptr_fn)(int*);
typedef int (*void_fn)(void);
typedef int (*ptr_fn)(void*);
typedef const char* (*error_text_fn)(int);
typedef int (*cu_error_text_fn)(int, const char**);

// failed clears the runtime's last error after a failed call and passes the code through.
static int failed(const hd_hip_api* api, int err) {
    if (err != 0 && api->fn[HIPDNN_HIP_GET_LAST_ERROR] != NULL) {
        ((void_fn)api->fn[HIPDNN_HIP_GET_LAST_ERROR])();
    }
    return err;
}

static int is_driver_slot(int slot) { return slot >= HIPDNN_HIP_CU_INIT && slot <= HIPDNN_HIP_CU_GET_ERROR_STRING; }

void hd_hip_error_text(const hd_hip_api* api, int slot, int code, const char** name, const char** msg) {
    *name = NULL;
    *msg = NULL;
    if (is_driver_slot(slot)) {
        if (api->fn[HIPDNN_HIP_CU_GET_ERROR_NAME] != NULL) {
            ((cu_error_text_fn)api->fn[HIPDNN_HIP_CU_GET_ERROR_NAME])(code, name);
        }
        if (api->fn[HIPDNN_HIP_CU_GET_ERROR_STRING] != NULL) {
            ((cu_error_text_fn)api->fn[HIPDNN_HIP_CU_GET_ERROR_STRING])(code, msg);
        }
        return;
    }
    *name = ((error_text_fn)api->fn[HIPDNN_HIP_GET_ERROR_NAME])(code);
    *msg = ((error_text_fn)api->fn[HIPDNN_HIP_GET_ERROR_STRING])(code);
}

int hd_hip_get_device_count(const hd_hip_api* api, int* count) {
    *count = 0;
    return failed(api, ((int_ptr_fn)api->fn[HIPDNN_HIP_GET_DEVICE_COUNT])(count));
}

int hd_hip_get_device(const hd_hip_api* api, int* device) {
    return failed(api, ((int_ptr_fn)api->fn[HIPDNN_HIP_GET_DEVICE])(device));
}

int hd_hip_runtime_version(const hd_hip_api* api, int* version) {
    *version = 0;
    return failed(api, ((int_ptr_fn)api->fn[HIPDNN_HIP_RUNTIME_GET_VERSION])(version));
}

int hd_hip_stream_get_device(const hd_hip_api* api, uintptr_t stream, int* device) {
    typedef int (*fn)(void*, int*);
    return failed(api, ((fn)api->fn[HIPDNN_HIP_STREAM_GET_DEVICE])((void*)stream, device));
}

int hd_hip_stream_synchronize(const hd_hip_api* api, uintptr_t stream) {
    return failed(api, ((ptr_fn)api->fn[HIPDNN_HIP_STREAM_SYNCHRONIZE])((void*)stream));
}

// Both attribute structs begin {int type; int device; void *devicePointer; void *hostPointer;}
// (cudaPointerAttributes since CUDA 11; hipPointerAttribute_t in ROCm 5 and later, where the
// first field was named memoryType before ROCm 6). hipPointerAttribute_t adds isManaged.
// The union leaves room to spare so that a runtime writing a larger struct cannot overrun it.
typedef struct pointer_attributes {
    int type;
    int device;
    void* device_pointer;
    void* host_pointer;
    int is_managed; // HIP only
    unsigned allocation_flags;
} pointer_attributes;

int hd_hip_pointer_attributes(const hd_hip_api* api, const void* p, int* type, int* is_managed, int* device) {
    typedef int (*fn)(void*, const void*);
    union {
        pointer_attributes attr;
        unsigned char room[256];
    } u;
    memset(&u, 0, sizeof u);
    int err = ((fn)api->fn[HIPDNN_HIP_POINTER_GET_ATTRIBUTES])(&u.attr, p);
    *type = u.attr.type;
    *device = u.attr.device;
    *is_managed = api->kind == HIPDNN_HIP_KIND_AMD ? u.attr.is_managed : 0;
    return failed(api, err);
}

int hd_hip_malloc(const hd_hip_api* api, void** p, size_t n) {
    typedef int (*fn)(void**, size_t);
    *p = NULL;
    return failed(api, ((fn)api->fn[HIPDNN_HIP_MALLOC])(p, n));
}

int hd_hip_free(const hd_hip_api* api, void* p) { return failed(api, ((ptr_fn)api->fn[HIPDNN_HIP_FREE])(p)); }

// kind is hipMemcpyKind / cudaMemcpyKind: 1 host to device, 2 device to host in both.
int hd_hip_memcpy(const hd_hip_api* api, void* dst, const void* src, size_t n, int kind) {
    typedef int (*fn)(void*, const void*, size_t, int);
    return failed(api, ((fn)api->fn[HIPDNN_HIP_MEMCPY])(dst, src, n, kind));
}

int hd_hip_device_synchronize(const hd_hip_api* api) { return failed(api, ((void_fn)api->fn[HIPDNN_HIP_DEVICE_SYNCHRONIZE])()); }

int hd_hip_event_create(const hd_hip_api* api, void** event) {
    typedef int (*fn)(void**);
    *event = NULL;
    return failed(api, ((fn)api->fn[HIPDNN_HIP_EVENT_CREATE])(event));
}

int hd_hip_event_record(const hd_hip_api* api, void* event, uintptr_t stream) {
    typedef int (*fn)(void*, void*);
    return failed(api, ((fn)api->fn[HIPDNN_HIP_EVENT_RECORD])(event, (void*)stream));
}

int hd_hip_event_synchronize(const hd_hip_api* api, void* event) {
    return failed(api, ((ptr_fn)api->fn[HIPDNN_HIP_EVENT_SYNCHRONIZE])(event));
}

int hd_hip_event_elapsed_time(const hd_hip_api* api, float* ms, void* start, void* stop) {
    typedef int (*fn)(float*, void*, void*);
    *ms = 0;
    return failed(api, ((fn)api->fn[HIPDNN_HIP_EVENT_ELAPSED_TIME])(ms, start, stop));
}

int hd_hip_event_destroy(const hd_hip_api* api, void* event) {
    return failed(api, ((ptr_fn)api->fn[HIPDNN_HIP_EVENT_DESTROY])(event));
}
