package engines

import (
	"math"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/hipdnn-go/backend/internal/logging"
	"github.com/hipdnn-go/backend/internal/status"
)

// Context is one plugin execution context: what a finalized execution plan runs.
//
// Lifetime: Destroy releases the plugin context; Session.Close destroys every context of the
// session first, so no plugin state outlives its plugin handle. Calls in flight are tracked
// with one atomic word per context (state): Destroy marks it and waits for them to finish.
// Execute takes no lock.
type Context struct {
	s         *Session
	e         *Engine
	tbl       *table
	tblAddr   uintptr // tbl as an integer for the execute trampolines (see shim.h)
	h         uintptr // plugin handle
	ctx       uintptr // plugin execution context
	workspace int64
	id        uint64       // names the context in variant packs' verdicts (pack_check.go)
	tensors   []PlanTensor // what Execute checks of the graph's tensors
	device    int          // the device the plan runs on; -1 when unknown or not a device engine
	overrides bool         // the plan was built with override-shape support

	state   atomic.Int64 // destroyedBit | calls in flight
	destroy sync.Once
	fast    fastRefs // tokens under which the C fast path runs this context
}

const destroyedBit = int64(1) << 62

// CreateContext builds an execution context for engine id from an EngineConfig and a graph,
// then asks for its workspace size. tensors are the graph's tensors as Execute checks them
// (alignment, required pointers, pass-by-value scalars); overrideEnabled records that the
// graph enables execute-time shape overrides. A failing or NULL context is PLUGIN_ERROR;
// a workspace beyond INT64_MAX is INTERNAL_ERROR (the context is destroyed again).
func (s *Session) CreateContext(id int64, config, graph []byte, tensors []PlanTensor, overrideEnabled bool) (*Context, error) {
	if err := s.begin(); err != nil {
		return nil, err
	}
	defer s.end()
	e, h, err := s.engine(id)
	if err != nil {
		return nil, err
	}
	r := e.Plugin.tbl.createContext(h, config, graph)
	if !r.ok() {
		return nil, failure("create an execution context for engine "+e.Name+" of plugin "+e.Plugin.Name, r)
	}
	return s.adopt(e, h, r.ptr, tensors, overrideEnabled)
}

// ContextFromSerialized recreates an execution context from a payload that Serialize produced
// (the plugin owns the payload format). The plugin must export all three serialization entry
// points, and a plan with overrides enabled needs a plugin API version that supports them.
func (s *Session) ContextFromSerialized(id int64, payload []byte, tensors []PlanTensor, overrideEnabled bool) (*Context, error) {
	if err := s.begin(); err != nil {
		return nil, err
	}
	defer s.end()
	e, h, err := s.engine(id)
	if err != nil {
		return nil, err
	}
	p := e.Plugin
	if err := serializationSupported(p); err != nil {
		return nil, err
	}
	if overrideEnabled && p.APIVersion.Less(apiOverride) {
		return nil, status.NotSupported("plugin %s reports engine API version %s; an execution plan with shape overrides enabled needs %s or later",
			p.Name, p.APIVersion, apiOverride)
	}
	if len(payload) == 0 {
		return nil, status.BadParam("serialized execution plan for engine %s has an empty plugin payload", e.Name)
	}
	r := p.tbl.contextFromSerialized(h, payload)
	if !r.ok() {
		return nil, failure("create an execution context for engine "+e.Name+" of plugin "+p.Name+" from a serialized context", r)
	}
	return s.adopt(e, h, r.ptr, tensors, overrideEnabled)
}

// adopt finishes a context the plugin created: NULL check, workspace query, registration.
func (s *Session) adopt(e *Engine, h uintptr, ptr unsafe.Pointer, tensors []PlanTensor, overrideEnabled bool) (*Context, error) {
	p := e.Plugin
	if ptr == nil {
		return nil, status.Plugin("Plugin %s returned a NULL execution context for engine %s", p.Name, e.Name)
	}
	c := &Context{s: s, e: e, tbl: p.tbl, tblAddr: uintptr(unsafe.Pointer(p.tbl)), h: h, ctx: uintptr(ptr),
		id: contextIDs.Add(1), tensors: append([]PlanTensor(nil), tensors...), device: s.planDevice(e),
		overrides: overrideEnabled}
	r := p.tbl.contextWorkspace(h, c.ctx)
	if !r.ok() {
		c.release()
		return nil, failure("get the workspace size of the execution context of engine "+e.Name+" of plugin "+p.Name, r)
	}
	if r.u > math.MaxInt64 {
		c.release()
		return nil, status.Internal("Plugin %s reported a workspace of %d bytes for engine %s, beyond INT64_MAX", p.Name, r.u, e.Name)
	}
	c.workspace = int64(r.u)
	s.addContext(c)
	return c, nil
}

// WorkspaceSize is the context's workspace in bytes, as the plugin reported it at creation.
func (c *Context) WorkspaceSize() int64 { return c.workspace }

// EngineID returns the engine the context runs.
func (c *Context) EngineID() int64 { return c.e.ID }

// Engine returns the engine the context runs.
func (c *Context) Engine() *Engine { return c.e }

// enter counts a call in flight; false when the context is destroyed.
func (c *Context) enter() bool {
	if c.state.Add(1)&destroyedBit != 0 {
		c.state.Add(-1)
		return false
	}
	return true
}

func (c *Context) exit() { c.state.Add(-1) }

// gone is the error of a call on a destroyed context.
func (c *Context) gone() error {
	if c.s.closed.Load() {
		return status.BadParam("the handle this plan was built with was destroyed")
	}
	return status.BadParam("the execution context of engine %s was destroyed", c.e.Name)
}

// Destroy releases the plugin context once calls in flight have finished. It is idempotent
// and safe to race with Session.Close; calls after it fail with BAD_PARAM.
func (c *Context) Destroy() {
	c.destroy.Do(func() {
		c.fast.retire() // no fast call can reach the plugin context after this
		c.forget()
		c.state.Or(destroyedBit)
		for spins := 0; c.state.Load() != destroyedBit; spins++ {
			if spins < 100 {
				runtime.Gosched()
			} else {
				time.Sleep(50 * time.Microsecond)
			}
		}
		c.release()
		c.s.removeContext(c)
	})
}

func (c *Context) release() {
	if r := c.tbl.destroyContext(c.h, c.ctx); !r.ok() {
		logging.Warnf("Plugin %s: Failed to destroy the execution context of engine %s. Status: %s(%d), Error: %s",
			c.e.Plugin.Name, c.e.Name, PluginStatusName(r.status), r.status, r.err)
	}
}

// serializationSupported reports NOT_SUPPORTED naming what a plugin lacks for plan
// serialization.
func serializationSupported(p *Plugin) error {
	if p.serialization {
		return nil
	}
	var missing []string
	for _, s := range serializationSymbols {
		if !p.tbl.has(s.slot) {
			missing = append(missing, s.name)
		}
	}
	return status.NotSupported("plugin %s does not export %s (plan serialization needs all three entry points)",
		p.Name, strings.Join(missing, ", "))
}

// Serialize asks the plugin for bytes that recreate the context, copies them and gives the
// plugin's buffer back at once. A plugin without the three serialization entry points is
// NOT_SUPPORTED; a failure or an empty payload is PLUGIN_ERROR.
func (c *Context) Serialize() ([]byte, error) {
	if !c.enter() {
		return nil, c.gone()
	}
	defer c.exit()
	p := c.e.Plugin
	if err := serializationSupported(p); err != nil {
		return nil, err
	}
	r := c.tbl.serializeContext(c.h, c.ctx)
	if !r.ok() {
		return nil, failure("serialize the execution context of engine "+c.e.Name+" of plugin "+p.Name, r)
	}
	var out []byte
	if r.ptr != nil && r.size > 0 {
		out = copyOut(r.ptr, r.size)
	}
	if r.ptr != nil {
		if d := c.tbl.destroySerialized(c.h, r.ptr, r.size); !d.ok() {
			logging.Warnf("Plugin %s: Failed to destroy a serialized execution context. Status: %s(%d), Error: %s",
				p.Name, PluginStatusName(d.status), d.status, d.err)
		}
	}
	if len(out) == 0 {
		return nil, status.Plugin("Plugin %s returned an empty serialized execution context for engine %s", p.Name, c.e.Name)
	}
	return out, nil
}
