package descriptors

import (
	"fmt"
	"unsafe"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/heuristics"
	"github.com/hipdnn-go/backend/internal/logging"
	"github.com/hipdnn-go/backend/internal/registry"
	"github.com/hipdnn-go/backend/internal/status"
)

// EngineHeuristic is HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR. Finalize collects the engines
// applicable to the graph from every engine plugin and ranks them with the first heuristic
// policy that accepts (RFC 0007); RESULTS fills engine configs the caller created.
type EngineHeuristic struct {
	Header
	graph   *Graph
	order   []int64 // resolved policy order actually used
	metric  string  // resolved ranking metric
	ranked  []int64
	configs map[int64][]byte // exact configs supplied by the policy
	// declined: with no candidate, why no engine took the graph (the plugins' reasons); the
	// thread's last error after a successful finalize (Notice).
	declined string
}

// Notice is the message a successful finalize leaves as the thread's last error: the engines'
// reasons when none takes the graph, so that a caller finding no results can say why.
func (e *EngineHeuristic) Notice() string { return e.declined }

var _ = register(&KindSpec{
	Kind:             api.HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR,
	Class:            "EngineHeuristicDescriptor",
	UnfinalizedGet:   api.HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED,
	RejectRefinalize: true,
	New:              func(k *KindSpec) Object { e := &EngineHeuristic{}; k.init(&e.Header); return e },
	Attrs: []*Attr{
		{Name: api.HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, Type: api.HIPDNN_TYPE_BACKEND_DESCRIPTOR, Min: 1, Max: 1,
			Settable: true, Gettable: true, Required: true, ExactOne: true,
			DescKinds: []api.DescriptorType{api.HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR}},
		{Name: api.HIPDNN_ATTR_ENGINEHEUR_MODE, Type: api.HIPDNN_TYPE_HEUR_MODE, Min: 1, Max: 1,
			Settable: true, Gettable: true, Required: true, ExactOne: true, Validate: validHeurMode},
		{Name: api.HIPDNN_ATTR_ENGINEHEUR_RESULTS, Type: api.HIPDNN_TYPE_BACKEND_DESCRIPTOR, Max: -1, Gettable: true,
			CustomGet: getHeuristicResults},
		{Name: api.HIPDNN_ATTR_ENGINEHEUR_FIND_FIRST_EXT, Type: api.HIPDNN_TYPE_BOOLEAN, Min: 1, Max: 1, Settable: true, Gettable: true},
		{Name: api.HIPDNN_ATTR_ENGINEHEUR_POLICY_ORDER_EXT, Type: api.HIPDNN_TYPE_INT64, Min: 0, Max: -1, Settable: true, Gettable: true,
			Compute: func(o Object) (Value, error) {
				return Value{Set: true, Type: api.HIPDNN_TYPE_INT64, Ints: o.(*EngineHeuristic).order}, nil
			}},
		{Name: api.HIPDNN_ATTR_ENGINEHEUR_RANKING_METRIC_EXT, Type: api.HIPDNN_TYPE_CHAR, Min: 1, Max: -1, Settable: true, Gettable: true,
			Validate: func(_ Object, v *Value) error {
				if !heuristics.ValidRankingMetric(v.Str()) {
					return stepf(status.BadParam, "%q is not a registered ranking metric (registered: %v)", v.Str(), heuristics.RankingMetrics)
				}
				return nil
			},
			Compute: func(o Object) (Value, error) { return strValue(o.(*EngineHeuristic).metric), nil }},
	},
	Finalize: finalizeHeuristic,
})

// validHeurMode accepts HIPDNN_HEUR_MODE_FALLBACK, the only mode hipDNN defines; prediction
// policies are chosen through HIPDNN_ATTR_ENGINEHEUR_POLICY_ORDER_EXT instead.
func validHeurMode(_ Object, v *Value) error {
	if api.HeurMode(v.I) != api.HIPDNN_HEUR_MODE_FALLBACK {
		return status.NotSupported("EngineHeuristicDescriptor: heuristic mode %d is not supported; the supported mode is HIPDNN_HEUR_MODE_FALLBACK (0) — to rank by predictions put SelectionHeuristic::ModeA or ModeB in HIPDNN_ATTR_ENGINEHEUR_POLICY_ORDER_EXT", v.I)
	}
	return nil
}

func finalizeHeuristic(o Object) error {
	e := o.(*EngineHeuristic)
	e.graph = e.value(api.HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH).Objs[0].(*Graph)
	s, err := e.graph.session()
	if err != nil {
		return err
	}
	h := e.graph.Handle()
	po := e.value(api.HIPDNN_ATTR_ENGINEHEUR_POLICY_ORDER_EXT)
	e.order, _ = heuristics.ResolvePolicyOrder(po.Ints, po.Set)
	e.metric, err = heuristics.ResolveRankingMetric(e.value(api.HIPDNN_ATTR_ENGINEHEUR_RANKING_METRIC_EXT).Str())
	if err != nil {
		return err
	}
	findFirst := e.value(api.HIPDNN_ATTR_ENGINEHEUR_FIND_FIRST_EXT).I != 0
	candidates, err := s.ApplicableEngines(e.graph.Bytes(), e.graph.engineFeatures(), findFirst)
	if err != nil {
		return err
	}
	e.declined = ""
	if len(candidates) == 0 {
		e.declined = "no engine applies to the graph"
		if name := e.graph.value(api.HIPDNN_ATTR_OPERATIONGRAPH_NAME_EXT).Str(); name != "" {
			e.declined = fmt.Sprintf("no engine applies to graph %q", name)
		}
		if why := s.DeclineReasons(e.graph.Bytes(), e.graph.engineFeatures()); why != "" {
			e.declined += ": " + why
		}
	}
	if len(candidates) == 0 && e.graph.opaque != nil && logging.Enabled(api.HIPDNN_SEV_WARN) {
		// The graceful failure to match (RFC 0005): no results, and the reason in the log.
		logging.Warnf("EngineHeuristicDescriptor: no engine for graph %q: %s, and no engine plugin offered to it accepted it",
			e.graph.value(api.HIPDNN_ATTR_OPERATIONGRAPH_NAME_EXT).Str(), e.graph.noMatchReason())
	}
	if len(candidates) == 0 || findFirst {
		e.ranked = candidates
		return nil
	}
	mgr := s.Manager()
	res, err := h.Policies().Rank(heuristics.Request{
		Candidates:  candidates,
		Graph:       e.graph.Bytes(),
		Model:       e.graph.Model(),
		DeviceProps: heuristics.CandidateDeviceProperties(mgr, candidates, h.Stream()),
		Order:       e.order,
		Metric:      e.metric,
		EngineID:    func(s string) int64 { return engineIDOf(mgr, s) },
		EngineName: func(id int64) string {
			if en := mgr.EngineByID(id); en != nil {
				return en.Name
			}
			return ""
		},
	})
	if err != nil {
		return err
	}
	e.ranked, e.configs = res.EngineIDs, res.Configs
	return nil
}

// getHeuristicResults implements RESULTS: requested 0 gives the count; otherwise the caller's
// array holds ENGINECFG descriptors it created, and the first min(requested, count) are filled
// with a finalized engine (the ranked id, the graph) and left unfinalized for the caller.
func getHeuristicResults(o Object, _ api.AttributeType, requested int64, count *int64, p unsafe.Pointer) error {
	e := o.(*EngineHeuristic)
	if requested == 0 {
		if count == nil {
			return stepf(status.NullPointer, "elementCount is NULL")
		}
		*count = int64(len(e.ranked))
		return nil
	}
	if requested < 0 {
		return stepf(status.BadParam, "requestedElementCount %d is negative", requested)
	}
	if p == nil || count == nil {
		return stepf(status.NullPointer, "RESULTS needs an array of engine config descriptors and elementCount")
	}
	n := min(requested, int64(len(e.ranked)))
	cfgs := make([]*EngineConfig, n)
	for i := int64(0); i < n; i++ {
		tok := *(*uintptr)(unsafe.Add(p, uintptr(i)*8))
		if tok == 0 {
			return stepf(status.NullPointer, "element %d of the RESULTS array is NULL", i)
		}
		v, err := registry.Lookup(tok, registry.KindDescriptor)
		if err != nil {
			return stepf(status.BadParam, "element %d of the RESULTS array %v", i, err)
		}
		c, ok := v.(*EngineConfig)
		if !ok {
			return stepf(status.BadParam, "Descriptor type mismatch: element %d is a %v, not an engine config", i, KindOf(v.(Object)))
		}
		if c.finalized {
			return stepf(status.BadParam, "element %d is an engine config that is already finalized", i)
		}
		cfgs[i] = c
	}
	for i, c := range cfgs {
		id := e.ranked[i]
		eng := newBoundEngine(e.graph, id)
		c.value(api.HIPDNN_ATTR_ENGINECFG_ENGINE).setObjs(api.HIPDNN_TYPE_BACKEND_DESCRIPTOR, []Object{eng})
		c.metric = e.metric
		c.exact = e.configs[id]
	}
	*count = n
	return nil
}
