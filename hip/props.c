//go:build cgo

// props.c: device properties through attribute queries, in one C call.
//
// hipDeviceProp_t and cudaDeviceProp change layout between releases (ROCm 6 introduced
// hipDeviceProp_tR0600; CUDA 12 and 13 added and removed fields), so every number comes from
// hipDeviceGetAttribute / cudaDeviceGetAttribute, whose enum values have stayed put, and the
// strings and the memory size come from calls that fill plain buffers: hipDeviceGetName and
// hipDeviceTotalMem on AMD, cuDeviceGetName and cuDeviceTotalMem_v2 from the CUDA driver on
// NVIDIA. The one struct read left is AMD's gcnArchName, for which no other call exists.
#include <string.h>

#include "shim.h"

// Attribute ids. AMD: hipDeviceAttribute_t, identical in ROCm 5.2 and in current ROCm, which
// keeps retired entries as hipDeviceAttributeUnusedN so that later values never move.
// CUDA: enum cudaDeviceAttr in driver_types.h, unchanged since CUDA 5 and checked on 13.0.
enum { ATTR_MULTIPROCESSORS, ATTR_CLOCK_KHZ, ATTR_MAJOR, ATTR_MINOR, ATTR_COUNT };
static const int amd_attrs[ATTR_COUNT] = {63, 5, 23, 61};
static const int cuda_attrs[ATTR_COUNT] = {16, 13, 75, 76};

// gcnArchName offsets: hipDeviceProp_tR0600 puts it at 1160 (struct size 1472), the ROCm 5
// layout (hipDeviceProp_tR0000) at 396 (struct size 792). Computed with offsetof from the
// published headers.
enum { R0600_ARCH_OFFSET = 1160, R0000_ARCH_OFFSET = 396, NAME_FIELD_SIZE = 256 };

// PROPS_ROOM is the buffer handed to hipGetDeviceProperties*: many times the largest known
// layout, so that even a future, larger struct cannot write past it.
enum { PROPS_ROOM = 16384 };

typedef int (*attr_fn)(int*, int, int);
typedef int (*name_fn)(char*, int, int);
typedef int (*size_fn)(size_t*, int);
typedef int (*props_fn)(void*, int);
typedef int (*void_fn)(void);

static int clear_last(const hd_hip_api* api, int err) {
    if (err != 0 && api->fn[HIPDNN_HIP_GET_LAST_ERROR] != NULL) {
        ((void_fn)api->fn[HIPDNN_HIP_GET_LAST_ERROR])();
    }
    return err;
}

// arch_at reports whether s (at most n bytes) is a NUL-terminated "gfx<digit>..." name made of
// the characters an AMD target id uses (gfx942, gfx90a:sramecc+:xnack-).
static int arch_at(const unsigned char* s, size_t n) {
    if (n < 5 || memcmp(s, "gfx", 3) != 0 || s[3] < '0' || s[3] > '9') {
        return 0;
    }
    for (size_t i = 4; i < n; i++) {
        unsigned char c = s[i];
        if (c == '\0') {
            return 1;
        }
        int ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == ':' || c == '+' || c == '-'
                 || c == '_';
        if (!ok) {
            return 0;
        }
    }
    return 0;
}

void hd_hip_amd_arch_from_props(const unsigned char* props, size_t n, size_t offset, char* out, size_t outlen) {
    if (outlen == 0) {
        return;
    }
    out[0] = '\0';
    size_t found = (size_t)-1;
    if (offset < n && arch_at(props + offset, n - offset < NAME_FIELD_SIZE ? n - offset : NAME_FIELD_SIZE)) {
        found = offset;
    } else {
        // The layout was not the one expected: look for the name past the leading name field.
        for (size_t i = NAME_FIELD_SIZE; i + 5 <= n; i++) {
            size_t room = n - i < NAME_FIELD_SIZE ? n - i : NAME_FIELD_SIZE;
            if (arch_at(props + i, room)) {
                found = i;
                break;
            }
        }
    }
    if (found == (size_t)-1) {
        return;
    }
    strncpy(out, (const char*)props + found, outlen - 1);
    out[outlen - 1] = '\0';
}

// amd_arch is best effort: a failure leaves arch empty and fails nothing else.
static void amd_arch(const hd_hip_api* api, int device, char* arch, size_t len) {
    unsigned char buf[PROPS_ROOM];
    size_t offset;
    void* fn;
    if (api->fn[HIPDNN_HIP_AMD_PROPS_R0600] != NULL) {
        fn = api->fn[HIPDNN_HIP_AMD_PROPS_R0600];
        offset = R0600_ARCH_OFFSET;
    } else if (api->fn[HIPDNN_HIP_AMD_PROPS_R0000] != NULL) {
        fn = api->fn[HIPDNN_HIP_AMD_PROPS_R0000];
        offset = R0000_ARCH_OFFSET;
    } else {
        return;
    }
    memset(buf, 0, sizeof buf);
    if (clear_last(api, ((props_fn)fn)(buf, device)) != 0) {
        return;
    }
    hd_hip_amd_arch_from_props(buf, sizeof buf, offset, arch, len);
}

static int fail(hd_hip_props* out, int slot, int err) {
    out->failed_slot = slot;
    return err;
}

int hd_hip_device_props(const hd_hip_api* api, int device, hd_hip_props* out) {
    memset(out, 0, sizeof *out);
    out->failed_slot = -1;

    const int* attrs = api->kind == HIPDNN_HIP_KIND_AMD ? amd_attrs : cuda_attrs;
    int* dst[ATTR_COUNT] = {&out->multiprocessor_count, &out->clock_khz, &out->major, &out->minor};
    attr_fn get_attr = (attr_fn)api->fn[HIPDNN_HIP_DEVICE_GET_ATTRIBUTE];
    for (int i = 0; i < ATTR_COUNT; i++) {
        int err = get_attr(dst[i], attrs[i], device);
        if (err != 0) {
            out->failed_attr = attrs[i];
            return fail(out, HIPDNN_HIP_DEVICE_GET_ATTRIBUTE, clear_last(api, err));
        }
    }

    int err;
    if (api->kind == HIPDNN_HIP_KIND_AMD) {
        err = ((name_fn)api->fn[HIPDNN_HIP_AMD_DEVICE_GET_NAME])(out->name, sizeof out->name - 1, device);
        if (err != 0) {
            return fail(out, HIPDNN_HIP_AMD_DEVICE_GET_NAME, clear_last(api, err));
        }
        err = ((size_fn)api->fn[HIPDNN_HIP_AMD_DEVICE_TOTAL_MEM])(&out->total_mem, device);
        if (err != 0) {
            return fail(out, HIPDNN_HIP_AMD_DEVICE_TOTAL_MEM, clear_last(api, err));
        }
        amd_arch(api, device, out->arch, sizeof out->arch);
        return 0;
    }

    // CUDA: the runtime's device ordinal is the driver's (both number the devices that
    // CUDA_VISIBLE_DEVICES leaves, in the same order); cuDeviceGet turns it into a CUdevice.
    // Driver errors do not touch the runtime's last error.
    typedef int (*init_fn)(unsigned);
    typedef int (*get_fn)(int*, int);
    int cudev = 0;
    if ((err = ((init_fn)api->fn[HIPDNN_HIP_CU_INIT])(0)) != 0) {
        return fail(out, HIPDNN_HIP_CU_INIT, err);
    }
    if ((err = ((get_fn)api->fn[HIPDNN_HIP_CU_DEVICE_GET])(&cudev, device)) != 0) {
        return fail(out, HIPDNN_HIP_CU_DEVICE_GET, err);
    }
    if ((err = ((name_fn)api->fn[HIPDNN_HIP_CU_DEVICE_GET_NAME])(out->name, sizeof out->name - 1, cudev)) != 0) {
        return fail(out, HIPDNN_HIP_CU_DEVICE_GET_NAME, err);
    }
    if ((err = ((size_fn)api->fn[HIPDNN_HIP_CU_DEVICE_TOTAL_MEM])(&out->total_mem, cudev)) != 0) {
        return fail(out, HIPDNN_HIP_CU_DEVICE_TOTAL_MEM, err);
    }
    return 0;
}
