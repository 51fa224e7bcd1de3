package engines

import (
	"encoding/binary"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"

	flatbuffers "github.com/google/flatbuffers/go"
	"github.com/hipdnn-go/backend/hip"
	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/engines/probe"
	"github.com/hipdnn-go/backend/internal/fb"
)

// newContext builds an execution context for engine id on a fresh session.
func newContext(t testing.TB, s *Session, id int64, align map[int64]int64, overrides bool) *Context {
	t.Helper()
	c, err := s.CreateContext(id, EncodeEngineConfig(id, nil, ""), testGraph(), aligned(align), overrides)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Destroy)
	return c
}

// aligned describes tensors by alignment alone (none required).
func aligned(align map[int64]int64) []PlanTensor {
	var out []PlanTensor
	for uid, a := range align {
		out = append(out, PlanTensor{UID: uid, Alignment: a})
	}
	return out
}

// testWorkspace stands for a workspace buffer (test_good_plugin's contexts need 2048 bytes;
// the test plugins never touch it).
const testWorkspace = 0x20000

// newBuffers makes a variant pack's buffers with testWorkspace as its workspace.
func newBuffers(t testing.TB, uids []int64, ptrs []uintptr) *Buffers {
	b := NewBuffers(uids, ptrs, testWorkspace)
	t.Cleanup(b.Free)
	return b
}

func TestExecute(t *testing.T) {
	s := session(t, "test_good_plugin", "test_execute_fails_plugin")
	good := newContext(t, s, -2, nil, false)
	b := newBuffers(t, []int64{1, 2}, []uintptr{0x10000, 0})
	if err := good.Execute(0x20000, b, nil); err != nil {
		t.Fatal(err)
	}
	if err := good.Execute(testWorkspace, nil, nil); err != nil {
		t.Fatalf("empty variant pack: %v", err)
	}
	id := EngineNameToID("TEST_EXECUTE_FAILS_ENGINE")
	fails := newContext(t, s, id, nil, false)
	err := fails.Execute(testWorkspace, b, nil)
	want := fmt.Sprintf("test_execute_fails_plugin: Failed to execute engine TEST_EXECUTE_FAILS_ENGINE. Status: HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR(3), Error: engine %d (TEST_EXECUTE_FAILS_ENGINE) fails every execution on purpose", id)
	wantStatus(t, err, api.HIPDNN_STATUS_PLUGIN_ERROR)
	if err.Error() != want {
		t.Errorf("error\n %q\nwant\n %q", err.Error(), want)
	}
}

func TestExecuteAlignment(t *testing.T) {
	s := session(t, "test_good_plugin")
	c := newContext(t, s, -2, map[int64]int64{1: 16, 2: 64, 3: 1, 4: 0}, false)
	tests := []struct {
		ptrs []uintptr
		want string
	}{
		{[]uintptr{0x1000, 0x2000, 0x3001, 0x4003}, ""},
		{[]uintptr{0, 0, 0, 0}, ""},
		{[]uintptr{0x1008, 0x2000, 0, 0}, "the pointer 0x1008 for tensor uid 1 is not aligned to 16 bytes"},
		{[]uintptr{0x1000, 0x2010, 0, 0}, "the pointer 0x2010 for tensor uid 2 is not aligned to 64 bytes"},
	}
	for _, tt := range tests {
		b := NewBuffers([]int64{1, 2, 3, 4}, tt.ptrs, testWorkspace)
		err := c.Execute(testWorkspace, b, nil)
		b.Free()
		if tt.want == "" {
			if err != nil {
				t.Errorf("%#x: %v", tt.ptrs, err)
			}
			continue
		}
		wantStatus(t, err, api.HIPDNN_STATUS_BAD_PARAM, tt.want)
	}
}

// fakeRuntime is the host stand-in for the pointer query: the pointers in device have the
// kinds given there (on devices[p], 0 if absent); every other pointer is pageable host memory.
// Its streams are on streamDevice.
type fakeRuntime struct {
	kind         hip.Kind
	device       map[uintptr]hip.MemoryKind
	devices      map[uintptr]int
	streamDevice int
	queries      atomic.Int64
}

func (f *fakeRuntime) Kind() hip.Kind { return f.kind }
func (f *fakeRuntime) PointerInfo(p unsafe.Pointer) (hip.PointerInfo, error) {
	f.queries.Add(1)
	if k, ok := f.device[uintptr(p)]; ok {
		return hip.PointerInfo{Kind: k, Device: f.devices[uintptr(p)]}, nil
	}
	return hip.PointerInfo{Kind: hip.MemoryHost}, nil
}
func (f *fakeRuntime) StreamDevice(uintptr) (int, error) { return f.streamDevice, nil }

func withRuntime(t *testing.T, rt memoryRuntime) {
	saved := gpuRuntime
	gpuRuntime = func() memoryRuntime { return rt }
	t.Cleanup(func() { gpuRuntime = saved })
}

func TestNewOverrides(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc                          string
		ids, lengths, shapes, strides []int64
		want                          string
	}{
		{"none", nil, nil, nil, nil, ""},
		{"one", []int64{1}, []int64{2}, []int64{3, 4}, []int64{4, 1}, ""},
		{"count mismatch", []int64{1, 2}, []int64{2}, []int64{3, 4}, []int64{4, 1}, "2 override unique ids but 1 override lengths"},
		{"zero length", []int64{1}, []int64{0}, nil, nil, "length 0 of override 0 (uid 1) is not in 1..4294967295"},
		{"length too big", []int64{1}, []int64{1 << 32}, nil, nil, "length 4294967296 of override 0"},
		{"short shapes", []int64{1, 2}, []int64{2, 1}, []int64{3, 4}, []int64{4, 1, 1}, "2 shape and 3 stride values for lengths summing to 3"},
		{"lengths without ids", nil, []int64{1}, []int64{1}, []int64{1}, "0 override unique ids but 1 override lengths"},
	}
	for _, tt := range tests {
		ov, err := NewOverrides(tt.ids, tt.lengths, tt.shapes, tt.strides)
		if tt.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tt.desc, err)
			}
			if ov.Len() != len(tt.ids) {
				t.Errorf("%s: Len %d", tt.desc, ov.Len())
			}
			ov.Free()
			ov.Free()
			continue
		}
		wantStatus(t, err, api.HIPDNN_STATUS_BAD_PARAM, tt.want)
	}
}

func TestExecuteOverrides(t *testing.T) {
	s := session(t, "test_override_implementing_plugin", "test_override_omitting_plugin", "test_version_liar_plugin", "test_good_plugin")
	ov, err := NewOverrides([]int64{1, 2}, []int64{2, 3}, []int64{4, 5, 6, 7, 8}, []int64{5, 1, 56, 8, 1})
	if err != nil {
		t.Fatal(err)
	}
	defer ov.Free()
	b := newBuffers(t, []int64{1, 2}, []uintptr{0x1000, 0x2000})

	impl := newContext(t, s, -12, nil, true)
	if err := impl.Execute(testWorkspace, b, ov); err != nil {
		t.Fatal(err)
	}
	p := impl.Engine().Plugin
	plain, overrideCalls, last := probe.Stats(probeFn(p, "hipdnnTestGetExecuteStats"))
	if plain != 0 || overrideCalls != 1 || last != 2 {
		t.Errorf("stats plain=%d override=%d last=%d", plain, overrideCalls, last)
	}
	shape, strides, rank := probe.Override(probeFn(p, "hipdnnTestGetLastOverride"), 2)
	if rank != 3 || !equalIDs(shape, []int64{6, 7, 8}) || !equalIDs(strides, []int64{56, 8, 1}) {
		t.Errorf("override of uid 2: rank %d shape %v strides %v", rank, shape, strides)
	}
	// No overrides: the plain entry point, even on an override-enabled plan.
	if err := impl.Execute(testWorkspace, b, nil); err != nil {
		t.Fatal(err)
	}
	if plain, _, _ := probe.Stats(probeFn(p, "hipdnnTestGetExecuteStats")); plain != 1 {
		t.Errorf("plain calls %d, want 1", plain)
	}

	tests := []struct {
		id        int64
		overrides bool
		want      string
	}{
		{-12, false, "the execution plan for engine 0xFFFFFFFFFFFFFFF4 was built from a graph without is_override_shape_enabled"},
		{-13, true, "plugin test_override_omitting_plugin reports engine API version 1.0.0, overrides need 1.1.0 or later"},
		{-14, true, "plugin test_version_liar_plugin does not export hipdnnEnginePluginExecuteOpGraphWithOverrides"},
		{-2, true, "plugin test_good_plugin does not export hipdnnEnginePluginExecuteOpGraphWithOverrides"},
	}
	for _, tt := range tests {
		c := newContext(t, s, tt.id, nil, tt.overrides)
		err := c.Execute(testWorkspace, b, ov)
		wantStatus(t, err, api.HIPDNN_STATUS_NOT_SUPPORTED, "execute-time shape overrides: ", tt.want)
	}
	// Never a silent fallback: the refused plugins saw no call at all.
	for _, name := range []string{"test_override_omitting_plugin", "test_version_liar_plugin"} {
		pp := s.Manager().Plugins()[indexOf(s.Manager(), name)]
		if plain, o, _ := probe.Stats(probeFn(pp, "hipdnnTestGetExecuteStats")); plain != 0 || o != 0 {
			t.Errorf("%s saw %d plain and %d override calls", name, plain, o)
		}
	}
}

func TestSerializationRoundTrip(t *testing.T) {
	s := session(t, "test_good_plugin", "test_knobs_plugin")
	c := newContext(t, s, -2, map[int64]int64{1: 16}, false)
	payload, err := c.Serialize()
	if err != nil {
		t.Fatal(err)
	}
	p := c.Engine().Plugin
	if n := liveObjects(t, p, liveSerialized); n != 0 {
		t.Errorf("%d serialized buffers alive in the plugin after Serialize", n)
	}
	back, err := s.ContextFromSerialized(-2, payload, aligned(map[int64]int64{1: 16}), false)
	if err != nil {
		t.Fatal(err)
	}
	defer back.Destroy()
	if back.WorkspaceSize() != 2048 || back.EngineID() != -2 {
		t.Errorf("restored context: workspace %d engine %d", back.WorkspaceSize(), back.EngineID())
	}
	b := newBuffers(t, []int64{1}, []uintptr{0x1000})
	if err := back.Execute(testWorkspace, b, nil); err != nil {
		t.Fatal(err)
	}
	// The restored context keeps the alignment it was given.
	err = back.Execute(testWorkspace, newBuffers(t, []int64{1}, []uintptr{0x1004}), nil)
	wantStatus(t, err, api.HIPDNN_STATUS_BAD_PARAM, "not aligned to 16 bytes")
	again, err := back.Serialize()
	if err != nil || string(again) != string(payload) {
		t.Errorf("re-serialized payload differs (%v)", err)
	}

	_, err = s.ContextFromSerialized(-2, nil, nil, false)
	wantStatus(t, err, api.HIPDNN_STATUS_BAD_PARAM, "empty plugin payload")
	_, err = s.ContextFromSerialized(-2, []byte("garbage payload of some length"), nil, false)
	wantStatus(t, err, api.HIPDNN_STATUS_PLUGIN_ERROR, "from a serialized context", "HIPDNN_PLUGIN_STATUS_BAD_PARAM(1)")
	_, err = s.ContextFromSerialized(-2, payload, nil, true)
	if err != nil {
		t.Errorf("a 1.4.0 plugin accepts an override-enabled plan: %v", err)
	}

	// A plugin without the serialization entry points.
	k := newContext(t, s, -8, nil, false)
	_, err = k.Serialize()
	wantStatus(t, err, api.HIPDNN_STATUS_NOT_SUPPORTED,
		"plugin test_knobs_plugin does not export hipdnnEnginePluginSerializeExecutionContext, hipdnnEnginePluginDestroySerializedExecutionContext, hipdnnEnginePluginCreateExecutionContextFromSerialized (plan serialization needs all three entry points)")
	_, err = s.ContextFromSerialized(-8, payload, nil, false)
	wantStatus(t, err, api.HIPDNN_STATUS_NOT_SUPPORTED, "plan serialization needs all three entry points")
}

func TestSerializedOverrideFloor(t *testing.T) {
	s := session(t, "test_override_omitting_plugin")
	_, err := s.ContextFromSerialized(-13, []byte{1}, nil, true)
	// The omitting plugin has no serialization at all: that is reported first.
	wantStatus(t, err, api.HIPDNN_STATUS_NOT_SUPPORTED, "plan serialization needs all three entry points")
}

// hipdnnDestroy with plans alive: the session destroys their plugin contexts first, and the
// plans then refuse to execute.
func TestSessionCloseDestroysContexts(t *testing.T) {
	file := pluginFile(t, "test_good_plugin")
	m, _ := acquire(t, file)
	s := NewSession(m)
	c1 := newContext(t, s, -2, nil, false)
	c2 := newContext(t, s, -2, nil, false)
	p := m.Plugins()[0]
	if n := liveObjects(t, p, liveContexts); n != 2 {
		t.Fatalf("%d live contexts", n)
	}
	s.Close()
	s.Close()
	if n, h := liveObjects(t, p, liveContexts), liveObjects(t, p, liveHandles); n != 0 || h != 0 {
		t.Errorf("after Close: %d contexts, %d handles alive in the plugin", n, h)
	}
	b := newBuffers(t, []int64{1}, []uintptr{0x1000})
	for _, c := range []*Context{c1, c2} {
		wantStatus(t, c.Execute(testWorkspace, b, nil), api.HIPDNN_STATUS_BAD_PARAM, "the handle this plan was built with was destroyed")
		_, err := c.Serialize()
		wantStatus(t, err, api.HIPDNN_STATUS_BAD_PARAM, "the handle this plan was built with was destroyed")
		c.Destroy()
	}
	_, err := s.CreateContext(-2, nil, nil, nil, false)
	wantStatus(t, err, api.HIPDNN_STATUS_BAD_PARAM, "the hipdnnHandle was destroyed")
	_, err = s.ApplicableEngines(testGraph(), GraphFeatures{}, false)
	wantStatus(t, err, api.HIPDNN_STATUS_BAD_PARAM, "the hipdnnHandle was destroyed")
}

func TestConcurrentExecute(t *testing.T) {
	s := session(t, "test_good_plugin")
	shared := newContext(t, s, -2, map[int64]int64{1: 16}, false)
	b := newBuffers(t, []int64{1, 2}, []uintptr{0x1000, 0x2000})
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			own, err := s.CreateContext(-2, EncodeEngineConfig(-2, nil, ""), testGraph(), nil, false)
			if err != nil {
				errs <- err
				return
			}
			defer own.Destroy()
			for i := 0; i < 500; i++ {
				c := shared
				if i%2 == 1 {
					c = own
				}
				if err := c.Execute(testWorkspace, b, nil); err != nil {
					errs <- err
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// Destroy racing with Executes in flight: Destroy waits for them; later calls fail cleanly.
func TestDestroyWhileExecuting(t *testing.T) {
	s := session(t, "test_good_plugin")
	c := newContext(t, s, -2, nil, false)
	b := newBuffers(t, []int64{1}, []uintptr{0x1000})
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 2000; i++ {
				if err := c.Execute(testWorkspace, b, nil); err != nil {
					return
				}
			}
		}()
	}
	c.Destroy()
	wg.Wait()
	if n := liveObjects(t, s.Manager().Plugins()[0], liveContexts); n != 0 {
		t.Errorf("%d contexts alive", n)
	}
}

func TestExecuteDoesNotAllocate(t *testing.T) {
	s := session(t, "test_good_plugin", "test_override_implementing_plugin")
	c := newContext(t, s, -2, map[int64]int64{1: 16, 2: 16}, false)
	b := newBuffers(t, []int64{1, 2, 3}, []uintptr{0x1000, 0x2000, 0})
	if n := testing.AllocsPerRun(200, func() {
		if err := c.Execute(0x4000, b, nil); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Execute allocates %v times per call", n)
	}
	oc := newContext(t, s, -12, nil, true)
	ov, err := NewOverrides([]int64{1}, []int64{2}, []int64{2, 3}, []int64{3, 1})
	if err != nil {
		t.Fatal(err)
	}
	defer ov.Free()
	if n := testing.AllocsPerRun(200, func() {
		if err := oc.Execute(testWorkspace, b, ov); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Execute with overrides allocates %v times per call", n)
	}
	saved := c.e.Memory
	c.e.Memory = MemoryHostPinned | MemoryHostPageable
	defer func() { c.e.Memory = saved }()
	withRuntime(t, &fakeRuntime{kind: hip.KindAMD})
	if n := testing.AllocsPerRun(200, func() {
		if err := c.Execute(0x4000, b, nil); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Execute on a host-memory engine allocates %v times per call", n)
	}
}

// BenchmarkExecute compares Execute with the bare cgo call to the trampoline and with the
// plugin call made from C in a loop (no cgo crossing per call).
func BenchmarkExecute(b *testing.B) {
	s := session(b, "test_good_plugin")
	c := newContext(b, s, -2, map[int64]int64{1: 16, 2: 16, 3: 16, 4: 16}, false)
	bufs := newBuffers(b, []int64{1, 2, 3, 4}, []uintptr{0x1000, 0x2000, 0x3000, 0x4000})
	b.Run("Execute", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if err := c.Execute(testWorkspace, bufs, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("DirectCgo", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if st := c.directExecute(testWorkspace, bufs); st != 0 {
				b.Fatal(st)
			}
		}
	})
	b.Run("CLoop", func(b *testing.B) {
		b.ReportAllocs()
		if st := c.executeLoop(0, bufs, int64(b.N)); st != 0 {
			b.Fatal(st)
		}
	})
	b.Run("DirectCgoParallel", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if st := c.directExecute(testWorkspace, bufs); st != 0 {
					b.Error(st)
					return
				}
			}
		})
	})
	b.Run("ExecuteParallelOwnContext", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			own, err := s.CreateContext(-2, EncodeEngineConfig(-2, nil, ""), testGraph(), aligned(map[int64]int64{1: 16, 2: 16, 3: 16, 4: 16}), false)
			if err != nil {
				b.Error(err)
				return
			}
			defer own.Destroy()
			for pb.Next() {
				if err := own.Execute(testWorkspace, bufs, nil); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
	b.Run("ExecuteParallel", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if err := c.Execute(testWorkspace, bufs, nil); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
}

func unsafeAddr(b []byte) unsafe.Pointer { return unsafe.Pointer(&b[0]) }

// passByValueGraph has one FLOAT scalar tensor (uid 5) supplied at execute by host pointer.
func passByValueGraph() []byte {
	b := flatbuffers.NewBuilder(128)
	fb.TensorAttributesStartDimsVector(b, 1)
	b.PrependInt64(1)
	dims := b.EndVector(1)
	fb.TensorAttributesStart(b)
	fb.TensorAttributesAddUid(b, 5)
	fb.TensorAttributesAddDataType(b, fb.DataTypeFLOAT)
	fb.TensorAttributesAddDims(b, dims)
	fb.TensorAttributesAddIsRuntimePassByValue(b, true)
	tensor := fb.TensorAttributesEnd(b)
	fb.GraphStartTensorsVector(b, 1)
	b.PrependUOffsetT(tensor)
	tensors := b.EndVector(1)
	fb.GraphStart(b)
	fb.GraphAddTensors(b, tensors)
	b.Finish(fb.GraphEnd(b))
	return b.FinishedBytes()
}

// A runtime pass-by-value graph reaches only plugins of API 1.2.0 or later, and the host
// pointer in the variant pack arrives untouched: the recorder reads the scalar through it.
func TestPassByValueReachesThePlugin(t *testing.T) {
	s := session(t, "test_pass_by_value_recorder_plugin", "test_override_omitting_plugin")
	graph := passByValueGraph()
	ids, err := s.ApplicableEngines(graph, GraphFeatures{RuntimePassByValue: true}, false)
	if err != nil || !equalIDs(ids, []int64{-25}) {
		t.Fatalf("applicable %v, %v; want [-25]", ids, err)
	}
	c, err := s.CreateContext(-25, EncodeEngineConfig(-25, nil, ""), graph, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Destroy()
	scalar := []float32{2.5}
	b := newBuffers(t, []int64{5}, []uintptr{uintptr(unsafe.Pointer(&scalar[0]))})
	if err := c.Execute(testWorkspace, b, nil); err != nil {
		t.Fatal(err)
	}
	runtime.KeepAlive(scalar)
	p := c.Engine().Plugin
	n, got := probe.Recorded(probeFn(p, "hipdnnTestRecorderGetLast"), 5)
	if n != 4 || math.Float32frombits(binary.LittleEndian.Uint32(got)) != 2.5 {
		t.Errorf("recorder read %d bytes %v, want the float 2.5", n, got)
	}
	// A NULL pointer for the scalar: the plugin refuses, the host reports its message.
	err = c.Execute(testWorkspace, newBuffers(t, []int64{5}, []uintptr{0}), nil)
	wantStatus(t, err, api.HIPDNN_STATUS_PLUGIN_ERROR, "runtime pass-by-value tensor 5 has no pointer in the variant pack")
}
