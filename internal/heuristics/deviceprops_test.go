package heuristics

import (
	"testing"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/hipdnn-go/backend/hip"
	"github.com/hipdnn-go/backend/internal/fb"
	"github.com/hipdnn-go/backend/internal/fbread"
)

func TestDevicePropertiesBlobRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc            string
		give            *hip.DeviceProperties
		wantID, wantCUs int32
		wantMem         uint64
		wantArch        string
	}{
		{desc: "host only", give: nil, wantID: -1},
		{desc: "MI300X", give: &hip.DeviceProperties{ID: 3, Arch: "gfx942:sramecc+:xnack-", MultiProcessorCount: 304,
			TotalGlobalMem: 192 << 30, Name: "ignored"}, wantID: 3, wantCUs: 304, wantMem: 192 << 30, wantArch: "gfx942:sramecc+:xnack-"},
		{desc: "device 0, no arch", give: &hip.DeviceProperties{ID: 0, MultiProcessorCount: 132, TotalGlobalMem: 1},
			wantID: 0, wantCUs: 132, wantMem: 1},
		{desc: "saturated", give: &hip.DeviceProperties{ID: 1 << 40, MultiProcessorCount: -1 << 40},
			wantID: 1<<31 - 1, wantCUs: -1 << 31},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			blob := DevicePropertiesBlob(tt.give)
			if !flatbuffers.BufferHasIdentifier(blob, DevicePropertiesIdentifier) {
				t.Fatalf("identifier %q, want HDDP", blob[4:8])
			}
			if _, err := fbread.New(blob).Root("DeviceProperties"); err != nil {
				t.Fatalf("blob does not verify: %v", err)
			}
			p := fb.GetRootAsDeviceProperties(blob, 0)
			if p.DeviceId() != tt.wantID || p.MultiProcessorCount() != tt.wantCUs || p.TotalGlobalMem() != tt.wantMem ||
				string(p.ArchitectureName()) != tt.wantArch {
				t.Fatalf("decoded {%d %d %d %q}", p.DeviceId(), p.MultiProcessorCount(), p.TotalGlobalMem(), p.ArchitectureName())
			}
		})
	}
}
