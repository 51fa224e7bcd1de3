package wire

import (
	"sort"
	"strings"
)

// The op tables and enum domains are generated from the schemas
// (zz_generated.go). This file adds what AMD's JSON dialect says and the
// schemas do not: where a node's parameters go, and the enum spellings that
// differ from the schema names.

// paramSections lists the ops whose non-tensor fields the JSON writer puts
// somewhere other than "attributes".
var paramSections = map[string]string{
	"PointwiseAttributes":      SectionInputs,
	"ConvolutionFwdAttributes": SectionParameters,
	"ConvolutionBwdAttributes": SectionParameters,
	"ConvolutionWrwAttributes": SectionParameters,
	"SdpaBackwardAttributes":   SectionParameters,
}

// jsonSpelling is how AMD's JSON writes the value of d that the schema
// calls name: PointwiseMode in lower_snake_case, ReductionMode with MIN and
// MAX where the schema says MIN_OP and MAX_OP, every other enum as the
// schema does.
func jsonSpelling(d *EnumDomain, name string) string {
	switch d {
	case PointwiseMode:
		return strings.ToLower(name)
	case ReductionMode:
		short, _ := strings.CutSuffix(name, "_OP")
		return short
	}
	return name
}

var opByName = indexOps(opList)

// indexOps completes the generated tables (JSON sections and spellings,
// encode order) and indexes them by name.
func indexOps(ops []*OpSchema) map[string]*OpSchema {
	m := make(map[string]*OpSchema, len(ops))
	for i, op := range ops {
		if int(op.Tag) != i+1 {
			panic("wire: op table out of tag order at " + op.Name)
		}
		section := paramSections[op.Name]
		if section == "" {
			section = SectionAttributes
		}
		op.numSlots = 0
		op.encOrder = op.encOrder[:0]
		for j := range op.Fields {
			f := &op.Fields[j]
			switch f.Role {
			case RoleInput:
				f.JSONSection = SectionInputs
			case RoleOutput:
				f.JSONSection = SectionOutputs
			default:
				f.JSONSection = section
			}
			if f.Enum != nil {
				for k := range f.Enum.Values {
					v := &f.Enum.Values[k]
					v.JSON = jsonSpelling(f.Enum, v.Name)
				}
			}
			op.numSlots = max(op.numSlots, f.Slot+1)
			op.encOrder = append(op.encOrder, j)
		}
		// Widest fields first keeps tables free of padding, as flatc's C++
		// Create functions do.
		sort.SliceStable(op.encOrder, func(a, b int) bool {
			return op.Fields[op.encOrder[a]].Kind.wireSize() > op.Fields[op.encOrder[b]].Kind.wireSize()
		})
		m[op.Name] = op
	}
	return m
}
