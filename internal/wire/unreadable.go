package wire

// PartKind says which part of a graph an Unreadable names.
type PartKind uint8

// Parts of a graph that can hold something this build cannot interpret.
const (
	PartGraph  PartKind = iota // a data type of the Graph table itself
	PartTensor                 // a TensorAttributes table (Graph.Tensors[Index])
	PartNode                   // a Node table (Graph.Nodes[Index])
)

// Unreadable is one part of a decoded graph that this build cannot interpret: a node whose
// union tag is unknown (a newer writer's NodeAttributes member), an enum or data type value
// outside its domain, a tensor value kind this build does not know. Err wraps ErrUnsupported
// and its message names the item, e.g. `node 1 ("future_op"): unknown node type tag 24`.
type Unreadable struct {
	Part  PartKind
	Index int // index into Graph.Tensors or Graph.Nodes; -1 for PartGraph
	Err   error
}

// Unreadable lists every part of g that this build cannot interpret, in order: the graph's
// own data types, then tensors, then nodes, at most one entry per tensor or node. DecodeGraph
// keeps such parts (a node of an unknown type has Op == nil and no Values; unknown values are
// kept raw), so a caller may keep the graph as opaque bytes; CheckSupported reports the first.
func (g *Graph) Unreadable() []Unreadable {
	var out []Unreadable
	for _, c := range []struct {
		what string
		d    DataType
	}{{"compute_data_type", g.ComputeDataType}, {"intermediate_data_type", g.IntermediateDataType}, {"io_data_type", g.IODataType}} {
		if !c.d.Known() {
			out = append(out, Unreadable{PartGraph, -1, unsupportedf("graph %s: unknown data type value %d", c.what, c.d)})
		}
	}
	for i := range g.Tensors {
		t := &g.Tensors[i]
		switch {
		case !t.DataType.Known():
			out = append(out, Unreadable{PartTensor, i, unsupportedf("tensor uid %d: unknown data type value %d", t.UID, t.DataType)})
		case t.Value != nil && !t.Value.Kind.Known():
			out = append(out, Unreadable{PartTensor, i, unsupportedf("tensor uid %d: unknown tensor value type %d", t.UID, t.Value.Kind)})
		}
	}
	for i := range g.Nodes {
		if err := g.Nodes[i].checkSupported(); err != nil {
			out = append(out, Unreadable{PartNode, i, prefixed(err, "node %d (%q)", i, g.Nodes[i].Name)})
		}
	}
	return out
}
