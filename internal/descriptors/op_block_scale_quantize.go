package descriptors

import "github.com/hipdnn-go/backend/internal/api"

// HIPDNN_BACKEND_OPERATION_BLOCK_SCALE_QUANTIZE_DESCRIPTOR: y and per-block scales from x.
var _ = registerOp(&opSpec{
	kind:   api.HIPDNN_BACKEND_OPERATION_BLOCK_SCALE_QUANTIZE_DESCRIPTOR,
	opType: api.HIPDNN_OPERATION_TYPE_BLOCK_SCALE_QUANTIZE_EXT,
	class:  "BlockScaleQuantizeOperationDescriptor",
	node:   "BlockScaleQuantizeAttributes",
	attrs: []opAttr{
		req(api.HIPDNN_ATTR_OPERATION_BLOCK_SCALE_QUANTIZE_XDESC, "x_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_BLOCK_SCALE_QUANTIZE_YDESC, "y_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_BLOCK_SCALE_QUANTIZE_SCALE_DESC, "scale_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_BLOCK_SCALE_QUANTIZE_BLOCK_SIZE, "block_size"),
		opt(api.HIPDNN_ATTR_OPERATION_BLOCK_SCALE_QUANTIZE_AXIS_EXT, "axis"),
		opt(api.HIPDNN_ATTR_OPERATION_BLOCK_SCALE_QUANTIZE_TRANSPOSE_EXT, "transpose"),
		compute(api.HIPDNN_ATTR_OPERATION_BLOCK_SCALE_QUANTIZE_MATH_PREC),
	},
	check: func(op *Op) error {
		if err := positiveInts(op, "block_size"); err != nil {
			return err
		}
		return sameShape(op, "x_tensor_uid", "y_tensor_uid")
	},
})
