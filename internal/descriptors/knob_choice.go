package descriptors

import (
	"math"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/engines"
	"github.com/hipdnn-go/backend/internal/status"
)

// KnobChoice is HIPDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR: one knob setting (a knob id string
// and an int64, double or string value) for HIPDNN_ATTR_ENGINECFG_KNOB_CHOICES.
type KnobChoice struct{ Header }

var _ = register(&KindSpec{
	Kind:             api.HIPDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR,
	Class:            "KnobSettingDescriptor",
	RejectRefinalize: true,
	New:              func(k *KindSpec) Object { c := &KnobChoice{}; k.init(&c.Header); return c },
	Attrs: []*Attr{
		{Name: api.HIPDNN_ATTR_KNOB_CHOICE_KNOB_TYPE, Type: api.HIPDNN_TYPE_CHAR, Min: 1, Max: 4096, Settable: true, Gettable: true, Required: true},
		{Name: api.HIPDNN_ATTR_KNOB_CHOICE_KNOB_VALUE, Type: api.HIPDNN_TYPE_INT64, Alt: []api.AttributeType{api.HIPDNN_TYPE_DOUBLE, api.HIPDNN_TYPE_CHAR},
			Min: 0, Max: 65536, Settable: true, Gettable: true, Required: true, SameTypeGet: true, Validate: knobValueShape},
	},
})

// knobValueShape enforces the per-type counts of a knob value: one INT64 or DOUBLE, or a
// string of at most 65536 bytes; doubles must be finite.
func knobValueShape(o Object, v *Value) error {
	switch v.Type {
	case api.HIPDNN_TYPE_INT64:
		if len(v.Ints) != 1 {
			return stepf(status.BadParam, "an INT64 knob value is one element, got %d", len(v.Ints))
		}
		v.I = v.Ints[0]
	case api.HIPDNN_TYPE_DOUBLE:
		if len(v.Ints) != 1 {
			return stepf(status.BadParam, "a DOUBLE knob value is one element, got %d", len(v.Ints))
		}
		v.F = v.Float(0)
		if math.IsNaN(v.F) || math.IsInf(v.F, 0) {
			return stepf(status.BadParam, "knob value %v is not finite", v.F)
		}
	}
	return nil
}

// Setting is the knob setting the descriptor holds.
func (c *KnobChoice) Setting() engines.KnobSetting {
	id := c.value(api.HIPDNN_ATTR_KNOB_CHOICE_KNOB_TYPE).Str()
	return engines.KnobSetting{ID: id, Value: knobValueOf(c.value(api.HIPDNN_ATTR_KNOB_CHOICE_KNOB_VALUE))}
}

// knobValueOf converts an INT64/DOUBLE/CHAR attribute value to the plugin host's knob value
// .
func knobValueOf(v *Value) engines.KnobValue {
	switch v.Type {
	case api.HIPDNN_TYPE_DOUBLE:
		return engines.KnobValue{Kind: engines.KnobFloat, F: v.F}
	case api.HIPDNN_TYPE_CHAR:
		return engines.KnobValue{Kind: engines.KnobString, S: v.Str()}
	}
	return engines.KnobValue{Kind: engines.KnobInt, I: v.I}
}

// valueOfKnob is knobValueOf's inverse.
func valueOfKnob(k engines.KnobValue) Value {
	switch k.Kind {
	case engines.KnobFloat:
		return Value{Set: true, Type: api.HIPDNN_TYPE_DOUBLE, F: k.F, Ints: []int64{int64(math.Float64bits(k.F))}}
	case engines.KnobString:
		return Value{Set: true, Type: api.HIPDNN_TYPE_CHAR, Bytes: []byte(k.S)}
	}
	return Value{Set: true, Type: api.HIPDNN_TYPE_INT64, I: k.I, Ints: []int64{k.I}}
}
