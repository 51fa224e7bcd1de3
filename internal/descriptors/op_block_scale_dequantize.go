package descriptors

import "github.com/hipdnn-go/backend/internal/api"

// HIPDNN_BACKEND_OPERATION_BLOCK_SCALE_DEQUANTIZE_DESCRIPTOR: y = x · scale per block.
var _ = registerOp(&opSpec{
	kind:   api.HIPDNN_BACKEND_OPERATION_BLOCK_SCALE_DEQUANTIZE_DESCRIPTOR,
	opType: api.HIPDNN_OPERATION_TYPE_BLOCK_SCALE_DEQUANTIZE_EXT,
	class:  "BlockScaleDequantizeOperationDescriptor",
	node:   "BlockScaleDequantizeAttributes",
	attrs: []opAttr{
		req(api.HIPDNN_ATTR_OPERATION_BLOCK_SCALE_DEQUANTIZE_XDESC, "x_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_BLOCK_SCALE_DEQUANTIZE_SCALE_DESC, "scale_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_BLOCK_SCALE_DEQUANTIZE_YDESC, "y_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_BLOCK_SCALE_DEQUANTIZE_BLOCK_SIZE, "block_size"),
		opt(api.HIPDNN_ATTR_OPERATION_BLOCK_SCALE_DEQUANTIZE_NEG_SCALE, "is_negative_scale"),
		compute(api.HIPDNN_ATTR_OPERATION_BLOCK_SCALE_DEQUANTIZE_MATH_PREC),
	},
	check: func(op *Op) error {
		if err := positiveInts(op, "block_size"); err != nil {
			return err
		}
		return sameShape(op, "x_tensor_uid", "y_tensor_uid")
	},
})
