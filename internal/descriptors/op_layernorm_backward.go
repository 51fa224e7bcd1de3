package descriptors

import "github.com/hipdnn-go/backend/internal/api"

// HIPDNN_BACKEND_OPERATION_LAYERNORM_BACKWARD_DESCRIPTOR_EXT: dx, dscale, dbias of layernorm.
var _ = registerOp(&opSpec{
	kind:   api.HIPDNN_BACKEND_OPERATION_LAYERNORM_BACKWARD_DESCRIPTOR_EXT,
	opType: api.HIPDNN_OPERATION_TYPE_LAYERNORM_BACKWARD_EXT,
	class:  "LayernormBackwardOperationDescriptor",
	node:   "LayernormBackwardAttributes",
	attrs: []opAttr{
		req(api.HIPDNN_ATTR_OPERATION_LAYERNORM_BACKWARD_DY_EXT, "dy_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_LAYERNORM_BACKWARD_X_EXT, "x_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_LAYERNORM_BACKWARD_SCALE_EXT, "scale_tensor_uid"),
		opt(api.HIPDNN_ATTR_OPERATION_LAYERNORM_BACKWARD_MEAN_EXT, "mean_tensor_uid"),
		opt(api.HIPDNN_ATTR_OPERATION_LAYERNORM_BACKWARD_INV_VARIANCE_EXT, "inv_variance_tensor_uid"),
		opt(api.HIPDNN_ATTR_OPERATION_LAYERNORM_BACKWARD_EPSILON_EXT, "epsilon_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_LAYERNORM_BACKWARD_DX_EXT, "dx_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_LAYERNORM_BACKWARD_DSCALE_EXT, "dscale_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_LAYERNORM_BACKWARD_DBIAS_EXT, "dbias_tensor_uid"),
		opt(api.HIPDNN_ATTR_LAYERNORM_BACKWARD_NORMALIZED_DIM_COUNT_EXT, "normalized_dim_count"),
		compute(api.HIPDNN_ATTR_LAYERNORM_BACKWARD_COMP_TYPE_EXT),
	},
	check: func(op *Op) error {
		if err := allOrNone(op, "mean_tensor_uid", "inv_variance_tensor_uid"); err != nil {
			return err
		}
		if err := sameShape(op, "x_tensor_uid", "dy_tensor_uid", "dx_tensor_uid"); err != nil {
			return err
		}
		return checkFeatureNorm(op, "x_tensor_uid", "dx_tensor_uid", []string{"scale_tensor_uid", "dscale_tensor_uid", "dbias_tensor_uid"},
			[]string{"mean_tensor_uid", "inv_variance_tensor_uid"})
	},
})
