/* The misuse sweep: every exported function of hipdnn_backend.h called with each pointer
 * argument NULL, with garbage / destroyed / double-destroyed / stale / wrong-kind handles and
 * descriptors, with out-of-range enum values and element counts, and with too-small and
 * over-declared buffers. Each call must return the documented status, leave the documented
 * last error, and write nothing outside (and, on failure, nothing inside) the caller's buffers:
 * every output buffer is surrounded by canary bytes.
 *
 * Expectations are tables: FNS (one row per function: argument names and classes, a valid
 * call) and ROWS (function, argument, bad value kind, expected status). The header itself is
 * parsed at run time and the tables are checked against it, so a function added to the header
 * without rows, or rows that disagree with its prototype, fail the test.
 *
 * Crash isolation: the test runs the cases in a child process (this executable with --child)
 * that reports each case's start and result through a pipe; all garbage cases run in that one
 * process. If the child dies (signal) or hangs (per-case alarm), the case that was running is
 * reported as CRASH/HANG with its exact call, and a new child continues with the next case.
 * Phase 2 (GETSWEEP rows) reads every attribute name of the header, with every attribute type,
 * from every fixture descriptor into a canary-guarded buffer of 1 and 3 elements. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sweep/fixture.h"

static void tu_clear_last_error(void) {
    char buf[8];
    hipdnnGetLastErrorString(buf, sizeof buf);
}

extern char** environ;

#define NARGS 11
#define MAXG 24
#define CANARY 32
#define EXP_VOID (-100) /* void function / no status to compare */

/* Statuses as plain ints (rows hold ints; EXP_VOID is not a status). */
#define S ((int)HIPDNN_STATUS_SUCCESS)
#define BP ((int)HIPDNN_STATUS_BAD_PARAM)
#define NP ((int)HIPDNN_STATUS_BAD_PARAM_NULL_POINTER)
#define NF ((int)HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED)
#define SI ((int)HIPDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT)
#define NS ((int)HIPDNN_STATUS_NOT_SUPPORTED)
#define NI ((int)HIPDNN_STATUS_NOT_INITIALIZED)

/* ------------------------------------------------------------------------------------------
 * Bad value kinds
 * ---------------------------------------------------------------------------------------- */
typedef enum {
    BK_NONE, /* the valid call (baseline) */
    BK_NULL, /* pointer argument NULL */
    BK_GARB, /* expands to every garbage kind below suited to the argument's class */
    /* garbage handle / descriptor values */
    BK_ONE,
    BK_DEADBEEF,
    BK_MINUS1,
    BK_STACK,
    BK_HEAP,
    BK_DESTROYED,
    BK_TWICE,
    BK_STALE,
    BK_WRONGKIND, /* a descriptor where a handle is expected, a handle where a descriptor is */
    /* specific descriptors of the wrong kind or state */
    BK_TENSOR,
    BK_GRAPH,
    BK_PLAN,
    BK_PACK,
    BK_UNFIN_TENSOR,
    BK_UNFIN_PLAN,
    BK_UNFIN_PACK,
    BK_EMPTY_TENSOR,
    BK_ORPHAN_PLAN,
    BK_ORPHAN_GRAPH,
    /* numbers */
    BK_ENUMS, /* expands to -1, INT32_MIN, INT32_MAX and one past the last (Row.val) */
    BK_I32NEG1,
    BK_I32MIN,
    BK_I32MAX,
    BK_PAST,
    BK_VAL, /* Row.val */
    BK_CUSTOM /* Row.mut does it */
} BadKind;

static const char* kind_name(BadKind k) {
    switch (k) {
    case BK_NONE: return "valid call";
    case BK_NULL: return "NULL";
    case BK_GARB: return "garbage";
    case BK_ONE: return "(void*)0x1";
    case BK_DEADBEEF: return "(void*)0xdeadbeef";
    case BK_MINUS1: return "(void*)-1";
    case BK_STACK: return "pointer into the caller's stack";
    case BK_HEAP: return "pointer into a live malloc block";
    case BK_DESTROYED: return "destroyed";
    case BK_TWICE: return "destroyed twice";
    case BK_STALE: return "destroyed, then 16384+ further destroys (past the quarantine)";
    case BK_WRONGKIND: return "wrong kind (handle<->descriptor cast)";
    case BK_TENSOR: return "finalized tensor descriptor";
    case BK_GRAPH: return "finalized graph descriptor";
    case BK_PLAN: return "finalized execution plan";
    case BK_PACK: return "finalized variant pack";
    case BK_UNFIN_TENSOR: return "unfinalized tensor";
    case BK_UNFIN_PLAN: return "unfinalized execution plan";
    case BK_UNFIN_PACK: return "unfinalized variant pack";
    case BK_EMPTY_TENSOR: return "tensor without attributes";
    case BK_ORPHAN_PLAN: return "plan whose graph's handle was destroyed";
    case BK_ORPHAN_GRAPH: return "graph whose handle was destroyed";
    case BK_ENUMS: return "out-of-range enum";
    case BK_I32NEG1: return "-1";
    case BK_I32MIN: return "INT32_MIN";
    case BK_I32MAX: return "INT32_MAX";
    case BK_PAST: return "one past the last enumerator";
    case BK_VAL: return "value";
    case BK_CUSTOM: return "custom";
    }
    return "?";
}

/* ------------------------------------------------------------------------------------------
 * A call under test: argument values, canary-guarded buffers
 * ---------------------------------------------------------------------------------------- */
typedef struct {
    unsigned char* mem; /* CANARY | payload n | CANARY */
    size_t n;
    const char* name;
    int keep_on_fail; /* payload must be unchanged when the call fails */
    int nowrite; /* payload must be unchanged whatever the status */
    unsigned char* snap;
} Guard;

typedef struct FnSpec FnSpec;
typedef struct Row Row;
typedef struct {
    const FnSpec* fn;
    const Row* row;
    uint64_t a[NARGS];
    Guard g[MAXG];
    int ng;
    void* p[MAXG]; /* payload pointers by guard index */
    hipdnnHandle_t made_h;
    hipdnnBackendDescriptor_t made_d;
    const char* ret_str;
    int64_t scratch[8];
    int get_destroy; /* GetAttribute: destroy returned descriptors on success */
    char why[1024]; /* the first failure of this case */
} Call;

static void* gnew(Call* c, size_t n, const char* name, int keep_on_fail) {
    if (c->ng >= MAXG)
        abort();
    Guard* g = &c->g[c->ng];
    g->mem = (unsigned char*)malloc(n + 2 * CANARY);
    g->snap = (unsigned char*)malloc(n ? n : 1);
    memset(g->mem, 0xA5, n + 2 * CANARY);
    memset(g->mem + CANARY, 0x5A, n);
    g->n = n, g->name = name, g->keep_on_fail = keep_on_fail, g->nowrite = 0;
    c->p[c->ng] = g->mem + CANARY;
    return c->p[c->ng++];
}

static void gfree(Call* c) {
    for (int i = 0; i < c->ng; i++)
        free(c->g[i].mem), free(c->g[i].snap);
    c->ng = 0;
}

static void whyf(Call* c, const char* fmt, ...) {
    if (c->why[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->why, sizeof c->why, fmt, ap);
    va_end(ap);
}

#define U(x) ((uint64_t)(uintptr_t)(x))
#define A(i) (c->a[i])
#define PTR(i) ((void*)(uintptr_t)c->a[i])
#define HND(i) ((hipdnnHandle_t)(uintptr_t)c->a[i])
#define DSC(i) ((hipdnnBackendDescriptor_t)(uintptr_t)c->a[i])
#define SZ(i) ((size_t)c->a[i])
#define I64(i) ((int64_t)c->a[i])
#define I32(i) ((int)(int32_t)(uint32_t)c->a[i])

/* ------------------------------------------------------------------------------------------
 * Fixtures (made once per child process)
 * ---------------------------------------------------------------------------------------- */
static struct {
    hipdnnHandle_t h, h_destroyed, h_twice, h_stale;
    hipdnnBackendDescriptor_t t_fin, t_unfin, t_destroyed, t_twice, t_stale, t_empty;
    hipdnnBackendDescriptor_t plan_unfin, pack_unfin, heur_unfin, pw_unfin, graph_unfin, engine;
    hipdnnBackendDescriptor_t pack_misaligned;
    fx_conv g; /* graph, heur, cfg, plan, pack on F.h */
    fx_conv orphan; /* built on a handle that was then destroyed */
    uint8_t* graph_bin;
    size_t graph_bin_n;
    char* graph_json;
    size_t graph_json_n;
    uint8_t* plan_bin;
    size_t plan_bin_n;
    uint8_t* cont_bin;
    size_t cont_bin_n;
    int64_t engine_id;
    char engine_name[512];
    size_t engine_count, policy_count, plugin_count, plugin_maxlen;
    size_t ei_len[4], pi_len[4];
    char ei_str[4][512];
    int stack_probe;
    void* heap_probe;
} F;

static const char* TENSOR_NAME = "sweep_tensor_name";
static int cookie_a, cookie_b;
static void sweep_log_cb(hipdnnUserLogCallbackHandle_t u, hipdnnSeverity_t s, const char* m) { (void)u, (void)s, (void)m; }

static int fixture_fail(const char* what, hipdnnStatus_t st) {
    char le[HIPDNN_ERROR_STRING_MAX_LENGTH];
    hipdnnPeekLastErrorString_ext(le, sizeof le);
    fprintf(stderr, "fixture: %s -> %s (%s)\n", what, hipdnnGetErrorString(st), le);
    return 1;
}
#define FIX(call)                            \
    do {                                     \
        hipdnnStatus_t st_ = (call);         \
        if (st_ != HIPDNN_STATUS_SUCCESS)    \
            return fixture_fail(#call, st_); \
    } while (0)

static hipdnnBackendDescriptor_t new_tensor(int64_t uid) {
    fx_err e = {{0}, HIPDNN_STATUS_SUCCESS};
    hipdnnBackendDescriptor_t t = NULL;
    if (fx_tensor(&e, &t, uid, 1, 2, 3, 4, false) != HIPDNN_STATUS_SUCCESS)
        fprintf(stderr, "fixture: %s\n", e.text);
    return t;
}

static int setup_fixtures(void) {
    fx_err e = {{0}, HIPDNN_STATUS_SUCCESS};
    FIX(hipdnnCreate(&F.h));
    if (fx_conv_build(&e, &F.g, F.h, 1, 2, 4, 4, 2, 7) != HIPDNN_STATUS_SUCCESS) {
        fprintf(stderr, "fixture: %s\n", e.text);
        return 1;
    }
    /* A finalized tensor with a name (for truncated CHAR reads). */
    {
        int64_t uid = 11, dims[4] = {1, 2, 3, 4}, strides[4] = {24, 12, 4, 1};
        hipdnnDataType_t dt = HIPDNN_DATA_FLOAT;
        FIX(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_TENSOR_DESCRIPTOR, &F.t_fin));
        FIX(hipdnnBackendSetAttribute(F.t_fin, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, &uid));
        FIX(hipdnnBackendSetAttribute(F.t_fin, HIPDNN_ATTR_TENSOR_DATA_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &dt));
        FIX(hipdnnBackendSetAttribute(F.t_fin, HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, 4, dims));
        FIX(hipdnnBackendSetAttribute(F.t_fin, HIPDNN_ATTR_TENSOR_STRIDES, HIPDNN_TYPE_INT64, 4, strides));
        FIX(hipdnnBackendSetAttribute(F.t_fin, HIPDNN_ATTR_TENSOR_NAME_EXT, HIPDNN_TYPE_CHAR, (int64_t)strlen(TENSOR_NAME),
                                      TENSOR_NAME));
        FIX(hipdnnBackendFinalize(F.t_fin));
    }
    FIX(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_TENSOR_DESCRIPTOR, &F.t_unfin));
    FIX(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_TENSOR_DESCRIPTOR, &F.t_empty));
    FIX(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, &F.plan_unfin));
    FIX(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, &F.pack_unfin));
    FIX(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, &F.heur_unfin));
    FIX(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR, &F.pw_unfin));
    FIX(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, &F.graph_unfin));
    FIX(hipdnnBackendGetAttribute(F.g.cfg, HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, NULL, &F.engine));
    /* A pack whose x pointer is misaligned for its fp32 tensor. */
    {
        void* ptrs[4] = {(char*)F.g.xs + 1, F.g.ws, F.g.bs, F.g.ys};
        int64_t uids[4] = {1, 2, 4, 6};
        FIX(tu_pack(&F.pack_misaligned, 4, uids, ptrs, F.g.workspace));
    }
    /* A graph and plan whose handle is destroyed afterwards. */
    {
        hipdnnHandle_t h2 = NULL;
        FIX(hipdnnCreate(&h2));
        if (fx_conv_build(&e, &F.orphan, h2, 1, 2, 4, 4, 2, 9) != HIPDNN_STATUS_SUCCESS) {
            fprintf(stderr, "fixture: %s\n", e.text);
            return 1;
        }
        FIX(hipdnnDestroy(h2));
    }
    /* Serialized forms. */
    FIX(hipdnnBackendGetSerializedBinaryGraph_ext(F.g.graph, 0, &F.graph_bin_n, NULL));
    F.graph_bin = (uint8_t*)malloc(F.graph_bin_n);
    FIX(hipdnnBackendGetSerializedBinaryGraph_ext(F.g.graph, F.graph_bin_n, &F.graph_bin_n, F.graph_bin));
    FIX(hipdnnBackendGetSerializedJsonGraph_ext(F.g.graph, 0, &F.graph_json_n, NULL));
    F.graph_json = (char*)malloc(F.graph_json_n);
    FIX(hipdnnBackendGetSerializedJsonGraph_ext(F.g.graph, F.graph_json_n, &F.graph_json_n, F.graph_json));
    FIX(hipdnnBackendGetSerializedExecutionPlan_ext(F.g.plan, 0, &F.plan_bin_n, NULL));
    F.plan_bin = (uint8_t*)malloc(F.plan_bin_n);
    FIX(hipdnnBackendGetSerializedExecutionPlan_ext(F.g.plan, F.plan_bin_n, &F.plan_bin_n, F.plan_bin));
    FIX(hipdnnBackendGetSerializedBinaryGraphAndPlan_ext(F.g.graph, F.g.plan, 0, &F.cont_bin_n, NULL));
    F.cont_bin = (uint8_t*)malloc(F.cont_bin_n);
    FIX(hipdnnBackendGetSerializedBinaryGraphAndPlan_ext(F.g.graph, F.g.plan, F.cont_bin_n, &F.cont_bin_n, F.cont_bin));
    /* Engines, policies, plugins. */
    FIX(hipdnnGetEngineCount_ext(F.h, &F.engine_count));
    FIX(hipdnnGetHeuristicPolicyCount_ext(F.h, &F.policy_count));
    if (F.engine_count == 0 || F.policy_count == 0) {
        fprintf(stderr, "fixture: %zu engines, %zu policies; the CPU engine must be loaded\n", F.engine_count, F.policy_count);
        return 1;
    }
    FIX(hipdnnGetEngineInfo_ext(F.h, 0, &F.engine_id, NULL, &F.ei_len[0], NULL, &F.ei_len[1], NULL, &F.ei_len[2], NULL,
                                &F.ei_len[3]));
    for (int i = 0; i < 4; i++)
        if (F.ei_len[i] > sizeof F.ei_str[i])
            return fixture_fail("engine info strings longer than 512 bytes", BP);
    FIX(hipdnnGetEngineInfo_ext(F.h, 0, &F.engine_id, F.ei_str[0], &F.ei_len[0], F.ei_str[1], &F.ei_len[1], F.ei_str[2],
                                &F.ei_len[2], F.ei_str[3], &F.ei_len[3]));
    snprintf(F.engine_name, sizeof F.engine_name, "%s", F.ei_str[0]);
    FIX(hipdnnGetHeuristicPolicyInfo_ext(F.h, 0, NULL, NULL, &F.pi_len[0], NULL, &F.pi_len[1], NULL, &F.pi_len[2], NULL,
                                         &F.pi_len[3]));
    FIX(hipdnnGetLoadedEnginePluginPaths_ext(F.h, &F.plugin_count, NULL, &F.plugin_maxlen));
    if (F.plugin_count == 0 || F.plugin_count > 4) {
        fprintf(stderr, "fixture: %zu engine plugins loaded; the sweep expects 1 to 4\n", F.plugin_count);
        return 1;
    }
    /* Destroyed, destroyed twice, and stale (past the registry's quarantine) handles and
     * descriptors. The quarantine (16384 tokens) is first filled with create/destroy pairs,
     * then the stale ones are destroyed and pushed out by 16384 + 100 more pairs. */
    FIX(hipdnnCreate(&F.h_destroyed));
    FIX(hipdnnDestroy(F.h_destroyed));
    FIX(hipdnnCreate(&F.h_twice));
    FIX(hipdnnDestroy(F.h_twice));
    if (hipdnnDestroy(F.h_twice) != HIPDNN_STATUS_BAD_PARAM)
        return fixture_fail("second hipdnnDestroy", BP);
    F.t_destroyed = new_tensor(21);
    FIX(hipdnnBackendDestroyDescriptor(F.t_destroyed));
    F.t_twice = new_tensor(22);
    FIX(hipdnnBackendDestroyDescriptor(F.t_twice));
    if (hipdnnBackendDestroyDescriptor(F.t_twice) != HIPDNN_STATUS_BAD_PARAM)
        return fixture_fail("second hipdnnBackendDestroyDescriptor", BP);
    for (int i = 0; i < 16384; i++) {
        hipdnnBackendDescriptor_t d;
        FIX(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_TENSOR_DESCRIPTOR, &d));
        FIX(hipdnnBackendDestroyDescriptor(d));
    }
    FIX(hipdnnCreate(&F.h_stale));
    F.t_stale = new_tensor(23);
    FIX(hipdnnDestroy(F.h_stale));
    FIX(hipdnnBackendDestroyDescriptor(F.t_stale));
    for (int i = 0; i < 16384 + 100; i++) {
        hipdnnBackendDescriptor_t d;
        FIX(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_TENSOR_DESCRIPTOR, &d));
        FIX(hipdnnBackendDestroyDescriptor(d));
    }
    F.heap_probe = malloc(64);
    memset(F.heap_probe, 0x33, 64);
    tu_clear_last_error();
    return 0;
}

/* After all cases: the fixtures still work (no garbage call corrupted them). */
static int verify_fixtures(void) {
    fx_err e = {{0}, HIPDNN_STATUS_SUCCESS};
    int64_t dims[4] = {0}, n = 0;
    if (fx_conv_run_check(&e, &F.g, F.h) != HIPDNN_STATUS_SUCCESS) {
        fprintf(stderr, "fixtures after the sweep: %s\n", e.text);
        return 1;
    }
    FIX(hipdnnBackendGetAttribute(F.t_fin, HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, 4, &n, dims));
    if (n != 4 || dims[0] != 1 || dims[3] != 4) {
        fprintf(stderr, "fixtures after the sweep: tensor dims changed\n");
        return 1;
    }
    size_t ne = 0;
    FIX(hipdnnGetEngineCount_ext(F.h, &ne));
    fx_conv_destroy(&F.orphan);
    hipdnnBackendDescriptor_t all[] = {F.t_fin,      F.t_unfin,  F.t_empty,     F.plan_unfin, F.pack_unfin,
                                       F.heur_unfin, F.pw_unfin, F.graph_unfin, F.engine,     F.pack_misaligned};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        FIX(hipdnnBackendDestroyDescriptor(all[i]));
    FIX(fx_conv_destroy(&F.g));
    FIX(hipdnnDestroy(F.h));
    return 0;
}

/* ------------------------------------------------------------------------------------------
 * Function table
 * ---------------------------------------------------------------------------------------- */
/* Argument classes: H handle, D descriptor, P pointer, E enum, N number (size, count, index,
 * id), V opaque value (hipStream_t). The same classes are derived from the header and compared. */
enum { LE_SETS = 0, LE_NEVER = 1, LE_READER = 2 };
struct FnSpec {
    const char* name;
    int nargs;
    const char* cls; /* one letter per argument */
    const char* args[NARGS];
    void (*setup)(Call*);
    int (*invoke)(Call*);
    void (*cleanup)(Call*, int st);
    int lasterr; /* LE_SETS: failures set it, success leaves it; LE_NEVER: never touched */
};

/* -- handles -- */
static void su_create(Call* c) { A(0) = U(gnew(c, 8, "*handle", 1)); }
static int iv_create(Call* c) { return hipdnnCreate((hipdnnHandle_t*)PTR(0)); }
static void cl_create(Call* c, int st) {
    if (st == S && A(0))
        hipdnnDestroy(*(hipdnnHandle_t*)c->p[0]);
}
static void su_destroy(Call* c) {
    hipdnnCreate(&c->made_h);
    A(0) = U(c->made_h);
}
static int iv_destroy(Call* c) { return hipdnnDestroy(HND(0)); }
static void cl_destroy(Call* c, int st) {
    if (st != S && hipdnnDestroy(c->made_h) != S)
        whyf(c, "the fresh handle could not be destroyed after the call");
}
static void su_setstream(Call* c) { A(0) = U(F.h), A(1) = 0; }
static int iv_setstream(Call* c) { return hipdnnSetStream(HND(0), (hipStream_t)PTR(1)); }
static void su_getstream(Call* c) { A(0) = U(F.h), A(1) = U(gnew(c, sizeof(hipStream_t), "*streamId", 1)); }
static int iv_getstream(Call* c) { return hipdnnGetStream(HND(0), (hipStream_t*)PTR(1)); }

/* -- descriptors -- */
static void su_createdesc(Call* c) { A(0) = HIPDNN_BACKEND_TENSOR_DESCRIPTOR, A(1) = U(gnew(c, 8, "*descriptor", 1)); }
static int iv_createdesc(Call* c) {
    return hipdnnBackendCreateDescriptor((hipdnnBackendDescriptorType_t)I32(0), (hipdnnBackendDescriptor_t*)PTR(1));
}
static void cl_out_desc1(Call* c, int st) {
    if (st == S && A(1) && hipdnnBackendDestroyDescriptor(*(hipdnnBackendDescriptor_t*)PTR(1)) != S)
        whyf(c, "the returned descriptor could not be destroyed");
}
static void cl_out_desc0(Call* c, int st) {
    if (st == S && A(0) && hipdnnBackendDestroyDescriptor(*(hipdnnBackendDescriptor_t*)PTR(0)) != S)
        whyf(c, "the returned descriptor could not be destroyed");
}
static void su_destroydesc(Call* c) {
    c->made_d = new_tensor(31);
    A(0) = U(c->made_d);
}
static int iv_destroydesc(Call* c) { return hipdnnBackendDestroyDescriptor(DSC(0)); }
static void cl_destroydesc(Call* c, int st) {
    if (st != S && hipdnnBackendDestroyDescriptor(c->made_d) != S)
        whyf(c, "the fresh descriptor could not be destroyed after the call");
    c->made_d = NULL;
}
static void su_execute(Call* c) {
    for (int i = 0; i < F.g.n * F.g.k * F.g.h * F.g.w; i++)
        F.g.ys[i] = NAN;
    A(0) = U(F.h), A(1) = U(F.g.plan), A(2) = U(F.g.pack);
}
static int iv_execute(Call* c) { return hipdnnBackendExecute(HND(0), DSC(1), DSC(2)); }
static void cl_execute(Call* c, int st) {
    if (st == S && A(1) == U(F.g.plan) && A(2) == U(F.g.pack)) {
        double err = fx_conv_max_error(&F.g);
        if (!(err < 1e-4))
            whyf(c, "executed with wrong numbers: max |error| %g", err);
    }
}
static void su_finalize(Call* c) { A(0) = U(F.t_fin); }
static int iv_finalize(Call* c) { return hipdnnBackendFinalize(DSC(0)); }
static void su_getattr(Call* c) {
    A(0) = U(F.t_fin), A(1) = HIPDNN_ATTR_TENSOR_DIMENSIONS, A(2) = HIPDNN_TYPE_INT64, A(3) = 4;
    A(4) = U(gnew(c, 8, "*elementCount", 1));
    A(5) = U(gnew(c, 32, "arrayOfElements", 1));
}
static int iv_getattr(Call* c) {
    return hipdnnBackendGetAttribute(DSC(0), (hipdnnBackendAttributeName_t)I32(1), (hipdnnBackendAttributeType_t)I32(2), I64(3),
                                     (int64_t*)PTR(4), PTR(5));
}
static void cl_getattr(Call* c, int st) {
    if (st != S || !c->get_destroy || !A(5))
        return;
    int64_t n = c->get_destroy; /* number of descriptors the row expects back */
    for (int64_t i = 0; i < n; i++)
        if (hipdnnBackendDestroyDescriptor(((hipdnnBackendDescriptor_t*)PTR(5))[i]) != S)
            whyf(c, "returned descriptor %lld could not be destroyed", (long long)i);
}
static void su_setattr(Call* c) {
    A(0) = U(F.t_unfin), A(1) = HIPDNN_ATTR_TENSOR_UNIQUE_ID, A(2) = HIPDNN_TYPE_INT64, A(3) = 1;
    int64_t* v = (int64_t*)gnew(c, 8, "arrayOfElements", 0);
    *v = 77;
    A(4) = U(v);
}
static int iv_setattr(Call* c) {
    return hipdnnBackendSetAttribute(DSC(0), (hipdnnBackendAttributeName_t)I32(1), (hipdnnBackendAttributeType_t)I32(2), I64(3),
                                     PTR(4));
}

/* -- errors -- */
static void su_errstr(Call* c) { A(0) = HIPDNN_STATUS_BAD_PARAM; }
static int iv_errstr(Call* c) {
    c->ret_str = hipdnnGetErrorString((hipdnnStatus_t)I32(0));
    return EXP_VOID;
}
static void su_lasterr(Call* c) {
    A(0) = U(gnew(c, HIPDNN_ERROR_STRING_MAX_LENGTH, "message", 0));
    A(1) = HIPDNN_ERROR_STRING_MAX_LENGTH;
}
static int iv_getlast(Call* c) {
    hipdnnGetLastErrorString((char*)PTR(0), SZ(1));
    return EXP_VOID;
}
static int iv_peeklast(Call* c) {
    hipdnnPeekLastErrorString_ext((char*)PTR(0), SZ(1));
    return EXP_VOID;
}

/* -- serialization -- */
static void su_desgraph(Call* c) { A(0) = U(gnew(c, 8, "*descriptor", 1)), A(1) = U(F.graph_bin), A(2) = F.graph_bin_n; }
static int iv_desgraph(Call* c) {
    return hipdnnBackendCreateAndDeserializeGraph_ext((hipdnnBackendDescriptor_t*)PTR(0), (const uint8_t*)PTR(1), SZ(2));
}
static void su_getbin(Call* c) {
    A(0) = U(F.g.graph), A(1) = F.graph_bin_n;
    A(2) = U(gnew(c, sizeof(size_t), "*graphByteSize", 0));
    A(3) = U(gnew(c, F.graph_bin_n, "serializedGraph", 1));
}
static int iv_getbin(Call* c) {
    return hipdnnBackendGetSerializedBinaryGraph_ext(DSC(0), SZ(1), (size_t*)PTR(2), (uint8_t*)PTR(3));
}
static void su_getjson(Call* c) {
    A(0) = U(F.g.graph), A(1) = F.graph_json_n;
    A(2) = U(gnew(c, sizeof(size_t), "*graphByteSize", 0));
    A(3) = U(gnew(c, F.graph_json_n, "serializedJsonGraph", 1));
}
static int iv_getjson(Call* c) { return hipdnnBackendGetSerializedJsonGraph_ext(DSC(0), SZ(1), (size_t*)PTR(2), (char*)PTR(3)); }
static void su_getplan(Call* c) {
    A(0) = U(F.g.plan), A(1) = F.plan_bin_n;
    A(2) = U(gnew(c, sizeof(size_t), "*planByteSize", 0));
    A(3) = U(gnew(c, F.plan_bin_n, "serializedPlan", 1));
}
static int iv_getplan(Call* c) {
    return hipdnnBackendGetSerializedExecutionPlan_ext(DSC(0), SZ(1), (size_t*)PTR(2), (uint8_t*)PTR(3));
}
static void su_desplan(Call* c) {
    A(0) = U(F.h), A(1) = U(gnew(c, 8, "*descriptor", 1)), A(2) = U(F.plan_bin), A(3) = F.plan_bin_n;
}
static int iv_desplan(Call* c) {
    return hipdnnBackendCreateAndDeserializeExecutionPlan_ext(HND(0), (hipdnnBackendDescriptor_t*)PTR(1), (const uint8_t*)PTR(2),
                                                              SZ(3));
}
static void su_getcont(Call* c) {
    A(0) = U(F.g.graph), A(1) = U(F.g.plan), A(2) = F.cont_bin_n;
    A(3) = U(gnew(c, sizeof(size_t), "*blobByteSize", 0));
    A(4) = U(gnew(c, F.cont_bin_n, "serializedBlob", 1));
}
static int iv_getcont(Call* c) {
    return hipdnnBackendGetSerializedBinaryGraphAndPlan_ext(DSC(0), DSC(1), SZ(2), (size_t*)PTR(3), (uint8_t*)PTR(4));
}
static void su_contents(Call* c) {
    A(0) = U(F.cont_bin), A(1) = F.cont_bin_n, A(2) = U(gnew(c, sizeof(int), "*contentFlags", 1));
}
static int iv_contents(Call* c) {
    return hipdnnBackendGetSerializedBinaryContents_ext((const uint8_t*)PTR(0), SZ(1), (int*)PTR(2));
}
static void su_desjson(Call* c) { A(0) = U(gnew(c, 8, "*descriptor", 1)), A(1) = U(F.graph_json), A(2) = F.graph_json_n; }
static int iv_desjson(Call* c) {
    return hipdnnBackendCreateAndDeserializeJsonGraph_ext((hipdnnBackendDescriptor_t*)PTR(0), (const char*)PTR(1), SZ(2));
}

/* -- plugins -- */
static void su_logcb(Call* c) {
    A(0) = HIPDNN_SEV_INFO, A(1) = U("sweep: a message through hipdnnLoggingCallback_ext");
    hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_INFO); /* the log goes to HIPDNN_LOG_FILE */
}
static int iv_logcb(Call* c) {
    hipdnnLoggingCallback_ext((hipdnnSeverity_t)I32(0), (const char*)PTR(1));
    return EXP_VOID;
}
static void cl_logcb(Call* c, int st) {
    (void)c, (void)st;
    hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_OFF);
}
static const char* const sweep_path = "/nonexistent/hipdnn-sweep-plugins";
static void su_paths(Call* c) {
    const char** arr = (const char**)gnew(c, sizeof(char*), "pluginPaths[]", 0);
    arr[0] = sweep_path;
    A(0) = 1, A(1) = U(arr), A(2) = HIPDNN_PLUGIN_LOADING_ADDITIVE;
}
static int iv_engpaths(Call* c) {
    return hipdnnSetEnginePluginPaths_ext(SZ(0), (const char* const*)PTR(1), (hipdnnPluginLoadingMode_ext_t)I32(2));
}
static int iv_heurpaths(Call* c) {
    return hipdnnSetHeuristicPluginPaths_ext(SZ(0), (const char* const*)PTR(1), (hipdnnPluginLoadingMode_ext_t)I32(2));
}
static void su_unload(Call* c) { A(0) = HIPDNN_PLUGIN_UNLOAD_LAZY; }
static int iv_unload(Call* c) { return hipdnnSetPluginUnloadMode_ext((hipdnnPluginUnloadingMode_ext_t)I32(0)); }
static void su_loaded(Call* c) {
    size_t* num = (size_t*)gnew(c, sizeof(size_t), "*numPluginPaths", 1);
    char** arr = (char**)gnew(c, F.plugin_count * sizeof(char*), "pluginPaths[]", 0);
    for (size_t i = 0; i < F.plugin_count; i++)
        arr[i] = (char*)gnew(c, F.plugin_maxlen, "pluginPaths[i]", 1);
    size_t* maxlen = (size_t*)gnew(c, sizeof(size_t), "*maxStringLen", 1);
    *num = F.plugin_count, *maxlen = F.plugin_maxlen;
    A(0) = U(F.h), A(1) = U(num), A(2) = U(arr), A(3) = U(maxlen);
}
static int iv_loaded(Call* c) {
    return hipdnnGetLoadedEnginePluginPaths_ext(HND(0), (size_t*)PTR(1), (char**)PTR(2), (size_t*)PTR(3));
}

/* -- logging -- */
static void su_usercb(Call* c) {
    A(0) = U(sweep_log_cb), A(1) = HIPDNN_SEV_ERROR, A(2) = HIPDNN_LOG_CALLBACK_SYNC, A(3) = U(&cookie_a);
}
static int iv_usercb(Call* c) {
    return hipdnnSetUserLogCallback_ext((hipdnnUserLogCallback_t)(uintptr_t)A(0), (hipdnnSeverity_t)I32(1),
                                        (hipdnnLogCallbackMode_t)I32(2), (hipdnnUserLogCallbackHandle_t)PTR(3));
}
static void cl_usercb(Call* c, int st) {
    if (st == S && I32(1) != HIPDNN_SEV_OFF
        && hipdnnSetUserLogCallback_ext((hipdnnUserLogCallback_t)(uintptr_t)A(0), HIPDNN_SEV_OFF, HIPDNN_LOG_CALLBACK_SYNC,
                                        (hipdnnUserLogCallbackHandle_t)PTR(3))
               != S)
        whyf(c, "the registered callback could not be removed");
}
static void su_setlevel(Call* c) { A(0) = HIPDNN_SEV_OFF; }
static int iv_setlevel(Call* c) { return hipdnnBackendSetGlobalLogLevel_ext((hipdnnSeverity_t)I32(0)); }
static void su_getlevel(Call* c) { A(0) = U(gnew(c, sizeof(hipdnnSeverity_t), "*level", 1)); }
static int iv_getlevel(Call* c) { return hipdnnBackendGetGlobalLogLevel_ext((hipdnnSeverity_t*)PTR(0)); }

/* -- engines and policies -- */
static void su_engcount(Call* c) { A(0) = U(F.h), A(1) = U(gnew(c, sizeof(size_t), "*numEngines", 1)); }
static int iv_engcount(Call* c) { return hipdnnGetEngineCount_ext(HND(0), (size_t*)PTR(1)); }
static void su_info4(Call* c, const size_t* lens, const char* const* names) {
    A(0) = U(F.h), A(1) = 0, A(2) = U(gnew(c, 8, names[0], 1));
    for (int i = 0; i < 4; i++) {
        A(3 + 2 * i) = U(gnew(c, lens[i], names[1 + 2 * i], 1));
        size_t* len = (size_t*)gnew(c, sizeof(size_t), names[2 + 2 * i], 1);
        *len = lens[i];
        A(4 + 2 * i) = U(len);
    }
}
static const char* const eng_names[] = {"*engineId", "engineName",  "*engineNameLen", "pluginName", "*pluginNameLen",
                                        "version",   "*versionLen", "type",           "*typeLen"};
static const char* const pol_names[] = {"*policyId",     "policyName",        "*policyNameLen", "pluginName",    "*pluginNameLen",
                                        "pluginVersion", "*pluginVersionLen", "apiVersion",     "*apiVersionLen"};
static void su_enginfo(Call* c) { su_info4(c, F.ei_len, eng_names); }
static int iv_enginfo(Call* c) {
    return hipdnnGetEngineInfo_ext(HND(0), SZ(1), (int64_t*)PTR(2), (char*)PTR(3), (size_t*)PTR(4), (char*)PTR(5),
                                   (size_t*)PTR(6), (char*)PTR(7), (size_t*)PTR(8), (char*)PTR(9), (size_t*)PTR(10));
}
static void su_idbyname(Call* c) { A(0) = U(F.h), A(1) = U(F.engine_name), A(2) = U(gnew(c, 8, "*engineId", 1)); }
static int iv_idbyname(Call* c) { return hipdnnGetEngineIdByName_ext(HND(0), (const char*)PTR(1), (int64_t*)PTR(2)); }
static void su_namebyid(Call* c) {
    A(0) = U(F.h), A(1) = (uint64_t)F.engine_id, A(2) = U(gnew(c, F.ei_len[0], "engineName", 1));
    size_t* len = (size_t*)gnew(c, sizeof(size_t), "*engineNameLen", 1);
    *len = F.ei_len[0];
    A(3) = U(len);
}
static int iv_namebyid(Call* c) { return hipdnnGetEngineNameById_ext(HND(0), I64(1), (char*)PTR(2), (size_t*)PTR(3)); }
static void su_polcount(Call* c) { A(0) = U(F.h), A(1) = U(gnew(c, sizeof(size_t), "*numPolicies", 1)); }
static int iv_polcount(Call* c) { return hipdnnGetHeuristicPolicyCount_ext(HND(0), (size_t*)PTR(1)); }
static void su_polinfo(Call* c) { su_info4(c, F.pi_len, pol_names); }
static int iv_polinfo(Call* c) {
    return hipdnnGetHeuristicPolicyInfo_ext(HND(0), SZ(1), (int64_t*)PTR(2), (char*)PTR(3), (size_t*)PTR(4), (char*)PTR(5),
                                            (size_t*)PTR(6), (char*)PTR(7), (size_t*)PTR(8), (char*)PTR(9), (size_t*)PTR(10));
}

/* -- autotuning cache, version -- */
static void su_ranking(Call* c) {
    int64_t* ids = (int64_t*)gnew(c, 8, "engineIdsInRankOrder", 0);
    *ids = F.engine_id;
    A(0) = U(F.h), A(1) = U(F.g.graph), A(2) = U(ids), A(3) = 1;
    A(4) = U(gnew(c, sizeof(int), "*outcome", 1));
}
static int iv_ranking(Call* c) {
    return hipdnnBackendWriteEngineRankingResults_ext(HND(0), DSC(1), (const int64_t*)PTR(2), SZ(3),
                                                      (hipdnnAutotuneCacheWriteOutcome_ext_t*)PTR(4));
}
static void su_getversion(Call* c) { A(0) = U(gnew(c, sizeof(char*), "*version", 1)); }
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static int iv_getversion(Call* c) { return hipdnnGetVersion_ext((const char**)PTR(0)); }
#pragma GCC diagnostic pop
static void su_versionstr(Call* c) { (void)c; }
static int iv_versionstr(Call* c) {
    c->ret_str = hipdnnVersionString_ext();
    return EXP_VOID;
}
static void su_compver(Call* c) {
    A(0) = HIPDNN_VERSION_KIND_C_ABI_EXT;
    A(1) = U(gnew(c, 8, "*major", 1)), A(2) = U(gnew(c, 8, "*minor", 1)), A(3) = U(gnew(c, 8, "*patch", 1));
}
static int iv_compver(Call* c) {
    return hipdnnGetComponentVersion_ext((hipdnnVersionKind_ext_t)I32(0), (int64_t*)PTR(1), (int64_t*)PTR(2), (int64_t*)PTR(3));
}

static const FnSpec FNS[] = {
    {"hipdnnCreate", 1, "P", {"handle"}, su_create, iv_create, cl_create, LE_SETS},
    {"hipdnnDestroy", 1, "H", {"handle"}, su_destroy, iv_destroy, cl_destroy, LE_SETS},
    {"hipdnnSetStream", 2, "HV", {"handle", "streamId"}, su_setstream, iv_setstream, NULL, LE_SETS},
    {"hipdnnGetStream", 2, "HP", {"handle", "streamId"}, su_getstream, iv_getstream, NULL, LE_SETS},
    {"hipdnnBackendCreateDescriptor",
     2,
     "EP",
     {"descriptorType", "descriptor"},
     su_createdesc,
     iv_createdesc,
     cl_out_desc1,
     LE_SETS},
    {"hipdnnBackendDestroyDescriptor", 1, "D", {"descriptor"}, su_destroydesc, iv_destroydesc, cl_destroydesc, LE_SETS},
    {"hipdnnBackendExecute", 3, "HDD", {"handle", "executionPlan", "variantPack"}, su_execute, iv_execute, cl_execute, LE_SETS},
    {"hipdnnBackendFinalize", 1, "D", {"descriptor"}, su_finalize, iv_finalize, NULL, LE_SETS},
    {"hipdnnBackendGetAttribute",
     6,
     "DEENPP",
     {"descriptor", "attributeName", "attributeType", "requestedElementCount", "elementCount", "arrayOfElements"},
     su_getattr,
     iv_getattr,
     cl_getattr,
     LE_SETS},
    {"hipdnnBackendSetAttribute",
     5,
     "DEENP",
     {"descriptor", "attributeName", "attributeType", "elementCount", "arrayOfElements"},
     su_setattr,
     iv_setattr,
     NULL,
     LE_SETS},
    {"hipdnnGetErrorString", 1, "E", {"status"}, su_errstr, iv_errstr, NULL, LE_NEVER},
    {"hipdnnGetLastErrorString", 2, "PN", {"message", "maxSize"}, su_lasterr, iv_getlast, NULL, LE_READER},
    {"hipdnnPeekLastErrorString_ext", 2, "PN", {"message", "maxSize"}, su_lasterr, iv_peeklast, NULL, LE_READER},
    {"hipdnnBackendCreateAndDeserializeGraph_ext",
     3,
     "PPN",
     {"descriptor", "serializedGraph", "graphByteSize"},
     su_desgraph,
     iv_desgraph,
     cl_out_desc0,
     LE_SETS},
    {"hipdnnBackendGetSerializedBinaryGraph_ext",
     4,
     "DNPP",
     {"descriptor", "requestedByteSize", "graphByteSize", "serializedGraph"},
     su_getbin,
     iv_getbin,
     NULL,
     LE_SETS},
    {"hipdnnBackendGetSerializedJsonGraph_ext",
     4,
     "DNPP",
     {"descriptor", "requestedByteSize", "graphByteSize", "serializedJsonGraph"},
     su_getjson,
     iv_getjson,
     NULL,
     LE_SETS},
    {"hipdnnBackendGetSerializedExecutionPlan_ext",
     4,
     "DNPP",
     {"descriptor", "requestedByteSize", "planByteSize", "serializedPlan"},
     su_getplan,
     iv_getplan,
     NULL,
     LE_SETS},
    {"hipdnnBackendCreateAndDeserializeExecutionPlan_ext",
     4,
     "HPPN",
     {"handle", "descriptor", "serializedPlan", "planByteSize"},
     su_desplan,
     iv_desplan,
     cl_out_desc1,
     LE_SETS},
    {"hipdnnBackendGetSerializedBinaryGraphAndPlan_ext",
     5,
     "DDNPP",
     {"graphDescriptor", "executionPlanDescriptor", "requestedByteSize", "blobByteSize", "serializedBlob"},
     su_getcont,
     iv_getcont,
     NULL,
     LE_SETS},
    {"hipdnnBackendGetSerializedBinaryContents_ext",
     3,
     "PNP",
     {"serializedBlob", "blobByteSize", "contentFlags"},
     su_contents,
     iv_contents,
     NULL,
     LE_SETS},
    {"hipdnnBackendCreateAndDeserializeJsonGraph_ext",
     3,
     "PPN",
     {"descriptor", "jsonGraph", "jsonByteSize"},
     su_desjson,
     iv_desjson,
     cl_out_desc0,
     LE_SETS},
    {"hipdnnLoggingCallback_ext", 2, "EP", {"severity", "msg"}, su_logcb, iv_logcb, cl_logcb, LE_NEVER},
    {"hipdnnSetEnginePluginPaths_ext",
     3,
     "NPE",
     {"numPaths", "pluginPaths", "loadingMode"},
     su_paths,
     iv_engpaths,
     NULL,
     LE_SETS},
    {"hipdnnSetHeuristicPluginPaths_ext",
     3,
     "NPE",
     {"numPaths", "pluginPaths", "loadingMode"},
     su_paths,
     iv_heurpaths,
     NULL,
     LE_SETS},
    {"hipdnnSetPluginUnloadMode_ext", 1, "E", {"unloadingMode"}, su_unload, iv_unload, NULL, LE_SETS},
    {"hipdnnGetLoadedEnginePluginPaths_ext",
     4,
     "HPPP",
     {"handle", "numPluginPaths", "pluginPaths", "maxStringLen"},
     su_loaded,
     iv_loaded,
     NULL,
     LE_SETS},
    {"hipdnnSetUserLogCallback_ext",
     4,
     "PEEP",
     {"callback", "minLevel", "mode", "userHandle"},
     su_usercb,
     iv_usercb,
     cl_usercb,
     LE_NEVER},
    {"hipdnnBackendSetGlobalLogLevel_ext", 1, "E", {"level"}, su_setlevel, iv_setlevel, NULL, LE_NEVER},
    {"hipdnnBackendGetGlobalLogLevel_ext", 1, "P", {"level"}, su_getlevel, iv_getlevel, NULL, LE_NEVER},
    {"hipdnnGetEngineCount_ext", 2, "HP", {"handle", "numEngines"}, su_engcount, iv_engcount, NULL, LE_SETS},
    {"hipdnnGetEngineInfo_ext",
     11,
     "HNPPPPPPPPP",
     {"handle", "engineIndex", "engineId", "engineName", "engineNameLen", "pluginName", "pluginNameLen", "version", "versionLen",
      "type", "typeLen"},
     su_enginfo,
     iv_enginfo,
     NULL,
     LE_SETS},
    {"hipdnnGetEngineIdByName_ext", 3, "HPP", {"handle", "engineName", "engineId"}, su_idbyname, iv_idbyname, NULL, LE_SETS},
    {"hipdnnGetEngineNameById_ext",
     4,
     "HNPP",
     {"handle", "engineId", "engineName", "engineNameLen"},
     su_namebyid,
     iv_namebyid,
     NULL,
     LE_SETS},
    {"hipdnnGetHeuristicPolicyCount_ext", 2, "HP", {"handle", "numPolicies"}, su_polcount, iv_polcount, NULL, LE_SETS},
    {"hipdnnGetHeuristicPolicyInfo_ext",
     11,
     "HNPPPPPPPPP",
     {"handle", "policyIndex", "policyId", "policyName", "policyNameLen", "pluginName", "pluginNameLen", "pluginVersion",
      "pluginVersionLen", "apiVersion", "apiVersionLen"},
     su_polinfo,
     iv_polinfo,
     NULL,
     LE_SETS},
    {"hipdnnBackendWriteEngineRankingResults_ext",
     5,
     "HDPNP",
     {"handle", "graphDescriptor", "engineIdsInRankOrder", "engineIdCount", "outcome"},
     su_ranking,
     iv_ranking,
     NULL,
     LE_SETS},
    {"hipdnnGetVersion_ext", 1, "P", {"version"}, su_getversion, iv_getversion, NULL, LE_SETS},
    {"hipdnnVersionString_ext", 0, "", {NULL}, su_versionstr, iv_versionstr, NULL, LE_NEVER},
    {"hipdnnGetComponentVersion_ext", 4, "EPPP", {"kind", "major", "minor", "patch"}, su_compver, iv_compver, NULL, LE_SETS},
};
#define NFNS ((int)(sizeof FNS / sizeof FNS[0]))

static const FnSpec* find_fn(const char* name) {
    for (int i = 0; i < NFNS; i++)
        if (strcmp(FNS[i].name, name) == 0)
            return &FNS[i];
    return NULL;
}

/* ------------------------------------------------------------------------------------------
 * Row mutators and post-checks
 * ---------------------------------------------------------------------------------------- */
static Guard* guard_named(Call* c, const char* name) {
    for (int i = 0; i < c->ng; i++)
        if (strcmp(c->g[i].name, name) == 0)
            return &c->g[i];
    return NULL;
}
static void nowrite_all(Call* c) {
    for (int i = 0; i < c->ng; i++)
        if (c->g[i].keep_on_fail)
            c->g[i].nowrite = 1;
}
/* Re-allocates the output buffer of argument arg with n bytes (for too-small buffers). */
static void shrink(Call* c, int arg, size_t n) {
    for (int i = 0; i < c->ng; i++)
        if (c->p[i] == PTR(arg)) {
            Guard* g = &c->g[i];
            free(g->mem);
            g->mem = (unsigned char*)malloc(n + 2 * CANARY);
            memset(g->mem, 0xA5, n + 2 * CANARY);
            memset(g->mem + CANARY, 0x5A, n);
            g->n = n;
            c->p[i] = g->mem + CANARY;
            A(arg) = U(c->p[i]);
            free(g->snap);
            g->snap = (unsigned char*)malloc(n ? n : 1);
            return;
        }
    abort();
}
static size_t* lenp(Call* c, int arg) { return (size_t*)PTR(arg); }

/* GetAttribute */
static void m_ga_sizequery(Call* c) { A(5) = 0; }
static void m_ga_req0(Call* c) {
    A(3) = 0;
    guard_named(c, "arrayOfElements")->nowrite = 1;
}
static void m_ga_bothnull(Call* c) { A(4) = 0, A(5) = 0; }
static void m_ga_small2(Call* c) { A(3) = 2, shrink(c, 5, 16); }
static void m_ga_huge(Call* c) { A(3) = (uint64_t)INT64_MAX, shrink(c, 5, 32); }
static void m_ga_name1(Call* c) { A(1) = HIPDNN_ATTR_TENSOR_NAME_EXT, A(2) = HIPDNN_TYPE_CHAR, A(3) = 1, shrink(c, 5, 1); }
static void m_ga_name5(Call* c) { A(1) = HIPDNN_ATTR_TENSOR_NAME_EXT, A(2) = HIPDNN_TYPE_CHAR, A(3) = 5, shrink(c, 5, 5); }
static void m_ga_namehuge(Call* c) {
    A(1) = HIPDNN_ATTR_TENSOR_NAME_EXT, A(2) = HIPDNN_TYPE_CHAR, A(3) = (uint64_t)INT64_MAX;
    shrink(c, 5, strlen(TENSOR_NAME) + 1);
}
static void m_ga_ops1(Call* c) {
    A(0) = U(F.g.graph), A(1) = HIPDNN_ATTR_OPERATIONGRAPH_OPS, A(2) = HIPDNN_TYPE_BACKEND_DESCRIPTOR, A(3) = 1;
    shrink(c, 5, 8);
    c->get_destroy = 1;
}
/* elementCount alone may be NULL (a full read), so precedence needs both outputs NULL. */
static void m_ga_garbage_both_null(Call* c) { A(0) = 0xdeadbeef, A(4) = 0, A(5) = 0; }
static void m_ga_uids1(Call* c) {
    A(0) = U(F.g.plan), A(1) = HIPDNN_ATTR_EXECUTION_PLAN_TENSOR_UIDS_EXT, A(2) = HIPDNN_TYPE_INT64, A(3) = 1;
    shrink(c, 5, 8);
}
static void m_ga_heur_unfin(Call* c) {
    A(0) = U(F.heur_unfin), A(1) = HIPDNN_ATTR_ENGINEHEUR_RESULTS, A(2) = HIPDNN_TYPE_BACKEND_DESCRIPTOR, A(3) = 0;
    A(5) = 0;
}
static void m_ga_results_garbage(Call* c) {
    /* ENGINEHEUR_RESULTS fills caller-made configurations: here the array holds garbage. */
    A(0) = U(F.g.heur), A(1) = HIPDNN_ATTR_ENGINEHEUR_RESULTS, A(2) = HIPDNN_TYPE_BACKEND_DESCRIPTOR, A(3) = 1;
    shrink(c, 5, 8);
    *(uint64_t*)PTR(5) = 0xdeadbeef;
}
static void m_ga_results_tensor(Call* c) {
    m_ga_results_garbage(c);
    *(hipdnnBackendDescriptor_t*)PTR(5) = F.t_fin;
}
static void m_ga_float(Call* c) { A(2) = HIPDNN_TYPE_FLOAT; }
static void m_ga_name_wrongkind(Call* c) { A(1) = HIPDNN_ATTR_POINTWISE_MODE; }
static const char* p_ga_dims(Call* c, int st) {
    (void)st;
    int64_t* d = (int64_t*)PTR(5);
    if (*(int64_t*)c->p[0] != 4)
        return "elementCount != 4";
    if (d[0] != 1 || d[1] != 2 || d[2] != 3 || d[3] != 4)
        return "dimensions read back wrong";
    return NULL;
}
static const char* p_ga_count4(Call* c, int st) {
    (void)st;
    return *(int64_t*)c->p[0] == 4 ? NULL : "elementCount != 4 after a size query";
}
static const char* p_ga_small2(Call* c, int st) {
    (void)st;
    int64_t* d = (int64_t*)PTR(5);
    if (*(int64_t*)c->p[0] != 2)
        return "elementCount != 2";
    return d[0] == 1 && d[1] == 2 ? NULL : "first two dimensions wrong";
}
static const char* p_ga_name1(Call* c, int st) {
    (void)st;
    return ((char*)PTR(5))[0] == 0 ? NULL : "a 1-byte CHAR read did not write just the NUL";
}
static const char* p_ga_name5(Call* c, int st) {
    (void)st;
    return memcmp(PTR(5), "swee", 5) == 0 ? NULL : "a 5-byte CHAR read is not \"swee\"";
}
static const char* p_ga_namehuge(Call* c, int st) {
    (void)st;
    return strcmp((char*)PTR(5), TENSOR_NAME) == 0 ? NULL : "name read back wrong";
}

/* SetAttribute */
static void m_sa_fin(Call* c) { A(0) = U(F.t_fin); }
static void m_sa_float(Call* c) { A(2) = HIPDNN_TYPE_FLOAT; }
static void m_sa_dims(Call* c) {
    int64_t* v = (int64_t*)PTR(4);
    *v = 3;
    A(1) = HIPDNN_ATTR_TENSOR_DIMENSIONS;
}
static void m_sa_dims_neg(Call* c) { m_sa_dims(c), A(3) = (uint64_t)-1; }
static void m_sa_dims_zero(Call* c) { m_sa_dims(c), A(3) = 0; }
static void m_sa_dims_huge(Call* c) { m_sa_dims(c), A(3) = (uint64_t)INT64_MAX; }
static void m_sa_dims_min(Call* c) { m_sa_dims(c), A(3) = (uint64_t)INT64_MIN; }
static void m_sa_elem_desc(Call* c) {
    A(0) = U(F.pw_unfin), A(1) = HIPDNN_ATTR_OPERATION_POINTWISE_IN_0_EXT, A(2) = HIPDNN_TYPE_BACKEND_DESCRIPTOR;
    *(uint64_t*)PTR(4) = U(F.t_fin);
}
static void m_sa_elem_handle(Call* c) {
    A(0) = U(F.graph_unfin), A(1) = HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, A(2) = HIPDNN_TYPE_HANDLE;
    *(uint64_t*)PTR(4) = U(F.h);
}
static void m_sa_ops_huge(Call* c) {
    A(0) = U(F.graph_unfin), A(1) = HIPDNN_ATTR_OPERATIONGRAPH_OPS, A(2) = HIPDNN_TYPE_BACKEND_DESCRIPTOR;
    A(3) = (uint64_t)INT64_MAX;
    *(uint64_t*)PTR(4) = U(F.g.relu);
}
static void m_sa_name_huge(Call* c) { A(1) = HIPDNN_ATTR_TENSOR_NAME_EXT, A(2) = HIPDNN_TYPE_CHAR, A(3) = (uint64_t)INT64_MAX; }
static void m_sa_uids_huge(Call* c) {
    A(0) = U(F.pack_unfin), A(1) = HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, A(3) = (uint64_t)INT64_MAX;
}

/* Serialization */
static void m_size_minus1(Call* c, int sizearg, int bufarg) {
    A(sizearg) = A(sizearg) - 1;
    shrink(c, bufarg, SZ(sizearg));
}
static void m_bin_small(Call* c) { m_size_minus1(c, 1, 3); }
static void m_bin_zero(Call* c) { A(1) = 0; }
static void m_bin_sizemax(Call* c) { A(1) = SIZE_MAX; }
static void m_cont_small(Call* c) { m_size_minus1(c, 2, 4); }
static void m_cont_zero(Call* c) { A(2) = 0; }
static void m_cont_sizemax(Call* c) { A(2) = SIZE_MAX; }
static const char* p_size_is(Call* c, int sizearg, size_t want) {
    size_t got = *(size_t*)c->p[sizearg];
    static char msg[128];
    if (got == want)
        return NULL;
    snprintf(msg, sizeof msg, "the size written is %zu, want %zu", got, want);
    return msg;
}
static const char* p_bin_size(Call* c, int st) {
    (void)st;
    return p_size_is(c, 0, F.graph_bin_n);
}
static const char* p_json_size(Call* c, int st) {
    (void)st;
    return p_size_is(c, 0, F.graph_json_n);
}
static const char* p_plan_size(Call* c, int st) {
    (void)st;
    return p_size_is(c, 0, F.plan_bin_n);
}
static const char* p_cont_size(Call* c, int st) {
    (void)st;
    return p_size_is(c, 0, F.cont_bin_n);
}
static const char* p_bin_bytes(Call* c, int st) {
    (void)st;
    return memcmp(PTR(3), F.graph_bin, F.graph_bin_n) == 0 ? p_bin_size(c, st) : "the serialized graph differs";
}
static uint8_t garbage_bytes[96];
static void m_in_trunc(Call* c, int ptrarg, int sizearg) { (void)ptrarg, A(sizearg) = SZ(sizearg) / 2; }
static void m_in_garbage(Call* c, int ptrarg, int sizearg) {
    memset(garbage_bytes, 0xAB, sizeof garbage_bytes);
    A(ptrarg) = U(garbage_bytes), A(sizearg) = sizeof garbage_bytes;
}
static void m_dg_trunc(Call* c) { m_in_trunc(c, 1, 2); }
static void m_dg_garbage(Call* c) { m_in_garbage(c, 1, 2); }
static void m_dg_json(Call* c) { A(1) = U(F.graph_json), A(2) = F.graph_json_n; }
static void m_dg_plan(Call* c) { A(1) = U(F.plan_bin), A(2) = F.plan_bin_n; }
static void m_dg_cont(Call* c) { A(1) = U(F.cont_bin), A(2) = F.cont_bin_n; }
static void m_dp_trunc(Call* c) { m_in_trunc(c, 2, 3); }
static void m_dp_garbage(Call* c) { m_in_garbage(c, 2, 3); }
static void m_dp_graph(Call* c) { A(2) = U(F.graph_bin), A(3) = F.graph_bin_n; }
static void m_dp_cont(Call* c) { A(2) = U(F.cont_bin), A(3) = F.cont_bin_n; }
static void m_dj_trunc(Call* c) { m_in_trunc(c, 1, 2); }
static void m_dj_garbage(Call* c) { m_in_garbage(c, 1, 2); }
static void m_dj_bin(Call* c) { A(1) = U(F.graph_bin), A(2) = F.graph_bin_n; }
static void m_ct_trunc(Call* c) { A(1) = F.cont_bin_n / 2; }
static void m_ct_graph(Call* c) { A(0) = U(F.graph_bin), A(1) = F.graph_bin_n; }
static const char* p_ct_both(Call* c, int st) {
    (void)st;
    return *(int*)PTR(2) == (HIPDNN_SERIALIZED_CONTENT_GRAPH | HIPDNN_SERIALIZED_CONTENT_EXECUTION_PLAN)
               ? NULL
               : "flags != GRAPH|EXECUTION_PLAN";
}
static const char* p_ct_graph(Call* c, int st) {
    (void)st;
    return *(int*)PTR(2) == HIPDNN_SERIALIZED_CONTENT_GRAPH ? NULL : "flags != GRAPH";
}

/* Execute */
static void m_ex_misaligned(Call* c) { A(2) = U(F.pack_misaligned); }
static void m_ex_orphan(Call* c) { A(1) = U(F.orphan.plan), A(2) = U(F.orphan.pack); }

/* Finalize */
static void m_fin_orphan_heur(Call* c) {
    hipdnnBackendDescriptor_t heur = NULL;
    hipdnnBackendHeurMode_t mode = HIPDNN_HEUR_MODE_FALLBACK;
    hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, &heur);
    hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &F.orphan.graph);
    hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &mode);
    c->made_d = heur;
    A(0) = U(heur);
}
static void cl_made_d(Call* c) {
    if (c->made_d)
        hipdnnBackendDestroyDescriptor(c->made_d), c->made_d = NULL;
}

/* Last error readers */
static void m_le_zero(Call* c) { A(1) = 0, guard_named(c, "message")->nowrite = 1; }
static void m_le_one(Call* c) { A(1) = 1, shrink(c, 0, 1); }
static void m_le_five(Call* c) { A(1) = 5, shrink(c, 0, 5); }
static void m_le_sizemax(Call* c) { A(1) = SIZE_MAX; }

/* Plugin paths */
static void m_paths_elemnull(Call* c) { ((const char**)PTR(1))[0] = NULL; }
static void m_paths_none(Call* c) { A(0) = 0, A(1) = 0; }

/* Loaded plugin paths */
static void m_lp_query(Call* c) {
    A(2) = 0;
    for (int i = 0; i < c->ng; i++)
        if (strcmp(c->g[i].name, "pluginPaths[i]") == 0)
            c->g[i].nowrite = 1;
}
static const char* p_lp_query(Call* c, int st) {
    (void)st;
    if (*lenp(c, 1) != F.plugin_count)
        return "*numPluginPaths != the plugin count";
    return *lenp(c, 3) == F.plugin_maxlen ? NULL : "*maxStringLen != the longest path + 1";
}
static void m_lp_few(Call* c) { *lenp(c, 1) = F.plugin_count - 1; }
static void m_lp_short(Call* c) { *lenp(c, 3) = F.plugin_maxlen - 1; }
static void m_lp_elemnull(Call* c) { ((char**)PTR(2))[F.plugin_count - 1] = NULL; }
static void m_lp_maxlen_huge(Call* c) { *lenp(c, 3) = SIZE_MAX; }
static void m_lp_num_huge(Call* c) { *lenp(c, 1) = SIZE_MAX; }
static const char* p_lp_filled(Call* c, int st) {
    (void)st;
    char** arr = (char**)PTR(2);
    for (size_t i = 0; i < F.plugin_count; i++)
        if (arr[i][0] == 0 || strlen(arr[i]) >= F.plugin_maxlen)
            return "a plugin path is empty or unterminated";
    return *lenp(c, 1) == F.plugin_count ? NULL : "*numPluginPaths != the plugin count after the fill";
}

/* User log callback */
static void m_ucb_remove_unregistered(Call* c) { A(1) = HIPDNN_SEV_OFF, A(3) = U(&cookie_b); }

/* Engine / policy info */
static void m_info_small(Call* c, int lenarg) {
    size_t* len = lenp(c, lenarg);
    *len -= 1;
    shrink(c, lenarg - 1, *len);
    /* shrink re-made the buffer; the length guard is unchanged */
}
static void m_info_small0(Call* c) { m_info_small(c, 4); }
static void m_info_small1(Call* c) { m_info_small(c, 6); }
static void m_info_small2(Call* c) { m_info_small(c, 8); }
static void m_info_small3(Call* c) { m_info_small(c, 10); }
static void m_info_huge(Call* c, int lenarg) {
    /* An over-declared length with a buffer that does hold the string: only the string and its
     * NUL may be written. */
    *lenp(c, lenarg) = SIZE_MAX;
}
static void m_info_huge0(Call* c) { m_info_huge(c, 4); }
static void m_info_huge1(Call* c) { m_info_huge(c, 6); }
static void m_info_huge2(Call* c) { m_info_huge(c, 8); }
static void m_info_huge3(Call* c) { m_info_huge(c, 10); }
static void m_info_bufnull(Call* c, int bufarg) {
    A(bufarg) = 0;
    nowrite_all(c);
    const char* const* names = strstr(c->fn->name, "Engine") ? eng_names : pol_names;
    for (int i = 0; i < 4; i++)
        guard_named(c, names[2 + 2 * i])->nowrite = 0;
    guard_named(c, names[0])->nowrite = 0;
}
static void m_info_null3(Call* c) { m_info_bufnull(c, 3); }
static void m_info_null5(Call* c) { m_info_bufnull(c, 5); }
static void m_info_null7(Call* c) { m_info_bufnull(c, 7); }
static void m_info_null9(Call* c) { m_info_bufnull(c, 9); }
static const char* p_ei_strings(Call* c, int st) {
    (void)st;
    for (int i = 0; i < 4; i++)
        if (strcmp((char*)PTR(3 + 2 * i), F.ei_str[i]) != 0)
            return "an engine info string differs";
    return NULL;
}
static void m_nbi_small(Call* c) { *lenp(c, 3) -= 1, shrink(c, 2, *lenp(c, 3)); }
static void m_nbi_huge(Call* c) { *lenp(c, 3) = SIZE_MAX; }
static void m_nbi_query(Call* c) { A(2) = 0; }
static const char* p_nbi_len(Call* c, int st) {
    (void)st;
    return *lenp(c, 3) == F.ei_len[0] ? NULL : "*engineNameLen != the name's size";
}
static const char* p_nbi_name(Call* c, int st) {
    (void)st;
    return strcmp((char*)PTR(2), F.engine_name) == 0 ? NULL : "the engine name differs";
}
static const char* p_ibn_id(Call* c, int st) {
    (void)st;
    return *(int64_t*)PTR(2) == F.engine_id ? NULL : "the engine id differs";
}
static void m_ibn_unknown(Call* c) { A(1) = U("NO_SUCH_ENGINE_sweep"); }
static void m_ibn_empty(Call* c) { A(1) = U(""); }

/* Ranking */
static void m_rk_idsnull(Call* c) { A(2) = 0; }

/* Misc post-checks */
static const char* p_errstr_unknown(Call* c, int st) {
    (void)st;
    return c->ret_str && strcmp(c->ret_str, "HIPDNN_STATUS_UNKNOWN") == 0 ? NULL : "not \"HIPDNN_STATUS_UNKNOWN\"";
}
static const char* p_errstr_badparam(Call* c, int st) {
    (void)st;
    return c->ret_str && strcmp(c->ret_str, "HIPDNN_STATUS_BAD_PARAM") == 0 ? NULL : "not \"HIPDNN_STATUS_BAD_PARAM\"";
}
static const char* p_versionstr(Call* c, int st) {
    (void)st;
    return c->ret_str && c->ret_str[0] >= '0' && c->ret_str[0] <= '9' ? NULL : "not a version string";
}
static const char* p_getversion(Call* c, int st) {
    (void)st;
    return *(const char**)PTR(0) == hipdnnVersionString_ext() ? NULL : "not the hipdnnVersionString_ext pointer";
}

/* ------------------------------------------------------------------------------------------
 * The expectation table
 * ---------------------------------------------------------------------------------------- */
struct Row {
    const char* fn;
    int arg; /* the argument the bad value goes to (-1: none) */
    BadKind kind;
    int64_t val; /* BK_VAL, BK_PAST */
    int expect; /* status, or EXP_VOID */
    void (*mut)(Call*);
    const char* (*post)(Call*, int st);
    const char* note;
    char elem; /* 'h' / 'd': the bad value replaces the first element arrayOfElements points
                  * to (a handle / descriptor passed by value inside an array) */
    int null2; /* another argument set to NULL as well (precedence rows), -1 none */
};

#define BASE(f, st, post) \
    { f, -1, BK_NONE, 0, st, NULL, post, NULL, 0, -1 }
#define NUL(f, i, st) \
    { f, i, BK_NULL, 0, st, NULL, NULL, NULL, 0, -1 }
#define NULP(f, i, st, post) \
    { f, i, BK_NULL, 0, st, NULL, post, NULL, 0, -1 }
#define NULM(f, i, st, mut, note) \
    { f, i, BK_NULL, 0, st, mut, NULL, note, 0, -1 }
#define GARB(f, i) \
    { f, i, BK_GARB, 0, BP, NULL, NULL, NULL, 0, -1 }
#define GARBM(f, i, mut, note, elem) \
    { f, i, BK_GARB, 0, BP, mut, NULL, note, elem, -1 }
#define BAD(f, i, k, st) \
    { f, i, k, 0, st, NULL, NULL, NULL, 0, -1 }
#define ENUMS(f, i, past, st) \
    { f, i, BK_ENUMS, past, st, NULL, NULL, NULL, 0, -1 }
#define ENUMSP(f, i, past, st, post) \
    { f, i, BK_ENUMS, past, st, NULL, post, NULL, 0, -1 }
#define VAL(f, i, v, st) \
    { f, i, BK_VAL, (int64_t)(v), st, NULL, NULL, NULL, 0, -1 }
#define VALP(f, i, v, st, post) \
    { f, i, BK_VAL, (int64_t)(v), st, NULL, post, NULL, 0, -1 }
#define VALM(f, i, v, st, mut, note) \
    { f, i, BK_VAL, (int64_t)(v), st, mut, NULL, note, 0, -1 }
#define CUST(f, i, st, mut, post, note) \
    { f, i, BK_CUSTOM, 0, st, mut, post, note, 0, -1 }
#define PREC(f, i, k, n2) \
    { f, i, k, 0, NP, NULL, NULL, "precedence: a NULL argument is reported before anything else", 0, n2 }

static const Row ROWS[] = {
    /* handles */
    BASE("hipdnnCreate", S, NULL),
    NUL("hipdnnCreate", 0, NP),
    BASE("hipdnnDestroy", S, NULL),
    NUL("hipdnnDestroy", 0, NP),
    GARB("hipdnnDestroy", 0),
    BASE("hipdnnSetStream", S, NULL),
    NUL("hipdnnSetStream", 0, NP),
    GARB("hipdnnSetStream", 0),
    BASE("hipdnnGetStream", S, NULL),
    NUL("hipdnnGetStream", 0, NP),
    NUL("hipdnnGetStream", 1, NP),
    GARB("hipdnnGetStream", 0),
    PREC("hipdnnGetStream", 0, BK_DEADBEEF, 1),

    /* descriptors */
    BASE("hipdnnBackendCreateDescriptor", S, NULL),
    NUL("hipdnnBackendCreateDescriptor", 1, NP),
    ENUMS("hipdnnBackendCreateDescriptor", 0, HIPDNN_BACKEND_OPERATION_MOE_GROUPED_MATMUL_BWD_DESCRIPTOR + 1, NS),
    VAL("hipdnnBackendCreateDescriptor", 0, HIPDNN_INVALID_TYPE_EXT, NS),
    VAL("hipdnnBackendCreateDescriptor", 0, HIPDNN_BACKEND_INTERMEDIATE_INFO_DESCRIPTOR, NS),
    BASE("hipdnnBackendDestroyDescriptor", S, NULL),
    NUL("hipdnnBackendDestroyDescriptor", 0, NP),
    GARB("hipdnnBackendDestroyDescriptor", 0),

    BASE("hipdnnBackendExecute", S, NULL),
    NUL("hipdnnBackendExecute", 0, NP),
    NUL("hipdnnBackendExecute", 1, NP),
    NUL("hipdnnBackendExecute", 2, NP),
    GARB("hipdnnBackendExecute", 0),
    GARB("hipdnnBackendExecute", 1),
    GARB("hipdnnBackendExecute", 2),
    BAD("hipdnnBackendExecute", 1, BK_TENSOR, BP),
    BAD("hipdnnBackendExecute", 1, BK_GRAPH, BP),
    BAD("hipdnnBackendExecute", 1, BK_PACK, BP),
    BAD("hipdnnBackendExecute", 1, BK_UNFIN_PLAN, BP),
    BAD("hipdnnBackendExecute", 2, BK_PLAN, BP),
    BAD("hipdnnBackendExecute", 2, BK_TENSOR, BP),
    BAD("hipdnnBackendExecute", 2, BK_UNFIN_PACK, BP),
    CUST("hipdnnBackendExecute", 2, BP, m_ex_misaligned, NULL, "variant pack with a misaligned fp32 pointer"),
    CUST("hipdnnBackendExecute", 1, BP, m_ex_orphan, NULL, "plan and pack built on a handle destroyed since"),
    PREC("hipdnnBackendExecute", 0, BK_DEADBEEF, 1),

    BASE("hipdnnBackendFinalize", S, NULL),
    NUL("hipdnnBackendFinalize", 0, NP),
    GARB("hipdnnBackendFinalize", 0),
    BAD("hipdnnBackendFinalize", 0, BK_EMPTY_TENSOR, BP),
    BAD("hipdnnBackendFinalize", 0, BK_PLAN, BP),
    BAD("hipdnnBackendFinalize", 0, BK_ORPHAN_GRAPH, BP),
    CUST("hipdnnBackendFinalize", 0, BP, m_fin_orphan_heur, NULL, "heuristic on a graph whose handle was destroyed"),

    BASE("hipdnnBackendGetAttribute", S, p_ga_dims),
    NUL("hipdnnBackendGetAttribute", 0, NP),
    NULP("hipdnnBackendGetAttribute", 4, S, NULL), /* elementCount is optional outside size queries */
    NULM("hipdnnBackendGetAttribute", 5, S, m_ga_sizequery, "arrayOfElements NULL: a size query"),
    CUST("hipdnnBackendGetAttribute", 5, S, m_ga_sizequery, p_ga_count4, "size query writes the count only"),
    CUST("hipdnnBackendGetAttribute", 3, S, m_ga_req0, p_ga_count4, "requestedElementCount 0: a size query"),
    CUST("hipdnnBackendGetAttribute", 4, NP, m_ga_bothnull, NULL, "size query without elementCount"),
    GARB("hipdnnBackendGetAttribute", 0),
    BAD("hipdnnBackendGetAttribute", 0, BK_UNFIN_TENSOR, NI),
    CUST("hipdnnBackendGetAttribute", 0, NF, m_ga_heur_unfin, NULL, "ENGINEHEUR_RESULTS of an unfinalized heuristic"),
    ENUMS("hipdnnBackendGetAttribute", 1, 60410, NS),
    CUST("hipdnnBackendGetAttribute", 1, NS, m_ga_name_wrongkind, NULL,
         "an attribute of another kind (POINTWISE_MODE on a tensor)"),
    ENUMS("hipdnnBackendGetAttribute", 2, HIPDNN_TYPE_MOE_GROUPED_MATMUL_MODE + 1, BP),
    VAL("hipdnnBackendGetAttribute", 2, HIPDNN_TYPE_OPERATION_TYPE_EXT + 1, BP),
    CUST("hipdnnBackendGetAttribute", 2, BP, m_ga_float, NULL, "wrong element type (FLOAT for INT64 dims)"),
    VAL("hipdnnBackendGetAttribute", 3, -1, BP),
    VAL("hipdnnBackendGetAttribute", 3, INT64_MIN, BP),
    CUST("hipdnnBackendGetAttribute", 3, S, m_ga_huge, p_ga_dims, "requested INT64_MAX, buffer of exactly 4: only 4 written"),
    CUST("hipdnnBackendGetAttribute", 3, S, m_ga_small2, p_ga_small2, "too small: 2 of 4 dims into a 2-element buffer"),
    CUST("hipdnnBackendGetAttribute", 3, S, m_ga_name1, p_ga_name1, "CHAR name into a 1-byte buffer"),
    CUST("hipdnnBackendGetAttribute", 3, S, m_ga_name5, p_ga_name5, "CHAR name into a 5-byte buffer"),
    CUST("hipdnnBackendGetAttribute", 3, S, m_ga_namehuge, p_ga_namehuge, "CHAR name, requested INT64_MAX, exact buffer"),
    CUST("hipdnnBackendGetAttribute", 3, BP, m_ga_ops1, NULL, "graph OPS (3, read in full only) into a 1-descriptor buffer"),
    CUST("hipdnnBackendGetAttribute", 3, BP, m_ga_uids1, NULL, "plan TENSOR_UIDS_EXT (full get) into a 1-element buffer"),
    CUST("hipdnnBackendGetAttribute", 5, BP, m_ga_results_garbage, NULL, "ENGINEHEUR_RESULTS into an array holding 0xdeadbeef"),
    CUST("hipdnnBackendGetAttribute", 5, BP, m_ga_results_tensor, NULL, "ENGINEHEUR_RESULTS into an array holding a tensor"),
    CUST("hipdnnBackendGetAttribute", 0, NP, m_ga_garbage_both_null, NULL,
         "descriptor 0xdeadbeef with elementCount and arrayOfElements NULL (NULL is reported first)"),

    BASE("hipdnnBackendSetAttribute", S, NULL),
    NUL("hipdnnBackendSetAttribute", 0, NP),
    NUL("hipdnnBackendSetAttribute", 4, NP),
    GARB("hipdnnBackendSetAttribute", 0),
    CUST("hipdnnBackendSetAttribute", 0, NI, m_sa_fin, NULL, "set on a finalized tensor"),
    ENUMS("hipdnnBackendSetAttribute", 1, 60410, NS),
    ENUMS("hipdnnBackendSetAttribute", 2, HIPDNN_TYPE_MOE_GROUPED_MATMUL_MODE + 1, BP),
    CUST("hipdnnBackendSetAttribute", 2, BP, m_sa_float, NULL, "wrong element type (FLOAT for INT64 uid)"),
    VAL("hipdnnBackendSetAttribute", 3, -1, BP),
    VAL("hipdnnBackendSetAttribute", 3, INT64_MIN, BP),
    VAL("hipdnnBackendSetAttribute", 3, 0, BP),
    VAL("hipdnnBackendSetAttribute", 3, 2, BP),
    VAL("hipdnnBackendSetAttribute", 3, INT64_MAX, BP),
    CUST("hipdnnBackendSetAttribute", 3, BP, m_sa_dims_neg, NULL, "TENSOR_DIMENSIONS with elementCount -1 (SIZE_MAX as int64)"),
    CUST("hipdnnBackendSetAttribute", 3, BP, m_sa_dims_min, NULL, "TENSOR_DIMENSIONS with elementCount INT64_MIN"),
    CUST("hipdnnBackendSetAttribute", 3, BP, m_sa_dims_zero, NULL, "TENSOR_DIMENSIONS with elementCount 0"),
    CUST("hipdnnBackendSetAttribute", 3, BP, m_sa_dims_huge, NULL, "TENSOR_DIMENSIONS with elementCount INT64_MAX"),
    CUST("hipdnnBackendSetAttribute", 3, BP, m_sa_name_huge, NULL, "TENSOR_NAME_EXT (CHAR) with elementCount INT64_MAX"),
    CUST("hipdnnBackendSetAttribute", 3, BP, m_sa_uids_huge, NULL, "VARIANT_PACK_UNIQUE_IDS with elementCount INT64_MAX"),
    CUST("hipdnnBackendSetAttribute", 3, BP, m_sa_ops_huge, NULL, "OPERATIONGRAPH_OPS with elementCount INT64_MAX"),
    GARBM("hipdnnBackendSetAttribute", 4, m_sa_elem_desc, "POINTWISE_IN_0 element", 'd'),
    {"hipdnnBackendSetAttribute", 4, BK_NULL, 0, NP, m_sa_elem_desc, NULL, "POINTWISE_IN_0 element", 'd', -1},
    {"hipdnnBackendSetAttribute", 4, BK_PLAN, 0, BP, m_sa_elem_desc, NULL, "POINTWISE_IN_0 element", 'd', -1},
    {"hipdnnBackendSetAttribute", 4, BK_UNFIN_TENSOR, 0, NF, m_sa_elem_desc, NULL, "POINTWISE_IN_0 element", 'd', -1},
    GARBM("hipdnnBackendSetAttribute", 4, m_sa_elem_handle, "OPERATIONGRAPH_HANDLE element", 'h'),
    {"hipdnnBackendSetAttribute", 4, BK_NULL, 0, NP, m_sa_elem_handle, NULL, "OPERATIONGRAPH_HANDLE element", 'h', -1},

    /* errors */
    BASE("hipdnnGetErrorString", EXP_VOID, p_errstr_badparam),
    ENUMSP("hipdnnGetErrorString", 0, HIPDNN_STATUS_VERSION_MISMATCH + 1, EXP_VOID, p_errstr_unknown),
    BASE("hipdnnGetLastErrorString", EXP_VOID, NULL),
    NUL("hipdnnGetLastErrorString", 0, EXP_VOID),
    CUST("hipdnnGetLastErrorString", 1, EXP_VOID, m_le_zero, NULL, "maxSize 0"),
    CUST("hipdnnGetLastErrorString", 1, EXP_VOID, m_le_one, NULL, "maxSize 1, 1-byte buffer"),
    CUST("hipdnnGetLastErrorString", 1, EXP_VOID, m_le_five, NULL, "maxSize 5, 5-byte buffer"),
    CUST("hipdnnGetLastErrorString", 1, EXP_VOID, m_le_sizemax, NULL, "maxSize SIZE_MAX, 2048-byte buffer"),
    BASE("hipdnnPeekLastErrorString_ext", EXP_VOID, NULL),
    NUL("hipdnnPeekLastErrorString_ext", 0, EXP_VOID),
    CUST("hipdnnPeekLastErrorString_ext", 1, EXP_VOID, m_le_zero, NULL, "maxSize 0"),
    CUST("hipdnnPeekLastErrorString_ext", 1, EXP_VOID, m_le_one, NULL, "maxSize 1, 1-byte buffer"),
    CUST("hipdnnPeekLastErrorString_ext", 1, EXP_VOID, m_le_five, NULL, "maxSize 5, 5-byte buffer"),
    CUST("hipdnnPeekLastErrorString_ext", 1, EXP_VOID, m_le_sizemax, NULL, "maxSize SIZE_MAX, 2048-byte buffer"),

    /* serialization */
    BASE("hipdnnBackendCreateAndDeserializeGraph_ext", S, NULL),
    NUL("hipdnnBackendCreateAndDeserializeGraph_ext", 0, NP),
    NUL("hipdnnBackendCreateAndDeserializeGraph_ext", 1, NP),
    VAL("hipdnnBackendCreateAndDeserializeGraph_ext", 2, 0, BP),
    VAL("hipdnnBackendCreateAndDeserializeGraph_ext", 2, SIZE_MAX, BP),
    VAL("hipdnnBackendCreateAndDeserializeGraph_ext", 2, INT64_MAX, BP),
    VAL("hipdnnBackendCreateAndDeserializeGraph_ext", 2, (uint64_t)INT64_MAX + 1, BP),
    CUST("hipdnnBackendCreateAndDeserializeGraph_ext", 2, BP, m_dg_trunc, NULL, "graph truncated to half"),
    CUST("hipdnnBackendCreateAndDeserializeGraph_ext", 1, BP, m_dg_garbage, NULL, "96 bytes of 0xAB"),
    CUST("hipdnnBackendCreateAndDeserializeGraph_ext", 1, BP, m_dg_json, NULL, "JSON text given as a binary graph"),
    CUST("hipdnnBackendCreateAndDeserializeGraph_ext", 1, BP, m_dg_plan, NULL, "a serialized plan given as a graph"),
    CUST("hipdnnBackendCreateAndDeserializeGraph_ext", 1, S, m_dg_cont, NULL, "a graph-and-plan container"),

    BASE("hipdnnBackendGetSerializedBinaryGraph_ext", S, p_bin_bytes),
    NUL("hipdnnBackendGetSerializedBinaryGraph_ext", 0, NP),
    NUL("hipdnnBackendGetSerializedBinaryGraph_ext", 2, NP),
    NULP("hipdnnBackendGetSerializedBinaryGraph_ext", 3, S, p_bin_size),
    GARB("hipdnnBackendGetSerializedBinaryGraph_ext", 0),
    BAD("hipdnnBackendGetSerializedBinaryGraph_ext", 0, BK_TENSOR, BP),
    BAD("hipdnnBackendGetSerializedBinaryGraph_ext", 0, BK_PLAN, BP),
    CUST("hipdnnBackendGetSerializedBinaryGraph_ext", 1, SI, m_bin_zero, p_bin_size, "requestedByteSize 0 with a buffer"),
    CUST("hipdnnBackendGetSerializedBinaryGraph_ext", 1, SI, m_bin_small, p_bin_size, "buffer one byte short"),
    CUST("hipdnnBackendGetSerializedBinaryGraph_ext", 1, S, m_bin_sizemax, p_bin_bytes,
         "requestedByteSize SIZE_MAX, exact buffer"),
    PREC("hipdnnBackendGetSerializedBinaryGraph_ext", 0, BK_DEADBEEF, 2),

    BASE("hipdnnBackendGetSerializedJsonGraph_ext", S, p_json_size),
    NUL("hipdnnBackendGetSerializedJsonGraph_ext", 0, NP),
    NUL("hipdnnBackendGetSerializedJsonGraph_ext", 2, NP),
    NULP("hipdnnBackendGetSerializedJsonGraph_ext", 3, S, p_json_size),
    GARB("hipdnnBackendGetSerializedJsonGraph_ext", 0),
    BAD("hipdnnBackendGetSerializedJsonGraph_ext", 0, BK_TENSOR, BP),
    BAD("hipdnnBackendGetSerializedJsonGraph_ext", 0, BK_PLAN, BP),
    CUST("hipdnnBackendGetSerializedJsonGraph_ext", 1, SI, m_bin_zero, p_json_size, "requestedByteSize 0 with a buffer"),
    CUST("hipdnnBackendGetSerializedJsonGraph_ext", 1, SI, m_bin_small, p_json_size, "buffer one byte short"),
    CUST("hipdnnBackendGetSerializedJsonGraph_ext", 1, S, m_bin_sizemax, p_json_size, "requestedByteSize SIZE_MAX, exact buffer"),

    BASE("hipdnnBackendGetSerializedExecutionPlan_ext", S, p_plan_size),
    NUL("hipdnnBackendGetSerializedExecutionPlan_ext", 0, NP),
    NUL("hipdnnBackendGetSerializedExecutionPlan_ext", 2, NP),
    NULP("hipdnnBackendGetSerializedExecutionPlan_ext", 3, S, p_plan_size),
    GARB("hipdnnBackendGetSerializedExecutionPlan_ext", 0),
    BAD("hipdnnBackendGetSerializedExecutionPlan_ext", 0, BK_TENSOR, BP),
    BAD("hipdnnBackendGetSerializedExecutionPlan_ext", 0, BK_GRAPH, BP),
    BAD("hipdnnBackendGetSerializedExecutionPlan_ext", 0, BK_UNFIN_PLAN, NI),
    CUST("hipdnnBackendGetSerializedExecutionPlan_ext", 1, SI, m_bin_zero, p_plan_size, "requestedByteSize 0 with a buffer"),
    CUST("hipdnnBackendGetSerializedExecutionPlan_ext", 1, SI, m_bin_small, p_plan_size, "buffer one byte short"),
    CUST("hipdnnBackendGetSerializedExecutionPlan_ext", 1, S, m_bin_sizemax, p_plan_size,
         "requestedByteSize SIZE_MAX, exact buffer"),

    BASE("hipdnnBackendCreateAndDeserializeExecutionPlan_ext", S, NULL),
    NUL("hipdnnBackendCreateAndDeserializeExecutionPlan_ext", 0, NP),
    NUL("hipdnnBackendCreateAndDeserializeExecutionPlan_ext", 1, NP),
    NUL("hipdnnBackendCreateAndDeserializeExecutionPlan_ext", 2, NP),
    GARB("hipdnnBackendCreateAndDeserializeExecutionPlan_ext", 0),
    VAL("hipdnnBackendCreateAndDeserializeExecutionPlan_ext", 3, 0, BP),
    VAL("hipdnnBackendCreateAndDeserializeExecutionPlan_ext", 3, SIZE_MAX, BP),
    VAL("hipdnnBackendCreateAndDeserializeExecutionPlan_ext", 3, INT64_MAX, BP),
    CUST("hipdnnBackendCreateAndDeserializeExecutionPlan_ext", 3, BP, m_dp_trunc, NULL, "plan truncated to half"),
    CUST("hipdnnBackendCreateAndDeserializeExecutionPlan_ext", 2, BP, m_dp_garbage, NULL, "96 bytes of 0xAB"),
    CUST("hipdnnBackendCreateAndDeserializeExecutionPlan_ext", 2, BP, m_dp_graph, NULL, "a serialized graph given as a plan"),
    CUST("hipdnnBackendCreateAndDeserializeExecutionPlan_ext", 2, S, m_dp_cont, NULL, "a graph-and-plan container"),
    PREC("hipdnnBackendCreateAndDeserializeExecutionPlan_ext", 0, BK_DEADBEEF, 1),

    BASE("hipdnnBackendGetSerializedBinaryGraphAndPlan_ext", S, p_cont_size),
    NUL("hipdnnBackendGetSerializedBinaryGraphAndPlan_ext", 0, NP),
    NUL("hipdnnBackendGetSerializedBinaryGraphAndPlan_ext", 1, S), /* the plan is optional */
    NUL("hipdnnBackendGetSerializedBinaryGraphAndPlan_ext", 3, NP),
    NULP("hipdnnBackendGetSerializedBinaryGraphAndPlan_ext", 4, S, p_cont_size),
    GARB("hipdnnBackendGetSerializedBinaryGraphAndPlan_ext", 0),
    GARB("hipdnnBackendGetSerializedBinaryGraphAndPlan_ext", 1),
    BAD("hipdnnBackendGetSerializedBinaryGraphAndPlan_ext", 0, BK_TENSOR, BP),
    BAD("hipdnnBackendGetSerializedBinaryGraphAndPlan_ext", 0, BK_PLAN, BP),
    BAD("hipdnnBackendGetSerializedBinaryGraphAndPlan_ext", 1, BK_TENSOR, BP),
    BAD("hipdnnBackendGetSerializedBinaryGraphAndPlan_ext", 1, BK_GRAPH, BP),
    BAD("hipdnnBackendGetSerializedBinaryGraphAndPlan_ext", 1, BK_UNFIN_PLAN, NI),
    CUST("hipdnnBackendGetSerializedBinaryGraphAndPlan_ext", 2, SI, m_cont_zero, p_cont_size,
         "requestedByteSize 0 with a buffer"),
    CUST("hipdnnBackendGetSerializedBinaryGraphAndPlan_ext", 2, SI, m_cont_small, p_cont_size, "buffer one byte short"),
    CUST("hipdnnBackendGetSerializedBinaryGraphAndPlan_ext", 2, S, m_cont_sizemax, p_cont_size,
         "requestedByteSize SIZE_MAX, exact buffer"),

    BASE("hipdnnBackendGetSerializedBinaryContents_ext", S, p_ct_both),
    NUL("hipdnnBackendGetSerializedBinaryContents_ext", 0, NP),
    NUL("hipdnnBackendGetSerializedBinaryContents_ext", 2, NP),
    VAL("hipdnnBackendGetSerializedBinaryContents_ext", 1, 0, BP),
    VAL("hipdnnBackendGetSerializedBinaryContents_ext", 1, SIZE_MAX, BP),
    CUST("hipdnnBackendGetSerializedBinaryContents_ext", 1, BP, m_ct_trunc, NULL, "container truncated to half"),
    CUST("hipdnnBackendGetSerializedBinaryContents_ext", 0, S, m_ct_graph, p_ct_graph, "a bare graph"),

    BASE("hipdnnBackendCreateAndDeserializeJsonGraph_ext", S, NULL),
    NUL("hipdnnBackendCreateAndDeserializeJsonGraph_ext", 0, NP),
    NUL("hipdnnBackendCreateAndDeserializeJsonGraph_ext", 1, NP),
    VAL("hipdnnBackendCreateAndDeserializeJsonGraph_ext", 2, 0, BP),
    VAL("hipdnnBackendCreateAndDeserializeJsonGraph_ext", 2, SIZE_MAX, BP),
    VAL("hipdnnBackendCreateAndDeserializeJsonGraph_ext", 2, INT64_MAX, BP),
    CUST("hipdnnBackendCreateAndDeserializeJsonGraph_ext", 2, BP, m_dj_trunc, NULL, "JSON truncated to half"),
    CUST("hipdnnBackendCreateAndDeserializeJsonGraph_ext", 1, BP, m_dj_garbage, NULL, "96 bytes of 0xAB"),
    CUST("hipdnnBackendCreateAndDeserializeJsonGraph_ext", 1, BP, m_dj_bin, NULL, "a binary graph given as JSON"),

    /* plugins */
    BASE("hipdnnLoggingCallback_ext", EXP_VOID, NULL),
    NUL("hipdnnLoggingCallback_ext", 1, EXP_VOID),
    ENUMS("hipdnnLoggingCallback_ext", 0, HIPDNN_SEV_OFF + 1, EXP_VOID),

    BASE("hipdnnSetEnginePluginPaths_ext", NS, NULL), /* a handle exists */
    NUL("hipdnnSetEnginePluginPaths_ext", 1, NP),
    CUST("hipdnnSetEnginePluginPaths_ext", 1, NP, m_paths_elemnull, NULL, "pluginPaths[0] NULL"),
    CUST("hipdnnSetEnginePluginPaths_ext", 0, S, m_paths_none, NULL, "(0, NULL, ADDITIVE): the configuration in force"),
    ENUMS("hipdnnSetEnginePluginPaths_ext", 2, HIPDNN_PLUGIN_LOADING_ABSOLUTE + 1, BP),
    VAL("hipdnnSetEnginePluginPaths_ext", 0, SIZE_MAX, BP),
    VAL("hipdnnSetEnginePluginPaths_ext", 0, INT64_MAX, BP),
    BASE("hipdnnSetHeuristicPluginPaths_ext", NS, NULL),
    NUL("hipdnnSetHeuristicPluginPaths_ext", 1, NP),
    CUST("hipdnnSetHeuristicPluginPaths_ext", 1, NP, m_paths_elemnull, NULL, "pluginPaths[0] NULL"),
    CUST("hipdnnSetHeuristicPluginPaths_ext", 0, S, m_paths_none, NULL, "(0, NULL, ADDITIVE): the configuration in force"),
    ENUMS("hipdnnSetHeuristicPluginPaths_ext", 2, HIPDNN_PLUGIN_LOADING_ABSOLUTE + 1, BP),
    VAL("hipdnnSetHeuristicPluginPaths_ext", 0, SIZE_MAX, BP),
    VAL("hipdnnSetHeuristicPluginPaths_ext", 0, INT64_MAX, BP),
    BASE("hipdnnSetPluginUnloadMode_ext", S, NULL),
    ENUMS("hipdnnSetPluginUnloadMode_ext", 0, HIPDNN_PLUGIN_UNLOAD_EAGER + 1, BP),

    BASE("hipdnnGetLoadedEnginePluginPaths_ext", S, p_lp_filled),
    NUL("hipdnnGetLoadedEnginePluginPaths_ext", 0, NP),
    NUL("hipdnnGetLoadedEnginePluginPaths_ext", 1, NP),
    NULM("hipdnnGetLoadedEnginePluginPaths_ext", 2, S, m_lp_query, "pluginPaths NULL: a query"),
    CUST("hipdnnGetLoadedEnginePluginPaths_ext", 2, S, m_lp_query, p_lp_query, "the query writes count and longest size"),
    NUL("hipdnnGetLoadedEnginePluginPaths_ext", 3, NP),
    GARB("hipdnnGetLoadedEnginePluginPaths_ext", 0),
    CUST("hipdnnGetLoadedEnginePluginPaths_ext", 1, BP, m_lp_few, NULL, "one buffer too few"),
    CUST("hipdnnGetLoadedEnginePluginPaths_ext", 3, BP, m_lp_short, NULL, "buffers one byte short"),
    CUST("hipdnnGetLoadedEnginePluginPaths_ext", 2, BP, m_lp_elemnull, NULL, "pluginPaths[last] NULL"),
    CUST("hipdnnGetLoadedEnginePluginPaths_ext", 3, S, m_lp_maxlen_huge, p_lp_filled,
         "*maxStringLen SIZE_MAX, buffers large enough"),
    CUST("hipdnnGetLoadedEnginePluginPaths_ext", 1, S, m_lp_num_huge, p_lp_filled, "*numPluginPaths SIZE_MAX, enough buffers"),

    /* logging */
    BASE("hipdnnSetUserLogCallback_ext", S, NULL),
    NUL("hipdnnSetUserLogCallback_ext", 0, BP),
    NUL("hipdnnSetUserLogCallback_ext", 3, BP),
    ENUMS("hipdnnSetUserLogCallback_ext", 1, HIPDNN_SEV_OFF + 1, BP),
    ENUMS("hipdnnSetUserLogCallback_ext", 2, HIPDNN_LOG_CALLBACK_ASYNC + 1, BP),
    CUST("hipdnnSetUserLogCallback_ext", 1, BP, m_ucb_remove_unregistered, NULL, "remove a pair never registered"),
    BASE("hipdnnBackendSetGlobalLogLevel_ext", S, NULL),
    ENUMS("hipdnnBackendSetGlobalLogLevel_ext", 0, HIPDNN_SEV_OFF + 1, BP),
    BASE("hipdnnBackendGetGlobalLogLevel_ext", S, NULL),
    NUL("hipdnnBackendGetGlobalLogLevel_ext", 0, BP),

    /* engines and policies */
    BASE("hipdnnGetEngineCount_ext", S, NULL),
    NUL("hipdnnGetEngineCount_ext", 0, NP),
    NUL("hipdnnGetEngineCount_ext", 1, NP),
    GARB("hipdnnGetEngineCount_ext", 0),
    PREC("hipdnnGetEngineCount_ext", 0, BK_DEADBEEF, 1),

    BASE("hipdnnGetEngineInfo_ext", S, p_ei_strings),
    NUL("hipdnnGetEngineInfo_ext", 0, NP),
    NUL("hipdnnGetEngineInfo_ext", 2, S), /* engineId is optional */
    NULM("hipdnnGetEngineInfo_ext", 3, S, m_info_null3, "a NULL buffer: sizes only"),
    NUL("hipdnnGetEngineInfo_ext", 4, NP),
    NULM("hipdnnGetEngineInfo_ext", 5, S, m_info_null5, "a NULL buffer: sizes only"),
    NUL("hipdnnGetEngineInfo_ext", 6, NP),
    NULM("hipdnnGetEngineInfo_ext", 7, S, m_info_null7, "a NULL buffer: sizes only"),
    NUL("hipdnnGetEngineInfo_ext", 8, NP),
    NULM("hipdnnGetEngineInfo_ext", 9, S, m_info_null9, "a NULL buffer: sizes only"),
    NUL("hipdnnGetEngineInfo_ext", 10, NP),
    GARB("hipdnnGetEngineInfo_ext", 0),
    VAL("hipdnnGetEngineInfo_ext", 1, -2, BP), /* placeholder replaced by the engine count below */
    VAL("hipdnnGetEngineInfo_ext", 1, SIZE_MAX, BP),
    VAL("hipdnnGetEngineInfo_ext", 1, (uint64_t)INT64_MAX + 1, BP),
    CUST("hipdnnGetEngineInfo_ext", 4, BP, m_info_small0, NULL, "engineName one byte short"),
    CUST("hipdnnGetEngineInfo_ext", 6, BP, m_info_small1, NULL, "pluginName one byte short"),
    CUST("hipdnnGetEngineInfo_ext", 8, BP, m_info_small2, NULL, "version one byte short"),
    CUST("hipdnnGetEngineInfo_ext", 10, BP, m_info_small3, NULL, "type one byte short"),
    CUST("hipdnnGetEngineInfo_ext", 4, S, m_info_huge0, p_ei_strings, "*engineNameLen SIZE_MAX, buffer large enough"),
    CUST("hipdnnGetEngineInfo_ext", 6, S, m_info_huge1, p_ei_strings, "*pluginNameLen SIZE_MAX, buffer large enough"),
    CUST("hipdnnGetEngineInfo_ext", 8, S, m_info_huge2, p_ei_strings, "*versionLen SIZE_MAX, buffer large enough"),
    CUST("hipdnnGetEngineInfo_ext", 10, S, m_info_huge3, p_ei_strings, "*typeLen SIZE_MAX, buffer large enough"),

    BASE("hipdnnGetEngineIdByName_ext", S, p_ibn_id),
    NUL("hipdnnGetEngineIdByName_ext", 0, NP),
    NUL("hipdnnGetEngineIdByName_ext", 1, NP),
    NUL("hipdnnGetEngineIdByName_ext", 2, NP),
    GARB("hipdnnGetEngineIdByName_ext", 0),
    CUST("hipdnnGetEngineIdByName_ext", 1, NS, m_ibn_unknown, NULL, "an unknown name"),
    CUST("hipdnnGetEngineIdByName_ext", 1, NS, m_ibn_empty, NULL, "the empty name"),

    BASE("hipdnnGetEngineNameById_ext", S, p_nbi_name),
    NUL("hipdnnGetEngineNameById_ext", 0, NP),
    NULM("hipdnnGetEngineNameById_ext", 2, S, m_nbi_query, "engineName NULL: a size query"),
    CUST("hipdnnGetEngineNameById_ext", 2, S, m_nbi_query, p_nbi_len, "the size query writes the name's size"),
    NUL("hipdnnGetEngineNameById_ext", 3, NP),
    GARB("hipdnnGetEngineNameById_ext", 0),
    VAL("hipdnnGetEngineNameById_ext", 1, 0, NS),
    VAL("hipdnnGetEngineNameById_ext", 1, -1, NS),
    VAL("hipdnnGetEngineNameById_ext", 1, INT64_MIN, NS),
    VAL("hipdnnGetEngineNameById_ext", 1, INT64_MAX, NS),
    CUST("hipdnnGetEngineNameById_ext", 3, BP, m_nbi_small, NULL, "engineName one byte short"),
    CUST("hipdnnGetEngineNameById_ext", 3, S, m_nbi_huge, p_nbi_name, "*engineNameLen SIZE_MAX, buffer large enough"),

    BASE("hipdnnGetHeuristicPolicyCount_ext", S, NULL),
    NUL("hipdnnGetHeuristicPolicyCount_ext", 0, NP),
    NUL("hipdnnGetHeuristicPolicyCount_ext", 1, NP),
    GARB("hipdnnGetHeuristicPolicyCount_ext", 0),

    BASE("hipdnnGetHeuristicPolicyInfo_ext", S, NULL),
    NUL("hipdnnGetHeuristicPolicyInfo_ext", 0, NP),
    NUL("hipdnnGetHeuristicPolicyInfo_ext", 2, S),
    NULM("hipdnnGetHeuristicPolicyInfo_ext", 3, S, m_info_null3, "a NULL buffer: sizes only"),
    NUL("hipdnnGetHeuristicPolicyInfo_ext", 4, NP),
    NULM("hipdnnGetHeuristicPolicyInfo_ext", 5, S, m_info_null5, "a NULL buffer: sizes only"),
    NUL("hipdnnGetHeuristicPolicyInfo_ext", 6, NP),
    NULM("hipdnnGetHeuristicPolicyInfo_ext", 7, S, m_info_null7, "a NULL buffer: sizes only"),
    NUL("hipdnnGetHeuristicPolicyInfo_ext", 8, NP),
    NULM("hipdnnGetHeuristicPolicyInfo_ext", 9, S, m_info_null9, "a NULL buffer: sizes only"),
    NUL("hipdnnGetHeuristicPolicyInfo_ext", 10, NP),
    GARB("hipdnnGetHeuristicPolicyInfo_ext", 0),
    VAL("hipdnnGetHeuristicPolicyInfo_ext", 1, -3, BP), /* placeholder replaced by the policy count below */
    VAL("hipdnnGetHeuristicPolicyInfo_ext", 1, SIZE_MAX, BP),
    VAL("hipdnnGetHeuristicPolicyInfo_ext", 1, (uint64_t)INT64_MAX + 1, BP),
    CUST("hipdnnGetHeuristicPolicyInfo_ext", 4, BP, m_info_small0, NULL, "policyName one byte short"),
    CUST("hipdnnGetHeuristicPolicyInfo_ext", 6, BP, m_info_small1, NULL, "pluginName one byte short"),
    CUST("hipdnnGetHeuristicPolicyInfo_ext", 8, BP, m_info_small2, NULL, "pluginVersion one byte short"),
    CUST("hipdnnGetHeuristicPolicyInfo_ext", 10, BP, m_info_small3, NULL, "apiVersion one byte short"),
    CUST("hipdnnGetHeuristicPolicyInfo_ext", 4, S, m_info_huge0, NULL, "*policyNameLen SIZE_MAX, buffer large enough"),
    CUST("hipdnnGetHeuristicPolicyInfo_ext", 10, S, m_info_huge3, NULL, "*apiVersionLen SIZE_MAX, buffer large enough"),

    /* autotuning cache */
    BASE("hipdnnBackendWriteEngineRankingResults_ext", S, NULL),
    NUL("hipdnnBackendWriteEngineRankingResults_ext", 0, NP),
    NUL("hipdnnBackendWriteEngineRankingResults_ext", 1, S), /* fail-soft: declined */
    NUL("hipdnnBackendWriteEngineRankingResults_ext", 2, S), /* an empty ranking: declined */
    NUL("hipdnnBackendWriteEngineRankingResults_ext", 4, S), /* outcome is optional */
    GARB("hipdnnBackendWriteEngineRankingResults_ext", 0),
    GARB("hipdnnBackendWriteEngineRankingResults_ext", 1),
    BAD("hipdnnBackendWriteEngineRankingResults_ext", 1, BK_TENSOR, BP),
    BAD("hipdnnBackendWriteEngineRankingResults_ext", 1, BK_PLAN, BP),
    VAL("hipdnnBackendWriteEngineRankingResults_ext", 3, 0, S),
    VAL("hipdnnBackendWriteEngineRankingResults_ext", 3, SIZE_MAX, BP),
    VAL("hipdnnBackendWriteEngineRankingResults_ext", 3, INT64_MAX, BP),
    VALM("hipdnnBackendWriteEngineRankingResults_ext", 3, 5, S, m_rk_idsnull, "engineIdCount 5 with a NULL array: empty"),

    /* version */
    BASE("hipdnnGetVersion_ext", S, p_getversion),
    NUL("hipdnnGetVersion_ext", 0, NP),
    BASE("hipdnnVersionString_ext", EXP_VOID, p_versionstr),
    BASE("hipdnnGetComponentVersion_ext", S, NULL),
    NUL("hipdnnGetComponentVersion_ext", 1, NP),
    NUL("hipdnnGetComponentVersion_ext", 2, NP),
    NUL("hipdnnGetComponentVersion_ext", 3, NP),
    ENUMS("hipdnnGetComponentVersion_ext", 0, HIPDNN_VERSION_KIND_GRAPH_SCHEMA_EXT + 1, BP),
};
#define NROWS ((int)(sizeof ROWS / sizeof ROWS[0]))

/* ------------------------------------------------------------------------------------------
 * Cases: rows with BK_GARB / BK_ENUMS expanded
 * ---------------------------------------------------------------------------------------- */
typedef struct {
    const Row* row;
    BadKind kind; /* the concrete kind */
    int getsweep; /* phase 2: fixture index * 1000000 + attribute index, or -1 */
} Case;

static Case* CASES;
static int NCASES;
static int ATTR_NAMES[1024];
static int NATTR;

static const BadKind GARB_KINDS[] = {BK_ONE,       BK_DEADBEEF, BK_MINUS1, BK_STACK,    BK_HEAP,
                                     BK_DESTROYED, BK_TWICE,    BK_STALE,  BK_WRONGKIND};
static const BadKind ENUM_KINDS[] = {BK_I32NEG1, BK_I32MIN, BK_I32MAX, BK_PAST};

#define NGETFIX 12
static const char* const GETFIX_NAMES[NGETFIX] = {
    "finalized tensor",  "unfinalized tensor",   "conv op", "pointwise op", "graph",
    "heuristic",         "engine config",        "engine",  "plan",         "variant pack",
    "unfinalized graph", "unfinalized heuristic"};
static hipdnnBackendDescriptor_t getfix(int i) {
    hipdnnBackendDescriptor_t d[NGETFIX] = {F.t_fin, F.t_unfin, F.g.conv, F.g.add,  F.g.graph,     F.g.heur,
                                            F.g.cfg, F.engine,  F.g.plan, F.g.pack, F.graph_unfin, F.heur_unfin};
    return d[i];
}
static const int GET_TYPES[] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,    16,
                                17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 10000, 10001};
static size_t type_size(int t) {
    switch (t) {
    case HIPDNN_TYPE_INT64:
    case HIPDNN_TYPE_DOUBLE:
    case HIPDNN_TYPE_VOID_PTR:
    case HIPDNN_TYPE_HANDLE:
    case HIPDNN_TYPE_BACKEND_DESCRIPTOR: return 8;
    case HIPDNN_TYPE_BOOLEAN:
    case HIPDNN_TYPE_CHAR: return 1;
    case HIPDNN_TYPE_FLATBUFFER_DATA_STRUCT_EXT: return 16;
    }
    return 4;
}

static void add_case(const Row* r, BadKind k, int gs) {
    CASES = (Case*)realloc(CASES, sizeof(Case) * (size_t)(NCASES + 1));
    CASES[NCASES].row = r, CASES[NCASES].kind = k, CASES[NCASES].getsweep = gs;
    NCASES++;
}

static void build_cases(void) {
    for (int i = 0; i < NROWS; i++) {
        const Row* r = &ROWS[i];
        if (r->kind == BK_GARB)
            for (size_t k = 0; k < sizeof GARB_KINDS / sizeof GARB_KINDS[0]; k++)
                add_case(r, GARB_KINDS[k], -1);
        else if (r->kind == BK_ENUMS)
            for (size_t k = 0; k < sizeof ENUM_KINDS / sizeof ENUM_KINDS[0]; k++)
                add_case(r, ENUM_KINDS[k], -1);
        else
            add_case(r, r->kind, -1);
    }
    for (int f = 0; f < NGETFIX; f++)
        for (int a = 0; a < NATTR + 3; a++)
            add_case(NULL, BK_NONE, f * 1000000 + a);
}

static int getsweep_name(int a) {
    if (a < NATTR)
        return ATTR_NAMES[a];
    static const int extra[3] = {-1, INT32_MAX, 60410};
    return extra[a - NATTR];
}

static void describe(const Case* cs, char* out, size_t n) {
    if (cs->getsweep >= 0) {
        int f = cs->getsweep / 1000000, a = cs->getsweep % 1000000;
        snprintf(
            out, n,
            "hipdnnBackendGetAttribute(%s, attributeName=%d, every attributeType; size query, then requested 1, 3 and the size, guarded buffers)",
            GETFIX_NAMES[f], getsweep_name(a));
        return;
    }
    const Row* r = cs->row;
    const FnSpec* fn = find_fn(r->fn);
    char val[160] = "";
    if (r->arg < 0) {
        snprintf(out, n, "%s: %s%s%s", r->fn, kind_name(cs->kind), r->note ? ", " : "", r->note ? r->note : "");
        return;
    }
    if (cs->kind == BK_CUSTOM) {
        snprintf(out, n, "%s(%s: %s)", r->fn, fn && r->arg < fn->nargs ? fn->args[r->arg] : "?", r->note ? r->note : "");
        return;
    }
    switch (cs->kind) {
    case BK_VAL:
        if (r->val == -2 || r->val == -3)
            snprintf(val, sizeof val, "the %s count (one past the last index)", r->val == -2 ? "engine" : "policy");
        else
            snprintf(val, sizeof val, "%lld (0x%llx)", (long long)r->val, (unsigned long long)r->val);
        break;
    case BK_PAST: snprintf(val, sizeof val, "%lld (one past the last)", (long long)r->val); break;
    default: snprintf(val, sizeof val, "%s", kind_name(cs->kind)); break;
    }
    snprintf(out, n, "%s(%s%s = %s)%s%s%s%s", r->fn, r->elem ? "*" : "", fn && r->arg < fn->nargs ? fn->args[r->arg] : "?", val,
             r->note ? " [" : "", r->note ? r->note : "", r->note ? "]" : "", r->null2 >= 0 ? " + another argument NULL" : "");
}

/* ------------------------------------------------------------------------------------------
 * Header parsing: the functions, their argument names and classes
 * ---------------------------------------------------------------------------------------- */
typedef struct {
    char name[96];
    int nargs;
    char cls[NARGS + 1];
    char args[NARGS][64];
} HdrFn;
static HdrFn HDR[64];
static int NHDR;

static char* read_file(const char* path) {
    FILE* f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char* s = (char*)malloc((size_t)n + 1);
    if (fread(s, 1, (size_t)n, f) != (size_t)n)
        n = 0;
    s[n] = 0;
    fclose(f);
    return s;
}

static void strip_comments(char* s) {
    for (char* p = s; *p; p++) {
        if (p[0] == '/' && p[1] == '*') {
            char* e = strstr(p + 2, "*/");
            char* end = e ? e + 2 : p + strlen(p);
            memset(p, ' ', (size_t)(end - p));
            p = end - 1;
        } else if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n')
                *p++ = ' ';
            if (!*p)
                break;
        }
    }
}

static char classify(const char* type) {
    if (strchr(type, '*'))
        return 'P';
    static const struct {
        const char* t;
        char c;
    } map[] = {{"hipdnnHandle_t", 'H'},
               {"hipdnnBackendDescriptor_t", 'D'},
               {"size_t", 'N'},
               {"int64_t", 'N'},
               {"hipStream_t", 'V'},
               {"hipdnnUserLogCallback_t", 'P'},
               {"hipdnnUserLogCallbackHandle_t", 'P'}};
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strstr(type, map[i].t) && strlen(strstr(type, map[i].t)) == strlen(map[i].t))
            return map[i].c;
    size_t n = strlen(type);
    if (n > 2 && strcmp(type + n - 2, "_t") == 0 && strncmp(type, "hipdnn", 6) == 0)
        return 'E';
    return '?';
}

static void trim(char* s) {
    char* b = s;
    while (*b == ' ' || *b == '\n' || *b == '\t' || *b == '\r')
        b++;
    memmove(s, b, strlen(b) + 1);
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\n' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        s[--n] = 0;
}

static int parse_header(const char* path) {
    char* s = read_file(path);
    if (!s) {
        fprintf(stderr, "cannot read %s\n", path);
        return 1;
    }
    strip_comments(s);
    const char* macros[] = {"HIPDNN_BACKEND_DEPRECATED_EXPORT", "HIPDNN_BACKEND_EXPORT"};
    char* p = s;
    for (;;) {
        char* best = NULL;
        size_t mlen = 0;
        for (int m = 0; m < 2; m++) {
            char* q = strstr(p, macros[m]);
            if (q && (!best || q < best))
                best = q, mlen = strlen(macros[m]);
        }
        if (!best)
            break;
        p = best + mlen;
        char* open = strchr(p, '(');
        char* close = open ? strchr(open, ')') : NULL;
        if (!open || !close || NHDR >= 64)
            break;
        HdrFn* h = &HDR[NHDR++];
        /* the name: the identifier before '(' */
        char* e = open;
        while (e > p && (e[-1] == ' ' || e[-1] == '\n'))
            e--;
        char* b = e;
        while (b > p
               && (b[-1] == '_' || (b[-1] >= 'a' && b[-1] <= 'z') || (b[-1] >= 'A' && b[-1] <= 'Z')
                   || (b[-1] >= '0' && b[-1] <= '9')))
            b--;
        snprintf(h->name, sizeof h->name, "%.*s", (int)(e - b), b);
        char params[2048];
        snprintf(params, sizeof params, "%.*s", (int)(close - open - 1), open + 1);
        trim(params);
        h->nargs = 0;
        if (strcmp(params, "void") != 0 && params[0]) {
            for (char* tok = strtok(params, ","); tok; tok = strtok(NULL, ",")) {
                char t[256];
                snprintf(t, sizeof t, "%s", tok);
                trim(t);
                char* nm = t + strlen(t);
                while (nm > t
                       && (nm[-1] == '_' || (nm[-1] >= 'a' && nm[-1] <= 'z') || (nm[-1] >= 'A' && nm[-1] <= 'Z')
                           || (nm[-1] >= '0' && nm[-1] <= '9')))
                    nm--;
                snprintf(h->args[h->nargs], sizeof h->args[0], "%s", nm);
                *nm = 0;
                trim(t);
                h->cls[h->nargs] = classify(t);
                h->nargs++;
            }
        }
        h->cls[h->nargs] = 0;
        p = close;
    }
    free(s);
    return 0;
}

static int parse_attr_names(const char* path) {
    char* s = read_file(path);
    if (!s) {
        fprintf(stderr, "cannot read %s\n", path);
        return 1;
    }
    strip_comments(s);
    for (char* p = strstr(s, "HIPDNN_ATTR_"); p && NATTR < 1024; p = strstr(p + 1, "HIPDNN_ATTR_")) {
        char* q = p;
        while (*q == '_' || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9'))
            q++;
        while (*q == ' ')
            q++;
        if (*q != '=')
            continue;
        ATTR_NAMES[NATTR++] = atoi(q + 1);
    }
    free(s);
    return NATTR > 0 ? 0 : 1;
}

/* The tables against the header: same functions, argument names and classes; a NULL row for
 * every pointer, a garbage row for every handle and descriptor, an out-of-range row for every
 * enum, a value row for every number. */
static int check_coverage(void) {
    int bad = 0;
    for (int i = 0; i < NHDR; i++) {
        const HdrFn* h = &HDR[i];
        const FnSpec* fn = find_fn(h->name);
        if (!fn) {
            fprintf(stderr, "coverage: %s is in the header but not in the sweep's function table\n", h->name);
            bad++;
            continue;
        }
        if (fn->nargs != h->nargs || strcmp(fn->cls, h->cls) != 0) {
            fprintf(stderr, "coverage: %s: table says %d args \"%s\", header %d args \"%s\"\n", h->name, fn->nargs, fn->cls,
                    h->nargs, h->cls);
            bad++;
            continue;
        }
        int has_base = 0;
        for (int r = 0; r < NROWS; r++)
            if (strcmp(ROWS[r].fn, h->name) == 0 && ROWS[r].arg < 0)
                has_base = 1;
        if (!has_base)
            fprintf(stderr, "coverage: %s has no valid-call row\n", h->name), bad++;
        for (int a = 0; a < h->nargs; a++) {
            if (strcmp(fn->args[a], h->args[a]) != 0) {
                fprintf(stderr, "coverage: %s argument %d is \"%s\" in the header, \"%s\" in the table\n", h->name, a, h->args[a],
                        fn->args[a]);
                bad++;
            }
            int need = 0, have = 0;
            for (int r = 0; r < NROWS; r++) {
                const Row* row = &ROWS[r];
                if (strcmp(row->fn, h->name) != 0 || row->arg != a || row->elem)
                    continue;
                switch (h->cls[a]) {
                case 'P': need = 1, have |= row->kind == BK_NULL; break;
                case 'H':
                case 'D': need = 1, have |= row->kind == BK_GARB; break;
                case 'E': need = 1, have |= row->kind == BK_ENUMS; break;
                case 'N': need = 1, have |= row->kind == BK_VAL || row->kind == BK_CUSTOM; break;
                }
            }
            if (h->cls[a] == 'P' || h->cls[a] == 'H' || h->cls[a] == 'D' || h->cls[a] == 'E' || h->cls[a] == 'N')
                need = 1;
            if (h->cls[a] == '?') {
                fprintf(stderr, "coverage: %s argument %s has a type the sweep cannot classify\n", h->name, h->args[a]);
                bad++;
            } else if (need && !have) {
                fprintf(stderr, "coverage: %s argument %d (%s, class %c) has no row\n", h->name, a, h->args[a], h->cls[a]);
                bad++;
            }
        }
    }
    for (int i = 0; i < NFNS; i++) {
        int found = 0;
        for (int j = 0; j < NHDR; j++)
            found |= strcmp(HDR[j].name, FNS[i].name) == 0;
        if (!found)
            fprintf(stderr, "coverage: %s is in the table but not in the header\n", FNS[i].name), bad++;
    }
    if (NHDR != 39)
        fprintf(stderr, "coverage: the header declares %d functions (39 expected)\n", NHDR), bad++;
    return bad;
}

/* ------------------------------------------------------------------------------------------
 * Running one case (child process)
 * ---------------------------------------------------------------------------------------- */
static uint64_t bad_value(BadKind k, char cls, const Row* r) {
    int handle = cls == 'H' || cls == 'h';
    switch (k) {
    case BK_NULL: return 0;
    case BK_ONE: return 1;
    case BK_DEADBEEF: return 0xdeadbeef;
    case BK_MINUS1: return UINT64_MAX;
    case BK_STACK: return U(&F.stack_probe);
    case BK_HEAP: return U(F.heap_probe);
    case BK_DESTROYED: return handle ? U(F.h_destroyed) : U(F.t_destroyed);
    case BK_TWICE: return handle ? U(F.h_twice) : U(F.t_twice);
    case BK_STALE: return handle ? U(F.h_stale) : U(F.t_stale);
    case BK_WRONGKIND: return handle ? U(F.t_fin) : U(F.h);
    case BK_TENSOR: return U(F.t_fin);
    case BK_GRAPH: return U(F.g.graph);
    case BK_PLAN: return U(F.g.plan);
    case BK_PACK: return U(F.g.pack);
    case BK_UNFIN_TENSOR: return U(F.t_unfin);
    case BK_UNFIN_PLAN: return U(F.plan_unfin);
    case BK_UNFIN_PACK: return U(F.pack_unfin);
    case BK_EMPTY_TENSOR: return U(F.t_empty);
    case BK_ORPHAN_PLAN: return U(F.orphan.plan);
    case BK_ORPHAN_GRAPH: return U(F.orphan.graph);
    case BK_I32NEG1: return (uint64_t)(uint32_t)-1;
    case BK_I32MIN: return (uint64_t)(uint32_t)INT32_MIN;
    case BK_I32MAX: return (uint64_t)INT32_MAX;
    case BK_PAST: return (uint64_t)(uint32_t)(int32_t)r->val;
    case BK_VAL:
        if (r->val == -2)
            return F.engine_count; /* placeholders: the index one past the last */
        if (r->val == -3)
            return F.policy_count;
        return (uint64_t)r->val;
    default: return 0;
    }
}

static char SENTINEL[HIPDNN_ERROR_STRING_MAX_LENGTH];

static void set_sentinel(void) {
    int64_t a, b, c;
    hipdnnGetComponentVersion_ext((hipdnnVersionKind_ext_t)12345, &a, &b, &c);
    hipdnnPeekLastErrorString_ext(SENTINEL, sizeof SENTINEL);
}

static void check_guards(Call* c, int st) {
    for (int i = 0; i < c->ng; i++) {
        Guard* g = &c->g[i];
        for (size_t j = 0; j < CANARY; j++) {
            if (g->mem[j] != 0xA5) {
                whyf(c, "wrote %zu byte(s) before the start of %s", CANARY - j, g->name);
                break;
            }
        }
        for (size_t j = CANARY; j > 0; j--) {
            if (g->mem[CANARY + g->n + j - 1] != 0xA5) {
                whyf(c, "overran %s (%zu bytes) by %zu byte(s)", g->name, g->n, j);
                break;
            }
        }
        int failed = st != S && st != EXP_VOID;
        if ((g->nowrite || (failed && g->keep_on_fail)) && memcmp(g->mem + CANARY, g->snap, g->n) != 0)
            whyf(c, "wrote into %s although %s", g->name, g->nowrite ? "nothing may be copied" : "the call failed");
    }
}

static int run_row_case(const Case* cs, Call* c) {
    const Row* r = cs->row;
    const FnSpec* fn = find_fn(r->fn);
    c->fn = fn, c->row = r;
    fn->setup(c);
    if (r->mut)
        r->mut(c);
    if (r->arg >= 0 && cs->kind != BK_NONE && cs->kind != BK_CUSTOM) {
        char cls = r->elem ? r->elem : fn->cls[r->arg];
        uint64_t v = bad_value(cs->kind, cls, r);
        if (r->elem)
            *(uint64_t*)PTR(r->arg) = v;
        else
            A(r->arg) = v;
    }
    if (r->null2 >= 0)
        A(r->null2) = 0;
    for (int i = 0; i < c->ng; i++)
        memcpy(c->g[i].snap, c->g[i].mem + CANARY, c->g[i].n);

    set_sentinel();
    int st = fn->invoke(c);
    char le[HIPDNN_ERROR_STRING_MAX_LENGTH];
    hipdnnPeekLastErrorString_ext(le, sizeof le);

    if (r->expect != EXP_VOID && st != r->expect)
        whyf(c, "returned %s (%d), want %s (%d); last error \"%.300s\"", hipdnnGetErrorString((hipdnnStatus_t)st), st,
             hipdnnGetErrorString((hipdnnStatus_t)r->expect), r->expect, le);
    check_guards(c, st);
    int failed = st != S && st != EXP_VOID;
    switch (fn->lasterr) {
    case LE_SETS:
        if (failed && (le[0] == 0 || strcmp(le, SENTINEL) == 0))
            whyf(c, "failed without setting the last error (last error \"%s\")", le);
        if (st == S && strcmp(le, SENTINEL) != 0 && strcmp(fn->name, "hipdnnCreate") != 0)
            whyf(c, "succeeded but changed the last error to \"%s\"", le);
        break;
    case LE_NEVER:
        if (strcmp(le, SENTINEL) != 0)
            whyf(c, "changed the last error (documented not to) to \"%s\"", le);
        break;
    case LE_READER: {
        int misuse = A(0) == 0 || SZ(1) == 0;
        int clears = fn->invoke == iv_getlast;
        if (misuse) {
            if (le[0] == 0 || strcmp(le, SENTINEL) == 0)
                whyf(c, "a NULL buffer or size 0 did not become the new last error");
        } else {
            if (clears && le[0] != 0)
                whyf(c, "did not clear the last error (now \"%s\")", le);
            if (!clears && strcmp(le, SENTINEL) != 0)
                whyf(c, "peek changed the last error to \"%s\"", le);
            size_t cap = SZ(1) < sizeof SENTINEL ? SZ(1) : sizeof SENTINEL;
            if (strncmp((char*)PTR(0), SENTINEL, cap - 1) != 0 || strlen((char*)PTR(0)) > cap - 1)
                whyf(c, "copied \"%s\", want the first %zu characters of \"%s\"", (char*)PTR(0), cap - 1, SENTINEL);
        }
        break;
    }
    }
    if (r->post && (st == r->expect || r->expect == EXP_VOID) && !c->why[0]) {
        const char* m = r->post(c, st);
        if (m)
            whyf(c, "%s", m);
    }
    if (fn->cleanup)
        fn->cleanup(c, st);
    cl_made_d(c);
    tu_clear_last_error();
    return st;
}

static const int GET_ALLOWED[] = {S, NI, NF, NS, BP, HIPDNN_STATUS_PLUGIN_ERROR};
static long getsweep_calls, getsweep_success;

/* One guarded read; sizequery passes requested 0 (the array must stay untouched). Returns the
 * status and, for a size query, the count in *avail. */
static int one_get(Call* c, hipdnnBackendDescriptor_t d, int name, int t, int64_t k, int sizequery, int64_t* avail, char* first,
                   size_t nfirst) {
    gfree(c);
    c->why[0] = 0;
    int64_t* cnt = (int64_t*)gnew(c, 8, "*elementCount", 1);
    size_t nbytes = type_size(t) * (size_t)(sizequery ? 1 : k);
    void* buf = gnew(c, nbytes, "arrayOfElements", 1);
    if (sizequery)
        c->g[1].nowrite = 1;
    for (int i = 0; i < c->ng; i++)
        memcpy(c->g[i].snap, c->g[i].mem + CANARY, c->g[i].n);
    set_sentinel();
    int st = hipdnnBackendGetAttribute(d, (hipdnnBackendAttributeName_t)name, (hipdnnBackendAttributeType_t)t, sizequery ? 0 : k,
                                       cnt, buf);
    getsweep_calls++, getsweep_success += st == S;
    char le[HIPDNN_ERROR_STRING_MAX_LENGTH];
    hipdnnPeekLastErrorString_ext(le, sizeof le);
    int allowed = 0;
    for (size_t i = 0; i < sizeof GET_ALLOWED / sizeof GET_ALLOWED[0]; i++)
        allowed |= st == GET_ALLOWED[i];
    if (!allowed)
        whyf(c, "returned %s (%d); last error \"%.300s\"", hipdnnGetErrorString((hipdnnStatus_t)st), st, le);
    check_guards(c, st);
    if (st != S && (le[0] == 0 || strcmp(le, SENTINEL) == 0))
        whyf(c, "failed without setting the last error");
    if (st == S && strcmp(le, SENTINEL) != 0)
        whyf(c, "succeeded but changed the last error");
    if (st == S && sizequery)
        *avail = *cnt;
    if (st == S && !sizequery && t == HIPDNN_TYPE_BACKEND_DESCRIPTOR && name != HIPDNN_ATTR_ENGINEHEUR_RESULTS) {
        int64_t n = *cnt < k ? *cnt : k;
        for (int64_t i = 0; i < n; i++)
            if (hipdnnBackendDestroyDescriptor(((hipdnnBackendDescriptor_t*)buf)[i]) != S)
                whyf(c, "returned descriptor %lld cannot be destroyed", (long long)i);
    }
    if (c->why[0] && !first[0])
        snprintf(first, nfirst, "attributeType %d, %s %lld: %.900s", t, sizequery ? "size query" : "requested", (long long)k,
                 c->why);
    tu_clear_last_error();
    return st;
}

static void run_getsweep_case(const Case* cs, Call* c) {
    int f = cs->getsweep / 1000000, a = cs->getsweep % 1000000;
    hipdnnBackendDescriptor_t d = getfix(f);
    int name = getsweep_name(a);
    char first[sizeof c->why] = "";
    for (size_t ti = 0; ti < sizeof GET_TYPES / sizeof GET_TYPES[0]; ti++) {
        int t = GET_TYPES[ti];
        int64_t avail = -1;
        one_get(c, d, name, t, 0, 1, &avail, first, sizeof first);
        one_get(c, d, name, t, 1, 0, NULL, first, sizeof first);
        one_get(c, d, name, t, 3, 0, NULL, first, sizeof first);
        if (avail > 1 && avail != 3 && avail <= 65536)
            one_get(c, d, name, t, avail, 0, NULL, first, sizeof first);
    }
    gfree(c);
    snprintf(c->why, sizeof c->why, "%s", first);
}

/* The checks themselves must be able to fail: an overrun, an underrun and a write into an
 * output of a failed call are each detected. */
static int selftest(void) {
    Call c;
    int bad = 0;
    memset(&c, 0, sizeof c);
    unsigned char* b = (unsigned char*)gnew(&c, 4, "probe", 1);
    memcpy(c.g[0].snap, b, 4);
    b[4] = 0;
    check_guards(&c, S);
    bad += strstr(c.why, "overran probe") == NULL;
    b[4] = 0xA5, b[-1] = 0, c.why[0] = 0;
    check_guards(&c, S);
    bad += strstr(c.why, "before the start of probe") == NULL;
    b[-1] = 0xA5, b[0] = 1, c.why[0] = 0;
    check_guards(&c, BP);
    bad += strstr(c.why, "although the call failed") == NULL;
    gfree(&c);
    if (bad)
        fprintf(stderr, "selftest: the canary checks do not detect %d planted fault(s)\n", bad);
    return bad;
}

static int child_main(int from, int fd) {
    signal(SIGPIPE, SIG_IGN);
    if (selftest() != 0) {
        dprintf(fd, "SETUPFAIL\n");
        return 2;
    }
    if (setup_fixtures() != 0) {
        dprintf(fd, "SETUPFAIL\n");
        return 2;
    }
    for (int i = from; i < NCASES; i++) {
        Call c;
        memset(&c, 0, sizeof c);
        dprintf(fd, "B %d\n", i);
        alarm(30);
        int st = EXP_VOID;
        if (CASES[i].getsweep >= 0)
            run_getsweep_case(&CASES[i], &c);
        else
            st = run_row_case(&CASES[i], &c);
        alarm(0);
        gfree(&c);
        /* the reason travels on one line */
        for (char* p = c.why; *p; p++)
            if (*p == '\n')
                *p = ' ';
        dprintf(fd, "E %d %d %s\n", i, st, c.why[0] ? c.why : "-");
    }
    dprintf(fd, "STATS %ld %ld\n", getsweep_calls, getsweep_success);
    int rc = verify_fixtures();
    dprintf(fd, rc ? "VERIFYFAIL\n" : "DONE\n");
    return rc;
}

/* ------------------------------------------------------------------------------------------
 * Parent: run children until every case has a result
 * ---------------------------------------------------------------------------------------- */
typedef struct {
    int done, st;
    char* why; /* NULL: passed */
    int crashed;
} Result;

static char* next_line(FILE* f) {
    static char* line = NULL;
    static size_t cap = 0;
    ssize_t n = getline(&line, &cap, f);
    if (n <= 0)
        return NULL;
    if (line[n - 1] == '\n')
        line[n - 1] = 0;
    return line;
}

int main(int argc, char** argv) {
    if (parse_header(HIPDNN_SOURCE_DIR "/include/hipdnn_backend.h") != 0
        || parse_attr_names(HIPDNN_SOURCE_DIR "/include/HipdnnBackendAttributeName.h") != 0)
        return 1;
    build_cases();
    if (argc == 4 && strcmp(argv[1], "--child") == 0)
        return child_main(atoi(argv[2]), atoi(argv[3]));

    int bad = check_coverage();
    char self_exe[4096];
    ssize_t nexe = readlink("/proc/self/exe", self_exe, sizeof self_exe - 1);
    if (nexe <= 0)
        return perror("readlink /proc/self/exe"), 1;
    self_exe[nexe] = 0;
    Result* res = (Result*)calloc((size_t)NCASES, sizeof(Result));
    int from = 0, children = 0, verify_failed = 0;
    long gs_calls = 0, gs_success = 0;
    while (from < NCASES) {
        int fds[2];
        if (pipe(fds) != 0)
            return perror("pipe"), 1;
        char a1[32], a2[32];
        snprintf(a1, sizeof a1, "%d", from);
        snprintf(a2, sizeof a2, "%d", fds[1]);
        char* args[] = {argv[0], (char*)"--child", a1, a2, NULL};
        pid_t pid;
        if (posix_spawn(&pid, self_exe, NULL, NULL, args, environ) != 0)
            return perror("posix_spawn"), 1;
        children++;
        close(fds[1]);
        FILE* in = fdopen(fds[0], "r");
        int running = -1, setupfail = 0, finished = 0;
        for (char* l; (l = next_line(in));) {
            if (l[0] == 'B') {
                running = atoi(l + 2);
            } else if (l[0] == 'E') {
                int idx, st, off = 0;
                if (sscanf(l, "E %d %d %n", &idx, &st, &off) >= 2 && idx >= 0 && idx < NCASES) {
                    res[idx].done = 1, res[idx].st = st;
                    if (strcmp(l + off, "-") != 0)
                        res[idx].why = strdup(l + off);
                }
                running = -1;
            } else if (strncmp(l, "STATS ", 6) == 0) {
                long a = 0, b = 0;
                sscanf(l + 6, "%ld %ld", &a, &b);
                gs_calls += a, gs_success += b;
            } else if (strcmp(l, "SETUPFAIL") == 0) {
                setupfail = 1;
            } else if (strcmp(l, "DONE") == 0 || strcmp(l, "VERIFYFAIL") == 0) {
                finished = 1, verify_failed = l[0] == 'V';
            }
        }
        fclose(in);
        int status = 0;
        waitpid(pid, &status, 0);
        if (setupfail) {
            fprintf(stderr, "the child could not build its fixtures\n");
            return 1;
        }
        if (finished)
            break;
        if (running < 0) {
            fprintf(stderr, "child exited (status %#x) outside any case\n", status);
            return 1;
        }
        char what[64];
        if (WIFSIGNALED(status))
            snprintf(what, sizeof what, "%s (signal %d)", WTERMSIG(status) == SIGALRM ? "HANG" : "CRASH", WTERMSIG(status));
        else
            snprintf(what, sizeof what, "EXIT (status %d)", WEXITSTATUS(status));
        res[running].done = 1, res[running].crashed = 1, res[running].why = strdup(what);
        from = running + 1;
    }

    /* The verified table. */
    int passed = 0, failed = 0, crashed = 0;
    printf("%-6s | %s\n", "result", "call -> status");
    for (int i = 0; i < NCASES; i++) {
        char d[1024];
        describe(&CASES[i], d, sizeof d);
        const Row* r = CASES[i].row;
        if (!res[i].done) {
            printf("NOTRUN | %s\n", d);
            failed++;
            continue;
        }
        if (res[i].crashed) {
            printf("%-6s | %s\n", "CRASH", d);
            fprintf(stderr, "FAIL: %s: %s\n", d, res[i].why);
            crashed++;
            continue;
        }
        const char* want = r == NULL               ? "SUCCESS or a documented failure"
                           : r->expect == EXP_VOID ? "(void / string)"
                                                   : hipdnnGetErrorString((hipdnnStatus_t)r->expect);
        if (res[i].why) {
            printf("%-6s | %s -> want %s\n", "FAIL", d, want);
            fprintf(stderr, "FAIL: %s: %s\n", d, res[i].why);
            failed++;
        } else {
            if (r)
                printf("%-6s | %s -> %s\n", "ok", d, want);
            passed++;
        }
    }
    printf("misuse sweep: %d cases (%d table rows over %d functions, %d GetAttribute sweep cases); %d passed, %d failed, "
           "%d crashed/hung; %d child process(es)\n",
           NCASES, NROWS, NFNS, NGETFIX * (NATTR + 3), passed, failed, crashed, children);
    printf("GetAttribute sweep (in the last child): %ld calls, %ld succeeded\n", gs_calls, gs_success);
    if (verify_failed)
        fprintf(stderr, "FAIL: the fixtures did not survive the sweep intact\n");
    for (int i = 0; i < NCASES; i++)
        free(res[i].why);
    free(res);
    return bad || failed || crashed || verify_failed ? 1 : 0;
}
