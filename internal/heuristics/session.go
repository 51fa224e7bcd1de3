package heuristics

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/hipdnn-go/backend/internal/logging"
	"github.com/hipdnn-go/backend/internal/status"
	"github.com/hipdnn-go/backend/internal/wire"
)

// Predictor asks the engine plugins for a prediction of one engine for the graph being
// ranked. kind is PredictionEngine or PredictionConfiguration; metric is the effective
// ranking metric. It returns a serialized EnginePrediction the engine host has validated, or
// ok=false when none is available. It is called synchronously from Rank, on Rank's goroutine.
type Predictor interface {
	Predict(engineID int64, kind int, metric string) (blob []byte, ok bool)
}

// Request is the input of one ranking: what the engine-heuristic descriptor gathered.
type Request struct {
	Candidates []int64 // applicable engines, host order
	Graph      []byte  // serialized Graph flatbuffer
	// Model is Graph already decoded, when the caller has it (the descriptor layer does):
	// built-in policies then skip decoding. Plugins always get Graph.
	Model       *wire.Graph
	DeviceProps []byte  // DevicePropertiesBlob output; empty: DevicePropertiesBlob(nil)
	Order       []int64 // resolved policy order
	Metric      string  // resolved ranking metric ("" means DefaultRankingMetric)
	// EngineID resolves an engine name or id text the way engineNameOrIdToId does with the
	// engine registry (Config rules, HIPDNN_HEUR_FALLBACK_ENGINE_ORDER). nil: names are hashed
	// and "0x…"/decimal texts are ids (EngineNameOrID).
	EngineID func(nameOrID string) int64
	// EngineName names an engine for messages; nil or "" gives the hex id.
	EngineName func(id int64) string
	Predictor  Predictor // nil: no predictions
}

// Result is the ranking of the first policy that succeeded.
type Result struct {
	EngineIDs []int64
	// Configs holds the exact EngineConfig blobs the policy supplied through GetEngineConfig,
	// keyed by engine id, each with ranking_metric set to the effective metric. Engines
	// without one are absent.
	Configs  map[int64][]byte
	PolicyID int64
}

func (r *Request) engineID(s string) int64 {
	if r.EngineID != nil {
		return r.EngineID(s)
	}
	return EngineNameOrID(s)
}

func (r *Request) engineLabel(id int64) string {
	if r.EngineName != nil {
		if n := r.EngineName(id); n != "" && n != FormatID(id) {
			return n + " (" + FormatID(id) + ")"
		}
	}
	return FormatID(id)
}

// Session is the per-hipdnnHandle state of the policy framework: one heuristic handle per
// module of its Manager. Rank and Close are serialized by a mutex, because heuristic handles
// are single-threaded.
type Session struct {
	mu      sync.Mutex
	m       *Manager
	handles []moduleHandle // parallel to m.modules; nil where HandleCreate failed
	closed  bool
}

// NewSession creates one heuristic handle per module of m (hipdnnHeuristicHandleCreate). A
// module whose handle cannot be created, or that answers with the handle of another module
// (a symbol collision), is left out of this session and logged; its policies then count as
// not loaded. m must stay acquired until Close.
func NewSession(m *Manager) *Session {
	s := &Session{m: m, handles: make([]moduleHandle, len(m.modules))}
	seen := map[uintptr]int{}
	for i, mod := range m.modules {
		h, err := mod.createHandle()
		if err != nil {
			logging.Errorf("Heuristic plugin %s: hipdnnHeuristicHandleCreate failed, its policies are unavailable on this handle: %v",
				mod.info().label, err)
			continue
		}
		if _, builtin := mod.(*builtinModule); builtin {
			s.handles[i] = h
			continue
		}
		if j, dup := seen[h.key()]; dup {
			logging.Errorf("Heuristic plugin %s returned the same handle as %s (symbol collision: build plugins with hidden visibility); it is unavailable on this handle",
				mod.info().label, m.modules[j].info().label)
			if err := h.destroy(); err != nil {
				logging.Warnf("Heuristic plugin %s: hipdnnHeuristicHandleDestroy failed: %v", mod.info().label, err)
			}
			continue
		}
		seen[h.key()] = i
		s.handles[i] = h
	}
	return s
}

// Close destroys the session's heuristic handles (errors are logged). Calling it twice is
// harmless.
func (s *Session) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.closed = true
	for i, h := range s.handles {
		if h == nil {
			continue
		}
		if err := h.destroy(); err != nil {
			logging.Warnf("Heuristic plugin %s: hipdnnHeuristicHandleDestroy failed: %v", s.m.modules[i].info().label, err)
		}
		s.handles[i] = nil
	}
}

// slot is one entry of the resolved policy order.
type slot struct {
	policyID int64
	name     string
	module   int // index in m.modules; -1 for an empty slot
	desc     policyDescriptor
	failed   string // why the slot is empty or disabled
}

// noPolicy is the message of the INTERNAL_ERROR returned when no policy succeeds.
const noPolicy = "No heuristic policy succeeded"

// Rank runs the policies of req.Order in order and returns the ranking of the first that
// succeeds (plugin_api.md §2.3 steps 4–7):
//
//   - one slot per listed id, duplicates included; an id no module of the session serves,
//     or whose PolicyDescriptorCreate fails, is an empty slot that is skipped;
//   - device properties are pushed once per distinct heuristic handle among the slots, in
//     handle order; a failure disables every slot of that handle;
//   - each slot gets SetEngineIds, SetSerializedGraph, FinalizeWithHost (or Finalize); on
//     applied=1 its GetSortedEngineIds answer must be a subset or permutation of the
//     candidates without repeats, and every config from GetEngineConfig must verify and name
//     its engine; otherwise the slot counts as failed and the next one runs.
//
// No candidates: an empty Result and no policy runs. An empty order, or no successful slot:
// INTERNAL_ERROR "No heuristic policy succeeded", followed by each slot's reason. Rank is
// serialized with other calls on the same Session.
func (s *Session) Rank(req Request) (Result, error) {
	if len(req.Candidates) == 0 {
		return Result{}, nil
	}
	if len(req.Order) == 0 {
		return Result{}, status.Internal("%s: the policy order is empty", noPolicy)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return Result{}, status.Internal("%s: the heuristic session is closed", noPolicy)
	}
	if len(req.DeviceProps) == 0 {
		req.DeviceProps = DevicePropertiesBlob(nil)
	}
	host := newHostServices(&req)
	slots := s.createSlots(req.Order)
	defer s.destroySlots(slots)
	s.pushDeviceProperties(slots, req.DeviceProps)

	var reasons []string
	for i := range slots {
		sl := &slots[i]
		if sl.desc == nil {
			reasons = append(reasons, sl.name+": "+sl.failed)
			continue
		}
		res, reason := s.runSlot(sl, &req, host)
		if reason == "" {
			logging.Infof("Heuristic policy %s ranked %d of %d candidate engines", sl.name, len(res.EngineIDs), len(req.Candidates))
			return res, nil
		}
		logging.Infof("Heuristic policy %s did not apply: %s", sl.name, reason)
		reasons = append(reasons, sl.name+": "+reason)
	}
	return Result{}, status.Internal("%s (%s)", noPolicy, strings.Join(reasons, "; "))
}

// createSlots resolves each id of order to a module of the session and creates its
// descriptor.
func (s *Session) createSlots(order []int64) []slot {
	slots := make([]slot, len(order))
	for i, id := range order {
		sl := &slots[i]
		sl.policyID, sl.module = id, -1
		ref, ok := s.m.owner[id]
		if !ok {
			sl.name, sl.failed = FormatID(id), "no loaded heuristic policy has this id"
			continue
		}
		sl.name = ref.name
		h := s.handles[ref.module]
		if h == nil {
			sl.failed = "its plugin has no handle on this hipdnnHandle"
			continue
		}
		d, err := h.createPolicy(id)
		if err != nil {
			sl.failed = "hipdnnHeuristicPolicyDescriptorCreate failed: " + err.Error()
			logging.Errorf("Heuristic policy %s (%s): %s", sl.name, s.m.modules[ref.module].info().label, sl.failed)
			continue
		}
		sl.module, sl.desc = ref.module, d
	}
	return slots
}

func (s *Session) destroySlots(slots []slot) {
	for i := range slots {
		if slots[i].desc == nil {
			continue
		}
		if err := slots[i].desc.destroy(); err != nil {
			logging.Warnf("Heuristic policy %s: hipdnnHeuristicPolicyDescriptorDestroy failed: %v", slots[i].name, err)
		}
		slots[i].desc = nil
	}
}

// pushDeviceProperties calls SetDeviceProperties once per distinct handle used by the slots,
// in key order; a failing handle disables all of its slots.
func (s *Session) pushDeviceProperties(slots []slot, blob []byte) {
	var mods []int
	seen := map[int]bool{}
	for i := range slots {
		if m := slots[i].module; m >= 0 && slots[i].desc != nil && !seen[m] {
			seen[m] = true
			mods = append(mods, m)
		}
	}
	sort.Slice(mods, func(a, b int) bool { return s.handles[mods[a]].key() < s.handles[mods[b]].key() })
	for _, m := range mods {
		err := s.handles[m].setDeviceProperties(blob)
		if err == nil {
			continue
		}
		label := s.m.modules[m].info().label
		logging.Errorf("Heuristic plugin %s: hipdnnHeuristicHandleSetDeviceProperties failed, its policies are skipped: %v", label, err)
		for i := range slots {
			if slots[i].module == m && slots[i].desc != nil {
				if derr := slots[i].desc.destroy(); derr != nil {
					logging.Warnf("Heuristic policy %s: hipdnnHeuristicPolicyDescriptorDestroy failed: %v", slots[i].name, derr)
				}
				slots[i].desc = nil
				slots[i].failed = "SetDeviceProperties failed: " + err.Error()
			}
		}
	}
}

// runSlot finalizes one slot; reason is "" on success.
func (s *Session) runSlot(sl *slot, req *Request, host *hostServices) (Result, string) {
	applied, err := sl.desc.finalize(req.Candidates, req.Graph, host)
	if err != nil {
		logging.Errorf("Heuristic policy %s: finalize failed: %v", sl.name, err)
		return Result{}, "finalize failed: " + err.Error()
	}
	if !applied {
		if d, ok := sl.desc.(interface{ declineReason() string }); ok && d.declineReason() != "" {
			return Result{}, "declined (" + d.declineReason() + ")"
		}
		return Result{}, "declined"
	}
	ids, err := sl.desc.sortedEngineIDs(len(req.Candidates))
	var tooMany *tooManyEngines
	if errors.As(err, &tooMany) {
		why := fmt.Sprintf("%d engines for %d candidates", tooMany.announced, len(req.Candidates))
		logging.Errorf("Heuristic policy %s returned an invalid ordering: %s", sl.name, why)
		return Result{}, "invalid ordering: " + why
	}
	if err != nil {
		logging.Errorf("Heuristic policy %s: hipdnnHeuristicPolicyGetSortedEngineIds failed: %v", sl.name, err)
		return Result{}, "GetSortedEngineIds failed: " + err.Error()
	}
	if err := checkOrdering(ids, host.candidates, req); err != nil {
		logging.Errorf("Heuristic policy %s returned an invalid ordering: %v", sl.name, err)
		return Result{}, "invalid ordering: " + err.Error()
	}
	if len(ids) == 0 {
		logging.Warnf("Heuristic policy %s applied with an empty ordering", sl.name)
	}
	res := Result{EngineIDs: ids, PolicyID: sl.policyID}
	for _, id := range ids {
		blob, ok, err := sl.desc.engineConfig(id)
		if err != nil {
			logging.Errorf("Heuristic policy %s: hipdnnHeuristicPolicyGetEngineConfig(%s) failed: %v", sl.name, req.engineLabel(id), err)
			return Result{}, fmt.Sprintf("GetEngineConfig(%s) failed: %v", req.engineLabel(id), err)
		}
		if !ok {
			continue
		}
		cfg, err := decodeEngineConfig(blob)
		if err == nil && cfg.engineID != id {
			err = fmt.Errorf("the config names engine %s", req.engineLabel(cfg.engineID))
		}
		if err != nil {
			logging.Errorf("Heuristic policy %s: invalid EngineConfig for engine %s: %v", sl.name, req.engineLabel(id), err)
			return Result{}, fmt.Sprintf("invalid EngineConfig for engine %s: %v", req.engineLabel(id), err)
		}
		if res.Configs == nil {
			res.Configs = map[int64][]byte{}
		}
		res.Configs[id] = cfg.encode(host.metric)
	}
	return res, ""
}

// tooManyEngines is the answer of a GetSortedEngineIds that announced or wrote more ids
// than there are candidates: an invalid ordering, not a failed call.
type tooManyEngines struct{ announced uint64 }

func (e *tooManyEngines) Error() string {
	return fmt.Sprintf("%d engines announced", e.announced)
}

// checkOrdering validates a policy's answer: only candidates, each at most once.
func checkOrdering(ids []int64, candidates map[int64]struct{}, req *Request) error {
	if len(ids) > len(req.Candidates) {
		return fmt.Errorf("%d engines for %d candidates", len(ids), len(req.Candidates))
	}
	seen := make(map[int64]struct{}, len(ids))
	for _, id := range ids {
		if _, ok := candidates[id]; !ok {
			return fmt.Errorf("engine %s is not a candidate", req.engineLabel(id))
		}
		if _, dup := seen[id]; dup {
			return fmt.Errorf("engine %s appears twice", req.engineLabel(id))
		}
		seen[id] = struct{}{}
	}
	return nil
}
