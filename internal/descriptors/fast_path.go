package descriptors

import (
	"github.com/hipdnn-go/backend/internal/engines"
	"github.com/hipdnn-go/backend/internal/handle"
)

// fast_path.go: the one place that decides what the C fast path of hipdnnBackendExecute
// (engines/fast.go, engines/hd_fast.c) may serve. A finalized plan and a finalized variant
// pack without shape overrides are published under the C token that names them, when they
// are finalized through that token or minted finalized (a deserialized plan); the token's
// destruction withdraws them (Destroy, object.go) before the object's resources go. Everything
// else takes the Go path of Execute, whose checks are a superset of the C path's: the C path
// only ever serves calls the Go path would accept and run the same way.

// FinalizeToken is hipdnnBackendFinalize: Finalize, then publish o under token.
func FinalizeToken(o Object, token uintptr) error {
	if err := Finalize(o); err != nil {
		return err
	}
	publishFast(o, token)
	return nil
}

// DeserializePlanToken is hipdnnBackendCreateAndDeserializeExecutionPlan_ext: DeserializePlan,
// a new token for the plan, published.
func DeserializePlanToken(hd *handle.Handle, b []byte) (uintptr, error) {
	plan, err := DeserializePlan(hd, b)
	if err != nil {
		return 0, err
	}
	tok := Token(plan)
	publishFast(plan, tok)
	return tok, nil
}

func publishFast(o Object, token uintptr) {
	switch x := o.(type) {
	case *ExecutionPlan:
		if x.finalized && x.ctx != nil && x.handle != nil {
			x.ctx.PublishFast(token, x.handle.Token())
		}
	case *VariantPack:
		if x.finalized && x.overrides.Len() == 0 {
			x.buffers.Precheck()
			x.buffers.PublishFast(token)
		}
	}
}

// withdrawFast unpublishes what token published and waits for fast calls using it.
func withdrawFast(token uintptr) { engines.RetireFast(token) }
