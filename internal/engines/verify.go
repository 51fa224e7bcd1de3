package engines

import (
	"encoding/binary"
	"fmt"
	"math"
)

// verifier checks an untrusted flatbuffer the way flatbuffers' C++ Verifier does, for the
// tables this package reads (EngineDetails and EngineConfig with everything they reach): every
// offset non-zero, non-negative and inside the buffer; tables and vtables aligned with vtables
// that fit; scalars aligned to their size and inside the buffer; vectors and strings with a
// length that fits and strings NUL-terminated; required fields present; at most maxDepth
// nesting and maxTables tables. Once a buffer passes, the generated readers in internal/fb can
// read it without panicking.
type verifier struct {
	buf    []byte
	depth  int
	tables int
}

const (
	verifyMaxDepth  = 64
	verifyMaxTables = 1000000
)

// vtable is a verified table: its position, its vtable and the vtable's size.
type vtable struct {
	pos, vt, vsize int
}

func (v *verifier) fail(format string, args ...any) error {
	return fmt.Errorf(format, args...)
}

// in reports whether [pos, pos+size) lies inside the buffer.
func (v *verifier) in(pos, size int) bool {
	return pos >= 0 && size >= 0 && pos <= len(v.buf) && size <= len(v.buf)-pos
}

func (v *verifier) u16(pos int) int    { return int(binary.LittleEndian.Uint16(v.buf[pos:])) }
func (v *verifier) u32(pos int) uint32 { return binary.LittleEndian.Uint32(v.buf[pos:]) }

// root verifies the root offset and returns the root table.
func (v *verifier) root(what string) (vtable, error) {
	if len(v.buf) >= math.MaxInt32 {
		return vtable{}, v.fail("%s: buffer of %d bytes is too large", what, len(v.buf))
	}
	if len(v.buf) < 8 {
		return vtable{}, v.fail("%s: buffer of %d bytes is too short", what, len(v.buf))
	}
	pos, err := v.offsetAt(0, what)
	if err != nil {
		return vtable{}, err
	}
	return v.table(pos, what)
}

// offsetAt follows the uoffset stored at pos.
func (v *verifier) offsetAt(pos int, what string) (int, error) {
	if pos%4 != 0 || !v.in(pos, 4) {
		return 0, v.fail("%s: offset at %d is misaligned or outside the buffer", what, pos)
	}
	o := v.u32(pos)
	if o == 0 || o > math.MaxInt32 {
		return 0, v.fail("%s: invalid offset %d at %d", what, o, pos)
	}
	target := pos + int(o)
	if !v.in(target, 1) {
		return 0, v.fail("%s: offset at %d points outside the buffer", what, pos)
	}
	return target, nil
}

// table verifies the table header at pos.
func (v *verifier) table(pos int, what string) (vtable, error) {
	v.tables++
	if v.tables > verifyMaxTables {
		return vtable{}, v.fail("%s: more than %d tables", what, verifyMaxTables)
	}
	if pos%4 != 0 || !v.in(pos, 4) {
		return vtable{}, v.fail("%s: table at %d is misaligned or outside the buffer", what, pos)
	}
	vt := pos - int(int32(v.u32(pos)))
	if vt%2 != 0 || !v.in(vt, 4) {
		return vtable{}, v.fail("%s: vtable of the table at %d is misaligned or outside the buffer", what, pos)
	}
	vsize := v.u16(vt)
	if vsize%2 != 0 || vsize < 4 || !v.in(vt, vsize) {
		return vtable{}, v.fail("%s: vtable of the table at %d has a bad size %d", what, pos, vsize)
	}
	return vtable{pos: pos, vt: vt, vsize: vsize}, nil
}

// field returns the absolute position of a field, or 0 when it is absent.
func (v *verifier) field(t vtable, slot int) int {
	o := 4 + 2*slot
	if o+2 > t.vsize {
		return 0
	}
	off := v.u16(t.vt + o)
	if off == 0 {
		return 0
	}
	return t.pos + off
}

// scalar verifies a scalar field of the given size (alignment = size).
func (v *verifier) scalar(t vtable, slot, size int, what string) error {
	p := v.field(t, slot)
	if p == 0 {
		return nil
	}
	if p%size != 0 || !v.in(p, size) {
		return v.fail("%s: field is misaligned or outside the buffer", what)
	}
	return nil
}

// ref verifies an offset field and returns its target (0 when absent).
func (v *verifier) ref(t vtable, slot int, required bool, what string) (int, error) {
	p := v.field(t, slot)
	if p == 0 {
		if required {
			return 0, v.fail("%s: required field is missing", what)
		}
		return 0, nil
	}
	return v.offsetAt(p, what)
}

// vectorAt verifies a vector (or string body) at pos and returns its element start and count.
func (v *verifier) vectorAt(pos, elem int, what string) (int, int, error) {
	if pos%4 != 0 || !v.in(pos, 4) {
		return 0, 0, v.fail("%s: vector at %d is misaligned or outside the buffer", what, pos)
	}
	n := int64(v.u32(pos))
	if n >= int64(math.MaxInt32)/int64(elem) || !v.in(pos+4, int(n)*elem) {
		return 0, 0, v.fail("%s: vector of %d elements does not fit in the buffer", what, n)
	}
	return pos + 4, int(n), nil
}

func (v *verifier) stringAt(pos int, what string) error {
	start, n, err := v.vectorAt(pos, 1, what)
	if err != nil {
		return err
	}
	if !v.in(start+n, 1) || v.buf[start+n] != 0 {
		return v.fail("%s: string is not NUL-terminated", what)
	}
	return nil
}

func (v *verifier) str(t vtable, slot int, required bool, what string) error {
	p, err := v.ref(t, slot, required, what)
	if err != nil || p == 0 {
		return err
	}
	return v.stringAt(p, what)
}

// scalarVector verifies a vector of scalars of size elem.
func (v *verifier) scalarVector(t vtable, slot, elem int, what string) error {
	p, err := v.ref(t, slot, false, what)
	if err != nil || p == 0 {
		return err
	}
	_, _, err = v.vectorAt(p, elem, what)
	return err
}

func (v *verifier) stringVector(t vtable, slot int, what string) error {
	p, err := v.ref(t, slot, false, what)
	if err != nil || p == 0 {
		return err
	}
	start, n, err := v.vectorAt(p, 4, what)
	if err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		s, err := v.offsetAt(start+4*i, what)
		if err != nil {
			return err
		}
		if err := v.stringAt(s, what); err != nil {
			return err
		}
	}
	return nil
}

// tableVector verifies a vector of tables, each with fn.
func (v *verifier) tableVector(t vtable, slot int, what string, fn func(vtable) error) error {
	p, err := v.ref(t, slot, false, what)
	if err != nil || p == 0 {
		return err
	}
	start, n, err := v.vectorAt(p, 4, what)
	if err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		if err := v.subtableAt(start+4*i, fmt.Sprintf("%s[%d]", what, i), fn); err != nil {
			return err
		}
	}
	return nil
}

// subtable verifies an optional (or required) table field.
func (v *verifier) subtable(t vtable, slot int, required bool, what string, fn func(vtable) error) error {
	p := v.field(t, slot)
	if p == 0 {
		if required {
			return v.fail("%s: required field is missing", what)
		}
		return nil
	}
	return v.subtableAt(p, what, fn)
}

func (v *verifier) subtableAt(offsetPos int, what string, fn func(vtable) error) error {
	pos, err := v.offsetAt(offsetPos, what)
	if err != nil {
		return err
	}
	t, err := v.table(pos, what)
	if err != nil {
		return err
	}
	v.depth++
	defer func() { v.depth-- }()
	if v.depth > verifyMaxDepth {
		return v.fail("%s: nesting deeper than %d", what, verifyMaxDepth)
	}
	return fn(t)
}

// union verifies a union: the type byte at typeSlot, the value offset at typeSlot+1 (always
// checked when present, as the C++ verifier does), then the member table by type. Unknown
// member types are accepted (forward compatibility); readers must not follow them.
func (v *verifier) union(t vtable, typeSlot int, required bool, what string, members map[byte]func(vtable) error) error {
	if err := v.scalar(t, typeSlot, 1, what+" type"); err != nil {
		return err
	}
	var typ byte
	if p := v.field(t, typeSlot); p != 0 {
		typ = v.buf[p]
	}
	pos, err := v.ref(t, typeSlot+1, required, what)
	if err != nil || pos == 0 {
		return err
	}
	fn := members[typ]
	if typ == 0 || fn == nil {
		return nil
	}
	return v.subtable(t, typeSlot+1, false, what, fn)
}

// ---- schema: knob_value.fbs, engine_config.fbs, engine_details.fbs ----

func (v *verifier) knobValueMembers() map[byte]func(vtable) error {
	return map[byte]func(vtable) error{
		1: func(t vtable) error { return v.scalar(t, 0, 8, "IntValue.value") },
		2: func(t vtable) error { return v.scalar(t, 0, 8, "FloatValue.value") },
		3: func(t vtable) error { return v.str(t, 0, false, "StringValue.value") },
	}
}

func (v *verifier) knobSetting(t vtable) error {
	if err := v.str(t, 0, false, "KnobSetting.knob_id"); err != nil {
		return err
	}
	return v.union(t, 1, false, "KnobSetting.value", v.knobValueMembers())
}

func (v *verifier) knob(t vtable) error {
	if err := v.str(t, 0, false, "Knob.knob_id"); err != nil {
		return err
	}
	if err := v.str(t, 1, false, "Knob.description"); err != nil {
		return err
	}
	if err := v.union(t, 2, true, "Knob.default_value", v.knobValueMembers()); err != nil {
		return err
	}
	constraints := map[byte]func(vtable) error{
		1: func(t vtable) error {
			for slot := 0; slot < 3; slot++ {
				if err := v.scalar(t, slot, 8, "IntConstraint"); err != nil {
					return err
				}
			}
			return v.scalarVector(t, 3, 8, "IntConstraint.valid_values")
		},
		2: func(t vtable) error {
			if err := v.scalar(t, 0, 8, "FloatConstraint.min_value"); err != nil {
				return err
			}
			return v.scalar(t, 1, 8, "FloatConstraint.max_value")
		},
		3: func(t vtable) error {
			if err := v.scalar(t, 0, 4, "StringConstraint.max_length"); err != nil {
				return err
			}
			return v.stringVector(t, 1, "StringConstraint.valid_values")
		},
	}
	if err := v.union(t, 4, false, "Knob.constraint", constraints); err != nil {
		return err
	}
	return v.scalar(t, 6, 1, "Knob.deprecated")
}

func (v *verifier) engineConfig(t vtable) error {
	if err := v.scalar(t, 0, 8, "EngineConfig.engine_id"); err != nil {
		return err
	}
	if err := v.tableVector(t, 1, "EngineConfig.knobs", v.knobSetting); err != nil {
		return err
	}
	return v.str(t, 2, false, "EngineConfig.ranking_metric")
}

func (v *verifier) engineCandidate(t vtable) error {
	if err := v.str(t, 0, true, "EngineCandidate.id"); err != nil {
		return err
	}
	if err := v.tableVector(t, 1, "EngineCandidate.knob_settings", v.knobSetting); err != nil {
		return err
	}
	return v.str(t, 2, true, "EngineCandidate.kernel_features")
}

func (v *verifier) candidatePage(t vtable) error {
	for slot, name := range []string{"graph_id", "device_id", "device_arch", "problem_features", "device_features"} {
		if err := v.str(t, slot, true, "EngineCandidatePage."+name); err != nil {
			return err
		}
	}
	if err := v.scalar(t, 5, 8, "EngineCandidatePage.total_count"); err != nil {
		return err
	}
	if err := v.scalar(t, 6, 8, "EngineCandidatePage.offset"); err != nil {
		return err
	}
	if err := v.tableVector(t, 7, "EngineCandidatePage.candidates", v.engineCandidate); err != nil {
		return err
	}
	if err := v.str(t, 8, false, "EngineCandidatePage.engine_name"); err != nil {
		return err
	}
	return v.str(t, 9, false, "EngineCandidatePage.engine_descriptor_id")
}

func (v *verifier) engineDetails(t vtable) error {
	if err := v.scalar(t, 0, 8, "EngineDetails.engine_id"); err != nil {
		return err
	}
	if err := v.tableVector(t, 1, "EngineDetails.knobs", v.knob); err != nil {
		return err
	}
	if err := v.scalarVector(t, 2, 4, "EngineDetails.behavior_notes"); err != nil {
		return err
	}
	if err := v.str(t, 3, false, "EngineDetails.name"); err != nil {
		return err
	}
	return v.subtable(t, 4, false, "EngineDetails.candidate_page", v.candidatePage)
}

// verifyEngineDetails checks a buffer as a root EngineDetails.
func verifyEngineDetails(buf []byte) error {
	v := &verifier{buf: buf}
	t, err := v.root("EngineDetails")
	if err != nil {
		return err
	}
	return v.engineDetails(t)
}

// verifyEngineConfig checks a buffer as a root EngineConfig.
func verifyEngineConfig(buf []byte) error {
	v := &verifier{buf: buf}
	t, err := v.root("EngineConfig")
	if err != nil {
		return err
	}
	return v.engineConfig(t)
}

// rootKnob checks a buffer as a root Knob (the form of Knob.Serialized).
func (v *verifier) rootKnob() error {
	t, err := v.root("Knob")
	if err != nil {
		return err
	}
	return v.knob(t)
}
