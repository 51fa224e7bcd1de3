package wire

import (
	"errors"
	"reflect"
	"testing"
)

func TestPlanRoundTrip(t *testing.T) {
	p := &Plan{Version: PlanFormatVersion, EngineID: -2, WorkspaceSize: 2048, TensorUIDs: []int64{1, 2, 3},
		Payload: []byte("payload"), IsOverrideShapeEnabled: true, TensorAlignments: []int64{16, 16, 64}}
	got, err := DecodePlan(EncodePlan(p))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, p) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got, p)
	}
}

func TestPlanRejectsDamage(t *testing.T) {
	b := EncodePlan(&Plan{EngineID: 5, TensorUIDs: []int64{1}, TensorAlignments: []int64{16}, Payload: []byte{1, 2, 3}})
	for n := 0; n < len(b); n++ {
		if _, err := DecodePlan(b[:n]); err == nil {
			continue // a prefix may still verify when it cuts only trailing padding
		} else if !errors.Is(err, ErrMalformed) {
			t.Fatalf("prefix %d: %v is not ErrMalformed", n, err)
		}
	}
	bad := EncodePlan(&Plan{TensorUIDs: []int64{1, 2}, TensorAlignments: []int64{16}, Payload: []byte{1}})
	if _, err := DecodePlan(bad); !errors.Is(err, ErrMalformed) {
		t.Fatalf("mismatched alignments: %v", err)
	}
}

// FuzzDecodePlan: any bytes give a plan or an error wrapping ErrMalformed, never a panic, and
// a decoded plan survives re-encoding unchanged.
func FuzzDecodePlan(f *testing.F) {
	f.Add(EncodePlan(&Plan{Version: 1, EngineID: -2, WorkspaceSize: 64, TensorUIDs: []int64{1, 2}, TensorAlignments: []int64{16, 64}, Payload: []byte("ctx")}))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := DecodePlan(b)
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("error %v is not ErrMalformed", err)
			}
			return
		}
		again, err := DecodePlan(EncodePlan(p))
		if err != nil || !reflect.DeepEqual(normPlan(again), normPlan(p)) {
			t.Fatalf("re-encoding changed the plan: %+v vs %+v (%v)", again, p, err)
		}
	})
}

func normPlan(p *Plan) Plan {
	q := *p
	if len(q.TensorUIDs) == 0 {
		q.TensorUIDs = nil
	}
	if len(q.TensorAlignments) == 0 {
		q.TensorAlignments = nil
	}
	if len(q.Payload) == 0 {
		q.Payload = nil
	}
	return q
}

// FuzzDecodeContainer: any bytes give a container or ErrMalformed, never a panic.
func FuzzDecodeContainer(f *testing.F) {
	good, _ := EncodeContainer(&Container{Graph: []byte("graph bytes"), Plan: []byte("plan")})
	f.Add(good)
	f.Add([]byte("1234HDGP"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, err := DecodeContainer(b); err != nil && !errors.Is(err, ErrMalformed) {
			t.Fatalf("error %v is not ErrMalformed", err)
		}
	})
}
