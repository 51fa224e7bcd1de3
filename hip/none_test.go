package hip

import (
	"errors"
	"testing"
	"unsafe"
)

// checkNone asserts the whole contract of a KindNone runtime whose Reason is reason.
func checkNone(t *testing.T, r *Runtime, reason string) {
	t.Helper()
	if r == nil {
		t.Fatal("runtime is nil")
	}
	if r.Kind() != KindNone || r.LibraryPath() != "" || r.Reason() != reason {
		t.Fatalf("got kind %v, path %q, reason %q; want none, \"\", %q", r.Kind(), r.LibraryPath(), r.Reason(), reason)
	}
	if n, err := r.DeviceCount(); n != 0 || err != nil {
		t.Fatalf("DeviceCount() = %d, %v; want 0, nil", n, err)
	}
	var host [16]byte
	if k, err := r.PointerInfo(unsafe.Pointer(&host[0])); k.Kind != MemoryHost || err != nil {
		t.Fatalf("PointerInfo(host) = %v, %v; want host, nil", k, err)
	}
	if k, err := r.PointerInfo(nil); k.Kind != MemoryHost || err != nil {
		t.Fatalf("PointerInfo(nil) = %v, %v; want host, nil", k, err)
	}

	var e Event
	calls := []struct {
		op  string
		err error
	}{
		{"CurrentDevice", second(r.CurrentDevice())},
		{"DeviceProperties", second(r.DeviceProperties(0))},
		{"StreamDevice", second(r.StreamDevice(0))},
		{"StreamSynchronize", r.StreamSynchronize(0)},
		{"Malloc", second(r.Malloc(1024))},
		{"Free", r.Free(nil)},
		{"MemcpyHtoD", r.MemcpyHtoD(nil, unsafe.Pointer(&host[0]), 16)},
		{"MemcpyDtoH", r.MemcpyDtoH(unsafe.Pointer(&host[0]), nil, 16)},
		{"DeviceSynchronize", r.DeviceSynchronize()},
		{"EventCreate", second(r.EventCreate())},
		{"EventRecord", r.EventRecord(e, 0)},
		{"EventSynchronize", r.EventSynchronize(e)},
		{"EventElapsedMs", second(r.EventElapsedMs(e, e))},
		{"EventDestroy", r.EventDestroy(e)},
	}
	for _, c := range calls {
		want := "hip." + c.op + ": no GPU runtime: " + reason
		if c.err == nil || c.err.Error() != want {
			t.Errorf("%s error = %v, want %q", c.op, c.err, want)
		}
		if !errors.Is(c.err, ErrNoRuntime) {
			t.Errorf("%s error %v does not wrap ErrNoRuntime", c.op, c.err)
		}
	}
}

func second[T any](_ T, err error) error { return err }

func TestLoadNone(t *testing.T) {
	t.Parallel()
	checkNone(t, Load(KindNone), "Load(KindNone)")
}

func TestLoadUnknownKind(t *testing.T) {
	t.Parallel()
	checkNone(t, Load(Kind(9)), "Load(Kind(9)): unknown runtime kind 9")
}

func TestEnvNone(t *testing.T) {
	t.Parallel()
	c := fakeConfig(map[string]string{EnvRuntime: "none"}, nil)
	checkNone(t, fromEnv(c), "HIPDNN_HIP_RUNTIME=none")
}

func TestEnvInvalid(t *testing.T) {
	t.Parallel()
	c := fakeConfig(map[string]string{EnvRuntime: "opencl"}, nil)
	checkNone(t, fromEnv(c), `HIPDNN_HIP_RUNTIME="opencl" is not amd, cuda or none`)
}

// TestDefaultHonoursEnv is the one test that calls Default, which loads once per process.
func TestDefaultHonoursEnv(t *testing.T) {
	t.Setenv(EnvRuntime, "none")
	r := Default()
	checkNone(t, r, "HIPDNN_HIP_RUNTIME=none")
	if Default() != r {
		t.Fatal("Default() returned a different runtime on the second call")
	}
}

func TestErrorText(t *testing.T) {
	t.Parallel()
	e := &Error{Kind: KindCUDA, Call: "cudaMalloc", Code: 2, Name: "cudaErrorMemoryAllocation", Message: "out of memory"}
	if got, want := e.Error(), "cudaMalloc: cudaErrorMemoryAllocation (2): out of memory"; got != want {
		t.Fatalf("Error() = %q, want %q", got, want)
	}
	if errors.Is(e, ErrNoRuntime) {
		t.Fatal("a failed call must not read as ErrNoRuntime")
	}
}
