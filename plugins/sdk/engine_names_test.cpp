// The engine-name registry (hipdnn_plugin_sdk/EngineNames.h): no two registered names, with or
// without the benchmark prefix, share an engine id; the C++17 constants equal the C hash. It
// iterates the registry itself, so adding a name needs no edit here. Built twice: plain and
// with HIPDNN_BENCHMARK_MODE.
#include <hipdnn_plugin_sdk/EngineNames.h>

#include <cstdio>
#include <map>
#include <string>

namespace names = hipdnn_plugin_sdk::engine_names;

// AMD's published id of MIOPEN_ENGINE pins the hash itself.
static_assert(hipdnn_plugin_sdk::engineNameToId("MIOPEN_ENGINE") == 0x15B46865C717A122LL);
#ifdef HIPDNN_BENCHMARK_MODE
static_assert(names::MIOPEN_ENGINE == "BENCHMARK_MIOPEN_ENGINE");
#else
static_assert(names::MIOPEN_ENGINE == "MIOPEN_ENGINE");
static_assert(names::MIOPEN_ENGINE_ID == 0x15B46865C717A122LL);
#endif
static_assert(names::isRegistered("HIPDNNGO_CPU_REFERENCE") && names::isRegistered("BENCHMARK_HIPDNNGO_CPU_REFERENCE"));
static_assert(!names::isRegistered("NOT_A_REGISTERED_ENGINE") && !names::isRegistered("BENCHMARK_"));

int main()
{
    int failures = 0;
    std::map<int64_t, std::string> ids;
    auto claim = [&](const std::string& name) {
        int64_t id = hipdnnPluginEngineNameToId(name.c_str());
        auto [it, fresh] = ids.emplace(id, name);
        if(id == 0 || !fresh)
        {
            std::fprintf(stderr, "FAIL: %s has id %lld, already taken by %s\n", name.c_str(), (long long)id,
                         fresh ? "(zero)" : it->second.c_str());
            failures++;
        }
    };
    for(const char* n : names::all)
    {
        claim(n);
        claim(std::string(HIPDNN_BENCHMARK_ENGINE_PREFIX) + n);
    }
    // Each registered constant is the hash of the name this build reports.
#define CHECK_CONSTANT(name)                                                                        \
    if(names::name##_ID != hipdnnPluginEngineNameToId(std::string(names::name).c_str()))            \
    {                                                                                               \
        std::fprintf(stderr, "FAIL: %s_ID is not the hash of \"%s\"\n", #name, names::name.data()); \
        failures++;                                                                                 \
    }
    HIPDNN_PLUGIN_ENGINE_NAMES(CHECK_CONSTANT)
#undef CHECK_CONSTANT
    std::printf("%zu registered engine names, %zu ids with the benchmark prefix, %d collisions\n", names::all.size(), ids.size(),
                failures);
    std::printf("%s\n", failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}
