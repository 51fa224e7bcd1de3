/* Handle API (conformance checklist items 1-8): create/destroy, NULL and garbage handles,
 * double destroy, stream set/get, and hipdnnCreate surviving empty or broken plugin folders. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <unistd.h>

#include "testutil.h"

static void check_create_destroy(void) {
    /* 1. NULL out pointer. */
    tu_clear_last_error();
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "Null pointer provided to hipdnnCreate: handle is NULL", hipdnnCreate(NULL));

    /* 2. create / destroy. */
    hipdnnHandle_t h = NULL;
    CHECK_OK(hipdnnCreate(&h));
    CHECK(h != NULL);
    tu_clear_last_error(); /* hipdnnCreate may leave plugin-loading notes */
    CHECK_OK(hipdnnDestroy(h));

    /* 3. destroy NULL: BAD_PARAM_NULL_POINTER and a non-empty last error. */
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "hipdnnHandle_t is NULL", hipdnnDestroy(NULL));

    /* Double destroy and a destroyed handle are reported, not crashed on. */
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "destroyed", hipdnnDestroy(h));
    hipStream_t s = (hipStream_t)1;
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "destroyed", hipdnnGetStream(h, &s));
    CHECK(s == (hipStream_t)1); /* out-parameter untouched on failure */
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "destroyed", hipdnnSetStream(h, NULL));

    /* A value that was never a handle. */
    hipdnnHandle_t garbage = (hipdnnHandle_t)0x1234;
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "hipdnnHandle_t", hipdnnDestroy(garbage));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "hipdnnHandle_t", hipdnnSetStream(garbage, NULL));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "hipdnnHandle_t", hipdnnGetStream(garbage, &s));

    /* A descriptor is not a handle. */
    hipdnnBackendDescriptor_t d = NULL;
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_TENSOR_DESCRIPTOR, &d));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "names an object of another kind", hipdnnGetStream((hipdnnHandle_t)d, &s));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "names an object of another kind", hipdnnDestroy((hipdnnHandle_t)d));
    CHECK_OK(hipdnnBackendDestroyDescriptor(d)); /* still alive after the failed destroy */
}

static void check_streams(void) {
    hipdnnHandle_t h = NULL;
    CHECK_OK(hipdnnCreate(&h));
    tu_clear_last_error();

    /* 4, 5: NULL handle / NULL out pointer. */
    hipStream_t s = (hipStream_t)7;
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "hipdnnHandle_t is NULL", hipdnnSetStream(NULL, s));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "hipdnnHandle_t is NULL", hipdnnGetStream(NULL, &s));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "Null pointer provided to hipdnnGetStream: streamId is NULL",
              hipdnnGetStream(h, NULL));
    CHECK(s == (hipStream_t)7);

    /* 6: a fresh handle has the NULL (default) stream. */
    CHECK_OK(hipdnnGetStream(h, &s));
    CHECK(s == NULL);

    /* 7: set then get returns exactly what was set (a sentinel, never dereferenced by a
     * handle without GPU engines), and NULL can be set back. */
    CHECK_OK(hipdnnSetStream(h, (hipStream_t)2));
    CHECK_OK(hipdnnGetStream(h, &s));
    CHECK(s == (hipStream_t)2);
    CHECK_OK(hipdnnSetStream(h, NULL));
    s = (hipStream_t)9;
    CHECK_OK(hipdnnGetStream(h, &s));
    CHECK(s == NULL);

    /* Two handles keep their own streams. */
    hipdnnHandle_t h2 = NULL;
    CHECK_OK(hipdnnCreate(&h2));
    tu_clear_last_error();
    CHECK(h2 != h);
    CHECK_OK(hipdnnSetStream(h2, (hipStream_t)3));
    CHECK_OK(hipdnnGetStream(h, &s));
    CHECK(s == NULL);
    CHECK_OK(hipdnnGetStream(h2, &s));
    CHECK(s == (hipStream_t)3);
    CHECK_OK(hipdnnDestroy(h2));
    CHECK_OK(hipdnnDestroy(h));
}

/* Successful calls leave the last error alone (item 26, seen through the handle API). */
static void check_success_keeps_last_error(void) {
    hipdnnHandle_t h = NULL;
    CHECK_OK(hipdnnCreate(&h));
    tu_clear_last_error();
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, hipdnnGetStream(h, NULL));
    hipStream_t s;
    CHECK_OK(hipdnnGetStream(h, &s));
    CHECK_OK(hipdnnSetStream(h, NULL));
    char msg[HIPDNN_ERROR_STRING_MAX_LENGTH];
    hipdnnGetLastErrorString(msg, sizeof msg);
    CHECK(msg[0] != '\0');
    CHECK_OK(hipdnnDestroy(h));
}

static size_t engine_count(hipdnnHandle_t h) {
    size_t n = 12345;
    CHECK_OK(hipdnnGetEngineCount_ext(h, &n));
    return n;
}

/* 8: hipdnnCreate succeeds with an empty plugin folder and with plugins that fail to load. */
static void check_bad_plugins(void) {
    char dir[] = "/tmp/hipdnn_test_handle_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    const char* paths[1] = {dir};
    CHECK_OK(hipdnnSetEnginePluginPaths_ext(1, paths, HIPDNN_PLUGIN_LOADING_ABSOLUTE));
    hipdnnHandle_t h = NULL;
    CHECK_OK(hipdnnCreate(&h));
    CHECK(h != NULL);
    CHECK_EQ_INT(engine_count(h), 0);
    /* While a handle exists the paths cannot change. */
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED, "Cannot set engine plugin paths with an active handle",
              hipdnnSetEnginePluginPaths_ext(0, NULL, HIPDNN_PLUGIN_LOADING_ABSOLUTE));
    CHECK_OK(hipdnnDestroy(h));
    rmdir(dir);

    if (HIPDNN_TEST_PLUGIN_DIR[0] == '\0') {
        printf("HIPDNN_TEST_PLUGIN_DIR not set: broken-plugin part skipped\n");
    } else {
        static const char* broken[] = {
            "libtest_incomplete_api_plugin.so", /* lacks a required symbol */
            "libtest_incompatible_version_plugin.so", /* wrong engine API major */
            "libtest_malformed_version_plugin.so", /* unparsable API version */
        };
        for (size_t i = 0; i < sizeof broken / sizeof broken[0]; i++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/custom/%s", HIPDNN_TEST_PLUGIN_DIR, broken[i]);
            if (access(path, R_OK) != 0) {
                CHECK_FAIL("test plugin %s is missing", path);
                continue;
            }
            const char* one[1] = {path};
            CHECK_OK(hipdnnSetEnginePluginPaths_ext(1, one, HIPDNN_PLUGIN_LOADING_ABSOLUTE));
            h = NULL;
            CHECK_OK(hipdnnCreate(&h));
            if (h == NULL) {
                CHECK_FAIL("hipdnnCreate with %s gave no handle", broken[i]);
                continue;
            }
            tu_clear_last_error();
            CHECK_EQ_INT(engine_count(h), 0);
            CHECK_OK(hipdnnDestroy(h));
        }
    }
    /* Back to the default search path: clear the configured set, then add nothing to the
     * defaults. */
    CHECK_OK(hipdnnSetEnginePluginPaths_ext(0, NULL, HIPDNN_PLUGIN_LOADING_ABSOLUTE));
    CHECK_OK(hipdnnSetEnginePluginPaths_ext(0, NULL, HIPDNN_PLUGIN_LOADING_ADDITIVE));
    h = NULL;
    CHECK_OK(hipdnnCreate(&h));
    tu_clear_last_error();
    CHECK(engine_count(h) >= 1); /* the CPU reference engine of the staged install */
    CHECK_OK(hipdnnDestroy(h));
}

int main(void) {
    check_create_destroy();
    check_streams();
    check_success_keeps_last_error();
    check_bad_plugins();
    return check_finish("test_handle");
}
