package descriptors

import "github.com/hipdnn-go/backend/internal/api"

// HIPDNN_BACKEND_OPERATION_LAYERNORM_DESCRIPTOR_EXT: normalization over the trailing
// normalized_dim_count dimensions.
var _ = registerOp(&opSpec{
	kind:   api.HIPDNN_BACKEND_OPERATION_LAYERNORM_DESCRIPTOR_EXT,
	opType: api.HIPDNN_OPERATION_TYPE_LAYERNORM_EXT,
	class:  "LayernormOperationDescriptor",
	node:   "LayernormAttributes",
	attrs: []opAttr{
		req(api.HIPDNN_ATTR_OPERATION_LAYERNORM_X_EXT, "x_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_LAYERNORM_SCALE_EXT, "scale_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_LAYERNORM_BIAS_EXT, "bias_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_LAYERNORM_EPSILON_EXT, "epsilon_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_LAYERNORM_Y_EXT, "y_tensor_uid"),
		opt(api.HIPDNN_ATTR_OPERATION_LAYERNORM_MEAN_EXT, "mean_tensor_uid"),
		opt(api.HIPDNN_ATTR_OPERATION_LAYERNORM_INV_VARIANCE_EXT, "inv_variance_tensor_uid"),
		enumReq(api.HIPDNN_ATTR_OPERATION_LAYERNORM_FWD_PHASE_EXT, "forward_phase", api.HIPDNN_TYPE_NORM_FWD_PHASE, normPhaseEnum),
		opt(api.HIPDNN_ATTR_OPERATION_LAYERNORM_NORMALIZED_DIM_COUNT_EXT, "normalized_dim_count"),
		compute(api.HIPDNN_ATTR_LAYERNORM_COMP_TYPE_EXT),
	},
	check: func(op *Op) error {
		if err := allOrNone(op, "mean_tensor_uid", "inv_variance_tensor_uid"); err != nil {
			return err
		}
		if err := checkScalarTensor(op, "epsilon_tensor_uid"); err != nil {
			return err
		}
		return checkFeatureNorm(op, "x_tensor_uid", "y_tensor_uid", []string{"scale_tensor_uid", "bias_tensor_uid"},
			[]string{"mean_tensor_uid", "inv_variance_tensor_uid"})
	},
})
