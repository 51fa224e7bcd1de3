package engines

import (
	"fmt"

	"github.com/hipdnn-go/backend/internal/fbread"
)

// decoder reads the tables this package takes from plugins and policies (EngineDetails and
// EngineConfig with everything they reach: knob_value.fbs, engine_config.fbs,
// engine_details.fbs) in one pass with the bounds-checked reader of internal/fbread: every
// field is checked as it is read, so a buffer that decodes was also verified, and no second
// reader walks it again.
type decoder struct {
	r *fbread.Reader
}

func newDecoder(buf []byte) *decoder { return &decoder{r: fbread.New(buf)} }

func (v *decoder) scalar(t fbread.Table, slot int, size int64, what string) error {
	_, err := v.r.Scalar(t, slot, size, what)
	return err
}

func (v *decoder) str(t fbread.Table, slot int, required bool, what string) (string, error) {
	s, present, err := v.r.Str(t, slot, what)
	if err == nil && required && !present {
		err = fbread.Malformedf("%s: required field is missing", what)
	}
	return s, err
}

func (v *decoder) stringVector(t fbread.Table, slot int, what string) ([]string, error) {
	start, n, _, err := v.r.Vector(t, slot, 4, what)
	var out []string
	for i := 0; i < n && err == nil; i++ {
		var s string
		s, err = v.r.StrAt(start+4*int64(i), what)
		out = append(out, s)
	}
	return out, err
}

// sub reads the table at offsetPos with fn, one level deeper.
func (v *decoder) sub(offsetPos int64, what string, fn func(fbread.Table) error) error {
	t, err := v.r.TableAt(offsetPos, what)
	if err != nil {
		return err
	}
	v.r.Enter()
	defer v.r.Leave()
	return fn(t)
}

// tableVector reads a vector of tables, each with fn(index, table).
func (v *decoder) tableVector(t fbread.Table, slot int, what string, fn func(int, fbread.Table) error) error {
	start, n, _, err := v.r.Vector(t, slot, 4, what)
	if err == nil {
		err = v.r.ReserveTables(n)
	}
	for i := 0; i < n && err == nil; i++ {
		err = v.sub(start+4*int64(i), fmt.Sprintf("%s[%d]", what, i), func(t fbread.Table) error { return fn(i, t) })
	}
	return err
}

// subtable reads an optional (or required) table field.
func (v *decoder) subtable(t fbread.Table, slot int, required bool, what string, fn func(fbread.Table) error) error {
	p := v.r.Field(t, slot)
	if p == 0 {
		if required {
			return fbread.Malformedf("%s: required field is missing", what)
		}
		return nil
	}
	return v.sub(p, what, fn)
}

// union reads a union: the type byte at typeSlot, the value offset at typeSlot+1 (always
// checked when present, as the C++ verifier does), then the member table with fn when the
// type is one this build knows (known). Other member types are accepted and not followed
// (internal/fbread's policy). It returns the type byte and whether a value is present.
func (v *decoder) union(t fbread.Table, typeSlot int, required bool, what string, known func(byte) bool,
	fn func(byte, fbread.Table) error) (byte, bool, error) {
	typ, _, err := v.r.Byte(t, typeSlot, what+" type")
	if err != nil {
		return 0, false, err
	}
	p := v.r.Field(t, typeSlot+1)
	if p == 0 {
		if required {
			return typ, false, fbread.Malformedf("%s: required field is missing", what)
		}
		return typ, false, nil
	}
	if _, err := v.r.Offset(p, what); err != nil {
		return typ, true, err
	}
	if typ == 0 || !known(typ) {
		return typ, true, nil
	}
	return typ, true, v.sub(p, what, func(t fbread.Table) error { return fn(typ, t) })
}

func knownKnobKind(typ byte) bool { return typ >= KnobInt && typ <= KnobString }

// ---- schema: knob_value.fbs, engine_config.fbs, engine_details.fbs (slots: zz_generated.go) ----

// value reads a KnobValue union. A type this build does not know keeps its tag in Kind and
// no value; present is false when the union has no value.
func (v *decoder) value(t fbread.Table, typeSlot int, required bool, what string) (KnobValue, bool, error) {
	var out KnobValue
	typ, present, err := v.union(t, typeSlot, required, what, knownKnobKind, func(typ byte, t fbread.Table) error {
		var err error
		switch typ {
		case KnobInt:
			out.I, _, err = v.r.I64(t, slotIntValueValue, "IntValue.value")
		case KnobFloat:
			out.F, _, err = v.r.F64(t, slotFloatValueValue, "FloatValue.value")
		case KnobString:
			out.S, err = v.str(t, slotStringValueValue, false, "StringValue.value")
		}
		return err
	})
	out.Kind = int(typ)
	return out, present, err
}

func (v *decoder) knobSetting(t fbread.Table) (KnobSetting, error) {
	id, err := v.str(t, slotKnobSettingKnobId, false, "KnobSetting.knob_id")
	if err != nil {
		return KnobSetting{}, err
	}
	val, present, err := v.value(t, slotKnobSettingValueType, false, "KnobSetting.value")
	if !present || !knownKnobKind(byte(val.Kind)) {
		val = KnobValue{Kind: val.Kind}
	}
	return KnobSetting{ID: id, Value: val}, err
}

// constraint reads a Knob's constraint union into c; an unknown or absent one leaves c empty.
func (v *decoder) constraint(t fbread.Table, c *KnobConstraint) error {
	_, _, err := v.union(t, slotKnobConstraintType, false, "Knob.constraint", knownKnobKind, func(typ byte, t fbread.Table) error {
		var err error
		switch typ {
		case KnobInt:
			for _, f := range []struct {
				slot int
				to   *int64
			}{{slotIntConstraintMinValue, &c.IntMin}, {slotIntConstraintMaxValue, &c.IntMax}, {slotIntConstraintStep, &c.IntStep}} {
				if *f.to, _, err = v.r.I64(t, f.slot, "IntConstraint"); err != nil {
					return err
				}
			}
			c.IntValues, _, err = v.r.Longs(t, slotIntConstraintValidValues, "IntConstraint.valid_values")
		case KnobFloat:
			if c.FloatMin, _, err = v.r.F64(t, slotFloatConstraintMinValue, "FloatConstraint.min_value"); err != nil {
				return err
			}
			c.FloatMax, _, err = v.r.F64(t, slotFloatConstraintMaxValue, "FloatConstraint.max_value")
		case KnobString:
			if c.MaxLength, _, err = v.r.I32(t, slotStringConstraintMaxLength, "StringConstraint.max_length"); err != nil {
				return err
			}
			c.StringValues, err = v.stringVector(t, slotStringConstraintValidValues, "StringConstraint.valid_values")
		}
		if err == nil {
			c.Kind = int(typ)
		}
		return err
	})
	return err
}

// knob reads a Knob and checks the rules a host relies on: an id, a default of a known type,
// and a constraint of the default's type.
func (v *decoder) knob(t fbread.Table) (Knob, error) {
	var out Knob
	var err error
	if out.ID, err = v.str(t, slotKnobKnobId, false, "Knob.knob_id"); err != nil {
		return out, err
	}
	if out.Description, err = v.str(t, slotKnobDescription, false, "Knob.description"); err != nil {
		return out, err
	}
	if out.Default, _, err = v.value(t, slotKnobDefaultValueType, true, "Knob.default_value"); err != nil {
		return out, err
	}
	if err = v.constraint(t, &out.Constraint); err != nil {
		return out, err
	}
	deprecated, _, err := v.r.Byte(t, slotKnobDeprecated, "Knob.deprecated")
	if err != nil {
		return out, err
	}
	out.Deprecated = deprecated != 0
	switch c := &out.Constraint; {
	case out.ID == "":
		return out, fmt.Errorf("knob has no knob_id")
	case !knownKnobKind(byte(out.Default.Kind)):
		return out, fmt.Errorf("knob %q has a default value of %s type", out.ID, kindName(out.Default.Kind))
	case c.Kind != KnobNone && c.Kind != out.Default.Kind:
		return out, fmt.Errorf("knob %q has a %s default but a %s constraint", out.ID, kindName(out.Default.Kind), kindName(c.Kind))
	}
	return out, nil
}

// engineConfig reads an EngineConfig.
func (v *decoder) engineConfig(t fbread.Table) (id int64, settings []KnobSetting, metric string, err error) {
	if id, _, err = v.r.I64(t, slotEngineConfigEngineId, "EngineConfig.engine_id"); err != nil {
		return
	}
	err = v.tableVector(t, slotEngineConfigKnobs, "EngineConfig.knobs", func(_ int, t fbread.Table) error {
		s, err := v.knobSetting(t)
		settings = append(settings, s)
		return err
	})
	if err != nil {
		return
	}
	metric, err = v.str(t, slotEngineConfigRankingMetric, false, "EngineConfig.ranking_metric")
	return
}

// engineCandidate and candidatePage are checked, not kept: the host does not use the page.
func (v *decoder) engineCandidate(_ int, t fbread.Table) error {
	if _, err := v.str(t, slotEngineCandidateId, true, "EngineCandidate.id"); err != nil {
		return err
	}
	if err := v.tableVector(t, slotEngineCandidateKnobSettings, "EngineCandidate.knob_settings", func(_ int, t fbread.Table) error {
		_, err := v.knobSetting(t)
		return err
	}); err != nil {
		return err
	}
	_, err := v.str(t, slotEngineCandidateKernelFeatures, true, "EngineCandidate.kernel_features")
	return err
}

func (v *decoder) candidatePage(t fbread.Table) error {
	for _, f := range []struct {
		slot     int
		name     string
		required bool
	}{
		{slotEngineCandidatePageGraphId, "graph_id", true},
		{slotEngineCandidatePageDeviceId, "device_id", true},
		{slotEngineCandidatePageDeviceArch, "device_arch", true},
		{slotEngineCandidatePageProblemFeatures, "problem_features", true},
		{slotEngineCandidatePageDeviceFeatures, "device_features", true},
		{slotEngineCandidatePageEngineName, "engine_name", false},
		{slotEngineCandidatePageEngineDescriptorId, "engine_descriptor_id", false},
	} {
		if _, err := v.str(t, f.slot, f.required, "EngineCandidatePage."+f.name); err != nil {
			return err
		}
	}
	if err := v.scalar(t, slotEngineCandidatePageTotalCount, 8, "EngineCandidatePage.total_count"); err != nil {
		return err
	}
	if err := v.scalar(t, slotEngineCandidatePageOffset, 8, "EngineCandidatePage.offset"); err != nil {
		return err
	}
	return v.tableVector(t, slotEngineCandidatePageCandidates, "EngineCandidatePage.candidates", v.engineCandidate)
}

// engineDetails reads an EngineDetails; knob ids must be unique.
func (v *decoder) engineDetails(t fbread.Table) (*Details, error) {
	d := &Details{}
	var err error
	if d.EngineID, _, err = v.r.I64(t, slotEngineDetailsEngineId, "EngineDetails.engine_id"); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	err = v.tableVector(t, slotEngineDetailsKnobs, "EngineDetails.knobs", func(i int, t fbread.Table) error {
		k, err := v.knob(t)
		switch {
		case err != nil:
			return fmt.Errorf("knob %d: %w", i, err)
		case seen[k.ID]:
			return fmt.Errorf("knob %q is listed twice", k.ID)
		}
		seen[k.ID] = true
		k.Serialized = encodeKnob(&k)
		d.Knobs = append(d.Knobs, k)
		return nil
	})
	if err != nil {
		return nil, err
	}
	notes, _, err := v.r.Ints(t, slotEngineDetailsBehaviorNotes, "EngineDetails.behavior_notes")
	if err != nil {
		return nil, err
	}
	for _, n := range notes {
		d.BehaviorNotes = append(d.BehaviorNotes, int32(n))
	}
	if d.name, err = v.str(t, slotEngineDetailsName, false, "EngineDetails.name"); err != nil {
		return nil, err
	}
	if err := v.subtable(t, slotEngineDetailsCandidatePage, false, "EngineDetails.candidate_page", v.candidatePage); err != nil {
		return nil, err
	}
	return d, nil
}

// decodeRoot reads buf as a root table named what with fn.
func decodeRoot[T any](buf []byte, what string, fn func(*decoder, fbread.Table) (T, error)) (T, error) {
	v := newDecoder(buf)
	t, err := v.r.Root(what)
	if err != nil {
		var zero T
		return zero, err
	}
	return fn(v, t)
}

// decodeDetails reads an EngineDetails buffer.
func decodeDetails(buf []byte) (*Details, error) {
	return decodeRoot(buf, "EngineDetails", (*decoder).engineDetails)
}

// decodeKnob reads a root Knob (the form of Knob.Serialized).
func decodeKnob(buf []byte) (Knob, error) { return decodeRoot(buf, "Knob", (*decoder).knob) }
