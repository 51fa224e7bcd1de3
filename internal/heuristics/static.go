package heuristics

import (
	"slices"
	"sort"
	"strconv"

	"github.com/hipdnn-go/backend/internal/fb"
)

// static.go: SelectionHeuristic::StaticOrdering, the policy that always has an answer.

// Engine names StaticOrdering knows (their ids are the hash of the name).
const (
	EngineMIOpen              = "MIOPEN_ENGINE"
	EngineASMSDPA             = "ASM_SDPA_ENGINE"
	EngineRocKE               = "ROCKE_ENGINE"
	EngineMIOpenDeterministic = "MIOPEN_ENGINE_DETERMINISTIC"
	// EngineCPUReference is this project's host-memory CPU reference engine
	// (plugins/cpu_reference).
	EngineCPUReference = "HIPDNNGO_CPU_REFERENCE"
	// EngineOneDNN is this project's host-memory CPU engine on oneDNN (plugins/onednn): fast,
	// so it goes right before the reference engine.
	EngineOneDNN = "HIPDNNGO_ONEDNN"
	// EngineCUDNN is this project's cuDNN engine on NVIDIA GPUs (plugins/cudnn). It applies only
	// where cuDNN and a CUDA device are present, so ranking it first puts the GPU first there
	// and changes nothing elsewhere.
	EngineCUDNN = "HIPDNNGO_CUDNN"
	// EngineCUDARTC is this project's runtime-compiled engine for memory-bound graphs on NVIDIA
	// GPUs (plugins/cuda_rtc). Where it goes depends on the graph: see cudaRTCLeads.
	EngineCUDARTC = "HIPDNNGO_CUDA_RTC"
)

// classCUDNN sorts before AMD's classes (which keep their numbers); classCUDARTCLead before
// it, for the graphs where the runtime-compiled engine measured faster.
const (
	classCUDARTCLead = -2
	classCUDNN       = -1
)

// Static classes, lowest first. AMD's classes 0–4 are kept exactly; the CPU reference engine
// gets a class of its own after all of them, because a reference implementation goes after
// every real engine (even the deterministic MIOpen variant).
const (
	classMIOpen = iota
	classASMSDPA
	classRocKE
	classOther
	classMIOpenDeterministic
	classOneDNN
	classCPUReference
)

var staticClasses = map[int64]int{
	PolicyNameToID(EngineMIOpen):              classMIOpen,
	PolicyNameToID(EngineASMSDPA):             classASMSDPA,
	PolicyNameToID(EngineRocKE):               classRocKE,
	PolicyNameToID(EngineMIOpenDeterministic): classMIOpenDeterministic,
	PolicyNameToID(EngineOneDNN):              classOneDNN,
	PolicyNameToID(EngineCPUReference):        classCPUReference,
	PolicyNameToID(EngineCUDNN):               classCUDNN,
}

func staticClass(id int64) int {
	if c, ok := staticClasses[id]; ok {
		return c
	}
	return classOther
}

// StaticOrder returns candidates stably sorted by static class: HIPDNNGO_CUDNN, MIOPEN_ENGINE,
// ASM_SDPA_ENGINE, ROCKE_ENGINE, every other engine (in input order, HIPDNNGO_CUDA_RTC among
// them), MIOPEN_ENGINE_DETERMINISTIC, HIPDNNGO_ONEDNN, and HIPDNNGO_CPU_REFERENCE last. It
// allocates the result.
func StaticOrder(candidates []int64) []int64 {
	return StaticOrderFor(candidates, nil)
}

// StaticOrderFor is StaticOrder for one graph (its FlatBuffer): where cudaRTCLeads says the
// runtime-compiled engine measured faster than cuDNN, HIPDNNGO_CUDA_RTC goes first.
func StaticOrderFor(candidates []int64, graph []byte) []int64 {
	out := append([]int64(nil), candidates...)
	rtc, lead := PolicyNameToID(EngineCUDARTC), false
	if slices.Contains(out, rtc) {
		lead = cudaRTCLeads(graph)
	}
	class := func(id int64) int {
		if lead && id == rtc {
			return classCUDARTCLead
		}
		return staticClass(id)
	}
	sort.SliceStable(out, func(a, b int) bool { return class(out[a]) < class(out[b]) })
	return out
}

// cudaRTCLeads reports whether a graph is of a family where HIPDNNGO_CUDA_RTC measured faster
// than HIPDNNGO_CUDNN, or the only GPU engine that takes it (bench/gpu_memory_bench.cpp, H100
// and H200, the README's table): graphs of pointwise, reduction and layernorm / RMSNorm forward
// nodes only. Forward norms ran 1.05-3.3x cuDNN's speed (bf16 and fp32 scales, 8192^2 and
// 32768x4096); cuDNN offers no config for the pointwise chain. Norm backward (cuDNN 1.2-1.4x
// faster) and every family not measured keep cuDNN first. A graph that cannot be read leads
// nowhere.
func cudaRTCLeads(graph []byte) (lead bool) {
	if len(graph) < 8 {
		return false
	}
	defer func() {
		if recover() != nil {
			lead = false
		}
	}()
	g := fb.GetRootAsGraph(graph, 0)
	var n fb.Node
	for i := 0; i < g.NodesLength(); i++ {
		if !g.Nodes(&n, i) {
			return false
		}
		switch n.AttributesType() {
		case fb.NodeAttributesPointwiseAttributes, fb.NodeAttributesReductionAttributes,
			fb.NodeAttributesLayernormAttributes, fb.NodeAttributesRMSNormAttributes:
		default:
			return false
		}
	}
	return g.NodesLength() > 0
}

// rankStaticOrdering is the built-in's finalize. When HIPDNN_HEUR_FALLBACK_ENGINE_ORDER holds
// at least one token (comma list, tokens trimmed, empty ones skipped) the answer is the listed engines that are candidates, in list order (names,
// "0x…" hex or decimal ids, resolved by the request's engine registry), and the policy
// declines when none is a candidate. Otherwise it is StaticOrder. It declines only without
// candidates.
func rankStaticOrdering(c *rankCall) ([]int64, map[int64][]byte, bool, string) {
	if len(c.candidates) == 0 {
		return nil, nil, false, "no candidate engines"
	}
	toks := splitList(getenv(EnvFallbackEngineOrder))
	if len(toks) == 0 {
		return StaticOrderFor(c.candidates, c.graph), nil, true, ""
	}
	var out []int64
	taken := map[int64]bool{}
	for _, tok := range toks {
		id := c.host.req.engineID(tok)
		if _, ok := c.host.candidates[id]; ok && !taken[id] {
			taken[id] = true
			out = append(out, id)
		}
	}
	if len(out) == 0 {
		return nil, nil, false, EnvFallbackEngineOrder + " lists no candidate engine"
	}
	return out, nil, true, ""
}

// EngineNameOrID resolves an engine name or id text without an engine registry: "0x"/"0X"
// followed by up to 16 hex digits is that id (two's complement of the uint64), a whole
// decimal integer with an optional sign is that id, and anything else is a name, hashed
// with PolicyNameToID. (With a registry, a registered name wins over the numeric reading:
// Request.EngineID does that.)
func EngineNameOrID(s string) int64 {
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		if v, err := strconv.ParseUint(s[2:], 16, 64); err == nil {
			return int64(v)
		}
	}
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		return v
	}
	return PolicyNameToID(s)
}
