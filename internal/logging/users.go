package logging

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/hipdnn-go/backend/internal/api"
)

// UserSink delivers one formatted line to a user's callback. capi implements it with a C
// trampoline; a callback that throws is contained there.
type UserSink interface {
	Deliver(sev api.Severity, line string)
}

// UserKey identifies a registration: AMD keys callbacks by (function, user handle).
type UserKey struct{ Callback, Handle uintptr }

// userEntry is one registration. Deliveries hold inflight for reading; removal takes it for
// writing, so when removal returns no delivery to this entry is running or will start.
type userEntry struct {
	key      UserKey
	sink     UserSink
	minLevel api.Severity
	async    bool
	inflight sync.RWMutex // held for reading by every delivery in progress
	removed  atomic.Bool
}

var (
	usersMu sync.Mutex                   // serialises registration changes
	users   atomic.Pointer[[]*userEntry] // copy-on-write snapshot read by every delivery

	asyncOnce  sync.Once
	asyncQueue chan asyncItem

	// deliveringTids marks OS threads currently inside a synchronous user callback, to detect
	// re-entrant logging and self-removal from inside a callback.
	deliveringTids sync.Map // int -> *atomic.Int32
)

type asyncItem struct {
	sev  api.Severity
	line string
	to   []*userEntry
}

// ErrNotRegistered is returned when removing a (callback, handle) pair never registered.
var ErrNotRegistered = errors.New("no user log callback is registered for this (callback, userHandle) pair")

// SetUserCallback registers or updates the sink for key: minLevel OFF removes it (and waits
// for deliveries in flight unless called from inside one of them on this thread).
func SetUserCallback(key UserKey, sink UserSink, minLevel api.Severity, async bool) error {
	usersMu.Lock()
	defer usersMu.Unlock()
	cur := snapshot()
	idx := -1
	for i, e := range cur {
		if e.key == key {
			idx = i
		}
	}
	if minLevel == api.HIPDNN_SEV_OFF {
		if idx < 0 {
			return ErrNotRegistered
		}
		next := append(append([]*userEntry{}, cur[:idx]...), cur[idx+1:]...)
		users.Store(&next)
		retire(cur[idx])
		return nil
	}
	e := &userEntry{key: key, sink: sink, minLevel: minLevel, async: async}
	if async {
		// The queue must exist before the entry is published: a thread that sees the entry
		// sends on asyncQueue (the atomic store below orders the two).
		startAsync()
	}
	next := append([]*userEntry{}, cur...)
	if idx >= 0 {
		old := next[idx]
		next[idx] = e
		users.Store(&next)
		retire(old)
	} else {
		next = append(next, e)
		users.Store(&next)
	}
	return nil
}

// retire stops deliveries to an entry that is no longer registered, including queued async
// ones, and waits for deliveries in progress, unless this thread is inside one (waiting
// would deadlock).
func retire(old *userEntry) {
	old.removed.Store(true)
	if !delivering(syscall.Gettid()) {
		old.inflight.Lock() // returns once deliveries in progress are done
		old.inflight.Unlock()
	}
}

func snapshot() []*userEntry {
	if p := users.Load(); p != nil {
		return *p
	}
	return nil
}

func deliverToUsers(sev api.Severity, line string) {
	list := snapshot()
	if len(list) == 0 {
		return
	}
	var asyncTo []*userEntry
	for _, e := range list {
		if sev < e.minLevel {
			continue
		}
		if e.async {
			asyncTo = append(asyncTo, e)
			continue
		}
		deliverOne(e, sev, line)
	}
	if len(asyncTo) > 0 {
		asyncQueue <- asyncItem{sev: sev, line: line, to: asyncTo} // blocks when full, like AMD
	}
}

func deliverOne(e *userEntry, sev api.Severity, line string) {
	tid := syscall.Gettid()
	mark := markDelivering(tid)
	defer mark.Add(-1)
	e.inflight.RLock()
	defer e.inflight.RUnlock()
	if !e.removed.Load() {
		e.sink.Deliver(sev, line)
	}
}

func markDelivering(tid int) *atomic.Int32 {
	v, ok := deliveringTids.Load(tid)
	if !ok {
		v, _ = deliveringTids.LoadOrStore(tid, new(atomic.Int32))
	}
	c := v.(*atomic.Int32)
	c.Add(1)
	return c
}

func delivering(tid int) bool {
	v, ok := deliveringTids.Load(tid)
	return ok && v.(*atomic.Int32).Load() > 0
}

// startAsync starts the one worker that feeds asynchronous callbacks (8192-entry queue).
func startAsync() {
	asyncOnce.Do(func() {
		asyncQueue = make(chan asyncItem, 8192)
		go func() {
			// Re-entrancy is detected per OS thread, so the worker must stay on one.
			runtime.LockOSThread()
			for it := range asyncQueue {
				for _, e := range it.to {
					deliverOne(e, it.sev, it.line)
				}
			}
		}()
	})
}

// FlushAsync waits until every queued asynchronous delivery has run (tests and shutdown).
func FlushAsync() {
	if asyncQueue == nil {
		return
	}
	done := make(chan struct{})
	e := &userEntry{sink: flushSink(done), minLevel: api.HIPDNN_SEV_INFO}
	asyncQueue <- asyncItem{to: []*userEntry{e}}
	<-done
}

type flushSink chan struct{}

func (f flushSink) Deliver(api.Severity, string) { close(f) }
