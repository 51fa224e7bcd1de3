package descriptors

import (
	"strings"

	"github.com/hipdnn-go/backend/internal/status"
)

// Finalize is hipdnnBackendFinalize for any descriptor: it rejects a second finalize where the
// kind says so, reports every required attribute that was never set, then runs the kind's own
// validation. The descriptor is finalized only if all of that succeeds.
func Finalize(o Object) error {
	h := o.header()
	if h.finalized && h.spec.RejectRefinalize {
		return status.BadParam("%s::finalize() failed: Already finalized.", h.spec.Class)
	}
	var missing []string
	for _, a := range h.spec.Attrs {
		if a.Required && !isSet(o, a) {
			missing = append(missing, a.Name.String())
		}
	}
	if len(missing) > 0 {
		return status.BadParam("%s::finalize() failed: required attribute(s) not set: %s", h.spec.Class, strings.Join(missing, ", "))
	}
	if h.spec.Finalize != nil {
		if err := h.spec.Finalize(o); err != nil {
			return prefixStep(err, h, "finalize")
		}
	}
	h.finalized = true
	return nil
}

func isSet(o Object, a *Attr) bool {
	switch {
	case a.IsSet != nil:
		return a.IsSet(o)
	case a.slot >= 0:
		return o.header().vals[a.slot].Set
	}
	return true
}
