// One parameterised engine plugin. Compiled once per test plugin with -DTP_PROFILE_<NAME>; the
// profile (test_engine_profiles.hpp) picks the plugin's name, API version, engines, optional
// entry points and, for the faulty/ plugins, the one thing it does wrong.
//
// Behaviour common to all profiles:
//   - engines are applicable to every graph that verifies, unless the profile says otherwise;
//   - execute is a no-op (the test plugins never touch device memory);
//   - execution contexts remember the engine id, the workspace size and copies of the graph and
//     engine-config bytes;
//   - every failure sets the thread's last error (hipdnnPluginGetLastErrorString).

#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include <hipdnn_plugin_sdk/EnginePluginApi.h>
#include <hipdnn_plugin_sdk/EngineNames.h>
#include <hipdnn_plugin_sdk/EnginePluginExtensions.h>
#include <hipdnn_plugin_sdk/helpers/PluginHelpers.hpp>

namespace
{

enum class NameAnswer
{
    Decline,
    Named,
    NullName,
    EmptyName,
    FailWithName
};

enum class KnobSet
{
    None,
    DemoA,
    DemoB,
    Constraint,
    ConfigIndex
};

struct EngineDef
{
    int64_t id;
    bool applicable;
    NameAnswer nameAnswer;
    const char* name;
    KnobSet knobs;
    unsigned notes;
};

constexpr int64_t engineId(const char* name) { return hipdnn_plugin_sdk::engineNameToId(name); }

static_assert(static_cast<uint64_t>(engineId("TEST_GOOD_DEFAULT_ENGINE")) == 0x5FB06B52DB2039ACull);
static_assert(static_cast<uint64_t>(engineId("TEST_EXECUTE_FAILS_ENGINE")) == 0x637C0BB90F065BA2ull);
static_assert(static_cast<uint64_t>(engineId("TEST_HASHED_NAME_ENGINE")) == 0xD134891277747B22ull);

} // namespace

#include "test_engine_profiles.hpp"

#define TP_PLUGIN_KIND HIPDNN_PLUGIN_TYPE_ENGINE
#if TP_FAULT == TP_FAULT_WRONG_TYPE
#define TP_REPORTED_TYPE HIPDNN_PLUGIN_TYPE_HEURISTIC
#endif
#include "../common/test_plugin_common.hpp"

using hipdnn_plugin_sdk::fail;
using hipdnn_plugin_sdk::KnobSpec;
using hipdnn_plugin_sdk::requireNotNull;
namespace fbs = hipdnn_plugin_sdk::fbs;

namespace
{

constexpr EngineDef kEngines[] = TP_ENGINES;
constexpr const char* kDetailsOnlyName = TP_DETAILS_ONLY_NAME;
constexpr uint64_t kHandleMagic = 0x54504C5548414E44ull; // "TPLUHAND"
constexpr uint64_t kContextMagic = 0x54504C55435458ull; // "TPLUCTX"

// ---- diagnostics --------------------------------------------------------------------------------
std::atomic<int64_t> liveHandles{0};
std::atomic<int64_t> liveContexts{0};
std::atomic<int64_t> liveDetails{0};
[[maybe_unused]] std::atomic<int64_t> liveSerialized{0};
[[maybe_unused]] std::atomic<void*> lastStream{nullptr};

// ---- engines and knobs ----------------------------------------------------------------------------
const EngineDef* findEngine(int64_t id)
{
    for(const EngineDef& engine : kEngines)
    {
        if(engine.id == id)
        {
            return &engine;
        }
    }
    return nullptr;
}

const EngineDef& requireEngine(int64_t id)
{
    const EngineDef* engine = findEngine(id);
    if(engine == nullptr)
    {
        fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "engine id " + std::to_string(id) + " does not belong to plugin " TP_PLUGIN_NAME);
    }
    return *engine;
}

const std::vector<KnobSpec>& knobSpecs(KnobSet set)
{
    static const std::vector<KnobSpec> none;
    static const std::vector<KnobSpec> demoA = {
        KnobSpec::integer("test.knobs.tile_size", "tile edge in elements", 64).range(16, 256, 16),
        KnobSpec::real("test.knobs.alpha", "blend factor", 0.5).range(0.0, 1.0),
        KnobSpec::string("test.knobs.mode", "kernel flavour", "fast").allowed({"fast", "accurate"}, 16),
    };
    static const std::vector<KnobSpec> demoB = {
        KnobSpec::integer("test.knobs.split_k", "split factor (deprecated)", 1).markDeprecated(),
        KnobSpec::real("test.knobs.beta", "unconstrained float", 1.0),
        KnobSpec::string("test.knobs.label", "unconstrained string", ""),
    };
    static const std::vector<KnobSpec> constraint = {
        KnobSpec::integer("constraint.int_knob", "int knob, 0..100 in steps of 5", 50).range(0, 100, 5),
        KnobSpec::real("constraint.float_knob", "float knob, 0..10", 5.0).range(0.0, 10.0),
        KnobSpec::string("constraint.string_knob", "one of alpha, beta, gamma", "beta").allowed({"alpha", "beta", "gamma"}),
    };
    // A configuration-index knob (HIPDNN_PLUGIN_CONFIG_KNOB_SUFFIX): four configurations, the
    // engine's own choice (-1) being index 1.
    static const std::vector<KnobSpec> configIndex = {
        KnobSpec::integer("test" HIPDNN_PLUGIN_CONFIG_KNOB_SUFFIX, "configuration index; -1: the engine's choice (1)", 1)
            .range(int64_t{-1}, int64_t{3}),
    };
    switch(set)
    {
    case KnobSet::ConfigIndex: return configIndex;
    case KnobSet::DemoA: return demoA;
    case KnobSet::DemoB: return demoB;
    case KnobSet::Constraint: return constraint;
    case KnobSet::None: break;
    }
    return none;
}

// Checks the config's knob settings against the engine's knobs. Engines without knobs ignore
// settings; engines with knobs reject unknown ones (except the host-wide "global." knobs).
void validateKnobs(const EngineDef& engine, const fbs::EngineConfig* config)
{
    const std::vector<KnobSpec>& specs = knobSpecs(engine.knobs);
    if(specs.empty() || config->knobs() == nullptr)
    {
        return;
    }
    for(const fbs::KnobSetting* setting : *config->knobs())
    {
        if(setting == nullptr || setting->knob_id() == nullptr)
        {
            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "EngineConfig holds a knob setting without knob_id");
        }
        const std::string id = setting->knob_id()->str();
        const KnobSpec* spec = nullptr;
        for(const KnobSpec& candidate : specs)
        {
            if(candidate.id == id)
            {
                spec = &candidate;
            }
        }
        if(spec == nullptr)
        {
            if(id.rfind("global.", 0) == 0)
            {
                continue;
            }
            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "engine " + std::to_string(engine.id) + " has no knob '" + id + "'");
        }
        hipdnn_plugin_sdk::validateKnobSetting(*spec, *setting);
    }
}

// workspaceOf: an engine with the configuration-index knob needs 1000 bytes per index (the
// engine's choice, -1, being index 1), so a workspace limit tells its configurations apart; any
// other engine needs `fixed`.
size_t workspaceOf(const EngineDef& engine, const fbs::EngineConfig* config, size_t fixed)
{
    if(engine.knobs != KnobSet::ConfigIndex)
        return fixed;
    int64_t index = 1;
    if(config->knobs() != nullptr)
        for(const fbs::KnobSetting* k : *config->knobs())
            if(k != nullptr && k->knob_id() != nullptr && k->knob_id()->str() == "test" HIPDNN_PLUGIN_CONFIG_KNOB_SUFFIX
               && k->value_as_IntValue() != nullptr && k->value_as_IntValue()->value() >= 0)
                index = k->value_as_IntValue()->value();
    return static_cast<size_t>(1000 * index);
}

// Bytes one element of a DataType value occupies (sub-byte types round up to one byte).
size_t elementBytes(int dataType)
{
    switch(dataType)
    {
    case 2: // HALF
    case 3: // BFLOAT16
        return 2;
    case 4: // DOUBLE
    case 15: // INT64
        return 8;
    case 1: // FLOAT
    case 6: // INT32
    case 0: // UNSET: treated as FLOAT
        return 4;
    default: // UINT8, INT8, FP8 / FP6 / FP4 / INT4 families
        return 1;
    }
}

// ---- handle and execution context -----------------------------------------------------------------
} // namespace

struct HipdnnEnginePluginHandle
{
    uint64_t magic;
    hipStream_t stream;
};

struct HipdnnEnginePluginExecutionContext
{
    uint64_t magic = kContextMagic;
    int64_t engineId = 0;
    size_t workspaceSize = 0;
    std::vector<uint8_t> graph;
    std::vector<uint8_t> config;
    // Runtime pass-by-value tensors of the graph: uid and number of bytes to read at execute.
    std::vector<std::pair<int64_t, size_t>> passByValue;
};

#if TP_FAULT == TP_FAULT_SHARED_HANDLE
// Lives in libtest_plugin_shared_handle_anchor.so, which both shared-handle plugins load, so
// they hand out the very same pointer.
extern "C" void* hipdnnTestSharedHandleAnchor(void);
#endif

namespace
{

HipdnnEnginePluginHandle* checkHandle(hipdnnEnginePluginHandle_t handle)
{
    requireNotNull(handle, "handle");
    if(handle->magic != kHandleMagic)
    {
        fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "handle was not created by " TP_PLUGIN_NAME);
    }
    return handle;
}

HipdnnEnginePluginExecutionContext* checkContext(hipdnnEnginePluginExecutionContext_t context)
{
    requireNotNull(context, "execution_context");
    if(context->magic != kContextMagic)
    {
        fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "execution context was not created by " TP_PLUGIN_NAME);
    }
    return context;
}

// A new handle, or what the Create faults hand out instead.
HipdnnEnginePluginHandle* newHandle()
{
#if TP_FAULT == TP_FAULT_CREATE_NULL
    return nullptr;
#elif TP_FAULT == TP_FAULT_SHARED_HANDLE
    static_assert(sizeof(HipdnnEnginePluginHandle) <= 64, "the anchor's storage is 64 bytes");
    auto* shared = static_cast<HipdnnEnginePluginHandle*>(hipdnnTestSharedHandleAnchor());
    shared->magic = kHandleMagic;
    shared->stream = nullptr;
    return shared;
#else
    auto* handle = new HipdnnEnginePluginHandle{kHandleMagic, nullptr};
    ++liveHandles;
    return handle;
#endif
}

std::vector<uint8_t> copyBytes(const hipdnnPluginConstData_t* data)
{
    const auto* bytes = static_cast<const uint8_t*>(data->ptr);
    return std::vector<uint8_t>(bytes, bytes + data->size);
}

// Builds a context from verified graph and config bytes.
HipdnnEnginePluginExecutionContext* makeContext(const EngineDef& engine, std::vector<uint8_t> graphBytes,
                                                std::vector<uint8_t> configBytes)
{
    auto* context = new HipdnnEnginePluginExecutionContext();
    context->engineId = engine.id;
    context->graph = std::move(graphBytes);
    context->config = std::move(configBytes);
    context->workspaceSize = workspaceOf(engine, fbs::GetEngineConfig(context->config.data()), TP_WORKSPACE_CONTEXT);
    const fbs::Graph* graph = fbs::GetGraph(context->graph.data());
    if(graph->tensors() != nullptr)
    {
        for(const fbs::TensorAttributes* tensor : *graph->tensors())
        {
            if(tensor == nullptr || !tensor->is_runtime_pass_by_value())
            {
                continue;
            }
            size_t count = 1;
            if(tensor->dims() != nullptr)
            {
                for(int64_t dim : *tensor->dims())
                {
                    count *= dim > 0 ? static_cast<size_t>(dim) : 1;
                }
            }
            size_t bytes = count * elementBytes(static_cast<int>(tensor->data_type()));
            context->passByValue.emplace_back(tensor->uid(), bytes > 64 ? 64 : bytes);
        }
    }
    ++liveContexts;
    return context;
}

// ---- execute-side recording ---------------------------------------------------------------------
std::mutex recordMutex;
[[maybe_unused]] uint64_t plainCalls = 0;
[[maybe_unused]] uint64_t overrideCalls = 0;
[[maybe_unused]] uint32_t lastNumOverrides = 0;
std::map<int64_t, std::pair<std::vector<int64_t>, std::vector<int64_t>>> lastOverrides;
std::map<int64_t, std::vector<uint8_t>> recorded;
// TP_GRAPH_RECORDER: the graph bytes of the latest call of each entry point (index: the
// HIPDNN_TEST_GRAPH_AT_* value) and how many calls there were.
[[maybe_unused]] std::vector<uint8_t> recordedGraphs[3];
[[maybe_unused]] int64_t recordedGraphCalls[3] = {0, 0, 0};

// Keeps a copy of the graph an entry point received (TP_GRAPH_RECORDER only).
void recordGraph([[maybe_unused]] int at, [[maybe_unused]] const hipdnnPluginConstData_t* graph)
{
#if TP_GRAPH_RECORDER
    std::lock_guard<std::mutex> lock(recordMutex);
    recordedGraphs[at] = copyBytes(graph);
    ++recordedGraphCalls[at];
#endif
}

const hipdnnPluginDeviceBuffer_t* findBuffer(const hipdnnPluginDeviceBuffer_t* buffers, uint32_t count, int64_t uid)
{
    for(uint32_t i = 0; i < count; ++i)
    {
        if(buffers[i].uid == uid)
        {
            return &buffers[i];
        }
    }
    return nullptr;
}

// Reads each runtime pass-by-value scalar through its (host) pointer, as a real engine would.
void readPassByValue(const HipdnnEnginePluginExecutionContext& context, const hipdnnPluginDeviceBuffer_t* buffers, uint32_t count)
{
    for(const auto& [uid, bytes] : context.passByValue)
    {
        const hipdnnPluginDeviceBuffer_t* buffer = findBuffer(buffers, count, uid);
        if(buffer == nullptr || buffer->ptr == nullptr)
        {
            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                 "runtime pass-by-value tensor " + std::to_string(uid) + " has no pointer in the variant pack");
        }
        std::vector<uint8_t> value(bytes);
        std::memcpy(value.data(), buffer->ptr, bytes);
        if(TP_RECORDER)
        {
            std::lock_guard<std::mutex> lock(recordMutex);
            recorded[uid] = std::move(value);
        }
    }
}

void checkExecuteArguments(hipdnnEnginePluginHandle_t handle, hipdnnEnginePluginExecutionContext_t context,
                           const hipdnnPluginDeviceBuffer_t* buffers, uint32_t count)
{
    checkHandle(handle);
    checkContext(context);
    if(count > 0)
    {
        requireNotNull(buffers, "device_buffers");
    }
}

void executeBody(const HipdnnEnginePluginExecutionContext& context, const hipdnnPluginDeviceBuffer_t* buffers, uint32_t count)
{
    if(TP_EXECUTE_FAILS)
    {
        fail(HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR,
             "engine " + std::to_string(context.engineId) + " (TEST_EXECUTE_FAILS_ENGINE) fails every execution on purpose");
    }
    if(TP_READS_PASS_BY_VALUE)
    {
        readPassByValue(context, buffers, count);
    }
    tp::log(HIPDNN_SEV_INFO, "executed engine %lld", static_cast<long long>(context.engineId));
}

// ---- serialization payload --------------------------------------------------------------------------
// magic[8] | engine id (int64) | workspace (uint64) | graph size (uint64) | config size (uint64)
// | graph bytes | config bytes   (native byte order; the plugin only reads what it wrote)
constexpr char kPayloadMagic[8] = {'T', 'P', 'C', 'T', 'X', '0', '0', '1'};
constexpr size_t kPayloadHeader = 8 + 4 * 8;

[[maybe_unused]] std::vector<uint8_t> serializeContext(const HipdnnEnginePluginExecutionContext& context)
{
    std::vector<uint8_t> out(kPayloadHeader + context.graph.size() + context.config.size());
    uint8_t* p = out.data();
    const uint64_t workspace = context.workspaceSize;
    const uint64_t graphSize = context.graph.size();
    const uint64_t configSize = context.config.size();
    std::memcpy(p, kPayloadMagic, 8);
    std::memcpy(p + 8, &context.engineId, 8);
    std::memcpy(p + 16, &workspace, 8);
    std::memcpy(p + 24, &graphSize, 8);
    std::memcpy(p + 32, &configSize, 8);
    if(graphSize != 0)
    {
        std::memcpy(p + kPayloadHeader, context.graph.data(), graphSize);
    }
    if(configSize != 0)
    {
        std::memcpy(p + kPayloadHeader + graphSize, context.config.data(), configSize);
    }
    return out;
}

} // namespace

// ==== entry points ==================================================================================
extern "C" {

hipdnnPluginStatus_t hipdnnEnginePluginGetAllEngineIds(int64_t* engine_ids, uint32_t max_engines, uint32_t* num_engines)
{
    HIPDNN_PLUGIN_GUARD(
        requireNotNull(num_engines, "num_engines"); const bool countQuery = engine_ids == nullptr || max_engines == 0;
        std::vector<int64_t> ids; for(const EngineDef& engine
                                      : kEngines) { ids.push_back(engine.id); } if(TP_FAULT == TP_FAULT_ZERO_ENGINES) {
            ids.clear();
        } if(TP_FAULT == TP_FAULT_DUPLICATE_IDS) {
            ids.push_back(ids.front());
        } if(TP_FAULT == TP_FAULT_COUNT_MISMATCH && countQuery) {
            // Claims one engine more than the fetch will deliver.
            *num_engines = static_cast<uint32_t>(ids.size() + 1);
            return;
        } if(countQuery) {
            *num_engines = static_cast<uint32_t>(ids.size());
            return;
        } uint32_t written = 0;
        for(; written < max_engines && written < ids.size(); ++written) { engine_ids[written] = ids[written]; }* num_engines =
            written;);
}

hipdnnPluginStatus_t hipdnnEnginePluginCreate(hipdnnEnginePluginHandle_t* handle)
{
    HIPDNN_PLUGIN_GUARD(requireNotNull(handle, "handle"); *handle = newHandle();
                        if(*handle != nullptr) { tp::log(HIPDNN_SEV_INFO, "handle created"); });
}

hipdnnPluginStatus_t hipdnnEnginePluginDestroy(hipdnnEnginePluginHandle_t handle)
{
    HIPDNN_PLUGIN_GUARD(HipdnnEnginePluginHandle* h = checkHandle(handle); if(TP_FAULT == TP_FAULT_SHARED_HANDLE) {
        return; // the static object stays usable by the other plugin
    } h->magic = 0;
                        delete h; --liveHandles;);
}

hipdnnPluginStatus_t hipdnnEnginePluginSetStream(hipdnnEnginePluginHandle_t handle, hipStream_t stream)
{
    HIPDNN_PLUGIN_GUARD(checkHandle(handle)->stream = stream; lastStream.store(static_cast<void*>(stream)););
}

hipdnnPluginStatus_t hipdnnEnginePluginGetApplicableEngineIds(hipdnnEnginePluginHandle_t handle,
                                                              const hipdnnPluginConstData_t* op_graph, int64_t* engine_ids,
                                                              uint32_t max_engines, uint32_t* num_engines)
{
    HIPDNN_PLUGIN_GUARD(
        checkHandle(handle); requireNotNull(num_engines, "num_engines"); hipdnn_plugin_sdk::verifyGraph(op_graph);
        recordGraph(0, op_graph); if(max_engines > 0) { requireNotNull(engine_ids, "engine_ids"); } std::vector<int64_t> ids;
        for(const EngineDef& engine
            : kEngines) {
            if(engine.applicable)
            {
                ids.push_back(engine.id);
            }
        } if(TP_FAULT == TP_FAULT_UNDECLARED_ID) { ids.assign(1, TP_UNDECLARED_ENGINE_ID); } uint32_t written = 0;
        for(; written < max_engines && written < ids.size(); ++written) { engine_ids[written] = ids[written]; }* num_engines =
            static_cast<uint32_t>(ids.size());
        if(TP_FAULT == TP_FAULT_APPLICABLE_OVERFLOW) {
            *num_engines = max_engines + 1; // more than the buffer can hold
        });
}

hipdnnPluginStatus_t hipdnnEnginePluginGetEngineDetails(hipdnnEnginePluginHandle_t handle, int64_t engine_id,
                                                        const hipdnnPluginConstData_t* op_graph,
                                                        hipdnnPluginConstData_t* engine_details)
{
    HIPDNN_PLUGIN_GUARD(
        checkHandle(handle); requireNotNull(engine_details, "engine_details"); hipdnn_plugin_sdk::verifyGraph(op_graph);
        recordGraph(1, op_graph); const EngineDef& engine = requireEngine(engine_id); if(TP_FAULT == TP_FAULT_DETAILS_NULL) {
            engine_details->ptr = nullptr;
            engine_details->size = 16;
            return;
        } if(TP_FAULT == TP_FAULT_DETAILS_EMPTY) {
            hipdnn_plugin_sdk::publishBytes(nullptr, 0, engine_details);
            ++liveDetails;
            return;
        } if(TP_FAULT == TP_FAULT_DETAILS_GARBAGE) {
            const uint8_t garbage[24] = {0xFF, 0xFF, 0xFF, 0x7F, 0xDE, 0xAD, 0xBE, 0xEF, 0xFF, 0xFF, 0xFF, 0x7F,
                                         0xDE, 0xAD, 0xBE, 0xEF, 0xFF, 0xFF, 0xFF, 0x7F, 0xDE, 0xAD, 0xBE, 0xEF};
            hipdnn_plugin_sdk::publishBytes(garbage, sizeof garbage, engine_details);
            ++liveDetails;
            return;
        } hipdnn_plugin_sdk::EngineDetailsBuilder details(engine.id);
        details.knobs(knobSpecs(engine.knobs)); for(int note = 0; note < HIPDNN_BEHAVIOR_NOTE_TYPE_COUNT; ++note) {
            if((engine.notes & TP_NOTE(note)) != 0)
            {
                details.note(static_cast<hipdnnBackendBehaviorNote_t>(note));
            }
        } if(engine.nameAnswer == NameAnswer::Named && engine.name != nullptr) {
            details.name(engine.name);
        } if(kDetailsOnlyName != nullptr && engine.id == TP_DETAILS_ONLY_NAME_ENGINE) {
            details.name(kDetailsOnlyName);
        } details.publish(engine_details);
        ++liveDetails;);
}

hipdnnPluginStatus_t hipdnnEnginePluginDestroyEngineDetails(hipdnnEnginePluginHandle_t handle,
                                                            hipdnnPluginConstData_t* engine_details)
{
    HIPDNN_PLUGIN_GUARD(checkHandle(handle); requireNotNull(engine_details, "engine_details");
                        if(engine_details->ptr != nullptr) { --liveDetails; } hipdnn_plugin_sdk::releaseBuffer(engine_details););
}

#ifndef TP_OMIT_GET_WORKSPACE_SIZE
hipdnnPluginStatus_t hipdnnEnginePluginGetWorkspaceSize(hipdnnEnginePluginHandle_t handle,
                                                        const hipdnnPluginConstData_t* engine_config,
                                                        const hipdnnPluginConstData_t* op_graph, size_t* workspace_size)
{
    HIPDNN_PLUGIN_GUARD(checkHandle(handle); requireNotNull(workspace_size, "workspace_size");
                        const fbs::EngineConfig* config = hipdnn_plugin_sdk::verifyEngineConfig(engine_config);
                        hipdnn_plugin_sdk::verifyGraph(op_graph); const EngineDef& engine = requireEngine(config->engine_id());
                        validateKnobs(engine, config); *workspace_size = workspaceOf(engine, config, TP_WORKSPACE_CONFIG););
}
#endif

hipdnnPluginStatus_t hipdnnEnginePluginCreateExecutionContext(hipdnnEnginePluginHandle_t handle,
                                                              const hipdnnPluginConstData_t* engine_config,
                                                              const hipdnnPluginConstData_t* op_graph,
                                                              hipdnnEnginePluginExecutionContext_t* execution_context)
{
    HIPDNN_PLUGIN_GUARD(checkHandle(handle); requireNotNull(execution_context, "execution_context");
                        const fbs::EngineConfig* config = hipdnn_plugin_sdk::verifyEngineConfig(engine_config);
                        hipdnn_plugin_sdk::verifyGraph(op_graph); recordGraph(2, op_graph);
                        const EngineDef& engine = requireEngine(config->engine_id()); validateKnobs(engine, config);
                        if(TP_FAULT == TP_FAULT_CONTEXT_NULL) {
                            *execution_context = nullptr;
                            return;
                        }* execution_context = makeContext(engine, copyBytes(op_graph), copyBytes(engine_config)););
}

hipdnnPluginStatus_t hipdnnEnginePluginDestroyExecutionContext(hipdnnEnginePluginHandle_t handle,
                                                               hipdnnEnginePluginExecutionContext_t execution_context)
{
    HIPDNN_PLUGIN_GUARD(checkHandle(handle); HipdnnEnginePluginExecutionContext* context = checkContext(execution_context);
                        context->magic = 0; delete context; --liveContexts;);
}

#if TP_EXPORT_SERIALIZATION
hipdnnPluginStatus_t hipdnnEnginePluginSerializeExecutionContext(hipdnnEnginePluginHandle_t handle,
                                                                 hipdnnEnginePluginExecutionContext_t execution_context,
                                                                 hipdnnPluginConstData_t* serialized_context)
{
    HIPDNN_PLUGIN_GUARD(checkHandle(handle); requireNotNull(serialized_context, "serialized_context");
                        const std::vector<uint8_t> payload = serializeContext(*checkContext(execution_context));
                        hipdnn_plugin_sdk::publishBytes(payload.data(), payload.size(), serialized_context); ++liveSerialized;);
}

hipdnnPluginStatus_t hipdnnEnginePluginDestroySerializedExecutionContext(hipdnnEnginePluginHandle_t handle,
                                                                         hipdnnPluginConstData_t* serialized_context)
{
    HIPDNN_PLUGIN_GUARD(
        checkHandle(handle); requireNotNull(serialized_context, "serialized_context");
        if(serialized_context->ptr != nullptr) { --liveSerialized; } hipdnn_plugin_sdk::releaseBuffer(serialized_context););
}

hipdnnPluginStatus_t
hipdnnEnginePluginCreateExecutionContextFromSerialized(hipdnnEnginePluginHandle_t handle,
                                                       const hipdnnPluginConstData_t* serialized_context,
                                                       hipdnnEnginePluginExecutionContext_t* execution_context)
{
    HIPDNN_PLUGIN_GUARD(
        checkHandle(handle); requireNotNull(serialized_context, "serialized_context");
        requireNotNull(execution_context, "execution_context");
        const auto* p = static_cast<const uint8_t*>(serialized_context->ptr); const size_t size = serialized_context->size;
        if(p == nullptr || size < kPayloadHeader || std::memcmp(p, kPayloadMagic, 8) != 0) {
            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                 "serialized context (" + std::to_string(size) + " bytes) was not produced by " TP_PLUGIN_NAME);
        } int64_t id = 0;
        uint64_t workspace = 0; uint64_t graphSize = 0; uint64_t configSize = 0; std::memcpy(&id, p + 8, 8);
        std::memcpy(&workspace, p + 16, 8); std::memcpy(&graphSize, p + 24, 8); std::memcpy(&configSize, p + 32, 8);
        if(graphSize > size - kPayloadHeader || configSize != size - kPayloadHeader - graphSize) {
            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "serialized context is truncated or inconsistent");
        } const EngineDef& engine = requireEngine(id);
        const hipdnnPluginConstData_t graph{p + kPayloadHeader, graphSize};
        const hipdnnPluginConstData_t config{p + kPayloadHeader + graphSize, configSize}; hipdnn_plugin_sdk::verifyGraph(&graph);
        hipdnn_plugin_sdk::verifyEngineConfig(&config);
        HipdnnEnginePluginExecutionContext* context = makeContext(engine, copyBytes(&graph), copyBytes(&config));
        context->workspaceSize = workspace; *execution_context = context;);
}
#endif

hipdnnPluginStatus_t hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext(
    hipdnnEnginePluginHandle_t handle, hipdnnEnginePluginExecutionContext_t execution_context, size_t* workspace_size)
{
    HIPDNN_PLUGIN_GUARD(checkHandle(handle); requireNotNull(workspace_size, "workspace_size");
                        const HipdnnEnginePluginExecutionContext* context = checkContext(execution_context);
                        if(TP_FAULT == TP_FAULT_CONTEXT_WORKSPACE) {
                            fail(HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR, "workspace query fails on purpose (" TP_PLUGIN_NAME ")");
                        }* workspace_size = context->workspaceSize;);
}

hipdnnPluginStatus_t hipdnnEnginePluginExecuteOpGraph(hipdnnEnginePluginHandle_t handle,
                                                      hipdnnEnginePluginExecutionContext_t execution_context, void* workspace,
                                                      const hipdnnPluginDeviceBuffer_t* device_buffers,
                                                      uint32_t num_device_buffers)
{
    (void)workspace;
    HIPDNN_PLUGIN_GUARD(checkExecuteArguments(handle, execution_context, device_buffers, num_device_buffers); {
        std::lock_guard<std::mutex> lock(recordMutex);
        ++plainCalls;
    } executeBody(*execution_context, device_buffers, num_device_buffers););
}

#if TP_EXPORT_OVERRIDES
hipdnnPluginStatus_t hipdnnEnginePluginExecuteOpGraphWithOverrides(
    hipdnnEnginePluginHandle_t handle, hipdnnEnginePluginExecutionContext_t execution_context, void* workspace,
    const hipdnnPluginDeviceBuffer_t* device_buffers, uint32_t num_device_buffers, uint32_t num_overrides,
    const int64_t* override_unique_ids, const uint32_t* override_lengths, const int64_t* const* override_shapes,
    const int64_t* const* override_strides)
{
    (void)workspace;
    HIPDNN_PLUGIN_GUARD(
        checkExecuteArguments(handle, execution_context, device_buffers, num_device_buffers); if(num_overrides == 0) {
            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "override execute called with num_overrides = 0");
        } requireNotNull(override_unique_ids, "override_unique_ids");
        requireNotNull(override_lengths, "override_lengths"); requireNotNull(override_shapes, "override_shapes");
        requireNotNull(override_strides, "override_strides");
        std::map<int64_t, std::pair<std::vector<int64_t>, std::vector<int64_t>>> overrides;
        for(uint32_t i = 0; i < num_overrides; ++i) {
            const int64_t uid = override_unique_ids[i];
            const uint32_t rank = override_lengths[i];
            if(rank == 0 || override_shapes[i] == nullptr || override_strides[i] == nullptr)
            {
                fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "override " + std::to_string(i) + " (uid " + std::to_string(uid)
                                                         + ") has rank 0 or a NULL shape/stride array");
            }
            if(findBuffer(device_buffers, num_device_buffers, uid) == nullptr)
            {
                fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "overridden tensor " + std::to_string(uid) + " is not in the variant pack");
            }
            overrides[uid] = {std::vector<int64_t>(override_shapes[i], override_shapes[i] + rank),
                              std::vector<int64_t>(override_strides[i], override_strides[i] + rank)};
        } {
            std::lock_guard<std::mutex> lock(recordMutex);
            ++overrideCalls;
            lastNumOverrides = num_overrides;
            lastOverrides = std::move(overrides);
        } executeBody(*execution_context, device_buffers, num_device_buffers););
}
#endif

#if TP_EXPORT_NUMERICAL_NOTES
hipdnnPluginStatus_t hipdnnEnginePluginGetNumericalNotesV1_ext(hipdnnEnginePluginHandle_t handle,
                                                               const hipdnnPluginConstData_t* engine_config,
                                                               const hipdnnPluginConstData_t* op_graph, int32_t* notes,
                                                               uint32_t max_notes, uint32_t* num_notes)
{
    HIPDNN_PLUGIN_GUARD(
        checkHandle(handle); requireNotNull(num_notes, "num_notes");
        const fbs::EngineConfig* config = hipdnn_plugin_sdk::verifyEngineConfig(engine_config);
        hipdnn_plugin_sdk::verifyGraph(op_graph); const EngineDef& engine = requireEngine(config->engine_id());
        validateKnobs(engine, config); std::vector<int32_t> out; if(engine.knobs == KnobSet::DemoA) {
            bool accurate = false;
            if(config->knobs() != nullptr)
            {
                for(const fbs::KnobSetting* k : *config->knobs())
                {
                    const auto* v = k->value_as_StringValue();
                    accurate = accurate
                               || (k->knob_id()->str() == "test.knobs.mode" && v != nullptr && v->value() != nullptr
                                   && v->value()->str() == "accurate");
                }
            }
            out.push_back(HIPDNN_NUMERICAL_NOTE_TENSOR_CORE);
            if(!accurate)
            {
                out.push_back(HIPDNN_NUMERICAL_NOTE_NONDETERMINISTIC);
            }
        } for(uint32_t i = 0; i < out.size() && i < max_notes; ++i) { notes[i] = out[i]; }* num_notes =
                                                                     static_cast<uint32_t>(out.size()););
}
#endif

#if TP_EXPORT_MEMORY_KINDS
hipdnnPluginStatus_t hipdnnEnginePluginGetMemoryKinds_ext(int64_t engine_id, uint32_t* kinds)
{
    if(kinds == nullptr)
    {
        return hipdnnPluginFail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "GetMemoryKinds: kinds is NULL");
    }
    if(findEngine(engine_id) != &kEngines[0])
    {
        return hipdnnPluginFail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "GetMemoryKinds: engine %lld is not the first engine",
                                static_cast<long long>(engine_id));
    }
    *kinds = HIPDNN_PLUGIN_MEMORY_DEVICE | HIPDNN_PLUGIN_MEMORY_HOST_PINNED;
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}
#endif

#if TP_EXPORT_ENGINE_NAME
hipdnnPluginStatus_t hipdnnEnginePluginGetEngineName(int64_t engine_id, const char** name)
{
    if(name == nullptr)
    {
        return hipdnnPluginFail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "GetEngineName: name is NULL");
    }
    const EngineDef* engine = findEngine(engine_id);
    if(engine == nullptr)
    {
        return HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE;
    }
    switch(engine->nameAnswer)
    {
    case NameAnswer::Named: *name = engine->name; return HIPDNN_PLUGIN_STATUS_SUCCESS;
    case NameAnswer::NullName: *name = nullptr; return HIPDNN_PLUGIN_STATUS_SUCCESS;
    case NameAnswer::EmptyName: *name = ""; return HIPDNN_PLUGIN_STATUS_SUCCESS;
    case NameAnswer::FailWithName:
        *name = engine->name;
        return hipdnnPluginFail(HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR, "GetEngineName fails for engine %lld on purpose",
                                static_cast<long long>(engine_id));
    case NameAnswer::Decline: break;
    }
    return HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE;
}
#endif

} // extern "C"

// ==== test accessors ================================================================================
#if TP_DIAGNOSTICS
TP_TEST_EXPORT int64_t hipdnnTestGetLiveObjects(int32_t kind)
{
    switch(kind)
    {
    case 0: return liveHandles.load();
    case 1: return liveContexts.load();
    case 2: return liveDetails.load();
    case 3: return liveSerialized.load();
    default: return -1;
    }
}

TP_TEST_EXPORT void* hipdnnTestGetLastStream(void) { return lastStream.load(); }

TP_TEST_EXPORT int32_t hipdnnTestGetLastLogLevel(void) { return tp::lastLevelSet.load(); }
#endif

#if TP_EXECUTE_STATS
TP_TEST_EXPORT void hipdnnTestGetExecuteStats(uint64_t* plain_calls, uint64_t* override_calls, uint32_t* last_num_overrides)
{
    std::lock_guard<std::mutex> lock(recordMutex);
    if(plain_calls != nullptr)
    {
        *plain_calls = plainCalls;
    }
    if(override_calls != nullptr)
    {
        *override_calls = overrideCalls;
    }
    if(last_num_overrides != nullptr)
    {
        *last_num_overrides = lastNumOverrides;
    }
}

TP_TEST_EXPORT int32_t hipdnnTestGetLastOverride(int64_t uid, int64_t* shape, int64_t* strides, uint32_t capacity)
{
    std::lock_guard<std::mutex> lock(recordMutex);
    auto found = lastOverrides.find(uid);
    if(found == lastOverrides.end())
    {
        return -1;
    }
    const auto& [dims, steps] = found->second;
    for(uint32_t i = 0; i < capacity && i < dims.size(); ++i)
    {
        if(shape != nullptr)
        {
            shape[i] = dims[i];
        }
        if(strides != nullptr)
        {
            strides[i] = steps[i];
        }
    }
    return static_cast<int32_t>(dims.size());
}
#endif

#if TP_RECORDER
TP_TEST_EXPORT int64_t hipdnnTestRecorderGetLast(int64_t uid, void* out, size_t n)
{
    std::lock_guard<std::mutex> lock(recordMutex);
    auto found = recorded.find(uid);
    if(found == recorded.end())
    {
        return -1;
    }
    const std::vector<uint8_t>& bytes = found->second;
    if(out != nullptr && n > 0 && !bytes.empty())
    {
        std::memcpy(out, bytes.data(), n < bytes.size() ? n : bytes.size());
    }
    return static_cast<int64_t>(bytes.size());
}

TP_TEST_EXPORT void hipdnnTestRecorderClear(void)
{
    std::lock_guard<std::mutex> lock(recordMutex);
    recorded.clear();
}
#endif

#if TP_GRAPH_RECORDER
TP_TEST_EXPORT int64_t hipdnnTestGraphRecorderGetLast(int32_t at, void* out, size_t n, int64_t* calls)
{
    if(at < 0 || at > 2)
    {
        return -1;
    }
    std::lock_guard<std::mutex> lock(recordMutex);
    const std::vector<uint8_t>& bytes = recordedGraphs[at];
    if(calls != nullptr)
    {
        *calls = recordedGraphCalls[at];
    }
    if(out != nullptr && n > 0 && !bytes.empty())
    {
        std::memcpy(out, bytes.data(), n < bytes.size() ? n : bytes.size());
    }
    return static_cast<int64_t>(bytes.size());
}

TP_TEST_EXPORT void hipdnnTestGraphRecorderClear(void)
{
    std::lock_guard<std::mutex> lock(recordMutex);
    for(int at = 0; at < 3; ++at)
    {
        recordedGraphs[at].clear();
        recordedGraphCalls[at] = 0;
    }
}
#endif
