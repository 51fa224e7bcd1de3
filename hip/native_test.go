package hip

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unsafe"
)

// The tests here load testdata/fakert.c, compiled into stand-in runtimes, through the real
// dlopen path, so the cgo layer is exercised on machines without a GPU. They skip when no C
// compiler is found.

var fakes struct {
	sync.Mutex
	dir   string
	built map[string]string
}

func TestMain(m *testing.M) {
	code := m.Run()
	if fakes.dir != "" {
		os.RemoveAll(fakes.dir)
	}
	os.Exit(code)
}

// fakeLib compiles testdata/fakert.c with defs into a shared object named name and returns
// its path; each name is built once per test run.
func fakeLib(t testing.TB, name string, defs ...string) string {
	t.Helper()
	fakes.Lock()
	defer fakes.Unlock()
	if p, ok := fakes.built[name]; ok {
		return p
	}
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	if _, err := exec.LookPath(cc); err != nil {
		t.Skipf("no C compiler (%s) to build the fake runtime: %v", cc, err)
	}
	if fakes.dir == "" {
		dir, err := os.MkdirTemp("", "hipfake")
		if err != nil {
			t.Fatal(err)
		}
		fakes.dir, fakes.built = dir, map[string]string{}
	}
	out := filepath.Join(fakes.dir, name)
	args := append([]string{"-shared", "-fPIC", "-Wall", "-Werror", "-o", out}, defs...)
	args = append(args, filepath.Join("testdata", "fakert.c"))
	if msg, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
		t.Fatalf("building fake runtime %s: %v\n%s", name, err, msg)
	}
	fakes.built[name] = out
	return out
}

// loadFake loads a fake runtime of kind through openNative.
func loadFake(t testing.TB, kind Kind, name string, defs ...string) *Runtime {
	t.Helper()
	lib := fakeLib(t, name, defs...)
	c := defaultConfig()
	c.amdLibs = []string{lib}
	c.cudaLibs = []string{lib}
	c.driverLibs = []string{lib}
	r := load(kind, c, "test")
	if r.Kind() != kind {
		t.Fatalf("loading %s: got %v: %s", name, r.Kind(), r.Reason())
	}
	return r
}

func wantError(t *testing.T, err error, text string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error = %v (%T), want *Error %q", err, err, text)
	}
	if e.Error() != text {
		t.Fatalf("error = %q\nwant    %q", e.Error(), text)
	}
}

type fakeCase struct {
	desc string
	kind Kind
	name string
	defs []string
	// expectations
	props      DeviceProperties
	streamDev  int // StreamDevice of a non-default stream
	errPrefix  string
	invalidDev string // error text of DeviceProperties(5)
}

var fakeCases = []fakeCase{
	{
		desc: "ROCm 6", kind: KindAMD, name: "libfakehip6.so", defs: []string{"-DFAKE_AMD", "-DFAKE_MAJOR=6"},
		props: DeviceProperties{ID: 1, Name: "Fake AMD Instinct #1", Arch: "gfx942:sramecc+:xnack-",
			MultiProcessorCount: 304, TotalGlobalMem: 192 << 30, ClockRateKHz: 2100000, ComputeMajor: 9, ComputeMinor: 4},
		streamDev:  1,
		errPrefix:  "hip",
		invalidDev: "hipDeviceGetAttribute(attribute 63, device 5): hipErrorInvalidDevice (101): invalid device ordinal",
	},
	{
		desc: "ROCm 5 without hipStreamGetDevice", kind: KindAMD, name: "libfakehip5.so",
		defs: []string{"-DFAKE_AMD", "-DFAKE_MAJOR=5", "-DFAKE_NO_STREAM_GET_DEVICE"},
		props: DeviceProperties{ID: 1, Name: "Fake AMD Instinct #1", Arch: "gfx90a:sramecc+:xnack-",
			MultiProcessorCount: 304, TotalGlobalMem: 192 << 30, ClockRateKHz: 2100000, ComputeMajor: 9, ComputeMinor: 4},
		streamDev:  0, // falls back to the current device
		errPrefix:  "hip",
		invalidDev: "hipDeviceGetAttribute(attribute 63, device 5): hipErrorInvalidDevice (101): invalid device ordinal",
	},
	{
		desc: "ROCm 7, gcnArchName moved", kind: KindAMD, name: "libfakehip7moved.so",
		defs: []string{"-DFAKE_AMD", "-DFAKE_MAJOR=7", "-DFAKE_ARCH_OFFSET=1300"},
		props: DeviceProperties{ID: 1, Name: "Fake AMD Instinct #1", Arch: "gfx942:sramecc+:xnack-",
			MultiProcessorCount: 304, TotalGlobalMem: 192 << 30, ClockRateKHz: 2100000, ComputeMajor: 9, ComputeMinor: 4},
		streamDev:  1,
		errPrefix:  "hip",
		invalidDev: "hipDeviceGetAttribute(attribute 63, device 5): hipErrorInvalidDevice (101): invalid device ordinal",
	},
	{
		desc: "ROCm 6, no arch name", kind: KindAMD, name: "libfakehip6noarch.so",
		defs: []string{"-DFAKE_AMD", "-DFAKE_MAJOR=6", "-DFAKE_NO_ARCH"},
		props: DeviceProperties{ID: 1, Name: "Fake AMD Instinct #1", Arch: "",
			MultiProcessorCount: 304, TotalGlobalMem: 192 << 30, ClockRateKHz: 2100000, ComputeMajor: 9, ComputeMinor: 4},
		streamDev:  1,
		errPrefix:  "hip",
		invalidDev: "hipDeviceGetAttribute(attribute 63, device 5): hipErrorInvalidDevice (101): invalid device ordinal",
	},
	{
		desc: "CUDA 13", kind: KindCUDA, name: "libfakecudart13.so", defs: []string{"-DFAKE_CUDA"},
		props: DeviceProperties{ID: 1, Name: "Fake NVIDIA H200 #1", Arch: "sm_90",
			MultiProcessorCount: 132, TotalGlobalMem: 141 << 30, ClockRateKHz: 1980000, ComputeMajor: 9, ComputeMinor: 0},
		streamDev:  1,
		errPrefix:  "cuda",
		invalidDev: "cudaDeviceGetAttribute(attribute 16, device 5): cudaErrorInvalidDevice (101): invalid device ordinal",
	},
	{
		desc: "CUDA 12 without cudaStreamGetDevice", kind: KindCUDA, name: "libfakecudart12.so",
		defs: []string{"-DFAKE_CUDA", "-DFAKE_MAJOR=12", "-DFAKE_NO_STREAM_GET_DEVICE"},
		props: DeviceProperties{ID: 1, Name: "Fake NVIDIA H200 #1", Arch: "sm_90",
			MultiProcessorCount: 132, TotalGlobalMem: 141 << 30, ClockRateKHz: 1980000, ComputeMajor: 9, ComputeMinor: 0},
		streamDev:  0,
		errPrefix:  "cuda",
		invalidDev: "cudaDeviceGetAttribute(attribute 16, device 5): cudaErrorInvalidDevice (101): invalid device ordinal",
	},
}

func TestFakeRuntimes(t *testing.T) {
	for _, tc := range fakeCases {
		t.Run(tc.desc, func(t *testing.T) {
			r := loadFake(t, tc.kind, tc.name, tc.defs...)
			if !strings.HasSuffix(r.LibraryPath(), tc.name) || r.Reason() != "test: loaded "+r.LibraryPath() {
				t.Fatalf("path %q, reason %q", r.LibraryPath(), r.Reason())
			}
			if n, err := r.DeviceCount(); n != 2 || err != nil {
				t.Fatalf("DeviceCount() = %d, %v", n, err)
			}
			if d, err := r.CurrentDevice(); d != 0 || err != nil {
				t.Fatalf("CurrentDevice() = %d, %v", d, err)
			}
			p, err := r.DeviceProperties(1)
			if err != nil || p != tc.props {
				t.Fatalf("DeviceProperties(1) = %+v, %v\nwant %+v", p, err, tc.props)
			}
			_, err = r.DeviceProperties(5)
			wantError(t, err, tc.invalidDev)

			if d, err := r.StreamDevice(0); d != 0 || err != nil {
				t.Fatalf("StreamDevice(nil) = %d, %v", d, err)
			}
			var someStream byte
			if d, err := r.StreamDevice(uintptr(unsafe.Pointer(&someStream))); d != tc.streamDev || err != nil {
				t.Fatalf("StreamDevice(stream) = %d, %v; want %d", d, err, tc.streamDev)
			}
			if err := r.StreamSynchronize(0); err != nil {
				t.Fatal(err)
			}

			// Device memory round trip and pointer kinds.
			dev, err := r.Malloc(1024)
			if err != nil || dev == nil {
				t.Fatalf("Malloc = %v, %v", dev, err)
			}
			if k, err := r.PointerInfo(dev); k.Kind != MemoryDevice || err != nil {
				t.Fatalf("PointerInfo(device) = %v, %v", k, err)
			}
			host := bytes.Repeat([]byte{0xa5}, 1024)
			if err := r.MemcpyHtoD(dev, unsafe.Pointer(&host[0]), 1024); err != nil {
				t.Fatal(err)
			}
			back := make([]byte, 1024)
			if err := r.MemcpyDtoH(unsafe.Pointer(&back[0]), dev, 1024); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(back, host) {
				t.Fatal("copy round trip changed the data")
			}
			// Unregistered host memory is host, and any error the runtime raised for it
			// (ROCm 5) has been cleared: DeviceSynchronize reports the fake's last error.
			if k, err := r.PointerInfo(unsafe.Pointer(&host[0])); k.Kind != MemoryHost || err != nil {
				t.Fatalf("PointerInfo(host) = %v, %v", k, err)
			}
			if err := r.DeviceSynchronize(); err != nil {
				t.Fatalf("a cleared error came back: %v", err)
			}
			if err := r.Free(dev); err != nil {
				t.Fatal(err)
			}

			managed, err := r.Malloc(4099) // the fake's managed allocation
			if err != nil {
				t.Fatal(err)
			}
			if k, err := r.PointerInfo(managed); k.Kind != MemoryManaged || err != nil {
				t.Fatalf("PointerInfo(managed) = %v, %v", k, err)
			}
			if err := r.Free(managed); err != nil {
				t.Fatal(err)
			}
			// Registered host memory is pinned; device memory says which device owns it.
			for _, want := range []struct {
				size uintptr
				info PointerInfo
			}{{4097, PointerInfo{Kind: MemoryPinned}}, {4098, PointerInfo{Kind: MemoryDevice, Device: 1}}, {64, PointerInfo{Kind: MemoryDevice}}} {
				p, err := r.Malloc(want.size) // the fake's pinned and device-1 sizes
				if err != nil {
					t.Fatal(err)
				}
				if got, err := r.PointerInfo(p); got != want.info || err != nil {
					t.Errorf("PointerInfo(%d-byte allocation) = %+v, %v; want %+v", want.size, got, err, want.info)
				}
				if err := r.Free(p); err != nil {
					t.Fatal(err)
				}
			}

			// Failures carry the call, the runtime's error name and text, and are cleared.
			_, err = r.Malloc(1 << 50)
			wantError(t, err, fmt.Sprintf("%sMalloc: %sErrorOutOfMemory (2): out of memory", tc.errPrefix, tc.errPrefix))
			err = r.Free(unsafe.Pointer(&host[0]))
			wantError(t, err, fmt.Sprintf("%sFree: %sErrorInvalidValue (1): invalid argument", tc.errPrefix, tc.errPrefix))
			if err := r.DeviceSynchronize(); err != nil {
				t.Fatalf("a cleared error came back: %v", err)
			}

			// Events.
			start, err := r.EventCreate()
			if err != nil {
				t.Fatal(err)
			}
			stop, err := r.EventCreate()
			if err != nil {
				t.Fatal(err)
			}
			_, err = r.EventElapsedMs(start, stop)
			wantError(t, err, fmt.Sprintf("%sEventElapsedTime: %sErrorNotReady (600): device not ready", tc.errPrefix, tc.errPrefix))
			for _, e := range []Event{start, stop} {
				if err := r.EventRecord(e, 0); err != nil {
					t.Fatal(err)
				}
			}
			if err := r.EventSynchronize(stop); err != nil {
				t.Fatal(err)
			}
			if ms, err := r.EventElapsedMs(start, stop); ms != 1.5 || err != nil {
				t.Fatalf("EventElapsedMs = %v, %v; want 1.5", ms, err)
			}
			for _, e := range []Event{start, stop} {
				if err := r.EventDestroy(e); err != nil {
					t.Fatal(err)
				}
			}
			err = r.EventRecord(Event{}, 0)
			wantError(t, err, fmt.Sprintf("%sEventRecord: %sErrorInvalidResourceHandle (400): invalid resource handle", tc.errPrefix, tc.errPrefix))
		})
	}
}

func TestFakeRefused(t *testing.T) {
	tests := []struct {
		desc string
		kind Kind
		name string
		defs []string
		want string // Reason suffix
	}{
		{"ROCm 4", KindAMD, "libfakehip4.so", []string{"-DFAKE_AMD", "-DFAKE_MAJOR=4"}, "libfakehip4.so: HIP runtime 4 is older than ROCm 5)"},
		{"CUDA 10", KindCUDA, "libfakecudart10.so", []string{"-DFAKE_CUDA", "-DFAKE_MAJOR=10"}, "libfakecudart10.so: CUDA runtime 10.0 is older than 11.0)"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			lib := fakeLib(t, tt.name, tt.defs...)
			c := defaultConfig()
			c.amdLibs, c.cudaLibs, c.driverLibs = []string{lib}, []string{lib}, []string{lib}
			r := load(tt.kind, c, "test")
			if r.Kind() != KindNone || !strings.HasSuffix(r.Reason(), tt.want) {
				t.Fatalf("got %v, %q; want none ending %q", r.Kind(), r.Reason(), tt.want)
			}
		})
	}
}

// TestFakeVersionFromSoname: hipRuntimeGetVersion fails (as it may without an AMD GPU), so the
// soname's number picks the ROCm 5 pointer-type numbering.
func TestFakeVersionFromSoname(t *testing.T) {
	r := loadFake(t, KindAMD, "libfakehipnover.so.5", "-DFAKE_AMD", "-DFAKE_MAJOR=5", "-DFAKE_VERSION_FAILS")
	dev, err := r.Malloc(64)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Free(dev)
	if k, err := r.PointerInfo(dev); k.Kind != MemoryDevice || err != nil {
		t.Fatalf("PointerInfo(device) = %v, %v", k, err)
	}
}

func TestFakeAutoSkipsRuntimeWithoutDevices(t *testing.T) {
	amd := fakeLib(t, "libfakehip6nodev.so", "-DFAKE_AMD", "-DFAKE_DEVICES=0")
	cuda := fakeLib(t, "libfakecudart13.so", "-DFAKE_CUDA")
	c := defaultConfig()
	c.getenv = func(string) string { return "" }
	c.amdLibs, c.cudaLibs, c.driverLibs = []string{"libhipdnn-test-absent.so", amd}, []string{cuda}, []string{cuda}
	r := fromEnv(c)
	want := fmt.Sprintf("HIPDNN_HIP_RUNTIME unset: chose cuda, %s reports 2 device(s) (passed over: %s: no device)", cuda, amd)
	if r.Kind() != KindCUDA || r.Reason() != want {
		t.Fatalf("got %v, %q\nwant cuda, %q", r.Kind(), r.Reason(), want)
	}
}

// TestFakeNoDevice: a runtime that loads but has no device, loaded by name.
func TestFakeNoDevice(t *testing.T) {
	r := loadFake(t, KindAMD, "libfakehip6nodev.so", "-DFAKE_AMD", "-DFAKE_DEVICES=0")
	if n, err := r.DeviceCount(); n != 0 || err != nil {
		t.Fatalf("DeviceCount() = %d, %v; want 0, nil", n, err)
	}
	var host [8]byte
	if k, err := r.PointerInfo(unsafe.Pointer(&host[0])); k.Kind != MemoryHost || err != nil {
		t.Fatalf("PointerInfo(host) = %v, %v; want host, nil", k, err)
	}
	if err := r.DeviceSynchronize(); err != nil {
		t.Fatalf("a cleared error came back: %v", err)
	}
}

// TestMissingSymbol loads a real library that is no GPU runtime.
func TestMissingSymbol(t *testing.T) {
	t.Parallel()
	c := defaultConfig()
	c.amdLibs = []string{"libc.so.6"}
	r := load(KindAMD, c, "test")
	want := "test, but no AMD HIP runtime loaded (tried libc.so.6: missing hipGetDeviceCount: "
	if r.Kind() != KindNone || !strings.HasPrefix(r.Reason(), want) || !strings.Contains(r.Reason(), "undefined symbol: hipGetDeviceCount") {
		t.Fatalf("got %v, %q; want none starting %q", r.Kind(), r.Reason(), want)
	}
}

func TestCUDAWithoutDriver(t *testing.T) {
	lib := fakeLib(t, "libfakecudart13.so", "-DFAKE_CUDA")
	c := defaultConfig()
	c.cudaLibs, c.driverLibs = []string{lib}, []string{"libhipdnn-test-absent-cuda.so.1"}
	r := load(KindCUDA, c, "test")
	want := "test, but no CUDA runtime loaded (tried " + lib + ": loaded, but not the NVIDIA driver: libhipdnn-test-absent-cuda.so.1: not found)"
	if r.Kind() != KindNone || r.Reason() != want {
		t.Fatalf("got %v, %q\nwant none, %q", r.Kind(), r.Reason(), want)
	}
}

func TestAMDArchFromProps(t *testing.T) {
	t.Parallel()
	image := func(at int, s string) []byte {
		b := make([]byte, 2048)
		copy(b, "AMD Instinct MI300X")
		if at >= 0 {
			copy(b[at:], s)
		}
		return b
	}
	tests := []struct {
		desc   string
		props  []byte
		offset int
		want   string
	}{
		{"R0600 offset", image(1160, "gfx942:sramecc+:xnack-"), 1160, "gfx942:sramecc+:xnack-"},
		{"R0000 offset", image(396, "gfx90a"), 396, "gfx90a"},
		{"moved: found by scan", image(1300, "gfx1100"), 1160, "gfx1100"},
		{"nothing there", image(-1, ""), 1160, ""},
		{"not an arch name", image(1160, "gfx-what?"), 1160, ""},
		{"unterminated at the end", append(make([]byte, 300), "gfx942"...), 1160, ""},
		{"name field is not searched", append([]byte("gfx942\x00"), make([]byte, 600)...), 396, ""},
		{"empty", nil, 0, ""},
	}
	for _, tt := range tests {
		if got := amdArchFromProps(tt.props, tt.offset); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.desc, got, tt.want)
		}
	}
}

func TestMemoryKindMapping(t *testing.T) {
	t.Parallel()
	tests := []struct {
		kind  Kind
		major int
		typ   int
		want  MemoryKind
	}{
		{KindCUDA, 13, 0, MemoryHost}, {KindCUDA, 13, 1, MemoryPinned}, {KindCUDA, 13, 2, MemoryDevice},
		{KindCUDA, 13, 3, MemoryManaged}, {KindCUDA, 13, 10, MemoryUnknown},
		{KindAMD, 6, 0, MemoryHost}, {KindAMD, 6, 1, MemoryPinned}, {KindAMD, 6, 2, MemoryDevice},
		{KindAMD, 7, 3, MemoryManaged}, {KindAMD, 6, 10, MemoryDevice}, {KindAMD, 6, 11, MemoryManaged},
		{KindAMD, 6, 5, MemoryUnknown},
		{KindAMD, 5, 0, MemoryPinned}, {KindAMD, 5, 1, MemoryDevice}, {KindAMD, 5, 2, MemoryDevice},
		{KindAMD, 5, 3, MemoryManaged}, {KindAMD, 5, 4, MemoryManaged}, {KindAMD, 5, 9, MemoryUnknown},
	}
	for _, tt := range tests {
		if got := memoryKind(tt.kind, tt.major, tt.typ); got != tt.want {
			t.Errorf("memoryKind(%v, %d, %d) = %v, want %v", tt.kind, tt.major, tt.typ, got, tt.want)
		}
	}
}

// TestPointerInfoDoesNotAllocate guards the Execute-path query.
func TestPointerInfoDoesNotAllocate(t *testing.T) {
	r := loadFake(t, KindCUDA, "libfakecudart13.so", "-DFAKE_CUDA")
	var host [64]byte
	p := unsafe.Pointer(&host[0])
	if n := testing.AllocsPerRun(100, func() { _, _ = r.PointerInfo(p) }); n != 0 {
		t.Fatalf("PointerInfo allocates %v times per call", n)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = r.StreamDevice(0) }); n != 0 {
		t.Fatalf("StreamDevice allocates %v times per call", n)
	}
}

// BenchmarkPointerInfo compares the query through a fake runtime with the none runtime.
func BenchmarkPointerInfo(b *testing.B) {
	var host [64]byte
	p := unsafe.Pointer(&host[0])
	for _, bc := range []struct {
		name string
		r    func() *Runtime
	}{
		{"none", func() *Runtime { return Load(KindNone) }},
		{"fake_cuda", func() *Runtime { return loadFake(b, KindCUDA, "libfakecudart13.so", "-DFAKE_CUDA") }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			r := bc.r()
			b.ReportAllocs()
			for b.Loop() {
				_, _ = r.PointerInfo(p)
			}
		})
	}
}
