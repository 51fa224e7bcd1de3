package engines

// The checks a (plan, pack) pair passes before its first execute: every tensor the plan reads
// or writes has a non-NULL pointer, the workspace is there when the plan needs one, pointers
// are aligned as their tensors require, and every pointer is memory the engine can reach.
// They run once per pair, on the Go path; the pair is then remembered in the pack's verdicts
// (C memory), and both Execute paths skip straight to the plugin for it. The C fast path
// (hd_fast.c) serves only pairs remembered there: it has no checks of its own to keep in step.

/*
#cgo CFLAGS: -I${SRCDIR}/../../include
#include "shim.h"
*/
import "C"

import (
	"fmt"
	"sync/atomic"
	"unsafe"

	"github.com/hipdnn-go/backend/hip"
	"github.com/hipdnn-go/backend/internal/status"
)

// PlanTensor is what Execute checks of one tensor of a plan's graph.
type PlanTensor struct {
	UID       int64
	Alignment int64  // bytes the pointer must be aligned to; <= 1: any
	Role      string // names the tensor in messages, e.g. ` ("X", x of node "conv")`
	Required  bool   // every variant pack must give it a non-NULL pointer
	HostValue bool   // a runtime pass-by-value scalar: a host pointer, whatever the engine
}

// contextIDs numbers contexts for the verdicts; ids are never reused, so a verdict about a
// destroyed context can never vouch for a new one.
var contextIDs atomic.Uint64

const verdictSlots = int(C.HD_VERDICTS)

// verdictWords views the pack's verdict slots for atomic access.
func (b *Buffers) verdictWords() *[verdictSlots]uint64 {
	return (*[verdictSlots]uint64)(unsafe.Pointer(&b.verdicts.ctx[0]))
}

// passed reports whether the pack passed the checks of context id with its own workspace.
func (b *Buffers) passed(id uint64) bool {
	if b == nil || b.verdicts == nil {
		return false
	}
	w := b.verdictWords()
	for i := range w {
		if atomic.LoadUint64(&w[i]) == id {
			return true
		}
	}
	return false
}

// remember records that the pack passed the checks of context id; the oldest of the slots
// gives way, so a pack shared by many plans is re-checked, never wrongly passed.
func (b *Buffers) remember(id uint64) {
	if b == nil || b.verdicts == nil {
		return
	}
	n := atomic.AddUint32((*uint32)(unsafe.Pointer(&b.verdicts.next)), 1)
	atomic.StoreUint64(&b.verdictWords()[(n-1)%uint32(verdictSlots)], id)
}

// tensor returns the plan's tensor uid, or nil.
func (c *Context) tensor(uid int64) *PlanTensor {
	for i := range c.tensors {
		if c.tensors[i].UID == uid {
			return &c.tensors[i]
		}
	}
	return nil
}

// admit runs the checks of a (plan, pack) pair unless the pack remembers passing them. It does
// not allocate once the pair is remembered.
func (c *Context) admit(workspace uintptr, b *Buffers) error {
	own := workspace == b.workspace()
	if own && b.passed(c.id) {
		return nil
	}
	if err := c.check(workspace, b, false); err != nil {
		return err
	}
	if own {
		b.remember(c.id)
		lastAdmitted.Store(c)
	}
	return nil
}

// lastAdmitted is the context that last admitted a new pair on the Go path: the plan a newly
// finalized pack is most likely made for.
var lastAdmitted atomic.Pointer[Context]

// Precheck runs the checks of a newly finalized pack against the context that last admitted a
// new pair, and remembers the verdict when they pass. A program that makes a pack per execute
// (cudnn-frontend does) then takes the C fast path on each pack's first execute, without any
// check leaving Go. A pack made for another plan fails here quietly, without building a
// message, and is checked on its first execute as before.
func (b *Buffers) Precheck() {
	c := lastAdmitted.Load()
	if c == nil || b == nil || b.verdicts == nil {
		return
	}
	if c.check(b.workspace(), b, true) == nil {
		b.remember(c.id)
	}
}

// forget drops c as the precheck's context; a destroyed context is never the likely plan.
func (c *Context) forget() { lastAdmitted.CompareAndSwap(c, nil) }

// errRefused is a quiet check's refusal: the reason is not built, only that there is one.
var errRefused = status.BadParam("variant pack refused")

// check is every test of the pair, in order: required tensors, workspace, alignment, memory.
// A quiet check returns errRefused instead of the message.
func (c *Context) check(workspace uintptr, b *Buffers, quiet bool) error {
	refuse := func(format string, args ...any) error {
		if quiet {
			return errRefused
		}
		return status.BadParam(format, args...)
	}
	entries := b.entries()
	for i := range c.tensors {
		t := &c.tensors[i]
		if !t.Required {
			continue
		}
		j := b.find(t.UID)
		switch {
		case j < 0:
			return refuse("variant pack: no pointer for tensor uid %d%s, which the plan for engine %s reads or writes",
				t.UID, t.Role, c.e.Name)
		case entries[j].ptr == 0:
			return refuse("variant pack: the pointer for tensor uid %d%s is NULL", t.UID, t.Role)
		}
	}
	if c.workspace > 0 && workspace == 0 {
		return refuse("variant pack: the workspace is NULL, but the plan for engine %s needs %d bytes",
			c.e.Name, c.workspace)
	}
	for i := range entries {
		p := entries[i].ptr
		if p == 0 {
			continue
		}
		if t := c.tensor(entries[i].uid); t != nil && t.Alignment > 1 && p%uintptr(t.Alignment) != 0 {
			return refuse("variant pack: the pointer %#x for tensor uid %d is not aligned to %d bytes",
				p, entries[i].uid, t.Alignment)
		}
	}
	return c.checkMemory(workspace, b, refuse)
}

// checkMemory refuses pointers the engine cannot reach. Without a GPU runtime every pointer is
// host memory and nothing is checked.
func (c *Context) checkMemory(workspace uintptr, b *Buffers, refuse func(string, ...any) error) error {
	rt := gpuRuntime()
	if rt == nil || rt.Kind() == hip.KindNone {
		return nil
	}
	var classes []pointerClass
	var ws pointerClass
	if b != nil {
		classes, ws = b.mem.classify(rt, b)
	}
	entries := b.entries()
	for i := range entries {
		if entries[i].ptr == 0 {
			continue
		}
		uid := entries[i].uid
		role, hostValue := "", false
		if t := c.tensor(uid); t != nil {
			role, hostValue = t.Role, t.HostValue
		}
		if why := c.refusal(classes[i], hostValue); why != "" {
			return refuse("variant pack: the pointer %#x for tensor uid %d%s %s", entries[i].ptr, uid, role, why)
		}
	}
	if workspace != 0 {
		if workspace != b.workspace() {
			ws.info, ws.err = rt.PointerInfo(workspacePointer(workspace))
		}
		if why := c.refusal(ws, false); why != "" {
			return refuse("variant pack: the workspace pointer %#x %s", workspace, why)
		}
	}
	return nil
}

// refusal says why the engine cannot take memory of class cl; "" when it can.
func (c *Context) refusal(cl pointerClass, hostValue bool) string {
	if cl.err != nil {
		return fmt.Sprintf("could not be classified by the GPU runtime (%v)", cl.err)
	}
	k := kindOf(cl.info.Kind)
	switch {
	case hostValue && k == MemoryDevice:
		return "is device memory; a pass-by-value scalar is read on the host"
	case hostValue:
		return ""
	case k&c.e.Memory == 0:
		return fmt.Sprintf("is %s memory; engine %s accepts %s memory", cl.info.Kind, c.e.Name, c.e.Memory)
	case k == MemoryDevice && c.device >= 0 && cl.info.Device != c.device:
		return fmt.Sprintf("is memory of device %d; engine %s runs this plan on device %d", cl.info.Device, c.e.Name, c.device)
	}
	return ""
}
