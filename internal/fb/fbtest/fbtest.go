// Package fbtest serves the tests of internal/fb and internal/wire, which
// read op tables through flatc's generated Go accessors. Go cannot look a
// type up by name, so flatc's op table types are listed here once; the tests
// check the list against the generated op tables of internal/wire.
package fbtest

import (
	"reflect"
	"strconv"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/hipdnn-go/backend/internal/fb"
	"github.com/hipdnn-go/backend/internal/fbname"
)

// opTypes maps each NodeAttributes member name to flatc's Go type for it.
var opTypes = func() map[string]reflect.Type {
	m := map[string]reflect.Type{}
	for _, v := range []any{
		fb.BatchnormInferenceAttributes{}, fb.PointwiseAttributes{}, fb.BatchnormBackwardAttributes{},
		fb.BatchnormAttributes{}, fb.ConvolutionFwdAttributes{}, fb.ConvolutionBwdAttributes{},
		fb.ConvolutionWrwAttributes{}, fb.BatchnormInferenceAttributesVarianceExt{}, fb.MatmulAttributes{},
		fb.RMSNormAttributes{}, fb.LayernormAttributes{}, fb.SdpaAttributes{},
		fb.BlockScaleDequantizeAttributes{}, fb.BlockScaleQuantizeAttributes{}, fb.SdpaBackwardAttributes{},
		fb.CustomOpAttributes{}, fb.RMSNormBackwardAttributes{}, fb.ReductionAttributes{},
		fb.ResampleFwdAttributes{}, fb.LayernormBackwardAttributes{}, fb.ResampleBwdAttributes{},
		fb.MoeGroupedMatmulAttributes{}, fb.MoeGroupedMatmulBwdAttributes{},
	} {
		t := reflect.TypeOf(v)
		m[t.Name()] = t
	}
	return m
}()

// OpTable returns a pointer to flatc's reader for the op table called name
// (a NodeAttributes member), positioned at tab, or nil when none is listed.
func OpTable(name string, tab flatbuffers.Table) any {
	t := opTypes[name]
	if t == nil {
		return nil
	}
	obj := reflect.New(t).Interface().(interface {
		Init([]byte, flatbuffers.UOffsetT)
	})
	obj.Init(tab.Bytes, tab.Pos)
	return obj
}

// OpTableCount is the number of listed types.
func OpTableCount() int { return len(opTypes) }

// Accessor is flatc's Go method name for a schema field: "in_0_tensor_uid"
// becomes "In0TensorUid".
func Accessor(field string) string { return fbname.Go(field) }

// The golden value rule of schemas/golden/make_golden.cpp: the value of the
// field at slot s of the op table with NodeAttributes tag k. Enums take the
// largest value they declare.
func Long(k, s int) int64    { return int64(k)*1000 + int64(s) }
func Int(k, s int) int32     { return int32(k*1000 + s) }
func Float(k, s int) float32 { return float32(k) + float32(s)*0.25 }
func Longs(k, s int) []int64 { return []int64{int64(k), int64(s), -1} }
func Ints(k, s int) []int32  { return []int32{int32(k), int32(s)} }
func Bytes(k, s int) []byte  { return []byte{byte(k), byte(s), 255, 0} }
func String(k, s int) string { return "k" + strconv.Itoa(k) + "s" + strconv.Itoa(s) }
