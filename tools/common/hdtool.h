/*
 * hdtool.h - small helpers shared by the hipDNN command-line tools (C99 and C++):
 * status reporting, a monotonic clock, a seeded PRNG, fp8 conversions (half and bfloat16 come from
 * the SDK's FloatFormats.h, included here), and capture of
 * the backend's INFO log messages (some facts, such as why no engine applies or which HIP runtime
 * is in use, are only reported there). Header only; every function is static inline. POSIX.
 */
#ifndef HIPDNN_TOOLS_HDTOOL_H
#define HIPDNN_TOOLS_HDTOOL_H

#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hipdnn_backend.h"
#include <hipdnn_plugin_sdk/helpers/FloatFormats.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * hd_report prints "<what> failed: <status name>: <last error>" to stderr when status is not
 * SUCCESS (reading, and so clearing, the calling thread's last error) and returns status.
 * The message also lands in msg (msgSize bytes) when msg is non-NULL.
 */
static inline hipdnnStatus_t hd_report(hipdnnStatus_t status, const char* what, char* msg, size_t msgSize)
{
    char last[HIPDNN_ERROR_STRING_MAX_LENGTH];
    if(status == HIPDNN_STATUS_SUCCESS)
    {
        return status;
    }
    last[0] = '\0';
    hipdnnGetLastErrorString(last, sizeof last);
    fprintf(stderr, "%s failed: %s: %s\n", what, hipdnnGetErrorString(status), last[0] ? last : "(no message)");
    if(msg != NULL && msgSize > 0)
    {
        snprintf(msg, msgSize, "%s: %s", hipdnnGetErrorString(status), last[0] ? last : "(no message)");
    }
    return status;
}

/* hd_now returns a monotonic time in seconds. */
static inline double hd_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A splitmix64 generator: tiny, seedable, good enough to fill test tensors. */
typedef struct
{
    uint64_t state;
} hd_rng;

static inline void hd_rng_seed(hd_rng* r, uint64_t seed) { r->state = seed ^ 0x9E3779B97F4A7C15ull; }

static inline uint64_t hd_rng_next(hd_rng* r)
{
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* hd_rng_uniform returns a double in [lo, hi). */
static inline double hd_rng_uniform(hd_rng* r, double lo, double hi)
{
    double u = (double)(hd_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
    return lo + (hi - lo) * u;
}

/* hd_rng_int returns an integer in [lo, hi] (hi >= lo). */
static inline int64_t hd_rng_int(hd_rng* r, int64_t lo, int64_t hi)
{
    uint64_t span = (uint64_t)(hi - lo) + 1u;
    return lo + (int64_t)(span == 0 ? hd_rng_next(r) : hd_rng_next(r) % span);
}

/*
 * fp8 (OCP): E4M3 (bias 7, no infinities, NaN = all ones, largest 448) and E5M2 (bias 15, IEEE
 * infinities and NaNs, largest 57344). Decoding is exact; encoding rounds to nearest even and
 * saturates E4M3 at +-448 (E5M2 overflows to infinity).
 */
static inline double hd_fp8_to_double(uint8_t b, int e5m2)
{
    int manBits = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7;
    int exp = (b & 0x7F) >> manBits, man = b & ((1 << manBits) - 1);
    double sign = (b & 0x80) ? -1.0 : 1.0;
    if(e5m2 && exp == 31)
        return man ? NAN : sign * INFINITY;
    if(!e5m2 && exp == 15 && man == 7)
        return NAN;
    if(exp == 0)
        return sign * ldexp((double)man, 1 - bias - manBits);
    return sign * ldexp((double)((1 << manBits) | man), exp - bias - manBits);
}

static inline uint8_t hd_double_to_fp8(double v, int e5m2)
{
    int manBits = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7;
    uint8_t sign = signbit(v) ? 0x80 : 0;
    double a = fabs(v), q;
    int e;
    if(isnan(v))
        return (uint8_t)(sign | 0x7F);
    if(isinf(v))
        return (uint8_t)(sign | (e5m2 ? 0x7C : 0x7E));
    if(a == 0)
        return sign;
    frexp(a, &e);
    e -= 1; /* a = m * 2^e, 1 <= m < 2 */
    if(e < 1 - bias)
        e = 1 - bias; /* subnormal: the smallest normal's spacing */
    q = nearbyint(ldexp(a, manBits - e)); /* round half to even (default rounding mode) */
    if(q >= (double)(2 << manBits))
    {
        q /= 2;
        e += 1;
    }
    {
        int expField = q >= (double)(1 << manBits) ? e + bias : 0;
        int man = (int)q & ((1 << manBits) - 1);
        if(e5m2 && expField >= 31)
            return (uint8_t)(sign | 0x7C);
        if(!e5m2 && (expField > 15 || (expField == 15 && man == 7)))
            return (uint8_t)(sign | 0x7E);
        return (uint8_t)(sign | (expField << manBits) | man);
    }
}

/*
 * Log capture. hd_capture_begin raises the global log level to INFO and registers a synchronous
 * user callback that keeps the messages (without the per-call "API called/success" lines); when
 * INFO messages would not have been shown anyway, stderr is pointed at /dev/null until
 * hd_capture_end, so the extra lines do not reach the terminal. hd_capture_end restores the
 * level, the callback list and stderr. Messages are kept as "[component] text".
 */
enum
{
    HD_CAPTURE_LINES = 64,
    HD_CAPTURE_LINE_SIZE = 1024
};

typedef struct
{
    char lines[HD_CAPTURE_LINES][HD_CAPTURE_LINE_SIZE];
    int count;
    hipdnnSeverity_t oldLevel;
    int savedStderr;
    int devNull;
} hd_log_capture;

static inline void hd_capture_callback(hipdnnUserLogCallbackHandle_t user, hipdnnSeverity_t severity, const char* message)
{
    hd_log_capture* c = (hd_log_capture*)user;
    const char* text = message;
    const char* at;
    size_t n;
    (void)severity;
    if(message == NULL || c->count >= HD_CAPTURE_LINES || strstr(message, "API called: [") != NULL
       || strstr(message, "API success: [") != NULL)
    {
        return;
    }
    /* Drop the "[time] [tid] [level] " prefix of the line format. */
    at = strstr(message, "] [info] ");
    if(at != NULL)
    {
        text = at + 9;
    }
    n = strlen(text);
    while(n > 0 && (text[n - 1] == '\n' || text[n - 1] == ' '))
    {
        n--;
    }
    if(n >= HD_CAPTURE_LINE_SIZE)
    {
        n = HD_CAPTURE_LINE_SIZE - 1;
    }
    memcpy(c->lines[c->count], text, n);
    c->lines[c->count][n] = '\0';
    c->count++;
}

static inline void hd_capture_begin(hd_log_capture* c)
{
    c->count = 0;
    c->savedStderr = -1;
    c->devNull = -1;
    c->oldLevel = HIPDNN_SEV_OFF;
    hipdnnBackendGetGlobalLogLevel_ext(&c->oldLevel);
    if(c->oldLevel != HIPDNN_SEV_INFO)
    {
        fflush(stderr);
        c->savedStderr = dup(2);
        c->devNull = open("/dev/null", O_WRONLY);
        if(c->savedStderr >= 0 && c->devNull >= 0)
        {
            dup2(c->devNull, 2);
        }
    }
    hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_INFO);
    hipdnnSetUserLogCallback_ext(hd_capture_callback, HIPDNN_SEV_INFO, HIPDNN_LOG_CALLBACK_SYNC, c);
}

static inline void hd_capture_end(hd_log_capture* c)
{
    hipdnnSetUserLogCallback_ext(hd_capture_callback, HIPDNN_SEV_OFF, HIPDNN_LOG_CALLBACK_SYNC, c);
    hipdnnBackendSetGlobalLogLevel_ext(c->oldLevel);
    fflush(stderr);
    if(c->savedStderr >= 0 && c->devNull >= 0)
    {
        dup2(c->savedStderr, 2);
    }
    if(c->savedStderr >= 0)
    {
        close(c->savedStderr);
    }
    if(c->devNull >= 0)
    {
        close(c->devNull);
    }
    c->savedStderr = -1;
    c->devNull = -1;
}

#ifdef __cplusplus
}
#endif

#endif /* HIPDNN_TOOLS_HDTOOL_H */
