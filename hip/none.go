package hip

import "unsafe"

// noneDriver is the runtime of a machine without a GPU stack, or of HIPDNN_HIP_RUNTIME=none:
// there are no devices, every pointer is host memory, and every device operation fails with an
// error that wraps ErrNoRuntime and carries the Runtime's Reason.
type noneDriver struct {
	reason string
}

// newNone makes a KindNone Runtime with the given reason.
func newNone(reason string) *Runtime {
	return &Runtime{kind: KindNone, reason: reason, drv: noneDriver{reason: reason}}
}

func (d noneDriver) err(op string) error { return &noRuntimeError{op: op, reason: d.reason} }

func (d noneDriver) deviceCount() (int, error)   { return 0, nil }
func (d noneDriver) currentDevice() (int, error) { return 0, d.err("CurrentDevice") }

func (d noneDriver) deviceProperties(int) (DeviceProperties, error) {
	return DeviceProperties{}, d.err("DeviceProperties")
}

func (d noneDriver) streamDevice(uintptr) (int, error) { return 0, d.err("StreamDevice") }
func (d noneDriver) streamSynchronize(uintptr) error   { return d.err("StreamSynchronize") }

func (d noneDriver) pointerInfo(unsafe.Pointer) (PointerInfo, error) { return PointerInfo{}, nil }

func (d noneDriver) malloc(uintptr) (unsafe.Pointer, error) { return nil, d.err("Malloc") }
func (d noneDriver) free(unsafe.Pointer) error              { return d.err("Free") }

func (d noneDriver) memcpy(_, _ unsafe.Pointer, _ uintptr, kind copyKind) error {
	if kind == copyHostToDevice {
		return d.err("MemcpyHtoD")
	}
	return d.err("MemcpyDtoH")
}

func (d noneDriver) deviceSynchronize() error { return d.err("DeviceSynchronize") }
func (d noneDriver) eventCreate() (Event, error) {
	return Event{}, d.err("EventCreate")
}
func (d noneDriver) eventRecord(Event, uintptr) error { return d.err("EventRecord") }
func (d noneDriver) eventSynchronize(Event) error     { return d.err("EventSynchronize") }
func (d noneDriver) eventElapsedMs(Event, Event) (float32, error) {
	return 0, d.err("EventElapsedMs")
}
func (d noneDriver) eventDestroy(Event) error { return d.err("EventDestroy") }
