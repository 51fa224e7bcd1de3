package descriptors

import "github.com/hipdnn-go/backend/internal/api"

// HIPDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR: c = a · b with batch broadcast.
var _ = registerOp(&opSpec{
	kind:   api.HIPDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR,
	opType: api.HIPDNN_OPERATION_TYPE_MATMUL_EXT,
	class:  "MatmulOperationDescriptor",
	node:   "MatmulAttributes",
	attrs: []opAttr{
		req(api.HIPDNN_ATTR_OPERATION_MATMUL_ADESC, "a_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_MATMUL_BDESC, "b_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_MATMUL_CDESC, "c_tensor_uid"),
		compute(api.HIPDNN_ATTR_MATMUL_COMP_TYPE),
	},
	check: checkMatmul,
})
