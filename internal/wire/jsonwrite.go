package wire

import (
	"encoding/hex"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// GraphToJSON writes g in AMD's nested JSON layout (FORMAT.md §3.2–3.6) the
// way the data_sdk's nlohmann-based writer prints it: keys in byte order,
// 2-space indent, one array element per line, floats as nlohmann formats
// them, a trailing newline. Unset optional tensor uids and scalars are
// explicit nulls, booleans are always written, lists that are absent are
// null; strings and byte vectors (custom_op_id, data, umd_*) only appear
// when set. Tensors carry value_type/value only with a value, and
// is_runtime_pass_by_value, alignment and ragged_offset_* only when not
// default. The graph carries preferred_engine_id, min_required_engine_api_version
// and id only when set.
//
// Floats of float32 fields are written with the fewest digits that read
// back to the same float32. A value JSON cannot carry (NaN, infinity, a
// string that is not UTF-8) or an enum, data type, value kind or op this
// build does not know gives an error wrapping ErrUnsupported.
func GraphToJSON(g *Graph) ([]byte, error) {
	if g == nil {
		return nil, malformedf("graph is nil")
	}
	root, err := graphJSON(g)
	if err != nil {
		return nil, err
	}
	var w jsonPrinter
	if err := w.value(&root, 0); err != nil {
		return nil, err
	}
	w.buf = append(w.buf, '\n')
	return w.buf, nil
}

type jkind uint8

const (
	jNull jkind = iota
	jBool
	jInt
	jFloat32
	jFloat64
	jString
	jArray
	jObject
)

// jval is a JSON value about to be printed; objects are sorted on print.
type jval struct {
	k   jkind
	b   bool
	i   int64
	f   float64
	s   string
	arr []jval
	obj []jmember
}

type jmember struct {
	key string
	val jval
}

func jnull() jval                     { return jval{k: jNull} }
func jbool(b bool) jval               { return jval{k: jBool, b: b} }
func jint(i int64) jval               { return jval{k: jInt, i: i} }
func jstr(s string) jval              { return jval{k: jString, s: s} }
func jobj(m ...jmember) jval          { return jval{k: jObject, obj: m} }
func member(k string, v jval) jmember { return jmember{k, v} }

func jints(v []int64) jval {
	a := make([]jval, len(v))
	for i, x := range v {
		a[i] = jint(x)
	}
	return jval{k: jArray, arr: a}
}

func dataTypeJSON(d DataType, what string) (jval, error) {
	if !d.Known() {
		return jval{}, unsupportedf("%s: data type value %d has no JSON name", what, d)
	}
	return jstr(d.JSONName()), nil
}

func graphJSON(g *Graph) (jval, error) {
	var m []jmember
	m = append(m, member("name", jstr(g.Name)))
	for _, c := range []struct {
		key string
		d   DataType
	}{{"compute_data_type", g.ComputeDataType}, {"intermediate_data_type", g.IntermediateDataType}, {"io_data_type", g.IODataType}} {
		v, err := dataTypeJSON(c.d, "graph "+c.key)
		if err != nil {
			return jval{}, err
		}
		m = append(m, member(c.key, v))
	}
	m = append(m, member("is_override_shape_enabled", jbool(g.IsOverrideShapeEnabled)))
	if g.PreferredEngineID != nil {
		m = append(m, member("preferred_engine_id", jint(*g.PreferredEngineID)))
	}
	if v := g.MinRequiredEngineAPIVersion; v != nil {
		m = append(m, member("min_required_engine_api_version", jobj(
			member("major", jint(int64(v.Major))), member("minor", jint(int64(v.Minor))), member("patch", jint(int64(v.Patch))))))
	}
	if g.ID != nil {
		m = append(m, member("id", jstr(formatUUID(g.ID))))
	}
	tensors := make([]jval, len(g.Tensors))
	for i := range g.Tensors {
		v, err := tensorJSON(&g.Tensors[i])
		if err != nil {
			return jval{}, prefixed(err, "tensor uid %d", g.Tensors[i].UID)
		}
		tensors[i] = v
	}
	nodes := make([]jval, len(g.Nodes))
	for i := range g.Nodes {
		v, err := nodeJSON(&g.Nodes[i])
		if err != nil {
			return jval{}, prefixed(err, "node %d (%q)", i, g.Nodes[i].Name)
		}
		nodes[i] = v
	}
	m = append(m, member("tensors", jval{k: jArray, arr: tensors}), member("nodes", jval{k: jArray, arr: nodes}))
	return jobj(m...), nil
}

func formatUUID(id *[16]byte) string {
	h := hex.EncodeToString(id[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

func tensorJSON(t *Tensor) (jval, error) {
	dt, err := dataTypeJSON(t.DataType, "data_type")
	if err != nil {
		return jval{}, err
	}
	m := []jmember{
		member("uid", jint(t.UID)), member("name", jstr(t.Name)),
		member("dims", jints(t.Dims)), member("strides", jints(t.Strides)),
		member("data_type", dt), member("virtual", jbool(t.Virtual)),
	}
	if v := t.Value; v != nil && v.Kind != ValueNone {
		var jv jval
		switch v.Kind {
		case ValueFloat32, ValueFloat16, ValueBFloat16:
			jv = jval{k: jFloat32, f: v.F}
		case ValueFloat64:
			jv = jval{k: jFloat64, f: v.F}
		case ValueFloat8, ValueInt32, ValueInt64:
			jv = jint(v.I)
		case ValueBool:
			jv = jbool(v.B)
		default:
			return jval{}, unsupportedf("tensor value type %d has no JSON name", v.Kind)
		}
		m = append(m, member("value_type", jstr(v.Kind.String())), member("value", jv))
	}
	if t.RuntimePassByValue {
		m = append(m, member("is_runtime_pass_by_value", jbool(true)))
	}
	if t.Alignment != DefaultAlignment {
		m = append(m, member("alignment", jint(t.Alignment)))
	}
	if t.RaggedOffsetUID != nil {
		m = append(m, member("ragged_offset_tensor_uid", jint(*t.RaggedOffsetUID)))
	}
	if t.RaggedOffsetMultiplier != DefaultRaggedOffsetMultiplier {
		m = append(m, member("ragged_offset_multiplier", jint(t.RaggedOffsetMultiplier)))
	}
	return jobj(m...), nil
}

func nodeJSON(n *Node) (jval, error) {
	if n.Op == nil {
		return jval{}, unsupportedf("unknown node type tag %d has no JSON name", n.Tag)
	}
	if len(n.Values) != len(n.Op.Fields) {
		return jval{}, malformedf("%s node has %d values for %d fields", n.Op.Name, len(n.Values), len(n.Op.Fields))
	}
	dt, err := dataTypeJSON(n.ComputeDataType, "compute_data_type")
	if err != nil {
		return jval{}, err
	}
	sections := map[string][]jmember{SectionInputs: {}, SectionOutputs: {}}
	for i := range n.Op.Fields {
		f := &n.Op.Fields[i]
		v, ok, err := fieldJSON(f, &n.Values[i])
		if err != nil {
			return jval{}, err
		}
		if ok {
			sections[f.JSONSection] = append(sections[f.JSONSection], member(f.Name, v))
		}
	}
	m := []jmember{member("name", jstr(n.Name)), member("type", jstr(n.Op.Name)), member("compute_data_type", dt)}
	for _, s := range []string{SectionInputs, SectionOutputs, SectionAttributes, SectionParameters} {
		if ms, ok := sections[s]; ok && (len(ms) > 0 || s == SectionInputs || s == SectionOutputs) {
			m = append(m, member(s, jobj(ms...)))
		}
	}
	return jobj(m...), nil
}

// fieldJSON renders one attribute; ok is false when the key is left out.
func fieldJSON(f *Field, v *Value) (jval, bool, error) {
	if !v.Set {
		switch f.Kind {
		case KindString, KindBytes:
			return jval{}, false, nil
		}
		if f.Kind.optional() {
			return jnull(), true, nil
		}
		d := f.defaultValue()
		v = &d
	}
	switch f.Kind {
	case KindUID, KindOptUID, KindLong, KindOptLong, KindInt, KindOptInt:
		return jint(v.I), true, nil
	case KindUIDList, KindIntList, KindLongList:
		return jints(v.List), true, nil
	case KindFloat, KindOptFloat:
		return jval{k: jFloat32, f: v.F}, true, nil
	case KindBool, KindOptBool:
		return jbool(v.B), true, nil
	case KindEnum:
		ev := f.Enum.byValue(v.I)
		if ev == nil {
			return jval{}, false, unsupportedf("%s value %d is not a known %s", f.Name, v.I, f.Enum.Name)
		}
		return jstr(ev.JSON), true, nil
	case KindDataType:
		if v.I < math.MinInt8 || v.I > math.MaxInt8 {
			return jval{}, false, unsupportedf("%s value %d is not a known DataType", f.Name, v.I)
		}
		jv, err := dataTypeJSON(DataType(v.I), f.Name)
		return jv, err == nil, err
	case KindString:
		return jstr(v.S), true, nil
	case KindBytes:
		a := make([]jval, len(v.Bytes))
		for i, c := range v.Bytes {
			a[i] = jint(int64(c))
		}
		return jval{k: jArray, arr: a}, true, nil
	}
	return jval{}, false, malformedf("field %s has unknown kind %d", f.Name, f.Kind)
}

// jsonPrinter prints like nlohmann::json::dump(2).
type jsonPrinter struct{ buf []byte }

func (w *jsonPrinter) newline(indent int) {
	w.buf = append(w.buf, '\n')
	for i := 0; i < indent; i++ {
		w.buf = append(w.buf, ' ', ' ')
	}
}

func (w *jsonPrinter) value(v *jval, indent int) error {
	switch v.k {
	case jNull:
		w.buf = append(w.buf, "null"...)
	case jBool:
		w.buf = strconv.AppendBool(w.buf, v.b)
	case jInt:
		w.buf = strconv.AppendInt(w.buf, v.i, 10)
	case jFloat32, jFloat64:
		bits := 64
		if v.k == jFloat32 {
			bits = 32
		}
		s, err := formatFloat(v.f, bits)
		if err != nil {
			return err
		}
		w.buf = append(w.buf, s...)
	case jString:
		return w.str(v.s)
	case jArray:
		if len(v.arr) == 0 {
			w.buf = append(w.buf, "[]"...)
			return nil
		}
		w.buf = append(w.buf, '[')
		for i := range v.arr {
			if i > 0 {
				w.buf = append(w.buf, ',')
			}
			w.newline(indent + 1)
			if err := w.value(&v.arr[i], indent+1); err != nil {
				return err
			}
		}
		w.newline(indent)
		w.buf = append(w.buf, ']')
	case jObject:
		if len(v.obj) == 0 {
			w.buf = append(w.buf, "{}"...)
			return nil
		}
		sort.Slice(v.obj, func(a, b int) bool { return v.obj[a].key < v.obj[b].key })
		w.buf = append(w.buf, '{')
		for i := range v.obj {
			if i > 0 {
				w.buf = append(w.buf, ',')
			}
			w.newline(indent + 1)
			if err := w.str(v.obj[i].key); err != nil {
				return err
			}
			w.buf = append(w.buf, ": "...)
			if err := w.value(&v.obj[i].val, indent+1); err != nil {
				return prefixed(err, "%q", v.obj[i].key)
			}
		}
		w.newline(indent)
		w.buf = append(w.buf, '}')
	}
	return nil
}

// str writes s escaped as nlohmann does: quote, backslash and control
// characters escaped, other UTF-8 kept as is.
func (w *jsonPrinter) str(s string) error {
	if !utf8.ValidString(s) {
		return unsupportedf("string %q is not valid UTF-8 and cannot be written to JSON", s)
	}
	w.buf = append(w.buf, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			w.buf = append(w.buf, '\\', '"')
		case '\\':
			w.buf = append(w.buf, '\\', '\\')
		case '\b':
			w.buf = append(w.buf, '\\', 'b')
		case '\f':
			w.buf = append(w.buf, '\\', 'f')
		case '\n':
			w.buf = append(w.buf, '\\', 'n')
		case '\r':
			w.buf = append(w.buf, '\\', 'r')
		case '\t':
			w.buf = append(w.buf, '\\', 't')
		default:
			if c < 0x20 {
				w.buf = append(w.buf, '\\', 'u', '0', '0', "0123456789abcdef"[c>>4], "0123456789abcdef"[c&15])
			} else {
				w.buf = append(w.buf, c)
			}
		}
	}
	w.buf = append(w.buf, '"')
	return nil
}

// formatFloat prints f with the shortest digits that read back to the same
// float of the given bit size, laid out as nlohmann's dump does: plain
// decimals for exponents -4 < n <= 15 with a ".0" on integral values,
// otherwise d.ddde±XX.
func formatFloat(f float64, bits int) (string, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "", unsupportedf("%v cannot be written to JSON", f)
	}
	if bits == 32 && math.Abs(f) > math.MaxFloat32 {
		return "", malformedf("%g does not fit in float32", f)
	}
	if f == 0 {
		if math.Signbit(f) {
			return "-0.0", nil
		}
		return "0.0", nil
	}
	e := strconv.FormatFloat(f, 'e', -1, bits) // [-]d[.ddd]e±XX
	neg := e[0] == '-'
	if neg {
		e = e[1:]
	}
	epos := strings.IndexByte(e, 'e')
	digits := strings.Replace(e[:epos], ".", "", 1)
	exp, _ := strconv.Atoi(e[epos+1:])
	k := len(digits)
	n := exp + 1 // position of the decimal point relative to the digits
	var sb strings.Builder
	if neg {
		sb.WriteByte('-')
	}
	switch {
	case k <= n && n <= 15:
		sb.WriteString(digits)
		sb.WriteString(strings.Repeat("0", n-k))
		sb.WriteString(".0")
	case 0 < n && n <= 15:
		sb.WriteString(digits[:n])
		sb.WriteByte('.')
		sb.WriteString(digits[n:])
	case -4 < n && n <= 0:
		sb.WriteString("0.")
		sb.WriteString(strings.Repeat("0", -n))
		sb.WriteString(digits)
	default:
		sb.WriteByte(digits[0])
		if k > 1 {
			sb.WriteByte('.')
			sb.WriteString(digits[1:])
		}
		sb.WriteByte('e')
		x := n - 1
		if x < 0 {
			sb.WriteByte('-')
			x = -x
		} else {
			sb.WriteByte('+')
		}
		if x < 10 {
			sb.WriteByte('0')
		}
		sb.WriteString(strconv.Itoa(x))
	}
	return sb.String(), nil
}
