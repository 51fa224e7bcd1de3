// Hand-written (not flatc output): the TensorAttributes.value union.
//
// TensorValue's members are structs. A struct union member is written out of
// line (aligned to the struct's alignment, no length prefix) and the union
// value slot holds a uoffset to it; the tag sits in the slot before. flatc
// cannot generate Go for this, so the accessors and builders live here.

package fb

import (
	"math"

	flatbuffers "github.com/google/flatbuffers/go"
)

// Vtable byte offsets of the TensorAttributes union slots.
const (
	tensorAttributesVTValueType flatbuffers.VOffsetT = 4 + 2*6 // slot 6, generated ValueType()
	tensorAttributesVTValue     flatbuffers.VOffsetT = 4 + 2*7 // slot 7
)

// TensorValueSize returns the byte size of the struct a TensorValue tag
// selects (which is also its alignment), or 0 for NONE and unknown tags.
func TensorValueSize(t TensorValue) int {
	switch t {
	case TensorValueFloat32Value, TensorValueFloat16Value, TensorValueBFloat16Value, TensorValueInt32Value:
		return 4
	case TensorValueFloat64Value, TensorValueInt64Value:
		return 8
	case TensorValueFloat8Value, TensorValueBoolValue:
		return 1
	}
	return 0
}

// valueStruct returns the position of the out-of-line struct when the tag is
// want and the whole struct lies inside the buffer.
func (rcv *TensorAttributes) valueStruct(want TensorValue) (flatbuffers.UOffsetT, bool) {
	tp, ok := fieldPos(&rcv._tab, tensorAttributesVTValueType, 1)
	if !ok || TensorValue(rcv._tab.Bytes[tp]) != want {
		return 0, false
	}
	size := TensorValueSize(want)
	if size == 0 {
		return 0, false
	}
	p, ok := indirectPos(&rcv._tab, tensorAttributesVTValue, uint64(size))
	return flatbuffers.UOffsetT(p), ok
}

// Value positions obj at the out-of-line struct of the union value, like a
// flatc-generated table-union accessor does. It returns false when the value
// is absent, the tag is NONE or unknown, or the struct lies outside the buffer.
func (rcv *TensorAttributes) Value(obj *flatbuffers.Table) bool {
	tp, ok := fieldPos(&rcv._tab, tensorAttributesVTValueType, 1)
	if !ok {
		return false
	}
	p, ok := rcv.valueStruct(TensorValue(rcv._tab.Bytes[tp]))
	if !ok {
		return false
	}
	obj.Bytes = rcv._tab.Bytes
	obj.Pos = p
	return true
}

// ValueAsFloat32Value returns the value when its tag is Float32Value, else nil.
// obj may be nil (one is allocated then).
func (rcv *TensorAttributes) ValueAsFloat32Value(obj *Float32Value) *Float32Value {
	p, ok := rcv.valueStruct(TensorValueFloat32Value)
	if !ok {
		return nil
	}
	if obj == nil {
		obj = new(Float32Value)
	}
	obj.Init(rcv._tab.Bytes, p)
	return obj
}

// ValueAsFloat16Value returns the value when its tag is Float16Value, else nil.
func (rcv *TensorAttributes) ValueAsFloat16Value(obj *Float16Value) *Float16Value {
	p, ok := rcv.valueStruct(TensorValueFloat16Value)
	if !ok {
		return nil
	}
	if obj == nil {
		obj = new(Float16Value)
	}
	obj.Init(rcv._tab.Bytes, p)
	return obj
}

// ValueAsBFloat16Value returns the value when its tag is BFloat16Value, else nil.
func (rcv *TensorAttributes) ValueAsBFloat16Value(obj *BFloat16Value) *BFloat16Value {
	p, ok := rcv.valueStruct(TensorValueBFloat16Value)
	if !ok {
		return nil
	}
	if obj == nil {
		obj = new(BFloat16Value)
	}
	obj.Init(rcv._tab.Bytes, p)
	return obj
}

// ValueAsFloat8Value returns the value when its tag is Float8Value, else nil.
func (rcv *TensorAttributes) ValueAsFloat8Value(obj *Float8Value) *Float8Value {
	p, ok := rcv.valueStruct(TensorValueFloat8Value)
	if !ok {
		return nil
	}
	if obj == nil {
		obj = new(Float8Value)
	}
	obj.Init(rcv._tab.Bytes, p)
	return obj
}

// ValueAsInt32Value returns the value when its tag is Int32Value, else nil.
func (rcv *TensorAttributes) ValueAsInt32Value(obj *Int32Value) *Int32Value {
	p, ok := rcv.valueStruct(TensorValueInt32Value)
	if !ok {
		return nil
	}
	if obj == nil {
		obj = new(Int32Value)
	}
	obj.Init(rcv._tab.Bytes, p)
	return obj
}

// ValueAsFloat64Value returns the value when its tag is Float64Value, else nil.
func (rcv *TensorAttributes) ValueAsFloat64Value(obj *Float64Value) *Float64Value {
	p, ok := rcv.valueStruct(TensorValueFloat64Value)
	if !ok {
		return nil
	}
	if obj == nil {
		obj = new(Float64Value)
	}
	obj.Init(rcv._tab.Bytes, p)
	return obj
}

// ValueAsInt64Value returns the value when its tag is Int64Value, else nil.
func (rcv *TensorAttributes) ValueAsInt64Value(obj *Int64Value) *Int64Value {
	p, ok := rcv.valueStruct(TensorValueInt64Value)
	if !ok {
		return nil
	}
	if obj == nil {
		obj = new(Int64Value)
	}
	obj.Init(rcv._tab.Bytes, p)
	return obj
}

// ValueAsBoolValue returns the value when its tag is BoolValue, else nil.
func (rcv *TensorAttributes) ValueAsBoolValue(obj *BoolValue) *BoolValue {
	p, ok := rcv.valueStruct(TensorValueBoolValue)
	if !ok {
		return nil
	}
	if obj == nil {
		obj = new(BoolValue)
	}
	obj.Init(rcv._tab.Bytes, p)
	return obj
}

// TensorValueScalar is a decoded TensorValue: Type selects the member and
// Bits holds its payload.
//
//	Float32Value, Float16Value, BFloat16Value: math.Float32bits of the stored float
//	Float64Value: math.Float64bits
//	Int32Value, Int64Value: the integer, sign-extended to 64 bits
//	Float8Value: the stored byte
//	BoolValue: 0 or 1
type TensorValueScalar struct {
	Type TensorValue
	Bits uint64
}

// Float32 returns the payload of a Float32/Float16/BFloat16 value.
func (s TensorValueScalar) Float32() float32 { return math.Float32frombits(uint32(s.Bits)) }

// Float64 returns the payload of a Float64Value.
func (s TensorValueScalar) Float64() float64 { return math.Float64frombits(s.Bits) }

// Int64 returns the payload of an Int32Value or Int64Value.
func (s TensorValueScalar) Int64() int64 { return int64(s.Bits) }

// Byte returns the payload of a Float8Value.
func (s TensorValueScalar) Byte() uint8 { return uint8(s.Bits) }

// Bool returns the payload of a BoolValue.
func (s TensorValueScalar) Bool() bool { return s.Bits != 0 }

// Float32Scalar, … build a TensorValueScalar of the named member.
func Float32Scalar(v float32) TensorValueScalar {
	return TensorValueScalar{TensorValueFloat32Value, uint64(math.Float32bits(v))}
}
func Float16Scalar(v float32) TensorValueScalar {
	return TensorValueScalar{TensorValueFloat16Value, uint64(math.Float32bits(v))}
}
func BFloat16Scalar(v float32) TensorValueScalar {
	return TensorValueScalar{TensorValueBFloat16Value, uint64(math.Float32bits(v))}
}
func Float8Scalar(v uint8) TensorValueScalar {
	return TensorValueScalar{TensorValueFloat8Value, uint64(v)}
}
func Int32Scalar(v int32) TensorValueScalar {
	return TensorValueScalar{TensorValueInt32Value, uint64(int64(v))}
}
func Float64Scalar(v float64) TensorValueScalar {
	return TensorValueScalar{TensorValueFloat64Value, math.Float64bits(v)}
}
func Int64Scalar(v int64) TensorValueScalar {
	return TensorValueScalar{TensorValueInt64Value, uint64(v)}
}
func BoolScalar(v bool) TensorValueScalar {
	s := TensorValueScalar{Type: TensorValueBoolValue}
	if v {
		s.Bits = 1
	}
	return s
}

// ValueScalar decodes the union value. ok is false when it is absent, NONE,
// of an unknown tag, or out of bounds.
func (rcv *TensorAttributes) ValueScalar() (s TensorValueScalar, ok bool) {
	tp, ok := fieldPos(&rcv._tab, tensorAttributesVTValueType, 1)
	if !ok {
		return s, false
	}
	t := TensorValue(rcv._tab.Bytes[tp])
	p, ok := rcv.valueStruct(t)
	if !ok {
		return s, false
	}
	tab := &rcv._tab
	s.Type = t
	switch t {
	case TensorValueFloat32Value, TensorValueFloat16Value, TensorValueBFloat16Value:
		s.Bits = uint64(tab.GetUint32(p))
	case TensorValueFloat64Value:
		s.Bits = tab.GetUint64(p)
	case TensorValueInt32Value:
		s.Bits = uint64(int64(tab.GetInt32(p)))
	case TensorValueInt64Value:
		s.Bits = tab.GetUint64(p)
	case TensorValueFloat8Value:
		s.Bits = uint64(tab.GetByte(p))
	case TensorValueBoolValue:
		if tab.GetBool(p) {
			s.Bits = 1
		}
	}
	return s, true
}

// CreateTensorValue writes the struct of v out of line, as C++'s
// FlatBufferBuilder::CreateStruct does for a struct union member, and returns
// the tag and the offset to store with TensorAttributesAddValueType and
// TensorAttributesAddValue. Call it before TensorAttributesStart. For
// TensorValueNONE (or an unknown tag) it writes nothing and returns (NONE, 0):
// then add neither slot.
func CreateTensorValue(b *flatbuffers.Builder, v TensorValueScalar) (TensorValue, flatbuffers.UOffsetT) {
	switch v.Type {
	case TensorValueFloat32Value:
		return v.Type, CreateFloat32Value(b, v.Float32())
	case TensorValueFloat16Value:
		return v.Type, CreateFloat16Value(b, v.Float32())
	case TensorValueBFloat16Value:
		return v.Type, CreateBFloat16Value(b, v.Float32())
	case TensorValueFloat8Value:
		return v.Type, CreateFloat8Value(b, v.Byte())
	case TensorValueInt32Value:
		return v.Type, CreateInt32Value(b, int32(v.Int64()))
	case TensorValueFloat64Value:
		return v.Type, CreateFloat64Value(b, v.Float64())
	case TensorValueInt64Value:
		return v.Type, CreateInt64Value(b, v.Int64())
	case TensorValueBoolValue:
		return v.Type, CreateBoolValue(b, v.Bool())
	}
	return TensorValueNONE, 0
}

// TensorAttributesAddValue stores the offset of an out-of-line TensorValue
// struct (from CreateTensorValue or a generated Create<Member> called before
// TensorAttributesStart) in slot 7. Pair it with TensorAttributesAddValueType.
func TensorAttributesAddValue(builder *flatbuffers.Builder, value flatbuffers.UOffsetT) {
	builder.PrependUOffsetTSlot(7, value, 0)
}
