package wire

import (
	"errors"
	"fmt"
)

// ErrMalformed is wrapped by every error that reports input which breaks the
// wire format or the JSON dialect: truncated or misaligned buffers, offsets
// that leave the buffer, wrong JSON types, missing required keys, integers
// out of range. Callers map it to HIPDNN_STATUS_BAD_PARAM.
var ErrMalformed = errors.New("malformed graph")

// ErrUnsupported is wrapped by every error that reports a well-formed input
// naming something this build does not know: a node type (union tag or JSON
// "type"), an enum value or spelling, a data type or a tensor value kind that
// a newer frontend may write. Callers map it to HIPDNN_STATUS_NOT_SUPPORTED.
var ErrUnsupported = errors.New("not supported by this build")

// codecError carries a message and the class it belongs to. Error returns the
// message alone, so texts stay short; errors.Is sees the class via Unwrap.
type codecError struct {
	class error
	msg   string
}

func (e *codecError) Error() string { return e.msg }
func (e *codecError) Unwrap() error { return e.class }

func malformedf(format string, args ...any) error {
	return &codecError{class: ErrMalformed, msg: fmt.Sprintf(format, args...)}
}

func unsupportedf(format string, args ...any) error {
	return &codecError{class: ErrUnsupported, msg: fmt.Sprintf(format, args...)}
}

// prefixed keeps the class of err and puts context in front of its message.
func prefixed(err error, format string, args ...any) error {
	var ce *codecError
	if errors.As(err, &ce) {
		return &codecError{class: ce.class, msg: fmt.Sprintf(format, args...) + ": " + ce.msg}
	}
	return &codecError{class: ErrMalformed, msg: fmt.Sprintf(format, args...) + ": " + err.Error()}
}
