package fb_test

// Go -> C++: the Go-built golden buffers must pass the flatc-generated C++
// Verifier, and the values the C++ accessors read back must be the ones Go
// wrote. Needs the hipdnn_fb_verify program (CMake target, built by `make`);
// HIPDNN_FB_VERIFY names it (`make test` sets it).

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hipdnn-go/backend/internal/fb"
	"github.com/hipdnn-go/backend/internal/wire"
)

var verifyKinds = map[string]string{
	"graph.bin":             "graph",
	"graph_minimal.bin":     "graph",
	"engine_config.bin":     "engine_config",
	"engine_details.bin":    "engine_details",
	"engine_prediction.bin": "engine_prediction",
	"execution_plan.bin":    "execution_plan",
	"graph_and_plan.bin":    "graph_and_plan",
	"device_properties.bin": "device_properties",
}

func verifierBinary(t *testing.T) string {
	bin := os.Getenv("HIPDNN_FB_VERIFY")
	if bin == "" {
		t.Skip("HIPDNN_FB_VERIFY is not set; build the CMake target hipdnn_fb_verify and point " +
			"HIPDNN_FB_VERIFY at it to check Go-built buffers with the C++ Verifier (make test does)")
	}
	if st, err := os.Stat(bin); err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
		t.Skipf("HIPDNN_FB_VERIFY=%s is not an executable file (build the hipdnn_fb_verify target)", bin)
	}
	return bin
}

func runVerifier(t *testing.T, bin, kind string, buf []byte) (string, int) {
	t.Helper()
	p := filepath.Join(t.TempDir(), kind+".bin")
	if err := os.WriteFile(p, buf, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, kind, p).CombinedOutput()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return string(out), ee.ExitCode()
		}
		t.Fatalf("%s: %v", bin, err)
	}
	return string(out), 0
}

func TestCppVerifiesGoBuffers(t *testing.T) {
	bin := verifierBinary(t)
	for name, buf := range goldenBuffers() {
		kind := verifyKinds[name]
		out, rc := runVerifier(t, bin, kind, buf)
		if rc != 0 {
			t.Errorf("%s: C++ Verifier rejected the Go-built buffer (exit %d):\n%s", name, rc, out)
			continue
		}
		if name == "graph.bin" {
			checkGraphDump(t, out)
		}
	}
}

// checkGraphDump compares what the C++ accessors read from the Go-built
// golden graph with the values Go wrote (dump format: verify_golden.cpp).
func checkGraphDump(t *testing.T, out string) {
	want := []string{
		"graph golden_graph FLOAT HALF BFLOAT16 tensors=10 nodes=23",
		"preferred_engine_id -5",
		"min_version 1.2.3",
		fmt.Sprintf("id %x", goldenUUID[:]),
		"tensor 1 NONE",
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for _, w := range want {
		if !contains(lines, w) {
			t.Errorf("C++ dump lacks %q:\n%s", w, out)
		}
	}
	for i, op := range wire.Ops() {
		if w := fmt.Sprintf("node %d %s", i, op.Name); !contains(lines, w) {
			t.Errorf("C++ dump lacks %q", w)
		}
	}
	for _, vt := range goldenValueTensors {
		prefix := fmt.Sprintf("tensor %d %s ", vt.uid, fb.EnumNamesTensorValue[vt.v.Type])
		var text string
		for _, l := range lines {
			if strings.HasPrefix(l, prefix) {
				text = strings.TrimPrefix(l, prefix)
			}
		}
		if text == "" {
			t.Errorf("C++ dump lacks a line starting %q", prefix)
			continue
		}
		var got fb.TensorValueScalar
		var err error
		switch vt.v.Type {
		case fb.TensorValueFloat32Value, fb.TensorValueFloat16Value, fb.TensorValueBFloat16Value:
			var f float64
			f, err = strconv.ParseFloat(text, 32)
			got = fb.TensorValueScalar{Type: vt.v.Type, Bits: uint64(math.Float32bits(float32(f)))}
		case fb.TensorValueFloat64Value:
			var f float64
			f, err = strconv.ParseFloat(text, 64)
			got = fb.Float64Scalar(f)
		case fb.TensorValueInt32Value:
			var n int64
			n, err = strconv.ParseInt(text, 10, 32)
			got = fb.Int32Scalar(int32(n))
		case fb.TensorValueInt64Value:
			var n int64
			n, err = strconv.ParseInt(text, 10, 64)
			got = fb.Int64Scalar(n)
		case fb.TensorValueFloat8Value:
			var n uint64
			n, err = strconv.ParseUint(text, 10, 8)
			got = fb.Float8Scalar(uint8(n))
		case fb.TensorValueBoolValue:
			got = fb.BoolScalar(text == "true")
		}
		if err != nil || got != vt.v {
			t.Errorf("tensor %d: C++ read %q (%+v), Go wrote %+v", vt.uid, text, got, vt.v)
		}
	}
}

func contains(lines []string, s string) bool {
	for _, l := range lines {
		if l == s {
			return true
		}
	}
	return false
}

// The verifier must also accept the C++-made testdata and reject broken input,
// otherwise a passing run above would prove nothing.
func TestCppVerifierSanity(t *testing.T) {
	bin := verifierBinary(t)
	for name, kind := range verifyKinds {
		buf, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if out, rc := runVerifier(t, bin, kind, buf); rc != 0 {
			t.Errorf("testdata/%s rejected (exit %d): %s", name, rc, out)
		}
	}
	g := buildGoldenGraph()
	if _, rc := runVerifier(t, bin, "graph", g[:len(g)/2]); rc != 1 {
		t.Errorf("truncated graph: exit %d, want 1 (rejected)", rc)
	}
	// A value-struct offset pointing past the end must be rejected too.
	bad := append([]byte(nil), g...)
	r := rawRoot(t, bad, "Graph")
	ts := r.subs(4, "tensors")
	p := ts[6].need(7, "value") // Float64Value tensor
	bad[p], bad[p+1], bad[p+2], bad[p+3] = 0xff, 0xff, 0xff, 0x0f
	if _, rc := runVerifier(t, bin, "graph", bad); rc != 1 {
		t.Errorf("graph with a dangling TensorValue offset: exit %d, want 1", rc)
	}
	dp := buildDeviceProperties()
	noID := append([]byte(nil), dp...)
	copy(noID[4:8], "XXXX")
	if _, rc := runVerifier(t, bin, "device_properties", noID); rc != 1 {
		t.Errorf("DeviceProperties without HDDP: exit %d, want 1", rc)
	}
}
