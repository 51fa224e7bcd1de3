/* Soak: nothing leaks. After a warm-up, the process creates and destroys
 *   - SCALE x 10^6 descriptors of mixed kinds: every creatable kind empty, finalized tensors and
 *     pointwise operations, descriptors returned by hipdnnBackendGetAttribute, graphs made by
 *     deserialization, plus failing calls (garbage handles, unknown attributes) on the way;
 *   - SCALE x 10^4 handles;
 *   - SCALE x 10^4 graph + plan + variant pack builds, each executed on the CPU engine and
 *     checked (every 8th also serialized, its plan deserialized and executed again),
 * sampling the resident set (/proc/self/statm) after the warm-up, at every 10% and at the end.
 *
 * Bounds, and why:
 *   - total growth after the warm-up <= 32 MiB. The Go heap may grow to twice its live size
 *     before a collection (GOGC=100) and the runtime returns freed pages lazily; the live heap
 *     here is a few MiB. The registry keeps the 16384 most recently destroyed tokens in
 *     quarantine (~150 bytes each with their 1-byte C allocation: ~2.5 MiB), full after the
 *     warm-up. malloc arenas of the C side and the plugin add a few MiB. A leak of 40 bytes per
 *     object over 10^6 objects already exceeds the bound.
 *   - growth over the second half <= 8 MiB: a healthy run plateaus, a leak grows linearly.
 * The numbers are printed. Default SCALE 1 (the full 10^6 / 10^4 / 10^4, 5-10 s here);
 * `test_soak --scale N` runs N times more (the soak-full test, see test_soak.cmake). */
#define _GNU_SOURCE
#include <time.h>
#include <unistd.h>

#include "descriptor_kinds.h"
#include "sweep/fixture.h"

#define GROWTH_BOUND_MIB 32.0
#define SECOND_HALF_BOUND_MIB 8.0

static long failures;
static long desc_made, handles_made, executions;

#define FAILF(...)                        \
    do {                                  \
        if (++failures <= 20) {           \
            fprintf(stderr, "FAIL: ");    \
            fprintf(stderr, __VA_ARGS__); \
            fprintf(stderr, "\n");        \
        }                                 \
    } while (0)

#define OK(call)                                                                                      \
    do {                                                                                              \
        hipdnnStatus_t st_ = (call);                                                                  \
        if (st_ != HIPDNN_STATUS_SUCCESS) {                                                           \
            char le_[512];                                                                            \
            hipdnnGetLastErrorString(le_, sizeof le_);                                                \
            FAILF("%s:%d: %s -> %s (%s)", __FILE__, __LINE__, #call, hipdnnGetErrorString(st_), le_); \
        }                                                                                             \
    } while (0)

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double rss_mib(void) {
    long size = 0, resident = 0;
    FILE* f = fopen("/proc/self/statm", "r");
    if (!f || fscanf(f, "%ld %ld", &size, &resident) != 2)
        FAILF("cannot read /proc/self/statm");
    if (f)
        fclose(f);
    return (double)resident * (double)sysconf(_SC_PAGESIZE) / (1024.0 * 1024.0);
}

/* Every kind the header does not mark "enum only" (descriptor_kinds.h, generated from it). */
#define KIND_ELEMENT(k) k,
static const hipdnnBackendDescriptorType_t creatable[] = {HIPDNN_CREATABLE_KINDS(KIND_ELEMENT)};
#define NKINDS ((int)(sizeof creatable / sizeof creatable[0]))

static uint8_t* graph_bytes;
static size_t graph_bytes_n;

static void destroy_d(hipdnnBackendDescriptor_t d) { OK(hipdnnBackendDestroyDescriptor(d)); }

/* One round of the descriptor workload: 33 empty kinds, 2 finalized tensors, a finalized
 * pointwise op, 2 descriptors read back from the op, a deserialized graph, plus 3 failing calls.
 * Returns the number of descriptor handles it created and destroyed. */
static long descriptor_round(long r) {
    long made = 0;
    for (int k = 0; k < NKINDS; k++) {
        hipdnnBackendDescriptor_t d = NULL;
        OK(hipdnnBackendCreateDescriptor(creatable[k], &d));
        destroy_d(d), made++;
    }
    fx_err e = {{0}, HIPDNN_STATUS_SUCCESS};
    hipdnnBackendDescriptor_t a = NULL, b = NULL, op = NULL;
    if (fx_tensor(&e, &a, 1, 1, 2, 3, 4, false) != HIPDNN_STATUS_SUCCESS
        || fx_tensor(&e, &b, 2, 1, 2, 3, 4, r % 2 == 0) != HIPDNN_STATUS_SUCCESS
        || fx_pointwise(&e, &op, HIPDNN_POINTWISE_RELU_FWD, a, NULL, b) != HIPDNN_STATUS_SUCCESS) {
        FAILF("%s", e.text);
        return made;
    }
    made += 3;
    hipdnnBackendDescriptor_t got = NULL;
    OK(hipdnnBackendGetAttribute(op, HIPDNN_ATTR_OPERATION_POINTWISE_IN_0_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, NULL, &got));
    destroy_d(got), made++;
    OK(hipdnnBackendGetAttribute(op, HIPDNN_ATTR_OPERATION_POINTWISE_OUT_0_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, NULL, &got));
    destroy_d(got), made++;
    /* the op keeps its tensors: destroy the caller's handles first, the op last */
    destroy_d(a), destroy_d(b), destroy_d(op);
    hipdnnBackendDescriptor_t g = NULL;
    OK(hipdnnBackendCreateAndDeserializeGraph_ext(&g, graph_bytes, graph_bytes_n));
    destroy_d(g), made++;
    /* error paths allocate messages too */
    int64_t v = 0;
    char le[64];
    if (hipdnnBackendFinalize((hipdnnBackendDescriptor_t)(uintptr_t)0xdeadbeef) != HIPDNN_STATUS_BAD_PARAM)
        FAILF("garbage finalize");
    if (hipdnnBackendGetAttribute(g, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, NULL, &v) != HIPDNN_STATUS_BAD_PARAM)
        FAILF("get on a destroyed graph");
    if (hipdnnGetEngineCount_ext((hipdnnHandle_t)(uintptr_t)1, NULL) == HIPDNN_STATUS_SUCCESS)
        FAILF("garbage engine count");
    hipdnnGetLastErrorString(le, sizeof le);
    return made;
}

static long handle_round(void) {
    hipdnnHandle_t h = NULL;
    size_t n = 0;
    char le[64];
    OK(hipdnnCreate(&h));
    hipdnnGetLastErrorString(le, sizeof le);
    OK(hipdnnGetEngineCount_ext(h, &n));
    if (n == 0)
        FAILF("a fresh handle has no engines");
    OK(hipdnnSetStream(h, NULL));
    OK(hipdnnDestroy(h));
    return 1;
}

/* One graph: build, execute, check; GetAttribute-returned descriptors; every 8th round the plan
 * is serialized, deserialized and executed again. Returns the descriptor handles it made. */
static long graph_round(hipdnnHandle_t h, long r) {
    fx_err e = {{0}, HIPDNN_STATUS_SUCCESS};
    fx_conv f;
    long made = 0;
    if (fx_conv_build(&e, &f, h, 1, 2, 4, 4, 2, (unsigned)r) != HIPDNN_STATUS_SUCCESS) {
        FAILF("%s", e.text);
        return 0;
    }
    made += 14;
    if (fx_conv_run_check(&e, &f, h) != HIPDNN_STATUS_SUCCESS)
        FAILF("%s", e.text);
    executions++;
    hipdnnBackendDescriptor_t ops[3] = {NULL, NULL, NULL}, eng = NULL;
    int64_t n = 0;
    OK(hipdnnBackendGetAttribute(f.graph, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 3, &n, ops));
    for (int i = 0; i < 3; i++)
        if (ops[i])
            destroy_d(ops[i]), made++;
    OK(hipdnnBackendGetAttribute(f.cfg, HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, NULL, &eng));
    if (eng)
        destroy_d(eng), made++;
    if (r % 8 == 0) {
        size_t sz = 0;
        OK(hipdnnBackendGetSerializedExecutionPlan_ext(f.plan, 0, &sz, NULL));
        uint8_t* blob = (uint8_t*)malloc(sz ? sz : 1);
        OK(hipdnnBackendGetSerializedExecutionPlan_ext(f.plan, sz, &sz, blob));
        hipdnnBackendDescriptor_t plan2 = NULL;
        OK(hipdnnBackendCreateAndDeserializeExecutionPlan_ext(h, &plan2, blob, sz));
        free(blob);
        if (plan2) {
            made++;
            hipdnnBackendDescriptor_t keep = f.plan;
            f.plan = plan2;
            if (fx_conv_run_check(&e, &f, h) != HIPDNN_STATUS_SUCCESS)
                FAILF("deserialized plan: %s", e.text);
            executions++;
            f.plan = keep;
            destroy_d(plan2);
        }
    }
    if (fx_conv_destroy(&f) != HIPDNN_STATUS_SUCCESS)
        FAILF("destroying a graph fixture");
    return made;
}

typedef struct {
    long descriptors, handles, graphs;
} Work;

/* Runs the three workloads interleaved, in `steps` equal slices, sampling RSS after each. */
static double t_desc, t_handle, t_graph; /* seconds spent in each workload */
static long graph_desc; /* descriptors made by the graph workload */

static void run(hipdnnHandle_t h, Work total, int steps, double* rss, double* secs) {
    double t0 = now();
    long d = 0, hs = 0, g = 0, r = 0;
    for (int s = 1; s <= steps; s++) {
        long dt = total.descriptors * s / steps, ht = total.handles * s / steps, gt = total.graphs * s / steps;
        while (d < dt || hs < ht || g < gt) {
            double a = now(), b, c, e;
            if (d < dt)
                d += descriptor_round(r);
            b = now();
            if (hs < ht)
                hs += handle_round();
            c = now();
            if (g < gt) {
                long m = graph_round(h, g);
                d += m, graph_desc += m, g++;
            }
            e = now();
            t_desc += b - a, t_handle += c - b, t_graph += e - c;
            r++;
        }
        if (rss)
            rss[s] = rss_mib();
    }
    desc_made += d, handles_made += hs;
    if (secs)
        *secs = now() - t0;
}

int main(int argc, char** argv) {
    long scale = 1;
    if (argc == 3 && strcmp(argv[1], "--scale") == 0)
        scale = atol(argv[2]);
    if (scale < 1)
        scale = 1;
    hipdnnHandle_t h = NULL;
    OK(hipdnnCreate(&h));
    {
        fx_err e = {{0}, HIPDNN_STATUS_SUCCESS};
        fx_conv f;
        if (fx_conv_build(&e, &f, h, 1, 2, 4, 4, 2, 1) != HIPDNN_STATUS_SUCCESS) {
            fprintf(stderr, "setup: %s\n", e.text);
            return 1;
        }
        OK(hipdnnBackendGetSerializedBinaryGraph_ext(f.graph, 0, &graph_bytes_n, NULL));
        graph_bytes = (uint8_t*)malloc(graph_bytes_n);
        OK(hipdnnBackendGetSerializedBinaryGraph_ext(f.graph, graph_bytes_n, &graph_bytes_n, graph_bytes));
        fx_conv_destroy(&f);
    }

    /* Warm-up: 10% of the work (fills the registry quarantine, grows the Go heap and the
     * malloc arenas to their working size). */
    Work total = {1000000L * scale, 10000L * scale, 10000L * scale};
    Work warm = {total.descriptors / 10, total.handles / 10, total.graphs / 10};
    double warm_secs = 0;
    run(h, warm, 1, NULL, &warm_secs);
    double rss[11];
    rss[0] = rss_mib();
    desc_made = handles_made = graph_desc = 0;
    t_desc = t_handle = t_graph = 0;
    long exec_before = executions;
    double secs = 0;
    run(h, total, 10, rss, &secs);
    long execs = executions - exec_before;

    OK(hipdnnDestroy(h));
    free(graph_bytes);

    double growth = rss[10] - rss[0], second_half = rss[10] - rss[5];
    printf("test_soak (scale %ld): warm-up %.1f s, measured run %.1f s: %ld descriptors (%ld by the descriptor workload at "
           "%.0f/s, %ld by the graph workload), %ld handles (%.0f create+destroy/s), %ld graph+plan+pack builds with %ld "
           "executions (%.0f builds/s)\n",
           scale, warm_secs, secs, desc_made, desc_made - graph_desc, (double)(desc_made - graph_desc) / t_desc, graph_desc,
           handles_made, (double)handles_made / t_handle, total.graphs, execs, (double)total.graphs / t_graph);
    printf("RSS MiB after warm-up %.1f; at 10%%..100%%:", rss[0]);
    for (int i = 1; i <= 10; i++)
        printf(" %.1f", rss[i]);
    printf("\nRSS growth %.1f MiB (bound %.0f), over the second half %.1f MiB (bound %.0f)\n", growth, GROWTH_BOUND_MIB,
           second_half, SECOND_HALF_BOUND_MIB);
    if (desc_made < total.descriptors || handles_made < total.handles || execs < total.graphs)
        FAILF("the run did less work than planned");
    if (growth > GROWTH_BOUND_MIB)
        FAILF("RSS grew by %.1f MiB, more than %.0f MiB: a leak", growth, GROWTH_BOUND_MIB);
    if (second_half > SECOND_HALF_BOUND_MIB)
        FAILF("RSS grew by %.1f MiB over the second half, more than %.0f MiB: a leak", second_half, SECOND_HALF_BOUND_MIB);
    if (failures) {
        fprintf(stderr, "test_soak: %ld failure(s)\n", failures);
        return 1;
    }
    printf("test_soak: passed\n");
    return 0;
}
