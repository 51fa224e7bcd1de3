package descriptors

import (
	"sync"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/engines"
	"github.com/hipdnn-go/backend/internal/status"
)

// Engine is HIPDNN_BACKEND_ENGINE_DESCRIPTOR: one engine of a plugin, bound to a graph.
// Finalize checks that the engine can run the graph; its details (name, knobs, behaviour
// notes) are fetched from the plugin at the first query, as AMD's newest backend does, so
// those reads can fail with PLUGIN_ERROR.
type Engine struct {
	Header
	graph *Graph
	id    int64

	detailsOnce sync.Once
	details     *engines.Details
	detailsErr  error
	knobInfos   []Object
}

var engineKind = register(&KindSpec{
	Kind:             api.HIPDNN_BACKEND_ENGINE_DESCRIPTOR,
	Class:            "EngineDescriptor",
	RejectRefinalize: true,
	New:              func(k *KindSpec) Object { e := &Engine{}; k.init(&e.Header); return e },
	Attrs: []*Attr{
		{Name: api.HIPDNN_ATTR_ENGINE_OPERATION_GRAPH, Type: api.HIPDNN_TYPE_BACKEND_DESCRIPTOR, Min: 1, Max: 1,
			Settable: true, Gettable: true, Required: true, ExactOne: true,
			DescKinds: []api.DescriptorType{api.HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR}},
		{Name: api.HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, Type: api.HIPDNN_TYPE_INT64, Min: 1, Max: 1,
			Settable: true, Gettable: true, Required: true, ExactOne: true},
		{Name: api.HIPDNN_ATTR_ENGINE_KNOB_INFO, Type: api.HIPDNN_TYPE_BACKEND_DESCRIPTOR, Max: -1, Gettable: true, FullGet: true,
			Compute: func(o Object) (Value, error) {
				infos, err := o.(*Engine).knobInfoDescriptors()
				return Value{Set: true, Type: api.HIPDNN_TYPE_BACKEND_DESCRIPTOR, Objs: infos}, err
			}},
		{Name: api.HIPDNN_ATTR_KNOB_INFO_SERIALIZED_VALUE, Type: api.HIPDNN_TYPE_FLATBUFFER_DATA_STRUCT_EXT, Max: -1, Gettable: true,
			Compute: func(o Object) (Value, error) {
				d, err := o.(*Engine).Details()
				if err != nil {
					return Value{}, err
				}
				blobs := make([][]byte, len(d.Knobs))
				for i := range d.Knobs {
					blobs[i] = d.Knobs[i].Serialized
				}
				v := Value{Set: true, Type: api.HIPDNN_TYPE_FLATBUFFER_DATA_STRUCT_EXT}
				v.setRare(nil, blobs)
				return v, nil
			}},
		{Name: api.HIPDNN_ATTR_ENGINE_BEHAVIOR_NOTE, Type: api.HIPDNN_TYPE_BEHAVIOR_NOTE, Max: -1, Gettable: true,
			Compute: func(o Object) (Value, error) {
				d, err := o.(*Engine).Details()
				if err != nil {
					return Value{}, err
				}
				v := Value{Set: true, Type: api.HIPDNN_TYPE_BEHAVIOR_NOTE, Ints: []int64{}}
				for _, n := range d.BehaviorNotes {
					v.Ints = append(v.Ints, int64(n))
				}
				return v, nil
			}},
		{Name: api.HIPDNN_ATTR_ENGINE_NAME_EXT, Type: api.HIPDNN_TYPE_CHAR, Max: -1, Gettable: true,
			Compute: func(o Object) (Value, error) { return strValue(o.(*Engine).Name()), nil }},
		// The notes of the engine's default configuration (no knob settings).
		{Name: api.HIPDNN_ATTR_ENGINE_NUMERICAL_NOTE, Type: api.HIPDNN_TYPE_NUMERICAL_NOTE, Max: -1, Gettable: true,
			Compute: func(o Object) (Value, error) {
				e := o.(*Engine)
				return notesValue(e.NumericalNotes(engines.EncodeEngineConfig(e.id, nil, "")))
			}},
	},
	Finalize: finalizeEngine,
})

func finalizeEngine(o Object) error {
	e := o.(*Engine)
	e.graph = e.value(api.HIPDNN_ATTR_ENGINE_OPERATION_GRAPH).Objs[0].(*Graph)
	e.id = e.value(api.HIPDNN_ATTR_ENGINE_GLOBAL_INDEX).I
	return e.bind()
}

// bind checks the engine against its graph through the graph's handle.
func (e *Engine) bind() error {
	s, err := e.graph.session()
	if err != nil {
		return stepWrap(err)
	}
	ok, err := s.IsApplicable(e.id, e.graph.Bytes(), e.graph.engineFeatures())
	if err != nil {
		return err
	}
	if !ok {
		if why := e.graph.noMatchReason(); why != "" {
			return stepf(status.BadParam, "Engine id is not in a valid range of engine IDs: %s, and no plugin offering this engine accepted it", why)
		}
		return stepf(status.BadParam, "Engine id is not in a valid range of engine IDs")
	}
	return nil
}

// newBoundEngine makes a finalized engine for a graph (heuristic results, plan deserialization).
func newBoundEngine(g *Graph, id int64) *Engine {
	e := engineKind.New(engineKind).(*Engine)
	e.value(api.HIPDNN_ATTR_ENGINE_OPERATION_GRAPH).setObjs(api.HIPDNN_TYPE_BACKEND_DESCRIPTOR, []Object{g})
	e.value(api.HIPDNN_ATTR_ENGINE_GLOBAL_INDEX).setInt(api.HIPDNN_TYPE_INT64, id)
	e.graph, e.id, e.finalized = g, id, true
	return e
}

// NumericalNotes asks the engine's plugin for the numerical notes of a configuration of this
// engine (a serialized EngineConfig) on the engine's graph.
func (e *Engine) NumericalNotes(config []byte) ([]api.NumericalNote, error) {
	s, err := e.graph.session()
	if err != nil {
		return nil, err
	}
	return s.NumericalNotes(e.id, config, e.graph.Bytes())
}

func notesValue(notes []api.NumericalNote, err error) (Value, error) {
	if err != nil {
		return Value{}, err
	}
	v := Value{Set: true, Type: api.HIPDNN_TYPE_NUMERICAL_NOTE, Ints: make([]int64, 0, len(notes))}
	for _, n := range notes {
		v.Ints = append(v.Ints, int64(n))
	}
	return v, nil
}

// ID is the engine's global index (its engine id).
func (e *Engine) ID() int64 { return e.id }

// Graph is the graph the engine was finalized for.
func (e *Engine) Graph() *Graph { return e.graph }

// Name is the engine's resolved name, never empty.
func (e *Engine) Name() string {
	if s, err := e.graph.session(); err == nil {
		if en := s.Manager().EngineByID(e.id); en != nil {
			return en.Name
		}
	}
	return engines.FormatEngineID(e.id)
}

// Details asks the plugin once for the engine's details on this graph.
func (e *Engine) Details() (*engines.Details, error) {
	e.detailsOnce.Do(func() {
		s, err := e.graph.session()
		if err != nil {
			e.detailsErr = err
			return
		}
		e.details, e.detailsErr = s.EngineDetails(e.id, e.graph.Bytes())
		if e.detailsErr == nil {
			// One finalized KNOB_INFO descriptor per knob, made once with the details so
			// concurrent readers of a finalized engine see the same objects.
			e.knobInfos = make([]Object, 0, len(e.details.Knobs))
			for i := range e.details.Knobs {
				e.knobInfos = append(e.knobInfos, knobInfoFrom(&e.details.Knobs[i]))
			}
		}
	})
	return e.details, e.detailsErr
}

func (e *Engine) knobInfoDescriptors() ([]Object, error) {
	_, err := e.Details()
	return e.knobInfos, err
}
