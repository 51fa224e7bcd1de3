package backend

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// quoteMarker precedes a fenced code block in docs/*.md that quotes a file of the repository:
// the block must stand in that file, line for line, so the docs cannot drift from the code.
const quoteMarker = "<!-- quote: "

// TestDocsQuoteFiles checks every quoted block of docs/*.md against the file it names, and that
// docs/plugin-authors.md quotes the example engine plugin at least once.
func TestDocsQuoteFiles(t *testing.T) {
	docs, err := filepath.Glob("docs/*.md")
	if err != nil || len(docs) == 0 {
		t.Fatalf("no docs found: %v", err)
	}
	quotes := map[string]int{}
	for _, doc := range docs {
		text, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(text), "\n")
		for i := 0; i < len(lines); i++ {
			if !strings.HasPrefix(lines[i], quoteMarker) {
				continue
			}
			src := strings.TrimSuffix(strings.TrimPrefix(lines[i], quoteMarker), " -->")
			if i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "```") {
				t.Errorf("%s:%d: quote of %s is not followed by a fenced block", doc, i+1, src)
				continue
			}
			end := i + 2
			for end < len(lines) && !strings.HasPrefix(lines[end], "```") {
				end++
			}
			if end == len(lines) {
				t.Errorf("%s:%d: quote of %s has no closing fence", doc, i+1, src)
				break
			}
			block := strings.Join(lines[i+2:end], "\n") + "\n"
			file, err := os.ReadFile(src)
			if err != nil {
				t.Errorf("%s:%d: quoted file: %v", doc, i+1, err)
			} else if !strings.Contains(string(file), block) {
				t.Errorf("%s:%d: the block quoted from %s is not in that file any more:\n%s", doc, i+1, src, block)
			}
			quotes[doc+" "+src]++
			i = end
		}
	}
	if quotes["docs/plugin-authors.md examples/engine_plugin/relu_engine.cpp"] == 0 {
		t.Errorf("docs/plugin-authors.md quotes examples/engine_plugin/relu_engine.cpp nowhere; quotes found: %v", quotes)
	}
}
