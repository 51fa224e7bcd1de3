package descriptors

import "github.com/hipdnn-go/backend/internal/api"

// HIPDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR: dw from x and dy.
var _ = registerOp(&opSpec{
	kind:   api.HIPDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR,
	opType: api.HIPDNN_OPERATION_TYPE_CONVOLUTION_BACKWARD_WEIGHTS_EXT,
	class:  "ConvolutionWrwOperationDescriptor",
	node:   "ConvolutionWrwAttributes",
	attrs: append([]opAttr{
		req(api.HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_X, "x_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DY, "dy_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DW, "dw_tensor_uid"),
	}, convParams...),
	check: func(op *Op) error { return checkConv(op, "x_tensor_uid", "dw_tensor_uid", "dy_tensor_uid") },
})
