package descriptors

import "github.com/hipdnn-go/backend/internal/api"

// HIPDNN_BACKEND_OPERATION_MOE_GROUPED_MATMUL_DESCRIPTOR: per-expert matmul of routed tokens.
var _ = registerOp(&opSpec{
	kind:   api.HIPDNN_BACKEND_OPERATION_MOE_GROUPED_MATMUL_DESCRIPTOR,
	opType: api.HIPDNN_OPERATION_TYPE_MOE_GROUPED_MATMUL_EXT,
	class:  "MoeGroupedMatmulOperationDescriptor",
	node:   "MoeGroupedMatmulAttributes",
	attrs: []opAttr{
		req(api.HIPDNN_ATTR_OPERATION_MOE_GROUPED_MATMUL_TOKEN_DESC, "token_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_MOE_GROUPED_MATMUL_WEIGHT_DESC, "weight_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_MOE_GROUPED_MATMUL_FIRST_TOKEN_OFFSET_DESC, "first_token_offset_tensor_uid"),
		opt(api.HIPDNN_ATTR_OPERATION_MOE_GROUPED_MATMUL_TOKEN_INDEX_DESC, "token_index_tensor_uid"),
		opt(api.HIPDNN_ATTR_OPERATION_MOE_GROUPED_MATMUL_TOKEN_KS_DESC, "token_ks_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_MOE_GROUPED_MATMUL_OUTPUT_DESC, "output_tensor_uid"),
		enumReq(api.HIPDNN_ATTR_OPERATION_MOE_GROUPED_MATMUL_MODE, "mode", api.HIPDNN_TYPE_MOE_GROUPED_MATMUL_MODE, moeModeEnum),
		opt(api.HIPDNN_ATTR_OPERATION_MOE_GROUPED_MATMUL_TOP_K, "top_k"),
		compute(api.HIPDNN_ATTR_OPERATION_MOE_GROUPED_MATMUL_MATH_PREC),
	},
})
