package wire

import (
	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/hipdnn-go/backend/internal/fbread"
)

// ContainerIdentifier is the file identifier of a SerializedGraphAndPlan
// buffer (serialized_graph_and_plan.fbs), at bytes 4..7.
const ContainerIdentifier = "HDGP"

// Container is a SerializedGraphAndPlan: a complete Graph buffer and,
// optionally, a complete SerializedExecutionPlan buffer, each carried as
// [ubyte]. A nil Plan means graph only.
type Container struct {
	Graph []byte
	Plan  []byte
}

// IsContainer reports whether buf carries the "HDGP" identifier, i.e. is a
// graph-and-plan container rather than a bare Graph buffer. (A bare Graph
// cannot look like one: bytes 4..7 of it begin its vtable, whose size would
// have to be 0x4448.)
func IsContainer(buf []byte) bool {
	return len(buf) >= 8 && string(buf[4:8]) == ContainerIdentifier
}

// DecodeContainer parses a graph-and-plan container with the same checks as
// DecodeGraph; malformed input gives an error wrapping ErrMalformed. The
// blobs are copied out and not themselves parsed: pass Graph to DecodeGraph.
func DecodeContainer(buf []byte) (c *Container, err error) {
	defer func() {
		if p := recover(); p != nil {
			c, err = nil, malformedf("graph-and-plan container: decoder fault: %v", p)
		}
	}()
	if len(buf) >= fbread.MaxBufferSize {
		return nil, malformedf("graph-and-plan container of %d bytes exceeds the flatbuffer limit of %d", len(buf), fbread.MaxBufferSize-1)
	}
	if len(buf) < fbread.MinBufferSize+4 {
		return nil, malformedf("graph-and-plan container truncated: %d bytes", len(buf))
	}
	if !IsContainer(buf) {
		return nil, malformedf("graph-and-plan container: identifier is %q, want %q", buf[4:8], ContainerIdentifier)
	}
	r := fbread.New(buf)
	wrap := func(err error) error {
		if fe, ok := err.(*fbread.Error); ok {
			kind := "malformed"
			if fe.Truncated {
				kind = "truncated"
			}
			return malformedf("graph-and-plan container %s: %s", kind, fe.Msg)
		}
		return err
	}
	root, err := r.Offset(0, "root table")
	if err != nil {
		return nil, wrap(err)
	}
	t, err := r.Table(root, "root")
	if err != nil {
		return nil, wrap(err)
	}
	c = &Container{}
	if c.Graph, _, err = r.Bytes(t, slotSerializedGraphAndPlanGraphBlob, "graph_blob"); err != nil {
		return nil, wrap(err)
	}
	if c.Plan, _, err = r.Bytes(t, slotSerializedGraphAndPlanPlanBlob, "plan_blob"); err != nil {
		return nil, wrap(err)
	}
	return c, nil
}

// EncodeContainer writes c as a SerializedGraphAndPlan with the "HDGP"
// identifier; an empty Plan is left out.
func EncodeContainer(c *Container) ([]byte, error) {
	if c == nil {
		return nil, malformedf("container is nil")
	}
	if len(c.Graph)+len(c.Plan) >= fbread.MaxBufferSize-64 {
		return nil, malformedf("graph-and-plan container would exceed the flatbuffer limit")
	}
	b := flatbuffers.NewBuilder(len(c.Graph) + len(c.Plan) + 64)
	var plan flatbuffers.UOffsetT
	if len(c.Plan) > 0 {
		plan = b.CreateByteVector(c.Plan)
	}
	graph := b.CreateByteVector(c.Graph)
	b.StartObject(slotsSerializedGraphAndPlan)
	b.PrependUOffsetTSlot(slotSerializedGraphAndPlanGraphBlob, graph, 0)
	b.PrependUOffsetTSlot(slotSerializedGraphAndPlanPlanBlob, plan, 0)
	b.FinishWithFileIdentifier(b.EndObject(), []byte(ContainerIdentifier))
	return append([]byte(nil), b.FinishedBytes()...), nil
}
