package engines

import (
	"fmt"

	"github.com/hipdnn-go/backend/internal/fbread"
)

// verifier walks the tables this package reads (EngineDetails and EngineConfig with everything
// they reach, knob_value.fbs, engine_config.fbs, engine_details.fbs) with the bounds-checked
// reader of internal/fbread, and checks the required fields. Once a table passes, flatc's
// generated readers in internal/fb can read it without panicking.
type verifier struct {
	r *fbread.Reader
}

func newVerifier(buf []byte) *verifier { return &verifier{r: fbread.New(buf)} }

func (v *verifier) scalar(t fbread.Table, slot int, size int64, what string) error {
	_, err := v.r.Scalar(t, slot, size, what)
	return err
}

func (v *verifier) str(t fbread.Table, slot int, required bool, what string) error {
	_, present, err := v.r.Str(t, slot, what)
	if err == nil && required && !present {
		err = fbread.Malformedf("%s: required field is missing", what)
	}
	return err
}

func (v *verifier) stringVector(t fbread.Table, slot int, what string) error {
	start, n, _, err := v.r.Vector(t, slot, 4, what)
	for i := 0; i < n && err == nil; i++ {
		_, err = v.r.StrAt(start+4*int64(i), what)
	}
	return err
}

// sub verifies the table at offsetPos with fn, one level deeper.
func (v *verifier) sub(offsetPos int64, what string, fn func(fbread.Table) error) error {
	t, err := v.r.TableAt(offsetPos, what)
	if err != nil {
		return err
	}
	v.r.Enter()
	defer v.r.Leave()
	return fn(t)
}

// tableVector verifies a vector of tables, each with fn.
func (v *verifier) tableVector(t fbread.Table, slot int, what string, fn func(fbread.Table) error) error {
	start, n, _, err := v.r.Vector(t, slot, 4, what)
	if err == nil {
		err = v.r.ReserveTables(n)
	}
	for i := 0; i < n && err == nil; i++ {
		err = v.sub(start+4*int64(i), fmt.Sprintf("%s[%d]", what, i), fn)
	}
	return err
}

// subtable verifies an optional (or required) table field.
func (v *verifier) subtable(t fbread.Table, slot int, required bool, what string, fn func(fbread.Table) error) error {
	p := v.r.Field(t, slot)
	if p == 0 {
		if required {
			return fbread.Malformedf("%s: required field is missing", what)
		}
		return nil
	}
	return v.sub(p, what, fn)
}

// union verifies a union: the type byte at typeSlot, the value offset at typeSlot+1 (always
// checked when present, as the C++ verifier does), then the member table by type. Member
// types this build does not know are accepted and not followed (internal/fbread's policy).
func (v *verifier) union(t fbread.Table, typeSlot int, required bool, what string, members map[byte]func(fbread.Table) error) error {
	typ, _, err := v.r.Byte(t, typeSlot, what+" type")
	if err != nil {
		return err
	}
	p := v.r.Field(t, typeSlot+1)
	if p == 0 {
		if required {
			return fbread.Malformedf("%s: required field is missing", what)
		}
		return nil
	}
	if _, err := v.r.Offset(p, what); err != nil {
		return err
	}
	fn := members[typ]
	if typ == 0 || fn == nil {
		return nil
	}
	return v.sub(p, what, fn)
}

// ---- schema: knob_value.fbs, engine_config.fbs, engine_details.fbs (slots: zz_generated.go) ----

func (v *verifier) knobValueMembers() map[byte]func(fbread.Table) error {
	return map[byte]func(fbread.Table) error{
		KnobInt:    func(t fbread.Table) error { return v.scalar(t, slotIntValueValue, 8, "IntValue.value") },
		KnobFloat:  func(t fbread.Table) error { return v.scalar(t, slotFloatValueValue, 8, "FloatValue.value") },
		KnobString: func(t fbread.Table) error { return v.str(t, slotStringValueValue, false, "StringValue.value") },
	}
}

func (v *verifier) knobSetting(t fbread.Table) error {
	if err := v.str(t, slotKnobSettingKnobId, false, "KnobSetting.knob_id"); err != nil {
		return err
	}
	return v.union(t, slotKnobSettingValueType, false, "KnobSetting.value", v.knobValueMembers())
}

func (v *verifier) knob(t fbread.Table) error {
	if err := v.str(t, slotKnobKnobId, false, "Knob.knob_id"); err != nil {
		return err
	}
	if err := v.str(t, slotKnobDescription, false, "Knob.description"); err != nil {
		return err
	}
	if err := v.union(t, slotKnobDefaultValueType, true, "Knob.default_value", v.knobValueMembers()); err != nil {
		return err
	}
	constraints := map[byte]func(fbread.Table) error{
		KnobInt: func(t fbread.Table) error {
			for _, slot := range []int{slotIntConstraintMinValue, slotIntConstraintMaxValue, slotIntConstraintStep} {
				if err := v.scalar(t, slot, 8, "IntConstraint"); err != nil {
					return err
				}
			}
			_, _, _, err := v.r.Vector(t, slotIntConstraintValidValues, 8, "IntConstraint.valid_values")
			return err
		},
		KnobFloat: func(t fbread.Table) error {
			if err := v.scalar(t, slotFloatConstraintMinValue, 8, "FloatConstraint.min_value"); err != nil {
				return err
			}
			return v.scalar(t, slotFloatConstraintMaxValue, 8, "FloatConstraint.max_value")
		},
		KnobString: func(t fbread.Table) error {
			if err := v.scalar(t, slotStringConstraintMaxLength, 4, "StringConstraint.max_length"); err != nil {
				return err
			}
			return v.stringVector(t, slotStringConstraintValidValues, "StringConstraint.valid_values")
		},
	}
	if err := v.union(t, slotKnobConstraintType, false, "Knob.constraint", constraints); err != nil {
		return err
	}
	return v.scalar(t, slotKnobDeprecated, 1, "Knob.deprecated")
}

func (v *verifier) engineConfig(t fbread.Table) error {
	if err := v.scalar(t, slotEngineConfigEngineId, 8, "EngineConfig.engine_id"); err != nil {
		return err
	}
	if err := v.tableVector(t, slotEngineConfigKnobs, "EngineConfig.knobs", v.knobSetting); err != nil {
		return err
	}
	return v.str(t, slotEngineConfigRankingMetric, false, "EngineConfig.ranking_metric")
}

func (v *verifier) engineCandidate(t fbread.Table) error {
	if err := v.str(t, slotEngineCandidateId, true, "EngineCandidate.id"); err != nil {
		return err
	}
	if err := v.tableVector(t, slotEngineCandidateKnobSettings, "EngineCandidate.knob_settings", v.knobSetting); err != nil {
		return err
	}
	return v.str(t, slotEngineCandidateKernelFeatures, true, "EngineCandidate.kernel_features")
}

func (v *verifier) candidatePage(t fbread.Table) error {
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
		if err := v.str(t, f.slot, f.required, "EngineCandidatePage."+f.name); err != nil {
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

func (v *verifier) engineDetails(t fbread.Table) error {
	if err := v.scalar(t, slotEngineDetailsEngineId, 8, "EngineDetails.engine_id"); err != nil {
		return err
	}
	if err := v.tableVector(t, slotEngineDetailsKnobs, "EngineDetails.knobs", v.knob); err != nil {
		return err
	}
	if _, _, _, err := v.r.Vector(t, slotEngineDetailsBehaviorNotes, 4, "EngineDetails.behavior_notes"); err != nil {
		return err
	}
	if err := v.str(t, slotEngineDetailsName, false, "EngineDetails.name"); err != nil {
		return err
	}
	return v.subtable(t, slotEngineDetailsCandidatePage, false, "EngineDetails.candidate_page", v.candidatePage)
}

// verifyRoot checks buf as a root table named what with fn.
func verifyRoot(buf []byte, what string, fn func(*verifier, fbread.Table) error) error {
	v := newVerifier(buf)
	t, err := v.r.Root(what)
	if err != nil {
		return err
	}
	return fn(v, t)
}

// verifyEngineDetails checks a buffer as a root EngineDetails.
func verifyEngineDetails(buf []byte) error {
	return verifyRoot(buf, "EngineDetails", (*verifier).engineDetails)
}

// verifyEngineConfig checks a buffer as a root EngineConfig.
func verifyEngineConfig(buf []byte) error {
	return verifyRoot(buf, "EngineConfig", (*verifier).engineConfig)
}

// verifyKnob checks a buffer as a root Knob (the form of Knob.Serialized).
func verifyKnob(buf []byte) error { return verifyRoot(buf, "Knob", (*verifier).knob) }

// verifyKnobSetting checks a buffer as a root KnobSetting.
func verifyKnobSetting(buf []byte) error {
	return verifyRoot(buf, "KnobSetting", (*verifier).knobSetting)
}
