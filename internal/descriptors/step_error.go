package descriptors

import "github.com/hipdnn-go/backend/internal/status"

// Kind callbacks (Finalize, OnSet, Validate, BeforeSet, Compute, CustomGet) report failures
// without the "<Class>::<step>() failed: " prefix AMD's messages carry; the generic
// Finalize, SetAttribute and GetAttribute know the class and the step and add it.

// stepError is a callback's failure waiting for its prefix. Unwrapped (errors.As), it is the
// status error itself, so one that is not prefixed still maps to its status and message.
type stepError struct{ error }

func (e *stepError) Unwrap() error { return e.error }

// stepf makes a callback failure: stepf(status.BadParam, "dimension %d is %d", i, d).
func stepf[E error](mk func(format string, args ...any) E, format string, args ...any) error {
	return &stepError{mk(format, args...)}
}

// stepWrap marks an error from elsewhere (a plugin, a nested call) as the callback's failure.
func stepWrap(err error) error {
	if err == nil {
		return nil
	}
	return &stepError{err}
}

// prefixStep gives a callback failure its prefix; other errors pass unchanged.
func prefixStep(err error, h *Header, step string) error {
	se, ok := err.(*stepError)
	if !ok {
		return err
	}
	return &status.Error{Code: status.Code(se.error), Msg: h.spec.Class + "::" + step + "() failed: " + se.error.Error()}
}
