package descriptors

import "github.com/hipdnn-go/backend/internal/api"

// HIPDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR: dx = conv_transpose(dy, w).
var _ = registerOp(&opSpec{
	kind:   api.HIPDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR,
	opType: api.HIPDNN_OPERATION_TYPE_CONVOLUTION_BACKWARD_DATA_EXT,
	class:  "ConvolutionBwdOperationDescriptor",
	node:   "ConvolutionBwdAttributes",
	attrs: append([]opAttr{
		req(api.HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DY, "dy_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_W, "w_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DX, "dx_tensor_uid"),
	}, convParams...),
	check: func(op *Op) error { return checkConv(op, "dx_tensor_uid", "w_tensor_uid", "dy_tensor_uid") },
})
