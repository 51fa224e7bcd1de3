// hipdnn_plugin_sdk/helpers/EnginePlugin.hpp
//
// The engine-plugin ABI layer, written once. An engine is a C++ class of static members (the
// hooks below); one macro, HIPDNN_ENGINE_PLUGIN(Engine), emits every required `extern "C"` entry
// point plus hipdnnEnginePluginIsHostMemoryEngine_ext and hipdnnEnginePluginGetNumericalNotesV1_ext.
// Each export has one shape: check the pointers the ABI hands over, resolve the handle or
// context, call one hook, map any exception to a status and the thread's last error (guard() of
// PluginHelpers.hpp). No C++ exception crosses the C boundary. Optional, header-only; nothing
// here is part of the ABI. C++17.
//
// Optional exports, each its own macro so that a plugin exports exactly what it implements:
//   HIPDNN_ENGINE_PLUGIN_SERIALIZATION(Engine)  the three execution-context serialization calls
//   HIPDNN_ENGINE_PLUGIN_MEMORY_KINDS(Engine)   hipdnnEnginePluginGetMemoryKinds_ext
//
// The engine class (one engine per plugin; its id is engineNameToId(kEngineName)):
//
//   struct MyEngine : hipdnn_plugin_sdk::EngineDefaults
//   {
//       static constexpr const char* kPluginName = "acme_relu";      // hipdnnPluginGetName
//       static constexpr const char* kPluginVersion = "1.0.0";       // hipdnnPluginGetVersion
//       static constexpr const char* kEngineName = "ACME_RELU";      // hashed into the engine id
//       static constexpr bool kHostMemory = true;                    // IsHostMemoryEngine_ext
//
//       struct Context;  // behind hipdnnEnginePluginExecutionContext_t, deleted by the SDK
//
//       // "" when the engine runs the graph, else why not (logged at INFO, 0 engines reported).
//       // The SDK has verified the buffer and checked hostFeatureProblem() before.
//       static std::string applicability(Handle&, const fbs::Graph&);
//       // Knobs and notes for the builder; the SDK checked the id and verified the graph.
//       static void engineDetails(Handle&, const fbs::Graph&, EngineDetailsBuilder&);
//       static size_t workspaceSize(Handle&, const hipdnnPluginConstData_t* config,
//                                   const hipdnnPluginConstData_t* graph);
//       // The hipdnnBackendNumericalNote_t values of the config on the graph. No
//       // NONDETERMINISTIC note is a promise of bitwise-identical results.
//       static std::vector<int32_t> numericalNotes(Handle&, const hipdnnPluginConstData_t* config,
//                                                  const hipdnnPluginConstData_t* graph);
//       static std::unique_ptr<Context> createContext(Handle&, const hipdnnPluginConstData_t* config,
//                                                     const hipdnnPluginConstData_t* graph);
//       static size_t contextWorkspaceSize(const Context&);
//       static void execute(Handle&, Context&, void* workspace,
//                           const hipdnnPluginDeviceBuffer_t* buffers, uint32_t count);
//
//       // Only with HIPDNN_ENGINE_PLUGIN_SERIALIZATION:
//       static std::vector<uint8_t> serializeContext(Handle&, const Context&);
//       static std::unique_ptr<Context> deserializeContext(Handle&, const hipdnnPluginConstData_t*);
//       // Only with HIPDNN_ENGINE_PLUGIN_MEMORY_KINDS: a mask of HIPDNN_PLUGIN_MEMORY_* bits.
//       static constexpr uint32_t kMemoryKinds = HIPDNN_PLUGIN_MEMORY_DEVICE;
//   };
//   HIPDNN_ENGINE_PLUGIN(MyEngine)
//
// EngineDefaults supplies what most engines share and an engine may hide with its own member:
//   Handle                   behind hipdnnEnginePluginHandle_t; default-constructed by Create,
//                            deleted by Destroy, setStream(hipStream_t) called by SetStream.
//                            The default records the stream only (host engines run synchronously).
//   translateException(entry)  called inside a catch block with the entry's short name
//                            ("ExecuteOpGraph"); rethrow what it recognises as a PluginError
//                            (fail(), or rethrowAs<X>(status, prefix)), return for the rest,
//                            which then map as guard() maps them.
//   loggingStarted()         called after the host sets its logging callback, and again after
//                            each log level change (the level usually arrives after the
//                            callback); an engine that logs once checks log().enabled().
//
// Hooks may be called from several threads at once (see docs/plugin-authors.md, "Threads").
// EnginePlugin<E>::log() is the plugin's log, prefixed with kPluginName.
#ifndef HIPDNN_PLUGIN_SDK_HELPERS_ENGINE_PLUGIN_HPP
#define HIPDNN_PLUGIN_SDK_HELPERS_ENGINE_PLUGIN_HPP

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "../EnginePluginApi.h"
#include "../EnginePluginExtensions.h"
#include "../PluginApi.h"
#include "PluginHelpers.hpp"

namespace hipdnn_plugin_sdk
{

// rethrowAs, called inside a catch block (translateException), turns the exception being handled
// into PluginError(status, prefix + what()) when it is an X, and returns when it is not.
template <typename X>
void rethrowAs(hipdnnPluginStatus_t status, const std::string& prefix)
{
    try
    {
        throw;
    }
    catch(const X& e)
    {
        fail(status, prefix + e.what());
    }
    catch(...)
    {
    }
}

// EngineDefaults: the hooks most engines leave as they are. Derive from it and hide what differs.
struct EngineDefaults
{
    // Handle records the stream SetStream gives; a device engine brings its own.
    struct Handle
    {
        hipStream_t stream = nullptr;
        void setStream(hipStream_t next) noexcept { stream = next; }
    };

    static void translateException(const char* /*entry*/) {}
    static void loggingStarted() {}
};

// EnginePlugin<E> implements every entry point on top of the engine class E. The macros below
// only forward to it, so each export is one line and the logic is compiled once per plugin.
template <typename E>
class EnginePlugin
{
public:
    using Handle = typename E::Handle;
    using Context = typename E::Context;

    static constexpr int64_t kEngineId = engineNameToId(E::kEngineName);
    static_assert(kEngineId != 0, "the engine needs a non-empty name");

    // log is the plugin's log: the host's callback and level, lines prefixed "[kPluginName]".
    // Constant-initialised, so it is usable from any hook at any time.
    static PluginLog& log() noexcept
    {
        static PluginLog instance{E::kPluginName};
        return instance;
    }

    // requireEngine: BAD_PARAM naming the plugin's only engine when id is another.
    static void requireEngine(int64_t id)
    {
        if(id != kEngineId)
        {
            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                 "engine id " + std::to_string(id) + " does not belong to " + E::kPluginName
                     + " (its only engine is " + E::kEngineName + " = " + std::to_string(kEngineId) + ")");
        }
    }

    // run is the one error boundary: the engine's own exceptions first (translateException),
    // then guard()'s mapping. Never throws.
    template <typename Body>
    static hipdnnPluginStatus_t run(const char* entry, Body&& body) noexcept
    {
        return guard([&]() {
            try
            {
                body();
            }
            catch(const PluginError&)
            {
                throw;
            }
            catch(...)
            {
                E::translateException(entry);
                throw;
            }
        });
    }

    // ---- base plugin API ----------------------------------------------------------------

    static hipdnnPluginStatus_t getString(const char* entry, const char** out, const char* what, const char* value) noexcept
    {
        return run(entry, [&] {
            requireNotNull(out, what);
            *out = value;
        });
    }

    static hipdnnPluginStatus_t getType(hipdnnPluginType_t* type) noexcept
    {
        return run("GetType", [&] {
            requireNotNull(type, "type");
            *type = HIPDNN_PLUGIN_TYPE_ENGINE;
        });
    }

    static void getLastErrorString(const char** text) noexcept
    {
        if(text != nullptr)
        {
            *text = hipdnnPluginGetLastError();
        }
    }

    static hipdnnPluginStatus_t setLoggingCallback(hipdnnCallback_t callback) noexcept
    {
        return run("SetLoggingCallback", [&] {
            log().setCallback(callback);
            E::loggingStarted();
        });
    }

    static hipdnnPluginStatus_t setLogLevel(hipdnnSeverity_t level) noexcept
    {
        return run("SetLogLevel", [&] {
            // A C caller may pass any int; reading its bits as an int keeps an out-of-range
            // value from being loaded as the enum, which C++ leaves undefined.
            static_assert(sizeof(level) == sizeof(int), "hipdnnSeverity_t is an int-sized enum");
            int value = 0;
            std::memcpy(&value, &level, sizeof value);
            if(value < HIPDNN_SEV_INFO || value > HIPDNN_SEV_OFF)
            {
                fail(HIPDNN_PLUGIN_STATUS_INVALID_VALUE, "log level " + std::to_string(value) + " is unknown");
            }
            log().setLevel(static_cast<hipdnnSeverity_t>(value));
            E::loggingStarted();
        });
    }

    // ---- handle-free engine queries -----------------------------------------------------

    static hipdnnPluginStatus_t getAllEngineIds(int64_t* ids, uint32_t max, uint32_t* count) noexcept
    {
        return run("GetAllEngineIds", [&] { listEngine(ids, max, count); });
    }

    static hipdnnPluginStatus_t getEngineName(int64_t id, const char** name) noexcept
    {
        return run("GetEngineName", [&] {
            requireNotNull(name, "name");
            if(id != kEngineId)
            {
                // NOT_APPLICABLE is the header's "no such engine" here, not BAD_PARAM.
                fail(HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE,
                     "no engine " + std::to_string(id) + " in " + E::kPluginName);
            }
            *name = E::kEngineName;
        });
    }

    static hipdnnPluginStatus_t isHostMemoryEngine(int64_t id, int32_t* isHost) noexcept
    {
        return run("IsHostMemoryEngine", [&] {
            requireNotNull(isHost, "is_host");
            requireEngine(id);
            *isHost = E::kHostMemory ? 1 : 0;
        });
    }

    static hipdnnPluginStatus_t getMemoryKinds(int64_t id, uint32_t* kinds) noexcept
    {
        return run("GetMemoryKinds", [&] {
            requireNotNull(kinds, "kinds");
            requireEngine(id);
            *kinds = E::kMemoryKinds;
        });
    }

    // ---- handles ------------------------------------------------------------------------

    static hipdnnPluginStatus_t create(hipdnnEnginePluginHandle_t* out) noexcept
    {
        return run("Create", [&] {
            requireNotNull(out, "handle");
            *out = reinterpret_cast<hipdnnEnginePluginHandle_t>(new Handle());
        });
    }

    static hipdnnPluginStatus_t destroy(hipdnnEnginePluginHandle_t handle) noexcept
    {
        return run("Destroy", [&] { delete &handleOf(handle); });
    }

    static hipdnnPluginStatus_t setStream(hipdnnEnginePluginHandle_t handle, hipStream_t stream) noexcept
    {
        return run("SetStream", [&] { handleOf(handle).setStream(stream); });
    }

    // ---- graph queries ------------------------------------------------------------------

    static hipdnnPluginStatus_t getApplicableEngineIds(hipdnnEnginePluginHandle_t handle,
                                                       const hipdnnPluginConstData_t* opGraph,
                                                       int64_t* ids,
                                                       uint32_t max,
                                                       uint32_t* count) noexcept
    {
        return run("GetApplicableEngineIds", [&] {
            Handle& h = handleOf(handle);
            requireNotNull(count, "num_engines");
            const fbs::Graph* graph = verifyGraph(opGraph);
            std::string reason = hostFeatureProblem(*graph);
            if(reason.empty())
            {
                reason = E::applicability(h, *graph);
            }
            // A decline succeeds with no engine and leaves "not applicable: <reason>" as the
            // thread's last error, where the host reads it (hipDNN-Go's convention; an answer
            // with engines clears it).
            hipdnnPluginClearLastError();
            if(!reason.empty())
            {
                const std::string text = "not applicable: " + reason;
                log()(HIPDNN_SEV_INFO, text);
                hipdnnPluginSetLastError(text.c_str());
                *count = 0;
                return;
            }
            listEngine(ids, max, count);
        });
    }

    static hipdnnPluginStatus_t getEngineDetails(hipdnnEnginePluginHandle_t handle,
                                                 int64_t id,
                                                 const hipdnnPluginConstData_t* opGraph,
                                                 hipdnnPluginConstData_t* details) noexcept
    {
        return run("GetEngineDetails", [&] {
            Handle& h = handleOf(handle);
            requireNotNull(details, "engine_details");
            requireEngine(id);
            const fbs::Graph* graph = verifyGraph(opGraph);
            EngineDetailsBuilder builder(kEngineId);
            E::engineDetails(h, *graph, builder);
            builder.publish(details);
        });
    }

    static hipdnnPluginStatus_t destroyBuffer(const char* entry,
                                              hipdnnEnginePluginHandle_t handle,
                                              hipdnnPluginConstData_t* buffer) noexcept
    {
        return run(entry, [&] {
            handleOf(handle);
            releaseBuffer(buffer);
        });
    }

    static hipdnnPluginStatus_t getWorkspaceSize(hipdnnEnginePluginHandle_t handle,
                                                 const hipdnnPluginConstData_t* config,
                                                 const hipdnnPluginConstData_t* opGraph,
                                                 size_t* size) noexcept
    {
        return run("GetWorkspaceSize", [&] {
            Handle& h = handleOf(handle);
            requireNotNull(size, "workspace_size");
            *size = E::workspaceSize(h, config, opGraph);
        });
    }

    static hipdnnPluginStatus_t getNumericalNotes(hipdnnEnginePluginHandle_t handle,
                                                  const hipdnnPluginConstData_t* config,
                                                  const hipdnnPluginConstData_t* opGraph,
                                                  int32_t* notes,
                                                  uint32_t max,
                                                  uint32_t* count) noexcept
    {
        return run("GetNumericalNotesV1_ext", [&] {
            Handle& h = handleOf(handle);
            requireNotNull(count, "num_notes");
            const std::vector<int32_t> all = E::numericalNotes(h, config, opGraph);
            // A note this SDK cannot name is left out rather than passed to a host that cannot.
            uint32_t n = 0;
            for(int32_t note : all)
            {
                if(note < 0 || note >= HIPDNN_NUMERICAL_NOTE_TYPE_COUNT)
                {
                    continue;
                }
                if(n < max)
                {
                    requireNotNull(notes, "notes");
                    notes[n] = note;
                }
                ++n;
            }
            *count = n;
        });
    }

    // ---- execution contexts -------------------------------------------------------------

    static hipdnnPluginStatus_t createExecutionContext(hipdnnEnginePluginHandle_t handle,
                                                       const hipdnnPluginConstData_t* config,
                                                       const hipdnnPluginConstData_t* opGraph,
                                                       hipdnnEnginePluginExecutionContext_t* out) noexcept
    {
        return run("CreateExecutionContext", [&] {
            Handle& h = handleOf(handle);
            requireNotNull(out, "execution_context");
            publishContext(E::createContext(h, config, opGraph), out);
        });
    }

    static hipdnnPluginStatus_t destroyExecutionContext(hipdnnEnginePluginHandle_t handle,
                                                        hipdnnEnginePluginExecutionContext_t context) noexcept
    {
        return run("DestroyExecutionContext", [&] {
            handleOf(handle);
            delete &contextOf(context);
        });
    }

    static hipdnnPluginStatus_t getContextWorkspaceSize(hipdnnEnginePluginHandle_t handle,
                                                        hipdnnEnginePluginExecutionContext_t context,
                                                        size_t* size) noexcept
    {
        return run("GetWorkspaceSizeFromExecutionContext", [&] {
            handleOf(handle);
            const Context& c = contextOf(context);
            requireNotNull(size, "workspace_size");
            *size = E::contextWorkspaceSize(c);
        });
    }

    static hipdnnPluginStatus_t execute(hipdnnEnginePluginHandle_t handle,
                                        hipdnnEnginePluginExecutionContext_t context,
                                        void* workspace,
                                        const hipdnnPluginDeviceBuffer_t* buffers,
                                        uint32_t count) noexcept
    {
        return run("ExecuteOpGraph", [&] {
            Handle& h = handleOf(handle);
            E::execute(h, contextOf(context), workspace, buffers, count);
        });
    }

    static hipdnnPluginStatus_t serializeContext(hipdnnEnginePluginHandle_t handle,
                                                 hipdnnEnginePluginExecutionContext_t context,
                                                 hipdnnPluginConstData_t* out) noexcept
    {
        return run("SerializeExecutionContext", [&] {
            Handle& h = handleOf(handle);
            requireNotNull(out, "serialized_context");
            const std::vector<uint8_t> bytes = E::serializeContext(h, contextOf(context));
            publishBytes(bytes.data(), bytes.size(), out);
        });
    }

    static hipdnnPluginStatus_t deserializeContext(hipdnnEnginePluginHandle_t handle,
                                                   const hipdnnPluginConstData_t* serialized,
                                                   hipdnnEnginePluginExecutionContext_t* out) noexcept
    {
        return run("CreateExecutionContextFromSerialized", [&] {
            Handle& h = handleOf(handle);
            requireNotNull(out, "execution_context");
            publishContext(E::deserializeContext(h, serialized), out);
        });
    }

private:
    static Handle& handleOf(hipdnnEnginePluginHandle_t handle)
    {
        requireNotNull(handle, "handle");
        return *reinterpret_cast<Handle*>(handle);
    }

    static Context& contextOf(hipdnnEnginePluginExecutionContext_t context)
    {
        requireNotNull(context, "execution_context");
        return *reinterpret_cast<Context*>(context);
    }

    static void publishContext(std::unique_ptr<Context> context, hipdnnEnginePluginExecutionContext_t* out)
    {
        if(!context)
        {
            fail(HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR, std::string(E::kEngineName) + " made no execution context");
        }
        *out = reinterpret_cast<hipdnnEnginePluginExecutionContext_t>(context.release());
    }

    // listEngine: the two-pass listing of the one engine (count query with max 0, then fetch).
    static void listEngine(int64_t* ids, uint32_t max, uint32_t* count)
    {
        requireNotNull(count, "num_engines");
        if(max > 0)
        {
            requireNotNull(ids, "engine_ids");
            ids[0] = kEngineId;
        }
        *count = 1;
    }
};

} // namespace hipdnn_plugin_sdk

// The macros emitting the exports (HIPDNN_ENGINE_PLUGIN and its optional variants).
#include "EnginePluginExports.hpp"

#endif // HIPDNN_PLUGIN_SDK_HELPERS_ENGINE_PLUGIN_HPP
