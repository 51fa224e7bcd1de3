package hip

import (
	"testing"
)

func TestKindString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		give Kind
		want string
	}{
		{KindNone, "none"},
		{KindAMD, "amd"},
		{KindCUDA, "cuda"},
		{Kind(7), "Kind(7)"},
	}
	for _, tt := range tests {
		if got := tt.give.String(); got != tt.want {
			t.Errorf("Kind(%d).String() = %q, want %q", int(tt.give), got, tt.want)
		}
	}
}

func TestMemoryKindString(t *testing.T) {
	t.Parallel()
	want := map[MemoryKind]string{
		MemoryHost: "host pageable", MemoryPinned: "host pinned", MemoryDevice: "device", MemoryManaged: "managed",
		MemoryUnknown: "unknown", MemoryKind(42): "unknown",
	}
	for k, w := range want {
		if got := k.String(); got != w {
			t.Errorf("MemoryKind(%d).String() = %q, want %q", int(k), got, w)
		}
	}
}

func TestParseEnv(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc     string
		give     string
		wantAuto bool
		wantKind Kind
		wantErr  string
	}{
		{desc: "unset", give: "", wantAuto: true},
		{desc: "blank", give: "  ", wantAuto: true},
		{desc: "amd", give: "amd", wantKind: KindAMD},
		{desc: "cuda", give: "cuda", wantKind: KindCUDA},
		{desc: "none", give: "none", wantKind: KindNone},
		{desc: "case and space", give: " CUDA\n", wantKind: KindCUDA},
		{desc: "unknown", give: "rocm", wantErr: `HIPDNN_HIP_RUNTIME="rocm" is not amd, cuda or none`},
		{desc: "alias not accepted", give: "hip", wantErr: `HIPDNN_HIP_RUNTIME="hip" is not amd, cuda or none`},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			got := parseEnv(tt.give)
			if tt.wantErr != "" {
				if got.err == nil || got.err.Error() != tt.wantErr {
					t.Fatalf("parseEnv(%q) error = %v, want %q", tt.give, got.err, tt.wantErr)
				}
				return
			}
			if got.err != nil || got.auto != tt.wantAuto || got.kind != tt.wantKind {
				t.Fatalf("parseEnv(%q) = %+v, want auto=%v kind=%v", tt.give, got, tt.wantAuto, tt.wantKind)
			}
		})
	}
}
