/* Faulty engine plugins that load but misbehave later (tests/plugins/README.md, faulty/):
 * the host turns each fault into an error of that query only, never crashes, and keeps the
 * handle usable. One scenario per plugin set (paths set while no handle exists). */
#include "plugin_testutil.h"

typedef struct {
    hipdnnHandle_t h;
    hipdnnBackendDescriptor_t g;
} scene;

static scene open_scene(const char* what, size_t n, const char* const* files) {
    scene s;
    char err[HIPDNN_ERROR_STRING_MAX_LENGTH];
    printf("-- %s\n", what);
    pt_engine_paths(n, files);
    s.h = pt_create(err, sizeof err);
    CHECK_STREQ(err, "");
    CHECK_EQ_INT(pt_loaded_count(s.h), n);
    s.g = pt_pointwise_graph(s.h, NULL);
    return s;
}

static void close_scene(scene* s) {
    pt_release_all();
    CHECK_OK(hipdnnDestroy(s->h));
}

/* The heuristic query on the scene's graph must fail with `want` and mention `needle`. */
static void heur_fails(scene* s, hipdnnStatus_t want, const char* needle) {
    hipdnnBackendDescriptor_t hd = NULL;
    CHECK_STATUS(want, pt_heur(s->g, -1, NULL, &hd));
    char err[HIPDNN_ERROR_STRING_MAX_LENGTH];
    CHECK_CONTAINS(pt_take_error(err, sizeof err), needle);
}

int main(void) {
    pt_heur_paths(0, NULL);
    char err[HIPDNN_ERROR_STRING_MAX_LENGTH];
    hipdnnStatus_t st;

    {
        const char* f[] = {PT_FAULTY("test_faulty_applicable_overflow_plugin")};
        scene s = open_scene("GetApplicableEngineIds reports more than max", 1, f);
        heur_fails(&s, HIPDNN_STATUS_PLUGIN_ERROR, "");
        pt_engine(s.g, -104, &st);
        CHECK_STATUS(HIPDNN_STATUS_PLUGIN_ERROR, st);
        tu_clear_last_error();
        close_scene(&s);
    }
    {
        const char* f[] = {PT_FAULTY("test_faulty_undeclared_id_plugin")};
        scene s = open_scene("GetApplicableEngineIds offers an undeclared id", 1, f);
        heur_fails(&s, HIPDNN_STATUS_PLUGIN_ERROR, "");
        pt_engine(s.g, -105, &st);
        CHECK_STATUS(HIPDNN_STATUS_PLUGIN_ERROR, st);
        tu_clear_last_error();
        close_scene(&s);
    }
    {
        /* Details are fetched lazily: the engine finalizes and has a name, but every query
         * that needs the details is PLUGIN_ERROR; configs without knobs and plans still work. */
        const char* f[] = {PT_FAULTY("test_faulty_details_null_plugin"), PT_FAULTY("test_faulty_details_empty_plugin"),
                           PT_FAULTY("test_faulty_details_garbage_plugin")};
        scene s = open_scene("GetEngineDetails answers NULL / empty / garbage", 3, f);
        for (int64_t id = -108; id <= -106; id++) {
            hipdnnBackendDescriptor_t e = pt_engine(s.g, id, &st);
            CHECK_STATUS(HIPDNN_STATUS_SUCCESS, st);
            char name[64], hex[32];
            int64_t n = 0;
            CHECK_OK(hipdnnBackendGetAttribute(e, HIPDNN_ATTR_ENGINE_NAME_EXT, HIPDNN_TYPE_CHAR, sizeof name, &n, name));
            CHECK_STREQ(name, pt_hex(id, hex, sizeof hex));
            hipdnnBackendBehaviorNote_t notes[8];
            CHECK_STATUS(HIPDNN_STATUS_PLUGIN_ERROR,
                         hipdnnBackendGetAttribute(e, HIPDNN_ATTR_ENGINE_BEHAVIOR_NOTE, HIPDNN_TYPE_BEHAVIOR_NOTE, 8, &n, notes));
            CHECK(pt_take_error(err, sizeof err)[0] != '\0');
            CHECK_STATUS(HIPDNN_STATUS_PLUGIN_ERROR,
                         hipdnnBackendGetAttribute(e, HIPDNN_ATTR_ENGINE_KNOB_INFO, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0, &n, NULL));
            /* asked again: still an error, no crash */
            CHECK_STATUS(HIPDNN_STATUS_PLUGIN_ERROR,
                         hipdnnBackendGetAttribute(e, HIPDNN_ATTR_ENGINE_BEHAVIOR_NOTE, HIPDNN_TYPE_BEHAVIOR_NOTE, 8, &n, notes));
            tu_clear_last_error();
            hipdnnBackendDescriptor_t c = pt_config(e);
            pt_plan(c, &st);
            CHECK_STATUS(HIPDNN_STATUS_SUCCESS, st);
        }
        int64_t ids[4];
        CHECK_EQ_INT(pt_rank(s.g, -1, NULL, ids, 4), 3);
        close_scene(&s);
    }
    {
        const char* f[] = {PT_FAULTY("test_faulty_context_null_plugin")};
        scene s = open_scene("CreateExecutionContext answers a NULL context", 1, f);
        hipdnnBackendDescriptor_t e = pt_engine(s.g, -109, &st);
        CHECK_STATUS(HIPDNN_STATUS_SUCCESS, st);
        hipdnnBackendDescriptor_t c = pt_config(e);
        pt_plan(c, &st);
        CHECK_STATUS(HIPDNN_STATUS_PLUGIN_ERROR, st);
        CHECK(pt_take_error(err, sizeof err)[0] != '\0');
        /* a second plan attempt fails the same way */
        pt_plan(c, &st);
        CHECK_STATUS(HIPDNN_STATUS_PLUGIN_ERROR, st);
        tu_clear_last_error();
        close_scene(&s);
    }
    {
        const char* f[] = {PT_FAULTY("test_faulty_context_workspace_plugin")};
        scene s = open_scene("GetWorkspaceSizeFromExecutionContext fails", 1, f);
        hipdnnBackendDescriptor_t e = pt_engine(s.g, -110, &st);
        CHECK_STATUS(HIPDNN_STATUS_SUCCESS, st);
        hipdnnBackendDescriptor_t c = pt_config(e);
        pt_plan(c, &st);
        CHECK_STATUS(HIPDNN_STATUS_PLUGIN_ERROR, st);
        CHECK_CONTAINS(pt_take_error(err, sizeof err), "workspace query fails on purpose (test_faulty_context_workspace_plugin)");
        close_scene(&s);
    }
    {
        /* Create answers SUCCESS with a NULL handle: the plugin is skipped for the handle */
        const char* f[] = {PT_FAULTY("test_faulty_create_null_plugin"), PT_GOOD};
        scene s = open_scene("Create answers a NULL handle", 2, f);
        int64_t ids[4];
        CHECK_IDS(pt_rank(s.g, -1, NULL, ids, 4), ids, PT_ID_GOOD);
        pt_engine(s.g, -112, &st);
        CHECK(st != HIPDNN_STATUS_SUCCESS);
        tu_clear_last_error();
        pt_plan_for(s.g, PT_ID_GOOD);
        close_scene(&s);
    }
    {
        /* two plugins hand out the same handle pointer: the second (b) is skipped */
        const char* f[] = {PT_FAULTY("test_faulty_shared_handle_b_plugin"), PT_FAULTY("test_faulty_shared_handle_a_plugin")};
        scene s = open_scene("two plugins share one handle pointer", 2, f);
        int64_t ids[4];
        CHECK_IDS(pt_rank(s.g, -1, NULL, ids, 4), ids, -113);
        pt_engine(s.g, -114, &st);
        CHECK(st != HIPDNN_STATUS_SUCCESS);
        tu_clear_last_error();
        pt_plan_for(s.g, -113);
        close_scene(&s);
    }
    return check_finish("test_plugin_faulty");
}
