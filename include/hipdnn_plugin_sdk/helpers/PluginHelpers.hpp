// hipdnn_plugin_sdk/helpers/PluginHelpers.hpp
//
// Small C++17 toolkit for writing hipDNN plugins on top of the C ABI headers. It is optional and
// header-only; nothing here is part of the ABI.
//
//   * PluginError / fail() / requireNotNull(): throw a status together with a message.
//   * guard(fn) and HIPDNN_PLUGIN_GUARD(...): run an entry point's body, turning exceptions into
//     a status plus the thread's last error (see LastError.h). Exceptions never cross the C ABI.
//   * verifyGraph(), verifyEngineConfig(), verifyEngineDetails(), verifyDeviceProperties():
//     check a borrowed FlatBuffer and return its root table.
//   * KnobSpec / validateKnobSetting(): describe an engine's knobs once, publish them in
//     EngineDetails and check the settings an EngineConfig carries against them.
//   * EngineDetailsBuilder / publishBuffer() / releaseBuffer(): hand a plugin-allocated
//     FlatBuffer to the host (allocated with new[]) and free it again in the matching Destroy
//     entry point; copyBuffer() keeps a borrowed one.
//   * PluginLog: the host's logging callback and level (SetLoggingCallback / SetLogLevel).
//   * hostFeatureProblem(): the graph-level features (shape overrides, minimum engine API) a
//     plugin of this SDK's API version cannot honour.
//
// A typical entry point:
//
//   hipdnnPluginStatus_t hipdnnEnginePluginGetEngineDetails(hipdnnEnginePluginHandle_t handle,
//                                                           int64_t engine_id,
//                                                           const hipdnnPluginConstData_t* graph,
//                                                           hipdnnPluginConstData_t* details)
//   {
//       HIPDNN_PLUGIN_GUARD(
//           hipdnn_plugin_sdk::requireNotNull(handle, "handle");
//           hipdnn_plugin_sdk::requireNotNull(details, "engine_details");
//           hipdnn_plugin_sdk::verifyGraph(graph);
//           hipdnn_plugin_sdk::EngineDetailsBuilder(engine_id).publish(details);
//       );
//   }
//
//   hipdnnPluginStatus_t hipdnnEnginePluginDestroyEngineDetails(hipdnnEnginePluginHandle_t,
//                                                               hipdnnPluginConstData_t* details)
//   {
//       HIPDNN_PLUGIN_GUARD(hipdnn_plugin_sdk::releaseBuffer(details););
//   }
#ifndef HIPDNN_PLUGIN_SDK_HELPERS_PLUGIN_HELPERS_HPP
#define HIPDNN_PLUGIN_SDK_HELPERS_PLUGIN_HELPERS_HPP

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <flatbuffers/flatbuffers.h>

#include <hipdnn_flatbuffers_sdk/device_properties_generated.h>
#include <hipdnn_flatbuffers_sdk/engine_config_generated.h>
#include <hipdnn_flatbuffers_sdk/engine_details_generated.h>
#include <hipdnn_flatbuffers_sdk/graph_generated.h>
#include <hipdnn_flatbuffers_sdk/knob_value_generated.h>

#include "../BehaviorNote.h"
#include "../PluginApiDataTypes.h"
#include "../engine_api_version.h"
#include "EngineId.h"
#include "LastError.h"

namespace hipdnn_plugin_sdk
{

namespace fbs = hipdnn_flatbuffers_sdk::data_objects;

// ---------------------------------------------------------------------------------------------
// Errors

// An error with the status the entry point should return.
class PluginError : public std::exception
{
public:
    PluginError(hipdnnPluginStatus_t status, std::string message)
        : _status(status)
        , _message(std::move(message))
    {
    }

    hipdnnPluginStatus_t status() const noexcept
    {
        return _status;
    }

    const char* what() const noexcept override
    {
        return _message.c_str();
    }

private:
    hipdnnPluginStatus_t _status;
    std::string _message;
};

[[noreturn]] inline void fail(hipdnnPluginStatus_t status, std::string message)
{
    throw PluginError(status, std::move(message));
}

// BAD_PARAM "<what> is NULL" when pointer is null.
inline void requireNotNull(const void* pointer, const char* what)
{
    if(pointer == nullptr)
    {
        fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, std::string(what) + " is NULL");
    }
}

// Runs an entry point body and maps the outcome to a status:
//   body returns normally (void)          -> SUCCESS
//   body returns a hipdnnPluginStatus_t   -> that status
//   PluginError                           -> its status, message as last error
//   std::bad_alloc                        -> ALLOC_FAILED
//   any other exception                   -> INTERNAL_ERROR
template <typename Body>
hipdnnPluginStatus_t guard(Body&& body) noexcept
{
    using Result = std::invoke_result_t<Body&>;
    static_assert(std::is_void_v<Result> || std::is_same_v<Result, hipdnnPluginStatus_t>,
                  "a guarded body returns void or hipdnnPluginStatus_t");
    try
    {
        if constexpr(std::is_void_v<Result>)
        {
            body();
            return HIPDNN_PLUGIN_STATUS_SUCCESS;
        }
        else
        {
            return body();
        }
    }
    catch(const PluginError& error)
    {
        hipdnnPluginSetLastError(error.what());
        return error.status();
    }
    catch(const std::bad_alloc&)
    {
        hipdnnPluginSetLastError("out of memory");
        return HIPDNN_PLUGIN_STATUS_ALLOC_FAILED;
    }
    catch(const std::exception& error)
    {
        hipdnnPluginFormatLastError("internal error: %s", error.what());
        return HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR;
    }
    catch(...)
    {
        hipdnnPluginSetLastError("internal error: unknown exception");
        return HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR;
    }
}

// `HIPDNN_PLUGIN_GUARD(statements...)` = `return guard([&] { statements... });`
#define HIPDNN_PLUGIN_GUARD(...) return ::hipdnn_plugin_sdk::guard([&]() { __VA_ARGS__ })

// ---------------------------------------------------------------------------------------------
// Verifying borrowed FlatBuffers

// Generic check: data and data->ptr non-null, size > 0, buffer verifies. Throws BAD_PARAM.
template <typename Table>
const Table* verifyBuffer(const hipdnnPluginConstData_t* data,
                          const char* what,
                          bool (*verify)(flatbuffers::Verifier&),
                          const Table* (*root)(const void*))
{
    if(data == nullptr || data->ptr == nullptr || data->size == 0)
    {
        fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, std::string(what) + " buffer is NULL or empty");
    }
    flatbuffers::Verifier verifier(static_cast<const uint8_t*>(data->ptr), data->size);
    if(!verify(verifier))
    {
        fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
             std::string(what) + " buffer (" + std::to_string(data->size)
                 + " bytes) does not verify");
    }
    return root(data->ptr);
}

// The serialized Graph passed as op_graph.
inline const fbs::Graph* verifyGraph(const hipdnnPluginConstData_t* op_graph)
{
    return verifyBuffer<fbs::Graph>(op_graph, "Graph", fbs::VerifyGraphBuffer, fbs::GetGraph);
}

// The serialized EngineConfig passed as engine_config.
inline const fbs::EngineConfig* verifyEngineConfig(const hipdnnPluginConstData_t* engine_config)
{
    return verifyBuffer<fbs::EngineConfig>(
        engine_config, "EngineConfig", fbs::VerifyEngineConfigBuffer, fbs::GetEngineConfig);
}

// A serialized EngineDetails (e.g. in a plugin's own tests).
inline const fbs::EngineDetails* verifyEngineDetails(const hipdnnPluginConstData_t* details)
{
    return verifyBuffer<fbs::EngineDetails>(
        details, "EngineDetails", fbs::VerifyEngineDetailsBuffer, fbs::GetEngineDetails);
}

// The serialized DeviceProperties handed to heuristic plugins (file identifier "HDDP").
inline const fbs::DeviceProperties* verifyDeviceProperties(const hipdnnPluginConstData_t* props)
{
    return verifyBuffer<fbs::DeviceProperties>(props,
                                               "DeviceProperties",
                                               fbs::VerifyDevicePropertiesBuffer,
                                               fbs::GetDeviceProperties);
}

// Finds a tensor of the graph by uid (nullptr when absent).
inline const fbs::TensorAttributes* findTensor(const fbs::Graph* graph, int64_t uid)
{
    if(graph == nullptr || graph->tensors() == nullptr)
    {
        return nullptr;
    }
    for(const fbs::TensorAttributes* tensor : *graph->tensors())
    {
        if(tensor != nullptr && tensor->uid() == uid)
        {
            return tensor;
        }
    }
    return nullptr;
}

// The graph-level features a plugin built against this SDK cannot honour without more work:
// execute-time shape overrides, and a minimum engine API newer than HIPDNN_ENGINE_API_VERSION.
// Returns "" when there is none, else the reason (for a decline message).
inline std::string hostFeatureProblem(const fbs::Graph& graph)
{
    if(graph.is_override_shape_enabled())
    {
        return "execute-time shape overrides are not supported";
    }
    if(const fbs::EngineApiVersion* v = graph.min_required_engine_api_version())
    {
        const bool newer = v->major() != HIPDNN_ENGINE_API_VERSION_MAJOR || v->minor() > HIPDNN_ENGINE_API_VERSION_MINOR
                           || (v->minor() == HIPDNN_ENGINE_API_VERSION_MINOR && v->patch() > HIPDNN_ENGINE_API_VERSION_PATCH);
        if(newer)
        {
            return "graph needs engine API " + std::to_string(v->major()) + "." + std::to_string(v->minor()) + "."
                   + std::to_string(v->patch()) + ", plugin implements " HIPDNN_ENGINE_API_VERSION;
        }
    }
    return "";
}

// ---------------------------------------------------------------------------------------------
// Logging

// PluginLog holds what SetLoggingCallback and SetLogLevel set and writes "[prefix] message"
// lines through the host's callback. Lock-free; one instance per plugin.
class PluginLog
{
public:
    explicit constexpr PluginLog(const char* prefix) noexcept : prefix_(prefix) {}

    void setCallback(hipdnnCallback_t callback) noexcept { callback_.store(callback); }
    void setLevel(hipdnnSeverity_t level) noexcept { level_.store(static_cast<int>(level)); }

    bool enabled(hipdnnSeverity_t severity) const noexcept
    {
        return callback_.load() != nullptr && static_cast<int>(severity) >= level_.load();
    }

    void operator()(hipdnnSeverity_t severity, const std::string& message) const
    {
        const hipdnnCallback_t cb = callback_.load();
        if(cb != nullptr && static_cast<int>(severity) >= level_.load())
        {
            cb(severity, ("[" + std::string(prefix_) + "] " + message).c_str());
        }
    }

private:
    const char* prefix_;
    std::atomic<hipdnnCallback_t> callback_{nullptr};
    std::atomic<int> level_{HIPDNN_SEV_WARN};
};

// The constant (pass-by-value) value a tensor carries, as a double; nullopt when it has none. A
// value kind this SDK cannot convert (an FP8 value, whose flavour the value does not say, or a
// newer union member) throws Unsupported(message), the plugin's own decline exception.
template <typename Unsupported>
std::optional<double> constantValue(const fbs::TensorAttributes& t)
{
    switch(t.value_type())
    {
    case fbs::TensorValue::NONE: return std::nullopt;
    case fbs::TensorValue::Float32Value: return t.value_as_Float32Value()->value();
    case fbs::TensorValue::Float16Value: return t.value_as_Float16Value()->value();
    case fbs::TensorValue::BFloat16Value: return t.value_as_BFloat16Value()->value();
    case fbs::TensorValue::Int32Value: return t.value_as_Int32Value()->value();
    case fbs::TensorValue::Float64Value: return t.value_as_Float64Value()->value();
    case fbs::TensorValue::Int64Value: return static_cast<double>(t.value_as_Int64Value()->value());
    case fbs::TensorValue::BoolValue: return t.value_as_BoolValue()->value() ? 1.0 : 0.0;
    default: break;
    }
    throw Unsupported("tensor uid " + std::to_string(t.uid()) + ": constant value of type "
                      + std::to_string(static_cast<int>(t.value_type())) + " is not supported");
}

// ---------------------------------------------------------------------------------------------
// Handing buffers to the host

// Copies the finished builder contents into a new[] allocation owned by the plugin and points
// *out at it. Release it with releaseBuffer() in the matching Destroy entry point.
inline void publishBuffer(const flatbuffers::FlatBufferBuilder& fbb, hipdnnPluginConstData_t* out)
{
    requireNotNull(out, "output buffer descriptor");
    const size_t size = fbb.GetSize();
    auto* bytes = new uint8_t[size];
    std::memcpy(bytes, fbb.GetBufferPointer(), size);
    out->ptr = bytes;
    out->size = size;
}

// Same for arbitrary bytes (e.g. a serialized execution context).
inline void publishBytes(const void* data, size_t size, hipdnnPluginConstData_t* out)
{
    requireNotNull(out, "output buffer descriptor");
    auto* bytes = new uint8_t[size == 0 ? 1 : size];
    if(size != 0)
    {
        std::memcpy(bytes, data, size);
    }
    out->ptr = bytes;
    out->size = size;
}

// Copies a borrowed buffer (a config, a graph, a serialized context) the plugin keeps past the
// call; NULL or empty is BAD_PARAM naming what.
inline std::vector<uint8_t> copyBuffer(const hipdnnPluginConstData_t* data, const char* what)
{
    if(data == nullptr || data->ptr == nullptr || data->size == 0)
    {
        fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, std::string(what) + " buffer is NULL or empty");
    }
    const auto* p = static_cast<const uint8_t*>(data->ptr);
    return std::vector<uint8_t>(p, p + data->size);
}

// Frees a buffer from publishBuffer()/publishBytes() and zeroes the descriptor. NULL is fine.
inline void releaseBuffer(hipdnnPluginConstData_t* data)
{
    requireNotNull(data, "buffer descriptor");
    delete[] static_cast<const uint8_t*>(data->ptr);
    data->ptr = nullptr;
    data->size = 0;
}

// ---------------------------------------------------------------------------------------------
// Knobs

// In-memory description of one knob: published in EngineDetails, used to validate settings.
struct KnobSpec
{
    enum class Type
    {
        Int,
        Float,
        String
    };

    std::string id;
    std::string description;
    Type type = Type::Int;
    bool deprecated = false;

    int64_t intDefault = 0;
    double floatDefault = 0.0;
    std::string stringDefault;

    // Constraint (published as KnobConstraint; NONE when `constrained` is false).
    bool constrained = false;
    int64_t intMin = 0;
    int64_t intMax = 0;
    int64_t intStep = 1;
    std::vector<int64_t> intValues; // when non-empty: the allowed set
    double floatMin = 0.0;
    double floatMax = 0.0;
    int32_t stringMaxLength = 0; // 0: unlimited
    std::vector<std::string> stringValues; // when non-empty: the allowed set

    static KnobSpec integer(std::string knobId, std::string text, int64_t defaultValue)
    {
        KnobSpec spec;
        spec.id = std::move(knobId);
        spec.description = std::move(text);
        spec.type = Type::Int;
        spec.intDefault = defaultValue;
        return spec;
    }

    static KnobSpec real(std::string knobId, std::string text, double defaultValue)
    {
        KnobSpec spec;
        spec.id = std::move(knobId);
        spec.description = std::move(text);
        spec.type = Type::Float;
        spec.floatDefault = defaultValue;
        return spec;
    }

    static KnobSpec string(std::string knobId, std::string text, std::string defaultValue)
    {
        KnobSpec spec;
        spec.id = std::move(knobId);
        spec.description = std::move(text);
        spec.type = Type::String;
        spec.stringDefault = std::move(defaultValue);
        return spec;
    }

    KnobSpec& range(int64_t minimum, int64_t maximum, int64_t step = 1)
    {
        constrained = true;
        intMin = minimum;
        intMax = maximum;
        intStep = step;
        return *this;
    }

    KnobSpec& allowed(std::vector<int64_t> values)
    {
        constrained = true;
        intValues = std::move(values);
        return *this;
    }

    KnobSpec& range(double minimum, double maximum)
    {
        constrained = true;
        floatMin = minimum;
        floatMax = maximum;
        return *this;
    }

    KnobSpec& allowed(std::vector<std::string> values, int32_t maxLength = 0)
    {
        constrained = true;
        stringValues = std::move(values);
        stringMaxLength = maxLength;
        return *this;
    }

    KnobSpec& markDeprecated()
    {
        deprecated = true;
        return *this;
    }
};

inline const char* knobValueTypeName(fbs::KnobValue type)
{
    switch(type)
    {
    case fbs::KnobValueTraits<fbs::IntValue>::enum_value: return "int";
    case fbs::KnobValueTraits<fbs::FloatValue>::enum_value: return "float";
    case fbs::KnobValueTraits<fbs::StringValue>::enum_value: return "string";
    default: return "none";
    }
}

// Checks one KnobSetting of an EngineConfig against its knob's description; throws BAD_PARAM
// with a message naming the knob and the offending value.
inline void validateKnobSetting(const KnobSpec& spec, const fbs::KnobSetting& setting)
{
    const std::string knob = "knob '" + spec.id + "'";
    switch(spec.type)
    {
    case KnobSpec::Type::Int:
    {
        const fbs::IntValue* value = setting.value_as_IntValue();
        if(value == nullptr)
        {
            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                 knob + " expects an int value, got " + knobValueTypeName(setting.value_type()));
        }
        const int64_t v = value->value();
        if(!spec.constrained)
        {
            return;
        }
        if(!spec.intValues.empty())
        {
            if(std::find(spec.intValues.begin(), spec.intValues.end(), v) == spec.intValues.end())
            {
                fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                     knob + ": value " + std::to_string(v) + " is not one of the allowed values");
            }
            return;
        }
        if(v < spec.intMin || v > spec.intMax)
        {
            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                 knob + ": value " + std::to_string(v) + " is outside [" + std::to_string(spec.intMin)
                     + ", " + std::to_string(spec.intMax) + "]");
        }
        if(spec.intStep > 1 && (v - spec.intMin) % spec.intStep != 0)
        {
            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                 knob + ": value " + std::to_string(v) + " is not " + std::to_string(spec.intMin)
                     + " plus a multiple of the step " + std::to_string(spec.intStep));
        }
        return;
    }
    case KnobSpec::Type::Float:
    {
        const fbs::FloatValue* value = setting.value_as_FloatValue();
        if(value == nullptr)
        {
            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                 knob + " expects a float value, got " + knobValueTypeName(setting.value_type()));
        }
        const double v = value->value();
        if(!std::isfinite(v))
        {
            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, knob + ": value is not finite");
        }
        if(spec.constrained && (v < spec.floatMin || v > spec.floatMax))
        {
            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                 knob + ": value " + std::to_string(v) + " is outside ["
                     + std::to_string(spec.floatMin) + ", " + std::to_string(spec.floatMax) + "]");
        }
        return;
    }
    case KnobSpec::Type::String:
    {
        const fbs::StringValue* value = setting.value_as_StringValue();
        if(value == nullptr || value->value() == nullptr)
        {
            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                 knob + " expects a string value, got "
                     + knobValueTypeName(setting.value_type()));
        }
        const std::string v = value->value()->str();
        if(!spec.constrained)
        {
            return;
        }
        if(spec.stringMaxLength > 0 && v.size() > static_cast<size_t>(spec.stringMaxLength))
        {
            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                 knob + ": value '" + v + "' is longer than "
                     + std::to_string(spec.stringMaxLength) + " bytes");
        }
        if(!spec.stringValues.empty()
           && std::find(spec.stringValues.begin(), spec.stringValues.end(), v)
                  == spec.stringValues.end())
        {
            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                 knob + ": value '" + v + "' is not one of the allowed values");
        }
        return;
    }
    }
}

// Adds one knob described by `spec` to a builder (used by EngineDetailsBuilder).
inline flatbuffers::Offset<fbs::Knob> buildKnob(flatbuffers::FlatBufferBuilder& fbb,
                                                const KnobSpec& spec)
{
    auto id = fbb.CreateString(spec.id);
    auto text = fbb.CreateString(spec.description);
    fbs::KnobValue defaultType = fbs::KnobValue(); // NONE
    flatbuffers::Offset<void> defaultValue;
    fbs::KnobConstraint constraintType = fbs::KnobConstraint(); // NONE
    flatbuffers::Offset<void> constraint;
    switch(spec.type)
    {
    case KnobSpec::Type::Int:
        defaultType = fbs::KnobValueTraits<fbs::IntValue>::enum_value;
        defaultValue = fbs::CreateIntValue(fbb, spec.intDefault).Union();
        if(spec.constrained)
        {
            auto values = spec.intValues.empty() ? 0 : fbb.CreateVector(spec.intValues);
            constraintType = fbs::KnobConstraintTraits<fbs::IntConstraint>::enum_value;
            constraint
                = fbs::CreateIntConstraint(fbb, spec.intMin, spec.intMax, spec.intStep, values)
                      .Union();
        }
        break;
    case KnobSpec::Type::Float:
        defaultType = fbs::KnobValueTraits<fbs::FloatValue>::enum_value;
        defaultValue = fbs::CreateFloatValue(fbb, spec.floatDefault).Union();
        if(spec.constrained)
        {
            constraintType = fbs::KnobConstraintTraits<fbs::FloatConstraint>::enum_value;
            constraint = fbs::CreateFloatConstraint(fbb, spec.floatMin, spec.floatMax).Union();
        }
        break;
    case KnobSpec::Type::String:
        defaultType = fbs::KnobValueTraits<fbs::StringValue>::enum_value;
        defaultValue = fbs::CreateStringValue(fbb, fbb.CreateString(spec.stringDefault)).Union();
        if(spec.constrained)
        {
            flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>>>
                values;
            if(!spec.stringValues.empty())
            {
                values = fbb.CreateVectorOfStrings(spec.stringValues);
            }
            constraintType = fbs::KnobConstraintTraits<fbs::StringConstraint>::enum_value;
            constraint = fbs::CreateStringConstraint(fbb, spec.stringMaxLength, values).Union();
        }
        break;
    }
    return fbs::CreateKnob(
        fbb, id, text, defaultType, defaultValue, constraintType, constraint, spec.deprecated);
}

// ---------------------------------------------------------------------------------------------
// EngineDetails

// Builds a serialized EngineDetails and hands it to the host:
//
//   EngineDetailsBuilder(engine_id)
//       .knob(KnobSpec::integer("vendor.tile", "tile size", 64).range(16, 256, 16))
//       .note(HIPDNN_BEHAVIOR_NOTE_SUPPORTS_GRAPH_CAPTURE)
//       .publish(engine_details);  // freed later with releaseBuffer()
class EngineDetailsBuilder
{
public:
    explicit EngineDetailsBuilder(int64_t engineId)
        : _engineId(engineId)
    {
    }

    EngineDetailsBuilder& knob(const KnobSpec& spec)
    {
        _knobs.push_back(buildKnob(_fbb, spec));
        return *this;
    }

    EngineDetailsBuilder& knobs(const std::vector<KnobSpec>& specs)
    {
        for(const KnobSpec& spec : specs)
        {
            knob(spec);
        }
        return *this;
    }

    EngineDetailsBuilder& note(hipdnnBackendBehaviorNote_t behaviorNote)
    {
        _notes.push_back(static_cast<int32_t>(behaviorNote));
        return *this;
    }

    // Informational only: the host never names an engine from EngineDetails.name.
    EngineDetailsBuilder& name(std::string engineName)
    {
        _name = std::move(engineName);
        return *this;
    }

    // Direct access for fields this builder does not cover.
    flatbuffers::FlatBufferBuilder& builder()
    {
        return _fbb;
    }

    // Finishes the buffer (no file identifier) and publishes a new[] copy in *out.
    void publish(hipdnnPluginConstData_t* out)
    {
        requireNotNull(out, "engine_details");
        auto knobs = _fbb.CreateVector(_knobs);
        auto notes = _fbb.CreateVector(_notes);
        flatbuffers::Offset<flatbuffers::String> name;
        if(_name)
        {
            name = _fbb.CreateString(*_name);
        }
        _fbb.Finish(fbs::CreateEngineDetails(_fbb, _engineId, knobs, notes, name));
        publishBuffer(_fbb, out);
    }

private:
    int64_t _engineId;
    flatbuffers::FlatBufferBuilder _fbb;
    std::vector<flatbuffers::Offset<fbs::Knob>> _knobs;
    std::vector<int32_t> _notes;
    std::optional<std::string> _name;
};

} // namespace hipdnn_plugin_sdk

#endif // HIPDNN_PLUGIN_SDK_HELPERS_PLUGIN_HELPERS_HPP
