package wire

import "strings"

// DataType is the flatbuffer DataType enum (data_types.fbs, stored as a signed
// byte). Values outside the named constants can arrive from a newer writer;
// they survive DecodeGraph and EncodeGraph unchanged and are reported by
// Graph.CheckSupported.
type DataType int8

// DataType values, numbered exactly as on the wire.
const (
	DataTypeUnset       DataType = 0
	DataTypeFloat       DataType = 1
	DataTypeHalf        DataType = 2
	DataTypeBFloat16    DataType = 3
	DataTypeDouble      DataType = 4
	DataTypeUint8       DataType = 5
	DataTypeInt32       DataType = 6
	DataTypeInt8        DataType = 7
	DataTypeFP8E4M3     DataType = 8
	DataTypeFP8E5M2     DataType = 9
	DataTypeFP8E8M0     DataType = 10
	DataTypeFP4E2M1     DataType = 11
	DataTypeFP6E2M3     DataType = 12
	DataTypeFP6E3M2     DataType = 13
	DataTypeInt4        DataType = 14
	DataTypeInt64       DataType = 15
	DataTypeFP8E4M3FNUZ DataType = 16
	DataTypeFP8E5M2FNUZ DataType = 17
)

// dataTypeSize is indexed by DataType: the size of one element in bytes (0 for UNSET and the
// sub-byte types). Values and schema names are the schema's (dataTypeDomain, generated from
// data_types.fbs); the sizes are the one fact the schema does not state.
var dataTypeSize = [...]int{
	DataTypeUnset:       0,
	DataTypeFloat:       4,
	DataTypeHalf:        2,
	DataTypeBFloat16:    2,
	DataTypeDouble:      8,
	DataTypeUint8:       1,
	DataTypeInt32:       4,
	DataTypeInt8:        1,
	DataTypeFP8E4M3:     1,
	DataTypeFP8E5M2:     1,
	DataTypeFP8E8M0:     1,
	DataTypeFP4E2M1:     0,
	DataTypeFP6E2M3:     0,
	DataTypeFP6E3M2:     0,
	DataTypeInt4:        0,
	DataTypeInt64:       8,
	DataTypeFP8E4M3FNUZ: 1,
	DataTypeFP8E5M2FNUZ: 1,
}

// dataTypeJSONNames is indexed by DataType: AMD's JSON spelling, the schema name in lower case.
var dataTypeJSONNames = func() []string {
	out := make([]string, len(dataTypeDomain.Values))
	for i, v := range dataTypeDomain.Values {
		out[i] = strings.ToLower(v.Name)
	}
	return out
}()

// DataTypeNamed returns the value the schema names name ("FP8_E4M3").
func DataTypeNamed(name string) (DataType, bool) {
	if v := dataTypeDomain.ByName(name); v != nil {
		return DataType(v.Value), true
	}
	return 0, false
}

// Known reports whether d is one of the named DataType values (the schema's, dense from 0).
func (d DataType) Known() bool { return d >= 0 && int(d) < len(dataTypeDomain.Values) }

// JSONName returns the lower-case spelling AMD's JSON writers use ("float",
// "half", "fp8_e4m3"), or "" when d is not a known value.
func (d DataType) JSONName() string {
	if !d.Known() {
		return ""
	}
	return dataTypeJSONNames[d]
}

// String returns the schema name ("FLOAT"), or "DataType(n)" for an unknown value.
func (d DataType) String() string {
	if !d.Known() {
		return "DataType(" + itoa(int64(d)) + ")"
	}
	return dataTypeDomain.Values[d].Name
}

// ByteSize returns the size of one element in bytes; 0 for UNSET, for
// sub-byte types (FP4, FP6, INT4) and for unknown values.
func (d DataType) ByteSize() int {
	if !d.Known() {
		return 0
	}
	if int(d) >= len(dataTypeSize) {
		return 0
	}
	return dataTypeSize[d]
}

// dataTypeAliases are the extra spellings the JSON reader accepts. "float16"
// is written by the golden SDPA files; "mxfp4" is the data_sdk spelling whose
// element type is unambiguously FP4 E2M1.
var dataTypeAliases = map[string]DataType{
	"float16": DataTypeHalf,
	"mxfp4":   DataTypeFP4E2M1,
}

// ambiguousDataTypes are data_sdk spellings that name a family, not one
// element encoding; they are refused rather than guessed.
var ambiguousDataTypes = map[string]string{
	"mxfp8":  "fp8_e4m3 or fp8_e5m2",
	"mxbfp8": "an fp8 element type",
	"mxfp6":  "fp6_e2m3 or fp6_e3m2",
}

// parseDataType maps a JSON spelling to a DataType. Matching ignores ASCII
// case, so "UNSET" (dnn-benchmarking's mma_core_mode) and "unset" agree.
func parseDataType(s string) (DataType, error) {
	l := strings.ToLower(s)
	for i, name := range dataTypeJSONNames {
		if name == l {
			return DataType(i), nil
		}
	}
	if d, ok := dataTypeAliases[l]; ok {
		return d, nil
	}
	if what, ok := ambiguousDataTypes[l]; ok {
		return 0, unsupportedf("data type %q is ambiguous (could be %s)", s, what)
	}
	return 0, unsupportedf("unknown data type %q", s)
}
