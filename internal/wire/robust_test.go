package wire

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand"
	"os"
	"reflect"
	"runtime"
	"strings"
	"testing"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/hipdnn-go/backend/internal/fbread"
)

func mustEncode(t testing.TB, g *Graph) []byte {
	t.Helper()
	buf, err := EncodeGraph(g)
	if err != nil {
		t.Fatal(err)
	}
	return buf
}

// locate walks a buffer we wrote ourselves and returns positions to patch.
type located struct {
	tensorsLen, firstTensor, firstDims int64 // vector length word, table, dims length word
	nodeTag, nodeAttrs                 int64 // attributes_type byte, attributes offset word
}

func locate(t testing.TB, buf []byte) located {
	t.Helper()
	r := fbread.New(buf)
	root, err := r.Offset(0, "root")
	if err != nil {
		t.Fatal(err)
	}
	gt, _ := r.Table(root, "graph")
	var l located
	tv, err := r.Offset(r.Field(gt, slotGraphTensors), "tensors")
	if err != nil {
		t.Fatal(err)
	}
	l.tensorsLen = tv
	l.firstTensor, _ = r.Offset(tv+4, "tensor")
	tt, _ := r.Table(l.firstTensor, "tensor")
	l.firstDims, _ = r.Offset(r.Field(tt, slotTensorAttributesDims), "dims")
	nv, _ := r.Offset(r.Field(gt, slotGraphNodes), "nodes")
	np, _ := r.Offset(nv+4, "node")
	nt, _ := r.Table(np, "node")
	l.nodeTag = r.Field(nt, slotNodeAttributesType)
	l.nodeAttrs = r.Field(nt, slotNodeAttributes)
	return l
}

func patched(buf []byte, f func(b []byte)) []byte {
	b := append([]byte(nil), buf...)
	f(b)
	return b
}

// valueTypeOnly is a graph whose only tensor has a value_type and no value.
func valueTypeOnly() []byte {
	b := flatbuffers.NewBuilder(0)
	b.StartObject(slotsTensorAttributes)
	b.PrependUint8Slot(slotTensorAttributesValueType, uint8(ValueFloat64), 0)
	tensor := b.EndObject()
	tv := (&encoder{b: b}).tableVector([]flatbuffers.UOffsetT{tensor})
	b.StartObject(slotsGraph)
	b.PrependUOffsetTSlot(slotGraphTensors, tv, 0)
	b.Finish(b.EndObject())
	return b.FinishedBytes()
}

func TestDecodeErrors(t *testing.T) {
	t.Parallel()
	full := mustEncode(t, fullGraph())
	l := locate(t, full)
	put32 := func(pos int64, v uint32) func([]byte) {
		return func(b []byte) { binary.LittleEndian.PutUint32(b[pos:], v) }
	}
	tests := []struct {
		desc string
		give []byte
		want string // substring of the message
	}{
		{"empty", nil, "graph buffer truncated: 0 bytes, a flatbuffer needs at least 12"},
		{"zero root", make([]byte, 16), "graph buffer malformed: graph.root: root table offset at 0 is zero"},
		{"root past end", patched(full, put32(0, uint32(len(full)+8))), "graph buffer truncated: graph.root: root table at"},
		{"misaligned root", patched(full, put32(0, 5)), "root table at 5 is not 4-byte aligned"},
		{"huge tensors vector", patched(full, put32(l.tensorsLen, 0x7fffffff)), "tensors vector at"},
		{"dims beyond buffer", patched(full, put32(l.firstDims, 1<<20)), "graph buffer truncated: tensors[0].dims: dims vector at"},
		{"dims 2^31 elements", patched(full, put32(l.firstDims, 1<<31)), "more than any buffer can hold"},
		{"vtable outside", patched(full, put32(l.firstTensor, 0x7ffffff0)), "graph buffer truncated: tensors[0]: tensor vtable at"},
		{"odd vtable", patched(full, func(b []byte) {
			so := int64(int32(binary.LittleEndian.Uint32(b[l.firstTensor:])))
			b[l.firstTensor-so]++
		}), "has odd size"},
		{"union NONE", patched(full, func(b []byte) { b[l.nodeTag] = 0 }), "nodes[0].attributes: attributes type is NONE"},
		{"union offset zero", patched(full, put32(l.nodeAttrs, 0)), "nodes[0].attributes: attributes offset at"},
		{"value type without value", valueTypeOnly(), "tensors[0].value: value_type is Float64Value but the value is missing"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			g, err := DecodeGraph(tt.give)
			if err == nil {
				t.Fatalf("decoded %d tensors, want error %q", len(g.Tensors), tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) || !isMalformed(err) {
				t.Errorf("got %v, want malformed error containing %q", err, tt.want)
			}
		})
	}
}

// TestHugeDeclaredLength: a 100-byte buffer whose vector claims 2^31-1
// elements is refused without allocating for them.
func TestHugeDeclaredLength(t *testing.T) {
	b := flatbuffers.NewBuilder(0)
	b.StartVector(4, 0, 4)
	vec := b.EndVector(0)
	b.StartObject(slotsGraph)
	b.PrependUOffsetTSlot(slotGraphTensors, vec, 0)
	b.Finish(b.EndObject())
	buf := append([]byte(nil), b.FinishedBytes()...)
	l := int64(-1)
	r := fbread.New(buf)
	root, _ := r.Offset(0, "root")
	gt, _ := r.Table(root, "graph")
	l, _ = r.Offset(r.Field(gt, slotGraphTensors), "tensors")
	for len(buf) < 100 {
		buf = append(buf, 0)
	}
	for _, n := range []uint32{0x7fffffff, 0x80000000, 0xffffffff, 1 << 24} {
		binary.LittleEndian.PutUint32(buf[l:], n)
		var ms0, ms1 runtime.MemStats
		runtime.ReadMemStats(&ms0)
		_, err := DecodeGraph(buf)
		runtime.ReadMemStats(&ms1)
		if err == nil || !strings.Contains(err.Error(), "tensors vector at") {
			t.Errorf("length %#x: got %v", n, err)
		}
		if d := ms1.TotalAlloc - ms0.TotalAlloc; d > 64<<10 {
			t.Errorf("length %#x: decoder allocated %d bytes", n, d)
		}
	}
}

// TestSharedDataBudget: many offsets to one tensor with a big dims vector
// (legal flatbuffer aliasing) must not decode into gigabytes.
func TestSharedDataBudget(t *testing.T) {
	const n = 100000
	b := flatbuffers.NewBuilder(0)
	dims := make([]int64, n)
	e := &encoder{b: b}
	dv := e.longVector(dims)
	b.StartObject(slotsTensorAttributes)
	b.PrependUOffsetTSlot(slotTensorAttributesDims, dv, 0)
	tensor := b.EndObject()
	offs := make([]flatbuffers.UOffsetT, n)
	for i := range offs {
		offs[i] = tensor
	}
	tv := e.tableVector(offs)
	b.StartObject(slotsGraph)
	b.PrependUOffsetTSlot(slotGraphTensors, tv, 0)
	b.Finish(b.EndObject())
	buf := b.FinishedBytes()
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	_, err := DecodeGraph(buf)
	runtime.ReadMemStats(&ms1)
	if err == nil || !strings.Contains(err.Error(), "exceeds 64 times the buffer size") {
		t.Errorf("got %v", err)
	}
	if d := ms1.TotalAlloc - ms0.TotalAlloc; d > uint64(fbread.BudgetPerByte*len(buf)+fbread.BudgetFixed)*2 {
		t.Errorf("allocated %d bytes for a %d-byte buffer", d, len(buf))
	}
}

func TestTableLimit(t *testing.T) {
	const n = fbread.MaxTables + 1
	b := flatbuffers.NewBuilder(0)
	b.StartObject(slotsTensorAttributes)
	tensor := b.EndObject()
	offs := make([]flatbuffers.UOffsetT, n)
	for i := range offs {
		offs[i] = tensor
	}
	e := &encoder{b: b}
	tv := e.tableVector(offs)
	b.StartObject(slotsGraph)
	b.PrependUOffsetTSlot(slotGraphTensors, tv, 0)
	b.Finish(b.EndObject())
	_, err := DecodeGraph(b.FinishedBytes())
	if err == nil || !strings.Contains(err.Error(), "would exceed the limit of 1000000") {
		t.Errorf("got %v", err)
	}
}

// TestUnknownUnionTag: a newer writer's node type decodes to Op == nil.
func TestUnknownUnionTag(t *testing.T) {
	full := mustEncode(t, fullGraph())
	l := locate(t, full)
	g, err := DecodeGraph(patched(full, func(b []byte) { b[l.nodeTag] = 200 }))
	if err != nil {
		t.Fatal(err)
	}
	n := g.Nodes[0]
	if n.Op != nil || n.Tag != 200 || n.Values != nil || n.Name != "n_BatchnormInferenceAttributes" {
		t.Errorf("got %+v", n)
	}
	err = g.CheckSupported()
	if want := `node 0 ("n_BatchnormInferenceAttributes"): unknown node type tag 200`; err == nil || err.Error() != want || !isUnsupported(err) {
		t.Errorf("got %v, want %q", err, want)
	}
	if _, err := EncodeGraph(g); !isUnsupported(err) {
		t.Errorf("EncodeGraph: got %v", err)
	}
}

// TestEveryPrefix: every strict prefix of an encoded graph is an error,
// unless all it drops is trailing alignment padding nothing refers to.
func TestEveryPrefix(t *testing.T) {
	t.Parallel()
	for _, g := range []*Graph{fullGraph(), requiredGraph(), convBiasReLU()} {
		buf := mustEncode(t, g)
		full, err := DecodeGraph(buf)
		if err != nil {
			t.Fatal(err)
		}
		errs := 0
		for n := 0; n < len(buf); n++ {
			got, err := DecodeGraph(buf[:n])
			if err == nil {
				if !reflect.DeepEqual(got, full) || bytes.Count(buf[n:], []byte{0}) != len(buf)-n {
					t.Fatalf("prefix of %d/%d bytes decoded to a different graph", n, len(buf))
				}
				continue
			}
			if !isMalformed(err) {
				t.Fatalf("prefix %d: %v is not ErrMalformed", n, err)
			}
			errs++
		}
		if errs < len(buf)-8 {
			t.Errorf("only %d of %d prefixes failed", errs, len(buf))
		}
	}
}

// TestByteFlips: random corruption gives an error or a graph, never a
// panic; a graph that decodes can be re-encoded or is reported unsupported.
func TestByteFlips(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(1))
	flips := 5000
	if testing.Short() {
		flips = 500
	}
	for _, g := range []*Graph{fullGraph(), convBiasReLU()} {
		buf := mustEncode(t, g)
		for i := 0; i < flips; i++ {
			b := append([]byte(nil), buf...)
			for k := 0; k <= rng.Intn(4); k++ {
				b[rng.Intn(len(b))] ^= byte(1 + rng.Intn(255))
			}
			checkDecodeInvariant(t, b, i%8 == 0)
		}
		// Every byte set to each interesting value.
		for pos := range buf {
			for _, v := range []byte{0, 0x7f, 0xff} {
				b := append([]byte(nil), buf...)
				b[pos] = v
				checkDecodeInvariant(t, b, false)
			}
		}
	}
}

// checkDecodeInvariant is the fuzz oracle for the flatbuffer decoder.
// withJSON also sends the decoded graph through the JSON codec.
func checkDecodeInvariant(t testing.TB, b []byte, withJSON bool) {
	g, err := DecodeGraph(b)
	if err != nil {
		if !isMalformed(err) {
			t.Fatalf("decode error %v is not ErrMalformed", err)
		}
		return
	}
	if err := g.CheckSupported(); err != nil {
		if !isUnsupported(err) && !isMalformed(err) {
			t.Fatalf("CheckSupported: unclassified %v", err)
		}
		return
	}
	re, err := EncodeGraph(g)
	if err != nil {
		t.Fatalf("decoded graph does not re-encode: %v", err)
	}
	g2, err := DecodeGraph(re)
	if err != nil {
		t.Fatalf("re-encoded graph does not decode: %v", err)
	}
	if !graphsEqualNaN(g, g2) {
		t.Fatalf("decode → encode → decode changed the graph")
	}
	if !withJSON {
		return
	}
	js, err := GraphToJSON(g)
	if err != nil {
		if !isUnsupported(err) { // NaN, infinity or non-UTF-8 names are expected
			t.Fatalf("GraphToJSON: %v", err)
		}
		return
	}
	g3, err := GraphFromJSON(js)
	if err != nil {
		t.Fatalf("JSON of a decoded graph does not read back: %v\n%s", err, js)
	}
	if !graphsEqualNaN(g, g3) {
		t.Fatalf("decode → JSON → read changed the graph\n%s", js)
	}
}

// graphsEqualNaN compares two graphs through their encodings, so NaN
// payloads compare by bits.
func graphsEqualNaN(a, b *Graph) bool {
	ea, err1 := EncodeGraph(a)
	eb, err2 := EncodeGraph(b)
	return err1 == nil && err2 == nil && bytes.Equal(ea, eb)
}

func TestJSONErrors(t *testing.T) {
	t.Parallel()
	tensor := `{"uid": 5, "name": "x", "dims": [1], "strides": [1], "data_type": "float"}`
	graph := func(tensors, nodes string) string {
		return `{"name": "g", "tensors": [` + tensors + `], "nodes": [` + nodes + `]}`
	}
	pointwise := func(inputs string) string {
		return `{"name": "Pointwise_1", "type": "PointwiseAttributes", "inputs": {` + inputs + `}, "outputs": {"out_0_tensor_uid": 5}}`
	}
	tests := []struct {
		desc        string
		give        string
		want        string
		unsupported bool
	}{
		{"dims not ints", graph(`{"uid": 5, "dims": [1, "2"], "strides": [1], "data_type": "float"}`, ""), `tensor uid 5: "dims" must be an array of integers`, false},
		{"dims fractional", graph(`{"uid": 5, "dims": [1.5], "strides": [1], "data_type": "float"}`, ""), `tensor uid 5: "dims" must be an array of integers (element 0 is 1.5)`, false},
		{"unknown operation", graph(tensor, pointwise(`"operation": "reluu", "in_0_tensor_uid": 5`)), `node 0 ("Pointwise_1"): unknown pointwise operation "reluu"`, true},
		{"uid 1.5", graph(`{"uid": 1.5, "dims": [1], "strides": [1], "data_type": "float"}`, ""), `tensor 0: "uid" must be an integer, not 1.5`, false},
		{"uid 1e3", graph(`{"uid": 1e3, "dims": [1], "strides": [1], "data_type": "float"}`, ""), `tensor 0: "uid" must be an integer, not 1e3`, false},
		{"uid too big", graph(`{"uid": 9223372036854775808, "dims": [1], "strides": [1], "data_type": "float"}`, ""), `tensor 0: "uid" = 9223372036854775808 is outside the int64 range`, false},
		{"missing uid", graph(`{"dims": [1]}`, ""), `tensor 0: missing "uid"`, false},
		{"missing dims", graph(`{"uid": 2, "strides": [1], "data_type": "float"}`, ""), `tensor uid 2: missing "dims"`, false},
		{"unknown data type", graph(`{"uid": 2, "dims": [1], "strides": [1], "data_type": "float17"}`, ""), `tensor uid 2: "data_type": unknown data type "float17"`, true},
		{"ambiguous data type", graph(`{"uid": 2, "dims": [1], "strides": [1], "data_type": "mxfp8"}`, ""), `tensor uid 2: "data_type": data type "mxfp8" is ambiguous (could be fp8_e4m3 or fp8_e5m2)`, true},
		{"value without type", graph(`{"uid": 2, "dims": [1], "strides": [1], "data_type": "float", "value": 1}`, ""), `tensor uid 2: "value" given without "value_type"`, false},
		{"unknown value type", graph(`{"uid": 2, "dims": [1], "strides": [1], "data_type": "float", "value_type": "Float4Value", "value": 1}`, ""), `tensor uid 2: unknown value_type "Float4Value"`, true},
		{"int32 value range", graph(`{"uid": 2, "dims": [1], "strides": [1], "data_type": "int32", "value_type": "Int32Value", "value": 3000000000}`, ""), `tensor uid 2: "value" = 3000000000 does not fit in int32`, false},
		{"unknown node type", graph(tensor, `{"name": "p", "type": "PoolingFwdAttributes"}`), `node 0 ("p"): unknown node type "PoolingFwdAttributes"`, true},
		{"missing type", graph(tensor, `{"name": "p"}`), `node 0 ("p"): missing "type"`, false},
		{"missing required uid", graph(tensor, pointwise(`"operation": "relu_fwd"`)), `node 0 ("Pointwise_1"): missing required "in_0_tensor_uid"`, false},
		{"inputs not object", graph(tensor, `{"type": "MatmulAttributes", "inputs": [1]}`), `node 0 (""): "inputs" must be an object, not an array`, false},
		{"float where bool", graph(tensor, `{"type": "ReductionAttributes", "inputs": {"in_tensor_uid": 5}, "outputs": {"out_tensor_uid": 5}, "attributes": {"is_deterministic": 1}}`), `node 0 (""): "is_deterministic" must be a boolean, not a number`, false},
		{"enum out of domain", graph(tensor, `{"type": "ReductionAttributes", "inputs": {"in_tensor_uid": 5}, "outputs": {"out_tensor_uid": 5}, "attributes": {"mode": 12}}`), `node 0 (""): unknown reduction mode value 12`, true},
		{"enum wrong type", graph(tensor, `{"type": "ReductionAttributes", "inputs": {"in_tensor_uid": 5}, "outputs": {"out_tensor_uid": 5}, "attributes": {"mode": true}}`), `node 0 (""): "mode" must be a string naming a reduction mode, not a boolean`, false},
		{"int32 attribute", graph(tensor, `{"type": "BlockScaleQuantizeAttributes", "inputs": {"x_tensor_uid": 5}, "outputs": {"y_tensor_uid": 5, "scale_tensor_uid": 5}, "attributes": {"block_size": 4294967296}}`), `node 0 (""): "block_size" = 4294967296 does not fit in int32`, false},
		{"float32 overflow", graph(tensor, pointwise(`"in_0_tensor_uid": 5, "swish_beta": 1e300`)), `node 0 ("Pointwise_1"): "swish_beta" = 1e+300 does not fit in float32`, false},
		{"bad uuid", `{"id": "not-a-uuid"}`, `graph "id": "not-a-uuid" is not a canonical UUID (8-4-4-4-12 hex digits)`, false},
		{"bad version", `{"min_required_engine_api_version": {"major": 1, "minor": -1, "patch": 0}}`, `graph min_required_engine_api_version: "minor" = -1 does not fit in uint32`, false},
		{"tensors not array", `{"tensors": {}}`, `graph: "tensors" must be an array, not an object`, false},
		{"top-level array", `[]`, `graph JSON: top level must be an object`, false},
		{"trailing data", `{} {}`, `graph JSON: unexpected data after the top-level object`, false},
		{"syntax", `{"name": }`, `graph JSON: syntax error at byte 10: invalid character '}' looking for beginning of value`, false},
		{"truncated", `{"name": "x"`, `graph JSON: unexpected end of input`, false},
		{"empty", ``, `graph JSON: unexpected end of input`, false},
		{"too deep", strings.Repeat("[", 33), `graph JSON: nesting deeper than 32 levels at byte 32`, false},
		{"name not string", `{"name": 3}`, `graph: "name" must be a string, not a number`, false},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			_, err := GraphFromJSON([]byte(tt.give))
			if err == nil || err.Error() != tt.want {
				t.Fatalf("got %v\nwant %s", err, tt.want)
			}
			if tt.unsupported != isUnsupported(err) || tt.unsupported == isMalformed(err) {
				t.Errorf("wrong class for %v", err)
			}
		})
	}
	big := make([]byte, MaxJSONSize+1)
	if _, err := GraphFromJSON(big); err == nil || !isMalformed(err) {
		t.Errorf("oversized input: %v", err)
	}
}

func TestJSONTolerance(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc  string
		give  string
		check func(*Graph) bool
	}{
		{"legacy keys", `{"io_type": "half", "compute_type": "float", "intermediate_type": "bfloat16"}`,
			func(g *Graph) bool {
				return g.IODataType == DataTypeHalf && g.ComputeDataType == DataTypeFloat && g.IntermediateDataType == DataTypeBFloat16
			}},
		{"new key wins over legacy", `{"io_type": "half", "io_data_type": "float"}`, func(g *Graph) bool { return g.IODataType == DataTypeFloat }},
		{"nulls and extras", `{"name": null, "_comment": "x", "json_version": "1.0", "hipdnn_frontend_version": {"major": 1}, "preferred_engine_id": null, "id": null, "tensors": null}`,
			func(g *Graph) bool {
				return g.Name == "" && g.PreferredEngineID == nil && g.ID == nil && g.Tensors == nil
			}},
		{"graph optionals", `{"preferred_engine_id": -9, "id": "0123ABCD-4567-89ab-cdef-0123456789AB", "min_required_engine_api_version": {"major": 1, "minor": 3, "patch": 0}}`,
			func(g *Graph) bool {
				return *g.PreferredEngineID == -9 && g.ID[0] == 0x01 && g.ID[15] == 0xab && *g.MinRequiredEngineAPIVersion == EngineAPIVersion{1, 3, 0}
			}},
		{"node-level fields, integer forward_phase", `{"nodes": [{"type": "LayernormAttributes", "x_tensor_uid": 1, "scale_tensor_uid": 2, "bias_tensor_uid": 3, "epsilon_tensor_uid": 4, "y_tensor_uid": 5, "normalized_dim_count": 2, "forward_phase": 1}]}`,
			func(g *Graph) bool {
				n := g.Nodes[0]
				_, f := n.Op.Field("forward_phase")
				i, _ := n.Op.Field("normalized_dim_count")
				return f != nil && n.Values[8].I == 1 && n.Values[i].I == 2 && n.Values[4].I == 5
			}},
		{"negative bounds kept, UNSET mma", `{"nodes": [{"type": "SdpaAttributes", "inputs": {"q_tensor_uid": 0, "k_tensor_uid": 1, "v_tensor_uid": 2}, "outputs": {"o_tensor_uid": 3}, "attributes": {"left_bound": -1, "right_bound": -1, "mma_core_mode": "UNSET", "implementation": "unified", "diagonal_alignment": "bottom_right"}}]}`,
			func(g *Graph) bool {
				n := g.Nodes[0]
				get := func(name string) Value { i, _ := n.Op.Field(name); return n.Values[i] }
				eq := func(a, b Value) bool { return reflect.DeepEqual(a, b) }
				return eq(get("left_bound"), Value{Set: true, I: -1}) && get("right_bound").I == -1 &&
					eq(get("mma_core_mode"), Value{Set: true, I: 0}) && get("implementation").I == 2 && get("diagonal_alignment").I == 1 &&
					!get("generate_stats").Set && eq(get("alibi_mask"), Value{Set: true})
			}},
		{"reduction MIN_OP alias", `{"nodes": [{"type": "ReductionAttributes", "inputs": {"in_tensor_uid": 0}, "outputs": {"out_tensor_uid": 1}, "attributes": {"mode": "MIN_OP"}}]}`,
			func(g *Graph) bool { return g.Nodes[0].Values[0].I == 3 }},
		{"custom op bytes", `{"nodes": [{"type": "CustomOpAttributes", "attributes": {"custom_op_id": "example.rope", "data": [1, 255], "test_generation_marker": 3}, "inputs": {"input_tensor_uids": [4, 5]}, "outputs": {"output_tensor_uids": []}}]}`,
			func(g *Graph) bool {
				v := g.Nodes[0].Values
				return v[0].S == "example.rope" && bytes.Equal(v[3].Bytes, []byte{1, 255}) && v[4].I == 3 &&
					len(v[1].List) == 2 && v[2].Set && v[2].List == nil
			}},
		{"float16 alias and values", `{"tensors": [{"uid": 1, "dims": [], "strides": [], "data_type": "float16", "value_type": "Float16Value", "value": 0.1, "is_runtime_pass_by_value": false, "alignment": 16}]}`,
			func(g *Graph) bool {
				tt := g.Tensors[0]
				return tt.DataType == DataTypeHalf && tt.Value.F == float64(float32(0.1)) && tt.Alignment == 16 && tt.Dims == nil
			}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			g, err := GraphFromJSON([]byte(tt.give))
			if err != nil {
				t.Fatal(err)
			}
			if !tt.check(g) {
				t.Errorf("unexpected graph %+v", g)
			}
		})
	}
}

// TestJSONEveryPrefix: every prefix of a corpus file that is not the whole
// document is refused with ErrMalformed.
func TestJSONEveryPrefix(t *testing.T) {
	t.Parallel()
	for _, path := range corpusFiles(t)[:8] {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		whole := len(bytes.TrimRight(data, " \r\n\t"))
		for n := 0; n < whole; n++ {
			if _, err := GraphFromJSON(data[:n]); !isMalformed(err) {
				t.Fatalf("%s: prefix %d: %v", path, n, err)
			}
		}
	}
}

func TestJSONWriterFormats(t *testing.T) {
	for _, tt := range []struct {
		f    float64
		bits int
		want string
	}{
		{1e-05, 64, "1e-05"}, {0.1, 64, "0.1"}, {6, 32, "6.0"}, {0, 32, "0.0"}, {-0.125, 32, "-0.125"},
		{float64(float32(0.08838834764831845)), 32, "0.088388346"}, {1e6, 64, "1000000.0"},
		{1e14, 64, "100000000000000.0"}, {1e15, 64, "1e+15"}, {1.5e300, 64, "1.5e+300"}, {0.0001, 64, "0.0001"},
		{0.00001234, 64, "1.234e-05"}, {123.456, 64, "123.456"},
	} {
		if got, err := formatFloat(tt.f, tt.bits); err != nil || got != tt.want {
			t.Errorf("formatFloat(%v, %d) = %q, %v; want %q", tt.f, tt.bits, got, err, tt.want)
		}
	}
	for _, f := range []float64{math.NaN(), math.Inf(1)} {
		if _, err := formatFloat(f, 64); !isUnsupported(err) {
			t.Errorf("%v: %v", f, err)
		}
	}
	if _, err := formatFloat(1e300, 32); !isMalformed(err) {
		t.Errorf("1e300 as float32: %v", err)
	}
	var w jsonPrinter
	if err := w.str("a\"b\\c\n\x01é"); err != nil || string(w.buf) != `"a\"b\\c\n\u0001é"` {
		t.Errorf("escaping: %s %v", w.buf, err)
	}
	if err := w.str("\xff"); !isUnsupported(err) {
		t.Errorf("invalid UTF-8: %v", err)
	}
}
