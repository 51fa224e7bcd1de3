package heuristics

import (
	"math"

	"github.com/hipdnn-go/backend/internal/engines"
	"github.com/hipdnn-go/backend/internal/fb"
	"github.com/hipdnn-go/backend/internal/fbread"
	"github.com/hipdnn-go/backend/internal/logging"
)

// engineconfig.go: the EngineConfig and EnginePrediction tables a policy hands back
// (engine_config.fbs, engine_prediction.fbs).

// engineConfig is an EngineConfig a policy returned, as a root buffer or inside an
// EnginePrediction. The engine host's codec decodes it (engines.EngineConfigAt); src and table
// locate the policy's bytes, so that encode can keep them (zero for a config built in Go).
type engineConfig struct {
	engineID int64
	knobs    []engines.KnobSetting
	metric   string
	src      []byte
	table    fbread.Table
}

// decodeEngineConfig verifies and decodes a root EngineConfig buffer (the engine host's codec).
func decodeEngineConfig(buf []byte) (engineConfig, error) {
	id, knobs, metric, err := engines.DecodeEngineConfig(buf)
	if err != nil {
		return engineConfig{}, err
	}
	t, err := fbread.New(buf).Root("EngineConfig")
	return engineConfig{engineID: id, knobs: knobs, metric: metric, src: buf, table: t}, err
}

// encode serializes c as a root EngineConfig with ranking_metric set to metric: the policy's
// own bytes with only ranking_metric replaced, so fields of a newer schema reach the engine
// (engines.WithRankingMetric; the policy's buffer itself when it already names metric). A
// config built in Go, or one whose bytes cannot be kept (logged), gets this build's encoding
// of the fields it knows.
func (c engineConfig) encode(metric string) []byte {
	if c.src != nil {
		out, err := engines.WithRankingMetric(c.src, c.table, metric)
		if err == nil {
			return out
		}
		logging.Warnf("Heuristic host: the EngineConfig of engine %s is re-encoded with the fields this build knows, any others are lost: %v",
			FormatID(c.engineID), err)
	}
	return engines.EncodeEngineConfig(c.engineID, c.knobs, metric)
}

// Prediction kinds (hipdnnEnginePredictionKind_t, PredictionKind).
const (
	PredictionEngine        = 0 // engine-level prediction, no tuning
	PredictionConfiguration = 1 // an exact configuration and its prediction
)

// prediction is a decoded EnginePrediction.
type prediction struct {
	engineID  int64
	kind      uint8
	status    uint8
	value     float64
	metric    string
	config    *engineConfig
	reason    string
	hasConfig bool
}

// decodePrediction verifies and reads an EnginePrediction buffer with the bounds-checked reader
// of internal/fbread; its engine_config goes through the engine host's codec.
func decodePrediction(buf []byte) (prediction, error) {
	var p prediction
	r := fbread.New(buf)
	t, err := r.Root("EnginePrediction")
	if err != nil {
		return p, err
	}
	if p.engineID, _, err = r.I64(t, slotEnginePredictionEngineId, "engine_id"); err != nil {
		return p, err
	}
	if p.kind, _, err = r.Byte(t, slotEnginePredictionKind, "kind"); err != nil {
		return p, err
	}
	if p.status, _, err = r.Byte(t, slotEnginePredictionStatus, "status"); err != nil {
		return p, err
	}
	if p.value, _, err = r.F64(t, slotEnginePredictionValue, "value"); err != nil {
		return p, err
	}
	if p.reason, _, err = r.Str(t, slotEnginePredictionReason, "reason"); err != nil {
		return p, err
	}
	if p.metric, _, err = r.Str(t, slotEnginePredictionMetric, "metric"); err != nil {
		return p, err
	}
	for _, f := range []struct {
		slot int
		name string
	}{{slotEnginePredictionUhdId, "uhd_id"}, {slotEnginePredictionBindingJson, "binding_json"}, {slotEnginePredictionFeaturesJson, "features_json"}} {
		if _, _, err := r.Str(t, f.slot, f.name); err != nil {
			return p, err
		}
	}
	ct, present, err := r.Sub(t, slotEnginePredictionEngineConfig, "engine_config")
	if err != nil || !present {
		return p, err
	}
	c := engineConfig{src: buf, table: ct}
	if c.engineID, c.knobs, c.metric, err = engines.EngineConfigAt(r, ct); err != nil {
		return p, err
	}
	p.config, p.hasConfig = &c, true
	return p, nil
}

// usable reports whether p is an AVAILABLE prediction of engineID, of the given kind, in
// metric, with a value valid for that metric (finite; >= 0 for tflops, > 0 for time); a
// configuration-level prediction must carry a config of the same engine. An empty prediction
// metric means "tflops".
func (p *prediction) usable(engineID int64, kind uint8, metric string) bool {
	if p.engineID != engineID || p.kind != kind || p.status != uint8(fb.PredictionStatusAVAILABLE) {
		return false
	}
	m := p.metric
	if m == "" {
		m = MetricTFLOPS
	}
	if m != metric || math.IsNaN(p.value) || math.IsInf(p.value, 0) {
		return false
	}
	if metric == MetricTime && p.value <= 0 || p.value < 0 {
		return false
	}
	if kind == PredictionConfiguration {
		return p.hasConfig && p.config.engineID == engineID
	}
	return !p.hasConfig
}
