package heuristics

import (
	"github.com/hipdnn-go/backend/internal/autotune"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hipdnn-go/backend/internal/wire"
)

// writeRules writes a rule file and points HIPDNN_HEUR_CONFIG_PATH at it (with spaces
// around, which the policy trims).
func writeRules(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "rules.json")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvConfigPath, "  "+p+"\n")
	return p
}

func runConfig(t *testing.T, g *wire.Graph, cands []int64) ([]int64, bool, string) {
	t.Helper()
	order, cfgs, applied, why := runBuiltin(t, rankConfig, Request{Candidates: cands, Graph: encode(t, g)})
	if cfgs != nil {
		t.Fatalf("Config returned configs %v", cfgs)
	}
	return order, applied, why
}

func TestConfigRulesConv(t *testing.T) {
	clearEnv(t)
	cands := []int64{idMIOpen, -2, idMIODet, idCPURef}
	g := convGraph(t)
	tests := []struct {
		desc, rules string
		want        []int64 // nil: declined
	}{
		{desc: "exact dims, positional x then w", rules: `{"engine_overrides":[{"op":"conv_fprop","engine_name":"MIOPEN_ENGINE_DETERMINISTIC",
			"tensors":[{"dim":[1,16,32,32]},{"dim":[8,16,3,3]}]}]}`,
			want: []int64{idMIODet, idMIOpen, -2, idCPURef}},
		{desc: "wildcards and strides", rules: `{"version":1,"engine_overrides":[{"op":"conv_fprop","engine_name":"HIPDNNGO_CPU_REFERENCE",
			"tensors":[{"dim":[-1,16,-1,-1],"stride":[16384,1024,32,1]}]}]}`,
			want: []int64{idCPURef, idMIOpen, -2, idMIODet}},
		{desc: "stride mismatch", rules: `{"engine_overrides":[{"op":"conv_fprop","engine_name":"HIPDNNGO_CPU_REFERENCE",
			"tensors":[{"dim":[-1,-1,-1,-1],"stride":[1,1,1,1]}]}]}`},
		{desc: "rank must match", rules: `{"engine_overrides":[{"op":"conv_fprop","engine_name":"HIPDNNGO_CPU_REFERENCE",
			"tensors":[{"dim":[-1,-1,-1]}]}]}`},
		{desc: "second tensor is w", rules: `{"engine_overrides":[{"op":"conv_fprop","engine_name":"0xFFFFFFFFFFFFFFFE",
			"tensors":[{"dim":[-1,-1,-1,-1]},{"dim":[8,-1,3,3]}]}]}`,
			want: []int64{-2, idMIOpen, idMIODet, idCPURef}},
		{desc: "first matching rule wins", rules: `{"engine_overrides":[
			{"op":"conv_dgrad","engine_name":"MIOPEN_ENGINE_DETERMINISTIC"},
			{"op":"conv_fprop","engine_name":"HIPDNNGO_CPU_REFERENCE","tensors":[{"dim":[2,16,32,32]}]},
			{"op":"conv_fprop","engine_name":"-2"},
			{"op":"conv_fprop","engine_name":"MIOPEN_ENGINE_DETERMINISTIC"}]}`,
			want: []int64{-2, idMIOpen, idMIODet, idCPURef}},
		{desc: "no tensors: any conv_fprop", rules: `{"engine_overrides":[{"op":"conv_fprop","engine_name":"HIPDNNGO_CPU_REFERENCE"}]}`,
			want: []int64{idCPURef, idMIOpen, -2, idMIODet}},
		{desc: "v2 named tensor", rules: `{"version":2,"engine_overrides":[{"op":"conv_fprop","engine_name":"-2",
			"tensors":[{"tensor_id":"y_tensor_uid","dim":[1,8,30,30]},{"tensor_id":"w","dim":[8,16,3,3]}]}]}`,
			want: []int64{-2, idMIOpen, idMIODet, idCPURef}},
		{desc: "v1 ignores tensor_id (positional x)", rules: `{"engine_overrides":[{"op":"conv_fprop","engine_name":"-2",
			"tensors":[{"tensor_id":"y_tensor_uid","dim":[1,8,30,30]}]}]}`},
		{desc: "matched engine not a candidate", rules: `{"engine_overrides":[{"op":"conv_fprop","engine_name":"ROCKE_ENGINE"}]}`},
		{desc: "invalid rules skipped", rules: `{"engine_overrides":[{"op":"winograd","engine_name":"-2"},{"op":"conv_fprop"},
			{"op":"conv_fprop","engine_name":"-2","tensors":[{"stride":[1]}]},
			{"op":"conv_fprop","engine_name":"-2","criteria":{"pointwise_mode":1}},
			{"op":"conv_fprop","engine_name":"MIOPEN_ENGINE_DETERMINISTIC"}]}`,
			want: []int64{idMIODet, idMIOpen, -2, idCPURef}},
		{desc: "bad version", rules: `{"version":3,"engine_overrides":[{"op":"conv_fprop","engine_name":"-2"}]}`},
		{desc: "invalid JSON", rules: `{"engine_overrides":[`},
		{desc: "not an object", rules: `null`},
		{desc: "no rules", rules: `{}`},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			writeRules(t, tt.rules)
			got, applied, why := runConfig(t, g, cands)
			if tt.want == nil {
				if applied {
					t.Fatalf("applied with %v, want a decline", got)
				}
				return
			}
			if !applied || !slices.Equal(got, tt.want) {
				t.Fatalf("got %v (applied %v: %s), want %v", got, applied, why, tt.want)
			}
		})
	}
}

func TestConfigRulesMatmulAndPointwise(t *testing.T) {
	clearEnv(t)
	cands := []int64{idHipBLAS, idMIOpen, -2}
	g := matmulGraph(t)
	tests := []struct {
		desc, rules string
		want        []int64
	}{
		{desc: "matmul a and b", rules: `{"engine_overrides":[{"op":"matmul","engine_name":"MIOPEN_ENGINE",
			"tensors":[{"dim":[-1,64,32]},{"dim":[-1,32,16]}]}]}`, want: []int64{idMIOpen, idHipBLAS, -2}},
		{desc: "matmul b shape wrong", rules: `{"engine_overrides":[{"op":"matmul","engine_name":"MIOPEN_ENGINE",
			"tensors":[{"dim":[-1,64,32]},{"dim":[-1,16,32]}]}]}`},
		{desc: "pointwise mode by value", rules: `{"engine_overrides":[{"op":"pointwise","engine_name":"-2",
			"criteria":{"pointwise_mode":34},"tensors":[{"dim":[4,64,16]}]}]}`, want: []int64{-2, idHipBLAS, idMIOpen}},
		{desc: "pointwise mode by name", rules: `{"engine_overrides":[{"op":"pointwise","engine_name":"-2",
			"criteria":{"pointwise_mode":"RELU_FWD"}}]}`, want: []int64{-2, idHipBLAS, idMIOpen}},
		{desc: "pointwise mode differs", rules: `{"engine_overrides":[{"op":"pointwise","engine_name":"-2",
			"criteria":{"pointwise_mode":"tanh_fwd"}}]}`},
		{desc: "node order decides across rules", rules: `{"engine_overrides":[
			{"op":"pointwise","engine_name":"-2"},{"op":"matmul","engine_name":"MIOPEN_ENGINE"}]}`,
			want: []int64{idMIOpen, idHipBLAS, -2}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			writeRules(t, tt.rules)
			got, applied, why := runConfig(t, g, cands)
			if tt.want == nil {
				if applied {
					t.Fatalf("applied with %v, want a decline", got)
				}
				return
			}
			if !applied || !slices.Equal(got, tt.want) {
				t.Fatalf("got %v (applied %v: %s), want %v", got, applied, why, tt.want)
			}
		})
	}
}

func TestConfigRulesSDPA(t *testing.T) {
	clearEnv(t)
	cands := []int64{idRocKE, idASM}
	g := sdpaGraph(t)
	writeRules(t, `{"engine_overrides":[
		{"op":"sdpa_bwd","engine_name":"ROCKE_ENGINE"},
		{"op":"sdpa_fwd","engine_name":"ROCKE_ENGINE","tensors":[{"dim":[-1,-1,128,64]},{"dim":[-1,-1,512,64]}]},
		{"op":"sdpa_fwd","engine_name":"ROCKE_ENGINE","tensors":[{"dim":[-1,-1,128,64]},{"dim":[-1,-1,256,64]},{"dim":[2,8,256,64]}]}]}`)
	got, applied, why := runConfig(t, g, cands)
	if !applied || !slices.Equal(got, []int64{idRocKE, idASM}) {
		t.Fatalf("got %v (applied %v: %s)", got, applied, why)
	}
	// A fourth positional tensor of sdpa_fwd is attn_mask, absent here: no match.
	writeRules(t, `{"engine_overrides":[{"op":"sdpa_fwd","engine_name":"ROCKE_ENGINE","tensors":[{"dim":[-1,-1,-1,-1]},{"dim":[-1,-1,-1,-1]},{"dim":[-1,-1,-1,-1]},{"dim":[-1,-1,-1,-1]}]}]}`)
	if _, applied, _ := runConfig(t, g, cands); applied {
		t.Fatal("absent optional tensor matched")
	}
}

func TestConfigRuleFileIsReadEveryTime(t *testing.T) {
	clearEnv(t)
	cands := []int64{idMIOpen, -2}
	g := convGraph(t)
	p := writeRules(t, `{"engine_overrides":[{"op":"conv_fprop","engine_name":"-2"}]}`)
	if got, applied, _ := runConfig(t, g, cands); !applied || got[0] != -2 {
		t.Fatalf("first read: %v %v", got, applied)
	}
	if err := os.WriteFile(p, []byte(`{"engine_overrides":[{"op":"conv_wgrad","engine_name":"-2"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, applied, _ := runConfig(t, g, cands); applied {
		t.Fatal("stale rules used after the file changed")
	}
	os.Remove(p)
	if _, applied, why := runConfig(t, g, cands); applied || !strings.Contains(why, "not used") {
		t.Fatalf("missing file: applied %v, %q", applied, why)
	}
	t.Setenv(EnvConfigPath, "")
	if _, applied, why := runConfig(t, g, cands); applied || !strings.Contains(why, EnvConfigPath) {
		t.Fatalf("env unset: applied %v, %q", applied, why)
	}
}

func TestConfigDeclines(t *testing.T) {
	clearEnv(t)
	writeRules(t, `{"engine_overrides":[{"op":"conv_fprop","engine_name":"-2"}]}`)
	if _, _, applied, why := runBuiltin(t, rankConfig, Request{Candidates: []int64{-2}, Graph: []byte{1, 2, 3}}); applied || !strings.Contains(why, "graph") {
		t.Fatalf("bad graph: %v %q", applied, why)
	}
	if _, _, applied, _ := runBuiltin(t, rankConfig, Request{Graph: encode(t, convGraph(t))}); applied {
		t.Fatal("applied without candidates")
	}
}

// Decision: a matching rule beats the graph's preferred engine; the preferred engine then
// comes second. Without a matching rule the preferred engine alone makes Config apply.
func TestConfigPreferredEngine(t *testing.T) {
	clearEnv(t)
	cands := []int64{idMIOpen, idMIODet, -2, idCPURef}
	g := convGraph(t)
	pref := int64(-2)
	g.PreferredEngineID = &pref

	got, applied, _ := runConfig(t, g, cands)
	if !applied || !slices.Equal(got, []int64{-2, idMIOpen, idMIODet, idCPURef}) {
		t.Fatalf("preferred only: %v %v", got, applied)
	}

	writeRules(t, `{"engine_overrides":[{"op":"conv_fprop","engine_name":"HIPDNNGO_CPU_REFERENCE"}]}`)
	got, applied, _ = runConfig(t, g, cands)
	if !applied || !slices.Equal(got, []int64{idCPURef, -2, idMIOpen, idMIODet}) {
		t.Fatalf("rule and preferred: %v %v", got, applied)
	}

	writeRules(t, `{"engine_overrides":[{"op":"conv_fprop","engine_name":"ROCKE_ENGINE"}]}`)
	got, applied, _ = runConfig(t, g, cands)
	if !applied || !slices.Equal(got, []int64{-2, idMIOpen, idMIODet, idCPURef}) {
		t.Fatalf("rule engine not a candidate: %v %v", got, applied)
	}

	other := int64(-99)
	g.PreferredEngineID = &other
	t.Setenv(EnvConfigPath, "")
	if got, applied, why := runConfig(t, g, cands); applied || !strings.Contains(why, "not a candidate") {
		t.Fatalf("preferred engine not a candidate: %v %v %q", got, applied, why)
	}
}

func TestConfigCriteriaAllOps(t *testing.T) {
	t.Parallel()
	// Every vocabulary op has positional tensors, and every criteria key applies somewhere.
	for name, op := range configVocabulary {
		if len(op.positional) == 0 {
			t.Errorf("%s has no positional tensors", name)
		}
	}
	wantPositional := map[string][]string{
		"conv_fprop": {"x_tensor_uid", "w_tensor_uid"},
		"conv_dgrad": {"dy_tensor_uid", "w_tensor_uid"},
		"conv_wgrad": {"x_tensor_uid", "dy_tensor_uid"},
		"matmul":     {"a_tensor_uid", "b_tensor_uid"},
		"sdpa_fwd":   {"q_tensor_uid", "k_tensor_uid", "v_tensor_uid"},
		"sdpa_bwd":   {"q_tensor_uid", "k_tensor_uid", "v_tensor_uid", "o_tensor_uid", "do_tensor_uid"},
		"pointwise":  {"in_0_tensor_uid", "in_1_tensor_uid", "in_2_tensor_uid"},
	}
	for name, want := range wantPositional {
		op := configVocabulary[name]
		for i, w := range want {
			if got := op.schema.Fields[op.positional[i]].Name; got != w {
				t.Errorf("%s positional[%d] = %s, want %s", name, i, got, w)
			}
		}
	}
	for key, fields := range criterionFields {
		for schema, field := range fields {
			op := wire.OpByName(schema)
			if _, f := op.Field(field); f == nil || f.Enum == nil {
				t.Errorf("criteria %s: %s.%s is not an enum field", key, schema, field)
			}
		}
	}
}

func TestConfigCriteriaNormReductionResample(t *testing.T) {
	clearEnv(t)
	g := &wire.Graph{
		Tensors: []wire.Tensor{tensor(1, 8, 64), tensor(2, 1, 64), tensor(3, 1), tensor(4, 8, 64), tensor(5, 8, 1),
			tensor(6, 1, 3, 8, 8), tensor(7, 1, 3, 4, 4)},
		Nodes: []wire.Node{
			node(t, "RMSNormAttributes", map[string]int64{"x_tensor_uid": 1, "scale_tensor_uid": 2, "epsilon_tensor_uid": 3,
				"y_tensor_uid": 4, "forward_phase": 1}),
			node(t, "ReductionAttributes", map[string]int64{"mode": 5, "in_tensor_uid": 4, "out_tensor_uid": 5}),
			node(t, "ResampleFwdAttributes", map[string]int64{"x_tensor_uid": 6, "y_tensor_uid": 7, "resample_mode": 1, "padding_mode": 1}),
		},
	}
	cands := []int64{idMIOpen, -2}
	for _, tt := range []struct {
		rules string
		want  bool
	}{
		{`{"engine_overrides":[{"op":"rmsnorm","engine_name":"-2","criteria":{"norm_fwd_phase":"INFERENCE"},"tensors":[{"dim":[8,64]}]}]}`, true},
		{`{"engine_overrides":[{"op":"rmsnorm","engine_name":"-2","criteria":{"norm_fwd_phase":2}}]}`, false},
		{`{"engine_overrides":[{"op":"reduction","engine_name":"-2","criteria":{"reduction_mode":"AMAX"}}]}`, true},
		{`{"engine_overrides":[{"op":"reduction","engine_name":"-2","criteria":{"reduction_mode":"MAX_OP"}}]}`, false},
		{`{"engine_overrides":[{"op":"resample_fwd","engine_name":"-2","criteria":{"resample_mode":"maxpool","padding_mode":1}}]}`, true},
		{`{"engine_overrides":[{"op":"resample_fwd","engine_name":"-2","criteria":{"resample_mode":1,"padding_mode":"ZERO_PAD"}}]}`, false},
		{`{"engine_overrides":[{"op":"layernorm","engine_name":"-2"}]}`, false},
	} {
		writeRules(t, tt.rules)
		got, applied, why := runConfig(t, g, cands)
		if applied != tt.want || (applied && got[0] != -2) {
			t.Errorf("%s: got %v applied %v (%s)", tt.rules, got, applied, why)
		}
	}
}

func TestConfigUsesAutotunedRanking(t *testing.T) {
	clearEnv(t)
	t.Setenv("HIPDNN_CACHE_DIR", t.TempDir())
	t.Setenv("HIPDNN_DISABLE_EXACT_ENGINE_CACHE", "")
	cands := []int64{idMIOpen, -2, idMIODet, idCPURef}
	g := convGraph(t)
	dev := DevicePropertiesBlob(nil)
	key, err := autotune.Key(g, dev)
	if err != nil {
		t.Fatal(err)
	}
	// A stored ranking with one engine that is no longer a candidate (-77).
	if _, err := autotune.Write(key, []int64{idCPURef, -77, -2}); err != nil {
		t.Fatal(err)
	}
	// A rule file that would choose otherwise: the measured ranking wins.
	writeRules(t, `{"engine_overrides":[{"op":"conv_fprop","engine_name":"MIOPEN_ENGINE_DETERMINISTIC"}]}`)
	order, _, applied, why := runBuiltin(t, rankConfig, Request{Candidates: cands, Graph: encode(t, g), DeviceProps: dev})
	if !applied || !slices.Equal(order, []int64{idCPURef, -2, idMIOpen, idMIODet}) {
		t.Fatalf("with a cached ranking: %v applied=%v %q", order, applied, why)
	}
	// Only one surviving engine: the cache says nothing, the rule file decides.
	if _, err := autotune.Write(key, []int64{idCPURef, -77}); err != nil {
		t.Fatal(err)
	}
	order, _, _, _ = runBuiltin(t, rankConfig, Request{Candidates: cands, Graph: encode(t, g), DeviceProps: dev})
	if order[0] != idMIODet {
		t.Fatalf("single survivor must not decide: %v", order)
	}
	// Disabled cache.
	if _, err := autotune.Write(key, []int64{-2, idCPURef}); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HIPDNN_DISABLE_EXACT_ENGINE_CACHE", "yes")
	order, _, _, _ = runBuiltin(t, rankConfig, Request{Candidates: cands, Graph: encode(t, g), DeviceProps: dev})
	if order[0] != idMIODet {
		t.Fatalf("disabled cache still used: %v", order)
	}
}
