// shim.h declares the C side of package hip: a table of entry points resolved with dlsym, and
// one small trampoline per runtime call, because Go cannot call a C function pointer.
//
// Nothing here is exported from the final library: every function is hidden and carries the
// hd_hip_ prefix. No HIP or CUDA header is included; the few types the calls use are
// spelled out below with the header they mirror, so the package builds on machines without
// any GPU stack.
#ifndef HIPDNN_HIP_SHIM_H
#define HIPDNN_HIP_SHIM_H

#include <stddef.h>
#include <stdint.h>

#define HIPDNN_HIP_HIDDEN __attribute__((visibility("hidden")))

// Runtime families; the values equal the Go constants KindAMD and KindCUDA.
enum {
    HIPDNN_HIP_KIND_AMD = 1,
    HIPDNN_HIP_KIND_CUDA = 2,
};

// Slots of the entry-point table. The Go side lists, per runtime family, which symbol fills
// each slot (hipMalloc or cudaMalloc, ...), which slots are optional, and which come from the
// CUDA driver library instead of the runtime library.
enum {
    // Runtime calls present in both families.
    HIPDNN_HIP_GET_DEVICE_COUNT,
    HIPDNN_HIP_GET_DEVICE,
    HIPDNN_HIP_DEVICE_GET_ATTRIBUTE,
    HIPDNN_HIP_STREAM_GET_DEVICE, // optional: CUDA >= 12.8, recent ROCm
    HIPDNN_HIP_STREAM_SYNCHRONIZE,
    HIPDNN_HIP_POINTER_GET_ATTRIBUTES,
    HIPDNN_HIP_MALLOC,
    HIPDNN_HIP_FREE,
    HIPDNN_HIP_MEMCPY,
    HIPDNN_HIP_DEVICE_SYNCHRONIZE,
    HIPDNN_HIP_EVENT_CREATE,
    HIPDNN_HIP_EVENT_RECORD,
    HIPDNN_HIP_EVENT_SYNCHRONIZE,
    HIPDNN_HIP_EVENT_ELAPSED_TIME,
    HIPDNN_HIP_EVENT_DESTROY,
    HIPDNN_HIP_GET_ERROR_NAME,
    HIPDNN_HIP_GET_ERROR_STRING,
    HIPDNN_HIP_GET_LAST_ERROR,
    HIPDNN_HIP_RUNTIME_GET_VERSION,
    // AMD only.
    HIPDNN_HIP_AMD_DEVICE_GET_NAME,
    HIPDNN_HIP_AMD_DEVICE_TOTAL_MEM,
    HIPDNN_HIP_AMD_PROPS_R0600, // optional: hipGetDevicePropertiesR0600 (ROCm >= 6)
    HIPDNN_HIP_AMD_PROPS_R0000, // optional: the ROCm 5 layout
    // CUDA driver (libcuda.so.1), used for the name and memory size: no struct layouts involved.
    HIPDNN_HIP_CU_INIT,
    HIPDNN_HIP_CU_DEVICE_GET,
    HIPDNN_HIP_CU_DEVICE_GET_NAME,
    HIPDNN_HIP_CU_DEVICE_TOTAL_MEM,
    HIPDNN_HIP_CU_GET_ERROR_NAME,
    HIPDNN_HIP_CU_GET_ERROR_STRING,

    HIPDNN_HIP_SLOT_COUNT
};

// hd_hip_api is the resolved table. It is filled once at load, then only read, so any
// thread may use it without a lock. An optional slot that was not found is NULL.
typedef struct hd_hip_api {
    int kind;
    void* fn[HIPDNN_HIP_SLOT_COUNT];
} hd_hip_api;

// hd_hip_props is what DeviceProperties needs, gathered by one C call.
typedef struct hd_hip_props {
    char name[256];
    char arch[256]; // AMD: gcnArchName when it could be read safely, else empty
    size_t total_mem;
    int multiprocessor_count;
    int clock_khz;
    int major;
    int minor;
    int failed_slot; // slot of the call that failed, -1 when all succeeded
    int failed_attr; // the attribute asked for, when failed_slot is DEVICE_GET_ATTRIBUTE
} hd_hip_props;

// The entry-point table (table.c), filled with internal/dl's dlsym.

HIPDNN_HIP_HIDDEN hd_hip_api* hd_hip_api_new(int kind);
HIPDNN_HIP_HIDDEN void hd_hip_api_free(hd_hip_api* api);
HIPDNN_HIP_HIDDEN void hd_hip_api_set(hd_hip_api* api, int slot, void* fn);

// Error text for a code returned by the call in slot (runtime or driver error space).
HIPDNN_HIP_HIDDEN void hd_hip_error_text(const hd_hip_api* api, int slot, int code, const char** name, const char** msg);

// Trampolines. Each returns the runtime's error code (0 is success). After a failure each
// clears the runtime's last-error slot, so a later hipGetLastError in an engine plugin does
// not report an error that this layer already returned to its caller.
HIPDNN_HIP_HIDDEN int hd_hip_get_device_count(const hd_hip_api* api, int* count);
HIPDNN_HIP_HIDDEN int hd_hip_get_device(const hd_hip_api* api, int* device);
HIPDNN_HIP_HIDDEN int hd_hip_runtime_version(const hd_hip_api* api, int* version);
HIPDNN_HIP_HIDDEN int hd_hip_stream_get_device(const hd_hip_api* api, uintptr_t stream, int* device);
HIPDNN_HIP_HIDDEN int hd_hip_stream_synchronize(const hd_hip_api* api, uintptr_t stream);
HIPDNN_HIP_HIDDEN int hd_hip_pointer_attributes(const hd_hip_api* api, const void* p, int* type, int* is_managed, int* device);
HIPDNN_HIP_HIDDEN int hd_hip_malloc(const hd_hip_api* api, void** p, size_t n);
HIPDNN_HIP_HIDDEN int hd_hip_free(const hd_hip_api* api, void* p);
HIPDNN_HIP_HIDDEN int hd_hip_memcpy(const hd_hip_api* api, void* dst, const void* src, size_t n, int kind);
HIPDNN_HIP_HIDDEN int hd_hip_device_synchronize(const hd_hip_api* api);
HIPDNN_HIP_HIDDEN int hd_hip_event_create(const hd_hip_api* api, void** event);
HIPDNN_HIP_HIDDEN int hd_hip_event_record(const hd_hip_api* api, void* event, uintptr_t stream);
HIPDNN_HIP_HIDDEN int hd_hip_event_synchronize(const hd_hip_api* api, void* event);
HIPDNN_HIP_HIDDEN int hd_hip_event_elapsed_time(const hd_hip_api* api, float* ms, void* start, void* stop);
HIPDNN_HIP_HIDDEN int hd_hip_event_destroy(const hd_hip_api* api, void* event);

// hd_hip_device_props fills out for one device; on failure it returns the code and sets
// out->failed_slot (and failed_attr).
HIPDNN_HIP_HIDDEN int hd_hip_device_props(const hd_hip_api* api, int device, hd_hip_props* out);

// hd_hip_amd_arch_from_props finds gcnArchName in a hipDeviceProp_t image of size n,
// first at the offset its layout puts it, then by a scan; it writes "" when neither finds a
// plausible "gfx..." name. Exposed for tests through the Go side.
HIPDNN_HIP_HIDDEN void hd_hip_amd_arch_from_props(const unsigned char* props, size_t n, size_t offset, char* out, size_t outlen);

#endif // HIPDNN_HIP_SHIM_H
