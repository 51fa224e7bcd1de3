package wire

import "testing"

// convBiasReLU is the common fused pattern: conv → add bias → relu.
func convBiasReLU() *Graph {
	tensor := func(uid int64, name string, virtual bool, dims ...int64) Tensor {
		strides := make([]int64, len(dims))
		s := int64(1)
		for i := len(dims) - 1; i >= 0; i-- {
			strides[i] = s
			s *= dims[i]
		}
		return Tensor{UID: uid, Name: name, DataType: DataTypeHalf, Dims: dims, Strides: strides, Virtual: virtual,
			Alignment: DefaultAlignment, RaggedOffsetMultiplier: DefaultRaggedOffsetMultiplier}
	}
	g := &Graph{
		Name: "conv_bias_relu", ComputeDataType: DataTypeFloat, IntermediateDataType: DataTypeFloat, IODataType: DataTypeHalf,
		Tensors: []Tensor{
			tensor(1, "x", false, 16, 64, 56, 56), tensor(2, "w", false, 64, 64, 3, 3), tensor(3, "conv_out", true, 16, 64, 56, 56),
			tensor(4, "bias", false, 1, 64, 1, 1), tensor(5, "biased", true, 16, 64, 56, 56), tensor(6, "y", false, 16, 64, 56, 56),
		},
	}
	set := func(n *Node, name string, v Value) {
		i, _ := n.Op.Field(name)
		n.Values[i] = v
	}
	conv := NewNode(OpByName("ConvolutionFwdAttributes"))
	conv.Name, conv.ComputeDataType = "conv", DataTypeFloat
	set(&conv, "x_tensor_uid", Value{Set: true, I: 1})
	set(&conv, "w_tensor_uid", Value{Set: true, I: 2})
	set(&conv, "y_tensor_uid", Value{Set: true, I: 3})
	for _, p := range []string{"pre_padding", "post_padding", "stride", "dilation"} {
		set(&conv, p, Value{Set: true, List: []int64{1, 1}})
	}
	set(&conv, "conv_mode", Value{Set: true, I: 2})
	add := NewNode(OpByName("PointwiseAttributes"))
	add.Name, add.ComputeDataType = "bias", DataTypeFloat
	set(&add, "operation", Value{Set: true, I: 2})
	set(&add, "in_0_tensor_uid", Value{Set: true, I: 3})
	set(&add, "in_1_tensor_uid", Value{Set: true, I: 4})
	set(&add, "out_0_tensor_uid", Value{Set: true, I: 5})
	relu := NewNode(OpByName("PointwiseAttributes"))
	relu.Name, relu.ComputeDataType = "relu", DataTypeFloat
	set(&relu, "operation", Value{Set: true, I: 34})
	set(&relu, "in_0_tensor_uid", Value{Set: true, I: 5})
	set(&relu, "out_0_tensor_uid", Value{Set: true, I: 6})
	g.Nodes = []Node{conv, add, relu}
	return g
}

func BenchmarkEncodeGraph(b *testing.B) {
	g := convBiasReLU()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := EncodeGraph(g); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeGraph(b *testing.B) {
	buf, err := EncodeGraph(convBiasReLU())
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeGraph(buf); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGraphToJSON(b *testing.B) {
	g := convBiasReLU()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := GraphToJSON(g); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGraphFromJSON(b *testing.B) {
	js, err := GraphToJSON(convBiasReLU())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := GraphFromJSON(js); err != nil {
			b.Fatal(err)
		}
	}
}
