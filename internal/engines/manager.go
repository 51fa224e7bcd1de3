package engines

import (
	"sort"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/logging"
)

// Manager is one loaded set of engine plugins, shared by every hipdnnHandle created while it
// is alive. Everything it exposes is fixed at load and safe to read from any goroutine.
type Manager struct {
	plugins  []*Plugin // sorted by canonical path
	engines  []*Engine // admitted, sorted by (name, id, plugin name)
	byID     map[int64]*Engine
	byName   map[string]*Engine
	users    int  // Acquire holders and live Sessions; guarded by host.mu
	unloaded bool // guarded by host.mu
}

// Engine is one admitted engine.
type Engine struct {
	ID int64
	// Name is the resolved name: the plugin's hipdnnEnginePluginGetEngineName answer, else
	// the built-in registry's, else FormatEngineID(ID). Never empty.
	Name   string
	Plugin *Plugin
	// HostMemory: the engine reads and writes host memory (the plugin says so through the
	// optional hipdnnEnginePluginIsHostMemoryEngine_ext). The heuristics prefer GPU engines.
	HostMemory bool
	// Memory is what the engine accepts for tensors and workspace (the optional
	// hipdnnEnginePluginGetMemoryKinds_ext, else from HostMemory). Execute refuses other
	// pointers when a GPU runtime is present (memory.go).
	Memory MemoryKinds
}

// Plugins returns the loaded plugins sorted by canonical path (their load order).
func (m *Manager) Plugins() []*Plugin { return m.plugins }

// LoadedPaths returns the canonical files of the loaded plugins, sorted
// (hipdnnGetLoadedEnginePluginPaths_ext).
func (m *Manager) LoadedPaths() []string {
	out := make([]string, len(m.plugins))
	for i, p := range m.plugins {
		out[i] = p.Path
	}
	return out
}

// Engines returns the admitted engines sorted by name, then id, then plugin name
// (hipdnnGetEngineCount_ext / hipdnnGetEngineInfo_ext order).
func (m *Manager) Engines() []*Engine { return m.engines }

// EngineByID returns the admitted engine with this id, or nil.
func (m *Manager) EngineByID(id int64) *Engine { return m.byID[id] }

// EngineByName returns the admitted engine whose resolved name is exactly name, or nil.
func (m *Manager) EngineByName(name string) *Engine { return m.byName[name] }

// load opens every file in order and admits their engines; the first plugin (in path order)
// to claim an id keeps it. A file that fails to load is closed and reported; it never stops
// the others.
func load(files []string) (*Manager, []error) {
	m := &Manager{byID: map[int64]*Engine{}, byName: map[string]*Engine{}}
	var errs []error
	if logging.Enabled(api.HIPDNN_SEV_INFO) {
		sink := "hipdnnLoggingCallback_ext"
		if logSinkIsFallback() {
			sink = "the engine package's fallback sink (no hipdnnLoggingCallback_ext in this object)"
		}
		logging.Infof("loading %d engine plugin file(s); plugins log through %s", len(files), sink)
	}
	for _, f := range files {
		p, err := openPlugin(f)
		if err != nil {
			logging.Errorf("Error loading plugin from [%s]: %v", f, err)
			errs = append(errs, err)
			continue
		}
		p.index = len(m.plugins)
		m.plugins = append(m.plugins, p)
		m.admit(p)
	}
	sort.Slice(m.engines, func(i, j int) bool {
		a, b := m.engines[i], m.engines[j]
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		if a.ID != b.ID {
			return a.ID < b.ID
		}
		return a.Plugin.Name < b.Plugin.Name
	})
	for _, e := range m.engines {
		m.byName[e.Name] = e
	}
	return m, errs
}

// admit decides, per declared engine in ascending id order, whether it joins the route table:
// a name the plugin reports must hash to the id, a failing name query drops the engine, and an
// id already claimed by an earlier plugin stays with that plugin.
func (m *Manager) admit(p *Plugin) {
	for _, id := range p.declared {
		name, ok := p.engineName(id)
		if !ok {
			p.dropped[id] = true
			continue
		}
		if owner := m.byID[id]; owner != nil {
			logging.Errorf("Engine %s (%d) of plugin %s is already provided by plugin %s; the first loaded plugin keeps it and this plugin's engine is dropped",
				FormatEngineID(id), id, p.Path, owner.Plugin.Path)
			p.dropped[id] = true
			continue
		}
		if name == "" {
			if n, ok := builtinNames.nameOf(id); ok {
				name = n
			} else {
				name = FormatEngineID(id)
			}
		}
		host := p.hostMemory(id)
		e := &Engine{ID: id, Name: name, Plugin: p, HostMemory: host, Memory: p.memoryKinds(id, host)}
		m.byID[id] = e
		m.engines = append(m.engines, e)
		p.engines = append(p.engines, e)
	}
}
