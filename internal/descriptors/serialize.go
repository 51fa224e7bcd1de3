package descriptors

import (
	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/engines"
	"github.com/hipdnn-go/backend/internal/handle"
	"github.com/hipdnn-go/backend/internal/status"
	"github.com/hipdnn-go/backend/internal/wire"
)

// SerializedJSON renders the graph in AMD's JSON format, from the same model its binary form
// is built from.
func (g *Graph) SerializedJSON() ([]byte, error) {
	if g.opaque != nil {
		return nil, status.NotSupported("GraphDescriptor: the graph holds parts this build cannot read (%s); JSON has no form for them, so only the binary serialization (the writer's bytes) is available", g.opaque.summary())
	}
	if _, err := g.SerializedBytes(); err != nil {
		return nil, err
	}
	j, err := wire.GraphToJSON(g.model)
	if err != nil {
		return nil, status.Internal("GraphDescriptor: rendering JSON failed: %v", err)
	}
	return j, nil
}

// Serialized returns the SerializedExecutionPlan envelope of a finalized plan: the engine, the
// workspace size, the tensors and their alignments, and the plugin's serialized context.
func (p *ExecutionPlan) Serialized() ([]byte, error) {
	if !p.finalized {
		return nil, status.NotInitialized("ExecutionPlanDescriptor: the plan is not finalized")
	}
	payload, err := p.ctx.Serialize()
	if err != nil {
		return nil, err
	}
	return wire.EncodePlan(&wire.Plan{
		Version:                wire.PlanFormatVersion,
		EngineID:               p.engineID,
		WorkspaceSize:          p.workspace,
		TensorUIDs:             p.uids,
		Payload:                payload,
		IsOverrideShapeEnabled: p.override,
		TensorAlignments:       p.alignments,
	}), nil
}

// DeserializePlan makes a finalized plan bound to h from a serialized plan or from a
// graph-and-plan container holding one; the plugin recreates its context from the payload.
//
// Execute checks a deserialized plan's pointers against the graph of its container: every
// tensor the graph reads or writes must be in the variant pack. A bare plan names its tensors
// but not which are virtual, so only their alignment is checked.
func DeserializePlan(h *handle.Handle, b []byte) (*ExecutionPlan, error) {
	var graph *wire.Graph
	if wire.IsContainer(b) {
		c, err := wire.DecodeContainer(b)
		if err != nil {
			return nil, codecStatus(err, "graph-and-plan container")
		}
		if len(c.Plan) == 0 {
			return nil, status.BadParam("the graph-and-plan container holds no execution plan")
		}
		b = c.Plan
		if g, err := wire.DecodeGraph(c.Graph); err == nil {
			graph = g
		}
	}
	sp, err := wire.DecodePlan(b)
	if err != nil {
		return nil, codecStatus(err, "serialized execution plan")
	}
	if len(sp.Payload) == 0 {
		return nil, status.BadParam("the serialized execution plan carries no plugin payload")
	}
	if len(sp.TensorAlignments) == 0 && len(sp.TensorUIDs) > 0 {
		sp.TensorAlignments = make([]int64, len(sp.TensorUIDs))
		for i := range sp.TensorAlignments {
			sp.TensorAlignments[i] = wire.DefaultAlignment
		}
	}
	ctx, err := h.Engines().ContextFromSerialized(sp.EngineID, sp.Payload, deserializedTensors(sp, graph), sp.IsOverrideShapeEnabled)
	if err != nil {
		return nil, err
	}
	p := planKind.New(planKind).(*ExecutionPlan)
	p.handle, p.ctx, p.engineID = h, ctx, sp.EngineID
	p.workspace, p.uids, p.alignments = ctx.WorkspaceSize(), sp.TensorUIDs, sp.TensorAlignments
	p.override, p.finalized = sp.IsOverrideShapeEnabled, true
	return p, nil
}

// deserializedTensors is what Execute checks of a deserialized plan's tensors: the plan's
// alignments, and what graph (when the container carried one) says of each.
func deserializedTensors(sp *wire.Plan, graph *wire.Graph) []engines.PlanTensor {
	fromGraph := map[int64]engines.PlanTensor{}
	if graph != nil {
		for _, t := range planTensors(graph) {
			fromGraph[t.UID] = t
		}
	}
	out := make([]engines.PlanTensor, len(sp.TensorUIDs))
	for i, uid := range sp.TensorUIDs {
		t := fromGraph[uid]
		t.UID, t.Alignment = uid, sp.TensorAlignments[i]
		out[i] = t
	}
	return out
}

// SerializeGraphAndPlan builds the "HDGP" container of a graph and, when plan is not nil, of
// its finalized execution plan.
func SerializeGraphAndPlan(g *Graph, plan *ExecutionPlan) ([]byte, error) {
	gb, err := g.SerializedBytes()
	if err != nil {
		return nil, err
	}
	c := &wire.Container{Graph: gb}
	if plan != nil {
		if c.Plan, err = plan.Serialized(); err != nil {
			return nil, err
		}
	}
	out, err := wire.EncodeContainer(c)
	if err != nil {
		return nil, status.Internal("building the graph-and-plan container failed: %v", err)
	}
	return out, nil
}

// SerializedContents reports what a blob holds (hipdnnSerializedContentFlags_t bits): a
// container says GRAPH and/or EXECUTION_PLAN by its non-empty parts; anything else is taken
// for a bare graph.
func SerializedContents(b []byte) (int, error) {
	if !wire.IsContainer(b) {
		return int(api.HIPDNN_SERIALIZED_CONTENT_GRAPH), nil
	}
	c, err := wire.DecodeContainer(b)
	if err != nil {
		return 0, status.BadParam("graph-and-plan container: %v", err)
	}
	flags := 0
	if len(c.Graph) > 0 {
		flags |= int(api.HIPDNN_SERIALIZED_CONTENT_GRAPH)
	}
	if len(c.Plan) > 0 {
		flags |= int(api.HIPDNN_SERIALIZED_CONTENT_EXECUTION_PLAN)
	}
	return flags, nil
}
