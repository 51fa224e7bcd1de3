package heuristics

import (
	"math"

	"github.com/hipdnn-go/backend/internal/engines"
	"github.com/hipdnn-go/backend/internal/fb"
)

// engineconfig.go: the EngineConfig and EnginePrediction tables a policy hands back
// (engine_config.fbs, engine_prediction.fbs).

// engineConfig is an EngineConfig a policy returned inside an EnginePrediction. Root
// EngineConfig buffers are decoded, and every EngineConfig is encoded, by the engine host's
// codec (engines.DecodeEngineConfig, engines.EncodeEngineConfig): re-encoding is how the host
// "overwrites" ranking_metric. Fields a newer schema might append are not carried over.
type engineConfig struct {
	engineID int64
	knobs    []engines.KnobSetting
	metric   string
}

// decodeEngineConfig verifies and decodes a root EngineConfig buffer (the engine host's codec).
func decodeEngineConfig(buf []byte) (engineConfig, error) {
	id, knobs, metric, err := engines.DecodeEngineConfig(buf)
	return engineConfig{engineID: id, knobs: knobs, metric: metric}, err
}

// EngineConfig slots.
const (
	ecEngineID = iota
	ecKnobs
	ecRankingMetric
)

// KnobSetting slots (the union takes two).
const (
	ksKnobID = iota
	ksValueType
	ksValue
)

// engineConfigFrom reads an EngineConfig table nested in a verified buffer.
func engineConfigFrom(t fbTable) (engineConfig, error) {
	var c engineConfig
	var err error
	if c.engineID, err = t.i64(ecEngineID, 0); err != nil {
		return c, err
	}
	if c.metric, _, err = t.str(ecRankingMetric); err != nil {
		return c, err
	}
	ks, err := t.tables(ecKnobs)
	if err != nil {
		return c, err
	}
	for _, k := range ks {
		var s engines.KnobSetting
		if s.ID, _, err = k.str(ksKnobID); err != nil {
			return c, err
		}
		tag, err := k.u8(ksValueType, 0)
		if err != nil {
			return c, err
		}
		s.Value.Kind = int(tag)
		if tag != uint8(fb.KnobValueNONE) {
			v, present, err := k.table(ksValue)
			if err != nil {
				return c, err
			}
			if !present {
				return c, fbErrorf("knob %q has value type %d but no value", s.ID, tag)
			}
			switch fb.KnobValue(tag) {
			case fb.KnobValueIntValue:
				s.Value.I, err = v.i64(0, 0)
			case fb.KnobValueFloatValue:
				s.Value.F, err = v.f64(0, 0)
			case fb.KnobValueStringValue:
				s.Value.S, _, err = v.str(0)
			default:
				err = fbErrorf("knob %q has unknown value type %d", s.ID, tag)
			}
			if err != nil {
				return c, err
			}
		}
		c.knobs = append(c.knobs, s)
	}
	return c, nil
}

// encode serializes c as a root EngineConfig with ranking_metric set to metric.
func (c engineConfig) encode(metric string) []byte {
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

// EnginePrediction slots.
const (
	epEngineID = iota
	epKind
	epStatus
	epValue
	epUhdID
	epReason
	epEngineConfig
	epBindingJSON
	epFeaturesJSON
	epMetric
)

func decodePrediction(buf []byte) (prediction, error) {
	var p prediction
	t, err := fbRoot(buf)
	if err != nil {
		return p, err
	}
	if p.engineID, err = t.i64(epEngineID, 0); err != nil {
		return p, err
	}
	if p.kind, err = t.u8(epKind, 0); err != nil {
		return p, err
	}
	if p.status, err = t.u8(epStatus, 0); err != nil {
		return p, err
	}
	if p.value, err = t.f64(epValue, 0); err != nil {
		return p, err
	}
	if p.reason, _, err = t.str(epReason); err != nil {
		return p, err
	}
	if p.metric, _, err = t.str(epMetric); err != nil {
		return p, err
	}
	ct, present, err := t.table(epEngineConfig)
	if err != nil {
		return p, err
	}
	if present {
		c, err := engineConfigFrom(ct)
		if err != nil {
			return p, err
		}
		p.config, p.hasConfig = &c, true
	}
	for _, slot := range []int{epUhdID, epBindingJSON, epFeaturesJSON} {
		if _, _, err := t.str(slot); err != nil {
			return p, err
		}
	}
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
