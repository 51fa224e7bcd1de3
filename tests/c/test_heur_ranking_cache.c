/* hipdnnBackendWriteEngineRankingResults_ext (item 78) with HIPDNN_CACHE_DIR pointed at a
 * folder of the build tree (test_heur_ranking_cache.cmake): every outcome (NULL handle,
 * unkeyable / unfinalized graph, empty ranking, written, unchanged), the entry file on disk,
 * and the Config policy (first in the default order) putting the written ranking first when
 * the same graph - also rebuilt from scratch - is ranked again (spec usage_and_tests.md §2:
 * Config consults the cache first; a hit needs two stored engines that are candidates).
 * Engines: good (-2), TEST_HASHED_NAME_ENGINE, TEST_GOOD_DEFAULT_ENGINE. */
#define _XOPEN_SOURCE 700
#include <ftw.h>

#include "plugin_testutil.h"

static int nfiles;

static int rm_entry(const char* path, const struct stat* sb, int flag, struct FTW* ftw) {
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static int count_entry(const char* path, const struct stat* sb, int flag, struct FTW* ftw) {
    (void)sb;
    (void)ftw;
    size_t n = strlen(path);
    if (flag == FTW_F && n > 6 && strcmp(path + n - 6, ".jsonl") == 0 && strstr(path, "/autotune-rankings/") != NULL)
        nfiles++;
    return 0;
}

static int cache_files(void) {
    nfiles = 0;
    nftw(CACHE_DIR, count_entry, 16, FTW_PHYS);
    return nfiles;
}

static hipdnnAutotuneCacheWriteOutcome_ext_t write_ranking(hipdnnHandle_t h, hipdnnBackendDescriptor_t g, const int64_t* ids,
                                                           size_t n) {
    hipdnnAutotuneCacheWriteOutcome_ext_t out = (hipdnnAutotuneCacheWriteOutcome_ext_t)99;
    CHECK_OK(hipdnnBackendWriteEngineRankingResults_ext(h, g, ids, n, &out));
    return out;
}

int main(void) {
    const char* env = getenv("HIPDNN_CACHE_DIR");
    CHECK(env != NULL && strcmp(env, CACHE_DIR) == 0);
    CHECK(getenv("HIPDNN_DISABLE_EXACT_ENGINE_CACHE") == NULL);
    CHECK(getenv("HIPDNN_DISABLE_CACHE") == NULL);
    nftw(CACHE_DIR, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    CHECK_EQ_INT(cache_files(), 0);

    const char* engines[] = {PT_GOOD, PT_HASHED, PT_GOOD_DEFAULT};
    pt_engine_paths(PT_COUNT(engines), engines);
    pt_heur_paths(0, NULL);
    hipdnnHandle_t h = pt_create(NULL, 0);
    hipdnnBackendDescriptor_t g = pt_pointwise_graph(h, NULL);
    int64_t s[4], ids[4];
    const int64_t o_static[] = {PT_POLICY_STATIC};
    CHECK_EQ_INT(pt_rank(g, 1, o_static, s, 4), 3);
    int64_t a = s[0], b = s[1], c = s[2];
    CHECK_IDS(pt_rank(g, -1, NULL, ids, 4), ids, a, b, c); /* nothing stored yet */

    /* outcomes that store nothing */
    const int64_t rank_cb[] = {c, b};
    hipdnnAutotuneCacheWriteOutcome_ext_t out = (hipdnnAutotuneCacheWriteOutcome_ext_t)99;
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, hipdnnBackendWriteEngineRankingResults_ext(NULL, g, rank_cb, 2, &out));
    tu_clear_last_error();
    CHECK_EQ_INT(out, 99); /* not written on failure */
    hipdnnBackendDescriptor_t open_graph = pt_new(HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR);
    CHECK_EQ_INT(write_ranking(h, open_graph, rank_cb, 2), HIPDNN_AUTOTUNE_CACHE_WRITE_DECLINED_UNKEYABLE_OR_UNFINALIZED);
    CHECK_EQ_INT(write_ranking(h, NULL, rank_cb, 2), HIPDNN_AUTOTUNE_CACHE_WRITE_DECLINED_UNKEYABLE_OR_UNFINALIZED);
    CHECK_EQ_INT(write_ranking(h, g, rank_cb, 0), HIPDNN_AUTOTUNE_CACHE_WRITE_DECLINED_NO_ENGINES);
    CHECK_EQ_INT(write_ranking(h, g, NULL, 0), HIPDNN_AUTOTUNE_CACHE_WRITE_DECLINED_NO_ENGINES);
    CHECK_EQ_INT(write_ranking(h, g, NULL, 2), HIPDNN_AUTOTUNE_CACHE_WRITE_DECLINED_NO_ENGINES);
    CHECK_EQ_INT(cache_files(), 0);
    CHECK_IDS(pt_rank(g, -1, NULL, ids, 4), ids, a, b, c);

    /* written, then unchanged */
    CHECK_EQ_INT(write_ranking(h, g, rank_cb, 2), HIPDNN_AUTOTUNE_CACHE_WRITE_WRITTEN);
    CHECK_EQ_INT(cache_files(), 1);
    CHECK_EQ_INT(write_ranking(h, g, rank_cb, 2), HIPDNN_AUTOTUNE_CACHE_WRITE_UNCHANGED);
    CHECK_OK(hipdnnBackendWriteEngineRankingResults_ext(h, g, rank_cb, 2, NULL)); /* outcome optional */
    CHECK_EQ_INT(cache_files(), 1);

    /* the next ranking of that graph: stored engines first, the others after */
    CHECK_IDS(pt_rank(g, -1, NULL, ids, 4), ids, c, b, a);
    /* the same graph built again from new descriptors */
    hipdnnBackendDescriptor_t g_again = pt_pointwise_graph(h, NULL);
    CHECK_IDS(pt_rank(g_again, -1, NULL, ids, 4), ids, c, b, a);
    /* on another handle */
    hipdnnHandle_t h2 = pt_create(NULL, 0);
    hipdnnBackendDescriptor_t g_h2 = pt_pointwise_graph(h2, NULL);
    CHECK_IDS(pt_rank(g_h2, -1, NULL, ids, 4), ids, c, b, a);
    /* StaticOrdering alone does not consult the cache; another graph has no entry */
    CHECK_IDS(pt_rank(g, 1, o_static, ids, 4), ids, a, b, c);
    hipdnnBackendDescriptor_t conv = pt_conv_graph(h);
    CHECK_IDS(pt_rank(conv, -1, NULL, ids, 4), ids, a, b, c);

    /* a new ranking replaces the old one */
    const int64_t rank_bca[] = {b, c, a};
    CHECK_EQ_INT(write_ranking(h, g, rank_bca, 3), HIPDNN_AUTOTUNE_CACHE_WRITE_WRITTEN);
    CHECK_IDS(pt_rank(g, -1, NULL, ids, 4), ids, b, c, a);
    /* ids that are not candidates are skipped */
    const int64_t rank_unknown[] = {12345, c, 777, a};
    CHECK_EQ_INT(write_ranking(h, g, rank_unknown, 4), HIPDNN_AUTOTUNE_CACHE_WRITE_WRITTEN);
    CHECK_IDS(pt_rank(g, -1, NULL, ids, 4), ids, c, a, b);
    /* a single surviving engine says nothing about ranking: ignored */
    const int64_t rank_one[] = {12345, c};
    CHECK_EQ_INT(write_ranking(h, g, rank_one, 2), HIPDNN_AUTOTUNE_CACHE_WRITE_WRITTEN);
    CHECK_IDS(pt_rank(g, -1, NULL, ids, 4), ids, a, b, c);
    CHECK_EQ_INT(cache_files(), 1);

    pt_release_all();
    CHECK_OK(hipdnnDestroy(h2));
    CHECK_OK(hipdnnDestroy(h));
    nftw(CACHE_DIR, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    return check_finish("test_heur_ranking_cache");
}
