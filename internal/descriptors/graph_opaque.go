package descriptors

import (
	"fmt"
	"strings"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/logging"
	"github.com/hipdnn-go/backend/internal/status"
	"github.com/hipdnn-go/backend/internal/wire"
)

// Opaque graphs (RFC 0005 §2: a newer writer's graph "will gracefully fail to match").
//
// A binary graph holding parts this build cannot read — a node of a NodeAttributes member this
// build does not know, an enum or data type value outside this build's domain, a tensor value
// kind it does not know — deserializes into an opaque graph. Its readable nodes become finalized
// operation descriptors (HIPDNN_ATTR_OPERATIONGRAPH_OPS lists only those); the unreadable ones,
// and readable nodes that use an unreadable tensor, stay in the writer's bytes only. Finalize
// checks what it can read and hands plugins, and serialization, the writer's bytes unchanged:
// nothing can be re-encoded, so every attribute but the handle is refused (NOT_SUPPORTED), and a
// JSON serialization is NOT_SUPPORTED. Plugins below the declared
// min_required_engine_api_version are not offered it (GraphFeatures.Declared); plugins that do
// not know the node answer "not applicable", and with none left the heuristic has no results.

// opaqueGraph is what a Graph keeps about the parts it cannot read.
type opaqueGraph struct {
	model        *wire.Graph // the whole graph as decoded (unknown nodes have Op == nil)
	reasons      []string    // one line per unreadable part, naming it
	nodes        []int       // indexes of the nodes that have no operation descriptor
	unknownNodes int         // nodes whose NodeAttributes member is unknown
}

// summary names the unreadable parts on one line.
func (o *opaqueGraph) summary() string { return strings.Join(o.reasons, "; ") }

// Opaque reports whether the graph holds parts this build cannot read.
func (g *Graph) Opaque() bool { return g.opaque != nil }

// UnreadableParts names each part of an opaque graph that this build cannot read (nil for
// other graphs), e.g. `node 1 ("future_op"): unknown node type tag 24`.
func (g *Graph) UnreadableParts() []string {
	if g.opaque == nil {
		return nil
	}
	return append([]string(nil), g.opaque.reasons...)
}

// opaqueUse says why a readable node cannot become an operation descriptor in an opaque graph
// ("" when it can): it uses a tensor whose descriptor could not be made, or it takes the
// graph's compute type and that is unreadable.
func opaqueUse(n *wire.Node, unreadable map[int64]bool, graphCompute wire.DataType) string {
	for _, role := range []wire.Role{wire.RoleInput, wire.RoleOutput} {
		for _, uid := range n.TensorUIDs(role) {
			if unreadable[uid] {
				return fmt.Sprintf("uses tensor uid %d, which this build cannot read", uid)
			}
		}
	}
	if n.ComputeDataType == wire.DataTypeUnset && !graphCompute.Known() {
		return "takes the graph's compute_data_type, which this build cannot read"
	}
	return ""
}

// refuseOpaqueChange is the graph's BeforeSet: an opaque graph reaches plugins only as its
// writer's bytes, so any change but the handle would need a re-encoding this build cannot make.
func refuseOpaqueChange(o Object, name api.AttributeName) error {
	g := o.(*Graph)
	if g.opaque == nil || name == api.HIPDNN_ATTR_OPERATIONGRAPH_HANDLE {
		return nil
	}
	return stepf(status.NotSupported, "%v cannot be set on a deserialized graph that holds parts this build cannot read (%s): such a graph goes to plugins exactly as its writer encoded it, and this build cannot re-encode it",
		name, g.opaque.summary())
}

// buildOpaque is build for an opaque graph: the writer's bytes and the decoded model, with the
// checks this build can make.
func (g *Graph) buildOpaque(validate bool) error {
	o := g.opaque
	m := o.model
	tensors := make(map[int64]*Tensor, len(m.Tensors))
	for _, op := range g.Ops() {
		for _, t := range op.Tensors() {
			tensors[t.UID()] = t
		}
	}
	if validate {
		if err := validateReadable(m, o.unknownNodes); err != nil {
			return err
		}
		g.logf("opaque graph: shape checks ran for the %d operations this build can read and were skipped for nodes %v; the graph goes to plugins as its writer encoded it (%s)",
			len(g.Ops()), o.nodes, o.summary())
	}
	g.features = featuresOf(m)
	g.features.Declared = g.declared
	g.bytes, g.model, g.tensors = g.original, m, tensors
	return nil
}

// validateReadable is validateGraph on the decoded model of an opaque graph, for the nodes
// whose tensors this build can name (every node of a known type): one producer per tensor,
// topological order, uids that name tensors of the graph. Virtual tensors and connectivity are
// checked only when every node is of a known type; otherwise an unknown node may produce or
// consume any tensor, so those checks are skipped (and the skip is logged at INFO).
func validateReadable(m *wire.Graph, unknownNodes int) error {
	defined := make(map[int64]*wire.Tensor, len(m.Tensors))
	for i := range m.Tensors {
		defined[m.Tensors[i].UID] = &m.Tensors[i]
	}
	whole := unknownNodes == 0
	err := checkTopology(topology{
		nodes: len(m.Nodes),
		outs:  func(i int) []int64 { return m.Nodes[i].TensorUIDs(wire.RoleOutput) },
		ins:   func(i int) []int64 { return m.Nodes[i].TensorUIDs(wire.RoleInput) },
		label: func(i int) string {
			n := &m.Nodes[i]
			if n.Op == nil {
				return fmt.Sprintf("node %d (%q, node type tag %d)", i, n.Name, n.Tag)
			}
			return fmt.Sprintf("node %d (%q, %s)", i, n.Name, n.Op.Name)
		},
		defined: func(uid int64) bool { return defined[uid] != nil },
		virtual: func(yield func(uid int64)) {
			for uid, t := range defined {
				if t.Virtual {
					yield(uid)
				}
			}
		},
	}, whole)
	if err == nil && !whole && logging.Enabled(api.HIPDNN_SEV_INFO) {
		logging.Infof("GraphDescriptor: graph %q: virtual-tensor and connectivity checks skipped: %d of its %d nodes are of a type this build cannot read", m.Name, unknownNodes, len(m.Nodes))
	}
	return err
}

// noMatchReason is what the heuristic and the engine say when no engine accepts an opaque
// graph: the parts this build cannot read ("" for other graphs).
func (g *Graph) noMatchReason() string {
	if g.opaque == nil {
		return ""
	}
	return "the graph holds parts this build cannot read (" + g.opaque.summary() + ")"
}
