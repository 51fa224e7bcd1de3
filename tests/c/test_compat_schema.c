/* Schema evolution through the C API (RFC 0005: within a major, schema fields are only
 * appended). The fixtures in internal/wire/testdata/evolution are graphs as a newer or an older
 * frontend could send them, made by flatc-generated C++ from the test-only schema variants in
 * schemas/evolution (the README there lists them):
 *   - unknown trailing fields and JSON keys are ignored and the rest reads exactly (the future
 *     graph runs on the CPU engine and matches a naive loop);
 *   - fields an older schema lacked take their defaults;
 *   - a binary graph holding an unknown node type, enum value, data type or value kind is an
 *     opaque graph (RFC 0005 §2, "gracefully fail to match"): it deserializes and finalizes,
 *     OPS lists the readable operations, serialization gives the writer's bytes, JSON and every
 *     change but the handle are NOT_SUPPORTED naming the unknown part; the engines of this
 *     project decline it (no heuristic results, the engine's error names the part); a plugin
 *     that accepts any graph (test_graph_recorder_plugin) is offered it and receives the
 *     writer's bytes; a plugin below the declared minimum version is not offered it;
 *   - in JSON the same unknown things are NOT_SUPPORTED with a message naming them, the out
 *     pointer stays NULL (JSON cannot carry an unknown table);
 *   - the reader-version guard (checklist item 40): a graph declaring a
 *     min_required_engine_api_version above the newest engine plugin API this build hosts is
 *     NOT_SUPPORTED naming both versions, 0.x and 1.x up to that maximum load;
 *   - every finalize stamps min_required_engine_api_version: 1.0.0 plain, 1.1.0 override
 *     shapes, 1.2.0 runtime pass-by-value, 1.3.0 alignment other than 16 or a ragged offset. */
#define _XOPEN_SOURCE 700 /* strdup */
#include <hipdnn_plugin_sdk/engine_api_version.h>

#include "plugin_testutil.h"

#define FIXTURES HIPDNN_SOURCE_DIR "/internal/wire/testdata/evolution/"
#define CPU_ENGINE_ID INT64_C(-7424244430098340505) /* HIPDNNGO_CPU_REFERENCE */

/* ---- files and descriptors ----------------------------------------------------------------- */

static uint8_t* read_fixture(const char* name, size_t* size) {
    char path[1024];
    snprintf(path, sizeof path, FIXTURES "%s", name);
    *size = 0;
    FILE* f = fopen(path, "rb");
    if (f == NULL) {
        CHECK_FAIL("cannot open %s", path);
        return NULL;
    }
    uint8_t* buf = NULL;
    size_t cap = 0, n = 0, got;
    do {
        if (n == cap) {
            cap = cap ? 2 * cap : 4096;
            buf = realloc(buf, cap);
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    fclose(f);
    *size = n;
    return buf;
}

static bool is_json(const char* name) {
    size_t n = strlen(name);
    return n > 5 && strcmp(name + n - 5, ".json") == 0;
}

/* Deserializes a fixture with the function its suffix calls for. */
static hipdnnStatus_t load(const char* name, hipdnnBackendDescriptor_t* out) {
    size_t n = 0;
    uint8_t* b = read_fixture(name, &n);
    if (b == NULL)
        return HIPDNN_STATUS_INTERNAL_ERROR;
    hipdnnStatus_t st = is_json(name) ? hipdnnBackendCreateAndDeserializeJsonGraph_ext(out, (const char*)b, n)
                                      : hipdnnBackendCreateAndDeserializeGraph_ext(out, b, n);
    free(b);
    return st;
}

/* Loads, binds the handle and finalizes a fixture that must be accepted. */
static hipdnnBackendDescriptor_t load_finalized(hipdnnHandle_t h, const char* name) {
    hipdnnBackendDescriptor_t g = NULL;
    hipdnnStatus_t st = load(name, &g);
    if (st != HIPDNN_STATUS_SUCCESS) {
        char msg[HIPDNN_ERROR_STRING_MAX_LENGTH];
        CHECK_FAIL("%s: %s (%s)", name, hipdnnGetErrorString(st), pt_take_error(msg, sizeof msg));
        return NULL;
    }
    pt_track(g);
    CHECK_OK(hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &h));
    CHECK_OK(hipdnnBackendFinalize(g));
    return g;
}

static char* json_of(hipdnnBackendDescriptor_t g) {
    size_t size = 0, again = 0;
    CHECK_OK(hipdnnBackendGetSerializedJsonGraph_ext(g, 0, &size, NULL));
    char* s = calloc(size + 1, 1);
    CHECK_OK(hipdnnBackendGetSerializedJsonGraph_ext(g, size, &again, s));
    return s;
}

static uint8_t* binary_of(hipdnnBackendDescriptor_t g, size_t* size) {
    size_t again = 0;
    *size = 0;
    CHECK_OK(hipdnnBackendGetSerializedBinaryGraph_ext(g, 0, size, NULL));
    uint8_t* b = calloc(*size + 1, 1);
    CHECK_OK(hipdnnBackendGetSerializedBinaryGraph_ext(g, *size, &again, b));
    return b;
}

/* ---- the engine API version a graph declares --------------------------------------------- */

typedef struct {
    int64_t major, minor, patch;
} version3;

static uint32_t u32(const uint8_t* p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint16_t u16(const uint8_t* p) { return (uint16_t)(p[0] | p[1] << 8); }

/* Graph.min_required_engine_api_version (slot 8, an inline 12-byte struct) read straight from
 * the flatbuffer the way a plugin's generated code does; {-1,-1,-1} when absent. */
static version3 binary_min_version(const uint8_t* b, size_t n) {
    version3 v = {-1, -1, -1};
    if (n < 8)
        return v;
    uint32_t table = u32(b);
    int32_t back = (int32_t)u32(b + table);
    size_t vt = (size_t)((int64_t)table - back);
    uint16_t vsize = u16(b + vt);
    const int slot = 8;
    if (4 + 2 * slot + 2 > vsize)
        return v;
    uint16_t off = u16(b + vt + 4 + 2 * slot);
    if (off == 0)
        return v;
    const uint8_t* p = b + table + off;
    v.major = u32(p), v.minor = u32(p + 4), v.patch = u32(p + 8);
    return v;
}

/* The same field from the JSON serialization. */
static version3 json_min_version(const char* js) {
    version3 v = {-1, -1, -1};
    const char* p = js ? strstr(js, "\"min_required_engine_api_version\"") : NULL;
    if (p == NULL)
        return v;
    const char* end = strchr(p, '}');
    const char* keys[3] = {"\"major\"", "\"minor\"", "\"patch\""};
    int64_t* dst[3] = {&v.major, &v.minor, &v.patch};
    for (int i = 0; i < 3; i++) {
        const char* k = strstr(p, keys[i]);
        long long x = -1;
        if (k && end && k < end && sscanf(k + strlen(keys[i]), " : %lld", &x) == 1)
            *dst[i] = x;
    }
    return v;
}

#define CHECK_VERSION(got, a, b, c)                                                                            \
    do {                                                                                                       \
        version3 cv_ = (got);                                                                                  \
        check_count++;                                                                                         \
        if (cv_.major != (a) || cv_.minor != (b) || cv_.patch != (c))                                          \
            CHECK_FAIL("%s = %lld.%lld.%lld, want %d.%d.%d", #got, (long long)cv_.major, (long long)cv_.minor, \
                    (long long)cv_.patch, (a), (b), (c));                                                      \
    } while (0)

static version3 hosted_max(void) {
    version3 v = {-1, -1, -1};
    CHECK_OK(hipdnnGetComponentVersion_ext(HIPDNN_VERSION_KIND_ENGINE_PLUGIN_API_MAX_EXT, &v.major, &v.minor, &v.patch));
    return v;
}

/* ---- 1. unknown things in JSON, and graphs above the guard, are NOT_SUPPORTED -------------- */

static void check_unknown(void) {
    version3 max = hosted_max();
    char maxs[64];
    snprintf(maxs, sizeof maxs, "up to %lld.%lld.%lld", (long long)max.major, (long long)max.minor, (long long)max.patch);
    const struct {
        const char* file;
        const char* needle[2];
    } cases[] = {
        {"future_node.json", {"unknown node type \"FutureOpAttributes\"", "node 1"}},
        {"future_datatype.json", {"unknown data type \"fp8_e3m4\"", "tensor"}},
        {"future_pointwise_mode.json", {"\"hardswish_fwd\"", "node 0"}},
        {"future_conv_mode.json", {"\"DEFORMABLE\"", "node 0"}},
        {"future_value_kind.json", {"unknown value_type \"FutureInt8Value\"", "tensor"}},
        {"future_min_version.bin", {"min_required_engine_api_version is 1.5.0", maxs}},
        {"future_min_version.json", {"min_required_engine_api_version is 1.5.0", maxs}},
    };
    for (size_t i = 0; i < PT_COUNT(cases); i++) {
        hipdnnBackendDescriptor_t g = NULL;
        tu_clear_last_error();
        hipdnnStatus_t st = load(cases[i].file, &g);
        char msg[HIPDNN_ERROR_STRING_MAX_LENGTH];
        pt_take_error(msg, sizeof msg);
        check_count += 2;
        if (st != HIPDNN_STATUS_NOT_SUPPORTED)
            CHECK_FAIL("%s: %s (%d), want NOT_SUPPORTED; last error \"%s\"", cases[i].file, hipdnnGetErrorString(st), (int)st, msg);
        if (g != NULL) {
            CHECK_FAIL("%s: the out pointer was written on failure", cases[i].file);
            hipdnnBackendDestroyDescriptor(g);
        }
        for (int k = 0; k < 2; k++) {
            check_count++;
            if (strstr(msg, cases[i].needle[k]) == NULL)
                CHECK_FAIL("%s: last error \"%s\" does not contain \"%s\"", cases[i].file, msg, cases[i].needle[k]);
        }
    }
}

/* ---- 2. future trailing fields and keys are ignored, the rest reads exactly ---------------- */

/* conv (pad 1, stride 1, cross-correlation) + per-channel bias + relu on the future graph's
 * shapes: x [1,2,5,5], w [3,2,3,3], bias [1,3,1,1], y [1,3,5,5]. */
static void reference_cbr(const float* x, const float* w, const float* bias, float* y) {
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 5; i++)
            for (int j = 0; j < 5; j++) {
                double s = 0;
                for (int c = 0; c < 2; c++)
                    for (int r = 0; r < 3; r++)
                        for (int q = 0; q < 3; q++) {
                            int ii = i + r - 1, jj = j + q - 1;
                            if (ii < 0 || ii >= 5 || jj < 0 || jj >= 5)
                                continue;
                            s += (double)x[(c * 5 + ii) * 5 + jj] * w[((k * 2 + c) * 3 + r) * 3 + q];
                        }
                s += bias[k];
                y[(k * 5 + i) * 5 + j] = s > 0 ? (float)s : 0.0f;
            }
}

/* Runs a finalized graph on the CPU reference engine; ptrs follow uids. */
static bool run_on_cpu(hipdnnHandle_t h, hipdnnBackendDescriptor_t g, size_t n, const int64_t* uids, void* const* ptrs) {
    (void)h;
    if (!pt_has_engine(h, CPU_ENGINE_ID)) {
        CHECK_FAIL("the CPU reference engine is not loaded");
        return false;
    }
    hipdnnBackendDescriptor_t plan = pt_plan_for(g, CPU_ENGINE_ID);
    int64_t ws = pt_get_int64(plan, HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE);
    void* workspace = ws > 0 ? calloc((size_t)ws, 1) : NULL;
    hipdnnBackendDescriptor_t pack = pt_pack(n, uids, ptrs, workspace);
    hipdnnStatus_t st = hipdnnBackendExecute(h, plan, pack);
    CHECK_STATUS(HIPDNN_STATUS_SUCCESS, st);
    free(workspace);
    return st == HIPDNN_STATUS_SUCCESS;
}

static void check_future_fields(hipdnnHandle_t h) {
    hipdnnBackendDescriptor_t gb = load_finalized(h, "future_fields.bin");
    hipdnnBackendDescriptor_t gj = load_finalized(h, "future_fields.json");
    if (gb == NULL || gj == NULL)
        return;
    char* jb = json_of(gb);
    char* jj = json_of(gj);
    /* Same graph from both encodings, the graph's id kept, nothing from the future written. */
    CHECK_STREQ(jb, jj);
    CHECK(strstr(jb, "\"id\": \"00112233-4455-4677-8899-aabbccddeeff\"") != NULL);
    CHECK(strstr(jb, "\"name\": \"evolution_future_fields\"") != NULL);
    CHECK(strstr(jb, "\"future_") == NULL);
    CHECK_VERSION(json_min_version(jb), 1, 0, 0);
    free(jb);
    free(jj);

    /* The graph the known fields describe runs and matches the naive loop. Buffers come from
     * malloc: every tensor declares the default alignment, 16 bytes, which the host checks. */
    float* x = malloc(50 * sizeof(float));
    float* w = malloc(54 * sizeof(float));
    float* bias = malloc(3 * sizeof(float));
    float* y = malloc(75 * sizeof(float));
    float want[75];
    for (int i = 0; i < 50; i++)
        x[i] = (float)((i * 7) % 11) - 5.0f;
    for (int i = 0; i < 54; i++)
        w[i] = (float)((i * 5) % 7) * 0.25f - 0.75f;
    for (int i = 0; i < 3; i++)
        bias[i] = 0.5f * (float)i - 0.5f;
    for (int i = 0; i < 75; i++)
        y[i] = -99.0f;
    reference_cbr(x, w, bias, want);
    const int64_t uids[4] = {1, 2, 4, 6};
    void* ptrs[4] = {x, w, bias, y};
    if (run_on_cpu(h, gb, 4, uids, ptrs)) {
        int bad = 0;
        for (int i = 0; i < 75; i++) {
            double d = (double)y[i] - want[i];
            if (d < 0)
                d = -d;
            if (d > 1e-4 * (1.0 + (want[i] < 0 ? -want[i] : want[i])))
                bad++;
        }
        check_count++;
        if (bad)
            CHECK_FAIL("future_fields.bin on the CPU engine: %d of 75 outputs differ from the naive loop", bad);
    }
    free(x);
    free(w);
    free(bias);
    free(y);
}

/* ---- 3. fields a past schema lacked take their defaults ------------------------------------ */

static void check_past(hipdnnHandle_t h) {
    const char* pairs[2][2] = {{"past_sdpa.bin", "past_sdpa.json"}, {"past_pointwise.bin", "past_pointwise.json"}};
    hipdnnBackendDescriptor_t pointwise = NULL;
    for (int i = 0; i < 2; i++) {
        hipdnnBackendDescriptor_t gb = load_finalized(h, pairs[i][0]);
        hipdnnBackendDescriptor_t gj = load_finalized(h, pairs[i][1]);
        if (gb == NULL || gj == NULL)
            continue;
        if (i == 1)
            pointwise = gb;
        /* Finalize stamps what this build writes: 1.0.0 and a version-4 id (different per graph). */
        size_t n = 0;
        uint8_t* bin = binary_of(gb, &n);
        CHECK_VERSION(binary_min_version(bin, n), 1, 0, 0);
        free(bin);
        char* jb = json_of(gb);
        char* jj = json_of(gj);
        CHECK_VERSION(json_min_version(jb), 1, 0, 0);
        CHECK(strstr(jb, "\"id\": \"") != NULL);
        CHECK(strstr(jb, "\"alignment\"") == NULL); /* default 16, not written */
        CHECK(strstr(jb, "ragged") == NULL);
        if (i == 0) {
            CHECK(strstr(jb, "\"implementation\": \"AUTO\"") != NULL);
            CHECK(strstr(jb, "\"diagonal_alignment\": \"BOTTOM_RIGHT\"") != NULL);
            CHECK(strstr(jb, "\"attn_scale_value\": 0.125") != NULL);
        }
        /* Binary and JSON agree apart from the minted ids. */
        char* ib = strstr(jb, "\"id\": \"");
        char* ij = strstr(jj, "\"id\": \"");
        CHECK(ib && ij);
        if (ib && ij) {
            memset(ib, '-', 44);
            memset(ij, '-', 44);
            CHECK_STREQ(jb, jj);
        }
        free(jb);
        free(jj);
    }
    if (pointwise) {
        float* x = malloc(6 * sizeof(float));
        float* y = calloc(6, sizeof(float));
        for (int i = 0; i < 6; i++)
            x[i] = (float)((i % 2) ? -(i + 1) : (i + 1));
        const int64_t uids[2] = {1, 3};
        void* ptrs[2] = {x, y};
        if (run_on_cpu(h, pointwise, 2, uids, ptrs))
            for (int i = 0; i < 6; i++)
                CHECK(y[i] == 2 * x[i]);
        free(x);
        free(y);
    }
}

/* ---- 4. the reader-version guard --------------------------------------------------------- */

static hipdnnStatus_t load_with_version(int64_t major, int64_t minor, int64_t patch, char* msg, size_t n) {
    char text[2048];
    snprintf(text, sizeof text,
             "{\"min_required_engine_api_version\": {\"major\": %lld, \"minor\": %lld, \"patch\": %lld},"
             " \"name\": \"guard\", \"tensors\": [{\"uid\": 1, \"name\": \"x\", \"dims\": [2, 3], \"strides\": [3, 1],"
             " \"data_type\": \"float\"}, {\"uid\": 2, \"name\": \"y\", \"dims\": [2, 3], \"strides\": [3, 1],"
             " \"data_type\": \"float\"}], \"nodes\": [{\"name\": \"relu\", \"type\": \"PointwiseAttributes\","
             " \"compute_data_type\": \"float\", \"inputs\": {\"operation\": \"relu_fwd\", \"in_0_tensor_uid\": 1},"
             " \"outputs\": {\"out_0_tensor_uid\": 2}}]}",
             (long long)major, (long long)minor, (long long)patch);
    hipdnnBackendDescriptor_t g = NULL;
    tu_clear_last_error();
    hipdnnStatus_t st = hipdnnBackendCreateAndDeserializeJsonGraph_ext(&g, text, strlen(text));
    pt_take_error(msg, n);
    if (st == HIPDNN_STATUS_SUCCESS) {
        CHECK(g != NULL);
        if (g)
            CHECK_OK(hipdnnBackendDestroyDescriptor(g));
    } else {
        CHECK(g == NULL);
    }
    return st;
}

static void check_reader_version_guard(void) {
    version3 max = hosted_max();
    /* The hosted maximum is the SDK's engine API version. */
    CHECK_EQ_INT(max.major, HIPDNN_ENGINE_API_VERSION_MAJOR);
    CHECK_EQ_INT(max.minor, HIPDNN_ENGINE_API_VERSION_MINOR);
    CHECK_EQ_INT(max.patch, HIPDNN_ENGINE_API_VERSION_PATCH);
    const version3 ok[] = {{0, 0, 0}, {0, 7, 3}, {1, 0, 0}, {1, 2, 0}, {max.major, max.minor, max.patch}};
    const version3 bad[] = {
        {max.major, max.minor, max.patch + 1}, {max.major, max.minor + 1, 0}, {max.major + 1, 0, 0}, {4294967295LL, 0, 0}};
    char msg[HIPDNN_ERROR_STRING_MAX_LENGTH];
    for (size_t i = 0; i < PT_COUNT(ok); i++) {
        hipdnnStatus_t st = load_with_version(ok[i].major, ok[i].minor, ok[i].patch, msg, sizeof msg);
        check_count++;
        if (st != HIPDNN_STATUS_SUCCESS)
            CHECK_FAIL("a graph declaring %lld.%lld.%lld: %s (%s)", (long long)ok[i].major, (long long)ok[i].minor,
                    (long long)ok[i].patch, hipdnnGetErrorString(st), msg);
    }
    for (size_t i = 0; i < PT_COUNT(bad); i++) {
        hipdnnStatus_t st = load_with_version(bad[i].major, bad[i].minor, bad[i].patch, msg, sizeof msg);
        char need[64], have[64];
        snprintf(need, sizeof need, "%lld.%lld.%lld", (long long)bad[i].major, (long long)bad[i].minor, (long long)bad[i].patch);
        snprintf(have, sizeof have, "%lld.%lld.%lld", (long long)max.major, (long long)max.minor, (long long)max.patch);
        check_count += 3;
        if (st != HIPDNN_STATUS_NOT_SUPPORTED)
            CHECK_FAIL("a graph declaring %s: %s, want NOT_SUPPORTED", need, hipdnnGetErrorString(st));
        if (strstr(msg, need) == NULL)
            CHECK_FAIL("message \"%s\" does not name the graph's %s", msg, need);
        if (strstr(msg, have) == NULL)
            CHECK_FAIL("message \"%s\" does not name the hosted %s", msg, have);
    }
}

/* ---- 5. the version every finalize stamps ------------------------------------------------ */

/* relu(x) -> y where x has a ragged offset tensor uid (HIPDNN_ATTR_TENSOR_RAGGED_OFFSET_DESC as
 * INT64, the older frontend's form). */
static hipdnnBackendDescriptor_t ragged_graph(hipdnnHandle_t h) {
    const int64_t dims[2] = {2, 3};
    int64_t ragged = 9;
    hipdnnBackendDescriptor_t x = NULL, op = NULL;
    CHECK_OK(tu_tensor_open(&x, 1, HIPDNN_DATA_FLOAT, 2, dims));
    pt_track(x);
    CHECK_OK(hipdnnBackendSetAttribute(x, HIPDNN_ATTR_TENSOR_RAGGED_OFFSET_DESC, HIPDNN_TYPE_INT64, 1, &ragged));
    CHECK_OK(hipdnnBackendFinalize(x));
    hipdnnBackendDescriptor_t y = pt_tensor(2, 2, dims, HIPDNN_DATA_FLOAT, false, 0, false);
    CHECK_OK(tu_pointwise(&op, HIPDNN_POINTWISE_RELU_FWD, x, NULL, NULL, y, NULL));
    pt_track(op);
    return pt_finish_graph(h, 1, &op, false);
}

static void check_stamp(const char* what, hipdnnBackendDescriptor_t g, int major, int minor) {
    size_t n = 0;
    uint8_t* bin = binary_of(g, &n);
    version3 b = binary_min_version(bin, n);
    char* js = json_of(g);
    version3 j = json_min_version(js);
    check_count += 2;
    if (b.major != major || b.minor != minor || b.patch != 0)
        CHECK_FAIL("%s: binary graph declares %lld.%lld.%lld, want %d.%d.0", what, (long long)b.major, (long long)b.minor,
                (long long)b.patch, major, minor);
    if (j.major != major || j.minor != minor || j.patch != 0)
        CHECK_FAIL("%s: JSON graph declares %lld.%lld.%lld, want %d.%d.0", what, (long long)j.major, (long long)j.minor,
                (long long)j.patch, major, minor);
    /* What this build writes, this build reads. */
    hipdnnBackendDescriptor_t again = NULL;
    CHECK_OK(hipdnnBackendCreateAndDeserializeGraph_ext(&again, bin, n));
    if (again)
        CHECK_OK(hipdnnBackendDestroyDescriptor(again));
    free(bin);
    free(js);
}

static void check_stamps(hipdnnHandle_t h) {
    pt_graph_opts o = {0, false, false, HIPDNN_DATA_FLOAT, 0};
    check_stamp("plain", pt_pointwise_graph(h, &o), 1, 0);
    o.override_shape = true;
    check_stamp("override shapes", pt_pointwise_graph(h, &o), 1, 1);
    o.override_shape = false;
    o.pass_by_value = true;
    check_stamp("runtime pass-by-value", pt_pointwise_graph(h, &o), 1, 2);
    o.pass_by_value = false;
    o.alignment = 32;
    check_stamp("alignment 32", pt_pointwise_graph(h, &o), 1, 3);
    o.alignment = 16;
    check_stamp("alignment 16 (the default)", pt_pointwise_graph(h, &o), 1, 0);
    check_stamp("ragged offset", ragged_graph(h), 1, 3);
}

/* ---- 6. opaque graphs: a newer writer's binary graph gracefully fails to match ------------ */

static const struct {
    const char* file;
    const char* part; /* the unreadable part the messages must name */
    int64_t ops; /* operations this build can read (HIPDNN_ATTR_OPERATIONGRAPH_OPS) */
} opaque_cases[] = {
    {"future_node.bin", "node 1 (\"future_op\"): unknown node type tag 24", 1},
    {"future_datatype.bin", "tensor uid 1: unknown data type value 18", 0},
    {"future_pointwise_mode.bin", "node 0 (\"act\"): operation value 48 is not a known PointwiseMode", 0},
    {"future_conv_mode.bin", "node 0 (\"conv\"): conv_mode value 3 is not a known ConvMode", 0},
    {"future_value_kind.bin", "tensor uid 3: unknown tensor value type 9", 0},
};

/* With this project's engines (the handle's default plugins): each fixture deserializes and
 * finalizes, serializes to its writer's bytes, refuses changes and JSON naming the part; every
 * engine declines it, so the heuristic has no results and the CPU engine's error names it. */
static void check_opaque(hipdnnHandle_t h) {
    char msg[HIPDNN_ERROR_STRING_MAX_LENGTH];
    bool cpu = pt_has_engine(h, CPU_ENGINE_ID);
    CHECK(cpu);
    for (size_t i = 0; i < PT_COUNT(opaque_cases); i++) {
        const char* file = opaque_cases[i].file;
        const char* part = opaque_cases[i].part;
        size_t n = 0;
        uint8_t* src = read_fixture(file, &n);
        if (src == NULL)
            continue;
        hipdnnBackendDescriptor_t g = NULL;
        tu_clear_last_error();
        hipdnnStatus_t st = hipdnnBackendCreateAndDeserializeGraph_ext(&g, src, n);
        pt_take_error(msg, sizeof msg);
        check_count++;
        if (st != HIPDNN_STATUS_SUCCESS || g == NULL) {
            CHECK_FAIL("%s: %s (%s), want an opaque graph", file, hipdnnGetErrorString(st), msg);
            free(src);
            continue;
        }
        pt_track(g);
        int64_t nops = -1;
        CHECK_OK(hipdnnBackendGetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0, &nops, NULL));
        CHECK_EQ_INT(nops, opaque_cases[i].ops);

        /* Every change but the handle would need a re-encoding: NOT_SUPPORTED, naming why. */
        tu_clear_last_error();
        CHECK_STATUS(HIPDNN_STATUS_NOT_SUPPORTED,
                     hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_NAME_EXT, HIPDNN_TYPE_CHAR, 7, "renamed"));
        pt_take_error(msg, sizeof msg);
        CHECK_CONTAINS(msg, part);
        CHECK_CONTAINS(msg, "cannot re-encode");
        int64_t preferred = CPU_ENGINE_ID;
        CHECK_STATUS(HIPDNN_STATUS_NOT_SUPPORTED, hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_PREFERRED_ENGINE_ID_EXT,
                                                                            HIPDNN_TYPE_INT64, 1, &preferred));
        tu_clear_last_error();

        CHECK_OK(hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &h));
        CHECK_OK(hipdnnBackendFinalize(g));
        size_t m = 0;
        uint8_t* out = binary_of(g, &m);
        check_count++;
        if (m != n || memcmp(out, src, n) != 0)
            CHECK_FAIL("%s: serialization (%zu bytes) is not the writer's %zu bytes", file, m, n);
        free(out);

        /* JSON cannot carry what this build cannot read. */
        size_t size = 0;
        tu_clear_last_error();
        CHECK_STATUS(HIPDNN_STATUS_NOT_SUPPORTED, hipdnnBackendGetSerializedJsonGraph_ext(g, 0, &size, NULL));
        pt_take_error(msg, sizeof msg);
        CHECK_CONTAINS(msg, part);

        /* Our engines decline it: no heuristic results, and not applicable rather than an error. */
        hipdnnBackendDescriptor_t hd = NULL;
        CHECK_OK(pt_heur(g, -1, NULL, &hd));
        int64_t count = -1;
        CHECK_OK(hipdnnBackendGetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0, &count, NULL));
        CHECK_EQ_INT(count, 0);
        if (cpu) {
            tu_clear_last_error();
            pt_engine(g, CPU_ENGINE_ID, &st);
            pt_take_error(msg, sizeof msg);
            CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM, st);
            CHECK_CONTAINS(msg, part);
        }
        free(src);
    }
}

/* Writes Graph.min_required_engine_api_version in place (the fixture must declare one). */
static bool patch_min_version(uint8_t* b, size_t n, uint32_t major, uint32_t minor, uint32_t patch) {
    if (binary_min_version(b, n).major < 0)
        return false;
    uint32_t table = u32(b);
    size_t vt = (size_t)((int64_t)table - (int32_t)u32(b + table));
    uint8_t* p = b + table + u16(b + vt + 4 + 2 * 8);
    const uint32_t v[3] = {major, minor, patch};
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 4; k++)
            p[4 * i + k] = (uint8_t)(v[i] >> (8 * k));
    return true;
}

/* A finalized graph from bytes (NULL, with a failed check, when it does not load). */
static hipdnnBackendDescriptor_t finalized_from(hipdnnHandle_t h, const uint8_t* b, size_t n) {
    hipdnnBackendDescriptor_t g = NULL;
    CHECK_OK(hipdnnBackendCreateAndDeserializeGraph_ext(&g, b, n));
    if (g == NULL)
        return NULL;
    pt_track(g);
    CHECK_OK(hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &h));
    CHECK_OK(hipdnnBackendFinalize(g));
    return g;
}

/* Whether the recorder's latest graph at entry point `at` is exactly want[0..n). */
static void check_recorded(hipdnnTestGraphRecorderGetLast_fn last, int32_t at, const uint8_t* want, size_t n, const char* what) {
    uint8_t* got = calloc(n + 64, 1);
    int64_t calls = 0;
    int64_t size = last(at, got, n + 64, &calls);
    check_count++;
    if (calls < 1)
        CHECK_FAIL("%s: the recorder plugin was never called at entry point %d", what, (int)at);
    else if (size != (int64_t)n || memcmp(got, want, n) != 0)
        CHECK_FAIL("%s: the plugin received %lld bytes that are not the writer's %zu", what, (long long)size, n);
    free(got);
}

/* A plugin that accepts any graph (standing for one built against a newer schema) is offered
 * an opaque graph and receives the writer's bytes at every entry point; a 1.0.0 plugin is not
 * offered it once the graph declares 1.3.0; the CPU engine, loaded next to them, declines. */
static void check_graph_recorder(const char* cpu_path) {
    const char* recorder = PT_CUSTOM("test_graph_recorder_plugin");
    const char* files[3] = {recorder, PT_CUSTOM("test_duplicate_id_a_plugin") /* 1.0.0, engine -7 */, cpu_path};
    pt_engine_paths(cpu_path ? 3 : 2, files);
    hipdnnHandle_t h = pt_create(NULL, 0);
    PT_FN(hipdnnTestGraphRecorderGetLast_fn, last, recorder, HIPDNN_TEST_GRAPH_RECORDER_GET_LAST);
    PT_FN(hipdnnTestGraphRecorderClear_fn, clear, recorder, HIPDNN_TEST_GRAPH_RECORDER_CLEAR);
    CHECK(last != NULL && clear != NULL);
    size_t n = 0;
    uint8_t* src = read_fixture("future_node.bin", &n);
    if (h == NULL || last == NULL || clear == NULL || src == NULL) {
        free(src);
        if (h)
            CHECK_OK(hipdnnDestroy(h));
        return;
    }
    /* Declared 1.0.0: offered to both test plugins. */
    clear();
    hipdnnBackendDescriptor_t g = finalized_from(h, src, n);
    int64_t ids[8];
    int k = pt_rank(g, -1, NULL, ids, 8);
    CHECK_EQ_INT(k, 2);
    for (int i = 0; i < k; i++)
        CHECK(ids[i] == -31 || ids[i] == -7);
    check_recorded(last, HIPDNN_TEST_GRAPH_AT_APPLICABLE, src, n, "GetApplicableEngineIds");
    hipdnnBackendDescriptor_t plan = pt_plan_for(g, -31);
    check_recorded(last, HIPDNN_TEST_GRAPH_AT_CREATE_CONTEXT, src, n, "CreateExecutionContext");
    int64_t calls = 0;
    if (last(HIPDNN_TEST_GRAPH_AT_ENGINE_DETAILS, NULL, 0, &calls) >= 0 && calls > 0)
        check_recorded(last, HIPDNN_TEST_GRAPH_AT_ENGINE_DETAILS, src, n, "GetEngineDetails");
    /* The plan runs (a no-op in the test plugin) with the graph's non-virtual tensors x and y. */
    void* mem = calloc(2 * 64, 1);
    uint8_t* base = (uint8_t*)(((uintptr_t)mem + 15) & ~(uintptr_t)15);
    const int64_t uids[2] = {1, 3};
    void* ptrs[2] = {base, base + 64};
    CHECK_OK(hipdnnBackendExecute(h, plan, pt_pack(2, uids, ptrs, NULL)));
    free(mem);

    /* A graph-and-plan container carries the writer's bytes, and loads as the same graph. */
    size_t boxn = 0, again = 0;
    CHECK_OK(hipdnnBackendGetSerializedBinaryGraphAndPlan_ext(g, NULL, 0, &boxn, NULL));
    uint8_t* box = calloc(boxn + 1, 1);
    CHECK_OK(hipdnnBackendGetSerializedBinaryGraphAndPlan_ext(g, NULL, boxn, &again, box));
    hipdnnBackendDescriptor_t fromBox = finalized_from(h, box, boxn);
    if (fromBox) {
        size_t m = 0;
        uint8_t* out = binary_of(fromBox, &m);
        CHECK(m == n && memcmp(out, src, n) == 0);
        free(out);
    }
    free(box);

    /* Declared 1.3.0: the 1.0.0 plugin is not offered it; the recorder gets these bytes. */
    uint8_t* v13 = malloc(n);
    memcpy(v13, src, n);
    CHECK(patch_min_version(v13, n, 1, 3, 0));
    clear();
    g = finalized_from(h, v13, n);
    k = pt_rank(g, -1, NULL, ids, 8);
    CHECK_IDS(k, ids, -31);
    check_recorded(last, HIPDNN_TEST_GRAPH_AT_APPLICABLE, v13, n, "GetApplicableEngineIds (1.3.0)");

    /* The reader-version guard still applies to an opaque graph. */
    version3 max = hosted_max();
    CHECK(patch_min_version(v13, n, (uint32_t)max.major, (uint32_t)max.minor + 1, 0));
    hipdnnBackendDescriptor_t bad = NULL;
    char msg[HIPDNN_ERROR_STRING_MAX_LENGTH];
    tu_clear_last_error();
    CHECK_STATUS(HIPDNN_STATUS_NOT_SUPPORTED, hipdnnBackendCreateAndDeserializeGraph_ext(&bad, v13, n));
    pt_take_error(msg, sizeof msg);
    CHECK(bad == NULL);
    CHECK_CONTAINS(msg, "min_required_engine_api_version is");
    free(v13);
    free(src);
    pt_release_all();
    CHECK_OK(hipdnnDestroy(h));
}

/* The loaded engine plugin file whose path ends with suffix (malloc'd), or NULL. */
static char* loaded_path(hipdnnHandle_t h, const char* suffix) {
    size_t n = 0, len = 0;
    char* found = NULL;
    if (hipdnnGetLoadedEnginePluginPaths_ext(h, &n, NULL, &len) != HIPDNN_STATUS_SUCCESS || n == 0)
        return NULL;
    char** bufs = calloc(n, sizeof(char*));
    for (size_t i = 0; i < n; i++)
        bufs[i] = calloc(len, 1);
    if (hipdnnGetLoadedEnginePluginPaths_ext(h, &n, bufs, &len) == HIPDNN_STATUS_SUCCESS)
        for (size_t i = 0; i < n && found == NULL; i++) {
            size_t a = strlen(bufs[i]), b = strlen(suffix);
            if (a >= b && strcmp(bufs[i] + a - b, suffix) == 0)
                found = strdup(bufs[i]);
        }
    for (size_t i = 0; i < n; i++)
        free(bufs[i]);
    free(bufs);
    return found;
}

int main(void) {
    hipdnnHandle_t h = NULL;
    CHECK_OK(hipdnnCreate(&h));
    if (h == NULL)
        return check_finish("test_compat_schema");
    check_unknown();
    check_future_fields(h);
    check_past(h);
    check_reader_version_guard();
    check_stamps(h);
    check_opaque(h);
    char* cpu_path = loaded_path(h, "/libhipdnngo_cpu_reference.so");
    pt_release_all();
    CHECK_OK(hipdnnDestroy(h));
    if (HIPDNN_TEST_PLUGIN_DIR[0] != '\0')
        check_graph_recorder(cpu_path);
    else
        printf("test_compat_schema: HIPDNN_TEST_PLUGIN_DIR not set, the recorder plugin checks are skipped\n");
    free(cpu_path);
    return check_finish("test_compat_schema");
}
