package handle

import (
	"github.com/hipdnn-go/backend/internal/engines"
	"github.com/hipdnn-go/backend/internal/heuristics"
)

// plugins is what a handle holds from the plugin hosts: its own plugin handles (sessions) on
// the process-wide plugin sets (managers), which it keeps alive until it is destroyed.
type plugins struct {
	engineSet *engines.Manager
	engines   *engines.Session
	policySet *heuristics.Manager
	policies  *heuristics.Session
}

// open acquires the plugin sets, loading them if none is alive, and creates this handle's
// plugin handles. Plugin load failures are returned for the last error, never as an error.
func (p *plugins) open() ([]error, error) {
	em, loadErrs, err := engines.Acquire()
	if err != nil {
		return loadErrs, err
	}
	hm, heurErrs, err := heuristics.Acquire()
	if err != nil {
		em.Release()
		return append(loadErrs, heurErrs...), err
	}
	p.engineSet, p.engines = em, engines.NewSession(em)
	p.policySet, p.policies = hm, heuristics.NewSession(hm)
	return append(loadErrs, heurErrs...), nil
}

func (p *plugins) close() {
	p.engines.Close()
	p.policies.Close()
	p.engineSet.Release()
	p.policySet.Release()
}

func (p *plugins) setStream(s uintptr) error { return p.engines.SetStream(s) }

// Engines is this handle's engine plugin session.
func (h *Handle) Engines() *engines.Session { return h.engines }

// Policies is this handle's heuristic policy session.
func (h *Handle) Policies() *heuristics.Session { return h.policies }

// EngineSet is the engine plugin set the handle uses (enumeration, names).
func (h *Handle) EngineSet() *engines.Manager { return h.engineSet }

// PolicySet is the heuristic policy set the handle uses (enumeration).
func (h *Handle) PolicySet() *heuristics.Manager { return h.policySet }
