package engines

import (
	"math"
	"testing"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/fb"
)

// constraintDetails are the knobs of test_knob_constraint_validation_plugin (engine -10),
// fetched from the plugin so the test checks what the plugin really publishes.
func constraintDetails(t *testing.T) *Details {
	t.Helper()
	s := session(t, "test_knob_constraint_validation_plugin", "test_knobs_plugin")
	d, err := s.EngineDetails(-10, testGraph())
	if err != nil {
		t.Fatal(err)
	}
	d8, err := s.EngineDetails(-8, testGraph())
	if err != nil {
		t.Fatal(err)
	}
	d.Knobs = append(d.Knobs, d8.Knobs...)
	return d
}

func TestValidateKnobSettings(t *testing.T) {
	d := constraintDetails(t)
	i := func(id string, v int64) KnobSetting {
		return KnobSetting{ID: id, Value: KnobValue{Kind: KnobInt, I: v}}
	}
	f := func(id string, v float64) KnobSetting {
		return KnobSetting{ID: id, Value: KnobValue{Kind: KnobFloat, F: v}}
	}
	s := func(id, v string) KnobSetting { return KnobSetting{ID: id, Value: KnobValue{Kind: KnobString, S: v}} }
	const ik, fk, sk = "constraint.int_knob", "constraint.float_knob", "constraint.string_knob"
	tests := []struct {
		desc string
		give []KnobSetting
		want string
	}{
		{"nothing", nil, ""},
		{"defaults", []KnobSetting{i(ik, 50), f(fk, 5), s(sk, "beta")}, ""},
		{"bounds", []KnobSetting{i(ik, 0), f(fk, 10), s(sk, "gamma")}, ""},
		{"upper int bound", []KnobSetting{i(ik, 100), f(fk, 0)}, ""},
		{"unknown id", []KnobSetting{i("constraint.nope", 1)}, `engine 0xFFFFFFFFFFFFFFF6 has no knob "constraint.nope" (value 1)`},
		{"wrong type", []KnobSetting{s(ik, "50")}, `knob "constraint.int_knob" takes int values, got string value "50"`},
		{"float for int", []KnobSetting{f(ik, 50)}, `knob "constraint.int_knob" takes int values, got float value 50`},
		{"no value", []KnobSetting{{ID: ik}}, `knob "constraint.int_knob" takes int values, got no value (no value)`},
		{"above range", []KnobSetting{i(ik, 105)}, `knob "constraint.int_knob": value 105 is outside [0, 100]`},
		{"below range", []KnobSetting{i(ik, -5)}, `knob "constraint.int_knob": value -5 is outside [0, 100]`},
		{"off step", []KnobSetting{i(ik, 52)}, `knob "constraint.int_knob": value 52 is not 0 plus a multiple of the step 5`},
		{"float range", []KnobSetting{f(fk, 10.5)}, `knob "constraint.float_knob": value 10.5 is outside [0, 10]`},
		{"NaN", []KnobSetting{f(fk, math.NaN())}, `knob "constraint.float_knob": value NaN is not finite`},
		{"Inf", []KnobSetting{f(fk, math.Inf(1))}, `knob "constraint.float_knob": value +Inf is not finite`},
		{"not a valid string", []KnobSetting{s(sk, "delta")}, `knob "constraint.string_knob": value "delta" is not one of the valid values ["alpha" "beta" "gamma"]`},
		{"string too long", []KnobSetting{s("test.knobs.mode", "accurate-but-much-too-long")}, `knob "test.knobs.mode": value "accurate-but-much-too-long" is longer than 16 bytes`},
		{"string step ok", []KnobSetting{s("test.knobs.mode", "accurate"), i("test.knobs.tile_size", 48)}, ""},
		{"duplicate id", []KnobSetting{i(ik, 50), i(ik, 55)}, `knob "constraint.int_knob" is set more than once`},
	}
	for _, tt := range tests {
		err := ValidateKnobSettings(d, tt.give)
		if tt.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tt.desc, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: accepted", tt.desc)
			continue
		}
		wantStatus(t, err, api.HIPDNN_STATUS_BAD_PARAM)
		if err.Error() != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.desc, err.Error(), tt.want)
		}
	}
}

// Knob constraints with an allowed int set (no plugin publishes one).
func TestValidateIntValidValues(t *testing.T) {
	t.Parallel()
	d := &Details{EngineID: 1, Knobs: []Knob{{ID: "k", Default: KnobValue{Kind: KnobInt, I: 2},
		Constraint: KnobConstraint{Kind: KnobInt, IntMin: 0, IntMax: 0, IntStep: 1, IntValues: []int64{2, 4, 8}}}}}
	if err := ValidateKnobSettings(d, []KnobSetting{{ID: "k", Value: KnobValue{Kind: KnobInt, I: 8}}}); err != nil {
		t.Error(err)
	}
	err := ValidateKnobSettings(d, []KnobSetting{{ID: "k", Value: KnobValue{Kind: KnobInt, I: 3}}})
	wantStatus(t, err, api.HIPDNN_STATUS_BAD_PARAM, `knob "k": value 3 is not one of the valid values [2 4 8]`)
}

func TestEngineConfigRoundTrip(t *testing.T) {
	t.Parallel()
	settings := []KnobSetting{
		{ID: "a", Value: KnobValue{Kind: KnobInt, I: -7}},
		{ID: "b", Value: KnobValue{Kind: KnobFloat, F: 0.25}},
		{ID: "c", Value: KnobValue{Kind: KnobString, S: "fast"}},
		{ID: "d"},
	}
	for _, metric := range []string{"", "time"} {
		buf := EncodeEngineConfig(-10, settings, metric)
		id, got, m, err := DecodeEngineConfig(buf)
		if err != nil || id != -10 || m != metric || len(got) != len(settings) {
			t.Fatalf("decode: %d %v %q %v", id, got, m, err)
		}
		for i := range got {
			if got[i] != settings[i] {
				t.Errorf("setting %d = %+v, want %+v", i, got[i], settings[i])
			}
		}
		root := fb.GetRootAsEngineConfig(buf, 0)
		if root.EngineId() != -10 || (metric == "" && root.RankingMetric() != nil) {
			t.Errorf("generated reader sees id %d metric %q", root.EngineId(), root.RankingMetric())
		}
	}
	id, got, m, err := DecodeEngineConfig(EncodeEngineConfig(5, nil, ""))
	if err != nil || id != 5 || got != nil || m != "" {
		t.Errorf("empty config: %d %v %q %v", id, got, m, err)
	}
	for _, bad := range [][]byte{nil, {1, 2, 3}, make([]byte, 64), {0xFF, 0xFF, 0xFF, 0x7F, 0, 0, 0, 0}} {
		_, _, _, err := DecodeEngineConfig(bad)
		wantStatus(t, err, api.HIPDNN_STATUS_BAD_PARAM, "does not verify")
	}
}

// A buffer with a string missing its NUL, a vtable outside the buffer, and so on: the decoder
// rejects it, and whatever it accepts it reads without panicking.
func TestDecoderRejectsCorruption(t *testing.T) {
	t.Parallel()
	good := EncodeEngineConfig(3, []KnobSetting{{ID: "knob", Value: KnobValue{Kind: KnobString, S: "value"}}}, "tflops")
	if _, _, _, err := DecodeEngineConfig(good); err != nil {
		t.Fatal(err)
	}
	rejected := 0
	for i := range good {
		for _, x := range []byte{0x00, 0x7F, 0xFF} {
			b := append([]byte{}, good...)
			if b[i] == x {
				continue
			}
			b[i] = x
			if _, _, _, err := DecodeEngineConfig(b); err != nil {
				rejected++
			}
		}
	}
	if rejected == 0 {
		t.Error("no corruption was rejected")
	}
	// Truncations: only the trailing alignment padding may go.
	for n := 0; n < len(good); n++ {
		id, s, m, err := DecodeEngineConfig(good[:n])
		switch {
		case err == nil && (id != 3 || len(s) != 1 || m != "tflops"):
			t.Errorf("prefix of %d bytes decodes differently", n)
		case err != nil && n >= len(good)-3:
			t.Logf("prefix of %d bytes rejected: %v", n, err)
		}
	}
}

// Knob with a required default value missing, and details with a duplicate knob id.
func TestDecodeDetailsRules(t *testing.T) {
	t.Parallel()
	build := func(knobs ...func(b *flatbuffers.Builder) flatbuffers.UOffsetT) []byte {
		b := flatbuffers.NewBuilder(256)
		offs := make([]flatbuffers.UOffsetT, len(knobs))
		for i, k := range knobs {
			offs[i] = k(b)
		}
		fb.EngineDetailsStartKnobsVector(b, len(offs))
		for i := len(offs) - 1; i >= 0; i-- {
			b.PrependUOffsetT(offs[i])
		}
		v := b.EndVector(len(offs))
		fb.EngineDetailsStart(b)
		fb.EngineDetailsAddEngineId(b, 9)
		fb.EngineDetailsAddKnobs(b, v)
		b.Finish(fb.EngineDetailsEnd(b))
		return b.FinishedBytes()
	}
	knob := func(id string, withDefault bool) func(b *flatbuffers.Builder) flatbuffers.UOffsetT {
		return func(b *flatbuffers.Builder) flatbuffers.UOffsetT {
			kid := b.CreateString(id)
			var def flatbuffers.UOffsetT
			if withDefault {
				def = buildValue(b, KnobValue{Kind: KnobInt, I: 1})
			}
			fb.KnobStart(b)
			fb.KnobAddKnobId(b, kid)
			if withDefault {
				fb.KnobAddDefaultValueType(b, fb.KnobValueIntValue)
				fb.KnobAddDefaultValue(b, def)
			}
			return fb.KnobEnd(b)
		}
	}
	if d, err := decodeDetails(build(knob("x", true))); err != nil || d.EngineID != 9 || len(d.Knobs) != 1 {
		t.Fatalf("valid details: %+v %v", d, err)
	}
	for desc, buf := range map[string][]byte{
		"missing default": build(knob("x", false)),
		"duplicate id":    build(knob("x", true), knob("x", true)),
		"empty id":        build(knob("", true)),
	} {
		if _, err := decodeDetails(buf); err == nil {
			t.Errorf("%s: accepted", desc)
		}
	}
}

func FuzzDecodeEngineConfig(f *testing.F) {
	f.Add(EncodeEngineConfig(1, []KnobSetting{{ID: "k", Value: KnobValue{Kind: KnobInt, I: 3}}}, "time"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		id, settings, metric, err := DecodeEngineConfig(b)
		if err != nil {
			return
		}
		// What decodes re-encodes to something that decodes to the same.
		id2, settings2, metric2, err := DecodeEngineConfig(EncodeEngineConfig(id, settings, metric))
		if err != nil || id2 != id || metric2 != metric || len(settings2) != len(settings) {
			t.Fatalf("round trip changed the config: %v", err)
		}
	})
}

func FuzzDecodeDetails(f *testing.F) {
	k := Knob{ID: "k", Default: KnobValue{Kind: KnobString, S: "a"},
		Constraint: KnobConstraint{Kind: KnobString, MaxLength: 4, StringValues: []string{"a", "b"}}}
	f.Add(encodeKnob(&k))
	f.Add([]byte{4, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		decodeDetails(b) // any bytes: an error or details, never a panic
		decodeKnob(b)
	})
}

func encodeKnobSetting(s KnobSetting) []byte {
	b := flatbuffers.NewBuilder(64)
	id := b.CreateString(s.ID)
	val := buildValue(b, s.Value)
	fb.KnobSettingStart(b)
	fb.KnobSettingAddKnobId(b, id)
	if val != 0 {
		fb.KnobSettingAddValueType(b, fb.KnobValue(s.Value.Kind))
		fb.KnobSettingAddValue(b, val)
	}
	b.Finish(fb.KnobSettingEnd(b))
	return b.FinishedBytes()
}

func TestDecodeKnobSetting(t *testing.T) {
	t.Parallel()
	for _, s := range []KnobSetting{
		{ID: "a", Value: KnobValue{Kind: KnobInt, I: 3}},
		{ID: "b", Value: KnobValue{Kind: KnobFloat, F: -1.5}},
		{ID: "c", Value: KnobValue{Kind: KnobString, S: "x"}},
		{ID: "d"},
	} {
		got, err := DecodeKnobSetting(encodeKnobSetting(s))
		if err != nil || got != s {
			t.Errorf("DecodeKnobSetting(%+v) = %+v, %v", s, got, err)
		}
	}
	_, err := DecodeKnobSetting([]byte{9, 9, 9})
	wantStatus(t, err, api.HIPDNN_STATUS_BAD_PARAM, "does not verify")
}

func FuzzDecodeKnobSetting(f *testing.F) {
	f.Add(encodeKnobSetting(KnobSetting{ID: "k", Value: KnobValue{Kind: KnobString, S: "v"}}))
	f.Fuzz(func(t *testing.T, b []byte) {
		DecodeKnobSetting(b) // an error or a setting, never a panic
	})
}
