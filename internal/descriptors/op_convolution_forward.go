package descriptors

import "github.com/hipdnn-go/backend/internal/api"

// HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR: y = conv(x, w).
var _ = registerOp(&opSpec{
	kind:   api.HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR,
	opType: api.HIPDNN_OPERATION_TYPE_CONVOLUTION_FORWARD_EXT,
	class:  "ConvolutionFwdOperationDescriptor",
	node:   "ConvolutionFwdAttributes",
	attrs: append([]opAttr{
		req(api.HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, "x_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W, "w_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y, "y_tensor_uid"),
	}, convParams...),
	check: func(op *Op) error { return checkConv(op, "x_tensor_uid", "w_tensor_uid", "y_tensor_uid") },
})

// convParams are shared by the three convolution descriptors.
var convParams = []opAttr{
	req(api.HIPDNN_ATTR_CONVOLUTION_PRE_PADDINGS, "pre_padding"),
	req(api.HIPDNN_ATTR_CONVOLUTION_POST_PADDINGS, "post_padding"),
	req(api.HIPDNN_ATTR_CONVOLUTION_FILTER_STRIDES, "stride"),
	req(api.HIPDNN_ATTR_CONVOLUTION_DILATIONS, "dilation"),
	enumReq(api.HIPDNN_ATTR_CONVOLUTION_CONV_MODE, "conv_mode", api.HIPDNN_TYPE_CONVOLUTION_MODE, convModeEnum),
	compute(api.HIPDNN_ATTR_CONVOLUTION_COMP_TYPE),
}
