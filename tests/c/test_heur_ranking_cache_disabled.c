/* HIPDNN_DISABLE_EXACT_ENGINE_CACHE=yes (item 78; set by test_heur_ranking_cache_disabled.cmake
 * with HIPDNN_CACHE_DIR at an empty build-tree folder): hipdnnBackendWriteEngineRankingResults_ext
 * succeeds with DECLINED_DISABLED and writes nothing, and heuristic results ignore rankings. */
#define _XOPEN_SOURCE 700
#include <ftw.h>

#include "plugin_testutil.h"

static int nentries;

static int rm_entry(const char* path, const struct stat* sb, int flag, struct FTW* ftw) {
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static int count_entry(const char* path, const struct stat* sb, int flag, struct FTW* ftw) {
    (void)path;
    (void)sb;
    (void)ftw;
    if (flag == FTW_F)
        nentries++;
    return 0;
}

int main(void) {
    nftw(CACHE_DIR, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    const char* engines[] = {PT_GOOD, PT_HASHED};
    pt_engine_paths(PT_COUNT(engines), engines);
    pt_heur_paths(0, NULL);
    hipdnnHandle_t h = pt_create(NULL, 0);
    hipdnnBackendDescriptor_t g = pt_pointwise_graph(h, NULL);
    int64_t s[4], ids[4];
    CHECK_EQ_INT(pt_rank(g, -1, NULL, s, 4), 2);

    const int64_t reversed[] = {s[1], s[0]};
    hipdnnAutotuneCacheWriteOutcome_ext_t out = (hipdnnAutotuneCacheWriteOutcome_ext_t)99;
    CHECK_OK(hipdnnBackendWriteEngineRankingResults_ext(h, g, reversed, 2, &out));
    CHECK_EQ_INT(out, HIPDNN_AUTOTUNE_CACHE_WRITE_DECLINED_DISABLED);
    CHECK_OK(hipdnnBackendWriteEngineRankingResults_ext(h, g, reversed, 2, NULL));
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, hipdnnBackendWriteEngineRankingResults_ext(NULL, g, reversed, 2, &out));
    tu_clear_last_error();
    nentries = 0;
    nftw(CACHE_DIR, count_entry, 16, FTW_PHYS);
    CHECK_EQ_INT(nentries, 0);
    CHECK_IDS(pt_rank(g, -1, NULL, ids, 4), ids, s[0], s[1]);

    pt_release_all();
    CHECK_OK(hipdnnDestroy(h));
    return check_finish("test_heur_ranking_cache_disabled");
}
