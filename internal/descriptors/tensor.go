package descriptors

import (
	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/status"
	"github.com/hipdnn-go/backend/internal/wire"
)

// Tensor is HIPDNN_BACKEND_TENSOR_DESCRIPTOR.
type Tensor struct {
	Header
	scalar    []byte // VALUE_EXT: the scalar's raw bytes, nil when unset
	raggedUID *int64 // RAGGED_OFFSET_DESC given as an INT64 UID
	raggedBy  Object // RAGGED_OFFSET_DESC given as a tensor descriptor (newest frontends)
}

var _ = register(&KindSpec{
	Kind:  api.HIPDNN_BACKEND_TENSOR_DESCRIPTOR,
	Class: "TensorDescriptor",
	New:   func(k *KindSpec) Object { t := &Tensor{}; k.init(&t.Header); return t },
	Attrs: []*Attr{
		{Name: api.HIPDNN_ATTR_TENSOR_UNIQUE_ID, Type: api.HIPDNN_TYPE_INT64, Min: 1, Max: 1, Settable: true, Gettable: true,
			Default: int64Value(0)},
		{Name: api.HIPDNN_ATTR_TENSOR_NAME_EXT, Type: api.HIPDNN_TYPE_CHAR, Min: 0, Max: -1, Settable: true, Gettable: true},
		{Name: api.HIPDNN_ATTR_TENSOR_DATA_TYPE, Type: api.HIPDNN_TYPE_DATA_TYPE, Min: 1, Max: 1, Settable: true, Gettable: true, Required: true, Validate: validDataType},
		{Name: api.HIPDNN_ATTR_TENSOR_DIMENSIONS, Type: api.HIPDNN_TYPE_INT64, Min: 1, Max: -1, Settable: true, Gettable: true, Required: true},
		{Name: api.HIPDNN_ATTR_TENSOR_STRIDES, Type: api.HIPDNN_TYPE_INT64, Min: 1, Max: -1, Settable: true, Gettable: true, Required: true},
		{Name: api.HIPDNN_ATTR_TENSOR_IS_VIRTUAL, Type: api.HIPDNN_TYPE_BOOLEAN, Min: 1, Max: 1, Settable: true, Gettable: true,
			Default: boolValue(false)},
		{Name: api.HIPDNN_ATTR_TENSOR_VALUE_EXT, Type: api.HIPDNN_TYPE_CHAR, Min: 1, Max: 8, Settable: true, Gettable: true, RawBytes: true,
			OnSet: setTensorValue, Compute: getTensorValue},
		{Name: api.HIPDNN_ATTR_TENSOR_IS_BY_VALUE, Type: api.HIPDNN_TYPE_BOOLEAN, Max: 1, Gettable: true,
			Compute: func(o Object) (Value, error) { return boolValue(o.(*Tensor).scalar != nil), nil }},
		{Name: api.HIPDNN_ATTR_TENSOR_IS_RUNTIME_PASS_BY_VALUE_EXT, Type: api.HIPDNN_TYPE_BOOLEAN, Min: 1, Max: 1, Settable: true, Gettable: true,
			Default: boolValue(false)},
		{Name: api.HIPDNN_ATTR_TENSOR_BYTE_ALIGNMENT, Type: api.HIPDNN_TYPE_INT64, Min: 1, Max: 1, Settable: true, Gettable: true,
			Validate: positiveScalar},
		// The UID of a ragged-offset tensor: an INT64 in the older generation, a tensor
		// descriptor in the newest frontend. Both are accepted; reads give the UID.
		{Name: api.HIPDNN_ATTR_TENSOR_RAGGED_OFFSET_DESC, Type: api.HIPDNN_TYPE_INT64, Alt: []api.AttributeType{api.HIPDNN_TYPE_BACKEND_DESCRIPTOR},
			Min: 1, Max: 1, Settable: true, Gettable: true, DescKinds: []api.DescriptorType{api.HIPDNN_BACKEND_TENSOR_DESCRIPTOR},
			OnSet: setRaggedOffset, Compute: getRaggedOffset},
	},
	Finalize: finalizeTensor,
})

func boolValue(b bool) Value {
	v := Value{Set: true, Type: api.HIPDNN_TYPE_BOOLEAN}
	if b {
		v.I = 1
	}
	return v
}

func int64Value(x int64) Value { return Value{Set: true, Type: api.HIPDNN_TYPE_INT64, I: x} }

func validDataType(o Object, v *Value) error {
	if !api.DataType(v.I).IsValid() {
		return stepf(status.BadParam, "%d is not a hipdnnDataType_t", v.I)
	}
	return nil
}

func positiveScalar(o Object, v *Value) error {
	if v.I <= 0 {
		return stepf(status.BadParam, "value must be positive, got %d", v.I)
	}
	return nil
}

// scalarByteSize is the byte size a pass-by-value scalar of a data type must have;
// 0 for the types AMD does not accept as values.
func scalarByteSize(dt api.DataType) int {
	switch dt {
	case api.HIPDNN_DATA_DOUBLE, api.HIPDNN_DATA_INT64:
		return 8
	case api.HIPDNN_DATA_FLOAT, api.HIPDNN_DATA_INT32:
		return 4
	case api.HIPDNN_DATA_HALF, api.HIPDNN_DATA_BFLOAT16:
		return 2
	case api.HIPDNN_DATA_BOOLEAN, api.HIPDNN_DATA_UINT8, api.HIPDNN_DATA_INT8,
		api.HIPDNN_DATA_FP8_E4M3, api.HIPDNN_DATA_FP8_E5M2,
		api.HIPDNN_DATA_FP8_E4M3_FNUZ, api.HIPDNN_DATA_FP8_E5M2_FNUZ:
		return 1
	}
	return 0
}

// setTensorValue stores VALUE_EXT: raw bytes whose count must equal the byte size of the
// tensor's data type, which must be set first.
func setTensorValue(o Object, v *Value) error {
	t := o.(*Tensor)
	dt := t.value(api.HIPDNN_ATTR_TENSOR_DATA_TYPE)
	if !dt.Set {
		return stepf(status.BadParam, "set HIPDNN_ATTR_TENSOR_DATA_TYPE before HIPDNN_ATTR_TENSOR_VALUE_EXT")
	}
	want := scalarByteSize(api.DataType(dt.I))
	if want == 0 {
		return stepf(status.BadParam, "%v tensors cannot carry a pass-by-value scalar", api.DataType(dt.I))
	}
	if len(v.Bytes) != want {
		return stepf(status.BadParam, "a %v value is %d bytes, got %d", api.DataType(dt.I), want, len(v.Bytes))
	}
	t.scalar = append([]byte(nil), v.Bytes...)
	return nil
}

func getTensorValue(o Object) (Value, error) {
	t := o.(*Tensor)
	if t.scalar == nil {
		return Value{}, stepf(status.BadParam, "HIPDNN_ATTR_TENSOR_VALUE_EXT was never set")
	}
	return Value{Set: true, Type: api.HIPDNN_TYPE_CHAR, Bytes: t.scalar}, nil
}

func setRaggedOffset(o Object, v *Value) error {
	t := o.(*Tensor)
	t.raggedBy, t.raggedUID = nil, nil
	if v.Type == api.HIPDNN_TYPE_BACKEND_DESCRIPTOR {
		t.raggedBy = v.Objs[0]
		return nil
	}
	uid := v.I
	t.raggedUID = &uid
	return nil
}

func getRaggedOffset(o Object) (Value, error) {
	t := o.(*Tensor)
	switch {
	case t.raggedBy != nil:
		return int64Value(t.raggedBy.(*Tensor).UID()), nil
	case t.raggedUID != nil:
		return int64Value(*t.raggedUID), nil
	}
	return Value{}, nil
}

// UID returns the tensor's unique id (0 when never set, as in AMD's backend).
func (t *Tensor) UID() int64 { return t.value(api.HIPDNN_ATTR_TENSOR_UNIQUE_ID).I }

func finalizeTensor(o Object) error {
	t := o.(*Tensor)
	dims := t.value(api.HIPDNN_ATTR_TENSOR_DIMENSIONS).Ints
	strides := t.value(api.HIPDNN_ATTR_TENSOR_STRIDES).Ints
	if len(dims) != len(strides) {
		return stepf(status.BadParam, "%d dimensions but %d strides", len(dims), len(strides))
	}
	for i, d := range dims {
		if d <= 0 {
			return stepf(status.BadParam, "dimension %d is %d; dimensions must be positive", i, d)
		}
		if strides[i] <= 0 {
			return stepf(status.BadParam, "stride %d is %d; strides must be positive", i, strides[i])
		}
	}
	if t.scalar != nil && t.value(api.HIPDNN_ATTR_TENSOR_IS_RUNTIME_PASS_BY_VALUE_EXT).I != 0 {
		return stepf(status.BadParam, "a tensor is either a constant (VALUE_EXT) or a runtime pass-by-value scalar, not both")
	}
	return nil
}

// Wire converts a finalized tensor to the graph model. A data type the wire format cannot
// carry (HIPDNN_DATA_BOOLEAN) is NOT_SUPPORTED.
func (t *Tensor) Wire() (wire.Tensor, error) {
	dt, ok := WireDataType(t.DataType())
	if !ok {
		return wire.Tensor{}, status.NotSupported("tensor uid %d: data type %v cannot be serialized (the graph schema has no such DataType)", t.UID(), t.DataType())
	}
	w := wire.Tensor{
		UID:                    t.UID(),
		Name:                   t.value(api.HIPDNN_ATTR_TENSOR_NAME_EXT).Str(),
		DataType:               dt,
		Dims:                   append([]int64(nil), t.value(api.HIPDNN_ATTR_TENSOR_DIMENSIONS).Ints...),
		Strides:                append([]int64(nil), t.value(api.HIPDNN_ATTR_TENSOR_STRIDES).Ints...),
		Virtual:                t.value(api.HIPDNN_ATTR_TENSOR_IS_VIRTUAL).I != 0,
		RuntimePassByValue:     t.value(api.HIPDNN_ATTR_TENSOR_IS_RUNTIME_PASS_BY_VALUE_EXT).I != 0,
		Alignment:              16,
		RaggedOffsetMultiplier: 1,
	}
	if a := t.value(api.HIPDNN_ATTR_TENSOR_BYTE_ALIGNMENT); a.Set {
		w.Alignment = a.I
	}
	if r, _ := getRaggedOffset(t); r.Set {
		uid := r.I
		w.RaggedOffsetUID = &uid
	}
	if t.scalar != nil {
		tv := scalarToWire(t.DataType(), t.scalar)
		w.Value = &tv
	}
	return w, nil
}
