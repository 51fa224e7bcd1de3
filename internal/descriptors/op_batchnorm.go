package descriptors

import "github.com/hipdnn-go/backend/internal/api"

// HIPDNN_BACKEND_OPERATION_BATCHNORM_DESCRIPTOR_EXT: training-mode batchnorm forward.
var _ = registerOp(&opSpec{
	kind:   api.HIPDNN_BACKEND_OPERATION_BATCHNORM_DESCRIPTOR_EXT,
	opType: api.HIPDNN_OPERATION_TYPE_BATCHNORM_EXT,
	class:  "BatchnormOperationDescriptor",
	node:   "BatchnormAttributes",
	attrs: []opAttr{
		req(api.HIPDNN_ATTR_OPERATION_BATCHNORM_X_EXT, "x_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_BATCHNORM_SCALE_EXT, "scale_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_BATCHNORM_BIAS_EXT, "bias_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_BATCHNORM_EPSILON_EXT, "epsilon_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_BATCHNORM_Y_EXT, "y_tensor_uid"),
		opt(api.HIPDNN_ATTR_OPERATION_BATCHNORM_PREV_RUNNING_MEAN_EXT, "prev_running_mean_tensor_uid"),
		opt(api.HIPDNN_ATTR_OPERATION_BATCHNORM_PREV_RUNNING_VARIANCE_EXT, "prev_running_variance_tensor_uid"),
		opt(api.HIPDNN_ATTR_OPERATION_BATCHNORM_MOMENTUM_EXT, "momentum_tensor_uid"),
		opt(api.HIPDNN_ATTR_OPERATION_BATCHNORM_MEAN_EXT, "mean_tensor_uid"),
		opt(api.HIPDNN_ATTR_OPERATION_BATCHNORM_INV_VARIANCE_EXT, "inv_variance_tensor_uid"),
		opt(api.HIPDNN_ATTR_OPERATION_BATCHNORM_NEXT_RUNNING_MEAN_EXT, "next_running_mean_tensor_uid"),
		opt(api.HIPDNN_ATTR_OPERATION_BATCHNORM_NEXT_RUNNING_VARIANCE_EXT, "next_running_variance_tensor_uid"),
		opt(api.HIPDNN_ATTR_OPERATION_BATCHNORM_PEER_STATS_EXT, "peer_stats_tensor_uid"),
		compute(api.HIPDNN_ATTR_BATCHNORM_COMP_TYPE_EXT),
	},
	check: func(op *Op) error {
		if err := allOrNone(op, "mean_tensor_uid", "inv_variance_tensor_uid"); err != nil {
			return err
		}
		if err := allOrNone(op, "prev_running_mean_tensor_uid", "prev_running_variance_tensor_uid", "momentum_tensor_uid",
			"next_running_mean_tensor_uid", "next_running_variance_tensor_uid"); err != nil {
			return err
		}
		if err := checkScalarTensor(op, "epsilon_tensor_uid", "momentum_tensor_uid"); err != nil {
			return err
		}
		return checkChannelNorm(op, "x_tensor_uid", "y_tensor_uid", "scale_tensor_uid", "bias_tensor_uid", "mean_tensor_uid",
			"inv_variance_tensor_uid", "prev_running_mean_tensor_uid", "prev_running_variance_tensor_uid",
			"next_running_mean_tensor_uid", "next_running_variance_tensor_uid")
	},
})
