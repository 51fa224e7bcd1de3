package descriptors

import "github.com/hipdnn-go/backend/internal/api"

// HIPDNN_BACKEND_OPERATION_RMSNORM_DESCRIPTOR_EXT: y = x / rms(x) · scale (+ bias).
var _ = registerOp(&opSpec{
	kind:   api.HIPDNN_BACKEND_OPERATION_RMSNORM_DESCRIPTOR_EXT,
	opType: api.HIPDNN_OPERATION_TYPE_RMSNORM_EXT,
	class:  "RMSNormOperationDescriptor",
	node:   "RMSNormAttributes",
	attrs: []opAttr{
		req(api.HIPDNN_ATTR_OPERATION_RMSNORM_X_EXT, "x_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_RMSNORM_SCALE_EXT, "scale_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_RMSNORM_EPSILON_EXT, "epsilon_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_RMSNORM_Y_EXT, "y_tensor_uid"),
		opt(api.HIPDNN_ATTR_OPERATION_RMSNORM_BIAS_EXT, "bias_tensor_uid"),
		opt(api.HIPDNN_ATTR_OPERATION_RMSNORM_INV_RMS_EXT, "inv_rms_tensor_uid"),
		enumReq(api.HIPDNN_ATTR_OPERATION_RMSNORM_FWD_PHASE_EXT, "forward_phase", api.HIPDNN_TYPE_NORM_FWD_PHASE, normPhaseEnum),
		compute(api.HIPDNN_ATTR_RMSNORM_COMP_TYPE_EXT),
	},
	check: func(op *Op) error {
		if err := checkScalarTensor(op, "epsilon_tensor_uid"); err != nil {
			return err
		}
		return checkFeatureNorm(op, "x_tensor_uid", "y_tensor_uid", []string{"scale_tensor_uid", "bias_tensor_uid"},
			[]string{"inv_rms_tensor_uid"})
	},
})
