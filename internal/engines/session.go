package engines

import (
	"math"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hipdnn-go/backend/hip"
	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/logging"
	"github.com/hipdnn-go/backend/internal/status"
)

// Session is one hipdnnHandle's view of the loaded plugins: a plugin handle per plugin
// (hipdnnEnginePluginCreate), the stream they run on, and the execution contexts built on them.
//
// Concurrency: every method may be called from many goroutines. Close waits for the calls in
// flight (except Execute, which Context tracks on its own) and destroys every live Context of
// the session before it destroys the plugin handles.
type Session struct {
	m       *Manager
	handles []uintptr // by Plugin.index; 0: the plugin is unusable in this session
	stream  atomic.Uintptr

	// mu is shared by every call that uses a plugin handle and taken exclusively by Close, so
	// Close never destroys a handle under a running call. Execute does not take it.
	mu     sync.RWMutex
	closed atomic.Bool

	ctxMu    sync.Mutex
	contexts map[*Context]struct{}
}

// NewSession creates one plugin handle per loaded plugin. A plugin whose Create fails, returns
// NULL, or returns the same pointer as an earlier plugin (the symbol collision of two plugins
// built without hidden visibility) is skipped for this session; that is logged, never fatal.
// The session holds the Manager until Close.
func NewSession(m *Manager) *Session {
	m.addUser()
	s := &Session{m: m, handles: make([]uintptr, len(m.plugins)), contexts: map[*Context]struct{}{}}
	owner := map[uintptr]*Plugin{}
	for _, p := range m.plugins {
		r := p.tbl.create()
		switch {
		case !r.ok():
			logging.Errorf("Plugin %s: Failed to create a plugin handle. Status: %s(%d), Error: %s; the plugin is skipped for this hipdnnHandle",
				p.Path, PluginStatusName(r.status), r.status, r.err)
			continue
		case r.ptr == nil:
			logging.Errorf("Plugin %s: hipdnnEnginePluginCreate returned a NULL handle; the plugin is skipped for this hipdnnHandle", p.Path)
			continue
		}
		h := uintptr(r.ptr)
		if other := owner[h]; other != nil {
			logging.Errorf("Plugin %s returned the same handle as plugin %s (a symbol collision: build plugins with hidden visibility); the handle is destroyed and the plugin skipped for this hipdnnHandle",
				p.Path, other.Path)
			if d := p.tbl.destroy(h); !d.ok() {
				logging.Warnf("Plugin %s: Failed to destroy the colliding handle. Status: %s(%d), Error: %s",
					p.Path, PluginStatusName(d.status), d.status, d.err)
			}
			continue
		}
		owner[h] = p
		s.handles[p.index] = h
	}
	return s
}

// Manager returns the plugin set the session was created on.
func (s *Session) Manager() *Manager { return s.m }

// Close destroys every live Context of the session, then the plugin handles, then gives back
// the session's hold on the Manager. It is idempotent.
func (s *Session) Close() {
	if s.closed.Swap(true) {
		return
	}
	s.mu.Lock()
	s.ctxMu.Lock()
	live := make([]*Context, 0, len(s.contexts))
	for c := range s.contexts {
		live = append(live, c)
	}
	s.ctxMu.Unlock()
	for _, c := range live {
		c.Destroy()
	}
	for _, p := range s.m.plugins {
		h := s.handles[p.index]
		if h == 0 {
			continue
		}
		s.handles[p.index] = 0
		if r := p.tbl.destroy(h); !r.ok() {
			logging.Warnf("Plugin %s: Failed to destroy a plugin handle. Status: %s(%d), Error: %s",
				p.Path, PluginStatusName(r.status), r.status, r.err)
		}
	}
	s.mu.Unlock()
	s.m.Release()
}

// begin enters a call that uses plugin handles; end must follow.
func (s *Session) begin() error {
	s.mu.RLock()
	if s.closed.Load() {
		s.mu.RUnlock()
		return status.BadParam("the hipdnnHandle was destroyed")
	}
	return nil
}

func (s *Session) end() { s.mu.RUnlock() }

// engine resolves an id to an admitted engine and this session's handle of its plugin.
func (s *Session) engine(id int64) (*Engine, uintptr, error) {
	e := s.m.byID[id]
	if e == nil {
		return nil, 0, status.BadParam("engine id %s (%d) is not provided by any loaded engine plugin", FormatEngineID(id), id)
	}
	h := s.handles[e.Plugin.index]
	if h == 0 {
		return nil, 0, status.Plugin("plugin %s has no plugin handle in this hipdnnHandle (hipdnnEnginePluginCreate failed), so engine %s cannot be used",
			e.Plugin.Name, e.Name)
	}
	return e, h, nil
}

// SetStream forwards the stream to every plugin handle of the session. Every handle is told;
// the first failure is returned as PLUGIN_ERROR. Plans built afterwards run on the stream's
// device.
func (s *Session) SetStream(stream uintptr) error {
	if err := s.begin(); err != nil {
		return err
	}
	defer s.end()
	s.stream.Store(stream)
	var first error
	for _, p := range s.m.plugins {
		h := s.handles[p.index]
		if h == 0 {
			continue
		}
		if r := p.tbl.setStream(h, stream); !r.ok() && first == nil {
			first = failure("set the stream of plugin "+p.Name, r)
		}
	}
	return first
}

// planDevice is the device a plan of engine e built now runs on: its stream's device, which
// device memory handed to it must belong to. -1 when the engine takes no device memory or no
// GPU runtime is loaded.
func (s *Session) planDevice(e *Engine) int {
	if e.Memory&MemoryDevice == 0 {
		return -1
	}
	rt := gpuRuntime()
	if rt == nil || rt.Kind() == hip.KindNone {
		return -1
	}
	d, err := rt.StreamDevice(s.stream.Load())
	if err != nil {
		return -1
	}
	return d
}

// admits reports whether plugin p may be offered a graph with these features: its API version
// reaches the graph's floor and, for override graphs, it exports the override entry point.
func admits(p *Plugin, f GraphFeatures) bool {
	if p.APIVersion.Less(f.MinAPIVersion()) {
		return false
	}
	return !f.OverrideShapes || p.overrides
}

// offered returns the session's handle of plugin p and whether p may be asked about a graph
// with these features: it has a handle and admits them.
func (s *Session) offered(p *Plugin, f GraphFeatures) (uintptr, bool) {
	h := s.handles[p.index]
	return h, h != 0 && admits(p, f)
}

// ApplicableEngines asks each usable plugin, in plugin path order, which of its engines can run
// the graph, and concatenates the answers (each sorted ascending). Plugins below the graph's
// API floor, or lacking the override entry point for an override graph, are not asked. With
// findFirst it stops after the first plugin that offers any engine. A malformed answer (more
// ids than asked for, duplicates, an id the plugin never declared) is PLUGIN_ERROR; ids the
// host dropped at load are skipped silently.
func (s *Session) ApplicableEngines(graph []byte, f GraphFeatures, findFirst bool) ([]int64, error) {
	if err := s.begin(); err != nil {
		return nil, err
	}
	defer s.end()
	var out []int64
	for _, p := range s.m.plugins {
		h, ok := s.offered(p, f)
		if !ok {
			continue
		}
		ids, err := s.applicableFrom(p, h, graph)
		if err != nil {
			return nil, err
		}
		out = append(out, ids...)
		if findFirst && len(ids) > 0 {
			break
		}
	}
	return out, nil
}

// IsApplicable reports whether engine id is among its plugin's applicable engines for the
// graph (false for an id no loaded plugin provides or a plugin below the graph's floor).
func (s *Session) IsApplicable(id int64, graph []byte, f GraphFeatures) (bool, error) {
	if err := s.begin(); err != nil {
		return false, err
	}
	defer s.end()
	e := s.m.byID[id]
	if e == nil {
		return false, nil
	}
	h, ok := s.offered(e.Plugin, f)
	if !ok {
		return false, nil
	}
	ids, err := s.applicableFrom(e.Plugin, h, graph)
	if err != nil {
		return false, err
	}
	for _, x := range ids {
		if x == id {
			return true, nil
		}
	}
	return false, nil
}

// declinePrefix starts the last-error text a plugin on the SDK's skeleton leaves when it
// answers a graph with no engine (helpers/EnginePlugin.hpp); other text is not a reason.
const declinePrefix = "not applicable: "

// DeclineReasons asks each plugin that may be offered the graph again and returns the reasons
// of those that decline it, "<plugin>: <reason>" joined by "; ", for the message of a graph no
// engine takes. Plugins that leave no reason are named as declining without one. Not a hot
// path: only a heuristic with no candidates calls it.
func (s *Session) DeclineReasons(graph []byte, f GraphFeatures) string {
	if err := s.begin(); err != nil {
		return ""
	}
	defer s.end()
	var parts []string
	for _, p := range s.m.plugins {
		h, ok := s.offered(p, f)
		if !ok {
			continue
		}
		r := p.tbl.getApplicable(h, graph, make([]int64, len(p.declared)), true)
		switch {
		case !r.ok():
			parts = append(parts, p.Name+": "+failure("get applicable engine ids", r).Error())
		case r.u == 0 && strings.HasPrefix(r.err, declinePrefix):
			parts = append(parts, p.Name+": "+strings.TrimPrefix(r.err, declinePrefix))
		case r.u == 0:
			parts = append(parts, p.Name+": declined without a reason")
		}
	}
	return strings.Join(parts, "; ")
}

// applicableFrom makes the single GetApplicableEngineIds call (max = the plugin's declared
// engine count) and validates the answer.
func (s *Session) applicableFrom(p *Plugin, h uintptr, graph []byte) ([]int64, error) {
	buf := make([]int64, len(p.declared))
	r := p.tbl.getApplicable(h, graph, buf, false)
	if !r.ok() {
		return nil, failure("get applicable engine ids from plugin "+p.Name, r)
	}
	if r.u > uint64(len(buf)) {
		return nil, status.Plugin("Plugin %s reported %d applicable engines, more than the %d it was asked for",
			p.Name, r.u, len(buf))
	}
	got := buf[:r.u]
	sort.Slice(got, func(i, j int) bool { return got[i] < got[j] })
	out := got[:0]
	for i, id := range got {
		if i > 0 && got[i-1] == id {
			return nil, status.Plugin("Plugin %s reported engine %s (%d) as applicable twice", p.Name, FormatEngineID(id), id)
		}
		if !p.declares(id) {
			if owner := s.m.byID[id]; owner != nil {
				return nil, status.Plugin("Plugin %s reported engine %s (%d) as applicable, but that engine belongs to plugin %s",
					p.Name, FormatEngineID(id), id, owner.Plugin.Name)
			}
			return nil, status.Plugin("Plugin %s reported engine %s (%d) as applicable, but it never declared that engine",
				p.Name, FormatEngineID(id), id)
		}
		if p.dropped[id] {
			continue
		}
		out = append(out, id)
	}
	return out, nil
}

func (p *Plugin) declares(id int64) bool {
	i := sort.Search(len(p.declared), func(i int) bool { return p.declared[i] >= id })
	return i < len(p.declared) && p.declared[i] == id
}

// EngineDetails asks the engine's plugin for its details on a graph, verifies the buffer,
// copies it into Go and gives the buffer back to the plugin at once.
func (s *Session) EngineDetails(id int64, graph []byte) (*Details, error) {
	if err := s.begin(); err != nil {
		return nil, err
	}
	defer s.end()
	e, h, err := s.engine(id)
	if err != nil {
		return nil, err
	}
	p := e.Plugin
	r := p.tbl.getDetails(h, id, graph)
	if !r.ok() {
		return nil, failure("get the engine details of engine "+e.Name+" from plugin "+p.Name, r)
	}
	var raw []byte
	if r.ptr != nil && r.size > 0 {
		raw = copyOut(r.ptr, r.size)
	}
	if r.ptr != nil {
		if d := p.tbl.destroyDetails(h, r.ptr, r.size); !d.ok() {
			logging.Warnf("Plugin %s: Failed to destroy engine details. Status: %s(%d), Error: %s",
				p.Name, PluginStatusName(d.status), d.status, d.err)
		}
	}
	switch {
	case r.ptr == nil:
		return nil, status.Plugin("Plugin %s returned engine details with a NULL buffer for engine %s", p.Name, e.Name)
	case r.size == 0:
		return nil, status.Plugin("Plugin %s returned empty engine details for engine %s", p.Name, e.Name)
	}
	d, err := decodeDetails(raw)
	if err != nil {
		return nil, status.Plugin("Plugin %s returned engine details for engine %s that do not verify as an EngineDetails flatbuffer: %v",
			p.Name, e.Name, err)
	}
	if d.EngineID != id {
		logging.Warnf("Plugin %s returned engine details naming engine id %d for engine %s (%d)", p.Name, d.EngineID, e.Name, id)
		d.EngineID = id
	}
	switch {
	case d.name != "" && d.name != e.Name && p.tbl.has(slotGetEngineName):
		logging.Warnf("Plugin %s: EngineDetails.name %q of engine %s differs from the name its entry point reports; the entry point wins",
			p.Name, d.name, e.Name)
	case d.name != "" && d.name != e.Name:
		logging.Warnf("Plugin %s: EngineDetails.name %q of engine %s is ignored (engines are named by hipdnnEnginePluginGetEngineName)",
			p.Name, d.name, e.Name)
	}
	return d, nil
}

// WorkspaceSize asks for the workspace an (EngineConfig, graph) pair needs without building a
// context. A size beyond INT64_MAX is INTERNAL_ERROR.
func (s *Session) WorkspaceSize(id int64, config, graph []byte) (int64, error) {
	if err := s.begin(); err != nil {
		return 0, err
	}
	defer s.end()
	e, h, err := s.engine(id)
	if err != nil {
		return 0, err
	}
	r := e.Plugin.tbl.getWorkspace(h, config, graph)
	if !r.ok() {
		return 0, failure("get the workspace size of engine "+e.Name+" from plugin "+e.Plugin.Name, r)
	}
	if r.u > math.MaxInt64 {
		return 0, status.Internal("Plugin %s reported a workspace of %d bytes for engine %s, beyond INT64_MAX",
			e.Plugin.Name, r.u, e.Name)
	}
	return int64(r.u), nil
}

// maxNumericalNotes bounds what the host reads: each note once is TYPE_COUNT notes.
const maxNumericalNotes = int(api.HIPDNN_NUMERICAL_NOTE_TYPE_COUNT)

// NumericalNotes asks the engine's plugin for the numerical notes of an (EngineConfig, graph)
// pair, sorted and without repeats. A plugin without the entry point reports none; a note
// outside hipdnnBackendNumericalNote_t is a PLUGIN_ERROR, as a frontend filtering on notes
// could not honour it.
func (s *Session) NumericalNotes(id int64, config, graph []byte) ([]api.NumericalNote, error) {
	if err := s.begin(); err != nil {
		return nil, err
	}
	defer s.end()
	e, h, err := s.engine(id)
	if err != nil {
		return nil, err
	}
	p := e.Plugin
	if !p.tbl.has(slotGetNumericalNotes) {
		return nil, nil
	}
	buf := make([]int32, maxNumericalNotes)
	r := p.tbl.getNumericalNotes(h, config, graph, buf)
	if !r.ok() {
		return nil, failure("get the numerical notes of engine "+e.Name+" from plugin "+p.Name, r)
	}
	if r.u > uint64(len(buf)) {
		return nil, status.Plugin("Plugin %s reported %d numerical notes for engine %s; there are %d kinds",
			p.Name, r.u, e.Name, maxNumericalNotes)
	}
	var seen [maxNumericalNotes]bool
	out := []api.NumericalNote{}
	for _, n := range buf[:r.u] {
		if n < 0 || int(n) >= maxNumericalNotes {
			return nil, status.Plugin("Plugin %s reported numerical note %d for engine %s, which is not a hipdnnBackendNumericalNote_t",
				p.Name, n, e.Name)
		}
		seen[n] = true
	}
	for n, ok := range seen {
		if ok {
			out = append(out, api.NumericalNote(n))
		}
	}
	return out, nil
}

func (s *Session) addContext(c *Context) {
	s.ctxMu.Lock()
	s.contexts[c] = struct{}{}
	s.ctxMu.Unlock()
}

func (s *Session) removeContext(c *Context) {
	s.ctxMu.Lock()
	delete(s.contexts, c)
	s.ctxMu.Unlock()
}

// liveContexts is the number of contexts not yet destroyed (tests).
func (s *Session) liveContexts() int {
	s.ctxMu.Lock()
	defer s.ctxMu.Unlock()
	return len(s.contexts)
}
