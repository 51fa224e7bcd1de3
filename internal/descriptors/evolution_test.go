package descriptors

// Schema evolution at the descriptor layer: the fixtures of internal/wire/testdata/evolution
// (made by flatc-generated C++ from the test-only schema variants in schemas/evolution/)
// through DeserializeGraph / DeserializeJSONGraph, the reader-version guard on
// min_required_engine_api_version, and the version every finalize stamps.

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/engines"
	"github.com/hipdnn-go/backend/internal/wire"
)

var evolutionDir = filepath.Join("..", "wire", "testdata", "evolution")

func readEvolution(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(evolutionDir, name))
	if err != nil {
		t.Fatalf("fixture: %v", err)
	}
	return b
}

func deserializeFixture(t *testing.T, name string) (*Graph, error) {
	t.Helper()
	if strings.HasSuffix(name, ".json") {
		return DeserializeJSONGraph(readEvolution(t, name))
	}
	return DeserializeGraph(readEvolution(t, name))
}

// hostedMax is the newest engine plugin API this build hosts (engine_api_version.h).
func hostedMax() wire.EngineAPIVersion {
	_, v := engines.HostedAPIRange()
	return wire.EngineAPIVersion{Major: uint32(v.Major), Minor: uint32(v.Minor), Patch: uint32(v.Patch)}
}

func verString(v wire.EngineAPIVersion) string {
	return fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch)
}

// A JSON graph naming anything this build does not know is NOT_SUPPORTED with a message naming
// the unknown item (JSON has no binary layout to carry an unknown table across; binary graphs
// become opaque graphs instead, opaque_test.go), and so is a graph above the reader-version
// guard, from either encoding; nothing is half-built.
func TestEvolutionUnknownIsNotSupported(t *testing.T) {
	max := verString(hostedMax())
	tests := []struct {
		file string
		want []string
	}{
		{"future_node.json", []string{`unknown node type "FutureOpAttributes"`}},
		{"future_datatype.json", []string{`unknown data type "fp8_e3m4"`}},
		{"future_pointwise_mode.json", []string{`"hardswish_fwd"`}},
		{"future_conv_mode.json", []string{`"DEFORMABLE"`}},
		{"future_value_kind.json", []string{`unknown value_type "FutureInt8Value"`}},
		{"future_min_version.bin", []string{"min_required_engine_api_version is 1.5.0", "up to " + max}},
		{"future_min_version.json", []string{"min_required_engine_api_version is 1.5.0", "up to " + max}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			g, err := deserializeFixture(t, tt.file)
			if g != nil {
				t.Fatal("a graph came back with the error")
			}
			wantCode(t, tt.file, err, api.HIPDNN_STATUS_NOT_SUPPORTED)
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Fatalf("message %q lacks %q", err, w)
				}
			}
		})
	}
}

// finalizeFixture deserializes a fixture, binds a handle and finalizes it.
func finalizeFixture(t *testing.T, name string) *Graph {
	t.Helper()
	g, err := deserializeFixture(t, name)
	must(t, name, err)
	must(t, "handle", setHandle(g, newHandle(t)))
	must(t, "finalize "+name, Finalize(g))
	return g
}

// A future graph whose unknown parts are only trailing fields loads, finalizes, and reads
// exactly like the graph without them: the binary and the JSON (unknown keys) fixtures give
// identical models, equal to the fixture's known fields.
func TestEvolutionFutureFieldsFinalize(t *testing.T) {
	want, err := wire.DecodeGraph(readEvolution(t, "future_fields.bin"))
	must(t, "decode", err)
	for _, f := range []string{"future_fields.bin", "future_fields.json"} {
		g := finalizeFixture(t, f)
		m := g.Model()
		if !reflect.DeepEqual(m, want) {
			gj, _ := wire.GraphToJSON(m)
			wj, _ := wire.GraphToJSON(want)
			t.Fatalf("%s: finalized model differs\n got: %s\nwant: %s", f, gj, wj)
		}
		// What plugins receive is this build's encoding: the future fields are gone.
		if got, err := wire.DecodeGraph(g.Bytes()); err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: serialized graph does not decode to the model (%v)", f, err)
		}
	}
}

// Fields a past schema lacked take their defaults, and finalize stamps what this build writes:
// min_required_engine_api_version 1.0.0 and a fresh version-4 id.
func TestEvolutionPastFinalize(t *testing.T) {
	for _, f := range []string{"past_sdpa.bin", "past_sdpa.json", "past_pointwise.bin", "past_pointwise.json"} {
		t.Run(f, func(t *testing.T) {
			want, err := wire.DecodeGraph(readEvolution(t, strings.TrimSuffix(f, filepath.Ext(f))+".bin"))
			must(t, "decode", err)
			g := finalizeFixture(t, f)
			m := g.Model()
			if v := m.MinRequiredEngineAPIVersion; v == nil || *v != (wire.EngineAPIVersion{Major: 1}) {
				t.Fatalf("stamped min_required_engine_api_version %v, want 1.0.0", v)
			}
			if m.ID == nil || m.ID[6]>>4 != 4 {
				t.Fatalf("finalize did not mint a version-4 id: %v", m.ID)
			}
			for _, tn := range m.Tensors {
				if tn.Alignment != 16 || tn.RaggedOffsetUID != nil || tn.RaggedOffsetMultiplier != 1 {
					t.Fatalf("tensor %d: alignment %d, ragged %v, multiplier %d; want the defaults", tn.UID, tn.Alignment, tn.RaggedOffsetUID, tn.RaggedOffsetMultiplier)
				}
			}
			got := *m
			got.MinRequiredEngineAPIVersion, got.ID = nil, nil
			if !reflect.DeepEqual(&got, want) {
				gj, _ := wire.GraphToJSON(&got)
				wj, _ := wire.GraphToJSON(want)
				t.Fatalf("finalized model differs\n got: %s\nwant: %s", gj, wj)
			}
		})
	}
}

// The reader-version guard (conformance item 40): a graph whose min_required_engine_api_version
// is above the newest engine plugin API this build hosts is NOT_SUPPORTED naming both versions;
// 0.x, 1.0 and everything up to the hosted maximum load. The same holds for the binary graph,
// the graph-and-plan container and JSON.
func TestEvolutionReaderVersionGuard(t *testing.T) {
	base, err := wire.DecodeGraph(readEvolution(t, "past_pointwise.bin"))
	must(t, "decode", err)
	max := hostedMax()
	v := func(a, b, c uint32) *wire.EngineAPIVersion {
		return &wire.EngineAPIVersion{Major: a, Minor: b, Patch: c}
	}
	tests := []struct {
		ver *wire.EngineAPIVersion
		ok  bool
	}{
		{nil, true},
		{v(0, 0, 0), true},
		{v(0, 9, 9), true},
		{v(1, 0, 0), true},
		{v(1, 3, 0), true},
		{&max, true},
		{v(max.Major, max.Minor, max.Patch+1), false},
		{v(max.Major, max.Minor+1, 0), false},
		{v(max.Major+1, 0, 0), false},
		{v(4294967295, 4294967295, 4294967295), false},
	}
	for _, tt := range tests {
		name := "absent"
		if tt.ver != nil {
			name = verString(*tt.ver)
		}
		t.Run(name, func(t *testing.T) {
			m := *base
			m.MinRequiredEngineAPIVersion = tt.ver
			bin, err := wire.EncodeGraph(&m)
			must(t, "encode", err)
			box, err := wire.EncodeContainer(&wire.Container{Graph: bin})
			must(t, "container", err)
			js, err := wire.GraphToJSON(&m)
			must(t, "json", err)
			for _, in := range []struct {
				what string
				load func() (*Graph, error)
			}{
				{"binary", func() (*Graph, error) { return DeserializeGraph(bin) }},
				{"container", func() (*Graph, error) { return DeserializeGraph(box) }},
				{"JSON", func() (*Graph, error) { return DeserializeJSONGraph(js) }},
			} {
				g, err := in.load()
				if tt.ok {
					must(t, in.what, err)
					continue
				}
				wantCode(t, in.what, err, api.HIPDNN_STATUS_NOT_SUPPORTED)
				if g != nil {
					t.Fatalf("%s: a graph came back with the error", in.what)
				}
				for _, w := range []string{"min_required_engine_api_version is " + name, "up to " + verString(max)} {
					if !strings.Contains(err.Error(), w) {
						t.Fatalf("%s: message %q lacks %q", in.what, err, w)
					}
				}
			}
		})
	}
}

// Every finalize stamps min_required_engine_api_version with the highest feature floor of the
// graph (engine_api_version.h): 1.0.0 plain, 1.1.0 override shapes, 1.2.0 a runtime
// pass-by-value tensor, 1.3.0 an alignment other than 16 or a ragged offset; and the stamped
// graph loads again in this build.
func TestEvolutionFinalizeStampsEngineAPIVersion(t *testing.T) {
	h := newHandle(t)
	relu := func(t *testing.T, x *Tensor) []Object {
		return []Object{newPointwise(t, api.HIPDNN_POINTWISE_RELU_FWD, newTensor(t, 2, false, 2, 3), x)}
	}
	plainX := func(t *testing.T) *Tensor { return newTensor(t, 1, false, 2, 3) }
	tensorWith := func(t *testing.T, set func(o Object) error) *Tensor {
		o := mustCreate(t, api.HIPDNN_BACKEND_TENSOR_DESCRIPTOR)
		must(t, "uid", setI64(o, api.HIPDNN_ATTR_TENSOR_UNIQUE_ID, 1))
		must(t, "dtype", setI32(o, api.HIPDNN_ATTR_TENSOR_DATA_TYPE, api.HIPDNN_TYPE_DATA_TYPE, int32(api.HIPDNN_DATA_FLOAT)))
		must(t, "dims", setI64(o, api.HIPDNN_ATTR_TENSOR_DIMENSIONS, 2, 3))
		must(t, "strides", setI64(o, api.HIPDNN_ATTR_TENSOR_STRIDES, 3, 1))
		must(t, "feature", set(o))
		must(t, "finalize tensor", Finalize(o))
		return o.(*Tensor)
	}
	tests := []struct {
		name     string
		ops      func(t *testing.T) []Object
		override bool
		want     wire.EngineAPIVersion
	}{
		{"plain", func(t *testing.T) []Object { return relu(t, plainX(t)) }, false, wire.EngineAPIVersion{Major: 1}},
		{"override shapes", func(t *testing.T) []Object { return relu(t, plainX(t)) }, true, wire.EngineAPIVersion{Major: 1, Minor: 1}},
		{"runtime pass-by-value", func(t *testing.T) []Object {
			s := mustCreate(t, api.HIPDNN_BACKEND_TENSOR_DESCRIPTOR)
			must(t, "uid", setI64(s, api.HIPDNN_ATTR_TENSOR_UNIQUE_ID, 3))
			must(t, "dtype", setI32(s, api.HIPDNN_ATTR_TENSOR_DATA_TYPE, api.HIPDNN_TYPE_DATA_TYPE, int32(api.HIPDNN_DATA_FLOAT)))
			must(t, "dims", setI64(s, api.HIPDNN_ATTR_TENSOR_DIMENSIONS, 1, 1))
			must(t, "strides", setI64(s, api.HIPDNN_ATTR_TENSOR_STRIDES, 1, 1))
			must(t, "pbv", setBool(s, api.HIPDNN_ATTR_TENSOR_IS_RUNTIME_PASS_BY_VALUE_EXT, true))
			must(t, "finalize s", Finalize(s))
			return []Object{newPointwise(t, api.HIPDNN_POINTWISE_MUL, newTensor(t, 2, false, 2, 3), plainX(t), s.(*Tensor))}
		}, false, wire.EngineAPIVersion{Major: 1, Minor: 2}},
		{"alignment 64", func(t *testing.T) []Object {
			return relu(t, tensorWith(t, func(o Object) error { return setI64(o, api.HIPDNN_ATTR_TENSOR_BYTE_ALIGNMENT, 64) }))
		}, false, wire.EngineAPIVersion{Major: 1, Minor: 3}},
		{"alignment 16 is the default", func(t *testing.T) []Object {
			return relu(t, tensorWith(t, func(o Object) error { return setI64(o, api.HIPDNN_ATTR_TENSOR_BYTE_ALIGNMENT, 16) }))
		}, false, wire.EngineAPIVersion{Major: 1}},
		{"ragged offset", func(t *testing.T) []Object {
			off := newTensor(t, 9, false, 3)
			return relu(t, tensorWith(t, func(o Object) error { return setDesc(t, o, api.HIPDNN_ATTR_TENSOR_RAGGED_OFFSET_DESC, off) }))
		}, false, wire.EngineAPIVersion{Major: 1, Minor: 3}},
		{"ragged offset and override shapes", func(t *testing.T) []Object {
			off := newTensor(t, 9, false, 3)
			return relu(t, tensorWith(t, func(o Object) error { return setDesc(t, o, api.HIPDNN_ATTR_TENSOR_RAGGED_OFFSET_DESC, off) }))
		}, true, wire.EngineAPIVersion{Major: 1, Minor: 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newGraph(t, h, tt.ops(t)...)
			if tt.override {
				must(t, "override", setBool(g, api.HIPDNN_ATTR_OPERATIONGRAPH_IS_OVERRIDE_SHAPE_ENABLED_EXT, true))
			}
			must(t, "finalize", Finalize(g))
			m, err := wire.DecodeGraph(g.Bytes())
			must(t, "decode", err)
			if v := m.MinRequiredEngineAPIVersion; v == nil || *v != tt.want {
				t.Fatalf("stamped %v, want %s", v, verString(tt.want))
			}
			if got, err := DeserializeGraph(g.Bytes()); err != nil || got == nil {
				t.Fatalf("the stamped graph does not load again: %v", err)
			}
			js, err := g.SerializedJSON()
			must(t, "json", err)
			if want := fmt.Sprintf(`"minor": %d`, tt.want.Minor); !strings.Contains(string(js), want) {
				t.Fatalf("JSON serialization lacks %s:\n%s", want, js)
			}
		})
	}
}

// A deserialized graph must never become a silently different graph: a tensor's
// ragged_offset_multiplier other than 1 has no tensor attribute to live in, so such a graph is
// NOT_SUPPORTED (binary and JSON) instead of losing the multiplier at finalize.
func TestEvolutionRaggedMultiplierIsNotDropped(t *testing.T) {
	m, err := wire.DecodeGraph(readEvolution(t, "past_pointwise.bin"))
	must(t, "decode", err)
	rag := int64(2)
	m.Tensors[0].RaggedOffsetUID = &rag
	for _, mult := range []int64{1, 4} {
		m.Tensors[0].RaggedOffsetMultiplier = mult
		bin, err := wire.EncodeGraph(m)
		must(t, "encode", err)
		js, err := wire.GraphToJSON(m)
		must(t, "json", err)
		for what, load := range map[string]func() (*Graph, error){
			"binary": func() (*Graph, error) { return DeserializeGraph(bin) },
			"JSON":   func() (*Graph, error) { return DeserializeJSONGraph(js) },
		} {
			g, err := load()
			if mult == 1 {
				must(t, what, err)
				continue
			}
			wantCode(t, what, err, api.HIPDNN_STATUS_NOT_SUPPORTED)
			if g != nil || !strings.Contains(err.Error(), "tensor uid 1: ragged_offset_multiplier 4") {
				t.Fatalf("%s: %v", what, err)
			}
		}
	}
}

// A ragged-offset tensor that no node reads stays in the graph (finalize, serialization and
// a deserialize/finalize round trip keep it).
func TestRaggedOffsetTensorStaysInTheGraph(t *testing.T) {
	h := newHandle(t)
	ragged := func(uid int64, set func(o Object) error) *Tensor {
		o := mustCreate(t, api.HIPDNN_BACKEND_TENSOR_DESCRIPTOR)
		must(t, "uid", setI64(o, api.HIPDNN_ATTR_TENSOR_UNIQUE_ID, uid))
		must(t, "dtype", setI32(o, api.HIPDNN_ATTR_TENSOR_DATA_TYPE, api.HIPDNN_TYPE_DATA_TYPE, int32(api.HIPDNN_DATA_FLOAT)))
		must(t, "dims", setI64(o, api.HIPDNN_ATTR_TENSOR_DIMENSIONS, 2, 3))
		must(t, "strides", setI64(o, api.HIPDNN_ATTR_TENSOR_STRIDES, 3, 1))
		must(t, "ragged", set(o))
		must(t, "finalize tensor", Finalize(o))
		return o.(*Tensor)
	}
	off := newTensor(t, 9, false, 3)
	x := ragged(1, func(o Object) error { return setDesc(t, o, api.HIPDNN_ATTR_TENSOR_RAGGED_OFFSET_DESC, off) })
	g := newGraph(t, h, newPointwise(t, api.HIPDNN_POINTWISE_RELU_FWD, newTensor(t, 2, false, 2, 3), x))
	must(t, "finalize", Finalize(g))
	hasOffset := func(m *wire.Graph) bool {
		for _, wt := range m.Tensors {
			if wt.UID == 9 {
				return true
			}
		}
		return false
	}
	m, err := wire.DecodeGraph(g.Bytes())
	must(t, "decode", err)
	if !hasOffset(m) {
		t.Fatalf("the offset tensor 9 was dropped: %+v", m.Tensors)
	}
	back, err := DeserializeGraph(g.Bytes())
	must(t, "deserialize", err)
	must(t, "handle", setHandle(back, h))
	must(t, "refinalize", Finalize(back))
	m, err = wire.DecodeGraph(back.Bytes())
	must(t, "decode again", err)
	if !hasOffset(m) {
		t.Fatalf("the offset tensor 9 was dropped after a round trip: %+v", m.Tensors)
	}

	// An INT64 offset uid that names no tensor of the graph is accepted (AMD does; the older
	// frontend writes it that way) and kept in the wire tensor.
	y := ragged(11, func(o Object) error { return setI64(o, api.HIPDNN_ATTR_TENSOR_RAGGED_OFFSET_DESC, 77) })
	dangling := newGraph(t, h, newPointwise(t, api.HIPDNN_POINTWISE_RELU_FWD, newTensor(t, 12, false, 2, 3), y))
	must(t, "dangling ragged offset", Finalize(dangling))
	m, err = wire.DecodeGraph(dangling.Bytes())
	must(t, "decode dangling", err)
	if r := m.Tensors[0].RaggedOffsetUID; m.Tensors[0].UID != 11 || r == nil || *r != 77 {
		t.Fatalf("tensor 11 lost its ragged offset uid: %+v", m.Tensors[0])
	}
}

// A deserialized graph keeps a declared min_required_engine_api_version above its own
// features' floor: the writer may have raised it for something this build cannot see.
func TestDeclaredMinimumVersionIsKept(t *testing.T) {
	h := newHandle(t)
	m, err := wire.DecodeGraph(readEvolution(t, "past_pointwise.bin"))
	must(t, "decode", err)
	m.MinRequiredEngineAPIVersion = &wire.EngineAPIVersion{Major: 1, Minor: 2}
	b, err := wire.EncodeGraph(m)
	must(t, "encode", err)
	g, err := DeserializeGraph(b)
	must(t, "deserialize", err)
	must(t, "handle", setHandle(g, h))
	must(t, "finalize", Finalize(g))
	got, err := wire.DecodeGraph(g.Bytes())
	must(t, "decode stamped", err)
	if v := got.MinRequiredEngineAPIVersion; v == nil || *v != (wire.EngineAPIVersion{Major: 1, Minor: 2}) {
		t.Fatalf("stamped %v, want the declared 1.2.0", v)
	}
	if v := g.engineFeatures().MinAPIVersion(); v.Minor != 2 {
		t.Fatalf("plugins would be filtered at %v, want 1.2.0", v)
	}
}

// A newer writer's graph reaches plugins (and serialization) as the writer made it, unknown
// fields included, while the caller changes nothing but the handle; any change, or a writer
// that stamped no id or minimum version, gives this build's own encoding.
func TestOriginalBytesReachPlugins(t *testing.T) {
	h := newHandle(t)
	future := readEvolution(t, "future_fields.bin")
	g, err := DeserializeGraph(future)
	must(t, "deserialize", err)
	must(t, "handle", setHandle(g, h))
	must(t, "finalize", Finalize(g))
	if !bytes.Equal(g.Bytes(), future) {
		t.Fatalf("plugins get %d re-encoded bytes, not the writer's %d", len(g.Bytes()), len(future))
	}
	out, err := g.SerializedBytes()
	must(t, "serialize", err)
	if !bytes.Equal(out, future) {
		t.Fatal("serialization of an unchanged graph is not the writer's bytes")
	}

	renamed, err := DeserializeGraph(future)
	must(t, "deserialize again", err)
	must(t, "rename", setStr(renamed, api.HIPDNN_ATTR_OPERATIONGRAPH_NAME_EXT, "renamed"))
	must(t, "handle", setHandle(renamed, h))
	must(t, "finalize renamed", Finalize(renamed))
	if bytes.Equal(renamed.Bytes(), future) {
		t.Fatal("a renamed graph still hands out the writer's bytes")
	}
	m, err := wire.DecodeGraph(renamed.Bytes())
	must(t, "decode renamed", err)
	if m.Name != "renamed" {
		t.Fatalf("name %q", m.Name)
	}

	past := readEvolution(t, "past_pointwise.bin")
	p, err := DeserializeGraph(past)
	must(t, "deserialize past", err)
	must(t, "handle", setHandle(p, h))
	must(t, "finalize past", Finalize(p))
	if bytes.Equal(p.Bytes(), past) {
		t.Fatal("a graph without a stamped version went to plugins unstamped")
	}
}
