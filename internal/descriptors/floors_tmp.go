package descriptors

import "github.com/hipdnn-go/backend/internal/wire"

func engineAPIFloor(f Features) wire.EngineAPIVersion { return wire.EngineAPIVersion{Major: 1} }
