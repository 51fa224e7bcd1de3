// Package status holds the one error type of the backend: a hipdnnStatus_t and a message.
//
// Internal code returns *Error (or an error wrapping one); only capi/ turns it into the
// status a C caller sees and into the calling thread's last-error text. Constructors exist for
// the statuses the backend produces; messages say what was wrong and quote the bad value.
package status

import (
	"errors"
	"fmt"

	"github.com/hipdnn-go/backend/internal/api"
)

// Error is a failure with the status the C API reports for it.
type Error struct {
	Code api.Status
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

// New returns an error with the given status and message.
func New(code api.Status, msg string) *Error { return &Error{Code: code, Msg: msg} }

// Errorf formats the message like fmt.Sprintf.
func Errorf(code api.Status, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// BadParam reports an invalid argument or attribute value (HIPDNN_STATUS_BAD_PARAM).
func BadParam(format string, args ...any) *Error {
	return Errorf(api.HIPDNN_STATUS_BAD_PARAM, format, args...)
}

// NullPointer reports a NULL pointer where one is required (BAD_PARAM_NULL_POINTER).
func NullPointer(format string, args ...any) *Error {
	return Errorf(api.HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, format, args...)
}

// NotFinalized reports a descriptor argument that must have been finalized.
func NotFinalized(format string, args ...any) *Error {
	return Errorf(api.HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED, format, args...)
}

// SizeInsufficient reports a caller buffer that is too small.
func SizeInsufficient(format string, args ...any) *Error {
	return Errorf(api.HIPDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT, format, args...)
}

// NotInitialized reports use of a descriptor in the wrong finalize state.
func NotInitialized(format string, args ...any) *Error {
	return Errorf(api.HIPDNN_STATUS_NOT_INITIALIZED, format, args...)
}

// NotSupported reports a missing feature; the message must name the feature.
func NotSupported(format string, args ...any) *Error {
	return Errorf(api.HIPDNN_STATUS_NOT_SUPPORTED, format, args...)
}

// Internal reports a failure inside the backend.
func Internal(format string, args ...any) *Error {
	return Errorf(api.HIPDNN_STATUS_INTERNAL_ERROR, format, args...)
}

// Plugin reports a failure reported by a plugin.
func Plugin(format string, args ...any) *Error {
	return Errorf(api.HIPDNN_STATUS_PLUGIN_ERROR, format, args...)
}

// Code returns the status an error maps to: the Code of the *Error it is or wraps,
// SUCCESS for nil, INTERNAL_ERROR for any other error.
func Code(err error) api.Status {
	if err == nil {
		return api.HIPDNN_STATUS_SUCCESS
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return api.HIPDNN_STATUS_INTERNAL_ERROR
}

// Wrap prefixes an error's message with context while keeping its status.
func Wrap(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	return &Error{Code: Code(err), Msg: fmt.Sprintf(format, args...) + ": " + err.Error()}
}
