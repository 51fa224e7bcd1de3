package heuristics

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hipdnn-go/backend/hip"
	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/fb"
	"github.com/hipdnn-go/backend/internal/heuristics/internal/plugintest"
	"github.com/hipdnn-go/backend/internal/logging"
	"github.com/hipdnn-go/backend/internal/plugindir"
)

// sharedPlugin returns the file of one of the shared heuristic test plugins
// (tests/plugins, built into $HIPDNN_TEST_PLUGIN_DIR/heuristics by CMake; make gotest sets
// the variable). The test is skipped when they are not built.
func sharedPlugin(t *testing.T, name string) string {
	t.Helper()
	dir := os.Getenv("HIPDNN_TEST_PLUGIN_DIR")
	if dir == "" {
		t.Skip("HIPDNN_TEST_PLUGIN_DIR is not set (build tests/plugins and point it at <build>/test_plugins)")
	}
	p := filepath.Join(dir, "heuristics", "lib"+name+".so")
	if _, err := os.Stat(p); err != nil {
		t.Skipf("test plugin not built: %v", err)
	}
	return plugindir.Canonical(p)
}

// buildPlugin compiles testdata/predicting_plugin.c with extra -D flags.
func buildPlugin(t *testing.T, name string, defines ...string) string {
	t.Helper()
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	include, err := filepath.Abs("../../include")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), name+".so")
	args := []string{"-shared", "-fPIC", "-O1", "-fvisibility=hidden", "-I", include, "-o", out}
	for _, d := range defines {
		args = append(args, "-D"+d)
	}
	args = append(args, "testdata/predicting_plugin.c")
	if b, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v\n%s", cc, args, err, b)
	}
	return plugindir.Canonical(out)
}

// loadOnly makes a manager of exactly these plugin files (ABSOLUTE mode).
func loadOnly(t *testing.T, files ...string) (*Manager, []error) {
	t.Helper()
	resetState(t)
	if err := SetPaths(files, api.HIPDNN_PLUGIN_LOADING_ABSOLUTE); err != nil {
		t.Fatal(err)
	}
	m, errs, err := Acquire()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Release)
	return m, errs
}

func policyNames(m *Manager) []string {
	var out []string
	for _, p := range m.Policies() {
		out = append(out, p.Name)
	}
	return out
}

func mapped(path string) bool {
	b, _ := os.ReadFile("/proc/self/maps")
	return strings.Contains(string(b), path)
}

var builtinNames = []string{PolicyConfig, PolicyStaticOrdering, PolicyModeA, PolicyModeB}

func TestSharedPluginsLoadChecks(t *testing.T) {
	clearEnv(t)
	tests := []struct {
		plugin   string
		loaded   string   // policy name it adds, "" if rejected
		errParts []string // message of the rejection
	}{
		{plugin: "test_good_heuristic_plugin", loaded: "TestHeuristic::Reverse"},
		{plugin: "test_no_optional_heuristic_plugin", loaded: "TestHeuristic::NoOptional"},
		{plugin: "test_declining_heuristic_plugin", loaded: "TestHeuristic::Decline"},
		{plugin: "test_invalid_permutation_heuristic_plugin", loaded: "TestHeuristic::InvalidPermutation"},
		{plugin: "test_device_properties_fail_heuristic_plugin", loaded: "TestHeuristic::DevicePropertiesFail"},
		{plugin: "test_incomplete_heuristic_api_plugin",
			errParts: []string{"Error loading plugin from [", "Failed to get symbol hipdnnHeuristicPolicyGetSortedEngineIds"}},
		{plugin: "test_bad_api_version_heuristic_plugin",
			errParts: []string{"heuristic API version 1.0.0 does not match expected heuristic API major version 0"}},
		{plugin: "test_empty_name_heuristic_plugin",
			errParts: []string{"policy " + FormatID(PolicyNameToID("TestHeuristic::EmptyName")) + " has an empty name"}},
	}
	for _, tt := range tests {
		t.Run(tt.plugin, func(t *testing.T) {
			path := sharedPlugin(t, tt.plugin)
			logs := captureLogs(t, api.HIPDNN_SEV_INFO)
			m, errs := loadOnly(t, path)
			if tt.loaded == "" {
				if len(errs) != 1 {
					t.Fatalf("errors %v", errs)
				}
				wantStatus(t, errs[0], api.HIPDNN_STATUS_PLUGIN_ERROR, append(tt.errParts, path)...)
				if !slices.Equal(policyNames(m), builtinNames) || len(m.PluginPaths()) != 0 {
					t.Fatalf("policies %v", policyNames(m))
				}
				if mapped(path) {
					t.Fatal("rejected plugin still mapped")
				}
				return
			}
			if len(errs) != 0 {
				t.Fatalf("errors %v", errs)
			}
			ps := m.Policies()
			last := ps[len(ps)-1]
			want := PolicyInfo{ID: PolicyNameToID(tt.loaded), Name: tt.loaded, PluginName: tt.plugin, PluginVersion: "1.0.0-test", APIVersion: "0.1.0"}
			if len(ps) != len(builtinNames)+1 || last != want {
				t.Fatalf("policies %+v", ps)
			}
			if !slices.Equal(m.PluginPaths(), []string{path}) {
				t.Fatalf("paths %v", m.PluginPaths())
			}
			// The plugin's log sink reaches the backend logger.
			if !strings.Contains(logs.String(), "["+tt.plugin+"] logging callback installed") {
				t.Fatalf("plugin log line missing: %q", logs.String())
			}
		})
	}
}

func TestSharedPluginsDuplicatePolicyID(t *testing.T) {
	clearEnv(t)
	a := sharedPlugin(t, "test_duplicate_policy_id_a_plugin")
	b := sharedPlugin(t, "test_duplicate_policy_id_b_plugin")
	m, errs := loadOnly(t, b, a)
	if len(errs) != 1 {
		t.Fatalf("errors %v", errs)
	}
	id := FormatID(PolicyNameToID("TestHeuristic::Duplicate"))
	wantStatus(t, errs[0], api.HIPDNN_STATUS_PLUGIN_ERROR, "Error loading plugin from ["+b+"]",
		`policy "TestHeuristic::Duplicate" (`+id+")", "already provided by "+a)
	if !slices.Equal(m.PluginPaths(), []string{a}) || mapped(b) {
		t.Fatalf("loaded %v", m.PluginPaths())
	}
}

func TestSharedPluginsWholeDirectory(t *testing.T) {
	clearEnv(t)
	good := sharedPlugin(t, "test_good_heuristic_plugin")
	resetState(t)
	t.Setenv(EnvPluginDir, filepath.Dir(good))
	m, errs, err := Acquire()
	if err != nil {
		t.Fatal(err)
	}
	defer m.Release()
	if len(errs) != 4 { // incomplete, bad API version, empty name, duplicate b
		t.Fatalf("errors: %v", errs)
	}
	if got := len(m.Policies()); got != len(builtinNames)+6 {
		t.Fatalf("%d policies: %v", got, policyNames(m))
	}
	for _, p := range m.Policies() {
		if p.ID != PolicyNameToID(p.Name) || p.Name == "" || p.PluginName == "" || p.PluginVersion == "" {
			t.Errorf("policy %+v", p)
		}
	}
}

func TestSharedPluginsRanking(t *testing.T) {
	clearEnv(t)
	good := sharedPlugin(t, "test_good_heuristic_plugin")
	files := []string{good,
		sharedPlugin(t, "test_no_optional_heuristic_plugin"),
		sharedPlugin(t, "test_declining_heuristic_plugin"),
		sharedPlugin(t, "test_invalid_permutation_heuristic_plugin"),
		sharedPlugin(t, "test_device_properties_fail_heuristic_plugin")}
	m, errs := loadOnly(t, files...)
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	s := NewSession(m)
	defer s.Close()
	id := PolicyNameToID
	cands := []int64{idMIOpen, -2, idCPURef}
	req := Request{Candidates: cands, Graph: encode(t, convGraph(t)), Metric: "time",
		DeviceProps: DevicePropertiesBlob(&hip.DeviceProperties{ID: 0, Arch: "gfx942:sramecc+:xnack-", MultiProcessorCount: 304})}

	t.Run("good plugin: reversed, host table v2, exact configs", func(t *testing.T) {
		req := req
		req.Order = []int64{id("TestHeuristic::Reverse")}
		res, err := s.Rank(req)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.EngineIDs, []int64{idCPURef, -2, idMIOpen}) || res.PolicyID != id("TestHeuristic::Reverse") {
			t.Fatalf("%+v", res)
		}
		if len(res.Configs) != 3 {
			t.Fatalf("configs for %d engines", len(res.Configs))
		}
		for eid, blob := range res.Configs {
			c, err := decodeEngineConfig(blob)
			if err != nil || c.engineID != eid || c.metric != "time" {
				t.Fatalf("config %+v %v", c, err)
			}
		}
		f, ok, err := plugintest.LastFinalize(good)
		if err != nil || !ok {
			t.Fatalf("accessor: %v %v", ok, err)
		}
		want := plugintest.Finalize{UsedHostTable: true, HostVersion: 2, HostStructSize: 40, RankingMetric: "time", DeviceArch: "gfx942:sramecc+:xnack-"}
		if f != want {
			t.Fatalf("plugin saw %+v, want %+v", f, want)
		}
	})
	t.Run("no optional entries: Finalize, id-only result", func(t *testing.T) {
		req := req
		req.Order = []int64{id("TestHeuristic::NoOptional")}
		res, err := s.Rank(req)
		if err != nil || !slices.Equal(res.EngineIDs, cands) || res.Configs != nil {
			t.Fatalf("%+v %v", res, err)
		}
	})
	t.Run("decline, invalid permutation and device properties failure fall through", func(t *testing.T) {
		logs := captureLogs(t, api.HIPDNN_SEV_ERROR)
		req := req
		req.Order = []int64{id("TestHeuristic::Decline"), id("TestHeuristic::InvalidPermutation"),
			id("TestHeuristic::DevicePropertiesFail"), id("TestHeuristic::NoOptional")}
		res, err := s.Rank(req)
		if err != nil || res.PolicyID != id("TestHeuristic::NoOptional") {
			t.Fatalf("%+v %v", res, err)
		}
		for _, want := range []string{"TestHeuristic::InvalidPermutation returned an invalid ordering",
			"libtest_device_properties_fail_heuristic_plugin.so: hipdnnHeuristicHandleSetDeviceProperties failed",
			"SetDeviceProperties fails on purpose"} {
			if !strings.Contains(logs.String(), want) {
				t.Errorf("log lacks %q:\n%s", want, logs.String())
			}
		}
		req.Order = req.Order[:3]
		_, err = s.Rank(req)
		wantStatus(t, err, api.HIPDNN_STATUS_INTERNAL_ERROR, "No heuristic policy succeeded",
			"TestHeuristic::Decline: declined", "TestHeuristic::InvalidPermutation: invalid ordering",
			"TestHeuristic::DevicePropertiesFail: SetDeviceProperties failed")
		// The failing plugin is disabled for that ranking only: StaticOrdering after it still runs.
		req.Order = []int64{id("TestHeuristic::DevicePropertiesFail"), id(PolicyStaticOrdering)}
		if res, err := s.Rank(req); err != nil || res.PolicyID != id(PolicyStaticOrdering) {
			t.Fatalf("%+v %v", res, err)
		}
	})
}

func TestPluginHostCallbacks(t *testing.T) {
	clearEnv(t)
	path := buildPlugin(t, "predicting")
	logs := captureLogs(t, api.HIPDNN_SEV_INFO)
	m, errs := loadOnly(t, path)
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	want := PolicyInfo{ID: PolicyNameToID("GoTest::Predicting"), Name: "GoTest::Predicting", PluginName: "go_test_predicting_plugin",
		PluginVersion: "1.0.0-gotest", APIVersion: "0.1.0"}
	if ps := m.Policies(); ps[len(ps)-1] != want {
		t.Fatalf("policies %+v", ps)
	}
	s := NewSession(m)
	defer s.Close()
	avail := fb.PredictionStatusAVAILABLE
	pred := mapPredictor{
		{1, PredictionEngine}: predictionBlob(1, PredictionEngine, avail, 5, "tflops", nil),
		{2, PredictionEngine}: predictionBlob(2, PredictionEngine, avail, 50, "tflops", nil),
		{4, PredictionEngine}: predictionBlob(4, PredictionEngine, avail, 20, "tflops", nil),
	}
	req := Request{Candidates: []int64{1, 2, 3, 4}, Graph: encode(t, convGraph(t)), DeviceProps: DevicePropertiesBlob(nil),
		Order: []int64{PolicyNameToID("GoTest::Predicting"), PolicyNameToID(PolicyStaticOrdering)}, Metric: "tflops", Predictor: pred}
	res, err := s.Rank(req)
	if err != nil || res.PolicyID != want.ID || !slices.Equal(res.EngineIDs, []int64{2, 4, 1, 3}) {
		t.Fatalf("%+v %v", res, err)
	}
	// Configs for engines at even result positions, with the metric overwritten ("bogus" in the plugin).
	if len(res.Configs) != 2 || res.Configs[2] == nil || res.Configs[1] == nil {
		t.Fatalf("configs %v", res.Configs)
	}
	for eid, blob := range res.Configs {
		if c, err := decodeEngineConfig(blob); err != nil || c.engineID != eid || c.metric != "tflops" {
			t.Fatalf("config %+v %v", c, err)
		}
	}
	if !strings.Contains(logs.String(), "[go_test_predicting_plugin] ranked by predictions") {
		t.Fatalf("log %q", logs.String())
	}

	// The table carries the effective metric; "time" predictions rank lower-first.
	req.Metric = "time"
	req.Predictor = mapPredictor{
		{1, PredictionEngine}: predictionBlob(1, PredictionEngine, avail, 5, "time", nil),
		{3, PredictionEngine}: predictionBlob(3, PredictionEngine, avail, 0.5, "time", nil),
	}
	if res, err = s.Rank(req); err != nil || !slices.Equal(res.EngineIDs, []int64{3, 1, 2, 4}) {
		t.Fatalf("time: %+v %v", res, err)
	}
	// No predictor: the plugin declines and StaticOrdering answers.
	req.Predictor = nil
	if res, err = s.Rank(req); err != nil || res.PolicyID != PolicyNameToID(PolicyStaticOrdering) {
		t.Fatalf("no predictions: %+v %v", res, err)
	}
	// A context that is not registered is refused without touching the output.
	if st := getPrediction(1<<62, 1, PredictionEngine, nil); st != pluginBadParam {
		t.Fatalf("stale context: %d", st)
	}
}

func TestPluginWrongConfigAndPolicyClashes(t *testing.T) {
	clearEnv(t)
	wrong := buildPlugin(t, "wrong", `POLICY_NAME="GoTest::WrongConfig"`, "WRONG_CONFIG_ENGINE")
	clash := buildPlugin(t, "clash", `POLICY_NAME="SelectionHeuristic::Config"`)
	m, errs := loadOnly(t, wrong, clash)
	if len(errs) != 1 {
		t.Fatalf("errors %v", errs)
	}
	wantStatus(t, errs[0], api.HIPDNN_STATUS_PLUGIN_ERROR, clash, `policy "SelectionHeuristic::Config"`,
		"already provided by built-in:BuiltInConfigHeuristic")
	s := NewSession(m)
	defer s.Close()
	req := Request{Candidates: []int64{1, 2}, Graph: encode(t, convGraph(t)), DeviceProps: DevicePropertiesBlob(nil),
		Order: []int64{PolicyNameToID("GoTest::WrongConfig"), PolicyNameToID(PolicyStaticOrdering)}, Metric: "tflops",
		Predictor: mapPredictor{{1, PredictionEngine}: predictionBlob(1, PredictionEngine, fb.PredictionStatusAVAILABLE, 1, "", nil)}}
	res, err := s.Rank(req)
	if err != nil || res.PolicyID != PolicyNameToID(PolicyStaticOrdering) {
		t.Fatalf("%+v %v", res, err)
	}
	req.Order = req.Order[:1]
	_, err = s.Rank(req)
	wantStatus(t, err, api.HIPDNN_STATUS_INTERNAL_ERROR, "GoTest::WrongConfig: invalid EngineConfig for engine 0x0000000000000001",
		"the config names engine 0x0000000000000002")
}

func TestPluginUnloadModes(t *testing.T) {
	clearEnv(t)
	path := buildPlugin(t, "unload")
	resetState(t)
	if err := SetPaths([]string{path}, api.HIPDNN_PLUGIN_LOADING_ABSOLUTE); err != nil {
		t.Fatal(err)
	}
	m, _, _ := Acquire()
	s := NewSession(m)
	s.Close()
	m.Release()
	if !mapped(path) {
		t.Fatal("LAZY: plugin unmapped after the last Release")
	}
	SetUnloadMode(api.HIPDNN_PLUGIN_UNLOAD_EAGER)
	if mapped(path) {
		t.Fatal("EAGER: plugin still mapped with no handle")
	}
	m, _, _ = Acquire()
	if !mapped(path) {
		t.Fatal("not reloaded")
	}
	m.Release()
	if mapped(path) {
		t.Fatal("EAGER: plugin still mapped after the last Release")
	}
}

func TestPluginLogLevelPropagates(t *testing.T) {
	clearEnv(t)
	path := buildPlugin(t, "levels", "WITH_SET_LOG_LEVEL")
	logs := captureLogs(t, api.HIPDNN_SEV_INFO)
	m, _ := loadOnly(t, path)
	if got := plugintest.LastLogLevel(path); got != int(api.HIPDNN_SEV_INFO) {
		t.Fatalf("level at load %d", got)
	}
	logging.SetLevel(api.HIPDNN_SEV_ERROR)
	if got := plugintest.LastLogLevel(path); got != int(api.HIPDNN_SEV_ERROR) {
		t.Fatalf("level after SetLevel %d", got)
	}
	s := NewSession(m)
	defer s.Close()
	req := Request{Candidates: []int64{1}, Graph: encode(t, convGraph(t)), DeviceProps: DevicePropertiesBlob(nil),
		Order:     []int64{PolicyNameToID("GoTest::Predicting")},
		Predictor: mapPredictor{{1, PredictionEngine}: predictionBlob(1, PredictionEngine, fb.PredictionStatusAVAILABLE, 1, "", nil)}}
	if _, err := s.Rank(req); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(logs.String(), "ranked by predictions") {
		t.Fatal("an INFO plugin message passed the ERROR level")
	}
	logging.SetLevel(api.HIPDNN_SEV_INFO)
	if _, err := s.Rank(req); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(logs.String(), "ranked by predictions") {
		t.Fatal("plugin message missing at INFO")
	}
}
