package engines

// The C fast path of hipdnnBackendExecute (hd_fast.c): finalized plans and variant packs are
// published by token, so a plain execute runs without entering Go. It serves only (plan, pack)
// pairs the Go path has checked (pack_check.go); anything else (the first execute of a pair,
// logging at INFO, overrides, a handle other than the plan's, an unknown token) is left to the
// Go path, which checks everything and writes the messages.

/*
#cgo CFLAGS: -I${SRCDIR}/../../include -O2
#include "shim.h"
*/
import "C"

import (
	"sync"
	"unsafe"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/logging"
)

// fastRef is one published (token, entry) pair.
type fastRef struct{ token, entry uintptr }

// fastRefs are the pairs an object published; retire clears them once, after which nothing
// more can be published (the object's C resources are about to go).
type fastRefs struct {
	mu      sync.Mutex
	refs    []fastRef
	retired bool
}

func (f *fastRefs) add(publish func() uintptr, token uintptr) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.retired {
		return
	}
	if e := publish(); e != 0 {
		f.refs = append(f.refs, fastRef{token, e})
	}
}

// retire unpublishes every pair and waits until no fast call uses them.
func (f *fastRefs) retire() {
	f.mu.Lock()
	refs := f.refs
	f.refs, f.retired = nil, true
	f.mu.Unlock()
	for _, r := range refs {
		C.hd_fast_retire(C.uintptr_t(r.token), C.uintptr_t(r.entry))
	}
}

var quietHook sync.Once

// watchQuiet tells the fast path whether INFO logging is off (an Execute at INFO owes its
// "API called" lines, so it takes the Go path) and keeps it current across level changes.
func watchQuiet() {
	quietHook.Do(func() {
		logging.WatchLevel(func(l api.Severity) { C.hd_fast_set_quiet(boolInt(l != api.HIPDNN_SEV_INFO)) })
	})
}

func boolInt(b bool) C.int {
	if b {
		return 1
	}
	return 0
}

// PublishFast lets hipdnnBackendExecute(handleToken, planToken, ·) run this context in C, for
// variant packs that passed its checks. Nothing is published once the context is being
// destroyed.
func (c *Context) PublishFast(planToken, handleToken uintptr) {
	watchQuiet()
	c.fast.add(func() uintptr {
		return uintptr(C.hd_fast_publish_plan(C.uintptr_t(planToken), C.uintptr_t(handleToken), C.uintptr_t(c.tblAddr),
			C.uintptr_t(c.h), C.uintptr_t(c.ctx), C.uint64_t(c.id)))
	}, planToken)
}

// PublishFast lets the fast path use these buffers, with their workspace, under a variant
// pack's token.
func (b *Buffers) PublishFast(packToken uintptr) {
	if b == nil || b.arr == nil {
		return
	}
	watchQuiet()
	b.fast.add(func() uintptr {
		return uintptr(C.hd_fast_publish_pack(C.uintptr_t(packToken), C.uintptr_t(uintptr(unsafe.Pointer(b.arr))),
			C.uint32_t(b.n), C.uintptr_t(b.ws), C.uintptr_t(uintptr(unsafe.Pointer(b.verdicts)))))
	}, packToken)
}

// RetireFast unpublishes whatever a token published (a descriptor token being destroyed) and
// waits for fast calls using it. Tokens that published nothing cost one lock-free lookup.
func RetireFast(token uintptr) {
	if C.hd_fast_published(C.uintptr_t(token)) != 0 {
		C.hd_fast_retire(C.uintptr_t(token), 0)
	}
}
