// Loads libhipdnngo_cuda_rtc.so through dlopen alone (no backend) with the CUDA driver made
// unavailable (HIPDNNGO_CUDA_RTC_LIBCUDA names a library that does not exist; on a machine
// without a GPU it is missing anyway) and checks that the plugin loads, offers its one engine,
// applies to no graph, and logs the reason exactly once.
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

namespace fbs = hipdnn_flatbuffers_sdk::data_objects;

namespace
{
std::vector<std::string> gLog;

void logSink(hipdnnSeverity_t, const char* msg) { gLog.emplace_back(msg); }

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

std::vector<uint8_t> reluGraph()
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
} // namespace

int main()
{
    const char* path = std::getenv("HIPDNNGO_CUDA_RTC_PLUGIN") ? std::getenv("HIPDNNGO_CUDA_RTC_PLUGIN") : CUDA_RTC_PLUGIN_PATH;
    void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if(lib == nullptr)
    {
        std::fprintf(stderr, "FAIL: dlopen %s: %s\n", path, dlerror());
        return 1;
    }
    // Nothing but the ABI is exported.
    CHECK_MSG(dlsym(lib, "_ZN8hipdnngo8cuda_rtc3apiEv") == nullptr, "internal symbols must be hidden");

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
    CHECK_MSG(id == hipdnnPluginEngineNameToId("HIPDNNGO_CUDA_RTC"), "engine id is FNV-1a of HIPDNNGO_CUDA_RTC");
    const char* engineName = nullptr;
    CHECK_MSG(name(id, &engineName) == HIPDNN_PLUGIN_STATUS_SUCCESS && std::string(engineName) == "HIPDNNGO_CUDA_RTC", "engine name");
    CHECK_MSG(gLog.empty(), "loading and listing engines must not open CUDA or log");

    hipdnnEnginePluginHandle_t h = nullptr;
    CHECK_MSG(create(&h) == HIPDNN_PLUGIN_STATUS_SUCCESS && h != nullptr, "create handle");
    const std::vector<uint8_t> g = reluGraph();
    const hipdnnPluginConstData_t graph{g.data(), g.size()};
    for(int i = 0; i < 3; ++i)
    {
        int64_t ids[1] = {0};
        n = 7;
        CHECK_MSG(applicable(h, &graph, ids, 1, &n) == HIPDNN_PLUGIN_STATUS_SUCCESS, "applicability succeeds");
        CHECK_MSG(n == 0, "no engine applies without the CUDA driver");
    }
    int warnings = 0;
    for(const std::string& m : gLog)
        warnings += m.find("offers nothing") != std::string::npos
                            && (m.find("CUDA driver not found") != std::string::npos || m.find("no CUDA device") != std::string::npos
                                || m.find("NVRTC not found") != std::string::npos)
                        ? 1
                        : 0;
    CHECK_MSG(warnings == 1, "the reason is logged exactly once");
    for(const std::string& m : gLog)
        std::printf("log: %s\n", m.c_str());

    // Entry points that need cuDNN fail with a message, never crash.
    hipdnnPluginConstData_t out{nullptr, 0};
    CHECK_MSG(details(h, id, &graph, &out) == HIPDNN_PLUGIN_STATUS_BAD_PARAM, "details without CUDA");
    const char* err = nullptr;
    lastError(&err);
    CHECK_MSG(err != nullptr && std::string(err).find("HIPDNNGO_CUDA_RTC") != std::string::npos, "error names the engine");
    if(err != nullptr)
        std::printf("last error: %s\n", err);
    CHECK_MSG(destroy(h) == HIPDNN_PLUGIN_STATUS_SUCCESS, "destroy handle");

    return check_finish("hipdnn_cuda_rtc_plugin_tests");
}
