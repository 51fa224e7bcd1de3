package heuristics

import (
	"encoding/binary"
	"fmt"
	"math"
)

// fbread.go: a small, bounds-checked flatbuffer reader for the buffers plugins hand back
// (EngineConfig, EnginePrediction). The Go flatbuffers runtime has no Verifier, and its
// generated accessors trust the buffer; this reader checks what the C++ Verifier checks for
// these tables (offsets, vtables, table sizes, alignment, string terminators, vector bounds)
// before any value is used. Graphs are read by internal/wire, which has its own reader.

// fbTable is a verified table: its position and its vtable.
type fbTable struct {
	buf       []byte
	pos       int // table start
	size      int // inline size from the vtable
	vt, vtLen int // vtable start and byte length
}

// fbErr is a verification failure.
type fbErr string

func (e fbErr) Error() string { return string(e) }

func fbErrorf(format string, args ...any) error { return fbErr(fmt.Sprintf(format, args...)) }

// fbRoot verifies the root offset and returns the root table. A file identifier, when the
// schema has one, sits at bytes 4..8 and is checked by the caller.
func fbRoot(buf []byte) (fbTable, error) {
	if len(buf) < 8 {
		return fbTable{}, fbErrorf("buffer of %d bytes is too short for a flatbuffer", len(buf))
	}
	if len(buf) > math.MaxInt32 {
		return fbTable{}, fbErrorf("buffer of %d bytes exceeds the flatbuffer limit", len(buf))
	}
	return fbTableAt(buf, int(binary.LittleEndian.Uint32(buf)))
}

// fbTableAt verifies the table starting at pos.
func fbTableAt(buf []byte, pos int) (fbTable, error) {
	if pos < 0 || pos%4 != 0 || pos+4 > len(buf) {
		return fbTable{}, fbErrorf("table offset %d out of bounds or misaligned", pos)
	}
	vt := pos - int(int32(binary.LittleEndian.Uint32(buf[pos:])))
	if vt < 0 || vt%2 != 0 || vt+4 > len(buf) {
		return fbTable{}, fbErrorf("vtable of the table at %d out of bounds or misaligned", pos)
	}
	vtLen := int(binary.LittleEndian.Uint16(buf[vt:]))
	size := int(binary.LittleEndian.Uint16(buf[vt+2:]))
	if vtLen < 4 || vtLen%2 != 0 || vt+vtLen > len(buf) {
		return fbTable{}, fbErrorf("vtable of the table at %d has a bad length %d", pos, vtLen)
	}
	if size < 4 || pos+size > len(buf) {
		return fbTable{}, fbErrorf("table at %d has a bad size %d", pos, size)
	}
	return fbTable{buf: buf, pos: pos, size: size, vt: vt, vtLen: vtLen}, nil
}

// field returns the absolute position of slot's inline value, 0 when absent, after checking
// that width bytes (aligned to width) lie inside the table.
func (t fbTable) field(slot, width int) (int, error) {
	e := 4 + 2*slot
	if e+2 > t.vtLen {
		return 0, nil
	}
	off := int(binary.LittleEndian.Uint16(t.buf[t.vt+e:]))
	if off == 0 {
		return 0, nil
	}
	if off+width > t.size {
		return 0, fbErrorf("field %d of the table at %d lies outside the table", slot, t.pos)
	}
	p := t.pos + off
	if p%width != 0 {
		return 0, fbErrorf("field %d of the table at %d is misaligned", slot, t.pos)
	}
	return p, nil
}

func (t fbTable) i64(slot int, def int64) (int64, error) {
	p, err := t.field(slot, 8)
	if err != nil || p == 0 {
		return def, err
	}
	return int64(binary.LittleEndian.Uint64(t.buf[p:])), nil
}

func (t fbTable) f64(slot int, def float64) (float64, error) {
	p, err := t.field(slot, 8)
	if err != nil || p == 0 {
		return def, err
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(t.buf[p:])), nil
}

func (t fbTable) u8(slot int, def uint8) (uint8, error) {
	p, err := t.field(slot, 1)
	if err != nil || p == 0 {
		return def, err
	}
	return t.buf[p], nil
}

// ref follows the offset field of slot; 0 when absent.
func (t fbTable) ref(slot int) (int, error) {
	p, err := t.field(slot, 4)
	if err != nil || p == 0 {
		return 0, err
	}
	target := p + int(binary.LittleEndian.Uint32(t.buf[p:]))
	if target >= len(t.buf) || target < p {
		return 0, fbErrorf("offset of field %d of the table at %d points outside the buffer", slot, t.pos)
	}
	return target, nil
}

// str returns a string field; present is false when absent.
func (t fbTable) str(slot int) (s string, present bool, err error) {
	p, err := t.ref(slot)
	if err != nil || p == 0 {
		return "", false, err
	}
	if p%4 != 0 || p+4 > len(t.buf) {
		return "", false, fbErrorf("string of field %d of the table at %d is out of bounds", slot, t.pos)
	}
	n := int(binary.LittleEndian.Uint32(t.buf[p:]))
	if n < 0 || n > len(t.buf)-p-5 || t.buf[p+4+n] != 0 {
		return "", false, fbErrorf("string of field %d of the table at %d is truncated or not terminated", slot, t.pos)
	}
	return string(t.buf[p+4 : p+4+n]), true, nil
}

// table follows a table-valued field; present is false when absent.
func (t fbTable) table(slot int) (fbTable, bool, error) {
	p, err := t.ref(slot)
	if err != nil || p == 0 {
		return fbTable{}, false, err
	}
	sub, err := fbTableAt(t.buf, p)
	return sub, err == nil, err
}

// tables returns the elements of a vector of tables (nil when absent).
func (t fbTable) tables(slot int) ([]fbTable, error) {
	p, err := t.ref(slot)
	if err != nil || p == 0 {
		return nil, err
	}
	if p%4 != 0 || p+4 > len(t.buf) {
		return nil, fbErrorf("vector of field %d of the table at %d is out of bounds", slot, t.pos)
	}
	n := int(binary.LittleEndian.Uint32(t.buf[p:]))
	if n < 0 || n > (len(t.buf)-p-4)/4 {
		return nil, fbErrorf("vector of field %d of the table at %d is truncated", slot, t.pos)
	}
	out := make([]fbTable, n)
	for i := range out {
		e := p + 4 + 4*i
		sub, err := fbTableAt(t.buf, e+int(binary.LittleEndian.Uint32(t.buf[e:])))
		if err != nil {
			return nil, err
		}
		out[i] = sub
	}
	return out, nil
}
