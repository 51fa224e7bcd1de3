// Package profiling times work submitted to a stream, for
// HIPDNN_BACKEND_PROFILING_CONTROL_EXT. With a GPU runtime a Timer records events on the
// stream; with none, host-memory engines run synchronously, so the host clock measures the
// same thing and timing works on CPU-only machines too.
package profiling

import (
	"fmt"
	"math"
	"time"

	"github.com/hipdnn-go/backend/hip"
)

// Timer measures the time between Start and Stop on one stream.
type Timer struct {
	rt                  *hip.Runtime
	start, stop         hip.Event
	events              bool // start and stop are live events of rt
	hostStart, hostStop time.Time
}

// New returns a timer for the process's GPU runtime, or a host-clock timer without one.
func New() (*Timer, error) {
	t := &Timer{rt: hip.Default()}
	if t.rt.Kind() == hip.KindNone {
		return t, nil
	}
	var err error
	if t.start, err = t.rt.EventCreate(); err != nil {
		return nil, fmt.Errorf("creating the start event failed: %v", err)
	}
	if t.stop, err = t.rt.EventCreate(); err != nil {
		_ = t.rt.EventDestroy(t.start)
		return nil, fmt.Errorf("creating the stop event failed: %v", err)
	}
	t.events = true
	return t, nil
}

// Start marks the beginning on stream.
func (t *Timer) Start(stream uintptr) error {
	if !t.events {
		t.hostStart = time.Now()
		return nil
	}
	if err := t.rt.EventRecord(t.start, stream); err != nil {
		return fmt.Errorf("recording the start event failed: %v", err)
	}
	return nil
}

// Stop marks the end on stream.
func (t *Timer) Stop(stream uintptr) error {
	if !t.events {
		t.hostStop = time.Now()
		return nil
	}
	if err := t.rt.EventRecord(t.stop, stream); err != nil {
		return fmt.Errorf("recording the stop event failed: %v", err)
	}
	return nil
}

// ElapsedMs waits for the stop mark and returns the milliseconds between the marks.
func (t *Timer) ElapsedMs() (float32, error) {
	if !t.events {
		return float32(t.hostStop.Sub(t.hostStart).Seconds() * 1e3), nil
	}
	if err := t.rt.EventSynchronize(t.stop); err != nil {
		return 0, fmt.Errorf("waiting for the stop event: %v", err)
	}
	ms, err := t.rt.EventElapsedMs(t.start, t.stop)
	if err != nil {
		return 0, fmt.Errorf("elapsed time: %v", err)
	}
	if math.IsNaN(float64(ms)) || math.IsInf(float64(ms), 0) || ms < 0 {
		return 0, fmt.Errorf("elapsed time %v is not a valid duration", ms)
	}
	return ms, nil
}

// Close releases the events; the timer is not used afterwards.
func (t *Timer) Close() {
	if t != nil && t.events {
		_ = t.rt.EventDestroy(t.start)
		_ = t.rt.EventDestroy(t.stop)
		t.events = false
	}
}

// DeviceSynchronize waits for all work on the current device; without a device nothing is in
// flight.
func DeviceSynchronize() error {
	rt := hip.Default()
	if rt.Kind() == hip.KindNone {
		return nil
	}
	return rt.DeviceSynchronize()
}
