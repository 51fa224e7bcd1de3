package engines

import (
	"testing"

	"github.com/hipdnn-go/backend/internal/version"
)

func TestEngineNameToID(t *testing.T) {
	t.Parallel()
	tests := []struct {
		give string
		want uint64
	}{
		{"", 0},
		{"TEST_GOOD_DEFAULT_ENGINE", 0x5FB06B52DB2039AC},
		{"TEST_EXECUTE_FAILS_ENGINE", 0x637C0BB90F065BA2},
		{"TEST_HASHED_NAME_ENGINE", 0xD134891277747B22},
		{"SelectionHeuristic::Config", 0x79DAC33209E0D5C1},
		{"SelectionHeuristic::StaticOrdering", 0xB90B95E3C49B021D},
		{"SelectionHeuristic::UHD", 0x31248056439F5C8E},
		{"SelectionHeuristic::ModeA", 0x8AB02767BD0989D7},
		{"SelectionHeuristic::ModeB", 0x8AB02867BD098B8A},
		{"HIP_MLOPS_ENGINE", 0xDD993EF5525F7BF9},
		{"HIPBLASLT_ENGINE", 0x79AEB17432D4A22B},
		{"MIOPEN_ENGINE", 0x15B46865C717A122},
		{"MIOPEN_ENGINE_DETERMINISTIC", 0xA258541A6DAA1DE3},
		{"ASM_SDPA_ENGINE", 0x416BD1881C4A0CA4},
		{"ROCKE_ENGINE", 0xADC10C8BF456AD9E},
		{"HIP_KERNEL_ENGINE", 0x0CAC08D0EA88FAC1},
		{"HIP_FLASH2_ENGINE", 0x229B3B90CD2C26A6},
	}
	for _, tt := range tests {
		if got := EngineNameToID(tt.give); uint64(got) != tt.want {
			t.Errorf("EngineNameToID(%q) = %#x, want %#x", tt.give, uint64(got), tt.want)
		}
	}
	// The signed values the spec lists.
	for name, want := range map[string]int64{
		"SelectionHeuristic::Config":         8780545043193714113,
		"SelectionHeuristic::StaticOrdering": -5112828146460458467,
		"MIOPEN_ENGINE_DETERMINISTIC":        -6748551569128940061,
		"ROCKE_ENGINE":                       -5926441839403553378,
	} {
		if got := EngineNameToID(name); got != want {
			t.Errorf("EngineNameToID(%q) = %d, want %d", name, got, want)
		}
	}
}

func TestFormatEngineID(t *testing.T) {
	t.Parallel()
	for give, want := range map[int64]string{
		-2:                   "0xFFFFFFFFFFFFFFFE",
		26:                   "0x000000000000001A",
		0:                    "0x0000000000000000",
		0x5FB06B52DB2039AC:   "0x5FB06B52DB2039AC",
		-9223372036854775808: "0x8000000000000000",
	} {
		if got := FormatEngineID(give); got != want {
			t.Errorf("FormatEngineID(%d) = %q, want %q", give, got, want)
		}
	}
}

func TestEngineNameOrIDToID(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc string
		give string
		want int64
	}{
		{"registered name", "MIOPEN_ENGINE", EngineNameToID("MIOPEN_ENGINE")},
		{"unregistered name hashes", "TEST_GOOD_DEFAULT_ENGINE", 0x5FB06B52DB2039AC},
		{"decimal", "42", 42},
		{"negative decimal", "-2", -2},
		{"plus sign", "+7", 7},
		{"hex lower prefix", "0x5FB06B52DB2039AC", 0x5FB06B52DB2039AC},
		{"hex upper prefix", "0XFFFFFFFFFFFFFFFE", -2},
		{"hex lower digits", "0xd134891277747b22", EngineNameToID("TEST_HASHED_NAME_ENGINE")},
		{"bare 0x hashes", "0x", EngineNameToID("0x")},
		{"hex too long hashes", "0x1FFFFFFFFFFFFFFFF", EngineNameToID("0x1FFFFFFFFFFFFFFFF")},
		{"leading space hashes", " 42", EngineNameToID(" 42")},
		{"trailing text hashes", "42abc", EngineNameToID("42abc")},
		{"decimal overflow hashes", "9223372036854775808", EngineNameToID("9223372036854775808")},
		{"empty", "", 0},
	}
	for _, tt := range tests {
		if got := EngineNameOrIDToID(tt.give); got != tt.want {
			t.Errorf("%s: EngineNameOrIDToID(%q) = %d, want %d", tt.desc, tt.give, got, tt.want)
		}
	}
}

func TestNameRegistryRejects(t *testing.T) {
	t.Parallel()
	r := &nameRegistry{}
	if err := r.register("A_ENGINE"); err != nil {
		t.Fatal(err)
	}
	for give, want := range map[string]string{
		"":         "engine name registry: empty name",
		"A_ENGINE": `engine name registry: "A_ENGINE" is registered twice`,
	} {
		if err := r.register(give); err == nil || err.Error() != want {
			t.Errorf("register(%q) = %v, want %q", give, err, want)
		}
	}
	if n, ok := BuiltinEngineName(EngineNameToID("ROCKE_ENGINE")); !ok || n != "ROCKE_ENGINE" {
		t.Errorf("BuiltinEngineName(ROCKE) = %q, %v", n, ok)
	}
}

func TestAPIVersions(t *testing.T) {
	t.Parallel()
	min, max := HostedAPIRange()
	if min != (version.Triple{Major: 1}) || max != (version.Triple{Major: 1, Minor: 4}) {
		t.Errorf("HostedAPIRange = %v, %v; want 1.0.0, 1.4.0 (engine_api_version.h)", min, max)
	}
	tests := []struct {
		give GraphFeatures
		want version.Triple
	}{
		{GraphFeatures{}, version.Triple{Major: 1}},
		{GraphFeatures{OverrideShapes: true}, version.Triple{Major: 1, Minor: 1}},
		{GraphFeatures{RuntimePassByValue: true}, version.Triple{Major: 1, Minor: 2}},
		{GraphFeatures{OverrideShapes: true, RuntimePassByValue: true}, version.Triple{Major: 1, Minor: 2}},
		{GraphFeatures{Ragged: true}, version.Triple{Major: 1, Minor: 3}},
		{GraphFeatures{CustomAlignment: true, OverrideShapes: true}, version.Triple{Major: 1, Minor: 3}},
	}
	for _, tt := range tests {
		if got := tt.give.MinAPIVersion(); got != tt.want {
			t.Errorf("%+v.MinAPIVersion() = %v, want %v", tt.give, got, tt.want)
		}
	}
}

func TestEngineNameRegistry(t *testing.T) {
	for _, n := range []string{"MIOPEN_ENGINE", "MIOPEN_ENGINE_DETERMINISTIC", "HIPDNNGO_CPU_REFERENCE", "HIPDNNGO_ONEDNN", "BENCHMARK_HIPDNNGO_CUDNN"} {
		if !IsRegisteredEngineName(n) {
			t.Errorf("%s is not registered", n)
		}
	}
	for _, n := range []string{"", "BENCHMARK_", "TEST_GOOD_DEFAULT_ENGINE", "miopen_engine", "BENCHMARK_BENCHMARK_MIOPEN_ENGINE"} {
		if IsRegisteredEngineName(n) {
			t.Errorf("%q is registered", n)
		}
	}
	// The registry comes from the header: it holds AMD's names and ours, with distinct ids.
	seen := map[int64]string{}
	for _, n := range RegisteredEngineNames {
		id := EngineNameToID(n)
		if other, dup := seen[id]; dup {
			t.Errorf("%s and %s share id %s", n, other, FormatEngineID(id))
		}
		seen[id] = n
	}
	if len(RegisteredEngineNames) < 12 {
		t.Errorf("registry has %d names, want at least 12", len(RegisteredEngineNames))
	}
}
