package wire

import (
	"errors"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/hipdnn-go/backend/internal/fbread"
)

// SerializedExecutionPlan (execution_plan.fbs, no file identifier): the envelope of a
// serialized execution plan, read with the same bounds-checked reader as graphs.

// Plan is a SerializedExecutionPlan: what hipdnnBackendGetSerializedExecutionPlan_ext writes.
type Plan struct {
	Version                uint32
	EngineID               int64
	WorkspaceSize          int64
	TensorUIDs             []int64
	Payload                []byte // the plugin's serialized execution context
	IsOverrideShapeEnabled bool
	TensorAlignments       []int64 // parallel to TensorUIDs
}

// PlanFormatVersion is the version this build writes into SerializedExecutionPlan.version.
const PlanFormatVersion = 1

// EncodePlan serializes p (no file identifier).
func EncodePlan(p *Plan) []byte {
	b := flatbuffers.NewBuilder(len(p.Payload) + 16*len(p.TensorUIDs) + 96)
	longs := func(v []int64) flatbuffers.UOffsetT {
		b.StartVector(8, len(v), 8)
		for i := len(v) - 1; i >= 0; i-- {
			b.PrependInt64(v[i])
		}
		return b.EndVector(len(v))
	}
	uids := longs(p.TensorUIDs)
	aligns := longs(p.TensorAlignments)
	payload := b.CreateByteVector(p.Payload)
	b.StartObject(slotsSerializedExecutionPlan)
	b.PrependInt64Slot(slotSerializedExecutionPlanEngineId, p.EngineID, 0)
	b.PrependInt64Slot(slotSerializedExecutionPlanWorkspaceSize, p.WorkspaceSize, 0)
	b.PrependUOffsetTSlot(slotSerializedExecutionPlanTensorUids, uids, 0)
	b.PrependUOffsetTSlot(slotSerializedExecutionPlanPluginPayload, payload, 0)
	b.PrependUOffsetTSlot(slotSerializedExecutionPlanTensorAlignments, aligns, 0)
	b.PrependUint32Slot(slotSerializedExecutionPlanVersion, p.Version, 0)
	b.PrependBoolSlot(slotSerializedExecutionPlanIsOverrideShapeEnabled, p.IsOverrideShapeEnabled, false)
	b.Finish(b.EndObject())
	return b.FinishedBytes()
}

// DecodePlan verifies and reads a SerializedExecutionPlan.
func DecodePlan(buf []byte) (p *Plan, err error) {
	defer func() {
		if x := recover(); x != nil {
			p, err = nil, malformedf("serialized execution plan: decoder fault: %v", x)
		}
	}()
	r := fbread.New(buf)
	t, err := r.Root("SerializedExecutionPlan")
	if err != nil {
		return nil, envelopeErr("serialized execution plan", err)
	}
	p = &Plan{}
	steps := []func() error{
		func() error {
			v, _, e := r.I32(t, slotSerializedExecutionPlanVersion, "version")
			p.Version = uint32(v)
			return e
		},
		func() error {
			v, _, e := r.I64(t, slotSerializedExecutionPlanEngineId, "engine_id")
			p.EngineID = v
			return e
		},
		func() error {
			v, _, e := r.I64(t, slotSerializedExecutionPlanWorkspaceSize, "workspace_size")
			p.WorkspaceSize = v
			return e
		},
		func() error {
			v, _, e := r.Longs(t, slotSerializedExecutionPlanTensorUids, "tensor_uids")
			p.TensorUIDs = v
			return e
		},
		func() error {
			v, _, e := r.Bytes(t, slotSerializedExecutionPlanPluginPayload, "plugin_payload")
			p.Payload = v
			return e
		},
		func() error {
			v, _, e := r.Byte(t, slotSerializedExecutionPlanIsOverrideShapeEnabled, "is_override_shape_enabled")
			p.IsOverrideShapeEnabled = v != 0
			return e
		},
		func() error {
			v, _, e := r.Longs(t, slotSerializedExecutionPlanTensorAlignments, "tensor_alignments")
			p.TensorAlignments = v
			return e
		},
	}
	for _, s := range steps {
		if err := s(); err != nil {
			return nil, envelopeErr("serialized execution plan", err)
		}
	}
	if len(p.TensorAlignments) != 0 && len(p.TensorAlignments) != len(p.TensorUIDs) {
		return nil, malformedf("serialized execution plan: %d tensor alignments for %d tensor uids", len(p.TensorAlignments), len(p.TensorUIDs))
	}
	return p, nil
}

func envelopeErr(what string, err error) error {
	var fe *fbread.Error
	if errors.As(err, &fe) {
		return malformedf("%s: %s", what, fe.Msg)
	}
	return prefixed(err, "%s", what)
}
