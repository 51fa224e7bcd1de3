package wire

// Schema evolution (RFC 0005: within a major, schema fields are only appended): graphs written
// with a newer or an older schema than this build's. The fixtures in testdata/evolution were
// made by flatc-generated C++ from the test-only schema variants in schemas/evolution/
// (testdata/evolution/README.md); the expected graphs below restate make_future.cpp and
// make_past.cpp.

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const evolutionDir = "testdata/evolution"

func readEvolution(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(evolutionDir, name))
	if err != nil {
		t.Fatalf("fixture: %v (regenerate with the hipdnn_evolution_fixtures_update target)", err)
	}
	return b
}

// evolutionID is the Graph.id of every future fixture.
var evolutionID = [16]byte{0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x46, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff}

const cpuReferenceEngineID = -7424244430098340505

func packedStrides(dims []int64) []int64 {
	s := make([]int64, len(dims))
	n := int64(1)
	for i := len(dims) - 1; i >= 0; i-- {
		s[i] = n
		n *= dims[i]
	}
	return s
}

// evoTensor is a float tensor in decoded canonical form (alignment and multiplier defaults).
func evoTensor(uid int64, name string, virtual bool, dims ...int64) Tensor {
	return Tensor{UID: uid, Name: name, DataType: DataTypeFloat, Dims: dims, Strides: packedStrides(dims),
		Virtual: virtual, Alignment: DefaultAlignment, RaggedOffsetMultiplier: DefaultRaggedOffsetMultiplier}
}

// evoNode is a float node of op with the named fields set (schema defaults elsewhere).
func evoNode(t *testing.T, op, name string, fields map[string]Value) Node {
	t.Helper()
	schema := OpByName(op)
	if schema == nil {
		t.Fatalf("no op %s", op)
	}
	n := NewNode(schema)
	n.Name, n.ComputeDataType = name, DataTypeFloat
	for f, v := range fields {
		i, _ := schema.Field(f)
		if i < 0 {
			t.Fatalf("%s has no field %s", op, f)
		}
		n.Values[i] = v
	}
	return n
}

func evoUID(x int64) Value     { return Value{Set: true, I: x} }
func evoList(x ...int64) Value { return Value{Set: true, List: x} }
func evoEnum(x int64) Value    { return Value{Set: true, I: x} }
func evoFloat(x float64) Value { return Value{Set: true, F: x} }

// Wire values of the enums the fixtures use (pointwise_attributes.fbs, convolution_common.fbs,
// sdpa_attributes.fbs).
const (
	pwAdd, pwMul, pwReluFwd = 2, 30, 34
	convCrossCorrelation    = 2
	diagBottomRight         = 1
)

// futureFieldsGraph is future_fields.bin as this build must read it: every known field exact,
// the future trailing fields gone.
func futureFieldsGraph(t *testing.T) *Graph {
	eng := int64(cpuReferenceEngineID)
	id := evolutionID
	pads := evoList(1, 1)
	return &Graph{
		Name: "evolution_future_fields", ComputeDataType: DataTypeFloat, IntermediateDataType: DataTypeFloat, IODataType: DataTypeFloat,
		Tensors: []Tensor{
			evoTensor(1, "x", false, 1, 2, 5, 5), evoTensor(2, "w", false, 3, 2, 3, 3),
			evoTensor(3, "conv_out", true, 1, 3, 5, 5), evoTensor(4, "bias", false, 1, 3, 1, 1),
			evoTensor(5, "biased", true, 1, 3, 5, 5), evoTensor(6, "y", false, 1, 3, 5, 5),
		},
		Nodes: []Node{
			evoNode(t, "ConvolutionFwdAttributes", "conv", map[string]Value{
				"x_tensor_uid": evoUID(1), "w_tensor_uid": evoUID(2), "y_tensor_uid": evoUID(3),
				"pre_padding": pads, "post_padding": pads, "stride": pads, "dilation": pads,
				"conv_mode": evoEnum(convCrossCorrelation)}),
			evoNode(t, "PointwiseAttributes", "bias", map[string]Value{
				"operation": evoEnum(pwAdd), "in_0_tensor_uid": evoUID(3), "in_1_tensor_uid": evoUID(4), "out_0_tensor_uid": evoUID(5)}),
			evoNode(t, "PointwiseAttributes", "relu", map[string]Value{
				"operation": evoEnum(pwReluFwd), "in_0_tensor_uid": evoUID(5), "out_0_tensor_uid": evoUID(6)}),
		},
		PreferredEngineID:           &eng,
		MinRequiredEngineAPIVersion: &EngineAPIVersion{1, 0, 0},
		ID:                          &id,
	}
}

// pastSdpaGraph is past_sdpa.bin: the fields the past schema lacks read as their defaults.
func pastSdpaGraph(t *testing.T) *Graph {
	return &Graph{
		Name: "evolution_past_sdpa", ComputeDataType: DataTypeFloat, IntermediateDataType: DataTypeFloat, IODataType: DataTypeFloat,
		Tensors: []Tensor{
			evoTensor(1, "q", false, 1, 2, 4, 8), evoTensor(2, "k", false, 1, 2, 6, 8),
			evoTensor(3, "v", false, 1, 2, 6, 8), evoTensor(4, "o", false, 1, 2, 4, 8),
		},
		Nodes: []Node{evoNode(t, "SdpaAttributes", "attention", map[string]Value{
			"q_tensor_uid": evoUID(1), "k_tensor_uid": evoUID(2), "v_tensor_uid": evoUID(3), "o_tensor_uid": evoUID(4),
			"generate_stats": {Set: true, B: false}, "attn_scale_value": evoFloat(0.125),
			"diagonal_alignment": evoEnum(diagBottomRight), "mma_core_mode": evoEnum(int64(DataTypeFloat)),
			// implementation is absent from the past schema: its default, AUTO (0).
			"implementation": evoEnum(0),
		})},
	}
}

func pastPointwiseGraph(t *testing.T) *Graph {
	c := evoTensor(2, "c", false, 1, 1)
	c.Value = &TensorValue{Kind: ValueFloat32, F: 2}
	return &Graph{
		Name: "evolution_past_pointwise", ComputeDataType: DataTypeFloat, IntermediateDataType: DataTypeFloat, IODataType: DataTypeFloat,
		Tensors: []Tensor{evoTensor(1, "x", false, 2, 3), c, evoTensor(3, "y", false, 2, 3)},
		Nodes: []Node{evoNode(t, "PointwiseAttributes", "scale", map[string]Value{
			"operation": evoEnum(pwMul), "in_0_tensor_uid": evoUID(1), "in_1_tensor_uid": evoUID(2), "out_0_tensor_uid": evoUID(3)})},
	}
}

// vtableSlots reads the number of slots the vtable of the table at pos declares; the fixture
// checks use it to prove a buffer really has (or lacks) trailing fields.
func vtableSlots(t *testing.T, b []byte, pos uint32) int {
	t.Helper()
	vt := int64(pos) - int64(int32(binary.LittleEndian.Uint32(b[pos:])))
	return (int(binary.LittleEndian.Uint16(b[vt:])) - 4) / 2
}

// field returns the absolute position of a table's uoffset field (slot) target.
func fieldTarget(t *testing.T, b []byte, table uint32, slot int) uint32 {
	t.Helper()
	vt := int64(table) - int64(int32(binary.LittleEndian.Uint32(b[table:])))
	off := binary.LittleEndian.Uint16(b[vt+4+2*int64(slot):])
	if off == 0 {
		t.Fatalf("slot %d absent", slot)
	}
	p := table + uint32(off)
	return p + binary.LittleEndian.Uint32(b[p:])
}

// firstElement is the table the first element of a vector of tables points at.
func firstElement(b []byte, vec uint32) uint32 {
	p := vec + 4
	return p + binary.LittleEndian.Uint32(b[p:])
}

func diffGraphs(t *testing.T, what string, got, want *Graph) {
	t.Helper()
	if reflect.DeepEqual(got, want) {
		return
	}
	gj, _ := GraphToJSON(got)
	wj, _ := GraphToJSON(want)
	t.Fatalf("%s differs from the expected graph\n got: %s\nwant: %s\n(raw got %+v)", what, gj, wj, got)
}

// Unknown trailing fields (Graph, Node, TensorAttributes, ConvolutionFwdAttributes,
// PointwiseAttributes, one of them an unknown nested table) are skipped and every known field
// reads exactly, from the flatbuffer and from the JSON with unknown keys.
func TestEvolutionFutureFieldsReadExactly(t *testing.T) {
	b := readEvolution(t, "future_fields.bin")

	// The fixture really carries fields beyond this build's schema.
	root := binary.LittleEndian.Uint32(b)
	if n := vtableSlots(t, b, root); n <= slotsGraph {
		t.Fatalf("Graph vtable has %d slots; the future fixture should have more than %d", n, slotsGraph)
	}
	tensor0 := firstElement(b, fieldTarget(t, b, root, slotGraphTensors))
	if n := vtableSlots(t, b, tensor0); n <= slotsTensorAttributes {
		t.Fatalf("TensorAttributes vtable has %d slots, want more than %d", n, slotsTensorAttributes)
	}
	node0 := firstElement(b, fieldTarget(t, b, root, slotGraphNodes))
	if n := vtableSlots(t, b, node0); n <= slotsNode {
		t.Fatalf("Node vtable has %d slots, want more than %d", n, slotsNode)
	}
	conv := fieldTarget(t, b, node0, slotNodeAttributes)
	if n, known := vtableSlots(t, b, conv), len(OpByName("ConvolutionFwdAttributes").Fields); n <= known {
		t.Fatalf("ConvolutionFwdAttributes vtable has %d slots, want more than %d", n, known)
	}

	want := futureFieldsGraph(t)
	g, err := DecodeGraph(b)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.CheckSupported(); err != nil {
		t.Fatalf("CheckSupported: %v", err)
	}
	diffGraphs(t, "future_fields.bin", g, want)

	// Re-encoding keeps every known field and drops the unknown ones.
	re, err := EncodeGraph(g)
	if err != nil {
		t.Fatal(err)
	}
	if len(re) >= len(b) {
		t.Fatalf("re-encoded graph is %d bytes, the future one %d: unknown fields were not dropped", len(re), len(b))
	}
	g2, err := DecodeGraph(re)
	if err != nil {
		t.Fatal(err)
	}
	diffGraphs(t, "re-encoded future_fields.bin", g2, want)

	j, err := GraphFromJSON(readEvolution(t, "future_fields.json"))
	if err != nil {
		t.Fatalf("future_fields.json (unknown keys must be ignored): %v", err)
	}
	diffGraphs(t, "future_fields.json", j, want)
}

// Unknown union tags, enum values, data types and tensor value kinds: DecodeGraph keeps them
// raw (the rest of the graph reads normally), CheckSupported reports them as ErrUnsupported
// naming the item; the JSON spellings are ErrUnsupported directly, naming the spelling.
func TestEvolutionUnknownValues(t *testing.T) {
	tests := []struct {
		fixture  string
		kept     func(g *Graph) bool
		wantBin  string
		wantJSON string
	}{
		{"future_node", func(g *Graph) bool {
			return len(g.Nodes) == 2 && g.Nodes[0].Op == OpByName("PointwiseAttributes") &&
				g.Nodes[1].Op == nil && g.Nodes[1].Tag == 24 && g.Nodes[1].Name == "future_op"
		}, `node 1 ("future_op"): unknown node type tag 24`, `unknown node type "FutureOpAttributes"`},
		{"future_datatype", func(g *Graph) bool {
			return g.Tensors[0].DataType == 18 && g.Tensors[1].DataType == DataTypeFloat
		}, `tensor uid 1: unknown data type value 18`, `unknown data type "fp8_e3m4"`},
		{"future_pointwise_mode", func(g *Graph) bool {
			i, _ := OpByName("PointwiseAttributes").Field("operation")
			return g.Nodes[0].Values[i].I == 48
		}, `node 0 ("act"): operation value 48 is not a known PointwiseMode`, `"hardswish_fwd"`},
		{"future_conv_mode", func(g *Graph) bool {
			i, _ := OpByName("ConvolutionFwdAttributes").Field("conv_mode")
			return g.Nodes[0].Values[i].I == 3
		}, `node 0 ("conv"): conv_mode value 3 is not a known ConvMode`, `"DEFORMABLE"`},
		{"future_value_kind", func(g *Graph) bool {
			v := g.Tensors[2].Value
			return v != nil && v.Kind == 9 && g.Tensors[2].UID == 3
		}, `tensor uid 3: unknown tensor value type 9`, `unknown value_type "FutureInt8Value"`},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			g, err := DecodeGraph(readEvolution(t, tt.fixture+".bin"))
			if err != nil {
				t.Fatalf("DecodeGraph must keep unknown values, got %v", err)
			}
			if !tt.kept(g) {
				t.Fatalf("the unknown item was not kept as decoded: %+v", g)
			}
			err = g.CheckSupported()
			if !errors.Is(err, ErrUnsupported) || errors.Is(err, ErrMalformed) {
				t.Fatalf("CheckSupported = %v, want ErrUnsupported", err)
			}
			if !strings.Contains(err.Error(), tt.wantBin) {
				t.Fatalf("CheckSupported message %q lacks %q", err, tt.wantBin)
			}

			_, err = GraphFromJSON(readEvolution(t, tt.fixture+".json"))
			if !errors.Is(err, ErrUnsupported) || errors.Is(err, ErrMalformed) {
				t.Fatalf("GraphFromJSON = %v, want ErrUnsupported", err)
			}
			if !strings.Contains(err.Error(), tt.wantJSON) {
				t.Fatalf("GraphFromJSON message %q lacks %q", err, tt.wantJSON)
			}
		})
	}
}

// Fields an older writer's schema did not have read as their schema defaults: no
// min_required_engine_api_version or id, alignment 16, no ragged offset, multiplier 1,
// SDPA implementation AUTO.
func TestEvolutionPastDefaults(t *testing.T) {
	tests := []struct {
		fixture string
		want    func(t *testing.T) *Graph
		// the most slots each table of the fixture may have (it was written without the rest)
		graph, tensor, op int
	}{
		{"past_sdpa", pastSdpaGraph, slotGraphMinRequiredEngineApiVersion, slotTensorAttributesRaggedOffsetTensorUid, 40},
		{"past_pointwise", pastPointwiseGraph, slotGraphMinRequiredEngineApiVersion, slotTensorAttributesRaggedOffsetTensorUid, 12},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			b := readEvolution(t, tt.fixture+".bin")
			root := binary.LittleEndian.Uint32(b)
			tensor0 := firstElement(b, fieldTarget(t, b, root, slotGraphTensors))
			node0 := firstElement(b, fieldTarget(t, b, root, slotGraphNodes))
			op := fieldTarget(t, b, node0, slotNodeAttributes)
			if g, tn, o := vtableSlots(t, b, root), vtableSlots(t, b, tensor0), vtableSlots(t, b, op); g > tt.graph || tn > tt.tensor || o > tt.op {
				t.Fatalf("fixture has vtables of %d/%d/%d slots; a past writer could write at most %d/%d/%d", g, tn, o, tt.graph, tt.tensor, tt.op)
			}
			want := tt.want(t)
			g, err := DecodeGraph(b)
			if err != nil {
				t.Fatal(err)
			}
			if err := g.CheckSupported(); err != nil {
				t.Fatal(err)
			}
			diffGraphs(t, tt.fixture+".bin", g, want)
			j, err := GraphFromJSON(readEvolution(t, tt.fixture+".json"))
			if err != nil {
				t.Fatal(err)
			}
			diffGraphs(t, tt.fixture+".json", j, want)
		})
	}
}

// The codec does not judge min_required_engine_api_version (the descriptor layer does): a
// graph declaring 1.5.0 decodes with the value kept, from either encoding.
func TestEvolutionMinVersionIsRead(t *testing.T) {
	for _, f := range []string{"future_min_version.bin", "future_min_version.json"} {
		var g *Graph
		var err error
		if strings.HasSuffix(f, ".json") {
			g, err = GraphFromJSON(readEvolution(t, f))
		} else {
			g, err = DecodeGraph(readEvolution(t, f))
		}
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if v := g.MinRequiredEngineAPIVersion; v == nil || *v != (EngineAPIVersion{1, 5, 0}) {
			t.Fatalf("%s: min_required_engine_api_version = %v, want 1.5.0", f, v)
		}
		if err := g.CheckSupported(); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
}

// Unreadable lists every part a newer writer's graph holds that this build cannot read, one
// entry per graph data type, tensor and node, each naming the item; CheckSupported is its
// first entry, and a graph this build fully knows has none.
func TestEvolutionUnreadableListsEveryPart(t *testing.T) {
	g, err := DecodeGraph(readEvolution(t, "future_node.bin"))
	if err != nil {
		t.Fatal(err)
	}
	// Add more for this build to trip over: a tensor of an unknown data type, a graph io type
	// and a pointwise mode from the future on the readable node.
	g.Tensors[0].DataType = 18
	g.IODataType = 19
	i, _ := OpByName("PointwiseAttributes").Field("operation")
	g.Nodes[0].Values[i].I = 48
	u := g.Unreadable()
	want := []struct {
		part  PartKind
		index int
		msg   string
	}{
		{PartGraph, -1, "graph io_data_type: unknown data type value 19"},
		{PartTensor, 0, "tensor uid 1: unknown data type value 18"},
		{PartNode, 0, `node 0 ("relu"): operation value 48 is not a known PointwiseMode`},
		{PartNode, 1, `node 1 ("future_op"): unknown node type tag 24`},
	}
	if len(u) != len(want) {
		t.Fatalf("Unreadable = %v, want %d entries", u, len(want))
	}
	for k, w := range want {
		if u[k].Part != w.part || u[k].Index != w.index || u[k].Err.Error() != w.msg || !errors.Is(u[k].Err, ErrUnsupported) {
			t.Fatalf("entry %d = {%v %d %q}, want {%v %d %q}", k, u[k].Part, u[k].Index, u[k].Err, w.part, w.index, w.msg)
		}
	}
	if err := g.CheckSupported(); err == nil || err.Error() != want[0].msg {
		t.Fatalf("CheckSupported = %v, want the first entry", err)
	}
	known, err := DecodeGraph(readEvolution(t, "future_fields.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if u := known.Unreadable(); len(u) != 0 {
		t.Fatalf("a graph of known parts has unreadable parts: %v", u)
	}
}
