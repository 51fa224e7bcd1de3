/* HIPDNN_HEUR_CONFIG_PATH (set by test_heur_config_rules.cmake to RULE_FILE, which this test
 * rewrites between finalizes): the built-in SelectionHeuristic::Config policy, first in the
 * default order, moves the engine named by the first matching rule to the front, for a
 * convolution graph (conv_fprop) and a matmul graph (matmul); otherwise it declines and
 * StaticOrdering decides. Engines: good (-2) and TEST_HASHED_NAME_ENGINE. */
#include "plugin_testutil.h"

static void write_rules(const char* text) {
    FILE* f = fopen(RULE_FILE, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

int main(void) {
    const char* env = getenv("HIPDNN_HEUR_CONFIG_PATH");
    CHECK(env != NULL && strcmp(env, RULE_FILE) == 0);
    const char* engines[] = {PT_GOOD, PT_HASHED};
    pt_engine_paths(PT_COUNT(engines), engines);
    pt_heur_paths(0, NULL);
    hipdnnHandle_t h = pt_create(NULL, 0);
    hipdnnBackendDescriptor_t conv = pt_conv_graph(h);
    hipdnnBackendDescriptor_t mm = pt_matmul_graph(h);

    /* StaticOrdering's order; the rules will name its last engine */
    int64_t s[4], ids[4];
    const int64_t o_static[] = {PT_POLICY_STATIC};
    CHECK_EQ_INT(pt_rank(conv, 1, o_static, s, 4), 2);
    int64_t a = s[0], b = s[1];
    char bname[64], rules[2048];
    pt_engine_name(h, b, bname, sizeof bname);
    CHECK(bname[0] != '\0');

    /* no file content that matches: Config declines */
    write_rules("{ \"engine_overrides\": [] }");
    CHECK_IDS(pt_rank(conv, -1, NULL, ids, 4), ids, a, b);
    write_rules("this is not JSON");
    CHECK_IDS(pt_rank(conv, -1, NULL, ids, 4), ids, a, b);

    /* a convolution rule (version 1, positional x and w) */
    snprintf(rules, sizeof rules,
             "{ \"version\": 1, \"engine_overrides\": [\n"
             "  { \"op\": \"conv_fprop\", \"engine_name\": \"%s\",\n"
             "    \"tensors\": [ { \"dim\": [1, 8, 10, 10] }, { \"dim\": [4, 8, 3, 3], \"stride\": [72, 9, 3, 1] } ] } ] }\n",
             bname);
    write_rules(rules);
    CHECK_IDS(pt_rank(conv, -1, NULL, ids, 4), ids, b, a);
    CHECK_IDS(pt_rank(mm, -1, NULL, ids, 4), ids, a, b); /* no matmul rule */
    /* Config alone now applies to the conv graph and declines for the matmul graph */
    const int64_t o_config[] = {PT_POLICY_CONFIG};
    CHECK_IDS(pt_rank(conv, 1, o_config, ids, 4), ids, b, a);
    hipdnnBackendDescriptor_t hd = NULL;
    CHECK_STATUS(HIPDNN_STATUS_INTERNAL_ERROR, pt_heur(mm, 1, o_config, &hd));
    tu_clear_last_error();

    /* dims that do not match, and a wildcard that does */
    snprintf(rules, sizeof rules,
             "{ \"engine_overrides\": [\n"
             "  { \"op\": \"conv_fprop\", \"engine_name\": \"%s\", \"tensors\": [ { \"dim\": [2, 8, 10, 10] } ] } ] }\n",
             bname);
    write_rules(rules);
    CHECK_IDS(pt_rank(conv, -1, NULL, ids, 4), ids, a, b);
    snprintf(rules, sizeof rules,
             "{ \"engine_overrides\": [\n"
             "  { \"op\": \"conv_fprop\", \"engine_name\": \"%s\", \"tensors\": [ { \"dim\": [-1, 8, -1, 10] } ] } ] }\n",
             bname);
    write_rules(rules);
    CHECK_IDS(pt_rank(conv, -1, NULL, ids, 4), ids, b, a);

    /* a matmul rule naming the engine by decimal id; version 2 with a named tensor for conv */
    snprintf(rules, sizeof rules,
             "{ \"version\": 2, \"engine_overrides\": [\n"
             "  { \"op\": \"matmul\", \"engine_name\": \"%lld\",\n"
             "    \"tensors\": [ { \"dim\": [1, 16, 32] }, { \"dim\": [1, 32, 8] } ] },\n"
             "  { \"op\": \"conv_fprop\", \"engine_name\": \"%s\",\n"
             "    \"tensors\": [ { \"tensor_id\": \"w_tensor_uid\", \"dim\": [4, 8, 3, 3] } ] } ] }\n",
             (long long)b, bname);
    write_rules(rules);
    CHECK_IDS(pt_rank(mm, -1, NULL, ids, 4), ids, b, a);
    CHECK_IDS(pt_rank(conv, -1, NULL, ids, 4), ids, b, a);

    /* a rule naming an engine that is not a candidate: declines */
    write_rules("{ \"engine_overrides\": [ { \"op\": \"matmul\", \"engine_name\": \"MIOPEN_ENGINE\" } ] }");
    CHECK_IDS(pt_rank(mm, -1, NULL, ids, 4), ids, a, b);

    /* first matching rule wins */
    snprintf(rules, sizeof rules,
             "{ \"engine_overrides\": [\n"
             "  { \"op\": \"matmul\", \"engine_name\": \"%lld\" },\n"
             "  { \"op\": \"matmul\", \"engine_name\": \"%lld\" } ] }\n",
             (long long)b, (long long)a);
    write_rules(rules);
    CHECK_IDS(pt_rank(mm, -1, NULL, ids, 4), ids, b, a);

    remove(RULE_FILE);
    CHECK_IDS(pt_rank(mm, -1, NULL, ids, 4), ids, a, b);
    pt_release_all();
    CHECK_OK(hipdnnDestroy(h));
    return check_finish("test_heur_config_rules");
}
