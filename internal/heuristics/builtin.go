package heuristics

import (
	"sync/atomic"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/status"
)

// builtin.go: the policies compiled into the backend, packaged as modules of the same
// function-table shape as a plugin (module.go). They are never dlopened, are registered before
// any plugin on every load (ABSOLUTE mode included) and enumerate like plugins.

// builtinVersion is the implementation version every built-in module reports.
const builtinVersion = "1.0.0"

// Plugin names of the built-in modules.
const (
	BuiltinConfigPlugin         = "BuiltInConfigHeuristic"
	BuiltinStaticOrderingPlugin = "BuiltInStaticOrderingHeuristic"
	BuiltinPredictionPlugin     = "BuiltInPredictionHeuristic"
)

// rankFunc is a built-in policy's finalize: the ordering and optional exact configs, or
// applied=false to decline. reason says why it declined (for the slot's log line).
type rankFunc func(c *rankCall) (order []int64, configs map[int64][]byte, applied bool, reason string)

// rankCall is the input of one built-in finalize.
type rankCall struct {
	policyID   int64
	candidates []int64
	graph      []byte
	host       *hostServices
}

// builtinModule is one built-in "plugin": a name and the policies it serves.
type builtinModule struct {
	inf   moduleInfo
	ranks map[int64]rankFunc
}

// builtinKeys numbers built-in handles. The keys only order SetDeviceProperties calls (real
// handle pointers are far above them, so built-ins come first); built-ins take no part in
// the handle-collision check.
var builtinKeys atomic.Uintptr

func newBuiltin(plugin string, policies ...struct {
	name string
	rank rankFunc
}) *builtinModule {
	m := &builtinModule{
		inf: moduleInfo{
			name: plugin, version: builtinVersion, apiVersion: APIVersion.String(),
			label: "built-in:" + plugin,
		},
		ranks: map[int64]rankFunc{},
	}
	for _, p := range policies {
		id := PolicyNameToID(p.name)
		m.inf.policies = append(m.inf.policies, policyDecl{id: id, name: p.name})
		m.ranks[id] = p.rank
	}
	return m
}

type namedRank = struct {
	name string
	rank rankFunc
}

// builtinModules returns the built-in modules in registration order: Config,
// StaticOrdering, then the prediction policies ModeA and ModeB (one module serving both).
func builtinModules() []module {
	return []module{
		newBuiltin(BuiltinConfigPlugin, namedRank{PolicyConfig, rankConfig}),
		newBuiltin(BuiltinStaticOrderingPlugin, namedRank{PolicyStaticOrdering, rankStaticOrdering}),
		newBuiltin(BuiltinPredictionPlugin, namedRank{PolicyModeA, rankModeA}, namedRank{PolicyModeB, rankModeB}),
	}
}

func (m *builtinModule) info() *moduleInfo        { return &m.inf }
func (m *builtinModule) setLogLevel(api.Severity) {}
func (m *builtinModule) unload()                  {}

func (m *builtinModule) createHandle() (moduleHandle, error) {
	return &builtinHandle{m: m, k: builtinKeys.Add(1)}, nil
}

// builtinHandle is a built-in's hipdnnHeuristicHandle_t. Built-in policies do not use the
// device properties; the handle keeps the latest blob as a plugin would.
type builtinHandle struct {
	m           *builtinModule
	k           uintptr
	deviceProps []byte
}

func (h *builtinHandle) key() uintptr { return h.k }

func (h *builtinHandle) setDeviceProperties(blob []byte) error {
	h.deviceProps = append(h.deviceProps[:0], blob...)
	return nil
}

func (h *builtinHandle) createPolicy(id int64) (policyDescriptor, error) {
	r, ok := h.m.ranks[id]
	if !ok {
		return nil, status.BadParam("%s does not serve policy %s", h.m.inf.label, FormatID(id))
	}
	return &builtinDescriptor{id: id, rank: r}, nil
}

func (h *builtinHandle) destroy() error { return nil }

// builtinDescriptor holds one slot's finalize result.
type builtinDescriptor struct {
	id       int64
	rank     rankFunc
	applied  bool
	order    []int64
	configs  map[int64][]byte
	declined string
}

func (d *builtinDescriptor) finalize(candidates []int64, graph []byte, host *hostServices) (applied bool, err error) {
	d.applied, d.order, d.configs, d.declined = false, nil, nil, ""
	defer func() {
		if r := recover(); r != nil { // a bug in a built-in fails its slot, not the process
			d.applied, d.order, d.configs = false, nil, nil
			applied, err = false, status.Internal("built-in policy %s panicked: %v", FormatID(d.id), r)
		}
	}()
	order, configs, applied, reason := d.rank(&rankCall{
		policyID: d.id, candidates: append([]int64(nil), candidates...), graph: graph, host: host,
	})
	d.applied, d.order, d.configs, d.declined = applied, order, configs, reason
	return applied, nil
}

func (d *builtinDescriptor) sortedEngineIDs(capacity int) ([]int64, error) {
	if !d.applied {
		return nil, status.NotInitialized("policy %s has not applied", FormatID(d.id))
	}
	if len(d.order) > capacity {
		return nil, &tooManyEngines{announced: uint64(len(d.order))}
	}
	return append([]int64(nil), d.order...), nil
}

func (d *builtinDescriptor) engineConfig(id int64) ([]byte, bool, error) {
	if !d.applied {
		return nil, false, status.NotInitialized("policy %s has not applied", FormatID(d.id))
	}
	blob, ok := d.configs[id]
	if !ok {
		return nil, false, nil
	}
	return append([]byte(nil), blob...), true, nil
}

func (d *builtinDescriptor) destroy() error { return nil }

// declineReason lets Rank log why a built-in declined.
func (d *builtinDescriptor) declineReason() string { return d.declined }
