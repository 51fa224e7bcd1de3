package heuristics

import (
	"testing"

	"github.com/hipdnn-go/backend/internal/api"
)

func TestValidRankingMetric(t *testing.T) {
	t.Parallel()
	for give, want := range map[string]bool{"tflops": true, "time": true, "TFLOPS": false, "": false, "latency": false} {
		if got := ValidRankingMetric(give); got != want {
			t.Errorf("ValidRankingMetric(%q) = %v", give, got)
		}
	}
}

func TestResolveRankingMetric(t *testing.T) {
	clearEnv(t)
	tests := []struct {
		desc, env, attr, want string
		errParts              []string
	}{
		{desc: "default", want: "tflops"},
		{desc: "attribute", attr: "time", want: "time"},
		{desc: "env beats attribute", env: "time", attr: "tflops", want: "time"},
		{desc: "env trimmed", env: " tflops\n", attr: "time", want: "tflops"},
		{desc: "blank env ignored", env: "  ", attr: "time", want: "time"},
		{desc: "unknown env", env: "latency", attr: "time",
			errParts: []string{"HIPDNN_HEUR_RANKING_METRIC", `"latency"`, "registered: tflops, time"}},
		{desc: "unknown attribute", attr: "Time",
			errParts: []string{"RANKING_METRIC_EXT", `"Time"`, "registered: tflops, time"}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Setenv(EnvRankingMetric, tt.env)
			got, err := ResolveRankingMetric(tt.attr)
			if tt.errParts != nil {
				wantStatus(t, err, api.HIPDNN_STATUS_BAD_PARAM, tt.errParts...)
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}
