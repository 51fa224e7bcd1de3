package descriptors

import (
	"os"
	"testing"
	"unsafe"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/engines"
	"github.com/hipdnn-go/backend/internal/handle"
)

// Benchmarks of the paths inside Go; bench/hipdnn_bench.cpp measures the same through the C API
// next to a bare C→Go call. Run with -benchmem: the attribute paths must not allocate.

func BenchmarkSetAttributeTensorDims(b *testing.B) {
	o, _ := Create(api.HIPDNN_BACKEND_TENSOR_DESCRIPTOR)
	dims := []int64{8, 64, 56, 56}
	p := unsafe.Pointer(&dims[0])
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := SetAttribute(o, api.HIPDNN_ATTR_TENSOR_DIMENSIONS, api.HIPDNN_TYPE_INT64, 4, p); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGetAttributeTensorDims(b *testing.B) {
	t := b
	tn := newTensor(t, 1, false, 8, 64, 56, 56)
	out := make([]int64, 4)
	var n int64
	p := unsafe.Pointer(&out[0])
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := GetAttribute(tn, api.HIPDNN_ATTR_TENSOR_DIMENSIONS, api.HIPDNN_TYPE_INT64, 4, &n, p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGraphFinalize builds and finalizes the conv+bias+relu operation graph (validation,
// flatbuffer encoding) from already finalized operations.
func BenchmarkGraphFinalize(b *testing.B) {
	t := b
	h, _, err := handle.New()
	if err != nil {
		b.Fatal(err)
	}
	defer handle.Destroy(h.Token())
	ops := convBiasRelu(t)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g := graphKind.New(graphKind).(*Graph)
		g.value(api.HIPDNN_ATTR_OPERATIONGRAPH_OPS).setObjs(api.HIPDNN_TYPE_BACKEND_DESCRIPTOR, ops)
		g.handle = h
		if err := Finalize(g); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDeserializeToPlan is the budgeted path: serialized conv+bias+relu graph → graph
// descriptor → heuristic → engine config → execution plan, on the no-op engine of bench/
// (HIPDNN_BENCH_NOOP_PLUGIN, set by `make bench`).
func BenchmarkDeserializeToPlan(b *testing.B) {
	plugin := os.Getenv("HIPDNN_BENCH_NOOP_PLUGIN")
	if plugin == "" {
		b.Skip("HIPDNN_BENCH_NOOP_PLUGIN is not set (make bench sets it)")
	}
	if err := engines.SetPaths([]string{plugin}, api.HIPDNN_PLUGIN_LOADING_ABSOLUTE); err != nil {
		b.Fatal(err)
	}
	b.Setenv("HIPDNN_HEUR_FALLBACK_ENGINE_ORDER", "HIPDNNGO_BENCH_NOOP")
	t := b
	h, _, err := handle.New()
	if err != nil {
		b.Fatal(err)
	}
	defer handle.Destroy(h.Token())
	src := newGraph(t, h, convBiasRelu(t)...)
	if err := Finalize(src); err != nil {
		b.Fatal(err)
	}
	bytes := src.Bytes()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g, err := DeserializeGraph(bytes)
		if err != nil {
			b.Fatal(err)
		}
		g.handle = h
		must := func(err error) {
			if err != nil {
				b.Fatal(err)
			}
		}
		must(Finalize(g))
		heur := mustCreateB(b, api.HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR).(*EngineHeuristic)
		heur.value(api.HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH).setObjs(api.HIPDNN_TYPE_BACKEND_DESCRIPTOR, []Object{g})
		heur.value(api.HIPDNN_ATTR_ENGINEHEUR_MODE).setInt(api.HIPDNN_TYPE_HEUR_MODE, 0)
		must(Finalize(heur))
		cfg := mustCreateB(b, api.HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR).(*EngineConfig)
		cfg.value(api.HIPDNN_ATTR_ENGINECFG_ENGINE).setObjs(api.HIPDNN_TYPE_BACKEND_DESCRIPTOR, []Object{newBoundEngine(g, heur.ranked[0])})
		must(Finalize(cfg))
		plan := mustCreateB(b, api.HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR).(*ExecutionPlan)
		plan.value(api.HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG).setObjs(api.HIPDNN_TYPE_BACKEND_DESCRIPTOR, []Object{cfg})
		must(Finalize(plan))
		plan.release()
	}
}

func mustCreateB(b *testing.B, k api.DescriptorType) Object {
	o, err := Create(k)
	if err != nil {
		b.Fatal(err)
	}
	return o
}

// Operation attributes store into the op's node in place, like tensor attributes: no
// allocation once the field holds a value of that size.
func BenchmarkSetAttributeConvPrePaddings(b *testing.B) {
	o, _ := Create(api.HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR)
	pads := []int64{1, 1}
	p := unsafe.Pointer(&pads[0])
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := SetAttribute(o, api.HIPDNN_ATTR_CONVOLUTION_PRE_PADDINGS, api.HIPDNN_TYPE_INT64, 2, p); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSetAttributePointwiseMode(b *testing.B) {
	o, _ := Create(api.HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR)
	mode := int32(api.HIPDNN_POINTWISE_RELU_FWD)
	p := unsafe.Pointer(&mode)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := SetAttribute(o, api.HIPDNN_ATTR_POINTWISE_MODE, api.HIPDNN_TYPE_POINTWISE_MODE, 1, p); err != nil {
			b.Fatal(err)
		}
	}
}
