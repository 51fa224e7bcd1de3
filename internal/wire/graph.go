package wire

import "strconv"

// ValueKind is the TensorValue union tag (tensor_attributes.fbs).
type ValueKind uint8

// TensorValue union tags, numbered exactly as on the wire.
const (
	ValueNone     ValueKind = 0
	ValueFloat32  ValueKind = 1
	ValueFloat16  ValueKind = 2
	ValueBFloat16 ValueKind = 3
	ValueFloat8   ValueKind = 4
	ValueInt32    ValueKind = 5
	ValueFloat64  ValueKind = 6
	ValueInt64    ValueKind = 7
	ValueBool     ValueKind = 8
)

// Known reports whether k is one of the named ValueKind values.
func (k ValueKind) Known() bool { return int(k) < len(valueKindNames) }

// String returns the union member name ("Float64Value"), or "ValueKind(n)".
func (k ValueKind) String() string {
	if !k.Known() {
		return "ValueKind(" + itoa(int64(k)) + ")"
	}
	return valueKindNames[k]
}

// TensorValue is a compile-time constant scalar carried by a tensor.
// F holds Float32/Float16/BFloat16 (float32-representable) and Float64
// values; I holds Int32, Int64 and Float8 (the raw ubyte) values; B holds
// BoolValue.
type TensorValue struct {
	Kind ValueKind
	F    float64
	I    int64
	B    bool
}

// Tensor is one TensorAttributes table. Dims and Strides are nil when empty.
type Tensor struct {
	UID                    int64
	Name                   string
	DataType               DataType
	Strides, Dims          []int64
	Virtual                bool
	Value                  *TensorValue // nil ⇔ absent
	RuntimePassByValue     bool
	RaggedOffsetUID        *int64 // nil ⇔ absent
	Alignment              int64  // schema default 16
	RaggedOffsetMultiplier int64  // schema default 1
}

// Schema defaults of TensorAttributes fields that are not zero.
const (
	DefaultAlignment              = defaultTensorAttributesAlignment
	DefaultRaggedOffsetMultiplier = defaultTensorAttributesRaggedOffsetMultiplier
)

// EngineAPIVersion is the EngineApiVersion struct of graph.fbs.
type EngineAPIVersion struct{ Major, Minor, Patch uint32 }

// Graph is the root table of graph.fbs.
type Graph struct {
	Name                                              string
	ComputeDataType, IntermediateDataType, IODataType DataType
	Tensors                                           []Tensor
	Nodes                                             []Node
	PreferredEngineID                                 *int64
	IsOverrideShapeEnabled                            bool
	MinRequiredEngineAPIVersion                       *EngineAPIVersion // nil ⇔ absent (means 1.0.0)
	ID                                                *[16]byte         // nil ⇔ absent
}

// Value is the content of one attribute slot, interpreted by the Field it
// belongs to: I for uids, longs, ints, enums and data types; F for floats;
// B for bools; S for strings; List for uid, long and int lists; Bytes for
// [ubyte]. Set=false means absent; for a non-optional scalar that means the
// schema default. Decoders return non-optional scalars with Set=true and the
// default filled in, and empty lists and byte vectors as nil.
type Value struct {
	Set   bool
	I     int64
	F     float64
	B     bool
	S     string
	List  []int64
	Bytes []byte
}

// Node is one Node table. Op is nil when the union tag is unknown to this
// build; Tag always holds the tag and Values is then nil.
type Node struct {
	Name            string
	ComputeDataType DataType
	Op              *OpSchema
	Tag             uint8
	Values          []Value // parallel to Op.Fields
}

// NewNode returns a node of op with every non-optional scalar set to its
// schema default and everything else absent. It allocates Values.
func NewNode(op *OpSchema) Node {
	n := Node{Op: op, Tag: op.Tag, Values: make([]Value, len(op.Fields))}
	for i := range op.Fields {
		n.Values[i] = op.Fields[i].defaultValue()
	}
	return n
}

// TensorUIDs returns the uids of the tensors the node reads (RoleInput) or
// writes (RoleOutput), in field order, skipping unset fields. RoleParam and
// an unknown op give nil. It allocates the result.
func (n *Node) TensorUIDs(role Role) []int64 {
	if n.Op == nil || role == RoleParam {
		return nil
	}
	var out []int64
	for i := range n.Op.Fields {
		f := &n.Op.Fields[i]
		if f.Role != role || i >= len(n.Values) || !n.Values[i].Set {
			continue
		}
		switch f.Kind {
		case KindUID, KindOptUID:
			out = append(out, n.Values[i].I)
		case KindUIDList:
			out = append(out, n.Values[i].List...)
		}
	}
	return out
}

// CheckSupported reports the first thing in g that this build cannot
// interpret — a node whose union tag is unknown, an enum or data type value
// outside its domain, an unknown tensor value kind — as an error wrapping
// ErrUnsupported. DecodeGraph keeps such things so that they can be
// inspected; callers that act on a graph call CheckSupported first.
func (g *Graph) CheckSupported() error {
	if u := g.Unreadable(); len(u) > 0 {
		return u[0].Err
	}
	return nil
}

func (n *Node) checkSupported() error {
	if n.Op == nil {
		return unsupportedf("unknown node type tag %d", n.Tag)
	}
	if !n.ComputeDataType.Known() {
		return unsupportedf("unknown compute data type value %d", n.ComputeDataType)
	}
	if len(n.Values) != len(n.Op.Fields) {
		return malformedf("%s has %d values for %d fields", n.Op.Name, len(n.Values), len(n.Op.Fields))
	}
	for i := range n.Op.Fields {
		f := &n.Op.Fields[i]
		v := &n.Values[i]
		switch f.Kind {
		case KindEnum:
			if v.Set && f.Enum.byValue(v.I) == nil {
				return unsupportedf("%s value %d is not a known %s", f.Name, v.I, f.Enum.Name)
			}
		case KindDataType:
			if v.Set && !DataType(v.I).Known() {
				return unsupportedf("%s value %d is not a known DataType", f.Name, v.I)
			}
		}
	}
	return nil
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }
