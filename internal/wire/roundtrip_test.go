package wire

import (
	"bytes"
	"reflect"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc string
		give *Graph
	}{
		{"every op, every field", fullGraph()},
		{"every op, required fields only", requiredGraph()},
		{"empty graph", &Graph{}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			buf, err := EncodeGraph(tt.give)
			if err != nil {
				t.Fatal(err)
			}
			got, err := DecodeGraph(buf)
			if err != nil {
				t.Fatal(err)
			}
			assertGraphEqual(t, "flatbuffer", got, tt.give)

			js, err := GraphToJSON(tt.give)
			if err != nil {
				t.Fatal(err)
			}
			got, err = GraphFromJSON(js)
			if err != nil {
				t.Fatalf("%v\n%s", err, js)
			}
			assertGraphEqual(t, "JSON", got, tt.give)

			// Re-encoding is byte-stable.
			buf2, err := EncodeGraph(got)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(buf, buf2) {
				t.Error("encoding the JSON round trip gives different bytes")
			}
			js2, err := GraphToJSON(got)
			if err != nil || !bytes.Equal(js, js2) {
				t.Errorf("JSON not stable: %v", err)
			}
		})
	}
}

func assertGraphEqual(t *testing.T, via string, got, want *Graph) {
	t.Helper()
	if reflect.DeepEqual(got, want) {
		return
	}
	if len(got.Nodes) == len(want.Nodes) {
		for i := range got.Nodes {
			if !reflect.DeepEqual(got.Nodes[i], want.Nodes[i]) {
				g, w := got.Nodes[i], want.Nodes[i]
				for j := range w.Values {
					if j < len(g.Values) && !reflect.DeepEqual(g.Values[j], w.Values[j]) {
						t.Errorf("%s: node %d %s.%s: got %+v, want %+v", via, i, w.Op.Name, w.Op.Fields[j].Name, g.Values[j], w.Values[j])
					}
				}
				if g.Name != w.Name || g.Op != w.Op || g.ComputeDataType != w.ComputeDataType {
					t.Errorf("%s: node %d header differs", via, i)
				}
			}
		}
	}
	for i := range want.Tensors {
		if i < len(got.Tensors) && !reflect.DeepEqual(got.Tensors[i], want.Tensors[i]) {
			t.Errorf("%s: tensor %d: got %+v, want %+v", via, i, got.Tensors[i], want.Tensors[i])
		}
	}
	g2, w2 := *got, *want
	g2.Nodes, w2.Nodes, g2.Tensors, w2.Tensors = nil, nil, nil, nil
	if !reflect.DeepEqual(g2, w2) {
		t.Errorf("%s: graph header: got %+v, want %+v", via, g2, w2)
	}
	t.Errorf("%s round trip changed the graph", via)
}

// TestEncodeNormalizesAbsentDefaults: Set=false on a non-optional scalar
// means the default, and decodes in canonical form.
func TestEncodeNormalizesAbsentDefaults(t *testing.T) {
	op := OpByName("SdpaAttributes")
	n := Node{Op: op, Tag: op.Tag, Values: make([]Value, len(op.Fields))}
	g := &Graph{Nodes: []Node{n}}
	buf, err := EncodeGraph(g)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeGraph(buf)
	if err != nil {
		t.Fatal(err)
	}
	if want := NewNode(op); !reflect.DeepEqual(got.Nodes[0], want) {
		t.Errorf("got %+v\nwant %+v", got.Nodes[0], want)
	}
}

func TestEncodeErrors(t *testing.T) {
	t.Parallel()
	conv := OpByName("ConvolutionFwdAttributes")
	bsq := OpByName("BlockScaleQuantizeAttributes")
	pw := OpByName("PointwiseAttributes")
	withValue := func(op *OpSchema, field string, v Value) *Graph {
		n := NewNode(op)
		i, _ := op.Field(field)
		n.Values[i] = v
		return &Graph{Nodes: []Node{n}}
	}
	tests := []struct {
		desc        string
		give        *Graph
		msg         string
		unsupported bool
	}{
		{"nil", nil, "graph is nil", false},
		{"unknown op", &Graph{Nodes: []Node{{Name: "future", Tag: 40}}}, `node 0 ("future"): unknown node type tag 40 cannot be encoded`, true},
		{"int overflow", withValue(bsq, "block_size", Value{Set: true, I: 1 << 40}), `node 0 (""): block_size = 1099511627776 does not fit in int32`, false},
		{"enum overflow", withValue(conv, "conv_mode", Value{Set: true, I: 300}), `node 0 (""): conv_mode = 300 does not fit in a byte enum`, false},
		{"float overflow", withValue(pw, "swish_beta", Value{Set: true, F: 1e300}), `node 0 (""): swish_beta 1e+300 does not fit in float32`, false},
		{"value count", &Graph{Nodes: []Node{{Op: conv, Tag: 5}}}, `node 0 (""): ConvolutionFwdAttributes node has 0 values for 10 fields`, false},
		{"tensor value kind", &Graph{Tensors: []Tensor{{UID: 3, Value: &TensorValue{Kind: 12}}}}, `tensor uid 3: unknown tensor value type 12`, true},
		{"int32 value", &Graph{Tensors: []Tensor{{UID: 3, Value: &TensorValue{Kind: ValueInt32, I: 1 << 33}}}}, `tensor uid 3: Int32Value 8589934592 does not fit in int32`, false},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			_, err := EncodeGraph(tt.give)
			if err == nil || err.Error() != tt.msg {
				t.Fatalf("got %v, want %q", err, tt.msg)
			}
			if tt.unsupported != isUnsupported(err) || tt.unsupported == isMalformed(err) {
				t.Errorf("wrong class for %v", err)
			}
		})
	}
}

// TestUnknownKeptAndReported: values a newer writer may produce decode
// losslessly, re-encode unchanged, and CheckSupported names them.
func TestUnknownKeptAndReported(t *testing.T) {
	conv := OpByName("ConvolutionFwdAttributes")
	n := NewNode(conv)
	i, _ := conv.Field("conv_mode")
	n.Values[i].I = 9
	tests := []struct {
		desc string
		give *Graph
		msg  string
	}{
		{"enum", &Graph{Nodes: []Node{n}}, `node 0 (""): conv_mode value 9 is not a known ConvMode`},
		{"graph data type", &Graph{IODataType: 40}, `graph io_data_type: unknown data type value 40`},
		{"tensor data type", &Graph{Tensors: []Tensor{{UID: 2, DataType: -3, Alignment: 16, RaggedOffsetMultiplier: 1}}}, `tensor uid 2: unknown data type value -3`},
		{"node data type", &Graph{Nodes: []Node{func() Node { m := NewNode(conv); m.ComputeDataType = 33; return m }()}}, `node 0 (""): unknown compute data type value 33`},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			buf, err := EncodeGraph(tt.give)
			if err != nil {
				t.Fatal(err)
			}
			got, err := DecodeGraph(buf)
			if err != nil {
				t.Fatal(err)
			}
			assertGraphEqual(t, "flatbuffer", got, tt.give)
			err = got.CheckSupported()
			if err == nil || err.Error() != tt.msg || !isUnsupported(err) {
				t.Errorf("CheckSupported: got %v, want %q", err, tt.msg)
			}
			if _, err := GraphToJSON(got); !isUnsupported(err) {
				t.Errorf("GraphToJSON: want ErrUnsupported, got %v", err)
			}
		})
	}
	if err := fullGraph().CheckSupported(); err != nil {
		t.Errorf("full graph: %v", err)
	}
}
