// Package handle implements hipdnnHandle_t: the stream work is enqueued on, and this handle's
// plugin handles (one per engine plugin and per heuristic module) on top of the process-wide
// plugin managers.
//
// Concurrency: a Handle may be used by many threads at once (each executing its own plans);
// SetStream racing with Execute on the same handle is the caller's race, as in AMD's backend
// (the stream is read atomically, so the race is benign for us).
package handle

import (
	"sync/atomic"

	"github.com/hipdnn-go/backend/hip"
	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/logging"
	"github.com/hipdnn-go/backend/internal/registry"
	"github.com/hipdnn-go/backend/internal/status"
)

// Handle is one hipdnnHandle_t.
type Handle struct {
	token  uintptr
	stream atomic.Uintptr
	closed atomic.Bool
	plugins
}

// New creates a handle, loading plugins if no plugin set is alive, and registers its token.
// loadErrs are plugin load failures: hipdnnCreate still succeeds and reports them in the last
// error, as AMD's does.
func New() (h *Handle, loadErrs []error, err error) {
	h = &Handle{}
	loadErrs, err = h.plugins.open()
	if err != nil {
		return nil, loadErrs, err
	}
	h.token = registry.Save(registry.KindHandle, h)
	return h, loadErrs, nil
}

// Resolve returns the live handle a C token names.
func Resolve(tok uintptr) (*Handle, error) {
	if tok == 0 {
		return nil, status.NullPointer("hipdnnHandle_t is NULL")
	}
	v, err := registry.Lookup(tok, registry.KindHandle)
	if err != nil {
		return nil, status.BadParam("hipdnnHandle_t %#x %v", tok, err)
	}
	return v.(*Handle), nil
}

// Destroy releases a handle token and the handle's plugin handles.
func Destroy(tok uintptr) error {
	if tok == 0 {
		return status.NullPointer("hipdnnHandle_t is NULL")
	}
	v, err := registry.Release(tok, registry.KindHandle)
	if err != nil {
		return status.BadParam("hipdnnHandle_t %#x %v", tok, err)
	}
	h := v.(*Handle)
	h.closed.Store(true)
	h.plugins.close()
	return nil
}

// Token is the C value of the handle.
func (h *Handle) Token() uintptr { return h.token }

// Closed reports whether hipdnnDestroy was called on the handle; descriptors that still
// reference it must refuse to use it.
func (h *Handle) Closed() bool { return h.closed.Load() }

// Stream returns the stream set by hipdnnSetStream (0: the default stream).
func (h *Handle) Stream() uintptr { return h.stream.Load() }

// SetStream stores the stream and forwards it to every plugin handle of this handle. With INFO
// logging on, it logs the device the stream belongs to, as AMD's backend does.
func (h *Handle) SetStream(s uintptr) error {
	h.stream.Store(s)
	if logging.Enabled(api.HIPDNN_SEV_INFO) {
		logStreamDevice(s)
	}
	return h.plugins.setStream(s)
}

func logStreamDevice(s uintptr) {
	if !hip.InUse() {
		// Asking would start a GPU runtime; a process that made a GPU stream has one loaded.
		logging.Infof("hipdnnSetStream: stream %#x, no GPU driver loaded in the process: host engines only", s)
		return
	}
	rt := hip.Default()
	if rt.Kind() == hip.KindNone {
		logging.Infof("hipdnnSetStream: stream %#x, no GPU runtime (%s): host engines only", s, rt.Reason())
		return
	}
	dev, err := rt.StreamDevice(s)
	if err != nil {
		logging.Infof("hipdnnSetStream: stream %#x: device unknown: %v", s, err)
		return
	}
	p, err := rt.DeviceProperties(dev)
	if err != nil {
		logging.Infof("hipdnnSetStream: stream %#x on device %d: properties unknown: %v", s, dev, err)
		return
	}
	logging.Infof("hipdnnSetStream: stream %#x on %s device %d %q (%s), %d compute units, %d MiB, clock %d MHz, compute capability %d.%d",
		s, rt.Kind(), dev, p.Name, p.Arch, p.MultiProcessorCount, p.TotalGlobalMem>>20, p.ClockRateKHz/1000, p.ComputeMajor, p.ComputeMinor)
}
