package heuristics

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/fb"
)

// fakeModule is a Go module with scripted behaviour, standing in for a plugin so the
// framework's rules can be tested without C.
type fakeModule struct {
	inf       moduleInfo
	key       uintptr
	handleErr error
	propsErr  error
	policies  map[int64]*fakePolicy
	rec       *recorder
	live      int // handles + descriptors alive
}

type fakePolicy struct {
	createErr   error
	finalizeErr error
	decline     bool
	order       func([]int64) []int64
	sortedErr   error
	config      func(id int64) ([]byte, bool, error)
}

type recorder struct {
	mu    sync.Mutex
	calls []string
}

func (r *recorder) add(format string, args ...any) {
	r.mu.Lock()
	r.calls = append(r.calls, fmt.Sprintf(format, args...))
	r.mu.Unlock()
}

func (r *recorder) has(prefix string) bool {
	for _, c := range r.calls {
		if strings.HasPrefix(c, prefix) {
			return true
		}
	}
	return false
}

func newFake(rec *recorder, plugin string, key uintptr, policies map[string]*fakePolicy) *fakeModule {
	m := &fakeModule{inf: moduleInfo{name: plugin, version: "9.9.9", apiVersion: "0.1.0", label: "/fake/" + plugin + ".so",
		path: "/fake/" + plugin + ".so"}, key: key, policies: map[int64]*fakePolicy{}, rec: rec}
	names := make([]string, 0, len(policies))
	for n := range policies {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		m.inf.policies = append(m.inf.policies, policyDecl{id: PolicyNameToID(n), name: n})
		m.policies[PolicyNameToID(n)] = policies[n]
	}
	return m
}

func (m *fakeModule) info() *moduleInfo        { return &m.inf }
func (m *fakeModule) setLogLevel(api.Severity) {}
func (m *fakeModule) unload()                  { m.rec.add("unload %s", m.inf.name) }
func (m *fakeModule) createHandle() (moduleHandle, error) {
	if m.handleErr != nil {
		return nil, m.handleErr
	}
	m.live++
	return &fakeHandle{m: m}, nil
}

type fakeHandle struct{ m *fakeModule }

func (h *fakeHandle) key() uintptr { return h.m.key }
func (h *fakeHandle) setDeviceProperties(blob []byte) error {
	h.m.rec.add("props %s %d", h.m.inf.name, len(blob))
	return h.m.propsErr
}
func (h *fakeHandle) createPolicy(id int64) (policyDescriptor, error) {
	p := h.m.policies[id]
	if p == nil {
		return nil, errors.New("unknown policy")
	}
	if p.createErr != nil {
		return nil, p.createErr
	}
	h.m.live++
	return &fakeDesc{m: h.m, p: p, id: id}, nil
}
func (h *fakeHandle) destroy() error { h.m.live--; return nil }

type fakeDesc struct {
	m      *fakeModule
	p      *fakePolicy
	id     int64
	result []int64
}

func (d *fakeDesc) finalize(c []int64, g []byte, host *hostServices) (bool, error) {
	d.m.rec.add("finalize %s %s", d.m.inf.name, FormatID(d.id))
	if d.p.finalizeErr != nil {
		return false, d.p.finalizeErr
	}
	if d.p.decline {
		return false, nil
	}
	d.result = d.p.order(c)
	return true, nil
}
func (d *fakeDesc) sortedEngineIDs(capacity int) ([]int64, error) {
	if d.p.sortedErr != nil {
		return nil, d.p.sortedErr
	}
	return d.result, nil
}
func (d *fakeDesc) engineConfig(id int64) ([]byte, bool, error) {
	if d.p.config == nil {
		return nil, false, nil
	}
	return d.p.config(id)
}
func (d *fakeDesc) destroy() error { d.m.live--; return nil }

func reverse(c []int64) []int64 {
	out := slices.Clone(c)
	slices.Reverse(out)
	return out
}

// testManager builds a manager from the built-ins and the given modules, without the
// process-wide state.
func testManager(mods ...module) *Manager {
	m := &Manager{owner: map[int64]policyRef{}}
	for _, b := range builtinModules() {
		m.register(b)
	}
	for _, mod := range mods {
		if err := m.checkPolicyIDs(mod); err != nil {
			panic(err)
		}
		m.register(mod)
	}
	return m
}

var graphForRank []byte

func rankRequest(t *testing.T, order ...int64) Request {
	t.Helper()
	if graphForRank == nil {
		graphForRank = encode(t, convGraph(t))
	}
	return Request{Candidates: []int64{idMIOpen, -2, idCPURef}, Graph: graphForRank,
		DeviceProps: DevicePropertiesBlob(nil), Order: order, Metric: "tflops"}
}

func TestRankFirstSuccessfulPolicyWins(t *testing.T) {
	clearEnv(t)
	rec := &recorder{}
	dec := newFake(rec, "declines", 0x1000, map[string]*fakePolicy{"T::Decline": {decline: true}})
	rev := newFake(rec, "reverses", 0x2000, map[string]*fakePolicy{"T::Reverse": {order: reverse}})
	m := testManager(dec, rev)
	s := NewSession(m)
	defer s.Close()

	res, err := s.Rank(rankRequest(t, 12345, PolicyNameToID("T::Decline"), PolicyNameToID(PolicyConfig),
		PolicyNameToID("T::Reverse"), PolicyNameToID(PolicyStaticOrdering)))
	if err != nil {
		t.Fatal(err)
	}
	if res.PolicyID != PolicyNameToID("T::Reverse") || !slices.Equal(res.EngineIDs, []int64{idCPURef, -2, idMIOpen}) || res.Configs != nil {
		t.Fatalf("result %+v", res)
	}
	if !rec.has("finalize declines") || !rec.has("finalize reverses") {
		t.Fatalf("calls %v", rec.calls)
	}
	if dec.live != 1 || rev.live != 1 { // only the handles remain after Rank
		t.Fatalf("live objects after Rank: %d %d", dec.live, rev.live)
	}
	s.Close()
	if dec.live != 0 || rev.live != 0 {
		t.Fatalf("live objects after Close: %d %d", dec.live, rev.live)
	}

	// Default order: Config declines (no rule file, no preferred engine), StaticOrdering applies.
	s2 := NewSession(m)
	defer s2.Close()
	res, err = s2.Rank(rankRequest(t, DefaultOrder...))
	if err != nil || res.PolicyID != PolicyNameToID(PolicyStaticOrdering) || !slices.Equal(res.EngineIDs, []int64{idMIOpen, -2, idCPURef}) {
		t.Fatalf("default order: %+v %v", res, err)
	}
}

func TestRankInvalidOrderingsFallThrough(t *testing.T) {
	clearEnv(t)
	for _, tt := range []struct {
		desc  string
		order func([]int64) []int64
		want  string
	}{
		{"more engines than candidates", func(c []int64) []int64 { return append([]int64{777}, c...) }, "4 engines for 3 candidates"},
		{"unknown engine within size", func(c []int64) []int64 { return []int64{777} }, "is not a candidate"},
		{"duplicate", func(c []int64) []int64 { return []int64{c[0], c[0]} }, "appears twice"},
	} {
		t.Run(tt.desc, func(t *testing.T) {
			rec := &recorder{}
			bad := newFake(rec, "bad", 0x1000, map[string]*fakePolicy{"T::Bad": {order: tt.order}})
			logs := captureLogs(t, api.HIPDNN_SEV_ERROR)
			s := NewSession(testManager(bad))
			defer s.Close()
			res, err := s.Rank(rankRequest(t, PolicyNameToID("T::Bad"), PolicyNameToID(PolicyStaticOrdering)))
			if err != nil || res.PolicyID != PolicyNameToID(PolicyStaticOrdering) {
				t.Fatalf("%+v %v", res, err)
			}
			if !strings.Contains(logs.String(), "T::Bad returned an invalid ordering") || !strings.Contains(logs.String(), tt.want) {
				t.Fatalf("log %q", logs.String())
			}
			_, err = s.Rank(rankRequest(t, PolicyNameToID("T::Bad")))
			wantStatus(t, err, api.HIPDNN_STATUS_INTERNAL_ERROR, "No heuristic policy succeeded", "T::Bad: invalid ordering", tt.want)
		})
	}
}

func TestRankEmptyOrderingIsAccepted(t *testing.T) {
	clearEnv(t)
	rec := &recorder{}
	none := newFake(rec, "none", 0x1000, map[string]*fakePolicy{"T::None": {order: func([]int64) []int64 { return nil }}})
	s := NewSession(testManager(none))
	defer s.Close()
	res, err := s.Rank(rankRequest(t, PolicyNameToID("T::None")))
	if err != nil || len(res.EngineIDs) != 0 || res.PolicyID != PolicyNameToID("T::None") {
		t.Fatalf("%+v %v", res, err)
	}
}

func TestRankDevicePropertiesFailureDisablesOnlyThatPlugin(t *testing.T) {
	clearEnv(t)
	rec := &recorder{}
	broken := newFake(rec, "broken", 0x3000, map[string]*fakePolicy{"T::BrokenA": {order: reverse}, "T::BrokenB": {order: reverse}})
	broken.propsErr = errors.New("no device for you")
	good := newFake(rec, "good", 0x2000, map[string]*fakePolicy{"T::Good": {order: reverse}})
	s := NewSession(testManager(broken, good))
	defer s.Close()

	res, err := s.Rank(rankRequest(t, PolicyNameToID("T::BrokenA"), PolicyNameToID("T::Good"), PolicyNameToID("T::BrokenB"),
		PolicyNameToID("T::Good")))
	if err != nil || res.PolicyID != PolicyNameToID("T::Good") {
		t.Fatalf("%+v %v", res, err)
	}
	if rec.has("finalize broken") {
		t.Fatalf("a disabled plugin was finalized: %v", rec.calls)
	}
	// Once per distinct handle, in handle-key order (built-ins have the smallest keys).
	var props []string
	for _, c := range rec.calls {
		if strings.HasPrefix(c, "props") {
			props = append(props, c)
		}
	}
	n := len(DevicePropertiesBlob(nil))
	if want := []string{fmt.Sprintf("props good %d", n), fmt.Sprintf("props broken %d", n)}; !slices.Equal(props, want) {
		t.Fatalf("SetDeviceProperties calls %v, want %v", props, want)
	}
	if broken.live != 1 {
		t.Fatalf("descriptors of the disabled plugin leaked: %d live", broken.live)
	}
	_, err = s.Rank(rankRequest(t, PolicyNameToID("T::BrokenA")))
	wantStatus(t, err, api.HIPDNN_STATUS_INTERNAL_ERROR, "No heuristic policy succeeded", "T::BrokenA: SetDeviceProperties failed: no device for you")
}

func TestRankNoPolicySucceeded(t *testing.T) {
	clearEnv(t)
	rec := &recorder{}
	f := newFake(rec, "fails", 0x1000, map[string]*fakePolicy{
		"T::Throws":   {finalizeErr: errors.New("kaboom")},
		"T::NoCreate": {createErr: errors.New("refused")},
		"T::NoSorted": {order: reverse, sortedErr: errors.New("lost it")},
	})
	s := NewSession(testManager(f))
	defer s.Close()

	_, err := s.Rank(rankRequest(t))
	wantStatus(t, err, api.HIPDNN_STATUS_INTERNAL_ERROR, "No heuristic policy succeeded", "policy order is empty")

	_, err = s.Rank(rankRequest(t, 5, -6))
	wantStatus(t, err, api.HIPDNN_STATUS_INTERNAL_ERROR, "No heuristic policy succeeded",
		"0x0000000000000005: no loaded heuristic policy", "0xFFFFFFFFFFFFFFFA")

	_, err = s.Rank(rankRequest(t, PolicyNameToID(PolicyConfig), PolicyNameToID("T::Throws"), PolicyNameToID("T::NoCreate"),
		PolicyNameToID("T::NoSorted"), PolicyNameToID(PolicyModeA)))
	wantStatus(t, err, api.HIPDNN_STATUS_INTERNAL_ERROR, "No heuristic policy succeeded",
		"SelectionHeuristic::Config: declined", "T::Throws: finalize failed: kaboom", "T::NoCreate: hipdnnHeuristicPolicyDescriptorCreate failed: refused",
		"T::NoSorted: GetSortedEngineIds failed: lost it", "SelectionHeuristic::ModeA: declined")
	if f.live != 1 {
		t.Fatalf("%d objects live", f.live)
	}

	// No candidates: nothing runs, nothing fails.
	req := rankRequest(t)
	req.Candidates = nil
	if res, err := s.Rank(req); err != nil || len(res.EngineIDs) != 0 {
		t.Fatalf("no candidates: %+v %v", res, err)
	}
}

func TestRankEngineConfigs(t *testing.T) {
	clearEnv(t)
	good := func(id int64) ([]byte, bool, error) {
		if id == -2 {
			return nil, false, nil // NOT_APPLICABLE
		}
		c := sampleConfig()
		c.engineID = id
		return c.encode("bogus"), true, nil
	}
	rec := &recorder{}
	mods := newFake(rec, "cfg", 0x1000, map[string]*fakePolicy{
		"T::WrongEngine": {order: reverse, config: func(id int64) ([]byte, bool, error) { return engineConfig{engineID: id + 1}.encode(""), true, nil }},
		"T::Garbage":     {order: reverse, config: func(int64) ([]byte, bool, error) { return []byte{1, 2, 3, 4, 5, 6, 7, 8, 9}, true, nil }},
		"T::Error":       {order: reverse, config: func(int64) ([]byte, bool, error) { return nil, false, errors.New("no config") }},
		"T::Good":        {order: reverse, config: good},
	})
	s := NewSession(testManager(mods))
	defer s.Close()
	req := rankRequest(t, PolicyNameToID("T::WrongEngine"), PolicyNameToID("T::Garbage"), PolicyNameToID("T::Error"), PolicyNameToID("T::Good"))
	req.Metric = "time"
	res, err := s.Rank(req)
	if err != nil || res.PolicyID != PolicyNameToID("T::Good") {
		t.Fatalf("%+v %v", res, err)
	}
	if len(res.Configs) != 2 || res.Configs[-2] != nil {
		t.Fatalf("configs for %d engines", len(res.Configs))
	}
	for _, id := range []int64{idMIOpen, idCPURef} {
		c, err := decodeEngineConfig(res.Configs[id])
		want := sampleConfig()
		want.engineID, want.metric = id, "time"
		if err != nil || c.engineID != id || c.metric != "time" || len(c.knobs) != len(want.knobs) {
			t.Fatalf("config of %s: %+v %v", FormatID(id), c, err)
		}
	}
	_, err = s.Rank(rankRequest(t, PolicyNameToID("T::WrongEngine"), PolicyNameToID("T::Garbage")))
	wantStatus(t, err, api.HIPDNN_STATUS_INTERNAL_ERROR, "T::WrongEngine: invalid EngineConfig", "the config names engine",
		"T::Garbage: invalid EngineConfig")
}

// A policy's EngineConfig reaches the engine with every field its writer wrote, fields of a
// newer schema included: only ranking_metric becomes the host's metric (written when absent,
// replaced when different), and a config that already names it passes through unchanged.
func TestRankKeepsNewerConfigFields(t *testing.T) {
	clearEnv(t)
	written := map[int64][]byte{idMIOpen: futureRoot(idMIOpen, ""), -2: futureRoot(-2, "bogus"), idCPURef: futureRoot(idCPURef, "time")}
	mods := newFake(&recorder{}, "future", 0x1000, map[string]*fakePolicy{"T::Future": {order: reverse,
		config: func(id int64) ([]byte, bool, error) { return bytes.Clone(written[id]), true, nil }}})
	s := NewSession(testManager(mods))
	defer s.Close()
	req := rankRequest(t, PolicyNameToID("T::Future"))
	req.Metric = "time"
	res, err := s.Rank(req)
	if err != nil || res.PolicyID != PolicyNameToID("T::Future") || len(res.Configs) != 3 {
		t.Fatalf("%+v %v", res, err)
	}
	for id := range written {
		checkFuture(t, res.Configs[id], id, "time")
	}
	if !bytes.Equal(res.Configs[idCPURef], written[idCPURef]) {
		t.Error("a config that names the host's metric must pass through unchanged")
	}
}

func TestSessionHandleFailures(t *testing.T) {
	clearEnv(t)
	rec := &recorder{}
	noHandle := newFake(rec, "nohandle", 0x1000, map[string]*fakePolicy{"T::NoHandle": {order: reverse}})
	noHandle.handleErr = errors.New("out of handles")
	first := newFake(rec, "first", 0x5000, map[string]*fakePolicy{"T::First": {order: reverse}})
	twin := newFake(rec, "twin", 0x5000, map[string]*fakePolicy{"T::Twin": {order: reverse}})
	logs := captureLogs(t, api.HIPDNN_SEV_ERROR)
	s := NewSession(testManager(noHandle, first, twin))
	defer s.Close()
	if !strings.Contains(logs.String(), "same handle as /fake/first.so") || !strings.Contains(logs.String(), "out of handles") {
		t.Fatalf("log %q", logs.String())
	}
	if twin.live != 0 {
		t.Fatal("colliding handle not destroyed")
	}
	_, err := s.Rank(rankRequest(t, PolicyNameToID("T::NoHandle"), PolicyNameToID("T::Twin")))
	wantStatus(t, err, api.HIPDNN_STATUS_INTERNAL_ERROR, "T::NoHandle: its plugin has no handle", "T::Twin: its plugin has no handle")
	if res, err := s.Rank(rankRequest(t, PolicyNameToID("T::First"))); err != nil || res.PolicyID != PolicyNameToID("T::First") {
		t.Fatalf("%+v %v", res, err)
	}
	s.Close()
	s.Close()
	_, err = s.Rank(rankRequest(t, PolicyNameToID("T::First")))
	wantStatus(t, err, api.HIPDNN_STATUS_INTERNAL_ERROR, "session is closed")
}

func TestRankPredictionPolicies(t *testing.T) {
	clearEnv(t)
	avail := fb.PredictionStatusAVAILABLE
	req := rankRequest(t, PolicyNameToID(PolicyModeA), PolicyNameToID(PolicyStaticOrdering))
	req.Predictor = mapPredictor{
		{-2, PredictionEngine}:       predictionBlob(-2, PredictionEngine, avail, 5, "tflops", nil),
		{idCPURef, PredictionEngine}: predictionBlob(idCPURef, PredictionEngine, avail, 50, "tflops", nil),
	}
	s := NewSession(testManager())
	defer s.Close()
	res, err := s.Rank(req)
	if err != nil || res.PolicyID != PolicyNameToID(PolicyModeA) || !slices.Equal(res.EngineIDs, []int64{idCPURef, -2, idMIOpen}) {
		t.Fatalf("%+v %v", res, err)
	}
	req.Predictor = nil
	res, err = s.Rank(req)
	if err != nil || res.PolicyID != PolicyNameToID(PolicyStaticOrdering) {
		t.Fatalf("without predictions ModeA must decline: %+v %v", res, err)
	}
}
