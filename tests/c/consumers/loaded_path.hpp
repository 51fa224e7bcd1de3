// Where the dynamic loader took the backend from, read without loading it.
#pragma once

#include <dlfcn.h>
#include <link.h>
#include <limits.h>
#include <stdlib.h>

#include <string>

// The canonical directory of the loaded libhipdnn_backend.so.0, or "" when it is not loaded.
inline std::string loadedBackendDir() {
    void* h = dlopen("libhipdnn_backend.so.0", RTLD_NOW | RTLD_NOLOAD);
    if (h == nullptr)
        return "";
    struct link_map* map = nullptr;
    std::string dir;
    if (dlinfo(h, RTLD_DI_LINKMAP, &map) == 0 && map != nullptr) {
        char real[PATH_MAX];
        if (realpath(map->l_name, real) != nullptr) {
            dir = real;
            dir = dir.substr(0, dir.rfind('/'));
        }
    }
    dlclose(h); // drops the NOLOAD reference only
    return dir;
}

inline std::string canonical(const std::string& path) {
    char real[PATH_MAX];
    return realpath(path.c_str(), real) != nullptr ? std::string(real) : path;
}
