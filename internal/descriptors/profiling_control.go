package descriptors

import (
	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/handle"
	"github.com/hipdnn-go/backend/internal/profiling"
	"github.com/hipdnn-go/backend/internal/status"
)

// ProfilingControl is HIPDNN_BACKEND_PROFILING_CONTROL_EXT: times work on a handle's stream
// between a START and a STOP trigger (internal/profiling: GPU events, or the host clock when
// there is no GPU runtime). Finalize waits for the stop and computes ELAPSED_MS.
type ProfilingControl struct {
	Header
	handle    *handle.Handle
	timer     *profiling.Timer
	started   bool
	stopped   bool
	elapsedMs float32
}

var _ = register(&KindSpec{
	Kind:             api.HIPDNN_BACKEND_PROFILING_CONTROL_EXT,
	Class:            "ProfilingControlDescriptor",
	RejectRefinalize: true,
	New:              func(k *KindSpec) Object { p := &ProfilingControl{}; k.init(&p.Header); return p },
	Release:          func(o Object) { o.(*ProfilingControl).closeTimer() },
	Attrs: []*Attr{
		{Name: api.HIPDNN_ATTR_PROFILING_HANDLE_EXT, Type: api.HIPDNN_TYPE_HANDLE, Min: 1, Max: 1, Settable: true,
			OnSet: setProfilingHandle, IsSet: func(o Object) bool { return o.(*ProfilingControl).handle != nil }},
		{Name: api.HIPDNN_ATTR_PROFILING_START_EXT, Type: api.HIPDNN_TYPE_BOOLEAN, Min: 1, Max: 1, Settable: true, OnSet: profilingStart},
		{Name: api.HIPDNN_ATTR_PROFILING_STOP_EXT, Type: api.HIPDNN_TYPE_BOOLEAN, Min: 1, Max: 1, Settable: true, OnSet: profilingStop},
		{Name: api.HIPDNN_ATTR_PROFILING_DEVICE_SYNC_EXT, Type: api.HIPDNN_TYPE_BOOLEAN, Min: 1, Max: 1, Settable: true,
			OnSet: func(Object, *Value) error {
				if err := profiling.DeviceSynchronize(); err != nil {
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
	p.closeTimer()
	p.handle = v.Handle()
	p.started, p.stopped = false, false
	t, err := profiling.New()
	if err != nil {
		return status.Internal("ProfilingControlDescriptor: %v", err)
	}
	p.timer = t
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
	if err := p.timer.Start(p.handle.Stream()); err != nil {
		return status.Internal("ProfilingControlDescriptor: %v", err)
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
	if err := p.timer.Stop(p.handle.Stream()); err != nil {
		return status.Internal("ProfilingControlDescriptor: %v", err)
	}
	p.stopped = true
	return nil
}

func finalizeProfiling(o Object) error {
	p := o.(*ProfilingControl)
	if !p.started || !p.stopped {
		return stepf(status.BadParam, "START and STOP must both be recorded")
	}
	ms, err := p.timer.ElapsedMs()
	if err != nil {
		return stepf(status.Internal, "%v", err)
	}
	p.elapsedMs = ms
	return nil
}

func (p *ProfilingControl) closeTimer() {
	p.timer.Close()
	p.timer = nil
}
