// fakert.c is a stand-in GPU runtime for tests on machines without one. Built with -DFAKE_AMD
// it exports the hip* calls package hip resolves; with -DFAKE_CUDA the cuda* calls and the
// cu* driver calls. It keeps a last-error slot like the real runtimes, and DeviceSynchronize
// reports whatever is left in it, so a test can see whether the layer cleared an error.
//
// Options: FAKE_MAJOR (runtime major version), FAKE_DEVICES (device count),
// FAKE_NO_STREAM_GET_DEVICE, FAKE_ARCH_OFFSET (where gcnArchName is written),
// FAKE_NO_ARCH (write no arch name), FAKE_VERSION_FAILS.
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(FAKE_CUDA)
#define P(x) cuda##x
#define FAKE_PREFIX "cuda"
#ifndef FAKE_MAJOR
#define FAKE_MAJOR 13
#endif
#else
#define P(x) hip##x
#define FAKE_PREFIX "hip"
#ifndef FAKE_MAJOR
#define FAKE_MAJOR 6
#endif
#endif

#ifndef FAKE_DEVICES
#define FAKE_DEVICES 2
#endif

enum {
    E_INVALID_VALUE = 1,
    E_OUT_OF_MEMORY = 2,
    E_NO_DEVICE = 100,
    E_INVALID_DEVICE = 101,
    E_INVALID_HANDLE = 400,
    E_NOT_READY = 600,
};

static int last_error;
static __thread int current_device;

static int set_error(int e) {
    if (e != 0) {
        last_error = e;
    }
    return e;
}

int P(GetLastError)(void) {
    int e = last_error;
    last_error = 0;
    return e;
}

static const char* error_name(int e) {
    switch (e) {
    case 0: return FAKE_PREFIX "Success";
    case E_INVALID_VALUE: return FAKE_PREFIX "ErrorInvalidValue";
    case E_OUT_OF_MEMORY: return FAKE_PREFIX "ErrorOutOfMemory";
    case E_NO_DEVICE: return FAKE_PREFIX "ErrorNoDevice";
    case E_INVALID_DEVICE: return FAKE_PREFIX "ErrorInvalidDevice";
    case E_INVALID_HANDLE: return FAKE_PREFIX "ErrorInvalidResourceHandle";
    case E_NOT_READY: return FAKE_PREFIX "ErrorNotReady";
    }
    return FAKE_PREFIX "ErrorUnknown";
}

static const char* error_string(int e) {
    switch (e) {
    case 0: return "no error";
    case E_INVALID_VALUE: return "invalid argument";
    case E_OUT_OF_MEMORY: return "out of memory";
    case E_NO_DEVICE: return "no device";
    case E_INVALID_DEVICE: return "invalid device ordinal";
    case E_INVALID_HANDLE: return "invalid resource handle";
    case E_NOT_READY: return "device not ready";
    }
    return "unknown error";
}

const char* P(GetErrorName)(int e) { return error_name(e); }
const char* P(GetErrorString)(int e) { return error_string(e); }

int P(RuntimeGetVersion)(int* v) {
#ifdef FAKE_VERSION_FAILS
    return set_error(E_NO_DEVICE);
#elif defined(FAKE_CUDA)
    *v = FAKE_MAJOR * 1000;
    return 0;
#else
    *v = FAKE_MAJOR * 10000000 + 2 * 100000 + 123;
    return 0;
#endif
}

int P(GetDeviceCount)(int* n) {
    *n = FAKE_DEVICES;
    return FAKE_DEVICES == 0 ? set_error(E_NO_DEVICE) : 0;
}

int P(GetDevice)(int* d) {
    *d = current_device;
    return 0;
}

static int valid_device(int d) { return d >= 0 && d < FAKE_DEVICES; }

int P(DeviceGetAttribute)(int* v, int attr, int d) {
    if (!valid_device(d)) {
        return set_error(E_INVALID_DEVICE);
    }
    switch (attr) {
#if defined(FAKE_CUDA)
    case 16: *v = 132; return 0; // cudaDevAttrMultiProcessorCount
    case 13: *v = 1980000; return 0; // cudaDevAttrClockRate
    case 75: *v = 9; return 0; // cudaDevAttrComputeCapabilityMajor
    case 76: *v = 0; return 0; // cudaDevAttrComputeCapabilityMinor
#else
    case 63: *v = 304; return 0; // hipDeviceAttributeMultiprocessorCount
    case 5: *v = 2100000; return 0; // hipDeviceAttributeClockRate
    case 23: *v = 9; return 0; // hipDeviceAttributeComputeCapabilityMajor
    case 61: *v = 4; return 0; // hipDeviceAttributeComputeCapabilityMinor
#endif
    }
    return set_error(E_INVALID_VALUE);
}

#ifndef FAKE_NO_STREAM_GET_DEVICE
// A stream that is not the default one pretends to belong to device 1.
int P(StreamGetDevice)(void* stream, int* d) {
    *d = stream == NULL ? current_device : 1;
    return 0;
}
#endif

int P(StreamSynchronize)(void* stream) {
    (void)stream;
    return 0;
}

int P(DeviceSynchronize)(void) { return last_error; }

// Allocations are remembered so that pointer queries can tell device memory from host
// memory. Some sizes pretend to be other kinds: 4099 bytes managed memory, 4097 bytes pinned
// host memory, 4098 bytes device memory of device 1.
enum { MAX_ALLOCS = 64, MANAGED_SIZE = 4099, PINNED_SIZE = 4097, DEVICE1_SIZE = 4098 };
static struct {
    void* p;
    int managed, pinned, device;
} allocs[MAX_ALLOCS];

static int find(const void* p) {
    for (int i = 0; i < MAX_ALLOCS; i++) {
        if (p != NULL && allocs[i].p == p) {
            return i;
        }
    }
    return -1;
}

int P(Malloc)(void** p, size_t n) {
    if (n > ((size_t)1 << 40)) {
        return set_error(E_OUT_OF_MEMORY);
    }
    for (int i = 0; i < MAX_ALLOCS; i++) {
        if (allocs[i].p == NULL) {
            allocs[i].p = malloc(n ? n : 1);
            allocs[i].managed = n == MANAGED_SIZE;
            allocs[i].pinned = n == PINNED_SIZE;
            allocs[i].device = n == DEVICE1_SIZE ? 1 : 0;
            *p = allocs[i].p;
            return 0;
        }
    }
    return set_error(E_OUT_OF_MEMORY);
}

int P(Free)(void* p) {
    if (p == NULL) {
        return 0;
    }
    int i = find(p);
    if (i < 0) {
        return set_error(E_INVALID_VALUE);
    }
    free(allocs[i].p);
    allocs[i].p = NULL;
    return 0;
}

int P(Memcpy)(void* dst, const void* src, size_t n, int kind) {
    if ((kind == 1 && find(dst) < 0) || (kind == 2 && find(src) < 0) || kind < 1 || kind > 2) {
        return set_error(E_INVALID_VALUE);
    }
    memcpy(dst, src, n);
    return 0;
}

struct attrs {
    int type;
    int device;
    void* device_pointer;
    void* host_pointer;
    int is_managed; // HIP only: CUDA's struct ends before it
    unsigned flags;
};

int P(PointerGetAttributes)(void* out, const void* p) {
    if (FAKE_DEVICES == 0) {
        return set_error(E_NO_DEVICE); // as ROCm 5.7 answers on a machine without an AMD GPU
    }
    struct attrs a;
    memset(&a, 0, sizeof a);
    int i = find(p);
    if (i < 0) {
#if !defined(FAKE_CUDA) && FAKE_MAJOR < 6
        return set_error(E_INVALID_VALUE); // ROCm 5: unknown pointers are an error
#else
        a.type = 0; // unregistered
#endif
    } else if (allocs[i].pinned) {
        a.host_pointer = allocs[i].p;
#if !defined(FAKE_CUDA) && FAKE_MAJOR < 6
        a.type = 0; // hipMemoryTypeHost before ROCm 6
#else
        a.type = 1; // registered host memory
#endif
    } else {
        a.device = allocs[i].device;
        a.device_pointer = allocs[i].p;
#if defined(FAKE_CUDA)
        a.type = allocs[i].managed ? 3 : 2;
#elif FAKE_MAJOR < 6
        a.type = 1; // hipMemoryTypeDevice before ROCm 6
        a.is_managed = allocs[i].managed;
#else
        a.type = allocs[i].managed ? 3 : 2;
        a.is_managed = allocs[i].managed;
#endif
    }
#if defined(FAKE_CUDA)
    memcpy(out, &a, offsetof(struct attrs, is_managed));
#else
    memcpy(out, &a, sizeof a);
#endif
    return 0;
}

struct event {
    int recorded;
    float t;
};
static float clock_ms;

int P(EventCreate)(void** e) {
    *e = calloc(1, sizeof(struct event));
    return 0;
}

int P(EventRecord)(void* e, void* stream) {
    (void)stream;
    if (e == NULL) {
        return set_error(E_INVALID_HANDLE);
    }
    clock_ms += 1.5f;
    ((struct event*)e)->recorded = 1;
    ((struct event*)e)->t = clock_ms;
    return 0;
}

int P(EventSynchronize)(void* e) { return e == NULL ? set_error(E_INVALID_HANDLE) : 0; }

int P(EventElapsedTime)(float* ms, void* a, void* b) {
    if (a == NULL || b == NULL) {
        return set_error(E_INVALID_HANDLE);
    }
    struct event *x = a, *y = b;
    if (!x->recorded || !y->recorded) {
        return set_error(E_NOT_READY);
    }
    *ms = y->t - x->t;
    return 0;
}

int P(EventDestroy)(void* e) {
    if (e == NULL) {
        return set_error(E_INVALID_HANDLE);
    }
    free(e);
    return 0;
}

#if defined(FAKE_CUDA)
// The driver calls, in the same library so that one file serves as libcudart and libcuda.
int cuInit(unsigned flags) { return flags == 0 ? 0 : 1; }
int cuDeviceGet(int* d, int ordinal) {
    if (!valid_device(ordinal)) {
        return 101; // CUDA_ERROR_INVALID_DEVICE
    }
    *d = ordinal;
    return 0;
}
int cuDeviceGetName(char* name, int len, int d) {
    snprintf(name, (size_t)len, "Fake NVIDIA H200 #%d", d);
    return 0;
}
int cuDeviceTotalMem_v2(size_t* bytes, int d) {
    (void)d;
    *bytes = (size_t)141 << 30;
    return 0;
}
int cuGetErrorName(int e, const char** s) {
    *s = e == 101 ? "CUDA_ERROR_INVALID_DEVICE" : "CUDA_ERROR_UNKNOWN";
    return 0;
}
int cuGetErrorString(int e, const char** s) {
    *s = e == 101 ? "invalid device ordinal" : "unknown error";
    return 0;
}
#else
int hipDeviceGetName(char* name, int len, int d) {
    if (!valid_device(d)) {
        return set_error(E_INVALID_DEVICE);
    }
    snprintf(name, (size_t)len, "Fake AMD Instinct #%d", d);
    return 0;
}

int hipDeviceTotalMem(size_t* bytes, int d) {
    if (!valid_device(d)) {
        return set_error(E_INVALID_DEVICE);
    }
    *bytes = (size_t)192 << 30;
    return 0;
}

#if FAKE_MAJOR >= 6
#define PROPS_FN hipGetDevicePropertiesR0600
#define PROPS_SIZE 1472
#define ARCH_DEFAULT_OFFSET 1160
#define ARCH_NAME "gfx942:sramecc+:xnack-"
#else
#define PROPS_FN hipGetDeviceProperties
#define PROPS_SIZE 792
#define ARCH_DEFAULT_OFFSET 396
#define ARCH_NAME "gfx90a:sramecc+:xnack-"
#endif
#ifndef FAKE_ARCH_OFFSET
#define FAKE_ARCH_OFFSET ARCH_DEFAULT_OFFSET
#endif

int PROPS_FN(void* props, int d) {
    if (!valid_device(d)) {
        return set_error(E_INVALID_DEVICE);
    }
    memset(props, 0, PROPS_SIZE);
    snprintf(props, 256, "Fake AMD Instinct #%d", d);
#ifndef FAKE_NO_ARCH
    strcpy((char*)props + FAKE_ARCH_OFFSET, ARCH_NAME);
#endif
    return 0;
}
#endif
