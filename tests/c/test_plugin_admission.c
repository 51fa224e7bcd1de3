/* Engine admission across plugins (item 68) and enumeration order (item 69):
 *   - duplicate id -7 in two plugins: first loaded (path order, _a_ < _b_) keeps it, the second
 *     plugin loads and keeps its unique -6, and its offer of -7 is skipped silently;
 *   - a name that does not hash to its id (-29): that engine is dropped, the plugin stays;
 *   - GetEngineName answering NULL / "" (engines -26, -27: unnamed, hex names) or failing with
 *     a string (-28: dropped, the string never surfaces);
 *   - named engines (TEST_HASHED_NAME_ENGINE, TEST_GOOD_DEFAULT_ENGINE) and EngineDetails.name
 *     never naming an engine (-8 of the knobs plugin);
 *   - engines sorted by name, unnamed ones as "0x%016llX". */
#include "plugin_testutil.h"

int main(void) {
    const char* files[] = {PT_CUSTOM("test_duplicate_id_b_plugin"),
                           PT_CUSTOM("test_duplicate_id_a_plugin"),
                           PT_CUSTOM("test_lying_engine_name_plugin"),
                           PT_CUSTOM("test_mismatched_name_plugin"),
                           PT_HASHED,
                           PT_GOOD_DEFAULT,
                           PT_CUSTOM("test_knobs_plugin")};
    pt_engine_paths(PT_COUNT(files), files);
    pt_heur_paths(0, NULL);
    hipdnnHandle_t h = pt_create(NULL, 0);

    /* every plugin loads, even those that lost engines */
    CHECK_EQ_INT(pt_loaded_count(h), 7);

    /* engines: -7 (a), -6 (b), -26, -27, hashed, good default, -8, -9 */
    struct {
        const char* name;
        int64_t id;
        const char* plugin;
    } want[] = {
        {"0xFFFFFFFFFFFFFFE5", -27, "test_lying_engine_name_plugin"},
        {"0xFFFFFFFFFFFFFFE6", -26, "test_lying_engine_name_plugin"},
        {"0xFFFFFFFFFFFFFFF7", -9, "test_knobs_plugin"},
        {"0xFFFFFFFFFFFFFFF8", -8, "test_knobs_plugin"},
        {"0xFFFFFFFFFFFFFFF9", -7, "test_duplicate_id_a_plugin"},
        {"0xFFFFFFFFFFFFFFFA", -6, "test_duplicate_id_b_plugin"},
        {"TEST_GOOD_DEFAULT_ENGINE", PT_ID_GOOD_DEFAULT, "test_good_default_plugin"},
        {"TEST_HASHED_NAME_ENGINE", PT_ID_HASHED, "test_hashed_name_plugin"},
    };
    size_t n = pt_engine_count(h);
    CHECK_EQ_INT(n, PT_COUNT(want));
    for (size_t i = 0; i < n && i < PT_COUNT(want); i++) {
        int64_t id = 0;
        char name[64], plugin[64], ver[64], type[64], hex[32];
        size_t ln = 64, lp = 64, lv = 64, lt = 64;
        CHECK_OK(hipdnnGetEngineInfo_ext(h, i, &id, name, &ln, plugin, &lp, ver, &lv, type, &lt));
        CHECK_STREQ(name, want[i].name);
        CHECK_EQ_INT(id, want[i].id);
        CHECK_STREQ(plugin, want[i].plugin);
        if (name[0] == '0')
            CHECK_STREQ(name, pt_hex(id, hex, sizeof hex));
        else
            CHECK_EQ_INT(pt_fnv1a(name), id);
        CHECK_NOT_CONTAINS(name, "TEST_LYING_ENGINE_NAME_MUST_BE_IGNORED");
        CHECK_NOT_CONTAINS(name, "TEST_KNOBS_DETAILS_ONLY_NAME");
        CHECK_NOT_CONTAINS(name, "TEST_MISMATCHED_NAME_ENGINE");
    }

    /* dropped engines are unknown everywhere */
    int64_t id = 0;
    char name[64];
    size_t len = sizeof name;
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED, "hipdnnGetEngineNameById_ext: no loaded engine has id",
              hipdnnGetEngineNameById_ext(h, -28, name, &len));
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED, "hipdnnGetEngineNameById_ext: no loaded engine has id",
              hipdnnGetEngineNameById_ext(h, -29, name, &len));
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED, "hipdnnGetEngineNameById_ext: no loaded engine has id",
              hipdnnGetEngineNameById_ext(h, PT_ID_MISMATCHED_NAME_HASH, name, &len));
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED, "hipdnnGetEngineIdByName_ext: no loaded engine is named \"TEST_MISMATCHED_NAME_ENGINE",
              hipdnnGetEngineIdByName_ext(h, "TEST_MISMATCHED_NAME_ENGINE", &id));
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED,
              "hipdnnGetEngineIdByName_ext: no loaded engine is named \"TEST_LYING_ENGINE_NAME_MUST_BE_IGNORED",
              hipdnnGetEngineIdByName_ext(h, "TEST_LYING_ENGINE_NAME_MUST_BE_IGNORED", &id));
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED,
              "hipdnnGetEngineIdByName_ext: no loaded engine is named \"TEST_KNOBS_DETAILS_ONLY_NAME",
              hipdnnGetEngineIdByName_ext(h, "TEST_KNOBS_DETAILS_ONLY_NAME", &id));
    CHECK_OK(hipdnnGetEngineIdByName_ext(h, "TEST_GOOD_DEFAULT_ENGINE", &id));
    CHECK_EQ_INT(id, PT_ID_GOOD_DEFAULT);

    hipdnnBackendDescriptor_t g = pt_pointwise_graph(h, NULL);
    hipdnnStatus_t st;
    pt_engine(g, -29, &st);
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM, st);
    char err[HIPDNN_ERROR_STRING_MAX_LENGTH];
    CHECK_STREQ(pt_take_error(err, sizeof err),
                "EngineDescriptor::finalize() failed: Engine id is not in a valid range of engine IDs");
    pt_engine(g, -28, &st);
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM, st);
    tu_clear_last_error();

    /* the engine descriptor's name agrees with enumeration, -8 is not named by its details */
    hipdnnBackendDescriptor_t e8 = pt_engine(g, -8, &st);
    CHECK_STATUS(HIPDNN_STATUS_SUCCESS, st);
    int64_t cnt = 0;
    CHECK_OK(hipdnnBackendGetAttribute(e8, HIPDNN_ATTR_ENGINE_NAME_EXT, HIPDNN_TYPE_CHAR, sizeof name, &cnt, name));
    CHECK_STREQ(name, "0xFFFFFFFFFFFFFFF8");
    hipdnnBackendDescriptor_t e26 = pt_engine(g, -26, &st);
    CHECK_STATUS(HIPDNN_STATUS_SUCCESS, st);
    CHECK_OK(hipdnnBackendGetAttribute(e26, HIPDNN_ATTR_ENGINE_NAME_EXT, HIPDNN_TYPE_CHAR, sizeof name, &cnt, name));
    CHECK_STREQ(name, "0xFFFFFFFFFFFFFFE6");
    hipdnnBackendDescriptor_t eh = pt_engine(g, PT_ID_HASHED, &st);
    CHECK_STATUS(HIPDNN_STATUS_SUCCESS, st);
    CHECK_OK(hipdnnBackendGetAttribute(eh, HIPDNN_ATTR_ENGINE_NAME_EXT, HIPDNN_TYPE_CHAR, sizeof name, &cnt, name));
    CHECK_STREQ(name, "TEST_HASHED_NAME_ENGINE");
    /* -7 runs on plugin a, -6 on plugin b */
    pt_plan_for(g, -7);
    pt_plan_for(g, -6);

    /* Candidates: every applicable admitted engine exactly once (-27, -28 are not applicable;
     * -29 is offered but dropped; b's -7 is skipped). */
    int64_t ids[16];
    int got = pt_rank(g, -1, NULL, ids, 16);
    CHECK_EQ_INT(got, 7);
    int seen7 = 0, bad = 0;
    for (int i = 0; i < got; i++) {
        if (ids[i] == -7)
            seen7++;
        if (ids[i] == -29 || ids[i] == -28 || ids[i] == -27 || ids[i] == PT_ID_MISMATCHED_NAME_HASH)
            bad++;
    }
    CHECK_EQ_INT(seen7, 1);
    CHECK_EQ_INT(bad, 0);

    pt_release_all();
    CHECK_OK(hipdnnDestroy(h));
    return check_finish("test_plugin_admission");
}
