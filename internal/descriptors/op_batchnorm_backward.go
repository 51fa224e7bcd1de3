package descriptors

import "github.com/hipdnn-go/backend/internal/api"

// HIPDNN_BACKEND_OPERATION_BATCHNORM_BACKWARD_DESCRIPTOR_EXT: dx, dscale, dbias.
var _ = registerOp(&opSpec{
	kind:   api.HIPDNN_BACKEND_OPERATION_BATCHNORM_BACKWARD_DESCRIPTOR_EXT,
	opType: api.HIPDNN_OPERATION_TYPE_BATCHNORM_BACKWARD_EXT,
	class:  "BatchnormBackwardOperationDescriptor",
	node:   "BatchnormBackwardAttributes",
	attrs: []opAttr{
		req(api.HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DY_EXT, "dy_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_X_EXT, "x_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_SCALE_EXT, "scale_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DX_EXT, "dx_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DSCALE_EXT, "dscale_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DBIAS_EXT, "dbias_tensor_uid"),
		opt(api.HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_MEAN_EXT, "mean_tensor_uid"),
		opt(api.HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_INV_VARIANCE_EXT, "inv_variance_tensor_uid"),
		opt(api.HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_PEER_STATS_EXT, "peer_stats_tensor_uid"),
		compute(api.HIPDNN_ATTR_BATCHNORM_BACKWARD_COMP_TYPE_EXT),
	},
	check: func(op *Op) error {
		if err := allOrNone(op, "mean_tensor_uid", "inv_variance_tensor_uid"); err != nil {
			return err
		}
		if err := sameShape(op, "x_tensor_uid", "dy_tensor_uid", "dx_tensor_uid"); err != nil {
			return err
		}
		return checkChannelNorm(op, "x_tensor_uid", "dx_tensor_uid", "scale_tensor_uid", "dscale_tensor_uid", "dbias_tensor_uid",
			"mean_tensor_uid", "inv_variance_tensor_uid")
	},
})
