package fb_test

// Slot tables written from the wire specification (plugin_api.md §3), kept
// independent of the schemas and of the generated code: every golden buffer
// (Go-built and C++-built) is checked against them by reading raw vtable
// slots (vtable byte offset 4 + 2·slot; a union takes two slots).

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/hipdnn-go/backend/internal/fb"
)

type kind int

const (
	kLong     kind = iota // long, default 0
	kLongOpt              // long = null
	kInt                  // int, default 0
	kIntOpt               // int = null
	kFloatOpt             // float = null
	kBool                 // bool, default false
	kBoolOpt              // bool = null
	kEnum                 // byte enum; want = the golden value, def = its default
	kLongVec              // [long]
	kIntVec               // [int]
	kByteVec              // [ubyte]
	kString               // string
)

type field struct {
	slot int
	name string
	k    kind
	want int8 // kEnum: golden (non-default) value
	def  int8 // kEnum: schema default
}

func f(slot int, name string, k kind) field { return field{slot: slot, name: name, k: k} }
func e(slot int, name string, want, def int8) field {
	return field{slot: slot, name: name, k: kEnum, want: want, def: def}
}

// longs builds consecutive tensor-uid fields of one kind.
func longs(first int, k kind, names ...string) []field {
	out := make([]field, len(names))
	for i, n := range names {
		out[i] = f(first+i, n+"_tensor_uid", k)
	}
	return out
}

func cat(parts ...[]field) []field {
	var out []field
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

type opSpec struct {
	tag    fb.NodeAttributes
	table  string // Go type name
	fields []field
}

// opSpecs: one entry per NodeAttributes member, in tag order 1..23.
var opSpecs = []opSpec{
	{1, "BatchnormInferenceAttributes", longs(0, kLong, "x", "mean", "inv_variance", "scale", "bias", "y")},
	{2, "PointwiseAttributes", []field{
		e(0, "operation", 22 /*GEN_INDEX*/, 0),
		f(1, "relu_lower_clip", kFloatOpt), f(2, "relu_upper_clip", kFloatOpt), f(3, "relu_lower_clip_slope", kFloatOpt),
		f(4, "axis_tensor_uid", kLongOpt), f(5, "in_0_tensor_uid", kLong), f(6, "in_1_tensor_uid", kLongOpt),
		f(7, "in_2_tensor_uid", kLongOpt), f(8, "out_0_tensor_uid", kLong),
		f(9, "swish_beta", kFloatOpt), f(10, "elu_alpha", kFloatOpt), f(11, "softplus_beta", kFloatOpt),
	}},
	{3, "BatchnormBackwardAttributes", cat(
		longs(0, kLong, "dy", "x"), longs(2, kLongOpt, "mean", "inv_variance"), longs(4, kLong, "scale"),
		[]field{f(5, "peer_stats_tensor_uid", kLongVec)}, longs(6, kLong, "dx", "dscale", "dbias"))},
	{4, "BatchnormAttributes", cat(
		longs(0, kLong, "x", "scale", "bias", "epsilon"), []field{f(4, "peer_stats_tensor_uid", kLongVec)},
		longs(5, kLongOpt, "prev_running_mean", "prev_running_variance", "momentum"), longs(8, kLong, "y"),
		longs(9, kLongOpt, "mean", "inv_variance", "next_running_mean", "next_running_variance"))},
	{5, "ConvolutionFwdAttributes", convFields("x", "w", "y")},
	{6, "ConvolutionBwdAttributes", convFields("dy", "w", "dx")},
	{7, "ConvolutionWrwAttributes", convFields("x", "dy", "dw")},
	{8, "BatchnormInferenceAttributesVarianceExt", longs(0, kLong, "x", "mean", "variance", "scale", "bias", "y", "epsilon")},
	{9, "MatmulAttributes", cat(longs(0, kLong, "a", "b", "c"), []field{f(3, "umd_flops", kString), f(4, "umd_bytes", kString)})},
	{10, "RMSNormAttributes", cat(longs(0, kLong, "x", "scale", "epsilon", "y"), longs(4, kLongOpt, "bias", "inv_rms"),
		[]field{e(6, "forward_phase", 2 /*TRAINING*/, 0)})},
	{11, "LayernormAttributes", cat(longs(0, kLong, "x", "scale", "bias", "epsilon", "y"),
		[]field{f(5, "normalized_dim_count", kLong)}, longs(6, kLongOpt, "mean", "inv_variance"),
		[]field{e(8, "forward_phase", 2 /*TRAINING*/, 0)})},
	{12, "SdpaAttributes", cat(longs(0, kLong, "q", "k", "v", "o"),
		longs(4, kLongOpt, "attn_mask", "scale", "seq_len_q", "seq_len_kv", "seed", "offset", "dropout_mask",
			"dropout_scale", "page_table_k", "page_table_v", "block_mask", "sink_token", "descale_q", "descale_k",
			"descale_v", "descale_s", "scale_s", "scale_o", "stats", "max", "sum_exp", "rng_dump", "amax_s", "amax_o"),
		[]field{
			f(28, "generate_stats", kBoolOpt), f(29, "alibi_mask", kBool), f(30, "padding_mask", kBool),
			f(31, "causal_mask", kBool), f(32, "causal_mask_bottom_right", kBool),
			f(33, "dropout_probability", kFloatOpt), f(34, "attn_scale_value", kFloatOpt),
			f(35, "left_bound", kLongOpt), f(36, "right_bound", kLongOpt), f(37, "max_seq_len_kv", kIntOpt),
			e(38, "diagonal_alignment", 1 /*BOTTOM_RIGHT*/, 0), e(39, "mma_core_mode", 8 /*FP8_E4M3*/, 0),
			e(40, "implementation", 2 /*UNIFIED*/, 0),
			f(41, "umd_flops", kString), f(42, "umd_bytes", kString),
		})},
	{13, "BlockScaleDequantizeAttributes", cat(longs(0, kLong, "x", "scale", "y"),
		[]field{f(3, "block_size", kIntVec), f(4, "is_negative_scale", kBool)})},
	{14, "BlockScaleQuantizeAttributes", cat(longs(0, kLong, "x", "y", "scale"),
		[]field{f(3, "block_size", kInt), f(4, "axis", kLongOpt), f(5, "transpose", kBool)})},
	{15, "SdpaBackwardAttributes", cat(longs(0, kLong, "q", "k", "v", "o", "do", "stats", "dq", "dk", "dv"),
		longs(9, kLongOpt, "scale", "attn_mask", "seq_len_q", "seq_len_kv", "seed", "offset", "dropout_mask",
			"dropout_scale", "dropout_scale_inv", "dbias"),
		[]field{
			f(19, "alibi_mask", kBool), f(20, "padding_mask", kBool), f(21, "causal_mask", kBool),
			f(22, "causal_mask_bottom_right", kBool), f(23, "dropout_probability", kFloatOpt),
			f(24, "attn_scale_value", kFloatOpt), f(25, "left_bound", kLongOpt), f(26, "right_bound", kLongOpt),
			e(27, "diagonal_alignment", 1 /*BOTTOM_RIGHT*/, 0),
		})},
	{16, "CustomOpAttributes", []field{
		f(0, "custom_op_id", kString), f(1, "input_tensor_uids", kLongVec), f(2, "output_tensor_uids", kLongVec),
		f(3, "data", kByteVec), f(4, "test_generation_marker", kInt),
	}},
	{17, "RMSNormBackwardAttributes", cat(longs(0, kLong, "dy", "x", "scale", "inv_rms", "dx", "dscale"),
		longs(6, kLongOpt, "dbias"))},
	{18, "ReductionAttributes", []field{
		e(0, "mode", 9 /*MUL_NO_ZEROS*/, 0), f(1, "in_tensor_uid", kLong), f(2, "out_tensor_uid", kLong),
		f(3, "is_deterministic", kBool),
	}},
	{19, "ResampleFwdAttributes", cat(longs(0, kLong, "x", "y"), longs(2, kLongOpt, "index"), resampleTail(),
		[]field{f(9, "generate_index", kBoolOpt)})},
	{20, "LayernormBackwardAttributes", cat(longs(0, kLong, "dy", "x", "scale"),
		longs(3, kLongOpt, "mean", "inv_variance", "epsilon"), longs(6, kLong, "dx", "dscale", "dbias"),
		[]field{f(9, "normalized_dim_count", kLong)})},
	{21, "ResampleBwdAttributes", cat(longs(0, kLong, "dy", "dx"), longs(2, kLongOpt, "index"), resampleTail())},
	{22, "MoeGroupedMatmulAttributes", cat(longs(0, kLong, "token", "weight", "first_token_offset"),
		longs(3, kLongOpt, "token_index", "token_ks"), longs(5, kLong, "output"),
		[]field{e(6, "mode", 2 /*SCATTER*/, 0), f(7, "top_k", kInt)})},
	{23, "MoeGroupedMatmulBwdAttributes", longs(0, kLong, "doutput", "token", "first_token_offset", "dweight")},
}

func convFields(a, b, c string) []field {
	return cat(longs(0, kLong, a, b, c), []field{
		f(3, "pre_padding", kLongVec), f(4, "post_padding", kLongVec), f(5, "stride", kLongVec),
		f(6, "dilation", kLongVec), e(7, "conv_mode", 2 /*CROSS_CORRELATION*/, 0),
		f(8, "umd_flops", kString), f(9, "umd_bytes", kString),
	})
}

func resampleTail() []field {
	return []field{
		f(3, "pre_padding", kLongVec), f(4, "post_padding", kLongVec), f(5, "stride", kLongVec),
		f(6, "window", kLongVec), e(7, "resample_mode", 3 /*AVGPOOL_INCLUDE_PADDING*/, 0),
		e(8, "padding_mode", 2 /*ZERO_PAD*/, 0),
	}
}

// The golden value rule (mirrored in schemas/golden/make_golden.cpp).
func vL(k, s int) int64    { return int64(k)*1000 + int64(s) }
func vI(k, s int) int32    { return int32(k*1000 + s) }
func vF(k, s int) float32  { return float32(k) + float32(s)*0.25 }
func vLV(k, s int) []int64 { return []int64{int64(k), int64(s), -1} }
func vIV(k, s int) []int32 { return []int32{int32(k), int32(s)} }
func vBV(k, s int) []byte  { return []byte{byte(k), byte(s), 255, 0} }
func vS(k, s int) string   { return fmt.Sprintf("k%ds%d", k, s) }

// raw reads a table through its vtable only.
type raw struct {
	t    *testing.T
	tab  flatbuffers.Table
	what string
}

func rawAt(t *testing.T, buf []byte, pos flatbuffers.UOffsetT, what string) raw {
	return raw{t: t, tab: flatbuffers.Table{Bytes: buf, Pos: pos}, what: what}
}

// rawRoot reads the root table of a finished buffer.
func rawRoot(t *testing.T, buf []byte, what string) raw {
	return rawAt(t, buf, flatbuffers.GetUOffsetT(buf), what)
}

func vt(slot int) flatbuffers.VOffsetT { return flatbuffers.VOffsetT(4 + 2*slot) }

func (r raw) off(slot int) flatbuffers.UOffsetT { return flatbuffers.UOffsetT(r.tab.Offset(vt(slot))) }
func (r raw) present(slot int) bool             { return r.off(slot) != 0 }

// vtableSlots returns how many slots the table's vtable describes.
func (r raw) vtableSlots() int {
	v := flatbuffers.UOffsetT(int64(r.tab.Pos) - int64(r.tab.GetSOffsetT(r.tab.Pos)))
	return (int(r.tab.GetVOffsetT(v)) - 4) / 2
}

func (r raw) need(slot int, name string) flatbuffers.UOffsetT {
	r.t.Helper()
	o := r.off(slot)
	if o == 0 {
		r.t.Fatalf("%s: slot %d (%s) absent, want present", r.what, slot, name)
	}
	return r.tab.Pos + o
}

func (r raw) absent(slot int, name string) {
	r.t.Helper()
	if r.present(slot) {
		r.t.Errorf("%s: slot %d (%s) present, want absent (unset optional / elided default)", r.what, slot, name)
	}
}

func (r raw) i64(slot int, name string) int64 {
	r.t.Helper()
	return r.tab.GetInt64(r.need(slot, name))
}
func (r raw) u64(slot int, name string) uint64 {
	r.t.Helper()
	return r.tab.GetUint64(r.need(slot, name))
}
func (r raw) i32(slot int, name string) int32 {
	r.t.Helper()
	return r.tab.GetInt32(r.need(slot, name))
}
func (r raw) u32(slot int, name string) uint32 {
	r.t.Helper()
	return r.tab.GetUint32(r.need(slot, name))
}
func (r raw) i8(slot int, name string) int8  { r.t.Helper(); return r.tab.GetInt8(r.need(slot, name)) }
func (r raw) u8(slot int, name string) uint8 { r.t.Helper(); return r.tab.GetUint8(r.need(slot, name)) }
func (r raw) b(slot int, name string) bool   { r.t.Helper(); return r.tab.GetBool(r.need(slot, name)) }
func (r raw) f32(slot int, name string) float32 {
	r.t.Helper()
	return r.tab.GetFloat32(r.need(slot, name))
}
func (r raw) f64(slot int, name string) float64 {
	r.t.Helper()
	return r.tab.GetFloat64(r.need(slot, name))
}
func (r raw) str(slot int, name string) string {
	r.t.Helper()
	return string(r.tab.ByteVector(r.need(slot, name)))
}

func (r raw) vecStart(slot int, name string) (flatbuffers.UOffsetT, int) {
	r.t.Helper()
	r.need(slot, name)
	o := r.off(slot)
	return r.tab.Vector(o), r.tab.VectorLen(o)
}

func (r raw) i64s(slot int, name string) []int64 {
	r.t.Helper()
	p, n := r.vecStart(slot, name)
	out := make([]int64, n)
	for i := range out {
		out[i] = r.tab.GetInt64(p + flatbuffers.UOffsetT(8*i))
	}
	return out
}

func (r raw) i32s(slot int, name string) []int32 {
	r.t.Helper()
	p, n := r.vecStart(slot, name)
	out := make([]int32, n)
	for i := range out {
		out[i] = r.tab.GetInt32(p + flatbuffers.UOffsetT(4*i))
	}
	return out
}

func (r raw) bytes(slot int, name string) []byte {
	r.t.Helper()
	return append([]byte(nil), r.tab.ByteVector(r.need(slot, name))...)
}

func (r raw) strs(slot int, name string) []string {
	r.t.Helper()
	p, n := r.vecStart(slot, name)
	out := make([]string, n)
	for i := range out {
		out[i] = string(r.tab.ByteVector(p + flatbuffers.UOffsetT(4*i)))
	}
	return out
}

// sub follows an offset field to a table.
func (r raw) sub(slot int, name string) raw {
	r.t.Helper()
	p := r.need(slot, name)
	return raw{t: r.t, tab: flatbuffers.Table{Bytes: r.tab.Bytes, Pos: r.tab.Indirect(p)}, what: r.what + "." + name}
}

// subs follows a vector of tables.
func (r raw) subs(slot int, name string) []raw {
	r.t.Helper()
	p, n := r.vecStart(slot, name)
	out := make([]raw, n)
	for i := range out {
		ep := p + flatbuffers.UOffsetT(4*i)
		out[i] = raw{t: r.t, tab: flatbuffers.Table{Bytes: r.tab.Bytes, Pos: r.tab.Indirect(ep)},
			what: fmt.Sprintf("%s.%s[%d]", r.what, name, i)}
	}
	return out
}

// union reads a union field: its tag in slot and its value offset in slot+1.
// The value table is returned positioned at the referenced object.
func (r raw) union(slot int, name string) (byte, raw) {
	r.t.Helper()
	tag := r.u8(slot, name+"_type")
	p := r.need(slot+1, name)
	return tag, raw{t: r.t, tab: flatbuffers.Table{Bytes: r.tab.Bytes, Pos: r.tab.Indirect(p)}, what: r.what + "." + name}
}

func eqInt64s(a, b []int64) bool { return reflect.DeepEqual(a, b) }

// checkOpRaw checks the attribute table of tag k against its spec through
// raw slots. full: every field set per the golden rule; otherwise only the
// fields named in set are expected (with the golden rule) and every other
// slot must be absent.
func checkOpRaw(t *testing.T, r raw, spec opSpec, set map[string]bool) {
	t.Helper()
	k := int(spec.tag)
	full := set == nil
	if full && r.vtableSlots() != len(spec.fields) {
		t.Errorf("%s: vtable describes %d slots, spec has %d", r.what, r.vtableSlots(), len(spec.fields))
	}
	for i, fl := range spec.fields {
		if fl.slot != i {
			t.Fatalf("spec %s: field %s listed at position %d with slot %d", spec.table, fl.name, i, fl.slot)
		}
		s := fl.slot
		if !full && !set[fl.name] {
			r.absent(s, fl.name)
			continue
		}
		var bad bool
		var got, want any
		switch fl.k {
		case kLong, kLongOpt:
			got, want = r.i64(s, fl.name), vL(k, s)
		case kInt, kIntOpt:
			got, want = r.i32(s, fl.name), vI(k, s)
		case kFloatOpt:
			got, want = r.f32(s, fl.name), vF(k, s)
		case kBool:
			got, want = r.b(s, fl.name), true
		case kBoolOpt:
			got, want = r.b(s, fl.name), false
		case kEnum:
			got, want = r.i8(s, fl.name), fl.want
		case kLongVec:
			got, want = r.i64s(s, fl.name), vLV(k, s)
		case kIntVec:
			got, want = r.i32s(s, fl.name), vIV(k, s)
		case kByteVec:
			got, want = r.bytes(s, fl.name), vBV(k, s)
		case kString:
			got, want = r.str(s, fl.name), vS(k, s)
		}
		bad = !reflect.DeepEqual(got, want)
		if bad {
			t.Errorf("%s: slot %d (%s) = %v, want %v", r.what, s, fl.name, got, want)
		}
	}
}

// camel converts a schema field name to flatc's Go accessor name.
func camel(name string) string {
	var b strings.Builder
	for _, p := range strings.Split(name, "_") {
		if p != "" {
			b.WriteString(strings.ToUpper(p[:1]) + p[1:])
		}
	}
	return b.String()
}

// checkOpAccessors reads the same table through the generated Go accessors
// (found by reflection from the spec's field names), so it also proves the
// generated API has one accessor per spec field with the right optionality.
func checkOpAccessors(t *testing.T, obj any, spec opSpec, set map[string]bool) {
	t.Helper()
	k := int(spec.tag)
	v := reflect.ValueOf(obj)
	for _, fl := range spec.fields {
		isSet := set == nil || set[fl.name]
		m := v.MethodByName(camel(fl.name))
		if !m.IsValid() {
			t.Errorf("%s: no generated accessor %s for field %s", spec.table, camel(fl.name), fl.name)
			continue
		}
		where := spec.table + "." + camel(fl.name)
		switch fl.k {
		case kLongVec, kIntVec, kByteVec:
			n := int(v.MethodByName(camel(fl.name) + "Length").Call(nil)[0].Int())
			var got []int64
			for j := 0; j < n; j++ {
				x := m.Call([]reflect.Value{reflect.ValueOf(j)})[0]
				if x.Kind() == reflect.Uint8 {
					got = append(got, int64(x.Uint()))
				} else {
					got = append(got, x.Int())
				}
			}
			var want []int64
			if isSet {
				switch fl.k {
				case kLongVec:
					want = vLV(k, fl.slot)
				case kIntVec:
					for _, x := range vIV(k, fl.slot) {
						want = append(want, int64(x))
					}
				case kByteVec:
					for _, x := range vBV(k, fl.slot) {
						want = append(want, int64(x))
					}
				}
			}
			if !eqInt64s(got, want) {
				t.Errorf("%s = %v, want %v", where, got, want)
			}
			continue
		}
		out := m.Call(nil)[0]
		opt := fl.k == kLongOpt || fl.k == kIntOpt || fl.k == kFloatOpt || fl.k == kBoolOpt
		if opt != (out.Kind() == reflect.Pointer) {
			t.Errorf("%s returns %s; optional per spec: %v", where, out.Type(), opt)
			continue
		}
		if opt {
			if !isSet {
				if !out.IsNil() {
					t.Errorf("%s = %v, want nil (absent optional)", where, out.Elem())
				}
				continue
			}
			if out.IsNil() {
				t.Errorf("%s = nil, want a value", where)
				continue
			}
			out = out.Elem()
		}
		var got, want any
		switch fl.k {
		case kLong, kLongOpt:
			got, want = out.Int(), vL(k, fl.slot)
			if !isSet {
				want = int64(0)
			}
		case kInt, kIntOpt:
			got, want = out.Int(), int64(vI(k, fl.slot))
			if !isSet {
				want = int64(0)
			}
		case kFloatOpt:
			got, want = float32(out.Float()), vF(k, fl.slot)
		case kBool:
			got, want = out.Bool(), isSet
		case kBoolOpt:
			got, want = out.Bool(), false
		case kEnum:
			got, want = int8(out.Int()), fl.want
			if !isSet {
				want = fl.def
			}
		case kString:
			got, want = string(out.Bytes()), vS(k, fl.slot)
			if !isSet {
				want = ""
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %v, want %v", where, got, want)
		}
	}
}

// attributeObject returns a *fb.<Table> for the union value of a node.
func attributeObject(tag fb.NodeAttributes, tab flatbuffers.Table) any {
	var obj interface {
		Init([]byte, flatbuffers.UOffsetT)
	}
	switch tag {
	case fb.NodeAttributesBatchnormInferenceAttributes:
		obj = new(fb.BatchnormInferenceAttributes)
	case fb.NodeAttributesPointwiseAttributes:
		obj = new(fb.PointwiseAttributes)
	case fb.NodeAttributesBatchnormBackwardAttributes:
		obj = new(fb.BatchnormBackwardAttributes)
	case fb.NodeAttributesBatchnormAttributes:
		obj = new(fb.BatchnormAttributes)
	case fb.NodeAttributesConvolutionFwdAttributes:
		obj = new(fb.ConvolutionFwdAttributes)
	case fb.NodeAttributesConvolutionBwdAttributes:
		obj = new(fb.ConvolutionBwdAttributes)
	case fb.NodeAttributesConvolutionWrwAttributes:
		obj = new(fb.ConvolutionWrwAttributes)
	case fb.NodeAttributesBatchnormInferenceAttributesVarianceExt:
		obj = new(fb.BatchnormInferenceAttributesVarianceExt)
	case fb.NodeAttributesMatmulAttributes:
		obj = new(fb.MatmulAttributes)
	case fb.NodeAttributesRMSNormAttributes:
		obj = new(fb.RMSNormAttributes)
	case fb.NodeAttributesLayernormAttributes:
		obj = new(fb.LayernormAttributes)
	case fb.NodeAttributesSdpaAttributes:
		obj = new(fb.SdpaAttributes)
	case fb.NodeAttributesBlockScaleDequantizeAttributes:
		obj = new(fb.BlockScaleDequantizeAttributes)
	case fb.NodeAttributesBlockScaleQuantizeAttributes:
		obj = new(fb.BlockScaleQuantizeAttributes)
	case fb.NodeAttributesSdpaBackwardAttributes:
		obj = new(fb.SdpaBackwardAttributes)
	case fb.NodeAttributesCustomOpAttributes:
		obj = new(fb.CustomOpAttributes)
	case fb.NodeAttributesRMSNormBackwardAttributes:
		obj = new(fb.RMSNormBackwardAttributes)
	case fb.NodeAttributesReductionAttributes:
		obj = new(fb.ReductionAttributes)
	case fb.NodeAttributesResampleFwdAttributes:
		obj = new(fb.ResampleFwdAttributes)
	case fb.NodeAttributesLayernormBackwardAttributes:
		obj = new(fb.LayernormBackwardAttributes)
	case fb.NodeAttributesResampleBwdAttributes:
		obj = new(fb.ResampleBwdAttributes)
	case fb.NodeAttributesMoeGroupedMatmulAttributes:
		obj = new(fb.MoeGroupedMatmulAttributes)
	case fb.NodeAttributesMoeGroupedMatmulBwdAttributes:
		obj = new(fb.MoeGroupedMatmulBwdAttributes)
	default:
		return nil
	}
	obj.Init(tab.Bytes, tab.Pos)
	return obj
}

// TestSpecTables checks the spec tables themselves and the generated API
// shape: union tags, the type names, and that each generated table type has
// an accessor for every spec field and no accessor the spec lacks.
func TestSpecTables(t *testing.T) {
	if len(opSpecs) != 23 {
		t.Fatalf("opSpecs has %d entries, want 23", len(opSpecs))
	}
	for i, s := range opSpecs {
		if int(s.tag) != i+1 {
			t.Errorf("opSpecs[%d].tag = %d", i, s.tag)
		}
		if got := fb.EnumNamesNodeAttributes[s.tag]; got != s.table {
			t.Errorf("NodeAttributes tag %d is %q in generated code, spec says %q", s.tag, got, s.table)
		}
		obj := attributeObject(s.tag, flatbuffers.Table{})
		if obj == nil {
			t.Fatalf("no Go type for tag %d", s.tag)
		}
		if name := reflect.TypeOf(obj).Elem().Name(); name != s.table {
			t.Errorf("tag %d: Go type %s, want %s", s.tag, name, s.table)
		}
		want := map[string]bool{}
		for _, fl := range s.fields {
			want[camel(fl.name)] = true
		}
		typ := reflect.TypeOf(obj)
		for i := 0; i < typ.NumMethod(); i++ {
			n := typ.Method(i).Name
			if n == "Init" || n == "Table" || strings.HasPrefix(n, "Mutate") {
				continue
			}
			base := strings.TrimSuffix(strings.TrimSuffix(n, "Length"), "Bytes")
			if !want[n] && !want[base] {
				t.Errorf("%s has accessor %s that the spec does not list", s.table, n)
			}
		}
	}
	if fb.NodeAttributesMoeGroupedMatmulBwdAttributes != 23 {
		t.Errorf("last NodeAttributes tag = %d, want 23", fb.NodeAttributesMoeGroupedMatmulBwdAttributes)
	}
	tv := []fb.TensorValue{fb.TensorValueNONE, fb.TensorValueFloat32Value, fb.TensorValueFloat16Value,
		fb.TensorValueBFloat16Value, fb.TensorValueFloat8Value, fb.TensorValueInt32Value,
		fb.TensorValueFloat64Value, fb.TensorValueInt64Value, fb.TensorValueBoolValue}
	for i, v := range tv {
		if int(v) != i {
			t.Errorf("TensorValue %s = %d, want %d", v, v, i)
		}
	}
	if fb.KnobValueIntValue != 1 || fb.KnobValueFloatValue != 2 || fb.KnobValueStringValue != 3 {
		t.Error("KnobValue tags differ from the spec")
	}
	if fb.KnobConstraintIntConstraint != 1 || fb.KnobConstraintFloatConstraint != 2 || fb.KnobConstraintStringConstraint != 3 {
		t.Error("KnobConstraint tags differ from the spec")
	}
	if fb.DataTypeFP8_E5M2_FNUZ != 17 || fb.PointwiseModeTANH_FWD != 47 || fb.ReductionModeMUL_NO_ZEROS != 9 {
		t.Error("enum values differ from the spec")
	}
	if math.Float32bits(vF(2, 1)) != math.Float32bits(2.25) {
		t.Error("value rule broken")
	}
}
