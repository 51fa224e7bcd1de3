package engines

import (
	"fmt"
	"strconv"
	"strings"
)

// FNV-1a 64-bit parameters (engine and policy ids are the hash of their names).
const (
	fnvOffsetBasis = 0xcbf29ce484222325
	fnvPrime       = 0x100000001b3
)

// EngineNameToID returns the engine id of a name: the 64-bit FNV-1a hash of its bytes
// reinterpreted as a signed int64. The empty name maps to 0, not to the offset basis.
// Heuristic policy ids use the same function.
func EngineNameToID(name string) int64 {
	if name == "" {
		return 0
	}
	h := uint64(fnvOffsetBasis)
	for i := 0; i < len(name); i++ {
		h ^= uint64(name[i])
		h *= fnvPrime
	}
	return int64(h)
}

// FormatEngineID renders an id the way hipDNN names unnamed engines: "0x" and 16 upper-case
// hex digits of the two's-complement value (-2 is "0xFFFFFFFFFFFFFFFE").
func FormatEngineID(id int64) string {
	return fmt.Sprintf("0x%016X", uint64(id))
}

// EngineNameOrIDToID resolves a user-supplied engine reference (fallback-order lists, rule
// files, preferred engines): a registered engine name is hashed; otherwise a number is taken
// as the id ("0x"/"0X" and hex digits, read as uint64 and reinterpreted; or a decimal with an
// optional sign, no surrounding space, the whole string consumed); anything else is hashed.
func EngineNameOrIDToID(s string) int64 {
	if builtinNames.has(s) {
		return EngineNameToID(s)
	}
	if id, ok := parseEngineIDNumber(s); ok {
		return id
	}
	return EngineNameToID(s)
}

func parseEngineIDNumber(s string) (int64, bool) {
	if len(s) > 2 && (strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X")) {
		u, err := strconv.ParseUint(s[2:], 16, 64)
		if err != nil {
			return 0, false
		}
		return int64(u), true
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, false
	}
	return n, true
}

// nameRegistry maps engine names to their ids. Registration rejects an empty name, a name
// registered twice and a name whose hash collides with another registered name.
type nameRegistry struct {
	byName map[string]int64
	byID   map[int64]string
}

func (r *nameRegistry) register(name string) error {
	if name == "" {
		return fmt.Errorf("engine name registry: empty name")
	}
	if r.byName == nil {
		r.byName = map[string]int64{}
		r.byID = map[int64]string{}
	}
	id := EngineNameToID(name)
	if _, dup := r.byName[name]; dup {
		return fmt.Errorf("engine name registry: %q is registered twice", name)
	}
	if other, clash := r.byID[id]; clash {
		return fmt.Errorf("engine name registry: %q and %q both hash to %s", name, other, FormatEngineID(id))
	}
	r.byName[name] = id
	r.byID[id] = name
	return nil
}

func (r *nameRegistry) has(name string) bool { _, ok := r.byName[name]; return ok }

func (r *nameRegistry) nameOf(id int64) (string, bool) { n, ok := r.byID[id]; return n, ok }

// builtinNames is hipDNN's central engine-name registry: the display fallback for engines
// whose plugin does not name them (plugins should name their own engines).
var builtinNames = func() *nameRegistry {
	r := &nameRegistry{}
	for _, name := range []string{
		"HIP_MLOPS_ENGINE",
		"HIPBLASLT_ENGINE",
		"MIOPEN_ENGINE",
		"MIOPEN_ENGINE_DETERMINISTIC",
		"ASM_SDPA_ENGINE",
		"ROCKE_ENGINE",
	} {
		if err := r.register(name); err != nil {
			panic(err)
		}
	}
	return r
}()

// BuiltinEngineName returns the registered name of id, if the central registry has one.
func BuiltinEngineName(id int64) (string, bool) { return builtinNames.nameOf(id) }
