package descriptors

import (
	"fmt"
	"math"
	"strings"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/status"
	"github.com/hipdnn-go/backend/internal/wire"
)

// Op is any operation descriptor. Its state is a wire.Node (the flatbuffer node the graph
// will carry) plus the tensor descriptors behind the node's tensor fields.
type Op struct {
	Header
	spec    *opSpec
	node    wire.Node
	given   []bool      // fields the caller set; NewNode pre-fills schema defaults
	tensors [][]*Tensor // per field: the tensor descriptor(s) of tensor fields
	compSet bool        // compute data type given
}

// opSpec declares one operation descriptor kind: which C attribute sets which field of the
// operation's node table.
type opSpec struct {
	kind   api.DescriptorType
	opType api.OperationType
	class  string // AMD's implementation name, used in messages
	node   string // wire union member, e.g. "ConvolutionFwdAttributes"
	attrs  []opAttr
	check  func(op *Op) error // shape and consistency validation at finalize

	schema *wire.OpSchema
	kindSp *KindSpec
}

// opAttr maps one C attribute onto a node field ("" for the node's compute data type).
type opAttr struct {
	name     api.AttributeName
	field    string
	required bool
	ctype    api.AttributeType // C element type for scalars and enums (default from the field kind)
	enum     *enumMap          // the C enum of enum fields
	offset   int64             // wire value − C value of enum fields, set by registerOp
}

func req(name api.AttributeName, field string) opAttr {
	return opAttr{name: name, field: field, required: true}
}
func opt(name api.AttributeName, field string) opAttr { return opAttr{name: name, field: field} }

// compute is the COMP_TYPE / MATH_PREC attribute: the node's compute data type.
func compute(name api.AttributeName) opAttr { return opAttr{name: name, required: true} }

// optCompute is a compute type the caller may leave unset (the node then says UNSET).
func optCompute(name api.AttributeName) opAttr { return opAttr{name: name} }

func enumReq(name api.AttributeName, field string, ctype api.AttributeType, m *enumMap) opAttr {
	return opAttr{name: name, field: field, required: true, ctype: ctype, enum: m}
}

func enumOpt(name api.AttributeName, field string, ctype api.AttributeType, m *enumMap) opAttr {
	return opAttr{name: name, field: field, ctype: ctype, enum: m}
}

// enumMap is the C enum of an enum attribute: which values are valid, and the
// enumerators by name, from which registerOp derives the conversion to the
// field's wire enum.
type enumMap struct {
	valid func(c int64) bool
	names map[string]int64
	// legacyInt64 accepts HIPDNN_TYPE_INT64 holding the wire value directly (the older
	// generation of CONV_MODE did that).
	legacyInt64 bool
}

// cEnum describes the C enum T with the enumerators of the generated api package.
func cEnum[T interface {
	~int32
	String() string
	IsValid() bool
}]() *enumMap {
	m := &enumMap{valid: func(c int64) bool { return T(c).IsValid() }, names: map[string]int64{}}
	for name, v := range api.AllConstants {
		if v >= math.MinInt32 && v <= math.MaxInt32 && T(v).IsValid() && T(v).String() == name {
			m.names[name] = v
		}
	}
	return m
}

var (
	convModeEnum = func() *enumMap {
		m := cEnum[api.ConvolutionMode]()
		m.legacyInt64 = true
		return m
	}()
	pointwiseModeEnum = cEnum[api.PointwiseMode]()
	reduceOpEnum      = cEnum[api.ReduceTensorOp]()
	resampleModeEnum  = cEnum[api.ResampleMode]()
	paddingModeEnum   = cEnum[api.PaddingMode]()
	normPhaseEnum     = cEnum[api.NormFwdPhase]()
	diagAlignEnum     = cEnum[api.DiagonalAlignment]()
	attnImplEnum      = cEnum[api.AttentionImplementation]()
	moeModeEnum       = cEnum[api.MoeGroupedMatmulMode]()
)

// enumOffset derives wire value − C value from the names: the header and the
// schema name the same values, the header with a common prefix
// (HIPDNN_POINTWISE_) and at times an _EXT suffix, the schema with _OP after
// MIN and MAX (flatc's C++ enums reserve the plain names). Every C value
// must have its schema value, at one offset for all: the schema may add a
// value in front (ConvMode's UNSET makes the offset 1), not reorder.
func enumOffset(c map[string]int64, d *wire.EnumDomain) (int64, error) {
	prefix := ""
	for name := range c {
		if prefix == "" {
			prefix = name
		}
		for !strings.HasPrefix(name, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	prefix = prefix[:strings.LastIndexByte(prefix, '_')+1]
	var offset int64
	first := true
	for name, cv := range c {
		short := strings.TrimSuffix(strings.TrimPrefix(name, prefix), "_EXT")
		var w *wire.EnumValue
		for i := range d.Values {
			if v := &d.Values[i]; v.Name == short || v.Name == short+"_OP" {
				w = v
			}
		}
		if w == nil {
			return 0, fmt.Errorf("%s has no value for %s", d.Name, name)
		}
		if !first && w.Value-cv != offset {
			return 0, fmt.Errorf("%s: %s is %d, %s is %d: no common offset", d.Name, name, cv, w.Name, w.Value)
		}
		offset, first = w.Value-cv, false
	}
	if first {
		return 0, fmt.Errorf("%s: the C enum has no values", d.Name)
	}
	return offset, nil
}

var opSpecs = map[api.DescriptorType]*opSpec{}

// IsOperation reports whether a descriptor type is an operation.
func IsOperation(t api.DescriptorType) bool { _, ok := opSpecs[t]; return ok }

// registerOp builds the KindSpec of an operation from its table. Every operation also has
// OPERATION_NAME_EXT (the node name) and OPERATION_TYPE_EXT (read-only).
func registerOp(s *opSpec) *opSpec {
	s.schema = wire.OpByName(s.node)
	if s.schema == nil {
		panic("descriptors: no wire schema for " + s.node)
	}
	k := &KindSpec{Kind: s.kind, Class: s.class, Finalize: finalizeOp,
		New: func(k *KindSpec) Object { return newOp(s, k) }}
	for _, oa := range s.attrs {
		if oa.enum != nil {
			_, f := s.schema.Field(oa.field)
			off, err := enumOffset(oa.enum.names, f.Enum)
			if err != nil {
				panic(fmt.Sprintf("descriptors: %s.%s: %v", s.node, oa.field, err))
			}
			oa.offset = off
		}
		k.Attrs = append(k.Attrs, s.attr(oa))
	}
	k.Attrs = append(k.Attrs,
		&Attr{Name: api.HIPDNN_ATTR_OPERATION_NAME_EXT, Type: api.HIPDNN_TYPE_CHAR, Min: 0, Max: -1, Settable: true, Gettable: true,
			OnSet:   func(o Object, v *Value) error { o.(*Op).node.Name = v.Str(); return nil },
			Compute: func(o Object) (Value, error) { return strValue(o.(*Op).node.Name), nil }},
		&Attr{Name: api.HIPDNN_ATTR_OPERATION_TYPE_EXT, Type: api.HIPDNN_TYPE_OPERATION_TYPE_EXT, Max: 1, Gettable: true, GetUnfinalized: true,
			Compute: func(o Object) (Value, error) {
				return Value{Set: true, Type: api.HIPDNN_TYPE_OPERATION_TYPE_EXT, I: int64(s.opType)}, nil
			}},
	)
	s.kindSp = register(k)
	opSpecs[s.kind] = s
	opByNode[s.node] = s
	return s
}

var opByNode = map[string]*opSpec{}

func strValue(s string) Value { return Value{Set: true, Type: api.HIPDNN_TYPE_CHAR, Bytes: []byte(s)} }

func newOp(s *opSpec, k *KindSpec) *Op {
	return newOpWith(s, k, wire.NewNode(s.schema))
}

// newOpWith makes an operation around a node it takes ownership of.
func newOpWith(s *opSpec, k *KindSpec, node wire.Node) *Op {
	op := &Op{spec: s, node: node}
	k.init(&op.Header)
	op.given = make([]bool, len(s.schema.Fields))
	op.tensors = make([][]*Tensor, len(s.schema.Fields))
	return op
}

// attr turns one table row into the generic attribute declaration.
func (s *opSpec) attr(oa opAttr) *Attr {
	a := &Attr{Name: oa.name, Settable: true, Gettable: true, Required: oa.required, Min: 1, Max: 1}
	if oa.field == "" { // compute data type
		a.Type = api.HIPDNN_TYPE_DATA_TYPE
		a.Validate = validDataType
		a.OnSet = func(o Object, v *Value) error {
			op := o.(*Op)
			dt, ok := WireDataType(api.DataType(v.I))
			if !ok {
				return status.NotSupported("%s: compute type %v has no flatbuffer DataType", s.class, api.DataType(v.I))
			}
			op.node.ComputeDataType, op.compSet = dt, true
			return nil
		}
		a.IsSet = func(o Object) bool { return o.(*Op).compSet }
		a.Compute = func(o Object) (Value, error) {
			op := o.(*Op)
			if !op.compSet {
				return Value{}, nil
			}
			c, _ := CDataType(op.node.ComputeDataType)
			return Value{Set: true, Type: api.HIPDNN_TYPE_DATA_TYPE, I: int64(c)}, nil
		}
		return a
	}
	idx, f := s.schema.Field(oa.field)
	if f == nil {
		panic(fmt.Sprintf("descriptors: %s has no field %q", s.node, oa.field))
	}
	a.IsSet = func(o Object) bool { return o.(*Op).given[idx] }
	switch f.Kind {
	case wire.KindUID, wire.KindOptUID, wire.KindUIDList:
		a.Type = api.HIPDNN_TYPE_BACKEND_DESCRIPTOR
		a.DescKinds = []api.DescriptorType{api.HIPDNN_BACKEND_TENSOR_DESCRIPTOR}
		if f.Kind == wire.KindUIDList {
			a.Min, a.Max = 0, -1
		}
		a.OnSet = func(o Object, v *Value) error { return o.(*Op).setTensors(idx, v.Objs) }
		a.Compute = func(o Object) (Value, error) { return o.(*Op).tensorValue(idx), nil }
		a.FullGet = f.Kind == wire.KindUIDList
		return a
	case wire.KindLongList, wire.KindIntList:
		a.Type, a.Max = api.HIPDNN_TYPE_INT64, -1
	case wire.KindLong, wire.KindOptLong, wire.KindInt, wire.KindOptInt:
		a.Type = api.HIPDNN_TYPE_INT64
		if oa.ctype != 0 {
			a.Type = oa.ctype
		}
	case wire.KindFloat, wire.KindOptFloat:
		a.Type = api.HIPDNN_TYPE_FLOAT
	case wire.KindBool, wire.KindOptBool:
		a.Type = api.HIPDNN_TYPE_BOOLEAN
	case wire.KindEnum:
		a.Type = oa.ctype
		if oa.enum.legacyInt64 {
			a.Alt = []api.AttributeType{api.HIPDNN_TYPE_INT64}
		}
	case wire.KindDataType:
		a.Type = api.HIPDNN_TYPE_DATA_TYPE
	case wire.KindString:
		a.Type, a.Min, a.Max = api.HIPDNN_TYPE_CHAR, 0, -1
	case wire.KindBytes:
		a.Type, a.Min, a.Max, a.RawBytes = api.HIPDNN_TYPE_CHAR, 0, -1, true
	default:
		panic(fmt.Sprintf("descriptors: %s.%s has unmapped kind %v", s.node, f.Name, f.Kind))
	}
	a.OnSet = func(o Object, v *Value) error { return o.(*Op).setField(idx, oa, v) }
	a.Compute = func(o Object) (Value, error) { return o.(*Op).fieldValue(idx, oa, a.Type), nil }
	return a
}

func (op *Op) setTensors(idx int, objs []Object) error {
	ts := make([]*Tensor, len(objs))
	uids := make([]int64, len(objs))
	for i, o := range objs {
		ts[i] = o.(*Tensor)
		uids[i] = ts[i].UID()
	}
	op.tensors[idx] = ts
	v := &op.node.Values[idx]
	if op.spec.schema.Fields[idx].Kind == wire.KindUIDList {
		*v = wire.Value{Set: true, List: uids}
	} else {
		*v = wire.Value{Set: true, I: uids[0]}
	}
	op.given[idx] = true
	return nil
}

func (op *Op) tensorValue(idx int) Value {
	if !op.given[idx] {
		return Value{}
	}
	objs := make([]Object, len(op.tensors[idx]))
	for i, t := range op.tensors[idx] {
		objs[i] = t
	}
	return Value{Set: true, Type: api.HIPDNN_TYPE_BACKEND_DESCRIPTOR, Objs: objs}
}

// setField stores a non-tensor attribute in the node, converting C values to wire values.
func (op *Op) setField(idx int, oa opAttr, v *Value) error {
	f := &op.spec.schema.Fields[idx]
	// Lists and bytes reuse the field's own arrays: an unfinalized op's node is not shared.
	old := &op.node.Values[idx]
	w := wire.Value{Set: true}
	switch f.Kind {
	case wire.KindLongList:
		w.List = append(old.List[:0], v.Ints...)
	case wire.KindIntList:
		for _, x := range v.Ints {
			if x < math.MinInt32 || x > math.MaxInt32 {
				return stepf(status.BadParam, "%v element %d does not fit in 32 bits", oa.name, x)
			}
		}
		w.List = append(old.List[:0], v.Ints...)
	case wire.KindInt, wire.KindOptInt:
		if v.I < math.MinInt32 || v.I > math.MaxInt32 {
			return stepf(status.BadParam, "%v value %d does not fit in 32 bits", oa.name, v.I)
		}
		w.I = v.I
	case wire.KindLong, wire.KindOptLong:
		w.I = v.I
	case wire.KindFloat, wire.KindOptFloat:
		w.F = v.F
	case wire.KindBool, wire.KindOptBool:
		w.B = v.I != 0
	case wire.KindEnum:
		if v.Type == api.HIPDNN_TYPE_INT64 && oa.enum.legacyInt64 {
			if f.Enum != nil && !enumHas(f.Enum, v.I) || v.I == 0 {
				return stepf(status.BadParam, "%v value %d is not a valid %s", oa.name, v.I, f.Enum.Name)
			}
			w.I = v.I
			break
		}
		if !oa.enum.valid(v.I) {
			return stepf(status.BadParam, "%d is not a valid %v value for %v", v.I, oa.ctype, oa.name)
		}
		w.I = v.I + oa.offset
	case wire.KindDataType:
		if !api.DataType(v.I).IsValid() {
			return stepf(status.BadParam, "%d is not a hipdnnDataType_t", v.I)
		}
		dt, ok := WireDataType(api.DataType(v.I))
		if !ok {
			return stepf(status.NotSupported, "%v has no flatbuffer DataType", api.DataType(v.I))
		}
		w.I = int64(dt)
	case wire.KindString:
		w.S = v.Str()
	case wire.KindBytes:
		w.Bytes = append(old.Bytes[:0], v.Bytes...)
	}
	op.node.Values[idx] = w
	op.given[idx] = true
	return nil
}

func enumHas(d *wire.EnumDomain, v int64) bool {
	for _, ev := range d.Values {
		if ev.Value == v {
			return true
		}
	}
	return false
}

// fieldValue reads a node field back in C form.
func (op *Op) fieldValue(idx int, oa opAttr, t api.AttributeType) Value {
	f := &op.spec.schema.Fields[idx]
	w := op.node.Values[idx]
	if !op.given[idx] || !w.Set {
		return Value{}
	}
	v := Value{Set: true, Type: t}
	switch f.Kind {
	case wire.KindLongList, wire.KindIntList:
		v.Ints = w.List
	case wire.KindFloat, wire.KindOptFloat:
		v.F = w.F
	case wire.KindBool, wire.KindOptBool:
		if w.B {
			v.I = 1
		}
	case wire.KindEnum:
		v.I = w.I - oa.offset
	case wire.KindDataType:
		c, ok := CDataType(wire.DataType(w.I))
		if !ok {
			return Value{} // UNSET reads back as "not set"
		}
		v.I = int64(c)
	case wire.KindString:
		v.Bytes = []byte(w.S)
	case wire.KindBytes:
		v.Bytes = w.Bytes
	default:
		v.I = w.I
	}
	return v
}

// finalizeOp runs the operation's own checks once its required attributes are present.
func finalizeOp(o Object) error {
	op := o.(*Op)
	if op.spec.check != nil {
		return op.spec.check(op)
	}
	return nil
}

// Node returns the operation's node for serialization. It is shared: callers must not modify it.
func (op *Op) Node() *wire.Node { return &op.node }

// OpSpecName is the wire union member of the operation ("ConvolutionFwdAttributes").
func (op *Op) OpSpecName() string { return op.spec.node }

// tensor returns the tensor descriptor set for a field (nil if unset or a list).
func (op *Op) tensor(field string) *Tensor {
	idx, _ := op.spec.schema.Field(field)
	if idx < 0 || len(op.tensors[idx]) != 1 {
		return nil
	}
	return op.tensors[idx][0]
}

// Tensors returns every tensor the operation references, inputs first, in field order.
func (op *Op) Tensors() []*Tensor {
	var out []*Tensor
	for _, role := range []wire.Role{wire.RoleInput, wire.RoleOutput} {
		for i, f := range op.spec.schema.Fields {
			if f.Role == role {
				out = append(out, op.tensors[i]...)
			}
		}
	}
	return out
}

// fieldOf returns a node field value by name (for validation).
func (op *Op) fieldOf(name string) (wire.Value, bool) {
	idx, _ := op.spec.schema.Field(name)
	if idx < 0 {
		return wire.Value{}, false
	}
	return op.node.Values[idx], op.given[idx] || op.node.Values[idx].Set
}

// liftOp makes a finalized operation descriptor from a deserialized node (the "fromNode" path
// of graph deserialization): tensor fields are resolved through the graph's tensors; the
// operation takes n's values over, so the caller must not use n afterwards. A node
// whose compute type is missing or UNSET takes the graph's (graphCompute), as the frontend
// fills node compute types from the graph's context; real graph files rely on it.
func liftOp(n *wire.Node, tensors map[int64]*Tensor, graphCompute wire.DataType) (*Op, error) {
	s := opByNode[n.Op.Name]
	if s == nil {
		return nil, status.NotSupported("operation %s is not supported by this backend", n.Op.Name)
	}
	// The decoded node is not used after lifting, so the operation takes its values over.
	op := newOpWith(s, s.kindSp, *n)
	if op.node.ComputeDataType == wire.DataTypeUnset {
		op.node.ComputeDataType = graphCompute
	}
	op.compSet = op.node.ComputeDataType != wire.DataTypeUnset
	for i, f := range s.schema.Fields {
		v := n.Values[i]
		op.given[i] = v.Set
		if !v.Set {
			continue
		}
		switch f.Kind {
		case wire.KindUID, wire.KindOptUID:
			t := tensors[v.I]
			if t == nil {
				return nil, status.BadParam("node %q (%s): %s refers to tensor uid %d, which the graph does not define", n.Name, n.Op.Name, f.Name, v.I)
			}
			op.tensors[i] = []*Tensor{t}
		case wire.KindUIDList:
			for _, uid := range v.List {
				t := tensors[uid]
				if t == nil {
					return nil, status.BadParam("node %q (%s): %s refers to tensor uid %d, which the graph does not define", n.Name, n.Op.Name, f.Name, uid)
				}
				op.tensors[i] = append(op.tensors[i], t)
			}
		}
	}
	if err := Finalize(op); err != nil {
		return nil, status.Wrap(err, "node %q (%s)", n.Name, n.Op.Name)
	}
	return op, nil
}
