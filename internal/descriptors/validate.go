package descriptors

import (
	"fmt"
	"strings"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/status"
)

// Shape checks run when an operation is finalized (and when a deserialized node is lifted).
// AMD's backend checks only that required attributes are present; a user gains from hearing
// at finalize, with the numbers, that an output shape does not follow from the inputs rather
// than from an engine later. Every message names the operation and quotes the values.

func (op *Op) fail(format string, args ...any) error {
	return status.BadParam("%s::finalize() failed: %s", op.spec.class, fmt.Sprintf(format, args...))
}

// role is a field name without its "_tensor_uid" suffix, for messages.
func role(field string) string { return strings.TrimSuffix(field, "_tensor_uid") }

// Dims returns the tensor's dimensions.
func (t *Tensor) Dims() []int64 { return t.value(api.HIPDNN_ATTR_TENSOR_DIMENSIONS).Ints }

// Strides returns the tensor's strides.
func (t *Tensor) Strides() []int64 { return t.value(api.HIPDNN_ATTR_TENSOR_STRIDES).Ints }

// DataType returns the tensor's C data type.
func (t *Tensor) DataType() api.DataType {
	return api.DataType(t.value(api.HIPDNN_ATTR_TENSOR_DATA_TYPE).I)
}

// Virtual reports whether the tensor is virtual (lives inside the graph only).
func (t *Tensor) Virtual() bool { return t.value(api.HIPDNN_ATTR_TENSOR_IS_VIRTUAL).I != 0 }

func elements(d []int64) int64 {
	n := int64(1)
	for _, x := range d {
		n *= x
	}
	return n
}

func dimsEqual(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// broadcastsTo reports whether src broadcasts to dst NumPy-style (right-aligned, each dim
// equal or 1).
func broadcastsTo(src, dst []int64) bool {
	if len(src) > len(dst) {
		return false
	}
	off := len(dst) - len(src)
	for i, d := range src {
		if d != 1 && d != dst[off+i] {
			return false
		}
	}
	return true
}

func allOrNone(op *Op, fields ...string) error {
	var set, unset []string
	for _, f := range fields {
		if op.isGiven(f) {
			set = append(set, role(f))
		} else {
			unset = append(unset, role(f))
		}
	}
	if len(set) > 0 && len(unset) > 0 {
		return op.fail("%s must be given together: %s set but %s missing", strings.Join(roles(fields), ", "),
			strings.Join(set, ", "), strings.Join(unset, ", "))
	}
	return nil
}

func roles(fields []string) []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = role(f)
	}
	return out
}

func (op *Op) isGiven(field string) bool {
	idx, _ := op.spec.schema.Field(field)
	return idx >= 0 && op.given[idx]
}

func sameShape(op *Op, fields ...string) error {
	var first *Tensor
	var firstName string
	for _, f := range fields {
		t := op.tensor(f)
		if t == nil {
			continue
		}
		if first == nil {
			first, firstName = t, f
			continue
		}
		if !dimsEqual(first.Dims(), t.Dims()) {
			return op.fail("%s has dimensions %v but %s has %v; they must be equal", role(f), t.Dims(), role(firstName), first.Dims())
		}
	}
	return nil
}

func checkScalarTensor(op *Op, fields ...string) error {
	for _, f := range fields {
		if t := op.tensor(f); t != nil && elements(t.Dims()) != 1 {
			return op.fail("%s must hold one element, has dimensions %v", role(f), t.Dims())
		}
	}
	return nil
}

func positiveInts(op *Op, field string) error {
	v, _ := op.fieldOf(field)
	vals := v.List
	if vals == nil {
		vals = []int64{v.I}
	}
	for _, x := range vals {
		if x <= 0 {
			return op.fail("%s must be positive, got %v", field, vals)
		}
	}
	return nil
}

// checkConv validates a convolution given the roles of its activation (x or dx), filter (w
// or dw) and result (y or dy): the output size rule, groups and parameter lengths.
func checkConv(op *Op, xf, wf, yf string) error {
	x, w, y := op.tensor(xf), op.tensor(wf), op.tensor(yf)
	xd, wd, yd := x.Dims(), w.Dims(), y.Dims()
	if len(xd) < 3 || len(xd) > 5 {
		return op.fail("%s has rank %d; convolutions take 1 to 3 spatial dimensions (rank 3 to 5)", role(xf), len(xd))
	}
	if len(wd) != len(xd) || len(yd) != len(xd) {
		return op.fail("%s, %s and %s must have the same rank, got %v, %v and %v", role(xf), role(wf), role(yf), xd, wd, yd)
	}
	spatial := len(xd) - 2
	params := map[string][]int64{}
	for _, p := range []string{"pre_padding", "post_padding", "stride", "dilation"} {
		v, _ := op.fieldOf(p)
		if len(v.List) != spatial {
			return op.fail("%s has %d values, the tensors have %d spatial dimensions", p, len(v.List), spatial)
		}
		min := int64(1)
		if strings.HasSuffix(p, "padding") {
			min = 0
		}
		for _, x := range v.List {
			if x < min {
				return op.fail("%s %v: every value must be at least %d", p, v.List, min)
			}
		}
		params[p] = v.List
	}
	if mode, _ := op.fieldOf("conv_mode"); mode.I == 0 {
		return op.fail("conv_mode is not set")
	}
	if xd[0] != yd[0] {
		return op.fail("batch size differs: %s has %d, %s has %d", role(xf), xd[0], role(yf), yd[0])
	}
	c, k, cPerGroup := xd[1], yd[1], wd[1]
	if wd[0] != k {
		return op.fail("%s has %d output channels (dimension 0) but %s has %d channels", role(wf), wd[0], role(yf), k)
	}
	if cPerGroup <= 0 || c%cPerGroup != 0 {
		return op.fail("%s has %d channels, not a multiple of %s's %d input channels per group", role(xf), c, role(wf), cPerGroup)
	}
	if groups := c / cPerGroup; k%groups != 0 {
		return op.fail("%d groups (from %d channels / %d per group) do not divide %d output channels", groups, c, cPerGroup, k)
	}
	for i := 0; i < spatial; i++ {
		in, kern := xd[2+i], wd[2+i]
		pre, post, s, d := params["pre_padding"][i], params["post_padding"][i], params["stride"][i], params["dilation"][i]
		span := d*(kern-1) + 1
		if in+pre+post < span {
			return op.fail("spatial dimension %d: the dilated filter (%d) is larger than the padded input (%d)", i, span, in+pre+post)
		}
		want := (in+pre+post-span)/s + 1
		if yd[2+i] != want {
			return op.fail("%s spatial dimension %d is %d, but (%s %d + pre %d + post %d - (dilation %d·(filter %d-1)+1)) / stride %d + 1 = %d",
				role(yf), i, yd[2+i], role(xf), in, pre, post, d, kern, s, want)
		}
	}
	return nil
}

// checkMatmul: a [..., M, K] · b [..., K, N] = c [..., M, N], batch dimensions broadcast.
func checkMatmul(op *Op) error {
	a, b, c := op.tensor("a_tensor_uid").Dims(), op.tensor("b_tensor_uid").Dims(), op.tensor("c_tensor_uid").Dims()
	if len(a) < 2 || len(b) < 2 || len(c) < 2 {
		return op.fail("a, b and c need rank 2 or more, got %v, %v and %v", a, b, c)
	}
	m, k := a[len(a)-2], a[len(a)-1]
	kb, n := b[len(b)-2], b[len(b)-1]
	if k != kb {
		return op.fail("inner dimensions differ: a is %v (K=%d), b is %v (K=%d)", a, k, b, kb)
	}
	if c[len(c)-2] != m || c[len(c)-1] != n {
		return op.fail("c is %v but a·b is %d×%d", c, m, n)
	}
	cb := c[:len(c)-2]
	if !broadcastsTo(a[:len(a)-2], cb) || !broadcastsTo(b[:len(b)-2], cb) {
		return op.fail("batch dimensions of a %v and b %v do not broadcast to c's %v", a[:len(a)-2], b[:len(b)-2], cb)
	}
	return nil
}

// pointwiseArity is the number of inputs each pointwise mode takes (cuDNN semantics): the
// backward modes take (dy, x), BINARY_SELECT takes (a, b, selector).
func pointwiseArity(m api.PointwiseMode) int {
	switch m {
	case api.HIPDNN_POINTWISE_ADD, api.HIPDNN_POINTWISE_ADD_SQUARE, api.HIPDNN_POINTWISE_DIV,
		api.HIPDNN_POINTWISE_MAX, api.HIPDNN_POINTWISE_MIN, api.HIPDNN_POINTWISE_MUL, api.HIPDNN_POINTWISE_SUB,
		api.HIPDNN_POINTWISE_CMP_EQ, api.HIPDNN_POINTWISE_CMP_NEQ, api.HIPDNN_POINTWISE_CMP_GT,
		api.HIPDNN_POINTWISE_CMP_GE, api.HIPDNN_POINTWISE_CMP_LT, api.HIPDNN_POINTWISE_CMP_LE,
		api.HIPDNN_POINTWISE_LOGICAL_AND, api.HIPDNN_POINTWISE_LOGICAL_OR,
		api.HIPDNN_POINTWISE_RELU_BWD, api.HIPDNN_POINTWISE_TANH_BWD, api.HIPDNN_POINTWISE_SIGMOID_BWD,
		api.HIPDNN_POINTWISE_ELU_BWD, api.HIPDNN_POINTWISE_GELU_BWD, api.HIPDNN_POINTWISE_GELU_APPROX_TANH_BWD,
		api.HIPDNN_POINTWISE_SOFTPLUS_BWD, api.HIPDNN_POINTWISE_SWISH_BWD:
		return 2
	case api.HIPDNN_POINTWISE_BINARY_SELECT:
		return 3
	}
	return 1
}

func checkPointwise(op *Op) error {
	mv, _ := op.fieldOf("operation")
	mode := api.PointwiseMode(mv.I)
	want := pointwiseArity(mode)
	ins := []string{"in_0_tensor_uid", "in_1_tensor_uid", "in_2_tensor_uid"}
	for i, f := range ins {
		has := op.tensor(f) != nil
		if i < want && !has {
			return op.fail("%v takes %d input(s); %s is not set", mode, want, role(f))
		}
		if i >= want && has {
			return op.fail("%v takes %d input(s); %s must not be set", mode, want, role(f))
		}
	}
	out := op.tensor("out_0_tensor_uid").Dims()
	for _, f := range ins[:want] {
		if d := op.tensor(f).Dims(); !broadcastsTo(d, out) {
			return op.fail("%s %v does not broadcast to out_0 %v", role(f), d, out)
		}
	}
	if mode == api.HIPDNN_POINTWISE_GEN_INDEX {
		ax, _ := op.fieldOf("axis_tensor_uid")
		if !op.isGiven("axis_tensor_uid") {
			return op.fail("GEN_INDEX needs HIPDNN_ATTR_POINTWISE_AXIS")
		}
		if ax.I < 0 || ax.I >= int64(len(out)) {
			return op.fail("GEN_INDEX axis %d is outside [0, %d)", ax.I, len(out))
		}
	}
	return nil
}

// checkChannelNorm: batchnorm-style per-channel tensors are [1, C, 1, ...] against x [N, C, ...].
func checkChannelNorm(op *Op, xf, yf string, perChannel ...string) error {
	x := op.tensor(xf).Dims()
	if len(x) < 2 {
		return op.fail("%s needs rank 2 or more, got %v", role(xf), x)
	}
	if err := sameShape(op, xf, yf); err != nil {
		return err
	}
	c := x[1]
	for _, f := range perChannel {
		t := op.tensor(f)
		if t == nil {
			continue
		}
		d := t.Dims()
		ok := len(d) == len(x) && d[1] == c && elements(d) == c
		if !ok {
			return op.fail("%s has dimensions %v; per-channel tensors must be [1, %d, 1, ...] for %s %v", role(f), d, c, role(xf), x)
		}
	}
	return nil
}

// checkFeatureNorm: layernorm/rmsnorm parameter and statistics tensors broadcast against x.
func checkFeatureNorm(op *Op, xf, yf string, params, stats []string) error {
	if err := sameShape(op, xf, yf); err != nil {
		return err
	}
	x := op.tensor(xf).Dims()
	for _, f := range append(append([]string{}, params...), stats...) {
		t := op.tensor(f)
		if t == nil {
			continue
		}
		if d := t.Dims(); !broadcastsTo(d, x) {
			return op.fail("%s %v does not broadcast against %s %v", role(f), d, role(xf), x)
		}
	}
	return nil
}

func checkReduction(op *Op) error {
	x, y := op.tensor("in_tensor_uid").Dims(), op.tensor("out_tensor_uid").Dims()
	if len(x) != len(y) {
		return op.fail("x %v and y %v must have the same rank", x, y)
	}
	for i := range x {
		if y[i] != x[i] && y[i] != 1 {
			return op.fail("y dimension %d is %d; it must equal x's %d or be 1 (a reduced axis)", i, y[i], x[i])
		}
	}
	return nil
}

// checkResample validates pooling shapes: y = floor((x + pre + post - window) / stride) + 1.
func checkResample(op *Op, xf, yf string) error {
	x, y := op.tensor(xf).Dims(), op.tensor(yf).Dims()
	if len(x) < 3 || len(y) != len(x) {
		return op.fail("%s %v and %s %v must have the same rank of 3 or more", role(xf), x, role(yf), y)
	}
	spatial := len(x) - 2
	p := map[string][]int64{}
	for _, name := range []string{"pre_padding", "post_padding", "stride", "window"} {
		v, _ := op.fieldOf(name)
		if len(v.List) != spatial {
			return op.fail("%s has %d values, the tensors have %d spatial dimensions", name, len(v.List), spatial)
		}
		p[name] = v.List
	}
	if mode, _ := op.fieldOf("resample_mode"); mode.I == 0 {
		return op.fail("resample_mode is not set")
	}
	if x[0] != y[0] || x[1] != y[1] {
		return op.fail("%s %v and %s %v must agree on batch and channels", role(xf), x, role(yf), y)
	}
	for i := 0; i < spatial; i++ {
		s, w := p["stride"][i], p["window"][i]
		if s <= 0 || w <= 0 || p["pre_padding"][i] < 0 || p["post_padding"][i] < 0 {
			return op.fail("spatial dimension %d: window %d and stride %d must be positive, paddings non-negative", i, w, s)
		}
		want := (x[2+i]+p["pre_padding"][i]+p["post_padding"][i]-w)/s + 1
		if y[2+i] != want {
			return op.fail("%s spatial dimension %d is %d, but (%d + %d + %d - window %d) / stride %d + 1 = %d",
				role(yf), i, y[2+i], x[2+i], p["pre_padding"][i], p["post_padding"][i], w, s, want)
		}
	}
	if idx := op.tensor("index_tensor_uid"); idx != nil {
		want := y
		if xf == "dx_tensor_uid" {
			want = op.tensor("dy_tensor_uid").Dims()
		}
		if !dimsEqual(idx.Dims(), want) {
			return op.fail("index %v must have the pooled shape %v", idx.Dims(), want)
		}
	}
	return nil
}

// checkSdpaForward: Q [B,Hq,Sq,D], K [B,Hk,Skv,D], V [B,Hv,Skv,Dv], O [B,Hq,Sq,Dv]; Hq a
// multiple of Hk and Hv (grouped- and multi-query attention). Paged K/V (page tables set)
// have a block layout and are not checked against Q.
func checkSdpaForward(op *Op) error {
	q, k, v, o := op.tensor("q_tensor_uid").Dims(), op.tensor("k_tensor_uid").Dims(), op.tensor("v_tensor_uid").Dims(), op.tensor("o_tensor_uid").Dims()
	if len(q) != 4 || len(o) != 4 {
		return op.fail("q %v and o %v must be rank 4 [batch, heads, sequence, head dim]", q, o)
	}
	if q[0] != o[0] || q[1] != o[1] || q[2] != o[2] {
		return op.fail("o %v must match q %v in batch, heads and sequence", o, q)
	}
	if op.tensor("page_table_k_tensor_uid") == nil && op.tensor("page_table_v_tensor_uid") == nil {
		if err := checkAttentionKV(op, q, k, v, o); err != nil {
			return err
		}
	}
	if st := op.tensor("stats_tensor_uid"); st != nil {
		if d := st.Dims(); len(d) != 4 || d[0] != q[0] || d[1] != q[1] || d[2] != q[2] || d[3] != 1 {
			return op.fail("stats %v must be [%d, %d, %d, 1]", d, q[0], q[1], q[2])
		}
	}
	return checkScalarTensor(op, "scale_tensor_uid")
}

func checkAttentionKV(op *Op, q, k, v, o []int64) error {
	if len(k) != 4 || len(v) != 4 {
		return op.fail("k %v and v %v must be rank 4", k, v)
	}
	if k[0] != q[0] || v[0] != q[0] {
		return op.fail("batch differs: q %v, k %v, v %v", q, k, v)
	}
	if k[3] != q[3] {
		return op.fail("head dimension of k %v differs from q %v", k, q)
	}
	if k[2] != v[2] {
		return op.fail("k %v and v %v must have the same sequence length", k, v)
	}
	for _, h := range []struct {
		name string
		n    int64
	}{{"k", k[1]}, {"v", v[1]}} {
		if h.n <= 0 || q[1]%h.n != 0 {
			return op.fail("q has %d heads, not a multiple of %s's %d (grouped-query attention needs a multiple)", q[1], h.name, h.n)
		}
	}
	if o[3] != v[3] {
		return op.fail("o head dimension %d differs from v's %d", o[3], v[3])
	}
	return nil
}

func checkSdpaBackward(op *Op) error {
	q, k, v, o := op.tensor("q_tensor_uid").Dims(), op.tensor("k_tensor_uid").Dims(), op.tensor("v_tensor_uid").Dims(), op.tensor("o_tensor_uid").Dims()
	if len(q) != 4 || len(o) != 4 {
		return op.fail("q %v and o %v must be rank 4 [batch, heads, sequence, head dim]", q, o)
	}
	if err := checkAttentionKV(op, q, k, v, o); err != nil {
		return err
	}
	for _, pair := range [][2]string{{"dq_tensor_uid", "q_tensor_uid"}, {"dk_tensor_uid", "k_tensor_uid"},
		{"dv_tensor_uid", "v_tensor_uid"}, {"do_tensor_uid", "o_tensor_uid"}} {
		if err := sameShape(op, pair[1], pair[0]); err != nil {
			return err
		}
	}
	return checkScalarTensor(op, "scale_tensor_uid")
}
