/* Knobs (items 44-45 of the engine side, spec backend_api.md §3.3, §3.4, §3.10, §3.11):
 *   - the knobs plugin (-8, -9): ENGINE_KNOB_INFO descriptors with every attribute, including
 *     the three-step VALID_VALUES_STRING protocol, KNOB_INFO_SERIALIZED_VALUE blobs, behaviour
 *     notes, and EngineDetails.name never naming the engine;
 *   - the knob-constraint plugin (-10): ENGINECFG knob settings given as KNOB_CHOICE descriptors
 *     and as serialized KnobSetting flatbuffers (KNOB_CHOICE_SERIALIZED_VALUE), accepted within
 *     the constraints (type, range, step, valid values) and rejected outside them with BAD_PARAM
 *     naming the knob. */
#include <math.h>

#include "plugin_testutil.h"

/* ---- a KnobSetting flatbuffer, laid out by hand ---------------------------------------------
 * KnobSetting { knob_id: string (slot 0); value_type: ubyte (slot 1); value: KnobValue (slot 2) }
 * IntValue { value: long }, FloatValue { value: double }, StringValue { value: string }.
 * Everything is placed at increasing offsets so every uoffset points forward. */
enum { KV_INT = 1, KV_FLOAT = 2, KV_STRING = 3 };

static void put16(uint8_t* b, size_t at, uint16_t v) { memcpy(b + at, &v, 2); }
static void put32(uint8_t* b, size_t at, uint32_t v) { memcpy(b + at, &v, 4); }
static size_t put_string(uint8_t* b, size_t at, const char* s) {
    size_t n = strlen(s);
    put32(b, at, (uint32_t)n);
    memcpy(b + at + 4, s, n + 1);
    at += 4 + n + 1;
    while (at % 4)
        b[at++] = 0;
    return at;
}

/* Writes the buffer into b (zeroed, 8-byte aligned, >= 256 bytes) and returns its size. */
static size_t knob_setting(uint8_t* b, const char* id, int type, int64_t iv, double dv, const char* sv) {
    memset(b, 0, 256);
    put32(b, 0, 16); /* root table at 16 */
    put16(b, 4, 10);
    put16(b, 6, 16); /* KnobSetting vtable at 4 */
    put16(b, 8, 4);
    put16(b, 10, 8);
    put16(b, 12, 12);
    put32(b, 16, 16 - 4); /* table -> vtable */
    b[24] = (uint8_t)type;
    put32(b, 28, 40 - 28); /* value -> value table at 40 */
    size_t next;
    if (type == KV_STRING) {
        put16(b, 32, 6);
        put16(b, 34, 8);
        put16(b, 36, 4); /* StringValue vtable */
        put32(b, 40, 40 - 32);
        next = 48;
    } else {
        put16(b, 32, 6);
        put16(b, 34, 16);
        put16(b, 36, 8); /* Int/FloatValue vtable */
        put32(b, 40, 40 - 32);
        if (type == KV_INT)
            memcpy(b + 48, &iv, 8);
        else
            memcpy(b + 48, &dv, 8);
        next = 56;
    }
    put32(b, 20, (uint32_t)(next - 20)); /* knob_id */
    next = put_string(b, next, id);
    if (type == KV_STRING) {
        put32(b, 44, (uint32_t)(next - 44));
        next = put_string(b, next, sv);
    }
    return next;
}

/* ---- knob info ------------------------------------------------------------------------------ */

static hipdnnBackendDescriptor_t find_knob(hipdnnBackendDescriptor_t* infos, int64_t n, const char* id) {
    for (int64_t i = 0; i < n; i++) {
        char buf[128];
        int64_t len = 0;
        if (hipdnnBackendGetAttribute(infos[i], HIPDNN_ATTR_KNOB_INFO_TYPE, HIPDNN_TYPE_CHAR, sizeof buf, &len, buf)
                == HIPDNN_STATUS_SUCCESS
            && strcmp(buf, id) == 0)
            return infos[i];
    }
    CHECK_FAIL("no knob %s", id);
    return NULL;
}

static int64_t knob_count(hipdnnBackendDescriptor_t k, hipdnnBackendAttributeName_t a, hipdnnBackendAttributeType_t t) {
    int64_t n = -1;
    CHECK_OK(hipdnnBackendGetAttribute(k, a, t, 0, &n, NULL));
    return n;
}

static void check_demo_a(hipdnnBackendDescriptor_t e) {
    int64_t n = -1;
    CHECK_OK(hipdnnBackendGetAttribute(e, HIPDNN_ATTR_ENGINE_KNOB_INFO, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0, &n, NULL));
    CHECK_EQ_INT(n, 3);
    hipdnnBackendDescriptor_t infos[3] = {NULL, NULL, NULL};
    CHECK_OK(hipdnnBackendGetAttribute(e, HIPDNN_ATTR_ENGINE_KNOB_INFO, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 3, &n, infos));
    CHECK_EQ_INT(n, 3);
    for (int i = 0; i < 3; i++)
        pt_track(infos[i]);
    /* knob descriptors are finalized: reading works, setting does not */
    hipdnnBackendDescriptor_t k = find_knob(infos, 3, "test.knobs.tile_size");
    if (k) {
        int64_t v = 0, cnt = 0;
        char desc[64];
        CHECK_OK(hipdnnBackendGetAttribute(k, HIPDNN_ATTR_KNOB_INFO_DEFAULT_VALUE_TYPE, HIPDNN_TYPE_INT64, 1, &cnt, &v));
        CHECK_EQ_INT(v, HIPDNN_TYPE_INT64);
        CHECK_OK(hipdnnBackendGetAttribute(k, HIPDNN_ATTR_KNOB_INFO_DEFAULT_VALUE, HIPDNN_TYPE_INT64, 1, &cnt, &v));
        CHECK_EQ_INT(v, 64);
        double dv = 0;
        CHECK_ERR(
            HIPDNN_STATUS_BAD_PARAM,
            "KnobDescriptor::getAttribute() failed: HIPDNN_ATTR_KNOB_INFO_DEFAULT_VALUE holds a HIPDNN_TYPE_INT64 value; read it as HIPDNN_TYPE_INT64",
            hipdnnBackendGetAttribute(k, HIPDNN_ATTR_KNOB_INFO_DEFAULT_VALUE, HIPDNN_TYPE_DOUBLE, 1, &cnt, &dv));
        CHECK_OK(hipdnnBackendGetAttribute(k, HIPDNN_ATTR_KNOB_INFO_MINIMUM_VALUE, HIPDNN_TYPE_INT64, 1, &cnt, &v));
        CHECK_EQ_INT(v, 16);
        CHECK_OK(hipdnnBackendGetAttribute(k, HIPDNN_ATTR_KNOB_INFO_MAXIMUM_VALUE, HIPDNN_TYPE_INT64, 1, &cnt, &v));
        CHECK_EQ_INT(v, 256);
        CHECK_OK(hipdnnBackendGetAttribute(k, HIPDNN_ATTR_KNOB_INFO_STRIDE, HIPDNN_TYPE_INT64, 1, &cnt, &v));
        CHECK_EQ_INT(v, 16);
        bool dep = true;
        CHECK_OK(hipdnnBackendGetAttribute(k, HIPDNN_ATTR_KNOB_INFO_DEPRECATED, HIPDNN_TYPE_BOOLEAN, 1, &cnt, &dep));
        CHECK(!dep);
        CHECK_OK(hipdnnBackendGetAttribute(k, HIPDNN_ATTR_KNOB_INFO_DESCRIPTION, HIPDNN_TYPE_CHAR, sizeof desc, &cnt, desc));
        CHECK_STREQ(desc, "tile edge in elements");
        v = 32;
        CHECK_ERR(HIPDNN_STATUS_NOT_INITIALIZED, "KnobDescriptor::setAttribute() failed: Already finalized.",
                  hipdnnBackendSetAttribute(k, HIPDNN_ATTR_KNOB_INFO_STRIDE, HIPDNN_TYPE_INT64, 1, &v));
    }
    k = find_knob(infos, 3, "test.knobs.alpha");
    if (k) {
        int64_t t = 0, cnt = 0;
        double v = -1;
        CHECK_OK(hipdnnBackendGetAttribute(k, HIPDNN_ATTR_KNOB_INFO_DEFAULT_VALUE_TYPE, HIPDNN_TYPE_INT64, 1, &cnt, &t));
        CHECK_EQ_INT(t, HIPDNN_TYPE_DOUBLE);
        CHECK_OK(hipdnnBackendGetAttribute(k, HIPDNN_ATTR_KNOB_INFO_DEFAULT_VALUE, HIPDNN_TYPE_DOUBLE, 1, &cnt, &v));
        CHECK(v == 0.5);
        CHECK_OK(hipdnnBackendGetAttribute(k, HIPDNN_ATTR_KNOB_INFO_MINIMUM_VALUE, HIPDNN_TYPE_DOUBLE, 1, &cnt, &v));
        CHECK(v == 0.0);
        CHECK_OK(hipdnnBackendGetAttribute(k, HIPDNN_ATTR_KNOB_INFO_MAXIMUM_VALUE, HIPDNN_TYPE_DOUBLE, 1, &cnt, &v));
        CHECK(v == 1.0);
        CHECK_EQ_INT(knob_count(k, HIPDNN_ATTR_KNOB_INFO_STRIDE, HIPDNN_TYPE_INT64), 0);
    }
    k = find_knob(infos, 3, "test.knobs.mode");
    if (k) {
        int64_t t = 0, cnt = 0;
        char s[32];
        CHECK_OK(hipdnnBackendGetAttribute(k, HIPDNN_ATTR_KNOB_INFO_DEFAULT_VALUE_TYPE, HIPDNN_TYPE_INT64, 1, &cnt, &t));
        CHECK_EQ_INT(t, HIPDNN_TYPE_CHAR);
        CHECK_OK(hipdnnBackendGetAttribute(k, HIPDNN_ATTR_KNOB_INFO_DEFAULT_VALUE, HIPDNN_TYPE_CHAR, sizeof s, &cnt, s));
        CHECK_STREQ(s, "fast");
        CHECK_OK(hipdnnBackendGetAttribute(k, HIPDNN_ATTR_KNOB_INFO_STRING_MAX_LENGTH, HIPDNN_TYPE_INT64, 1, &cnt, &t));
        CHECK_EQ_INT(t, 16);
        /* VALID_VALUES_STRING: requested 0 -> number of strings; k with NULL -> size of string
         * k-1 (NUL included); k with a buffer -> string k-1 */
        CHECK_OK(hipdnnBackendGetAttribute(k, HIPDNN_ATTR_KNOB_INFO_VALID_VALUES_STRING, HIPDNN_TYPE_CHAR, 0, &cnt, NULL));
        CHECK_EQ_INT(cnt, 2);
        CHECK_OK(hipdnnBackendGetAttribute(k, HIPDNN_ATTR_KNOB_INFO_VALID_VALUES_STRING, HIPDNN_TYPE_CHAR, 1, &cnt, NULL));
        CHECK_EQ_INT(cnt, 5);
        CHECK_OK(hipdnnBackendGetAttribute(k, HIPDNN_ATTR_KNOB_INFO_VALID_VALUES_STRING, HIPDNN_TYPE_CHAR, 1, &cnt, s));
        CHECK_STREQ(s, "fast");
        CHECK_OK(hipdnnBackendGetAttribute(k, HIPDNN_ATTR_KNOB_INFO_VALID_VALUES_STRING, HIPDNN_TYPE_CHAR, 2, &cnt, NULL));
        CHECK_EQ_INT(cnt, 9);
        CHECK_OK(hipdnnBackendGetAttribute(k, HIPDNN_ATTR_KNOB_INFO_VALID_VALUES_STRING, HIPDNN_TYPE_CHAR, 2, &cnt, s));
        CHECK_STREQ(s, "accurate");
        CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
                  "KnobDescriptor::getAttribute() failed: string 3 requested, the knob has 2 valid strings",
                  hipdnnBackendGetAttribute(k, HIPDNN_ATTR_KNOB_INFO_VALID_VALUES_STRING, HIPDNN_TYPE_CHAR, 3, &cnt, s));
        CHECK_EQ_INT(knob_count(k, HIPDNN_ATTR_KNOB_INFO_MINIMUM_VALUE, HIPDNN_TYPE_INT64), 0);
    }

    /* serialized knobs: one Knob flatbuffer per knob, naming it */
    hipdnnBackendFlatbufferData_t blobs[3];
    CHECK_OK(hipdnnBackendGetAttribute(e, HIPDNN_ATTR_KNOB_INFO_SERIALIZED_VALUE, HIPDNN_TYPE_FLATBUFFER_DATA_STRUCT_EXT, 0, &n,
                                       NULL));
    CHECK_EQ_INT(n, 3);
    CHECK_OK(hipdnnBackendGetAttribute(e, HIPDNN_ATTR_KNOB_INFO_SERIALIZED_VALUE, HIPDNN_TYPE_FLATBUFFER_DATA_STRUCT_EXT, 3, &n,
                                       blobs));
    const char* ids[3] = {"test.knobs.tile_size", "test.knobs.alpha", "test.knobs.mode"};
    for (int j = 0; j < 3; j++) {
        int found = 0;
        for (int64_t i = 0; i < n; i++) {
            CHECK(blobs[i].ptr != NULL && blobs[i].size > 8);
            const char* p = (const char*)blobs[i].ptr;
            size_t m = strlen(ids[j]);
            for (size_t o = 0; p && o + m <= blobs[i].size; o++)
                if (memcmp(p + o, ids[j], m) == 0)
                    found++;
        }
        check_count++;
        if (found != 1)
            CHECK_FAIL("%s found %d times in the serialized knobs", ids[j], found);
    }

    hipdnnBackendBehaviorNote_t notes[8];
    CHECK_OK(hipdnnBackendGetAttribute(e, HIPDNN_ATTR_ENGINE_BEHAVIOR_NOTE, HIPDNN_TYPE_BEHAVIOR_NOTE, 8, &n, notes));
    CHECK_EQ_INT(n, 2);
    if (n == 2) {
        CHECK(
            (notes[0] == HIPDNN_BEHAVIOR_NOTE_RUNTIME_COMPILATION && notes[1] == HIPDNN_BEHAVIOR_NOTE_SUPPORTS_GRAPH_CAPTURE)
            || (notes[1] == HIPDNN_BEHAVIOR_NOTE_RUNTIME_COMPILATION && notes[0] == HIPDNN_BEHAVIOR_NOTE_SUPPORTS_GRAPH_CAPTURE));
    }
    char name[64];
    CHECK_OK(hipdnnBackendGetAttribute(e, HIPDNN_ATTR_ENGINE_NAME_EXT, HIPDNN_TYPE_CHAR, sizeof name, &n, name));
    CHECK_STREQ(name, "0xFFFFFFFFFFFFFFF8");
}

static void check_demo_b(hipdnnBackendDescriptor_t e) {
    int64_t n = -1;
    hipdnnBackendDescriptor_t infos[3] = {NULL, NULL, NULL};
    CHECK_OK(hipdnnBackendGetAttribute(e, HIPDNN_ATTR_ENGINE_KNOB_INFO, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 3, &n, infos));
    CHECK_EQ_INT(n, 3);
    for (int i = 0; i < 3; i++)
        pt_track(infos[i]);
    hipdnnBackendDescriptor_t k = find_knob(infos, 3, "test.knobs.split_k");
    if (k) {
        bool dep = false;
        int64_t cnt = 0, v = 0;
        CHECK_OK(hipdnnBackendGetAttribute(k, HIPDNN_ATTR_KNOB_INFO_DEPRECATED, HIPDNN_TYPE_BOOLEAN, 1, &cnt, &dep));
        CHECK(dep);
        CHECK_OK(hipdnnBackendGetAttribute(k, HIPDNN_ATTR_KNOB_INFO_DEFAULT_VALUE, HIPDNN_TYPE_INT64, 1, &cnt, &v));
        CHECK_EQ_INT(v, 1);
        CHECK_EQ_INT(knob_count(k, HIPDNN_ATTR_KNOB_INFO_MINIMUM_VALUE, HIPDNN_TYPE_INT64), 0);
        CHECK_EQ_INT(knob_count(k, HIPDNN_ATTR_KNOB_INFO_MAXIMUM_VALUE, HIPDNN_TYPE_INT64), 0);
        CHECK_EQ_INT(knob_count(k, HIPDNN_ATTR_KNOB_INFO_VALID_VALUES_INT, HIPDNN_TYPE_INT64), 0);
    }
    k = find_knob(infos, 3, "test.knobs.label");
    if (k) {
        char s[8] = "x";
        int64_t cnt = -1;
        CHECK_OK(hipdnnBackendGetAttribute(k, HIPDNN_ATTR_KNOB_INFO_DEFAULT_VALUE, HIPDNN_TYPE_CHAR, sizeof s, &cnt, s));
        CHECK_STREQ(s, "");
        CHECK_EQ_INT(knob_count(k, HIPDNN_ATTR_KNOB_INFO_VALID_VALUES_STRING, HIPDNN_TYPE_CHAR), 0);
    }
    hipdnnBackendBehaviorNote_t notes[8];
    CHECK_OK(hipdnnBackendGetAttribute(e, HIPDNN_ATTR_ENGINE_BEHAVIOR_NOTE, HIPDNN_TYPE_BEHAVIOR_NOTE, 8, &n, notes));
    CHECK_EQ_INT(n, 2);
    if (n == 2)
        CHECK(notes[0] + notes[1]
              == HIPDNN_BEHAVIOR_NOTE_REQUIRES_LAYOUT_TRANSFORM + HIPDNN_BEHAVIOR_NOTE_EXTERNAL_LIBRARY_DEPENDENCY);
}

/* ---- knob settings --------------------------------------------------------------------------- */

static hipdnnBackendDescriptor_t choice(const char* id, hipdnnBackendAttributeType_t t, const void* v, int64_t n) {
    hipdnnBackendDescriptor_t k = pt_new(HIPDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR);
    CHECK_OK(hipdnnBackendSetAttribute(k, HIPDNN_ATTR_KNOB_CHOICE_KNOB_TYPE, HIPDNN_TYPE_CHAR, (int64_t)strlen(id), id));
    CHECK_OK(hipdnnBackendSetAttribute(k, HIPDNN_ATTR_KNOB_CHOICE_KNOB_VALUE, t, n, v));
    CHECK_OK(hipdnnBackendFinalize(k));
    return k;
}

/* A config on engine e with one KNOB_CHOICE; returns the config finalize status. The status of
 * a plan built from it when the config finalized is checked to be SUCCESS. */
static hipdnnStatus_t with_choice(hipdnnBackendDescriptor_t e, hipdnnBackendDescriptor_t k, char* err, size_t n) {
    hipdnnBackendDescriptor_t c = pt_new(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR);
    CHECK_OK(hipdnnBackendSetAttribute(c, HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &e));
    CHECK_OK(hipdnnBackendSetAttribute(c, HIPDNN_ATTR_ENGINECFG_KNOB_CHOICES, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &k));
    hipdnnStatus_t st = hipdnnBackendFinalize(c);
    pt_take_error(err, n);
    if (st == HIPDNN_STATUS_SUCCESS) {
        hipdnnStatus_t pst;
        pt_plan(c, &pst);
        CHECK_STATUS(HIPDNN_STATUS_SUCCESS, pst);
    }
    return st;
}

/* Same with a serialized KnobSetting. */
static hipdnnStatus_t with_blob(hipdnnBackendDescriptor_t e, const char* id, int type, int64_t iv, double dv, const char* sv,
                                char* err, size_t n) {
    static uint64_t storage[64];
    uint8_t* b = (uint8_t*)storage;
    size_t size = knob_setting(b, id, type, iv, dv, sv);
    hipdnnBackendFlatbufferData_t fb = {b, size};
    hipdnnBackendDescriptor_t c = pt_new(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR);
    CHECK_OK(hipdnnBackendSetAttribute(c, HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &e));
    CHECK_OK(
        hipdnnBackendSetAttribute(c, HIPDNN_ATTR_KNOB_CHOICE_SERIALIZED_VALUE, HIPDNN_TYPE_FLATBUFFER_DATA_STRUCT_EXT, 1, &fb));
    memset(b, 0xAB, size); /* the backend copied it */
    hipdnnStatus_t st = hipdnnBackendFinalize(c);
    pt_take_error(err, n);
    if (st == HIPDNN_STATUS_SUCCESS) {
        hipdnnStatus_t pst;
        pt_plan(c, &pst);
        CHECK_STATUS(HIPDNN_STATUS_SUCCESS, pst);
    }
    return st;
}

#define ACCEPT(call)                                               \
    do {                                                           \
        CHECK_STATUS(HIPDNN_STATUS_SUCCESS, call);                 \
        if (err[0])                                                \
            printf("unexpected message for %s: %s\n", #call, err); \
    } while (0)
#define REJECT(knob, call)                           \
    do {                                             \
        CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM, call); \
        CHECK_CONTAINS(err, knob);                   \
    } while (0)

static void check_constraints(hipdnnBackendDescriptor_t e) {
    char err[HIPDNN_ERROR_STRING_MAX_LENGTH];
    const char* I = "constraint.int_knob";
    const char* F = "constraint.float_knob";
    const char* S = "constraint.string_knob";
    int64_t iv;
    double dv;

    /* KNOB_CHOICE descriptors */
    iv = 55;
    ACCEPT(with_choice(e, choice(I, HIPDNN_TYPE_INT64, &iv, 1), err, sizeof err));
    iv = 0;
    ACCEPT(with_choice(e, choice(I, HIPDNN_TYPE_INT64, &iv, 1), err, sizeof err));
    iv = 100;
    ACCEPT(with_choice(e, choice(I, HIPDNN_TYPE_INT64, &iv, 1), err, sizeof err));
    iv = 57;
    REJECT(I, with_choice(e, choice(I, HIPDNN_TYPE_INT64, &iv, 1), err, sizeof err));
    iv = 105;
    REJECT(I, with_choice(e, choice(I, HIPDNN_TYPE_INT64, &iv, 1), err, sizeof err));
    iv = -5;
    REJECT(I, with_choice(e, choice(I, HIPDNN_TYPE_INT64, &iv, 1), err, sizeof err));
    dv = 2.5;
    REJECT(I, with_choice(e, choice(I, HIPDNN_TYPE_DOUBLE, &dv, 1), err, sizeof err));
    dv = 7.25;
    ACCEPT(with_choice(e, choice(F, HIPDNN_TYPE_DOUBLE, &dv, 1), err, sizeof err));
    dv = 10.5;
    REJECT(F, with_choice(e, choice(F, HIPDNN_TYPE_DOUBLE, &dv, 1), err, sizeof err));
    dv = -0.5;
    REJECT(F, with_choice(e, choice(F, HIPDNN_TYPE_DOUBLE, &dv, 1), err, sizeof err));
    iv = 5;
    REJECT(F, with_choice(e, choice(F, HIPDNN_TYPE_INT64, &iv, 1), err, sizeof err));
    ACCEPT(with_choice(e, choice(S, HIPDNN_TYPE_CHAR, "gamma", 5), err, sizeof err));
    REJECT(S, with_choice(e, choice(S, HIPDNN_TYPE_CHAR, "delta", 5), err, sizeof err));
    iv = 1;
    REJECT(S, with_choice(e, choice(S, HIPDNN_TYPE_INT64, &iv, 1), err, sizeof err));
    iv = 5;
    REJECT("constraint.no_such_knob",
           with_choice(e, choice("constraint.no_such_knob", HIPDNN_TYPE_INT64, &iv, 1), err, sizeof err));

    /* the same through serialized KnobSetting flatbuffers */
    ACCEPT(with_blob(e, I, KV_INT, 55, 0, NULL, err, sizeof err));
    REJECT(I, with_blob(e, I, KV_INT, 57, 0, NULL, err, sizeof err));
    REJECT(I, with_blob(e, I, KV_INT, 105, 0, NULL, err, sizeof err));
    REJECT(I, with_blob(e, I, KV_FLOAT, 0, 55.0, NULL, err, sizeof err));
    ACCEPT(with_blob(e, F, KV_FLOAT, 0, 10.0, NULL, err, sizeof err));
    REJECT(F, with_blob(e, F, KV_FLOAT, 0, 10.5, NULL, err, sizeof err));
    REJECT(F, with_blob(e, F, KV_FLOAT, 0, (double)NAN, NULL, err, sizeof err));
    REJECT(F, with_blob(e, F, KV_FLOAT, 0, (double)INFINITY, NULL, err, sizeof err));
    ACCEPT(with_blob(e, S, KV_STRING, 0, 0, "alpha", err, sizeof err));
    REJECT(S, with_blob(e, S, KV_STRING, 0, 0, "omega", err, sizeof err));
    REJECT(S, with_blob(e, S, KV_INT, 3, 0, NULL, err, sizeof err));

    /* malformed serialized settings are refused when set */
    hipdnnBackendDescriptor_t c = pt_new(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR);
    uint8_t junk[24];
    memset(junk, 0x7F, sizeof junk);
    hipdnnBackendFlatbufferData_t bad = {junk, sizeof junk};
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "EngineConfigDescriptor::setAttribute() failed: HIPDNN_ATTR_KNOB_CHOICE_SERIALIZED_VALUE element 0: KnobSetting buffer (24 bytes) does not verify: KnobSetting root at 2139062143 (1 bytes) exceeds 24-byte buffer",
        hipdnnBackendSetAttribute(c, HIPDNN_ATTR_KNOB_CHOICE_SERIALIZED_VALUE, HIPDNN_TYPE_FLATBUFFER_DATA_STRUCT_EXT, 1, &bad));
    bad.size = 0;
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "EngineConfigDescriptor::setAttribute() failed: HIPDNN_ATTR_KNOB_CHOICE_SERIALIZED_VALUE element 0 has size 0",
        hipdnnBackendSetAttribute(c, HIPDNN_ATTR_KNOB_CHOICE_SERIALIZED_VALUE, HIPDNN_TYPE_FLATBUFFER_DATA_STRUCT_EXT, 1, &bad));
    hipdnnBackendFlatbufferData_t null_ptr = {NULL, 16};
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
                 hipdnnBackendSetAttribute(c, HIPDNN_ATTR_KNOB_CHOICE_SERIALIZED_VALUE, HIPDNN_TYPE_FLATBUFFER_DATA_STRUCT_EXT, 1,
                                           &null_ptr));
    tu_clear_last_error();
    /* an unfinalized knob choice cannot be set */
    hipdnnBackendDescriptor_t open_choice = pt_new(HIPDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR);
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED,
        "EngineConfigDescriptor::setAttribute() failed: the HIPDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR given for HIPDNN_ATTR_ENGINECFG_KNOB_CHOICES is not finalized",
        hipdnnBackendSetAttribute(c, HIPDNN_ATTR_ENGINECFG_KNOB_CHOICES, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &open_choice));
}

int main(void) {
    const char* files[] = {PT_CUSTOM("test_knobs_plugin"), PT_CUSTOM("test_knob_constraint_validation_plugin")};
    pt_engine_paths(PT_COUNT(files), files);
    pt_heur_paths(0, NULL);
    hipdnnHandle_t h = pt_create(NULL, 0);
    CHECK_EQ_INT(pt_engine_count(h), 3);
    hipdnnBackendDescriptor_t g = pt_pointwise_graph(h, NULL);
    hipdnnStatus_t st;

    hipdnnBackendDescriptor_t e8 = pt_engine(g, -8, &st);
    CHECK_STATUS(HIPDNN_STATUS_SUCCESS, st);
    check_demo_a(e8);
    hipdnnBackendDescriptor_t e9 = pt_engine(g, -9, &st);
    CHECK_STATUS(HIPDNN_STATUS_SUCCESS, st);
    check_demo_b(e9);
    /* the knobs plugin validates too: tile_size 24 is off its step of 16 */
    char err[HIPDNN_ERROR_STRING_MAX_LENGTH];
    int64_t iv = 48;
    ACCEPT(with_choice(e8, choice("test.knobs.tile_size", HIPDNN_TYPE_INT64, &iv, 1), err, sizeof err));
    iv = 24;
    REJECT("test.knobs.tile_size", with_choice(e8, choice("test.knobs.tile_size", HIPDNN_TYPE_INT64, &iv, 1), err, sizeof err));
    ACCEPT(with_choice(e8, choice("test.knobs.mode", HIPDNN_TYPE_CHAR, "accurate", 8), err, sizeof err));
    iv = 7; /* split_k is unconstrained */
    ACCEPT(with_choice(e9, choice("test.knobs.split_k", HIPDNN_TYPE_INT64, &iv, 1), err, sizeof err));

    hipdnnBackendDescriptor_t e10 = pt_engine(g, -10, &st);
    CHECK_STATUS(HIPDNN_STATUS_SUCCESS, st);
    check_constraints(e10);

    pt_release_all();
    CHECK_OK(hipdnnDestroy(h));
    return check_finish("test_engine_knobs");
}
