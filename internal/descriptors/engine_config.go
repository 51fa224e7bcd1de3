package descriptors

import (
	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/engines"
	"github.com/hipdnn-go/backend/internal/status"
)

// maxKnobChoices bounds HIPDNN_ATTR_ENGINECFG_KNOB_CHOICES (AMD's MAX_KNOB_CHOICES).
const maxKnobChoices = 1024

// EngineConfig is HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR: an engine plus knob settings. Finalize
// validates the settings against the engine's knobs, serializes the EngineConfig flatbuffer the
// plugin receives, and asks the plugin for the workspace size.
type EngineConfig struct {
	Header
	engine    *Engine
	blob      []byte // serialized EngineConfig
	workspace int64
	metric    string // ranking metric stamped by the heuristic that produced this config
	exact     []byte // exact EngineConfig supplied by a heuristic policy, if any
}

var engineConfigKind = register(&KindSpec{
	Kind:             api.HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR,
	Class:            "EngineConfigDescriptor",
	RejectRefinalize: true,
	New:              func(k *KindSpec) Object { c := &EngineConfig{}; k.init(&c.Header); return c },
	Attrs: []*Attr{
		{Name: api.HIPDNN_ATTR_ENGINECFG_ENGINE, Type: api.HIPDNN_TYPE_BACKEND_DESCRIPTOR, Min: 1, Max: 1,
			Settable: true, Gettable: true, Required: true, ExactOne: true,
			DescKinds: []api.DescriptorType{api.HIPDNN_BACKEND_ENGINE_DESCRIPTOR}},
		{Name: api.HIPDNN_ATTR_ENGINECFG_KNOB_CHOICES, Type: api.HIPDNN_TYPE_BACKEND_DESCRIPTOR, Min: 1, Max: maxKnobChoices,
			Settable: true, Append: true, DescKinds: []api.DescriptorType{api.HIPDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR}},
		{Name: api.HIPDNN_ATTR_KNOB_CHOICE_SERIALIZED_VALUE, Type: api.HIPDNN_TYPE_FLATBUFFER_DATA_STRUCT_EXT, Min: 1, Max: maxKnobChoices,
			Settable: true, Append: true, Validate: validKnobBlobs},
		{Name: api.HIPDNN_ATTR_ENGINECFG_WORKSPACE_SIZE, Type: api.HIPDNN_TYPE_INT64, Max: 1, Gettable: true, ExactOne: true,
			Compute: func(o Object) (Value, error) { return int64Value(o.(*EngineConfig).workspace), nil }},
		{Name: api.HIPDNN_ATTR_ENGINECFG_RANKING_METRIC_EXT, Type: api.HIPDNN_TYPE_CHAR, Max: -1, Gettable: true, GetUnfinalized: true,
			Compute: func(o Object) (Value, error) {
				c := o.(*EngineConfig)
				if c.metric == "" {
					return Value{}, nil
				}
				return strValue(c.metric), nil
			}},
		// Our extension: the notes of this configuration (its knob choices included), read with
		// the engine attribute's name.
		{Name: api.HIPDNN_ATTR_ENGINE_NUMERICAL_NOTE, Type: api.HIPDNN_TYPE_NUMERICAL_NOTE, Max: -1, Gettable: true,
			Compute: func(o Object) (Value, error) {
				c := o.(*EngineConfig)
				return notesValue(c.engine.NumericalNotes(c.blob))
			}},
	},
	Finalize: finalizeEngineConfig,
})

// validKnobBlobs checks that each serialized knob setting is a KnobSetting flatbuffer.
func validKnobBlobs(_ Object, v *Value) error {
	for i, b := range v.Blobs() {
		if _, err := engines.DecodeKnobSetting(b); err != nil {
			return stepf(status.BadParam, "HIPDNN_ATTR_KNOB_CHOICE_SERIALIZED_VALUE element %d: %v", i, err)
		}
	}
	return nil
}

// settings gathers the knob settings from both attributes.
func (c *EngineConfig) settings() ([]engines.KnobSetting, error) {
	var out []engines.KnobSetting
	for _, o := range c.value(api.HIPDNN_ATTR_ENGINECFG_KNOB_CHOICES).Objs {
		out = append(out, o.(*KnobChoice).Setting())
	}
	for _, b := range c.value(api.HIPDNN_ATTR_KNOB_CHOICE_SERIALIZED_VALUE).Blobs() {
		s, err := engines.DecodeKnobSetting(b)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func finalizeEngineConfig(o Object) error {
	c := o.(*EngineConfig)
	c.engine = c.value(api.HIPDNN_ATTR_ENGINECFG_ENGINE).Objs[0].(*Engine)
	settings, err := c.settings()
	if err != nil {
		return stepf(status.BadParam, "%v", err)
	}
	switch {
	case len(settings) == 0 && c.exact != nil:
		// A policy's exact configuration, used as is unless the caller chose knobs.
		c.blob = c.exact
	default:
		if len(settings) > 0 {
			d, err := c.engine.Details()
			if err != nil {
				return err
			}
			if err := engines.ValidateKnobSettings(d, settings); err != nil {
				return stepWrap(err)
			}
		}
		c.blob = engines.EncodeEngineConfig(c.engine.ID(), settings, c.metric)
	}
	s, err := c.engine.Graph().session()
	if err != nil {
		return err
	}
	ws, err := s.WorkspaceSize(c.engine.ID(), c.blob, c.engine.Graph().Bytes())
	if err != nil {
		return err
	}
	c.workspace = ws
	return nil
}

// Engine is the configured engine (finalized configs only).
func (c *EngineConfig) Engine() *Engine { return c.engine }

// Blob is the serialized EngineConfig the plugin receives.
func (c *EngineConfig) Blob() []byte { return c.blob }
