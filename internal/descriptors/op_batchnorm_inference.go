package descriptors

import "github.com/hipdnn-go/backend/internal/api"

// HIPDNN_BACKEND_OPERATION_BATCHNORM_INFERENCE_DESCRIPTOR_EXT: y = (x - mean)·inv_variance·scale + bias.
var _ = registerOp(&opSpec{
	kind:   api.HIPDNN_BACKEND_OPERATION_BATCHNORM_INFERENCE_DESCRIPTOR_EXT,
	opType: api.HIPDNN_OPERATION_TYPE_BATCHNORM_INFERENCE_EXT,
	class:  "BatchnormInferenceOperationDescriptor",
	node:   "BatchnormInferenceAttributes",
	attrs: []opAttr{
		req(api.HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_X_EXT, "x_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_MEAN_EXT, "mean_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_INV_VARIANCE_EXT, "inv_variance_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_SCALE_EXT, "scale_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_BIAS_EXT, "bias_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_Y_EXT, "y_tensor_uid"),
		compute(api.HIPDNN_ATTR_BATCHNORM_INF_COMP_TYPE_EXT),
	},
	check: func(op *Op) error {
		return checkChannelNorm(op, "x_tensor_uid", "y_tensor_uid", "mean_tensor_uid", "inv_variance_tensor_uid", "scale_tensor_uid", "bias_tensor_uid")
	},
})
