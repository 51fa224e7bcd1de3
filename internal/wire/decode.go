package wire

import (
	"errors"
	"fmt"
	"math"

	"github.com/hipdnn-go/backend/internal/fbread"
)

// DecodeGraph parses a finished Graph flatbuffer (no file identifier, no
// size prefix). It trusts nothing in buf: every read is bounds-checked as
// the flatbuffers Verifier does, allocation is bounded by a multiple of
// len(buf), and a malformed buffer gives an error wrapping ErrMalformed.
// Unknown node types, enum values and data types are kept (Node.Op == nil,
// raw values) and reported by Graph.CheckSupported. The result shares no
// memory with buf.
func DecodeGraph(buf []byte) (g *Graph, err error) {
	defer func() {
		if p := recover(); p != nil {
			g, err = nil, malformedf("graph buffer: decoder fault: %v", p)
		}
	}()
	if len(buf) >= fbread.MaxBufferSize {
		return nil, malformedf("graph buffer of %d bytes exceeds the flatbuffer limit of %d", len(buf), fbread.MaxBufferSize-1)
	}
	if len(buf) < fbread.MinBufferSize {
		return nil, malformedf("graph buffer truncated: %d bytes, a flatbuffer needs at least %d", len(buf), fbread.MinBufferSize)
	}
	r := fbread.New(buf)
	d := decoder{r: r}
	g, err = d.graph()
	if err != nil {
		var fe *fbread.Error
		if errors.As(err, &fe) {
			kind := "malformed"
			if fe.Truncated {
				kind = "truncated"
			}
			return nil, malformedf("graph buffer %s: %s: %s", kind, d.where(), fe.Msg)
		}
		return nil, err
	}
	return g, nil
}

// decoder walks the tables; loc names the table being read for messages.
type decoder struct {
	r     *fbread.Reader
	loc   string // "tensors", "nodes" or "" for the graph table
	index int
	op    string // op table being read, if any
	field string
}

func (d *decoder) where() string {
	w := d.loc
	if w == "" {
		w = "graph"
	}
	if d.index >= 0 && d.loc != "" {
		w = fmt.Sprintf("%s[%d]", d.loc, d.index)
	}
	if d.op != "" {
		w += "." + d.op
	}
	if d.field != "" {
		w += "." + d.field
	}
	return w
}

func (d *decoder) at(loc string, index int, field string) {
	d.loc, d.index, d.op, d.field = loc, index, "", field
}

func (d *decoder) graph() (*Graph, error) {
	r := d.r
	d.at("", -1, "root")
	root, err := r.Offset(0, "root table")
	if err != nil {
		return nil, err
	}
	t, err := r.Table(root, "root")
	if err != nil {
		return nil, err
	}
	r.Enter()
	defer r.Leave()
	g := &Graph{}
	if err := r.Spend(128); err != nil {
		return nil, err
	}
	d.at("", -1, "name")
	if g.Name, _, err = r.Str(t, slotGraphName, "name"); err != nil {
		return nil, err
	}
	for _, f := range []struct {
		slot int
		name string
		dst  *DataType
	}{
		{slotGraphComputeDataType, "compute_data_type", &g.ComputeDataType},
		{slotGraphIntermediateDataType, "intermediate_data_type", &g.IntermediateDataType},
		{slotGraphIoDataType, "io_data_type", &g.IODataType},
	} {
		d.at("", -1, f.name)
		v, _, err := r.Byte(t, f.slot, f.name)
		if err != nil {
			return nil, err
		}
		*f.dst = DataType(int8(v))
	}
	d.at("", -1, "preferred_engine_id")
	if v, ok, err := r.I64(t, slotGraphPreferredEngineId, "preferred_engine_id"); err != nil {
		return nil, err
	} else if ok {
		g.PreferredEngineID = &v
	}
	d.at("", -1, "is_override_shape_enabled")
	if v, _, err := r.Byte(t, slotGraphIsOverrideShapeEnabled, "is_override_shape_enabled"); err != nil {
		return nil, err
	} else {
		g.IsOverrideShapeEnabled = v != 0
	}
	d.at("", -1, "min_required_engine_api_version")
	if p := r.Field(t, slotGraphMinRequiredEngineApiVersion); p != 0 {
		if err := r.StructAt(p, 12, 4, "min_required_engine_api_version"); err != nil {
			return nil, err
		}
		g.MinRequiredEngineAPIVersion = &EngineAPIVersion{r.U32(p), r.U32(p + 4), r.U32(p + 8)}
	}
	d.at("", -1, "id")
	if p := r.Field(t, slotGraphId); p != 0 {
		if err := r.StructAt(p, 16, 1, "id"); err != nil {
			return nil, err
		}
		var id [16]byte
		copy(id[:], r.Buf()[p:p+16])
		g.ID = &id
	}

	d.at("", -1, "tensors")
	start, n, _, err := r.Vector(t, slotGraphTensors, 4, "tensors")
	if err != nil {
		return nil, err
	}
	if n > 0 {
		if err := r.ReserveTables(n); err != nil {
			return nil, err
		}
		if err := r.Spend(int64(n) * 160); err != nil {
			return nil, err
		}
		g.Tensors = make([]Tensor, n)
		for i := range g.Tensors {
			d.at("tensors", i, "")
			tp, err := r.Offset(start+int64(i)*4, "tensor")
			if err != nil {
				return nil, err
			}
			if err := d.tensor(tp, &g.Tensors[i]); err != nil {
				return nil, err
			}
		}
	}

	d.at("", -1, "nodes")
	start, n, _, err = r.Vector(t, slotGraphNodes, 4, "nodes")
	if err != nil {
		return nil, err
	}
	if n > 0 {
		if err := r.ReserveTables(2 * n); err != nil { // node + attributes
			return nil, err
		}
		if err := r.Spend(int64(n) * 80); err != nil {
			return nil, err
		}
		g.Nodes = make([]Node, n)
		for i := range g.Nodes {
			d.at("nodes", i, "")
			np, err := r.Offset(start+int64(i)*4, "node")
			if err != nil {
				return nil, err
			}
			if err := d.node(np, &g.Nodes[i]); err != nil {
				return nil, err
			}
		}
	}
	return g, nil
}

func (d *decoder) tensor(pos int64, out *Tensor) error {
	r := d.r
	t, err := r.Table(pos, "tensor")
	if err != nil {
		return err
	}
	r.Enter()
	defer r.Leave()
	loc, idx := d.loc, d.index
	set := func(field string) { d.at(loc, idx, field) }

	set("uid")
	if out.UID, _, err = r.I64(t, slotTensorAttributesUid, "uid"); err != nil {
		return err
	}
	set("name")
	if out.Name, _, err = r.Str(t, slotTensorAttributesName, "name"); err != nil {
		return err
	}
	set("data_type")
	v, _, err := r.Byte(t, slotTensorAttributesDataType, "data_type")
	if err != nil {
		return err
	}
	out.DataType = DataType(int8(v))
	set("strides")
	if out.Strides, _, err = r.Longs(t, slotTensorAttributesStrides, "strides"); err != nil {
		return err
	}
	set("dims")
	if out.Dims, _, err = r.Longs(t, slotTensorAttributesDims, "dims"); err != nil {
		return err
	}
	set("virtual")
	if v, _, err = r.Byte(t, slotTensorAttributesVirtual, "virtual"); err != nil {
		return err
	}
	out.Virtual = v != 0
	set("value")
	if out.Value, err = d.tensorValue(t); err != nil {
		return err
	}
	set("is_runtime_pass_by_value")
	if v, _, err = r.Byte(t, slotTensorAttributesIsRuntimePassByValue, "is_runtime_pass_by_value"); err != nil {
		return err
	}
	out.RuntimePassByValue = v != 0
	set("ragged_offset_tensor_uid")
	if u, ok, err := r.I64(t, slotTensorAttributesRaggedOffsetTensorUid, "ragged_offset_tensor_uid"); err != nil {
		return err
	} else if ok {
		out.RaggedOffsetUID = &u
	}
	set("alignment")
	out.Alignment = DefaultAlignment
	if a, ok, err := r.I64(t, slotTensorAttributesAlignment, "alignment"); err != nil {
		return err
	} else if ok {
		out.Alignment = a
	}
	set("ragged_offset_multiplier")
	out.RaggedOffsetMultiplier = DefaultRaggedOffsetMultiplier
	if m, ok, err := r.I64(t, slotTensorAttributesRaggedOffsetMultiplier, "ragged_offset_multiplier"); err != nil {
		return err
	} else if ok {
		out.RaggedOffsetMultiplier = m
	}
	return nil
}

// valueLayout gives size and alignment of each TensorValue struct.
var valueLayout = [...]struct{ size, align int64 }{
	ValueFloat32: {4, 4}, ValueFloat16: {4, 4}, ValueBFloat16: {4, 4}, ValueFloat8: {1, 1},
	ValueInt32: {4, 4}, ValueFloat64: {8, 8}, ValueInt64: {8, 8}, ValueBool: {1, 1},
}

func (d *decoder) tensorValue(t fbread.Table) (*TensorValue, error) {
	r := d.r
	tag, _, err := r.Byte(t, slotTensorAttributesValueType, "value_type")
	if err != nil || tag == 0 {
		return nil, err
	}
	kind := ValueKind(tag)
	p := r.Field(t, slotTensorAttributesValue)
	if p == 0 {
		return nil, fbread.Malformedf("value_type is %s but the value is missing", kind)
	}
	vp, err := r.Offset(p, "value")
	if err != nil {
		return nil, err
	}
	if err := r.Spend(32); err != nil {
		return nil, err
	}
	tv := &TensorValue{Kind: kind}
	if !kind.Known() {
		// A newer writer's value kind: keep the tag, report via CheckSupported.
		return tv, nil
	}
	l := valueLayout[kind]
	if err := r.StructAt(vp, l.size, l.align, kind.String()); err != nil {
		return nil, err
	}
	switch kind {
	case ValueFloat32, ValueFloat16, ValueBFloat16:
		tv.F = float64(math.Float32frombits(r.U32(vp)))
	case ValueFloat8:
		tv.I = int64(r.Buf()[vp])
	case ValueInt32:
		tv.I = int64(int32(r.U32(vp)))
	case ValueFloat64:
		tv.F = math.Float64frombits(r.U64(vp))
	case ValueInt64:
		tv.I = int64(r.U64(vp))
	case ValueBool:
		tv.B = r.Buf()[vp] != 0
	}
	return tv, nil
}

func (d *decoder) node(pos int64, out *Node) error {
	r := d.r
	t, err := r.Table(pos, "node")
	if err != nil {
		return err
	}
	r.Enter()
	defer r.Leave()
	loc, idx := d.loc, d.index
	set := func(field string) { d.at(loc, idx, field) }

	set("name")
	if out.Name, _, err = r.Str(t, slotNodeName, "name"); err != nil {
		return err
	}
	set("compute_data_type")
	v, _, err := r.Byte(t, slotNodeComputeDataType, "compute_data_type")
	if err != nil {
		return err
	}
	out.ComputeDataType = DataType(int8(v))
	set("attributes")
	tag, _, err := r.Byte(t, slotNodeAttributesType, "attributes_type")
	if err != nil {
		return err
	}
	out.Tag = tag
	if tag == 0 {
		return fbread.Malformedf("attributes type is NONE; a node needs an operation")
	}
	p := r.Field(t, slotNodeAttributes)
	if p == 0 {
		return fbread.Malformedf("attributes type is %d but the attributes table is missing", tag)
	}
	ap, err := r.Offset(p, "attributes")
	if err != nil {
		return err
	}
	op := OpByTag(tag)
	if op == nil {
		// A newer writer's node type: keep the tag, report via CheckSupported.
		return nil
	}
	out.Op = op
	set("")
	d.op = op.Name
	at, err := r.Table(ap, op.Name)
	if err != nil {
		return err
	}
	r.Enter()
	defer r.Leave()
	if err := r.Spend(int64(len(op.Fields)) * 96); err != nil {
		return err
	}
	out.Values = make([]Value, len(op.Fields))
	for i := range op.Fields {
		f := &op.Fields[i]
		d.field = f.Name
		if err := d.value(at, f, &out.Values[i]); err != nil {
			return err
		}
	}
	return nil
}

// value reads one op field into v, in the canonical form documented on Value.
func (d *decoder) value(t fbread.Table, f *Field, v *Value) error {
	r := d.r
	var err error
	var ok bool
	switch f.Kind {
	case KindUID, KindLong:
		v.I, ok, err = r.I64(t, f.Slot, f.Name)
		if !ok {
			v.I = f.Default
		}
		v.Set = true
	case KindOptUID, KindOptLong:
		v.I, v.Set, err = r.I64(t, f.Slot, f.Name)
	case KindInt, KindOptInt:
		var x int32
		x, ok, err = r.I32(t, f.Slot, f.Name)
		v.I = int64(x)
		if f.Kind == KindInt {
			if !ok {
				v.I = f.Default
			}
			ok = true
		}
		v.Set = ok
	case KindFloat, KindOptFloat:
		var x float32
		x, ok, err = r.F32(t, f.Slot, f.Name)
		v.F = float64(x)
		if f.Kind == KindFloat {
			if !ok {
				v.F = f.DefaultF
			}
			ok = true
		}
		v.Set = ok
	case KindBool, KindOptBool:
		var x uint8
		x, ok, err = r.Byte(t, f.Slot, f.Name)
		v.B = x != 0
		if f.Kind == KindBool {
			if !ok {
				v.B = f.Default != 0
			}
			ok = true
		}
		v.Set = ok
	case KindEnum, KindDataType:
		var x uint8
		x, ok, err = r.Byte(t, f.Slot, f.Name)
		v.I = int64(int8(x))
		if !ok {
			v.I = f.Default
		}
		v.Set = true
	case KindUIDList, KindLongList:
		v.List, v.Set, err = r.Longs(t, f.Slot, f.Name)
	case KindIntList:
		v.List, v.Set, err = r.Ints(t, f.Slot, f.Name)
	case KindString:
		v.S, v.Set, err = r.Str(t, f.Slot, f.Name)
	case KindBytes:
		v.Bytes, v.Set, err = r.Bytes(t, f.Slot, f.Name)
	}
	return err
}
