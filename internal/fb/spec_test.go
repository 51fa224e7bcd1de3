package fb_test

// The op tables are internal/wire's, generated from schemas/*.fbs by
// tools/fbgen. Every golden buffer, the C++-built ones above all (written by
// schemas/golden/make_golden.cpp with flatc's C++ code), is read through raw
// vtable slots (vtable byte offset 4 + 2·slot) at the slot and width those
// tables give, and through flatc's Go accessors: a table that disagrees with
// flatc's reading of the schemas fails here.

import (
	"fmt"
	"math"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/hipdnn-go/backend/internal/fb"
	"github.com/hipdnn-go/backend/internal/fb/fbtest"
	"github.com/hipdnn-go/backend/internal/wire"
)

// raw reads a table through its vtable only.
type raw struct {
	t    *testing.T
	tab  flatbuffers.Table
	what string
}

func rawAt(t *testing.T, buf []byte, pos flatbuffers.UOffsetT, what string) raw {
	return raw{t: t, tab: flatbuffers.Table{Bytes: buf, Pos: pos}, what: what}
}

// rawRoot reads the root table of a finished buffer.
func rawRoot(t *testing.T, buf []byte, what string) raw {
	return rawAt(t, buf, flatbuffers.GetUOffsetT(buf), what)
}

func vt(slot int) flatbuffers.VOffsetT { return flatbuffers.VOffsetT(4 + 2*slot) }

func (r raw) off(slot int) flatbuffers.UOffsetT { return flatbuffers.UOffsetT(r.tab.Offset(vt(slot))) }
func (r raw) present(slot int) bool             { return r.off(slot) != 0 }

// vtableSlots returns how many slots the table's vtable describes.
func (r raw) vtableSlots() int {
	v := flatbuffers.UOffsetT(int64(r.tab.Pos) - int64(r.tab.GetSOffsetT(r.tab.Pos)))
	return (int(r.tab.GetVOffsetT(v)) - 4) / 2
}

func (r raw) need(slot int, name string) flatbuffers.UOffsetT {
	r.t.Helper()
	o := r.off(slot)
	if o == 0 {
		r.t.Fatalf("%s: slot %d (%s) absent, want present", r.what, slot, name)
	}
	return r.tab.Pos + o
}

func (r raw) absent(slot int, name string) {
	r.t.Helper()
	if r.present(slot) {
		r.t.Errorf("%s: slot %d (%s) present, want absent (unset optional / elided default)", r.what, slot, name)
	}
}

func (r raw) i64(slot int, name string) int64 {
	r.t.Helper()
	return r.tab.GetInt64(r.need(slot, name))
}
func (r raw) u64(slot int, name string) uint64 {
	r.t.Helper()
	return r.tab.GetUint64(r.need(slot, name))
}
func (r raw) i32(slot int, name string) int32 {
	r.t.Helper()
	return r.tab.GetInt32(r.need(slot, name))
}
func (r raw) u32(slot int, name string) uint32 {
	r.t.Helper()
	return r.tab.GetUint32(r.need(slot, name))
}
func (r raw) i8(slot int, name string) int8  { r.t.Helper(); return r.tab.GetInt8(r.need(slot, name)) }
func (r raw) u8(slot int, name string) uint8 { r.t.Helper(); return r.tab.GetUint8(r.need(slot, name)) }
func (r raw) b(slot int, name string) bool   { r.t.Helper(); return r.tab.GetBool(r.need(slot, name)) }
func (r raw) f32(slot int, name string) float32 {
	r.t.Helper()
	return r.tab.GetFloat32(r.need(slot, name))
}
func (r raw) f64(slot int, name string) float64 {
	r.t.Helper()
	return r.tab.GetFloat64(r.need(slot, name))
}
func (r raw) str(slot int, name string) string {
	r.t.Helper()
	return string(r.tab.ByteVector(r.need(slot, name)))
}

func (r raw) vecStart(slot int, name string) (flatbuffers.UOffsetT, int) {
	r.t.Helper()
	r.need(slot, name)
	o := r.off(slot)
	return r.tab.Vector(o), r.tab.VectorLen(o)
}

func (r raw) i64s(slot int, name string) []int64 {
	r.t.Helper()
	p, n := r.vecStart(slot, name)
	out := make([]int64, n)
	for i := range out {
		out[i] = r.tab.GetInt64(p + flatbuffers.UOffsetT(8*i))
	}
	return out
}

func (r raw) i32s(slot int, name string) []int32 {
	r.t.Helper()
	p, n := r.vecStart(slot, name)
	out := make([]int32, n)
	for i := range out {
		out[i] = r.tab.GetInt32(p + flatbuffers.UOffsetT(4*i))
	}
	return out
}

func (r raw) bytes(slot int, name string) []byte {
	r.t.Helper()
	return append([]byte(nil), r.tab.ByteVector(r.need(slot, name))...)
}

func (r raw) strs(slot int, name string) []string {
	r.t.Helper()
	p, n := r.vecStart(slot, name)
	out := make([]string, n)
	for i := range out {
		out[i] = string(r.tab.ByteVector(p + flatbuffers.UOffsetT(4*i)))
	}
	return out
}

// sub follows an offset field to a table.
func (r raw) sub(slot int, name string) raw {
	r.t.Helper()
	p := r.need(slot, name)
	return raw{t: r.t, tab: flatbuffers.Table{Bytes: r.tab.Bytes, Pos: r.tab.Indirect(p)}, what: r.what + "." + name}
}

// subs follows a vector of tables.
func (r raw) subs(slot int, name string) []raw {
	r.t.Helper()
	p, n := r.vecStart(slot, name)
	out := make([]raw, n)
	for i := range out {
		ep := p + flatbuffers.UOffsetT(4*i)
		out[i] = raw{t: r.t, tab: flatbuffers.Table{Bytes: r.tab.Bytes, Pos: r.tab.Indirect(ep)},
			what: fmt.Sprintf("%s.%s[%d]", r.what, name, i)}
	}
	return out
}

// union reads a union field: its tag in slot and its value offset in slot+1.
// The value table is returned positioned at the referenced object.
func (r raw) union(slot int, name string) (byte, raw) {
	r.t.Helper()
	tag := r.u8(slot, name+"_type")
	p := r.need(slot+1, name)
	return tag, raw{t: r.t, tab: flatbuffers.Table{Bytes: r.tab.Bytes, Pos: r.tab.Indirect(p)}, what: r.what + "." + name}
}

func eqInt64s(a, b []int64) bool { return reflect.DeepEqual(a, b) }

// goldenEnum is the golden value of an enum field: the largest value its
// enum declares (flatc's Go view of the schema for DataType).
func goldenEnum(f *wire.Field) int8 {
	var m int64
	if f.Kind == wire.KindDataType {
		for v := range fb.EnumNamesDataType {
			m = max(m, int64(v))
		}
		return int8(m)
	}
	for _, v := range f.Enum.Values {
		m = max(m, v.Value)
	}
	return int8(m)
}

func optionalKind(k wire.FieldKind) bool {
	switch k {
	case wire.KindOptUID, wire.KindOptLong, wire.KindOptInt, wire.KindOptFloat, wire.KindOptBool:
		return true
	}
	return false
}

// checkOpRaw checks an op's attribute table through raw slots. With set nil
// every field must hold its golden value; otherwise only the fields named in
// set are expected (golden values) and every other slot must be absent.
func checkOpRaw(t *testing.T, r raw, op *wire.OpSchema, set map[string]bool) {
	t.Helper()
	k := int(op.Tag)
	full := set == nil
	if full && r.vtableSlots() != len(op.Fields) {
		t.Errorf("%s: vtable describes %d slots, the table has %d fields", r.what, r.vtableSlots(), len(op.Fields))
	}
	for i := range op.Fields {
		fl := &op.Fields[i]
		s := fl.Slot
		if !full && !set[fl.Name] {
			r.absent(s, fl.Name)
			continue
		}
		var got, want any
		switch fl.Kind {
		case wire.KindUID, wire.KindOptUID, wire.KindLong, wire.KindOptLong:
			got, want = r.i64(s, fl.Name), fbtest.Long(k, s)
		case wire.KindInt, wire.KindOptInt:
			got, want = r.i32(s, fl.Name), fbtest.Int(k, s)
		case wire.KindFloat, wire.KindOptFloat:
			got, want = r.f32(s, fl.Name), fbtest.Float(k, s)
		case wire.KindBool:
			got, want = r.b(s, fl.Name), true
		case wire.KindOptBool:
			got, want = r.b(s, fl.Name), false
		case wire.KindEnum, wire.KindDataType:
			got, want = r.i8(s, fl.Name), goldenEnum(fl)
		case wire.KindUIDList, wire.KindLongList:
			got, want = r.i64s(s, fl.Name), fbtest.Longs(k, s)
		case wire.KindIntList:
			got, want = r.i32s(s, fl.Name), fbtest.Ints(k, s)
		case wire.KindBytes:
			got, want = r.bytes(s, fl.Name), fbtest.Bytes(k, s)
		case wire.KindString:
			got, want = r.str(s, fl.Name), fbtest.String(k, s)
		default:
			t.Fatalf("%s.%s: kind %v has no golden rule", op.Name, fl.Name, fl.Kind)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: slot %d (%s) = %v, want %v", r.what, s, fl.Name, got, want)
		}
	}
}

// checkOpAccessors reads the same table through flatc's Go accessors (found
// by reflection from the field names), so it also proves that flatc's API
// has one accessor per field with the field's optionality.
func checkOpAccessors(t *testing.T, obj any, op *wire.OpSchema, set map[string]bool) {
	t.Helper()
	k := int(op.Tag)
	v := reflect.ValueOf(obj)
	for i := range op.Fields {
		fl := &op.Fields[i]
		isSet := set == nil || set[fl.Name]
		name := fbtest.Accessor(fl.Name)
		m := v.MethodByName(name)
		if !m.IsValid() {
			t.Errorf("%s: no generated accessor %s for field %s", op.Name, name, fl.Name)
			continue
		}
		where := op.Name + "." + name
		switch fl.Kind {
		case wire.KindUIDList, wire.KindLongList, wire.KindIntList, wire.KindBytes:
			n := int(v.MethodByName(name + "Length").Call(nil)[0].Int())
			var got []int64
			for j := 0; j < n; j++ {
				x := m.Call([]reflect.Value{reflect.ValueOf(j)})[0]
				if x.Kind() == reflect.Uint8 {
					got = append(got, int64(x.Uint()))
				} else {
					got = append(got, x.Int())
				}
			}
			var want []int64
			if isSet {
				switch fl.Kind {
				case wire.KindIntList:
					for _, x := range fbtest.Ints(k, fl.Slot) {
						want = append(want, int64(x))
					}
				case wire.KindBytes:
					for _, x := range fbtest.Bytes(k, fl.Slot) {
						want = append(want, int64(x))
					}
				default:
					want = fbtest.Longs(k, fl.Slot)
				}
			}
			if !eqInt64s(got, want) {
				t.Errorf("%s = %v, want %v", where, got, want)
			}
			continue
		}
		out := m.Call(nil)[0]
		opt := optionalKind(fl.Kind)
		if opt != (out.Kind() == reflect.Pointer) {
			t.Errorf("%s returns %s; optional per the schema: %v", where, out.Type(), opt)
			continue
		}
		if opt {
			if !isSet {
				if !out.IsNil() {
					t.Errorf("%s = %v, want nil (absent optional)", where, out.Elem())
				}
				continue
			}
			if out.IsNil() {
				t.Errorf("%s = nil, want a value", where)
				continue
			}
			out = out.Elem()
		}
		var got, want any
		switch fl.Kind {
		case wire.KindUID, wire.KindOptUID, wire.KindLong, wire.KindOptLong:
			got, want = out.Int(), fbtest.Long(k, fl.Slot)
			if !isSet {
				want = fl.Default
			}
		case wire.KindInt, wire.KindOptInt:
			got, want = out.Int(), int64(fbtest.Int(k, fl.Slot))
			if !isSet {
				want = fl.Default
			}
		case wire.KindFloat, wire.KindOptFloat:
			got, want = float32(out.Float()), fbtest.Float(k, fl.Slot)
			if !isSet {
				want = float32(fl.DefaultF)
			}
		case wire.KindBool:
			got, want = out.Bool(), isSet
		case wire.KindOptBool:
			got, want = out.Bool(), false
		case wire.KindEnum, wire.KindDataType:
			got, want = int8(out.Int()), goldenEnum(fl)
			if !isSet {
				want = int8(fl.Default)
			}
		case wire.KindString:
			got, want = string(out.Bytes()), fbtest.String(k, fl.Slot)
			if !isSet {
				want = ""
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %v, want %v", where, got, want)
		}
	}
}

// attributeObject returns flatc's reader for a node's attribute table.
func attributeObject(t *testing.T, op *wire.OpSchema, tab flatbuffers.Table) any {
	t.Helper()
	obj := fbtest.OpTable(op.Name, tab)
	if obj == nil {
		t.Fatalf("internal/fb/fbtest lists no type for %s", op.Name)
	}
	return obj
}

// TestSpecTables checks the op tables against flatc's Go output: union tags
// and names, and for each table a type with an accessor for every field and
// none more.
func TestSpecTables(t *testing.T) {
	ops := wire.Ops()
	if len(fb.EnumNamesNodeAttributes) != len(ops)+1 || fbtest.OpTableCount() != len(ops) {
		t.Fatalf("flatc's NodeAttributes has %d members, fbtest lists %d types, internal/wire has %d ops",
			len(fb.EnumNamesNodeAttributes)-1, fbtest.OpTableCount(), len(ops))
	}
	for _, op := range ops {
		if got := fb.EnumNamesNodeAttributes[fb.NodeAttributes(op.Tag)]; got != op.Name {
			t.Errorf("NodeAttributes tag %d is %q in flatc's code, %q in the op tables", op.Tag, got, op.Name)
		}
		obj := attributeObject(t, op, flatbuffers.Table{})
		want := map[string]bool{}
		for _, fl := range op.Fields {
			want[fbtest.Accessor(fl.Name)] = true
		}
		typ := reflect.TypeOf(obj)
		for i := 0; i < typ.NumMethod(); i++ {
			n := typ.Method(i).Name
			if n == "Init" || n == "Table" || strings.HasPrefix(n, "Mutate") {
				continue
			}
			base := strings.TrimSuffix(strings.TrimSuffix(n, "Length"), "Bytes")
			if !want[n] && !want[base] {
				t.Errorf("%s has accessor %s that the op table lacks", op.Name, n)
			}
		}
	}
	tv := []fb.TensorValue{fb.TensorValueNONE, fb.TensorValueFloat32Value, fb.TensorValueFloat16Value,
		fb.TensorValueBFloat16Value, fb.TensorValueFloat8Value, fb.TensorValueInt32Value,
		fb.TensorValueFloat64Value, fb.TensorValueInt64Value, fb.TensorValueBoolValue}
	for i, v := range tv {
		if int(v) != i {
			t.Errorf("TensorValue %s = %d, want %d", v, v, i)
		}
	}
	if fb.KnobValueIntValue != 1 || fb.KnobValueFloatValue != 2 || fb.KnobValueStringValue != 3 {
		t.Error("KnobValue tags differ from the spec")
	}
	if fb.KnobConstraintIntConstraint != 1 || fb.KnobConstraintFloatConstraint != 2 || fb.KnobConstraintStringConstraint != 3 {
		t.Error("KnobConstraint tags differ from the spec")
	}
	if math.Float32bits(fbtest.Float(2, 1)) != math.Float32bits(2.25) {
		t.Error("value rule broken")
	}
}

// flatcEnumValue matches a constant of a flatc-generated enum file, e.g.
// "ConvModeCROSS_CORRELATION ConvMode = 2".
var flatcEnumValue = regexp.MustCompile(`(?m)^\t(\w+)\s+(\w+)\s*=\s*(-?\d+)$`)

// TestEnumDomainsMatchFlatc compares every enum domain of the op tables,
// read from the schemas by tools/fbgen, with flatc's reading of the same
// enum (the constants of the generated <Enum>.go here).
func TestEnumDomainsMatchFlatc(t *testing.T) {
	seen := map[*wire.EnumDomain]bool{}
	for _, op := range wire.Ops() {
		for _, fl := range op.Fields {
			d := fl.Enum
			if d == nil || seen[d] {
				continue
			}
			seen[d] = true
			src, err := os.ReadFile(d.Name + ".go")
			if err != nil {
				t.Errorf("%s.%s: %v", op.Name, fl.Name, err)
				continue
			}
			n := 0
			for _, m := range flatcEnumValue.FindAllStringSubmatch(string(src), -1) {
				if m[2] != d.Name || !strings.HasPrefix(m[1], d.Name) {
					continue
				}
				n++
				name := strings.TrimPrefix(m[1], d.Name)
				v, _ := strconv.ParseInt(m[3], 10, 64)
				if !domainHas(d, name, v) {
					t.Errorf("flatc's %s has %s = %d, the op tables do not", d.Name, name, v)
				}
			}
			if n != len(d.Values) {
				t.Errorf("%s: flatc declares %d values, the op tables %d", d.Name, n, len(d.Values))
			}
		}
	}
	if len(seen) == 0 {
		t.Fatal("no enum fields in the op tables")
	}
}

func domainHas(d *wire.EnumDomain, name string, v int64) bool {
	for _, ev := range d.Values {
		if ev.Value != v {
			continue
		}
		if ev.Name == name {
			return true
		}
	}
	return false
}

// opByName returns the op table called name.
func opByName(t *testing.T, name string) *wire.OpSchema {
	t.Helper()
	op := wire.OpByName(name)
	if op == nil {
		t.Fatalf("internal/wire has no op %s", name)
	}
	return op
}
