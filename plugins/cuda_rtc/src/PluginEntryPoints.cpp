// The C entry points of libhipdnngo_cuda_rtc.so: one engine, HIPDNNGO_CUDA_RTC, that generates
// CUDA C++ for memory-bound graphs (pointwise chains, row-wise norms with pointwise epilogues),
// compiles it with NVRTC when the execution context is created, and launches it with the
// driver API on the handle's stream. The exports come from the SDK's plugin skeleton.
//
// The CUDA driver and NVRTC are opened with dlopen on the first applicability question (never
// at load); without them or without a device the engine applies to no graph and says why once.
#include "Codegen.hpp"
#include "CudaApi.hpp"
#include "Model.hpp"
#include "Runtime.hpp"

#include <hipdnn_plugin_sdk/helpers/EnginePlugin.hpp>
#include <hipdnn_plugin_sdk/helpers/FloatFormats.h>

#include <cstring>
#include <mutex>

namespace hipdnngo::cuda_rtc
{

using hipdnn_plugin_sdk::fail;
using hipdnn_plugin_sdk::requireNotNull;

struct RtcHandle
{
    std::mutex m;
    CUstream stream = nullptr;

    void setStream(hipStream_t next)
    {
        std::lock_guard<std::mutex> lock(m);
        stream = reinterpret_cast<CUstream>(next); // HIP streams are CUDA streams on NVIDIA
    }
    CUstream get()
    {
        std::lock_guard<std::mutex> lock(m);
        return stream;
    }
};

constexpr size_t kMaxArgs = 64;

struct RtcLaunch
{
    CUfunction fn = nullptr;
    unsigned grid = 1, block = 1;
    std::vector<Arg> args;
};

struct RtcContext
{
    Device dev;
    CUstream planStream = nullptr;
    std::shared_ptr<const Module> module;
    std::vector<RtcLaunch> launches;
    size_t workspace = 0;
    std::string label;
};

namespace
{

constexpr const char* kKnobVec = "cuda_rtc.vector_width";
constexpr const char* kKnobThreads = "cuda_rtc.threads";
constexpr const char* kKnobRows = "cuda_rtc.rows_per_block";
constexpr const char* kKnobTwoPass = "cuda_rtc.two_pass";
constexpr const char* kKnobBlocksPerSm = "cuda_rtc.blocks_per_sm";

std::once_flag gAvailabilityLogged;

} // namespace

struct RtcEngine : hipdnn_plugin_sdk::EngineDefaults
{
    static constexpr const char* kPluginName = "hipdnngo_cuda_rtc";
    static constexpr const char* kPluginVersion = "0.1.0";
    static constexpr const char* kEngineName = "HIPDNNGO_CUDA_RTC";
    static constexpr bool kHostMemory = false;
    static constexpr uint32_t kMemoryKinds = HIPDNN_PLUGIN_MEMORY_DEVICE | HIPDNN_PLUGIN_MEMORY_MANAGED;

    using Handle = RtcHandle;
    using Context = RtcContext;
    using Plugin = hipdnn_plugin_sdk::EnginePlugin<RtcEngine>;

    static void translateException(const char* /*entry*/)
    {
        hipdnn_plugin_sdk::rethrowAs<Unsupported>(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "HIPDNNGO_CUDA_RTC: ");
    }

    static bool available()
    {
        const Api& a = api();
        std::call_once(gAvailabilityLogged, [&] {
            if(!a.ok)
                Plugin::log()(HIPDNN_SEV_WARN, "engine HIPDNNGO_CUDA_RTC offers nothing: " + a.why);
            else
                Plugin::log()(HIPDNN_SEV_INFO, "CUDA driver " + std::to_string(a.driverVersion) + " (" + a.cudaPath + "), "
                                                   + std::to_string(a.deviceCount) + " device(s), NVRTC "
                                                   + std::to_string(a.nvrtcMajor) + "." + std::to_string(a.nvrtcMinor) + " ("
                                                   + a.nvrtcPath + ")");
        });
        return a.ok;
    }

    static std::string applicability(Handle&, const fbs::Graph& graph)
    {
        if(!available())
            return api().why;
        try
        {
            const Program p = readProgram(graph);
            generate(p, Knobs{}); // the generator takes it too
            Plugin::log()(HIPDNN_SEV_INFO, "applicable: " + p.summary);
        }
        catch(const Unsupported& e)
        {
            return e.what();
        }
        return "";
    }

    static void engineDetails(Handle&, const fbs::Graph& graph, hipdnn_plugin_sdk::EngineDetailsBuilder& b)
    {
        requireAvailable();
        readProgram(graph);
        using hipdnn_plugin_sdk::KnobSpec;
        b.knob(KnobSpec::integer(kKnobVec, "elements per vector load/store (0: widest the alignment allows)", 0)
                   .allowed({0, 1, 2, 4, 8}));
        b.knob(KnobSpec::integer(kKnobThreads, "threads per row (norms) or per block (pointwise); 0: by shape", 0)
                   .allowed({0, 32, 64, 128, 256, 512, 1024}));
        b.knob(KnobSpec::integer(kKnobRows, "rows per block (norms); 0: by shape", 0).allowed({0, 1, 2, 4, 8, 16, 32}));
        b.knob(KnobSpec::integer(kKnobTwoPass,
                                 "layernorm statistics: 1 two passes (mean, then squared deviations), 0 one pass, 2 each "
                                 "thread's two passes merged in one reduction, -1 default",
                                 -1)
                   .allowed({-1, 0, 1, 2}));
        b.knob(KnobSpec::integer(kKnobBlocksPerSm, "norms: blocks per SM of a grid that walks over the rows; 0: by shape", 0)
                   .allowed({0, 1, 2, 3, 4, 5, 6, 7, 8}));
        b.note(HIPDNN_BEHAVIOR_NOTE_RUNTIME_COMPILATION);
        b.name(kEngineName);
    }

    static size_t workspaceSize(Handle& h, const hipdnnPluginConstData_t* config, const hipdnnPluginConstData_t* graph)
    {
        requireAvailable();
        Knobs k = knobsOf(config);
        k.sms = deviceFor(h.get()).sms; // as createContext sees it, so the workspace matches
        return generate(readProgram(*hipdnn_plugin_sdk::verifyGraph(graph)), k).workspace;
    }

    static std::vector<int32_t> numericalNotes(Handle&, const hipdnnPluginConstData_t*, const hipdnnPluginConstData_t*)
    {
        return {};
    }

    static std::unique_ptr<Context> createContext(Handle& h, const hipdnnPluginConstData_t* config,
                                                  const hipdnnPluginConstData_t* graph)
    {
        requireAvailable();
        auto ctx = std::make_unique<Context>();
        ctx->planStream = h.get();
        ctx->dev = deviceFor(ctx->planStream);
        Knobs k = knobsOf(config);
        k.sms = ctx->dev.sms;
        const Program p = readProgram(*hipdnn_plugin_sdk::verifyGraph(graph));
        const Generated g = generate(p, k);
        std::vector<std::string> names;
        for(const Launch& l : g.launches)
        {
            if(l.args.size() > kMaxArgs)
                throw Unsupported("the fused kernel needs " + std::to_string(l.args.size()) + " arguments (at most "
                                  + std::to_string(kMaxArgs) + ")");
            names.push_back(l.kernel);
        }
        ctx->module = moduleFor(g.source, names, ctx->dev, [](int sev, const std::string& m) {
            Plugin::log()(static_cast<hipdnnSeverity_t>(sev), m);
        });
        for(const Launch& l : g.launches)
            ctx->launches.push_back({ctx->module->fns.at(l.kernel), l.grid, l.block, l.args});
        ctx->workspace = g.workspace;
        ctx->label = p.summary + " [" + g.config + "] on device " + std::to_string(ctx->dev.ordinal) + " (sm_"
                     + std::to_string(ctx->dev.ccMajor * 10 + ctx->dev.ccMinor) + ")";
        Plugin::log()(HIPDNN_SEV_INFO, "execution context: " + ctx->label);
        return ctx;
    }

    static size_t contextWorkspaceSize(const Context& ctx) { return ctx.workspace; }

    static void execute(Handle& h, Context& ctx, void* workspace, const hipdnnPluginDeviceBuffer_t* buffers, uint32_t count)
    {
        if(count > 0)
            requireNotNull(buffers, "device_buffers");
        if(ctx.workspace > 0 && workspace == nullptr)
            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                 "HIPDNNGO_CUDA_RTC: workspace is NULL but the plan needs " + std::to_string(ctx.workspace) + " bytes");
        const Api& a = api();
        const CUstream stream = h.get();
        if(stream != ctx.planStream)
        {
            CUcontext c = nullptr;
            const CUresult r = stream != nullptr ? a.cuStreamGetCtx(stream, &c) : a.cuCtxGetCurrent(&c);
            if(r == CUDA_SUCCESS && c != nullptr && c != ctx.dev.ctx)
                fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                     "HIPDNNGO_CUDA_RTC: the stream belongs to another CUDA context than the one the plan was built for");
        }
        CtxScope scope(ctx.dev.ctx);
        for(const RtcLaunch& l : ctx.launches)
        {
            union Value
            {
                void* p;
                float f;
            };
            Value vals[kMaxArgs];
            void* slots[kMaxArgs];
            for(size_t i = 0; i < l.args.size(); ++i)
            {
                const Arg& arg = l.args[i];
                if(arg.kind == Arg::ConstF)
                {
                    vals[i].f = arg.value;
                }
                else if(arg.kind == Arg::Workspace)
                {
                    vals[i].p = static_cast<char*>(workspace) + arg.uid;
                }
                else
                {
                    void* ptr = nullptr;
                    for(uint32_t j = 0; j < count; ++j)
                        if(buffers[j].uid == arg.uid)
                        {
                            ptr = buffers[j].ptr;
                            break;
                        }
                    if(ptr == nullptr)
                        fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                             "HIPDNNGO_CUDA_RTC: no pointer for tensor uid " + std::to_string(arg.uid));
                    if(arg.kind == Arg::Ptr)
                        vals[i].p = ptr;
                    else
                        vals[i].f = hostScalar(ptr, arg.hostType);
                }
                slots[i] = &vals[i];
            }
            const CUresult r = a.cuLaunchKernel(l.fn, l.grid, 1, 1, l.block, 1, 1, 0, stream, slots, nullptr);
            if(r != CUDA_SUCCESS)
                fail(HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR, "HIPDNNGO_CUDA_RTC: " + cuText("cuLaunchKernel", r));
        }
    }

private:
    static void requireAvailable()
    {
        if(!available())
            throw Unsupported(api().why);
    }

    static float hostScalar(const void* p, fbs::DataType t)
    {
        switch(t)
        {
        case fbs::DataType::FLOAT: return *static_cast<const float*>(p);
        case fbs::DataType::DOUBLE: return static_cast<float>(*static_cast<const double*>(p));
        case fbs::DataType::HALF: return hipdnnHalfToFloat(*static_cast<const uint16_t*>(p));
        case fbs::DataType::BFLOAT16: return hipdnnBfloat16ToFloat(*static_cast<const uint16_t*>(p));
        default: break;
        }
        fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "HIPDNNGO_CUDA_RTC: pass-by-value scalar of an unsupported type");
    }

    static Knobs knobsOf(const hipdnnPluginConstData_t* engine_config)
    {
        const fbs::EngineConfig* cfg = hipdnn_plugin_sdk::verifyEngineConfig(engine_config);
        Plugin::requireEngine(cfg->engine_id());
        Knobs k;
        if(cfg->knobs() == nullptr)
            return k;
        for(const fbs::KnobSetting* s : *cfg->knobs())
        {
            if(s == nullptr || s->knob_id() == nullptr)
                continue;
            const std::string id = s->knob_id()->str();
            if(id.rfind("global.", 0) == 0)
                continue;
            int* slot = id == kKnobVec       ? &k.vec
                         : id == kKnobThreads ? &k.threads
                         : id == kKnobRows    ? &k.rowsPerBlock
                         : id == kKnobTwoPass ? &k.twoPass
                         : id == kKnobBlocksPerSm ? &k.blocksPerSm
                                              : nullptr;
            if(slot == nullptr)
                fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "unknown knob " + id + " for HIPDNNGO_CUDA_RTC");
            const fbs::IntValue* v = s->value_as_IntValue();
            if(v == nullptr)
                fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, id + " needs an integer value");
            *slot = static_cast<int>(v->value());
        }
        try
        {
            checkKnobs(k);
        }
        catch(const Unsupported& e)
        {
            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, std::string("HIPDNNGO_CUDA_RTC: ") + e.what());
        }
        return k;
    }
};

} // namespace hipdnngo::cuda_rtc

HIPDNN_ENGINE_PLUGIN(hipdnngo::cuda_rtc::RtcEngine)
HIPDNN_ENGINE_PLUGIN_MEMORY_KINDS(hipdnngo::cuda_rtc::RtcEngine)
