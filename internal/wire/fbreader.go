package wire

import (
	"encoding/binary"
	"math"
)

// fbReader reads a flatbuffer it does not trust. Every position is checked
// against the buffer before it is read, with the rules of the C++
// flatbuffers::Verifier (verifier.h): offsets are non-zero, below 2^31 and
// land inside the buffer; tables, offsets and vector lengths are 4-aligned,
// vtables 2-aligned with an even size that fits; scalars are aligned to
// their size; vector byte sizes cannot overflow; strings end in NUL; at most
// maxTables tables and maxDepth nesting. On top of the Verifier it keeps an
// allocation budget, so that data shared by many offsets (legal in a
// flatbuffer, and the way to make a small buffer decode into a huge graph)
// cannot make the decoder allocate far more than the buffer's size.
type fbReader struct {
	buf    []byte
	tables int
	depth  int
	budget int64 // bytes the decoder may still allocate
}

// Limits of the reader, the C++ Verifier's defaults where it has one.
const (
	maxBufferSize = math.MaxInt32 // FLATBUFFERS_MAX_BUFFER_SIZE
	minBufferSize = 12            // FLATBUFFERS_MIN_BUFFER_SIZE: root offset + soffset + 2 voffsets
	maxTables     = 1000000
	maxDepth      = 64
	// Decoded size allowed per buffer byte, plus a fixed allowance. A
	// buffer without shared data decodes to well under this.
	budgetPerByte = 64
	budgetFixed   = 1 << 20
)

// fbError is a low-level reader error; the decoder adds where it happened.
type fbError struct {
	truncated bool
	msg       string
}

func (r *fbReader) truncated(format string, args ...any) error {
	return &fbError{truncated: true, msg: sprintf(format, args...)}
}

func (r *fbReader) bad(format string, args ...any) error {
	return &fbError{msg: sprintf(format, args...)}
}

func (e *fbError) Error() string { return e.msg }

func newFBReader(buf []byte) *fbReader {
	return &fbReader{buf: buf, budget: int64(len(buf))*budgetPerByte + budgetFixed}
}

// spend charges n bytes of decoded data to the budget.
func (r *fbReader) spend(n int64) error {
	r.budget -= n
	if r.budget < 0 {
		return r.bad("decoded graph exceeds %d times the buffer size (data shared by many offsets?)", budgetPerByte)
	}
	return nil
}

// reserveTables fails early when a vector of n table offsets would take
// the table count past maxTables, before anything is allocated for them.
func (r *fbReader) reserveTables(n int) error {
	if r.tables+n > maxTables {
		return r.bad("%d more tables would exceed the limit of %d", n, maxTables)
	}
	return nil
}

// check verifies that size bytes at pos lie inside the buffer. what and
// part name the item ("dims", "vector"); they are joined only for the
// message, so the success path does not allocate.
func (r *fbReader) check(pos, size int64, what, part string) error {
	if pos < 0 || size < 0 || pos > int64(len(r.buf)) || size > int64(len(r.buf))-pos {
		return r.truncated("%s at %d (%d bytes) exceeds %d-byte buffer", join(what, part), pos, size, len(r.buf))
	}
	return nil
}

func (r *fbReader) align(pos int64, a int64, what, part string) error {
	if pos&(a-1) != 0 {
		return r.bad("%s at %d is not %d-byte aligned", join(what, part), pos, a)
	}
	return nil
}

func join(what, part string) string {
	if part == "" {
		return what
	}
	return what + " " + part
}

func (r *fbReader) u16(pos int64) uint16 { return binary.LittleEndian.Uint16(r.buf[pos:]) }
func (r *fbReader) u32(pos int64) uint32 { return binary.LittleEndian.Uint32(r.buf[pos:]) }
func (r *fbReader) u64(pos int64) uint64 { return binary.LittleEndian.Uint64(r.buf[pos:]) }

// offset follows the uoffset stored at pos and returns its target.
func (r *fbReader) offset(pos int64, what string) (int64, error) {
	if err := r.align(pos, 4, what, "offset"); err != nil {
		return 0, err
	}
	if err := r.check(pos, 4, what, "offset"); err != nil {
		return 0, err
	}
	o := r.u32(pos)
	if o == 0 {
		return 0, r.bad("%s offset at %d is zero", what, pos)
	}
	if o > math.MaxInt32 {
		return 0, r.bad("%s offset at %d is %d, above 2^31-1", what, pos, o)
	}
	target := pos + int64(o)
	if err := r.check(target, 1, what, ""); err != nil {
		return 0, err
	}
	return target, nil
}

// fbTable is a verified table start: the table at pos and its vtable.
type fbTable struct {
	pos, vt int64
	vsize   int64
}

// table verifies the table whose first byte (the soffset) is at pos.
func (r *fbReader) table(pos int64, what string) (fbTable, error) {
	r.tables++
	if r.tables > maxTables {
		return fbTable{}, r.bad("more than %d tables", maxTables)
	}
	if r.depth+1 > maxDepth {
		return fbTable{}, r.bad("tables nested deeper than %d", maxDepth)
	}
	if err := r.align(pos, 4, what, "table"); err != nil {
		return fbTable{}, err
	}
	if err := r.check(pos, 4, what, "table"); err != nil {
		return fbTable{}, err
	}
	vt := pos - int64(int32(r.u32(pos)))
	if err := r.align(vt, 2, what, "vtable"); err != nil {
		return fbTable{}, err
	}
	if err := r.check(vt, 2, what, "vtable"); err != nil {
		return fbTable{}, err
	}
	vsize := int64(r.u16(vt))
	if vsize&1 != 0 {
		return fbTable{}, r.bad("%s vtable at %d has odd size %d", what, vt, vsize)
	}
	if err := r.check(vt, vsize, what, "vtable"); err != nil {
		return fbTable{}, err
	}
	return fbTable{pos: pos, vt: vt, vsize: vsize}, nil
}

// field returns the position of slot's data, or 0 when the slot is absent.
func (r *fbReader) field(t fbTable, slot int) int64 {
	vo := int64(4 + 2*slot)
	if vo+2 > t.vsize {
		return 0
	}
	o := int64(r.u16(t.vt + vo))
	if o == 0 {
		return 0
	}
	return t.pos + o
}

// scalar returns the position of a size-byte scalar in slot, 0 if absent.
func (r *fbReader) scalar(t fbTable, slot int, size int64, what string) (int64, error) {
	p := r.field(t, slot)
	if p == 0 {
		return 0, nil
	}
	if err := r.align(p, size, what, ""); err != nil {
		return 0, err
	}
	return p, r.check(p, size, what, "")
}

func (r *fbReader) i64(t fbTable, slot int, what string) (v int64, present bool, err error) {
	p, err := r.scalar(t, slot, 8, what)
	if p == 0 || err != nil {
		return 0, false, err
	}
	return int64(r.u64(p)), true, nil
}

func (r *fbReader) i32(t fbTable, slot int, what string) (v int32, present bool, err error) {
	p, err := r.scalar(t, slot, 4, what)
	if p == 0 || err != nil {
		return 0, false, err
	}
	return int32(r.u32(p)), true, nil
}

func (r *fbReader) f32(t fbTable, slot int, what string) (v float32, present bool, err error) {
	p, err := r.scalar(t, slot, 4, what)
	if p == 0 || err != nil {
		return 0, false, err
	}
	return math.Float32frombits(r.u32(p)), true, nil
}

func (r *fbReader) u8(t fbTable, slot int, what string) (v uint8, present bool, err error) {
	p, err := r.scalar(t, slot, 1, what)
	if p == 0 || err != nil {
		return 0, false, err
	}
	return r.buf[p], true, nil
}

// vector verifies the vector referenced from slot and returns the position
// of its first element and its length; present is false when absent.
func (r *fbReader) vector(t fbTable, slot int, elemSize int64, what string) (start int64, n int, present bool, err error) {
	p := r.field(t, slot)
	if p == 0 {
		return 0, 0, false, nil
	}
	vp, err := r.offset(p, what)
	if err != nil {
		return 0, 0, false, err
	}
	start, n, err = r.vectorAt(vp, elemSize, what)
	return start, n, err == nil, err
}

// vectorAt verifies the vector whose length prefix is at vp.
func (r *fbReader) vectorAt(vp, elemSize int64, what string) (int64, int, error) {
	if err := r.align(vp, 4, what, "vector"); err != nil {
		return 0, 0, err
	}
	if err := r.check(vp, 4, what, "vector length"); err != nil {
		return 0, 0, err
	}
	n := int64(r.u32(vp))
	if n >= maxBufferSize/elemSize {
		return 0, 0, r.truncated("%s vector at %d declares %d elements of %d bytes, more than any buffer can hold", what, vp, n, elemSize)
	}
	if int64(len(r.buf))-vp-4 < n*elemSize {
		return 0, 0, r.truncated("%s vector at %d declares %d elements of %d bytes, exceeds %d-byte buffer", what, vp, n, elemSize, len(r.buf))
	}
	return vp + 4, int(n), nil
}

// str reads the string referenced from slot.
func (r *fbReader) str(t fbTable, slot int, what string) (string, bool, error) {
	start, n, ok, err := r.vector(t, slot, 1, what)
	if !ok || err != nil {
		return "", false, err
	}
	end := start + int64(n)
	if err := r.check(end, 1, what, "terminator"); err != nil {
		return "", false, err
	}
	if r.buf[end] != 0 {
		return "", false, r.bad("%s string at %d is not NUL-terminated", what, start-4)
	}
	if err := r.spend(int64(n)); err != nil {
		return "", false, err
	}
	return string(r.buf[start:end]), true, nil
}

// longs reads a [long] vector; empty gives nil.
func (r *fbReader) longs(t fbTable, slot int, what string) ([]int64, bool, error) {
	start, n, ok, err := r.vector(t, slot, 8, what)
	if !ok || err != nil || n == 0 {
		return nil, ok, err
	}
	if err := r.spend(int64(n) * 8); err != nil {
		return nil, false, err
	}
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(r.u64(start + int64(i)*8))
	}
	return out, true, nil
}

// ints reads an [int] vector widened to int64; empty gives nil.
func (r *fbReader) ints(t fbTable, slot int, what string) ([]int64, bool, error) {
	start, n, ok, err := r.vector(t, slot, 4, what)
	if !ok || err != nil || n == 0 {
		return nil, ok, err
	}
	if err := r.spend(int64(n) * 8); err != nil {
		return nil, false, err
	}
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(int32(r.u32(start + int64(i)*4)))
	}
	return out, true, nil
}

// bytes reads a [ubyte] vector; empty gives nil.
func (r *fbReader) bytes(t fbTable, slot int, what string) ([]byte, bool, error) {
	start, n, ok, err := r.vector(t, slot, 1, what)
	if !ok || err != nil || n == 0 {
		return nil, ok, err
	}
	if err := r.spend(int64(n)); err != nil {
		return nil, false, err
	}
	return append([]byte(nil), r.buf[start:start+int64(n)]...), true, nil
}

// structAt verifies that a struct of size bytes and alignment a is at p.
func (r *fbReader) structAt(p, size, a int64, what string) error {
	if err := r.align(p, a, what, ""); err != nil {
		return err
	}
	return r.check(p, size, what, "")
}
