package descriptors

import (
	"crypto/rand"
	"fmt"
	"reflect"
	"slices"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/engines"
	"github.com/hipdnn-go/backend/internal/handle"
	"github.com/hipdnn-go/backend/internal/logging"
	"github.com/hipdnn-go/backend/internal/status"
	"github.com/hipdnn-go/backend/internal/version"
	"github.com/hipdnn-go/backend/internal/wire"
)

// Graph is HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR. Its attributes are readable before
// Finalize. Finalize validates the graph as a whole, builds its flatbuffer (the bytes every
// engine plugin and heuristic policy receives) and keeps it.
type Graph struct {
	Header
	handle *handle.Handle
	id     *[16]byte // kept from a deserialized graph, else minted at the first finalize
	// declared is a deserialized graph's min_required_engine_api_version (zero: none).
	declared version.Triple
	// original is a deserialized binary graph as its writer made it, dropped by any attribute
	// change but the handle. While it is kept, and the writer stamped an id and a minimum
	// version at least our floor, plugins and serialization get these bytes: fields a newer
	// writer added that this build cannot read still reach a newer plugin.
	original []byte
	// opaque is set on a deserialized graph holding parts this build cannot read
	// (graph_opaque.go); it then always keeps original, and attributes but the handle are
	// refused.
	opaque *opaqueGraph

	// Filled by Finalize (or by serialization of an unfinalized graph for the bytes alone).
	bytes    []byte
	model    *wire.Graph
	features Features
	tensors  map[int64]*Tensor
}

// Features are the properties of a graph that decide which plugin API versions can run it.
type Features = engines.GraphFeatures

var graphKind = register(&KindSpec{
	Kind:               api.HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR,
	Class:              "GraphDescriptor",
	GetsBeforeFinalize: true,
	New:                func(k *KindSpec) Object { g := &Graph{}; k.init(&g.Header); return g },
	OnChange:           func(o Object, name api.AttributeName) { o.(*Graph).changed(name) },
	BeforeSet:          refuseOpaqueChange,
	Attrs: []*Attr{
		{Name: api.HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, Type: api.HIPDNN_TYPE_HANDLE, Min: 1, Max: 1, Settable: true, Required: true,
			OnSet: func(o Object, v *Value) error { o.(*Graph).handle = v.Handle(); return nil },
			IsSet: func(o Object) bool { return o.(*Graph).handle != nil }},
		{Name: api.HIPDNN_ATTR_OPERATIONGRAPH_OPS, Type: api.HIPDNN_TYPE_BACKEND_DESCRIPTOR, Min: 1, Max: -1,
			Settable: true, Gettable: true, Append: true, FullGet: true},
		{Name: api.HIPDNN_ATTR_OPERATIONGRAPH_COMPUTE_DATA_TYPE_EXT, Type: api.HIPDNN_TYPE_DATA_TYPE, Min: 1, Max: 1, Settable: true, Gettable: true, Validate: validDataType},
		{Name: api.HIPDNN_ATTR_OPERATIONGRAPH_INTERMEDIATE_DATA_TYPE_EXT, Type: api.HIPDNN_TYPE_DATA_TYPE, Min: 1, Max: 1, Settable: true, Gettable: true, Validate: validDataType},
		{Name: api.HIPDNN_ATTR_OPERATIONGRAPH_IO_DATA_TYPE_EXT, Type: api.HIPDNN_TYPE_DATA_TYPE, Min: 1, Max: 1, Settable: true, Gettable: true, Validate: validDataType},
		{Name: api.HIPDNN_ATTR_OPERATIONGRAPH_PREFERRED_ENGINE_ID_EXT, Type: api.HIPDNN_TYPE_INT64, Min: 1, Max: 1, Settable: true, Gettable: true},
		{Name: api.HIPDNN_ATTR_OPERATIONGRAPH_NAME_EXT, Type: api.HIPDNN_TYPE_CHAR, Min: 0, Max: -1, Settable: true, Gettable: true},
		{Name: api.HIPDNN_ATTR_OPERATIONGRAPH_IS_OVERRIDE_SHAPE_ENABLED_EXT, Type: api.HIPDNN_TYPE_BOOLEAN, Min: 1, Max: 1, Settable: true, Gettable: true,
			Default: boolValue(false)},
		{Name: api.HIPDNN_ATTR_OPERATIONGRAPH_IS_RAGGED_TENSOR_ENABLED_EXT, Type: api.HIPDNN_TYPE_BOOLEAN, Min: 1, Max: 1, Settable: true, Gettable: true,
			Default: boolValue(false)},
	},
	Finalize: finalizeGraph,
})

// changed drops what was built from the attributes. Any change but the handle also makes a
// deserialized graph a different graph from the one its writer encoded.
func (g *Graph) changed(name api.AttributeName) {
	g.bytes, g.model, g.tensors = nil, nil, nil
	if name != api.HIPDNN_ATTR_OPERATIONGRAPH_HANDLE {
		g.original = nil
	}
}

// Ops returns the graph's operations in order.
func (g *Graph) Ops() []*Op {
	objs := g.value(api.HIPDNN_ATTR_OPERATIONGRAPH_OPS).Objs
	ops := make([]*Op, len(objs))
	for i, o := range objs {
		ops[i] = o.(*Op)
	}
	return ops
}

// Handle is the handle the graph was bound to (nil before HIPDNN_ATTR_OPERATIONGRAPH_HANDLE).
func (g *Graph) Handle() *handle.Handle { return g.handle }

// Bytes is the serialized graph of a finalized graph.
func (g *Graph) Bytes() []byte { return g.bytes }

// Model is the graph model of a finalized graph; callers must not modify it.
func (g *Graph) Model() *wire.Graph { return g.model }

// Features of a finalized graph.
func (g *Graph) Features() Features { return g.features }

// Tensor returns a tensor of a finalized graph by UID.
func (g *Graph) Tensor(uid int64) *Tensor { return g.tensors[uid] }

func finalizeGraph(o Object) error {
	g := o.(*Graph)
	if len(g.Ops()) == 0 && (g.opaque == nil || len(g.opaque.model.Nodes) == 0) {
		return stepf(status.BadParam, "the graph has no operations (set HIPDNN_ATTR_OPERATIONGRAPH_OPS)")
	}
	if g.handle.Closed() {
		return stepf(status.BadParam, "the handle it was given has been destroyed")
	}
	if err := g.build(true); err != nil {
		return err
	}
	dumpGraph(g)
	return nil
}

// build assembles the graph model from the operations and encodes it. With validate it also
// enforces the whole-graph rules; serializing an unfinalized graph only needs the model.
func (g *Graph) build(validate bool) error {
	if g.opaque != nil {
		return g.buildOpaque(validate)
	}
	m := &wire.Graph{
		Name:                   g.value(api.HIPDNN_ATTR_OPERATIONGRAPH_NAME_EXT).Str(),
		IsOverrideShapeEnabled: g.value(api.HIPDNN_ATTR_OPERATIONGRAPH_IS_OVERRIDE_SHAPE_ENABLED_EXT).I != 0,
	}
	for _, f := range []struct {
		attr api.AttributeName
		dst  *wire.DataType
	}{
		{api.HIPDNN_ATTR_OPERATIONGRAPH_COMPUTE_DATA_TYPE_EXT, &m.ComputeDataType},
		{api.HIPDNN_ATTR_OPERATIONGRAPH_INTERMEDIATE_DATA_TYPE_EXT, &m.IntermediateDataType},
		{api.HIPDNN_ATTR_OPERATIONGRAPH_IO_DATA_TYPE_EXT, &m.IODataType},
	} {
		if v := g.value(f.attr); v.Set {
			dt, ok := WireDataType(api.DataType(v.I))
			if !ok {
				return status.NotSupported("GraphDescriptor: %v %v cannot be serialized", f.attr, api.DataType(v.I))
			}
			*f.dst = dt
		}
	}
	if v := g.value(api.HIPDNN_ATTR_OPERATIONGRAPH_PREFERRED_ENGINE_ID_EXT); v.Set {
		id := v.I
		m.PreferredEngineID = &id
	}
	ops := g.Ops()
	m.Nodes = make([]wire.Node, 0, len(ops))
	tensors := make(map[int64]*Tensor, 4*len(ops))
	order := make([]int64, 0, 4*len(ops))
	for i, op := range ops {
		for _, t := range op.Tensors() {
			uid := t.UID()
			prev, seen := tensors[uid]
			if !seen {
				tensors[uid] = t
				order = append(order, uid)
				continue
			}
			if prev != t && !sameTensor(prev, t) {
				return status.BadParam("GraphDescriptor: two different tensors share uid %d (operation %d, %s)", uid, i, op.spec.class)
			}
		}
		m.Nodes = append(m.Nodes, op.node)
	}
	// Ragged-offset tensors belong to the graph even when no node reads them.
	for i := 0; i < len(order); i++ {
		off, _ := tensors[order[i]].raggedBy.(*Tensor)
		if off == nil {
			continue
		}
		if prev, seen := tensors[off.UID()]; !seen {
			tensors[off.UID()] = off
			order = append(order, off.UID())
		} else if prev != off && !sameTensor(prev, off) {
			return status.BadParam("GraphDescriptor: the ragged offset of tensor %d and another tensor share uid %d", order[i], off.UID())
		}
	}
	slices.Sort(order)
	m.Tensors = make([]wire.Tensor, 0, len(order))
	for _, uid := range order {
		wt, err := tensors[uid].Wire()
		if err != nil {
			return err
		}
		m.Tensors = append(m.Tensors, wt)
	}
	if validate {
		// The older frontend names the offset tensor by uid only, and AMD accepts a uid no node
		// uses; keep accepting it, but say so, since no plugin can find that tensor.
		for _, uid := range order {
			if r := tensors[uid].raggedUID; r != nil && tensors[*r] == nil && logging.Enabled(api.HIPDNN_SEV_WARN) {
				logging.Warnf("GraphDescriptor: tensor %d has ragged offset uid %d, which is not a tensor of the graph", uid, *r)
			}
		}
		if err := validateGraph(ops, tensors); err != nil {
			return err
		}
	}
	g.features = featuresOf(m)
	g.features.Declared = g.declared
	v := engineAPIFloor(g.features)
	m.MinRequiredEngineAPIVersion = &v
	if g.id == nil {
		var id [16]byte
		_, _ = rand.Read(id[:])
		id[6] = id[6]&0x0f | 0x40 // RFC 4122 version 4
		id[8] = id[8]&0x3f | 0x80 // variant 10
		g.id = &id
	}
	m.ID = g.id
	var b []byte
	if g.original != nil && g.features.MinAPIVersion() == g.declared {
		b = g.original
	} else {
		enc, err := wire.EncodeGraph(m)
		if err != nil {
			return status.Internal("GraphDescriptor: encoding the graph failed: %v", err)
		}
		b = enc
	}
	g.bytes, g.model, g.tensors = b, m, tensors
	return nil
}

// sameTensor reports whether two tensor descriptors describe the same tensor (a frontend may
// create one descriptor per use of a tensor; AMD rejects that, we accept identical copies).
func sameTensor(a, b *Tensor) bool {
	wa, ea := a.Wire()
	wb, eb := b.Wire()
	if ea != nil || eb != nil {
		return false
	}
	// The scalar is compared as bytes (NaN constants match themselves); DeepEqual follows the
	// ragged-offset pointer.
	wa.Value, wb.Value = nil, nil
	return reflect.DeepEqual(wa, wb) && string(a.scalar) == string(b.scalar)
}

func featuresOf(m *wire.Graph) Features {
	f := Features{OverrideShapes: m.IsOverrideShapeEnabled}
	for _, t := range m.Tensors {
		f.RuntimePassByValue = f.RuntimePassByValue || t.RuntimePassByValue
		f.Ragged = f.Ragged || t.RaggedOffsetUID != nil || t.RaggedOffsetMultiplier != wire.DefaultRaggedOffsetMultiplier
		f.CustomAlignment = f.CustomAlignment || t.Alignment != wire.DefaultAlignment
	}
	return f
}

// validateGraph enforces what AMD's backend only documents as the caller's duty: one producer
// per tensor, nodes in topological order (hence no cycles), one connected graph, and virtual
// tensors produced and consumed inside it.
func validateGraph(ops []*Op, tensors map[int64]*Tensor) error {
	return checkTopology(topology{
		nodes:   len(ops),
		outs:    func(i int) []int64 { return ops[i].node.TensorUIDs(wire.RoleOutput) },
		ins:     func(i int) []int64 { return ops[i].node.TensorUIDs(wire.RoleInput) },
		label:   func(i int) string { return fmt.Sprintf("operation %d (%s)", i, ops[i].spec.class) },
		defined: func(uid int64) bool { return tensors[uid] != nil },
		virtual: func(yield func(uid int64)) {
			for uid, t := range tensors {
				if t.Virtual() {
					yield(uid)
				}
			}
		},
	}, true)
}

// topology is what checkTopology reads of a graph: each node's output and input tensor uids,
// a label for messages, which uids are tensors of the graph, and its virtual tensors.
type topology struct {
	nodes     int
	outs, ins func(i int) []int64
	label     func(i int) string
	defined   func(uid int64) bool
	virtual   func(yield func(uid int64))
}

// checkTopology checks that every uid a node names is a tensor of the graph, one producer per
// tensor and topological order; with whole set, also that virtual tensors are produced and
// consumed inside the graph and that the graph is connected.
func checkTopology(t topology, whole bool) error {
	producer := map[int64]int{}
	consumers := map[int64][]int{}
	for i := 0; i < t.nodes; i++ {
		for _, uid := range t.outs(i) {
			if !t.defined(uid) {
				return stepf(status.BadParam, "%s writes tensor uid %d, which the graph does not define", t.label(i), uid)
			}
			if p, dup := producer[uid]; dup {
				return stepf(status.BadParam, "tensor uid %d is written by %s and %s", uid, t.label(p), t.label(i))
			}
			producer[uid] = i
		}
	}
	for i := 0; i < t.nodes; i++ {
		for _, uid := range t.ins(i) {
			if !t.defined(uid) {
				return stepf(status.BadParam, "%s reads tensor uid %d, which the graph does not define", t.label(i), uid)
			}
			if p, ok := producer[uid]; ok && p >= i {
				if p == i {
					return stepf(status.BadParam, "%s reads tensor uid %d that it writes itself", t.label(i), uid)
				}
				return stepf(status.BadParam, "%s reads tensor uid %d before %s writes it: operations must be in topological order",
					t.label(i), uid, t.label(p))
			}
			consumers[uid] = append(consumers[uid], i)
		}
	}
	if !whole {
		return nil
	}
	var err error
	t.virtual(func(uid int64) {
		if err != nil {
			return
		}
		if _, ok := producer[uid]; !ok {
			err = stepf(status.BadParam, "virtual tensor uid %d is read but no operation of the graph writes it", uid)
		} else if len(consumers[uid]) == 0 {
			err = stepf(status.BadParam, "virtual tensor uid %d is written but no operation of the graph reads it (make it non-virtual to keep it)", uid)
		}
	})
	if err != nil {
		return err
	}
	// Connectivity: union the nodes that share a tensor.
	parent := make([]int, t.nodes)
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for uid, cs := range consumers {
		if p, ok := producer[uid]; ok {
			for _, c := range cs {
				parent[find(c)] = find(p)
			}
		}
		for _, c := range cs[1:] {
			parent[find(c)] = find(cs[0])
		}
	}
	for i := 0; i < t.nodes; i++ {
		if find(i) != find(0) {
			return stepf(status.BadParam, "%s shares no tensor with %s: a graph must be connected", t.label(i), t.label(0))
		}
	}
	return nil
}

// SerializedBytes returns the graph's flatbuffer, building it for an unfinalized graph.
func (g *Graph) SerializedBytes() ([]byte, error) {
	if g.bytes == nil {
		if err := g.build(false); err != nil {
			return nil, err
		}
	}
	return g.bytes, nil
}

// logf logs at INFO with the graph's name.
func (g *Graph) logf(format string, args ...any) {
	if logging.Enabled(api.HIPDNN_SEV_INFO) {
		logging.Infof("graph %q: "+format, append([]any{g.value(api.HIPDNN_ATTR_OPERATIONGRAPH_NAME_EXT).Str()}, args...)...)
	}
}
