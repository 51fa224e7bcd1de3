package descriptors

// Opaque graphs (graph_opaque.go): a binary graph from a newer writer, holding a node type, an
// enum value, a data type or a tensor value kind this build does not know, deserializes and
// finalizes; plugins and serialization get the writer's bytes; changes are refused; engines
// that do not accept it leave the heuristic without results, naming the unknown part.

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/engines"
	"github.com/hipdnn-go/backend/internal/handle"
	"github.com/hipdnn-go/backend/internal/logging"
	"github.com/hipdnn-go/backend/internal/wire"
)

// opaqueFixtures are the future fixtures that hold something this build cannot read: what the
// graph must name, and how many of its nodes become operation descriptors.
var opaqueFixtures = []struct {
	file  string
	want  []string
	ops   int
	nodes []int // nodes kept opaque
}{
	{"future_node.bin", []string{`node 1 ("future_op"): unknown node type tag 24`}, 1, []int{1}},
	{"future_datatype.bin", []string{"tensor uid 1: unknown data type value 18", `node 0 ("act"): uses tensor uid 1`}, 0, []int{0}},
	{"future_pointwise_mode.bin", []string{`node 0 ("act")`, "operation value 48 is not a known PointwiseMode"}, 0, []int{0}},
	{"future_conv_mode.bin", []string{`node 0 ("conv")`, "conv_mode value 3 is not a known ConvMode"}, 0, []int{0}},
	{"future_value_kind.bin", []string{"tensor uid 3: unknown tensor value type 9", `node 0 ("scale"): uses tensor uid 3`}, 0, []int{0}},
}

// setMinVersion returns a copy of a Graph flatbuffer whose min_required_engine_api_version
// (Graph slot 8, an inline struct the buffer must already hold) is v.
func setMinVersion(t *testing.T, b []byte, v wire.EngineAPIVersion) []byte {
	t.Helper()
	out := bytes.Clone(b)
	le := binary.LittleEndian
	table := int(le.Uint32(out))
	vt := table - int(int32(le.Uint32(out[table:])))
	const slot = 8
	if int(le.Uint16(out[vt:])) < 4+2*slot+2 {
		t.Fatal("the fixture's Graph table has no min_required_engine_api_version slot")
	}
	off := int(le.Uint16(out[vt+4+2*slot:]))
	if off == 0 {
		t.Fatal("the fixture declares no min_required_engine_api_version")
	}
	p := table + off
	le.PutUint32(out[p:], v.Major)
	le.PutUint32(out[p+4:], v.Minor)
	le.PutUint32(out[p+8:], v.Patch)
	return out
}

func TestOpaqueGraphDeserializesAndFinalizes(t *testing.T) {
	h := newHandle(t)
	for _, tt := range opaqueFixtures {
		t.Run(tt.file, func(t *testing.T) {
			src := readEvolution(t, tt.file)
			g, err := DeserializeGraph(src)
			must(t, "deserialize", err)
			if !g.Opaque() {
				t.Fatal("the graph is not opaque")
			}
			parts := strings.Join(g.UnreadableParts(), "; ")
			for _, w := range tt.want {
				if !strings.Contains(parts, w) {
					t.Fatalf("unreadable parts %q lack %q", parts, w)
				}
			}
			// HIPDNN_ATTR_OPERATIONGRAPH_OPS lists the readable operations only.
			if n := len(g.Ops()); n != tt.ops {
				t.Fatalf("%d operation descriptors, want %d", n, tt.ops)
			}
			if got := g.opaque.nodes; !slices.Equal(got, tt.nodes) {
				t.Fatalf("opaque nodes %v, want %v", got, tt.nodes)
			}
			// Serializing before the handle is set gives the writer's bytes too.
			out, err := g.SerializedBytes()
			must(t, "serialize unfinalized", err)
			if !bytes.Equal(out, src) {
				t.Fatal("serialization of the unfinalized opaque graph is not the writer's bytes")
			}
			must(t, "handle", setHandle(g, h))
			must(t, "finalize", Finalize(g))
			if !bytes.Equal(g.Bytes(), src) {
				t.Fatalf("plugins get %d bytes, not the writer's %d", len(g.Bytes()), len(src))
			}
			out, err = g.SerializedBytes()
			must(t, "serialize", err)
			if !bytes.Equal(out, src) {
				t.Fatal("serialization is not the writer's bytes")
			}
			if _, err := g.SerializedJSON(); err == nil {
				t.Fatal("JSON serialization of an opaque graph succeeded")
			} else {
				wantCode(t, "JSON", err, api.HIPDNN_STATUS_NOT_SUPPORTED)
				if !strings.Contains(err.Error(), tt.want[0]) {
					t.Fatalf("JSON refusal %q does not name %q", err, tt.want[0])
				}
			}
			// The model is the whole graph as read, unknown nodes included.
			m := g.Model()
			if m == nil || len(m.Nodes) != len(tt.nodes)+tt.ops {
				t.Fatalf("model %+v", m)
			}
			if v := g.engineFeatures().MinAPIVersion(); v.Major != 1 || v.Minor != 0 {
				t.Fatalf("plugins would be filtered at %v, want the declared 1.0.0", v)
			}
		})
	}
	// The unknown node is kept with its tag.
	g, err := DeserializeGraph(readEvolution(t, "future_node.bin"))
	must(t, "deserialize", err)
	must(t, "handle", setHandle(g, h))
	must(t, "finalize", Finalize(g))
	if n := g.Model().Nodes[1]; n.Op != nil || n.Tag != 24 || n.Name != "future_op" {
		t.Fatalf("node 1 of the model: %+v", n)
	}
}

// Every attribute but the handle is refused on an opaque graph (NOT_SUPPORTED, naming why);
// the graph stays as it was, and finalizes afterwards.
func TestOpaqueGraphRefusesChanges(t *testing.T) {
	h := newHandle(t)
	src := readEvolution(t, "future_node.bin")
	g, err := DeserializeGraph(src)
	must(t, "deserialize", err)
	relu := g.Ops()[0]
	for what, set := range map[string]func() error{
		"name":     func() error { return setStr(g, api.HIPDNN_ATTR_OPERATIONGRAPH_NAME_EXT, "renamed") },
		"override": func() error { return setBool(g, api.HIPDNN_ATTR_OPERATIONGRAPH_IS_OVERRIDE_SHAPE_ENABLED_EXT, true) },
		"preferred engine": func() error {
			return setI64(g, api.HIPDNN_ATTR_OPERATIONGRAPH_PREFERRED_ENGINE_ID_EXT, 5)
		},
		"compute type": func() error {
			return setI32(g, api.HIPDNN_ATTR_OPERATIONGRAPH_COMPUTE_DATA_TYPE_EXT, api.HIPDNN_TYPE_DATA_TYPE, int32(api.HIPDNN_DATA_HALF))
		},
		"ops": func() error { return setDesc(t, g, api.HIPDNN_ATTR_OPERATIONGRAPH_OPS, relu) },
	} {
		err := set()
		wantCode(t, what, err, api.HIPDNN_STATUS_NOT_SUPPORTED)
		for _, w := range []string{"cannot be set", "unknown node type tag 24", "re-encode"} {
			if !strings.Contains(err.Error(), w) {
				t.Fatalf("%s: message %q lacks %q", what, err, w)
			}
		}
	}
	must(t, "handle", setHandle(g, h))
	must(t, "finalize", Finalize(g))
	if !bytes.Equal(g.Bytes(), src) || g.Model().Name != "evolution_future_node" || len(g.Ops()) != 1 {
		t.Fatal("a refused change altered the graph")
	}
}

// The reader-version guard still applies to a graph with an unknown node, and a declared
// minimum below the guard is what plugins are filtered by.
func TestOpaqueGraphKeepsTheReaderVersionGuard(t *testing.T) {
	src := readEvolution(t, "future_node.bin")
	max := hostedMax()
	above := wire.EngineAPIVersion{Major: max.Major, Minor: max.Minor + 1}
	g, err := DeserializeGraph(setMinVersion(t, src, above))
	if g != nil {
		t.Fatal("a graph came back with the error")
	}
	wantCode(t, "above the guard", err, api.HIPDNN_STATUS_NOT_SUPPORTED)
	for _, w := range []string{"min_required_engine_api_version is " + verString(above), "up to " + verString(max)} {
		if !strings.Contains(err.Error(), w) {
			t.Fatalf("message %q lacks %q", err, w)
		}
	}
	v13 := setMinVersion(t, src, wire.EngineAPIVersion{Major: 1, Minor: 3})
	g, err = DeserializeGraph(v13)
	must(t, "1.3.0", err)
	must(t, "handle", setHandle(g, newHandle(t)))
	must(t, "finalize", Finalize(g))
	if v := g.engineFeatures().MinAPIVersion(); v.Major != 1 || v.Minor != 3 {
		t.Fatalf("plugins would be filtered at %v, want the declared 1.3.0", v)
	}
	if !bytes.Equal(g.Bytes(), v13) {
		t.Fatal("plugins do not get the writer's bytes")
	}
	// A graph-and-plan container carrying the graph gives the same opaque graph.
	box, err := wire.EncodeContainer(&wire.Container{Graph: src})
	must(t, "container", err)
	g, err = DeserializeGraph(box)
	must(t, "deserialize container", err)
	must(t, "handle", setHandle(g, newHandle(t)))
	must(t, "finalize container", Finalize(g))
	if !g.Opaque() || !bytes.Equal(g.Bytes(), src) {
		t.Fatal("the container's graph is not handed on as its writer made it")
	}
}

// Graph checks run on what this build can read. With every node of a known type (an unknown
// enum value only), all of them run: a virtual tensor nobody reads is still BAD_PARAM. With
// a node of an unknown type, the virtual-tensor and connectivity checks are skipped, and the
// skip is logged at INFO.
func TestOpaqueGraphChecksWhatItCanRead(t *testing.T) {
	h := newHandle(t)
	m, err := wire.DecodeGraph(readEvolution(t, "future_pointwise_mode.bin"))
	must(t, "decode", err)
	// x -> act (mode 48) -> y, and y marked virtual: written, never read.
	m.Tensors[1].Virtual = true
	b, err := wire.EncodeGraph(m)
	must(t, "encode", err)
	g, err := DeserializeGraph(b)
	must(t, "deserialize", err)
	must(t, "handle", setHandle(g, h))
	err = Finalize(g)
	wantCode(t, "virtual tensor nobody reads", err, api.HIPDNN_STATUS_BAD_PARAM)
	if !strings.Contains(err.Error(), "virtual tensor uid 2 is written but no operation of the graph reads it") {
		t.Fatalf("message %q", err)
	}

	// Two writers of one tensor are refused even next to an unknown node.
	m.Tensors[1].Virtual = false
	m.Nodes = append(m.Nodes, m.Nodes[0])
	m.Nodes[1].Name = "again"
	b, err = wire.EncodeGraph(m)
	must(t, "encode", err)
	g, err = DeserializeGraph(b)
	must(t, "deserialize", err)
	must(t, "handle", setHandle(g, h))
	err = Finalize(g)
	wantCode(t, "two writers", err, api.HIPDNN_STATUS_BAD_PARAM)
	if !strings.Contains(err.Error(), "tensor uid 2 is written by node 0") {
		t.Fatalf("message %q", err)
	}

	// future_node: relu writes the virtual "mid", which only the unknown node reads.
	var logs bytes.Buffer
	restore := captureLog(t, &logs)
	g, err = DeserializeGraph(readEvolution(t, "future_node.bin"))
	must(t, "deserialize", err)
	must(t, "handle", setHandle(g, h))
	must(t, "finalize", Finalize(g))
	restore()
	for _, w := range []string{"virtual-tensor and connectivity checks skipped: 1 of its 2 nodes", "shape checks ran for the 1 operations", "unknown node type tag 24"} {
		if !strings.Contains(logs.String(), w) {
			t.Fatalf("INFO log lacks %q:\n%s", w, logs.String())
		}
	}
}

// captureLog sends the log, at INFO, to w until the returned function is called (or the
// test ends).
func captureLog(t *testing.T, w *bytes.Buffer) func() {
	t.Helper()
	prevOut := logging.SetOutput(w)
	prevLevel := logging.Level()
	logging.SetLevel(api.HIPDNN_SEV_INFO)
	done := false
	restore := func() {
		if !done {
			done = true
			logging.SetLevel(prevLevel)
			logging.SetOutput(prevOut)
		}
	}
	t.Cleanup(restore)
	return restore
}

// testPluginDir is the folder of built test plugins (HIPDNN_TEST_PLUGIN_DIR), or a skip.
func testPluginDir(t *testing.T) string {
	t.Helper()
	d := os.Getenv("HIPDNN_TEST_PLUGIN_DIR")
	if d == "" {
		t.Skip("HIPDNN_TEST_PLUGIN_DIR is not set (make gotest sets it)")
	}
	return d
}

// handleWith makes a handle whose engine plugins are exactly files; the plugin paths are
// restored when the test ends.
func handleWith(t *testing.T, files ...string) *handle.Handle {
	t.Helper()
	for _, f := range files {
		if _, err := os.Stat(f); err != nil {
			t.Skipf("plugin %s: %v", f, err)
		}
	}
	t.Cleanup(func() { _ = engines.SetPaths(nil, api.HIPDNN_PLUGIN_LOADING_ABSOLUTE) })
	must(t, "paths", engines.SetPaths(files, api.HIPDNN_PLUGIN_LOADING_ABSOLUTE))
	return newHandle(t)
}

// heuristicIDs finalizes a FALLBACK heuristic on g and returns its ranked engine ids.
func heuristicIDs(t *testing.T, g *Graph) []int64 {
	t.Helper()
	hd := mustCreate(t, api.HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR)
	must(t, "graph", setDesc(t, hd, api.HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, g))
	must(t, "mode", setI32(hd, api.HIPDNN_ATTR_ENGINEHEUR_MODE, api.HIPDNN_TYPE_HEUR_MODE, int32(api.HIPDNN_HEUR_MODE_FALLBACK)))
	must(t, "finalize heuristic", Finalize(hd))
	return hd.(*EngineHeuristic).ranked
}

// A plugin that accepts any graph is offered the opaque graph and receives the writer's bytes
// (the good test plugin keeps the graph bytes of each execution context in its serialized
// payload); a plugin that accepts nothing leaves the heuristic without results, and the log
// names the unknown node; a plugin below the declared minimum is not offered the graph.
func TestOpaqueGraphReachesPluginsAsWritten(t *testing.T) {
	dir := testPluginDir(t)
	good := filepath.Join(dir, "custom", "libtest_good_plugin.so")                    // 1.4.0, accepts any graph, engine -2
	none := filepath.Join(dir, "custom", "libtest_no_applicable_engines_a_plugin.so") // accepts nothing
	src := readEvolution(t, "future_node.bin")

	t.Run("offered", func(t *testing.T) {
		h := handleWith(t, good)
		g, err := DeserializeGraph(src)
		must(t, "deserialize", err)
		must(t, "handle", setHandle(g, h))
		must(t, "finalize", Finalize(g))
		ids := heuristicIDs(t, g)
		if len(ids) != 1 || ids[0] != -2 {
			t.Fatalf("heuristic results %v, want [-2]", ids)
		}
		eng := newBoundEngine(g, -2)
		cfg := mustCreate(t, api.HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR)
		must(t, "engine", setDesc(t, cfg, api.HIPDNN_ATTR_ENGINECFG_ENGINE, eng))
		must(t, "finalize config", Finalize(cfg))
		plan := mustCreate(t, api.HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR)
		must(t, "config", setDesc(t, plan, api.HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, cfg))
		must(t, "finalize plan", Finalize(plan))
		sp, err := plan.(*ExecutionPlan).Serialized()
		must(t, "serialize plan", err)
		p, err := wire.DecodePlan(sp)
		must(t, "decode plan", err)
		// magic[8] | engine id | workspace | graph size | config size | graph | config
		pl := p.Payload
		if len(pl) < 40 || string(pl[:8]) != "TPCTX001" {
			t.Fatalf("payload is not the good plugin's: % x", pl[:min(len(pl), 16)])
		}
		n := binary.LittleEndian.Uint64(pl[24:])
		if got := pl[40 : 40+n]; !bytes.Equal(got, src) {
			t.Fatalf("the plugin received %d graph bytes, not the writer's %d", len(got), len(src))
		}
	})

	t.Run("no engine accepts it", func(t *testing.T) {
		h := handleWith(t, none)
		g, err := DeserializeGraph(src)
		must(t, "deserialize", err)
		must(t, "handle", setHandle(g, h))
		must(t, "finalize", Finalize(g))
		var logs bytes.Buffer
		restore := captureLog(t, &logs)
		ids := heuristicIDs(t, g)
		restore()
		if len(ids) != 0 {
			t.Fatalf("heuristic results %v, want none", ids)
		}
		if !strings.Contains(logs.String(), `node 1 ("future_op"): unknown node type tag 24`) {
			t.Fatalf("the log does not name the unknown node:\n%s", logs.String())
		}
		e := mustCreate(t, api.HIPDNN_BACKEND_ENGINE_DESCRIPTOR)
		must(t, "graph", setDesc(t, e, api.HIPDNN_ATTR_ENGINE_OPERATION_GRAPH, g))
		must(t, "id", setI64(e, api.HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, -4))
		err = Finalize(e)
		wantCode(t, "engine -4", err, api.HIPDNN_STATUS_BAD_PARAM)
		if !strings.Contains(err.Error(), "unknown node type tag 24") {
			t.Fatalf("engine finalize message %q does not name the unknown node", err)
		}
	})

	t.Run("below the declared minimum", func(t *testing.T) {
		old := filepath.Join(dir, "custom", "libtest_duplicate_id_a_plugin.so") // 1.0.0, accepts any graph, engine -7
		h := handleWith(t, good, old)
		g, err := DeserializeGraph(setMinVersion(t, src, wire.EngineAPIVersion{Major: 1, Minor: 3}))
		must(t, "deserialize", err)
		must(t, "handle", setHandle(g, h))
		must(t, "finalize", Finalize(g))
		if ids := heuristicIDs(t, g); len(ids) != 1 || ids[0] != -2 {
			t.Fatalf("heuristic results %v, want only the 1.4.0 plugin's -2", ids)
		}
		g, err = DeserializeGraph(src)
		must(t, "deserialize 1.0.0", err)
		must(t, "handle", setHandle(g, h))
		must(t, "finalize 1.0.0", Finalize(g))
		if ids := heuristicIDs(t, g); len(ids) != 2 {
			t.Fatalf("heuristic results %v for a graph declaring 1.0.0, want both plugins' engines", ids)
		}
	})
}

// Corrupted future graphs never panic: each single-byte change of the fixtures either fails
// with a status or gives a graph that finalizes or fails with one, and serializes either way.
func TestOpaqueGraphMutationsDoNotPanic(t *testing.T) {
	h := newHandle(t)
	for _, f := range []string{"future_node.bin", "future_pointwise_mode.bin", "future_value_kind.bin"} {
		src := readEvolution(t, f)
		for i := range src {
			for _, x := range []byte{0x01, 0x18, 0x80, 0xff} {
				b := bytes.Clone(src)
				b[i] ^= x
				func() {
					defer func() {
						if p := recover(); p != nil {
							t.Fatalf("%s: byte %d ^ %#x: panic %v", f, i, x, p)
						}
					}()
					g, err := DeserializeGraph(b)
					if err != nil {
						return
					}
					if err := setHandle(g, h); err != nil {
						t.Fatalf("%s: byte %d ^ %#x: handle: %v", f, i, x, err)
					}
					_ = Finalize(g)
					_, _ = g.SerializedBytes()
					_, _ = g.SerializedJSON()
					_ = g.UnreadableParts()
				}()
			}
		}
	}
}

// The CPU reference engine (HIPDNN_STAGE_DIR, set by make gotest) declines every opaque graph
// as "not applicable", never with an error: the future fixtures, and known nodes carrying a
// value its schema lacks in a field it would otherwise ignore or default (SDPA
// diagonal_alignment and implementation, a node compute type). The same graphs with known
// values are applicable, so the declines are the unknown values' doing.
func TestOpaqueGraphCPUReferenceDeclines(t *testing.T) {
	stage := os.Getenv("HIPDNN_STAGE_DIR")
	if stage == "" {
		t.Skip("HIPDNN_STAGE_DIR is not set (make gotest sets it)")
	}
	const cpuID = -7424244430098340505 // HIPDNNGO_CPU_REFERENCE
	h := handleWith(t, filepath.Join(stage, "lib", "hipdnn_plugins", "engines", "libhipdnngo_cpu_reference.so"))
	applicable := func(t *testing.T, b []byte, wantOpaque bool) bool {
		t.Helper()
		g, err := DeserializeGraph(b)
		must(t, "deserialize", err)
		if g.Opaque() != wantOpaque {
			t.Fatalf("opaque = %v, want %v (%v)", g.Opaque(), wantOpaque, g.UnreadableParts())
		}
		must(t, "handle", setHandle(g, h))
		must(t, "finalize", Finalize(g))
		ids := heuristicIDs(t, g)
		return len(ids) == 1 && ids[0] == cpuID
	}
	for _, tt := range opaqueFixtures {
		t.Run(tt.file, func(t *testing.T) {
			if applicable(t, readEvolution(t, tt.file), true) {
				t.Fatal("the CPU engine accepted an opaque graph")
			}
		})
	}
	edit := func(t *testing.T, fixture string, change func(m *wire.Graph)) []byte {
		t.Helper()
		m, err := wire.DecodeGraph(readEvolution(t, fixture))
		must(t, "decode", err)
		if change != nil {
			change(m)
		}
		b, err := wire.EncodeGraph(m)
		must(t, "encode", err)
		return b
	}
	sdpaField := func(name string, v int64) func(m *wire.Graph) {
		return func(m *wire.Graph) {
			i, _ := m.Nodes[0].Op.Field(name)
			m.Nodes[0].Values[i].I = v
		}
	}
	for _, tt := range []struct {
		name, fixture string
		change        func(m *wire.Graph)
	}{
		{"sdpa diagonal_alignment 2", "past_sdpa.bin", sdpaField("diagonal_alignment", 2)},
		{"sdpa implementation 3", "past_sdpa.bin", sdpaField("implementation", 3)},
		{"node compute_data_type 40", "past_pointwise.bin", func(m *wire.Graph) { m.Nodes[0].ComputeDataType = 40 }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if !applicable(t, edit(t, tt.fixture, nil), false) {
				t.Fatalf("the CPU engine declines %s with known values: the check proves nothing", tt.fixture)
			}
			if applicable(t, edit(t, tt.fixture, tt.change), true) {
				t.Fatal("the CPU engine accepted a value its schema lacks")
			}
		})
	}
}
