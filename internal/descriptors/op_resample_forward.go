package descriptors

import "github.com/hipdnn-go/backend/internal/api"

// HIPDNN_BACKEND_OPERATION_RESAMPLE_FWD_DESCRIPTOR: pooling forward.
var _ = registerOp(&opSpec{
	kind:   api.HIPDNN_BACKEND_OPERATION_RESAMPLE_FWD_DESCRIPTOR,
	opType: api.HIPDNN_OPERATION_TYPE_RESAMPLE_FWD,
	class:  "ResampleFwdOperationDescriptor",
	node:   "ResampleFwdAttributes",
	attrs: append([]opAttr{
		req(api.HIPDNN_ATTR_OPERATION_RESAMPLE_FWD_XDESC, "x_tensor_uid"),
		req(api.HIPDNN_ATTR_OPERATION_RESAMPLE_FWD_YDESC, "y_tensor_uid"),
		opt(api.HIPDNN_ATTR_OPERATION_RESAMPLE_FWD_IDXDESC, "index_tensor_uid"),
		opt(api.HIPDNN_ATTR_RESAMPLE_GENERATE_INDEX_EXT, "generate_index"),
	}, resampleParams...),
	check: func(op *Op) error { return checkResample(op, "x_tensor_uid", "y_tensor_uid") },
})

// resampleParams are shared by resample forward and backward. The compute type may be left
// unset: pooling has no accumulation precision to choose beyond the engine's.
var resampleParams = []opAttr{
	enumReq(api.HIPDNN_ATTR_RESAMPLE_MODE, "resample_mode", api.HIPDNN_TYPE_RESAMPLE_MODE, resampleModeEnum),
	req(api.HIPDNN_ATTR_RESAMPLE_PRE_PADDINGS, "pre_padding"),
	req(api.HIPDNN_ATTR_RESAMPLE_POST_PADDINGS, "post_padding"),
	req(api.HIPDNN_ATTR_RESAMPLE_STRIDES, "stride"),
	req(api.HIPDNN_ATTR_RESAMPLE_WINDOW_DIMS, "window"),
	enumOpt(api.HIPDNN_ATTR_RESAMPLE_PADDING_MODE, "padding_mode", api.HIPDNN_TYPE_PADDING_MODE, paddingModeEnum),
	optCompute(api.HIPDNN_ATTR_RESAMPLE_COMP_TYPE),
}
