package heuristics

import (
	"math"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/hipdnn-go/backend/internal/fb"
)

// engineconfig.go: the EngineConfig and EnginePrediction tables a policy hands back,
// decoded after verification and re-encoded by the host (engine_config.fbs,
// engine_prediction.fbs). Re-encoding is how the host "overwrites" ranking_metric: the
// result holds the same engine id and knob settings and the effective metric. Fields a newer
// schema might append are not carried over.

// knobSetting is one KnobSetting; kind is the KnobValue union tag.
type knobSetting struct {
	id    string
	hasID bool
	kind  fb.KnobValue
	i     int64
	f     float64
	s     string
}

// engineConfig is a decoded EngineConfig.
type engineConfig struct {
	engineID int64
	knobs    []knobSetting
	metric   string
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

// decodeEngineConfig verifies and decodes a root EngineConfig buffer.
func decodeEngineConfig(buf []byte) (engineConfig, error) {
	t, err := fbRoot(buf)
	if err != nil {
		return engineConfig{}, err
	}
	return engineConfigFrom(t)
}

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
		var s knobSetting
		if s.id, s.hasID, err = k.str(ksKnobID); err != nil {
			return c, err
		}
		tag, err := k.u8(ksValueType, 0)
		if err != nil {
			return c, err
		}
		s.kind = fb.KnobValue(tag)
		if s.kind != fb.KnobValueNONE {
			v, present, err := k.table(ksValue)
			if err != nil {
				return c, err
			}
			if !present {
				return c, fbErrorf("knob %q has value type %d but no value", s.id, tag)
			}
			switch s.kind {
			case fb.KnobValueIntValue:
				s.i, err = v.i64(0, 0)
			case fb.KnobValueFloatValue:
				s.f, err = v.f64(0, 0)
			case fb.KnobValueStringValue:
				s.s, _, err = v.str(0)
			default:
				err = fbErrorf("knob %q has unknown value type %d", s.id, tag)
			}
			if err != nil {
				return c, err
			}
		}
		c.knobs = append(c.knobs, s)
	}
	return c, nil
}

// encode serializes c as a root EngineConfig (no file identifier) with ranking_metric set
// to metric.
func (c engineConfig) encode(metric string) []byte {
	b := flatbuffers.NewBuilder(256)
	offs := make([]flatbuffers.UOffsetT, len(c.knobs))
	for i := len(c.knobs) - 1; i >= 0; i-- {
		k := &c.knobs[i]
		var id, val flatbuffers.UOffsetT
		if k.hasID {
			id = b.CreateString(k.id)
		}
		switch k.kind {
		case fb.KnobValueIntValue:
			fb.IntValueStart(b)
			fb.IntValueAddValue(b, k.i)
			val = fb.IntValueEnd(b)
		case fb.KnobValueFloatValue:
			fb.FloatValueStart(b)
			fb.FloatValueAddValue(b, k.f)
			val = fb.FloatValueEnd(b)
		case fb.KnobValueStringValue:
			s := b.CreateString(k.s)
			fb.StringValueStart(b)
			fb.StringValueAddValue(b, s)
			val = fb.StringValueEnd(b)
		}
		fb.KnobSettingStart(b)
		if k.hasID {
			fb.KnobSettingAddKnobId(b, id)
		}
		if val != 0 {
			fb.KnobSettingAddValueType(b, k.kind)
			fb.KnobSettingAddValue(b, val)
		}
		offs[i] = fb.KnobSettingEnd(b)
	}
	var knobs flatbuffers.UOffsetT
	if len(offs) > 0 {
		fb.EngineConfigStartKnobsVector(b, len(offs))
		for i := len(offs) - 1; i >= 0; i-- {
			b.PrependUOffsetT(offs[i])
		}
		knobs = b.EndVector(len(offs))
	}
	m := b.CreateString(metric)
	fb.EngineConfigStart(b)
	fb.EngineConfigAddEngineId(b, c.engineID)
	if knobs != 0 {
		fb.EngineConfigAddKnobs(b, knobs)
	}
	fb.EngineConfigAddRankingMetric(b, m)
	b.Finish(fb.EngineConfigEnd(b))
	return append([]byte(nil), b.FinishedBytes()...)
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
