package descriptors

import (
	"encoding/binary"
	"math"
	"strings"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/floatfmt"
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
		return wire.TensorValue{Kind: wire.ValueFloat16, F: float64(floatfmt.HalfToFloat(le.Uint16(b)))}
	case api.HIPDNN_DATA_BFLOAT16:
		return wire.TensorValue{Kind: wire.ValueBFloat16, F: float64(floatfmt.Bfloat16ToFloat(le.Uint16(b)))}
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
		return le.AppendUint16(nil, floatfmt.Half(f)), true
	case api.HIPDNN_DATA_BFLOAT16:
		return le.AppendUint16(nil, floatfmt.Bfloat16(f)), true
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
