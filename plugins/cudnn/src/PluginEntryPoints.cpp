// The C entry points of libhipdnngo_cudnn.so: one engine, HIPDNNGO_CUDNN, that runs hipDNN
// graphs through NVIDIA cuDNN's backend API on the device of the handle's stream. The exports
// come from the SDK's plugin skeleton (hipdnn_plugin_sdk/helpers/EnginePlugin.hpp); the engine
// class below holds the cuDNN side: a handle that leases a cuDNN handle per stream, knobs,
// notes, memory kinds and the variant-pack cache of execute.
//
// cuDNN and the CUDA runtime are opened with dlopen on the first call that needs them
// (applicability, never at load), so the plugin loads everywhere; without them (or without a
// device) it applies to no graph and says why once in the log.
#include "Engine.hpp"

#include <hipdnn_plugin_sdk/EngineNames.h>
#include <hipdnn_plugin_sdk/helpers/ContextPayload.hpp>
#include <hipdnn_plugin_sdk/helpers/EnginePlugin.hpp>

#include <cstring>
#include <mutex>
#include <tuple>

namespace hipdnngo::cudnn
{

using hipdnn_plugin_sdk::fail;
using hipdnn_plugin_sdk::requireNotNull;

// CudnnHandle is the plugin handle: the stream and the cuDNN handle of (its device, stream),
// leased at the first execute after SetStream and given back when the stream changes or this
// handle is destroyed.
struct CudnnHandle
{
    std::mutex m;
    cudaStream_t stream = nullptr;
    std::shared_ptr<StreamHandle> lease;

    ~CudnnHandle() { returnStreamHandle(lease); }

    void setStream(hipStream_t next)
    {
        std::lock_guard<std::mutex> lock(m);
        stream = reinterpret_cast<cudaStream_t>(next); // HIP streams are CUDA streams here
        returnStreamHandle(lease);
        lease.reset();
    }
};

namespace
{

constexpr const char* kKnobConfig = "cudnn" HIPDNN_PLUGIN_CONFIG_KNOB_SUFFIX;
constexpr const char* kKnobEngine = "cudnn.engine";
constexpr const char* kKnobKnobs = "cudnn.knobs";

std::once_flag gUnavailableLogged;

// available loads cuDNN; false (logged once) when it or a device is missing.
bool available(hipdnn_plugin_sdk::PluginLog& logAt)
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

cudaStream_t streamOf(CudnnHandle& h)
{
    std::lock_guard<std::mutex> lock(h.m);
    return h.stream;
}

// graphEntry translates a verified graph (cached by content and device).
std::shared_ptr<GraphEntry> graphEntry(CudnnHandle& h, const fbs::Graph& graph)
{
    const std::string v = hipdnn_plugin_sdk::hostFeatureProblem(graph);
    if(!v.empty())
        throw Unsupported(v);
    const int device = deviceOf(streamOf(h));
    // cuDNN's single SDPA forward operation first where it applies (as cudnn-frontend's AUTO
    // picks it); the composite pattern when cuDNN offers nothing for it.
    std::shared_ptr<GraphEntry> e = entryFor(readModel(graph, api().cudnnVersion >= kUnifiedSdpaVersion), device);
    if(!e->error.empty() && e->model.unifiedSdpaAuto)
    {
        std::shared_ptr<GraphEntry> composite = entryFor(readModel(graph, false), device);
        if(composite->error.empty())
            return composite;
    }
    return e;
}

// CudnnContext is one execution context: a built plan plus the constants it feeds by value.
struct CudnnContext
{
    std::shared_ptr<GraphEntry> entry;
    std::shared_ptr<Plan> plan;
    std::vector<uint8_t> graph; // the hipDNN graph, for serialization
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

void launch(CudnnHandle& h, CudnnContext& ctx, void* workspace, const hipdnnPluginDeviceBuffer_t* buffers, uint32_t n)
{
    if(n > 0)
        requireNotNull(buffers, "device_buffers");
    std::shared_ptr<StreamHandle> lease; // held for the call: a concurrent SetStream may return it
    {
        std::lock_guard<std::mutex> lock(h.m);
        if(!h.lease || h.lease->device() != ctx.device)
        {
            std::shared_ptr<StreamHandle> next = leaseStreamHandle(ctx.device, h.stream);
            returnStreamHandle(h.lease);
            h.lease = std::move(next);
        }
        lease = h.lease;
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

struct CudnnEngine : hipdnn_plugin_sdk::EngineDefaults
{
    static constexpr const char* kPluginName = "hipdnngo_cudnn";
    static constexpr const char* kPluginVersion = "1.0.0";
    static constexpr const char* kEngineName = "HIPDNNGO_CUDNN";
    static constexpr bool kHostMemory = false;
    // Device and managed memory only. Pinned host memory is refused although a kernel could map
    // it: cuDNN does not document its kernels (TMA loads among them) on host memory, and the
    // price of being wrong is the process's GPU context.
    static constexpr uint32_t kMemoryKinds = HIPDNN_PLUGIN_MEMORY_DEVICE | HIPDNN_PLUGIN_MEMORY_MANAGED;

    using Handle = CudnnHandle;
    using Context = CudnnContext;
    using Plugin = hipdnn_plugin_sdk::EnginePlugin<CudnnEngine>;

    static void translateException(const char* /*entry*/)
    {
        hipdnn_plugin_sdk::rethrowAs<Unsupported>(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "HIPDNNGO_CUDNN: ");
    }

    static std::string applicability(Handle& h, const fbs::Graph& graph)
    {
        if(!available(Plugin::log()))
            return api().why;
        try
        {
            std::shared_ptr<GraphEntry> e = graphEntry(h, graph);
            std::shared_ptr<Plan> p = e->plan(Choice{});
            Plugin::log()(HIPDNN_SEV_INFO, "applicable: " + e->model.summary + " on device " + std::to_string(e->device) + ", "
                                               + std::to_string(e->configs.size()) + " cuDNN configs, first plan "
                                               + p->config.label());
        }
        catch(const Unsupported& ex)
        {
            return ex.what();
        }
        return "";
    }

    // engineDetails publishes cudnn.config over [-1, n-1] for the graph's n cuDNN configs, with
    // the rank the default choice (-1) resolves to as its default value: a frontend that lists
    // an engine's configurations (HIPDNN_PLUGIN_CONFIG_KNOB_SUFFIX) then knows which rank the
    // plain config already is.
    static void engineDetails(Handle& h, const fbs::Graph& graph, hipdnn_plugin_sdk::EngineDetailsBuilder& b)
    {
        requireAvailable();
        std::shared_ptr<GraphEntry> e = graphEntry(h, graph);
        std::shared_ptr<Plan> p;
        try
        {
            p = e->plan(Choice{});
        }
        catch(const Unsupported&)
        {
        }
        const int64_t n = static_cast<int64_t>(e->configs.size());
        using hipdnn_plugin_sdk::KnobSpec;
        b.knob(KnobSpec::integer(kKnobConfig,
                                 "index of the cuDNN engine config in cuDNN's heuristic order (mode A, then fallback); "
                                 "-1: the first whose plan builds (the default value names that index)",
                                 p ? p->rank : -1)
                   .range(-1, std::max<int64_t>(n - 1, -1)));
        b.knob(KnobSpec::integer(kKnobEngine, "a cuDNN engine global index (overrides cudnn.config); -1: unset", -1)
                   .range(int64_t{-1}, int64_t{1} << 20));
        b.knob(
            KnobSpec::string(kKnobKnobs, "cuDNN knob choices for cudnn.engine, as TYPE=VALUE,... (cudnnBackendKnobType_t)", ""));
        b.note(HIPDNN_BEHAVIOR_NOTE_EXTERNAL_LIBRARY_DEPENDENCY);
        if(p)
            for(int note : p->config.behaviorNotes)
            {
                if(note == CUDNN_BEHAVIOR_NOTE_RUNTIME_COMPILATION)
                    b.note(HIPDNN_BEHAVIOR_NOTE_RUNTIME_COMPILATION);
                else if(note == CUDNN_BEHAVIOR_NOTE_SUPPORTS_CUDA_GRAPH_NATIVE_API)
                    b.note(HIPDNN_BEHAVIOR_NOTE_SUPPORTS_GRAPH_CAPTURE);
            }
        b.name(kEngineName);
    }

    static size_t workspaceSize(Handle& h, const hipdnnPluginConstData_t* config, const hipdnnPluginConstData_t* graph)
    {
        return static_cast<size_t>(planFor(h, config, graph).second->workspace);
    }

    // cuDNN's numerical notes of the engine config this EngineConfig selects, the one
    // CreateExecutionContext would run. cuDNN's note values are hipDNN's
    // (HipdnnBackendNumericalNote.h copies cuDNN's set); the skeleton drops any it cannot name.
    static std::vector<int32_t> numericalNotes(Handle& h, const hipdnnPluginConstData_t* config,
                                               const hipdnnPluginConstData_t* graph)
    {
        const auto& notes = planFor(h, config, graph).second->config.numericalNotes;
        return std::vector<int32_t>(notes.begin(), notes.end());
    }

    static std::unique_ptr<Context> createContext(Handle& h, const hipdnnPluginConstData_t* config,
                                                  const hipdnnPluginConstData_t* graph)
    {
        auto [entry, plan] = planFor(h, config, graph);
        return newContext(std::move(entry), std::move(plan), hipdnn_plugin_sdk::copyBuffer(graph, "Graph"));
    }

    // Serialized context (ContextPayload.hpp): "HGCU", the hipDNN graph, then the cuDNN engine
    // config the plan runs (global engine index, knob count, (type, value) pairs). Deserializing
    // builds exactly that config again on the handle's device, without cuDNN's heuristics, so the
    // plan is the same even where a later cuDNN would rank its configs differently.
    static std::vector<uint8_t> serializeContext(Handle&, const Context& ctx)
    {
        hipdnn_plugin_sdk::ContextPayloadWriter w(kMagic, kFormat);
        w.blob(ctx.graph);
        const Config& c = ctx.plan->config;
        w.i64(c.engineIndex);
        w.u64(c.knobs.size());
        for(const auto& [type, value] : c.knobs)
        {
            w.i64(type);
            w.i64(value);
        }
        return w.take();
    }

    static std::unique_ptr<Context> deserializeContext(Handle& h, const hipdnnPluginConstData_t* serialized)
    {
        requireAvailable();
        hipdnn_plugin_sdk::ContextPayloadReader r(serialized, kMagic, kFormat, kEngineName);
        std::vector<uint8_t> graph = r.blob();
        Choice choice;
        choice.engine = r.i64();
        const uint64_t n = r.u64();
        for(uint64_t i = 0; i < n; ++i)
        {
            const int64_t type = r.i64();
            choice.knobs.emplace_back(type, r.i64());
        }
        r.finish();
        if(choice.engine < 0)
            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "serialized context of HIPDNNGO_CUDNN names no cuDNN engine");
        const hipdnnPluginConstData_t g{graph.data(), graph.size()};
        std::shared_ptr<GraphEntry> e = graphEntry(h, *hipdnn_plugin_sdk::verifyGraph(&g));
        std::shared_ptr<Plan> p = e->plan(choice);
        return newContext(std::move(e), std::move(p), std::move(graph));
    }

    static size_t contextWorkspaceSize(const Context& ctx) { return static_cast<size_t>(ctx.plan->workspace); }

    static void execute(Handle& h, Context& ctx, void* workspace, const hipdnnPluginDeviceBuffer_t* buffers, uint32_t count)
    {
        launch(h, ctx, workspace, buffers, count);
    }

private:
    static constexpr char kMagic[5] = "HGCU";
    static constexpr uint32_t kFormat = 1;

    // newContext is the execution context of a built plan: the constants fed by value and the
    // intermediates placed in the workspace, from the graph's translation.
    static std::unique_ptr<Context> newContext(std::shared_ptr<GraphEntry> entry, std::shared_ptr<Plan> plan,
                                               std::vector<uint8_t> graph)
    {
        auto ctx = std::make_unique<Context>();
        ctx->entry = std::move(entry);
        ctx->plan = std::move(plan);
        ctx->graph = std::move(graph);
        ctx->device = ctx->entry->device;
        for(const TensorSpec& t : ctx->entry->model.tensors)
        {
            if(t.constant)
            {
                ctx->constUids.push_back(t.uid);
                ctx->constPtrs.push_back(const_cast<unsigned char*>(t.value.data()));
            }
            if(t.wsOffset >= 0)
            {
                ctx->wsUids.push_back(t.uid);
                ctx->wsOffsets.push_back(t.wsOffset);
            }
        }
        for(const auto& [uid, ptr] : ctx->entry->deviceConsts)
        {
            ctx->constUids.push_back(uid);
            ctx->constPtrs.push_back(ptr);
        }
        ctx->wsBytes = ctx->entry->model.wsBytes;
        Plugin::log()(HIPDNN_SEV_INFO, "execution context: " + ctx->entry->model.summary + ", " + ctx->plan->config.label()
                                           + ", workspace " + std::to_string(ctx->plan->workspace) + " bytes");
        return ctx;
    }

    static void requireAvailable()
    {
        if(!available(Plugin::log()))
            throw Unsupported(api().why);
    }

    // choiceOf reads the knob settings of an EngineConfig.
    static Choice choiceOf(const hipdnnPluginConstData_t* engine_config)
    {
        const fbs::EngineConfig* cfg = hipdnn_plugin_sdk::verifyEngineConfig(engine_config);
        Plugin::requireEngine(cfg->engine_id());
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
    static std::pair<std::shared_ptr<GraphEntry>, std::shared_ptr<Plan>>
    planFor(Handle& h, const hipdnnPluginConstData_t* engine_config, const hipdnnPluginConstData_t* op_graph)
    {
        requireAvailable();
        const Choice c = choiceOf(engine_config);
        std::shared_ptr<GraphEntry> e = graphEntry(h, *hipdnn_plugin_sdk::verifyGraph(op_graph));
        std::shared_ptr<Plan> p = e->plan(c);
        return {std::move(e), std::move(p)};
    }
};

} // namespace hipdnngo::cudnn

HIPDNN_ENGINE_PLUGIN(hipdnngo::cudnn::CudnnEngine)
HIPDNN_ENGINE_PLUGIN_MEMORY_KINDS(hipdnngo::cudnn::CudnnEngine)
HIPDNN_ENGINE_PLUGIN_SERIALIZATION(hipdnngo::cudnn::CudnnEngine)
