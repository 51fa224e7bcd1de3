package descriptors

import "github.com/hipdnn-go/backend/internal/api"

// HIPDNN_BACKEND_OPERATION_SDPA_BWD_DESCRIPTOR_EXT: scaled dot-product attention backward.
var _ = registerOp(&opSpec{
	kind:   api.HIPDNN_BACKEND_OPERATION_SDPA_BWD_DESCRIPTOR_EXT,
	opType: api.HIPDNN_OPERATION_TYPE_SDPA_BACKWARD_EXT,
	class:  "SdpaBwdOperationDescriptor",
	node:   "SdpaBackwardAttributes",
	attrs: []opAttr{
		req(api.HIPDNN_ATTR_OPERATION_SDPA_BWD_Q_EXT, "q_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_SDPA_BWD_K_EXT, "k_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_SDPA_BWD_V_EXT, "v_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_SDPA_BWD_O_EXT, "o_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_SDPA_BWD_DO_EXT, "do_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_SDPA_BWD_STATS_EXT, "stats_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_SDPA_BWD_DQ_EXT, "dq_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_SDPA_BWD_DK_EXT, "dk_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_SDPA_BWD_DV_EXT, "dv_tensor_uid"),
		opt(api.HIPDNN_ATTR_OPERATION_SDPA_BWD_SCALE_EXT, "scale_tensor_uid"),
		opt(api.HIPDNN_ATTR_OPERATION_SDPA_BWD_ATTN_MASK_EXT, "attn_mask_tensor_uid"),
		opt(api.HIPDNN_ATTR_OPERATION_SDPA_BWD_SEQ_LEN_Q_EXT, "seq_len_q_tensor_uid"),
		opt(api.HIPDNN_ATTR_OPERATION_SDPA_BWD_SEQ_LEN_KV_EXT, "seq_len_kv_tensor_uid"),
		opt(api.HIPDNN_ATTR_OPERATION_SDPA_BWD_SEED_EXT, "seed_tensor_uid"),
		opt(api.HIPDNN_ATTR_OPERATION_SDPA_BWD_OFFSET_EXT, "offset_tensor_uid"),
		opt(api.HIPDNN_ATTR_OPERATION_SDPA_BWD_DROPOUT_MASK_EXT, "dropout_mask_tensor_uid"),
		opt(api.HIPDNN_ATTR_OPERATION_SDPA_BWD_DROPOUT_SCALE_EXT, "dropout_scale_tensor_uid"),
		opt(api.HIPDNN_ATTR_OPERATION_SDPA_BWD_DROPOUT_SCALE_INV_EXT, "dropout_scale_inv_tensor_uid"),
		opt(api.HIPDNN_ATTR_OPERATION_SDPA_BWD_DBIAS_EXT, "dbias_tensor_uid"),
		opt(api.HIPDNN_ATTR_SDPA_BWD_ALIBI_MASK_EXT, "alibi_mask"),
		opt(api.HIPDNN_ATTR_SDPA_BWD_PADDING_MASK_EXT, "padding_mask"),
		opt(api.HIPDNN_ATTR_SDPA_BWD_CAUSAL_MASK_EXT, "causal_mask"),
		opt(api.HIPDNN_ATTR_SDPA_BWD_CAUSAL_MASK_BOTTOM_RIGHT_EXT, "causal_mask_bottom_right"),
		opt(api.HIPDNN_ATTR_SDPA_BWD_DROPOUT_PROBABILITY_EXT, "dropout_probability"),
		opt(api.HIPDNN_ATTR_SDPA_BWD_ATTN_SCALE_VALUE_EXT, "attn_scale_value"),
		opt(api.HIPDNN_ATTR_SDPA_BWD_LEFT_BOUND_EXT, "left_bound"),
		opt(api.HIPDNN_ATTR_SDPA_BWD_RIGHT_BOUND_EXT, "right_bound"),
		enumOpt(api.HIPDNN_ATTR_SDPA_BWD_DIAGONAL_ALIGNMENT_EXT, "diagonal_alignment", api.HIPDNN_TYPE_DIAGONAL_ALIGNMENT_EXT, diagAlignEnum),
		compute(api.HIPDNN_ATTR_SDPA_BWD_COMP_TYPE_EXT),
	},
	check: checkSdpaBackward,
})
