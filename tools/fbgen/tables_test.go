package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// fbgenDirective matches a go:generate line that runs fbgen.
var fbgenDirective = regexp.MustCompile(`(?m)^//go:generate go run \S*tools/fbgen (.*)$`)

// TestGeneratedTablesUpToDate regenerates, in a temporary directory, every
// file a go:generate line under internal/ makes with fbgen -tables, and
// fails when the committed file differs (run `make generate`).
func TestGeneratedTablesUpToDate(t *testing.T) {
	n := 0
	err := filepath.WalkDir(filepath.Join("..", "..", "internal"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range fbgenDirective.FindAllStringSubmatch(string(src), -1) {
			c, err := parseArgs(strings.Fields(m[1]))
			if err != nil {
				return fmt.Errorf("%s: %v", path, err)
			}
			if c.tables == "" {
				continue
			}
			n++
			dir := filepath.Dir(path)
			fresh := filepath.Join(t.TempDir(), "fresh.go")
			if err := writeTables(filepath.Join(dir, c.schemas), fresh, c.opt); err != nil {
				return fmt.Errorf("%s: %v", path, err)
			}
			want, err := os.ReadFile(fresh)
			if err != nil {
				return err
			}
			got, err := os.ReadFile(filepath.Join(dir, c.tables))
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s is stale: run make generate (or go generate ./%s)", filepath.Join(dir, c.tables), dir)
			}
			if !bytes.HasPrefix(want, []byte(TablesHeader)) {
				t.Errorf("%s does not start with %q", c.tables, TablesHeader)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no go:generate line runs fbgen -tables")
	}
}

const testSchema = `
attribute "input";
attribute "output";
namespace t.s;
enum Mode : byte { NOT_SET = 0, FAST, SLOW = 5, SLOWER }
enum DataType : byte { UNSET, FLOAT }
struct Pair { a: int; b: [ubyte:4]; }
table Op1 {
  x_tensor_uid: long (input);   // slot 0
  y_tensor_uid: long = null (output);
  peers: [long] (input);
  mode: Mode = SLOW;
  dt: DataType;
  scale: float = 1.5;
  count: int = -3;
  flag: bool = true;
  maybe: bool = null;
  name: string;
  blob: [ubyte];
  dims: [int];
  axis_tensor_uid: long = null;  /* an axis, not a tensor */
}
table Inner { v: long; }
union Sub { Inner }
table Op2 { sub: Sub; after: long = 16; }
union NodeAttributes { Op1, Op2 }
table F32 { v: float; }
union TensorValue { F32 }
root_type Op1;
`

func TestParse(t *testing.T) {
	s, err := Parse(map[string]string{"t.fbs": testSchema})
	if err != nil {
		t.Fatal(err)
	}
	m := s.Enums["Mode"]
	var got []string
	for _, v := range m.Values {
		got = append(got, v.Name+"="+strconv.FormatInt(v.Value, 10))
	}
	if strings.Join(got, " ") != "NOT_SET=0 FAST=1 SLOW=5 SLOWER=6" {
		t.Errorf("enum values: %v", got)
	}
	op2 := s.Tables["Op2"]
	if op2.Fields[0].Slot != 1 || op2.Fields[1].Slot != 2 {
		t.Errorf("a union field takes two slots: %d, %d", op2.Fields[0].Slot, op2.Fields[1].Slot)
	}
	if p := s.Tables["Pair"]; !p.Struct || p.Fields[1].Type.Array != 4 || p.Fields[1].Type.Elem != "ubyte" {
		t.Errorf("struct Pair: %+v", p.Fields[1].Type)
	}
	if f := s.Tables["Op1"].Fields[1]; f.Default != "null" || f.Attrs["output"] != "" {
		t.Errorf("Op1.y_tensor_uid: %+v", f)
	}
	if u := s.Unions["NodeAttributes"]; strings.Join(u.Members, ",") != "Op1,Op2" {
		t.Errorf("union members %v", u.Members)
	}
}

func TestGenerateTables(t *testing.T) {
	src := strings.Replace(testSchema, "union NodeAttributes { Op1, Op2 }", "union NodeAttributes { Op1 }", 1)
	s, err := Parse(map[string]string{"t.fbs": src})
	if err != nil {
		t.Fatal(err)
	}
	b, err := GenerateTables(s, tableOptions{pkg: "wire", ops: true, slots: []string{"Op2"}})
	if err != nil {
		t.Fatal(err)
	}
	out := strings.Join(strings.Fields(string(b)), " ") // gofmt aligns; compare words
	for _, want := range []string{
		`{Tag: 1, Name: "Op1", Fields: []Field{ // t.fbs`,
		`{Name: "x_tensor_uid", Slot: 0, Kind: KindUID, Role: RoleInput}`,
		`{Name: "y_tensor_uid", Slot: 1, Kind: KindOptUID, Role: RoleOutput}`,
		`{Name: "peers", Slot: 2, Kind: KindUIDList, Role: RoleInput}`,
		`{Name: "mode", Slot: 3, Kind: KindEnum, Role: RoleParam, Enum: Mode, Default: 5}`,
		`{Name: "dt", Slot: 4, Kind: KindDataType, Role: RoleParam}`,
		`{Name: "scale", Slot: 5, Kind: KindFloat, Role: RoleParam, DefaultF: 1.5}`,
		`{Name: "count", Slot: 6, Kind: KindInt, Role: RoleParam, Default: -3}`,
		`{Name: "flag", Slot: 7, Kind: KindBool, Role: RoleParam, Default: 1}`,
		`{Name: "maybe", Slot: 8, Kind: KindOptBool, Role: RoleParam}`,
		`{Name: "name", Slot: 9, Kind: KindString, Role: RoleParam}`,
		`{Name: "blob", Slot: 10, Kind: KindBytes, Role: RoleParam}`,
		`{Name: "dims", Slot: 11, Kind: KindIntList, Role: RoleParam}`,
		`{Name: "axis_tensor_uid", Slot: 12, Kind: KindOptLong, Role: RoleParam}`,
		`Mode = &EnumDomain{Name: "Mode", Values: []EnumValue{`,
		`{Value: 6, Name: "SLOWER"},`,
		"slotOp2SubType = 0", "slotOp2Sub = 1", "slotOp2After = 2", "slotsOp2 = 3", "defaultOp2After = 16",
	} {
		if !strings.Contains(out, strings.Join(strings.Fields(want), " ")) {
			t.Errorf("generated code lacks %s\n%s", want, out)
		}
	}
	if _, err := GenerateTables(s, tableOptions{pkg: "x", slots: []string{"Pair"}}); err == nil {
		t.Error("-slots of a struct must fail")
	}
	// DataType fields are KindDataType; the enum is written once, as dataTypeDomain.
	if strings.Contains(out, `DataType = &EnumDomain`) || !strings.Contains(out, `dataTypeDomain = &EnumDomain{Name: "DataType"`) {
		t.Error("the DataType enum must be written as dataTypeDomain only")
	}
	if !strings.Contains(out, `var valueKindNames = [...]string{"NONE", "F32"}`) {
		t.Errorf("valueKindNames not generated from union TensorValue\n%s", out)
	}
}

func TestSchemaErrors(t *testing.T) {
	tests := []struct{ desc, schema, want string }{
		{"undeclared attribute", `table T { a: long (outptu); } union NodeAttributes { T }`, `undeclared attribute "outptu"`},
		{"unknown type", `table T { a: Missing; }`, "unknown type Missing"},
		{"explicit id", `table T { a: long (id: 0); }`, "explicit ids"},
		{"duplicate", `enum E : byte { A } enum E : byte { B }`, "declared twice"},
		{"float enum", `enum E : float { A }`, "not an integer type"},
		{"syntax", `table T { a long; }`, `expected ":"`},
		{"unknown declaration", `rpc_service S {}`, "unsupported declaration"},
	}
	for _, tt := range tests {
		_, err := Parse(map[string]string{"e.fbs": `attribute "output";` + tt.schema})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want an error containing %q", tt.desc, err, tt.want)
		}
	}
	gen := []struct{ desc, schema, want string }{
		{"role on a non-uid field", `table T { a: float (input); } union NodeAttributes { T }`, "only long and [long] fields"},
		{"both roles", `table T { a: long (input, output); } union NodeAttributes { T }`, "both input and output"},
		{"unsupported kind", `table U { v: long; } table T { a: U; } union NodeAttributes { T }`, "has no FieldKind"},
		{"no op union", `table T { a: long; }`, "no union NodeAttributes"},
		{"bad default", `table T { a: long = BIG; } union NodeAttributes { T }`, `default "BIG"`},
	}
	for _, tt := range gen {
		s, err := Parse(map[string]string{"e.fbs": `attribute "input"; attribute "output";` + tt.schema})
		if err == nil {
			_, err = GenerateTables(s, tableOptions{pkg: "wire", ops: true})
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want an error containing %q", tt.desc, err, tt.want)
		}
	}
}
