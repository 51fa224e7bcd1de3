// A consumer linked against a hipDNNEP-style backend shim (backend_shim.cpp), not against the
// backend: its first call opens the backend. Checks the backend was not loaded before that
// call, that it was loaded from the directory given by --expect, and that every function of
// the header has a forwarder (this program takes each one's address: a missing forwarder is
// a link error), then runs conv -> bias -> ReLU through the forwarders.
#include <cstdio>
#include <cstring>
#include <string>

#include "backend_api.hpp"
#include "loaded_path.hpp"

int main(int argc, char** argv) {
    if (argc != 3 || std::strcmp(argv[1], "--expect") != 0) {
        std::fprintf(stderr, "usage: consumer_shim --expect DIR\n");
        return 2;
    }
    std::string want = canonical(argv[2]);
    if (!loadedBackendDir().empty()) {
        std::fprintf(stderr, "consumer_shim: the backend was loaded before the first call\n");
        return 1;
    }
    BackendApi api;
#define X(name) api.name = &::name;
    HIPDNN_HEADER_FUNCTIONS(X)
#undef X
    std::printf("first call through the shim: version %s\n", api.hipdnnVersionString_ext());
    std::string got = loadedBackendDir();
    bool ok = true;
    if (got != want) {
        std::fprintf(stderr, "consumer_shim: backend loaded from \"%s\", want \"%s\"\n", got.c_str(), want.c_str());
        ok = false;
    }
    ok = runConvBiasRelu(api, "consumer_shim") && ok;
    std::printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
