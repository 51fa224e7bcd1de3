// plugintest.c: reaches the test accessors of a plugin the backend already loaded
// (RTLD_NOLOAD gives the same instance and never loads a second copy).
#define _GNU_SOURCE
#include <dlfcn.h>

#include "plugintest.h"
#include "test_plugin_accessors.h"

int hd_plugintest_last_finalize(const char* path, int32_t* used, uint32_t* version, size_t* size, char* metric, size_t metric_len,
                                char* arch, size_t arch_len) {
    void* lib = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
    if (lib == NULL) {
        return -1;
    }
    hipdnnTestHeuristicGetLastFinalize_fn f =
        (hipdnnTestHeuristicGetLastFinalize_fn)dlsym(lib, HIPDNN_TEST_HEURISTIC_GET_LAST_FINALIZE);
    int r = f != NULL ? f(used, version, size, metric, metric_len, arch, arch_len) : -2;
    dlclose(lib);
    return r;
}

int hd_plugintest_last_log_level(const char* path) {
    void* lib = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
    if (lib == NULL) {
        return -2;
    }
    hipdnnTestGetLastLogLevel_fn f = (hipdnnTestGetLastLogLevel_fn)dlsym(lib, HIPDNN_TEST_GET_LAST_LOG_LEVEL);
    int r = f != NULL ? f() : -2;
    dlclose(lib);
    return r;
}
