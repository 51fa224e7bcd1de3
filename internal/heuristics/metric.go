package heuristics

import (
	"strings"

	"github.com/hipdnn-go/backend/internal/status"
)

// Registered ranking metrics: "tflops" (TFLOPS, higher is better) and "time" (milliseconds,
// lower is better). The registry is closed.
const (
	MetricTFLOPS = "tflops"
	MetricTime   = "time"
)

// DefaultRankingMetric is the metric used when neither the environment nor the descriptor
// names one.
const DefaultRankingMetric = MetricTFLOPS

// RankingMetrics lists the registered metrics. Callers must not modify it.
var RankingMetrics = []string{MetricTFLOPS, MetricTime}

// ValidRankingMetric reports whether s is a registered metric (exact, case-sensitive).
func ValidRankingMetric(s string) bool {
	for _, m := range RankingMetrics {
		if s == m {
			return true
		}
	}
	return false
}

// higherIsBetter reports the direction of a registered metric.
func higherIsBetter(metric string) bool { return metric != MetricTime }

// ResolveRankingMetric decides the effective ranking metric of one engine-heuristic
// finalize: HIPDNN_HEUR_RANKING_METRIC when set and not blank (trimmed; it must be a
// registered metric, else BAD_PARAM naming the value and the registered ones), else attr when
// not empty (BAD_PARAM if it is not registered), else DefaultRankingMetric.
func ResolveRankingMetric(attr string) (string, error) {
	if env := strings.TrimSpace(getenv(EnvRankingMetric)); env != "" {
		if !ValidRankingMetric(env) {
			return "", status.BadParam("%s %q is not a registered ranking metric (registered: %s)",
				EnvRankingMetric, env, strings.Join(RankingMetrics, ", "))
		}
		return env, nil
	}
	if attr != "" {
		if !ValidRankingMetric(attr) {
			return "", status.BadParam("HIPDNN_ATTR_ENGINEHEUR_RANKING_METRIC_EXT %q is not a registered ranking metric (registered: %s)",
				attr, strings.Join(RankingMetrics, ", "))
		}
		return attr, nil
	}
	return DefaultRankingMetric, nil
}
