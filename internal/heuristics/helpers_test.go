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
	b := flatbuffers.NewBuilder(256)
	var cfgOff flatbuffers.UOffsetT
	if cfg != nil {
		cfgOff = embedEngineConfig(b, cfg)
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
