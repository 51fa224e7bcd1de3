package engines

// The execute hot path. Everything it passes was prepared earlier (Buffers, Overrides, the
// context's alignment table), so a successful Execute allocates nothing: a few checks, then one
// cgo call to a trampoline that calls the plugin and, only on failure, copies the plugin's
// last error on the same thread.

/*
#cgo CFLAGS: -I${SRCDIR}/../../include
#include "shim.h"
#include <stdlib.h>
*/
import "C"

import (
	"unsafe"

	"github.com/hipdnn-go/backend/internal/status"
)

// Execute runs the context on a variant pack: workspace and b's {uid, pointer} pairs, with
// execute-time shape overrides when ov holds any.
//
// Checks (pack_check.go), once per (context, pack) pair when workspace is the pack's own:
// every tensor the plan reads or writes has a non-NULL pointer, the workspace is there when
// the plan needs one, pointers are aligned as their tensors require, and with a GPU runtime
// loaded every pointer is memory the engine accepts (each a BAD_PARAM naming the uid or the
// workspace and what was wrong). Overrides need a plan built with override support, a plugin
// API version of at least 1.1.0 and the override entry point (NOT_SUPPORTED naming what is
// missing; there is no silent fallback to a plain execute). A plugin failure is PLUGIN_ERROR
// "<plugin>: Failed to execute engine <engine>. Status: <name>(<n>), Error: <text>". On a
// context whose session was closed it is BAD_PARAM "the handle this plan was built with was
// destroyed".
//
// Cost: no allocation and no shared lock on success; once a pair is checked, a scan of the
// pack's verdict slots and one cgo call. The first execute of a pair also makes one runtime
// pointer query per pointer of a pack not classified before. Safe for concurrent use.
func (c *Context) Execute(workspace uintptr, b *Buffers, ov *Overrides) error {
	if !c.enter() {
		return c.gone()
	}
	err := c.execute(c.h, workspace, b, ov)
	c.exit()
	return err
}

// ExecuteIn is Execute through another session's plugin handle, as hipdnnBackendExecute does
// when given a hipdnnHandle other than the plan's: the plugin runs the plan's context with that
// handle (and so on that handle's stream). The session must be on the same plugin set and hold
// a handle of the engine's plugin. Unlike Execute it takes the session's shared lock, so that
// handle cannot be destroyed under the call.
func (c *Context) ExecuteIn(s *Session, workspace uintptr, b *Buffers, ov *Overrides) error {
	if s == c.s {
		return c.Execute(workspace, b, ov)
	}
	if err := s.begin(); err != nil {
		return err
	}
	defer s.end()
	if s.m != c.s.m {
		return status.BadParam("the execution plan was built on plugins that have since been reloaded; hipdnnHandles created after the reload cannot run it")
	}
	h := s.handles[c.e.Plugin.index]
	if h == 0 {
		return status.Plugin("plugin %s has no plugin handle in this hipdnnHandle (hipdnnEnginePluginCreate failed), so engine %s cannot run here",
			c.e.Plugin.Name, c.e.Name)
	}
	if !c.enter() {
		return c.gone()
	}
	err := c.execute(h, workspace, b, ov)
	c.exit()
	return err
}

func (c *Context) execute(h, workspace uintptr, b *Buffers, ov *Overrides) error {
	if err := c.admit(workspace, b); err != nil {
		return err
	}
	var arr, n uintptr
	if b != nil {
		arr, n = uintptr(unsafe.Pointer(b.arr)), uintptr(b.n)
	}
	var r C.hd_result
	if ov.Len() > 0 {
		if err := c.overridesUsable(); err != nil {
			return err
		}
		r = C.hd_execute_overrides(C.uintptr_t(c.tblAddr), C.uintptr_t(h), C.uintptr_t(c.ctx),
			C.uintptr_t(workspace), C.uintptr_t(arr), C.uint32_t(n), C.uintptr_t(uintptr(unsafe.Pointer(ov.ov))))
	} else {
		r = C.hd_execute(C.uintptr_t(c.tblAddr), C.uintptr_t(h), C.uintptr_t(c.ctx),
			C.uintptr_t(workspace), C.uintptr_t(arr), C.uint32_t(n))
	}
	if r.status == 0 {
		return nil
	}
	return c.executeFailure(r)
}

// overridesUsable says why overrides cannot be dispatched, if they cannot.
func (c *Context) overridesUsable() error {
	p := c.e.Plugin
	switch {
	case !c.overrides:
		return status.NotSupported("execute-time shape overrides: the execution plan for engine %s was built from a graph without is_override_shape_enabled",
			c.e.Name)
	case p.APIVersion.Less(apiOverride):
		return status.NotSupported("execute-time shape overrides: plugin %s reports engine API version %s, overrides need %s or later",
			p.Name, p.APIVersion, apiOverride)
	case !p.overrides:
		return status.NotSupported("execute-time shape overrides: plugin %s does not export hipdnnEnginePluginExecuteOpGraphWithOverrides",
			p.Name)
	}
	return nil
}

func (c *Context) executeFailure(r C.hd_result) error {
	text := ""
	if r.err != nil {
		text = C.GoString(r.err)
		C.free(unsafe.Pointer(r.err))
	}
	return c.ExecuteFailure(int(r.status), text)
}

// ExecuteFailure is the PLUGIN_ERROR of a failed plugin execute, text being the plugin's last
// error; the C fast path reports its failures through it too, so both paths say the same.
func (c *Context) ExecuteFailure(st int, text string) error {
	return status.Plugin("%s: Failed to execute engine %s. Status: %s(%d), Error: %s",
		c.e.Plugin.Name, c.e.Name, PluginStatusName(st), st, text)
}

// workspacePointer turns the caller's workspace address back into the pointer it was (it came
// from C as a void*), for the HIP pointer query.
func workspacePointer(p uintptr) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Pointer(&p))
}

// directExecute is the benchmark baseline: the bare cgo call to the trampoline, with none of
// Execute's checks.
func (c *Context) directExecute(workspace uintptr, b *Buffers) int {
	r := C.hd_execute(C.uintptr_t(c.tblAddr), C.uintptr_t(c.h), C.uintptr_t(c.ctx), C.uintptr_t(workspace),
		C.uintptr_t(uintptr(unsafe.Pointer(b.arr))), C.uint32_t(b.n))
	if r.err != nil {
		C.free(unsafe.Pointer(r.err))
	}
	return int(r.status)
}

// executeLoop is the C-only baseline: iterations plugin calls made from C in one cgo call.
func (c *Context) executeLoop(workspace uintptr, b *Buffers, iterations int64) int {
	return int(C.hd_execute_loop(C.uintptr_t(c.tblAddr), C.uintptr_t(c.h), C.uintptr_t(c.ctx), C.uintptr_t(workspace),
		C.uintptr_t(uintptr(unsafe.Pointer(b.arr))), C.uint32_t(b.n), C.int64_t(iterations)))
}
