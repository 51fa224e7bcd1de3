package descriptors

import "github.com/hipdnn-go/backend/internal/api"

// HIPDNN_BACKEND_OPERATION_RMSNORM_BACKWARD_DESCRIPTOR_EXT: dx, dscale (and dbias) of rmsnorm.
var _ = registerOp(&opSpec{
	kind:   api.HIPDNN_BACKEND_OPERATION_RMSNORM_BACKWARD_DESCRIPTOR_EXT,
	opType: api.HIPDNN_OPERATION_TYPE_RMSNORM_BACKWARD_EXT,
	class:  "RMSNormBackwardOperationDescriptor",
	node:   "RMSNormBackwardAttributes",
	attrs: []opAttr{
		req(api.HIPDNN_ATTR_OPERATION_RMSNORM_BACKWARD_DY_EXT, "dy_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_RMSNORM_BACKWARD_X_EXT, "x_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_RMSNORM_BACKWARD_SCALE_EXT, "scale_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_RMSNORM_BACKWARD_INV_RMS_EXT, "inv_rms_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_RMSNORM_BACKWARD_DX_EXT, "dx_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_RMSNORM_BACKWARD_DSCALE_EXT, "dscale_tensor_uid"),
		opt(api.HIPDNN_ATTR_OPERATION_RMSNORM_BACKWARD_DBIAS_EXT, "dbias_tensor_uid"),
		compute(api.HIPDNN_ATTR_RMSNORM_BACKWARD_COMP_TYPE_EXT),
	},
	check: func(op *Op) error {
		if err := sameShape(op, "x_tensor_uid", "dy_tensor_uid", "dx_tensor_uid"); err != nil {
			return err
		}
		return checkFeatureNorm(op, "x_tensor_uid", "dx_tensor_uid", []string{"scale_tensor_uid", "dscale_tensor_uid", "dbias_tensor_uid"},
			[]string{"inv_rms_tensor_uid"})
	},
})
