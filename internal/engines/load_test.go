package engines

import (
	"strings"
	"testing"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/engines/probe"
	"github.com/hipdnn-go/backend/internal/logging"
	"github.com/hipdnn-go/backend/internal/version"
)

func TestLoadGoodPlugin(t *testing.T) {
	file := pluginFile(t, "test_good_plugin")
	m, errs := acquire(t, file)
	if len(errs) != 0 {
		t.Fatalf("load errors: %v", errs)
	}
	if len(m.Plugins()) != 1 {
		t.Fatalf("%d plugins loaded, want 1", len(m.Plugins()))
	}
	p := m.Plugins()[0]
	if p.Path != file || p.Name != "test_good_plugin" || p.Version != "1.0.0-test" {
		t.Errorf("plugin = %q %q %q", p.Path, p.Name, p.Version)
	}
	if _, max := HostedAPIRange(); p.APIVersion != max {
		t.Errorf("APIVersion = %v, want %v", p.APIVersion, max)
	}
	if !p.SupportsSerialization() || p.SupportsOverrides() {
		t.Errorf("serialization %v overrides %v, want true false", p.SupportsSerialization(), p.SupportsOverrides())
	}
	if got := m.LoadedPaths(); len(got) != 1 || got[0] != file {
		t.Errorf("LoadedPaths = %v", got)
	}
	e := m.EngineByID(-2)
	if e == nil || e.Name != "0xFFFFFFFFFFFFFFFE" || e.Plugin != p || e.HostMemory || e.Memory != MemoryDevice|MemoryManaged {
		t.Fatalf("engine -2 = %+v", e)
	}
	if m.EngineByName("0xFFFFFFFFFFFFFFFE") != e || m.EngineByName("") != nil || m.EngineByID(-3) != nil {
		t.Error("lookup by name/id is wrong")
	}
}

// Plugins the loader must reject, and the message it gives (spec §5.4, plugin_api.md §7).
func TestLoadRejectsBadPlugins(t *testing.T) {
	tests := []struct {
		plugin string
		code   api.Status
		want   []string
	}{
		{"test_incomplete_api_plugin", api.HIPDNN_STATUS_PLUGIN_ERROR,
			[]string{"Failed to get symbol hipdnnEnginePluginGetWorkspaceSize from "}},
		{"test_incompatible_version_plugin", api.HIPDNN_STATUS_NOT_SUPPORTED,
			[]string{"does not match expected engine API major version", "2.0.0", "version 1 ", "1.4.0"}},
		{"test_malformed_version_plugin", api.HIPDNN_STATUS_NOT_SUPPORTED, []string{`"one.two"`}},
		{"test_faulty_wrong_type_plugin", api.HIPDNN_STATUS_PLUGIN_ERROR,
			[]string{"Plugin type mismatch", "HIPDNN_PLUGIN_TYPE_HEURISTIC"}},
		{"test_faulty_zero_engines_plugin", api.HIPDNN_STATUS_PLUGIN_ERROR, []string{"declares no engines"}},
		{"test_faulty_count_mismatch_plugin", api.HIPDNN_STATUS_PLUGIN_ERROR, []string{"reported 2 engines, then returned 1"}},
		{"test_faulty_duplicate_ids_plugin", api.HIPDNN_STATUS_PLUGIN_ERROR,
			[]string{"declares engine 0xFFFFFFFFFFFFFF99 (-103) more than once"}},
	}
	for _, tt := range tests {
		t.Run(tt.plugin, func(t *testing.T) {
			file := pluginFile(t, tt.plugin)
			m, errs := acquire(t, file)
			if len(m.Plugins()) != 0 || len(m.Engines()) != 0 {
				t.Errorf("%d plugins, %d engines loaded, want none", len(m.Plugins()), len(m.Engines()))
			}
			if len(errs) != 1 {
				t.Fatalf("load errors = %v, want one", errs)
			}
			wantStatus(t, errs[0], tt.code, append(tt.want, file)...)
			if mapped(t, file) {
				t.Errorf("%s is still mapped after being rejected", file)
			}
		})
	}
}

// A bad plugin never stops the good ones, and the rest of the set loads in path order.
func TestBadPluginDoesNotStopOthers(t *testing.T) {
	m, errs := acquire(t, pluginFile(t, "test_incomplete_api_plugin"), pluginFile(t, "test_good_plugin"),
		pluginFile(t, "test_malformed_version_plugin"))
	if len(errs) != 2 || len(m.Plugins()) != 1 || m.Plugins()[0].Name != "test_good_plugin" {
		t.Fatalf("errs %v, plugins %d", errs, len(m.Plugins()))
	}
}

func TestVersionZeroLoads(t *testing.T) {
	m, errs := acquire(t, pluginFile(t, "test_version_zero_plugin"))
	if len(errs) != 0 || len(m.Plugins()) != 1 {
		t.Fatalf("errs %v plugins %d", errs, len(m.Plugins()))
	}
	if v := m.Plugins()[0].APIVersion; v != (version.Triple{}) {
		t.Errorf("APIVersion = %v", v)
	}
	s := NewSession(m)
	defer s.Close()
	ids, err := s.ApplicableEngines(testGraph(), GraphFeatures{}, false)
	if err != nil || len(ids) != 0 {
		t.Errorf("a 0.x plugin must never be applicable: %v %v", ids, err)
	}
}

func TestMinimalPluginAssumesBaseline(t *testing.T) {
	m, errs := acquire(t, pluginFile(t, "test_minimal_plugin"))
	if len(errs) != 0 || len(m.Plugins()) != 1 {
		t.Fatalf("errs %v plugins %d", errs, len(m.Plugins()))
	}
	p := m.Plugins()[0]
	if p.APIVersion != (version.Triple{Major: 1}) {
		t.Errorf("APIVersion = %v, want the assumed 1.0.0", p.APIVersion)
	}
	if p.SupportsSerialization() || p.SupportsOverrides() {
		t.Error("minimal plugin exports no optional entry points")
	}
	if e := m.EngineByID(-30); e == nil || e.Name != FormatEngineID(-30) {
		t.Errorf("engine -30 = %+v", e)
	}
}

func TestEngineNames(t *testing.T) {
	logs := captureLogs(t)
	m, errs := acquire(t,
		pluginFile(t, "test_good_default_plugin"),
		pluginFile(t, "test_hashed_name_plugin"),
		pluginFile(t, "test_lying_engine_name_plugin"),
		pluginFile(t, "test_mismatched_name_plugin"),
		pluginFile(t, "test_knobs_plugin"))
	if len(errs) != 0 || len(m.Plugins()) != 5 {
		t.Fatalf("errs %v plugins %d", errs, len(m.Plugins()))
	}
	want := map[int64]string{
		0x5FB06B52DB2039AC:                        "TEST_GOOD_DEFAULT_ENGINE",
		EngineNameToID("TEST_HASHED_NAME_ENGINE"): "TEST_HASHED_NAME_ENGINE",
		-26: "0xFFFFFFFFFFFFFFE6", // SUCCESS with a NULL name: unnamed
		-27: "0xFFFFFFFFFFFFFFE5", // SUCCESS with "": unnamed
		-8:  "0xFFFFFFFFFFFFFFF8", // EngineDetails.name never names an engine
		-9:  "0xFFFFFFFFFFFFFFF7",
	}
	for id, name := range want {
		e := m.EngineByID(id)
		if e == nil || e.Name != name {
			t.Errorf("engine %d = %+v, want name %q", id, e, name)
			continue
		}
		if m.EngineByName(name) != e {
			t.Errorf("EngineByName(%q) does not find engine %d", name, id)
		}
	}
	for _, dropped := range []int64{-28, -29} {
		if m.EngineByID(dropped) != nil {
			t.Errorf("engine %d must be dropped", dropped)
		}
	}
	if m.EngineByName("TEST_MISMATCHED_NAME_ENGINE") != nil || m.EngineByName("TEST_LYING_ENGINE_NAME_MUST_BE_IGNORED") != nil {
		t.Error("a dropped engine's name surfaced")
	}
	for _, e := range m.Engines() {
		if strings.Contains(e.Name, "MUST_BE_IGNORED") {
			t.Errorf("engine %d is named %q", e.ID, e.Name)
		}
	}
	got := logs.String()
	if strings.Contains(got, "TEST_LYING_ENGINE_NAME_MUST_BE_IGNORED") {
		t.Error("the name a failing GetEngineName wrote reached the log")
	}
	mismatch := EngineNameToID("TEST_MISMATCHED_NAME_ENGINE")
	for _, frag := range []string{
		`names engine 0xFFFFFFFFFFFFFFE3 (-29) "TEST_MISMATCHED_NAME_ENGINE", but that name hashes to engine id ` + FormatEngineID(mismatch),
		"Failed to get the name of engine 0xFFFFFFFFFFFFFFE4 (-28). Status: HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR(3)",
	} {
		if !strings.Contains(got, frag) {
			t.Errorf("log lacks %q:\n%s", frag, got)
		}
	}
	// Sorted by name, then id, then plugin name.
	engines := m.Engines()
	for i := 1; i < len(engines); i++ {
		a, b := engines[i-1], engines[i]
		if a.Name > b.Name || (a.Name == b.Name && a.ID > b.ID) {
			t.Errorf("engines out of order: %q (%d) before %q (%d)", a.Name, a.ID, b.Name, b.ID)
		}
	}
	if engines[len(engines)-1].Name != "TEST_HASHED_NAME_ENGINE" {
		t.Errorf("last engine %q, want TEST_HASHED_NAME_ENGINE", engines[len(engines)-1].Name)
	}
}

// Two plugins claiming one id: both load, the first in path order keeps it, the other
// plugin's other engines stay, and the log names both files.
func TestDuplicateEngineIDAcrossPlugins(t *testing.T) {
	logs := captureLogs(t)
	a, b := pluginFile(t, "test_duplicate_id_a_plugin"), pluginFile(t, "test_duplicate_id_b_plugin")
	m, errs := acquire(t, b, a)
	if len(errs) != 0 || len(m.Plugins()) != 2 {
		t.Fatalf("errs %v plugins %d", errs, len(m.Plugins()))
	}
	if m.Plugins()[0].Path != a {
		t.Fatalf("load order: %s first, want %s", m.Plugins()[0].Path, a)
	}
	if e := m.EngineByID(-7); e == nil || e.Plugin.Path != a {
		t.Errorf("engine -7 = %+v, want it owned by %s", e, a)
	}
	if e := m.EngineByID(-6); e == nil || e.Plugin.Path != b {
		t.Errorf("engine -6 = %+v, want it owned by %s", e, b)
	}
	if n := len(m.Engines()); n != 2 {
		t.Errorf("%d engines, want 2 (-7 once, -6)", n)
	}
	line := ""
	for _, l := range strings.Split(logs.String(), "\n") {
		if strings.Contains(l, "already provided by plugin") {
			line = l
		}
	}
	if !strings.Contains(line, a) || !strings.Contains(line, b) || !strings.Contains(line, "[error]") {
		t.Errorf("duplicate log line %q must be an error naming %s and %s", line, a, b)
	}
	// b offers -7 and -6 for every graph: the dropped -7 is skipped silently.
	s := NewSession(m)
	defer s.Close()
	ids, err := s.ApplicableEngines(testGraph(), GraphFeatures{}, false)
	if err != nil || len(ids) != 2 || ids[0] != -7 || ids[1] != -6 {
		t.Errorf("applicable = %v, %v; want [-7 -6]", ids, err)
	}
}

// The plugin gets the backend's log sink and the global level at load, and every level change.
func TestLogLevelAndSink(t *testing.T) {
	logs := captureLogs(t)
	s := session(t, "test_good_plugin")
	p := s.Manager().Plugins()[0]
	lastLevel := probeFn(p, "hipdnnTestGetLastLogLevel")
	if got := probe.I32(lastLevel); got != int32(api.HIPDNN_SEV_INFO) {
		t.Errorf("level at load = %d, want INFO", got)
	}
	logging.SetLevel(api.HIPDNN_SEV_WARN)
	if got := probe.I32(lastLevel); got != int32(api.HIPDNN_SEV_WARN) {
		t.Errorf("level after SetLevel(WARN) = %d", got)
	}
	logging.SetLevel(api.HIPDNN_SEV_INFO)
	if !logSinkIsFallback() {
		t.Log("hipdnnLoggingCallback_ext is linked into the test binary")
	}
	// The good plugin logs "handle created" through the sink when a session opens.
	if !strings.Contains(logs.String(), "[test_good_plugin] handle created") {
		t.Errorf("plugin log did not reach the backend logger:\n%s", logs.String())
	}
}
