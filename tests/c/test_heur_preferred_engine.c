/* HIPDNN_PREFERRED_ENGINE, read by SelectionHeuristic::Config on every heuristic finalize: an
 * engine name, a decimal id or a 0x hex id goes first when it is a candidate. It beats the
 * graph's preferred engine (attribute 607) and loses to a matching rule of the rule file. A
 * value naming no loaded engine changes nothing, fails nothing, and logs one WARN per process. */
#include <unistd.h>

#include "plugin_testutil.h"

int main(void) {
    tu_log_counter unknown;
    tu_count_logs(&unknown, HIPDNN_SEV_WARN, "HIPDNN_PREFERRED_ENGINE=\"NO_SUCH_ENGINE\" names no loaded engine");
    CHECK_OK(hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_WARN));
    const char* engines[] = {PT_GOOD, PT_HASHED, PT_GOOD_DEFAULT};
    pt_engine_paths(PT_COUNT(engines), engines);
    pt_heur_paths(0, NULL);
    unsetenv("HIPDNN_PREFERRED_ENGINE");
    unsetenv("HIPDNN_HEUR_CONFIG_PATH");
    hipdnnHandle_t h = pt_create(NULL, 0);
    hipdnnBackendDescriptor_t g = pt_pointwise_graph(h, NULL);
    int64_t base[8], ids[8];
    int n = pt_rank(g, -1, NULL, base, 8);
    CHECK_EQ_INT(n, 3);
    /* The engine the test moves first must not already be first, or the test shows nothing. */
    CHECK(base[0] != PT_ID_HASHED && base[0] != PT_ID_GOOD_DEFAULT);

    /* By name, by decimal id, by hex id (two's complement of the negative id -2). */
    setenv("HIPDNN_PREFERRED_ENGINE", "TEST_HASHED_NAME_ENGINE", 1);
    CHECK(pt_rank(g, -1, NULL, ids, 8) == 3 && ids[0] == PT_ID_HASHED);
    setenv("HIPDNN_PREFERRED_ENGINE", " 6895129033112041900 ", 1);
    CHECK(pt_rank(g, -1, NULL, ids, 8) == 3 && ids[0] == PT_ID_GOOD_DEFAULT);
    setenv("HIPDNN_PREFERRED_ENGINE", "0xFFFFFFFFFFFFFFFE", 1);
    CHECK(pt_rank(g, -1, NULL, ids, 8) == 3 && ids[0] == PT_ID_GOOD);
    /* The others keep their order behind it. */
    setenv("HIPDNN_PREFERRED_ENGINE", "TEST_HASHED_NAME_ENGINE", 1);
    pt_rank(g, -1, NULL, ids, 8);
    for (int i = 0, j = 1; i < 3; i++)
        if (base[i] != PT_ID_HASHED)
            CHECK(ids[j++] == base[i]);

    /* Unknown: the default order, a successful finalize, one WARN however often it is read. */
    setenv("HIPDNN_PREFERRED_ENGINE", "NO_SUCH_ENGINE", 1);
    CHECK_IDS(pt_rank(g, -1, NULL, ids, 8), ids, base[0], base[1], base[2]);
    CHECK_IDS(pt_rank(g, -1, NULL, ids, 8), ids, base[0], base[1], base[2]);
    CHECK_EQ_INT(tu_logs_counted(&unknown), 1);

    /* The environment beats the graph's preferred engine: env first, the graph's second. */
    pt_graph_opts prefer = {0, false, false, HIPDNN_DATA_FLOAT, PT_ID_GOOD_DEFAULT};
    hipdnnBackendDescriptor_t gp = pt_pointwise_graph(h, &prefer);
    setenv("HIPDNN_PREFERRED_ENGINE", "TEST_HASHED_NAME_ENGINE", 1);
    CHECK_IDS(pt_rank(gp, -1, NULL, ids, 8) >= 2 ? 2 : 0, ids, PT_ID_HASHED, PT_ID_GOOD_DEFAULT);
    unsetenv("HIPDNN_PREFERRED_ENGINE");
    CHECK(pt_rank(gp, -1, NULL, ids, 8) == 3 && ids[0] == PT_ID_GOOD_DEFAULT);

    /* A matching rule of the rule file beats the environment. */
    char rules[] = "/tmp/hipdnn_pref_rules_XXXXXX";
    int fd = mkstemp(rules);
    CHECK(fd >= 0);
    if (fd >= 0) {
        const char* text = "{\"engine_overrides\": [{\"op\": \"pointwise\", \"engine_name\": \"TEST_GOOD_DEFAULT_ENGINE\"}]}";
        CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
        close(fd);
        setenv("HIPDNN_HEUR_CONFIG_PATH", rules, 1);
        setenv("HIPDNN_PREFERRED_ENGINE", "TEST_HASHED_NAME_ENGINE", 1);
        CHECK_IDS(pt_rank(g, -1, NULL, ids, 8) >= 2 ? 2 : 0, ids, PT_ID_GOOD_DEFAULT, PT_ID_HASHED);
        unlink(rules);
    }
    pt_release_all();
    CHECK_OK(hipdnnDestroy(h));
    tu_stop_counting(&unknown);
    return check_finish("test_heur_preferred_engine");
}
