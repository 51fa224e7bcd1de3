/* The one dynamic-loader shim of the backend: dlopen, dlsym and dladdr with dlerror() text.
 * Header-only, because cgo cannot call C across Go packages: package dl wraps it for Go
 * callers (engines, hip, plugindir), and internal/heuristics/plugin.c, whose entry-point
 * table is filled in C, includes it directly. Include it before any system header (dladdr
 * needs _GNU_SOURCE). Each helper copies dlerror() text before returning, because dlerror is
 * per thread and a goroutine may move to another thread between two cgo calls. */
#ifndef HIPDNN_GO_DL_H
#define HIPDNN_GO_DL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <stddef.h>
#include <string.h>

/* hd_dl_text copies src into dst[n], always NUL-terminated (src NULL: fallback). */
static inline void hd_dl_text(char* dst, size_t n, const char* src, const char* fallback) {
    if (dst == NULL || n == 0) {
        return;
    }
    if (src == NULL) {
        src = fallback;
    }
    strncpy(dst, src, n - 1);
    dst[n - 1] = '\0';
}

/* hd_dl_open: dlopen(path, RTLD_NOW | RTLD_LOCAL), or NULL with dlerror() in err. */
static inline void* hd_dl_open(const char* path, char* err, size_t errlen) {
    dlerror();
    void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        hd_dl_text(err, errlen, dlerror(), "dlopen failed");
    }
    return lib;
}

/* hd_dl_sym: the address of name in lib, or NULL with dlerror() in err (a symbol that resolves
 * to NULL counts as missing). */
static inline void* hd_dl_sym(void* lib, const char* name, char* err, size_t errlen) {
    dlerror();
    void* p = dlsym(lib, name);
    if (p == NULL) {
        hd_dl_text(err, errlen, dlerror(), "symbol resolves to NULL");
    }
    return p;
}

/* hd_dl_loaded: 1 when lib is already mapped into the process, found without loading it
 * (RTLD_NOLOAD); the reference the probe takes is given back at once. */
static inline int hd_dl_loaded(const char* lib) {
    void* h = dlopen(lib, RTLD_NOW | RTLD_NOLOAD);
    if (h == NULL) {
        return 0;
    }
    dlclose(h);
    return 1;
}

/* hd_dl_object_path: the file of the loaded object that holds addr (dladdr), or "". */
static inline void hd_dl_object_path(const void* addr, char* out, size_t outlen) {
    Dl_info info;
    if (dladdr(addr, &info) != 0 && info.dli_fname != NULL) {
        hd_dl_text(out, outlen, info.dli_fname, "");
    } else {
        hd_dl_text(out, outlen, "", "");
    }
}

#endif
