package engines

// This file holds only the package's cgo export (a file with //export may declare, not define,
// C in its preamble). It is the fallback log sink plugins get when the backend's own
// hipdnnLoggingCallback_ext is not linked into this object, i.e. inside go test.

// #include <stdlib.h>
import "C"

import (
	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/logging"
)

//export hdEnginesForwardLog
func hdEnginesForwardLog(severity C.int, message *C.char) {
	sev := api.Severity(severity)
	if !logging.Enabled(sev) {
		return
	}
	logging.External(sev, C.GoString(message))
}
