package descriptors

import "github.com/hipdnn-go/backend/internal/api"

// HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR: out_0 = mode(in_0[, in_1[, in_2]]).
var _ = registerOp(&opSpec{
	kind:   api.HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR,
	opType: api.HIPDNN_OPERATION_TYPE_POINTWISE_EXT,
	class:  "PointwiseOperationDescriptor",
	node:   "PointwiseAttributes",
	attrs: []opAttr{
		req(api.HIPDNN_ATTR_OPERATION_POINTWISE_IN_0_EXT, "in_0_tensor_uid"),
		opt(api.HIPDNN_ATTR_OPERATION_POINTWISE_IN_1_EXT, "in_1_tensor_uid"),
		opt(api.HIPDNN_ATTR_OPERATION_POINTWISE_IN_2_EXT, "in_2_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_POINTWISE_OUT_0_EXT, "out_0_tensor_uid"),
		enumReq(api.HIPDNN_ATTR_POINTWISE_MODE, "operation", api.HIPDNN_TYPE_POINTWISE_MODE, pointwiseModeEnum),
		opt(api.HIPDNN_ATTR_POINTWISE_RELU_LOWER_CLIP, "relu_lower_clip"),
		opt(api.HIPDNN_ATTR_POINTWISE_RELU_UPPER_CLIP, "relu_upper_clip"),
		opt(api.HIPDNN_ATTR_POINTWISE_RELU_LOWER_CLIP_SLOPE, "relu_lower_clip_slope"),
		opt(api.HIPDNN_ATTR_POINTWISE_SWISH_BETA, "swish_beta"),
		opt(api.HIPDNN_ATTR_POINTWISE_ELU_ALPHA, "elu_alpha"),
		opt(api.HIPDNN_ATTR_POINTWISE_SOFTPLUS_BETA, "softplus_beta"),
		opt(api.HIPDNN_ATTR_POINTWISE_AXIS, "axis_tensor_uid"), // an axis index (GEN_INDEX)
		compute(api.HIPDNN_ATTR_POINTWISE_MATH_PREC),
	},
	check: checkPointwise,
})
