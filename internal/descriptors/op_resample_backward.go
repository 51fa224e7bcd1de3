package descriptors

import "github.com/hipdnn-go/backend/internal/api"

// HIPDNN_BACKEND_OPERATION_RESAMPLE_BWD_DESCRIPTOR: pooling backward.
var _ = registerOp(&opSpec{
	kind:   api.HIPDNN_BACKEND_OPERATION_RESAMPLE_BWD_DESCRIPTOR,
	opType: api.HIPDNN_OPERATION_TYPE_RESAMPLE_BWD,
	class:  "ResampleBwdOperationDescriptor",
	node:   "ResampleBwdAttributes",
	attrs: append([]opAttr{
		req(api.HIPDNN_ATTR_OPERATION_RESAMPLE_BWD_DYDESC, "dy_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_RESAMPLE_BWD_DXDESC, "dx_tensor_uid"),
		opt(api.HIPDNN_ATTR_OPERATION_RESAMPLE_BWD_IDXDESC, "index_tensor_uid"),
	}, resampleParams...),
	check: func(op *Op) error { return checkResample(op, "dx_tensor_uid", "dy_tensor_uid") },
})
