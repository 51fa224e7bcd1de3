package descriptors

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/engines"
	"github.com/hipdnn-go/backend/internal/status"
)

// planJSON is HIPDNN_ATTR_EXECUTION_PLAN_JSON_REPRESENTATION: what a plan runs, for logs,
// tools and the cuDNN-frontend shim (RFC 0012: get_plan_name needs a stable name).
type planJSON struct {
	// Name is stable for the same engine and knob choices: the engine name, then the knob
	// settings sorted by knob id ("HIPDNNGO_CUDNN:engine_index=3,split_k=1").
	Name          string     `json:"name"`
	EngineName    string     `json:"engine_name"`
	EngineID      string     `json:"engine_id"` // "0x" and 16 hex digits, as hipDNN prints ids
	Knobs         []planKnob `json:"knobs"`
	WorkspaceSize int64      `json:"workspace_size"`
	// NumericalNotes and BehaviorNotes are nil (JSON null) for a plan made from a serialized
	// plan, whose configuration is the plugin's opaque payload.
	NumericalNotes []string `json:"numerical_notes"`
	BehaviorNotes  []string `json:"behavior_notes"`
	Deserialized   bool     `json:"deserialized"`
}

type planKnob struct {
	ID    string `json:"id"`
	Value any    `json:"value"`
}

func (p *ExecutionPlan) jsonRepresentation() (Value, error) {
	j := planJSON{EngineID: engines.FormatEngineID(p.engineID), WorkspaceSize: p.workspace, Knobs: []planKnob{}}
	if p.config == nil {
		j.Deserialized = true
		j.EngineName = j.EngineID
		if en := p.handle.Engines().Manager().EngineByID(p.engineID); en != nil {
			j.EngineName = en.Name
		}
	} else {
		e := p.config.Engine()
		j.EngineName = e.Name()
		settings, err := p.config.settings()
		if err != nil {
			return Value{}, status.Wrap(err, "ExecutionPlanDescriptor: the engine configuration's knobs")
		}
		for _, s := range settings {
			j.Knobs = append(j.Knobs, planKnob{ID: s.ID, Value: knobJSON(s.Value)})
		}
		sort.Slice(j.Knobs, func(a, b int) bool { return j.Knobs[a].ID < j.Knobs[b].ID })
		notes, err := e.NumericalNotes(p.config.Blob())
		if err != nil {
			return Value{}, err
		}
		j.NumericalNotes = make([]string, 0, len(notes))
		for _, n := range notes {
			j.NumericalNotes = append(j.NumericalNotes, n.String())
		}
		d, err := e.Details()
		if err != nil {
			return Value{}, err
		}
		j.BehaviorNotes = make([]string, 0, len(d.BehaviorNotes))
		for _, n := range d.BehaviorNotes {
			j.BehaviorNotes = append(j.BehaviorNotes, api.BehaviorNote(n).String())
		}
	}
	var name strings.Builder
	name.WriteString(j.EngineName)
	for i, k := range j.Knobs {
		if i == 0 {
			name.WriteByte(':')
		} else {
			name.WriteByte(',')
		}
		b, _ := json.Marshal(k.Value)
		name.WriteString(k.ID + "=" + strings.Trim(string(b), `"`))
	}
	j.Name = name.String()
	b, err := json.Marshal(j)
	if err != nil {
		return Value{}, status.Internal("ExecutionPlanDescriptor: JSON representation: %v", err)
	}
	return strValue(string(b)), nil
}

func knobJSON(v engines.KnobValue) any {
	switch v.Kind {
	case engines.KnobInt:
		return v.I
	case engines.KnobFloat:
		return v.F
	case engines.KnobString:
		return v.S
	}
	return nil
}
