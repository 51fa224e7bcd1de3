/*
 * HipdnnBackendLimits.h - fixed sizes of the backend interface.
 */
#ifndef HIPDNN_BACKEND_LIMITS_H
#define HIPDNN_BACKEND_LIMITS_H

/* Size in bytes, terminating NUL included, of the per-thread last-error message. A buffer of
 * this size always receives the whole message from hipdnnGetLastErrorString. */
#define HIPDNN_ERROR_STRING_MAX_LENGTH 2048

#endif /* HIPDNN_BACKEND_LIMITS_H */
