package descriptors

import (
	"unsafe"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/engines"
	"github.com/hipdnn-go/backend/internal/status"
)

// KnobInfo is HIPDNN_BACKEND_KNOB_INFO_DESCRIPTOR: one tunable knob of an engine — its id,
// default, and constraints. Users may build one; the backend also fabricates finalized ones
// for HIPDNN_ATTR_ENGINE_KNOB_INFO.
type KnobInfo struct {
	Header
	validStrings []string
}

var knobInfoKind = register(&KindSpec{
	Kind:             api.HIPDNN_BACKEND_KNOB_INFO_DESCRIPTOR,
	Class:            "KnobDescriptor",
	RejectRefinalize: true,
	New:              func(k *KindSpec) Object { i := &KnobInfo{}; k.init(&i.Header); return i },
	Attrs: []*Attr{
		{Name: api.HIPDNN_ATTR_KNOB_INFO_TYPE, Type: api.HIPDNN_TYPE_CHAR, Min: 1, Max: 4096, Settable: true, Gettable: true, Required: true},
		{Name: api.HIPDNN_ATTR_KNOB_INFO_DESCRIPTION, Type: api.HIPDNN_TYPE_CHAR, Min: 0, Max: 65536, Settable: true, Gettable: true},
		{Name: api.HIPDNN_ATTR_KNOB_INFO_DEFAULT_VALUE, Type: api.HIPDNN_TYPE_INT64, Alt: []api.AttributeType{api.HIPDNN_TYPE_DOUBLE, api.HIPDNN_TYPE_CHAR},
			Min: 0, Max: 65536, Settable: true, Gettable: true, Required: true, SameTypeGet: true, Validate: knobValueShape},
		{Name: api.HIPDNN_ATTR_KNOB_INFO_DEFAULT_VALUE_TYPE, Type: api.HIPDNN_TYPE_INT64, Max: 1, Gettable: true,
			Compute: func(o Object) (Value, error) {
				return int64Value(int64(o.(*KnobInfo).value(api.HIPDNN_ATTR_KNOB_INFO_DEFAULT_VALUE).Type)), nil
			}},
		{Name: api.HIPDNN_ATTR_KNOB_INFO_MINIMUM_VALUE, Type: api.HIPDNN_TYPE_INT64, Alt: []api.AttributeType{api.HIPDNN_TYPE_DOUBLE},
			Min: 1, Max: 1, Settable: true, Gettable: true, SameTypeGet: true},
		{Name: api.HIPDNN_ATTR_KNOB_INFO_MAXIMUM_VALUE, Type: api.HIPDNN_TYPE_INT64, Alt: []api.AttributeType{api.HIPDNN_TYPE_DOUBLE},
			Min: 1, Max: 1, Settable: true, Gettable: true, SameTypeGet: true},
		{Name: api.HIPDNN_ATTR_KNOB_INFO_STRIDE, Type: api.HIPDNN_TYPE_INT64, Min: 1, Max: 1, Settable: true, Gettable: true, Validate: positiveScalar},
		{Name: api.HIPDNN_ATTR_KNOB_INFO_DEPRECATED, Type: api.HIPDNN_TYPE_BOOLEAN, Min: 1, Max: 1, Settable: true, Gettable: true},
		{Name: api.HIPDNN_ATTR_KNOB_INFO_VALID_VALUES_INT, Type: api.HIPDNN_TYPE_INT64, Min: 0, Max: -1, Settable: true, Gettable: true},
		{Name: api.HIPDNN_ATTR_KNOB_INFO_VALID_VALUES_STRING, Type: api.HIPDNN_TYPE_CHAR, Min: 0, Max: 65536, Settable: true, Gettable: true,
			OnSet: setValidString, CustomGet: getValidString,
			IsSet: func(o Object) bool { return len(o.(*KnobInfo).validStrings) > 0 }},
		{Name: api.HIPDNN_ATTR_KNOB_INFO_STRING_MAX_LENGTH, Type: api.HIPDNN_TYPE_INT64, Alt: []api.AttributeType{api.HIPDNN_TYPE_INT32},
			Min: 1, Max: 1, Settable: true, Gettable: true},
	},
	Finalize: finalizeKnobInfo,
})

// setValidString appends one allowed string; a count of 0 with a NULL array clears the list.
func setValidString(o Object, v *Value) error {
	k := o.(*KnobInfo)
	if v.Bytes == nil {
		k.validStrings = nil
		return nil
	}
	k.validStrings = append(k.validStrings, v.Str())
	return nil
}

// getValidString follows AMD's three-step protocol: requested 0 gives the number of strings;
// requested k>0 with a NULL array gives the byte size (with NUL) of string k-1; requested k>0
// with a buffer copies string k-1.
func getValidString(o Object, _ api.AttributeType, requested int64, count *int64, p unsafe.Pointer) error {
	k := o.(*KnobInfo)
	if count == nil {
		return stepf(status.NullPointer, "elementCount is NULL")
	}
	if requested == 0 {
		*count = int64(len(k.validStrings))
		return nil
	}
	if requested < 0 || requested > int64(len(k.validStrings)) {
		return stepf(status.BadParam, "string %d requested, the knob has %d valid strings", requested, len(k.validStrings))
	}
	s := k.validStrings[requested-1]
	if p == nil {
		*count = int64(len(s)) + 1
		return nil
	}
	dst := unsafe.Slice((*byte)(p), len(s)+1)
	copy(dst, s)
	dst[len(s)] = 0
	*count = int64(len(s)) + 1
	return nil
}

func finalizeKnobInfo(o Object) error {
	k := o.(*KnobInfo)
	def := k.value(api.HIPDNN_ATTR_KNOB_INFO_DEFAULT_VALUE)
	lo, hi := k.value(api.HIPDNN_ATTR_KNOB_INFO_MINIMUM_VALUE), k.value(api.HIPDNN_ATTR_KNOB_INFO_MAXIMUM_VALUE)
	fail := func(format string, args ...any) error {
		return stepf(status.BadParam, format, args...)
	}
	if lo.Set != hi.Set {
		return fail("minimum and maximum must be set together")
	}
	if lo.Set {
		if lo.Type != def.Type || hi.Type != def.Type {
			return fail("minimum/maximum are %v but the default is %v", lo.Type, def.Type)
		}
		if lo.Type == api.HIPDNN_TYPE_INT64 && lo.I > hi.I || lo.Type == api.HIPDNN_TYPE_DOUBLE && lo.F > hi.F {
			return fail("minimum is greater than maximum")
		}
	}
	numeric := def.Type != api.HIPDNN_TYPE_CHAR
	if numeric && (len(k.validStrings) > 0 || k.value(api.HIPDNN_ATTR_KNOB_INFO_STRING_MAX_LENGTH).Set) {
		return fail("string constraints on a numeric knob")
	}
	if def.Type != api.HIPDNN_TYPE_INT64 && (k.value(api.HIPDNN_ATTR_KNOB_INFO_STRIDE).Set || len(k.value(api.HIPDNN_ATTR_KNOB_INFO_VALID_VALUES_INT).Ints) > 0) {
		return fail("integer constraints (stride, valid values) on a %v knob", def.Type)
	}
	if !numeric && lo.Set {
		return fail("minimum/maximum on a string knob")
	}
	return nil
}

// knobInfoFrom fabricates a finalized KNOB_INFO descriptor from a knob an engine published.
func knobInfoFrom(kn *engines.Knob) *KnobInfo {
	k := knobInfoKind.New(knobInfoKind).(*KnobInfo)
	k.value(api.HIPDNN_ATTR_KNOB_INFO_TYPE).setBytes([]byte(kn.ID))
	k.value(api.HIPDNN_ATTR_KNOB_INFO_DESCRIPTION).setBytes([]byte(kn.Description))
	*k.value(api.HIPDNN_ATTR_KNOB_INFO_DEFAULT_VALUE) = valueOfKnob(kn.Default)
	dep := int64(0)
	if kn.Deprecated {
		dep = 1
	}
	k.value(api.HIPDNN_ATTR_KNOB_INFO_DEPRECATED).setInt(api.HIPDNN_TYPE_BOOLEAN, dep)
	c := &kn.Constraint
	switch c.Kind {
	case engines.KnobInt:
		if len(c.IntValues) > 0 {
			*k.value(api.HIPDNN_ATTR_KNOB_INFO_VALID_VALUES_INT) = Value{Set: true, Type: api.HIPDNN_TYPE_INT64, Ints: c.IntValues}
		} else {
			k.value(api.HIPDNN_ATTR_KNOB_INFO_MINIMUM_VALUE).setInt(api.HIPDNN_TYPE_INT64, c.IntMin)
			k.value(api.HIPDNN_ATTR_KNOB_INFO_MAXIMUM_VALUE).setInt(api.HIPDNN_TYPE_INT64, c.IntMax)
			if c.IntStep > 0 {
				k.value(api.HIPDNN_ATTR_KNOB_INFO_STRIDE).setInt(api.HIPDNN_TYPE_INT64, c.IntStep)
			}
		}
	case engines.KnobFloat:
		*k.value(api.HIPDNN_ATTR_KNOB_INFO_MINIMUM_VALUE) = Value{Set: true, Type: api.HIPDNN_TYPE_DOUBLE, F: c.FloatMin}
		*k.value(api.HIPDNN_ATTR_KNOB_INFO_MAXIMUM_VALUE) = Value{Set: true, Type: api.HIPDNN_TYPE_DOUBLE, F: c.FloatMax}
	case engines.KnobString:
		if c.MaxLength > 0 {
			k.value(api.HIPDNN_ATTR_KNOB_INFO_STRING_MAX_LENGTH).setInt(api.HIPDNN_TYPE_INT64, int64(c.MaxLength))
		}
		k.validStrings = append([]string(nil), c.StringValues...)
	}
	k.finalized = true
	return k
}
