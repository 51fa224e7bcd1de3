package wire

import (
	"fmt"
	"strings"
	"testing"

	flatbuffers "github.com/google/flatbuffers/go"
)

// specOps restates §3.4/§3.5 of the plugin API reference independently of
// ops.go: tag, union member name, then each field in slot order as
// name:kind, with ">" marking output tensors and "=v" a non-zero default.
// Kinds: u uid, U optional uid, L uid list, l long, o optional long, i int,
// I optional int, n [int], N [long], F optional float, b bool, B optional
// bool, e enum, d DataType, s string, y [ubyte].
const specOps = `
1 BatchnormInferenceAttributes x:u mean:u inv_variance:u scale:u bias:u y:u>
2 PointwiseAttributes operation:e relu_lower_clip:F relu_upper_clip:F relu_lower_clip_slope:F axis_tensor_uid:o in_0:u in_1:U in_2:U out_0:u> swish_beta:F elu_alpha:F softplus_beta:F
3 BatchnormBackwardAttributes dy:u x:u mean:U inv_variance:U scale:u peer_stats_tensor_uid:L dx:u> dscale:u> dbias:u>
4 BatchnormAttributes x:u scale:u bias:u epsilon:u peer_stats_tensor_uid:L prev_running_mean:U prev_running_variance:U momentum:U y:u> mean:U> inv_variance:U> next_running_mean:U> next_running_variance:U>
5 ConvolutionFwdAttributes x:u w:u y:u> pre_padding:N post_padding:N stride:N dilation:N conv_mode:e umd_flops:s umd_bytes:s
6 ConvolutionBwdAttributes dy:u w:u dx:u> pre_padding:N post_padding:N stride:N dilation:N conv_mode:e umd_flops:s umd_bytes:s
7 ConvolutionWrwAttributes x:u dy:u dw:u> pre_padding:N post_padding:N stride:N dilation:N conv_mode:e umd_flops:s umd_bytes:s
8 BatchnormInferenceAttributesVarianceExt x:u mean:u variance:u scale:u bias:u y:u> epsilon:u
9 MatmulAttributes a:u b:u c:u> umd_flops:s umd_bytes:s
10 RMSNormAttributes x:u scale:u epsilon:u y:u> bias:U inv_rms:U> forward_phase:e
11 LayernormAttributes x:u scale:u bias:u epsilon:u y:u> normalized_dim_count:l mean:U> inv_variance:U> forward_phase:e
12 SdpaAttributes q:u k:u v:u o:u> attn_mask:U scale:U seq_len_q:U seq_len_kv:U seed:U offset:U dropout_mask:U dropout_scale:U page_table_k:U page_table_v:U block_mask:U sink_token:U descale_q:U descale_k:U descale_v:U descale_s:U scale_s:U scale_o:U stats:U> max:U> sum_exp:U> rng_dump:U> amax_s:U> amax_o:U> generate_stats:B alibi_mask:b padding_mask:b causal_mask:b causal_mask_bottom_right:b dropout_probability:F attn_scale_value:F left_bound:o right_bound:o max_seq_len_kv:I diagonal_alignment:e mma_core_mode:d implementation:e umd_flops:s umd_bytes:s
13 BlockScaleDequantizeAttributes x:u scale:u y:u> block_size:n is_negative_scale:b
14 BlockScaleQuantizeAttributes x:u y:u> scale:u> block_size:i axis:o transpose:b
15 SdpaBackwardAttributes q:u k:u v:u o:u do:u stats:u dq:u> dk:u> dv:u> scale:U attn_mask:U seq_len_q:U seq_len_kv:U seed:U offset:U dropout_mask:U dropout_scale:U dropout_scale_inv:U dbias:U> alibi_mask:b padding_mask:b causal_mask:b causal_mask_bottom_right:b dropout_probability:F attn_scale_value:F left_bound:o right_bound:o diagonal_alignment:e
16 CustomOpAttributes custom_op_id:s input_tensor_uids:L output_tensor_uids:L> data:y test_generation_marker:i
17 RMSNormBackwardAttributes dy:u x:u scale:u inv_rms:u dx:u> dscale:u> dbias:U>
18 ReductionAttributes mode:e in:u out:u> is_deterministic:b
19 ResampleFwdAttributes x:u y:u> index:U> pre_padding:N post_padding:N stride:N window:N resample_mode:e padding_mode:e generate_index:B
20 LayernormBackwardAttributes dy:u x:u scale:u mean:U inv_variance:U epsilon:U dx:u> dscale:u> dbias:u> normalized_dim_count:l
21 ResampleBwdAttributes dy:u dx:u> index:U pre_padding:N post_padding:N stride:N window:N resample_mode:e padding_mode:e
22 MoeGroupedMatmulAttributes token:u weight:u first_token_offset:u token_index:U token_ks:U output:u> mode:e top_k:i
23 MoeGroupedMatmulBwdAttributes doutput:u token:u first_token_offset:u dweight:u>
`

var specKinds = map[string]FieldKind{
	"u": KindUID, "U": KindOptUID, "L": KindUIDList, "l": KindLong, "o": KindOptLong, "i": KindInt,
	"I": KindOptInt, "n": KindIntList, "N": KindLongList, "F": KindOptFloat, "b": KindBool,
	"B": KindOptBool, "e": KindEnum, "d": KindDataType, "s": KindString, "y": KindBytes,
}

func TestOpTablesMatchSpec(t *testing.T) {
	lines := strings.Split(strings.TrimSpace(specOps), "\n")
	if len(Ops()) != len(lines) || len(lines) != 23 {
		t.Fatalf("Ops() has %d ops, spec lists %d", len(Ops()), len(lines))
	}
	for li, line := range lines {
		words := strings.Fields(line)
		op := Ops()[li]
		if fmt.Sprint(op.Tag) != words[0] || op.Name != words[1] {
			t.Errorf("op %d: got tag %d %s, spec says %s %s", li, op.Tag, op.Name, words[0], words[1])
			continue
		}
		if OpByTag(op.Tag) != op || OpByName(op.Name) != op {
			t.Errorf("%s: lookup by tag or name does not return it", op.Name)
		}
		specFields := words[2:]
		if len(specFields) != len(op.Fields) {
			t.Errorf("%s: %d fields, spec lists %d", op.Name, len(op.Fields), len(specFields))
			continue
		}
		for i, sf := range specFields {
			name, kind, _ := strings.Cut(sf, ":")
			role := RoleInput
			if strings.HasSuffix(kind, ">") {
				kind, role = strings.TrimSuffix(kind, ">"), RoleOutput
			}
			k := specKinds[kind]
			switch k {
			case KindUID, KindOptUID:
				name += "_tensor_uid"
			case KindUIDList:
			default:
				role = RoleParam
			}
			f := op.Fields[i]
			if f.Name != name || f.Slot != i || f.Kind != k || f.Role != role {
				t.Errorf("%s slot %d: got %s slot %d %v role %d, spec says %s %v role %d",
					op.Name, i, f.Name, f.Slot, f.Kind, f.Role, name, k, role)
			}
			if (f.Kind == KindEnum) != (f.Enum != nil) {
				t.Errorf("%s.%s: enum domain presence does not match kind", op.Name, f.Name)
			}
			if idx, got := op.Field(name); idx != i || got != &op.Fields[i] {
				t.Errorf("%s.Field(%q) = %d", op.Name, name, idx)
			}
			wantSection := map[Role]string{RoleInput: SectionInputs, RoleOutput: SectionOutputs}[role]
			if role == RoleParam {
				wantSection = map[string]string{
					"PointwiseAttributes": SectionInputs, "ConvolutionFwdAttributes": SectionParameters,
					"ConvolutionBwdAttributes": SectionParameters, "ConvolutionWrwAttributes": SectionParameters,
					"SdpaBackwardAttributes": SectionParameters,
				}[op.Name]
				if wantSection == "" {
					wantSection = SectionAttributes
				}
			}
			if f.JSONSection != wantSection {
				t.Errorf("%s.%s: JSON section %q, want %q", op.Name, f.Name, f.JSONSection, wantSection)
			}
			// Every default in these tables is the zero value (TOP_LEFT, AUTO,
			// NONE, NOT_SET, UNSET, false, 0).
			if f.Default != 0 || f.DefaultF != 0 {
				t.Errorf("%s.%s: default %d/%g, schema default is 0", op.Name, f.Name, f.Default, f.DefaultF)
			}
		}
	}
	if OpByTag(0) != nil || OpByTag(24) != nil || OpByName("PoolingFwdAttributes") != nil {
		t.Error("unknown tags and names must give nil")
	}
}

func TestEnumDomains(t *testing.T) {
	tests := []struct {
		d    *EnumDomain
		n    int
		spot map[int64]string
	}{
		{ConvMode, 3, map[int64]string{2: "CROSS_CORRELATION"}},
		{PointwiseMode, 48, map[int64]string{0: "unset", 28: "max_op", 29: "min_op", 34: "relu_fwd", 47: "tanh_fwd", 22: "gen_index"}},
		{ReductionMode, 10, map[int64]string{3: "MIN", 4: "MAX", 9: "MUL_NO_ZEROS"}},
		{ResampleMode, 4, map[int64]string{2: "AVGPOOL_EXCLUDE_PADDING"}},
		{PaddingMode, 3, map[int64]string{0: "PADDING_NOT_SET", 2: "ZERO_PAD"}},
		{NormFwdPhase, 3, map[int64]string{2: "TRAINING"}},
		{DiagonalAlignment, 2, map[int64]string{1: "BOTTOM_RIGHT"}},
		{AttentionImplementation, 3, map[int64]string{0: "AUTO", 2: "UNIFIED"}},
		{MoeGroupedMatmulMode, 3, map[int64]string{2: "SCATTER"}},
	}
	for _, tt := range tests {
		if len(tt.d.Values) != tt.n {
			t.Errorf("%s: %d values, want %d", tt.d.Name, len(tt.d.Values), tt.n)
		}
		for i, v := range tt.d.Values {
			if v.Value != int64(i) {
				t.Errorf("%s: value %d at index %d", tt.d.Name, v.Value, i)
			}
		}
		for v, name := range tt.spot {
			if got := tt.d.byValue(v); got == nil || got.JSON != name {
				t.Errorf("%s %d: got %+v, want %q", tt.d.Name, v, got, name)
			}
		}
	}
	if ReductionMode.byName("min_op").Value != 3 || PointwiseMode.byName("RELU_FWD").Value != 34 {
		t.Error("aliases and case-insensitive names must resolve")
	}
}

func TestDataTypes(t *testing.T) {
	want := []struct {
		json string
		size int
	}{
		{"unset", 0}, {"float", 4}, {"half", 2}, {"bfloat16", 2}, {"double", 8}, {"uint8", 1}, {"int32", 4},
		{"int8", 1}, {"fp8_e4m3", 1}, {"fp8_e5m2", 1}, {"fp8_e8m0", 1}, {"fp4_e2m1", 0}, {"fp6_e2m3", 0},
		{"fp6_e3m2", 0}, {"int4", 0}, {"int64", 8}, {"fp8_e4m3_fnuz", 1}, {"fp8_e5m2_fnuz", 1},
	}
	for i, w := range want {
		d := DataType(i)
		if d.JSONName() != w.json || d.ByteSize() != w.size {
			t.Errorf("DataType %d: %q/%d, want %q/%d", i, d.JSONName(), d.ByteSize(), w.json, w.size)
		}
		if got, err := parseDataType(strings.ToUpper(w.json)); err != nil || got != d {
			t.Errorf("parse %q: %v %v", strings.ToUpper(w.json), got, err)
		}
	}
	if DataTypeFP8E5M2FNUZ != 17 || DataType(18).Known() || DataType(-1).JSONName() != "" || DataType(18).ByteSize() != 0 {
		t.Error("range of DataType is wrong")
	}
	for alias, d := range map[string]DataType{"float16": DataTypeHalf, "FLOAT16": DataTypeHalf, "mxfp4": DataTypeFP4E2M1} {
		if got, err := parseDataType(alias); err != nil || got != d {
			t.Errorf("alias %q: %v %v", alias, got, err)
		}
	}
	for _, bad := range []string{"mxfp8", "mxfp6", "float17", ""} {
		if _, err := parseDataType(bad); !isUnsupported(err) {
			t.Errorf("%q: want an ErrUnsupported error, got %v", bad, err)
		}
	}
}

// TestGoldenSlots encodes a node of every op with every field set and reads
// each slot back with the flatbuffers runtime's own Table accessors (not our
// reader), at the slot and width the spec gives.
func TestGoldenSlots(t *testing.T) {
	g := fullGraph()
	buf, err := EncodeGraph(g)
	if err != nil {
		t.Fatal(err)
	}
	root := flatbuffers.GetUOffsetT(buf)
	gt := &flatbuffers.Table{Bytes: buf, Pos: root}
	slot := func(s int) flatbuffers.VOffsetT { return flatbuffers.VOffsetT(4 + 2*s) }
	nodesOff := gt.Offset(slot(5))
	if nodesOff == 0 {
		t.Fatal("graph has no nodes vector")
	}
	nodesVec := gt.Vector(flatbuffers.UOffsetT(nodesOff))
	if n := gt.VectorLen(flatbuffers.UOffsetT(nodesOff)); n != len(g.Nodes) {
		t.Fatalf("%d nodes on the wire, want %d", n, len(g.Nodes))
	}
	for ni, node := range g.Nodes {
		nt := &flatbuffers.Table{Bytes: buf, Pos: gt.Indirect(nodesVec + flatbuffers.UOffsetT(ni*4))}
		if tag := nt.GetUint8Slot(slot(2), 0); tag != node.Op.Tag {
			t.Errorf("node %d: union tag %d, want %d", ni, tag, node.Op.Tag)
			continue
		}
		ao := nt.Offset(slot(3))
		if ao == 0 {
			t.Errorf("node %d: no attributes table", ni)
			continue
		}
		var at flatbuffers.Table
		nt.Union(&at, flatbuffers.UOffsetT(ao))
		for i, f := range node.Op.Fields {
			want := node.Values[i]
			vo := slot(f.Slot)
			o := flatbuffers.UOffsetT(at.Offset(vo))
			if o == 0 {
				t.Errorf("%s.%s: slot %d absent", node.Op.Name, f.Name, f.Slot)
				continue
			}
			var got string
			var exp string
			switch f.Kind {
			case KindUID, KindOptUID, KindLong, KindOptLong:
				got, exp = fmt.Sprint(at.GetInt64(at.Pos+o)), fmt.Sprint(want.I)
			case KindInt, KindOptInt:
				got, exp = fmt.Sprint(at.GetInt32(at.Pos+o)), fmt.Sprint(want.I)
			case KindFloat, KindOptFloat:
				got, exp = fmt.Sprint(at.GetFloat32(at.Pos+o)), fmt.Sprint(float32(want.F))
			case KindBool, KindOptBool:
				got, exp = fmt.Sprint(at.GetBool(at.Pos+o)), fmt.Sprint(want.B)
			case KindEnum, KindDataType:
				got, exp = fmt.Sprint(at.GetInt8(at.Pos+o)), fmt.Sprint(want.I)
			case KindString:
				got, exp = at.String(at.Pos+o), want.S
			case KindBytes:
				got, exp = fmt.Sprint(at.ByteVector(at.Pos+o)), fmt.Sprint(want.Bytes)
			case KindUIDList, KindLongList, KindIntList:
				vec := at.Vector(o)
				var l []int64
				for k := 0; k < at.VectorLen(o); k++ {
					if f.Kind == KindIntList {
						l = append(l, int64(at.GetInt32(vec+flatbuffers.UOffsetT(4*k))))
					} else {
						l = append(l, at.GetInt64(vec+flatbuffers.UOffsetT(8*k)))
					}
				}
				got, exp = fmt.Sprint(l), fmt.Sprint(want.List)
			}
			if got != exp {
				t.Errorf("%s.%s slot %d: wire has %s, want %s", node.Op.Name, f.Name, f.Slot, got, exp)
			}
		}
	}
}

// TestDefaultsElided checks the C++-builder behaviour: a node with only
// required fields at their defaults has an attributes vtable with no slots.
func TestDefaultsElided(t *testing.T) {
	for _, op := range Ops() {
		g := &Graph{Nodes: []Node{NewNode(op)}}
		buf, err := EncodeGraph(g)
		if err != nil {
			t.Fatal(err)
		}
		r := newFBReader(buf)
		root, _ := r.offset(0, "root")
		gt, _ := r.table(root, "graph")
		start, _, _, _ := r.vector(gt, graphNodes, 4, "nodes")
		np, _ := r.offset(start, "node")
		nt, _ := r.table(np, "node")
		ap, err := r.offset(r.field(nt, nodeAttributes), "attributes")
		if err != nil {
			t.Fatal(err)
		}
		at, _ := r.table(ap, op.Name)
		for s := 0; s < len(op.Fields); s++ {
			if r.field(at, s) != 0 {
				t.Errorf("%s: slot %d written although default/absent", op.Name, s)
			}
		}
	}
}

func TestTensorUIDs(t *testing.T) {
	op := OpByName("BatchnormAttributes")
	n := NewNode(op)
	set := func(name string, v Value) { i, _ := op.Field(name); n.Values[i] = v }
	set("x_tensor_uid", Value{Set: true, I: 1})
	set("peer_stats_tensor_uid", Value{Set: true, List: []int64{8, 9}})
	set("momentum_tensor_uid", Value{Set: true, I: 5})
	set("y_tensor_uid", Value{Set: true, I: 6})
	set("mean_tensor_uid", Value{Set: true, I: 7})
	if got := fmt.Sprint(n.TensorUIDs(RoleInput)); got != "[1 0 0 0 8 9 5]" {
		t.Errorf("inputs: %s", got)
	}
	if got := fmt.Sprint(n.TensorUIDs(RoleOutput)); got != "[6 7]" {
		t.Errorf("outputs: %s", got)
	}
	if n.TensorUIDs(RoleParam) != nil || (&Node{Tag: 77}).TensorUIDs(RoleInput) != nil {
		t.Error("params and unknown ops name no tensors")
	}
	pw := NewNode(OpByName("PointwiseAttributes"))
	i, _ := pw.Op.Field("axis_tensor_uid")
	pw.Values[i] = Value{Set: true, I: 3}
	if got := fmt.Sprint(pw.TensorUIDs(RoleInput)); got != "[0]" {
		t.Errorf("axis_tensor_uid is an axis, not a tensor: %s", got)
	}
}
