// The C entry points of libhipdnngo_cudnn.so: one engine, HIPDNNGO_CUDNN, that runs hipDNN
// graphs through NVIDIA cuDNN's backend API on the device of the handle's stream.
//
// cuDNN and the CUDA runtime are opened with dlopen on the first call that needs them
// (applicability, never at load), so the plugin loads everywhere; without them (or without a
// device) it applies to no graph and says why once in the log.
#include "Engine.hpp"

#include <hipdnn_plugin_sdk/EnginePluginApi.h>
#include <hipdnn_plugin_sdk/EnginePluginExtensions.h>
#include <hipdnn_plugin_sdk/PluginApi.h>
#include <hipdnn_plugin_sdk/helpers/EngineId.h>
#include <hipdnn_plugin_sdk/helpers/LastError.h>
#include <hipdnn_plugin_sdk/helpers/PluginHelpers.hpp>

#include <atomic>
#include <tuple>
#include <cstring>

using namespace hipdnngo::cudnn;
using hipdnn_plugin_sdk::fail;
using hipdnn_plugin_sdk::requireNotNull;

struct HipdnnEnginePluginHandle
{
    std::mutex m;
    cudaStream_t stream = nullptr;
    // The cuDNN handle of (its device, stream), leased at the first execute after SetStream and
    // given back when the stream changes or this handle is destroyed.
    std::shared_ptr<StreamHandle> lease;

    ~HipdnnEnginePluginHandle() { returnStreamHandle(lease); }
};

namespace
{

constexpr const char* kPluginName = "hipdnngo_cudnn";
constexpr const char* kPluginVersion = "1.0.0";
constexpr const char* kEngineName = "HIPDNNGO_CUDNN";
constexpr int64_t kEngineId = hipdnn_plugin_sdk::engineNameToId("HIPDNNGO_CUDNN");

constexpr const char* kKnobConfig = "cudnn.config";
constexpr const char* kKnobEngine = "cudnn.engine";
constexpr const char* kKnobKnobs = "cudnn.knobs";

hipdnn_plugin_sdk::PluginLog logAt{"hipdnngo_cudnn"};
std::once_flag gUnavailableLogged;

template <typename Body>
hipdnnPluginStatus_t entry(Body&& body) noexcept
{
    return hipdnn_plugin_sdk::guard([&]() {
        try
        {
            body();
        }
        catch(const Unsupported& e)
        {
            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, std::string("HIPDNNGO_CUDNN: ") + e.what());
        }
    });
}

// requireApi loads cuDNN; false (logged once) when it or a device is missing.
bool available()
{
    const Api& a = api();
    if(!a.ok)
    {
        std::call_once(gUnavailableLogged, [&] { logAt(HIPDNN_SEV_WARN, "engine HIPDNNGO_CUDNN offers nothing: " + a.why); });
        return false;
    }
    std::call_once(gUnavailableLogged, [&] {
        logAt(HIPDNN_SEV_INFO, "cuDNN " + std::to_string(a.cudnnVersion) + " (" + a.cudnnPath + "), CUDA runtime "
                                   + std::to_string(a.cudartVersion) + ", " + std::to_string(a.deviceCount) + " device(s)");
    });
    return true;
}

void requireAvailable()
{
    if(!available())
        throw Unsupported(api().why);
}

void requireEngine(int64_t engineId)
{
    if(engineId != kEngineId)
        fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "engine id " + std::to_string(engineId) + " does not belong to hipdnngo_cudnn");
}

cudaStream_t streamOf(HipdnnEnginePluginHandle* h)
{
    std::lock_guard<std::mutex> lock(h->m);
    return h->stream;
}

// graphEntry verifies and translates the graph buffer (cached by content and device).
std::shared_ptr<GraphEntry> graphEntry(HipdnnEnginePluginHandle* h, const hipdnnPluginConstData_t* op_graph)
{
    const fbs::Graph* graph = hipdnn_plugin_sdk::verifyGraph(op_graph);
    const std::string v = hipdnn_plugin_sdk::hostFeatureProblem(*graph);
    if(!v.empty())
        throw Unsupported(v);
    const cudaStream_t stream = streamOf(h);
    return entryFor(readModel(*graph), deviceOf(stream));
}

Choice choiceOf(const hipdnnPluginConstData_t* engine_config)
{
    const fbs::EngineConfig* cfg = hipdnn_plugin_sdk::verifyEngineConfig(engine_config);
    requireEngine(cfg->engine_id());
    Choice c;
    if(cfg->knobs() == nullptr)
        return c;
    for(const fbs::KnobSetting* k : *cfg->knobs())
    {
        if(k == nullptr || k->knob_id() == nullptr)
            continue;
        const std::string id = k->knob_id()->str();
        if(id.rfind("global.", 0) == 0)
            continue;
        if(id == kKnobConfig || id == kKnobEngine)
        {
            const fbs::IntValue* v = k->value_as_IntValue();
            if(v == nullptr)
                fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, id + " needs an integer value");
            (id == kKnobConfig ? c.rank : c.engine) = v->value();
        }
        else if(id == kKnobKnobs)
        {
            const fbs::StringValue* v = k->value_as_StringValue();
            if(v == nullptr || v->value() == nullptr)
                fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, id + " needs a string value");
            // "TYPE=VALUE,TYPE=VALUE" with cuDNN knob type numbers.
            const std::string s = v->value()->str();
            size_t pos = 0;
            while(pos < s.size())
            {
                size_t end = s.find(',', pos);
                if(end == std::string::npos)
                    end = s.size();
                const std::string item = s.substr(pos, end - pos);
                const size_t eq = item.find('=');
                try
                {
                    if(eq == std::string::npos)
                        throw std::invalid_argument(item);
                    c.knobs.emplace_back(std::stoll(item.substr(0, eq)), std::stoll(item.substr(eq + 1)));
                }
                catch(const std::exception&)
                {
                    fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, id + ": '" + item + "' is not TYPE=VALUE");
                }
                pos = end + 1;
            }
        }
        else
        {
            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "unknown knob " + id + " for HIPDNNGO_CUDNN");
        }
    }
    if(!c.knobs.empty() && c.engine < 0)
        fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, std::string(kKnobKnobs) + " needs " + kKnobEngine);
    return c;
}

// planFor is the plan an EngineConfig selects on a graph, with the graph's entry (cached).
std::pair<std::shared_ptr<GraphEntry>, std::shared_ptr<Plan>>
planFor(HipdnnEnginePluginHandle* h, const hipdnnPluginConstData_t* engine_config, const hipdnnPluginConstData_t* op_graph)
{
    requireAvailable();
    const Choice c = choiceOf(engine_config);
    std::shared_ptr<GraphEntry> e = graphEntry(h, op_graph);
    std::shared_ptr<Plan> p = e->plan(c);
    return {std::move(e), std::move(p)};
}

// Context is one execution context: a built plan plus the constants it feeds by value.
struct Context
{
    std::shared_ptr<GraphEntry> entry;
    std::shared_ptr<Plan> plan;
    int device = 0;
    std::vector<int64_t> constUids;
    std::vector<void*> constPtrs;
    std::vector<int64_t> wsUids, wsOffsets; // intermediates in the engine's part of the workspace
    int64_t wsBytes = 0;

    // Variant pack of the last call, and the caller's buffers it was made from.
    std::mutex packMutex;
    std::unique_ptr<Desc> pack;
    std::vector<int64_t> packUids;
    std::vector<void*> packPtrs;
    void* packWorkspace = nullptr;
};

std::unique_ptr<Desc> makePack(const std::vector<int64_t>& uids, const std::vector<void*>& ptrs, void* ws)
{
    auto p = std::make_unique<Desc>(CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR);
    p->set(CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, CUDNN_TYPE_INT64, static_cast<int64_t>(uids.size()), uids.data(), "variant pack");
    p->set(CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS, CUDNN_TYPE_VOID_PTR, static_cast<int64_t>(ptrs.size()), ptrs.data(),
           "variant pack");
    p->set(CUDNN_ATTR_VARIANT_PACK_WORKSPACE, CUDNN_TYPE_VOID_PTR, 1, &ws, "variant pack");
    p->finalize("variant pack");
    return p;
}

void execute(HipdnnEnginePluginHandle* h, Context& ctx, void* workspace, const hipdnnPluginDeviceBuffer_t* buffers, uint32_t n)
{
    if(n > 0)
        requireNotNull(buffers, "device_buffers");
    std::shared_ptr<StreamHandle> lease; // held for the call: a concurrent SetStream may return it
    {
        std::lock_guard<std::mutex> lock(h->m);
        if(!h->lease || h->lease->device() != ctx.device)
        {
            std::shared_ptr<StreamHandle> next = leaseStreamHandle(ctx.device, h->stream);
            returnStreamHandle(h->lease);
            h->lease = std::move(next);
        }
        lease = h->lease;
    }
    const cudnnHandle_t handle = lease->get();
    if(ctx.plan->workspace > 0 && workspace == nullptr)
        fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
             "workspace is NULL but the plan needs " + std::to_string(ctx.plan->workspace) + " bytes");

    // The pack of the last call is reused while the caller passes the same buffers (uids and
    // pointers, in order) and workspace; packUids / packPtrs hold the caller's list as given.
    std::unique_lock<std::mutex> lock(ctx.packMutex, std::try_to_lock);
    bool same = lock.owns_lock() && ctx.pack && ctx.packWorkspace == workspace && ctx.packUids.size() == n;
    for(uint32_t i = 0; same && i < n; ++i)
        same = ctx.packUids[i] == buffers[i].uid && ctx.packPtrs[i] == buffers[i].ptr;
    cudnnBackendDescriptor_t pack;
    std::unique_ptr<Desc> local;
    if(same)
    {
        pack = ctx.pack->get();
    }
    else
    {
        const size_t fixed = ctx.constUids.size() + ctx.wsUids.size();
        std::vector<int64_t> uids;
        std::vector<void*> ptrs;
        uids.reserve(n + fixed);
        ptrs.reserve(n + fixed);
        for(uint32_t i = 0; i < n; ++i)
        {
            uids.push_back(buffers[i].uid);
            ptrs.push_back(buffers[i].ptr);
        }
        uids.insert(uids.end(), ctx.constUids.begin(), ctx.constUids.end());
        ptrs.insert(ptrs.end(), ctx.constPtrs.begin(), ctx.constPtrs.end());
        char* base = static_cast<char*>(workspace);
        for(size_t i = 0; i < ctx.wsUids.size(); ++i)
        {
            uids.push_back(ctx.wsUids[i]);
            ptrs.push_back(base + ctx.wsOffsets[i]);
        }
        local = makePack(uids, ptrs, base == nullptr ? nullptr : base + ctx.wsBytes);
        pack = local->get();
        if(lock.owns_lock())
        {
            ctx.pack = std::move(local);
            ctx.packUids.assign(uids.begin(), uids.begin() + n);
            ctx.packPtrs.assign(ptrs.begin(), ptrs.begin() + n);
            ctx.packWorkspace = workspace;
        }
    }
    const cudnnStatus_t s = api().Execute(handle, ctx.plan->plan->get(), pack);
    if(s != CUDNN_STATUS_SUCCESS)
        fail(HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR, "HIPDNNGO_CUDNN: " + statusText("cudnnBackendExecute", s));
}

} // namespace

struct HipdnnEnginePluginExecutionContext
{
    Context ctx;
};

extern "C" {

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetName(const char** name)
{
    return entry([&] {
        requireNotNull(name, "name");
        *name = kPluginName;
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetVersion(const char** version)
{
    return entry([&] {
        requireNotNull(version, "version");
        *version = kPluginVersion;
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetApiVersion(const char** version)
{
    return entry([&] {
        requireNotNull(version, "version");
        *version = HIPDNN_ENGINE_API_VERSION;
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginGetType(hipdnnPluginType_t* type)
{
    return entry([&] {
        requireNotNull(type, "type");
        *type = HIPDNN_PLUGIN_TYPE_ENGINE;
    });
}

HIPDNN_PLUGIN_EXPORT void hipdnnPluginGetLastErrorString(const char** error_str)
{
    if(error_str != nullptr)
        *error_str = hipdnnPluginGetLastError();
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginSetLoggingCallback(hipdnnCallback_t callback)
{
    logAt.setCallback(callback);
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnPluginSetLogLevel(hipdnnSeverity_t level)
{
    return entry([&] {
        if(static_cast<int>(level) < HIPDNN_SEV_INFO || static_cast<int>(level) > HIPDNN_SEV_OFF)
            fail(HIPDNN_PLUGIN_STATUS_INVALID_VALUE, "log level " + std::to_string(static_cast<int>(level)) + " is unknown");
        logAt.setLevel(level);
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetAllEngineIds(int64_t* engine_ids, uint32_t max_engines,
                                                                            uint32_t* num_engines)
{
    return entry([&] {
        requireNotNull(num_engines, "num_engines");
        if(max_engines > 0)
        {
            requireNotNull(engine_ids, "engine_ids");
            engine_ids[0] = kEngineId;
        }
        *num_engines = 1;
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetEngineName(int64_t engine_id, const char** name)
{
    return entry([&] {
        requireNotNull(name, "name");
        if(engine_id != kEngineId)
            fail(HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE, "no engine " + std::to_string(engine_id) + " in this plugin");
        *name = kEngineName;
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginIsHostMemoryEngine_ext(int64_t engine_id, int32_t* is_host)
{
    return entry([&] {
        requireNotNull(is_host, "is_host");
        requireEngine(engine_id);
        *is_host = 0;
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetMemoryKinds_ext(int64_t engine_id, uint32_t* kinds)
{
    return entry([&] {
        requireNotNull(kinds, "kinds");
        requireEngine(engine_id);
        // Device and managed memory only. Pinned host memory is refused although a kernel could
        // map it: cuDNN does not document its kernels (TMA loads among them) on host memory, and
        // the price of being wrong is the process's GPU context.
        *kinds = HIPDNN_PLUGIN_MEMORY_DEVICE | HIPDNN_PLUGIN_MEMORY_MANAGED;
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginCreate(hipdnnEnginePluginHandle_t* handle)
{
    return entry([&] {
        requireNotNull(handle, "handle");
        *handle = new HipdnnEnginePluginHandle();
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroy(hipdnnEnginePluginHandle_t handle)
{
    return entry([&] {
        requireNotNull(handle, "handle");
        delete handle;
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginSetStream(hipdnnEnginePluginHandle_t handle, hipStream_t stream)
{
    return entry([&] {
        requireNotNull(handle, "handle");
        std::lock_guard<std::mutex> lock(handle->m);
        handle->stream = reinterpret_cast<cudaStream_t>(stream); // HIP streams are CUDA streams here
        returnStreamHandle(handle->lease);
        handle->lease.reset();
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetApplicableEngineIds(hipdnnEnginePluginHandle_t handle,
                                                                                   const hipdnnPluginConstData_t* op_graph,
                                                                                   int64_t* engine_ids, uint32_t max_engines,
                                                                                   uint32_t* num_engines)
{
    return entry([&] {
        requireNotNull(handle, "handle");
        requireNotNull(num_engines, "num_engines");
        *num_engines = 0;
        hipdnn_plugin_sdk::verifyGraph(op_graph);
        if(!available())
            return;
        std::string reason;
        try
        {
            std::shared_ptr<GraphEntry> e = graphEntry(handle, op_graph);
            std::shared_ptr<Plan> p = e->plan(Choice{});
            logAt(HIPDNN_SEV_INFO, "applicable: " + e->model.summary + " on device " + std::to_string(e->device) + ", "
                                       + std::to_string(e->configs.size()) + " cuDNN configs, first plan " + p->config.label());
        }
        catch(const Unsupported& ex)
        {
            reason = ex.what();
        }
        if(!reason.empty())
        {
            logAt(HIPDNN_SEV_INFO, "not applicable: " + reason);
            return;
        }
        if(max_engines > 0)
        {
            requireNotNull(engine_ids, "engine_ids");
            engine_ids[0] = kEngineId;
            *num_engines = 1;
        }
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetEngineDetails(hipdnnEnginePluginHandle_t handle, int64_t engine_id,
                                                                             const hipdnnPluginConstData_t* op_graph,
                                                                             hipdnnPluginConstData_t* engine_details)
{
    return entry([&] {
        requireNotNull(handle, "handle");
        requireNotNull(engine_details, "engine_details");
        requireEngine(engine_id);
        requireAvailable();
        std::shared_ptr<GraphEntry> e = graphEntry(handle, op_graph);
        const int64_t n = static_cast<int64_t>(e->configs.size());
        using hipdnn_plugin_sdk::KnobSpec;
        hipdnn_plugin_sdk::EngineDetailsBuilder b(kEngineId);
        b.knob(KnobSpec::integer(kKnobConfig,
                                 "index of the cuDNN engine config in cuDNN's heuristic order (mode A, then fallback); "
                                 "-1: the first whose plan builds",
                                 -1)
                   .range(-1, std::max<int64_t>(n - 1, -1)));
        b.knob(KnobSpec::integer(kKnobEngine, "a cuDNN engine global index (overrides cudnn.config); -1: unset", -1)
                   .range(int64_t{-1}, int64_t{1} << 20));
        b.knob(
            KnobSpec::string(kKnobKnobs, "cuDNN knob choices for cudnn.engine, as TYPE=VALUE,... (cudnnBackendKnobType_t)", ""));
        b.note(HIPDNN_BEHAVIOR_NOTE_EXTERNAL_LIBRARY_DEPENDENCY);
        try
        {
            std::shared_ptr<Plan> p = e->plan(Choice{});
            for(int note : p->config.behaviorNotes)
            {
                if(note == CUDNN_BEHAVIOR_NOTE_RUNTIME_COMPILATION)
                    b.note(HIPDNN_BEHAVIOR_NOTE_RUNTIME_COMPILATION);
                else if(note == CUDNN_BEHAVIOR_NOTE_SUPPORTS_CUDA_GRAPH_NATIVE_API)
                    b.note(HIPDNN_BEHAVIOR_NOTE_SUPPORTS_GRAPH_CAPTURE);
            }
        }
        catch(const Unsupported&)
        {
        }
        b.name(kEngineName);
        b.publish(engine_details);
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroyEngineDetails(hipdnnEnginePluginHandle_t handle,
                                                                                 hipdnnPluginConstData_t* engine_details)
{
    return entry([&] {
        requireNotNull(handle, "handle");
        hipdnn_plugin_sdk::releaseBuffer(engine_details);
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetWorkspaceSize(hipdnnEnginePluginHandle_t handle,
                                                                             const hipdnnPluginConstData_t* engine_config,
                                                                             const hipdnnPluginConstData_t* op_graph,
                                                                             size_t* workspace_size)
{
    return entry([&] {
        requireNotNull(handle, "handle");
        requireNotNull(workspace_size, "workspace_size");
        *workspace_size = static_cast<size_t>(planFor(handle, engine_config, op_graph).second->workspace);
    });
}

// hipdnnEnginePluginGetNumericalNotesV1_ext (our extension): cuDNN's numerical notes of the
// engine config this EngineConfig selects, the one CreateExecutionContext would run. cuDNN's
// note values are hipDNN's (HipdnnBackendNumericalNote.h copies cuDNN's set); a note this
// build does not know is left out rather than passed on as a value the host cannot name.
HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetNumericalNotesV1_ext(hipdnnEnginePluginHandle_t handle,
                                                                                    const hipdnnPluginConstData_t* engine_config,
                                                                                    const hipdnnPluginConstData_t* op_graph,
                                                                                    int32_t* notes, uint32_t max_notes,
                                                                                    uint32_t* num_notes)
{
    return entry([&] {
        requireNotNull(handle, "handle");
        requireNotNull(num_notes, "num_notes");
        if(max_notes > 0)
            requireNotNull(notes, "notes");
        uint32_t n = 0;
        for(int note : planFor(handle, engine_config, op_graph).second->config.numericalNotes)
        {
            if(note < 0 || note >= HIPDNN_NUMERICAL_NOTE_TYPE_COUNT)
                continue;
            if(n < max_notes)
                notes[n] = note;
            ++n;
        }
        *num_notes = n;
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginCreateExecutionContext(
    hipdnnEnginePluginHandle_t handle, const hipdnnPluginConstData_t* engine_config, const hipdnnPluginConstData_t* op_graph,
    hipdnnEnginePluginExecutionContext_t* execution_context)
{
    return entry([&] {
        requireNotNull(handle, "handle");
        requireNotNull(execution_context, "execution_context");
        auto out = std::make_unique<HipdnnEnginePluginExecutionContext>();
        Context& ctx = out->ctx;
        std::tie(ctx.entry, ctx.plan) = planFor(handle, engine_config, op_graph);
        ctx.device = ctx.entry->device;
        for(const TensorSpec& t : ctx.entry->model.tensors)
        {
            if(t.constant)
            {
                ctx.constUids.push_back(t.uid);
                ctx.constPtrs.push_back(const_cast<unsigned char*>(t.value.data()));
            }
            if(t.wsOffset >= 0)
            {
                ctx.wsUids.push_back(t.uid);
                ctx.wsOffsets.push_back(t.wsOffset);
            }
        }
        ctx.wsBytes = ctx.entry->model.wsBytes;
        logAt(HIPDNN_SEV_INFO, "execution context: " + ctx.entry->model.summary + ", " + ctx.plan->config.label() + ", workspace "
                                   + std::to_string(ctx.plan->workspace) + " bytes");
        *execution_context = out.release();
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginDestroyExecutionContext(
    hipdnnEnginePluginHandle_t handle, hipdnnEnginePluginExecutionContext_t execution_context)
{
    return entry([&] {
        requireNotNull(handle, "handle");
        requireNotNull(execution_context, "execution_context");
        delete execution_context;
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext(
    hipdnnEnginePluginHandle_t handle, hipdnnEnginePluginExecutionContext_t execution_context, size_t* workspace_size)
{
    return entry([&] {
        requireNotNull(handle, "handle");
        requireNotNull(execution_context, "execution_context");
        requireNotNull(workspace_size, "workspace_size");
        *workspace_size = static_cast<size_t>(execution_context->ctx.plan->workspace);
    });
}

HIPDNN_PLUGIN_EXPORT hipdnnPluginStatus_t hipdnnEnginePluginExecuteOpGraph(hipdnnEnginePluginHandle_t handle,
                                                                           hipdnnEnginePluginExecutionContext_t execution_context,
                                                                           void* workspace,
                                                                           const hipdnnPluginDeviceBuffer_t* device_buffers,
                                                                           uint32_t num_device_buffers)
{
    return entry([&] {
        requireNotNull(handle, "handle");
        requireNotNull(execution_context, "execution_context");
        execute(handle, execution_context->ctx, workspace, device_buffers, num_device_buffers);
    });
}

} // extern "C"
