package descriptors

import (
	"fmt"
	"strings"

	"github.com/hipdnn-go/backend/internal/engines"
	"github.com/hipdnn-go/backend/internal/wire"
)

// planTensors describes a graph's tensors as Execute checks them: the alignment each pointer
// needs, which tensors every variant pack must point to (the non-virtual ones that carry no
// constant value), the runtime pass-by-value scalars, and a role naming each in messages.
func planTensors(m *wire.Graph) []engines.PlanTensor {
	roles := tensorRoles(m)
	out := make([]engines.PlanTensor, 0, len(m.Tensors))
	for i := range m.Tensors {
		t := &m.Tensors[i]
		a := t.Alignment
		if t.RuntimePassByValue && a == wire.DefaultAlignment && t.DataType.ByteSize() > 0 {
			// A runtime pass-by-value scalar arrives as a host pointer to one value that the
			// caller may keep anywhere: require its natural alignment, not the 16 bytes meant
			// for device buffers, unless BYTE_ALIGNMENT asked for more.
			a = int64(t.DataType.ByteSize())
		}
		var parts []string
		if t.Name != "" {
			parts = append(parts, fmt.Sprintf("%q", t.Name))
		}
		if r := roles[t.UID]; r != "" {
			parts = append(parts, r)
		}
		role := ""
		if len(parts) > 0 {
			role = " (" + strings.Join(parts, ", ") + ")"
		}
		out = append(out, engines.PlanTensor{
			UID:       t.UID,
			Alignment: a,
			Role:      role,
			Required:  !t.Virtual && t.Value == nil,
			HostValue: t.RuntimePassByValue,
		})
	}
	return out
}

// tensorRoles names each tensor by its first use: `x of ConvolutionFwd node "conv"`, or
// `ragged offsets of tensor uid 7`.
func tensorRoles(m *wire.Graph) map[int64]string {
	roles := map[int64]string{}
	for i := range m.Nodes {
		n := &m.Nodes[i]
		if n.Op == nil {
			continue
		}
		node := fmt.Sprintf("%s node %q", strings.TrimSuffix(n.Op.Name, "Attributes"), n.Name)
		if n.Name == "" {
			node = "a " + strings.TrimSuffix(n.Op.Name, "Attributes") + " node"
		}
		for j := range n.Op.Fields {
			f := &n.Op.Fields[j]
			if (f.Role != wire.RoleInput && f.Role != wire.RoleOutput) || j >= len(n.Values) || !n.Values[j].Set {
				continue
			}
			field := strings.TrimSuffix(f.Name, "_tensor_uid")
			var uids []int64
			switch f.Kind {
			case wire.KindUID, wire.KindOptUID:
				uids = []int64{n.Values[j].I}
			case wire.KindUIDList:
				uids = n.Values[j].List
			}
			for _, u := range uids {
				if _, seen := roles[u]; !seen {
					roles[u] = field + " of " + node
				}
			}
		}
	}
	for i := range m.Tensors {
		t := &m.Tensors[i]
		if t.RaggedOffsetUID != nil {
			if _, seen := roles[*t.RaggedOffsetUID]; !seen {
				roles[*t.RaggedOffsetUID] = fmt.Sprintf("ragged offsets of tensor uid %d", t.UID)
			}
		}
	}
	return roles
}
