package wire

import "strings"

// FieldKind says how an attribute is stored on the wire and in Value.
type FieldKind int

// Field kinds. "Opt" kinds are flatbuffer optional scalars (`= null`): absent
// is distinct from every value and is written as JSON null.
const (
	KindUID      FieldKind = iota // long tensor uid, required, default 0 (Value.I)
	KindOptUID                    // long tensor uid = null (Value.I)
	KindUIDList                   // [long] of tensor uids (Value.List)
	KindLong                      // long (Value.I)
	KindOptLong                   // long = null (Value.I)
	KindInt                       // int (Value.I)
	KindOptInt                    // int = null (Value.I)
	KindIntList                   // [int] (Value.List)
	KindLongList                  // [long], not uids (Value.List)
	KindFloat                     // float (Value.F)
	KindOptFloat                  // float = null (Value.F)
	KindBool                      // bool (Value.B)
	KindOptBool                   // bool = null (Value.B)
	KindEnum                      // byte enum; Field.Enum gives the domain (Value.I)
	KindDataType                  // byte DataType (Value.I)
	KindString                    // string (Value.S)
	KindBytes                     // [ubyte] (Value.Bytes)
)

var fieldKindNames = [...]string{
	KindUID: "uid", KindOptUID: "optional uid", KindUIDList: "uid list", KindLong: "long",
	KindOptLong: "optional long", KindInt: "int", KindOptInt: "optional int", KindIntList: "int list",
	KindLongList: "long list", KindFloat: "float", KindOptFloat: "optional float", KindBool: "bool",
	KindOptBool: "optional bool", KindEnum: "enum", KindDataType: "data type", KindString: "string",
	KindBytes: "bytes",
}

func (k FieldKind) String() string {
	if k < 0 || int(k) >= len(fieldKindNames) {
		return "FieldKind(" + itoa(int64(k)) + ")"
	}
	return fieldKindNames[k]
}

// optional reports whether absent is distinct from every value: the "= null"
// scalars, lists, strings and byte vectors.
func (k FieldKind) optional() bool {
	switch k {
	case KindOptUID, KindOptLong, KindOptInt, KindOptFloat, KindOptBool,
		KindUIDList, KindIntList, KindLongList, KindString, KindBytes:
		return true
	}
	return false
}

// wireSize is the inline size of the field in its table (offsets are 4).
func (k FieldKind) wireSize() int {
	switch k {
	case KindUID, KindOptUID, KindLong, KindOptLong:
		return 8
	case KindBool, KindOptBool, KindEnum, KindDataType:
		return 1
	}
	return 4
}

// Role says whether a field names tensors the node reads, writes, or neither.
type Role int

// Roles.
const (
	RoleInput Role = iota
	RoleOutput
	RoleParam
)

// EnumValue is one value of an enum domain. Name is the schema's spelling,
// JSON the one writers use; readers accept either, ignoring case.
type EnumValue struct {
	Value int64
	Name  string
	JSON  string
}

// EnumDomain is a byte enum of the schema, e.g. ConvMode.
type EnumDomain struct {
	Name   string
	Values []EnumValue
}

func (d *EnumDomain) byValue(v int64) *EnumValue {
	for i := range d.Values {
		if d.Values[i].Value == v {
			return &d.Values[i]
		}
	}
	return nil
}

// ByName returns the value whose JSON or schema spelling is s, ignoring
// case, or nil.
func (d *EnumDomain) ByName(s string) *EnumValue {
	for i := range d.Values {
		ev := &d.Values[i]
		if strings.EqualFold(ev.JSON, s) || strings.EqualFold(ev.Name, s) {
			return ev
		}
	}
	return nil
}

// JSON sections of a node object.
const (
	SectionInputs     = "inputs"
	SectionOutputs    = "outputs"
	SectionAttributes = "attributes"
	SectionParameters = "parameters"
)

// Field is one attribute of an op table.
type Field struct {
	Name        string    // schema field name, e.g. "x_tensor_uid", "pre_padding", "conv_mode"
	Slot        int       // vtable slot index (declaration index)
	Kind        FieldKind // storage
	Role        Role      // RoleInput / RoleOutput for tensor fields, RoleParam otherwise
	Enum        *EnumDomain
	Default     int64   // default of long, int, bool (0/1), enum and data type fields
	DefaultF    float64 // default of float fields
	JSONSection string  // SectionInputs, SectionOutputs, SectionAttributes or SectionParameters
}

func (f *Field) defaultValue() Value {
	if f.Kind.optional() {
		return Value{}
	}
	return Value{Set: true, I: f.Default, F: f.DefaultF, B: f.Default != 0}
}

// OpSchema is one member of the NodeAttributes union.
type OpSchema struct {
	Tag    uint8  // union tag
	Name   string // union member name, e.g. "ConvolutionFwdAttributes"
	Fields []Field

	encOrder []int // field indexes, widest first, for compact tables
	numSlots int
}

// Field returns the index in Fields and the field called name, or -1, nil.
func (o *OpSchema) Field(name string) (int, *Field) {
	for i := range o.Fields {
		if o.Fields[i].Name == name {
			return i, &o.Fields[i]
		}
	}
	return -1, nil
}

// Ops returns all known ops ordered by tag. The slice and the schemas are
// shared; callers must not modify them.
func Ops() []*OpSchema { return opList }

// OpByTag returns the op with union tag tag, or nil.
func OpByTag(tag uint8) *OpSchema {
	if tag == 0 || int(tag) > len(opList) {
		return nil
	}
	return opList[tag-1]
}

// OpByName returns the op whose union member name is name, or nil.
func OpByName(name string) *OpSchema { return opByName[name] }
