/* Helpers for the plugin, engine and heuristic conformance tests (test_plugin_*.c,
 * test_engine_*.c, test_heur_*.c): test plugin paths, plugin path setup, small graphs, the
 * engine -> config -> plan chain, heuristic queries, FNV-1a ids and test-plugin accessors.
 *
 * The test plugins live in HIPDNN_TEST_PLUGIN_DIR (custom/, default/, faulty/, heuristics/);
 * tests/plugins/README.md lists what each one does. */
#ifndef HIPDNN_TESTS_PLUGIN_TESTUTIL_H
#define HIPDNN_TESTS_PLUGIN_TESTUTIL_H

#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builders.h"
#include "testutil.h"
#include "../plugins/test_plugin_accessors.h"

/* ---- test plugin files ------------------------------------------------------------------- */

#define PT_DIR HIPDNN_TEST_PLUGIN_DIR
#define PT_CUSTOM(name) HIPDNN_TEST_PLUGIN_DIR "/custom/lib" name ".so"
#define PT_DEFAULT(name) HIPDNN_TEST_PLUGIN_DIR "/default/lib" name ".so"
#define PT_FAULTY(name) HIPDNN_TEST_PLUGIN_DIR "/faulty/lib" name ".so"
#define PT_HEUR(name) HIPDNN_TEST_PLUGIN_DIR "/heuristics/lib" name ".so"

#define PT_GOOD PT_CUSTOM("test_good_plugin")
#define PT_HASHED PT_CUSTOM("test_hashed_name_plugin")
#define PT_GOOD_DEFAULT PT_DEFAULT("test_good_default_plugin")

#define PT_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Engine ids of the test plugins (tests/plugins/README.md). */
#define PT_ID_GOOD INT64_C(-2)
#define PT_ID_GOOD_DEFAULT INT64_C(6895129033112041900) /* TEST_GOOD_DEFAULT_ENGINE */
#define PT_ID_EXECUTE_FAILS INT64_C(7168617596315917218) /* TEST_EXECUTE_FAILS_ENGINE */
#define PT_ID_HASHED INT64_C(-3371919508587119838) /* TEST_HASHED_NAME_ENGINE */
#define PT_ID_MISMATCHED_NAME_HASH INT64_C(7159662421212287986) /* hash of the -29 name */

/* Built-in policy ids (spec plugin_api.md §2.4). */
#define PT_POLICY_CONFIG INT64_C(8780545043193714113) /* 0x79DAC33209E0D5C1 */
#define PT_POLICY_STATIC INT64_C(-5112828146460458467) /* 0xB90B95E3C49B021D */
#define PT_POLICY_MODE_A INT64_C(-8453213174067787305) /* 0x8AB02767BD0989D7 */
#define PT_POLICY_MODE_B INT64_C(-8453212074556159094) /* 0x8AB02867BD098B8A */

/* 64-bit FNV-1a of a name as a signed id; "" hashes to 0 (hipDNN's special case). Written
 * here independently of the backend. */
static inline int64_t pt_fnv1a(const char* s) {
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    if (s == NULL || *s == '\0')
        return 0;
    for (; *s; s++) {
        h ^= (uint64_t)(unsigned char)*s;
        h *= UINT64_C(0x100000001b3);
    }
    return (int64_t)h;
}

/* "0x" + 16 upper-case hex digits of the two's-complement id (buf: at least 19 bytes). */
static inline const char* pt_hex(int64_t id, char* buf, size_t n) {
    snprintf(buf, n, "0x%016llX", (unsigned long long)(uint64_t)id);
    return buf;
}

/* ---- last error ------------------------------------------------------------------------- */

/* Reads and clears the calling thread's last error. */
static inline const char* pt_take_error(char* buf, size_t n) {
    hipdnnGetLastErrorString(buf, n);
    return buf;
}

/* CHECK_ERR_EXACT(expected, text, call): status must match and the last error (consumed) must
 * be exactly `text`. */
#define CHECK_ERR_EXACT(expected, text, call)                                                 \
    do {                                                                                      \
        CHECK_STATUS(expected, call);                                                         \
        char pt_err_[HIPDNN_ERROR_STRING_MAX_LENGTH];                                         \
        hipdnnGetLastErrorString(pt_err_, sizeof pt_err_);                                    \
        check_count++;                                                                        \
        if (strcmp(pt_err_, (text)) != 0)                                                     \
            CHECK_FAIL("%s: last error \"%s\", want exactly \"%s\"", #call, pt_err_, (text)); \
    } while (0)

/* CHECK_CONTAINS(haystack, needle) */
#define CHECK_CONTAINS(hay, needle)                                                                       \
    do {                                                                                                  \
        check_count++;                                                                                    \
        const char* pt_h_ = (hay);                                                                        \
        if (pt_h_ == NULL || strstr(pt_h_, (needle)) == NULL)                                             \
            CHECK_FAIL("%s == \"%s\" does not contain \"%s\"", #hay, pt_h_ ? pt_h_ : "(null)", (needle)); \
    } while (0)

#define CHECK_NOT_CONTAINS(hay, needle)                                        \
    do {                                                                       \
        check_count++;                                                         \
        const char* pt_h_ = (hay);                                             \
        if (pt_h_ != NULL && strstr(pt_h_, (needle)) != NULL)                  \
            CHECK_FAIL("%s == \"%s\" contains \"%s\"", #hay, pt_h_, (needle)); \
    } while (0)

/* ---- plugin paths ----------------------------------------------------------------------- */

/* Engine plugins: exactly these files (ABSOLUTE). */
static inline void pt_engine_paths(size_t n, const char* const* paths) {
    CHECK_OK(hipdnnSetEnginePluginPaths_ext(n, n ? paths : NULL, HIPDNN_PLUGIN_LOADING_ABSOLUTE));
}

/* Heuristic plugins: exactly these files (ABSOLUTE); n = 0 leaves the built-ins only. */
static inline void pt_heur_paths(size_t n, const char* const* paths) {
    CHECK_OK(hipdnnSetHeuristicPluginPaths_ext(n, n ? paths : NULL, HIPDNN_PLUGIN_LOADING_ABSOLUTE));
}

/* hipdnnCreate that must succeed; the load errors it leaves in the last error are copied to
 * `err` (cleared first, so an empty string means no plugin was rejected). */
static inline hipdnnHandle_t pt_create(char* err, size_t n) {
    hipdnnHandle_t h = NULL;
    tu_clear_last_error();
    CHECK_OK(hipdnnCreate(&h));
    CHECK(h != NULL);
    if (err)
        pt_take_error(err, n);
    else
        tu_clear_last_error();
    return h;
}

static inline size_t pt_engine_count(hipdnnHandle_t h) {
    size_t n = (size_t)-1;
    CHECK_OK(hipdnnGetEngineCount_ext(h, &n));
    return n;
}

static inline size_t pt_loaded_count(hipdnnHandle_t h) {
    size_t n = (size_t)-1, len = 0;
    CHECK_OK(hipdnnGetLoadedEnginePluginPaths_ext(h, &n, NULL, &len));
    return n;
}

/* Whether any loaded engine plugin path ends with `suffix`. */
static inline bool pt_loaded_has(hipdnnHandle_t h, const char* suffix) {
    size_t n = 0, len = 0;
    bool found = false;
    if (hipdnnGetLoadedEnginePluginPaths_ext(h, &n, NULL, &len) != HIPDNN_STATUS_SUCCESS)
        return false;
    if (n == 0)
        return false;
    char** bufs = (char**)calloc(n, sizeof(char*));
    for (size_t i = 0; i < n; i++)
        bufs[i] = (char*)calloc(len, 1);
    if (hipdnnGetLoadedEnginePluginPaths_ext(h, &n, bufs, &len) == HIPDNN_STATUS_SUCCESS) {
        for (size_t i = 0; i < n; i++) {
            size_t a = strlen(bufs[i]), b = strlen(suffix);
            if (a >= b && strcmp(bufs[i] + a - b, suffix) == 0)
                found = true;
        }
    }
    for (size_t i = 0; i < n; i++)
        free(bufs[i]);
    free(bufs);
    return found;
}

/* Engine name by id ("" when the backend does not know it). */
static inline const char* pt_engine_name(hipdnnHandle_t h, int64_t id, char* buf, size_t n) {
    size_t len = n;
    buf[0] = '\0';
    if (hipdnnGetEngineNameById_ext(h, id, buf, &len) != HIPDNN_STATUS_SUCCESS) {
        tu_clear_last_error();
        buf[0] = '\0';
    }
    return buf;
}

/* Whether the handle enumerates an engine with this id. */
static inline bool pt_has_engine(hipdnnHandle_t h, int64_t id) {
    size_t n = 0;
    if (hipdnnGetEngineCount_ext(h, &n) != HIPDNN_STATUS_SUCCESS)
        return false;
    for (size_t i = 0; i < n; i++) {
        int64_t got = 0;
        size_t a = 0, b = 0, c = 0, d = 0;
        if (hipdnnGetEngineInfo_ext(h, i, &got, NULL, &a, NULL, &b, NULL, &c, NULL, &d) == HIPDNN_STATUS_SUCCESS && got == id)
            return true;
    }
    return false;
}

/* ---- descriptors kept for the end of a scenario ---------------------------------------- */

#define PT_MAX_TRACKED 512
static hipdnnBackendDescriptor_t pt_tracked[PT_MAX_TRACKED];
static size_t pt_ntracked = 0;

static inline hipdnnBackendDescriptor_t pt_track(hipdnnBackendDescriptor_t d) {
    if (d != NULL && pt_ntracked < PT_MAX_TRACKED)
        pt_tracked[pt_ntracked++] = d;
    return d;
}

/* Destroys every tracked descriptor, newest first. */
static inline void pt_release_all(void) {
    while (pt_ntracked > 0)
        CHECK_OK(hipdnnBackendDestroyDescriptor(pt_tracked[--pt_ntracked]));
}

static inline hipdnnBackendDescriptor_t pt_new(hipdnnBackendDescriptorType_t kind) {
    hipdnnBackendDescriptor_t d = NULL;
    CHECK_OK(hipdnnBackendCreateDescriptor(kind, &d));
    return pt_track(d);
}

/* ---- graphs ------------------------------------------------------------------------------ */

typedef struct {
    int64_t alignment; /* HIPDNN_ATTR_TENSOR_BYTE_ALIGNMENT of the input x (0: not set) */
    bool override_shape; /* HIPDNN_ATTR_OPERATIONGRAPH_IS_OVERRIDE_SHAPE_ENABLED_EXT */
    bool pass_by_value; /* y = x * s with s a runtime pass-by-value scalar (uid 3) */
    hipdnnDataType_t scalar_type; /* data type of s (default FLOAT) */
    int64_t preferred_engine; /* HIPDNN_ATTR_OPERATIONGRAPH_PREFERRED_ENGINE_ID_EXT (0: not set) */
} pt_graph_opts;

static inline hipdnnBackendDescriptor_t pt_tensor(int64_t uid, int nd, const int64_t* dims, hipdnnDataType_t dt, bool virt,
                                                  int64_t alignment, bool pbv) {
    hipdnnBackendDescriptor_t t = NULL;
    CHECK_OK(tu_tensor_open(&t, uid, dt, nd, dims));
    pt_track(t);
    CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_IS_VIRTUAL, HIPDNN_TYPE_BOOLEAN, 1, &virt));
    if (alignment > 0)
        CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_BYTE_ALIGNMENT, HIPDNN_TYPE_INT64, 1, &alignment));
    if (pbv)
        CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_IS_RUNTIME_PASS_BY_VALUE_EXT, HIPDNN_TYPE_BOOLEAN, 1, &pbv));
    CHECK_OK(hipdnnBackendFinalize(t));
    return t;
}

static inline hipdnnBackendDescriptor_t pt_finish_graph_preferring(hipdnnHandle_t h, size_t nops, hipdnnBackendDescriptor_t* ops,
                                                                   bool override_shape, int64_t preferred) {
    hipdnnBackendDescriptor_t g = pt_new(HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR);
    CHECK_OK(hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, (int64_t)nops, ops));
    if (override_shape)
        CHECK_OK(hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_IS_OVERRIDE_SHAPE_ENABLED_EXT, HIPDNN_TYPE_BOOLEAN, 1,
                                           &override_shape));
    if (preferred != 0)
        CHECK_OK(
            hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_PREFERRED_ENGINE_ID_EXT, HIPDNN_TYPE_INT64, 1, &preferred));
    CHECK_OK(hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &h));
    CHECK_OK(hipdnnBackendFinalize(g));
    return g;
}

static inline hipdnnBackendDescriptor_t pt_finish_graph(hipdnnHandle_t h, size_t nops, hipdnnBackendDescriptor_t* ops,
                                                        bool override_shape) {
    return pt_finish_graph_preferring(h, nops, ops, override_shape, 0);
}

/* Pointwise graph on x (uid 1, float [2,3,4,5]) -> y (uid 2): y = relu(x), or y = x * s with
 * opts.pass_by_value (s: uid 3, [1,1,1,1], runtime pass-by-value). */
static inline hipdnnBackendDescriptor_t pt_pointwise_graph(hipdnnHandle_t h, const pt_graph_opts* o) {
    pt_graph_opts none = {0, false, false, HIPDNN_DATA_FLOAT, 0};
    if (o == NULL)
        o = &none;
    const int64_t dims[4] = {2, 3, 4, 5};
    const int64_t one[4] = {1, 1, 1, 1};
    hipdnnBackendDescriptor_t x = pt_tensor(1, 4, dims, HIPDNN_DATA_FLOAT, false, o->alignment, false);
    hipdnnBackendDescriptor_t y = pt_tensor(2, 4, dims, HIPDNN_DATA_FLOAT, false, 0, false);
    hipdnnBackendDescriptor_t s = o->pass_by_value ? pt_tensor(3, 4, one, o->scalar_type, false, 0, true) : NULL;
    hipdnnPointwiseMode_t mode = o->pass_by_value ? HIPDNN_POINTWISE_MUL : HIPDNN_POINTWISE_RELU_FWD;
    hipdnnBackendDescriptor_t op = NULL;
    CHECK_OK(tu_pointwise(&op, mode, x, s, NULL, y, NULL));
    pt_track(op);
    return pt_finish_graph_preferring(h, 1, &op, o->override_shape, o->preferred_engine);
}

/* Convolution forward: x (uid 1, [1,8,10,10]) * w (uid 2, [4,8,3,3]) -> y (uid 3, [1,4,8,8]). */
static inline hipdnnBackendDescriptor_t pt_conv_graph(hipdnnHandle_t h) {
    const int64_t xd[4] = {1, 8, 10, 10}, wd[4] = {4, 8, 3, 3}, yd[4] = {1, 4, 8, 8};
    hipdnnBackendDescriptor_t x = pt_tensor(1, 4, xd, HIPDNN_DATA_FLOAT, false, 0, false);
    hipdnnBackendDescriptor_t w = pt_tensor(2, 4, wd, HIPDNN_DATA_FLOAT, false, 0, false);
    hipdnnBackendDescriptor_t y = pt_tensor(3, 4, yd, HIPDNN_DATA_FLOAT, false, 0, false);
    hipdnnBackendDescriptor_t c = NULL;
    CHECK_OK(tu_conv_fwd(&c, x, w, y, 0, 1, NULL));
    pt_track(c);
    return pt_finish_graph(h, 1, &c, false);
}

/* Matmul: a (uid 1, [1,16,32]) x b (uid 2, [1,32,8]) -> c (uid 3, [1,16,8]). */
static inline hipdnnBackendDescriptor_t pt_matmul_graph(hipdnnHandle_t h) {
    const int64_t ad[3] = {1, 16, 32}, bd[3] = {1, 32, 8}, cd[3] = {1, 16, 8};
    hipdnnDataType_t comp = HIPDNN_DATA_FLOAT;
    hipdnnBackendDescriptor_t a = pt_tensor(1, 3, ad, HIPDNN_DATA_FLOAT, false, 0, false);
    hipdnnBackendDescriptor_t b = pt_tensor(2, 3, bd, HIPDNN_DATA_FLOAT, false, 0, false);
    hipdnnBackendDescriptor_t c = pt_tensor(3, 3, cd, HIPDNN_DATA_FLOAT, false, 0, false);
    hipdnnBackendDescriptor_t m = pt_new(HIPDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR);
    CHECK_OK(hipdnnBackendSetAttribute(m, HIPDNN_ATTR_OPERATION_MATMUL_ADESC, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &a));
    CHECK_OK(hipdnnBackendSetAttribute(m, HIPDNN_ATTR_OPERATION_MATMUL_BDESC, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &b));
    CHECK_OK(hipdnnBackendSetAttribute(m, HIPDNN_ATTR_OPERATION_MATMUL_CDESC, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &c));
    CHECK_OK(hipdnnBackendSetAttribute(m, HIPDNN_ATTR_MATMUL_COMP_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &comp));
    CHECK_OK(hipdnnBackendFinalize(m));
    return pt_finish_graph(h, 1, &m, false);
}

/* ---- engine -> config -> plan ------------------------------------------------------------ */

/* An engine descriptor for (graph, id); *st receives the finalize status (the descriptor is
 * returned, tracked, whatever the status). */
static inline hipdnnBackendDescriptor_t pt_engine(hipdnnBackendDescriptor_t g, int64_t id, hipdnnStatus_t* st) {
    hipdnnBackendDescriptor_t e = pt_new(HIPDNN_BACKEND_ENGINE_DESCRIPTOR);
    CHECK_OK(hipdnnBackendSetAttribute(e, HIPDNN_ATTR_ENGINE_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &g));
    CHECK_OK(hipdnnBackendSetAttribute(e, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, HIPDNN_TYPE_INT64, 1, &id));
    *st = hipdnnBackendFinalize(e);
    return e;
}

/* A finalized engine config for a finalized engine (no knobs). */
static inline hipdnnBackendDescriptor_t pt_config(hipdnnBackendDescriptor_t e) {
    hipdnnBackendDescriptor_t c = pt_new(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR);
    CHECK_OK(hipdnnBackendSetAttribute(c, HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &e));
    CHECK_OK(hipdnnBackendFinalize(c));
    return c;
}

/* An execution plan for a finalized config; *st receives the finalize status. */
static inline hipdnnBackendDescriptor_t pt_plan(hipdnnBackendDescriptor_t c, hipdnnStatus_t* st) {
    hipdnnBackendDescriptor_t p = NULL;
    *st = tu_plan(&p, c);
    return pt_track(p);
}

/* Graph -> engine id -> finalized plan, every step required to succeed. */
static inline hipdnnBackendDescriptor_t pt_plan_for(hipdnnBackendDescriptor_t g, int64_t id) {
    hipdnnStatus_t st;
    hipdnnBackendDescriptor_t e = pt_engine(g, id, &st);
    CHECK_STATUS(HIPDNN_STATUS_SUCCESS, st);
    hipdnnBackendDescriptor_t c = pt_config(e);
    hipdnnBackendDescriptor_t p = pt_plan(c, &st);
    CHECK_STATUS(HIPDNN_STATUS_SUCCESS, st);
    return p;
}

/* A finalized variant pack (n uid/pointer pairs, workspace pointer). */
static inline hipdnnBackendDescriptor_t pt_pack(size_t n, const int64_t* uids, void* const* ptrs, void* workspace) {
    hipdnnBackendDescriptor_t v = NULL;
    CHECK_OK(tu_pack(&v, (int64_t)n, uids, ptrs, workspace));
    return pt_track(v);
}

static inline int64_t pt_get_int64(hipdnnBackendDescriptor_t d, hipdnnBackendAttributeName_t a) {
    int64_t v = -12345, n = 0;
    CHECK_OK(hipdnnBackendGetAttribute(d, a, HIPDNN_TYPE_INT64, 1, &n, &v));
    return v;
}

/* ---- heuristics ------------------------------------------------------------------------- */

/* A heuristic descriptor on g (mode FALLBACK). norder < 0 leaves POLICY_ORDER_EXT unset.
 * Returns the finalize status; *out receives the (tracked) descriptor. */
static inline hipdnnStatus_t pt_heur(hipdnnBackendDescriptor_t g, int norder, const int64_t* order,
                                     hipdnnBackendDescriptor_t* out) {
    hipdnnBackendDescriptor_t hd = pt_new(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR);
    hipdnnBackendHeurMode_t mode = HIPDNN_HEUR_MODE_FALLBACK;
    CHECK_OK(hipdnnBackendSetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &g));
    CHECK_OK(hipdnnBackendSetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &mode));
    if (norder >= 0)
        CHECK_OK(hipdnnBackendSetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_POLICY_ORDER_EXT, HIPDNN_TYPE_INT64, norder, order));
    *out = hd;
    return hipdnnBackendFinalize(hd);
}

/* Engine ids of a finalized heuristic's RESULTS, in rank order (at most max); returns the
 * number read, or -1 when a step fails. */
static inline int pt_result_ids(hipdnnBackendDescriptor_t hd, int64_t* ids, int max) {
    int64_t count = -1;
    hipdnnBackendDescriptor_t cfgs[32];
    if (hipdnnBackendGetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0, &count, NULL)
        != HIPDNN_STATUS_SUCCESS)
        return -1;
    if (count > max)
        count = max;
    if (count > 32)
        count = 32;
    for (int64_t i = 0; i < count; i++)
        cfgs[i] = pt_new(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR);
    int64_t got = -1;
    if (count > 0
        && hipdnnBackendGetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, count, &got, cfgs)
               != HIPDNN_STATUS_SUCCESS)
        return -1;
    for (int64_t i = 0; i < count; i++) {
        hipdnnBackendDescriptor_t e = NULL;
        if (hipdnnBackendFinalize(cfgs[i]) != HIPDNN_STATUS_SUCCESS)
            return -1;
        if (hipdnnBackendGetAttribute(cfgs[i], HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, NULL, &e)
            != HIPDNN_STATUS_SUCCESS)
            return -1;
        pt_track(e);
        ids[i] = pt_get_int64(e, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX);
    }
    return (int)count;
}

/* Heuristic on g with the given order, expected to succeed; returns the number of ranked
 * engines written to ids (-1 on failure, which is also a failed check). */
static inline int pt_rank(hipdnnBackendDescriptor_t g, int norder, const int64_t* order, int64_t* ids, int max) {
    hipdnnBackendDescriptor_t hd = NULL;
    hipdnnStatus_t st = pt_heur(g, norder, order, &hd);
    CHECK_STATUS(HIPDNN_STATUS_SUCCESS, st);
    if (st != HIPDNN_STATUS_SUCCESS)
        return -1;
    int n = pt_result_ids(hd, ids, max);
    CHECK(n >= 0);
    return n;
}

#define CHECK_IDS(got_n, got, ...)                                           \
    do {                                                                     \
        const int64_t pt_want_[] = {__VA_ARGS__};                            \
        int pt_nw_ = (int)PT_COUNT(pt_want_);                                \
        int pt_ng_ = (got_n);                                                \
        check_count++;                                                       \
        int pt_bad_ = pt_ng_ != pt_nw_;                                      \
        for (int pt_i_ = 0; !pt_bad_ && pt_i_ < pt_nw_; pt_i_++)             \
            pt_bad_ = (got)[pt_i_] != pt_want_[pt_i_];                       \
        if (pt_bad_) {                                                       \
            fprintf(stderr, "%s:%d: FAIL: ranked ids:", __FILE__, __LINE__); \
            for (int pt_i_ = 0; pt_i_ < pt_ng_; pt_i_++)                     \
                fprintf(stderr, " %lld", (long long)(got)[pt_i_]);           \
            fprintf(stderr, "; want:");                                      \
            for (int pt_i_ = 0; pt_i_ < pt_nw_; pt_i_++)                     \
                fprintf(stderr, " %lld", (long long)pt_want_[pt_i_]);        \
            fprintf(stderr, "\n");                                           \
            check_failures++;                                                \
        }                                                                    \
    } while (0)

/* ---- test-plugin accessors --------------------------------------------------------------- */

/* The address of `symbol` in the already loaded instance of `path` (NULL if the file is not
 * loaded or lacks it). The extra reference dlopen takes is dropped again. */
static inline void* pt_accessor(const char* path, const char* symbol) {
    void* lib = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
    if (lib == NULL)
        return NULL;
    void* sym = dlsym(lib, symbol);
    dlclose(lib);
    return sym;
}

/* Object pointer -> function pointer without the ISO C cast warning. */
#define PT_FN(type, var, path, symbol)               \
    type var = NULL;                                 \
    do {                                             \
        void* pt_p_ = pt_accessor((path), (symbol)); \
        memcpy(&var, &pt_p_, sizeof var);            \
    } while (0)

/* Whether a file whose path ends with `name` is mapped into this process. */
static inline bool pt_mapped(const char* name) {
    FILE* f = fopen("/proc/self/maps", "r");
    char line[4096];
    bool found = false;
    if (f == NULL)
        return false;
    while (fgets(line, sizeof line, f)) {
        size_t n = strlen(line);
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == ' '))
            line[--n] = '\0';
        size_t k = strlen(name);
        if (n >= k && strcmp(line + n - k, name) == 0)
            found = true;
    }
    fclose(f);
    return found;
}

#endif
