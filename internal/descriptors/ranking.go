package descriptors

import (
	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/handle"
	"github.com/hipdnn-go/backend/internal/heuristics"
)

// WriteEngineRanking stores an autotuned ranking for a graph on the handle's device
// (hipdnnBackendWriteEngineRankingResults_ext); heuristics.WriteRanking says how. A graph
// that is not finalized is declined.
func WriteEngineRanking(h *handle.Handle, g *Graph, ids []int64) (api.AutotuneCacheWriteOutcome, error) {
	if g == nil || !g.finalized {
		return heuristics.WriteRanking(nil, h.Stream(), ids)
	}
	return heuristics.WriteRanking(g.model, h.Stream(), ids)
}
