package wire

import (
	"os"
	"strings"
	"testing"
)

// The seed corpora of both targets are AMD's graph files (as JSON, and
// encoded as flatbuffers) plus the synthetic every-op graphs, so a plain
// `go test` runs every seed once. Longer runs:
//
//	go test ./internal/wire -run '^$' -fuzz FuzzDecodeGraph -fuzztime 60s
//	go test ./internal/wire -run '^$' -fuzz FuzzGraphFromJSON -fuzztime 60s

func addSeeds(f *testing.F, asFlatbuffer bool) {
	var files []string
	if corpusDirNoSkip() != "" {
		files = corpusFiles(f)
	}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		if !asFlatbuffer {
			f.Add(data)
			continue
		}
		g, err := GraphFromJSON(data)
		if err != nil {
			f.Fatalf("%s: %v", path, err)
		}
		f.Add(mustEncode(f, g))
	}
	for _, g := range []*Graph{fullGraph(), requiredGraph(), convBiasReLU(), {}} {
		if asFlatbuffer {
			f.Add(mustEncode(f, g))
		} else {
			js, err := GraphToJSON(g)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(js)
		}
	}
}

// FuzzDecodeGraph: any bytes give a graph or an ErrMalformed error, never a
// panic; a graph that decodes survives encode → decode and JSON unchanged.
func FuzzDecodeGraph(f *testing.F) {
	addSeeds(f, true)
	f.Fuzz(func(t *testing.T, b []byte) {
		_, err := DecodeGraph(b)
		if err != nil && strings.Contains(err.Error(), "decoder fault") {
			t.Fatalf("decoder panicked: %v", err)
		}
		checkDecodeInvariant(t, b, true)
	})
}

// FuzzGraphFromJSON: any bytes give a graph or a classified error, never a
// panic; a graph that reads survives both encodings unchanged.
func FuzzGraphFromJSON(f *testing.F) {
	addSeeds(f, false)
	f.Fuzz(func(t *testing.T, b []byte) {
		g, err := GraphFromJSON(b)
		if err != nil {
			if strings.Contains(err.Error(), "reader fault") {
				t.Fatalf("reader panicked: %v", err)
			}
			if !isMalformed(err) && !isUnsupported(err) {
				t.Fatalf("unclassified error %v", err)
			}
			return
		}
		if err := g.CheckSupported(); err != nil {
			t.Fatalf("a graph read from JSON is unsupported: %v", err)
		}
		buf, err := EncodeGraph(g)
		if err != nil {
			t.Fatalf("EncodeGraph: %v", err)
		}
		g2, err := DecodeGraph(buf)
		if err != nil {
			t.Fatalf("DecodeGraph: %v", err)
		}
		if !graphsEqualNaN(g, g2) {
			t.Fatal("encode → decode changed the graph")
		}
		js, err := GraphToJSON(g)
		if err != nil {
			t.Fatalf("GraphToJSON: %v", err)
		}
		g3, err := GraphFromJSON(js)
		if err != nil {
			t.Fatalf("our own JSON does not read back: %v\n%s", err, js)
		}
		if !graphsEqualNaN(g, g3) {
			t.Fatalf("JSON round trip changed the graph\n%s", js)
		}
	})
}
