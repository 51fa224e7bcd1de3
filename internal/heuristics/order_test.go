package heuristics

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/hipdnn-go/backend/internal/api"
)

func TestPolicyNameToID(t *testing.T) {
	t.Parallel()
	tests := []struct {
		give string
		want uint64
	}{
		{"", 0},
		{PolicyConfig, 0x79DAC33209E0D5C1},
		{PolicyStaticOrdering, 0xB90B95E3C49B021D},
		{"SelectionHeuristic::UHD", 0x31248056439F5C8E},
		{PolicyModeA, 0x8AB02767BD0989D7},
		{PolicyModeB, 0x8AB02867BD098B8A},
		{"TEST_GOOD_DEFAULT_ENGINE", 0x5FB06B52DB2039AC},
		{"TEST_EXECUTE_FAILS_ENGINE", 0x637C0BB90F065BA2},
		{"TEST_HASHED_NAME_ENGINE", 0xD134891277747B22},
		{EngineMIOpen, 0x15B46865C717A122},
		{EngineMIOpenDeterministic, 0xA258541A6DAA1DE3},
		{EngineASMSDPA, 0x416BD1881C4A0CA4},
		{EngineRocKE, 0xADC10C8BF456AD9E},
	}
	for _, tt := range tests {
		if got := PolicyNameToID(tt.give); got != int64(tt.want) {
			t.Errorf("PolicyNameToID(%q) = %s, want 0x%016X", tt.give, FormatID(got), tt.want)
		}
	}
}

func TestDefaultOrder(t *testing.T) {
	t.Parallel()
	want := []int64{8780545043193714113, -5112828146460458467}
	if !slices.Equal(DefaultOrder, want) {
		t.Fatalf("DefaultOrder = %v, want %v", DefaultOrder, want)
	}
	if FormatID(DefaultOrder[0]) != "0x79DAC33209E0D5C1" || FormatID(DefaultOrder[1]) != "0xB90B95E3C49B021D" {
		t.Fatalf("hex: %s %s", FormatID(DefaultOrder[0]), FormatID(DefaultOrder[1]))
	}
}

func TestParsePolicyOrder(t *testing.T) {
	t.Parallel()
	cfg, st := PolicyNameToID(PolicyConfig), PolicyNameToID(PolicyStaticOrdering)
	tests := []struct {
		desc string
		give string
		want []int64
	}{
		{"empty", "", nil},
		{"blank tokens only", " ,\t, \r\n,", nil},
		{"one name", PolicyConfig, []int64{cfg}},
		{"names trimmed", " \t" + PolicyStaticOrdering + "\r\n, " + PolicyConfig, []int64{st, cfg}},
		{"decimal ids, negatives", "42, -7 ,+5", []int64{42, -7, 5}},
		{"mixed and empty tokens", "1,,SelectionHeuristic::Config,", []int64{1, cfg}},
		{"signed extremes", "-9223372036854775808,9223372036854775807", []int64{math.MinInt64, math.MaxInt64}},
		{"strtoll saturates", "99999999999999999999,-99999999999999999999", []int64{math.MaxInt64, math.MinInt64}},
		{"trailing text is a name", "5x", []int64{PolicyNameToID("5x")}},
		{"hex is a name (base 10)", "0x10", []int64{PolicyNameToID("0x10")}},
		{"inner space is a name", "1 2", []int64{PolicyNameToID("1 2")}},
		{"sign alone is a name", "-", []int64{PolicyNameToID("-")}},
		{"vertical tab skipped by strtoll", "\v12", []int64{12}},
		{"duplicates kept", "3,3", []int64{3, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			if got := ParsePolicyOrder(tt.give); !slices.Equal(got, tt.want) {
				t.Errorf("ParsePolicyOrder(%q) = %v, want %v", tt.give, got, tt.want)
			}
		})
	}
}

func TestResolvePolicyOrderPrecedence(t *testing.T) {
	clearEnv(t)
	logs := captureLogs(t, api.HIPDNN_SEV_WARN)

	order, src := ResolvePolicyOrder(nil, false)
	if !slices.Equal(order, DefaultOrder) || src != OrderFromDefault {
		t.Fatalf("nothing set: %v %s", order, src)
	}
	if !strings.Contains(logs.String(), "[warn]") || !strings.Contains(logs.String(), "default order") {
		t.Fatalf("default order not warned about: %q", logs.String())
	}
	order[0] = 1
	if DefaultOrder[0] == 1 {
		t.Fatal("ResolvePolicyOrder shares DefaultOrder")
	}

	order, src = ResolvePolicyOrder([]int64{7, -8}, true)
	if !slices.Equal(order, []int64{7, -8}) || src != OrderFromAttribute {
		t.Fatalf("attribute: %v %s", order, src)
	}
	order, src = ResolvePolicyOrder(nil, true)
	if len(order) != 0 || order == nil || src != OrderFromAttribute {
		t.Fatalf("attribute set empty: %#v %s", order, src)
	}

	t.Setenv(EnvPolicyOrder, " SelectionHeuristic::StaticOrdering , -3 ")
	order, src = ResolvePolicyOrder([]int64{7}, true)
	if !slices.Equal(order, []int64{PolicyNameToID(PolicyStaticOrdering), -3}) || src != OrderFromEnv {
		t.Fatalf("env over attribute: %v %s", order, src)
	}

	t.Setenv(EnvPolicyOrder, " \t ")
	if order, src = ResolvePolicyOrder([]int64{7}, true); src != OrderFromAttribute || !slices.Equal(order, []int64{7}) {
		t.Fatalf("blank env must not count: %v %s", order, src)
	}
	t.Setenv(EnvPolicyOrder, " , ,")
	if order, src = ResolvePolicyOrder([]int64{7}, true); src != OrderFromEnv || len(order) != 0 {
		t.Fatalf("env of empty tokens: %v %s", order, src)
	}
}
