package wire

import (
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

// constantsOf returns the single-name constants of file whose declared type is typ (read from
// the source, so a test can check hand-named constants without restating them).
func constantsOf(t *testing.T, file, typ string) map[string]int64 {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Names) != 1 || len(vs.Values) != 1 || vs.Type == nil || types.ExprString(vs.Type) != typ {
			return true
		}
		tv, err := types.Eval(fset, nil, vs.Values[0].Pos(), types.ExprString(vs.Values[0]))
		if err != nil || tv.Value == nil {
			t.Errorf("%s: value is not a constant: %v", vs.Names[0].Name, err)
			return true
		}
		out[vs.Names[0].Name], _ = constant.Int64Val(tv.Value)
		return true
	})
	return out
}

// TestDataTypeConstantsFollowTheSchema ties the hand-named Go constants of datatype.go to the
// generated domain: every DataType<Name> constant has the value of the schema enumerator of the
// same name (compared without case and underscores: DataTypeFP8E4M3 ~ FP8_E4M3), every
// enumerator has a constant and a size, and the domain is dense from 0 (Known relies on it).
func TestDataTypeConstantsFollowTheSchema(t *testing.T) {
	for i, v := range dataTypeDomain.Values {
		if v.Value != int64(i) {
			t.Fatalf("DataType enumerator %s = %d at position %d: the domain is not dense", v.Name, v.Value, i)
		}
	}
	if len(dataTypeSize) != len(dataTypeDomain.Values) {
		t.Errorf("dataTypeSize has %d entries, the schema's DataType %d", len(dataTypeSize), len(dataTypeDomain.Values))
	}
	canon := func(s string) string { return strings.ToLower(strings.ReplaceAll(s, "_", "")) }
	seen := map[int64]bool{}
	for goName, v := range constantsOf(t, "datatype.go", "DataType") {
		name := strings.TrimPrefix(goName, "DataType")
		if int(v) >= len(dataTypeDomain.Values) || canon(dataTypeDomain.Values[v].Name) != canon(name) {
			t.Errorf("%s = %d, but the schema's enumerator %d is not %s", goName, v, v, name)
		}
		seen[v] = true
	}
	for _, v := range dataTypeDomain.Values {
		if !seen[v.Value] {
			t.Errorf("schema enumerator DataType.%s = %d has no Go constant in datatype.go", v.Name, v.Value)
		}
	}
	if DataType(len(dataTypeDomain.Values)).Known() || DataType(-1).Known() {
		t.Error("Known accepts a value outside the schema")
	}
}

// TestValueKindConstantsFollowTheSchema: each Value<Name> constant of graph.go is the tag of
// union TensorValue's member <Name>Value (valueKindNames, generated), and every member has one.
func TestValueKindConstantsFollowTheSchema(t *testing.T) {
	seen := map[int64]bool{}
	for goName, v := range constantsOf(t, "graph.go", "ValueKind") {
		name := strings.TrimPrefix(goName, "Value")
		if int(v) >= len(valueKindNames) || !strings.EqualFold(strings.TrimSuffix(valueKindNames[v], "Value"), name) {
			t.Errorf("%s = %d, but TensorValue member %d is not %sValue", goName, v, v, name)
		}
		seen[v] = true
	}
	for i, m := range valueKindNames {
		if !seen[int64(i)] {
			t.Errorf("TensorValue member %s (tag %d) has no ValueKind constant in graph.go", m, i)
		}
	}
}
