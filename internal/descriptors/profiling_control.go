package descriptors

import (
	"math"
	"time"

	"github.com/hipdnn-go/backend/hip"
	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/handle"
	"github.com/hipdnn-go/backend/internal/status"
)

// ProfilingControl is HIPDNN_BACKEND_PROFILING_CONTROL_EXT: times work on a handle's stream
// between a START and a STOP trigger. With a GPU runtime it records HIP events on the stream;
// with none (host-memory engines run synchronously) it reads the host clock, so timing works
// on CPU-only machines too. Finalize waits for the stop and computes ELAPSED_MS.
type ProfilingControl struct {
	Header
	handle      *handle.Handle
	rt          *hip.Runtime
	start, stop hip.Event
	events      bool
	hostStart   time.Time
	hostStop    time.Time
	started     bool
	stopped     bool
	elapsedMs   float32
}

var _ = register(&KindSpec{
	Kind:             api.HIPDNN_BACKEND_PROFILING_CONTROL_EXT,
	Class:            "ProfilingControlDescriptor",
	RejectRefinalize: true,
	New:              func(k *KindSpec) Object { p := &ProfilingControl{}; k.init(&p.Header); return p },
	Release:          func(o Object) { o.(*ProfilingControl).destroyEvents() },
	Attrs: []*Attr{
		{Name: api.HIPDNN_ATTR_PROFILING_HANDLE_EXT, Type: api.HIPDNN_TYPE_HANDLE, Min: 1, Max: 1, Settable: true,
			OnSet: setProfilingHandle, IsSet: func(o Object) bool { return o.(*ProfilingControl).handle != nil }},
		{Name: api.HIPDNN_ATTR_PROFILING_START_EXT, Type: api.HIPDNN_TYPE_BOOLEAN, Min: 1, Max: 1, Settable: true, OnSet: profilingStart},
		{Name: api.HIPDNN_ATTR_PROFILING_STOP_EXT, Type: api.HIPDNN_TYPE_BOOLEAN, Min: 1, Max: 1, Settable: true, OnSet: profilingStop},
		{Name: api.HIPDNN_ATTR_PROFILING_DEVICE_SYNC_EXT, Type: api.HIPDNN_TYPE_BOOLEAN, Min: 1, Max: 1, Settable: true,
			OnSet: func(Object, *Value) error {
				rt := hip.Default()
				if rt.Kind() == hip.KindNone {
					return nil // no device: nothing is in flight
				}
				if err := rt.DeviceSynchronize(); err != nil {
					return status.Internal("ProfilingControlDescriptor: device synchronize failed: %v", err)
				}
				return nil
			}},
		{Name: api.HIPDNN_ATTR_PROFILING_ELAPSED_MS_EXT, Type: api.HIPDNN_TYPE_FLOAT, Max: 1, Gettable: true,
			Compute: func(o Object) (Value, error) {
				return Value{Set: true, Type: api.HIPDNN_TYPE_FLOAT, F: float64(o.(*ProfilingControl).elapsedMs)}, nil
			}},
	},
	Finalize: finalizeProfiling,
})

func setProfilingHandle(o Object, v *Value) error {
	p := o.(*ProfilingControl)
	p.destroyEvents()
	p.handle, p.rt = v.Handle(), hip.Default()
	p.started, p.stopped = false, false
	if p.rt.Kind() == hip.KindNone {
		return nil
	}
	var err error
	if p.start, err = p.rt.EventCreate(); err != nil {
		return status.Internal("ProfilingControlDescriptor: creating the start event failed: %v", err)
	}
	if p.stop, err = p.rt.EventCreate(); err != nil {
		_ = p.rt.EventDestroy(p.start)
		return status.Internal("ProfilingControlDescriptor: creating the stop event failed: %v", err)
	}
	p.events = true
	return nil
}

func profilingStart(o Object, _ *Value) error {
	p := o.(*ProfilingControl)
	switch {
	case p.handle == nil:
		return status.BadParam("ProfilingControlDescriptor: set HIPDNN_ATTR_PROFILING_HANDLE_EXT before START")
	case p.started:
		return status.BadParam("ProfilingControlDescriptor: START was already recorded")
	}
	if p.events {
		if err := p.rt.EventRecord(p.start, p.handle.Stream()); err != nil {
			return status.Internal("ProfilingControlDescriptor: recording the start event failed: %v", err)
		}
	} else {
		p.hostStart = time.Now()
	}
	p.started = true
	return nil
}

func profilingStop(o Object, _ *Value) error {
	p := o.(*ProfilingControl)
	switch {
	case p.handle == nil:
		return status.BadParam("ProfilingControlDescriptor: set HIPDNN_ATTR_PROFILING_HANDLE_EXT before STOP")
	case !p.started:
		return status.BadParam("ProfilingControlDescriptor: STOP before START")
	case p.stopped:
		return status.BadParam("ProfilingControlDescriptor: STOP was already recorded")
	}
	if p.events {
		if err := p.rt.EventRecord(p.stop, p.handle.Stream()); err != nil {
			return status.Internal("ProfilingControlDescriptor: recording the stop event failed: %v", err)
		}
	} else {
		p.hostStop = time.Now()
	}
	p.stopped = true
	return nil
}

func finalizeProfiling(o Object) error {
	p := o.(*ProfilingControl)
	if !p.started || !p.stopped {
		return stepf(status.BadParam, "START and STOP must both be recorded")
	}
	if !p.events {
		p.elapsedMs = float32(p.hostStop.Sub(p.hostStart).Seconds() * 1e3)
		return nil
	}
	if err := p.rt.EventSynchronize(p.stop); err != nil {
		return stepf(status.Internal, "waiting for the stop event: %v", err)
	}
	ms, err := p.rt.EventElapsedMs(p.start, p.stop)
	if err != nil {
		return stepf(status.Internal, "elapsed time: %v", err)
	}
	if math.IsNaN(float64(ms)) || math.IsInf(float64(ms), 0) || ms < 0 {
		return stepf(status.Internal, "elapsed time %v is not a valid duration", ms)
	}
	p.elapsedMs = ms
	return nil
}

func (p *ProfilingControl) destroyEvents() {
	if p.events {
		_ = p.rt.EventDestroy(p.start)
		_ = p.rt.EventDestroy(p.stop)
		p.events = false
	}
}
