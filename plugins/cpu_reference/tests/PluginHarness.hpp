// PluginHarness: what the plugin tests share — load libhipdnngo_cpu_reference.so with dlopen
// exactly like a host (every entry point resolved by name), build Graph flatbuffers by hand, and
// drive applicability / execution contexts through the C ABI only.
#pragma once

#include "TestSupport.hpp"

#include <hipdnn_flatbuffers_sdk/engine_config_generated.h>
#include <hipdnn_flatbuffers_sdk/engine_details_generated.h>
#include <hipdnn_flatbuffers_sdk/graph_generated.h>
#include <hipdnn_plugin_sdk/EnginePluginApi.h>
#include <hipdnn_plugin_sdk/PluginApi.h>

#include <dlfcn.h>

#include <cstring>
#include <optional>

namespace cpuref_plugin_test
{

using namespace cpuref_test;
namespace fbs = hipdnn_flatbuffers_sdk::data_objects;
namespace cr = hipdnngo::cpu_reference;

// Plugin is the loaded library with every entry point resolved by name.
struct Plugin
{
    void* lib = nullptr;
#define CPUREF_SYM(name) decltype(&::name) name = nullptr;
    CPUREF_SYM(hipdnnPluginGetName)
    CPUREF_SYM(hipdnnPluginGetVersion)
    CPUREF_SYM(hipdnnPluginGetApiVersion)
    CPUREF_SYM(hipdnnPluginGetType)
    CPUREF_SYM(hipdnnPluginGetLastErrorString)
    CPUREF_SYM(hipdnnEnginePluginGetAllEngineIds)
    CPUREF_SYM(hipdnnEnginePluginGetEngineName)
    CPUREF_SYM(hipdnnEnginePluginCreate)
    CPUREF_SYM(hipdnnEnginePluginDestroy)
    CPUREF_SYM(hipdnnEnginePluginSetStream)
    CPUREF_SYM(hipdnnEnginePluginGetApplicableEngineIds)
    CPUREF_SYM(hipdnnEnginePluginGetEngineDetails)
    CPUREF_SYM(hipdnnEnginePluginDestroyEngineDetails)
    CPUREF_SYM(hipdnnEnginePluginGetWorkspaceSize)
    CPUREF_SYM(hipdnnEnginePluginCreateExecutionContext)
    CPUREF_SYM(hipdnnEnginePluginDestroyExecutionContext)
    CPUREF_SYM(hipdnnEnginePluginSerializeExecutionContext)
    CPUREF_SYM(hipdnnEnginePluginDestroySerializedExecutionContext)
    CPUREF_SYM(hipdnnEnginePluginCreateExecutionContextFromSerialized)
    CPUREF_SYM(hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext)
    CPUREF_SYM(hipdnnEnginePluginExecuteOpGraph)
#undef CPUREF_SYM
    hipdnnPluginStatus_t (*isHostMemoryEngine)(int64_t, int32_t*) = nullptr;

    static Plugin& get()
    {
        static Plugin p = load();
        return p;
    }

    std::string lastError() const
    {
        const char* s = nullptr;
        hipdnnPluginGetLastErrorString(&s);
        return s ? s : "";
    }

private:
    static Plugin load()
    {
        Plugin p;
        p.lib = dlopen(CPUREF_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
        if(!p.lib)
            throw TestFailure(std::string("dlopen failed: ") + dlerror());
        auto sym = [&](auto& fn, const char* name) {
            fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(p.lib, name));
            if(!fn)
                throw TestFailure(std::string("missing symbol ") + name);
        };
#define CPUREF_LOAD(name) sym(p.name, #name);
        CPUREF_LOAD(hipdnnPluginGetName)
        CPUREF_LOAD(hipdnnPluginGetVersion)
        CPUREF_LOAD(hipdnnPluginGetApiVersion)
        CPUREF_LOAD(hipdnnPluginGetType)
        CPUREF_LOAD(hipdnnPluginGetLastErrorString)
        CPUREF_LOAD(hipdnnEnginePluginGetAllEngineIds)
        CPUREF_LOAD(hipdnnEnginePluginGetEngineName)
        CPUREF_LOAD(hipdnnEnginePluginCreate)
        CPUREF_LOAD(hipdnnEnginePluginDestroy)
        CPUREF_LOAD(hipdnnEnginePluginSetStream)
        CPUREF_LOAD(hipdnnEnginePluginGetApplicableEngineIds)
        CPUREF_LOAD(hipdnnEnginePluginGetEngineDetails)
        CPUREF_LOAD(hipdnnEnginePluginDestroyEngineDetails)
        CPUREF_LOAD(hipdnnEnginePluginGetWorkspaceSize)
        CPUREF_LOAD(hipdnnEnginePluginCreateExecutionContext)
        CPUREF_LOAD(hipdnnEnginePluginDestroyExecutionContext)
        CPUREF_LOAD(hipdnnEnginePluginSerializeExecutionContext)
        CPUREF_LOAD(hipdnnEnginePluginDestroySerializedExecutionContext)
        CPUREF_LOAD(hipdnnEnginePluginCreateExecutionContextFromSerialized)
        CPUREF_LOAD(hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext)
        CPUREF_LOAD(hipdnnEnginePluginExecuteOpGraph)
#undef CPUREF_LOAD
        sym(p.isHostMemoryEngine, "hipdnnEnginePluginIsHostMemoryEngine_ext");
        return p;
    }
};

// fnv1a64 is written here independently of the SDK helper.
inline int64_t fnv1a64(const std::string& s)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for(unsigned char c : s)
    {
        h ^= c;
        h *= 0x100000001b3ULL;
    }
    int64_t out;
    std::memcpy(&out, &h, sizeof out);
    return out;
}

inline const int64_t kEngineId = fnv1a64("HIPDNNGO_CPU_REFERENCE");

// GraphBuilder assembles a Graph flatbuffer.
struct GraphBuilder
{
    flatbuffers::FlatBufferBuilder fbb;
    std::vector<flatbuffers::Offset<fbs::TensorAttributes>> tensors;
    std::vector<flatbuffers::Offset<fbs::Node>> nodes;
    bool overrideShapes = false;

    void tensor(int64_t uid, fbs::DataType dt, const Dims& dims, const Dims& strides, bool isVirtual = false,
                std::optional<float> constant = std::nullopt, bool passByValue = false)
    {
        flatbuffers::Offset<void> value = 0;
        fbs::TensorValue valueType = fbs::TensorValue::NONE;
        if(constant)
        {
            const fbs::Float32Value v(*constant);
            value = fbb.CreateStruct(v).Union();
            valueType = fbs::TensorValue::Float32Value;
        }
        const std::string name = "t" + std::to_string(uid);
        tensors.push_back(fbs::CreateTensorAttributesDirect(fbb, uid, name.c_str(), dt, &strides, &dims, isVirtual, valueType,
                                                            value, passByValue));
    }

    void node(const char* name, fbs::NodeAttributes type, flatbuffers::Offset<void> attrs)
    {
        nodes.push_back(fbs::CreateNodeDirect(fbb, name, fbs::DataType::FLOAT, type, attrs));
    }

    std::vector<uint8_t> finish()
    {
        auto t = fbb.CreateVector(tensors);
        auto n = fbb.CreateVector(nodes);
        auto name = fbb.CreateString("test");
        fbs::GraphBuilder gb(fbb);
        gb.add_name(name);
        gb.add_tensors(t);
        gb.add_nodes(n);
        gb.add_is_override_shape_enabled(overrideShapes);
        fbb.Finish(gb.Finish());
        return std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
    }
};

inline std::vector<uint8_t> engineConfig(int64_t engineId, const char* knob = nullptr)
{
    flatbuffers::FlatBufferBuilder fbb;
    std::vector<flatbuffers::Offset<fbs::KnobSetting>> knobs;
    if(knob)
        knobs.push_back(fbs::CreateKnobSettingDirect(fbb, knob, fbs::KnobValue::IntValue, fbs::CreateIntValue(fbb, 1).Union()));
    fbb.Finish(fbs::CreateEngineConfigDirect(fbb, engineId, &knobs));
    return std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

inline hipdnnPluginConstData_t constData(const std::vector<uint8_t>& v) { return {v.data(), v.size()}; }

// Handle is an RAII plugin handle.
struct Handle
{
    hipdnnEnginePluginHandle_t h = nullptr;
    Handle() { CPUREF_CHECK(Plugin::get().hipdnnEnginePluginCreate(&h) == HIPDNN_PLUGIN_STATUS_SUCCESS, "create"); }
    ~Handle() { (void)Plugin::get().hipdnnEnginePluginDestroy(h); }
};

inline uint32_t applicableCount(const std::vector<uint8_t>& graph)
{
    Plugin& p = Plugin::get();
    Handle h;
    int64_t ids[1] = {0};
    uint32_t n = 99;
    const hipdnnPluginConstData_t g = constData(graph);
    const auto st = p.hipdnnEnginePluginGetApplicableEngineIds(h.h, &g, ids, 1, &n);
    CPUREF_CHECK(st == HIPDNN_PLUGIN_STATUS_SUCCESS, "GetApplicableEngineIds status " << st << ": " << p.lastError());
    CPUREF_CHECK(n == 0 || ids[0] == kEngineId, "wrong engine id offered");
    return n;
}

struct Context
{
    Handle handle;
    hipdnnEnginePluginExecutionContext_t ctx = nullptr;
    Context(const std::vector<uint8_t>& graph, const std::vector<uint8_t>& config)
    {
        Plugin& p = Plugin::get();
        const auto g = constData(graph), c = constData(config);
        const auto st = p.hipdnnEnginePluginCreateExecutionContext(handle.h, &c, &g, &ctx);
        CPUREF_CHECK(st == HIPDNN_PLUGIN_STATUS_SUCCESS, "CreateExecutionContext: " << p.lastError());
    }
    ~Context() { (void)Plugin::get().hipdnnEnginePluginDestroyExecutionContext(handle.h, ctx); }
    size_t workspace() const
    {
        size_t ws = 0;
        CPUREF_CHECK(Plugin::get().hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext(handle.h, ctx, &ws)
                         == HIPDNN_PLUGIN_STATUS_SUCCESS,
                     "workspace size");
        return ws;
    }
};

} // namespace cpuref_plugin_test
