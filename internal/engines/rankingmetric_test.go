package engines

import (
	"bytes"
	"testing"

	"github.com/hipdnn-go/backend/internal/fbread"
)

// The known-field cases of WithRankingMetric; internal/heuristics tests the fields of a newer
// schema through the host's path (TestRankKeepsNewerConfigFields, TestModeBKeepsNewerConfigFields).
func TestWithRankingMetric(t *testing.T) {
	t.Parallel()
	settings := []KnobSetting{{ID: "a", Value: KnobValue{Kind: KnobInt, I: -7}}, {ID: "b", Value: KnobValue{Kind: KnobFloat, F: 0.25}}}
	tests := []struct {
		desc       string
		had, give  string
		passesThru bool
	}{
		{"written when absent", "", "time", false},
		{"replaced", "tflops", "time", false},
		{"removed", "time", "", false},
		{"the same passes through", "time", "time", true},
		{"absent stays absent", "", "", true},
	}
	for _, tt := range tests {
		buf := EncodeEngineConfig(-10, settings, tt.had)
		root, err := fbread.New(buf).Root("EngineConfig")
		if err != nil {
			t.Fatal(err)
		}
		out, err := WithRankingMetric(buf, root, tt.give)
		if err != nil {
			t.Fatalf("%s: %v", tt.desc, err)
		}
		if same := bytes.Equal(out, buf); same != tt.passesThru {
			t.Errorf("%s: passed through %v", tt.desc, same)
		}
		id, got, m, err := DecodeEngineConfig(out)
		if err != nil || id != -10 || m != tt.give || !sameSettings(got, settings) {
			t.Errorf("%s: %d %+v %q %v", tt.desc, id, got, m, err)
		}
	}
}
