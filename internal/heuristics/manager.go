package heuristics

import (
	"slices"
	"sync"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/logging"
	"github.com/hipdnn-go/backend/internal/status"
)

// manager.go: the process-wide policy registry. One Manager (built-ins plus the heuristic
// plugins found on the configured paths) is shared by every hipdnnHandle alive at the same
// time; its lifetime follows the plugin unloading mode, like the engine plugin manager's.

// PolicyInfo describes one registered policy (hipdnnGetHeuristicPolicyInfo_ext).
type PolicyInfo struct {
	ID            int64
	Name          string
	PluginName    string
	PluginVersion string
	APIVersion    string
}

// policyRef locates a policy in a Manager.
type policyRef struct {
	module int
	name   string
}

// Manager is one loaded set of policy modules. It is immutable after loading; acquire it
// with Acquire and give it back with Release.
type Manager struct {
	modules  []module
	owner    map[int64]policyRef
	policies []PolicyInfo
	refs     int // guarded by state.mu
}

// Policies lists the registered policies: built-ins first (Config, StaticOrdering, ModeA,
// ModeB), then each plugin's policies in load order (sorted canonical path) and in the order
// the plugin listed them. The slice is a copy.
func (m *Manager) Policies() []PolicyInfo { return slices.Clone(m.policies) }

// PluginPaths lists the canonical files of the loaded heuristic plugins, in load order.
func (m *Manager) PluginPaths() []string {
	var out []string
	for _, mod := range m.modules {
		if p := mod.info().path; p != "" {
			out = append(out, p)
		}
	}
	return out
}

// pathConfig is the process-wide plugin path configuration (hipdnnSetHeuristicPluginPaths_ext).
type pathConfig struct {
	paths []string // sorted, unique
	mode  api.PluginLoadingMode
}

var state struct {
	mu      sync.Mutex
	cfg     pathConfig
	unload  api.PluginUnloadingMode
	current *Manager // the live or lazily retained manager
}

// The level hook is registered at start-up (a slice append), never under state.mu: SetLevel
// holds the logging lock while it runs hooks, and pushLogLevel takes state.mu.
func init() { logging.OnLevelChange(pushLogLevel) }

// SetPaths configures the heuristic plugin search paths for the next load, like
// hipdnnSetEnginePluginPaths_ext: ADDITIVE unions paths into the configured set, ABSOLUTE
// replaces it (and at load ignores the default directory and HIPDNN_HEURISTIC_PLUGIN_DIR);
// the latest mode is kept. A call that changes nothing is a no-op. Otherwise a lazily
// retained manager is unloaded first; if a hipdnnHandle still holds the manager the call
// fails with NOT_SUPPORTED and nothing changes. An unknown mode is BAD_PARAM (capi checks
// pointers before calling).
func SetPaths(paths []string, mode api.PluginLoadingMode) error {
	if mode != api.HIPDNN_PLUGIN_LOADING_ADDITIVE && mode != api.HIPDNN_PLUGIN_LOADING_ABSOLUTE {
		return status.BadParam("hipdnnSetHeuristicPluginPaths_ext: loading mode %d is not a hipdnnPluginLoadingMode_ext_t", int(mode))
	}
	state.mu.Lock()
	defer state.mu.Unlock()
	next := pathConfig{mode: mode}
	if mode == api.HIPDNN_PLUGIN_LOADING_ADDITIVE {
		next.paths = append(next.paths, state.cfg.paths...)
	}
	next.paths = append(next.paths, paths...)
	slices.Sort(next.paths)
	next.paths = slices.Compact(next.paths)
	if next.mode == state.cfg.mode && slices.Equal(next.paths, state.cfg.paths) {
		return nil
	}
	if m := state.current; m != nil && m.refs == 0 {
		unloadLocked(m)
	}
	if state.current != nil {
		return status.NotSupported("Cannot set heuristic plugin paths with an active handle")
	}
	state.cfg = next
	return nil
}

// SetUnloadMode mirrors hipdnnSetPluginUnloadMode_ext for the heuristic manager: LAZY keeps
// a loaded manager after the last Release; EAGER unloads it at the last Release, and at once
// when no handle holds it. capi validates the value.
func SetUnloadMode(mode api.PluginUnloadingMode) {
	state.mu.Lock()
	defer state.mu.Unlock()
	state.unload = mode
	if m := state.current; m != nil && m.refs == 0 && mode == api.HIPDNN_PLUGIN_UNLOAD_EAGER {
		unloadLocked(m)
	}
}

// Acquire returns the live manager, or loads one: the built-in policies always, then the
// heuristic plugins of the configured paths (see paths.go). loadErrs lists every plugin or
// path that could not be used (each a *status.Error, PLUGIN_ERROR or BAD_PARAM, whose message
// starts "Error loading plugin from [path]: "); they are logged and never fail Acquire, and
// they are reported only by the call that loaded. err is reserved for failures of the
// backend itself and is nil today. Each successful Acquire must be paired with Release.
func Acquire() (m *Manager, loadErrs []error, err error) {
	state.mu.Lock()
	defer state.mu.Unlock()
	if state.current != nil {
		state.current.refs++
		return state.current, nil, nil
	}
	m, loadErrs = load(state.cfg)
	m.refs = 1
	state.current = m
	return m, loadErrs, nil
}

// Release gives back a manager from Acquire. With the EAGER unloading mode the last Release
// unloads the plugins; with LAZY the manager is retained for the next Acquire.
func (m *Manager) Release() {
	state.mu.Lock()
	defer state.mu.Unlock()
	if m.refs <= 0 {
		return
	}
	m.refs--
	if m.refs == 0 && state.unload == api.HIPDNN_PLUGIN_UNLOAD_EAGER && state.current == m {
		unloadLocked(m)
	}
}

// Loaded reports whether a manager is currently loaded (alive or retained), for tests of
// the unloading modes.
func Loaded() bool {
	state.mu.Lock()
	defer state.mu.Unlock()
	return state.current != nil
}

func unloadLocked(m *Manager) {
	for _, mod := range m.modules {
		mod.unload()
	}
	if state.current == m {
		state.current = nil
	}
}

// pushLogLevel forwards a global level change to every loaded plugin.
func pushLogLevel(sev api.Severity) {
	state.mu.Lock()
	defer state.mu.Unlock()
	if state.current == nil {
		return
	}
	for _, mod := range state.current.modules {
		mod.setLogLevel(sev)
	}
}

// load builds a manager from cfg.
func load(cfg pathConfig) (*Manager, []error) {
	m := &Manager{owner: map[int64]policyRef{}}
	for _, b := range builtinModules() {
		m.register(b)
	}
	files, errs := discover(cfg)
	for _, f := range files {
		mod, err := loadPlugin(f)
		if err != nil {
			errs = append(errs, err)
			logging.Error(err.Error())
			continue
		}
		if err := m.checkPolicyIDs(mod); err != nil {
			mod.unload()
			errs = append(errs, err)
			logging.Error(err.Error())
			continue
		}
		m.register(mod)
		logging.Infof("Loaded heuristic plugin %s %s from %s (%d policies)", mod.info().name, mod.info().version, f, len(mod.info().policies))
	}
	if len(errs) > 0 {
		logging.Warnf("%d heuristic plugin path(s) or file(s) failed to load", len(errs))
	}
	return m, errs
}

// checkPolicyIDs rejects a plugin offering a policy id already registered.
func (m *Manager) checkPolicyIDs(mod module) error {
	inf := mod.info()
	for _, p := range inf.policies {
		if ref, dup := m.owner[p.id]; dup {
			return status.Plugin("Error loading plugin from [%s]: policy %q (%s) is already provided by %s",
				inf.label, p.name, FormatID(p.id), m.modules[ref.module].info().label)
		}
	}
	return nil
}

func (m *Manager) register(mod module) {
	inf := mod.info()
	idx := len(m.modules)
	m.modules = append(m.modules, mod)
	for _, p := range inf.policies {
		m.owner[p.id] = policyRef{module: idx, name: p.name}
		m.policies = append(m.policies, PolicyInfo{
			ID: p.id, Name: p.name, PluginName: inf.name, PluginVersion: inf.version, APIVersion: inf.apiVersion,
		})
	}
}
