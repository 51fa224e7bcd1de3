package heuristics

import (
	"github.com/hipdnn-go/backend/internal/env"
	"strings"

	"github.com/hipdnn-go/backend/internal/logging"
)

// Canonical names of the policies this package knows by name. A policy is identified by
// PolicyNameToID of its name; there are no numeric priorities.
const (
	PolicyConfig         = "SelectionHeuristic::Config"
	PolicyStaticOrdering = "SelectionHeuristic::StaticOrdering"
	PolicyModeA          = "SelectionHeuristic::ModeA"
	PolicyModeB          = "SelectionHeuristic::ModeB"
)

// Environment variables read by the policy framework.
const (
	EnvPolicyOrder         = "HIPDNN_HEUR_POLICY_ORDER"
	EnvRankingMetric       = "HIPDNN_HEUR_RANKING_METRIC"
	EnvConfigPath          = "HIPDNN_HEUR_CONFIG_PATH"
	EnvFallbackEngineOrder = "HIPDNN_HEUR_FALLBACK_ENGINE_ORDER"
	EnvPreferredEngine     = "HIPDNN_PREFERRED_ENGINE"
	EnvPluginDir           = "HIPDNN_HEURISTIC_PLUGIN_DIR"
)

// getenv is the environment seam of the package (env.Get in production: the C environment as it is now).
var getenv = env.Get

// secureExecution is the secure-execution seam (env.SecureExecution in production).
var secureExecution = env.SecureExecution

// FNV-1a-64 parameters (plugin_api.md §4.1).
const (
	fnvOffsetBasis uint64 = 0xcbf29ce484222325
	fnvPrime       uint64 = 0x100000001b3
)

// PolicyNameToID hashes a policy name to its id: 64-bit FNV-1a over the name's bytes,
// reinterpreted as a signed int64. The empty name is 0, not the offset basis. It is the same
// function that turns engine names into engine ids. It does not allocate.
func PolicyNameToID(name string) int64 {
	if name == "" {
		return 0
	}
	h := fnvOffsetBasis
	for i := 0; i < len(name); i++ {
		h ^= uint64(name[i])
		h *= fnvPrime
	}
	return int64(h)
}

// DefaultOrder is the policy order used when neither HIPDNN_HEUR_POLICY_ORDER nor the
// descriptor's POLICY_ORDER_EXT attribute says otherwise: Config, then StaticOrdering
// ([0x79DAC33209E0D5C1, 0xB90B95E3C49B021D] as signed int64). Callers must not modify it.
var DefaultOrder = []int64{PolicyNameToID(PolicyConfig), PolicyNameToID(PolicyStaticOrdering)}

// Order sources reported by ResolvePolicyOrder.
const (
	OrderFromEnv       = "env"
	OrderFromAttribute = "attribute"
	OrderFromDefault   = "default"
)

// isListSpace reports the characters tokens of the comma lists are trimmed of.
func isListSpace(r rune) bool { return r == ' ' || r == '\t' || r == '\r' || r == '\n' }

// splitList splits a comma list into tokens trimmed of space, tab, CR and LF, dropping
// empty tokens.
func splitList(s string) []string {
	var out []string
	for _, tok := range strings.Split(s, ",") {
		if tok = strings.TrimFunc(tok, isListSpace); tok != "" {
			out = append(out, tok)
		}
	}
	return out
}

// ParsePolicyOrder reads a HIPDNN_HEUR_POLICY_ORDER value: a comma-separated list whose tokens
// are trimmed of space, tab, CR and LF; empty tokens are skipped. A token is a raw policy id
// only when C's strtoll in base 10 consumes all of it (leading white space and one sign
// allowed, out-of-range values saturate as strtoll's do); any other token is a policy name
// and is hashed with PolicyNameToID. Negative ids are allowed. An empty or blank s gives nil.
func ParsePolicyOrder(s string) []int64 {
	toks := splitList(s)
	if len(toks) == 0 {
		return nil
	}
	out := make([]int64, 0, len(toks))
	for _, tok := range toks {
		if id, ok := strtollWhole(tok); ok {
			out = append(out, id)
		} else {
			out = append(out, PolicyNameToID(tok))
		}
	}
	return out
}

// strtollWhole mimics strtoll(s, &end, 10) followed by the check *end == '\0': leading C
// white space, an optional sign, at least one decimal digit and nothing after the digits.
// Values beyond the int64 range saturate to the nearest limit (strtoll's ERANGE result).
func strtollWhole(s string) (int64, bool) {
	i := 0
	for i < len(s) && (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r')) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	start := i
	var mag uint64 // magnitude, capped just above the representable range
	const limit = uint64(1) << 63
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		if mag > limit/10 {
			mag = limit + 1 // saturated: stays above every representable magnitude
		} else if mag = mag*10 + uint64(s[i]-'0'); mag > limit {
			mag = limit + 1
		}
		i++
	}
	if i == start || i != len(s) {
		return 0, false
	}
	switch {
	case neg && mag >= limit:
		return -1 << 63, true
	case neg:
		return -int64(mag), true
	case mag >= limit:
		return 1<<63 - 1, true
	}
	return int64(mag), true
}

// ResolvePolicyOrder decides the policy order of one engine-heuristic finalize:
// HIPDNN_HEUR_POLICY_ORDER when it is set and not blank (parsed by ParsePolicyOrder; a value
// of only commas gives an empty order), else the descriptor attribute when it was ever set
// (attrSet), even to an empty list, else DefaultOrder, with a warning logged. source is
// OrderFromEnv, OrderFromAttribute or OrderFromDefault. The returned slice is never shared
// with attr or DefaultOrder.
func ResolvePolicyOrder(attr []int64, attrSet bool) (order []int64, source string) {
	if env := getenv(EnvPolicyOrder); strings.TrimFunc(env, isListSpace) != "" {
		order = ParsePolicyOrder(env)
		if order == nil {
			order = []int64{}
		}
		return order, OrderFromEnv
	}
	if attrSet {
		return append([]int64{}, attr...), OrderFromAttribute
	}
	logging.Warnf("No heuristic policy order given (%s unset, POLICY_ORDER_EXT not set): using the default order [%s, %s]",
		EnvPolicyOrder, PolicyConfig, PolicyStaticOrdering)
	return append([]int64{}, DefaultOrder...), OrderFromDefault
}
