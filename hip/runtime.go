package hip

import (
	"fmt"
	"sync"
	"unsafe"
)

// Runtime is one loaded GPU runtime, or none. It is immutable after loading and safe for
// concurrent use; each method makes one call into the runtime (none for KindNone).
type Runtime struct {
	kind   Kind
	path   string
	reason string
	drv    driver
	props  sync.Map // device -> DeviceProperties, filled on first success
}

// DeviceProperties describes one device. Numbers come from attribute queries, never from
// the version-dependent hipDeviceProp_t / cudaDeviceProp layouts (see README.md).
type DeviceProperties struct {
	ID   int
	Name string // marketing name, e.g. "AMD Instinct MI300X", "NVIDIA H200"
	// Arch is the code-object target: gcnArchName on AMD as HIP reports it, target features
	// included ("gfx90a:sramecc+:xnack-"), or "" when it could not be read safely; "sm_90"
	// style from the compute capability on NVIDIA.
	Arch                       string
	MultiProcessorCount        int    // compute units (AMD) or streaming multiprocessors
	TotalGlobalMem             uint64 // bytes
	ClockRateKHz               int    // peak clock
	ComputeMajor, ComputeMinor int    // compute capability; an approximation on AMD
}

// MemoryKind is where a pointer's memory lives.
type MemoryKind int

const (
	// MemoryHost is pageable host memory, unknown to the runtime: a device cannot reach it.
	MemoryHost MemoryKind = iota
	// MemoryDevice is device memory (PointerInfo.Device says which device).
	MemoryDevice
	// MemoryManaged is managed (unified) memory, reachable from host and device.
	MemoryManaged
	// MemoryUnknown is a kind the runtime reported that this layer does not map.
	MemoryUnknown
	// MemoryPinned is page-locked host memory registered with the runtime (hipHostMalloc,
	// hipHostRegister and their CUDA twins).
	MemoryPinned
)

// String returns "host pageable", "host pinned", "device", "managed" or "unknown".
func (m MemoryKind) String() string {
	switch m {
	case MemoryHost:
		return "host pageable"
	case MemoryPinned:
		return "host pinned"
	case MemoryDevice:
		return "device"
	case MemoryManaged:
		return "managed"
	}
	return "unknown"
}

// PointerInfo is what the runtime knows of a pointer.
type PointerInfo struct {
	Kind   MemoryKind
	Device int // the owning device of MemoryDevice memory; 0 otherwise
}

// Event is an opaque runtime event (hipEvent_t / cudaEvent_t). The zero Event is no event.
type Event struct {
	handle unsafe.Pointer
}

// copyKind is hipMemcpyKind / cudaMemcpyKind; the values are the same in both.
type copyKind int

const (
	copyHostToDevice copyKind = 1
	copyDeviceToHost copyKind = 2
)

// driver is one runtime variant: none (none.go) or a loaded library (native.go).
type driver interface {
	deviceCount() (int, error)
	currentDevice() (int, error)
	deviceProperties(device int) (DeviceProperties, error)
	streamDevice(stream uintptr) (int, error)
	streamSynchronize(stream uintptr) error
	pointerInfo(p unsafe.Pointer) (PointerInfo, error)
	malloc(n uintptr) (unsafe.Pointer, error)
	free(p unsafe.Pointer) error
	memcpy(dst, src unsafe.Pointer, n uintptr, kind copyKind) error
	deviceSynchronize() error
	eventCreate() (Event, error)
	eventRecord(e Event, stream uintptr) error
	eventSynchronize(e Event) error
	eventElapsedMs(start, stop Event) (float32, error)
	eventDestroy(e Event) error
}

var (
	defaultOnce    sync.Once
	defaultRuntime *Runtime
)

// Default returns the process's runtime, loading it on the first call (later calls return
// the same value). It honours HIPDNN_HIP_RUNTIME (see EnvRuntime) and never returns nil: when
// nothing loads it is a KindNone runtime whose Reason says what was tried.
func Default() *Runtime {
	defaultOnce.Do(func() { defaultRuntime = fromEnv(defaultConfig()) })
	return defaultRuntime
}

// Load loads one runtime family, ignoring HIPDNN_HIP_RUNTIME, for tests and tools. Load(KindNone)
// always works; a family that fails to load yields KindNone with the failure in Reason. Each
// call makes a new Runtime; the libraries themselves are loaded once per process by dlopen.
func Load(kind Kind) *Runtime {
	return load(kind, defaultConfig(), fmt.Sprintf("Load(%s)", kindConstName(kind)))
}

// Kind returns the runtime family.
func (r *Runtime) Kind() Kind { return r.kind }

// LibraryPath returns the file of the loaded runtime library ("" for KindNone).
func (r *Runtime) LibraryPath() string { return r.path }

// Reason says why this family was chosen, or why loading failed.
func (r *Runtime) Reason() string { return r.reason }

// DeviceCount returns the number of devices; 0 and no error when the runtime reports none,
// and always for KindNone.
func (r *Runtime) DeviceCount() (int, error) { return r.drv.deviceCount() }

// CurrentDevice returns the calling OS thread's current device.
func (r *Runtime) CurrentDevice() (int, error) { return r.drv.currentDevice() }

// DeviceProperties describes a device. The first query of a device costs several runtime
// calls (hundreds of microseconds on CUDA); the answer does not change, so it is kept and
// later queries are a map lookup. Failures are not kept.
func (r *Runtime) DeviceProperties(device int) (DeviceProperties, error) {
	if p, ok := r.props.Load(device); ok {
		return p.(DeviceProperties), nil
	}
	p, err := r.drv.deviceProperties(device)
	if err == nil {
		r.props.Store(device, p)
	}
	return p, err
}

// StreamDevice returns the device a stream belongs to (0 is the default stream; streams are uintptr because sentinel streams such as 0x2 are not valid Go pointers). Where the
// runtime lacks hipStreamGetDevice / cudaStreamGetDevice (CUDA before 12.8, older ROCm) it
// returns the calling thread's current device, which is right for the default stream and for
// streams created on the current device.
func (r *Runtime) StreamDevice(stream uintptr) (int, error) {
	return r.drv.streamDevice(stream)
}

// StreamSynchronize waits for all work queued on stream.
func (r *Runtime) StreamSynchronize(stream uintptr) error {
	return r.drv.streamSynchronize(stream)
}

// PointerInfo says where p's memory lives and, for device memory, on which device.
// Unregistered host memory is MemoryHost: CUDA reports it as cudaMemoryTypeUnregistered,
// ROCm 5 as hipErrorInvalidValue, which is cleared. A runtime that answers "no device" reports
// MemoryHost too, as KindNone does for every pointer. It makes one runtime call and does not
// allocate.
func (r *Runtime) PointerInfo(p unsafe.Pointer) (PointerInfo, error) { return r.drv.pointerInfo(p) }

// Malloc allocates n bytes of device memory on the calling thread's current device.
func (r *Runtime) Malloc(n uintptr) (unsafe.Pointer, error) { return r.drv.malloc(n) }

// Free releases memory from Malloc.
func (r *Runtime) Free(p unsafe.Pointer) error { return r.drv.free(p) }

// MemcpyHtoD copies n bytes from host src to device dst and returns when the copy is done.
// src may be Go memory holding no Go pointers.
func (r *Runtime) MemcpyHtoD(dst, src unsafe.Pointer, n uintptr) error {
	return r.drv.memcpy(dst, src, n, copyHostToDevice)
}

// MemcpyDtoH copies n bytes from device src to host dst and returns when the copy is done.
// dst may be Go memory holding no Go pointers.
func (r *Runtime) MemcpyDtoH(dst, src unsafe.Pointer, n uintptr) error {
	return r.drv.memcpy(dst, src, n, copyDeviceToHost)
}

// DeviceSynchronize waits for all work on the calling thread's current device.
func (r *Runtime) DeviceSynchronize() error { return r.drv.deviceSynchronize() }

// EventCreate creates an event with timing enabled; release it with EventDestroy.
func (r *Runtime) EventCreate() (Event, error) { return r.drv.eventCreate() }

// EventRecord records e on stream (0 is the default stream; streams are uintptr because sentinel streams such as 0x2 are not valid Go pointers).
func (r *Runtime) EventRecord(e Event, stream uintptr) error {
	return r.drv.eventRecord(e, stream)
}

// EventSynchronize waits until e has completed.
func (r *Runtime) EventSynchronize(e Event) error { return r.drv.eventSynchronize(e) }

// EventElapsedMs returns the milliseconds between two completed events.
func (r *Runtime) EventElapsedMs(start, stop Event) (float32, error) {
	return r.drv.eventElapsedMs(start, stop)
}

// EventDestroy releases e.
func (r *Runtime) EventDestroy(e Event) error { return r.drv.eventDestroy(e) }

// kindConstName names a Kind as its Go constant, for Reason texts.
func kindConstName(k Kind) string {
	switch k {
	case KindNone:
		return "KindNone"
	case KindAMD:
		return "KindAMD"
	case KindCUDA:
		return "KindCUDA"
	}
	return k.String()
}
