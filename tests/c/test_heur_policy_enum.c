/* Heuristic policy enumeration (items 71-73): hipdnnGetHeuristicPolicyCount_ext and the
 * 11-argument hipdnnGetHeuristicPolicyInfo_ext (two-call sizes, statuses), every policy's id
 * equal to FNV-1a-64 of its name computed here, versions MAJOR.MINOR.PATCH with heuristic API
 * major 0, the built-ins' plugin names, and the same set for every handle and call. Heuristic
 * plugins: the good one only. */
#include "plugin_testutil.h"

#define MAXP 32

typedef struct {
    int64_t id;
    char name[128], plugin[128], version[64], api[64];
} info_t;

static size_t list(hipdnnHandle_t h, info_t* out) {
    size_t n = 0;
    CHECK_OK(hipdnnGetHeuristicPolicyCount_ext(h, &n));
    for (size_t i = 0; i < n && i < MAXP; i++) {
        size_t a = sizeof out[i].name, b = sizeof out[i].plugin, c = sizeof out[i].version, d = sizeof out[i].api;
        CHECK_OK(hipdnnGetHeuristicPolicyInfo_ext(h, i, &out[i].id, out[i].name, &a, out[i].plugin, &b, out[i].version, &c,
                                                  out[i].api, &d));
    }
    return n;
}

static const info_t* find(const info_t* l, size_t n, const char* name) {
    for (size_t i = 0; i < n; i++)
        if (strcmp(l[i].name, name) == 0)
            return &l[i];
    CHECK_FAIL("policy %s not listed", name);
    return NULL;
}

/* hipDNN's version reader: MAJOR.MINOR.PATCH, trailing text ignored ("1.0.0-test") */
static bool parses(const char* v, int* major) {
    int a, b, c;
    if (sscanf(v, "%d.%d.%d", &a, &b, &c) != 3)
        return false;
    *major = a;
    return true;
}

/* same set of ids, order ignored */
static bool same_set(const info_t* x, size_t nx, const info_t* y, size_t ny) {
    if (nx != ny)
        return false;
    for (size_t i = 0; i < nx; i++) {
        bool found = false;
        for (size_t j = 0; j < ny; j++)
            if (x[i].id == y[j].id && strcmp(x[i].name, y[j].name) == 0)
                found = true;
        if (!found)
            return false;
    }
    return true;
}

int main(void) {
    const char* engines[] = {PT_GOOD};
    const char* heur[] = {PT_HEUR("test_good_heuristic_plugin")};
    pt_engine_paths(1, engines);
    pt_heur_paths(1, heur);
    hipdnnHandle_t h = pt_create(NULL, 0);

    size_t n = 0;
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, hipdnnGetHeuristicPolicyCount_ext(NULL, &n));
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, hipdnnGetHeuristicPolicyCount_ext(h, NULL));
    tu_clear_last_error();
    CHECK_OK(hipdnnGetHeuristicPolicyCount_ext(h, &n));
    CHECK_EQ_INT(n, 5); /* Config, StaticOrdering, ModeA, ModeB, TestHeuristic::Reverse */

    /* sizes: any NULL buffer writes all four sizes, NUL included; policyId may be NULL */
    for (size_t i = 0; i < n; i++) {
        size_t a = 0, b = 0, c = 0, d = 0;
        int64_t id = 0;
        CHECK_OK(hipdnnGetHeuristicPolicyInfo_ext(h, i, &id, NULL, &a, NULL, &b, NULL, &c, NULL, &d));
        CHECK(a > 1 && b > 1 && c > 1 && d > 1);
        char* name = (char*)malloc(a);
        char* plugin = (char*)malloc(b);
        char* ver = (char*)malloc(c);
        char* api = (char*)malloc(d);
        size_t a2 = a, b2 = b, c2 = c, d2 = d;
        CHECK_OK(hipdnnGetHeuristicPolicyInfo_ext(h, i, NULL, name, &a2, plugin, &b2, ver, &c2, api, &d2));
        CHECK_EQ_INT(strlen(name) + 1, a);
        CHECK_EQ_INT(strlen(plugin) + 1, b);
        CHECK_EQ_INT(strlen(ver) + 1, c);
        CHECK_EQ_INT(strlen(api) + 1, d);
        CHECK_EQ_INT(id, pt_fnv1a(name));
        int major = -1;
        CHECK(parses(ver, &major));
        CHECK(parses(api, &major));
        CHECK_EQ_INT(major, 0);
        /* one byte short in any of the four */
        a2 = a - 1;
        b2 = b;
        c2 = c;
        d2 = d;
        CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
                  "hipdnnGetHeuristicPolicyInfo_ext: Insufficient buffer space provided. (policyName needs",
                  hipdnnGetHeuristicPolicyInfo_ext(h, i, &id, name, &a2, plugin, &b2, ver, &c2, api, &d2));
        a2 = a;
        d2 = d - 1;
        CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
                  "hipdnnGetHeuristicPolicyInfo_ext: Insufficient buffer space provided. (apiVersion needs 6 bytes, got 5",
                  hipdnnGetHeuristicPolicyInfo_ext(h, i, &id, name, &a2, plugin, &b2, ver, &c2, api, &d2));
        /* a size query when only one buffer is NULL */
        a2 = 0;
        d2 = d;
        CHECK_OK(hipdnnGetHeuristicPolicyInfo_ext(h, i, &id, name, &a2, NULL, &b2, ver, &c2, api, &d2));
        CHECK_EQ_INT(a2, a);
        free(name);
        free(plugin);
        free(ver);
        free(api);
    }
    /* statuses */
    char s1[128], s2[128], s3[64], s4[64];
    size_t l1 = sizeof s1, l2 = sizeof s2, l3 = sizeof s3, l4 = sizeof s4;
    int64_t id = 0;
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "hipdnnGetHeuristicPolicyInfo_ext: policyIndex 5 is out of range (5 policies",
              hipdnnGetHeuristicPolicyInfo_ext(h, n, &id, s1, &l1, s2, &l2, s3, &l3, s4, &l4));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "hipdnnGetHeuristicPolicyInfo_ext: policyIndex 105 is out of range (5 policies",
              hipdnnGetHeuristicPolicyInfo_ext(h, n + 100, &id, NULL, &l1, NULL, &l2, NULL, &l3, NULL, &l4));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "hipdnnGetHeuristicPolicyInfo_ext: policyIndex 18446744073709551615 is out of range (5 policies",
              hipdnnGetHeuristicPolicyInfo_ext(h, (size_t)-1, &id, s1, &l1, s2, &l2, s3, &l3, s4, &l4));
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
                 hipdnnGetHeuristicPolicyInfo_ext(NULL, 0, &id, s1, &l1, s2, &l2, s3, &l3, s4, &l4));
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
                 hipdnnGetHeuristicPolicyInfo_ext(h, 0, &id, s1, NULL, s2, &l2, s3, &l3, s4, &l4));
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
                 hipdnnGetHeuristicPolicyInfo_ext(h, 0, &id, s1, &l1, s2, NULL, s3, &l3, s4, &l4));
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
                 hipdnnGetHeuristicPolicyInfo_ext(h, 0, &id, s1, &l1, s2, &l2, s3, NULL, s4, &l4));
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
                 hipdnnGetHeuristicPolicyInfo_ext(h, 0, &id, NULL, &l1, NULL, &l2, NULL, &l3, NULL, NULL));
    tu_clear_last_error();

    /* contents */
    static info_t l[MAXP], l_again[MAXP], l_other[MAXP];
    size_t nl = list(h, l);
    const info_t* p = find(l, nl, "SelectionHeuristic::Config");
    if (p) {
        CHECK_EQ_INT(p->id, PT_POLICY_CONFIG);
        CHECK_STREQ(p->plugin, "BuiltInConfigHeuristic");
        CHECK_STREQ(p->version, "1.0.0");
        CHECK_STREQ(p->api, "0.1.0");
    }
    p = find(l, nl, "SelectionHeuristic::StaticOrdering");
    if (p) {
        CHECK_EQ_INT(p->id, PT_POLICY_STATIC);
        CHECK_STREQ(p->plugin, "BuiltInStaticOrderingHeuristic");
        CHECK_STREQ(p->version, "1.0.0");
    }
    p = find(l, nl, "SelectionHeuristic::ModeA");
    if (p)
        CHECK_EQ_INT(p->id, PT_POLICY_MODE_A);
    p = find(l, nl, "SelectionHeuristic::ModeB");
    if (p)
        CHECK_EQ_INT(p->id, PT_POLICY_MODE_B);
    p = find(l, nl, "TestHeuristic::Reverse");
    if (p) {
        CHECK_EQ_INT(p->id, INT64_C(1496928865314240631));
        CHECK_STREQ(p->plugin, "test_good_heuristic_plugin");
        CHECK_STREQ(p->version, "1.0.0-test");
    }
    for (size_t i = 0; i < nl; i++)
        for (size_t j = i + 1; j < nl; j++)
            CHECK(l[i].id != l[j].id);

    /* the same set on every call and every handle */
    size_t na = list(h, l_again);
    CHECK(same_set(l, nl, l_again, na));
    hipdnnHandle_t h2 = pt_create(NULL, 0);
    hipdnnHandle_t h3 = pt_create(NULL, 0);
    size_t no = list(h3, l_other);
    CHECK(same_set(l, nl, l_other, no));
    CHECK_OK(hipdnnDestroy(h2));
    CHECK_OK(hipdnnDestroy(h3));
    CHECK_OK(hipdnnDestroy(h));

    /* built-ins stay with no heuristic plugin at all (ABSOLUTE, nothing) */
    pt_heur_paths(0, NULL);
    h = pt_create(NULL, 0);
    CHECK_OK(hipdnnGetHeuristicPolicyCount_ext(h, &n));
    CHECK_EQ_INT(n, 4);
    CHECK_OK(hipdnnDestroy(h));
    return check_finish("test_heur_policy_enum");
}
