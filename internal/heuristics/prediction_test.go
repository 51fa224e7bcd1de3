package heuristics

import (
	"slices"
	"testing"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/hipdnn-go/backend/internal/engines"
	"github.com/hipdnn-go/backend/internal/fb"
)

func TestModeAOrdersByEnginePredictions(t *testing.T) {
	t.Parallel()
	avail := fb.PredictionStatusAVAILABLE
	pred := mapPredictor{
		{1, PredictionEngine}: predictionBlob(1, PredictionEngine, avail, 10, "tflops", nil),
		{2, PredictionEngine}: predictionBlob(2, PredictionEngine, avail, 30, "tflops", nil),
		{3, PredictionEngine}: predictionBlob(3, PredictionEngine, fb.PredictionStatusUNAVAILABLE, 99, "tflops", nil),
		{5, PredictionEngine}: predictionBlob(5, PredictionEngine, avail, 30, "", nil),     // "" is tflops; ties keep input order
		{6, PredictionEngine}: predictionBlob(6, PredictionEngine, avail, 50, "time", nil), // wrong metric: refused by the host
	}
	order, cfgs, applied, _ := runBuiltin(t, rankModeA, Request{Candidates: []int64{1, 3, 2, 4, 5, 6}, Metric: "tflops", Predictor: pred})
	if !applied || !slices.Equal(order, []int64{2, 5, 1, 3, 4, 6}) || cfgs != nil {
		t.Fatalf("tflops: %v %v %v", order, applied, cfgs)
	}

	timed := mapPredictor{
		{1, PredictionEngine}: predictionBlob(1, PredictionEngine, avail, 2.5, "time", nil),
		{2, PredictionEngine}: predictionBlob(2, PredictionEngine, avail, 0.5, "time", nil),
		{3, PredictionEngine}: predictionBlob(3, PredictionEngine, avail, 0, "time", nil), // not usable for time
	}
	order, _, applied, _ = runBuiltin(t, rankModeA, Request{Candidates: []int64{3, 1, 2}, Metric: "time", Predictor: timed})
	if !applied || !slices.Equal(order, []int64{2, 1, 3}) {
		t.Fatalf("time: %v %v", order, applied)
	}

	if _, _, applied, why := runBuiltin(t, rankModeA, Request{Candidates: []int64{7, 8}, Metric: "tflops", Predictor: pred}); applied || why == "" {
		t.Fatalf("no predictions: applied %v %q", applied, why)
	}
	if _, _, applied, _ := runBuiltin(t, rankModeA, Request{Candidates: []int64{1}, Metric: "tflops"}); applied {
		t.Fatal("applied without a predictor")
	}
}

func TestModeBPrefersConfigurationPredictions(t *testing.T) {
	t.Parallel()
	avail := fb.PredictionStatusAVAILABLE
	cfg1 := &engineConfig{engineID: 1, knobs: []engines.KnobSetting{{ID: "tile", Value: engines.KnobValue{Kind: engines.KnobInt, I: 128}}}}
	pred := mapPredictor{
		{1, PredictionConfiguration}: predictionBlob(1, PredictionConfiguration, avail, 40, "tflops", cfg1),
		{1, PredictionEngine}:        predictionBlob(1, PredictionEngine, avail, 1, "tflops", nil),
		{2, PredictionEngine}:        predictionBlob(2, PredictionEngine, avail, 20, "tflops", nil),
		{3, PredictionConfiguration}: predictionBlob(3, PredictionConfiguration, avail, 90, "tflops", nil), // no config: not usable
		{3, PredictionEngine}:        predictionBlob(3, PredictionEngine, avail, 5, "tflops", nil),
	}
	order, cfgs, applied, _ := runBuiltin(t, rankModeB, Request{Candidates: []int64{3, 2, 1, 4}, Metric: "tflops", Predictor: pred})
	if !applied || !slices.Equal(order, []int64{1, 2, 3, 4}) {
		t.Fatalf("order %v applied %v", order, applied)
	}
	if len(cfgs) != 1 {
		t.Fatalf("configs %v", cfgs)
	}
	c, err := decodeEngineConfig(cfgs[1])
	if err != nil || c.engineID != 1 || c.metric != "tflops" || len(c.knobs) != 1 || c.knobs[0].Value.I != 128 {
		t.Fatalf("config %+v %v", c, err)
	}
	// ModeA ignores configuration-level predictions.
	order, _, _, _ = runBuiltin(t, rankModeA, Request{Candidates: []int64{3, 2, 1, 4}, Metric: "tflops", Predictor: pred})
	if !slices.Equal(order, []int64{2, 3, 1, 4}) {
		t.Fatalf("ModeA order %v", order)
	}
}

// ModeB hands out a configuration-level prediction's config with every field its writer
// wrote, fields of a newer schema included, and the host's metric. The second config lies
// more than 64 KiB into its prediction, beyond a 16-bit vtable entry's reach from a new root
// table before the whole buffer, so only the bytes from the config on are kept.
func TestModeBKeepsNewerConfigFields(t *testing.T) {
	t.Parallel()
	avail := fb.PredictionStatusAVAILABLE
	future := func(id int64) func(*flatbuffers.Builder) flatbuffers.UOffsetT {
		return func(b *flatbuffers.Builder) flatbuffers.UOffsetT { return futureConfig(b, id, "bogus") }
	}
	pred := mapPredictor{
		{1, PredictionConfiguration}: predictionAround(1, PredictionConfiguration, avail, 40, "tflops", future(1), 0),
		{2, PredictionConfiguration}: predictionAround(2, PredictionConfiguration, avail, 20, "tflops", future(2), 70000),
	}
	order, cfgs, applied, why := runBuiltin(t, rankModeB, Request{Candidates: []int64{2, 1}, Metric: "tflops", Predictor: pred})
	if !applied || !slices.Equal(order, []int64{1, 2}) || len(cfgs) != 2 {
		t.Fatalf("order %v applied %v (%s) configs %d", order, applied, why, len(cfgs))
	}
	checkFuture(t, cfgs[1], 1, "tflops")
	checkFuture(t, cfgs[2], 2, "tflops")
	if len(cfgs[2]) > 1024 {
		t.Errorf("the far config kept %d bytes, the prediction's too", len(cfgs[2]))
	}
}

func TestHostPredictionChecks(t *testing.T) {
	t.Parallel()
	avail := fb.PredictionStatusAVAILABLE
	pred := mapPredictor{
		{1, PredictionEngine}: predictionBlob(1, PredictionEngine, avail, 1, "tflops", nil),
		{2, PredictionEngine}: predictionBlob(9, PredictionEngine, avail, 1, "tflops", nil), // answers another engine
		{3, PredictionEngine}: {1, 2, 3},
		{4, PredictionEngine}: predictionBlob(4, PredictionEngine, avail, 1, "time", nil),
	}
	h := newHostServices(&Request{Candidates: []int64{1, 2, 3, 4, 5}, Metric: "tflops", Predictor: pred})
	for _, tt := range []struct {
		id   int64
		kind int
		want int
	}{
		{1, PredictionEngine, pluginSuccess},
		{1, 7, pluginBadParam},
		{42, PredictionEngine, pluginBadParam},
		{2, PredictionEngine, pluginInternalError},
		{3, PredictionEngine, pluginInternalError},
		{4, PredictionEngine, pluginInternalError},
		{5, PredictionEngine, pluginNotApplicable},
		{1, PredictionConfiguration, pluginNotApplicable},
	} {
		if _, st := h.prediction(tt.id, tt.kind); st != tt.want {
			t.Errorf("prediction(%d, %d) = %d, want %d", tt.id, tt.kind, st, tt.want)
		}
	}
	panicky := newHostServices(&Request{Candidates: []int64{1}, Predictor: panicPredictor{}})
	if _, st := panicky.prediction(1, PredictionEngine); st != pluginNotApplicable {
		t.Errorf("panicking predictor: %d", st)
	}
}

type panicPredictor struct{}

func (panicPredictor) Predict(int64, int, string) ([]byte, bool) { panic("boom") }
