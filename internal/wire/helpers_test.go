package wire

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// sampleValue gives field i of an op a distinct, non-default value that
// survives both encodings exactly.
func sampleValue(f *Field, i int) Value {
	n := int64(i)
	switch f.Kind {
	case KindUID, KindOptUID:
		return Value{Set: true, I: 100 + n}
	case KindLong, KindOptLong:
		return Value{Set: true, I: -7 - n} // negative, like sdpa bounds
	case KindInt, KindOptInt:
		return Value{Set: true, I: 40 + n}
	case KindUIDList:
		return Value{Set: true, List: []int64{200 + n, 300 + n}}
	case KindLongList:
		return Value{Set: true, List: []int64{1 + n, 2, 1 << 40}}
	case KindIntList:
		return Value{Set: true, List: []int64{32, -1, n}}
	case KindFloat, KindOptFloat:
		return Value{Set: true, F: 0.25 + float64(i)}
	case KindBool:
		return Value{Set: true, B: f.Default == 0}
	case KindOptBool:
		return Value{Set: true, B: i%2 == 0}
	case KindEnum:
		return Value{Set: true, I: f.Enum.Values[len(f.Enum.Values)-1].Value}
	case KindDataType:
		return Value{Set: true, I: int64(DataTypeFP8E5M2FNUZ)}
	case KindString:
		return Value{Set: true, S: "expr_" + f.Name}
	case KindBytes:
		return Value{Set: true, Bytes: []byte{0, 1, 254, 255}}
	}
	panic("unknown kind")
}

// fullGraph has one node of every op with every field set, and tensors
// exercising every TensorAttributes field and value kind.
func fullGraph() *Graph {
	eng, rag := int64(-42), int64(7)
	g := &Graph{
		Name: "every_op", ComputeDataType: DataTypeFloat, IntermediateDataType: DataTypeHalf, IODataType: DataTypeBFloat16,
		PreferredEngineID: &eng, IsOverrideShapeEnabled: true,
		MinRequiredEngineAPIVersion: &EngineAPIVersion{1, 3, 0},
		ID:                          &[16]byte{0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0x4d, 0xef, 0x80, 1, 2, 3, 4, 5, 6, 7},
	}
	values := []*TensorValue{
		nil,
		{Kind: ValueFloat32, F: 1.5},
		{Kind: ValueFloat16, F: -0.125},
		{Kind: ValueBFloat16, F: 3},
		{Kind: ValueFloat8, I: 200},
		{Kind: ValueInt32, I: -5},
		{Kind: ValueFloat64, F: 1e-05},
		{Kind: ValueInt64, I: -1 << 50},
		{Kind: ValueBool, B: true},
	}
	for i, v := range values {
		g.Tensors = append(g.Tensors, Tensor{
			UID: int64(i), Name: "t" + itoa(int64(i)), DataType: DataType(i),
			Dims: []int64{2, 3, int64(i) + 1}, Strides: []int64{3 * (int64(i) + 1), int64(i) + 1, 1},
			Virtual: i%2 == 1, Value: v, Alignment: DefaultAlignment, RaggedOffsetMultiplier: DefaultRaggedOffsetMultiplier,
		})
	}
	g.Tensors = append(g.Tensors, Tensor{
		UID: 99, Name: "ragged", DataType: DataTypeFP8E4M3FNUZ, Dims: []int64{4}, Strides: []int64{1},
		RuntimePassByValue: true, RaggedOffsetUID: &rag, Alignment: 64, RaggedOffsetMultiplier: 3,
	})
	for _, op := range Ops() {
		n := Node{Name: "n_" + op.Name, ComputeDataType: DataTypeFloat, Op: op, Tag: op.Tag, Values: make([]Value, len(op.Fields))}
		for i := range op.Fields {
			n.Values[i] = sampleValue(&op.Fields[i], i)
		}
		g.Nodes = append(g.Nodes, n)
	}
	return g
}

// requiredGraph has one node of every op with only the required fields
// (everything else absent or default), in the canonical decoded form.
func requiredGraph() *Graph {
	g := &Graph{Tensors: []Tensor{{UID: 0, Dims: []int64{1}, Strides: []int64{1}, Alignment: DefaultAlignment, RaggedOffsetMultiplier: DefaultRaggedOffsetMultiplier}}}
	for _, op := range Ops() {
		n := NewNode(op)
		for i := range op.Fields {
			if op.Fields[i].Kind == KindUID {
				n.Values[i].I = int64(i)
			}
		}
		g.Nodes = append(g.Nodes, n)
	}
	return g
}

// corpusDir finds AMD's graph corpus: $HIPDNN_CORPUS_DIR or the one vendored in the
// repository; it skips the test when neither exists.
func corpusDir(t testing.TB) string {
	if d := corpusDirNoSkip(); d != "" {
		return d
	}
	t.Skip("hipDNN graph corpus not found (set HIPDNN_CORPUS_DIR)")
	return ""
}

func corpusDirNoSkip() string {
	_, self, _, _ := runtime.Caller(0)
	for _, d := range []string{
		os.Getenv("HIPDNN_CORPUS_DIR"),
		filepath.Join(filepath.Dir(self), "..", "..", "testdata", "hipdnn_graphs"),
	} {
		if d == "" {
			continue
		}
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d
		}
	}
	return ""
}

// corpusFiles lists every .json file under the corpus, sorted.
func corpusFiles(t testing.TB) []string {
	dir := corpusDir(t)
	var files []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".json") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	if len(files) == 0 {
		t.Skipf("no .json files under %s", dir)
	}
	return files
}
