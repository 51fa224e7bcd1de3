// Package fbread reads flatbuffers the backend does not trust: graphs from
// users and files (internal/wire), and the EngineDetails, EngineConfig,
// KnobSetting and EnginePrediction buffers plugins hand back
// (internal/engines, internal/heuristics). It is the one place that checks
// a flatbuffer's structure; the Go flatbuffers runtime has no Verifier and
// flatc's Go accessors trust their buffer.
//
// Every position is checked against the buffer before it is read, with the
// rules of the C++ flatbuffers::Verifier (verifier.h): buffers below 2 GiB
// and at least 12 bytes; offsets non-zero, below 2^31 and inside the buffer;
// tables, offsets and vector lengths 4-aligned; vtables 2-aligned with an
// even size that fits, and the table's inline size inside the buffer;
// scalars aligned to their size; vector byte sizes that cannot overflow;
// strings ending in NUL; at most MaxTables tables and MaxDepth nesting. On
// top of the Verifier a Reader keeps an allocation budget (Spend), so that
// data shared by many offsets (legal in a flatbuffer, and the way to make a
// small buffer decode into a huge object) cannot make a decoder allocate
// far more than the buffer's size.
//
// Unknown fields: a caller reads the slots its schema has. Slots beyond
// them, a newer writer's fields, are neither read nor checked (the C++
// Verifier of the older schema does the same), and a union member type the
// caller does not know is reported to it, never followed here.
//
// Errors are *Error values; Truncated tells input that ends too early from
// input that breaks a rule. Messages name the item ("dims vector at 40
// declares 9 elements of 8 bytes, exceeds 64-byte buffer") and never
// allocate on the success path.
package fbread

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Limits, the C++ Verifier's defaults where it has one.
const (
	MaxBufferSize = math.MaxInt32 // FLATBUFFERS_MAX_BUFFER_SIZE: a buffer must be smaller
	MinBufferSize = 12            // FLATBUFFERS_MIN_BUFFER_SIZE: root offset + soffset + 2 voffsets
	MaxTables     = 1000000
	MaxDepth      = 64
	// BudgetPerByte and BudgetFixed bound what a decoder may allocate: this
	// many bytes per buffer byte plus a fixed allowance. A buffer without
	// shared data decodes to well under it.
	BudgetPerByte = 64
	BudgetFixed   = 1 << 20
)

// Error is a structural fault; the caller adds where it was reading.
type Error struct {
	Truncated bool // the input ends before an item it declares
	Msg       string
}

func (e *Error) Error() string { return e.Msg }

// Truncatedf reports input that ends too early.
func Truncatedf(format string, args ...any) error {
	return &Error{Truncated: true, Msg: fmt.Sprintf(format, args...)}
}

// Malformedf reports input that breaks a rule.
func Malformedf(format string, args ...any) error {
	return &Error{Msg: fmt.Sprintf(format, args...)}
}

// Reader reads one buffer. It is not safe for concurrent use.
type Reader struct {
	buf    []byte
	tables int
	depth  int
	budget int64 // bytes the decoder may still allocate
}

// New returns a reader of buf with a fresh budget.
func New(buf []byte) *Reader {
	return &Reader{buf: buf, budget: int64(len(buf))*BudgetPerByte + BudgetFixed}
}

// Buf returns the buffer being read.
func (r *Reader) Buf() []byte { return r.buf }

// Table is a verified table: its position, its vtable and the vtable's size.
type Table struct {
	Pos       int64
	vt, vsize int64
}

// Slots returns how many slots the table's vtable describes: the writer's
// schema's fields, which may be more than the reader's.
func (t Table) Slots() int { return int(t.vsize-4) / 2 }

// InlineSize returns the size in bytes of the table's inline data (its soffset included), as
// its vtable declares it; Table checked that it lies inside the buffer.
func (r *Reader) InlineSize(t Table) int64 { return int64(r.U16(t.vt + 2)) }

// Spend charges n bytes of decoded data to the budget.
func (r *Reader) Spend(n int64) error {
	r.budget -= n
	if r.budget < 0 {
		return Malformedf("decoded data exceeds %d times the buffer size (data shared by many offsets?)", BudgetPerByte)
	}
	return nil
}

// ReserveTables fails early when a vector of n table offsets would take
// the table count past MaxTables, before anything is allocated for them.
func (r *Reader) ReserveTables(n int) error {
	if r.tables+n > MaxTables {
		return Malformedf("%d more tables would exceed the limit of %d", n, MaxTables)
	}
	return nil
}

// Enter and Leave bracket the reading of a nested table; Table refuses
// nesting deeper than MaxDepth.
func (r *Reader) Enter() { r.depth++ }

// Leave ends what Enter began.
func (r *Reader) Leave() { r.depth-- }

// Check verifies that size bytes at pos lie inside the buffer. what and
// part name the item ("dims", "vector"); they are joined only for the
// message, so the success path does not allocate.
func (r *Reader) Check(pos, size int64, what, part string) error {
	if pos < 0 || size < 0 || pos > int64(len(r.buf)) || size > int64(len(r.buf))-pos {
		return Truncatedf("%s at %d (%d bytes) exceeds %d-byte buffer", join(what, part), pos, size, len(r.buf))
	}
	return nil
}

func (r *Reader) align(pos int64, a int64, what, part string) error {
	if pos&(a-1) != 0 {
		return Malformedf("%s at %d is not %d-byte aligned", join(what, part), pos, a)
	}
	return nil
}

func join(what, part string) string {
	if part == "" {
		return what
	}
	return what + " " + part
}

// U16, U32, U64 and U8 read at a position the caller has checked.
func (r *Reader) U16(pos int64) uint16 { return binary.LittleEndian.Uint16(r.buf[pos:]) }

// U32 reads a little-endian uint32 at a checked position.
func (r *Reader) U32(pos int64) uint32 { return binary.LittleEndian.Uint32(r.buf[pos:]) }

// U64 reads a little-endian uint64 at a checked position.
func (r *Reader) U64(pos int64) uint64 { return binary.LittleEndian.Uint64(r.buf[pos:]) }

// U8 reads the byte at a checked position.
func (r *Reader) U8(pos int64) uint8 { return r.buf[pos] }

// Root checks the buffer's size and returns its root table.
func (r *Reader) Root(what string) (Table, error) {
	if len(r.buf) >= MaxBufferSize {
		return Table{}, Malformedf("%d bytes exceed the flatbuffer limit of %d", len(r.buf), MaxBufferSize-1)
	}
	if len(r.buf) < MinBufferSize {
		return Table{}, Truncatedf("%d bytes, a flatbuffer needs at least %d", len(r.buf), MinBufferSize)
	}
	root, err := r.Offset(0, what+" root")
	if err != nil {
		return Table{}, err
	}
	return r.Table(root, what)
}

// Offset follows the uoffset stored at pos and returns its target.
func (r *Reader) Offset(pos int64, what string) (int64, error) {
	if err := r.align(pos, 4, what, "offset"); err != nil {
		return 0, err
	}
	if err := r.Check(pos, 4, what, "offset"); err != nil {
		return 0, err
	}
	o := r.U32(pos)
	if o == 0 {
		return 0, Malformedf("%s offset at %d is zero", what, pos)
	}
	if o > math.MaxInt32 {
		return 0, Malformedf("%s offset at %d is %d, above 2^31-1", what, pos, o)
	}
	target := pos + int64(o)
	if err := r.Check(target, 1, what, ""); err != nil {
		return 0, err
	}
	return target, nil
}

// Table verifies the table whose first byte (the soffset) is at pos.
func (r *Reader) Table(pos int64, what string) (Table, error) {
	r.tables++
	if r.tables > MaxTables {
		return Table{}, Malformedf("more than %d tables", MaxTables)
	}
	if r.depth+1 > MaxDepth {
		return Table{}, Malformedf("tables nested deeper than %d", MaxDepth)
	}
	if err := r.align(pos, 4, what, "table"); err != nil {
		return Table{}, err
	}
	if err := r.Check(pos, 4, what, "table"); err != nil {
		return Table{}, err
	}
	vt := pos - int64(int32(r.U32(pos)))
	if err := r.align(vt, 2, what, "vtable"); err != nil {
		return Table{}, err
	}
	if err := r.Check(vt, 2, what, "vtable"); err != nil {
		return Table{}, err
	}
	vsize := int64(r.U16(vt))
	if vsize&1 != 0 {
		return Table{}, Malformedf("%s vtable at %d has odd size %d", what, vt, vsize)
	}
	if vsize < 4 {
		return Table{}, Malformedf("%s vtable at %d has size %d, less than its own header", what, vt, vsize)
	}
	if err := r.Check(vt, vsize, what, "vtable"); err != nil {
		return Table{}, err
	}
	if err := r.Check(pos, int64(r.U16(vt+2)), what, "table"); err != nil {
		return Table{}, err
	}
	return Table{Pos: pos, vt: vt, vsize: vsize}, nil
}

// Field returns the position of slot's data, or 0 when the slot is absent.
func (r *Reader) Field(t Table, slot int) int64 {
	vo := int64(4 + 2*slot)
	if vo+2 > t.vsize {
		return 0
	}
	o := int64(r.U16(t.vt + vo))
	if o == 0 {
		return 0
	}
	return t.Pos + o
}

// Scalar returns the position of a size-byte scalar in slot, 0 if absent.
func (r *Reader) Scalar(t Table, slot int, size int64, what string) (int64, error) {
	p := r.Field(t, slot)
	if p == 0 {
		return 0, nil
	}
	if err := r.align(p, size, what, ""); err != nil {
		return 0, err
	}
	return p, r.Check(p, size, what, "")
}

// I64 reads a long field; present is false when the slot is absent.
func (r *Reader) I64(t Table, slot int, what string) (v int64, present bool, err error) {
	p, err := r.Scalar(t, slot, 8, what)
	if p == 0 || err != nil {
		return 0, false, err
	}
	return int64(r.U64(p)), true, nil
}

// I32 reads an int field.
func (r *Reader) I32(t Table, slot int, what string) (v int32, present bool, err error) {
	p, err := r.Scalar(t, slot, 4, what)
	if p == 0 || err != nil {
		return 0, false, err
	}
	return int32(r.U32(p)), true, nil
}

// F32 reads a float field.
func (r *Reader) F32(t Table, slot int, what string) (v float32, present bool, err error) {
	p, err := r.Scalar(t, slot, 4, what)
	if p == 0 || err != nil {
		return 0, false, err
	}
	return math.Float32frombits(r.U32(p)), true, nil
}

// F64 reads a double field.
func (r *Reader) F64(t Table, slot int, what string) (v float64, present bool, err error) {
	p, err := r.Scalar(t, slot, 8, what)
	if p == 0 || err != nil {
		return 0, false, err
	}
	return math.Float64frombits(r.U64(p)), true, nil
}

// Byte reads a one-byte field (bool, byte, ubyte, byte enums, union tags).
func (r *Reader) Byte(t Table, slot int, what string) (v uint8, present bool, err error) {
	p, err := r.Scalar(t, slot, 1, what)
	if p == 0 || err != nil {
		return 0, false, err
	}
	return r.buf[p], true, nil
}

// Sub follows a table-valued field (or a union's value); present is false
// when absent. The caller brackets reading it with Enter and Leave.
func (r *Reader) Sub(t Table, slot int, what string) (sub Table, present bool, err error) {
	p := r.Field(t, slot)
	if p == 0 {
		return Table{}, false, nil
	}
	if sub, err = r.TableAt(p, what); err != nil {
		return Table{}, false, err
	}
	return sub, true, nil
}

// TableAt follows the uoffset at pos (a table field or a vector element)
// to the table it names.
func (r *Reader) TableAt(pos int64, what string) (Table, error) {
	tp, err := r.Offset(pos, what)
	if err != nil {
		return Table{}, err
	}
	return r.Table(tp, what)
}

// Vector verifies the vector referenced from slot and returns the position
// of its first element and its length; present is false when absent.
func (r *Reader) Vector(t Table, slot int, elemSize int64, what string) (start int64, n int, present bool, err error) {
	p := r.Field(t, slot)
	if p == 0 {
		return 0, 0, false, nil
	}
	vp, err := r.Offset(p, what)
	if err != nil {
		return 0, 0, false, err
	}
	start, n, err = r.VectorAt(vp, elemSize, what)
	return start, n, err == nil, err
}

// VectorAt verifies the vector whose length prefix is at vp.
func (r *Reader) VectorAt(vp, elemSize int64, what string) (int64, int, error) {
	if err := r.align(vp, 4, what, "vector"); err != nil {
		return 0, 0, err
	}
	if err := r.Check(vp, 4, what, "vector length"); err != nil {
		return 0, 0, err
	}
	n := int64(r.U32(vp))
	if n >= MaxBufferSize/elemSize {
		return 0, 0, Truncatedf("%s vector at %d declares %d elements of %d bytes, more than any buffer can hold", what, vp, n, elemSize)
	}
	if int64(len(r.buf))-vp-4 < n*elemSize {
		return 0, 0, Truncatedf("%s vector at %d declares %d elements of %d bytes, exceeds %d-byte buffer", what, vp, n, elemSize, len(r.buf))
	}
	return vp + 4, int(n), nil
}

// Str reads the string referenced from slot.
func (r *Reader) Str(t Table, slot int, what string) (string, bool, error) {
	p := r.Field(t, slot)
	if p == 0 {
		return "", false, nil
	}
	s, err := r.StrAt(p, what)
	return s, err == nil, err
}

// StrAt reads the string the uoffset at pos names (a string field or an
// element of a vector of strings).
func (r *Reader) StrAt(pos int64, what string) (string, error) {
	vp, err := r.Offset(pos, what)
	if err != nil {
		return "", err
	}
	start, n, err := r.VectorAt(vp, 1, what)
	if err != nil {
		return "", err
	}
	end := start + int64(n)
	if err := r.Check(end, 1, what, "terminator"); err != nil {
		return "", err
	}
	if r.buf[end] != 0 {
		return "", Malformedf("%s string at %d is not NUL-terminated", what, vp)
	}
	if err := r.Spend(int64(n)); err != nil {
		return "", err
	}
	return string(r.buf[start:end]), nil
}

// Longs reads a [long] vector; empty gives nil.
func (r *Reader) Longs(t Table, slot int, what string) ([]int64, bool, error) {
	return r.integers(t, slot, 8, what, func(p int64) int64 { return int64(r.U64(p)) })
}

// Ints reads an [int] vector widened to int64; empty gives nil.
func (r *Reader) Ints(t Table, slot int, what string) ([]int64, bool, error) {
	return r.integers(t, slot, 4, what, func(p int64) int64 { return int64(int32(r.U32(p))) })
}

// integers reads a vector of size-byte integers with at, widened to int64.
func (r *Reader) integers(t Table, slot int, size int64, what string, at func(int64) int64) ([]int64, bool, error) {
	start, n, ok, err := r.Vector(t, slot, size, what)
	if !ok || err != nil || n == 0 {
		return nil, ok, err
	}
	if err := r.Spend(int64(n) * 8); err != nil {
		return nil, false, err
	}
	out := make([]int64, n)
	for i := range out {
		out[i] = at(start + int64(i)*size)
	}
	return out, true, nil
}

// Bytes reads a [ubyte] vector into a copy; empty gives nil.
func (r *Reader) Bytes(t Table, slot int, what string) ([]byte, bool, error) {
	start, n, ok, err := r.Vector(t, slot, 1, what)
	if !ok || err != nil || n == 0 {
		return nil, ok, err
	}
	if err := r.Spend(int64(n)); err != nil {
		return nil, false, err
	}
	return append([]byte(nil), r.buf[start:start+int64(n)]...), true, nil
}

// StructAt verifies that a struct of size bytes and alignment a is at p.
func (r *Reader) StructAt(p, size, a int64, what string) error {
	if err := r.align(p, a, what, ""); err != nil {
		return err
	}
	return r.Check(p, size, what, "")
}
