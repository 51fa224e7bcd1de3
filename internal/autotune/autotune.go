// Package autotune is the exact-match engine ranking cache: hipdnnBackendWriteEngineRankingResults_ext
// stores a ranking measured for one graph on one device, and the SelectionHeuristic::Config
// policy puts that ranking first the next time the same graph is ranked on the same device.
//
// Entries live in $HIPDNN_CACHE_DIR/autotune-rankings/<product version>/<key>.jsonl (default
// cache root ~/.cache/hipdnn), one JSON line per write; the last line wins. The key hashes the
// graph's content without its per-finalize id, plus the serialized device properties.
// HIPDNN_DISABLE_EXACT_ENGINE_CACHE or HIPDNN_DISABLE_CACHE (truthy: 1, true, on, yes, enable,
// enabled) turn the cache off.
package autotune

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/hipdnn-go/backend/internal/env"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/version"
	"github.com/hipdnn-go/backend/internal/wire"
)

// Truthy reports whether an environment value turns a switch on.
func Truthy(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "1", "true", "on", "yes", "enable", "enabled":
		return true
	}
	return false
}

// Disabled reports whether the environment turns the cache off.
func Disabled() bool {
	return Truthy(env.Get("HIPDNN_DISABLE_EXACT_ENGINE_CACHE")) || Truthy(env.Get("HIPDNN_DISABLE_CACHE"))
}

// Key identifies a (graph, device) pair. The graph's id is left out, so the same graph
// finalized again (with a new id) finds its entry.
func Key(g *wire.Graph, deviceProps []byte) (uint64, error) {
	anon := *g
	anon.ID = nil
	b, err := wire.EncodeGraph(&anon)
	if err != nil {
		return 0, err
	}
	h := uint64(0xcbf29ce484222325)
	for _, part := range [][]byte{b, {0}, deviceProps} {
		for _, c := range part {
			h ^= uint64(c)
			h *= 0x100000001b3
		}
	}
	return h, nil
}

// dir is the folder of this build's entries.
func dir() (string, error) {
	root := strings.TrimSpace(env.Get("HIPDNN_CACHE_DIR"))
	if root == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("no HIPDNN_CACHE_DIR and no home directory: %w", err)
		}
		root = filepath.Join(home, ".cache", "hipdnn")
	}
	return filepath.Join(root, "autotune-rankings", version.Product().String()), nil
}

func path(key uint64) (string, error) {
	d, err := dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, fmt.Sprintf("%016x.jsonl", key)), nil
}

type entry struct {
	EngineIDs []int64 `json:"engine_ids"`
}

// Write appends a ranking for key. It reports UNCHANGED when the last stored ranking is the
// same, WRITTEN otherwise.
func Write(key uint64, ids []int64) (api.AutotuneCacheWriteOutcome, error) {
	p, err := path(key)
	if err != nil {
		return 0, err
	}
	if last, ok := Lookup(key); ok && equal(last, ids) {
		return api.HIPDNN_AUTOTUNE_CACHE_WRITE_UNCHANGED, nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return 0, err
	}
	presence.Lock()
	presence.missingUntil = 0
	presence.Unlock()
	line, _ := json.Marshal(entry{EngineIDs: ids})
	f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return 0, err
	}
	_, err = f.Write(append(line, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, err
	}
	return api.HIPDNN_AUTOTUNE_CACHE_WRITE_WRITTEN, nil
}

// present reports whether this build's entry folder exists. Every heuristic finalize asks, so
// a missing folder is remembered for a second instead of being looked up each time; a Write in
// this process makes it known at once.
func present() bool {
	d, err := dir()
	if err != nil {
		return false
	}
	now := time.Now().UnixNano()
	presence.Lock()
	defer presence.Unlock()
	if presence.dir == d && presence.missingUntil > now {
		return false
	}
	if _, err := os.Stat(d); err != nil {
		presence.dir, presence.missingUntil = d, now+int64(time.Second)
		return false
	}
	presence.dir, presence.missingUntil = d, 0
	return true
}

var presence struct {
	sync.Mutex
	dir          string
	missingUntil int64
}

// Available reports whether a lookup can find anything: the cache is enabled and its folder
// exists. Callers check it before computing a Key.
func Available() bool { return !Disabled() && present() }

// Lookup returns the last ranking stored for key.
func Lookup(key uint64) ([]int64, bool) {
	p, err := path(key)
	if err != nil {
		return nil, false
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, false
	}
	var last []int64
	found := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		var e entry
		if json.Unmarshal(sc.Bytes(), &e) == nil && len(e.EngineIDs) > 0 {
			last, found = e.EngineIDs, true
		}
	}
	return last, found
}

func equal(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
