/*
 * hipdnn_plugin_sdk/helpers/LastError.h
 *
 * Per-thread "last error" text for plugins, usable from C (C99 or later) and C++.
 *
 * Every plugin must implement hipdnnPluginGetLastErrorString, returning the message of the most
 * recent failure on the calling thread. These helpers keep that message in a thread-local
 * buffer of HIPDNN_PLUGIN_ERROR_STRING_MAX_LENGTH bytes (longer messages are truncated). The
 * buffer is a plain char array, so a plugin can be unloaded without running thread-local
 * destructors.
 *
 *   HIPDNN_PLUGIN_EXPORT void hipdnnPluginGetLastErrorString(const char** error_str)
 *   {
 *       if(error_str != NULL)
 *           *error_str = hipdnnPluginGetLastError();
 *   }
 *
 *   return hipdnnPluginFail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "engine id %lld is unknown", id);
 *
 * With GCC and Clang all translation units of a plugin (C and C++) share one buffer: it is a weak,
 * hidden thread-local definition that the linker merges. With other compilers C++ units share one
 * buffer and each C translation unit has its own.
 */
#ifndef HIPDNN_PLUGIN_SDK_HELPERS_LAST_ERROR_H
#define HIPDNN_PLUGIN_SDK_HELPERS_LAST_ERROR_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../PluginApiDataTypes.h"

#if defined(__GNUC__) || defined(__clang__)
#define HIPDNN_PLUGIN_SDK_PRINTF_LIKE_(fmt_index, first_arg) \
    __attribute__((format(printf, fmt_index, first_arg)))
#else
#define HIPDNN_PLUGIN_SDK_PRINTF_LIKE_(fmt_index, first_arg)
#endif

#if defined(__GNUC__) || defined(__clang__)
/* One weak, hidden, thread-local definition shared by every translation unit of the plugin. */
#ifdef __cplusplus
#define HIPDNN_PLUGIN_SDK_TLS_ thread_local
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define HIPDNN_PLUGIN_SDK_TLS_ _Thread_local
#else
#define HIPDNN_PLUGIN_SDK_TLS_ __thread
#endif
#ifdef __cplusplus
extern "C" {
#endif
extern __attribute__((visibility("hidden"))) HIPDNN_PLUGIN_SDK_TLS_ char
    hipdnn_plugin_sdk_last_error_storage_[HIPDNN_PLUGIN_ERROR_STRING_MAX_LENGTH];
__attribute__((weak, visibility("hidden"))) HIPDNN_PLUGIN_SDK_TLS_ char
    hipdnn_plugin_sdk_last_error_storage_[HIPDNN_PLUGIN_ERROR_STRING_MAX_LENGTH];
#ifdef __cplusplus
} /* extern "C" */
#endif
static inline char* hipdnnPluginLastErrorBuffer(void)
{
    return hipdnn_plugin_sdk_last_error_storage_;
}
#elif defined(__cplusplus)
inline char* hipdnnPluginLastErrorBuffer(void)
{
    static thread_local char storage[HIPDNN_PLUGIN_ERROR_STRING_MAX_LENGTH];
    return storage;
}
#else
#if defined(_MSC_VER)
#define HIPDNN_PLUGIN_SDK_TLS_ __declspec(thread)
#else
#define HIPDNN_PLUGIN_SDK_TLS_ _Thread_local
#endif
static HIPDNN_PLUGIN_SDK_TLS_ char
    hipdnn_plugin_sdk_last_error_storage_[HIPDNN_PLUGIN_ERROR_STRING_MAX_LENGTH];
static inline char* hipdnnPluginLastErrorBuffer(void)
{
    return hipdnn_plugin_sdk_last_error_storage_;
}
#endif

/* The calling thread's last error message ("" when none was set). Never NULL. */
static inline const char* hipdnnPluginGetLastError(void)
{
    return hipdnnPluginLastErrorBuffer();
}

/* Clears the calling thread's last error message. */
static inline void hipdnnPluginClearLastError(void)
{
    hipdnnPluginLastErrorBuffer()[0] = '\0';
}

/* Replaces the calling thread's last error message (NULL clears it). */
static inline void hipdnnPluginSetLastError(const char* message)
{
    char* buffer = hipdnnPluginLastErrorBuffer();
    size_t length;
    if(message == NULL)
    {
        buffer[0] = '\0';
        return;
    }
    length = strlen(message);
    if(length >= HIPDNN_PLUGIN_ERROR_STRING_MAX_LENGTH)
    {
        length = HIPDNN_PLUGIN_ERROR_STRING_MAX_LENGTH - 1;
    }
    memmove(buffer, message, length);
    buffer[length] = '\0';
}

/* printf-style variant of hipdnnPluginSetLastError taking a va_list. */
static inline HIPDNN_PLUGIN_SDK_PRINTF_LIKE_(1, 0) void hipdnnPluginFormatLastErrorV(
    const char* format, va_list args)
{
    char* buffer = hipdnnPluginLastErrorBuffer();
    if(format == NULL)
    {
        buffer[0] = '\0';
        return;
    }
    if(vsnprintf(buffer, HIPDNN_PLUGIN_ERROR_STRING_MAX_LENGTH, format, args) < 0)
    {
        buffer[0] = '\0';
    }
}

/* printf-style variant of hipdnnPluginSetLastError. */
static inline HIPDNN_PLUGIN_SDK_PRINTF_LIKE_(1, 2) void hipdnnPluginFormatLastError(
    const char* format, ...)
{
    va_list args;
    va_start(args, format);
    hipdnnPluginFormatLastErrorV(format, args);
    va_end(args);
}

/*
 * Formats the last error message and returns `status`, so an entry point can fail in one line:
 *   return hipdnnPluginFail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "num_engines is NULL");
 */
static inline HIPDNN_PLUGIN_SDK_PRINTF_LIKE_(2, 3) hipdnnPluginStatus_t
    hipdnnPluginFail(hipdnnPluginStatus_t status, const char* format, ...)
{
    va_list args;
    va_start(args, format);
    hipdnnPluginFormatLastErrorV(format, args);
    va_end(args);
    return status;
}

/* Name of a status value, for messages ("HIPDNN_PLUGIN_STATUS_BAD_PARAM"; "unknown" otherwise). */
static inline const char* hipdnnPluginStatusName(hipdnnPluginStatus_t status)
{
    switch(status)
    {
    case HIPDNN_PLUGIN_STATUS_SUCCESS: return "HIPDNN_PLUGIN_STATUS_SUCCESS";
    case HIPDNN_PLUGIN_STATUS_BAD_PARAM: return "HIPDNN_PLUGIN_STATUS_BAD_PARAM";
    case HIPDNN_PLUGIN_STATUS_INVALID_VALUE: return "HIPDNN_PLUGIN_STATUS_INVALID_VALUE";
    case HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR: return "HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR";
    case HIPDNN_PLUGIN_STATUS_ALLOC_FAILED: return "HIPDNN_PLUGIN_STATUS_ALLOC_FAILED";
    case HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE: return "HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE";
    case HIPDNN_PLUGIN_STATUS_NOT_INITIALIZED: return "HIPDNN_PLUGIN_STATUS_NOT_INITIALIZED";
    }
    return "unknown";
}

#endif /* HIPDNN_PLUGIN_SDK_HELPERS_LAST_ERROR_H */
