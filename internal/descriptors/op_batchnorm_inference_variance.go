package descriptors

import "github.com/hipdnn-go/backend/internal/api"

// HIPDNN_BACKEND_OPERATION_BATCHNORM_INFERENCE_VARIANCE_DESCRIPTOR_EXT: inference batchnorm
// given the variance and epsilon instead of the inverse variance.
var _ = registerOp(&opSpec{
	kind:   api.HIPDNN_BACKEND_OPERATION_BATCHNORM_INFERENCE_VARIANCE_DESCRIPTOR_EXT,
	opType: api.HIPDNN_OPERATION_TYPE_BATCHNORM_INFERENCE_VARIANCE_EXT,
	class:  "BatchnormInferenceVarianceExtOperationDescriptor",
	node:   "BatchnormInferenceAttributesVarianceExt",
	attrs: []opAttr{
		req(api.HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_X_EXT, "x_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_MEAN_EXT, "mean_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_VARIANCE_EXT, "variance_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_SCALE_EXT, "scale_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_BIAS_EXT, "bias_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_Y_EXT, "y_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_EPSILON_EXT, "epsilon_tensor_uid"),
		compute(api.HIPDNN_ATTR_BATCHNORM_INF_VAR_COMP_TYPE_EXT),
	},
	check: func(op *Op) error {
		if err := checkScalarTensor(op, "epsilon_tensor_uid"); err != nil {
			return err
		}
		return checkChannelNorm(op, "x_tensor_uid", "y_tensor_uid", "mean_tensor_uid", "variance_tensor_uid", "scale_tensor_uid", "bias_tensor_uid")
	},
})
