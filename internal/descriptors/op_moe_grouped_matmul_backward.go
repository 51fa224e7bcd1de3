package descriptors

import "github.com/hipdnn-go/backend/internal/api"

// HIPDNN_BACKEND_OPERATION_MOE_GROUPED_MATMUL_BWD_DESCRIPTOR: weight gradient of the grouped matmul.
var _ = registerOp(&opSpec{
	kind:   api.HIPDNN_BACKEND_OPERATION_MOE_GROUPED_MATMUL_BWD_DESCRIPTOR,
	opType: api.HIPDNN_OPERATION_TYPE_MOE_GROUPED_MATMUL_BWD_EXT,
	class:  "MoeGroupedMatmulBwdOperationDescriptor",
	node:   "MoeGroupedMatmulBwdAttributes",
	attrs: []opAttr{
		req(api.HIPDNN_ATTR_OPERATION_MOE_GROUPED_MATMUL_BWD_DOUTPUT_DESC, "doutput_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_MOE_GROUPED_MATMUL_BWD_TOKEN_DESC, "token_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_MOE_GROUPED_MATMUL_BWD_FIRST_TOKEN_OFFSET_DESC, "first_token_offset_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_MOE_GROUPED_MATMUL_BWD_DWEIGHT_DESC, "dweight_tensor_uid"),
		compute(api.HIPDNN_ATTR_OPERATION_MOE_GROUPED_MATMUL_BWD_MATH_PREC),
	},
})
