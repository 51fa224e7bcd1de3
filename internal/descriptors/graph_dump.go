package descriptors

import (
	"fmt"
	"github.com/hipdnn-go/backend/internal/env"
	"os"
	"path/filepath"
	"strings"

	"github.com/hipdnn-go/backend/internal/logging"
	"github.com/hipdnn-go/backend/internal/wire"
)

// dumpGraph writes a finalized graph as JSON to $HIPDNN_LOG_GRAPH_DIR/graph_<key>.json, where
// key is the FNV-1a hash of the JSON without the graph's id, so identical graphs are written
// once. Failures are logged, never returned: a dump must not fail a finalize.
func dumpGraph(g *Graph) {
	dir := strings.TrimSpace(env.Get("HIPDNN_LOG_GRAPH_DIR"))
	if dir == "" {
		return
	}
	if g.opaque != nil {
		g.logf("not dumped to HIPDNN_LOG_GRAPH_DIR: JSON cannot carry the parts this build cannot read (%s)", g.opaque.summary())
		return
	}
	anon := *g.model
	anon.ID = nil
	keyJSON, err := wire.GraphToJSON(&anon)
	if err != nil {
		logging.Errorf("HIPDNN_LOG_GRAPH_DIR: cannot render graph: %v", err)
		return
	}
	path := filepath.Join(dir, fmt.Sprintf("graph_%016x.json", fnv1a(keyJSON)))
	if _, err := os.Stat(path); err == nil {
		return
	}
	body, err := wire.GraphToJSON(g.model)
	if err == nil {
		err = os.MkdirAll(dir, 0o755)
	}
	if err == nil {
		err = os.WriteFile(path, body, 0o644)
	}
	if err != nil {
		logging.Errorf("HIPDNN_LOG_GRAPH_DIR: cannot write %s: %v", path, err)
		return
	}
	g.logf("dumped to %s", path)
}

// fnv1a is the 64-bit FNV-1a hash.
func fnv1a(b []byte) uint64 {
	h := uint64(0xcbf29ce484222325)
	for _, c := range b {
		h ^= uint64(c)
		h *= 0x100000001b3
	}
	return h
}
