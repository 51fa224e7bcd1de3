package descriptors

import (
	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/autotune"
	"github.com/hipdnn-go/backend/internal/handle"
	"github.com/hipdnn-go/backend/internal/status"
)

// WriteEngineRanking stores an autotuned ranking for a finalized graph on the handle's device
// (hipdnnBackendWriteEngineRankingResults_ext). It is fail-soft: a disabled cache, a graph that
// cannot be keyed or is not finalized, or an empty ranking succeed with a "declined" outcome.
func WriteEngineRanking(h *handle.Handle, g *Graph, ids []int64) (api.AutotuneCacheWriteOutcome, error) {
	switch {
	case autotune.Disabled():
		return api.HIPDNN_AUTOTUNE_CACHE_WRITE_DECLINED_DISABLED, nil
	case g == nil || !g.finalized || g.model == nil:
		return api.HIPDNN_AUTOTUNE_CACHE_WRITE_DECLINED_UNKEYABLE_OR_UNFINALIZED, nil
	case len(ids) == 0:
		return api.HIPDNN_AUTOTUNE_CACHE_WRITE_DECLINED_NO_ENGINES, nil
	}
	key, err := autotune.Key(g.model, devicePropertiesBlob(h.Stream()))
	if err != nil {
		return api.HIPDNN_AUTOTUNE_CACHE_WRITE_DECLINED_UNKEYABLE_OR_UNFINALIZED, nil
	}
	out, err := autotune.Write(key, ids)
	if err != nil {
		return 0, status.Internal("writing the engine ranking cache failed: %v", err)
	}
	return out, nil
}
