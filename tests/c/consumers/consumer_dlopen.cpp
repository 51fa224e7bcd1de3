// A program that is not linked against the backend opens it the way AMD's runtime-load
// frontend does (dlopen by absolute path, then dlsym of every function of the header) and runs
// conv -> bias -> ReLU through the resolved pointers.
//
//   consumer_dlopen --lib PATH --mode now-local|lazy-global [--thread] [--preload LIB]
//
// --preload opens another TLS-using library first (as a real host has several loaded);
// --thread opens the backend from a second thread. The process must not have the backend
// loaded before the dlopen: that is checked, since dlopen of a loaded library always works.
#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <thread>

#include "backend_api.hpp"

namespace {

// Any thread-local state makes this program a TLS user beside libstdc++.
thread_local char scratch[256];

bool openAndRun(const std::string& lib, int flags) {
    if (dlopen("libhipdnn_backend.so.0", RTLD_NOW | RTLD_NOLOAD) != nullptr) {
        std::fprintf(stderr, "consumer_dlopen: the backend was already loaded; this test would prove nothing\n");
        return false;
    }
    void* h = dlopen(lib.c_str(), flags);
    if (h == nullptr) {
        std::fprintf(stderr, "consumer_dlopen: dlopen(%s) failed: %s\n", lib.c_str(), dlerror());
        return false;
    }
    BackendApi api;
    auto missing = resolveAll(h, api);
    for (auto& m : missing)
        std::fprintf(stderr, "consumer_dlopen: dlsym(%s) failed\n", m.c_str());
    if (!missing.empty())
        return false;
    std::printf("resolved %d functions from %s (version %s)\n", HIPDNN_HEADER_FUNCTION_COUNT,
                loadedFrom(reinterpret_cast<const void*>(api.hipdnnCreate)).c_str(), api.hipdnnVersionString_ext());
    return runConvBiasRelu(api, "consumer_dlopen");
}

} // namespace

int main(int argc, char** argv) {
    std::string lib, mode = "now-local", preload;
    bool onThread = false;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a == "--lib" && i + 1 < argc)
            lib = argv[++i];
        else if (a == "--mode" && i + 1 < argc)
            mode = argv[++i];
        else if (a == "--preload" && i + 1 < argc)
            preload = argv[++i];
        else if (a == "--thread")
            onThread = true;
        else {
            std::fprintf(stderr, "consumer_dlopen: unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    int flags = mode == "lazy-global" ? RTLD_LAZY | RTLD_GLOBAL : RTLD_NOW | RTLD_LOCAL;
    if (lib.empty() || (mode != "now-local" && mode != "lazy-global")) {
        std::fprintf(stderr, "usage: consumer_dlopen --lib PATH --mode now-local|lazy-global [--thread] [--preload LIB]\n");
        return 2;
    }
    std::snprintf(scratch, sizeof scratch, "%s", lib.c_str());
    if (!preload.empty() && dlopen(preload.c_str(), RTLD_NOW | RTLD_LOCAL) == nullptr) {
        std::fprintf(stderr, "consumer_dlopen: preload %s failed: %s\n", preload.c_str(), dlerror());
        return 1;
    }
    bool ok = false;
    if (onThread) {
        std::thread t([&] { ok = openAndRun(lib, flags); });
        t.join();
    } else {
        ok = openAndRun(lib, flags);
    }
    std::printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
