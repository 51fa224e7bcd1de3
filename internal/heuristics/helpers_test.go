package heuristics

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"

	flatbuffers "github.com/google/flatbuffers/go"
	"go.uber.org/goleak"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/fb"
	"github.com/hipdnn-go/backend/internal/logging"
	"github.com/hipdnn-go/backend/internal/status"
	"github.com/hipdnn-go/backend/internal/wire"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// Engine ids used across the tests.
var (
	idMIOpen  = PolicyNameToID(EngineMIOpen)
	idASM     = PolicyNameToID(EngineASMSDPA)
	idRocKE   = PolicyNameToID(EngineRocKE)
	idMIODet  = PolicyNameToID(EngineMIOpenDeterministic)
	idCPURef  = PolicyNameToID(EngineCPUReference)
	idOneDNN  = PolicyNameToID(EngineOneDNN)
	idHipBLAS = PolicyNameToID("HIPBLASLT_ENGINE")
)

// wantStatus checks an error's status and that its message contains every part.
func wantStatus(t *testing.T, err error, code api.Status, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got nil error, want %v", code)
	}
	var se *status.Error
	if !errors.As(err, &se) {
		t.Fatalf("error %v is not a *status.Error", err)
	}
	if se.Code != code {
		t.Fatalf("status %v, want %v (%v)", se.Code, code, err)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("message %q lacks %q", err.Error(), p)
		}
	}
}

// logBuffer captures backend log lines for one test.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func captureLogs(t *testing.T, sev api.Severity) *logBuffer {
	t.Helper()
	buf := &logBuffer{}
	prev := logging.SetOutput(buf)
	prevLevel := logging.Level()
	logging.SetLevel(sev)
	t.Cleanup(func() {
		logging.SetOutput(prev)
		logging.SetLevel(prevLevel)
	})
	return buf
}

// clearEnv unsets the variables the package reads, for the test.
func clearEnv(t *testing.T) {
	t.Helper()
	for _, k := range []string{EnvPolicyOrder, EnvRankingMetric, EnvConfigPath, EnvFallbackEngineOrder, EnvPluginDir} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
}

// tensor is a graph tensor with packed strides.
func tensor(uid int64, dims ...int64) wire.Tensor {
	strides := make([]int64, len(dims))
	s := int64(1)
	for i := len(dims) - 1; i >= 0; i-- {
		strides[i] = s
		s *= dims[i]
	}
	return wire.Tensor{UID: uid, Name: "t", DataType: wire.DataType(fb.DataTypeFLOAT), Dims: dims, Strides: strides,
		Alignment: wire.DefaultAlignment, RaggedOffsetMultiplier: wire.DefaultRaggedOffsetMultiplier}
}

// node builds a node of op with the given field values (uids and enums as ints).
func node(t *testing.T, op string, values map[string]int64) wire.Node {
	t.Helper()
	schema := wire.OpByName(op)
	if schema == nil {
		t.Fatalf("no op %s", op)
	}
	n := wire.NewNode(schema)
	n.Name = op
	for k, v := range values {
		i, f := schema.Field(k)
		if f == nil {
			t.Fatalf("%s has no field %s", op, k)
		}
		n.Values[i] = wire.Value{Set: true, I: v}
	}
	return n
}

func encode(t *testing.T, g *wire.Graph) []byte {
	t.Helper()
	buf, err := wire.EncodeGraph(g)
	if err != nil {
		t.Fatalf("EncodeGraph: %v", err)
	}
	return buf
}

// convGraph: y = conv_fprop(x[1,16,32,32], w[8,16,3,3]).
func convGraph(t *testing.T) *wire.Graph {
	return &wire.Graph{
		Name:    "conv",
		Tensors: []wire.Tensor{tensor(1, 1, 16, 32, 32), tensor(2, 8, 16, 3, 3), tensor(3, 1, 8, 30, 30)},
		Nodes: []wire.Node{node(t, "ConvolutionFwdAttributes", map[string]int64{
			"x_tensor_uid": 1, "w_tensor_uid": 2, "y_tensor_uid": 3, "conv_mode": 2})},
	}
}

// matmulGraph: c = a[4,64,32] x b[4,32,16], then relu(c).
func matmulGraph(t *testing.T) *wire.Graph {
	return &wire.Graph{
		Name:    "matmul",
		Tensors: []wire.Tensor{tensor(10, 4, 64, 32), tensor(11, 4, 32, 16), tensor(12, 4, 64, 16), tensor(13, 4, 64, 16)},
		Nodes: []wire.Node{
			node(t, "MatmulAttributes", map[string]int64{"a_tensor_uid": 10, "b_tensor_uid": 11, "c_tensor_uid": 12}),
			node(t, "PointwiseAttributes", map[string]int64{"operation": 34, "in_0_tensor_uid": 12, "out_0_tensor_uid": 13}),
		},
	}
}

// sdpaGraph: o = sdpa(q[2,8,128,64], k[2,8,256,64], v[2,8,256,64]).
func sdpaGraph(t *testing.T) *wire.Graph {
	return &wire.Graph{
		Name:    "sdpa",
		Tensors: []wire.Tensor{tensor(20, 2, 8, 128, 64), tensor(21, 2, 8, 256, 64), tensor(22, 2, 8, 256, 64), tensor(23, 2, 8, 128, 64)},
		Nodes: []wire.Node{node(t, "SdpaAttributes", map[string]int64{
			"q_tensor_uid": 20, "k_tensor_uid": 21, "v_tensor_uid": 22, "o_tensor_uid": 23})},
	}
}

// predictionBlob builds an EnginePrediction.
func predictionBlob(engineID int64, kind int, st fb.PredictionStatus, value float64, metric string, cfg *engineConfig) []byte {
	if cfg == nil {
		return predictionAround(engineID, kind, st, value, metric, nil, 0)
	}
	embed := func(b *flatbuffers.Builder) flatbuffers.UOffsetT { return embedEngineConfig(b, cfg) }
	return predictionAround(engineID, kind, st, value, metric, embed, 0)
}

// predictionAround builds an EnginePrediction whose engine_config config writes (none when
// nil). With pad > 0 a features_json of pad bytes is written after the config, so that the
// config lies that far into the buffer.
func predictionAround(engineID int64, kind int, st fb.PredictionStatus, value float64, metric string,
	config func(*flatbuffers.Builder) flatbuffers.UOffsetT, pad int) []byte {
	b := flatbuffers.NewBuilder(256)
	var cfgOff, features flatbuffers.UOffsetT
	if config != nil {
		cfgOff = config(b)
	}
	if pad > 0 {
		features = b.CreateString(strings.Repeat("x", pad))
	}
	m := b.CreateString(metric)
	fb.EnginePredictionStart(b)
	fb.EnginePredictionAddEngineId(b, engineID)
	fb.EnginePredictionAddValue(b, value)
	fb.EnginePredictionAddKind(b, fb.PredictionKind(kind))
	fb.EnginePredictionAddStatus(b, st)
	fb.EnginePredictionAddMetric(b, m)
	if cfgOff != 0 {
		fb.EnginePredictionAddEngineConfig(b, cfgOff)
	}
	if features != 0 {
		fb.EnginePredictionAddFeaturesJson(b, features)
	}
	b.Finish(fb.EnginePredictionEnd(b))
	return append([]byte(nil), b.FinishedBytes()...)
}

// embedEngineConfig writes cfg (one int knob at most) into b.
func embedEngineConfig(b *flatbuffers.Builder, cfg *engineConfig) flatbuffers.UOffsetT {
	var knobs flatbuffers.UOffsetT
	if len(cfg.knobs) > 0 {
		k := cfg.knobs[0]
		id := b.CreateString(k.ID)
		fb.IntValueStart(b)
		fb.IntValueAddValue(b, k.Value.I)
		v := fb.IntValueEnd(b)
		fb.KnobSettingStart(b)
		fb.KnobSettingAddKnobId(b, id)
		fb.KnobSettingAddValueType(b, fb.KnobValueIntValue)
		fb.KnobSettingAddValue(b, v)
		ks := fb.KnobSettingEnd(b)
		fb.EngineConfigStartKnobsVector(b, 1)
		b.PrependUOffsetT(ks)
		knobs = b.EndVector(1)
	}
	fb.EngineConfigStart(b)
	fb.EngineConfigAddEngineId(b, cfg.engineID)
	if knobs != 0 {
		fb.EngineConfigAddKnobs(b, knobs)
	}
	return fb.EngineConfigEnd(b)
}

// mapPredictor answers from a table keyed by engine id and kind.
type mapPredictor map[[2]int64][]byte

func (p mapPredictor) Predict(engineID int64, kind int, metric string) ([]byte, bool) {
	b, ok := p[[2]int64{engineID, int64(kind)}]
	return b, ok
}

// Fields of a newer writer's EngineConfig, in slots beyond this build's schema: slot 3 a long
// (8-byte aligned), slot 4 a string, and slot 3 of its KnobSetting a string.
const (
	futureLong      = int64(0x0123456789ABCDEF)
	futureString    = "added by a newer writer"
	futureKnobField = "a newer knob field"
)

// futureConfig writes, as a newer schema's writer would, an EngineConfig of engine id with
// knob "tile" = 128, ranking_metric metric (absent when "") and the future fields. The known
// fields go through the generated builders, the future ones by slot number.
func futureConfig(b *flatbuffers.Builder, id int64, metric string) flatbuffers.UOffsetT {
	kid, extra := b.CreateString("tile"), b.CreateString(futureKnobField)
	fb.IntValueStart(b)
	fb.IntValueAddValue(b, 128)
	v := fb.IntValueEnd(b)
	b.StartObject(4)
	fb.KnobSettingAddKnobId(b, kid)
	fb.KnobSettingAddValueType(b, fb.KnobValueIntValue)
	fb.KnobSettingAddValue(b, v)
	b.PrependUOffsetTSlot(3, extra, 0)
	ks := b.EndObject()
	fb.EngineConfigStartKnobsVector(b, 1)
	b.PrependUOffsetT(ks)
	knobs := b.EndVector(1)
	str := b.CreateString(futureString)
	var m flatbuffers.UOffsetT
	if metric != "" {
		m = b.CreateString(metric)
	}
	b.StartObject(5)
	fb.EngineConfigAddEngineId(b, id)
	fb.EngineConfigAddKnobs(b, knobs)
	if m != 0 {
		fb.EngineConfigAddRankingMetric(b, m)
	}
	b.PrependInt64Slot(3, futureLong, 0)
	b.PrependUOffsetTSlot(4, str, 0)
	return b.EndObject()
}

// futureRoot is futureConfig as a root buffer.
func futureRoot(id int64, metric string) []byte {
	b := flatbuffers.NewBuilder(256)
	b.Finish(futureConfig(b, id, metric))
	return append([]byte(nil), b.FinishedBytes()...)
}

// checkFuture asserts that blob is a root EngineConfig of engine id, knob "tile" = 128 and
// ranking_metric metric that still carries futureConfig's future fields, read through the
// verifier (decodeEngineConfig) and through the generated accessors.
func checkFuture(t *testing.T, blob []byte, id int64, metric string) {
	t.Helper()
	c, err := decodeEngineConfig(blob)
	if err != nil || c.engineID != id || c.metric != metric || len(c.knobs) != 1 || c.knobs[0].ID != "tile" || c.knobs[0].Value.I != 128 {
		t.Fatalf("engine %d: id %d metric %q knobs %+v %v", id, c.engineID, c.metric, c.knobs, err)
	}
	root := fb.GetRootAsEngineConfig(blob, 0)
	if root.EngineId() != id || string(root.RankingMetric()) != metric {
		t.Fatalf("engine %d: accessors read id %d metric %q", id, root.EngineId(), root.RankingMetric())
	}
	field := func(tab flatbuffers.Table, slot int) flatbuffers.UOffsetT {
		if o := tab.Offset(flatbuffers.VOffsetT(4 + 2*slot)); o != 0 {
			return tab.Pos + flatbuffers.UOffsetT(o)
		}
		return 0
	}
	tab := root.Table()
	if p := field(tab, 3); p == 0 || tab.GetInt64(p) != futureLong {
		t.Errorf("engine %d: the future long (slot 3) is lost", id)
	}
	if p := field(tab, 4); p == 0 || tab.String(p) != futureString {
		t.Errorf("engine %d: the future string (slot 4) is lost", id)
	}
	var ks fb.KnobSetting
	root.Knobs(&ks, 0)
	if kt := ks.Table(); field(kt, 3) == 0 || kt.String(field(kt, 3)) != futureKnobField {
		t.Errorf("engine %d: the knob setting's future string (slot 3) is lost", id)
	}
}
