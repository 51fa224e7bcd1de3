package heuristics

import (
	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/autotune"
	"github.com/hipdnn-go/backend/internal/status"
	"github.com/hipdnn-go/backend/internal/wire"
)

// WriteRanking stores an autotuned ranking of engine ids for a finalized graph model on the
// device of stream, where cachedRanking finds it again
// (hipdnnBackendWriteEngineRankingResults_ext). It is fail-soft: a disabled cache, a graph
// that is not finalized (model nil) or cannot be keyed, or an empty ranking succeed with a
// "declined" outcome.
func WriteRanking(model *wire.Graph, stream uintptr, ids []int64) (api.AutotuneCacheWriteOutcome, error) {
	switch {
	case autotune.Disabled():
		return api.HIPDNN_AUTOTUNE_CACHE_WRITE_DECLINED_DISABLED, nil
	case model == nil:
		return api.HIPDNN_AUTOTUNE_CACHE_WRITE_DECLINED_UNKEYABLE_OR_UNFINALIZED, nil
	case len(ids) == 0:
		return api.HIPDNN_AUTOTUNE_CACHE_WRITE_DECLINED_NO_ENGINES, nil
	}
	key, err := autotune.Key(model, StreamDeviceProperties(stream))
	if err != nil {
		return api.HIPDNN_AUTOTUNE_CACHE_WRITE_DECLINED_UNKEYABLE_OR_UNFINALIZED, nil
	}
	out, err := autotune.Write(key, ids)
	if err != nil {
		return 0, status.Internal("writing the engine ranking cache failed: %v", err)
	}
	return out, nil
}
