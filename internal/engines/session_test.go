package engines

import (
	"strings"
	"testing"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/engines/probe"
)

// The applicability filter: plugins below the graph's floor, or without the override entry
// point for override graphs, are never asked (plugin_api.md §0, §1.5, §6.3).
func TestApplicabilityFloors(t *testing.T) {
	s := session(t,
		"test_good_plugin",                  // 1.4.0, no override symbol            -> -2
		"test_override_implementing_plugin", // 1.1.0 + override symbol              -> -12
		"test_override_omitting_plugin",     // 1.0.0, no override symbol            -> -13
		"test_version_liar_plugin",          // 1.1.0, no override symbol            -> -14
		"test_second_override_plugin",       // 1.1.0 + override symbol              -> -15
		"test_version_zero_plugin",          // 0.0.0: never                         -> -17
		"test_pass_by_value_plugin",         // 1.2.0                                -> -24
		"test_no_applicable_engines_a_plugin",
	)
	graph := testGraph()
	// Expected ids in plugin path order (the session's plugins are sorted by path).
	order := func(ids ...int64) []int64 {
		want := map[int64]bool{}
		for _, id := range ids {
			want[id] = true
		}
		var out []int64
		for _, p := range s.Manager().Plugins() {
			for _, e := range p.Engines() {
				if want[e.ID] {
					out = append(out, e.ID)
				}
			}
		}
		return out
	}
	tests := []struct {
		desc string
		give GraphFeatures
		want []int64
	}{
		{"baseline", GraphFeatures{}, order(-2, -12, -13, -14, -15, -24)},
		{"override shapes", GraphFeatures{OverrideShapes: true}, order(-12, -15)},
		{"runtime pass-by-value", GraphFeatures{RuntimePassByValue: true}, order(-2, -24)},
		{"ragged", GraphFeatures{Ragged: true}, order(-2)},
		{"custom alignment", GraphFeatures{CustomAlignment: true}, order(-2)},
		{"ragged and overrides", GraphFeatures{Ragged: true, OverrideShapes: true}, nil},
	}
	for _, tt := range tests {
		got, err := s.ApplicableEngines(graph, tt.give, false)
		if err != nil {
			t.Fatalf("%s: %v", tt.desc, err)
		}
		if !equalIDs(got, tt.want) {
			t.Errorf("%s: applicable %v, want %v", tt.desc, got, tt.want)
		}
		first, err := s.ApplicableEngines(graph, tt.give, true)
		if err != nil {
			t.Fatalf("%s (find first): %v", tt.desc, err)
		}
		if want := tt.want; len(want) > 0 && !equalIDs(first, want[:1]) {
			t.Errorf("%s: find-first %v, want %v", tt.desc, first, want[:1])
		}
		for _, id := range []int64{-2, -12, -13, -14, -17} {
			ok, err := s.IsApplicable(id, graph, tt.give)
			if err != nil || ok != contains(tt.want, id) {
				t.Errorf("%s: IsApplicable(%d) = %v, %v", tt.desc, id, ok, err)
			}
		}
	}
	if ok, err := s.IsApplicable(-999, graph, GraphFeatures{}); ok || err != nil {
		t.Errorf("IsApplicable(unknown) = %v, %v", ok, err)
	}
}

func equalIDs(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func contains(ids []int64, id int64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

func TestApplicabilityValidation(t *testing.T) {
	tests := []struct {
		plugin string
		want   []string
	}{
		{"test_faulty_applicable_overflow_plugin", []string{"reported 2 applicable engines, more than the 1 it was asked for"}},
		{"test_faulty_undeclared_id_plugin", []string{"reported engine 0xFFFFFFFFFFFFFBE6 (-1050) as applicable, but it never declared that engine"}},
	}
	for _, tt := range tests {
		t.Run(tt.plugin, func(t *testing.T) {
			s := session(t, tt.plugin)
			_, err := s.ApplicableEngines(testGraph(), GraphFeatures{}, false)
			wantStatus(t, err, api.HIPDNN_STATUS_PLUGIN_ERROR, append(tt.want, tt.plugin)...)
		})
	}
	// A graph the plugin cannot verify: its failure comes back with the plugin's own text.
	s := session(t, "test_good_plugin")
	_, err := s.ApplicableEngines([]byte{1, 2, 3}, GraphFeatures{}, false)
	wantStatus(t, err, api.HIPDNN_STATUS_PLUGIN_ERROR,
		"Failed to get applicable engine ids from plugin test_good_plugin. Status: HIPDNN_PLUGIN_STATUS_BAD_PARAM(1), Error: ")
}

func TestPluginHandles(t *testing.T) {
	logs := captureLogs(t)
	s := session(t, "test_good_plugin", "test_faulty_create_null_plugin",
		"test_faulty_shared_handle_a_plugin", "test_faulty_shared_handle_b_plugin")
	m := s.Manager()
	// The NULL-handle plugin and the second shared-handle plugin are skipped for this session.
	for _, id := range []int64{-112, -114} {
		if m.EngineByID(id) == nil {
			t.Fatalf("engine %d must still be loaded", id)
		}
		_, err := s.CreateContext(id, EncodeEngineConfig(id, nil, ""), testGraph(), nil, false)
		wantStatus(t, err, api.HIPDNN_STATUS_PLUGIN_ERROR, "has no plugin handle in this hipdnnHandle")
	}
	ids, err := s.ApplicableEngines(testGraph(), GraphFeatures{}, false)
	if err != nil || !equalIDs(ids, []int64{-2, -113}) && !equalIDs(ids, []int64{-113, -2}) {
		t.Errorf("applicable %v, %v; want -2 and -113 only", ids, err)
	}
	got := logs.String()
	for _, frag := range []string{"hipdnnEnginePluginCreate returned a NULL handle", "returned the same handle as plugin", "symbol collision"} {
		if !strings.Contains(got, frag) {
			t.Errorf("log lacks %q", frag)
		}
	}
	if n := liveObjects(t, m.Plugins()[indexOf(m, "test_good_plugin")], liveHandles); n != 1 {
		t.Errorf("good plugin has %d live handles, want 1", n)
	}
}

func indexOf(m *Manager, name string) int {
	for i, p := range m.Plugins() {
		if p.Name == name {
			return i
		}
	}
	return -1
}

func TestSetStream(t *testing.T) {
	s := session(t, "test_good_plugin", "test_knobs_plugin")
	p := s.Manager().Plugins()[indexOf(s.Manager(), "test_good_plugin")]
	last := probeFn(p, "hipdnnTestGetLastStream")
	if err := s.SetStream(0x1234560); err != nil {
		t.Fatal(err)
	}
	if got := probe.Ptr(last); got != 0x1234560 {
		t.Errorf("plugin saw stream %#x", got)
	}
}

func TestEngineDetails(t *testing.T) {
	s := session(t, "test_good_plugin", "test_knobs_plugin", "test_knob_constraint_validation_plugin")
	graph := testGraph()
	d, err := s.EngineDetails(-2, graph)
	if err != nil {
		t.Fatal(err)
	}
	if d.EngineID != -2 || len(d.Knobs) != 0 || !equalNotes(d.BehaviorNotes, 4) {
		t.Errorf("details of -2 = %+v", d)
	}
	good := s.Manager().Plugins()[indexOf(s.Manager(), "test_good_plugin")]
	if n := liveObjects(t, good, liveDetails); n != 0 {
		t.Errorf("%d EngineDetails buffers still alive in the plugin", n)
	}

	d, err = s.EngineDetails(-8, graph)
	if err != nil {
		t.Fatal(err)
	}
	if !equalNotes(d.BehaviorNotes, 0, 2) || len(d.Knobs) != 3 {
		t.Fatalf("details of -8 = %+v", d)
	}
	tile := d.Knob("test.knobs.tile_size")
	if tile == nil || tile.Default != (KnobValue{Kind: KnobInt, I: 64}) || tile.Description != "tile edge in elements" ||
		tile.Constraint.Kind != KnobInt || tile.Constraint.IntMin != 16 || tile.Constraint.IntMax != 256 || tile.Constraint.IntStep != 16 {
		t.Errorf("tile_size = %+v", tile)
	}
	mode := d.Knob("test.knobs.mode")
	if mode == nil || mode.Default.S != "fast" || mode.Constraint.MaxLength != 16 ||
		strings.Join(mode.Constraint.StringValues, ",") != "fast,accurate" {
		t.Errorf("mode = %+v", mode)
	}
	alpha := d.Knob("test.knobs.alpha")
	if alpha == nil || alpha.Default != (KnobValue{Kind: KnobFloat, F: 0.5}) || alpha.Constraint.FloatMax != 1 {
		t.Errorf("alpha = %+v", alpha)
	}
	// Serialized is each Knob as its own flatbuffer, readable on its own.
	for _, k := range d.Knobs {
		back, err := decodeKnob(k.Serialized)
		if err != nil || back.ID != k.ID || back.Default != k.Default || back.Deprecated != k.Deprecated ||
			back.Constraint.Kind != k.Constraint.Kind {
			t.Errorf("knob %s does not survive its serialized form: %+v %v", k.ID, back, err)
		}
	}
	d9, err := s.EngineDetails(-9, graph)
	if err != nil {
		t.Fatal(err)
	}
	if k := d9.Knob("test.knobs.split_k"); k == nil || !k.Deprecated || k.Constraint.Kind != KnobNone {
		t.Errorf("split_k = %+v", k)
	}

	_, err = s.EngineDetails(-999, graph)
	wantStatus(t, err, api.HIPDNN_STATUS_BAD_PARAM, "engine id 0xFFFFFFFFFFFFFC19 (-999) is not provided by any loaded engine plugin")
}

func equalNotes(got []int32, want ...int32) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i] != want[i] {
			return false
		}
	}
	return true
}

func TestEngineDetailsRejected(t *testing.T) {
	tests := []struct {
		plugin string
		id     int64
		want   string
	}{
		{"test_faulty_details_null_plugin", -106, "engine details with a NULL buffer"},
		{"test_faulty_details_empty_plugin", -107, "empty engine details"},
		{"test_faulty_details_garbage_plugin", -108, "do not verify as an EngineDetails flatbuffer"},
	}
	for _, tt := range tests {
		t.Run(tt.plugin, func(t *testing.T) {
			s := session(t, tt.plugin)
			_, err := s.EngineDetails(tt.id, testGraph())
			wantStatus(t, err, api.HIPDNN_STATUS_PLUGIN_ERROR, tt.plugin, tt.want)
		})
	}
}

func TestWorkspaceAndContext(t *testing.T) {
	s := session(t, "test_good_plugin")
	graph := testGraph()
	config := EncodeEngineConfig(-2, nil, "")
	ws, err := s.WorkspaceSize(-2, config, graph)
	if err != nil || ws != 1024 {
		t.Errorf("WorkspaceSize = %d, %v; want 1024", ws, err)
	}
	c, err := s.CreateContext(-2, config, graph, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if c.WorkspaceSize() != 2048 || c.EngineID() != -2 {
		t.Errorf("context workspace %d engine %d", c.WorkspaceSize(), c.EngineID())
	}
	p := s.Manager().Plugins()[0]
	if n := liveObjects(t, p, liveContexts); n != 1 {
		t.Errorf("%d live contexts, want 1", n)
	}
	c.Destroy()
	c.Destroy()
	if n := liveObjects(t, p, liveContexts); n != 0 {
		t.Errorf("%d live contexts after Destroy, want 0", n)
	}
	err = c.Execute(testWorkspace, nil, nil)
	wantStatus(t, err, api.HIPDNN_STATUS_BAD_PARAM, "was destroyed")

	_, err = s.CreateContext(-2, config, []byte("not a graph"), nil, false)
	wantStatus(t, err, api.HIPDNN_STATUS_PLUGIN_ERROR,
		"Failed to create an execution context for engine 0xFFFFFFFFFFFFFFFE of plugin test_good_plugin. Status: HIPDNN_PLUGIN_STATUS_BAD_PARAM(1), Error: ")
	_, err = s.WorkspaceSize(-3, config, graph)
	wantStatus(t, err, api.HIPDNN_STATUS_BAD_PARAM, "is not provided by any loaded engine plugin")
}

func TestContextFailures(t *testing.T) {
	s := session(t, "test_faulty_context_null_plugin", "test_faulty_context_workspace_plugin")
	graph := testGraph()
	_, err := s.CreateContext(-109, EncodeEngineConfig(-109, nil, ""), graph, nil, false)
	wantStatus(t, err, api.HIPDNN_STATUS_PLUGIN_ERROR, "test_faulty_context_null_plugin returned a NULL execution context")
	_, err = s.CreateContext(-110, EncodeEngineConfig(-110, nil, ""), graph, nil, false)
	wantStatus(t, err, api.HIPDNN_STATUS_PLUGIN_ERROR,
		"Failed to get the workspace size of the execution context of engine", "HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR(3)",
		"workspace query fails on purpose")
	if n := s.liveContexts(); n != 0 {
		t.Errorf("%d contexts registered after failed creations", n)
	}
}

// The plugin rejects a knob value of the wrong type; the host reports it as PLUGIN_ERROR with
// the plugin's message.
func TestKnobConstraintPluginAgrees(t *testing.T) {
	s := session(t, "test_knob_constraint_validation_plugin")
	graph := testGraph()
	bad := EncodeEngineConfig(-10, []KnobSetting{{ID: "constraint.int_knob", Value: KnobValue{Kind: KnobString, S: "50"}}}, "")
	_, err := s.CreateContext(-10, bad, graph, nil, false)
	wantStatus(t, err, api.HIPDNN_STATUS_PLUGIN_ERROR, "HIPDNN_PLUGIN_STATUS_BAD_PARAM(1)", "constraint.int_knob")
	good := EncodeEngineConfig(-10, []KnobSetting{{ID: "constraint.int_knob", Value: KnobValue{Kind: KnobInt, I: 55}}}, "time")
	c, err := s.CreateContext(-10, good, graph, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	c.Destroy()
}

// DeclineReasons names each plugin that declines the graph, with the reason a plugin on the
// SDK's skeleton leaves ("not applicable: ..."), and none that accepts it.
func TestDeclineReasons(t *testing.T) {
	s := session(t, "test_good_plugin", "test_no_applicable_engines_a_plugin")
	var good, none string
	for _, p := range s.Manager().Plugins() {
		if len(p.Engines()) > 0 && p.Engines()[0].ID == -2 {
			good = p.Name
		} else {
			none = p.Name
		}
	}
	got := s.DeclineReasons(testGraph(), GraphFeatures{})
	if want := none + ": declined without a reason"; got != want {
		t.Errorf("DeclineReasons = %q, want %q (and nothing of %q, which accepts the graph)", got, want, good)
	}
	// A graph feature the good plugin is not offered: it is not asked, so not named.
	if got := s.DeclineReasons(testGraph(), GraphFeatures{OverrideShapes: true}); got != "" {
		t.Errorf("DeclineReasons for an override graph = %q, want none (neither plugin is offered it)", got)
	}
}
