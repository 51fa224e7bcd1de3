package heuristics

import (
	"fmt"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/logging"
)

// module.go: the function-table shape every policy provider is driven through. A dlopened
// heuristic plugin (plugin.go) and a built-in policy set (builtin.go) implement the same three
// interfaces, which mirror HeuristicsPluginApi.h, so the manager enumerates them alike and
// Session.Rank drives them alike.

// Plugin status values (hipdnnPluginStatus_t) the host produces or inspects.
const (
	pluginSuccess        = 0
	pluginBadParam       = 1
	pluginInternalError  = 3
	pluginNotApplicable  = 5
	pluginNotInitialized = 6
)

// policyDecl is one policy a module offers.
type policyDecl struct {
	id   int64
	name string
}

// moduleInfo is what a module reports about itself at load.
type moduleInfo struct {
	name, version, apiVersion string
	// label names the module in messages: the canonical file of a plugin,
	// "built-in:<plugin name>" for a built-in.
	label    string
	path     string // canonical file; "" for a built-in
	policies []policyDecl
}

// module is one loaded policy provider (hipdnnPluginGetName … hipdnnHeuristicPluginGetPolicyName
// were asked at load; the answers are in info).
type module interface {
	info() *moduleInfo
	// createHandle is hipdnnHeuristicHandleCreate: the module's state for one hipdnnHandle.
	createHandle() (moduleHandle, error)
	// setLogLevel is hipdnnPluginSetLogLevel (a no-op for built-ins and plugins without it).
	setLogLevel(sev api.Severity)
	// unload closes the library (dlclose); no handle may be alive.
	unload()
}

// moduleHandle is a hipdnnHeuristicHandle_t. It is used by one goroutine at a time.
type moduleHandle interface {
	// key orders handles for SetDeviceProperties (the handle pointer of a plugin) and
	// detects two modules answering with the same handle.
	key() uintptr
	// setDeviceProperties is hipdnnHeuristicHandleSetDeviceProperties.
	setDeviceProperties(blob []byte) error
	// createPolicy is hipdnnHeuristicPolicyDescriptorCreate.
	createPolicy(id int64) (policyDescriptor, error)
	// destroy is hipdnnHeuristicHandleDestroy.
	destroy() error
}

// policyDescriptor is a hipdnnHeuristicPolicyDescriptor_t.
type policyDescriptor interface {
	// finalize makes SetEngineIds, SetSerializedGraph, then FinalizeWithHost (when the module
	// has it, with host's callback table) or Finalize. Both slices are borrowed for the call.
	finalize(candidates []int64, graph []byte, host *hostServices) (applied bool, err error)
	// sortedEngineIDs is the two-call GetSortedEngineIds; a first answer above capacity is
	// an error (the host never accepts more ids than candidates).
	sortedEngineIDs(capacity int) ([]int64, error)
	// engineConfig is GetEngineConfig: ok=false for NOT_APPLICABLE or when the module lacks
	// the entry point. blob is a copy.
	engineConfig(id int64) (blob []byte, ok bool, err error)
	// destroy is hipdnnHeuristicPolicyDescriptorDestroy.
	destroy() error
}

// hostServices is what a finalize may ask of the host: predictions of candidate engines in
// the effective metric (hipdnnHeuristicHostCallbacks_t.get_prediction) and, for built-ins,
// the request's engine-name resolution. It lives for one Rank.
type hostServices struct {
	req        *Request
	metric     string
	candidates map[int64]struct{}
}

func newHostServices(req *Request) *hostServices {
	h := &hostServices{req: req, metric: req.Metric, candidates: make(map[int64]struct{}, len(req.Candidates))}
	if h.metric == "" {
		h.metric = DefaultRankingMetric
	}
	for _, id := range req.Candidates {
		h.candidates[id] = struct{}{}
	}
	return h
}

// prediction answers get_prediction: a serialized EnginePrediction of a candidate engine in
// the effective metric, checked to be about that engine, of that kind and in that metric.
// The returned status is a hipdnnPluginStatus_t: BAD_PARAM for an engine outside the
// candidate list or an unknown kind, NOT_APPLICABLE when no prediction exists,
// INTERNAL_ERROR when the engine host's answer is inconsistent.
func (h *hostServices) prediction(engineID int64, kind int) ([]byte, int) {
	if _, ok := h.candidates[engineID]; !ok {
		return nil, pluginBadParam
	}
	if kind != PredictionEngine && kind != PredictionConfiguration {
		return nil, pluginBadParam
	}
	if h.req == nil || h.req.Predictor == nil {
		return nil, pluginNotApplicable
	}
	blob, ok := safePredict(h.req.Predictor, engineID, kind, h.metric)
	if !ok || len(blob) == 0 {
		return nil, pluginNotApplicable
	}
	p, err := decodePrediction(blob)
	if err != nil {
		logging.Errorf("Heuristic host: prediction for engine %s is not a valid EnginePrediction: %v", h.engineLabel(engineID), err)
		return nil, pluginInternalError
	}
	m := p.metric
	if m == "" {
		m = MetricTFLOPS
	}
	if p.engineID != engineID || int(p.kind) != kind || m != h.metric {
		logging.Errorf("Heuristic host: prediction for engine %s (kind %d, metric %q) answers engine %s (kind %d, metric %q)",
			h.engineLabel(engineID), kind, h.metric, h.engineLabel(p.engineID), p.kind, m)
		return nil, pluginInternalError
	}
	return blob, pluginSuccess
}

// safePredict fences the Predictor: a panic is no prediction.
func safePredict(p Predictor, engineID int64, kind int, metric string) (blob []byte, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			logging.Errorf("Heuristic host: predictor panicked for engine %s: %v", FormatID(engineID), r)
			blob, ok = nil, false
		}
	}()
	return p.Predict(engineID, kind, metric)
}

// engineLabel names an engine for messages: "NAME (0x…)" or the hex id.
func (h *hostServices) engineLabel(id int64) string {
	if h != nil && h.req != nil {
		return h.req.engineLabel(id)
	}
	return FormatID(id)
}

// FormatID renders an engine or policy id as "0x" and 16 upper-case hex digits of its
// two's-complement value, as hipDNN prints ids.
func FormatID(id int64) string { return fmt.Sprintf("0x%016X", uint64(id)) }
