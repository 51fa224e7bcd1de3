// UnavailablePlugin.hpp - the load test of a GPU engine plugin whose library is made
// unavailable: the plugin is opened through dlopen alone (no backend), exports only the ABI,
// offers its one engine, applies to no graph, logs why exactly once, and fails the entry points
// that need the library with a message naming the engine. Each GPU plugin's PluginLoadTests.cpp
// fills an UnavailablePlugin and returns checkUnavailablePlugin's status.
#ifndef HIPDNN_TESTS_COMMON_UNAVAILABLE_PLUGIN_HPP
#define HIPDNN_TESTS_COMMON_UNAVAILABLE_PLUGIN_HPP

#include <hipdnn_flatbuffers_sdk/graph_generated.h>
#include <hipdnn_plugin_sdk/EnginePluginApi.h>
#include <hipdnn_plugin_sdk/PluginApi.h>
#include <hipdnn_plugin_sdk/helpers/EngineId.h>

#include <dlfcn.h>

#include "check.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

struct UnavailablePlugin
{
    const char* test; // the program's name, for check_finish
    const char* pathEnv; // an environment variable that overrides defaultPath
    const char* defaultPath;
    const char* engine; // the one engine's name
    const char* internalSymbol; // a mangled symbol of the plugin's own code, which must be hidden
    const char* missing; // what is unavailable, for the messages ("cuDNN", "the CUDA driver")
    std::vector<std::string> reasons; // the log line says "offers nothing" and one of these
};

namespace unavailable_plugin_detail
{
namespace fbs = hipdnn_flatbuffers_sdk::data_objects;

inline std::vector<std::string>& logLines()
{
    static std::vector<std::string> lines;
    return lines;
}

inline void logSink(hipdnnSeverity_t, const char* msg) { logLines().emplace_back(msg); }

template <typename Fn>
Fn sym(void* lib, const char* name)
{
    Fn f = reinterpret_cast<Fn>(dlsym(lib, name));
    if(f == nullptr)
    {
        std::fprintf(stderr, "FAIL: symbol %s missing\n", name);
        std::exit(1);
    }
    return f;
}

inline std::vector<uint8_t> reluGraph()
{
    flatbuffers::FlatBufferBuilder fbb;
    const std::vector<int64_t> dims{1, 4, 2, 2}, strides{16, 4, 2, 1};
    std::vector<flatbuffers::Offset<fbs::TensorAttributes>> tensors{
        fbs::CreateTensorAttributesDirect(fbb, 1, "x", fbs::DataType::FLOAT, &strides, &dims),
        fbs::CreateTensorAttributesDirect(fbb, 2, "y", fbs::DataType::FLOAT, &strides, &dims)};
    auto attrs = fbs::CreatePointwiseAttributes(fbb, fbs::PointwiseMode::RELU_FWD, flatbuffers::nullopt, flatbuffers::nullopt,
                                                flatbuffers::nullopt, flatbuffers::nullopt, 1, flatbuffers::nullopt,
                                                flatbuffers::nullopt, 2);
    std::vector<flatbuffers::Offset<fbs::Node>> nodes{
        fbs::CreateNodeDirect(fbb, "relu", fbs::DataType::FLOAT, fbs::NodeAttributes::PointwiseAttributes, attrs.Union())};
    fbb.Finish(
        fbs::CreateGraphDirect(fbb, "g", fbs::DataType::FLOAT, fbs::DataType::FLOAT, fbs::DataType::FLOAT, &tensors, &nodes));
    return std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}
} // namespace unavailable_plugin_detail

inline int checkUnavailablePlugin(const UnavailablePlugin& p)
{
    using namespace unavailable_plugin_detail;
    const char* path = std::getenv(p.pathEnv) ? std::getenv(p.pathEnv) : p.defaultPath;
    void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if(lib == nullptr)
    {
        std::fprintf(stderr, "FAIL: dlopen %s: %s\n", path, dlerror());
        return 1;
    }
    // Nothing but the ABI is exported.
    CHECK_MSG(dlsym(lib, p.internalSymbol) == nullptr, "internal symbols must be hidden (%s)", p.internalSymbol);

    auto setLog = sym<hipdnnPluginStatus_t (*)(hipdnnCallback_t)>(lib, "hipdnnPluginSetLoggingCallback");
    auto setLevel = sym<hipdnnPluginStatus_t (*)(hipdnnSeverity_t)>(lib, "hipdnnPluginSetLogLevel");
    auto getType = sym<hipdnnPluginStatus_t (*)(hipdnnPluginType_t*)>(lib, "hipdnnPluginGetType");
    auto allIds = sym<hipdnnPluginStatus_t (*)(int64_t*, uint32_t, uint32_t*)>(lib, "hipdnnEnginePluginGetAllEngineIds");
    auto name = sym<hipdnnPluginStatus_t (*)(int64_t, const char**)>(lib, "hipdnnEnginePluginGetEngineName");
    auto create = sym<hipdnnPluginStatus_t (*)(hipdnnEnginePluginHandle_t*)>(lib, "hipdnnEnginePluginCreate");
    auto destroy = sym<hipdnnPluginStatus_t (*)(hipdnnEnginePluginHandle_t)>(lib, "hipdnnEnginePluginDestroy");
    auto applicable =
        sym<hipdnnPluginStatus_t (*)(hipdnnEnginePluginHandle_t, const hipdnnPluginConstData_t*, int64_t*, uint32_t, uint32_t*)>(
            lib, "hipdnnEnginePluginGetApplicableEngineIds");
    auto details = sym<hipdnnPluginStatus_t (*)(hipdnnEnginePluginHandle_t, int64_t, const hipdnnPluginConstData_t*,
                                                hipdnnPluginConstData_t*)>(lib, "hipdnnEnginePluginGetEngineDetails");
    auto lastError = sym<void (*)(const char**)>(lib, "hipdnnPluginGetLastErrorString");

    CHECK_MSG(setLog(logSink) == HIPDNN_PLUGIN_STATUS_SUCCESS, "set logging callback");
    CHECK_MSG(setLevel(HIPDNN_SEV_INFO) == HIPDNN_PLUGIN_STATUS_SUCCESS, "set log level");
    hipdnnPluginType_t type = HIPDNN_PLUGIN_TYPE_UNSPECIFIED;
    CHECK_MSG(getType(&type) == HIPDNN_PLUGIN_STATUS_SUCCESS && type == HIPDNN_PLUGIN_TYPE_ENGINE, "engine plugin type");

    uint32_t n = 0;
    CHECK_MSG(allIds(nullptr, 0, &n) == HIPDNN_PLUGIN_STATUS_SUCCESS && n == 1, "one engine id");
    int64_t id = 0;
    CHECK_MSG(allIds(&id, 1, &n) == HIPDNN_PLUGIN_STATUS_SUCCESS && n == 1, "engine id fetch");
    CHECK_MSG(id == hipdnnPluginEngineNameToId(p.engine), "engine id is FNV-1a of %s", p.engine);
    const char* engineName = nullptr;
    CHECK_MSG(name(id, &engineName) == HIPDNN_PLUGIN_STATUS_SUCCESS && engineName != nullptr && std::string(engineName) == p.engine,
              "engine name %s", p.engine);
    CHECK_MSG(logLines().empty(), "loading and listing engines must not open %s or log", p.missing);

    hipdnnEnginePluginHandle_t h = nullptr;
    CHECK_MSG(create(&h) == HIPDNN_PLUGIN_STATUS_SUCCESS && h != nullptr, "create handle");
    const std::vector<uint8_t> g = reluGraph();
    const hipdnnPluginConstData_t graph{g.data(), g.size()};
    for(int i = 0; i < 3; ++i)
    {
        int64_t ids[1] = {0};
        n = 7;
        CHECK_MSG(applicable(h, &graph, ids, 1, &n) == HIPDNN_PLUGIN_STATUS_SUCCESS, "applicability succeeds");
        CHECK_MSG(n == 0, "no engine applies without %s", p.missing);
    }
    int warnings = 0;
    for(const std::string& m : logLines())
    {
        bool named = false;
        for(const std::string& r : p.reasons)
            named = named || m.find(r) != std::string::npos;
        warnings += m.find("offers nothing") != std::string::npos && named ? 1 : 0;
    }
    CHECK_MSG(warnings == 1, "the reason is logged exactly once (%d times)", warnings);
    for(const std::string& m : logLines())
        std::printf("log: %s\n", m.c_str());

    // Entry points that need the library fail with a message, never crash.
    hipdnnPluginConstData_t out{nullptr, 0};
    CHECK_MSG(details(h, id, &graph, &out) == HIPDNN_PLUGIN_STATUS_BAD_PARAM, "details without %s", p.missing);
    const char* err = nullptr;
    lastError(&err);
    CHECK_MSG(err != nullptr && std::string(err).find(p.engine) != std::string::npos, "error names the engine");
    if(err != nullptr)
        std::printf("last error: %s\n", err);
    CHECK_MSG(destroy(h) == HIPDNN_PLUGIN_STATUS_SUCCESS, "destroy handle");

    return check_finish(p.test);
}

#endif
