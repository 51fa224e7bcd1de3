package descriptors

import (
	"encoding/binary"
	"math"
	"strings"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/wire"
)

// cToWireDataType pairs the C data type enum with the flatbuffer DataType enum by name
// (HIPDNN_DATA_FP8_E4M3 ~ FP8_E4M3, an _EXT suffix dropped): they number the same types
// differently (C: FLOAT 0, DOUBLE 1, HALF 2 …; wire: UNSET 0, FLOAT 1, HALF 2, BFLOAT16 3 …). The
// names come from the header (api) and the schema (wire); a C type the schema lacks
// (HIPDNN_DATA_BOOLEAN) has no wire type.
var cToWireDataType = func() map[api.DataType]wire.DataType {
	m := map[api.DataType]wire.DataType{}
	for name, v := range cEnum[api.DataType]().names {
		short := strings.TrimSuffix(strings.TrimPrefix(name, "HIPDNN_DATA_"), "_EXT")
		if w, ok := wire.DataTypeNamed(short); ok && w != wire.DataTypeUnset {
			m[api.DataType(v)] = w
		}
	}
	return m
}()

var wireToCDataType = func() map[wire.DataType]api.DataType {
	m := make(map[wire.DataType]api.DataType, len(cToWireDataType))
	for c, w := range cToWireDataType {
		m[w] = c
	}
	return m
}()

// WireDataType maps a C data type to the flatbuffer enum; ok is false for types the wire
// format cannot carry (HIPDNN_DATA_BOOLEAN) and for undeclared values.
func WireDataType(dt api.DataType) (wire.DataType, bool) {
	w, ok := cToWireDataType[dt]
	return w, ok
}

// CDataType maps a flatbuffer data type to the C enum; ok is false for UNSET.
func CDataType(dt wire.DataType) (api.DataType, bool) {
	c, ok := wireToCDataType[dt]
	return c, ok
}

// scalarToWire turns the raw bytes of a VALUE_EXT scalar into the TensorValue union member
// the frontend writes for that type. INT8 and UINT8 have no member of their own and travel as
// Int32Value; the tensor's data type says how to read them back.
func scalarToWire(dt api.DataType, b []byte) wire.TensorValue {
	le := binary.LittleEndian
	switch dt {
	case api.HIPDNN_DATA_FLOAT:
		return wire.TensorValue{Kind: wire.ValueFloat32, F: float64(math.Float32frombits(le.Uint32(b)))}
	case api.HIPDNN_DATA_DOUBLE:
		return wire.TensorValue{Kind: wire.ValueFloat64, F: math.Float64frombits(le.Uint64(b))}
	case api.HIPDNN_DATA_HALF:
		return wire.TensorValue{Kind: wire.ValueFloat16, F: float64(halfToFloat(le.Uint16(b)))}
	case api.HIPDNN_DATA_BFLOAT16:
		return wire.TensorValue{Kind: wire.ValueBFloat16, F: float64(math.Float32frombits(uint32(le.Uint16(b)) << 16))}
	case api.HIPDNN_DATA_INT32:
		return wire.TensorValue{Kind: wire.ValueInt32, I: int64(int32(le.Uint32(b)))}
	case api.HIPDNN_DATA_INT64:
		return wire.TensorValue{Kind: wire.ValueInt64, I: int64(le.Uint64(b))}
	case api.HIPDNN_DATA_BOOLEAN:
		return wire.TensorValue{Kind: wire.ValueBool, B: b[0] != 0}
	case api.HIPDNN_DATA_INT8:
		return wire.TensorValue{Kind: wire.ValueInt32, I: int64(int8(b[0]))}
	case api.HIPDNN_DATA_UINT8:
		return wire.TensorValue{Kind: wire.ValueInt32, I: int64(b[0])}
	}
	// The four FP8 formats: the raw byte.
	return wire.TensorValue{Kind: wire.ValueFloat8, I: int64(b[0])}
}

// scalarFromWire turns a TensorValue back into the raw bytes of the tensor's C data type
// (the form VALUE_EXT is read in). ok is false when the pair cannot be represented.
func scalarFromWire(dt api.DataType, v *wire.TensorValue) ([]byte, bool) {
	le := binary.LittleEndian
	f := v.F
	i := v.I
	switch v.Kind {
	case wire.ValueInt32, wire.ValueInt64, wire.ValueFloat8:
		f = float64(v.I)
	case wire.ValueBool:
		f, i = 0, 0
		if v.B {
			f, i = 1, 1
		}
	default:
		i = int64(v.F)
	}
	switch dt {
	case api.HIPDNN_DATA_FLOAT:
		return le.AppendUint32(nil, math.Float32bits(float32(f))), true
	case api.HIPDNN_DATA_DOUBLE:
		return le.AppendUint64(nil, math.Float64bits(f)), true
	case api.HIPDNN_DATA_HALF:
		return le.AppendUint16(nil, floatToHalf(float32(f))), true
	case api.HIPDNN_DATA_BFLOAT16:
		return le.AppendUint16(nil, floatToBF16(float32(f))), true
	case api.HIPDNN_DATA_INT32:
		return le.AppendUint32(nil, uint32(int32(i))), true
	case api.HIPDNN_DATA_INT64:
		return le.AppendUint64(nil, uint64(i)), true
	case api.HIPDNN_DATA_BOOLEAN, api.HIPDNN_DATA_INT8, api.HIPDNN_DATA_UINT8,
		api.HIPDNN_DATA_FP8_E4M3, api.HIPDNN_DATA_FP8_E5M2,
		api.HIPDNN_DATA_FP8_E4M3_FNUZ, api.HIPDNN_DATA_FP8_E5M2_FNUZ:
		return []byte{byte(i)}, true
	}
	return nil, false
}

// halfToFloat converts IEEE binary16 bits to float32.
func halfToFloat(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h) & 0x3ff
	switch {
	case exp == 0 && mant == 0:
		return math.Float32frombits(sign)
	case exp == 0: // subnormal: normalise
		e := uint32(127 - 15 + 1)
		for mant&0x400 == 0 {
			mant <<= 1
			e--
		}
		mant &= 0x3ff
		return math.Float32frombits(sign | e<<23 | mant<<13)
	case exp == 0x1f:
		return math.Float32frombits(sign | 0xff<<23 | mant<<13)
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | mant<<13)
}

// floatToHalf converts float32 to binary16 with round-to-nearest-even.
func floatToHalf(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int32(b>>23) & 0xff
	mant := b & 0x7fffff
	if exp == 0xff { // Inf / NaN
		if mant != 0 {
			return sign | 0x7e00
		}
		return sign | 0x7c00
	}
	e := exp - 127 + 15
	if e >= 0x1f {
		return sign | 0x7c00
	}
	if e <= 0 {
		if e < -10 {
			return sign
		}
		mant |= 0x800000
		shift := uint32(14 - e)
		half := mant >> shift
		rem := mant & (1<<shift - 1)
		mid := uint32(1) << (shift - 1)
		if rem > mid || rem == mid && half&1 == 1 {
			half++
		}
		return sign | uint16(half)
	}
	half := uint32(e)<<10 | mant>>13
	rem := mant & 0x1fff
	if rem > 0x1000 || rem == 0x1000 && half&1 == 1 {
		half++
	}
	return sign | uint16(half)
}

// floatToBF16 converts float32 to bfloat16 with round-to-nearest-even.
func floatToBF16(f float32) uint16 {
	b := math.Float32bits(f)
	if b&0x7fffffff > 0x7f800000 {
		return uint16(b>>16) | 0x40
	}
	b += 0x7fff + (b>>16)&1
	return uint16(b >> 16)
}
