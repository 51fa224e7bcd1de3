package engines

import (
	"sort"
	"unsafe"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/dl"
	"github.com/hipdnn-go/backend/internal/logging"
	"github.com/hipdnn-go/backend/internal/status"
	"github.com/hipdnn-go/backend/internal/version"
)

// Plugin is one loaded engine plugin. Its fields are fixed at load.
type Plugin struct {
	Path    string // canonical file path
	Name    string // hipdnnPluginGetName
	Version string // hipdnnPluginGetVersion (free-form)
	// APIVersion is the engine plugin API version the plugin implements
	// (hipdnnPluginGetApiVersion; 1.0.0 when it does not export it).
	APIVersion version.Triple

	index    int            // position in Manager.plugins: the Session handle slot
	lib      unsafe.Pointer // dlopen handle
	tbl      *table
	declared []int64        // GetAllEngineIds, ascending
	dropped  map[int64]bool // declared but not admitted
	engines  []*Engine      // admitted, ascending id

	// Optional entry points, looked up once at load (the execute path reads them).
	overrides     bool // hipdnnEnginePluginExecuteOpGraphWithOverrides
	serialization bool // all three execution-context serialization entry points
}

// Engines returns the plugin's admitted engines in ascending id order.
func (p *Plugin) Engines() []*Engine { return p.engines }

// DeclaredEngineIDs returns every id the plugin declared, admitted or not, ascending.
func (p *Plugin) DeclaredEngineIDs() []int64 { return p.declared }

// SupportsOverrides reports whether execute-time shape overrides can be dispatched to the
// plugin: API version >= 1.1.0 and hipdnnEnginePluginExecuteOpGraphWithOverrides exported.
func (p *Plugin) SupportsOverrides() bool {
	return !p.APIVersion.Less(apiOverride) && p.overrides
}

// SupportsSerialization reports whether the plugin exports all three execution-context
// serialization entry points.
func (p *Plugin) SupportsSerialization() bool { return p.serialization }

// symbol is one entry point the loader resolves.
type symbol struct {
	name     string
	slot     int
	required bool
}

// The base entry points every plugin type shares, then the engine-specific ones (resolved only
// after the plugin says it is an engine plugin).
var (
	baseSymbols = []symbol{
		{"hipdnnPluginGetName", slotGetName, true},
		{"hipdnnPluginGetVersion", slotGetVersion, true},
		{"hipdnnPluginGetType", slotGetType, true},
		{"hipdnnPluginGetLastErrorString", slotGetLastError, true},
		{"hipdnnPluginGetApiVersion", slotGetAPIVersion, false},
		{"hipdnnPluginSetLoggingCallback", slotSetLoggingCallback, false},
		{"hipdnnPluginSetLogLevel", slotSetLogLevel, false},
	}
	engineSymbols = []symbol{
		{"hipdnnEnginePluginGetAllEngineIds", slotGetAllEngineIDs, true},
		{"hipdnnEnginePluginCreate", slotCreate, true},
		{"hipdnnEnginePluginDestroy", slotDestroy, true},
		{"hipdnnEnginePluginSetStream", slotSetStream, true},
		{"hipdnnEnginePluginGetApplicableEngineIds", slotGetApplicable, true},
		{"hipdnnEnginePluginGetEngineDetails", slotGetDetails, true},
		{"hipdnnEnginePluginDestroyEngineDetails", slotDestroyDetails, true},
		{"hipdnnEnginePluginGetWorkspaceSize", slotGetWorkspace, true},
		{"hipdnnEnginePluginCreateExecutionContext", slotCreateContext, true},
		{"hipdnnEnginePluginDestroyExecutionContext", slotDestroyContext, true},
		{"hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext", slotContextWorkspace, true},
		{"hipdnnEnginePluginExecuteOpGraph", slotExecute, true},
		{"hipdnnEnginePluginSerializeExecutionContext", slotSerializeContext, false},
		{"hipdnnEnginePluginDestroySerializedExecutionContext", slotDestroySerialized, false},
		{"hipdnnEnginePluginCreateExecutionContextFromSerialized", slotContextFromSerialized, false},
		{"hipdnnEnginePluginExecuteOpGraphWithOverrides", slotExecuteOverrides, false},
		{"hipdnnEnginePluginGetEngineName", slotGetEngineName, false},
		{"hipdnnEnginePluginIsHostMemoryEngine_ext", slotIsHostMemory, false},
		{"hipdnnEnginePluginGetNumericalNotesV1_ext", slotGetNumericalNotes, false},
		{"hipdnnEnginePluginGetMemoryKinds_ext", slotGetMemoryKinds, false},
	}
)

// Names of the three serialization entry points, in the order NOT_SUPPORTED messages list them.
var serializationSymbols = []symbol{engineSymbols[12], engineSymbols[13], engineSymbols[14]}

const pluginTypeEngine = 1

var pluginTypeNames = [...]string{"HIPDNN_PLUGIN_TYPE_UNSPECIFIED", "HIPDNN_PLUGIN_TYPE_ENGINE", "HIPDNN_PLUGIN_TYPE_HEURISTIC"}

func pluginTypeName(t uint64) string {
	if t < uint64(len(pluginTypeNames)) {
		return pluginTypeNames[t]
	}
	return "hipdnnPluginType_t(" + itoa(int64(t)) + ")"
}

// openPlugin loads one file (dlopen RTLD_NOW | RTLD_LOCAL) and validates it as an engine
// plugin. On any failure the library is closed again.
func openPlugin(path string) (*Plugin, error) {
	lib, derr := dl.Open(path)
	if derr != nil {
		return nil, status.Plugin("Failed to load plugin library %s: %v", path, derr)
	}
	p := &Plugin{Path: path, lib: lib, tbl: newTable(), dropped: map[int64]bool{}}
	if err := p.validate(); err != nil {
		p.close()
		return nil, err
	}
	return p, nil
}

// validate runs the load sequence on an opened library: base symbols, type (before any engine
// symbol is looked up), engine symbols, name and version, API version, logging hookup, engine
// ids.
func (p *Plugin) validate() (err error) {
	path := p.Path
	if err := p.resolve(baseSymbols); err != nil {
		return err
	}
	r := p.tbl.getType()
	if !r.ok() {
		return failure("get the plugin type of "+path, r)
	}
	if r.u != pluginTypeEngine {
		return status.Plugin("Plugin type mismatch: %s reports %s, an engine plugin must report HIPDNN_PLUGIN_TYPE_ENGINE",
			path, pluginTypeName(r.u))
	}
	if err := p.resolve(engineSymbols); err != nil {
		return err
	}
	p.overrides = p.tbl.has(slotExecuteOverrides)
	p.serialization = p.tbl.has(slotSerializeContext) && p.tbl.has(slotDestroySerialized) &&
		p.tbl.has(slotContextFromSerialized)
	if p.Name, err = p.str(slotGetName, "get the name of plugin "+path); err != nil {
		return err
	}
	if p.Version, err = p.str(slotGetVersion, "get the version of plugin "+path); err != nil {
		return err
	}
	if err := p.checkAPIVersion(); err != nil {
		return err
	}
	if p.tbl.has(slotSetLoggingCallback) {
		if r := p.tbl.setLoggingCallback(); !r.ok() {
			return failure("set the logging callback of plugin "+path, r)
		}
	}
	p.setLogLevel(logging.Level())
	if err := p.readEngineIDs(); err != nil {
		return err
	}
	return nil
}

func (p *Plugin) resolve(syms []symbol) error {
	for _, s := range syms {
		fn, err := dl.Sym(p.lib, s.name)
		if err != nil {
			if s.required {
				return missingSymbol(s.name, p.Path)
			}
			continue
		}
		p.tbl.set(s.slot, fn)
	}
	return nil
}

// str calls a const char** getter; a NULL answer reads as "".
func (p *Plugin) str(slot int, action string) (string, error) {
	r := p.tbl.getString(slot)
	if !r.ok() {
		return "", failure(action, r)
	}
	return cString(r.ptr), nil
}

// checkAPIVersion applies the load-time rules: absent means 1.0.0, the string must parse, and
// the major must be the host's (major 0 loads transitionally but is below every graph floor).
func (p *Plugin) checkAPIVersion() error {
	if !p.tbl.has(slotGetAPIVersion) {
		p.APIVersion = assumedAPIVersion
		return nil
	}
	s, err := p.str(slotGetAPIVersion, "get the API version of plugin "+p.Path)
	if err != nil {
		return err
	}
	v, perr := version.Parse(s)
	if perr != nil {
		return status.NotSupported("Plugin %s reports engine API version %q, which is not MAJOR.MINOR.PATCH", p.Path, s)
	}
	switch {
	case v.Major == apiCurrent.Major:
	case v.Major == 0:
		logging.Warnf("Plugin %s reports engine API version %s: loaded for compatibility, but no graph will be offered to it (every graph needs %s or later)",
			p.Path, v, apiMinimum)
	default:
		return status.NotSupported("Plugin %s engine API version %s does not match expected engine API major version %d (this host implements %s)",
			p.Path, v, apiCurrent.Major, apiCurrent)
	}
	p.APIVersion = v
	return nil
}

// setLogLevel pushes the global level. SUCCESS and INVALID_VALUE are both fine.
func (p *Plugin) setLogLevel(level api.Severity) {
	if !p.tbl.has(slotSetLogLevel) {
		return
	}
	if r := p.tbl.setLogLevel(int(level)); !r.ok() && r.status != pluginInvalidValue {
		logging.Warnf("Plugin %s: Failed to set log level %d. Status: %s(%d), Error: %s",
			p.Path, int(level), PluginStatusName(r.status), r.status, r.err)
	}
}

// readEngineIDs runs the two-pass GetAllEngineIds: a count query, then a fetch of exactly that
// many. No engines, a count that changes between the passes, or an id listed twice rejects the
// whole plugin.
func (p *Plugin) readEngineIDs() error {
	r := p.tbl.getAllEngineIDs(nil)
	if !r.ok() {
		return failure("count the engines of plugin "+p.Path, r)
	}
	if r.u == 0 {
		return status.Plugin("Plugin %s declares no engines", p.Path)
	}
	if r.u > 1<<20 {
		return status.Plugin("Plugin %s declares %d engines, more than the host accepts", p.Path, r.u)
	}
	ids := make([]int64, r.u)
	r2 := p.tbl.getAllEngineIDs(ids)
	if !r2.ok() {
		return failure("get the engine ids of plugin "+p.Path, r2)
	}
	if r2.u != r.u {
		return status.Plugin("Plugin %s reported %d engines, then returned %d engine ids", p.Path, r.u, r2.u)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	for i := 1; i < len(ids); i++ {
		if ids[i] == ids[i-1] {
			return status.Plugin("Plugin %s declares engine %s (%d) more than once", p.Path, FormatEngineID(ids[i]), ids[i])
		}
	}
	p.declared = ids
	return nil
}

// engineName asks the plugin for an engine's name. ok is false when the engine must be
// dropped: the name query failed, or the name does not hash to the id. "" means unnamed.
func (p *Plugin) engineName(id int64) (name string, ok bool) {
	if !p.tbl.has(slotGetEngineName) {
		return "", true
	}
	r := p.tbl.getEngineName(id)
	switch {
	case r.status == pluginNotApplicable:
		return "", true
	case !r.ok():
		logging.Errorf("Plugin %s: Failed to get the name of engine %s (%d). Status: %s(%d), Error: %s; the engine is dropped",
			p.Path, FormatEngineID(id), id, PluginStatusName(r.status), r.status, r.err)
		return "", false
	}
	name = cString(r.ptr)
	if name == "" {
		return "", true
	}
	if owner := EngineNameToID(name); owner != id {
		logging.Errorf("Plugin %s names engine %s (%d) %q, but that name hashes to engine id %s (%d), which owns it; the engine is dropped",
			p.Path, FormatEngineID(id), id, name, FormatEngineID(owner), owner)
		return "", false
	}
	noteUnregistered(p.Path, name)
	return name, true
}

// hostMemory asks the optional hipdnnEnginePluginIsHostMemoryEngine_ext.
func (p *Plugin) hostMemory(id int64) bool {
	if !p.tbl.has(slotIsHostMemory) {
		return false
	}
	r := p.tbl.isHostMemory(id)
	if !r.ok() {
		logging.Warnf("Plugin %s: Failed to ask whether engine %s runs on host memory. Status: %s(%d), Error: %s",
			p.Path, FormatEngineID(id), PluginStatusName(r.status), r.status, r.err)
		return false
	}
	return r.u != 0
}

// memoryKinds asks the optional hipdnnEnginePluginGetMemoryKinds_ext; without it, or when it
// fails or answers with no known kind, the kinds follow from hostMemory.
func (p *Plugin) memoryKinds(id int64, hostMemory bool) MemoryKinds {
	fallback := MemoryKinds(MemoryDevice | MemoryManaged)
	if hostMemory {
		fallback = MemoryHostPinned | MemoryHostPageable
	}
	if !p.tbl.has(slotGetMemoryKinds) {
		return fallback
	}
	r := p.tbl.getMemoryKinds(id)
	if !r.ok() {
		logging.Warnf("Plugin %s: Failed to ask which memory engine %s accepts. Status: %s(%d), Error: %s; taking %s",
			p.Path, FormatEngineID(id), PluginStatusName(r.status), r.status, r.err, fallback)
		return fallback
	}
	k := MemoryKinds(r.u) & allMemoryKinds
	if k == 0 {
		logging.Warnf("Plugin %s: engine %s accepts no known memory kind (mask %#x); taking %s",
			p.Path, FormatEngineID(id), r.u, fallback)
		return fallback
	}
	return k
}

// close unloads the library. The Manager calls it once no Session or Context uses the plugin.
func (p *Plugin) close() {
	if p.lib != nil {
		dl.Close(p.lib)
		p.lib = nil
	}
	if p.tbl != nil {
		freeTable(p.tbl)
		p.tbl = nil
	}
}
