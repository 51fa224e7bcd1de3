package heuristics

import (
	"slices"
	"testing"

	"github.com/hipdnn-go/backend/internal/wire"
)

func runBuiltin(t *testing.T, rank rankFunc, req Request) ([]int64, map[int64][]byte, bool, string) {
	t.Helper()
	host := newHostServices(&req)
	return rank(&rankCall{candidates: req.Candidates, graph: req.Graph, host: host})
}

func TestStaticOrderClasses(t *testing.T) {
	t.Parallel()
	a, b := PolicyNameToID("VENDOR_A_ENGINE"), int64(-2)
	tests := []struct {
		desc       string
		give, want []int64
	}{
		{"empty", nil, []int64{}},
		{"single", []int64{idMIODet}, []int64{idMIODet}},
		{"all classes", []int64{idCPURef, idMIODet, a, idRocKE, idASM, b, idMIOpen},
			[]int64{idMIOpen, idASM, idRocKE, a, b, idMIODet, idCPURef}},
		{"others keep input order", []int64{b, idHipBLAS, a}, []int64{b, idHipBLAS, a}},
		{"reference after deterministic", []int64{idCPURef, idMIODet}, []int64{idMIODet, idCPURef}},
		{"reference after unknown engines", []int64{idCPURef, a}, []int64{a, idCPURef}},
		{"oneDNN right before the reference", []int64{idCPURef, idOneDNN, idMIODet, a},
			[]int64{a, idMIODet, idOneDNN, idCPURef}},
	}
	for _, tt := range tests {
		got := StaticOrder(tt.give)
		if !slices.Equal(got, tt.want) && !(len(got) == 0 && len(tt.want) == 0) {
			t.Errorf("%s: StaticOrder = %v, want %v", tt.desc, got, tt.want)
		}
		if !slices.Equal(StaticOrder(got), got) {
			t.Errorf("%s: not idempotent", tt.desc)
		}
	}
}

func TestStaticOrderingPolicy(t *testing.T) {
	clearEnv(t)
	cands := []int64{idCPURef, idRocKE, -2, idMIOpen}
	registry := func(s string) int64 { // a registry knowing one engine by a name that looks numeric
		if s == "42" {
			return -2
		}
		return EngineNameOrID(s)
	}
	tests := []struct {
		desc, env string
		engineID  func(string) int64
		cands     []int64
		want      []int64
		declined  bool
	}{
		{desc: "no env: classes", cands: cands, want: []int64{idMIOpen, idRocKE, -2, idCPURef}},
		{desc: "blank env: classes", env: " ,\t", cands: cands, want: []int64{idMIOpen, idRocKE, -2, idCPURef}},
		{desc: "env restricts and orders", env: "HIPDNNGO_CPU_REFERENCE, MIOPEN_ENGINE", cands: cands,
			want: []int64{idCPURef, idMIOpen}},
		{desc: "hex, decimal, unknown and duplicates", env: "0xFFFFFFFFFFFFFFFE,UNKNOWN_ENGINE, 0x15B46865C717A122,-2", cands: cands,
			want: []int64{-2, idMIOpen}},
		{desc: "decimal id", env: "1563989756945604898", cands: cands, want: []int64{idMIOpen}},
		{desc: "request registry resolves", env: "42", engineID: registry, cands: cands, want: []int64{-2}},
		{desc: "none listed is a candidate", env: "ASM_SDPA_ENGINE", cands: cands, declined: true},
		{desc: "no candidates", declined: true},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Setenv(EnvFallbackEngineOrder, tt.env)
			got, cfgs, applied, why := runBuiltin(t, rankStaticOrdering, Request{Candidates: tt.cands, EngineID: tt.engineID})
			if applied == tt.declined {
				t.Fatalf("applied = %v (%s)", applied, why)
			}
			if !tt.declined && (!slices.Equal(got, tt.want) || cfgs != nil) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestEngineNameOrID(t *testing.T) {
	t.Parallel()
	for give, want := range map[string]int64{
		"MIOPEN_ENGINE":       idMIOpen,
		"0x15B46865C717A122":  idMIOpen,
		"0X15b46865c717a122":  idMIOpen,
		"0xFFFFFFFFFFFFFFFE":  -2,
		"1563989756945604898": idMIOpen,
		"+7":                  7,
		"-2":                  -2,
		" 7":                  PolicyNameToID(" 7"),
		"0x":                  PolicyNameToID("0x"),
		"0x1FFFFFFFFFFFFFFFF": PolicyNameToID("0x1FFFFFFFFFFFFFFFF"),
		"":                    0,
	} {
		if got := EngineNameOrID(give); got != want {
			t.Errorf("EngineNameOrID(%q) = %d, want %d", give, got, want)
		}
	}
}

func TestStaticOrderForCudaRTC(t *testing.T) {
	t.Parallel()
	rtc, cudnn := PolicyNameToID(EngineCUDARTC), PolicyNameToID(EngineCUDNN)
	x, y := tensor(1, 8, 64), tensor(2, 8, 64)
	graph := func(nodes ...wire.Node) []byte {
		return encode(t, &wire.Graph{Name: "g", Tensors: []wire.Tensor{x, y, tensor(3, 8, 64), tensor(4, 1, 64), tensor(5, 8, 1)}, Nodes: nodes})
	}
	relu := node(t, "PointwiseAttributes", map[string]int64{"operation": 34, "in_0_tensor_uid": 1, "out_0_tensor_uid": 2})
	ln := node(t, "LayernormAttributes", map[string]int64{"x_tensor_uid": 1, "scale_tensor_uid": 4, "bias_tensor_uid": 4,
		"epsilon_tensor_uid": 5, "y_tensor_uid": 2})
	lnBwd := node(t, "LayernormBackwardAttributes", map[string]int64{"dy_tensor_uid": 1, "x_tensor_uid": 3, "scale_tensor_uid": 4,
		"mean_tensor_uid": 5, "inv_variance_tensor_uid": 5, "dx_tensor_uid": 2, "dscale_tensor_uid": 4, "dbias_tensor_uid": 4})
	tests := []struct {
		desc  string
		graph []byte
		want  []int64
	}{
		{"pointwise: cuda_rtc first", graph(relu), []int64{rtc, cudnn, idCPURef}},
		{"layernorm forward with an epilogue: cuda_rtc first", graph(ln, relu), []int64{rtc, cudnn, idCPURef}},
		{"layernorm backward: cuDNN first", graph(lnBwd), []int64{cudnn, rtc, idCPURef}},
		{"convolution: cuDNN first", encode(t, convGraph(t)), []int64{cudnn, rtc, idCPURef}},
		{"no graph: cuDNN first", nil, []int64{cudnn, rtc, idCPURef}},
		{"unreadable graph: cuDNN first", []byte("not a flatbuffer graph"), []int64{cudnn, rtc, idCPURef}},
	}
	for _, tt := range tests {
		if got := StaticOrderFor([]int64{idCPURef, rtc, cudnn}, tt.graph); !slices.Equal(got, tt.want) {
			t.Errorf("%s: StaticOrderFor = %v, want %v", tt.desc, got, tt.want)
		}
	}
	if got := StaticOrderFor([]int64{idCPURef, cudnn}, graph(relu)); !slices.Equal(got, []int64{cudnn, idCPURef}) {
		t.Errorf("without cuda_rtc: %v", got)
	}
}
