// Shared pieces of the test plugins: the base entry points of PluginApi.h, the log sink and the
// last-error plumbing. Included by exactly one translation unit per plugin, after that unit has
// defined:
//   TP_PLUGIN_NAME         plugin name (string literal)
//   TP_PLUGIN_KIND         HIPDNN_PLUGIN_TYPE_ENGINE or HIPDNN_PLUGIN_TYPE_HEURISTIC (the kind
//                          the source implements)
//   TP_REPORTED_TYPE       what hipdnnPluginGetType answers (defaults to TP_PLUGIN_KIND)
//   TP_API_VERSION         string answered by hipdnnPluginGetApiVersion
//   TP_OMIT_GET_API_VERSION        define to leave hipdnnPluginGetApiVersion out
//   TP_OMIT_LOGGING_ENTRY_POINTS   define to leave SetLoggingCallback and SetLogLevel out
//   TP_OMIT_SET_LOG_LEVEL          define to leave only SetLogLevel out
#ifndef HIPDNN_TEST_PLUGIN_COMMON_HPP
#define HIPDNN_TEST_PLUGIN_COMMON_HPP

#include <atomic>
#include <cstdarg>
#include <cstdio>

#include <hipdnn_plugin_sdk/PluginApi.h>
#include <hipdnn_plugin_sdk/helpers/LastError.h>

#ifndef TP_PLUGIN_NAME
#error "TP_PLUGIN_NAME must be defined"
#endif
#ifndef TP_REPORTED_TYPE
#define TP_REPORTED_TYPE TP_PLUGIN_KIND
#endif

// Implementation version of every test plugin (informational).
#define TP_PLUGIN_VERSION "1.0.0-test"

// Test accessors are exported next to the API entry points (the names start with hipdnnTest).
#define TP_TEST_EXPORT extern "C" HIPDNN_PLUGIN_EXPORT

namespace tp
{

inline std::atomic<hipdnnCallback_t> logSink{nullptr};
inline std::atomic<int> logLevel{HIPDNN_SEV_INFO};
inline std::atomic<int> lastLevelSet{-1};

// Forwards a message to the host's sink when the level lets it through.
inline void log(hipdnnSeverity_t severity, const char* format, ...) __attribute__((format(printf, 2, 3)));
inline void log(hipdnnSeverity_t severity, const char* format, ...)
{
    hipdnnCallback_t sink = logSink.load();
    const int level = logLevel.load();
    if(sink == nullptr || level == HIPDNN_SEV_OFF || static_cast<int>(severity) < level)
    {
        return;
    }
    char line[512];
    const int prefix = std::snprintf(line, sizeof line, "[%s] ", TP_PLUGIN_NAME);
    va_list args;
    va_start(args, format);
    std::vsnprintf(line + prefix, sizeof line - static_cast<size_t>(prefix), format, args);
    va_end(args);
    sink(severity, line);
}

} // namespace tp

extern "C" {

hipdnnPluginStatus_t hipdnnPluginGetName(const char** name)
{
    if(name == nullptr)
    {
        return hipdnnPluginFail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "hipdnnPluginGetName: name is NULL");
    }
    *name = TP_PLUGIN_NAME;
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

hipdnnPluginStatus_t hipdnnPluginGetVersion(const char** version)
{
    if(version == nullptr)
    {
        return hipdnnPluginFail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "hipdnnPluginGetVersion: version is NULL");
    }
    *version = TP_PLUGIN_VERSION;
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

#ifndef TP_OMIT_GET_API_VERSION
hipdnnPluginStatus_t hipdnnPluginGetApiVersion(const char** version)
{
    if(version == nullptr)
    {
        return hipdnnPluginFail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "hipdnnPluginGetApiVersion: version is NULL");
    }
    *version = TP_API_VERSION;
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}
#endif

hipdnnPluginStatus_t hipdnnPluginGetType(hipdnnPluginType_t* type)
{
    if(type == nullptr)
    {
        return hipdnnPluginFail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "hipdnnPluginGetType: type is NULL");
    }
    *type = TP_REPORTED_TYPE;
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

void hipdnnPluginGetLastErrorString(const char** error_str)
{
    if(error_str != nullptr)
    {
        *error_str = hipdnnPluginGetLastError();
    }
}

#ifndef TP_OMIT_LOGGING_ENTRY_POINTS
hipdnnPluginStatus_t hipdnnPluginSetLoggingCallback(hipdnnCallback_t callback)
{
    tp::logSink.store(callback);
    tp::log(HIPDNN_SEV_INFO, "logging callback installed");
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}

#ifndef TP_OMIT_SET_LOG_LEVEL
hipdnnPluginStatus_t hipdnnPluginSetLogLevel(hipdnnSeverity_t level)
{
    if(static_cast<int>(level) < HIPDNN_SEV_INFO || static_cast<int>(level) > HIPDNN_SEV_OFF)
    {
        return hipdnnPluginFail(HIPDNN_PLUGIN_STATUS_INVALID_VALUE, "hipdnnPluginSetLogLevel: unknown level %d",
                                static_cast<int>(level));
    }
    tp::logLevel.store(level);
    tp::lastLevelSet.store(level);
    return HIPDNN_PLUGIN_STATUS_SUCCESS;
}
#endif
#endif

} // extern "C"

#endif // HIPDNN_TEST_PLUGIN_COMMON_HPP
