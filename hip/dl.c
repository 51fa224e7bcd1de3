//go:build cgo

// dl.c: dlopen/dlsym helpers and the entry-point table. Libraries are never dlclose'd: a GPU
// runtime cannot be unloaded safely once any thread has called into it, and a candidate that
// failed costs only its mapping.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "shim.h"

static void copy_text(char *dst, size_t n, const char *src) {
  if (n == 0) {
    return;
  }
  if (src == NULL) {
    src = "unknown dynamic loader error";
  }
  strncpy(dst, src, n - 1);
  dst[n - 1] = '\0';
}

void *hipdnn_hip_dlopen(const char *path, char *err, size_t errlen) {
  dlerror();
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (h == NULL) {
    copy_text(err, errlen, dlerror());
  }
  return h;
}

void *hipdnn_hip_dlsym(void *handle, const char *name, char *err, size_t errlen) {
  dlerror();
  void *p = dlsym(handle, name);
  if (p == NULL) {
    copy_text(err, errlen, dlerror());
  }
  return p;
}

void hipdnn_hip_object_path(void *sym, char *out, size_t outlen) {
  Dl_info info;
  if (dladdr(sym, &info) != 0 && info.dli_fname != NULL) {
    copy_text(out, outlen, info.dli_fname);
  } else if (outlen > 0) {
    out[0] = '\0';
  }
}

hipdnn_hip_api *hipdnn_hip_api_new(int kind) {
  hipdnn_hip_api *api = calloc(1, sizeof *api);
  if (api != NULL) {
    api->kind = kind;
  }
  return api;
}

void hipdnn_hip_api_free(hipdnn_hip_api *api) { free(api); }

void hipdnn_hip_api_set(hipdnn_hip_api *api, int slot, void *fn) {
  if (slot >= 0 && slot < HIPDNN_HIP_SLOT_COUNT) {
    api->fn[slot] = fn;
  }
}
