/*
 * HipdnnStatus.h - hipdnnStatus_t, the result of every status-returning backend call.
 *
 * hipdnnGetErrorString() turns a value into its enumerator name; the calling thread's last
 * error (hipdnnGetLastErrorString) carries the detail. Which call returns which status is
 * documented next to each function in hipdnn_backend.h.
 */
#ifndef HIPDNN_STATUS_H
#define HIPDNN_STATUS_H

typedef enum
{
    /* Success. */
    HIPDNN_STATUS_SUCCESS = 0,

    /* Parameter and state errors. */
    HIPDNN_STATUS_NOT_INITIALIZED = 1,             /* a descriptor is in the wrong state: read
                                                      before Finalize, or written after it */
    HIPDNN_STATUS_BAD_PARAM = 2,                   /* an argument or attribute value is wrong */
    HIPDNN_STATUS_BAD_PARAM_NULL_POINTER = 3,      /* a required pointer or handle is NULL */
    HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED = 4,     /* a descriptor argument is not finalized */
    HIPDNN_STATUS_BAD_PARAM_OUT_OF_BOUND = 5,      /* an index or count is out of range */
    HIPDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT = 6, /* the caller's buffer is too small */
    HIPDNN_STATUS_BAD_PARAM_STREAM_MISMATCH = 7,   /* a stream does not match the handle's */

    /* The request is valid but this build, engine or descriptor does not support it. */
    HIPDNN_STATUS_NOT_SUPPORTED = 8,

    /* Failures inside the library. */
    HIPDNN_STATUS_INTERNAL_ERROR = 9,
    HIPDNN_STATUS_ALLOC_FAILED = 10,
    HIPDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED = 11,
    HIPDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED = 12,
    HIPDNN_STATUS_EXECUTION_FAILED = 13,

    /* An engine or heuristic plugin reported a failure; the last error names the plugin call. */
    HIPDNN_STATUS_PLUGIN_ERROR = 14,

    /* The caller and the library disagree on the interface, e.g. a symbol the caller needs is
     * missing. AMD's runtime-loading frontend produces it; the numeric value is this project's
     * choice (no AMD header declaring it is known; see docs/compatibility.md). */
    HIPDNN_STATUS_VERSION_MISMATCH = 15
} hipdnnStatus_t;

#endif /* HIPDNN_STATUS_H */
