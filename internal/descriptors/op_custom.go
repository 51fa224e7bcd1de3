package descriptors

import (
	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/status"
)

// HIPDNN_BACKEND_OPERATION_CUSTOM_OP_DESCRIPTOR_EXT: an operation only a plugin knows,
// identified by a dotted id ("example.rope") and carrying opaque bytes.
var _ = registerOp(&opSpec{
	kind:   api.HIPDNN_BACKEND_OPERATION_CUSTOM_OP_DESCRIPTOR_EXT,
	opType: api.HIPDNN_OPERATION_TYPE_CUSTOM_OP_EXT,
	class:  "CustomOpOperationDescriptor",
	node:   "CustomOpAttributes",
	attrs: []opAttr{
		opt(api.HIPDNN_ATTR_OPERATION_CUSTOM_OP_INPUTS_EXT, "input_tensor_uids"),
		opt(api.HIPDNN_ATTR_OPERATION_CUSTOM_OP_OUTPUTS_EXT, "output_tensor_uids"),
		req(api.HIPDNN_ATTR_OPERATION_CUSTOM_OP_ID_EXT, "custom_op_id"),
		opt(api.HIPDNN_ATTR_OPERATION_CUSTOM_OP_DATA_EXT, "data"),
		compute(api.HIPDNN_ATTR_CUSTOM_OP_COMP_TYPE_EXT),
	},
	check: func(op *Op) error {
		if v, _ := op.fieldOf("custom_op_id"); v.S == "" {
			return stepf(status.BadParam, "HIPDNN_ATTR_OPERATION_CUSTOM_OP_ID_EXT is empty")
		}
		return nil
	},
})
