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
