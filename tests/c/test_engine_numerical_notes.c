/* Numerical notes (our extension, RFC 0012 §4.5) and the plan's JSON representation.
 *   - HIPDNN_ATTR_ENGINE_NUMERICAL_NOTE on a finalized engine gives the notes of its default
 *     configuration, on a finalized engine config those of its knob choices (the knobs plugin's
 *     engine -8 is NONDETERMINISTIC unless test.knobs.mode is "accurate");
 *   - a plugin without hipdnnEnginePluginGetNumericalNotesV1_ext reports none; the CPU reference
 *     and oneDNN engines export it and report none (deterministic);
 *   - HIPDNN_ATTR_EXECUTION_PLAN_JSON_REPRESENTATION names engine, knobs, workspace and notes. */
#include "plugin_testutil.h"

static int64_t notes_of(hipdnnBackendDescriptor_t d, int32_t* notes, int64_t max) {
    int64_t n = -1;
    CHECK_OK(hipdnnBackendGetAttribute(d, HIPDNN_ATTR_ENGINE_NUMERICAL_NOTE, HIPDNN_TYPE_NUMERICAL_NOTE, max, &n, notes));
    return n;
}

static hipdnnBackendDescriptor_t config_with_mode(hipdnnBackendDescriptor_t e, const char* mode) {
    hipdnnBackendDescriptor_t k = pt_new(HIPDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR);
    const char* id = "test.knobs.mode";
    CHECK_OK(hipdnnBackendSetAttribute(k, HIPDNN_ATTR_KNOB_CHOICE_KNOB_TYPE, HIPDNN_TYPE_CHAR, (int64_t)strlen(id), id));
    CHECK_OK(hipdnnBackendSetAttribute(k, HIPDNN_ATTR_KNOB_CHOICE_KNOB_VALUE, HIPDNN_TYPE_CHAR, (int64_t)strlen(mode), mode));
    CHECK_OK(hipdnnBackendFinalize(k));
    hipdnnBackendDescriptor_t c = pt_new(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR);
    CHECK_OK(hipdnnBackendSetAttribute(c, HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &e));
    CHECK_OK(hipdnnBackendSetAttribute(c, HIPDNN_ATTR_ENGINECFG_KNOB_CHOICES, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &k));
    CHECK_OK(hipdnnBackendFinalize(c));
    return c;
}

static void plan_json(hipdnnBackendDescriptor_t plan, char* out, size_t n) {
    int64_t len = -1;
    out[0] = '\0';
    CHECK_OK(hipdnnBackendGetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_JSON_REPRESENTATION, HIPDNN_TYPE_CHAR, 0, &len, NULL));
    CHECK(len > 0 && (size_t)len < n);
    if (len > 0 && (size_t)len < n)
        CHECK_OK(hipdnnBackendGetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_JSON_REPRESENTATION, HIPDNN_TYPE_CHAR, (int64_t)n,
                                           &len, out));
}

int main(void) {
    const char* files[] = {PT_CUSTOM("test_knobs_plugin"), PT_GOOD};
    CHECK_OK(hipdnnSetEnginePluginPaths_ext(PT_COUNT(files), files, HIPDNN_PLUGIN_LOADING_ADDITIVE));
    pt_heur_paths(0, NULL);
    hipdnnHandle_t h = pt_create(NULL, 0);
    hipdnnBackendDescriptor_t g = pt_pointwise_graph(h, NULL);
    hipdnnStatus_t st;
    int32_t notes[16];

    /* Engine -8: the default configuration (mode "fast") is NONDETERMINISTIC, with tensor cores. */
    hipdnnBackendDescriptor_t e8 = pt_engine(g, -8, &st);
    CHECK_OK(st);
    CHECK_EQ_INT(notes_of(e8, NULL, 0), 2);
    CHECK_EQ_INT(notes_of(e8, notes, 16), 2);
    CHECK(notes[0] == HIPDNN_NUMERICAL_NOTE_TENSOR_CORE && notes[1] == HIPDNN_NUMERICAL_NOTE_NONDETERMINISTIC);
    hipdnnBackendDescriptor_t fast = config_with_mode(e8, "fast");
    CHECK_EQ_INT(notes_of(fast, notes, 16), 2);
    hipdnnBackendDescriptor_t accurate = config_with_mode(e8, "accurate");
    CHECK_EQ_INT(notes_of(accurate, notes, 16), 1);
    CHECK(notes[0] == HIPDNN_NUMERICAL_NOTE_TENSOR_CORE);
    /* The element type must be NUMERICAL_NOTE. */
    int64_t n = 0, wrong[4];
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "HIPDNN_ATTR_ENGINE_NUMERICAL_NOTE",
              hipdnnBackendGetAttribute(e8, HIPDNN_ATTR_ENGINE_NUMERICAL_NOTE, HIPDNN_TYPE_INT64, 4, &n, wrong));

    /* Engine -9 of the same plugin: none. The good plugin lacks the entry point: none. The CPU
     * reference engine (default folder) exports it and reports none. */
    hipdnnBackendDescriptor_t e9 = pt_engine(g, -9, &st);
    CHECK_OK(st);
    CHECK_EQ_INT(notes_of(e9, notes, 16), 0);
    hipdnnBackendDescriptor_t good = pt_engine(g, PT_ID_GOOD, &st);
    CHECK_OK(st);
    CHECK_EQ_INT(notes_of(good, notes, 16), 0);
    int64_t cpu = pt_fnv1a("HIPDNNGO_CPU_REFERENCE");
    if (pt_has_engine(h, cpu)) {
        hipdnnBackendDescriptor_t ce = pt_engine(g, cpu, &st);
        CHECK_OK(st);
        CHECK_EQ_INT(notes_of(ce, notes, 16), 0);
        CHECK_EQ_INT(notes_of(pt_config(ce), notes, 16), 0);
    } else {
        CHECK_FAIL("the CPU reference engine is not loaded from the default plugin folder");
    }
    /* The oneDNN engine (when installed) exports it too and reports none: its plans are
     * bitwise reproducible. */
    int64_t onednn = pt_fnv1a("HIPDNNGO_ONEDNN");
    if (pt_has_engine(h, onednn)) {
        hipdnnBackendDescriptor_t oe = pt_engine(g, onednn, &st);
        CHECK_OK(st);
        CHECK_EQ_INT(notes_of(oe, notes, 16), 0);
    }

    /* The plan's JSON: engine, sorted knobs, workspace, notes, and a stable name. */
    hipdnnBackendDescriptor_t plan = pt_plan(accurate, &st);
    CHECK_OK(st);
    char json[4096];
    plan_json(plan, json, sizeof json);
    CHECK_CONTAINS(json, "\"name\":\"0xFFFFFFFFFFFFFFF8:test.knobs.mode=accurate\"");
    CHECK_CONTAINS(json, "\"engine_id\":\"0xFFFFFFFFFFFFFFF8\"");
    CHECK_CONTAINS(json, "\"knobs\":[{\"id\":\"test.knobs.mode\",\"value\":\"accurate\"}]");
    CHECK_CONTAINS(json, "\"workspace_size\":0");
    CHECK_CONTAINS(json, "\"numerical_notes\":[\"HIPDNN_NUMERICAL_NOTE_TENSOR_CORE\"]");
    CHECK_CONTAINS(
        json,
        "\"behavior_notes\":[\"HIPDNN_BEHAVIOR_NOTE_RUNTIME_COMPILATION\",\"HIPDNN_BEHAVIOR_NOTE_SUPPORTS_GRAPH_CAPTURE\"]");
    CHECK_CONTAINS(json, "\"deserialized\":false");
    /* Unfinalized: NOT_INITIALIZED-class refusal, with the attribute named. */
    hipdnnBackendDescriptor_t raw = pt_new(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR);
    int64_t len = 0;
    hipdnnStatus_t rs =
        hipdnnBackendGetAttribute(raw, HIPDNN_ATTR_EXECUTION_PLAN_JSON_REPRESENTATION, HIPDNN_TYPE_CHAR, 0, &len, NULL);
    CHECK(rs != HIPDNN_STATUS_SUCCESS);
    tu_clear_last_error();

    pt_release_all();
    CHECK_OK(hipdnnDestroy(h));
    return check_finish("test_engine_numerical_notes");
}
