// Self-test of the test plugins: loads each one the way a host does (dlopen RTLD_NOW |
// RTLD_LOCAL, dlsym) and checks that it behaves as tests/plugins/README.md promises, so host
// tests can rely on them. Not a test of the backend.
//
//   hipdnn_test_plugins_selftest <test plugin dir>
//
// Exit status 0 when every check passes; each failure is printed.

#include <dlfcn.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include <hipdnn_plugin_sdk/EnginePluginApi.h>
#include <hipdnn_plugin_sdk/HeuristicsPluginApi.h>
#include <hipdnn_plugin_sdk/helpers/EngineId.h>
#include <hipdnn_plugin_sdk/helpers/PluginHelpers.hpp>

#include "../test_plugin_accessors.h"
#include "check.h"

namespace fbs = hipdnn_flatbuffers_sdk::data_objects;

namespace
{

std::string current;

// setCase names the plugin or case the following checks are about, in failure messages.
void setCase(const std::string& name)
{
    current = name;
    check_context = current.c_str();
}
#define CHECK_STATUS(call, expected) CHECK((call) == (expected))

std::string dir;

// A loaded plugin with dlsym helpers.
struct Plugin
{
    void* so = nullptr;

    explicit Plugin(const std::string& relative)
    {
        const std::string path = dir + "/" + relative;
        so = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if(so == nullptr)
        {
            CHECK_FAIL("dlopen %s: %s", path.c_str(), dlerror());
        }
    }

    template <typename Fn>
    Fn get(const char* name) const
    {
        return so == nullptr ? nullptr : reinterpret_cast<Fn>(dlsym(so, name));
    }

    bool has(const char* name) const { return so != nullptr && dlsym(so, name) != nullptr; }

    std::string lastError() const
    {
        const char* text = nullptr;
        auto fn = get<hipdnnPluginGetLastErrorString_fn>("hipdnnPluginGetLastErrorString");
        if(fn != nullptr)
        {
            fn(&text);
        }
        return text != nullptr ? text : "";
    }

    std::string str(const char* entry) const
    {
        auto fn = get<hipdnnPluginGetName_fn>(entry);
        const char* value = nullptr;
        if(fn == nullptr || fn(&value) != HIPDNN_PLUGIN_STATUS_SUCCESS || value == nullptr)
        {
            return "<none>";
        }
        return value;
    }
};

// ---- buffers ------------------------------------------------------------------------------
struct Bytes
{
    std::vector<uint8_t> data;
    hipdnnPluginConstData_t view() const { return {data.data(), data.size()}; }
};

Bytes finish(flatbuffers::FlatBufferBuilder& fbb)
{
    return Bytes{std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize())};
}

// Graph with tensors x (uid 1), y (uid 2) and, optionally, a runtime pass-by-value FLOAT scalar
// (uid 5).
Bytes makeGraph(bool passByValue)
{
    flatbuffers::FlatBufferBuilder fbb;
    std::vector<int64_t> dims{2, 3};
    std::vector<int64_t> strides{3, 1};
    std::vector<int64_t> one{1};
    std::vector<flatbuffers::Offset<fbs::TensorAttributes>> tensors;
    tensors.push_back(fbs::CreateTensorAttributesDirect(fbb, 1, "x", fbs::DataType::FLOAT, &strides, &dims));
    tensors.push_back(fbs::CreateTensorAttributesDirect(fbb, 2, "y", fbs::DataType::FLOAT, &strides, &dims));
    if(passByValue)
    {
        tensors.push_back(fbs::CreateTensorAttributesDirect(fbb, 5, "alpha", fbs::DataType::FLOAT, &one, &one, false,
                                                            fbs::TensorValue::NONE, 0, true));
    }
    fbb.Finish(
        fbs::CreateGraphDirect(fbb, "selftest", fbs::DataType::FLOAT, fbs::DataType::FLOAT, fbs::DataType::FLOAT, &tensors));
    return finish(fbb);
}

using KnobAdder = std::function<flatbuffers::Offset<fbs::KnobSetting>(flatbuffers::FlatBufferBuilder&)>;

Bytes makeConfig(int64_t engineId, const std::vector<KnobAdder>& knobs = {})
{
    flatbuffers::FlatBufferBuilder fbb;
    std::vector<flatbuffers::Offset<fbs::KnobSetting>> settings;
    for(const auto& add : knobs)
    {
        settings.push_back(add(fbb));
    }
    fbb.Finish(fbs::CreateEngineConfigDirect(fbb, engineId, &settings));
    return finish(fbb);
}

KnobAdder intKnob(const char* id, int64_t v)
{
    return [=](flatbuffers::FlatBufferBuilder& fbb) {
        return fbs::CreateKnobSettingDirect(fbb, id, fbs::KnobValue::IntValue, fbs::CreateIntValue(fbb, v).Union());
    };
}
KnobAdder floatKnob(const char* id, double v)
{
    return [=](flatbuffers::FlatBufferBuilder& fbb) {
        return fbs::CreateKnobSettingDirect(fbb, id, fbs::KnobValue::FloatValue, fbs::CreateFloatValue(fbb, v).Union());
    };
}
KnobAdder stringKnob(const char* id, const char* v)
{
    return [=](flatbuffers::FlatBufferBuilder& fbb) {
        return fbs::CreateKnobSettingDirect(fbb, id, fbs::KnobValue::StringValue, fbs::CreateStringValueDirect(fbb, v).Union());
    };
}

Bytes makeDeviceProperties()
{
    flatbuffers::FlatBufferBuilder fbb;
    fbs::FinishDevicePropertiesBuffer(fbb, fbs::CreateDevicePropertiesDirect(fbb, 0, 132, 1ull << 30, "gfx942:sramecc+:xnack-"));
    return finish(fbb);
}

// ---- engine plugin driver -----------------------------------------------------------------
struct Engine : Plugin
{
    using Plugin::Plugin;
    hipdnnEnginePluginHandle_t handle = nullptr;

#define ENGINE_FN(name) get<name##_fn>(#name)

    std::vector<int64_t> allIds(hipdnnPluginStatus_t* status = nullptr, uint32_t* firstCount = nullptr)
    {
        uint32_t count = 0;
        auto fn = ENGINE_FN(hipdnnEnginePluginGetAllEngineIds);
        hipdnnPluginStatus_t s = fn(nullptr, 0, &count);
        if(firstCount != nullptr)
        {
            *firstCount = count;
        }
        std::vector<int64_t> ids(count);
        uint32_t written = 0;
        if(s == HIPDNN_PLUGIN_STATUS_SUCCESS && count > 0)
        {
            s = fn(ids.data(), count, &written);
            ids.resize(written);
        }
        if(status != nullptr)
        {
            *status = s;
        }
        return ids;
    }

    hipdnnPluginStatus_t create() { return ENGINE_FN(hipdnnEnginePluginCreate)(&handle); }

    hipdnnPluginStatus_t destroy() { return ENGINE_FN(hipdnnEnginePluginDestroy)(handle); }

    std::vector<int64_t> applicable(const Bytes& graph, uint32_t max, uint32_t* reported = nullptr,
                                    hipdnnPluginStatus_t* status = nullptr)
    {
        std::vector<int64_t> ids(max + 1, 0);
        uint32_t n = 0;
        const hipdnnPluginConstData_t g = graph.view();
        hipdnnPluginStatus_t s = ENGINE_FN(hipdnnEnginePluginGetApplicableEngineIds)(handle, &g, ids.data(), max, &n);
        if(reported != nullptr)
        {
            *reported = n;
        }
        if(status != nullptr)
        {
            *status = s;
        }
        ids.resize(n < max ? n : max);
        return ids;
    }

    hipdnnPluginStatus_t details(int64_t id, const Bytes& graph, hipdnnPluginConstData_t* out)
    {
        const hipdnnPluginConstData_t g = graph.view();
        return ENGINE_FN(hipdnnEnginePluginGetEngineDetails)(handle, id, &g, out);
    }

    hipdnnPluginStatus_t destroyDetails(hipdnnPluginConstData_t* d)
    {
        return ENGINE_FN(hipdnnEnginePluginDestroyEngineDetails)(handle, d);
    }

    hipdnnPluginStatus_t workspace(const Bytes& config, const Bytes& graph, size_t* size)
    {
        const hipdnnPluginConstData_t c = config.view();
        const hipdnnPluginConstData_t g = graph.view();
        return ENGINE_FN(hipdnnEnginePluginGetWorkspaceSize)(handle, &c, &g, size);
    }

    hipdnnPluginStatus_t context(const Bytes& config, const Bytes& graph, hipdnnEnginePluginExecutionContext_t* ctx)
    {
        const hipdnnPluginConstData_t c = config.view();
        const hipdnnPluginConstData_t g = graph.view();
        return ENGINE_FN(hipdnnEnginePluginCreateExecutionContext)(handle, &c, &g, ctx);
    }

    hipdnnPluginStatus_t destroyContext(hipdnnEnginePluginExecutionContext_t ctx)
    {
        return ENGINE_FN(hipdnnEnginePluginDestroyExecutionContext)(handle, ctx);
    }

    hipdnnPluginStatus_t contextWorkspace(hipdnnEnginePluginExecutionContext_t ctx, size_t* size)
    {
        return ENGINE_FN(hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext)(handle, ctx, size);
    }

    hipdnnPluginStatus_t execute(hipdnnEnginePluginExecutionContext_t ctx, const std::vector<hipdnnPluginDeviceBuffer_t>& b)
    {
        return ENGINE_FN(hipdnnEnginePluginExecuteOpGraph)(handle, ctx, nullptr, b.data(), static_cast<uint32_t>(b.size()));
    }

    std::string engineName(int64_t id, hipdnnPluginStatus_t* status)
    {
        const char* name = "<untouched>";
        *status = ENGINE_FN(hipdnnEnginePluginGetEngineName)(id, &name);
        return name == nullptr ? "<null>" : name;
    }
};

// Standard checks for a well-behaved engine plugin; returns the created engine handle ready to use.
void basicEngine(Engine& p, const char* name, const char* apiVersion, std::vector<int64_t> ids,
                 std::vector<int64_t> applicableIds)
{
    CHECK(p.so != nullptr);
    if(p.so == nullptr)
    {
        return;
    }
    CHECK(p.str("hipdnnPluginGetName") == name);
    CHECK(p.str("hipdnnPluginGetApiVersion") == apiVersion);
    hipdnnPluginType_t type = HIPDNN_PLUGIN_TYPE_UNSPECIFIED;
    CHECK_STATUS(p.get<hipdnnPluginGetType_fn>("hipdnnPluginGetType")(&type), HIPDNN_PLUGIN_STATUS_SUCCESS);
    CHECK(type == HIPDNN_PLUGIN_TYPE_ENGINE);
    hipdnnPluginStatus_t s;
    CHECK(p.allIds(&s) == ids);
    CHECK(s == HIPDNN_PLUGIN_STATUS_SUCCESS);
    CHECK_STATUS(p.create(), HIPDNN_PLUGIN_STATUS_SUCCESS);
    CHECK(p.handle != nullptr);
    const Bytes graph = makeGraph(false);
    uint32_t reported = 0;
    CHECK(p.applicable(graph, static_cast<uint32_t>(ids.size()), &reported) == applicableIds);
    CHECK(reported == applicableIds.size());
    // A buffer that is not a graph is rejected with BAD_PARAM and a message.
    Bytes junk{{1, 2, 3, 4, 5, 6, 7, 8}};
    p.applicable(junk, static_cast<uint32_t>(ids.size()), nullptr, &s);
    CHECK(s == HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    CHECK(!p.lastError().empty());
    for(int64_t id : ids)
    {
        hipdnnPluginConstData_t d{};
        CHECK_STATUS(p.details(id, graph, &d), HIPDNN_PLUGIN_STATUS_SUCCESS);
        const fbs::EngineDetails* details = hipdnn_plugin_sdk::verifyEngineDetails(&d);
        CHECK(details->engine_id() == id);
        CHECK_STATUS(p.destroyDetails(&d), HIPDNN_PLUGIN_STATUS_SUCCESS);
        CHECK(d.ptr == nullptr && d.size == 0);
    }
}

void runContext(Engine& p, int64_t id, const Bytes& graph, size_t expectWorkspace,
                hipdnnPluginStatus_t expectExecute = HIPDNN_PLUGIN_STATUS_SUCCESS,
                const std::vector<hipdnnPluginDeviceBuffer_t>& buffers = {})
{
    hipdnnEnginePluginExecutionContext_t ctx = nullptr;
    CHECK_STATUS(p.context(makeConfig(id), graph, &ctx), HIPDNN_PLUGIN_STATUS_SUCCESS);
    size_t ws = 12345;
    CHECK_STATUS(p.contextWorkspace(ctx, &ws), HIPDNN_PLUGIN_STATUS_SUCCESS);
    CHECK(ws == expectWorkspace);
    std::vector<hipdnnPluginDeviceBuffer_t> b = buffers;
    if(b.empty())
    {
        b = {{1, reinterpret_cast<void*>(0x1000)}, {2, reinterpret_cast<void*>(0x2000)}};
    }
    CHECK(p.execute(ctx, b) == expectExecute);
    CHECK_STATUS(p.destroyContext(ctx), HIPDNN_PLUGIN_STATUS_SUCCESS);
}

// ---- engine plugin checks -----------------------------------------------------------------
void goodPlugin()
{
    setCase("good");
    Engine p("custom/libtest_good_plugin.so");
    basicEngine(p, "test_good_plugin", "1.4.0", {-2}, {-2});
    if(p.so == nullptr)
    {
        return;
    }
    auto live = p.get<hipdnnTestGetLiveObjects_fn>(HIPDNN_TEST_GET_LIVE_OBJECTS);
    CHECK(live != nullptr && live(HIPDNN_TEST_LIVE_HANDLES) == 1);
    const Bytes graph = makeGraph(false);
    size_t ws = 0;
    CHECK_STATUS(p.workspace(makeConfig(-2), graph, &ws), HIPDNN_PLUGIN_STATUS_SUCCESS);
    CHECK(ws == 1024);
    CHECK_STATUS(p.workspace(makeConfig(-99), graph, &ws), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    runContext(p, -2, graph, 2048);
    // Engine name: exported, declines.
    hipdnnPluginStatus_t s;
    p.engineName(-2, &s);
    CHECK(s == HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE);
    CHECK_STATUS(p.ENGINE_FN(hipdnnEnginePluginGetEngineName)(-2, nullptr), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    // Details: serialization note.
    hipdnnPluginConstData_t d{};
    CHECK_STATUS(p.details(-2, graph, &d), HIPDNN_PLUGIN_STATUS_SUCCESS);
    const fbs::EngineDetails* details = hipdnn_plugin_sdk::verifyEngineDetails(&d);
    CHECK(details->behavior_notes() != nullptr && details->behavior_notes()->size() == 1
          && details->behavior_notes()->Get(0) == HIPDNN_BEHAVIOR_NOTE_SUPPORTS_EXECUTION_PLAN_SERIALIZATION);
    CHECK(live(HIPDNN_TEST_LIVE_ENGINE_DETAILS) == 1);
    CHECK_STATUS(p.destroyDetails(&d), HIPDNN_PLUGIN_STATUS_SUCCESS);
    // Serialization round trip.
    hipdnnEnginePluginExecutionContext_t ctx = nullptr;
    CHECK_STATUS(p.context(makeConfig(-2), graph, &ctx), HIPDNN_PLUGIN_STATUS_SUCCESS);
    hipdnnPluginConstData_t payload{};
    CHECK_STATUS(p.ENGINE_FN(hipdnnEnginePluginSerializeExecutionContext)(p.handle, ctx, &payload), HIPDNN_PLUGIN_STATUS_SUCCESS);
    CHECK(payload.ptr != nullptr && payload.size > 8);
    CHECK(live(HIPDNN_TEST_LIVE_SERIALIZED_CONTEXTS) == 1);
    std::vector<uint8_t> copy(static_cast<const uint8_t*>(payload.ptr), static_cast<const uint8_t*>(payload.ptr) + payload.size);
    CHECK_STATUS(p.ENGINE_FN(hipdnnEnginePluginDestroySerializedExecutionContext)(p.handle, &payload),
                 HIPDNN_PLUGIN_STATUS_SUCCESS);
    CHECK(payload.ptr == nullptr && payload.size == 0);
    hipdnnEnginePluginExecutionContext_t restored = nullptr;
    hipdnnPluginConstData_t in{copy.data(), copy.size()};
    CHECK_STATUS(p.ENGINE_FN(hipdnnEnginePluginCreateExecutionContextFromSerialized)(p.handle, &in, &restored),
                 HIPDNN_PLUGIN_STATUS_SUCCESS);
    size_t rws = 0;
    CHECK_STATUS(p.contextWorkspace(restored, &rws), HIPDNN_PLUGIN_STATUS_SUCCESS);
    CHECK(rws == 2048);
    CHECK(live(HIPDNN_TEST_LIVE_EXECUTION_CONTEXTS) == 2);
    copy[0] ^= 0xFF;
    hipdnnEnginePluginExecutionContext_t bad = nullptr;
    CHECK_STATUS(p.ENGINE_FN(hipdnnEnginePluginCreateExecutionContextFromSerialized)(p.handle, &in, &bad),
                 HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    CHECK_STATUS(p.destroyContext(restored), HIPDNN_PLUGIN_STATUS_SUCCESS);
    CHECK_STATUS(p.destroyContext(ctx), HIPDNN_PLUGIN_STATUS_SUCCESS);
    // Stream and log level accessors.
    CHECK_STATUS(p.ENGINE_FN(hipdnnEnginePluginSetStream)(p.handle, reinterpret_cast<hipStream_t>(0x1234)),
                 HIPDNN_PLUGIN_STATUS_SUCCESS);
    CHECK(p.get<hipdnnTestGetLastStream_fn>(HIPDNN_TEST_GET_LAST_STREAM)() == reinterpret_cast<void*>(0x1234));
    auto level = p.get<hipdnnTestGetLastLogLevel_fn>(HIPDNN_TEST_GET_LAST_LOG_LEVEL);
    CHECK(level() == -1);
    CHECK_STATUS(p.get<hipdnnPluginSetLogLevel_fn>("hipdnnPluginSetLogLevel")(HIPDNN_SEV_ERROR), HIPDNN_PLUGIN_STATUS_SUCCESS);
    CHECK(level() == HIPDNN_SEV_ERROR);
    CHECK_STATUS(p.destroy(), HIPDNN_PLUGIN_STATUS_SUCCESS);
    for(int kind = 0; kind < 4; ++kind)
    {
        CHECK(live(kind) == 0);
    }
}

void namedPlugins()
{
    struct Named
    {
        const char* file;
        const char* plugin;
        const char* engine;
    };
    for(const Named& n :
        {Named{"default/libtest_good_default_plugin.so", "test_good_default_plugin", "TEST_GOOD_DEFAULT_ENGINE"},
         Named{"custom/libtest_hashed_name_plugin.so", "test_hashed_name_plugin", "TEST_HASHED_NAME_ENGINE"},
         Named{"custom/libtest_execute_fails_plugin.so", "test_execute_fails_plugin", "TEST_EXECUTE_FAILS_ENGINE"}})
    {
        setCase(n.plugin);
        Engine p(n.file);
        const int64_t id = hipdnnPluginEngineNameToId(n.engine);
        basicEngine(p, n.plugin, "1.4.0", {id}, {id});
        if(p.so == nullptr)
        {
            continue;
        }
        hipdnnPluginStatus_t s;
        CHECK(p.engineName(id, &s) == n.engine);
        CHECK(s == HIPDNN_PLUGIN_STATUS_SUCCESS);
        p.engineName(12345, &s);
        CHECK(s == HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE);
        const bool fails = std::strcmp(n.engine, "TEST_EXECUTE_FAILS_ENGINE") == 0;
        runContext(p, id, makeGraph(false), 0, fails ? HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR : HIPDNN_PLUGIN_STATUS_SUCCESS);
        if(fails)
        {
            CHECK(p.lastError().find("on purpose") != std::string::npos);
        }
        CHECK_STATUS(p.destroy(), HIPDNN_PLUGIN_STATUS_SUCCESS);
    }

    setCase("mismatched_name");
    Engine m("custom/libtest_mismatched_name_plugin.so");
    basicEngine(m, "test_mismatched_name_plugin", "1.4.0", {-29}, {-29});
    hipdnnPluginStatus_t s;
    CHECK(m.engineName(-29, &s) == "TEST_MISMATCHED_NAME_ENGINE");
    CHECK(s == HIPDNN_PLUGIN_STATUS_SUCCESS);
    CHECK(hipdnnPluginEngineNameToId("TEST_MISMATCHED_NAME_ENGINE") != -29);
    CHECK_STATUS(m.destroy(), HIPDNN_PLUGIN_STATUS_SUCCESS);

    setCase("lying_engine_name");
    Engine l("custom/libtest_lying_engine_name_plugin.so");
    basicEngine(l, "test_lying_engine_name_plugin", "1.4.0", {-26, -27, -28}, {-26});
    CHECK(l.engineName(-26, &s) == "<null>" && s == HIPDNN_PLUGIN_STATUS_SUCCESS);
    CHECK(l.engineName(-27, &s).empty() && s == HIPDNN_PLUGIN_STATUS_SUCCESS);
    CHECK(l.engineName(-28, &s) == "TEST_LYING_ENGINE_NAME_MUST_BE_IGNORED");
    CHECK(s == HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR);
    CHECK_STATUS(l.destroy(), HIPDNN_PLUGIN_STATUS_SUCCESS);
}

void simplePlugins()
{
    struct Simple
    {
        const char* file;
        const char* plugin;
        const char* api;
        std::vector<int64_t> ids;
        std::vector<int64_t> applicable;
    };
    const std::vector<Simple> all = {
        {"custom/libtest_no_applicable_engines_a_plugin.so", "test_no_applicable_engines_a_plugin", "1.0.0", {-4}, {}},
        {"custom/libtest_no_applicable_engines_b_plugin.so", "test_no_applicable_engines_b_plugin", "1.0.0", {-5}, {}},
        {"custom/libtest_duplicate_id_a_plugin.so", "test_duplicate_id_a_plugin", "1.0.0", {-7}, {-7}},
        {"custom/libtest_duplicate_id_b_plugin.so", "test_duplicate_id_b_plugin", "1.0.0", {-7, -6}, {-7, -6}},
        {"custom/libtest_incompatible_version_plugin.so", "test_incompatible_version_plugin", "2.0.0", {-11}, {-11}},
        {"custom/libtest_override_omitting_plugin.so", "test_override_omitting_plugin", "1.0.0", {-13}, {-13}},
        {"custom/libtest_version_liar_plugin.so", "test_version_liar_plugin", "1.1.0", {-14}, {-14}},
        {"custom/libtest_malformed_version_plugin.so", "test_malformed_version_plugin", "one.two", {-16}, {-16}},
        {"custom/libtest_version_zero_plugin.so", "test_version_zero_plugin", "0.0.0", {-17}, {-17}},
        {"custom/libtest_pass_by_value_plugin.so", "test_pass_by_value_plugin", "1.2.0", {-24}, {-24}},
        {"custom/libtest_minimal_plugin.so", "test_minimal_plugin", "<none>", {-30}, {-30}},
        {"custom/libtest_incomplete_api_plugin.so", "test_incomplete_api_plugin", "1.0.0", {-3}, {-3}},
    };
    for(const Simple& t : all)
    {
        setCase(t.plugin);
        Engine p(t.file);
        basicEngine(p, t.plugin, t.api, t.ids, t.applicable);
        if(p.so == nullptr)
        {
            continue;
        }
        CHECK(!p.has("hipdnnEnginePluginExecuteOpGraphWithOverrides"));
        CHECK(!p.has("hipdnnEnginePluginSerializeExecutionContext"));
        if(std::strcmp(t.plugin, "test_incomplete_api_plugin") == 0)
        {
            CHECK(!p.has("hipdnnEnginePluginGetWorkspaceSize"));
        }
        else
        {
            size_t ws = 1;
            CHECK_STATUS(p.workspace(makeConfig(t.ids[0]), makeGraph(false), &ws), HIPDNN_PLUGIN_STATUS_SUCCESS);
            CHECK(ws == 0);
        }
        if(std::strcmp(t.plugin, "test_minimal_plugin") == 0)
        {
            CHECK(!p.has("hipdnnPluginGetApiVersion") && !p.has("hipdnnPluginSetLoggingCallback")
                  && !p.has("hipdnnPluginSetLogLevel") && !p.has("hipdnnEnginePluginGetEngineName"));
        }
        CHECK_STATUS(p.destroy(), HIPDNN_PLUGIN_STATUS_SUCCESS);
    }
}

void knobPlugins()
{
    setCase("knobs");
    Engine p("custom/libtest_knobs_plugin.so");
    basicEngine(p, "test_knobs_plugin", "1.0.0", {-8, -9}, {-8, -9});
    if(p.so == nullptr)
    {
        return;
    }
    const Bytes graph = makeGraph(false);
    hipdnnPluginConstData_t d{};
    CHECK_STATUS(p.details(-8, graph, &d), HIPDNN_PLUGIN_STATUS_SUCCESS);
    const fbs::EngineDetails* a = hipdnn_plugin_sdk::verifyEngineDetails(&d);
    CHECK(a->knobs() != nullptr && a->knobs()->size() == 3);
    CHECK(a->behavior_notes() != nullptr && a->behavior_notes()->size() == 2);
    CHECK(a->name() != nullptr && a->name()->str() == "TEST_KNOBS_DETAILS_ONLY_NAME");
    if(a->knobs() != nullptr && a->knobs()->size() == 3)
    {
        const fbs::Knob* k0 = a->knobs()->Get(0);
        CHECK(k0->knob_id()->str() == "test.knobs.tile_size");
        CHECK(k0->default_value_as_IntValue() != nullptr && k0->default_value_as_IntValue()->value() == 64);
        CHECK(k0->constraint_as_IntConstraint() != nullptr && k0->constraint_as_IntConstraint()->step() == 16);
        CHECK(a->knobs()->Get(1)->default_value_as_FloatValue() != nullptr);
        CHECK(a->knobs()->Get(2)->constraint_as_StringConstraint() != nullptr
              && a->knobs()->Get(2)->constraint_as_StringConstraint()->valid_values()->size() == 2);
    }
    CHECK_STATUS(p.destroyDetails(&d), HIPDNN_PLUGIN_STATUS_SUCCESS);
    CHECK_STATUS(p.details(-9, graph, &d), HIPDNN_PLUGIN_STATUS_SUCCESS);
    const fbs::EngineDetails* b = hipdnn_plugin_sdk::verifyEngineDetails(&d);
    CHECK(b->knobs() != nullptr && b->knobs()->size() == 3 && b->knobs()->Get(0)->deprecated());
    CHECK(b->knobs()->Get(0)->constraint_type() == fbs::KnobConstraint::NONE);
    CHECK(b->name() == nullptr);
    CHECK_STATUS(p.destroyDetails(&d), HIPDNN_PLUGIN_STATUS_SUCCESS);
    hipdnnEnginePluginExecutionContext_t ctx = nullptr;
    CHECK_STATUS(
        p.context(makeConfig(-8, {intKnob("test.knobs.tile_size", 32), stringKnob("test.knobs.mode", "accurate")}), graph, &ctx),
        HIPDNN_PLUGIN_STATUS_SUCCESS);
    CHECK_STATUS(p.destroyContext(ctx), HIPDNN_PLUGIN_STATUS_SUCCESS);
    CHECK_STATUS(p.context(makeConfig(-8, {intKnob("test.knobs.tile_size", 33)}), graph, &ctx), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    CHECK_STATUS(p.context(makeConfig(-8, {intKnob("test.knobs.nope", 1)}), graph, &ctx), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    CHECK_STATUS(p.context(makeConfig(-8, {intKnob("global.benchmarking", 1)}), graph, &ctx), HIPDNN_PLUGIN_STATUS_SUCCESS);
    CHECK_STATUS(p.destroyContext(ctx), HIPDNN_PLUGIN_STATUS_SUCCESS);
    CHECK_STATUS(p.destroy(), HIPDNN_PLUGIN_STATUS_SUCCESS);

    setCase("knob_constraint_validation");
    Engine c("custom/libtest_knob_constraint_validation_plugin.so");
    basicEngine(c, "test_knob_constraint_validation_plugin", "1.0.0", {-10}, {-10});
    if(c.so == nullptr)
    {
        return;
    }
    CHECK_STATUS(c.details(-10, graph, &d), HIPDNN_PLUGIN_STATUS_SUCCESS);
    const fbs::EngineDetails* details = hipdnn_plugin_sdk::verifyEngineDetails(&d);
    CHECK(details->knobs()->size() == 3);
    const fbs::Knob* ik = details->knobs()->Get(0);
    CHECK(ik->knob_id()->str() == "constraint.int_knob" && ik->default_value_as_IntValue()->value() == 50);
    const fbs::IntConstraint* ic = ik->constraint_as_IntConstraint();
    CHECK(ic != nullptr && ic->min_value() == 0 && ic->max_value() == 100 && ic->step() == 5);
    const fbs::Knob* fk = details->knobs()->Get(1);
    CHECK(fk->knob_id()->str() == "constraint.float_knob" && fk->default_value_as_FloatValue()->value() == 5.0);
    CHECK(fk->constraint_as_FloatConstraint() != nullptr && fk->constraint_as_FloatConstraint()->max_value() == 10.0);
    const fbs::Knob* sk = details->knobs()->Get(2);
    CHECK(sk->knob_id()->str() == "constraint.string_knob" && sk->default_value_as_StringValue()->value()->str() == "beta");
    CHECK(sk->constraint_as_StringConstraint()->valid_values()->size() == 3);
    CHECK_STATUS(c.destroyDetails(&d), HIPDNN_PLUGIN_STATUS_SUCCESS);

    struct Case
    {
        std::vector<KnobAdder> knobs;
        hipdnnPluginStatus_t expected;
    };
    const std::vector<Case> cases = {
        {{}, HIPDNN_PLUGIN_STATUS_SUCCESS},
        {{intKnob("constraint.int_knob", 0), floatKnob("constraint.float_knob", 10.0),
          stringKnob("constraint.string_knob", "gamma")},
         HIPDNN_PLUGIN_STATUS_SUCCESS},
        {{intKnob("constraint.int_knob", 100)}, HIPDNN_PLUGIN_STATUS_SUCCESS},
        {{intKnob("constraint.int_knob", 105)}, HIPDNN_PLUGIN_STATUS_BAD_PARAM},
        {{intKnob("constraint.int_knob", -5)}, HIPDNN_PLUGIN_STATUS_BAD_PARAM},
        {{intKnob("constraint.int_knob", 7)}, HIPDNN_PLUGIN_STATUS_BAD_PARAM},
        {{floatKnob("constraint.int_knob", 50.0)}, HIPDNN_PLUGIN_STATUS_BAD_PARAM},
        {{floatKnob("constraint.float_knob", 10.5)}, HIPDNN_PLUGIN_STATUS_BAD_PARAM},
        {{floatKnob("constraint.float_knob", std::nan(""))}, HIPDNN_PLUGIN_STATUS_BAD_PARAM},
        {{intKnob("constraint.float_knob", 5)}, HIPDNN_PLUGIN_STATUS_BAD_PARAM},
        {{stringKnob("constraint.string_knob", "delta")}, HIPDNN_PLUGIN_STATUS_BAD_PARAM},
        {{intKnob("constraint.string_knob", 1)}, HIPDNN_PLUGIN_STATUS_BAD_PARAM},
    };
    for(size_t i = 0; i < cases.size(); ++i)
    {
        hipdnnEnginePluginExecutionContext_t k = nullptr;
        const hipdnnPluginStatus_t s = c.context(makeConfig(-10, cases[i].knobs), graph, &k);
        CHECK_MSG(s == cases[i].expected, "constraint case %zu", i);
        if(s == HIPDNN_PLUGIN_STATUS_SUCCESS)
        {
            CHECK_STATUS(c.destroyContext(k), HIPDNN_PLUGIN_STATUS_SUCCESS);
        }
        else
        {
            CHECK(c.lastError().find("constraint.") != std::string::npos);
        }
    }
    CHECK_STATUS(c.destroy(), HIPDNN_PLUGIN_STATUS_SUCCESS);
}

void overridePlugins()
{
    for(const auto& [file, name, id] :
        {std::tuple<const char*, const char*, int64_t>{"custom/libtest_override_implementing_plugin.so",
                                                       "test_override_implementing_plugin", -12},
         {"custom/libtest_second_override_plugin.so", "test_second_override_plugin", -15}})
    {
        setCase(name);
        Engine p(file);
        basicEngine(p, name, "1.1.0", {id}, {id});
        if(p.so == nullptr)
        {
            continue;
        }
        auto withOverrides = p.ENGINE_FN(hipdnnEnginePluginExecuteOpGraphWithOverrides);
        CHECK(withOverrides != nullptr);
        hipdnnEnginePluginExecutionContext_t ctx = nullptr;
        CHECK_STATUS(p.context(makeConfig(id), makeGraph(false), &ctx), HIPDNN_PLUGIN_STATUS_SUCCESS);
        hipdnnPluginDeviceBuffer_t buffers[2] = {{1, reinterpret_cast<void*>(0x10)}, {2, reinterpret_cast<void*>(0x20)}};
        const int64_t uids[1] = {2};
        const uint32_t lengths[1] = {2};
        const int64_t shape[2] = {4, 3};
        const int64_t stride[2] = {3, 1};
        const int64_t* shapes[1] = {shape};
        const int64_t* strides[1] = {stride};
        CHECK_STATUS(withOverrides(p.handle, ctx, nullptr, buffers, 2, 1, uids, lengths, shapes, strides),
                     HIPDNN_PLUGIN_STATUS_SUCCESS);
        CHECK_STATUS(p.execute(ctx, {buffers[0], buffers[1]}), HIPDNN_PLUGIN_STATUS_SUCCESS);
        const int64_t missing[1] = {9};
        CHECK_STATUS(withOverrides(p.handle, ctx, nullptr, buffers, 2, 1, missing, lengths, shapes, strides),
                     HIPDNN_PLUGIN_STATUS_BAD_PARAM);
        uint64_t plain = 0;
        uint64_t over = 0;
        uint32_t last = 0;
        p.get<hipdnnTestGetExecuteStats_fn>(HIPDNN_TEST_GET_EXECUTE_STATS)(&plain, &over, &last);
        CHECK(plain == 1 && over == 1 && last == 1);
        int64_t gotShape[4] = {};
        int64_t gotStride[4] = {};
        auto lastOverride = p.get<hipdnnTestGetLastOverride_fn>(HIPDNN_TEST_GET_LAST_OVERRIDE);
        CHECK(lastOverride(2, gotShape, gotStride, 4) == 2);
        CHECK(gotShape[0] == 4 && gotShape[1] == 3 && gotStride[0] == 3 && gotStride[1] == 1);
        CHECK(lastOverride(1, nullptr, nullptr, 0) == -1);
        CHECK_STATUS(p.destroyContext(ctx), HIPDNN_PLUGIN_STATUS_SUCCESS);
        CHECK_STATUS(p.destroy(), HIPDNN_PLUGIN_STATUS_SUCCESS);
    }
}

void passByValuePlugins()
{
    setCase("pass_by_value_recorder");
    Engine p("custom/libtest_pass_by_value_recorder_plugin.so");
    basicEngine(p, "test_pass_by_value_recorder_plugin", "1.2.0", {-25}, {-25});
    if(p.so == nullptr)
    {
        return;
    }
    auto getLast = p.get<hipdnnTestRecorderGetLast_fn>(HIPDNN_TEST_RECORDER_GET_LAST);
    CHECK(getLast != nullptr && getLast(5, nullptr, 0) == -1);
    float alpha = 3.5f;
    const Bytes graph = makeGraph(true);
    runContext(p, -25, graph, 0, HIPDNN_PLUGIN_STATUS_SUCCESS,
               {{1, reinterpret_cast<void*>(0x10)}, {2, reinterpret_cast<void*>(0x20)}, {5, &alpha}});
    float seen = 0.0f;
    CHECK(getLast(5, &seen, sizeof seen) == 4);
    CHECK(seen == 3.5f);
    // Missing scalar in the variant pack: BAD_PARAM.
    runContext(p, -25, graph, 0, HIPDNN_PLUGIN_STATUS_BAD_PARAM);
    p.get<hipdnnTestRecorderClear_fn>(HIPDNN_TEST_RECORDER_CLEAR)();
    CHECK(getLast(5, nullptr, 0) == -1);
    CHECK_STATUS(p.destroy(), HIPDNN_PLUGIN_STATUS_SUCCESS);
}

void graphRecorderPlugin()
{
    setCase("graph_recorder");
    Engine p("custom/libtest_graph_recorder_plugin.so");
    basicEngine(p, "test_graph_recorder_plugin", "1.4.0", {-31}, {-31});
    if(p.so == nullptr)
    {
        return;
    }
    auto getLast = p.get<hipdnnTestGraphRecorderGetLast_fn>(HIPDNN_TEST_GRAPH_RECORDER_GET_LAST);
    auto clear = p.get<hipdnnTestGraphRecorderClear_fn>(HIPDNN_TEST_GRAPH_RECORDER_CLEAR);
    CHECK(getLast != nullptr && clear != nullptr);
    if(getLast == nullptr || clear == nullptr)
    {
        return;
    }
    clear();
    int64_t calls = -1;
    CHECK(getLast(HIPDNN_TEST_GRAPH_AT_APPLICABLE, nullptr, 0, &calls) == 0 && calls == 0);
    CHECK(getLast(3, nullptr, 0, nullptr) == -1);
    const Bytes graph = makeGraph(false);
    CHECK(p.applicable(graph, 1) == std::vector<int64_t>{-31});
    runContext(p, -31, graph, 0);
    for(int32_t at : {HIPDNN_TEST_GRAPH_AT_APPLICABLE, HIPDNN_TEST_GRAPH_AT_CREATE_CONTEXT})
    {
        std::vector<uint8_t> got(graph.data.size());
        CHECK(getLast(at, got.data(), got.size(), &calls) == static_cast<int64_t>(graph.data.size()));
        CHECK(calls >= 1 && got == graph.data);
    }
    clear();
    CHECK(getLast(HIPDNN_TEST_GRAPH_AT_CREATE_CONTEXT, nullptr, 0, &calls) == 0 && calls == 0);
    CHECK_STATUS(p.destroy(), HIPDNN_PLUGIN_STATUS_SUCCESS);
}

// ---- faulty plugins -----------------------------------------------------------------------
void faultyPlugins()
{
    const Bytes graph = makeGraph(false);
    hipdnnPluginStatus_t s;
    {
        setCase("faulty_zero_engines");
        Engine p("faulty/libtest_faulty_zero_engines_plugin.so");
        uint32_t first = 99;
        CHECK(p.allIds(&s, &first).empty() && first == 0);
    }
    {
        setCase("faulty_count_mismatch");
        Engine p("faulty/libtest_faulty_count_mismatch_plugin.so");
        uint32_t first = 0;
        std::vector<int64_t> ids = p.allIds(&s, &first);
        CHECK(first == 2 && ids.size() == 1);
    }
    {
        setCase("faulty_duplicate_ids");
        Engine p("faulty/libtest_faulty_duplicate_ids_plugin.so");
        CHECK(p.allIds() == std::vector<int64_t>({-103, -103}));
    }
    {
        setCase("faulty_applicable_overflow");
        Engine p("faulty/libtest_faulty_applicable_overflow_plugin.so");
        CHECK_STATUS(p.create(), HIPDNN_PLUGIN_STATUS_SUCCESS);
        uint32_t reported = 0;
        p.applicable(graph, 1, &reported, &s);
        CHECK(s == HIPDNN_PLUGIN_STATUS_SUCCESS && reported == 2);
        CHECK_STATUS(p.destroy(), HIPDNN_PLUGIN_STATUS_SUCCESS);
    }
    {
        setCase("faulty_undeclared_id");
        Engine p("faulty/libtest_faulty_undeclared_id_plugin.so");
        CHECK(p.allIds() == std::vector<int64_t>({-105}));
        CHECK_STATUS(p.create(), HIPDNN_PLUGIN_STATUS_SUCCESS);
        CHECK(p.applicable(graph, 1) == std::vector<int64_t>({-1050}));
        CHECK_STATUS(p.destroy(), HIPDNN_PLUGIN_STATUS_SUCCESS);
    }
    for(const auto& [file, id, what] :
        {std::tuple<const char*, int64_t, int>{"faulty/libtest_faulty_details_null_plugin.so", -106, 0},
         {"faulty/libtest_faulty_details_empty_plugin.so", -107, 1},
         {"faulty/libtest_faulty_details_garbage_plugin.so", -108, 2}})
    {
        setCase(file);
        Engine p(file);
        CHECK_STATUS(p.create(), HIPDNN_PLUGIN_STATUS_SUCCESS);
        hipdnnPluginConstData_t d{};
        CHECK_STATUS(p.details(id, graph, &d), HIPDNN_PLUGIN_STATUS_SUCCESS);
        if(what == 0)
        {
            CHECK(d.ptr == nullptr);
        }
        if(what == 1)
        {
            CHECK(d.ptr != nullptr && d.size == 0);
        }
        if(what == 2)
        {
            flatbuffers::Verifier v(static_cast<const uint8_t*>(d.ptr), d.size);
            CHECK(d.ptr != nullptr && d.size > 0 && !fbs::VerifyEngineDetailsBuffer(v));
        }
        CHECK_STATUS(p.destroyDetails(&d), HIPDNN_PLUGIN_STATUS_SUCCESS);
        CHECK_STATUS(p.destroy(), HIPDNN_PLUGIN_STATUS_SUCCESS);
    }
    {
        setCase("faulty_context_null");
        Engine p("faulty/libtest_faulty_context_null_plugin.so");
        CHECK_STATUS(p.create(), HIPDNN_PLUGIN_STATUS_SUCCESS);
        hipdnnEnginePluginExecutionContext_t ctx = reinterpret_cast<hipdnnEnginePluginExecutionContext_t>(0x1);
        CHECK_STATUS(p.context(makeConfig(-109), graph, &ctx), HIPDNN_PLUGIN_STATUS_SUCCESS);
        CHECK(ctx == nullptr);
        CHECK_STATUS(p.destroy(), HIPDNN_PLUGIN_STATUS_SUCCESS);
    }
    {
        setCase("faulty_context_workspace");
        Engine p("faulty/libtest_faulty_context_workspace_plugin.so");
        CHECK_STATUS(p.create(), HIPDNN_PLUGIN_STATUS_SUCCESS);
        hipdnnEnginePluginExecutionContext_t ctx = nullptr;
        CHECK_STATUS(p.context(makeConfig(-110), graph, &ctx), HIPDNN_PLUGIN_STATUS_SUCCESS);
        size_t ws = 0;
        CHECK_STATUS(p.contextWorkspace(ctx, &ws), HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR);
        CHECK(!p.lastError().empty());
        CHECK_STATUS(p.destroyContext(ctx), HIPDNN_PLUGIN_STATUS_SUCCESS);
        CHECK_STATUS(p.destroy(), HIPDNN_PLUGIN_STATUS_SUCCESS);
    }
    {
        setCase("faulty_wrong_type");
        Engine p("faulty/libtest_faulty_wrong_type_plugin.so");
        hipdnnPluginType_t type = HIPDNN_PLUGIN_TYPE_UNSPECIFIED;
        CHECK_STATUS(p.get<hipdnnPluginGetType_fn>("hipdnnPluginGetType")(&type), HIPDNN_PLUGIN_STATUS_SUCCESS);
        CHECK(type == HIPDNN_PLUGIN_TYPE_HEURISTIC);
    }
    {
        setCase("faulty_create_null");
        Engine p("faulty/libtest_faulty_create_null_plugin.so");
        p.handle = reinterpret_cast<hipdnnEnginePluginHandle_t>(0x1);
        CHECK_STATUS(p.create(), HIPDNN_PLUGIN_STATUS_SUCCESS);
        CHECK(p.handle == nullptr);
    }
    {
        setCase("faulty_shared_handle");
        Engine a("faulty/libtest_faulty_shared_handle_a_plugin.so");
        Engine b("faulty/libtest_faulty_shared_handle_b_plugin.so");
        CHECK_STATUS(a.create(), HIPDNN_PLUGIN_STATUS_SUCCESS);
        CHECK_STATUS(b.create(), HIPDNN_PLUGIN_STATUS_SUCCESS);
        CHECK(a.handle != nullptr && a.handle == b.handle);
        CHECK_STATUS(b.destroy(), HIPDNN_PLUGIN_STATUS_SUCCESS);
        CHECK(a.applicable(graph, 1) == std::vector<int64_t>({-113})); // still usable
        CHECK_STATUS(a.destroy(), HIPDNN_PLUGIN_STATUS_SUCCESS);
    }
}

// ---- heuristic plugins --------------------------------------------------------------------
struct Heuristic : Plugin
{
    using Plugin::Plugin;
#define HEUR_FN(name) get<name##_fn>(#name)
};

// Drives one finalize; returns applied (or -1 on a failing status) and fills `order`.
int runPolicy(Heuristic& p, const std::vector<int64_t>& candidates, std::vector<int64_t>* order,
              const hipdnnHeuristicHostCallbacks_t* host, bool useHost, hipdnnPluginStatus_t* propsStatus = nullptr)
{
    uint32_t n = 0;
    CHECK_STATUS(p.HEUR_FN(hipdnnHeuristicPluginGetAllPolicyIds)(nullptr, 0, &n), HIPDNN_PLUGIN_STATUS_SUCCESS);
    int64_t policy = 0;
    CHECK_STATUS(p.HEUR_FN(hipdnnHeuristicPluginGetAllPolicyIds)(&policy, 1, &n), HIPDNN_PLUGIN_STATUS_SUCCESS);
    hipdnnHeuristicHandle_t handle = nullptr;
    CHECK_STATUS(p.HEUR_FN(hipdnnHeuristicHandleCreate)(&handle), HIPDNN_PLUGIN_STATUS_SUCCESS);
    const Bytes props = makeDeviceProperties();
    const hipdnnPluginConstData_t pv = props.view();
    const hipdnnPluginStatus_t ps = p.HEUR_FN(hipdnnHeuristicHandleSetDeviceProperties)(handle, &pv);
    if(propsStatus != nullptr)
    {
        *propsStatus = ps;
    }
    hipdnnHeuristicPolicyDescriptor_t desc = nullptr;
    CHECK_STATUS(p.HEUR_FN(hipdnnHeuristicPolicyDescriptorCreate)(handle, policy, &desc), HIPDNN_PLUGIN_STATUS_SUCCESS);
    CHECK_STATUS(p.HEUR_FN(hipdnnHeuristicPolicySetEngineIds)(desc, candidates.data(), candidates.size()),
                 HIPDNN_PLUGIN_STATUS_SUCCESS);
    const Bytes graph = makeGraph(false);
    const hipdnnPluginConstData_t gv = graph.view();
    CHECK_STATUS(p.HEUR_FN(hipdnnHeuristicPolicySetSerializedGraph)(desc, &gv), HIPDNN_PLUGIN_STATUS_SUCCESS);
    int32_t applied = -1;
    hipdnnPluginStatus_t s;
    if(useHost)
    {
        s = p.HEUR_FN(hipdnnHeuristicPolicyFinalizeWithHost)(desc, host, &applied);
    }
    else
    {
        s = p.HEUR_FN(hipdnnHeuristicPolicyFinalize)(desc, &applied);
    }
    int result = s == HIPDNN_PLUGIN_STATUS_SUCCESS ? applied : -1;
    auto sorted = p.HEUR_FN(hipdnnHeuristicPolicyGetSortedEngineIds);
    if(result == 1 && sorted != nullptr)
    {
        size_t total = 0;
        CHECK_STATUS(sorted(desc, nullptr, &total), HIPDNN_PLUGIN_STATUS_SUCCESS);
        order->assign(total, 0);
        size_t cap = total;
        CHECK_STATUS(sorted(desc, order->data(), &cap), HIPDNN_PLUGIN_STATUS_SUCCESS);
        CHECK(cap == total);
        if(total > 1)
        {
            std::vector<int64_t> truncated(1, 0);
            size_t one = 1;
            CHECK_STATUS(sorted(desc, truncated.data(), &one), HIPDNN_PLUGIN_STATUS_SUCCESS);
            CHECK(one == 1 && truncated[0] == (*order)[0]);
        }
        auto config = p.HEUR_FN(hipdnnHeuristicPolicyGetEngineConfig);
        if(config != nullptr)
        {
            for(int64_t id : *order)
            {
                hipdnnPluginConstData_t c{};
                CHECK_STATUS(config(desc, id, &c), HIPDNN_PLUGIN_STATUS_SUCCESS);
                CHECK(hipdnn_plugin_sdk::verifyEngineConfig(&c)->engine_id() == id);
            }
        }
    }
    else if(sorted != nullptr)
    {
        size_t total = 0;
        CHECK_STATUS(sorted(desc, nullptr, &total), HIPDNN_PLUGIN_STATUS_NOT_INITIALIZED);
    }
    CHECK_STATUS(p.HEUR_FN(hipdnnHeuristicPolicyDescriptorDestroy)(desc), HIPDNN_PLUGIN_STATUS_SUCCESS);
    CHECK_STATUS(p.HEUR_FN(hipdnnHeuristicHandleDestroy)(handle), HIPDNN_PLUGIN_STATUS_SUCCESS);
    return result;
}

void basicHeuristic(Heuristic& p, const char* name, const char* api, const char* policyName, int64_t policyId)
{
    CHECK(p.so != nullptr);
    if(p.so == nullptr)
    {
        return;
    }
    CHECK(p.str("hipdnnPluginGetName") == name);
    CHECK(p.str("hipdnnPluginGetApiVersion") == api);
    hipdnnPluginType_t type = HIPDNN_PLUGIN_TYPE_UNSPECIFIED;
    CHECK_STATUS(p.get<hipdnnPluginGetType_fn>("hipdnnPluginGetType")(&type), HIPDNN_PLUGIN_STATUS_SUCCESS);
    CHECK(type == HIPDNN_PLUGIN_TYPE_HEURISTIC);
    CHECK(p.has("hipdnnPluginSetLoggingCallback"));
    uint32_t n = 0;
    CHECK_STATUS(p.HEUR_FN(hipdnnHeuristicPluginGetAllPolicyIds)(nullptr, 0, &n), HIPDNN_PLUGIN_STATUS_SUCCESS);
    CHECK(n == 1);
    int64_t id = 0;
    CHECK_STATUS(p.HEUR_FN(hipdnnHeuristicPluginGetAllPolicyIds)(&id, 1, &n), HIPDNN_PLUGIN_STATUS_SUCCESS);
    CHECK(id == policyId);
    const char* got = nullptr;
    CHECK_STATUS(p.HEUR_FN(hipdnnHeuristicPluginGetPolicyName)(id, &got), HIPDNN_PLUGIN_STATUS_SUCCESS);
    CHECK(got != nullptr && std::string(got) == policyName);
    CHECK_STATUS(p.HEUR_FN(hipdnnHeuristicPluginGetPolicyName)(id + 1, &got), HIPDNN_PLUGIN_STATUS_BAD_PARAM);
}

void heuristicPlugins()
{
    const std::vector<int64_t> candidates{-2, -7, 42};
    const std::vector<int64_t> reversed{42, -7, -2};
    std::vector<int64_t> order;
    {
        setCase("good_heuristic");
        Heuristic p("heuristics/libtest_good_heuristic_plugin.so");
        basicHeuristic(p, "test_good_heuristic_plugin", "0.1.0", "TestHeuristic::Reverse",
                       hipdnnPluginPolicyNameToId("TestHeuristic::Reverse"));
        CHECK(p.has("hipdnnPluginSetLogLevel") && p.has("hipdnnHeuristicPolicyGetTrace"));
        hipdnnHeuristicHostCallbacks_t host{};
        host.version = HIPDNN_HEURISTIC_HOST_CALLBACKS_VERSION;
        host.struct_size = sizeof host;
        host.ranking_metric = "time";
        CHECK(runPolicy(p, candidates, &order, &host, true) == 1);
        CHECK(order == reversed);
        int32_t used = 0;
        uint32_t version = 0;
        size_t size = 0;
        char metric[16];
        char arch[64];
        auto last = p.get<hipdnnTestHeuristicGetLastFinalize_fn>(HIPDNN_TEST_HEURISTIC_GET_LAST_FINALIZE);
        CHECK(last(&used, &version, &size, metric, sizeof metric, arch, sizeof arch) == 1);
        CHECK(used == 1 && version == 2 && size == 40 && std::string(metric) == "time");
        CHECK(std::string(arch) == "gfx942:sramecc+:xnack-");
        CHECK(runPolicy(p, candidates, &order, nullptr, false) == 1);
        CHECK(last(&used, nullptr, nullptr, metric, sizeof metric, nullptr, 0) == 1 && used == 0 && metric[0] == '\0');
        CHECK(runPolicy(p, {}, &order, nullptr, true) == 0);
    }
    {
        setCase("incomplete_heuristic");
        Heuristic p("heuristics/libtest_incomplete_heuristic_api_plugin.so");
        basicHeuristic(p, "test_incomplete_heuristic_api_plugin", "0.1.0", "TestHeuristic::Incomplete",
                       hipdnnPluginPolicyNameToId("TestHeuristic::Incomplete"));
        CHECK(!p.has("hipdnnHeuristicPolicyGetSortedEngineIds"));
    }
    {
        setCase("no_optional_heuristic");
        Heuristic p("heuristics/libtest_no_optional_heuristic_plugin.so");
        basicHeuristic(p, "test_no_optional_heuristic_plugin", "0.1.0", "TestHeuristic::NoOptional",
                       hipdnnPluginPolicyNameToId("TestHeuristic::NoOptional"));
        CHECK(!p.has("hipdnnHeuristicPolicyFinalizeWithHost") && !p.has("hipdnnHeuristicPolicyGetEngineConfig")
              && !p.has("hipdnnPluginSetLogLevel"));
        CHECK(runPolicy(p, candidates, &order, nullptr, false) == 1);
        CHECK(order == candidates);
    }
    {
        setCase("bad_api_version_heuristic");
        Heuristic p("heuristics/libtest_bad_api_version_heuristic_plugin.so");
        basicHeuristic(p, "test_bad_api_version_heuristic_plugin", "1.0.0", "TestHeuristic::BadApiVersion",
                       hipdnnPluginPolicyNameToId("TestHeuristic::BadApiVersion"));
    }
    {
        setCase("empty_name_heuristic");
        Heuristic p("heuristics/libtest_empty_name_heuristic_plugin.so");
        basicHeuristic(p, "test_empty_name_heuristic_plugin", "0.1.0", "",
                       hipdnnPluginPolicyNameToId("TestHeuristic::EmptyName"));
    }
    {
        setCase("duplicate_policy_id");
        Heuristic a("heuristics/libtest_duplicate_policy_id_a_plugin.so");
        Heuristic b("heuristics/libtest_duplicate_policy_id_b_plugin.so");
        const int64_t id = hipdnnPluginPolicyNameToId("TestHeuristic::Duplicate");
        basicHeuristic(a, "test_duplicate_policy_id_a_plugin", "0.1.0", "TestHeuristic::Duplicate", id);
        basicHeuristic(b, "test_duplicate_policy_id_b_plugin", "0.1.0", "TestHeuristic::Duplicate", id);
        CHECK(runPolicy(a, candidates, &order, nullptr, false) == 1 && order == reversed);
        CHECK(runPolicy(b, candidates, &order, nullptr, false) == 1 && order == candidates);
    }
    {
        setCase("declining_heuristic");
        Heuristic p("heuristics/libtest_declining_heuristic_plugin.so");
        basicHeuristic(p, "test_declining_heuristic_plugin", "0.1.0", "TestHeuristic::Decline",
                       hipdnnPluginPolicyNameToId("TestHeuristic::Decline"));
        CHECK(runPolicy(p, candidates, &order, nullptr, false) == 0);
    }
    {
        setCase("invalid_permutation_heuristic");
        Heuristic p("heuristics/libtest_invalid_permutation_heuristic_plugin.so");
        basicHeuristic(p, "test_invalid_permutation_heuristic_plugin", "0.1.0", "TestHeuristic::InvalidPermutation",
                       hipdnnPluginPolicyNameToId("TestHeuristic::InvalidPermutation"));
        CHECK(runPolicy(p, candidates, &order, nullptr, false) == 1);
        CHECK(order.size() == candidates.size() + 1);
        CHECK(!order.empty() && order[0] != -2 && order[0] != -7 && order[0] != 42);
    }
    {
        setCase("device_properties_fail_heuristic");
        Heuristic p("heuristics/libtest_device_properties_fail_heuristic_plugin.so");
        basicHeuristic(p, "test_device_properties_fail_heuristic_plugin", "0.1.0", "TestHeuristic::DevicePropertiesFail",
                       hipdnnPluginPolicyNameToId("TestHeuristic::DevicePropertiesFail"));
        hipdnnPluginStatus_t ps = HIPDNN_PLUGIN_STATUS_SUCCESS;
        runPolicy(p, candidates, &order, nullptr, false, &ps);
        CHECK(ps == HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR);
        CHECK(p.lastError().find("on purpose") != std::string::npos);
    }
}

} // namespace

int main(int argc, char** argv)
{
    if(argc != 2)
    {
        std::fprintf(stderr, "usage: %s <test plugin dir>\n", argv[0]);
        return 2;
    }
    dir = argv[1];
    goodPlugin();
    namedPlugins();
    simplePlugins();
    knobPlugins();
    overridePlugins();
    passByValuePlugins();
    graphRecorderPlugin();
    faultyPlugins();
    heuristicPlugins();
    return check_finish("test plugin checks");
}
