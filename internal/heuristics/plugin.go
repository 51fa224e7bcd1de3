package heuristics

/*
#cgo CFLAGS: -I${SRCDIR}/../../include -I${SRCDIR}/../dl
#cgo LDFLAGS: -ldl
#include <stdlib.h>
#include "plugin.h"
*/
import "C"

import (
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/logging"
	"github.com/hipdnn-go/backend/internal/status"
	"github.com/hipdnn-go/backend/internal/version"
)

// plugin.go: a dlopened heuristic plugin as a module (module.go). Every call goes through
// one helper of plugin.c; strings the plugin returns are copied before the helper's caller
// returns, and buffers the host passes in are Go memory pinned for the duration of the call.

// APIVersion is the heuristic plugin API version this host implements, read from the
// HIPDNN_HEURISTIC_API_VERSION_* macros of heuristic_api_version.h (their single source).
// A plugin is loaded only when its API major equals APIVersion.Major.
var APIVersion = version.Triple{
	Major: int64(C.HIPDNN_HEURISTIC_API_VERSION_MAJOR),
	Minor: int64(C.HIPDNN_HEURISTIC_API_VERSION_MINOR),
	Patch: int64(C.HIPDNN_HEURISTIC_API_VERSION_PATCH),
}

// pluginTypeHeuristic is HIPDNN_PLUGIN_TYPE_HEURISTIC.
const pluginTypeHeuristic = 2

// errBuf receives a plugin's last-error text from a helper.
type errBuf [C.HIPDNN_HEUR_ERRLEN]C.char

func (e *errBuf) c() (*C.char, C.size_t) { return &e[0], C.HIPDNN_HEUR_ERRLEN }

func (e *errBuf) String() string { return C.GoString(&e[0]) }

var pluginStatusNames = [...]string{
	"HIPDNN_PLUGIN_STATUS_SUCCESS", "HIPDNN_PLUGIN_STATUS_BAD_PARAM", "HIPDNN_PLUGIN_STATUS_INVALID_VALUE",
	"HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR", "HIPDNN_PLUGIN_STATUS_ALLOC_FAILED",
	"HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE", "HIPDNN_PLUGIN_STATUS_NOT_INITIALIZED",
}

func pluginStatusName(st C.int) string {
	if st >= 0 && int(st) < len(pluginStatusNames) {
		return pluginStatusNames[st]
	}
	return fmt.Sprintf("hipdnnPluginStatus_t(%d)", int(st))
}

// callError describes a failed plugin call: the entry point, the status and the plugin's
// last-error text.
func callError(entry string, st C.int, eb *errBuf) error {
	msg := fmt.Sprintf("%s returned %s", entry, pluginStatusName(st))
	if t := eb.String(); t != "" {
		msg += ": " + t
	}
	return status.Plugin("%s", msg)
}

// pluginModule is one loaded heuristic plugin.
type pluginModule struct {
	p   *C.hd_heur_plugin // C memory, freed by unload
	inf moduleInfo
}

// loadError prefixes a load failure the way hipDNN reports it.
func loadError(path string, format string, args ...any) error {
	return status.Plugin("Error loading plugin from [%s]: %s", path, fmt.Sprintf(format, args...))
}

// loadPlugin opens one plugin file and validates it: every required entry point, type
// HEURISTIC, an API version whose major is APIVersion.Major, a non-empty name, and at least
// one policy, each listed once with a non-empty name that hashes to its id. The library is
// closed again on any failure.
func loadPlugin(path string) (module, error) {
	p := (*C.hd_heur_plugin)(C.calloc(1, C.size_t(unsafe.Sizeof(C.hd_heur_plugin{}))))
	if p == nil {
		return nil, status.Errorf(api.HIPDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED, "Error loading plugin from [%s]: out of memory", path)
	}
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var eb errBuf
	e, n := eb.c()
	if C.hd_heur_open(cpath, p, e, n) != 0 {
		C.free(unsafe.Pointer(p))
		return nil, loadError(path, "%s", eb.String())
	}
	m := &pluginModule{p: p, inf: moduleInfo{label: path, path: path}}
	if err := m.validate(); err != nil {
		m.unload()
		return nil, loadError(path, "%v", err)
	}
	return m, nil
}

// str asks one of the base string entry points (which: 0 name, 1 version, 2 API version);
// NULL is "".
func (m *pluginModule) str(which C.int, entry string) (string, error) {
	var eb errBuf
	e, n := eb.c()
	var out *C.char
	if st := C.hd_heur_get_string(m.p, which, &out, e, n); st != pluginSuccess {
		return "", callError(entry, st, &eb)
	}
	if out == nil {
		return "", nil
	}
	return C.GoString(out), nil
}

func (m *pluginModule) validate() error {
	var err error
	if m.inf.name, err = m.str(0, "hipdnnPluginGetName"); err != nil {
		return err
	}
	if m.inf.version, err = m.str(1, "hipdnnPluginGetVersion"); err != nil {
		return err
	}
	var eb errBuf
	e, n := eb.c()
	var typ C.int
	if st := C.hd_heur_get_type(m.p, &typ, e, n); st != pluginSuccess {
		return callError("hipdnnPluginGetType", st, &eb)
	}
	if typ != pluginTypeHeuristic {
		return fmt.Errorf("plugin type %d is not HIPDNN_PLUGIN_TYPE_HEURISTIC (%d)", int(typ), pluginTypeHeuristic)
	}
	if st := C.hd_heur_set_logging(m.p, e, n); st != pluginSuccess {
		logging.Warnf("Heuristic plugin %s: %v", m.inf.label, callError("hipdnnPluginSetLoggingCallback", st, &eb))
	}
	m.setLogLevel(logging.Level())
	if m.inf.apiVersion, err = m.str(2, "hipdnnPluginGetApiVersion"); err != nil {
		return err
	}
	v, err := version.Parse(m.inf.apiVersion)
	if err != nil {
		return fmt.Errorf("heuristic API version: %v", err)
	}
	if v.Major != APIVersion.Major {
		return fmt.Errorf("heuristic API version %s does not match expected heuristic API major version %d",
			m.inf.apiVersion, APIVersion.Major)
	}
	if m.inf.name == "" {
		return fmt.Errorf("plugin name is empty")
	}
	return m.readPolicies()
}

// readPolicies makes the two GetAllPolicyIds calls and names every policy.
func (m *pluginModule) readPolicies() error {
	var eb errBuf
	e, n := eb.c()
	var total C.uint32_t
	if st := C.hd_heur_policy_ids(m.p, nil, 0, &total, e, n); st != pluginSuccess {
		return callError("hipdnnHeuristicPluginGetAllPolicyIds", st, &eb)
	}
	if total == 0 {
		return fmt.Errorf("plugin %q offers no policy", m.inf.name)
	}
	if total > 1<<16 {
		return fmt.Errorf("plugin %q announces %d policies", m.inf.name, uint32(total))
	}
	ids := make([]int64, total)
	var got C.uint32_t
	if st := C.hd_heur_policy_ids(m.p, (*C.int64_t)(unsafe.Pointer(&ids[0])), total, &got, e, n); st != pluginSuccess {
		return callError("hipdnnHeuristicPluginGetAllPolicyIds", st, &eb)
	}
	if got != total {
		return fmt.Errorf("hipdnnHeuristicPluginGetAllPolicyIds announced %d policies, then listed %d", uint32(total), uint32(got))
	}
	seen := map[int64]bool{}
	for _, id := range ids {
		if seen[id] {
			return fmt.Errorf("policy id %s is listed twice", FormatID(id))
		}
		seen[id] = true
		var name *C.char
		if st := C.hd_heur_policy_name(m.p, C.int64_t(id), &name, e, n); st != pluginSuccess {
			return callError(fmt.Sprintf("hipdnnHeuristicPluginGetPolicyName(%s)", FormatID(id)), st, &eb)
		}
		s := ""
		if name != nil {
			s = C.GoString(name)
		}
		if s == "" {
			return fmt.Errorf("policy %s has an empty name", FormatID(id))
		}
		if h := PolicyNameToID(s); h != id {
			return fmt.Errorf("policy name %q hashes to %s, not to its id %s", s, FormatID(h), FormatID(id))
		}
		m.inf.policies = append(m.inf.policies, policyDecl{id: id, name: s})
	}
	return nil
}

func (m *pluginModule) info() *moduleInfo { return &m.inf }

// setLogLevel calls hipdnnPluginSetLogLevel when exported; SUCCESS and INVALID_VALUE are
// accepted silently, anything else is logged.
func (m *pluginModule) setLogLevel(sev api.Severity) {
	if m.p == nil {
		return
	}
	var eb errBuf
	e, n := eb.c()
	st := C.hd_heur_set_log_level(m.p, C.int(sev), e, n)
	if st != pluginSuccess && st != C.HIPDNN_HEUR_ABSENT && st != 2 /* INVALID_VALUE */ {
		logging.Warnf("Heuristic plugin %s: %v", m.inf.label, callError("hipdnnPluginSetLogLevel", st, &eb))
	}
}

func (m *pluginModule) unload() {
	if m.p == nil {
		return
	}
	C.hd_heur_close(m.p)
	C.free(unsafe.Pointer(m.p))
	m.p = nil
}

func (m *pluginModule) createHandle() (moduleHandle, error) {
	var eb errBuf
	e, n := eb.c()
	var h unsafe.Pointer
	if st := C.hd_heur_handle_create(m.p, &h, e, n); st != pluginSuccess {
		return nil, callError("hipdnnHeuristicHandleCreate", st, &eb)
	}
	if h == nil {
		return nil, status.Plugin("hipdnnHeuristicHandleCreate returned a NULL handle")
	}
	return &pluginHandle{m: m, h: h}, nil
}

// pluginHandle is a plugin's hipdnnHeuristicHandle_t.
type pluginHandle struct {
	m *pluginModule
	h unsafe.Pointer // C pointer owned by the plugin
}

func (h *pluginHandle) key() uintptr { return uintptr(h.h) }

func (h *pluginHandle) setDeviceProperties(blob []byte) error {
	var eb errBuf
	e, n := eb.c()
	var data unsafe.Pointer
	if len(blob) > 0 {
		data = unsafe.Pointer(&blob[0])
	}
	if st := C.hd_heur_set_device_properties(h.m.p, h.h, data, C.size_t(len(blob)), e, n); st != pluginSuccess {
		return callError("hipdnnHeuristicHandleSetDeviceProperties", st, &eb)
	}
	return nil
}

func (h *pluginHandle) createPolicy(id int64) (policyDescriptor, error) {
	var eb errBuf
	e, n := eb.c()
	var d unsafe.Pointer
	if st := C.hd_heur_desc_create(h.m.p, h.h, C.int64_t(id), &d, e, n); st != pluginSuccess {
		return nil, callError("hipdnnHeuristicPolicyDescriptorCreate", st, &eb)
	}
	if d == nil {
		return nil, status.Plugin("hipdnnHeuristicPolicyDescriptorCreate returned a NULL descriptor")
	}
	return &pluginDescriptor{m: h.m, d: d}, nil
}

func (h *pluginHandle) destroy() error {
	var eb errBuf
	e, n := eb.c()
	if st := C.hd_heur_handle_destroy(h.m.p, h.h, e, n); st != pluginSuccess {
		return callError("hipdnnHeuristicHandleDestroy", st, &eb)
	}
	return nil
}

// pluginDescriptor is a plugin's hipdnnHeuristicPolicyDescriptor_t.
type pluginDescriptor struct {
	m *pluginModule
	d unsafe.Pointer
}

var finalizeSteps = map[C.int]string{
	C.HIPDNN_HEUR_STEP_SET_ENGINE_IDS: "hipdnnHeuristicPolicySetEngineIds",
	C.HIPDNN_HEUR_STEP_SET_GRAPH:      "hipdnnHeuristicPolicySetSerializedGraph",
	C.HIPDNN_HEUR_STEP_FINALIZE:       "hipdnnHeuristicPolicyFinalize",
}

func (d *pluginDescriptor) finalize(candidates []int64, graph []byte, host *hostServices) (bool, error) {
	call := &hostCall{host: host}
	ctx := registerHostCall(call)
	defer func() {
		unregisterHostCall(ctx)
		call.free()
	}()
	metric := C.CString(host.metric)
	defer C.free(unsafe.Pointer(metric))
	var ids *C.int64_t
	if len(candidates) > 0 {
		ids = (*C.int64_t)(unsafe.Pointer(&candidates[0]))
	}
	var g unsafe.Pointer
	if len(graph) > 0 {
		g = unsafe.Pointer(&graph[0])
	}
	var eb errBuf
	e, n := eb.c()
	var applied C.int32_t
	var step C.int
	st := C.hd_heur_finalize(d.m.p, d.d, ids, C.size_t(len(candidates)), g, C.size_t(len(graph)),
		C.uintptr_t(ctx), metric, &applied, &step, e, n)
	if st != pluginSuccess {
		entry := finalizeSteps[step]
		if step == C.HIPDNN_HEUR_STEP_FINALIZE && d.m.p.finalize_with_host != nil {
			entry = "hipdnnHeuristicPolicyFinalizeWithHost"
		}
		return false, callError(entry, st, &eb)
	}
	return applied == 1, nil
}

func (d *pluginDescriptor) sortedEngineIDs(capacity int) ([]int64, error) {
	var eb errBuf
	e, n := eb.c()
	buf := make([]int64, capacity)
	var ptr *C.int64_t
	if capacity > 0 {
		ptr = (*C.int64_t)(unsafe.Pointer(&buf[0]))
	}
	var got C.size_t
	st := C.hd_heur_sorted_ids(d.m.p, d.d, ptr, C.size_t(capacity), &got, e, n)
	switch {
	case st == C.HIPDNN_HEUR_TOO_MANY:
		return nil, &tooManyEngines{announced: uint64(got)}
	case st != pluginSuccess:
		return nil, callError("hipdnnHeuristicPolicyGetSortedEngineIds", st, &eb)
	case uint64(got) > uint64(capacity):
		return nil, &tooManyEngines{announced: uint64(got)}
	}
	return buf[:got], nil
}

func (d *pluginDescriptor) engineConfig(id int64) ([]byte, bool, error) {
	var eb errBuf
	e, n := eb.c()
	var ptr unsafe.Pointer
	var size C.size_t
	st := C.hd_heur_engine_config(d.m.p, d.d, C.int64_t(id), &ptr, &size, e, n)
	switch {
	case st == C.HIPDNN_HEUR_ABSENT || st == pluginNotApplicable:
		return nil, false, nil
	case st != pluginSuccess:
		return nil, false, callError("hipdnnHeuristicPolicyGetEngineConfig", st, &eb)
	case ptr == nil || size == 0:
		return nil, false, status.Plugin("hipdnnHeuristicPolicyGetEngineConfig returned an empty buffer")
	case uint64(size) > math.MaxInt32:
		return nil, false, status.Plugin("hipdnnHeuristicPolicyGetEngineConfig returned %d bytes", uint64(size))
	}
	return C.GoBytes(ptr, C.int(size)), true, nil
}

func (d *pluginDescriptor) destroy() error {
	var eb errBuf
	e, n := eb.c()
	if st := C.hd_heur_desc_destroy(d.m.p, d.d, e, n); st != pluginSuccess {
		return callError("hipdnnHeuristicPolicyDescriptorDestroy", st, &eb)
	}
	return nil
}

// hostCall is the state behind one host callback table: the services and the C copies of
// the predictions handed out, freed when the finalize returns.
type hostCall struct {
	host   *hostServices
	mu     sync.Mutex
	allocs []unsafe.Pointer
}

func (c *hostCall) keep(p unsafe.Pointer) {
	c.mu.Lock()
	c.allocs = append(c.allocs, p)
	c.mu.Unlock()
}

func (c *hostCall) free() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range c.allocs {
		C.free(p)
	}
	c.allocs = nil
}

// hostCalls maps the integers handed to C as the table's context to running finalizes.
// The context is a number, never a Go pointer; one that is not (or no longer) registered is
// answered with BAD_PARAM, so a plugin calling get_prediction after its finalize returned
// cannot reach freed state.
var hostCalls struct {
	seq atomic.Uintptr
	m   sync.Map // uintptr -> *hostCall
}

func registerHostCall(c *hostCall) uintptr {
	id := hostCalls.seq.Add(1)
	hostCalls.m.Store(id, c)
	return id
}

func unregisterHostCall(id uintptr) { hostCalls.m.Delete(id) }

// getPrediction serves the get_prediction trampoline (callback.go).
func getPrediction(ctx uintptr, engineID int64, kind int, out *C.hipdnnPluginConstData_t) C.int {
	v, ok := hostCalls.m.Load(ctx)
	if !ok {
		return pluginBadParam
	}
	call := v.(*hostCall)
	blob, st := call.host.prediction(engineID, kind)
	if st != pluginSuccess {
		return C.int(st)
	}
	p := C.CBytes(blob)
	call.keep(p)
	out.ptr = p
	out.size = C.size_t(len(blob))
	return pluginSuccess
}
