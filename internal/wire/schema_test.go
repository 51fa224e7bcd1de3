package wire

import (
	"fmt"
	"strings"
	"testing"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/hipdnn-go/backend/internal/fbread"
)

// TestOpTables checks the invariants the encoders and decoders rely on.
// What the tables say is checked against the schemas' other readers: flatc's
// Go and C++ code, through the golden buffers (internal/fb TestCppGolden,
// TestDecodeCppGolden here); tools/fbgen's tests keep the file fresh.
func TestOpTables(t *testing.T) {
	if len(Ops()) == 0 {
		t.Fatal("no op tables")
	}
	for i, op := range Ops() {
		if int(op.Tag) != i+1 || OpByTag(op.Tag) != op || OpByName(op.Name) != op {
			t.Errorf("%s: tag %d at index %d, or lookup by tag or name does not return it", op.Name, op.Tag, i)
		}
		if op.numSlots != len(op.Fields) || len(op.encOrder) != len(op.Fields) {
			t.Errorf("%s: %d slots, %d encoded fields, %d fields", op.Name, op.numSlots, len(op.encOrder), len(op.Fields))
		}
		for j := range op.Fields {
			f := &op.Fields[j]
			if f.Slot != j {
				t.Errorf("%s.%s: slot %d at index %d (op tables hold no unions)", op.Name, f.Name, f.Slot, j)
			}
			if (f.Kind == KindEnum) != (f.Enum != nil) {
				t.Errorf("%s.%s: enum domain presence does not match kind", op.Name, f.Name)
			}
			if idx, got := op.Field(f.Name); idx != j || got != f {
				t.Errorf("%s.Field(%q) = %d", op.Name, f.Name, idx)
			}
			tensor := f.Kind == KindUID || f.Kind == KindOptUID || f.Kind == KindUIDList
			if tensor != (f.Role != RoleParam) {
				t.Errorf("%s.%s: kind %v with role %d", op.Name, f.Name, f.Kind, f.Role)
			}
			if want := map[Role]string{RoleInput: SectionInputs, RoleOutput: SectionOutputs}[f.Role]; want != "" && f.JSONSection != want {
				t.Errorf("%s.%s: JSON section %q, want %q", op.Name, f.Name, f.JSONSection, want)
			}
		}
		for j := 1; j < len(op.encOrder); j++ {
			if op.Fields[op.encOrder[j-1]].Kind.wireSize() < op.Fields[op.encOrder[j]].Kind.wireSize() {
				t.Errorf("%s: encode order is not widest first", op.Name)
			}
		}
	}
	if OpByTag(0) != nil || OpByTag(uint8(len(Ops())+1)) != nil || OpByName("PoolingFwdAttributes") != nil {
		t.Error("unknown tags and names must give nil")
	}
}

// TestJSONSections pins where AMD's JSON puts a node's parameters.
func TestJSONSections(t *testing.T) {
	for _, tt := range []struct{ op, field, section string }{
		{"PointwiseAttributes", "operation", SectionInputs},
		{"PointwiseAttributes", "axis_tensor_uid", SectionInputs},
		{"PointwiseAttributes", "out_0_tensor_uid", SectionOutputs},
		{"ConvolutionFwdAttributes", "pre_padding", SectionParameters},
		{"ConvolutionWrwAttributes", "dw_tensor_uid", SectionOutputs},
		{"SdpaBackwardAttributes", "diagonal_alignment", SectionParameters},
		{"SdpaAttributes", "implementation", SectionAttributes},
		{"ReductionAttributes", "mode", SectionAttributes},
		{"CustomOpAttributes", "input_tensor_uids", SectionInputs},
	} {
		_, f := OpByName(tt.op).Field(tt.field)
		if f == nil || f.JSONSection != tt.section {
			t.Errorf("%s.%s: %+v, want section %q", tt.op, tt.field, f, tt.section)
		}
	}
}

// TestEnumJSONSpellings pins the spellings that differ from the schema names.
func TestEnumJSONSpellings(t *testing.T) {
	tests := []struct {
		d    *EnumDomain
		spot map[int64]string
	}{
		{ConvMode, map[int64]string{2: "CROSS_CORRELATION"}},
		{PointwiseMode, map[int64]string{0: "unset", 28: "max_op", 29: "min_op", 34: "relu_fwd", 47: "tanh_fwd", 22: "gen_index"}},
		{ReductionMode, map[int64]string{3: "MIN", 4: "MAX", 9: "MUL_NO_ZEROS"}},
		{PaddingMode, map[int64]string{0: "PADDING_NOT_SET", 2: "ZERO_PAD"}},
	}
	for _, tt := range tests {
		for v, name := range tt.spot {
			if got := tt.d.byValue(v); got == nil || got.JSON != name {
				t.Errorf("%s %d: got %+v, want %q", tt.d.Name, v, got, name)
			}
		}
	}
	if ReductionMode.ByName("min_op").Value != 3 || PointwiseMode.ByName("RELU_FWD").Value != 34 {
		t.Error("aliases and case-insensitive names must resolve")
	}
}

func TestDataTypes(t *testing.T) {
	want := []struct {
		json string
		size int
	}{
		{"unset", 0}, {"float", 4}, {"half", 2}, {"bfloat16", 2}, {"double", 8}, {"uint8", 1}, {"int32", 4},
		{"int8", 1}, {"fp8_e4m3", 1}, {"fp8_e5m2", 1}, {"fp8_e8m0", 1}, {"fp4_e2m1", 0}, {"fp6_e2m3", 0},
		{"fp6_e3m2", 0}, {"int4", 0}, {"int64", 8}, {"fp8_e4m3_fnuz", 1}, {"fp8_e5m2_fnuz", 1},
	}
	for i, w := range want {
		d := DataType(i)
		if d.JSONName() != w.json || d.ByteSize() != w.size {
			t.Errorf("DataType %d: %q/%d, want %q/%d", i, d.JSONName(), d.ByteSize(), w.json, w.size)
		}
		if got, err := parseDataType(strings.ToUpper(w.json)); err != nil || got != d {
			t.Errorf("parse %q: %v %v", strings.ToUpper(w.json), got, err)
		}
	}
	if DataTypeFP8E5M2FNUZ != 17 || DataType(18).Known() || DataType(-1).JSONName() != "" || DataType(18).ByteSize() != 0 {
		t.Error("range of DataType is wrong")
	}
	for alias, d := range map[string]DataType{"float16": DataTypeHalf, "FLOAT16": DataTypeHalf, "mxfp4": DataTypeFP4E2M1} {
		if got, err := parseDataType(alias); err != nil || got != d {
			t.Errorf("alias %q: %v %v", alias, got, err)
		}
	}
	for _, bad := range []string{"mxfp8", "mxfp6", "float17", ""} {
		if _, err := parseDataType(bad); !isUnsupported(err) {
			t.Errorf("%q: want an ErrUnsupported error, got %v", bad, err)
		}
	}
}

// TestGoldenSlots encodes a node of every op with every field set and reads
// each slot back with the flatbuffers runtime's own Table accessors (not our
// reader), at the slot and width the spec gives.
func TestGoldenSlots(t *testing.T) {
	g := fullGraph()
	buf, err := EncodeGraph(g)
	if err != nil {
		t.Fatal(err)
	}
	root := flatbuffers.GetUOffsetT(buf)
	gt := &flatbuffers.Table{Bytes: buf, Pos: root}
	slot := func(s int) flatbuffers.VOffsetT { return flatbuffers.VOffsetT(4 + 2*s) }
	nodesOff := gt.Offset(slot(5))
	if nodesOff == 0 {
		t.Fatal("graph has no nodes vector")
	}
	nodesVec := gt.Vector(flatbuffers.UOffsetT(nodesOff))
	if n := gt.VectorLen(flatbuffers.UOffsetT(nodesOff)); n != len(g.Nodes) {
		t.Fatalf("%d nodes on the wire, want %d", n, len(g.Nodes))
	}
	for ni, node := range g.Nodes {
		nt := &flatbuffers.Table{Bytes: buf, Pos: gt.Indirect(nodesVec + flatbuffers.UOffsetT(ni*4))}
		if tag := nt.GetUint8Slot(slot(2), 0); tag != node.Op.Tag {
			t.Errorf("node %d: union tag %d, want %d", ni, tag, node.Op.Tag)
			continue
		}
		ao := nt.Offset(slot(3))
		if ao == 0 {
			t.Errorf("node %d: no attributes table", ni)
			continue
		}
		var at flatbuffers.Table
		nt.Union(&at, flatbuffers.UOffsetT(ao))
		for i, f := range node.Op.Fields {
			want := node.Values[i]
			vo := slot(f.Slot)
			o := flatbuffers.UOffsetT(at.Offset(vo))
			if o == 0 {
				t.Errorf("%s.%s: slot %d absent", node.Op.Name, f.Name, f.Slot)
				continue
			}
			var got string
			var exp string
			switch f.Kind {
			case KindUID, KindOptUID, KindLong, KindOptLong:
				got, exp = fmt.Sprint(at.GetInt64(at.Pos+o)), fmt.Sprint(want.I)
			case KindInt, KindOptInt:
				got, exp = fmt.Sprint(at.GetInt32(at.Pos+o)), fmt.Sprint(want.I)
			case KindFloat, KindOptFloat:
				got, exp = fmt.Sprint(at.GetFloat32(at.Pos+o)), fmt.Sprint(float32(want.F))
			case KindBool, KindOptBool:
				got, exp = fmt.Sprint(at.GetBool(at.Pos+o)), fmt.Sprint(want.B)
			case KindEnum, KindDataType:
				got, exp = fmt.Sprint(at.GetInt8(at.Pos+o)), fmt.Sprint(want.I)
			case KindString:
				got, exp = at.String(at.Pos+o), want.S
			case KindBytes:
				got, exp = fmt.Sprint(at.ByteVector(at.Pos+o)), fmt.Sprint(want.Bytes)
			case KindUIDList, KindLongList, KindIntList:
				vec := at.Vector(o)
				var l []int64
				for k := 0; k < at.VectorLen(o); k++ {
					if f.Kind == KindIntList {
						l = append(l, int64(at.GetInt32(vec+flatbuffers.UOffsetT(4*k))))
					} else {
						l = append(l, at.GetInt64(vec+flatbuffers.UOffsetT(8*k)))
					}
				}
				got, exp = fmt.Sprint(l), fmt.Sprint(want.List)
			}
			if got != exp {
				t.Errorf("%s.%s slot %d: wire has %s, want %s", node.Op.Name, f.Name, f.Slot, got, exp)
			}
		}
	}
}

// TestDefaultsElided checks the C++-builder behaviour: a node with only
// required fields at their defaults has an attributes vtable with no slots.
func TestDefaultsElided(t *testing.T) {
	for _, op := range Ops() {
		g := &Graph{Nodes: []Node{NewNode(op)}}
		buf, err := EncodeGraph(g)
		if err != nil {
			t.Fatal(err)
		}
		r := fbread.New(buf)
		root, _ := r.Offset(0, "root")
		gt, _ := r.Table(root, "graph")
		start, _, _, _ := r.Vector(gt, slotGraphNodes, 4, "nodes")
		np, _ := r.Offset(start, "node")
		nt, _ := r.Table(np, "node")
		ap, err := r.Offset(r.Field(nt, slotNodeAttributes), "attributes")
		if err != nil {
			t.Fatal(err)
		}
		at, _ := r.Table(ap, op.Name)
		for s := 0; s < len(op.Fields); s++ {
			if r.Field(at, s) != 0 {
				t.Errorf("%s: slot %d written although default/absent", op.Name, s)
			}
		}
	}
}

func TestTensorUIDs(t *testing.T) {
	op := OpByName("BatchnormAttributes")
	n := NewNode(op)
	set := func(name string, v Value) { i, _ := op.Field(name); n.Values[i] = v }
	set("x_tensor_uid", Value{Set: true, I: 1})
	set("peer_stats_tensor_uid", Value{Set: true, List: []int64{8, 9}})
	set("momentum_tensor_uid", Value{Set: true, I: 5})
	set("y_tensor_uid", Value{Set: true, I: 6})
	set("mean_tensor_uid", Value{Set: true, I: 7})
	if got := fmt.Sprint(n.TensorUIDs(RoleInput)); got != "[1 0 0 0 8 9 5]" {
		t.Errorf("inputs: %s", got)
	}
	if got := fmt.Sprint(n.TensorUIDs(RoleOutput)); got != "[6 7]" {
		t.Errorf("outputs: %s", got)
	}
	if n.TensorUIDs(RoleParam) != nil || (&Node{Tag: 77}).TensorUIDs(RoleInput) != nil {
		t.Error("params and unknown ops name no tensors")
	}
	pw := NewNode(OpByName("PointwiseAttributes"))
	i, _ := pw.Op.Field("axis_tensor_uid")
	pw.Values[i] = Value{Set: true, I: 3}
	if got := fmt.Sprint(pw.TensorUIDs(RoleInput)); got != "[0]" {
		t.Errorf("axis_tensor_uid is an axis, not a tensor: %s", got)
	}
}
