package wire

import (
	"sort"
	"strings"
)

// The op tables below restate §3.4/§3.5 of the plugin API reference: one
// entry per NodeAttributes union member, fields in declaration (= slot)
// order. Slots are assigned by newOp from the order of the arguments.

// upperDomain builds an enum whose JSON spellings are the schema names.
func upperDomain(name string, names ...string) *EnumDomain {
	d := &EnumDomain{Name: name}
	for i, n := range names {
		d.Values = append(d.Values, EnumValue{Value: int64(i), JSON: n})
	}
	return d
}

// Enum domains of the op tables.
var (
	ConvMode = upperDomain("ConvMode", "UNSET", "CONVOLUTION", "CROSS_CORRELATION")

	// PointwiseMode is spelled lower_snake_case in JSON.
	PointwiseMode = func() *EnumDomain {
		d := upperDomain("PointwiseMode",
			"UNSET", "ABS", "ADD", "ADD_SQUARE", "BINARY_SELECT", "CEIL", "CMP_EQ", "CMP_GE",
			"CMP_GT", "CMP_LE", "CMP_LT", "CMP_NEQ", "DIV", "ELU_BWD", "ELU_FWD", "ERF", "EXP",
			"FLOOR", "GELU_APPROX_TANH_BWD", "GELU_APPROX_TANH_FWD", "GELU_BWD", "GELU_FWD",
			"GEN_INDEX", "IDENTITY", "LOG", "LOGICAL_AND", "LOGICAL_NOT", "LOGICAL_OR", "MAX_OP",
			"MIN_OP", "MUL", "NEG", "RECIPROCAL", "RELU_BWD", "RELU_FWD", "RSQRT", "SIGMOID_BWD",
			"SIGMOID_FWD", "SIN", "SOFTPLUS_BWD", "SOFTPLUS_FWD", "SQRT", "SUB", "SWISH_BWD",
			"SWISH_FWD", "TAN", "TANH_BWD", "TANH_FWD")
		for i := range d.Values {
			d.Values[i].JSON = strings.ToLower(d.Values[i].JSON)
		}
		return d
	}()

	// ReductionMode: JSON writes MIN / MAX where the schema says MIN_OP / MAX_OP.
	ReductionMode = &EnumDomain{Name: "ReductionMode", Values: []EnumValue{
		{0, "NOT_SET", nil}, {1, "ADD", nil}, {2, "MUL", nil}, {3, "MIN", []string{"MIN_OP"}},
		{4, "MAX", []string{"MAX_OP"}}, {5, "AMAX", nil}, {6, "AVG", nil}, {7, "NORM1", nil},
		{8, "NORM2", nil}, {9, "MUL_NO_ZEROS", nil},
	}}

	ResampleMode            = upperDomain("ResampleMode", "NOT_SET", "MAXPOOL", "AVGPOOL_EXCLUDE_PADDING", "AVGPOOL_INCLUDE_PADDING")
	PaddingMode             = upperDomain("PaddingMode", "PADDING_NOT_SET", "NEG_INF_PAD", "ZERO_PAD")
	NormFwdPhase            = upperDomain("NormFwdPhase", "NOT_SET", "INFERENCE", "TRAINING")
	DiagonalAlignment       = upperDomain("DiagonalAlignment", "TOP_LEFT", "BOTTOM_RIGHT")
	AttentionImplementation = upperDomain("AttentionImplementation", "AUTO", "COMPOSITE", "UNIFIED")
	MoeGroupedMatmulMode    = upperDomain("MoeGroupedMatmulMode", "NONE", "GATHER", "SCATTER")
)

// Field constructors. Tensor helpers take the role name and append
// "_tensor_uid", the suffix every tensor field of these tables carries.
func in(role string) Field { return Field{Name: role + "_tensor_uid", Kind: KindUID, Role: RoleInput} }
func optIn(role string) Field {
	return Field{Name: role + "_tensor_uid", Kind: KindOptUID, Role: RoleInput}
}
func out(role string) Field {
	return Field{Name: role + "_tensor_uid", Kind: KindUID, Role: RoleOutput}
}
func optOut(role string) Field {
	return Field{Name: role + "_tensor_uid", Kind: KindOptUID, Role: RoleOutput}
}
func inList(name string) Field { return Field{Name: name, Kind: KindUIDList, Role: RoleInput} }
func outList(name string) Field {
	return Field{Name: name, Kind: KindUIDList, Role: RoleOutput}
}
func param(name string, k FieldKind) Field { return Field{Name: name, Kind: k, Role: RoleParam} }
func boolParam(name string) Field          { return param(name, KindBool) }
func enumParam(name string, d *EnumDomain, def int64) Field {
	return Field{Name: name, Kind: KindEnum, Role: RoleParam, Enum: d, Default: def}
}

// umd are the RFC 0019 FLOP/byte expression strings some ROCm commits append.
func umd() []Field { return []Field{param("umd_flops", KindString), param("umd_bytes", KindString)} }

// newOp numbers the slots and puts every field in its JSON section: tensor
// fields by role, parameters in paramSection.
func newOp(tag uint8, name, paramSection string, fields ...Field) *OpSchema {
	op := &OpSchema{Tag: tag, Name: name, Fields: fields, numSlots: len(fields)}
	for i := range fields {
		f := &fields[i]
		f.Slot = i
		switch f.Role {
		case RoleInput:
			f.JSONSection = SectionInputs
		case RoleOutput:
			f.JSONSection = SectionOutputs
		default:
			f.JSONSection = paramSection
		}
		op.encOrder = append(op.encOrder, i)
	}
	// Widest fields first keeps tables free of padding, as flatc's C++
	// Create functions do.
	sort.SliceStable(op.encOrder, func(a, b int) bool {
		return fields[op.encOrder[a]].Kind.wireSize() > fields[op.encOrder[b]].Kind.wireSize()
	})
	return op
}

func concat(parts ...[]Field) []Field {
	var out []Field
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func convOp(tag uint8, name string, a, b, c Field) *OpSchema {
	return newOp(tag, name, SectionParameters, concat([]Field{a, b, c,
		param("pre_padding", KindLongList), param("post_padding", KindLongList),
		param("stride", KindLongList), param("dilation", KindLongList),
		enumParam("conv_mode", ConvMode, 0)}, umd())...)
}

var opList = []*OpSchema{
	newOp(1, "BatchnormInferenceAttributes", SectionAttributes,
		in("x"), in("mean"), in("inv_variance"), in("scale"), in("bias"), out("y")),
	newOp(2, "PointwiseAttributes", SectionInputs,
		enumParam("operation", PointwiseMode, 0),
		param("relu_lower_clip", KindOptFloat), param("relu_upper_clip", KindOptFloat),
		param("relu_lower_clip_slope", KindOptFloat),
		param("axis_tensor_uid", KindOptLong), // an axis index, not a tensor uid
		in("in_0"), optIn("in_1"), optIn("in_2"), out("out_0"),
		param("swish_beta", KindOptFloat), param("elu_alpha", KindOptFloat), param("softplus_beta", KindOptFloat)),
	newOp(3, "BatchnormBackwardAttributes", SectionAttributes,
		in("dy"), in("x"), optIn("mean"), optIn("inv_variance"), in("scale"),
		inList("peer_stats_tensor_uid"), out("dx"), out("dscale"), out("dbias")),
	newOp(4, "BatchnormAttributes", SectionAttributes,
		in("x"), in("scale"), in("bias"), in("epsilon"), inList("peer_stats_tensor_uid"),
		optIn("prev_running_mean"), optIn("prev_running_variance"), optIn("momentum"),
		out("y"), optOut("mean"), optOut("inv_variance"), optOut("next_running_mean"), optOut("next_running_variance")),
	convOp(5, "ConvolutionFwdAttributes", in("x"), in("w"), out("y")),
	convOp(6, "ConvolutionBwdAttributes", in("dy"), in("w"), out("dx")),
	convOp(7, "ConvolutionWrwAttributes", in("x"), in("dy"), out("dw")),
	newOp(8, "BatchnormInferenceAttributesVarianceExt", SectionAttributes,
		in("x"), in("mean"), in("variance"), in("scale"), in("bias"), out("y"), in("epsilon")),
	newOp(9, "MatmulAttributes", SectionAttributes, concat([]Field{in("a"), in("b"), out("c")}, umd())...),
	newOp(10, "RMSNormAttributes", SectionAttributes,
		in("x"), in("scale"), in("epsilon"), out("y"), optIn("bias"), optOut("inv_rms"),
		enumParam("forward_phase", NormFwdPhase, 0)),
	newOp(11, "LayernormAttributes", SectionAttributes,
		in("x"), in("scale"), in("bias"), in("epsilon"), out("y"),
		param("normalized_dim_count", KindLong), optOut("mean"), optOut("inv_variance"),
		enumParam("forward_phase", NormFwdPhase, 0)),
	newOp(12, "SdpaAttributes", SectionAttributes, concat([]Field{
		in("q"), in("k"), in("v"), out("o"),
		optIn("attn_mask"), optIn("scale"), optIn("seq_len_q"), optIn("seq_len_kv"), optIn("seed"),
		optIn("offset"), optIn("dropout_mask"), optIn("dropout_scale"), optIn("page_table_k"),
		optIn("page_table_v"), optIn("block_mask"), optIn("sink_token"), optIn("descale_q"),
		optIn("descale_k"), optIn("descale_v"), optIn("descale_s"), optIn("scale_s"), optIn("scale_o"),
		optOut("stats"), optOut("max"), optOut("sum_exp"), optOut("rng_dump"), optOut("amax_s"), optOut("amax_o"),
		param("generate_stats", KindOptBool), boolParam("alibi_mask"), boolParam("padding_mask"),
		boolParam("causal_mask"), boolParam("causal_mask_bottom_right"),
		param("dropout_probability", KindOptFloat), param("attn_scale_value", KindOptFloat),
		param("left_bound", KindOptLong), param("right_bound", KindOptLong), param("max_seq_len_kv", KindOptInt),
		enumParam("diagonal_alignment", DiagonalAlignment, 0),
		{Name: "mma_core_mode", Kind: KindDataType, Role: RoleParam},
		enumParam("implementation", AttentionImplementation, 0),
	}, umd())...),
	newOp(13, "BlockScaleDequantizeAttributes", SectionAttributes,
		in("x"), in("scale"), out("y"), param("block_size", KindIntList), boolParam("is_negative_scale")),
	newOp(14, "BlockScaleQuantizeAttributes", SectionAttributes,
		in("x"), out("y"), out("scale"), param("block_size", KindInt), param("axis", KindOptLong), boolParam("transpose")),
	newOp(15, "SdpaBackwardAttributes", SectionParameters,
		in("q"), in("k"), in("v"), in("o"), in("do"), in("stats"), out("dq"), out("dk"), out("dv"),
		optIn("scale"), optIn("attn_mask"), optIn("seq_len_q"), optIn("seq_len_kv"), optIn("seed"),
		optIn("offset"), optIn("dropout_mask"), optIn("dropout_scale"), optIn("dropout_scale_inv"),
		optOut("dbias"),
		boolParam("alibi_mask"), boolParam("padding_mask"), boolParam("causal_mask"), boolParam("causal_mask_bottom_right"),
		param("dropout_probability", KindOptFloat), param("attn_scale_value", KindOptFloat),
		param("left_bound", KindOptLong), param("right_bound", KindOptLong),
		enumParam("diagonal_alignment", DiagonalAlignment, 0)),
	newOp(16, "CustomOpAttributes", SectionAttributes,
		param("custom_op_id", KindString), inList("input_tensor_uids"), outList("output_tensor_uids"),
		param("data", KindBytes), param("test_generation_marker", KindInt)),
	newOp(17, "RMSNormBackwardAttributes", SectionAttributes,
		in("dy"), in("x"), in("scale"), in("inv_rms"), out("dx"), out("dscale"), optOut("dbias")),
	newOp(18, "ReductionAttributes", SectionAttributes,
		enumParam("mode", ReductionMode, 0), in("in"), out("out"), boolParam("is_deterministic")),
	newOp(19, "ResampleFwdAttributes", SectionAttributes,
		in("x"), out("y"), optOut("index"),
		param("pre_padding", KindLongList), param("post_padding", KindLongList),
		param("stride", KindLongList), param("window", KindLongList),
		enumParam("resample_mode", ResampleMode, 0), enumParam("padding_mode", PaddingMode, 0),
		param("generate_index", KindOptBool)),
	newOp(20, "LayernormBackwardAttributes", SectionAttributes,
		in("dy"), in("x"), in("scale"), optIn("mean"), optIn("inv_variance"), optIn("epsilon"),
		out("dx"), out("dscale"), out("dbias"), param("normalized_dim_count", KindLong)),
	newOp(21, "ResampleBwdAttributes", SectionAttributes,
		in("dy"), out("dx"), optIn("index"),
		param("pre_padding", KindLongList), param("post_padding", KindLongList),
		param("stride", KindLongList), param("window", KindLongList),
		enumParam("resample_mode", ResampleMode, 0), enumParam("padding_mode", PaddingMode, 0)),
	newOp(22, "MoeGroupedMatmulAttributes", SectionAttributes,
		in("token"), in("weight"), in("first_token_offset"), optIn("token_index"), optIn("token_ks"),
		out("output"), enumParam("mode", MoeGroupedMatmulMode, 0), param("top_k", KindInt)),
	newOp(23, "MoeGroupedMatmulBwdAttributes", SectionAttributes,
		in("doutput"), in("token"), in("first_token_offset"), out("dweight")),
}

var opByName = func() map[string]*OpSchema {
	m := make(map[string]*OpSchema, len(opList))
	for i, op := range opList {
		if int(op.Tag) != i+1 {
			panic("wire: op table out of tag order at " + op.Name)
		}
		m[op.Name] = op
	}
	return m
}()
