package descriptors

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/wire"
)

func TestEveryOperationKindIsRegistered(t *testing.T) {
	if len(opSpecs) != len(wire.Ops()) {
		t.Fatalf("%d operation descriptors for %d wire node types", len(opSpecs), len(wire.Ops()))
	}
	for _, s := range opSpecs {
		o := mustCreate(t, s.kind)
		var ot int32
		must(t, "op type", GetAttribute(o, api.HIPDNN_ATTR_OPERATION_TYPE_EXT, api.HIPDNN_TYPE_OPERATION_TYPE_EXT, 1, nil, unsafe.Pointer(&ot)))
		if api.OperationType(ot) != s.opType {
			t.Errorf("%s reports operation type %v, want %v", s.class, api.OperationType(ot), s.opType)
		}
	}
}

func TestConvShapeCheck(t *testing.T) {
	x := newTensor(t, 1, false, 1, 4, 8, 8)
	w := newTensor(t, 2, false, 8, 4, 3, 3)
	y := newTensor(t, 3, false, 1, 8, 7, 8) // wrong: 8 expected
	o := mustCreate(t, api.HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR)
	must(t, "x", setDesc(t, o, api.HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, x))
	must(t, "w", setDesc(t, o, api.HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W, w))
	err := Finalize(o)
	wantCode(t, "missing attributes", err, api.HIPDNN_STATUS_BAD_PARAM)
	for _, want := range []string{"HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y", "HIPDNN_ATTR_CONVOLUTION_CONV_MODE", "HIPDNN_ATTR_CONVOLUTION_COMP_TYPE"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing-attribute message %q lacks %s", err, want)
		}
	}
	must(t, "y", setDesc(t, o, api.HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y, y))
	for _, a := range []api.AttributeName{api.HIPDNN_ATTR_CONVOLUTION_PRE_PADDINGS, api.HIPDNN_ATTR_CONVOLUTION_POST_PADDINGS} {
		must(t, "pad", setI64(o, a, 1, 1))
	}
	must(t, "stride", setI64(o, api.HIPDNN_ATTR_CONVOLUTION_FILTER_STRIDES, 1, 1))
	must(t, "dilation", setI64(o, api.HIPDNN_ATTR_CONVOLUTION_DILATIONS, 1, 1))
	wantCode(t, "bad conv mode", setI32(o, api.HIPDNN_ATTR_CONVOLUTION_CONV_MODE, api.HIPDNN_TYPE_CONVOLUTION_MODE, 7), api.HIPDNN_STATUS_BAD_PARAM)
	// The older generation passed the flatbuffer value as INT64.
	must(t, "legacy conv mode", setI64(o, api.HIPDNN_ATTR_CONVOLUTION_CONV_MODE, 2))
	must(t, "comp", setI32(o, api.HIPDNN_ATTR_CONVOLUTION_COMP_TYPE, api.HIPDNN_TYPE_DATA_TYPE, int32(api.HIPDNN_DATA_FLOAT)))
	err = Finalize(o)
	wantCode(t, "wrong output size", err, api.HIPDNN_STATUS_BAD_PARAM)
	if !strings.Contains(err.Error(), "= 8") {
		t.Fatalf("shape message %q does not give the expected size", err)
	}
	var mode int32
	wantCode(t, "get before finalize", GetAttribute(o, api.HIPDNN_ATTR_CONVOLUTION_CONV_MODE, api.HIPDNN_TYPE_CONVOLUTION_MODE, 1, nil, unsafe.Pointer(&mode)), api.HIPDNN_STATUS_NOT_INITIALIZED)
}

func TestConvAttributesReadBack(t *testing.T) {
	x := newTensor(t, 1, false, 1, 4, 8, 8)
	w := newTensor(t, 2, false, 8, 4, 3, 3)
	y := newTensor(t, 3, false, 1, 8, 8, 8)
	op := newConv(t, x, w, y)
	var mode int32
	must(t, "mode", GetAttribute(op, api.HIPDNN_ATTR_CONVOLUTION_CONV_MODE, api.HIPDNN_TYPE_CONVOLUTION_MODE, 1, nil, unsafe.Pointer(&mode)))
	if api.ConvolutionMode(mode) != api.HIPDNN_CROSS_CORRELATION {
		t.Fatalf("conv mode = %d", mode)
	}
	if v, _ := op.fieldOf("conv_mode"); v.I != 2 {
		t.Fatalf("wire conv_mode = %d, want 2 (CROSS_CORRELATION)", v.I)
	}
	var tok uintptr
	var n int64
	must(t, "x back", GetAttribute(op, api.HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, api.HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &n, unsafe.Pointer(&tok)))
	got, err := Resolve(tok)
	must(t, "resolve x", err)
	if got != Object(x) {
		t.Fatal("X did not return the same tensor")
	}
	must(t, "destroy", Destroy(tok))
	var dt int32
	must(t, "comp", GetAttribute(op, api.HIPDNN_ATTR_CONVOLUTION_COMP_TYPE, api.HIPDNN_TYPE_DATA_TYPE, 1, nil, unsafe.Pointer(&dt)))
	if api.DataType(dt) != api.HIPDNN_DATA_FLOAT {
		t.Fatalf("comp type = %d", dt)
	}
}

func TestPointwiseArity(t *testing.T) {
	a := newTensor(t, 1, false, 2, 3)
	b := newTensor(t, 2, false, 1, 3)
	y := newTensor(t, 3, false, 2, 3)
	o := mustCreate(t, api.HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR)
	must(t, "in0", setDesc(t, o, api.HIPDNN_ATTR_OPERATION_POINTWISE_IN_0_EXT, a))
	must(t, "out", setDesc(t, o, api.HIPDNN_ATTR_OPERATION_POINTWISE_OUT_0_EXT, y))
	must(t, "mode", setI32(o, api.HIPDNN_ATTR_POINTWISE_MODE, api.HIPDNN_TYPE_POINTWISE_MODE, int32(api.HIPDNN_POINTWISE_ADD)))
	must(t, "prec", setI32(o, api.HIPDNN_ATTR_POINTWISE_MATH_PREC, api.HIPDNN_TYPE_DATA_TYPE, int32(api.HIPDNN_DATA_FLOAT)))
	err := Finalize(o)
	wantCode(t, "ADD with one input", err, api.HIPDNN_STATUS_BAD_PARAM)
	must(t, "in1", setDesc(t, o, api.HIPDNN_ATTR_OPERATION_POINTWISE_IN_1_EXT, b))
	must(t, "broadcast add", Finalize(o))
	wantCode(t, "mode 0", setI32(mustCreate(t, api.HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR), api.HIPDNN_ATTR_POINTWISE_MODE, api.HIPDNN_TYPE_POINTWISE_MODE, 0), api.HIPDNN_STATUS_BAD_PARAM)
	must(t, "clip", setF32(mustCreate(t, api.HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR), api.HIPDNN_ATTR_POINTWISE_RELU_LOWER_CLIP, 0.5))
}

func TestMatmulShapes(t *testing.T) {
	a := newTensor(t, 1, false, 2, 3, 4)
	b := newTensor(t, 2, false, 1, 4, 5)
	c := newTensor(t, 3, false, 2, 3, 5)
	o := mustCreate(t, api.HIPDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR)
	must(t, "a", setDesc(t, o, api.HIPDNN_ATTR_OPERATION_MATMUL_ADESC, a))
	must(t, "b", setDesc(t, o, api.HIPDNN_ATTR_OPERATION_MATMUL_BDESC, b))
	must(t, "c", setDesc(t, o, api.HIPDNN_ATTR_OPERATION_MATMUL_CDESC, c))
	must(t, "comp", setI32(o, api.HIPDNN_ATTR_MATMUL_COMP_TYPE, api.HIPDNN_TYPE_DATA_TYPE, int32(api.HIPDNN_DATA_FLOAT)))
	must(t, "broadcast batch", Finalize(o))
	bad := newTensor(t, 4, false, 2, 5, 5)
	o2 := mustCreate(t, api.HIPDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR)
	must(t, "a", setDesc(t, o2, api.HIPDNN_ATTR_OPERATION_MATMUL_ADESC, a))
	must(t, "b", setDesc(t, o2, api.HIPDNN_ATTR_OPERATION_MATMUL_BDESC, bad))
	must(t, "c", setDesc(t, o2, api.HIPDNN_ATTR_OPERATION_MATMUL_CDESC, c))
	must(t, "comp", setI32(o2, api.HIPDNN_ATTR_MATMUL_COMP_TYPE, api.HIPDNN_TYPE_DATA_TYPE, int32(api.HIPDNN_DATA_FLOAT)))
	err := Finalize(o2)
	wantCode(t, "inner mismatch", err, api.HIPDNN_STATUS_BAD_PARAM)
	if !strings.Contains(err.Error(), "inner dimensions") {
		t.Fatalf("message %q", err)
	}
}

// TestEnumOffsets: every C value of every enum attribute converts to the wire
// value of the same name, and the derivation refuses enums that disagree.
func TestEnumOffsets(t *testing.T) {
	n := 0
	for _, s := range opSpecs {
		for _, oa := range s.attrs {
			if oa.enum == nil {
				continue
			}
			_, f := s.schema.Field(oa.field)
			off, err := enumOffset(oa.enum.names, f.Enum)
			if err != nil {
				t.Fatalf("%s.%s: %v", s.node, oa.field, err)
			}
			for name, c := range oa.enum.names {
				var w *wire.EnumValue
				for i := range f.Enum.Values {
					if f.Enum.Values[i].Value == c+off {
						w = &f.Enum.Values[i]
					}
				}
				base := strings.TrimSuffix(name, "_EXT")
				if w == nil || !strings.HasSuffix(base, "_"+w.Name) && !strings.HasSuffix(base, "_"+strings.TrimSuffix(w.Name, "_OP")) {
					t.Errorf("%s.%s: %s (%d) converts to %d", s.node, oa.field, name, c, c+off)
				}
				n++
			}
		}
	}
	if n == 0 {
		t.Fatal("no enum attributes")
	}
	if off, _ := enumOffset(convModeEnum.names, wire.ConvMode); off != 1 {
		t.Errorf("ConvMode offset %d, want 1 (the schema's UNSET = 0)", off)
	}
	d := &wire.EnumDomain{Name: "E", Values: []wire.EnumValue{{Value: 0, Name: "A"}, {Value: 5, Name: "B"}}}
	for _, tt := range []struct {
		c    map[string]int64
		want string
	}{
		{map[string]int64{"HIPDNN_E_A": 0, "HIPDNN_E_B": 1}, "no common offset"},
		{map[string]int64{"HIPDNN_E_A": 0, "HIPDNN_E_C": 1}, "no value for HIPDNN_E_C"},
		{map[string]int64{}, "no values"},
	} {
		if _, err := enumOffset(tt.c, d); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: %v, want %q", tt.c, err, tt.want)
		}
	}
}
