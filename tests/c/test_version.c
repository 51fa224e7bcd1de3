/* Version (conformance checklist item 77) and the project's hipdnnGetComponentVersion_ext. */
#define HIPDNN_BACKEND_DEPRECATED /* hipdnnGetVersion_ext is deprecated; this test calls it anyway */
#include <stdbool.h>

#include "testutil.h"

static bool triple_le(const int64_t a[3], const int64_t b[3]) {
    if (a[0] != b[0])
        return a[0] < b[0];
    if (a[1] != b[1])
        return a[1] < b[1];
    return a[2] <= b[2];
}

int main(void) {
    /* 77: "MAJOR.MINOR.PATCH.TWEAK", static, equal to the header's string. */
    tu_clear_last_error();
    const char* v = hipdnnVersionString_ext();
    CHECK(v != NULL);
    if (!v)
        return check_finish("test_version");
    CHECK(v == hipdnnVersionString_ext());
    int major = -1, minor = -1, patch = -1, used = 0;
    char tweak[64] = {0};
    CHECK_EQ_INT(sscanf(v, "%d.%d.%d.%63s%n", &major, &minor, &patch, tweak, &used), 4);
    CHECK_EQ_INT(used, (int)strlen(v)); /* nothing after the tweak */
    CHECK(major >= 0 && minor >= 0 && patch >= 0 && tweak[0] != '\0');
    int m2 = -1, n2 = -1, p2 = -1;
    CHECK_EQ_INT(sscanf(v, "%d.%d.%d", &m2, &n2, &p2), 3); /* the frontend's reader */
    CHECK_STREQ(v, HIPDNN_BACKEND_VERSION_STRING);
    CHECK_EQ_INT(major, HIPDNN_BACKEND_VERSION_MAJOR);
    CHECK_EQ_INT(minor, HIPDNN_BACKEND_VERSION_MINOR);
    CHECK_EQ_INT(patch, HIPDNN_BACKEND_VERSION_PATCH);
    CHECK_STREQ(tweak, HIPDNN_BACKEND_VERSION_TWEAK);
    /* spec §8.1: AMD's frontend requires the backend's MAJOR to equal its own. Which major that
     * is is not recorded; docs/compatibility.md pairs us with 0 (the backend forks report 0.2.0
     * and 0.3.0, and the frontend ships from the same tree). */
    if (major != 0)
        CHECK_FAIL("hipdnnVersionString_ext() is \"%s\": docs/compatibility.md promises major 0", v);
    check_count++;

    /* hipdnnGetVersion_ext: the same pointer; NULL is BAD_PARAM_NULL_POINTER. Its first call
     * with WARN enabled logs one deprecation WARN naming the replacement; later calls none. */
    const char* gv = NULL;
    tu_log_counter deprecation;
    tu_count_logs(&deprecation, HIPDNN_SEV_WARN, "hipdnnGetVersion_ext is deprecated; use hipdnnVersionString_ext");
    CHECK_OK(hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_WARN));
    CHECK_OK(hipdnnGetVersion_ext(&gv));
    CHECK_OK(hipdnnGetVersion_ext(&gv));
    CHECK_EQ_INT(tu_logs_counted(&deprecation), 1);
    CHECK_OK(hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_OFF));
    tu_stop_counting(&deprecation);
    CHECK(gv == v);
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "Null pointer provided to hipdnnGetVersion_ext: version is NULL",
              hipdnnGetVersion_ext(NULL));
    char msg[8] = "x";
    hipdnnPeekLastErrorString_ext(msg, sizeof msg);
    CHECK_STREQ(msg, ""); /* CHECK_ERR consumed it; hipdnnVersionString_ext sets none */

    /* hipdnnGetComponentVersion_ext for all six kinds. */
    int64_t ver[6][3];
    for (int k = 0; k <= 5; k++) {
        ver[k][0] = ver[k][1] = ver[k][2] = -1;
        hipdnnStatus_t st = hipdnnGetComponentVersion_ext((hipdnnVersionKind_ext_t)k, &ver[k][0], &ver[k][1], &ver[k][2]);
        if (st != HIPDNN_STATUS_SUCCESS)
            CHECK_FAIL("kind %d: %s", k, hipdnnGetErrorString(st));
        if (ver[k][0] < 0 || ver[k][1] < 0 || ver[k][2] < 0)
            CHECK_FAIL("kind %d: %lld.%lld.%lld", k, (long long)ver[k][0], (long long)ver[k][1], (long long)ver[k][2]);
        check_count++;
    }
    CHECK_EQ_INT(ver[HIPDNN_VERSION_KIND_PRODUCT_EXT][0], major);
    CHECK_EQ_INT(ver[HIPDNN_VERSION_KIND_PRODUCT_EXT][1], minor);
    CHECK_EQ_INT(ver[HIPDNN_VERSION_KIND_PRODUCT_EXT][2], patch);
    CHECK_EQ_INT(ver[HIPDNN_VERSION_KIND_C_ABI_EXT][0], HIPDNN_BACKEND_C_ABI_VERSION_MAJOR);
    CHECK_EQ_INT(ver[HIPDNN_VERSION_KIND_C_ABI_EXT][1], HIPDNN_BACKEND_C_ABI_VERSION_MINOR);
    CHECK_EQ_INT(ver[HIPDNN_VERSION_KIND_C_ABI_EXT][2], HIPDNN_BACKEND_C_ABI_VERSION_PATCH);
    /* Engine plugin API range: min <= max; the current engine API major is 1 (spec §7). */
    CHECK(triple_le(ver[HIPDNN_VERSION_KIND_ENGINE_PLUGIN_API_MIN_EXT], ver[HIPDNN_VERSION_KIND_ENGINE_PLUGIN_API_MAX_EXT]));
    CHECK_EQ_INT(ver[HIPDNN_VERSION_KIND_ENGINE_PLUGIN_API_MAX_EXT][0], 1);
    CHECK(ver[HIPDNN_VERSION_KIND_ENGINE_PLUGIN_API_MIN_EXT][0] <= 1);
    /* The CPU reference engine (engine API 1.4.0) is hosted, so the range reaches it. */
    static const int64_t cpu[3] = {1, 4, 0};
    CHECK(triple_le(cpu, ver[HIPDNN_VERSION_KIND_ENGINE_PLUGIN_API_MAX_EXT]));
    /* The heuristic plugin API major is 0 (checklist item 73). */
    CHECK_EQ_INT(ver[HIPDNN_VERSION_KIND_HEURISTIC_PLUGIN_API_EXT][0], 0);
    CHECK(ver[HIPDNN_VERSION_KIND_GRAPH_SCHEMA_EXT][0] >= 1);

    /* NULL outputs and bad kinds; nothing is written on failure. */
    int64_t a = -7, b = -7, c = -7;
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
              "Null pointer provided to hipdnnGetComponentVersion_ext: major, minor and patch is NULL",
              hipdnnGetComponentVersion_ext(HIPDNN_VERSION_KIND_C_ABI_EXT, NULL, &b, &c));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
              "Null pointer provided to hipdnnGetComponentVersion_ext: major, minor and patch is NULL",
              hipdnnGetComponentVersion_ext(HIPDNN_VERSION_KIND_C_ABI_EXT, &a, NULL, &c));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
              "Null pointer provided to hipdnnGetComponentVersion_ext: major, minor and patch is NULL",
              hipdnnGetComponentVersion_ext(HIPDNN_VERSION_KIND_C_ABI_EXT, &a, &b, NULL));
    CHECK(a == -7 && b == -7 && c == -7);
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "6", hipdnnGetComponentVersion_ext((hipdnnVersionKind_ext_t)6, &a, &b, &c));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "hipdnnGetComponentVersion_ext: -1 is not a hipdnnVersionKind_ext_t",
              hipdnnGetComponentVersion_ext((hipdnnVersionKind_ext_t)-1, &a, &b, &c));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "hipdnnGetComponentVersion_ext: 1000 is not a hipdnnVersionKind_ext_t",
              hipdnnGetComponentVersion_ext((hipdnnVersionKind_ext_t)1000, &a, &b, &c));
    CHECK(a == -7 && b == -7 && c == -7);
    /* NULL pointers are checked before the kind. */
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
                 hipdnnGetComponentVersion_ext((hipdnnVersionKind_ext_t)99, NULL, NULL, NULL));
    tu_clear_last_error();
    printf(
        "backend %s, C ABI %lld.%lld.%lld, engine API %lld.%lld.%lld..%lld.%lld.%lld, heuristic API %lld.%lld.%lld, graph schema %lld.%lld.%lld\n",
        v, (long long)ver[1][0], (long long)ver[1][1], (long long)ver[1][2], (long long)ver[2][0], (long long)ver[2][1],
        (long long)ver[2][2], (long long)ver[3][0], (long long)ver[3][1], (long long)ver[3][2], (long long)ver[4][0],
        (long long)ver[4][1], (long long)ver[4][2], (long long)ver[5][0], (long long)ver[5][1], (long long)ver[5][2]);
    return check_finish("test_version");
}
