package wire

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
)

// Limits of GraphFromJSON. A real graph file is a few kilobytes and nests
// five levels deep (graph → nodes → node → inputs → list).
const (
	MaxJSONSize  = 64 << 20
	MaxJSONDepth = 32
)

// enumLabels name the enums in messages ("unknown pointwise operation").
var enumLabels = map[*EnumDomain]string{
	ConvMode: "convolution mode", PointwiseMode: "pointwise operation", ReductionMode: "reduction mode",
	ResampleMode: "resample mode", PaddingMode: "padding mode", NormFwdPhase: "forward phase",
	DiagonalAlignment: "diagonal alignment", AttentionImplementation: "attention implementation",
	MoeGroupedMatmulMode: "MoE grouped matmul mode",
}

// GraphFromJSON parses a graph in AMD's JSON dialect, tolerating every
// variant FORMAT.md lists: nested (inputs/outputs + attributes|parameters),
// flat (fields inside attributes or at node level), absent and null alike,
// keys in any order, extra keys ignored (_comment, hipdnn_frontend_version,
// json_version, anything unknown), "float16" for half, "UNSET" or lower-case
// data type names, enum names in any case, integer forward_phase (any enum
// may be an integer of its domain), negative sdpa bounds kept as given. The
// legacy graph keys io_type / compute_type / intermediate_type (Test2.json)
// are accepted when the *_data_type key is absent.
//
// Required: tensor uid, dims, strides, data_type; node type; every
// non-optional tensor uid of the op. Other absent non-optional scalars take
// their schema default. Integers must be exact (1.5 and 1e3 are refused
// where an integer is expected) and in range of their wire type; float32
// fields are rounded to float32. Input larger than MaxJSONSize or nested
// deeper than MaxJSONDepth is refused before decoding. Malformed input
// gives an error wrapping ErrMalformed; an unknown node type, enum or data
// type name gives one wrapping ErrUnsupported.
func GraphFromJSON(data []byte) (g *Graph, err error) {
	defer func() {
		if p := recover(); p != nil {
			g, err = nil, malformedf("graph JSON: reader fault: %v", p)
		}
	}()
	if len(data) > MaxJSONSize {
		return nil, malformedf("graph JSON of %d bytes exceeds the %d-byte limit", len(data), MaxJSONSize)
	}
	if err := checkJSONDepth(data, MaxJSONDepth); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, jsonSyntaxError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, malformedf("graph JSON: unexpected data after the top-level object")
	}
	root, ok := doc.(map[string]any)
	if !ok {
		return nil, malformedf("graph JSON: top level must be an object")
	}
	return graphFromJSON(root)
}

func jsonSyntaxError(err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return malformedf("graph JSON: syntax error at byte %d: %v", se.Offset, se)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return malformedf("graph JSON: unexpected end of input")
	}
	return malformedf("graph JSON: %v", err)
}

// checkJSONDepth refuses documents nested deeper than max without parsing
// them; strings are skipped so brackets inside them do not count.
func checkJSONDepth(data []byte, max int) error {
	depth := 0
	inString := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
			if depth > max {
				return malformedf("graph JSON: nesting deeper than %d levels at byte %d", max, i)
			}
		case '}', ']':
			depth--
		}
	}
	return nil
}

// lookup returns the value of key in obj; null and absent are both nil.
func lookup(obj map[string]any, key string) any {
	if obj == nil {
		return nil
	}
	return obj[key]
}

func jsonTypeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return "an unknown value"
}

// asInt reads an exact integer: JSON integer syntax, in int64 range.
func asInt(v any, key string) (int64, error) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, malformedf("%q must be an integer, not %s", key, jsonTypeName(v))
	}
	i, err := strconv.ParseInt(string(n), 10, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, malformedf("%q = %s is outside the int64 range", key, n)
		}
		return 0, malformedf("%q must be an integer, not %s", key, n)
	}
	return i, nil
}

func asIntRange(v any, key string, lo, hi int64, what string) (int64, error) {
	i, err := asInt(v, key)
	if err != nil {
		return 0, err
	}
	if i < lo || i > hi {
		return 0, malformedf("%q = %d does not fit in %s", key, i, what)
	}
	return i, nil
}

func asFloat(v any, key string) (float64, error) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, malformedf("%q must be a number, not %s", key, jsonTypeName(v))
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil {
		return 0, malformedf("%q = %s is outside the float64 range", key, n)
	}
	return f, nil
}

// asFloat32 reads a number and rounds it to float32, refusing overflow.
func asFloat32(v any, key string) (float64, error) {
	f, err := asFloat(v, key)
	if err != nil {
		return 0, err
	}
	if math.Abs(f) > math.MaxFloat32 {
		return 0, malformedf("%q = %g does not fit in float32", key, f)
	}
	return float64(float32(f)), nil
}

func asBool(v any, key string) (bool, error) {
	b, ok := v.(bool)
	if !ok {
		return false, malformedf("%q must be a boolean, not %s", key, jsonTypeName(v))
	}
	return b, nil
}

func asString(v any, key string) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", malformedf("%q must be a string, not %s", key, jsonTypeName(v))
	}
	return s, nil
}

func asObject(v any, key string) (map[string]any, error) {
	if v == nil {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, malformedf("%q must be an object, not %s", key, jsonTypeName(v))
	}
	return m, nil
}

// asIntList reads an array of exact integers in [lo, hi]; empty gives nil.
func asIntList(v any, key string, lo, hi int64) ([]int64, error) {
	a, ok := v.([]any)
	if !ok {
		return nil, malformedf("%q must be an array of integers, not %s", key, jsonTypeName(v))
	}
	if len(a) == 0 {
		return nil, nil
	}
	out := make([]int64, len(a))
	for i, e := range a {
		n, ok := e.(json.Number)
		if !ok {
			return nil, malformedf("%q must be an array of integers", key)
		}
		x, err := strconv.ParseInt(string(n), 10, 64)
		if err != nil || x < lo || x > hi {
			return nil, malformedf("%q must be an array of integers (element %d is %s)", key, i, n)
		}
		out[i] = x
	}
	return out, nil
}

func asDataType(v any, key string) (DataType, error) {
	s, err := asString(v, key)
	if err != nil {
		return 0, err
	}
	d, err := parseDataType(s)
	if err != nil {
		return 0, prefixed(err, "%q", key)
	}
	return d, nil
}

func graphFromJSON(root map[string]any) (*Graph, error) {
	g := &Graph{}
	var err error
	if v := lookup(root, "name"); v != nil {
		if g.Name, err = asString(v, "name"); err != nil {
			return nil, prefixed(err, "graph")
		}
	}
	for _, c := range []struct {
		key, legacy string
		dst         *DataType
	}{
		{"compute_data_type", "compute_type", &g.ComputeDataType},
		{"intermediate_data_type", "intermediate_type", &g.IntermediateDataType},
		{"io_data_type", "io_type", &g.IODataType},
	} {
		key := c.key
		v := lookup(root, key)
		if v == nil {
			key = c.legacy
			v = lookup(root, key)
		}
		if v == nil {
			continue
		}
		if *c.dst, err = asDataType(v, key); err != nil {
			return nil, prefixed(err, "graph")
		}
	}
	if v := lookup(root, "is_override_shape_enabled"); v != nil {
		if g.IsOverrideShapeEnabled, err = asBool(v, "is_override_shape_enabled"); err != nil {
			return nil, prefixed(err, "graph")
		}
	}
	if v := lookup(root, "preferred_engine_id"); v != nil {
		id, err := asInt(v, "preferred_engine_id")
		if err != nil {
			return nil, prefixed(err, "graph")
		}
		g.PreferredEngineID = &id
	}
	if v := lookup(root, "min_required_engine_api_version"); v != nil {
		m, err := asObject(v, "min_required_engine_api_version")
		if err != nil {
			return nil, prefixed(err, "graph")
		}
		var ver [3]uint32
		for i, k := range []string{"major", "minor", "patch"} {
			x, err := asIntRange(lookup(m, k), k, 0, math.MaxUint32, "uint32")
			if err != nil {
				return nil, prefixed(err, "graph min_required_engine_api_version")
			}
			ver[i] = uint32(x)
		}
		g.MinRequiredEngineAPIVersion = &EngineAPIVersion{ver[0], ver[1], ver[2]}
	}
	if v := lookup(root, "id"); v != nil {
		s, err := asString(v, "id")
		if err != nil {
			return nil, prefixed(err, "graph")
		}
		id, err := parseUUID(s)
		if err != nil {
			return nil, prefixed(err, "graph \"id\"")
		}
		g.ID = id
	}

	if v := lookup(root, "tensors"); v != nil {
		a, ok := v.([]any)
		if !ok {
			return nil, malformedf("graph: \"tensors\" must be an array, not %s", jsonTypeName(v))
		}
		if len(a) > 0 {
			g.Tensors = make([]Tensor, len(a))
		}
		for i, tv := range a {
			if err := tensorFromJSON(tv, i, &g.Tensors[i]); err != nil {
				return nil, err
			}
		}
	}
	if v := lookup(root, "nodes"); v != nil {
		a, ok := v.([]any)
		if !ok {
			return nil, malformedf("graph: \"nodes\" must be an array, not %s", jsonTypeName(v))
		}
		if len(a) > 0 {
			g.Nodes = make([]Node, len(a))
		}
		for i, nv := range a {
			if err := nodeFromJSON(nv, i, &g.Nodes[i]); err != nil {
				return nil, err
			}
		}
	}
	return g, nil
}

func parseUUID(s string) (*[16]byte, error) {
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return nil, malformedf("%q is not a canonical UUID (8-4-4-4-12 hex digits)", s)
	}
	var id [16]byte
	h := s[0:8] + s[9:13] + s[14:18] + s[19:23] + s[24:36]
	if _, err := hex.Decode(id[:], []byte(h)); err != nil {
		return nil, malformedf("%q is not a canonical UUID (8-4-4-4-12 hex digits)", s)
	}
	return &id, nil
}

func tensorFromJSON(v any, index int, t *Tensor) error {
	obj, ok := v.(map[string]any)
	if !ok {
		return malformedf("tensor %d: must be an object, not %s", index, jsonTypeName(v))
	}
	uv := lookup(obj, "uid")
	if uv == nil {
		return malformedf("tensor %d: missing \"uid\"", index)
	}
	uid, err := asInt(uv, "uid")
	if err != nil {
		return prefixed(err, "tensor %d", index)
	}
	t.UID = uid
	if err := tensorFieldsFromJSON(obj, t); err != nil {
		return prefixed(err, "tensor uid %d", uid)
	}
	return nil
}

func tensorFieldsFromJSON(obj map[string]any, t *Tensor) error {
	var err error
	if v := lookup(obj, "name"); v != nil {
		if t.Name, err = asString(v, "name"); err != nil {
			return err
		}
	}
	for _, c := range []struct {
		key string
		dst *[]int64
	}{{"dims", &t.Dims}, {"strides", &t.Strides}} {
		v := lookup(obj, c.key)
		if v == nil {
			return malformedf("missing %q", c.key)
		}
		if *c.dst, err = asIntList(v, c.key, math.MinInt64, math.MaxInt64); err != nil {
			return err
		}
	}
	v := lookup(obj, "data_type")
	if v == nil {
		return malformedf("missing \"data_type\"")
	}
	if t.DataType, err = asDataType(v, "data_type"); err != nil {
		return err
	}
	if v := lookup(obj, "virtual"); v != nil {
		if t.Virtual, err = asBool(v, "virtual"); err != nil {
			return err
		}
	}
	if t.Value, err = tensorValueFromJSON(obj); err != nil {
		return err
	}
	if v := lookup(obj, "is_runtime_pass_by_value"); v != nil {
		if t.RuntimePassByValue, err = asBool(v, "is_runtime_pass_by_value"); err != nil {
			return err
		}
	}
	t.Alignment = DefaultAlignment
	if v := lookup(obj, "alignment"); v != nil {
		if t.Alignment, err = asInt(v, "alignment"); err != nil {
			return err
		}
	}
	if v := lookup(obj, "ragged_offset_tensor_uid"); v != nil {
		u, err := asInt(v, "ragged_offset_tensor_uid")
		if err != nil {
			return err
		}
		t.RaggedOffsetUID = &u
	}
	t.RaggedOffsetMultiplier = DefaultRaggedOffsetMultiplier
	if v := lookup(obj, "ragged_offset_multiplier"); v != nil {
		if t.RaggedOffsetMultiplier, err = asInt(v, "ragged_offset_multiplier"); err != nil {
			return err
		}
	}
	return nil
}

func tensorValueFromJSON(obj map[string]any) (*TensorValue, error) {
	tv, v := lookup(obj, "value_type"), lookup(obj, "value")
	if tv == nil {
		if v != nil {
			return nil, malformedf("\"value\" given without \"value_type\"")
		}
		return nil, nil
	}
	name, err := asString(tv, "value_type")
	if err != nil {
		return nil, err
	}
	kind := ValueKind(255)
	for i, n := range valueKindNames {
		if strings.EqualFold(n, name) {
			kind = ValueKind(i)
		}
	}
	if !kind.Known() {
		return nil, unsupportedf("unknown value_type %q", name)
	}
	if kind == ValueNone {
		return nil, nil
	}
	if v == nil {
		return nil, malformedf("\"value_type\" is %q but \"value\" is missing", name)
	}
	out := &TensorValue{Kind: kind}
	switch kind {
	case ValueFloat32, ValueFloat16, ValueBFloat16:
		out.F, err = asFloat32(v, "value")
	case ValueFloat64:
		out.F, err = asFloat(v, "value")
	case ValueFloat8:
		out.I, err = asIntRange(v, "value", 0, math.MaxUint8, "a Float8Value byte")
	case ValueInt32:
		out.I, err = asIntRange(v, "value", math.MinInt32, math.MaxInt32, "int32")
	case ValueInt64:
		out.I, err = asInt(v, "value")
	case ValueBool:
		out.B, err = asBool(v, "value")
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

func nodeFromJSON(v any, index int, n *Node) error {
	obj, ok := v.(map[string]any)
	if !ok {
		return malformedf("node %d: must be an object, not %s", index, jsonTypeName(v))
	}
	if nv := lookup(obj, "name"); nv != nil {
		name, err := asString(nv, "name")
		if err != nil {
			return prefixed(err, "node %d", index)
		}
		n.Name = name
	}
	if err := nodeFieldsFromJSON(obj, n); err != nil {
		return prefixed(err, "node %d (%q)", index, n.Name)
	}
	return nil
}

func nodeFieldsFromJSON(obj map[string]any, n *Node) error {
	tv := lookup(obj, "type")
	if tv == nil {
		return malformedf("missing \"type\"")
	}
	typ, err := asString(tv, "type")
	if err != nil {
		return err
	}
	op := OpByName(typ)
	if op == nil {
		return unsupportedf("unknown node type %q", typ)
	}
	n.Op, n.Tag = op, op.Tag
	if v := lookup(obj, "compute_data_type"); v != nil {
		if n.ComputeDataType, err = asDataType(v, "compute_data_type"); err != nil {
			return err
		}
	}
	// Where fields may be: the nested sections first, then the node itself.
	var places [5]map[string]any
	for i, s := range []string{SectionInputs, SectionOutputs, SectionAttributes, SectionParameters} {
		if places[i], err = asObject(lookup(obj, s), s); err != nil {
			return err
		}
	}
	places[4] = obj
	n.Values = make([]Value, len(op.Fields))
	for i := range op.Fields {
		f := &op.Fields[i]
		var raw any
		for _, p := range places {
			if raw = lookup(p, f.Name); raw != nil {
				break
			}
		}
		if err := valueFromJSON(f, raw, &n.Values[i]); err != nil {
			return err
		}
	}
	return nil
}

// valueFromJSON converts raw (nil when absent or null) for field f.
func valueFromJSON(f *Field, raw any, v *Value) error {
	if raw == nil {
		if f.Kind == KindUID {
			return malformedf("missing required %q", f.Name)
		}
		*v = f.defaultValue()
		return nil
	}
	var err error
	v.Set = true
	switch f.Kind {
	case KindUID, KindOptUID, KindLong, KindOptLong:
		v.I, err = asInt(raw, f.Name)
	case KindInt, KindOptInt:
		v.I, err = asIntRange(raw, f.Name, math.MinInt32, math.MaxInt32, "int32")
	case KindUIDList, KindLongList:
		v.List, err = asIntList(raw, f.Name, math.MinInt64, math.MaxInt64)
	case KindIntList:
		v.List, err = asIntList(raw, f.Name, math.MinInt32, math.MaxInt32)
	case KindFloat, KindOptFloat:
		v.F, err = asFloat32(raw, f.Name)
	case KindBool, KindOptBool:
		v.B, err = asBool(raw, f.Name)
	case KindEnum:
		v.I, err = enumFromJSON(f, raw)
	case KindDataType:
		var d DataType
		d, err = asDataType(raw, f.Name)
		v.I = int64(d)
	case KindString:
		v.S, err = asString(raw, f.Name)
	case KindBytes:
		var l []int64
		l, err = asIntList(raw, f.Name, 0, math.MaxUint8)
		if err == nil && l != nil {
			v.Bytes = make([]byte, len(l))
			for i, x := range l {
				v.Bytes[i] = byte(x)
			}
		}
	}
	return err
}

func enumFromJSON(f *Field, raw any) (int64, error) {
	label := enumLabels[f.Enum]
	switch x := raw.(type) {
	case string:
		if ev := f.Enum.ByName(x); ev != nil {
			return ev.Value, nil
		}
		return 0, unsupportedf("unknown %s %q", label, x)
	case json.Number:
		i, err := asInt(x, f.Name)
		if err != nil {
			return 0, err
		}
		if f.Enum.byValue(i) == nil {
			return 0, unsupportedf("unknown %s value %d", label, i)
		}
		return i, nil
	}
	return 0, malformedf("%q must be a string naming a %s, not %s", f.Name, label, jsonTypeName(raw))
}
