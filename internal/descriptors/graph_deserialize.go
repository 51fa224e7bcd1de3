package descriptors

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/engines"
	"github.com/hipdnn-go/backend/internal/status"
	"github.com/hipdnn-go/backend/internal/version"
	"github.com/hipdnn-go/backend/internal/wire"
)

// codecStatus maps a wire codec error: input naming something this build does not know is
// NOT_SUPPORTED (a newer frontend's node type or enum value), anything else malformed input.
func codecStatus(err error, what string) error {
	if errors.Is(err, wire.ErrUnsupported) {
		return status.NotSupported("%s: %v", what, err)
	}
	return status.BadParam("%s: %v", what, err)
}

// DeserializeGraph makes an unfinalized graph descriptor (with finalized tensor and
// operation descriptors) from a serialized Graph flatbuffer, or from a graph-and-plan
// container, whose plan is ignored. The caller still sets the handle and finalizes.
func DeserializeGraph(b []byte) (*Graph, error) {
	if wire.IsContainer(b) {
		c, err := wire.DecodeContainer(b)
		if err != nil {
			return nil, codecStatus(err, "graph-and-plan container")
		}
		if len(c.Graph) == 0 {
			return nil, status.BadParam("the graph-and-plan container holds no graph")
		}
		b = c.Graph
	}
	m, err := wire.DecodeGraph(b)
	if err != nil {
		return nil, codecStatus(err, "serialized graph")
	}
	g, err := graphFromModel(m, true)
	if err != nil {
		return nil, err
	}
	if g.opaque != nil {
		// Parts this build cannot read travel only in the writer's bytes: keep a copy (b is
		// the caller's memory) and a model of its own (the lifted operations took m's values).
		g.original = bytes.Clone(b)
		if g.opaque.model, err = wire.DecodeGraph(g.original); err != nil {
			return nil, codecStatus(err, "serialized graph")
		}
		g.logf("kept as an opaque graph: %d of %d nodes are operation descriptors; this build cannot read %s", len(g.Ops()), len(m.Nodes), g.opaque.summary())
		return g, nil
	}
	if m.ID != nil && m.MinRequiredEngineAPIVersion != nil {
		// b is the caller's memory: keep a copy (see Graph.original).
		g.original = bytes.Clone(b)
	}
	return g, nil
}

// DeserializeJSONGraph is DeserializeGraph for AMD's JSON graph format.
func DeserializeJSONGraph(text []byte) (*Graph, error) {
	m, err := wire.GraphFromJSON(text)
	if err != nil {
		return nil, codecStatus(err, "JSON graph")
	}
	// JSON has no binary layout for a table this build does not know, so a JSON graph cannot
	// be kept opaque: anything unknown in it stays NOT_SUPPORTED.
	return graphFromModel(m, false)
}

// graphFromModel lifts a decoded graph into descriptors: one finalized tensor descriptor per
// tensor, one finalized operation per node (validated like a finalize), graph attributes set.
// With opaqueOK, parts this build cannot read (m.Unreadable) do not fail it: such tensors get
// no descriptor, such nodes, and nodes that use such tensors, no operation, and the graph is
// marked opaque (g.opaque, see graph_opaque.go). Without it the first one is NOT_SUPPORTED.
func graphFromModel(m *wire.Graph, opaqueOK bool) (*Graph, error) {
	if err := checkReaderVersion(m); err != nil {
		return nil, err
	}
	unreadable := m.Unreadable()
	for _, u := range unreadable {
		if !opaqueOK || !errors.Is(u.Err, wire.ErrUnsupported) {
			return nil, codecStatus(u.Err, "graph")
		}
	}
	var opq *opaqueGraph
	skipTensor := map[int64]bool{}
	skipNode := map[int]string{}
	if len(unreadable) > 0 {
		opq = &opaqueGraph{}
		for _, u := range unreadable {
			opq.reasons = append(opq.reasons, u.Err.Error())
			switch u.Part {
			case wire.PartTensor:
				skipTensor[m.Tensors[u.Index].UID] = true
			case wire.PartNode:
				skipNode[u.Index] = u.Err.Error()
				if m.Nodes[u.Index].Op == nil {
					opq.unknownNodes++
				}
			}
		}
	}
	tensors := make(map[int64]*Tensor, len(m.Tensors))
	seen := make(map[int64]bool, len(m.Tensors))
	for i := range m.Tensors {
		wt := &m.Tensors[i]
		if seen[wt.UID] {
			return nil, status.BadParam("graph: tensor uid %d is defined twice", wt.UID)
		}
		seen[wt.UID] = true
		if skipTensor[wt.UID] {
			continue
		}
		t, err := tensorFromWire(wt)
		if err != nil {
			return nil, err
		}
		tensors[wt.UID] = t
	}
	// A ragged offset names another tensor of the graph by uid; link the descriptors so the
	// offset tensor stays in the graph even when no node uses it.
	for _, t := range tensors {
		if t.raggedUID != nil {
			if off := tensors[*t.raggedUID]; off != nil {
				t.raggedBy, t.raggedUID = off, nil
			}
		}
	}
	g := graphKind.New(graphKind).(*Graph)
	ops := make([]Object, 0, len(m.Nodes))
	for i := range m.Nodes {
		n := &m.Nodes[i]
		if _, skip := skipNode[i]; !skip && opq != nil {
			// A readable node that uses an unreadable tensor, or takes an unreadable graph
			// compute type, cannot become an operation descriptor either.
			if why := opaqueUse(n, skipTensor, m.ComputeDataType); why != "" {
				skipNode[i] = why
				opq.reasons = append(opq.reasons, fmt.Sprintf("node %d (%q): %s", i, n.Name, why))
			}
		}
		if _, skip := skipNode[i]; skip {
			opq.nodes = append(opq.nodes, i)
			continue
		}
		o, err := liftOp(n, tensors, m.ComputeDataType)
		if err != nil {
			return nil, err
		}
		ops = append(ops, o)
	}
	g.value(api.HIPDNN_ATTR_OPERATIONGRAPH_OPS).setObjs(api.HIPDNN_TYPE_BACKEND_DESCRIPTOR, ops)
	g.value(api.HIPDNN_ATTR_OPERATIONGRAPH_NAME_EXT).setBytes([]byte(m.Name))
	for _, f := range []struct {
		attr api.AttributeName
		dt   wire.DataType
	}{
		{api.HIPDNN_ATTR_OPERATIONGRAPH_COMPUTE_DATA_TYPE_EXT, m.ComputeDataType},
		{api.HIPDNN_ATTR_OPERATIONGRAPH_INTERMEDIATE_DATA_TYPE_EXT, m.IntermediateDataType},
		{api.HIPDNN_ATTR_OPERATIONGRAPH_IO_DATA_TYPE_EXT, m.IODataType},
	} {
		if c, ok := CDataType(f.dt); ok {
			g.value(f.attr).setInt(api.HIPDNN_TYPE_DATA_TYPE, int64(c))
		}
	}
	if m.PreferredEngineID != nil {
		g.value(api.HIPDNN_ATTR_OPERATIONGRAPH_PREFERRED_ENGINE_ID_EXT).setInt(api.HIPDNN_TYPE_INT64, *m.PreferredEngineID)
	}
	ov := int64(0)
	if m.IsOverrideShapeEnabled {
		ov = 1
	}
	g.value(api.HIPDNN_ATTR_OPERATIONGRAPH_IS_OVERRIDE_SHAPE_ENABLED_EXT).setInt(api.HIPDNN_TYPE_BOOLEAN, ov)
	if m.ID != nil {
		id := *m.ID
		g.id = &id
	}
	if v := m.MinRequiredEngineAPIVersion; v != nil {
		g.declared = version.Triple{Major: int64(v.Major), Minor: int64(v.Minor), Patch: int64(v.Patch)}
	}
	g.opaque = opq
	return g, nil
}

// checkReaderVersion is the reader-version guard: a graph whose min_required_engine_api_version
// is above the newest engine plugin API this build hosts uses something this build cannot know
// (a writer raises the minimum when it adds a feature older readers must not ignore), so it is
// NOT_SUPPORTED, naming both versions. Absent means 1.0.0; every 0.x and 1.x up to the hosted
// maximum loads.
func checkReaderVersion(m *wire.Graph) error {
	v := m.MinRequiredEngineAPIVersion
	if v == nil {
		return nil
	}
	need := version.Triple{Major: int64(v.Major), Minor: int64(v.Minor), Patch: int64(v.Patch)}
	if _, hosted := engines.HostedAPIRange(); hosted.Less(need) {
		return status.NotSupported("graph: min_required_engine_api_version is %s, but this build hosts engine plugin API versions up to %s", need, hosted)
	}
	return nil
}

func (v *Value) setInt(t api.AttributeType, x int64) { *v = Value{Set: true, Type: t, I: x} }
func (v *Value) setBytes(b []byte)                   { *v = Value{Set: true, Type: api.HIPDNN_TYPE_CHAR, Bytes: b} }
func (v *Value) setObjs(t api.AttributeType, o []Object) {
	*v = Value{Set: true, Type: t, Objs: o}
}

// tensorFromWire makes a finalized tensor descriptor from a decoded tensor.
func tensorFromWire(wt *wire.Tensor) (*Tensor, error) {
	k := kinds[api.HIPDNN_BACKEND_TENSOR_DESCRIPTOR]
	t := k.New(k).(*Tensor)
	dt, ok := CDataType(wt.DataType)
	if !ok {
		return nil, status.BadParam("tensor uid %d has no data type", wt.UID)
	}
	t.value(api.HIPDNN_ATTR_TENSOR_UNIQUE_ID).setInt(api.HIPDNN_TYPE_INT64, wt.UID)
	t.value(api.HIPDNN_ATTR_TENSOR_NAME_EXT).setBytes([]byte(wt.Name))
	t.value(api.HIPDNN_ATTR_TENSOR_DATA_TYPE).setInt(api.HIPDNN_TYPE_DATA_TYPE, int64(dt))
	*t.value(api.HIPDNN_ATTR_TENSOR_DIMENSIONS) = Value{Set: true, Type: api.HIPDNN_TYPE_INT64, Ints: wt.Dims}
	*t.value(api.HIPDNN_ATTR_TENSOR_STRIDES) = Value{Set: true, Type: api.HIPDNN_TYPE_INT64, Ints: wt.Strides}
	b2i := func(b bool) int64 {
		if b {
			return 1
		}
		return 0
	}
	t.value(api.HIPDNN_ATTR_TENSOR_IS_VIRTUAL).setInt(api.HIPDNN_TYPE_BOOLEAN, b2i(wt.Virtual))
	t.value(api.HIPDNN_ATTR_TENSOR_IS_RUNTIME_PASS_BY_VALUE_EXT).setInt(api.HIPDNN_TYPE_BOOLEAN, b2i(wt.RuntimePassByValue))
	if wt.Alignment != wire.DefaultAlignment {
		t.value(api.HIPDNN_ATTR_TENSOR_BYTE_ALIGNMENT).setInt(api.HIPDNN_TYPE_INT64, wt.Alignment)
	}
	if wt.RaggedOffsetUID != nil {
		uid := *wt.RaggedOffsetUID
		t.raggedUID = &uid
	}
	if wt.RaggedOffsetMultiplier != wire.DefaultRaggedOffsetMultiplier {
		// No tensor attribute carries the multiplier: accepting it would hand plugins a graph
		// that silently lost it.
		return nil, status.NotSupported("tensor uid %d: ragged_offset_multiplier %d is not supported (a tensor descriptor cannot carry it; only the default 1 is)",
			wt.UID, wt.RaggedOffsetMultiplier)
	}
	if wt.Value != nil {
		b, ok := scalarFromWire(dt, wt.Value)
		if !ok {
			return nil, status.NotSupported("tensor uid %d: a %v value of a %v tensor cannot be represented", wt.UID, wt.Value.Kind, dt)
		}
		t.scalar = b
	}
	if err := Finalize(t); err != nil {
		return nil, status.Wrap(err, "tensor uid %d", wt.UID)
	}
	return t, nil
}
