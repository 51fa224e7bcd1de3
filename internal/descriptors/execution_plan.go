package descriptors

import (
	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/engines"
	"github.com/hipdnn-go/backend/internal/handle"
	"github.com/hipdnn-go/backend/internal/status"
)

// ExecutionPlan is HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR: an engine config turned into the
// plugin's execution context. Finalize does the expensive work once; Execute only hands the
// prepared context, the variant pack's prepared buffers and the workspace to the plugin.
type ExecutionPlan struct {
	Header
	handle     *handle.Handle
	ctx        *engines.Context
	config     *EngineConfig // nil for a plan made from a serialized plan
	engineID   int64
	workspace  int64
	uids       []int64
	alignments []int64 // parallel to uids
	override   bool
}

var planKind = register(&KindSpec{
	Kind:             api.HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR,
	Class:            "ExecutionPlanDescriptor",
	RejectRefinalize: true,
	New:              func(k *KindSpec) Object { p := &ExecutionPlan{}; k.init(&p.Header); return p },
	Release:          func(o Object) { o.(*ExecutionPlan).release() },
	Attrs: []*Attr{
		{Name: api.HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, Type: api.HIPDNN_TYPE_BACKEND_DESCRIPTOR, Min: 1, Max: 1,
			Settable: true, Gettable: true, Required: true, ExactOne: true,
			DescKinds: []api.DescriptorType{api.HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR},
			Compute: func(o Object) (Value, error) {
				p := o.(*ExecutionPlan)
				if p.config == nil {
					return Value{}, nil // deserialized plans carry no config descriptor
				}
				return Value{Set: true, Type: api.HIPDNN_TYPE_BACKEND_DESCRIPTOR, Objs: []Object{p.config}}, nil
			}},
		// Deprecated in hipDNN: accepted and checked, but the plan uses its graph's handle.
		{Name: api.HIPDNN_ATTR_EXECUTION_PLAN_HANDLE, Type: api.HIPDNN_TYPE_HANDLE, Min: 1, Max: 1, Settable: true},
		{Name: api.HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, Type: api.HIPDNN_TYPE_INT64, Max: 1, Gettable: true, ExactOne: true,
			Compute: func(o Object) (Value, error) { return int64Value(o.(*ExecutionPlan).workspace), nil }},
		{Name: api.HIPDNN_ATTR_EXECUTION_PLAN_TENSOR_UIDS_EXT, Type: api.HIPDNN_TYPE_INT64, Max: -1, Gettable: true, FullGet: true,
			Compute: func(o Object) (Value, error) {
				return Value{Set: true, Type: api.HIPDNN_TYPE_INT64, Ints: o.(*ExecutionPlan).uids}, nil
			}},
		{Name: api.HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_GLOBAL_INDEX_EXT, Type: api.HIPDNN_TYPE_INT64, Max: 1, Gettable: true,
			Compute: func(o Object) (Value, error) { return int64Value(o.(*ExecutionPlan).engineID), nil }},
		{Name: api.HIPDNN_ATTR_EXECUTION_PLAN_IS_OVERRIDE_SHAPE_ENABLED_EXT, Type: api.HIPDNN_TYPE_BOOLEAN, Max: 1, Gettable: true,
			Compute: func(o Object) (Value, error) { return boolValue(o.(*ExecutionPlan).override), nil }},
		{Name: api.HIPDNN_ATTR_EXECUTION_PLAN_JSON_REPRESENTATION, Type: api.HIPDNN_TYPE_CHAR, Max: -1, Gettable: true,
			Compute: func(o Object) (Value, error) { return o.(*ExecutionPlan).jsonRepresentation() }},
	},
	Finalize: finalizePlan,
})

func finalizePlan(o Object) error {
	p := o.(*ExecutionPlan)
	p.config = p.value(api.HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG).Objs[0].(*EngineConfig)
	eng := p.config.Engine()
	g := eng.Graph()
	s, err := g.session()
	if err != nil {
		return err
	}
	p.handle = g.Handle()
	p.engineID = eng.ID()
	p.override = g.model.IsOverrideShapeEnabled
	tensors := planTensors(g.model)
	p.uids = p.uids[:0]
	p.alignments = p.alignments[:0]
	for _, t := range tensors {
		p.uids = append(p.uids, t.UID)
		p.alignments = append(p.alignments, t.Alignment)
	}
	ctx, err := s.CreateContext(p.engineID, p.config.Blob(), g.Bytes(), tensors, p.override)
	if err != nil {
		return err
	}
	p.ctx = ctx
	p.workspace = ctx.WorkspaceSize()
	return nil
}

func (p *ExecutionPlan) release() {
	if p.ctx != nil {
		p.ctx.Destroy()
	}
}

// Execute is hipdnnBackendExecute: plan and pack must be finalized descriptors of the right
// kinds. A handle other than the plan's runs the plan through its own plugin handle (and
// stream), as in hipDNN; it must share the plan's plugin set.
func Execute(h *handle.Handle, plan, pack Object) error {
	p, ok := plan.(*ExecutionPlan)
	if !ok {
		return status.BadParam("hipdnnBackendExecute: executionPlan is a %v, not an execution plan", KindOf(plan))
	}
	v, ok := pack.(*VariantPack)
	if !ok {
		return status.BadParam("hipdnnBackendExecute: variantPack is a %v, not a variant pack", KindOf(pack))
	}
	if !p.finalized {
		return status.BadParam("hipdnnBackendExecute: the execution plan is not finalized")
	}
	if !v.finalized {
		return status.BadParam("hipdnnBackendExecute: the variant pack is not finalized")
	}
	if h != p.handle {
		if err := p.ctx.ExecuteIn(h.Engines(), v.workspace, v.buffers, v.overrides); err != nil {
			return status.Wrap(err, "hipdnnBackendExecute with a handle other than the plan's")
		}
		return nil
	}
	return p.ctx.Execute(v.workspace, v.buffers, v.overrides)
}

// ExecuteFailure turns a plugin failure the fast path met into the Go path's error.
func ExecuteFailure(plan Object, pluginStatus int, text string) error {
	if p, ok := plan.(*ExecutionPlan); ok && p.ctx != nil {
		return p.ctx.ExecuteFailure(pluginStatus, text)
	}
	return status.Plugin("Failed to execute the execution plan. Status: %s(%d), Error: %s",
		engines.PluginStatusName(pluginStatus), pluginStatus, text)
}
