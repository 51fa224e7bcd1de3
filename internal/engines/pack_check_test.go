package engines

import (
	"testing"

	"github.com/hipdnn-go/backend/hip"
	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/engines/probe"
)

// convTensors is a plan's tensor table as descriptors builds it: X and W read, Y written,
// uid 4 virtual, uid 5 a runtime pass-by-value scalar.
var convTensors = []PlanTensor{
	{UID: 1, Alignment: 16, Role: ` ("X", x of ConvolutionFwd node "conv")`, Required: true},
	{UID: 2, Alignment: 16, Role: ` ("W", w of ConvolutionFwd node "conv")`, Required: true},
	{UID: 3, Alignment: 16, Role: ` ("Y", y of ConvolutionFwd node "conv")`, Required: true},
	{UID: 4, Alignment: 16},
	{UID: 5, Alignment: 4, Role: ` ("alpha")`, Required: true, HostValue: true},
}

func convContext(t *testing.T, s *Session, id int64) *Context {
	t.Helper()
	c, err := s.CreateContext(id, EncodeEngineConfig(id, nil, ""), testGraph(), convTensors, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Destroy)
	return c
}

// Missing and NULL pointers and a NULL workspace are refused by the host, naming the tensor,
// and the plugin is never called.
func TestExecuteRequiredBuffers(t *testing.T) {
	s := session(t, "test_override_implementing_plugin", "test_good_plugin")
	withRuntime(t, nil)
	good := convContext(t, s, -2) // needs a 2048-byte workspace
	uids := []int64{1, 2, 3, 5}
	tests := []struct {
		desc string
		uids []int64
		ptrs []uintptr
		ws   uintptr
		want string
	}{
		{"all there", uids, []uintptr{0x1000, 0x2000, 0x3000, 0x4004}, testWorkspace, ""},
		{"virtual tensor absent, extra uid NULL", []int64{1, 2, 3, 5, 9}, []uintptr{0x1000, 0x2000, 0x3000, 0x4004, 0}, testWorkspace, ""},
		{"NULL input", uids, []uintptr{0x1000, 0, 0x3000, 0x4004}, testWorkspace,
			`variant pack: the pointer for tensor uid 2 ("W", w of ConvolutionFwd node "conv") is NULL`},
		{"NULL output", uids, []uintptr{0x1000, 0x2000, 0, 0x4004}, testWorkspace,
			`variant pack: the pointer for tensor uid 3 ("Y", y of ConvolutionFwd node "conv") is NULL`},
		{"NULL scalar", uids, []uintptr{0x1000, 0x2000, 0x3000, 0}, testWorkspace,
			`variant pack: the pointer for tensor uid 5 ("alpha") is NULL`},
		{"missing", []int64{2, 3, 5}, []uintptr{0x2000, 0x3000, 0x4004}, testWorkspace,
			`variant pack: no pointer for tensor uid 1 ("X", x of ConvolutionFwd node "conv"), which the plan for engine 0xFFFFFFFFFFFFFFFE reads or writes`},
		{"NULL workspace", uids, []uintptr{0x1000, 0x2000, 0x3000, 0x4004}, 0,
			"variant pack: the workspace is NULL, but the plan for engine 0xFFFFFFFFFFFFFFFE needs 2048 bytes"},
	}
	for _, tt := range tests {
		b := NewBuffers(tt.uids, tt.ptrs, tt.ws)
		err := good.Execute(tt.ws, b, nil)
		b.Free()
		if tt.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tt.desc, err)
			}
			continue
		}
		wantStatus(t, err, api.HIPDNN_STATUS_BAD_PARAM, tt.want)
		if err != nil && err.Error() != tt.want {
			t.Errorf("%s: message %q, want exactly %q", tt.desc, err.Error(), tt.want)
		}
	}
	// A plan without a workspace takes a NULL one; a refused call never reaches the plugin.
	noWS := convContext(t, s, -12)
	b := newBuffers(t, uids, []uintptr{0x1000, 0x2000, 0x3000, 0x4004})
	if err := noWS.Execute(0, b, nil); err != nil {
		t.Errorf("no workspace needed: %v", err)
	}
	null := newBuffers(t, uids, []uintptr{0x1000, 0, 0x3000, 0x4004})
	wantStatus(t, noWS.Execute(0, null, nil), api.HIPDNN_STATUS_BAD_PARAM, "tensor uid 2")
	if plain, _, _ := probe.Stats(probeFn(noWS.Engine().Plugin, "hipdnnTestGetExecuteStats")); plain != 1 {
		t.Errorf("plugin executes %d, want 1 (the refused call must not reach it)", plain)
	}
}

// Each memory kind against what each engine accepts, through the host stand-in for the
// runtime's pointer query.
func TestExecuteMemoryKinds(t *testing.T) {
	s := session(t, "test_good_plugin", "test_knobs_plugin")
	e := s.Manager().EngineByID(-2)
	if e.Memory != MemoryDevice|MemoryManaged {
		t.Fatalf("engine -2 (no memory-kinds entry point) accepts %s memory, want device or managed", e.Memory)
	}
	if k := s.Manager().EngineByID(-8).Memory; k != MemoryDevice|MemoryHostPinned {
		t.Errorf("engine -8 accepts %s memory; its plugin says device or host pinned", k)
	}
	if k := s.Manager().EngineByID(-9).Memory; k != MemoryDevice|MemoryManaged {
		t.Errorf("engine -9 (the query fails) accepts %s memory, want the device default", k)
	}
	const (
		pageable = 0x10000
		pinned   = 0x11000
		managed  = 0x12000
		dev0     = 0x13000
		dev1     = 0x14000
		ws0      = 0x15000
		devScal  = 0x13040
	)
	rt := &fakeRuntime{kind: hip.KindCUDA, streamDevice: 0,
		device: map[uintptr]hip.MemoryKind{pinned: hip.MemoryPinned, managed: hip.MemoryManaged, dev0: hip.MemoryDevice,
			dev1: hip.MemoryDevice, ws0: hip.MemoryDevice, devScal: hip.MemoryDevice},
		devices: map[uintptr]int{dev1: 1}}
	withRuntime(t, rt)
	device := convContext(t, s, -2)
	pinnedOK := convContext(t, s, -8)
	host := s.Manager().EngineByID(-9)
	saved := host.Memory
	host.Memory = MemoryHostPinned | MemoryHostPageable // as a host-memory engine
	defer func() { host.Memory = saved }()
	hostCtx := convContext(t, s, -9)
	if device.device != 0 || hostCtx.device != -1 {
		t.Errorf("plan devices %d and %d, want 0 (the stream's) and -1 (a host engine)", device.device, hostCtx.device)
	}

	tests := []struct {
		desc   string
		c      *Context
		x, ws  uintptr
		scalar uintptr
		want   string
	}{
		{"device on its device", device, dev0, ws0, pageable, ""},
		{"managed", device, managed, ws0, pageable, ""},
		{"host pageable", device, pageable, ws0, pageable,
			`variant pack: the pointer 0x10000 for tensor uid 1 ("X", x of ConvolutionFwd node "conv") is host pageable memory; engine 0xFFFFFFFFFFFFFFFE accepts device or managed memory`},
		{"host pinned", device, pinned, ws0, pageable,
			`the pointer 0x11000 for tensor uid 1 ("X", x of ConvolutionFwd node "conv") is host pinned memory; engine 0xFFFFFFFFFFFFFFFE accepts device or managed memory`},
		{"another device", device, dev1, ws0, pageable,
			`the pointer 0x14000 for tensor uid 1 ("X", x of ConvolutionFwd node "conv") is memory of device 1; engine 0xFFFFFFFFFFFFFFFE runs this plan on device 0`},
		{"host workspace", device, dev0, pageable + 0x100, pageable,
			"variant pack: the workspace pointer 0x10100 is host pageable memory; engine 0xFFFFFFFFFFFFFFFE accepts device or managed memory"},
		{"pinned scalar", device, dev0, ws0, pinned, ""},
		{"device scalar", device, dev0, ws0, devScal,
			`the pointer 0x13040 for tensor uid 5 ("alpha") is device memory; a pass-by-value scalar is read on the host`},
		{"pinned where the engine says so", pinnedOK, pinned, ws0, pageable, ""},
		{"managed where the engine leaves it out", pinnedOK, managed, ws0, pageable,
			"is managed memory; engine 0xFFFFFFFFFFFFFFF8 accepts device or host pinned memory"},
		{"host engine, host memory", hostCtx, pageable, pinned, pageable, ""},
		{"host engine, device memory", hostCtx, dev0, pinned, pageable,
			"is device memory; engine 0xFFFFFFFFFFFFFFF7 accepts host pinned or host pageable memory"},
		{"host engine, managed workspace", hostCtx, pageable, managed, pageable,
			"the workspace pointer 0x12000 is managed memory; engine 0xFFFFFFFFFFFFFFF7 accepts host pinned or host pageable memory"},
	}
	for _, tt := range tests {
		b := NewBuffers([]int64{1, 2, 3, 5}, []uintptr{tt.x, tt.x, tt.x, tt.scalar}, tt.ws)
		err := tt.c.Execute(tt.ws, b, nil)
		b.Free()
		if tt.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tt.desc, err)
			}
			continue
		}
		wantStatus(t, err, api.HIPDNN_STATUS_BAD_PARAM, tt.want)
	}
	// Without a GPU runtime every pointer is host memory and nothing is refused.
	withRuntime(t, nil)
	b := newBuffers(t, []int64{1, 2, 3, 5}, []uintptr{pageable, pageable, pageable, pageable})
	if err := device.Execute(testWorkspace, b, nil); err != nil {
		t.Errorf("no runtime: %v", err)
	}
}

// A pack's pointers are classified once, and a (context, pack) pair is checked once.
func TestExecuteChecksOncePerPair(t *testing.T) {
	s := session(t, "test_good_plugin")
	rt := &fakeRuntime{kind: hip.KindCUDA, device: map[uintptr]hip.MemoryKind{
		0x1000: hip.MemoryDevice, 0x2000: hip.MemoryDevice, 0x3000: hip.MemoryDevice, 0x9000: hip.MemoryDevice}}
	withRuntime(t, rt)
	a, b := convContext(t, s, -2), convContext(t, s, -2)
	pack := NewBuffers([]int64{1, 2, 3, 5}, []uintptr{0x1000, 0x2000, 0x3000, 0x4004}, 0x9000)
	defer pack.Free()
	for i := 0; i < 3; i++ {
		for _, c := range []*Context{a, b} {
			if err := c.Execute(0x9000, pack, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	if q := rt.queries.Load(); q != 5 {
		t.Errorf("%d pointer queries for 4 pointers and a workspace used by two plans six times, want 5", q)
	}
	if !pack.passed(a.id) || !pack.passed(b.id) {
		t.Error("the pack does not remember the contexts it passed with")
	}
	// A workspace other than the pack's own is checked on every call, never remembered.
	other := uintptr(0x9100)
	rt.device[other] = hip.MemoryDevice
	before := rt.queries.Load()
	for i := 0; i < 2; i++ {
		if err := a.Execute(other, pack, nil); err != nil {
			t.Fatal(err)
		}
	}
	if q := rt.queries.Load() - before; q != 2 {
		t.Errorf("%d queries for a foreign workspace used twice, want 2", q)
	}
	// More plans than verdict slots: the oldest is re-checked, never wrongly passed.
	var ctxs []*Context
	for i := 0; i < verdictSlots+1; i++ {
		c := convContext(t, s, -2)
		if err := c.Execute(0x9000, pack, nil); err != nil {
			t.Fatal(err)
		}
		ctxs = append(ctxs, c)
	}
	if pack.passed(ctxs[0].id) || !pack.passed(ctxs[verdictSlots].id) {
		t.Error("verdict slots: the oldest context should have given way to the newest")
	}
}

// The checks cost nothing per call once a pair passed (the hot path stays allocation-free).
func TestExecuteCheckedPairDoesNotAllocate(t *testing.T) {
	s := session(t, "test_good_plugin")
	withRuntime(t, &fakeRuntime{kind: hip.KindCUDA, device: map[uintptr]hip.MemoryKind{
		0x1000: hip.MemoryDevice, 0x2000: hip.MemoryDevice, 0x3000: hip.MemoryDevice, testWorkspace: hip.MemoryDevice}})
	c := convContext(t, s, -2)
	b := newBuffers(t, []int64{1, 2, 3, 5}, []uintptr{0x1000, 0x2000, 0x3000, 0x4004})
	if n := testing.AllocsPerRun(200, func() {
		if err := c.Execute(testWorkspace, b, nil); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Execute of a checked pair allocates %v times per call", n)
	}
}

// A pack finalized after a plan admitted a new pair is checked against that plan at once: a
// pack per execute then takes the C fast path from its first execute. A pack the plan would
// refuse is not remembered, so its first execute still gives the message; a destroyed plan is
// never the one prechecked against.
func TestPrecheckAgainstLastPlan(t *testing.T) {
	s := session(t, "test_good_plugin")
	rt := &fakeRuntime{kind: hip.KindCUDA, device: map[uintptr]hip.MemoryKind{
		0x1000: hip.MemoryDevice, 0x2000: hip.MemoryDevice, 0x3000: hip.MemoryDevice, 0x9000: hip.MemoryDevice}}
	withRuntime(t, rt)
	c := convContext(t, s, -2)
	uids, ptrs := []int64{1, 2, 3, 5}, []uintptr{0x1000, 0x2000, 0x3000, 0x4004}
	first := newBuffersWS(t, uids, ptrs, 0x9000)
	if err := c.Execute(0x9000, first, nil); err != nil {
		t.Fatal(err)
	}
	next := newBuffersWS(t, uids, ptrs, 0x9000)
	next.Precheck()
	if !next.passed(c.id) {
		t.Fatal("a pack like the last admitted one was not prechecked against its plan")
	}
	for desc, bad := range map[string]*Buffers{
		"NULL input":     newBuffersWS(t, uids, []uintptr{0x1000, 0, 0x3000, 0x4004}, 0x9000),
		"missing tensor": newBuffersWS(t, []int64{2, 3, 5}, []uintptr{0x2000, 0x3000, 0x4004}, 0x9000),
		"host pointer":   newBuffersWS(t, uids, []uintptr{0x1000, 0x7777, 0x3000, 0x4004}, 0x9000),
		"no workspace":   newBuffersWS(t, uids, ptrs, 0),
	} {
		bad.Precheck()
		if bad.passed(c.id) {
			t.Errorf("%s: prechecked as passed", desc)
		}
		if err := c.Execute(bad.workspace(), bad, nil); err == nil {
			t.Errorf("%s: executed", desc)
		}
	}
	if err := c.Execute(0x9000, first, nil); err != nil { // the last admitted context again
		t.Fatal(err)
	}
	c.Destroy()
	late := newBuffersWS(t, uids, ptrs, 0x9000)
	late.Precheck()
	if late.passed(c.id) || lastAdmitted.Load() == c {
		t.Error("a destroyed context is still the precheck's plan")
	}
}

func newBuffersWS(t *testing.T, uids []int64, ptrs []uintptr, ws uintptr) *Buffers {
	t.Helper()
	b := NewBuffers(uids, ptrs, ws)
	t.Cleanup(b.Free)
	return b
}
