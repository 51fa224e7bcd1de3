/* The engine heuristic descriptor (items 14, 15, 46-53, 55) with two applicable test engines
 * (good -2, TEST_HASHED_NAME_ENGINE) and the built-in policies only; then no applicable engine
 * at all (item 50, the two no-applicable plugins). */
#include <math.h>

#include "plugin_testutil.h"

static hipdnnBackendDescriptor_t new_heur(void) { return pt_new(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR); }

static void set_graph(hipdnnBackendDescriptor_t hd, hipdnnBackendDescriptor_t g) {
    CHECK_OK(hipdnnBackendSetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &g));
}

static void set_mode(hipdnnBackendDescriptor_t hd) {
    hipdnnBackendHeurMode_t m = HIPDNN_HEUR_MODE_FALLBACK;
    CHECK_OK(hipdnnBackendSetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &m));
}

/* item 46, 47, 48, 14, 15 */
static void required_and_mode(hipdnnBackendDescriptor_t g) {
    hipdnnBackendDescriptor_t hd = new_heur();
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "EngineHeuristicDescriptor::finalize() failed: required attribute(s) not set: HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_ATTR_ENGINEHEUR_MODE",
        hipdnnBackendFinalize(hd));
    set_mode(hd);
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "EngineHeuristicDescriptor::finalize() failed: required attribute(s) not set: HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH",
        hipdnnBackendFinalize(hd)); /* no graph */
    hd = new_heur();
    set_graph(hd, g);
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "EngineHeuristicDescriptor::finalize() failed: required attribute(s) not set: HIPDNN_ATTR_ENGINEHEUR_MODE",
              hipdnnBackendFinalize(hd)); /* no mode */
    int64_t n = 0;
    int64_t cnt = 0;
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED, "EngineHeuristicDescriptor::getAttribute() failed: Not finalized.",
              hipdnnBackendGetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0, &cnt, NULL));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED, "EngineHeuristicDescriptor::getAttribute() failed: Not finalized.",
              hipdnnBackendGetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_POLICY_ORDER_EXT, HIPDNN_TYPE_INT64, 0, &cnt, NULL));

    /* mode: type HEUR_MODE, one element, FALLBACK only */
    int64_t as_int = HIPDNN_HEUR_MODE_FALLBACK;
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "EngineHeuristicDescriptor::setAttribute() failed: attribute HIPDNN_ATTR_ENGINEHEUR_MODE takes HIPDNN_TYPE_HEUR_MODE, not HIPDNN_TYPE_INT64",
        hipdnnBackendSetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_INT64, 1, &as_int));
    hipdnnBackendHeurMode_t modes[2] = {HIPDNN_HEUR_MODE_FALLBACK, HIPDNN_HEUR_MODE_FALLBACK};
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "EngineHeuristicDescriptor::setAttribute() failed: HIPDNN_ATTR_ENGINEHEUR_MODE takes exactly 1 element(s), got 2",
              hipdnnBackendSetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 2, modes));
    hipdnnBackendHeurMode_t other = (hipdnnBackendHeurMode_t)1;
    CHECK_ERR(
        HIPDNN_STATUS_NOT_SUPPORTED,
        "EngineHeuristicDescriptor: heuristic mode 1 is not supported; the supported mode is HIPDNN_HEUR_MODE_FALLBACK (0) — to rank by predictions put SelectionHeuristic::ModeA or ModeB in HIPDNN_ATTR_ENGINEHEUR_POLICY_ORDER_EXT",
        hipdnnBackendSetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &other));
    other = (hipdnnBackendHeurMode_t)3;
    CHECK_ERR(
        HIPDNN_STATUS_NOT_SUPPORTED,
        "EngineHeuristicDescriptor: heuristic mode 3 is not supported; the supported mode is HIPDNN_HEUR_MODE_FALLBACK (0) — to rank by predictions put SelectionHeuristic::ModeA or ModeB in HIPDNN_ATTR_ENGINEHEUR_POLICY_ORDER_EXT",
        hipdnnBackendSetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &other));
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
                 hipdnnBackendSetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, NULL));
    tu_clear_last_error();
    /* read-only and foreign attributes */
    hipdnnBackendDescriptor_t cfg = pt_new(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR);
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED,
              "EngineHeuristicDescriptor::setAttribute() failed: attribute HIPDNN_ATTR_ENGINEHEUR_RESULTS is read-only",
              hipdnnBackendSetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &cfg));
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED,
              "EngineHeuristicDescriptor does not support attribute HIPDNN_ATTR_ENGINEHEUR_SM_COUNT_TARGET (103",
              hipdnnBackendSetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_SM_COUNT_TARGET, HIPDNN_TYPE_INT64, 1, &n));
    /* graph: descriptor kind and finalization */
    hipdnnBackendDescriptor_t open_graph = pt_new(HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR);
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED,
        "EngineHeuristicDescriptor::setAttribute() failed: the HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR given for HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH is not finalized",
        hipdnnBackendSetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &open_graph));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "EngineHeuristicDescriptor::setAttribute() failed: Descriptor type mismatch: HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH takes HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, not HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR",
        hipdnnBackendSetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &cfg));
    hipdnnBackendDescriptor_t null_desc = NULL;
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, hipdnnBackendSetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH,
                                                                                 HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &null_desc));
    tu_clear_last_error();

    /* either order of setting both, then finalize */
    set_mode(hd);
    CHECK_OK(hipdnnBackendFinalize(hd));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "EngineHeuristicDescriptor::finalize() failed: Already finalized.",
              hipdnnBackendFinalize(hd)); /* item 15 */
    CHECK_ERR(HIPDNN_STATUS_NOT_INITIALIZED, "EngineHeuristicDescriptor::setAttribute() failed: Already finalized.",
              hipdnnBackendSetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &g));
    hipdnnBackendDescriptor_t hd2 = new_heur();
    set_mode(hd2);
    set_graph(hd2, g);
    CHECK_OK(hipdnnBackendFinalize(hd2));
    hipdnnBackendHeurMode_t got = (hipdnnBackendHeurMode_t)7;
    CHECK_OK(hipdnnBackendGetAttribute(hd2, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &cnt, &got));
    CHECK_EQ_INT(got, HIPDNN_HEUR_MODE_FALLBACK);
    hipdnnBackendDescriptor_t gback = NULL;
    CHECK_OK(
        hipdnnBackendGetAttribute(hd2, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &cnt, &gback));
    CHECK(gback != NULL);
    pt_track(gback);
}

/* item 49 */
static void results(hipdnnBackendDescriptor_t g, hipdnnBackendDescriptor_t t) {
    hipdnnBackendDescriptor_t hd = NULL;
    CHECK_OK(pt_heur(g, -1, NULL, &hd));
    int64_t count = -1;
    CHECK_OK(hipdnnBackendGetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0, &count, NULL));
    CHECK_EQ_INT(count, 2);
    hipdnnBackendDescriptor_t cfgs[5];
    for (int i = 0; i < 5; i++)
        cfgs[i] = pt_new(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR);
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
                 hipdnnBackendGetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 2, &count, NULL));
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
                 hipdnnBackendGetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 2, NULL, cfgs));
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
                 hipdnnBackendGetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0, NULL, NULL));
    tu_clear_last_error();
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "EngineHeuristicDescriptor::getAttribute() failed: attribute HIPDNN_ATTR_ENGINEHEUR_RESULTS has type HIPDNN_TYPE_BACKEND_DESCRIPTOR, not HIPDNN_TYPE_INT64",
        hipdnnBackendGetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_INT64, 2, &count, cfgs));
    hipdnnBackendDescriptor_t with_null[2] = {cfgs[0], NULL};
    CHECK_STATUS(
        HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
        hipdnnBackendGetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 2, &count, with_null));
    tu_clear_last_error();
    hipdnnBackendDescriptor_t with_tensor[2] = {cfgs[0], t};
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "EngineHeuristicDescriptor::getAttribute() failed: Descriptor type mismatch: element 1 is a HIPDNN_BACKEND_TENSOR_DESCRIPTOR, not an engine config",
        hipdnnBackendGetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 2, &count, with_tensor));

    /* min(requested, available); the caller's configs are filled, left unfinalized */
    count = -1;
    CHECK_OK(hipdnnBackendGetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 5, &count, cfgs));
    CHECK_EQ_INT(count, 2);
    int64_t ids[2] = {0, 0};
    for (int i = 0; i < 2; i++) {
        int64_t ws = 0, n = 0;
        CHECK_ERR(HIPDNN_STATUS_NOT_INITIALIZED, "EngineConfigDescriptor::getAttribute() failed: Not finalized.",
                  hipdnnBackendGetAttribute(cfgs[i], HIPDNN_ATTR_ENGINECFG_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1, &n, &ws));
        CHECK_OK(hipdnnBackendFinalize(cfgs[i]));
        hipdnnBackendDescriptor_t e = NULL;
        CHECK_OK(hipdnnBackendGetAttribute(cfgs[i], HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, NULL, &e));
        pt_track(e);
        ids[i] = pt_get_int64(e, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX);
        char metric[16] = "";
        CHECK_OK(hipdnnBackendGetAttribute(cfgs[i], HIPDNN_ATTR_ENGINECFG_RANKING_METRIC_EXT, HIPDNN_TYPE_CHAR, sizeof metric, &n,
                                           metric));
        CHECK_STREQ(metric, "tflops");
    }
    CHECK((ids[0] == PT_ID_GOOD && ids[1] == PT_ID_HASHED) || (ids[0] == PT_ID_HASHED && ids[1] == PT_ID_GOOD));
    /* configs past the available count were not touched */
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "EngineConfigDescriptor::finalize() failed: required attribute(s) not set: HIPDNN_ATTR_ENGINECFG_ENGINE",
              hipdnnBackendFinalize(cfgs[2]));
    /* asking for fewer */
    hipdnnBackendDescriptor_t one = pt_new(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR);
    CHECK_OK(hipdnnBackendGetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &count, &one));
    CHECK_EQ_INT(count, 1);
    CHECK_OK(hipdnnBackendFinalize(one));
    hipdnnBackendDescriptor_t e = NULL;
    CHECK_OK(hipdnnBackendGetAttribute(one, HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, NULL, &e));
    pt_track(e);
    CHECK_EQ_INT(pt_get_int64(e, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX), ids[0]);
}

/* item 51 */
static void find_first(hipdnnBackendDescriptor_t g) {
    hipdnnBackendDescriptor_t hd = new_heur();
    set_graph(hd, g);
    set_mode(hd);
    int64_t as_int = 1;
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "EngineHeuristicDescriptor::setAttribute() failed: attribute HIPDNN_ATTR_ENGINEHEUR_FIND_FIRST_EXT takes HIPDNN_TYPE_BOOLEAN, not HIPDNN_TYPE_INT64",
        hipdnnBackendSetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_FIND_FIRST_EXT, HIPDNN_TYPE_INT64, 1, &as_int));
    bool yes = true;
    CHECK_OK(hipdnnBackendSetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_FIND_FIRST_EXT, HIPDNN_TYPE_BOOLEAN, 1, &yes));
    /* no policy runs, so even an empty policy order is fine */
    CHECK_OK(hipdnnBackendSetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_POLICY_ORDER_EXT, HIPDNN_TYPE_INT64, 0, NULL));
    CHECK_OK(hipdnnBackendFinalize(hd));
    bool got = false;
    int64_t n = 0;
    CHECK_OK(hipdnnBackendGetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_FIND_FIRST_EXT, HIPDNN_TYPE_BOOLEAN, 1, &n, &got));
    CHECK(got);
    CHECK_EQ_INT(n, 1);
    int64_t ids[4];
    int k = pt_result_ids(hd, ids, 4);
    CHECK(k >= 1); /* the candidates of the first plugin offering any */
    CHECK(k <= 2);
}

/* items 52, 53, 55 */
static void policy_order(hipdnnBackendDescriptor_t g) {
    char err[HIPDNN_ERROR_STRING_MAX_LENGTH];
    hipdnnBackendDescriptor_t hd = new_heur();
    set_graph(hd, g);
    set_mode(hd);
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "EngineHeuristicDescriptor::setAttribute() failed: attribute HIPDNN_ATTR_ENGINEHEUR_POLICY_ORDER_EXT takes HIPDNN_TYPE_INT64, not HIPDNN_TYPE_CHAR",
        hipdnnBackendSetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_POLICY_ORDER_EXT, HIPDNN_TYPE_CHAR, 5, "x,y,z"));
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
                 hipdnnBackendSetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_POLICY_ORDER_EXT, HIPDNN_TYPE_INT64, 2, NULL));
    tu_clear_last_error();
    /* verbatim, duplicates and unknown ids kept; the later set replaces the earlier */
    const int64_t first[1] = {PT_POLICY_CONFIG};
    CHECK_OK(hipdnnBackendSetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_POLICY_ORDER_EXT, HIPDNN_TYPE_INT64, 1, first));
    const int64_t order[4] = {42, PT_POLICY_STATIC, -7, PT_POLICY_STATIC};
    CHECK_OK(hipdnnBackendSetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_POLICY_ORDER_EXT, HIPDNN_TYPE_INT64, 4, order));
    CHECK_OK(hipdnnBackendFinalize(hd));
    int64_t got[8] = {0}, n = 0;
    CHECK_OK(hipdnnBackendGetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_POLICY_ORDER_EXT, HIPDNN_TYPE_INT64, 0, &n, NULL));
    CHECK_EQ_INT(n, 4);
    CHECK_OK(hipdnnBackendGetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_POLICY_ORDER_EXT, HIPDNN_TYPE_INT64, 8, &n, got));
    CHECK_EQ_INT(n, 4);
    CHECK(memcmp(got, order, sizeof order) == 0);
    int64_t ids[4];
    CHECK_EQ_INT(pt_result_ids(hd, ids, 4), 2);

    /* the default, resolved: [Config, StaticOrdering] */
    hipdnnBackendDescriptor_t def = NULL;
    CHECK_OK(pt_heur(g, -1, NULL, &def));
    CHECK_EQ_INT(PT_POLICY_CONFIG, pt_fnv1a("SelectionHeuristic::Config"));
    CHECK_EQ_INT(PT_POLICY_STATIC, pt_fnv1a("SelectionHeuristic::StaticOrdering"));
    memset(got, 0, sizeof got);
    CHECK_OK(hipdnnBackendGetAttribute(def, HIPDNN_ATTR_ENGINEHEUR_POLICY_ORDER_EXT, HIPDNN_TYPE_INT64, 8, &n, got));
    CHECK_EQ_INT(n, 2);
    CHECK_EQ_INT(got[0], INT64_C(0x79DAC33209E0D5C1));
    CHECK_EQ_INT((uint64_t)got[1], UINT64_C(0xB90B95E3C49B021D));
    /* truncation, argument checks */
    got[1] = 99;
    CHECK_OK(hipdnnBackendGetAttribute(def, HIPDNN_ATTR_ENGINEHEUR_POLICY_ORDER_EXT, HIPDNN_TYPE_INT64, 1, &n, got));
    CHECK_EQ_INT(n, 1);
    CHECK_EQ_INT(got[0], PT_POLICY_CONFIG);
    CHECK_EQ_INT(got[1], 99);
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
                 hipdnnBackendGetAttribute(def, HIPDNN_ATTR_ENGINEHEUR_POLICY_ORDER_EXT, HIPDNN_TYPE_INT64, 0, NULL, NULL));
    tu_clear_last_error();
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "EngineHeuristicDescriptor::getAttribute() failed: requestedElementCount -1 is negative",
              hipdnnBackendGetAttribute(def, HIPDNN_ATTR_ENGINEHEUR_POLICY_ORDER_EXT, HIPDNN_TYPE_INT64, -1, &n, got));
    double d[2];
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "EngineHeuristicDescriptor::getAttribute() failed: attribute HIPDNN_ATTR_ENGINEHEUR_POLICY_ORDER_EXT has type HIPDNN_TYPE_INT64, not HIPDNN_TYPE_DOUBLE",
        hipdnnBackendGetAttribute(def, HIPDNN_ATTR_ENGINEHEUR_POLICY_ORDER_EXT, HIPDNN_TYPE_DOUBLE, 2, &n, d));

    /* item 55: nothing to run -> INTERNAL_ERROR "No heuristic policy succeeded" */
    hipdnnBackendDescriptor_t x = NULL;
    CHECK_STATUS(HIPDNN_STATUS_INTERNAL_ERROR, pt_heur(g, 0, NULL, &x)); /* explicit empty */
    CHECK(strncmp(pt_take_error(err, sizeof err), "No heuristic policy succeeded", 29) == 0);
    const int64_t unknown[2] = {42, pt_fnv1a("SelectionHeuristic::UHD")};
    CHECK_STATUS(HIPDNN_STATUS_INTERNAL_ERROR, pt_heur(g, 2, unknown, &x));
    CHECK(strncmp(pt_take_error(err, sizeof err), "No heuristic policy succeeded", 29) == 0);
    /* only declining policies: Config without a rule file, ModeA/ModeB without predictions */
    const int64_t declining[3] = {PT_POLICY_CONFIG, PT_POLICY_MODE_A, PT_POLICY_MODE_B};
    CHECK_STATUS(HIPDNN_STATUS_INTERNAL_ERROR, pt_heur(g, 3, declining, &x));
    CHECK(strncmp(pt_take_error(err, sizeof err), "No heuristic policy succeeded", 29) == 0);
    /* ... with StaticOrdering after them it succeeds */
    const int64_t rescued[4] = {PT_POLICY_CONFIG, PT_POLICY_MODE_A, 42, PT_POLICY_STATIC};
    CHECK_EQ_INT(pt_rank(g, 4, rescued, ids, 4), 2);
}

/* ranking metric attribute */
static void ranking_metric(hipdnnBackendDescriptor_t g) {
    hipdnnBackendDescriptor_t hd = new_heur();
    set_graph(hd, g);
    set_mode(hd);
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "EngineHeuristicDescriptor::setAttribute() failed: \"bogus\" is not a registered ranking metric (registered: [tflops time]",
        hipdnnBackendSetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_RANKING_METRIC_EXT, HIPDNN_TYPE_CHAR, 5, "bogus"));
    int64_t i = 1;
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "EngineHeuristicDescriptor::setAttribute() failed: attribute HIPDNN_ATTR_ENGINEHEUR_RANKING_METRIC_EXT takes HIPDNN_TYPE_CHAR, not HIPDNN_TYPE_INT64",
        hipdnnBackendSetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_RANKING_METRIC_EXT, HIPDNN_TYPE_INT64, 1, &i));
    CHECK_OK(hipdnnBackendSetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_RANKING_METRIC_EXT, HIPDNN_TYPE_CHAR, 4, "time"));
    CHECK_OK(hipdnnBackendFinalize(hd));
    char m[16] = "";
    int64_t n = 0;
    CHECK_OK(hipdnnBackendGetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_RANKING_METRIC_EXT, HIPDNN_TYPE_CHAR, sizeof m, &n, m));
    CHECK_STREQ(m, "time");
    hipdnnBackendDescriptor_t cfg = pt_new(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR);
    CHECK_OK(hipdnnBackendGetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &n, &cfg));
    CHECK_OK(hipdnnBackendGetAttribute(cfg, HIPDNN_ATTR_ENGINECFG_RANKING_METRIC_EXT, HIPDNN_TYPE_CHAR, sizeof m, &n, m));
    CHECK_STREQ(m, "time");
    /* unset: tflops */
    hipdnnBackendDescriptor_t def = NULL;
    CHECK_OK(pt_heur(g, -1, NULL, &def));
    CHECK_OK(hipdnnBackendGetAttribute(def, HIPDNN_ATTR_ENGINEHEUR_RANKING_METRIC_EXT, HIPDNN_TYPE_CHAR, sizeof m, &n, m));
    CHECK_STREQ(m, "tflops");
}

int main(void) {
    const char* files[] = {PT_GOOD, PT_HASHED};
    pt_engine_paths(PT_COUNT(files), files);
    pt_heur_paths(0, NULL);
    hipdnnHandle_t h = pt_create(NULL, 0);
    hipdnnBackendDescriptor_t g = pt_pointwise_graph(h, NULL);
    const int64_t dims[1] = {4};
    hipdnnBackendDescriptor_t t = pt_tensor(99, 1, dims, HIPDNN_DATA_FLOAT, false, 0, false);

    required_and_mode(g);
    results(g, t);
    find_first(g);
    policy_order(g);
    ranking_metric(g);
    pt_release_all();
    CHECK_OK(hipdnnDestroy(h));

    /* item 50: loaded engines, none applicable -> SUCCESS with zero results */
    const char* none[] = {PT_CUSTOM("test_no_applicable_engines_a_plugin"), PT_CUSTOM("test_no_applicable_engines_b_plugin")};
    pt_engine_paths(PT_COUNT(none), none);
    h = pt_create(NULL, 0);
    CHECK_EQ_INT(pt_engine_count(h), 2);
    g = pt_pointwise_graph(h, NULL);
    hipdnnBackendDescriptor_t hd = NULL;
    CHECK_OK(pt_heur(g, -1, NULL, &hd));
    int64_t count = -1;
    CHECK_OK(hipdnnBackendGetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0, &count, NULL));
    CHECK_EQ_INT(count, 0);
    hipdnnBackendDescriptor_t cfgs[2] = {pt_new(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR),
                                         pt_new(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR)};
    CHECK_OK(hipdnnBackendGetAttribute(hd, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 2, &count, cfgs));
    CHECK_EQ_INT(count, 0);
    /* even with an empty policy order: no policy runs without candidates */
    CHECK_OK(pt_heur(g, 0, NULL, &hd));
    pt_release_all();
    CHECK_OK(hipdnnDestroy(h));
    return check_finish("test_heur_descriptor");
}
