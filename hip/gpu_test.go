package hip

import (
	"bytes"
	"errors"
	"runtime"
	"strings"
	"sync"
	"testing"
	"unsafe"
)

// Tests on a real GPU. They choose a runtime the way Default does with HIPDNN_HIP_RUNTIME
// unset (Default itself is pinned to none by TestDefaultHonoursEnv) and skip, saying why,
// when it reports no device, as on CI.

var gpu struct {
	once sync.Once
	r    *Runtime
}

func gpuRuntime(t *testing.T) *Runtime {
	t.Helper()
	gpu.once.Do(func() { gpu.r = autoSelect(defaultConfig()) })
	n, err := gpu.r.DeviceCount()
	if err != nil || n == 0 {
		t.Skipf("no GPU (DeviceCount() = %d, %v): %s", n, err, gpu.r.Reason())
	}
	return gpu.r
}

func TestGPUDeviceProperties(t *testing.T) {
	r := gpuRuntime(t)
	t.Logf("%s runtime %s: %s", r.Kind(), r.LibraryPath(), r.Reason())
	n, _ := r.DeviceCount()
	for d := 0; d < n; d++ {
		p, err := r.DeviceProperties(d)
		if err != nil {
			t.Fatalf("DeviceProperties(%d): %v", d, err)
		}
		t.Logf("device %d: %+v", d, p)
		if p.ID != d || p.Name == "" || p.MultiProcessorCount <= 0 || p.TotalGlobalMem == 0 ||
			p.ClockRateKHz <= 0 || p.ComputeMajor <= 0 {
			t.Errorf("DeviceProperties(%d) = %+v: a field is missing", d, p)
		}
		switch r.Kind() {
		case KindCUDA:
			if !strings.HasPrefix(p.Arch, "sm_") {
				t.Errorf("Arch = %q, want sm_NN", p.Arch)
			}
		case KindAMD:
			if p.Arch != "" && !strings.HasPrefix(p.Arch, "gfx") {
				t.Errorf("Arch = %q, want gfx... or empty", p.Arch)
			}
		}
	}
	var e *Error
	if _, err := r.DeviceProperties(n); !errors.As(err, &e) {
		t.Fatalf("DeviceProperties(%d) error = %v, want *Error", n, err)
	}
	t.Logf("DeviceProperties(%d): %v", n, e)
}

func TestGPUMemory(t *testing.T) {
	r := gpuRuntime(t)
	runtime.LockOSThread() // the current device is per thread
	defer runtime.UnlockOSThread()

	const size = 1 << 20
	dev, err := r.Malloc(size)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := r.Free(dev); err != nil {
			t.Error(err)
		}
	}()
	if k, err := r.PointerInfo(dev); k.Kind != MemoryDevice || err != nil {
		t.Fatalf("PointerInfo(device) = %v, %v", k, err)
	}
	src := bytes.Repeat([]byte("hipdnn"), size/6+1)[:size]
	if k, err := r.PointerInfo(unsafe.Pointer(&src[0])); k.Kind != MemoryHost || err != nil {
		t.Fatalf("PointerInfo(Go memory) = %v, %v", k, err)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = r.PointerInfo(dev) }); n != 0 {
		t.Errorf("PointerInfo allocates %v times per call", n)
	}
	if err := r.MemcpyHtoD(dev, unsafe.Pointer(&src[0]), size); err != nil {
		t.Fatal(err)
	}
	dst := make([]byte, size)
	if err := r.MemcpyDtoH(unsafe.Pointer(&dst[0]), dev, size); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(src, dst) {
		t.Fatal("copy round trip changed the data")
	}
	if err := r.DeviceSynchronize(); err != nil {
		t.Fatal(err)
	}
}

func TestGPUStreamDevice(t *testing.T) {
	r := gpuRuntime(t)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cur, err := r.CurrentDevice()
	if err != nil {
		t.Fatal(err)
	}
	if d, err := r.StreamDevice(0); d != cur || err != nil {
		t.Fatalf("StreamDevice(0) = %d, %v; want %d", d, err, cur)
	}
	if err := r.StreamSynchronize(0); err != nil {
		t.Fatal(err)
	}
}

func TestGPUEvents(t *testing.T) {
	r := gpuRuntime(t)
	start, err := r.EventCreate()
	if err != nil {
		t.Fatal(err)
	}
	stop, err := r.EventCreate()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []Event{start, stop} {
		if err := r.EventRecord(e, 0); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.EventSynchronize(stop); err != nil {
		t.Fatal(err)
	}
	ms, err := r.EventElapsedMs(start, stop)
	if err != nil || ms < 0 {
		t.Fatalf("EventElapsedMs = %v, %v", ms, err)
	}
	for _, e := range []Event{start, stop} {
		if err := r.EventDestroy(e); err != nil {
			t.Fatal(err)
		}
	}
}

func TestGPUErrors(t *testing.T) {
	r := gpuRuntime(t)
	_, err := r.Malloc(1 << 60)
	var e *Error
	if !errors.As(err, &e) || e.Code == 0 || e.Name == "" || !strings.HasSuffix(e.Call, "Malloc") {
		t.Fatalf("Malloc(1 EiB) error = %v, want *Error from the runtime's malloc", err)
	}
	t.Logf("Malloc(1 EiB): %v", err)
	// The failure was cleared from the runtime's last-error slot.
	if err := r.DeviceSynchronize(); err != nil {
		t.Fatalf("DeviceSynchronize after a failed call: %v", err)
	}
}
