package engines

import (
	"github.com/hipdnn-go/backend/internal/plugindir"
	"sort"
	"sync"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/logging"
	"github.com/hipdnn-go/backend/internal/status"
)

// host is the process-wide engine plugin configuration and the live Manager. One mutex guards
// all of it; it is taken by hipdnnCreate / hipdnnDestroy / the path and unload-mode setters and
// by log-level pushes, never by Execute.
var host struct {
	mu       sync.Mutex
	paths    []string // custom search paths (sorted, unique)
	mode     api.PluginLoadingMode
	unload   api.PluginUnloadingMode
	current  *Manager // the loaded plugin set, nil when none is loaded
	retained bool     // LAZY keep-alive: current survives its last user
}

// SetPaths configures the engine plugin search paths for the next load
// (hipdnnSetEnginePluginPaths_ext). ADDITIVE unions paths into the configured set, ABSOLUTE
// replaces it; the mode is stored with the set. Setting the same set and mode again is a
// no-op. Otherwise the LAZY keep-alive reference is dropped (an idle loaded set is unloaded
// now) and, while any handle still uses the loaded set, the call fails with NOT_SUPPORTED and
// changes nothing else. The paths take effect for handles created afterwards.
func SetPaths(paths []string, mode api.PluginLoadingMode) error {
	if !mode.IsValid() {
		return status.BadParam("plugin loading mode %d is not HIPDNN_PLUGIN_LOADING_ADDITIVE (0) or HIPDNN_PLUGIN_LOADING_ABSOLUTE (1)", int32(mode))
	}
	host.mu.Lock()
	defer host.mu.Unlock()
	next := uniqueSorted(paths)
	if mode == api.HIPDNN_PLUGIN_LOADING_ADDITIVE {
		next = uniqueSorted(append(append([]string{}, host.paths...), paths...))
	}
	if mode == host.mode && equalStrings(next, host.paths) {
		return nil
	}
	host.retained = false
	if m := host.current; m != nil {
		if m.users > 0 {
			return status.NotSupported("Cannot set engine plugin paths with an active handle")
		}
		unloadLocked(m)
	}
	host.paths, host.mode = next, mode
	return nil
}

// SetUnloadMode sets what happens to the loaded plugin set after its last handle is destroyed
// (hipdnnSetPluginUnloadMode_ext): LAZY keeps it loaded until the paths change, EAGER unloads
// it. Switching to EAGER while no handle is alive unloads it at once.
func SetUnloadMode(mode api.PluginUnloadingMode) error {
	if !mode.IsValid() {
		return status.BadParam("plugin unloading mode %d is not HIPDNN_PLUGIN_UNLOAD_LAZY (0) or HIPDNN_PLUGIN_UNLOAD_EAGER (1)", int32(mode))
	}
	host.mu.Lock()
	defer host.mu.Unlock()
	host.unload = mode
	m := host.current
	if mode == api.HIPDNN_PLUGIN_UNLOAD_LAZY {
		host.retained = m != nil
		return nil
	}
	host.retained = false
	if m != nil && m.users == 0 {
		unloadLocked(m)
	}
	return nil
}

// Acquire returns the loaded plugin set for a new hipdnnHandle, loading it if none is alive.
// loadErrs lists the plugins and paths that failed to load: they are skipped, and the caller
// still succeeds (hipdnnCreate reports them in the last error). err is reserved for a failure
// that must fail the caller; there is none today. Each Acquire needs one Release.
func Acquire() (m *Manager, loadErrs []error, err error) {
	host.mu.Lock()
	defer host.mu.Unlock()
	if host.current == nil {
		files, errs := plugindir.Discover(pluginSpec, env, host.paths, host.mode)
		m, lerrs := load(files)
		host.current = m
		host.retained = host.unload == api.HIPDNN_PLUGIN_UNLOAD_LAZY
		loadErrs = append(errs, lerrs...)
		if len(loadErrs) > 0 {
			logging.Warnf("%d engine plugin path(s) or file(s) failed to load", len(loadErrs))
		}
	}
	host.current.users++
	return host.current, loadErrs, nil
}

// Release gives back one Acquire (hipdnnDestroy). In EAGER mode the last user unloads the
// plugins.
func (m *Manager) Release() {
	host.mu.Lock()
	defer host.mu.Unlock()
	releaseLocked(m)
}

func (m *Manager) addUser() {
	host.mu.Lock()
	m.users++
	host.mu.Unlock()
}

func releaseLocked(m *Manager) {
	if m.users <= 0 {
		logging.Errorf("engine plugin set released more often than acquired")
		return
	}
	m.users--
	if m.users == 0 && !(host.retained && host.current == m) {
		unloadLocked(m)
	}
}

func unloadLocked(m *Manager) {
	if m.unloaded {
		return
	}
	m.unloaded = true
	for _, p := range m.plugins {
		p.close()
	}
	if host.current == m {
		host.current = nil
		host.retained = false
	}
}

// The level hook is registered at start-up (a slice append), never under host.mu: SetLevel
// holds the logging lock while it runs hooks, and pushLogLevel takes host.mu.
func init() { logging.OnLevelChange(pushLogLevel) }

// pushLogLevel forwards a new global log level to every loaded plugin.
func pushLogLevel(level api.Severity) {
	host.mu.Lock()
	defer host.mu.Unlock()
	if host.current == nil {
		return
	}
	for _, p := range host.current.plugins {
		p.setLogLevel(level)
	}
}

func uniqueSorted(in []string) []string {
	out := append([]string{}, in...)
	sort.Strings(out)
	j := 0
	for i, s := range out {
		if i == 0 || s != out[j-1] {
			out[j] = s
			j++
		}
	}
	return out[:j]
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
