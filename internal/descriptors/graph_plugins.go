package descriptors

import (
	"github.com/hipdnn-go/backend/internal/engines"
	"github.com/hipdnn-go/backend/internal/status"
	"github.com/hipdnn-go/backend/internal/wire"
)

// engineFeatures are the graph's features in the plugin host's terms.
func (g *Graph) engineFeatures() engines.GraphFeatures { return g.features }

// engineAPIFloor is the lowest engine plugin API version that can run a graph with these
// features; Finalize stamps it into the graph as min_required_engine_api_version.
func engineAPIFloor(f Features) wire.EngineAPIVersion {
	v := f.MinAPIVersion()
	return wire.EngineAPIVersion{Major: uint32(v.Major), Minor: uint32(v.Minor), Patch: uint32(v.Patch)}
}

// session is the engine plugin session of the graph's handle; finalized graphs only.
func (g *Graph) session() (*engines.Session, error) {
	if g.handle == nil || !g.finalized {
		return nil, status.NotFinalized("the operation graph is not finalized")
	}
	if g.handle.Closed() {
		return nil, status.BadParam("the handle the operation graph was finalized with has been destroyed")
	}
	return g.handle.Engines(), nil
}

// engineIDOf resolves an engine name or id text (engineNameOrIdToId): a loaded engine's name
// gives its id, else a "0x…" or decimal number is taken as an id, else the name is hashed.
func engineIDOf(m *engines.Manager, s string) int64 {
	if e := m.EngineByName(s); e != nil {
		return e.ID
	}
	return engines.EngineNameOrIDToID(s)
}
