// AMD's runtime-load frontend locates the backend (DynamicBackendLibrary; spec usage_and_tests
// §3, backend_api §8.1); this program does the same and reports which candidate won:
//
//   0  override     the programmatic directory (setBackendLibraryPath), here --override DIR;
//      env          else HIPDNN_BACKEND_LIBRARY_PATH, used only when it is an absolute directory
//   1  module_dir   the directory of the module holding the calling code (this executable)
//   2  module_lib   that directory's ../lib, then
//      module_lib64 its ../lib64
//   3  (the loaded HIP runtime's directory: no HIP runtime here, so never a candidate)
//   4  bare_name    "libhipdnn_backend.so" through the system loader
//
// Every candidate but the last must exist as a file. Usage:
//   consumer_search [--override DIR] --expect CANDIDATE DIR
#include <dlfcn.h>
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "backend_api.hpp"
#include "loaded_path.hpp"

namespace {

const char kLibName[] = "libhipdnn_backend.so";

bool isFile(const std::string& p) {
    struct stat st;
    return stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string moduleDir() {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&moduleDir), &info) == 0 || info.dli_fname == nullptr)
        return "";
    std::string p = canonical(info.dli_fname);
    return p.substr(0, p.rfind('/'));
}

} // namespace

int main(int argc, char** argv) {
    std::string override, wantCandidate, wantDir;
    for (int i = 1; i < argc; i++) {
        if (std::strcmp(argv[i], "--override") == 0 && i + 1 < argc)
            override = argv[++i];
        else if (std::strcmp(argv[i], "--expect") == 0 && i + 2 < argc) {
            wantCandidate = argv[++i];
            wantDir = canonical(argv[++i]);
        } else {
            std::fprintf(stderr, "usage: consumer_search [--override DIR] --expect CANDIDATE DIR\n");
            return 2;
        }
    }
    if (!loadedBackendDir().empty()) {
        std::fprintf(stderr, "consumer_search: the backend is already loaded\n");
        return 1;
    }
    std::vector<std::pair<std::string, std::string>> candidates; // (name, path)
    const char* env = std::getenv("HIPDNN_BACKEND_LIBRARY_PATH");
    if (!override.empty())
        candidates.emplace_back("override", override + "/" + kLibName);
    else if (env != nullptr && env[0] == '/')
        candidates.emplace_back("env", std::string(env) + "/" + kLibName);
    std::string mod = moduleDir();
    if (!mod.empty()) {
        candidates.emplace_back("module_dir", mod + "/" + kLibName);
        candidates.emplace_back("module_lib", mod + "/../lib/" + kLibName);
        candidates.emplace_back("module_lib64", mod + "/../lib64/" + kLibName);
    }
    candidates.emplace_back("bare_name", kLibName);

    void* lib = nullptr;
    std::string won;
    for (size_t i = 0; i < candidates.size() && lib == nullptr; i++) {
        const auto& [name, path] = candidates[i];
        bool last = i + 1 == candidates.size();
        if (!last && !isFile(path))
            continue;
        lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (lib == nullptr)
            std::fprintf(stderr, "consumer_search: %s candidate %s: %s\n", name.c_str(), path.c_str(), dlerror());
        else
            won = name;
    }
    if (lib == nullptr) {
        std::fprintf(stderr, "consumer_search: no candidate could be opened\nFAIL\n");
        return 1;
    }
    bool ok = true;
    std::string dir = loadedBackendDir();
    std::printf("loaded by the %s candidate from %s\n", won.c_str(), dir.c_str());
    if (won != wantCandidate || dir != wantDir) {
        std::fprintf(stderr, "consumer_search: want the %s candidate from %s\n", wantCandidate.c_str(), wantDir.c_str());
        ok = false;
    }
    BackendApi api;
    auto missing = resolveAll(lib, api);
    for (auto& m : missing)
        std::fprintf(stderr, "consumer_search: dlsym(%s) failed\n", m.c_str());
    ok = missing.empty() && runConvBiasRelu(api, "consumer_search") && ok;
    std::printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
