package descriptors

import "github.com/hipdnn-go/backend/internal/api"

// HIPDNN_BACKEND_OPERATION_REDUCTION_DESCRIPTOR: y = reduce(x) over the axes where y has 1.
var _ = registerOp(&opSpec{
	kind:   api.HIPDNN_BACKEND_OPERATION_REDUCTION_DESCRIPTOR,
	opType: api.HIPDNN_OPERATION_TYPE_REDUCTION_EXT,
	class:  "ReductionOperationDescriptor",
	node:   "ReductionAttributes",
	attrs: []opAttr{
		req(api.HIPDNN_ATTR_OPERATION_REDUCTION_XDESC, "in_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_REDUCTION_YDESC, "out_tensor_uid"),
		enumReq(api.HIPDNN_ATTR_REDUCTION_OPERATOR, "mode", api.HIPDNN_TYPE_REDUCTION_OPERATOR_TYPE, reduceOpEnum),
		opt(api.HIPDNN_ATTR_REDUCTION_IS_DETERMINISTIC, "is_deterministic"),
		compute(api.HIPDNN_ATTR_REDUCTION_COMP_TYPE),
	},
	check: checkReduction,
})
