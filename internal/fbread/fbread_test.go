package fbread

import (
	"errors"
	"strings"
	"testing"

	flatbuffers "github.com/google/flatbuffers/go"
)

// table builds a root table with a long (slot 0), a string (slot 1), a
// [long] (slot 2) and a sub-table (slot 3) holding an int.
func table() []byte {
	b := flatbuffers.NewBuilder(0)
	b.StartObject(1)
	b.PrependInt32Slot(0, 7, 0)
	sub := b.EndObject()
	s := b.CreateString("name")
	b.StartVector(8, 2, 8)
	b.PrependInt64(2)
	b.PrependInt64(1)
	v := b.EndVector(2)
	b.StartObject(4)
	b.PrependInt64Slot(0, -5, 0)
	b.PrependUOffsetTSlot(1, s, 0)
	b.PrependUOffsetTSlot(2, v, 0)
	b.PrependUOffsetTSlot(3, sub, 0)
	b.Finish(b.EndObject())
	return b.FinishedBytes()
}

func TestRead(t *testing.T) {
	r := New(table())
	root, err := r.Root("T")
	if err != nil {
		t.Fatal(err)
	}
	if root.Slots() != 4 {
		t.Errorf("Slots = %d", root.Slots())
	}
	if v, ok, err := r.I64(root, 0, "a"); v != -5 || !ok || err != nil {
		t.Errorf("I64 = %d %v %v", v, ok, err)
	}
	if s, ok, err := r.Str(root, 1, "s"); s != "name" || !ok || err != nil {
		t.Errorf("Str = %q %v %v", s, ok, err)
	}
	if l, ok, err := r.Longs(root, 2, "l"); len(l) != 2 || l[1] != 2 || !ok || err != nil {
		t.Errorf("Longs = %v %v %v", l, ok, err)
	}
	sub, ok, err := r.Sub(root, 3, "sub")
	if !ok || err != nil {
		t.Fatalf("Sub: %v %v", ok, err)
	}
	if v, ok, err := r.I32(sub, 0, "x"); v != 7 || !ok || err != nil {
		t.Errorf("I32 = %d %v %v", v, ok, err)
	}
	// A slot the writer did not write, and one beyond its vtable (an older
	// writer), read as absent.
	for _, slot := range []int{5, 40} {
		if _, ok, err := r.I64(root, slot, "absent"); ok || err != nil {
			t.Errorf("slot %d: %v %v", slot, ok, err)
		}
	}
}

func TestStructuralErrors(t *testing.T) {
	good := table()
	tests := []struct {
		desc      string
		buf       []byte
		truncated bool
		want      string
	}{
		{"short", good[:8], true, "8 bytes, a flatbuffer needs at least 12"},
		{"root outside", patch(good, 0, 0xff, 0xff, 0, 0), true, "T root at 65535 (1 bytes) exceeds"},
		{"zero root", patch(good, 0, 0, 0, 0, 0), false, "T root offset at 0 is zero"},
		{"misaligned table", patch(good, 0, 2, 0, 0, 0), false, "T table at 2 is not 4-byte aligned"},
		{"odd vtable", oddVtable(good), false, "has odd size"},
	}
	for _, tt := range tests {
		_, err := New(tt.buf).Root("T")
		var fe *Error
		if !errors.As(err, &fe) || fe.Truncated != tt.truncated || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v (truncated %v), want %q", tt.desc, err, fe != nil && fe.Truncated, tt.want)
		}
	}
	// Every prefix of a valid buffer fails cleanly or reads the same values.
	for n := 0; n < len(good); n++ {
		if readAll(good[:n]) == nil {
			t.Errorf("prefix of %d bytes read as complete", n)
		}
	}
	if err := readAll(good); err != nil {
		t.Errorf("whole buffer: %v", err)
	}
}

func TestLimits(t *testing.T) {
	r := New(table())
	if err := r.Spend(int64(len(r.Buf()))*BudgetPerByte + BudgetFixed + 1); err == nil {
		t.Error("budget not enforced")
	}
	if err := r.ReserveTables(MaxTables + 1); err == nil {
		t.Error("table limit not enforced")
	}
	r = New(table())
	for i := 0; i < MaxDepth; i++ {
		r.Enter()
	}
	if _, err := r.Root("T"); err == nil || !strings.Contains(err.Error(), "nested deeper") {
		t.Errorf("depth: %v", err)
	}
}

func readAll(b []byte) error {
	r := New(b)
	root, err := r.Root("T")
	if err != nil {
		return err
	}
	if _, _, err := r.Str(root, 1, "s"); err != nil {
		return err
	}
	if _, _, err := r.Longs(root, 2, "l"); err != nil {
		return err
	}
	sub, _, err := r.Sub(root, 3, "sub")
	if err != nil {
		return err
	}
	_, _, err = r.I32(sub, 0, "x")
	return err
}

func patch(b []byte, at int, v ...byte) []byte {
	out := append([]byte(nil), b...)
	copy(out[at:], v)
	return out
}

// oddVtable makes the root table's vtable size odd.
func oddVtable(b []byte) []byte {
	out := append([]byte(nil), b...)
	r := New(out)
	root := int64(r.U32(0))
	vt := root - int64(int32(r.U32(root)))
	out[vt] |= 1
	return out
}
