package wire

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/hipdnn-go/backend/internal/fb"
	"github.com/hipdnn-go/backend/internal/fb/fbtest"
)

// Cross-check against internal/fb, the flatc-generated Go for schemas/*.fbs:
// buffers EncodeGraph writes read correctly through flatc's accessors, and
// buffers written with flatc's graph and tensor builders decode correctly
// through DecodeGraph, for graphs holding every op with every field; the
// C++-written golden graph decodes to its golden values.

// readFBValue reads field f of an op table through the generated accessors
// and returns it in our Value form (decoded canonically).
func readFBValue(t *testing.T, obj any, f *Field) Value {
	t.Helper()
	rv := reflect.ValueOf(obj)
	name := fbtest.Accessor(f.Name)
	m := rv.MethodByName(name)
	if !m.IsValid() {
		t.Fatalf("%T has no accessor %s for %s", obj, name, f.Name)
	}
	call := func(m reflect.Value, args ...reflect.Value) reflect.Value { return m.Call(args)[0] }
	switch f.Kind {
	case KindUIDList, KindLongList, KindIntList:
		n := int(call(rv.MethodByName(name + "Length")).Int())
		var l []int64
		for j := 0; j < n; j++ {
			l = append(l, call(m, reflect.ValueOf(j)).Int())
		}
		// Absent and empty both read as length 0 through the accessors.
		return Value{Set: n > 0, List: l}
	case KindBytes:
		b := call(rv.MethodByName(name + "Bytes")).Bytes()
		if len(b) == 0 {
			return Value{Set: b != nil}
		}
		return Value{Set: true, Bytes: append([]byte(nil), b...)}
	case KindString:
		b := call(m).Bytes()
		return Value{Set: b != nil, S: string(b)}
	}
	r := call(m)
	if r.Kind() == reflect.Pointer { // optional scalar
		if r.IsNil() {
			return Value{}
		}
		r = r.Elem()
	}
	v := Value{Set: true}
	switch r.Kind() {
	case reflect.Bool:
		v.B = r.Bool()
	case reflect.Float32, reflect.Float64:
		v.F = r.Float()
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.I = r.Int()
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.I = int64(r.Uint())
	default:
		t.Fatalf("%s: accessor returns %s", f.Name, r.Type())
	}
	return v
}

// readFBGraph converts a buffer to our model using only internal/fb.
func readFBGraph(t *testing.T, buf []byte) *Graph {
	t.Helper()
	fg := fb.GetRootAsGraph(buf, 0)
	g := &Graph{
		Name: string(fg.Name()), ComputeDataType: DataType(fg.ComputeDataType()),
		IntermediateDataType: DataType(fg.IntermediateDataType()), IODataType: DataType(fg.IoDataType()),
		PreferredEngineID: fg.PreferredEngineId(), IsOverrideShapeEnabled: fg.IsOverrideShapeEnabled(),
	}
	if v := fg.MinRequiredEngineApiVersion(nil); v != nil {
		g.MinRequiredEngineAPIVersion = &EngineAPIVersion{v.Major(), v.Minor(), v.Patch()}
	}
	if id, ok := fg.IdBytes(); ok {
		g.ID = &id
	}
	for i := 0; i < fg.TensorsLength(); i++ {
		var ft fb.TensorAttributes
		fg.Tensors(&ft, i)
		tt := Tensor{UID: ft.Uid(), Name: string(ft.Name()), DataType: DataType(ft.DataType()), Virtual: ft.Virtual(),
			RuntimePassByValue: ft.IsRuntimePassByValue(), RaggedOffsetUID: ft.RaggedOffsetTensorUid(),
			Alignment: ft.Alignment(), RaggedOffsetMultiplier: ft.RaggedOffsetMultiplier()}
		for j := 0; j < ft.DimsLength(); j++ {
			tt.Dims = append(tt.Dims, ft.Dims(j))
		}
		for j := 0; j < ft.StridesLength(); j++ {
			tt.Strides = append(tt.Strides, ft.Strides(j))
		}
		if s, ok := ft.ValueScalar(); ok {
			tv := &TensorValue{Kind: ValueKind(ft.ValueType())}
			switch tv.Kind {
			case ValueFloat32, ValueFloat16, ValueBFloat16:
				tv.F = float64(s.Float32())
			case ValueFloat64:
				tv.F = s.Float64()
			case ValueFloat8:
				tv.I = int64(s.Byte())
			case ValueInt32:
				tv.I = int64(int32(s.Int64()))
			case ValueInt64:
				tv.I = s.Int64()
			case ValueBool:
				tv.B = s.Bool()
			}
			tt.Value = tv
		}
		g.Tensors = append(g.Tensors, tt)
	}
	for i := 0; i < fg.NodesLength(); i++ {
		var fn fb.Node
		fg.Nodes(&fn, i)
		op := OpByTag(uint8(fn.AttributesType()))
		if op == nil {
			t.Fatalf("node %d: tag %d", i, fn.AttributesType())
		}
		n := Node{Name: string(fn.Name()), ComputeDataType: DataType(fn.ComputeDataType()), Op: op, Tag: op.Tag}
		var tab flatbuffers.Table
		if !fn.Attributes(&tab) {
			t.Fatalf("node %d: no attributes", i)
		}
		obj := fbtest.OpTable(op.Name, tab)
		if obj == nil {
			t.Fatalf("internal/fb/fbtest lists no type for %s", op.Name)
		}
		for j := range op.Fields {
			n.Values = append(n.Values, readFBValue(t, obj, &op.Fields[j]))
		}
		g.Nodes = append(g.Nodes, n)
	}
	return g
}

// writeFBGraph builds g with internal/fb's generated builders only.
func writeFBGraph(t *testing.T, g *Graph) []byte {
	t.Helper()
	b := flatbuffers.NewBuilder(0)
	longs := func(v []int64) flatbuffers.UOffsetT {
		b.StartVector(8, len(v), 8)
		for i := len(v) - 1; i >= 0; i-- {
			b.PrependInt64(v[i])
		}
		return b.EndVector(len(v))
	}
	var tensors []flatbuffers.UOffsetT
	for _, tt := range g.Tensors {
		name, dims, strides := b.CreateString(tt.Name), longs(tt.Dims), longs(tt.Strides)
		var vtag fb.TensorValue
		var voff flatbuffers.UOffsetT
		if v := tt.Value; v != nil {
			var s fb.TensorValueScalar
			switch v.Kind {
			case ValueFloat32:
				s = fb.Float32Scalar(float32(v.F))
			case ValueFloat16:
				s = fb.Float16Scalar(float32(v.F))
			case ValueBFloat16:
				s = fb.BFloat16Scalar(float32(v.F))
			case ValueFloat8:
				s = fb.Float8Scalar(uint8(v.I))
			case ValueInt32:
				s = fb.Int32Scalar(int32(v.I))
			case ValueFloat64:
				s = fb.Float64Scalar(v.F)
			case ValueInt64:
				s = fb.Int64Scalar(v.I)
			case ValueBool:
				s = fb.BoolScalar(v.B)
			}
			vtag, voff = fb.CreateTensorValue(b, s)
		}
		fb.TensorAttributesStart(b)
		fb.TensorAttributesAddUid(b, tt.UID)
		fb.TensorAttributesAddName(b, name)
		fb.TensorAttributesAddDataType(b, fb.DataType(tt.DataType))
		fb.TensorAttributesAddStrides(b, strides)
		fb.TensorAttributesAddDims(b, dims)
		fb.TensorAttributesAddVirtual(b, tt.Virtual)
		if voff != 0 {
			fb.TensorAttributesAddValueType(b, vtag)
			fb.TensorAttributesAddValue(b, voff)
		}
		fb.TensorAttributesAddIsRuntimePassByValue(b, tt.RuntimePassByValue)
		if tt.RaggedOffsetUID != nil {
			fb.TensorAttributesAddRaggedOffsetTensorUid(b, *tt.RaggedOffsetUID)
		}
		fb.TensorAttributesAddAlignment(b, tt.Alignment)
		fb.TensorAttributesAddRaggedOffsetMultiplier(b, tt.RaggedOffsetMultiplier)
		tensors = append(tensors, fb.TensorAttributesEnd(b))
	}
	var nodes []flatbuffers.UOffsetT
	for _, n := range g.Nodes {
		attrs := writeFBAttributes(t, b, &n)
		name := b.CreateString(n.Name)
		fb.NodeStart(b)
		fb.NodeAddName(b, name)
		fb.NodeAddComputeDataType(b, fb.DataType(n.ComputeDataType))
		fb.NodeAddAttributesType(b, fb.NodeAttributes(n.Op.Tag))
		fb.NodeAddAttributes(b, attrs)
		nodes = append(nodes, fb.NodeEnd(b))
	}
	vec := func(offs []flatbuffers.UOffsetT) flatbuffers.UOffsetT {
		b.StartVector(4, len(offs), 4)
		for i := len(offs) - 1; i >= 0; i-- {
			b.PrependUOffsetT(offs[i])
		}
		return b.EndVector(len(offs))
	}
	tv, nv, name := vec(tensors), vec(nodes), b.CreateString(g.Name)
	fb.GraphStart(b)
	fb.GraphAddName(b, name)
	fb.GraphAddComputeDataType(b, fb.DataType(g.ComputeDataType))
	fb.GraphAddIntermediateDataType(b, fb.DataType(g.IntermediateDataType))
	fb.GraphAddIoDataType(b, fb.DataType(g.IODataType))
	fb.GraphAddTensors(b, tv)
	fb.GraphAddNodes(b, nv)
	if g.PreferredEngineID != nil {
		fb.GraphAddPreferredEngineId(b, *g.PreferredEngineID)
	}
	fb.GraphAddIsOverrideShapeEnabled(b, g.IsOverrideShapeEnabled)
	if v := g.MinRequiredEngineAPIVersion; v != nil {
		fb.GraphAddMinRequiredEngineApiVersion(b, fb.CreateEngineApiVersion(b, v.Major, v.Minor, v.Patch))
	}
	if g.ID != nil {
		fb.GraphAddId(b, fb.CreateUuidFromBytes(b, *g.ID))
	}
	b.Finish(fb.GraphEnd(b))
	return b.FinishedBytes()
}

// writeFBAttributes builds n's op table with the runtime's Builder at the
// slots of the op table, so it is not independent of the tables; the
// C++-built golden graph is (TestDecodeCppGolden).
func writeFBAttributes(t *testing.T, b *flatbuffers.Builder, n *Node) flatbuffers.UOffsetT {
	t.Helper()
	offs := make([]flatbuffers.UOffsetT, len(n.Op.Fields))
	for i, f := range n.Op.Fields {
		v := n.Values[i]
		if !v.Set {
			continue
		}
		switch f.Kind {
		case KindUIDList, KindLongList:
			b.StartVector(8, len(v.List), 8)
			for j := len(v.List) - 1; j >= 0; j-- {
				b.PrependInt64(v.List[j])
			}
			offs[i] = b.EndVector(len(v.List))
		case KindIntList:
			b.StartVector(4, len(v.List), 4)
			for j := len(v.List) - 1; j >= 0; j-- {
				b.PrependInt32(int32(v.List[j]))
			}
			offs[i] = b.EndVector(len(v.List))
		case KindString:
			offs[i] = b.CreateString(v.S)
		case KindBytes:
			offs[i] = b.CreateByteVector(v.Bytes)
		}
	}
	b.StartObject(len(n.Op.Fields))
	for i, f := range n.Op.Fields {
		v := n.Values[i]
		if !v.Set {
			continue
		}
		switch f.Kind {
		case KindUID, KindOptUID, KindLong, KindOptLong:
			b.PrependInt64(v.I)
		case KindInt, KindOptInt:
			b.PrependInt32(int32(v.I))
		case KindFloat, KindOptFloat:
			b.PrependFloat32(float32(v.F))
		case KindBool, KindOptBool:
			b.PrependBool(v.B)
		case KindEnum, KindDataType:
			b.PrependInt8(int8(v.I))
		default:
			b.PrependUOffsetT(offs[i])
		}
		b.Slot(f.Slot)
	}
	return b.EndObject()
}

// fbCanonical adjusts a model for what the generated accessors can see:
// they cannot tell an absent list or byte vector from an empty one.
func fbCanonical(g *Graph) *Graph {
	c := *g
	c.Nodes = make([]Node, len(g.Nodes))
	for i, n := range g.Nodes {
		n.Values = append([]Value(nil), n.Values...)
		for j, f := range n.Op.Fields {
			switch f.Kind {
			case KindUIDList, KindLongList, KindIntList:
				if len(n.Values[j].List) == 0 {
					n.Values[j] = Value{}
				}
			}
		}
		c.Nodes[i] = n
	}
	return &c
}

func crossCheckGraphs(t *testing.T) map[string]*Graph {
	graphs := map[string]*Graph{"every field": fullGraph(), "required only": requiredGraph(), "conv+bias+relu": convBiasReLU()}
	if corpusDirNoSkip() != "" {
		for _, path := range corpusFiles(t) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			g, err := GraphFromJSON(data)
			if err != nil {
				t.Fatal(err)
			}
			graphs[path] = g
		}
	}
	return graphs
}

func TestCrossCheckWireToFB(t *testing.T) {
	for name, g := range crossCheckGraphs(t) {
		buf := mustEncode(t, g)
		got := readFBGraph(t, buf)
		if want := fbCanonical(g); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: internal/fb reads a different graph", name)
			assertGraphEqual(t, "wire→fb "+name, got, want)
		}
	}
}

func TestCrossCheckFBToWire(t *testing.T) {
	for name, g := range crossCheckGraphs(t) {
		buf := writeFBGraph(t, g)
		got, err := DecodeGraph(buf)
		if err != nil {
			t.Fatalf("%s: DecodeGraph of an internal/fb buffer: %v", name, err)
		}
		if !reflect.DeepEqual(got, g) {
			assertGraphEqual(t, "fb→wire "+name, got, g)
		}
	}
	// Every op of internal/fb's union is one of ours, under the same tag.
	for tag, name := range fb.EnumNamesNodeAttributes {
		if tag == fb.NodeAttributesNONE {
			continue
		}
		if op := OpByTag(uint8(tag)); op == nil || op.Name != name {
			t.Errorf("internal/fb tag %d is %s, ours is %v", tag, name, op)
		}
	}
	if len(fb.EnumNamesNodeAttributes) != len(Ops())+1 {
		t.Errorf("internal/fb has %d union members, we have %d ops", len(fb.EnumNamesNodeAttributes)-1, len(Ops()))
	}
}

// TestContainer: graph-and-plan containers round-trip and agree with
// internal/fb in both directions.
func TestContainer(t *testing.T) {
	graph := mustEncode(t, convBiasReLU())
	for _, plan := range [][]byte{nil, {1, 2, 3}} {
		buf, err := EncodeContainer(&Container{Graph: graph, Plan: plan})
		if err != nil {
			t.Fatal(err)
		}
		if !IsContainer(buf) || !fb.SerializedGraphAndPlanBufferHasIdentifier(buf) || IsContainer(graph) {
			t.Fatal("identifier check disagrees")
		}
		c, err := DecodeContainer(buf)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(c, &Container{Graph: graph, Plan: plan}) {
			t.Errorf("round trip: %+v", c)
		}
		fc := fb.GetRootAsSerializedGraphAndPlan(buf, 0)
		if !reflect.DeepEqual(fc.GraphBlobBytes(), graph) || len(fc.PlanBlobBytes()) != len(plan) {
			t.Error("internal/fb reads a different container")
		}
	}
	b := flatbuffers.NewBuilder(0)
	pv := b.CreateByteVector([]byte{9})
	gv := b.CreateByteVector(graph)
	fb.SerializedGraphAndPlanStart(b)
	fb.SerializedGraphAndPlanAddGraphBlob(b, gv)
	fb.SerializedGraphAndPlanAddPlanBlob(b, pv)
	fb.FinishSerializedGraphAndPlanBuffer(b, fb.SerializedGraphAndPlanEnd(b))
	c, err := DecodeContainer(b.FinishedBytes())
	if err != nil || !reflect.DeepEqual(c, &Container{Graph: graph, Plan: []byte{9}}) {
		t.Errorf("internal/fb container: %+v %v", c, err)
	}
	buf := b.FinishedBytes()
	for n := 0; n < len(buf); n++ {
		if c, err := DecodeContainer(buf[:n]); err == nil && !reflect.DeepEqual(c.Graph, graph) {
			t.Fatalf("prefix %d decoded to a different container", n)
		} else if err != nil && !isMalformed(err) {
			t.Fatalf("prefix %d: %v", n, err)
		}
	}
	if _, err := DecodeContainer(graph); err == nil || !strings.Contains(err.Error(), "identifier") {
		t.Errorf("bare graph: %v", err)
	}
}

// TestDecodeCppGolden decodes the golden graph that schemas/golden/make_golden.cpp
// writes with flatc's C++ code (one node per op, every field set by the
// golden value rule): DecodeGraph, driven by the generated op tables, must
// read every value the C++ builders wrote, and the graph must survive our
// encoder unchanged.
func TestDecodeCppGolden(t *testing.T) {
	buf, err := os.ReadFile(filepath.Join("..", "fb", "testdata", "graph.bin"))
	if err != nil {
		t.Fatal(err)
	}
	g, err := DecodeGraph(buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Nodes) != len(Ops()) {
		t.Fatalf("%d nodes, want one per op (%d)", len(g.Nodes), len(Ops()))
	}
	lastDataType := DataType(0)
	for (lastDataType + 1).Known() {
		lastDataType++
	}
	for i, n := range g.Nodes {
		if n.Op == nil || int(n.Tag) != i+1 {
			t.Errorf("node %d: tag %d, op %v", i, n.Tag, n.Op)
			continue
		}
		k := int(n.Tag)
		for j, f := range n.Op.Fields {
			s := f.Slot
			want := Value{Set: true}
			switch f.Kind {
			case KindUID, KindOptUID, KindLong, KindOptLong:
				want.I = fbtest.Long(k, s)
			case KindInt, KindOptInt:
				want.I = int64(fbtest.Int(k, s))
			case KindFloat, KindOptFloat:
				want.F = float64(fbtest.Float(k, s))
			case KindBool:
				want.B = true
			case KindOptBool:
			case KindEnum:
				want.I = f.Enum.Values[len(f.Enum.Values)-1].Value
			case KindDataType:
				want.I = int64(lastDataType)
			case KindUIDList, KindLongList:
				want.List = fbtest.Longs(k, s)
			case KindIntList:
				for _, x := range fbtest.Ints(k, s) {
					want.List = append(want.List, int64(x))
				}
			case KindBytes:
				want.Bytes = fbtest.Bytes(k, s)
			case KindString:
				want.S = fbtest.String(k, s)
			}
			if !reflect.DeepEqual(n.Values[j], want) {
				t.Errorf("%s.%s (slot %d): decoded %+v, C++ wrote %+v", n.Op.Name, f.Name, s, n.Values[j], want)
			}
		}
	}
	again, err := DecodeGraph(mustEncode(t, g))
	if err != nil {
		t.Fatal(err)
	}
	assertGraphEqual(t, "C++ golden re-encoded", again, g)
	assertGraphEqual(t, "C++ golden re-encoded, read by internal/fb", readFBGraph(t, mustEncode(t, g)), fbCanonical(g))
}
