package descriptors

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/status"
)

// Test helpers drive the generic attribute path exactly as the C API does, with Go memory
// standing in for the caller's arrays.

func mustCreate(t testing.TB, k api.DescriptorType) Object {
	t.Helper()
	o, err := Create(k)
	if err != nil {
		t.Fatalf("Create(%v): %v", k, err)
	}
	return o
}

func setI64(o Object, name api.AttributeName, vals ...int64) error {
	return SetAttribute(o, name, api.HIPDNN_TYPE_INT64, int64(len(vals)), unsafe.Pointer(&vals[0]))
}

func setI32(o Object, name api.AttributeName, t api.AttributeType, v int32) error {
	return SetAttribute(o, name, t, 1, unsafe.Pointer(&v))
}

func setBool(o Object, name api.AttributeName, b bool) error {
	v := byte(0)
	if b {
		v = 1
	}
	return SetAttribute(o, name, api.HIPDNN_TYPE_BOOLEAN, 1, unsafe.Pointer(&v))
}

func setF32(o Object, name api.AttributeName, f float32) error {
	return SetAttribute(o, name, api.HIPDNN_TYPE_FLOAT, 1, unsafe.Pointer(&f))
}

func setStr(o Object, name api.AttributeName, s string) error {
	b := []byte(s)
	if len(b) == 0 {
		return SetAttribute(o, name, api.HIPDNN_TYPE_CHAR, 0, nil)
	}
	return SetAttribute(o, name, api.HIPDNN_TYPE_CHAR, int64(len(b)), unsafe.Pointer(&b[0]))
}

// setDesc passes descriptors the way C does: an array of tokens.
func setDesc(t testing.TB, o Object, name api.AttributeName, objs ...Object) error {
	t.Helper()
	toks := make([]uintptr, len(objs))
	for i, x := range objs {
		toks[i] = Token(x)
	}
	t.Cleanup(func() {
		for _, tok := range toks {
			_ = Destroy(tok)
		}
	})
	var p unsafe.Pointer
	if len(toks) > 0 {
		p = unsafe.Pointer(&toks[0])
	}
	return SetAttribute(o, name, api.HIPDNN_TYPE_BACKEND_DESCRIPTOR, int64(len(toks)), p)
}

func wantCode(t *testing.T, what string, err error, want api.Status) {
	t.Helper()
	if got := status.Code(err); got != want {
		t.Fatalf("%s: status %v (%v), want %v", what, got, err, want)
	}
}

// wantErr checks an error's status and that its message contains msg.
func wantErr(t *testing.T, what string, err error, code api.Status, msg string) {
	t.Helper()
	wantCode(t, what, err, code)
	if !strings.Contains(err.Error(), msg) {
		t.Errorf("%s: message %q does not contain %q", what, err.Error(), msg)
	}
}

func must(t testing.TB, what string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// newTensor makes a finalized float tensor with packed row-major strides.
func newTensor(t testing.TB, uid int64, virtual bool, dims ...int64) *Tensor {
	t.Helper()
	o := mustCreate(t, api.HIPDNN_BACKEND_TENSOR_DESCRIPTOR)
	strides := make([]int64, len(dims))
	s := int64(1)
	for i := len(dims) - 1; i >= 0; i-- {
		strides[i] = s
		s *= dims[i]
	}
	must(t, "uid", setI64(o, api.HIPDNN_ATTR_TENSOR_UNIQUE_ID, uid))
	must(t, "dtype", setI32(o, api.HIPDNN_ATTR_TENSOR_DATA_TYPE, api.HIPDNN_TYPE_DATA_TYPE, int32(api.HIPDNN_DATA_FLOAT)))
	must(t, "dims", setI64(o, api.HIPDNN_ATTR_TENSOR_DIMENSIONS, dims...))
	must(t, "strides", setI64(o, api.HIPDNN_ATTR_TENSOR_STRIDES, strides...))
	must(t, "virtual", setBool(o, api.HIPDNN_ATTR_TENSOR_IS_VIRTUAL, virtual))
	must(t, "finalize tensor", Finalize(o))
	return o.(*Tensor)
}

// newConv builds a finalized 2-D cross-correlation, padding 1, stride 1.
func newConv(t testing.TB, x, w, y *Tensor) *Op {
	t.Helper()
	o := mustCreate(t, api.HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR)
	must(t, "x", setDesc(t, o, api.HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, x))
	must(t, "w", setDesc(t, o, api.HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W, w))
	must(t, "y", setDesc(t, o, api.HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y, y))
	must(t, "pre", setI64(o, api.HIPDNN_ATTR_CONVOLUTION_PRE_PADDINGS, 1, 1))
	must(t, "post", setI64(o, api.HIPDNN_ATTR_CONVOLUTION_POST_PADDINGS, 1, 1))
	must(t, "stride", setI64(o, api.HIPDNN_ATTR_CONVOLUTION_FILTER_STRIDES, 1, 1))
	must(t, "dilation", setI64(o, api.HIPDNN_ATTR_CONVOLUTION_DILATIONS, 1, 1))
	must(t, "mode", setI32(o, api.HIPDNN_ATTR_CONVOLUTION_CONV_MODE, api.HIPDNN_TYPE_CONVOLUTION_MODE, int32(api.HIPDNN_CROSS_CORRELATION)))
	must(t, "comp", setI32(o, api.HIPDNN_ATTR_CONVOLUTION_COMP_TYPE, api.HIPDNN_TYPE_DATA_TYPE, int32(api.HIPDNN_DATA_FLOAT)))
	must(t, "finalize conv", Finalize(o))
	return o.(*Op)
}

func newPointwise(t testing.TB, mode api.PointwiseMode, out *Tensor, ins ...*Tensor) *Op {
	t.Helper()
	o := mustCreate(t, api.HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR)
	names := []api.AttributeName{api.HIPDNN_ATTR_OPERATION_POINTWISE_IN_0_EXT, api.HIPDNN_ATTR_OPERATION_POINTWISE_IN_1_EXT, api.HIPDNN_ATTR_OPERATION_POINTWISE_IN_2_EXT}
	for i, in := range ins {
		must(t, "in", setDesc(t, o, names[i], in))
	}
	must(t, "out", setDesc(t, o, api.HIPDNN_ATTR_OPERATION_POINTWISE_OUT_0_EXT, out))
	must(t, "mode", setI32(o, api.HIPDNN_ATTR_POINTWISE_MODE, api.HIPDNN_TYPE_POINTWISE_MODE, int32(mode)))
	must(t, "prec", setI32(o, api.HIPDNN_ATTR_POINTWISE_MATH_PREC, api.HIPDNN_TYPE_DATA_TYPE, int32(api.HIPDNN_DATA_FLOAT)))
	must(t, "finalize pointwise", Finalize(o))
	return o.(*Op)
}

// convBiasRelu builds the graph ops of y = relu(conv(x, w) + b) on [1,4,8,8] * [8,4,3,3].
func convBiasRelu(t testing.TB) []Object {
	t.Helper()
	x := newTensor(t, 1, false, 1, 4, 8, 8)
	w := newTensor(t, 2, false, 8, 4, 3, 3)
	c := newTensor(t, 3, true, 1, 8, 8, 8)
	b := newTensor(t, 4, false, 1, 8, 1, 1)
	s := newTensor(t, 5, true, 1, 8, 8, 8)
	y := newTensor(t, 6, false, 1, 8, 8, 8)
	return []Object{newConv(t, x, w, c), newPointwise(t, api.HIPDNN_POINTWISE_ADD, s, c, b), newPointwise(t, api.HIPDNN_POINTWISE_RELU_FWD, y, s)}
}
