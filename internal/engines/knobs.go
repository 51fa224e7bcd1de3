package engines

import (
	"math"
	"strconv"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/hipdnn-go/backend/internal/fb"
	"github.com/hipdnn-go/backend/internal/fbread"
	"github.com/hipdnn-go/backend/internal/status"
)

// Value kinds of KnobValue and constraint kinds of KnobConstraint: the flatbuffer union tags.
const (
	KnobNone   = 0
	KnobInt    = 1
	KnobFloat  = 2
	KnobString = 3
)

// KnobValue is one knob value in a typed slot chosen by Kind (KnobInt: I, KnobFloat: F,
// KnobString: S).
type KnobValue struct {
	Kind int
	I    int64
	F    float64
	S    string
}

// String renders the value for messages: 5, 0.5, "fast".
func (v KnobValue) String() string {
	switch v.Kind {
	case KnobInt:
		return strconv.FormatInt(v.I, 10)
	case KnobFloat:
		return strconv.FormatFloat(v.F, 'g', -1, 64)
	case KnobString:
		return strconv.Quote(v.S)
	}
	return "(no value)"
}

func kindName(kind int) string {
	switch kind {
	case KnobInt:
		return "int"
	case KnobFloat:
		return "float"
	case KnobString:
		return "string"
	case KnobNone:
		return "no"
	}
	return "unknown (" + strconv.Itoa(kind) + ")"
}

// KnobConstraint restricts a knob's values. Kind is KnobNone (unconstrained), KnobInt,
// KnobFloat or KnobString. Int: IntValues, when not empty, is the allowed set; otherwise the
// value lies in [IntMin, IntMax] and, with IntStep > 1, is IntMin plus a multiple of IntStep.
// Float: [FloatMin, FloatMax]. String: MaxLength > 0 caps the length in bytes, StringValues,
// when not empty, is the allowed set.
type KnobConstraint struct {
	Kind           int
	IntMin, IntMax int64
	IntStep        int64
	IntValues      []int64
	FloatMin       float64
	FloatMax       float64
	MaxLength      int32
	StringValues   []string
}

// Knob is one tunable parameter an engine publishes in its EngineDetails.
type Knob struct {
	ID          string
	Description string
	Deprecated  bool
	Default     KnobValue
	Constraint  KnobConstraint
	// Serialized is the Knob table re-encoded as its own finished flatbuffer (no identifier).
	Serialized []byte
}

// Details is an engine's EngineDetails for one graph, copied into Go.
type Details struct {
	EngineID      int64
	Knobs         []Knob
	BehaviorNotes []int32
	name          string // EngineDetails.name: informational, never names the engine
}

// Knob returns the knob with this id, or nil.
func (d *Details) Knob(id string) *Knob {
	for i := range d.Knobs {
		if d.Knobs[i].ID == id {
			return &d.Knobs[i]
		}
	}
	return nil
}

// KnobSetting is one knob choice of an EngineConfig.
type KnobSetting struct {
	ID    string
	Value KnobValue
}

// buildValue adds a KnobValue member table and returns its offset (0 for KnobNone).
func buildValue(b *flatbuffers.Builder, v KnobValue) flatbuffers.UOffsetT {
	switch v.Kind {
	case KnobInt:
		fb.IntValueStart(b)
		fb.IntValueAddValue(b, v.I)
		return fb.IntValueEnd(b)
	case KnobFloat:
		fb.FloatValueStart(b)
		fb.FloatValueAddValue(b, v.F)
		return fb.FloatValueEnd(b)
	case KnobString:
		s := b.CreateString(v.S)
		fb.StringValueStart(b)
		fb.StringValueAddValue(b, s)
		return fb.StringValueEnd(b)
	}
	return 0
}

// encodeKnob writes a Knob as its own flatbuffer.
func encodeKnob(k *Knob) []byte {
	b := flatbuffers.NewBuilder(128)
	id := b.CreateString(k.ID)
	desc := b.CreateString(k.Description)
	def := buildValue(b, k.Default)
	var cons flatbuffers.UOffsetT
	c := &k.Constraint
	switch c.Kind {
	case KnobInt:
		var vals flatbuffers.UOffsetT
		if len(c.IntValues) > 0 {
			fb.IntConstraintStartValidValuesVector(b, len(c.IntValues))
			for i := len(c.IntValues) - 1; i >= 0; i-- {
				b.PrependInt64(c.IntValues[i])
			}
			vals = b.EndVector(len(c.IntValues))
		}
		fb.IntConstraintStart(b)
		fb.IntConstraintAddMinValue(b, c.IntMin)
		fb.IntConstraintAddMaxValue(b, c.IntMax)
		fb.IntConstraintAddStep(b, c.IntStep)
		if vals != 0 {
			fb.IntConstraintAddValidValues(b, vals)
		}
		cons = fb.IntConstraintEnd(b)
	case KnobFloat:
		fb.FloatConstraintStart(b)
		fb.FloatConstraintAddMinValue(b, c.FloatMin)
		fb.FloatConstraintAddMaxValue(b, c.FloatMax)
		cons = fb.FloatConstraintEnd(b)
	case KnobString:
		var vals flatbuffers.UOffsetT
		if len(c.StringValues) > 0 {
			offs := make([]flatbuffers.UOffsetT, len(c.StringValues))
			for i, s := range c.StringValues {
				offs[i] = b.CreateString(s)
			}
			fb.StringConstraintStartValidValuesVector(b, len(offs))
			for i := len(offs) - 1; i >= 0; i-- {
				b.PrependUOffsetT(offs[i])
			}
			vals = b.EndVector(len(offs))
		}
		fb.StringConstraintStart(b)
		fb.StringConstraintAddMaxLength(b, c.MaxLength)
		if vals != 0 {
			fb.StringConstraintAddValidValues(b, vals)
		}
		cons = fb.StringConstraintEnd(b)
	}
	fb.KnobStart(b)
	fb.KnobAddKnobId(b, id)
	fb.KnobAddDescription(b, desc)
	fb.KnobAddDefaultValueType(b, fb.KnobValue(k.Default.Kind))
	fb.KnobAddDefaultValue(b, def)
	if cons != 0 {
		fb.KnobAddConstraintType(b, fb.KnobConstraint(c.Kind))
		fb.KnobAddConstraint(b, cons)
	}
	fb.KnobAddDeprecated(b, k.Deprecated)
	b.Finish(fb.KnobEnd(b))
	return b.FinishedBytes()
}

// ValidateKnobSettings checks knob choices against an engine's published knobs: every id must
// be a knob of the engine and appear once, the value must have the knob's type, be finite for
// floats, and satisfy the knob's constraint. Failures are BAD_PARAM naming the knob and value.
func ValidateKnobSettings(d *Details, settings []KnobSetting) error {
	seen := make(map[string]bool, len(settings))
	for _, s := range settings {
		if seen[s.ID] {
			return status.BadParam("knob %q is set more than once", s.ID)
		}
		seen[s.ID] = true
		k := d.Knob(s.ID)
		if k == nil {
			return status.BadParam("engine %s has no knob %q (value %s)", FormatEngineID(d.EngineID), s.ID, s.Value)
		}
		if err := checkKnobValue(k, s.Value); err != nil {
			return err
		}
	}
	return nil
}

func checkKnobValue(k *Knob, v KnobValue) error {
	if v.Kind != k.Default.Kind {
		return status.BadParam("knob %q takes %s values, got %s value %s", k.ID, kindName(k.Default.Kind), kindName(v.Kind), v)
	}
	c := &k.Constraint
	switch v.Kind {
	case KnobInt:
		if c.Kind != KnobInt {
			return nil
		}
		if len(c.IntValues) > 0 {
			for _, x := range c.IntValues {
				if x == v.I {
					return nil
				}
			}
			return status.BadParam("knob %q: value %d is not one of the valid values %v", k.ID, v.I, c.IntValues)
		}
		if v.I < c.IntMin || v.I > c.IntMax {
			return status.BadParam("knob %q: value %d is outside [%d, %d]", k.ID, v.I, c.IntMin, c.IntMax)
		}
		if c.IntStep > 1 && (v.I-c.IntMin)%c.IntStep != 0 {
			return status.BadParam("knob %q: value %d is not %d plus a multiple of the step %d", k.ID, v.I, c.IntMin, c.IntStep)
		}
	case KnobFloat:
		if math.IsNaN(v.F) || math.IsInf(v.F, 0) {
			return status.BadParam("knob %q: value %s is not finite", k.ID, v)
		}
		if c.Kind == KnobFloat && (v.F < c.FloatMin || v.F > c.FloatMax) {
			return status.BadParam("knob %q: value %s is outside [%g, %g]", k.ID, v, c.FloatMin, c.FloatMax)
		}
	case KnobString:
		if c.Kind != KnobString {
			return nil
		}
		if c.MaxLength > 0 && len(v.S) > int(c.MaxLength) {
			return status.BadParam("knob %q: value %s is longer than %d bytes", k.ID, v, c.MaxLength)
		}
		if len(c.StringValues) > 0 {
			for _, x := range c.StringValues {
				if x == v.S {
					return nil
				}
			}
			return status.BadParam("knob %q: value %s is not one of the valid values %q", k.ID, v, c.StringValues)
		}
	default:
		return status.BadParam("knob %q: value has %s type", k.ID, kindName(v.Kind))
	}
	return nil
}

// EncodeEngineConfig serializes an EngineConfig (no file identifier). An empty rankingMetric
// is left out (readers take absent as "tflops").
func EncodeEngineConfig(id int64, settings []KnobSetting, rankingMetric string) []byte {
	b := flatbuffers.NewBuilder(64 + 48*len(settings))
	offs := make([]flatbuffers.UOffsetT, len(settings))
	for i, s := range settings {
		kid := b.CreateString(s.ID)
		val := buildValue(b, s.Value)
		fb.KnobSettingStart(b)
		fb.KnobSettingAddKnobId(b, kid)
		if val != 0 {
			fb.KnobSettingAddValueType(b, fb.KnobValue(s.Value.Kind))
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
	var metric flatbuffers.UOffsetT
	if rankingMetric != "" {
		metric = b.CreateString(rankingMetric)
	}
	fb.EngineConfigStart(b)
	fb.EngineConfigAddEngineId(b, id)
	if knobs != 0 {
		fb.EngineConfigAddKnobs(b, knobs)
	}
	if metric != 0 {
		fb.EngineConfigAddRankingMetric(b, metric)
	}
	b.Finish(fb.EngineConfigEnd(b))
	return b.FinishedBytes()
}

// DecodeEngineConfig reads an EngineConfig buffer, checking it as it goes. A setting whose value type is
// not known keeps that tag in Value.Kind and no value. A buffer that does not verify is
// BAD_PARAM.
func DecodeEngineConfig(buf []byte) (id int64, settings []KnobSetting, metric string, err error) {
	r := fbread.New(buf)
	t, err := r.Root("EngineConfig")
	if err == nil {
		id, settings, metric, err = EngineConfigAt(r, t)
	}
	if err != nil {
		return 0, nil, "", status.BadParam("EngineConfig buffer (%d bytes) does not verify: %v", len(buf), err)
	}
	return id, settings, metric, nil
}

// EngineConfigAt reads the EngineConfig table t of r's buffer, checking it as it goes: a root
// one, or one nested in another table (EnginePrediction.engine_config). Settings as
// DecodeEngineConfig.
func EngineConfigAt(r *fbread.Reader, t fbread.Table) (id int64, settings []KnobSetting, metric string, err error) {
	r.Enter()
	defer r.Leave()
	return (&decoder{r: r}).engineConfig(t)
}
