// Package registry maps the opaque pointers handed to C callers (hipdnnHandle_t,
// hipdnnBackendDescriptor_t) to Go objects.
//
// Tokens come from github.com/mattn/go-pointer: each is a distinct 1-byte C allocation, so C
// sees a real, unique pointer and never a Go pointer (cgo rules). Lookups do not go through
// go-pointer's single RWMutex: the registry mirrors live entries in a sync.Map, whose loads
// take no lock, because every Execute resolves three tokens and many threads may execute at once.
//
// Each entry records its Kind, and Lookup checks it, so a descriptor passed where a handle is
// expected is an error rather than a type confusion. A released token stays in the registry,
// marked destroyed, until Quarantine newer releases have happened; only then is its 1-byte
// allocation freed (and possibly reused by malloc). Within that window a destroyed or
// double-destroyed token is reported as destroyed; after it, as unknown. A token that was never
// handed out is never dereferenced: it is only a map key.
//
// Tokens are uintptr on the Go side, never pointer-typed: a C caller may pass any value as a
// handle (1, a stale address, a Go heap address), and a pointer-typed Go variable holding such a
// value can make the garbage collector or the stack copier abort the process ("invalid pointer
// found on stack"). capi/ therefore receives handles as uintptr_t through C forwarders.
package registry

import (
	"errors"
	"sync"
	"sync/atomic"
	"unsafe"

	pointer "github.com/mattn/go-pointer"
)

// Kind tells what a token names.
type Kind uint8

const (
	KindHandle     Kind = 1 // hipdnnHandle_t
	KindDescriptor Kind = 2 // hipdnnBackendDescriptor_t
)

// Quarantine is how many released tokens are kept (marked destroyed) before their memory is
// returned to malloc. A bigger window detects stale tokens longer and costs ~100 bytes each.
const Quarantine = 1 << 14

// Lookup failures. Callers turn them into BAD_PARAM with the function and argument name.
var (
	ErrUnknown   = errors.New("was never created or was destroyed long ago")
	ErrDestroyed = errors.New("was already destroyed")
	ErrWrongKind = errors.New("names an object of another kind")
)

type entry struct {
	self unsafe.Pointer // the go-pointer allocation behind the token, freed at eviction
	kind Kind
	obj  any
	dead atomic.Bool
}

var (
	live sync.Map // uintptr token -> *entry

	quarantineMu sync.Mutex
	quarantine   [Quarantine]uintptr
	qHead, qLen  int

	counts [3]atomic.Int64 // live entries per Kind
)

// Save registers obj under a new token.
func Save(kind Kind, obj any) uintptr {
	e := &entry{kind: kind, obj: obj}
	e.self = pointer.Save(e)
	tok := uintptr(e.self)
	live.Store(tok, e)
	counts[kind].Add(1)
	return tok
}

// Lookup returns the object a token names if it is live and of the given kind.
// It does not allocate and takes no lock.
func Lookup(tok uintptr, kind Kind) (any, error) {
	v, ok := live.Load(tok)
	if !ok {
		return nil, ErrUnknown
	}
	e := v.(*entry)
	if e.dead.Load() {
		return nil, ErrDestroyed
	}
	if e.kind != kind {
		return nil, ErrWrongKind
	}
	return e.obj, nil
}

// Release marks a token destroyed and returns its object. Exactly one of several concurrent
// releases of the same token succeeds; the others get ErrDestroyed.
func Release(tok uintptr, kind Kind) (any, error) {
	v, ok := live.Load(tok)
	if !ok {
		return nil, ErrUnknown
	}
	e := v.(*entry)
	if e.kind != kind {
		if e.dead.Load() {
			return nil, ErrDestroyed
		}
		return nil, ErrWrongKind
	}
	if !e.dead.CompareAndSwap(false, true) {
		return nil, ErrDestroyed
	}
	counts[kind].Add(-1)
	obj := e.obj
	e.obj = nil
	retire(tok)
	return obj, nil
}

// retire queues a released token and frees the oldest one once the queue is full.
func retire(tok uintptr) {
	quarantineMu.Lock()
	var evict uintptr
	if qLen == Quarantine {
		evict = quarantine[qHead]
		quarantine[qHead] = tok
		qHead = (qHead + 1) % Quarantine
	} else {
		quarantine[(qHead+qLen)%Quarantine] = tok
		qLen++
	}
	quarantineMu.Unlock()
	if evict != 0 {
		if v, ok := live.LoadAndDelete(evict); ok {
			pointer.Unref(v.(*entry).self)
		}
	}
}

// Live reports how many tokens of a kind are live (created and not released).
func Live(kind Kind) int64 { return counts[kind].Load() }
