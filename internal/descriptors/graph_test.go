package descriptors

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/handle"
	"github.com/hipdnn-go/backend/internal/wire"
)

func newHandle(t testing.TB) *handle.Handle {
	t.Helper()
	h, _, err := handle.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = handle.Destroy(h.Token()) })
	return h
}

func setHandle(o Object, h *handle.Handle) error {
	tok := h.Token()
	return SetAttribute(o, api.HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, api.HIPDNN_TYPE_HANDLE, 1, unsafe.Pointer(&tok))
}

func newGraph(t testing.TB, h *handle.Handle, ops ...Object) *Graph {
	t.Helper()
	g := mustCreate(t, api.HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR)
	must(t, "ops", setDesc(t, g, api.HIPDNN_ATTR_OPERATIONGRAPH_OPS, ops...))
	must(t, "handle", setHandle(g, h))
	return g.(*Graph)
}

func TestGraphConvBiasRelu(t *testing.T) {
	h := newHandle(t)
	g := newGraph(t, h, convBiasRelu(t)...)
	must(t, "name", setStr(g, api.HIPDNN_ATTR_OPERATIONGRAPH_NAME_EXT, "conv_bias_relu"))
	must(t, "finalize", Finalize(g))
	m, err := wire.DecodeGraph(g.Bytes())
	must(t, "decode", err)
	if m.Name != "conv_bias_relu" || len(m.Nodes) != 3 || len(m.Tensors) != 6 {
		t.Fatalf("decoded graph: name %q, %d nodes, %d tensors", m.Name, len(m.Nodes), len(m.Tensors))
	}
	if m.ID == nil || m.MinRequiredEngineAPIVersion == nil {
		t.Fatal("finalize did not stamp id and minimum engine API version")
	}
	var n int64
	must(t, "ops count", GetAttribute(g, api.HIPDNN_ATTR_OPERATIONGRAPH_OPS, api.HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0, &n, nil))
	if n != 3 {
		t.Fatalf("OPS count = %d", n)
	}
	toks := make([]uintptr, 2)
	wantCode(t, "OPS with a short array", GetAttribute(g, api.HIPDNN_ATTR_OPERATIONGRAPH_OPS, api.HIPDNN_TYPE_BACKEND_DESCRIPTOR, 2, &n, unsafe.Pointer(&toks[0])), api.HIPDNN_STATUS_BAD_PARAM)
	toks = make([]uintptr, 3)
	must(t, "OPS", GetAttribute(g, api.HIPDNN_ATTR_OPERATIONGRAPH_OPS, api.HIPDNN_TYPE_BACKEND_DESCRIPTOR, 3, &n, unsafe.Pointer(&toks[0])))
	for _, tok := range toks {
		o, err := Resolve(tok)
		must(t, "resolve returned op", err)
		if !IsOperation(KindOf(o)) || !IsFinalized(o) {
			t.Fatalf("OPS returned a %v", KindOf(o))
		}
		must(t, "destroy returned op", Destroy(tok))
	}
}

func TestGraphGettersWorkBeforeFinalize(t *testing.T) {
	g := mustCreate(t, api.HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR)
	var n int64 = 7
	must(t, "ops count", GetAttribute(g, api.HIPDNN_ATTR_OPERATIONGRAPH_OPS, api.HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0, &n, nil))
	if n != 0 {
		t.Fatalf("empty graph OPS count = %d", n)
	}
	wantCode(t, "finalize empty graph", Finalize(g), api.HIPDNN_STATUS_BAD_PARAM)
	b, err := g.(*Graph).SerializedBytes()
	must(t, "serialize empty graph", err)
	if len(b) == 0 {
		t.Fatal("empty serialization")
	}
}

func TestGraphValidation(t *testing.T) {
	h := newHandle(t)
	tests := []struct {
		desc string
		ops  func(t *testing.T) []Object
		msg  string
	}{
		{"reverse order", func(t *testing.T) []Object { o := convBiasRelu(t); return []Object{o[1], o[0], o[2]} }, "topological order"},
		{"disconnected", func(t *testing.T) []Object {
			a := newTensor(t, 10, false, 4)
			b := newTensor(t, 11, false, 4)
			c := newTensor(t, 12, false, 4)
			d := newTensor(t, 13, false, 4)
			return []Object{newPointwise(t, api.HIPDNN_POINTWISE_RELU_FWD, b, a), newPointwise(t, api.HIPDNN_POINTWISE_RELU_FWD, d, c)}
		}, "connected"},
		{"virtual graph input", func(t *testing.T) []Object {
			a := newTensor(t, 10, true, 4)
			b := newTensor(t, 11, false, 4)
			return []Object{newPointwise(t, api.HIPDNN_POINTWISE_RELU_FWD, b, a)}
		}, "no operation of the graph writes it"},
		{"two writers", func(t *testing.T) []Object {
			a := newTensor(t, 10, false, 4)
			b := newTensor(t, 11, false, 4)
			return []Object{newPointwise(t, api.HIPDNN_POINTWISE_RELU_FWD, b, a), newPointwise(t, api.HIPDNN_POINTWISE_EXP, b, a)}
		}, "written by operation"},
		{"uid clash", func(t *testing.T) []Object {
			a := newTensor(t, 10, false, 4)
			b := newTensor(t, 10, true, 4)
			return []Object{newPointwise(t, api.HIPDNN_POINTWISE_RELU_FWD, b, a)}
		}, "share uid 10"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			g := newGraph(t, h, tt.ops(t)...)
			err := Finalize(g)
			wantCode(t, tt.desc, err, api.HIPDNN_STATUS_BAD_PARAM)
			if !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("message %q lacks %q", err, tt.msg)
			}
		})
	}
}

func TestGraphNeedsHandle(t *testing.T) {
	g := mustCreate(t, api.HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR)
	must(t, "ops", setDesc(t, g, api.HIPDNN_ATTR_OPERATIONGRAPH_OPS, convBiasRelu(t)...))
	err := Finalize(g)
	wantCode(t, "no handle", err, api.HIPDNN_STATUS_BAD_PARAM)
	if !strings.Contains(err.Error(), "HIPDNN_ATTR_OPERATIONGRAPH_HANDLE") {
		t.Fatalf("message %q does not name the handle attribute", err)
	}
	var zero uintptr
	wantCode(t, "NULL handle", SetAttribute(g, api.HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, api.HIPDNN_TYPE_HANDLE, 1, unsafe.Pointer(&zero)), api.HIPDNN_STATUS_BAD_PARAM_NULL_POINTER)
	bogus := uintptr(0x1234)
	wantCode(t, "garbage handle", SetAttribute(g, api.HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, api.HIPDNN_TYPE_HANDLE, 1, unsafe.Pointer(&bogus)), api.HIPDNN_STATUS_BAD_PARAM)
}

func TestOpsTakeOnlyFinalizedOperations(t *testing.T) {
	g := mustCreate(t, api.HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR)
	op := mustCreate(t, api.HIPDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR)
	wantCode(t, "unfinalized op", setDesc(t, g, api.HIPDNN_ATTR_OPERATIONGRAPH_OPS, op), api.HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED)
	tn := newTensor(t, 1, false, 2)
	wantCode(t, "tensor as op", setDesc(t, g, api.HIPDNN_ATTR_OPERATIONGRAPH_OPS, tn), api.HIPDNN_STATUS_NOT_SUPPORTED)
}

// A frontend may make one descriptor per use of a tensor: identical copies are one tensor even
// when they carry a constant value or a ragged offset (pointer fields of the wire form).
func TestGraphAcceptsIdenticalTensorCopies(t *testing.T) {
	h := newHandle(t)
	tensor := func(uid int64, set func(o Object) error) *Tensor {
		o := mustCreate(t, api.HIPDNN_BACKEND_TENSOR_DESCRIPTOR)
		must(t, "uid", setI64(o, api.HIPDNN_ATTR_TENSOR_UNIQUE_ID, uid))
		must(t, "dtype", setI32(o, api.HIPDNN_ATTR_TENSOR_DATA_TYPE, api.HIPDNN_TYPE_DATA_TYPE, int32(api.HIPDNN_DATA_FLOAT)))
		must(t, "dims", setI64(o, api.HIPDNN_ATTR_TENSOR_DIMENSIONS, 1, 4))
		must(t, "strides", setI64(o, api.HIPDNN_ATTR_TENSOR_STRIDES, 4, 1))
		if set != nil {
			must(t, "extra", set(o))
		}
		must(t, "finalize tensor", Finalize(o))
		return o.(*Tensor)
	}
	constant := func(o Object) error {
		f := float32(0.5)
		return SetAttribute(o, api.HIPDNN_ATTR_TENSOR_VALUE_EXT, api.HIPDNN_TYPE_CHAR, 4, unsafe.Pointer(&f))
	}
	ragged := func(o Object) error { return setI64(o, api.HIPDNN_ATTR_TENSOR_RAGGED_OFFSET_DESC, 3) }
	x := tensor(1, ragged)
	y := tensor(2, nil)
	z := tensor(4, nil)
	// y = x * c, z = y + c, with a separate copy of x's and c's descriptor in the second op.
	first := newPointwise(t, api.HIPDNN_POINTWISE_MUL, y, x, tensor(5, constant))
	second := newPointwise(t, api.HIPDNN_POINTWISE_ADD, z, y, tensor(5, constant))
	third := newPointwise(t, api.HIPDNN_POINTWISE_ADD, tensor(6, nil), z, tensor(1, ragged))
	must(t, "finalize", Finalize(newGraph(t, h, first, second, third)))
}
