//go:build cgo

// table.c: the entry-point table, filled from internal/dl's dlsym. Libraries are never
// dlclose'd: a GPU runtime cannot be unloaded safely once any thread has called into it, and a
// candidate that failed costs only its mapping.
#include <stdlib.h>

#include "shim.h"

hd_hip_api* hd_hip_api_new(int kind) {
    hd_hip_api* api = calloc(1, sizeof *api);
    if (api != NULL) {
        api->kind = kind;
    }
    return api;
}

void hd_hip_api_free(hd_hip_api* api) { free(api); }

void hd_hip_api_set(hd_hip_api* api, int slot, void* fn) {
    if (slot >= 0 && slot < HIPDNN_HIP_SLOT_COUNT) {
        api->fn[slot] = fn;
    }
}
