package descriptors

import (
	"testing"
	"unsafe"

	"github.com/hipdnn-go/backend/internal/api"
)

func TestTensorRoundTrip(t *testing.T) {
	tn := newTensor(t, 42, true, 2, 3, 4)
	var n int64
	dims := make([]int64, 8)
	must(t, "get dims", GetAttribute(tn, api.HIPDNN_ATTR_TENSOR_DIMENSIONS, api.HIPDNN_TYPE_INT64, 8, &n, unsafe.Pointer(&dims[0])))
	if n != 3 || dims[0] != 2 || dims[1] != 3 || dims[2] != 4 {
		t.Fatalf("dims = %v (n=%d)", dims[:n], n)
	}
	var uid int64
	must(t, "get uid", GetAttribute(tn, api.HIPDNN_ATTR_TENSOR_UNIQUE_ID, api.HIPDNN_TYPE_INT64, 1, nil, unsafe.Pointer(&uid)))
	if uid != 42 {
		t.Fatalf("uid = %d", uid)
	}
	var virt byte
	must(t, "get virtual", GetAttribute(tn, api.HIPDNN_ATTR_TENSOR_IS_VIRTUAL, api.HIPDNN_TYPE_BOOLEAN, 1, nil, unsafe.Pointer(&virt)))
	if virt != 1 {
		t.Fatal("virtual lost")
	}
	// size query
	must(t, "size query", GetAttribute(tn, api.HIPDNN_ATTR_TENSOR_STRIDES, api.HIPDNN_TYPE_INT64, 0, &n, nil))
	if n != 3 {
		t.Fatalf("stride count = %d", n)
	}
	wantCode(t, "size query without count", GetAttribute(tn, api.HIPDNN_ATTR_TENSOR_STRIDES, api.HIPDNN_TYPE_INT64, 0, nil, nil), api.HIPDNN_STATUS_BAD_PARAM_NULL_POINTER)
	wantCode(t, "set after finalize", setI64(tn, api.HIPDNN_ATTR_TENSOR_UNIQUE_ID, 1), api.HIPDNN_STATUS_NOT_INITIALIZED)
	wantCode(t, "wrong type", GetAttribute(tn, api.HIPDNN_ATTR_TENSOR_UNIQUE_ID, api.HIPDNN_TYPE_INT32, 1, nil, unsafe.Pointer(&uid)), api.HIPDNN_STATUS_BAD_PARAM)
	wantCode(t, "unknown attribute", GetAttribute(tn, api.HIPDNN_ATTR_POINTWISE_MODE, api.HIPDNN_TYPE_INT64, 1, nil, unsafe.Pointer(&uid)), api.HIPDNN_STATUS_NOT_SUPPORTED)
	// optional unset: ragged offset reads back with count 0
	n = 99
	must(t, "ragged unset", GetAttribute(tn, api.HIPDNN_ATTR_TENSOR_RAGGED_OFFSET_DESC, api.HIPDNN_TYPE_INT64, 1, &n, unsafe.Pointer(&uid)))
	if n != 0 {
		t.Fatalf("unset ragged offset count = %d", n)
	}
}

func TestTensorMisuse(t *testing.T) {
	o := mustCreate(t, api.HIPDNN_BACKEND_TENSOR_DESCRIPTOR)
	wantErr(t, "get before finalize", GetAttribute(o, api.HIPDNN_ATTR_TENSOR_UNIQUE_ID, api.HIPDNN_TYPE_INT64, 0, new(int64), nil),
		api.HIPDNN_STATUS_NOT_INITIALIZED, "TensorDescriptor::getAttribute() failed: Not finalized.")
	wantErr(t, "finalize with only uid", func() error { _ = setI64(o, api.HIPDNN_ATTR_TENSOR_UNIQUE_ID, 1); return Finalize(o) }(),
		api.HIPDNN_STATUS_BAD_PARAM, "required attribute(s) not set: HIPDNN_ATTR_TENSOR_DATA_TYPE, HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_ATTR_TENSOR_STRIDES")
	wantErr(t, "null array", SetAttribute(o, api.HIPDNN_ATTR_TENSOR_UNIQUE_ID, api.HIPDNN_TYPE_INT64, 1, nil),
		api.HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "arrayOfElements is NULL for HIPDNN_ATTR_TENSOR_UNIQUE_ID")
	v := int64(1)
	wantErr(t, "count 2 on a scalar", SetAttribute(o, api.HIPDNN_ATTR_TENSOR_UNIQUE_ID, api.HIPDNN_TYPE_INT64, 2, unsafe.Pointer(&v)),
		api.HIPDNN_STATUS_BAD_PARAM, "HIPDNN_ATTR_TENSOR_UNIQUE_ID takes exactly 1 element(s), got 2")
	wantErr(t, "empty dims", SetAttribute(o, api.HIPDNN_ATTR_TENSOR_DIMENSIONS, api.HIPDNN_TYPE_INT64, 0, unsafe.Pointer(&v)),
		api.HIPDNN_STATUS_BAD_PARAM, "HIPDNN_ATTR_TENSOR_DIMENSIONS takes at least 1 element(s), got 0")
	wantErr(t, "read-only IS_BY_VALUE", setBool(o, api.HIPDNN_ATTR_TENSOR_IS_BY_VALUE, true),
		api.HIPDNN_STATUS_NOT_SUPPORTED, "attribute HIPDNN_ATTR_TENSOR_IS_BY_VALUE is read-only")
	wantErr(t, "bad data type", setI32(o, api.HIPDNN_ATTR_TENSOR_DATA_TYPE, api.HIPDNN_TYPE_DATA_TYPE, 99),
		api.HIPDNN_STATUS_BAD_PARAM, "99 is not a hipdnnDataType_t")
	must(t, "dims", setI64(o, api.HIPDNN_ATTR_TENSOR_DIMENSIONS, 2, 0))
	must(t, "strides", setI64(o, api.HIPDNN_ATTR_TENSOR_STRIDES, 1, 1))
	must(t, "dtype", setI32(o, api.HIPDNN_ATTR_TENSOR_DATA_TYPE, api.HIPDNN_TYPE_DATA_TYPE, int32(api.HIPDNN_DATA_HALF)))
	wantErr(t, "zero dimension", Finalize(o), api.HIPDNN_STATUS_BAD_PARAM, "dimension 1 is 0; dimensions must be positive")
	must(t, "dims", setI64(o, api.HIPDNN_ATTR_TENSOR_DIMENSIONS, 2, 2, 2))
	wantErr(t, "rank mismatch", Finalize(o), api.HIPDNN_STATUS_BAD_PARAM, "TensorDescriptor::finalize() failed: 3 dimensions but 2 strides")
}

func TestTensorValue(t *testing.T) {
	o := mustCreate(t, api.HIPDNN_BACKEND_TENSOR_DESCRIPTOR)
	f := float32(0.5)
	wantCode(t, "value before data type", SetAttribute(o, api.HIPDNN_ATTR_TENSOR_VALUE_EXT, api.HIPDNN_TYPE_CHAR, 4, unsafe.Pointer(&f)), api.HIPDNN_STATUS_BAD_PARAM)
	must(t, "dtype", setI32(o, api.HIPDNN_ATTR_TENSOR_DATA_TYPE, api.HIPDNN_TYPE_DATA_TYPE, int32(api.HIPDNN_DATA_FLOAT)))
	wantCode(t, "wrong byte count", SetAttribute(o, api.HIPDNN_ATTR_TENSOR_VALUE_EXT, api.HIPDNN_TYPE_CHAR, 8, unsafe.Pointer(&f)), api.HIPDNN_STATUS_BAD_PARAM)
	wantCode(t, "FLOAT type", SetAttribute(o, api.HIPDNN_ATTR_TENSOR_VALUE_EXT, api.HIPDNN_TYPE_FLOAT, 1, unsafe.Pointer(&f)), api.HIPDNN_STATUS_BAD_PARAM)
	must(t, "value", SetAttribute(o, api.HIPDNN_ATTR_TENSOR_VALUE_EXT, api.HIPDNN_TYPE_CHAR, 4, unsafe.Pointer(&f)))
	f = 2 // the backend copied the bytes
	must(t, "dims", setI64(o, api.HIPDNN_ATTR_TENSOR_DIMENSIONS, 1))
	must(t, "strides", setI64(o, api.HIPDNN_ATTR_TENSOR_STRIDES, 1))
	must(t, "finalize", Finalize(o))
	var n int64
	var got float32
	must(t, "size", GetAttribute(o, api.HIPDNN_ATTR_TENSOR_VALUE_EXT, api.HIPDNN_TYPE_CHAR, 0, &n, nil))
	if n != 4 {
		t.Fatalf("value size = %d", n)
	}
	must(t, "get", GetAttribute(o, api.HIPDNN_ATTR_TENSOR_CONSTANT_VALUE, api.HIPDNN_TYPE_CHAR, 4, &n, unsafe.Pointer(&got)))
	if got != 0.5 || n != 4 {
		t.Fatalf("value = %v (n=%d)", got, n)
	}
	var byValue byte
	must(t, "is by value", GetAttribute(o, api.HIPDNN_ATTR_TENSOR_IS_BY_VALUE, api.HIPDNN_TYPE_BOOLEAN, 1, nil, unsafe.Pointer(&byValue)))
	if byValue != 1 {
		t.Fatal("IS_BY_VALUE false after VALUE_EXT")
	}
	w, err := o.(*Tensor).Wire()
	must(t, "wire", err)
	if w.Value == nil || w.Value.F != 0.5 {
		t.Fatalf("wire value = %+v", w.Value)
	}
}
