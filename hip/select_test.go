package hip

import (
	"errors"
	"strings"
	"testing"
)

// stubDriver is a loaded runtime as far as selection is concerned: only deviceCount matters.
type stubDriver struct {
	noneDriver
	devices int
	err     error
}

func (d stubDriver) deviceCount() (int, error) { return d.devices, d.err }

// stubLib describes what opening one family yields.
type stubLib struct {
	path    string
	devices int
	countErr,
	openErr error
}

// fakeConfig returns a config whose environment is env and whose opener serves libs by kind;
// a kind absent from libs fails to open with "<kind>: not found".
func fakeConfig(env map[string]string, libs map[Kind]stubLib) config {
	return config{
		getenv:     func(k string) string { return env[k] },
		amdLibs:    []string{"amd.so"},
		cudaLibs:   []string{"cuda.so"},
		driverLibs: []string{"driver.so"},
		open: func(kind Kind, _, _ []string) (driver, string, error) {
			l, ok := libs[kind]
			if !ok {
				return nil, "", errors.New(kind.String() + ".so: not found")
			}
			if l.openErr != nil {
				return nil, "", l.openErr
			}
			return stubDriver{devices: l.devices, err: l.countErr}, l.path, nil
		},
	}
}

func TestSelect(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc       string
		env        string
		libs       map[Kind]stubLib
		wantKind   Kind
		wantPath   string
		wantReason string
	}{
		{
			desc:       "auto, nothing installed",
			wantKind:   KindNone,
			wantReason: "no HIP or CUDA runtime found (tried amd.so: not found; cuda.so: not found)",
		},
		{
			desc:       "auto, amd with a device",
			libs:       map[Kind]stubLib{KindAMD: {path: "/opt/amd.so", devices: 8}, KindCUDA: {path: "/cuda.so", devices: 1}},
			wantKind:   KindAMD,
			wantPath:   "/opt/amd.so",
			wantReason: "HIPDNN_HIP_RUNTIME unset: chose amd, /opt/amd.so reports 8 device(s)",
		},
		{
			desc:       "auto, amd libraries without an AMD GPU, NVIDIA GPU present",
			libs:       map[Kind]stubLib{KindAMD: {path: "/lib/amd.so.5", countErr: errors.New("hipGetDeviceCount: boom")}, KindCUDA: {path: "/cuda.so", devices: 1}},
			wantKind:   KindCUDA,
			wantPath:   "/cuda.so",
			wantReason: "HIPDNN_HIP_RUNTIME unset: chose cuda, /cuda.so reports 1 device(s) (passed over: /lib/amd.so.5: hipGetDeviceCount: boom)",
		},
		{
			desc:       "auto, libraries but no device",
			libs:       map[Kind]stubLib{KindAMD: {path: "/amd.so"}, KindCUDA: {path: "/cuda.so"}},
			wantKind:   KindNone,
			wantReason: "no HIP or CUDA runtime with a device found (tried /amd.so: no device; /cuda.so: no device)",
		},
		{
			desc:       "forced cuda, loads without probing",
			env:        "cuda",
			libs:       map[Kind]stubLib{KindAMD: {path: "/amd.so", devices: 1}, KindCUDA: {path: "/cuda.so"}},
			wantKind:   KindCUDA,
			wantPath:   "/cuda.so",
			wantReason: "HIPDNN_HIP_RUNTIME=cuda: loaded /cuda.so",
		},
		{
			desc:       "forced amd, missing",
			env:        "amd",
			libs:       map[Kind]stubLib{KindCUDA: {path: "/cuda.so", devices: 1}},
			wantKind:   KindNone,
			wantReason: "HIPDNN_HIP_RUNTIME=amd, but no AMD HIP runtime loaded (tried amd.so: not found)",
		},
		{
			desc:       "forced cuda, refused",
			env:        " cuda ",
			libs:       map[Kind]stubLib{KindCUDA: {openErr: errors.New("libcudart.so: CUDA runtime 10.2 is older than 11.0")}},
			wantKind:   KindNone,
			wantReason: "HIPDNN_HIP_RUNTIME=cuda, but no CUDA runtime loaded (tried libcudart.so: CUDA runtime 10.2 is older than 11.0)",
		},
		{
			desc:       "forced none ignores installed runtimes",
			env:        "none",
			libs:       map[Kind]stubLib{KindAMD: {path: "/amd.so", devices: 1}},
			wantKind:   KindNone,
			wantReason: "HIPDNN_HIP_RUNTIME=none",
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			r := fromEnv(fakeConfig(map[string]string{EnvRuntime: tt.env}, tt.libs))
			if r.Kind() != tt.wantKind || r.LibraryPath() != tt.wantPath || r.Reason() != tt.wantReason {
				t.Fatalf("got (%v, %q, %q)\nwant (%v, %q, %q)", r.Kind(), r.LibraryPath(), r.Reason(),
					tt.wantKind, tt.wantPath, tt.wantReason)
			}
			if r.Kind() == KindNone {
				_, err := r.DeviceProperties(0)
				if want := "hip.DeviceProperties: no GPU runtime: " + tt.wantReason; err == nil || err.Error() != want {
					t.Fatalf("DeviceProperties error = %v, want %q", err, want)
				}
			}
		})
	}
}

// TestNoLibraryDegradesToNone goes through the real loader with libraries that do not exist.
func TestNoLibraryDegradesToNone(t *testing.T) {
	t.Parallel()
	c := defaultConfig()
	c.getenv = func(string) string { return "" }
	c.amdLibs = []string{"libhipdnn-test-absent-amd.so.7", "libhipdnn-test-absent-amd.so"}
	c.cudaLibs = []string{"libhipdnn-test-absent-cudart.so.13"}
	r := fromEnv(c)
	if r.Kind() != KindNone {
		t.Fatalf("Kind() = %v, want none", r.Kind())
	}
	want := "no HIP or CUDA runtime found (tried " +
		"libhipdnn-test-absent-amd.so.7: not found; libhipdnn-test-absent-amd.so: not found; " +
		"libhipdnn-test-absent-cudart.so.13: not found)"
	if r.Reason() != want {
		t.Fatalf("Reason() = %q\nwant       %q", r.Reason(), want)
	}
	checkNone(t, r, r.Reason())

	c.getenv = func(string) string { return "amd" }
	r = fromEnv(c)
	if r.Kind() != KindNone || !strings.HasPrefix(r.Reason(), "HIPDNN_HIP_RUNTIME=amd, but no AMD HIP runtime loaded (tried ") {
		t.Fatalf("forced amd: got (%v, %q)", r.Kind(), r.Reason())
	}
}

// TestSearchOrder pins the documented library search order.
func TestSearchOrder(t *testing.T) {
	t.Parallel()
	want := map[string][]string{
		"amd":    {"libamdhip64.so.7", "libamdhip64.so.6", "libamdhip64.so.5", "libamdhip64.so"},
		"cuda":   {"libcudart.so.13", "libcudart.so.12", "libcudart.so"},
		"driver": {"libcuda.so.1"},
	}
	got := map[string][]string{"amd": amdLibraries, "cuda": cudaLibraries, "driver": cudaDriverLibraries}
	for k := range want {
		if strings.Join(got[k], ",") != strings.Join(want[k], ",") {
			t.Errorf("%s search order = %v, want %v", k, got[k], want[k])
		}
	}
}
