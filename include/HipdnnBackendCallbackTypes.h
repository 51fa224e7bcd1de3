/*
 * HipdnnBackendCallbackTypes.h - log severities and log callback signatures.
 *
 * hipdnnSeverity_t and hipdnnCallback_t are also declared by the SDK header that plugins
 * include; both copies sit behind the shared guard HIPDNN_CALLBACK_TYPES_DEFINED so that a
 * translation unit including both gets one definition. The user-callback typedefs exist only
 * here, so they are outside that shared guard.
 */
#ifndef HIPDNN_BACKEND_CALLBACK_TYPES_H
#define HIPDNN_BACKEND_CALLBACK_TYPES_H

#ifdef __cplusplus
extern "C" {
#endif

#ifndef HIPDNN_CALLBACK_TYPES_DEFINED
#define HIPDNN_CALLBACK_TYPES_DEFINED

/* Severity of a log message, ordered from most to least verbose. As a level (environment
 * variable HIPDNN_LOG_LEVEL, hipdnnBackendSetGlobalLogLevel_ext, a callback's minLevel) it is
 * the lowest severity let through; HIPDNN_SEV_OFF lets nothing through. */
typedef enum
{
    HIPDNN_SEV_INFO = 0,
    HIPDNN_SEV_WARN = 1,
    HIPDNN_SEV_ERROR = 2,
    HIPDNN_SEV_FATAL = 3,
    HIPDNN_SEV_OFF = 4
} hipdnnSeverity_t;

/* Sink through which hipDNN components (frontend, plugins) hand formatted messages to the
 * backend's logger; hipdnnLoggingCallback_ext has this signature. */
typedef void (*hipdnnCallback_t)(hipdnnSeverity_t severity, const char* message);

#endif /* HIPDNN_CALLBACK_TYPES_DEFINED */

/* Caller-owned pointer passed back to a user log callback unchanged. Together with the
 * callback it identifies one registration (hipdnnSetUserLogCallback_ext). */
typedef void* hipdnnUserLogCallbackHandle_t;

/* A user log sink. `message` is the fully formatted line, valid only during the call. */
typedef void (*hipdnnUserLogCallback_t)(hipdnnUserLogCallbackHandle_t userHandle,
                                        hipdnnSeverity_t severity,
                                        const char* message);

#ifdef __cplusplus
}
#endif

#endif /* HIPDNN_BACKEND_CALLBACK_TYPES_H */
