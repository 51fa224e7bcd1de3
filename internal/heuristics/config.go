package heuristics

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/hipdnn-go/backend/internal/autotune"
	"github.com/hipdnn-go/backend/internal/logging"
	"github.com/hipdnn-go/backend/internal/wire"
)

// config.go: SelectionHeuristic::Config, user overrides of the engine choice. An autotuned
// ranking stored for this exact graph and device (internal/autotune, written by
// hipdnnBackendWriteEngineRankingResults_ext) decides alone when at least two of its engines
// are still candidates. Otherwise three sources, in this order of strength:
//
//  1. the rule file named by HIPDNN_HEUR_CONFIG_PATH (re-read on every finalize): the first
//     rule that matches puts its engine first;
//  2. HIPDNN_PREFERRED_ENGINE, an engine name or id (decimal or 0x hex): a blanket,
//     process-wide preference, weaker than a rule that matched this graph's op;
//  3. the graph's preferred engine (Graph.preferred_engine_id, attribute 607). The
//     environment beats code, as HIPDNN_HEUR_POLICY_ORDER beats the descriptor attribute.
//
// Each applies only when its engine is a candidate; the stronger one is applied last, so it
// ends up first. An engine the env var names that no loaded plugin has logs one WARN per
// process and per value, and changes nothing.
//
// All other candidates keep their order. The policy declines when neither source applies.
// The rule file format is described in README.md.

// maxRuleFileSize bounds what the Config policy reads.
const maxRuleFileSize = 16 << 20

// configOp is one op of the rule vocabulary.
type configOp struct {
	name   string // vocabulary name, e.g. "conv_fprop"
	schema *wire.OpSchema
	// positional lists the fields positional tensor patterns match: the schema's input
	// tensor fields (single uids, required or optional) in declaration order.
	positional []int
}

// configVocabulary maps the rule file's op names to graph node types.
var configVocabulary = func() map[string]*configOp {
	m := map[string]*configOp{}
	for _, e := range []struct{ name, schema string }{
		{"conv_fprop", "ConvolutionFwdAttributes"},
		{"conv_dgrad", "ConvolutionBwdAttributes"},
		{"conv_wgrad", "ConvolutionWrwAttributes"},
		{"matmul", "MatmulAttributes"},
		{"sdpa_fwd", "SdpaAttributes"},
		{"sdpa_bwd", "SdpaBackwardAttributes"},
		{"batchnorm_training", "BatchnormAttributes"},
		{"batchnorm_inference", "BatchnormInferenceAttributes"},
		{"batchnorm_inference_variance_ext", "BatchnormInferenceAttributesVarianceExt"},
		{"batchnorm_backward", "BatchnormBackwardAttributes"},
		{"layernorm", "LayernormAttributes"},
		{"rmsnorm", "RMSNormAttributes"},
		{"rmsnorm_backward", "RMSNormBackwardAttributes"},
		{"reduction", "ReductionAttributes"},
		{"resample_fwd", "ResampleFwdAttributes"},
		{"pointwise", "PointwiseAttributes"},
	} {
		op := &configOp{name: e.name, schema: wire.OpByName(e.schema)}
		if op.schema == nil {
			panic("heuristics: wire has no op " + e.schema)
		}
		for i, f := range op.schema.Fields {
			if f.Role == wire.RoleInput && (f.Kind == wire.KindUID || f.Kind == wire.KindOptUID) {
				op.positional = append(op.positional, i)
			}
		}
		m[e.name] = op
	}
	return m
}()

// configOpBySchema finds the vocabulary entry of a node type.
var configOpBySchema = func() map[*wire.OpSchema]*configOp {
	m := map[*wire.OpSchema]*configOp{}
	for _, op := range configVocabulary {
		m[op.schema] = op
	}
	return m
}()

// criterionFields maps a criteria key to the enum field it compares, per op schema.
var criterionFields = map[string]map[string]string{
	"norm_fwd_phase": {"RMSNormAttributes": "forward_phase", "LayernormAttributes": "forward_phase"},
	"reduction_mode": {"ReductionAttributes": "mode"},
	"resample_mode":  {"ResampleFwdAttributes": "resample_mode"},
	"padding_mode":   {"ResampleFwdAttributes": "padding_mode"},
	"pointwise_mode": {"PointwiseAttributes": "operation"},
}

// rule is one parsed engine override.
type rule struct {
	index    int
	op       *configOp
	engine   string // engine_name as written
	criteria []criterion
	tensors  []tensorPattern
}

type criterion struct {
	key   string
	field int   // index in op.schema.Fields
	value int64 // enum value
}

type tensorPattern struct {
	field  int // index in op.schema.Fields
	dim    []int64
	stride []int64 // nil: any strides
}

// ruleFile is the JSON document.
type ruleFile struct {
	Version   *int64            `json:"version"`
	Overrides []json.RawMessage `json:"engine_overrides"`
}

type rawRule struct {
	Op         string                     `json:"op"`
	EngineName json.RawMessage            `json:"engine_name"`
	Criteria   map[string]json.RawMessage `json:"criteria"`
	Tensors    []rawTensor                `json:"tensors"`
}

type rawTensor struct {
	TensorID *string  `json:"tensor_id"`
	Dim      *[]int64 `json:"dim"`
	Stride   *[]int64 `json:"stride"`
}

// loadRules reads and parses the rule file. An unreadable or malformed file is an error (the
// policy declines); a rule that cannot be understood is skipped with a warning.
func loadRules(path string) ([]rule, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxRuleFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxRuleFileSize {
		return nil, fmt.Errorf("larger than %d bytes", maxRuleFileSize)
	}
	return parseRules(data)
}

func parseRules(data []byte) ([]rule, error) {
	var doc ruleFile
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("invalid JSON: %v", err)
	}
	if bytes.HasPrefix(bytes.TrimSpace(data), []byte("null")) {
		return nil, fmt.Errorf("the document is not an object")
	}
	version := int64(1)
	if doc.Version != nil {
		version = *doc.Version
	}
	if version != 1 && version != 2 {
		return nil, fmt.Errorf("\"version\" %d is not 1 or 2", version)
	}
	var rules []rule
	for i, raw := range doc.Overrides {
		r, err := parseRule(raw, version)
		if err != nil {
			logging.Warnf("%s: engine_overrides[%d] skipped: %v", PolicyConfig, i, err)
			continue
		}
		r.index = i
		rules = append(rules, r)
	}
	return rules, nil
}

func parseRule(raw json.RawMessage, version int64) (rule, error) {
	var rr rawRule
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&rr); err != nil {
		return rule{}, err
	}
	op := configVocabulary[rr.Op]
	if op == nil {
		return rule{}, fmt.Errorf("op %q is not in the vocabulary", rr.Op)
	}
	r := rule{op: op}
	if err := json.Unmarshal(rr.EngineName, &r.engine); err != nil {
		var n json.Number
		if err2 := json.Unmarshal(rr.EngineName, &n); err2 != nil || len(rr.EngineName) == 0 {
			return rule{}, fmt.Errorf("\"engine_name\" must be an engine name or id")
		}
		r.engine = n.String()
	}
	if r.engine = strings.TrimSpace(r.engine); r.engine == "" {
		return rule{}, fmt.Errorf("\"engine_name\" is empty")
	}
	for key, v := range rr.Criteria {
		c, err := parseCriterion(op, key, v)
		if err != nil {
			return rule{}, err
		}
		r.criteria = append(r.criteria, c)
	}
	for i, t := range rr.Tensors {
		if t.Dim == nil {
			return rule{}, fmt.Errorf("tensors[%d] has no \"dim\"", i)
		}
		p := tensorPattern{dim: *t.Dim}
		if t.Stride != nil {
			p.stride = append([]int64{}, *t.Stride...)
		}
		if version >= 2 && t.TensorID != nil {
			idx := tensorField(op.schema, *t.TensorID)
			if idx < 0 {
				return rule{}, fmt.Errorf("tensors[%d]: %q is not a tensor of %s", i, *t.TensorID, op.name)
			}
			p.field = idx
		} else {
			if i >= len(op.positional) {
				return rule{}, fmt.Errorf("tensors[%d]: %s has only %d positional tensors", i, op.name, len(op.positional))
			}
			p.field = op.positional[i]
		}
		r.tensors = append(r.tensors, p)
	}
	return r, nil
}

// tensorField finds a tensor field by schema name ("x_tensor_uid"); the "_tensor_uid"
// suffix may be left out.
func tensorField(op *wire.OpSchema, name string) int {
	for _, n := range []string{name, name + "_tensor_uid"} {
		if i, f := op.Field(n); f != nil && (f.Kind == wire.KindUID || f.Kind == wire.KindOptUID) {
			return i
		}
	}
	return -1
}

// parseCriterion reads one criteria entry: an integer, or the name of a value of the
// field's enum (case-insensitive, as graph JSON spells it).
func parseCriterion(op *configOp, key string, raw json.RawMessage) (criterion, error) {
	fields, ok := criterionFields[key]
	if !ok {
		return criterion{}, fmt.Errorf("criteria key %q is unknown", key)
	}
	fname, ok := fields[op.schema.Name]
	if !ok {
		return criterion{}, fmt.Errorf("criteria key %q does not apply to %s", key, op.name)
	}
	idx, f := op.schema.Field(fname)
	c := criterion{key: key, field: idx}
	var n int64
	if err := json.Unmarshal(raw, &n); err == nil {
		c.value = n
		return c, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return criterion{}, fmt.Errorf("criteria %q must be an integer or an enum name", key)
	}
	if ev := f.Enum.ByName(s); ev != nil {
		c.value = ev.Value
		return c, nil
	}
	return criterion{}, fmt.Errorf("criteria %q: %q is not a %s value", key, s, f.Enum.Name)
}

// matchRules walks the nodes in order and, for each, the rules in file order; the first
// rule matching a node wins.
func matchRules(g *wire.Graph, rules []rule) (*rule, int) {
	tensors := make(map[int64]*wire.Tensor, len(g.Tensors))
	for i := range g.Tensors {
		tensors[g.Tensors[i].UID] = &g.Tensors[i]
	}
	for ni := range g.Nodes {
		n := &g.Nodes[ni]
		op := configOpBySchema[n.Op]
		if op == nil || len(n.Values) != len(n.Op.Fields) {
			continue
		}
		for ri := range rules {
			if rules[ri].op == op && rules[ri].matches(n, tensors) {
				return &rules[ri], ni
			}
		}
	}
	return nil, -1
}

func (r *rule) matches(n *wire.Node, tensors map[int64]*wire.Tensor) bool {
	for _, c := range r.criteria {
		if v := n.Values[c.field]; !v.Set || v.I != c.value {
			return false
		}
	}
	for _, p := range r.tensors {
		v := n.Values[p.field]
		if !v.Set {
			return false
		}
		t := tensors[v.I]
		if t == nil || !matchPattern(p.dim, t.Dims) {
			return false
		}
		if p.stride != nil && !matchPattern(p.stride, t.Strides) {
			return false
		}
	}
	return true
}

// matchPattern compares a pattern with a shape: same rank, each element equal or -1.
func matchPattern(pattern, got []int64) bool {
	if len(pattern) != len(got) {
		return false
	}
	for i, p := range pattern {
		if p != -1 && p != got[i] {
			return false
		}
	}
	return true
}

// moveToFront moves id to position 0, keeping the order of the rest.
func moveToFront(order []int64, id int64) {
	for i, v := range order {
		if v == id {
			copy(order[1:i+1], order[:i])
			order[0] = id
			return
		}
	}
}

// rankConfig is the built-in's finalize.
func rankConfig(c *rankCall) ([]int64, map[int64][]byte, bool, string) {
	if len(c.candidates) == 0 {
		return nil, nil, false, "no candidate engines"
	}
	g := c.host.req.Model
	if g == nil {
		var err error
		if g, err = wire.DecodeGraph(c.graph); err != nil {
			logging.Warnf("%s: graph rejected: %v", PolicyConfig, err)
			return nil, nil, false, "graph rejected: " + err.Error()
		}
	}
	if order, ok := cachedRanking(c, g); ok {
		return order, nil, true, ""
	}
	order := append([]int64(nil), c.candidates...)
	applied := false
	var reasons []string
	if g.PreferredEngineID != nil {
		pref := *g.PreferredEngineID
		if _, ok := c.host.candidates[pref]; ok {
			moveToFront(order, pref)
			applied = true
			logging.Infof("%s: preferred engine %s first", PolicyConfig, c.host.engineLabel(pref))
		} else {
			reasons = append(reasons, "preferred engine "+c.host.engineLabel(pref)+" is not a candidate")
		}
	}
	if why := applyPreferredEnv(c, order); why == "" {
		applied = true
	} else if why != EnvPreferredEngine+" is not set" {
		reasons = append(reasons, why)
	}
	if why := applyRuleFile(c, g, order); why == "" {
		applied = true
	} else {
		reasons = append(reasons, why)
	}
	if !applied {
		return nil, nil, false, strings.Join(reasons, "; ")
	}
	return order, nil, true, ""
}

// warnedPreferred holds the HIPDNN_PREFERRED_ENGINE values already warned about.
var warnedPreferred sync.Map

// applyPreferredEnv moves the engine HIPDNN_PREFERRED_ENGINE names to the front of order; it
// returns why it did not.
func applyPreferredEnv(c *rankCall, order []int64) string {
	v := strings.TrimSpace(getenv(EnvPreferredEngine))
	if v == "" {
		return EnvPreferredEngine + " is not set"
	}
	id := c.host.req.engineID(v)
	if _, ok := c.host.candidates[id]; ok {
		moveToFront(order, id)
		logging.Infof("%s: %s=%s: engine %s first", PolicyConfig, EnvPreferredEngine, v, c.host.engineLabel(id))
		return ""
	}
	if c.host.req.EngineName != nil && c.host.req.EngineName(id) == "" {
		if _, seen := warnedPreferred.LoadOrStore(v, true); !seen {
			logging.Warnf("%s: %s=%q names no loaded engine (id %s); ignored", PolicyConfig, EnvPreferredEngine, v, FormatID(id))
		}
		return EnvPreferredEngine + " names no loaded engine"
	}
	return EnvPreferredEngine + " engine " + c.host.engineLabel(id) + " is not a candidate"
}

// applyRuleFile moves the engine of the first matching rule to the front of order; it
// returns why it did not.
func applyRuleFile(c *rankCall, g *wire.Graph, order []int64) string {
	path := strings.TrimSpace(getenv(EnvConfigPath))
	if path == "" {
		return EnvConfigPath + " is not set"
	}
	rules, err := loadRules(path)
	if err != nil {
		logging.Warnf("%s: rule file %s not used: %v", PolicyConfig, path, err)
		return "rule file " + path + " not used: " + err.Error()
	}
	r, node := matchRules(g, rules)
	if r == nil {
		return "no rule of " + path + " matches the graph"
	}
	id := c.host.req.engineID(r.engine)
	if _, ok := c.host.candidates[id]; !ok {
		logging.Infof("%s: engine_overrides[%d] (%s) matches node %d but engine %q is not a candidate",
			PolicyConfig, r.index, r.op.name, node, r.engine)
		return fmt.Sprintf("engine_overrides[%d] names engine %q, which is not a candidate", r.index, r.engine)
	}
	moveToFront(order, id)
	logging.Infof("%s: engine_overrides[%d] (%s) matches node %d (%q): engine %s first",
		PolicyConfig, r.index, r.op.name, node, g.Nodes[node].Name, c.host.engineLabel(id))
	return ""
}

// cachedRanking puts the engines of an exact-match autotune entry first, in their stored
// order, followed by the other candidates in host order. It needs two stored engines that are
// still candidates: a single survivor says nothing about ranking.
func cachedRanking(c *rankCall, g *wire.Graph) ([]int64, bool) {
	if !autotune.Available() {
		return nil, false
	}
	key, err := autotune.Key(g, c.host.req.DeviceProps)
	if err != nil {
		return nil, false
	}
	stored, ok := autotune.Lookup(key)
	if !ok {
		return nil, false
	}
	var order []int64
	used := map[int64]bool{}
	for _, id := range stored {
		if _, cand := c.host.candidates[id]; cand && !used[id] {
			order = append(order, id)
			used[id] = true
		}
	}
	if len(order) < 2 {
		return nil, false
	}
	for _, id := range c.candidates {
		if !used[id] {
			order = append(order, id)
		}
	}
	logging.Infof("%s: autotuned ranking %016x used", PolicyConfig, key)
	return order, true
}
