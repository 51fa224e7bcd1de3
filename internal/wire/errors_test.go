package wire

import "errors"

func isUnsupported(err error) bool {
	return err != nil && errors.Is(err, ErrUnsupported) && !errors.Is(err, ErrMalformed)
}

func isMalformed(err error) bool {
	return err != nil && errors.Is(err, ErrMalformed) && !errors.Is(err, ErrUnsupported)
}
