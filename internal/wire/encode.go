package wire

import (
	"math"
	"sync"

	flatbuffers "github.com/google/flatbuffers/go"
)

// encoder holds a Builder and scratch slices; encoders are pooled so that
// EncodeGraph allocates little beyond its result.
type encoder struct {
	b       *flatbuffers.Builder
	offs    []flatbuffers.UOffsetT // per-field offsets of the table being built
	tensors []flatbuffers.UOffsetT
	nodes   []flatbuffers.UOffsetT
}

var encoderPool = sync.Pool{New: func() any {
	return &encoder{b: flatbuffers.NewBuilder(4096)}
}}

// maxPooledBuilder keeps one huge graph from pinning its buffer in the pool.
const maxPooledBuilder = 1 << 20

// EncodeGraph serializes g as a finished Graph flatbuffer with no file
// identifier and no size prefix, the form plugins receive. Like flatc's C++
// builder with force_defaults off, it omits absent optionals and scalars
// equal to their schema default; names, dims and strides are always
// written (possibly empty) because C++ readers dereference them unchecked.
// Values that do not fit their wire type give an error wrapping
// ErrMalformed; a node whose op is unknown (Op == nil) or a tensor value of
// unknown kind gives one wrapping ErrUnsupported. Enum and data type values
// outside their domain are written as they are. Safe for concurrent use.
func EncodeGraph(g *Graph) (out []byte, err error) {
	if g == nil {
		return nil, malformedf("graph is nil")
	}
	e := encoderPool.Get().(*encoder)
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, malformedf("graph cannot be encoded: %v", p)
			e = &encoder{b: flatbuffers.NewBuilder(0)} // state unknown: do not pool
		}
		if cap(e.b.Bytes) <= maxPooledBuilder {
			e.b.Reset()
			encoderPool.Put(e)
		}
	}()
	e.b.Reset()
	root, err := e.graph(g)
	if err != nil {
		return nil, err
	}
	e.b.Finish(root)
	fin := e.b.FinishedBytes()
	out = make([]byte, len(fin))
	copy(out, fin)
	return out, nil
}

func (e *encoder) graph(g *Graph) (flatbuffers.UOffsetT, error) {
	b := e.b
	e.tensors = e.tensors[:0]
	for i := range g.Tensors {
		off, err := e.tensor(&g.Tensors[i])
		if err != nil {
			return 0, prefixed(err, "tensor uid %d", g.Tensors[i].UID)
		}
		e.tensors = append(e.tensors, off)
	}
	tensors := e.tableVector(e.tensors)

	e.nodes = e.nodes[:0]
	for i := range g.Nodes {
		off, err := e.node(&g.Nodes[i])
		if err != nil {
			return 0, prefixed(err, "node %d (%q)", i, g.Nodes[i].Name)
		}
		e.nodes = append(e.nodes, off)
	}
	nodes := e.tableVector(e.nodes)
	name := b.CreateString(g.Name)

	b.StartObject(slotsGraph)
	if g.PreferredEngineID != nil {
		b.PrependInt64(*g.PreferredEngineID)
		b.Slot(slotGraphPreferredEngineId)
	}
	b.PrependUOffsetTSlot(slotGraphName, name, 0)
	b.PrependUOffsetTSlot(slotGraphTensors, tensors, 0)
	b.PrependUOffsetTSlot(slotGraphNodes, nodes, 0)
	if v := g.MinRequiredEngineAPIVersion; v != nil {
		b.Prep(4, 12)
		b.PrependUint32(v.Patch)
		b.PrependUint32(v.Minor)
		b.PrependUint32(v.Major)
		b.PrependStructSlot(slotGraphMinRequiredEngineApiVersion, b.Offset(), 0)
	}
	if g.ID != nil {
		b.Prep(1, 16)
		for i := 15; i >= 0; i-- {
			b.PrependByte(g.ID[i])
		}
		b.PrependStructSlot(slotGraphId, b.Offset(), 0)
	}
	b.PrependInt8Slot(slotGraphComputeDataType, int8(g.ComputeDataType), 0)
	b.PrependInt8Slot(slotGraphIntermediateDataType, int8(g.IntermediateDataType), 0)
	b.PrependInt8Slot(slotGraphIoDataType, int8(g.IODataType), 0)
	b.PrependBoolSlot(slotGraphIsOverrideShapeEnabled, g.IsOverrideShapeEnabled, false)
	return b.EndObject(), nil
}

func (e *encoder) tableVector(offs []flatbuffers.UOffsetT) flatbuffers.UOffsetT {
	b := e.b
	b.StartVector(4, len(offs), 4)
	for i := len(offs) - 1; i >= 0; i-- {
		b.PrependUOffsetT(offs[i])
	}
	return b.EndVector(len(offs))
}

func (e *encoder) longVector(v []int64) flatbuffers.UOffsetT {
	b := e.b
	b.StartVector(8, len(v), 8)
	for i := len(v) - 1; i >= 0; i-- {
		b.PrependInt64(v[i])
	}
	return b.EndVector(len(v))
}

func (e *encoder) intVector(v []int64, name string) (flatbuffers.UOffsetT, error) {
	for i, x := range v {
		if x < math.MinInt32 || x > math.MaxInt32 {
			return 0, malformedf("%s[%d] = %d does not fit in int32", name, i, x)
		}
	}
	b := e.b
	b.StartVector(4, len(v), 4)
	for i := len(v) - 1; i >= 0; i-- {
		b.PrependInt32(int32(v[i]))
	}
	return b.EndVector(len(v)), nil
}

func (e *encoder) tensor(t *Tensor) (flatbuffers.UOffsetT, error) {
	b := e.b
	name := b.CreateString(t.Name)
	strides := e.longVector(t.Strides)
	dims := e.longVector(t.Dims)
	var value flatbuffers.UOffsetT
	if t.Value != nil && t.Value.Kind != ValueNone {
		var err error
		if value, err = e.tensorValue(t.Value); err != nil {
			return 0, err
		}
	}
	b.StartObject(slotsTensorAttributes)
	b.PrependInt64Slot(slotTensorAttributesUid, t.UID, 0)
	b.PrependInt64Slot(slotTensorAttributesAlignment, t.Alignment, DefaultAlignment)
	b.PrependInt64Slot(slotTensorAttributesRaggedOffsetMultiplier, t.RaggedOffsetMultiplier, DefaultRaggedOffsetMultiplier)
	if t.RaggedOffsetUID != nil {
		b.PrependInt64(*t.RaggedOffsetUID)
		b.Slot(slotTensorAttributesRaggedOffsetTensorUid)
	}
	b.PrependUOffsetTSlot(slotTensorAttributesName, name, 0)
	b.PrependUOffsetTSlot(slotTensorAttributesStrides, strides, 0)
	b.PrependUOffsetTSlot(slotTensorAttributesDims, dims, 0)
	if value != 0 {
		b.PrependUOffsetTSlot(slotTensorAttributesValue, value, 0)
		b.PrependUint8Slot(slotTensorAttributesValueType, uint8(t.Value.Kind), 0)
	}
	b.PrependInt8Slot(slotTensorAttributesDataType, int8(t.DataType), 0)
	b.PrependBoolSlot(slotTensorAttributesVirtual, t.Virtual, false)
	b.PrependBoolSlot(slotTensorAttributesIsRuntimePassByValue, t.RuntimePassByValue, false)
	return b.EndObject(), nil
}

// slotTensorAttributesValue writes the union's struct out of line and returns its offset.
func (e *encoder) tensorValue(v *TensorValue) (flatbuffers.UOffsetT, error) {
	b := e.b
	switch v.Kind {
	case ValueFloat32, ValueFloat16, ValueBFloat16:
		f, err := toFloat32(v.F, v.Kind.String())
		if err != nil {
			return 0, err
		}
		b.Prep(4, 4)
		b.PrependFloat32(f)
	case ValueFloat8:
		if v.I < 0 || v.I > math.MaxUint8 {
			return 0, malformedf("Float8Value %d does not fit in a byte", v.I)
		}
		b.Prep(1, 1)
		b.PrependByte(byte(v.I))
	case ValueInt32:
		if v.I < math.MinInt32 || v.I > math.MaxInt32 {
			return 0, malformedf("Int32Value %d does not fit in int32", v.I)
		}
		b.Prep(4, 4)
		b.PrependInt32(int32(v.I))
	case ValueFloat64:
		b.Prep(8, 8)
		b.PrependFloat64(v.F)
	case ValueInt64:
		b.Prep(8, 8)
		b.PrependInt64(v.I)
	case ValueBool:
		b.Prep(1, 1)
		b.PrependBool(v.B)
	default:
		return 0, unsupportedf("unknown tensor value type %d", v.Kind)
	}
	return b.Offset(), nil
}

// toFloat32 narrows a float attribute; finite values beyond float32's range
// are refused rather than turned into infinities.
func toFloat32(f float64, name string) (float32, error) {
	if !math.IsInf(f, 0) && !math.IsNaN(f) && math.Abs(f) > math.MaxFloat32 {
		return 0, malformedf("%s %g does not fit in float32", name, f)
	}
	return float32(f), nil
}

func (e *encoder) node(n *Node) (flatbuffers.UOffsetT, error) {
	b := e.b
	if n.Op == nil {
		return 0, unsupportedf("unknown node type tag %d cannot be encoded", n.Tag)
	}
	attrs, err := e.attributes(n)
	if err != nil {
		return 0, err
	}
	name := b.CreateString(n.Name)
	b.StartObject(slotsNode)
	b.PrependUOffsetTSlot(slotNodeName, name, 0)
	b.PrependUOffsetTSlot(slotNodeAttributes, attrs, 0)
	b.PrependInt8Slot(slotNodeComputeDataType, int8(n.ComputeDataType), 0)
	b.PrependUint8Slot(slotNodeAttributesType, n.Op.Tag, 0)
	return b.EndObject(), nil
}

// attributes writes the op table of n, driven by n.Op.Fields.
func (e *encoder) attributes(n *Node) (flatbuffers.UOffsetT, error) {
	op := n.Op
	if len(n.Values) != len(op.Fields) {
		return 0, malformedf("%s node has %d values for %d fields", op.Name, len(n.Values), len(op.Fields))
	}
	b := e.b
	// Out-of-line data first: lists, strings, bytes.
	if cap(e.offs) < len(op.Fields) {
		e.offs = make([]flatbuffers.UOffsetT, len(op.Fields))
	}
	offs := e.offs[:len(op.Fields)]
	for i := range op.Fields {
		f := &op.Fields[i]
		v := &n.Values[i]
		offs[i] = 0
		if !v.Set {
			continue
		}
		switch f.Kind {
		case KindUIDList, KindLongList:
			offs[i] = e.longVector(v.List)
		case KindIntList:
			off, err := e.intVector(v.List, f.Name)
			if err != nil {
				return 0, err
			}
			offs[i] = off
		case KindString:
			offs[i] = b.CreateString(v.S)
		case KindBytes:
			offs[i] = b.CreateByteVector(v.Bytes)
		}
	}
	b.StartObject(op.numSlots)
	for _, i := range op.encOrder {
		if err := e.field(&op.Fields[i], &n.Values[i], offs[i]); err != nil {
			return 0, err
		}
	}
	return b.EndObject(), nil
}

func (e *encoder) field(f *Field, v *Value, off flatbuffers.UOffsetT) error {
	b := e.b
	s := f.Slot
	switch f.Kind {
	case KindUID, KindLong:
		if v.Set {
			b.PrependInt64Slot(s, v.I, f.Default)
		}
	case KindOptUID, KindOptLong:
		if v.Set {
			b.PrependInt64(v.I)
			b.Slot(s)
		}
	case KindInt, KindOptInt:
		if !v.Set {
			return nil
		}
		if v.I < math.MinInt32 || v.I > math.MaxInt32 {
			return malformedf("%s = %d does not fit in int32", f.Name, v.I)
		}
		if f.Kind == KindInt {
			b.PrependInt32Slot(s, int32(v.I), int32(f.Default))
		} else {
			b.PrependInt32(int32(v.I))
			b.Slot(s)
		}
	case KindFloat, KindOptFloat:
		if !v.Set {
			return nil
		}
		x, err := toFloat32(v.F, f.Name)
		if err != nil {
			return err
		}
		if f.Kind == KindFloat {
			b.PrependFloat32Slot(s, x, float32(f.DefaultF))
		} else {
			b.PrependFloat32(x)
			b.Slot(s)
		}
	case KindBool:
		if v.Set {
			b.PrependBoolSlot(s, v.B, f.Default != 0)
		}
	case KindOptBool:
		if v.Set {
			b.PrependBool(v.B)
			b.Slot(s)
		}
	case KindEnum, KindDataType:
		if !v.Set {
			return nil
		}
		if v.I < math.MinInt8 || v.I > math.MaxInt8 {
			return malformedf("%s = %d does not fit in a byte enum", f.Name, v.I)
		}
		b.PrependInt8Slot(s, int8(v.I), int8(f.Default))
	case KindUIDList, KindLongList, KindIntList, KindString, KindBytes:
		if off != 0 {
			b.PrependUOffsetTSlot(s, off, 0)
		}
	default:
		return malformedf("field %s has unknown kind %d", f.Name, f.Kind)
	}
	return nil
}
