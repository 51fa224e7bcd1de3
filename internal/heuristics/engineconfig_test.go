package heuristics

import (
	"math"
	"math/rand"
	"reflect"
	"testing"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/hipdnn-go/backend/internal/engines"
	"github.com/hipdnn-go/backend/internal/fb"
)

func sampleConfig() engineConfig {
	return engineConfig{engineID: -42, metric: "time", knobs: []engines.KnobSetting{
		{ID: "global.benchmarking", Value: engines.KnobValue{Kind: engines.KnobInt, I: 1}},
		{ID: "tile.scale", Value: engines.KnobValue{Kind: engines.KnobFloat, F: 0.5}},
		{ID: "algo", Value: engines.KnobValue{Kind: engines.KnobString, S: "winograd"}},
		{ID: "unset", Value: engines.KnobValue{Kind: engines.KnobNone}},
		{Value: engines.KnobValue{Kind: engines.KnobInt, I: math.MinInt64}},
	}}
}

func TestEngineConfigRoundTrip(t *testing.T) {
	t.Parallel()
	c := sampleConfig()
	blob := c.encode("tflops")
	got, err := decodeEngineConfig(blob)
	if err != nil {
		t.Fatal(err)
	}
	if got.engineID != c.engineID || got.metric != "tflops" || !reflect.DeepEqual(got.knobs, c.knobs) {
		t.Fatalf("round trip\n got %d %q %+v\nwant %d %q %+v", got.engineID, got.metric, got.knobs, c.engineID, "tflops", c.knobs)
	}
	// The generated accessors agree with the reader.
	r := fb.GetRootAsEngineConfig(blob, 0)
	if r.EngineId() != -42 || r.KnobsLength() != 5 || string(r.RankingMetric()) != "tflops" {
		t.Fatalf("fb view: id %d knobs %d metric %q", r.EngineId(), r.KnobsLength(), r.RankingMetric())
	}
	empty, err := decodeEngineConfig(engineConfig{engineID: 7}.encode("time"))
	if err != nil || empty.engineID != 7 || empty.knobs != nil || empty.metric != "time" {
		t.Fatalf("empty config: %+v %v", empty, err)
	}
}

// Any bytes give a result or an error, never a panic; truncations of a valid buffer and
// random corruptions are the interesting inputs. A config that decodes, root or in a
// prediction, re-encodes with the host's metric to one that decodes to the same content.
func TestDecodersNeverPanic(t *testing.T) {
	t.Parallel()
	cfg := sampleConfig()
	future := func(b *flatbuffers.Builder) flatbuffers.UOffsetT { return futureConfig(b, 5, "") }
	inputs := [][]byte{nil, {}, {1, 2, 3}, cfg.encode("tflops"),
		predictionBlob(5, PredictionConfiguration, fb.PredictionStatusAVAILABLE, 3.5, "tflops", &cfg),
		futureRoot(5, "bogus"), predictionAround(5, PredictionConfiguration, fb.PredictionStatusAVAILABLE, 3.5, "tflops", future, 0)}
	rng := rand.New(rand.NewSource(1))
	for _, in := range inputs[3:] {
		for n := 0; n < len(in); n++ {
			inputs = append(inputs, in[:n])
		}
		for i := 0; i < 2000; i++ {
			b := append([]byte(nil), in...)
			for k := 0; k < 1+rng.Intn(4); k++ {
				b[rng.Intn(len(b))] = byte(rng.Intn(256))
			}
			inputs = append(inputs, b)
		}
	}
	reencodes := func(c engineConfig) {
		again, err := decodeEngineConfig(c.encode("time"))
		if err != nil || again.engineID != c.engineID || again.metric != "time" || !reflect.DeepEqual(again.knobs, c.knobs) {
			t.Fatalf("re-encode changed %d %+v into %d %q %+v (%v)", c.engineID, c.knobs, again.engineID, again.metric, again.knobs, err)
		}
	}
	for _, in := range inputs {
		if c, err := decodeEngineConfig(in); err == nil {
			reencodes(c)
		}
		if p, err := decodePrediction(in); err == nil && p.hasConfig {
			reencodes(*p.config)
		}
	}
}

func FuzzDecodeEngineConfig(f *testing.F) {
	cfg := sampleConfig()
	f.Add(cfg.encode("tflops"))
	f.Add(predictionBlob(5, PredictionEngine, fb.PredictionStatusAVAILABLE, 1, "", nil))
	f.Add(futureRoot(5, "bogus"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if c, err := decodeEngineConfig(b); err == nil {
			// What verifies re-encodes to something that verifies to the same content.
			again, err := decodeEngineConfig(c.encode("time"))
			if err != nil || !reflect.DeepEqual(again.knobs, c.knobs) || again.engineID != c.engineID || again.metric != "time" {
				t.Fatalf("re-encode changed %+v into %+v (%v)", c, again, err)
			}
		}
		_, _ = decodePrediction(b)
	})
}

func TestPredictionUsable(t *testing.T) {
	t.Parallel()
	cfg := &engineConfig{engineID: 9}
	other := &engineConfig{engineID: 8}
	tests := []struct {
		desc   string
		blob   []byte
		kind   int
		metric string
		want   bool
	}{
		{"engine tflops", predictionBlob(9, PredictionEngine, fb.PredictionStatusAVAILABLE, 12, "tflops", nil), PredictionEngine, "tflops", true},
		{"empty metric is tflops", predictionBlob(9, PredictionEngine, fb.PredictionStatusAVAILABLE, 12, "", nil), PredictionEngine, "tflops", true},
		{"zero tflops ok", predictionBlob(9, PredictionEngine, fb.PredictionStatusAVAILABLE, 0, "tflops", nil), PredictionEngine, "tflops", true},
		{"zero time not ok", predictionBlob(9, PredictionEngine, fb.PredictionStatusAVAILABLE, 0, "time", nil), PredictionEngine, "time", false},
		{"negative", predictionBlob(9, PredictionEngine, fb.PredictionStatusAVAILABLE, -1, "tflops", nil), PredictionEngine, "tflops", false},
		{"NaN", predictionBlob(9, PredictionEngine, fb.PredictionStatusAVAILABLE, math.NaN(), "tflops", nil), PredictionEngine, "tflops", false},
		{"unavailable", predictionBlob(9, PredictionEngine, fb.PredictionStatusUNAVAILABLE, 5, "tflops", nil), PredictionEngine, "tflops", false},
		{"other metric", predictionBlob(9, PredictionEngine, fb.PredictionStatusAVAILABLE, 5, "time", nil), PredictionEngine, "tflops", false},
		{"other engine", predictionBlob(8, PredictionEngine, fb.PredictionStatusAVAILABLE, 5, "tflops", nil), PredictionEngine, "tflops", false},
		{"engine kind with config", predictionBlob(9, PredictionEngine, fb.PredictionStatusAVAILABLE, 5, "tflops", cfg), PredictionEngine, "tflops", false},
		{"configuration", predictionBlob(9, PredictionConfiguration, fb.PredictionStatusAVAILABLE, 5, "tflops", cfg), PredictionConfiguration, "tflops", true},
		{"configuration without config", predictionBlob(9, PredictionConfiguration, fb.PredictionStatusAVAILABLE, 5, "tflops", nil), PredictionConfiguration, "tflops", false},
		{"configuration of another engine", predictionBlob(9, PredictionConfiguration, fb.PredictionStatusAVAILABLE, 5, "tflops", other), PredictionConfiguration, "tflops", false},
	}
	for _, tt := range tests {
		p, err := decodePrediction(tt.blob)
		if err != nil {
			t.Fatalf("%s: %v", tt.desc, err)
		}
		if got := p.usable(9, uint8(tt.kind), tt.metric); got != tt.want {
			t.Errorf("%s: usable = %v", tt.desc, got)
		}
	}
}
