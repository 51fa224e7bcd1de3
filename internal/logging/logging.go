// Package logging is the backend's logger: a zap core with hipDNN's line format, the global
// level (HIPDNN_LOG_LEVEL, hipdnnBackendSetGlobalLogLevel_ext), the output sink
// (HIPDNN_LOG_FILE or stderr), user callbacks (hipdnnSetUserLogCallback_ext) and the entry
// point other components push preformatted messages through (hipdnnLoggingCallback_ext).
//
// Lines look like
//
//	[2026-12-02 12:44:52.123] [tid 4711] [info] [hipdnn_backend] API called: [hipdnnCreate]
//
// The disabled path leaves first: Enabled is one atomic load, and callers on hot paths check it
// before formatting anything. With the level at OFF (the default) logging costs nothing else.
package logging

import (
	"fmt"
	"github.com/hipdnn-go/backend/internal/env"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"go.uber.org/zap/buffer"
	"go.uber.org/zap/zapcore"

	"github.com/hipdnn-go/backend/internal/api"
)

// Component prefix of the backend's own messages.
const backendPrefix = "[hipdnn_backend] "

// levelUnset marks a level not yet read from the environment.
const levelUnset = -1

var (
	level atomic.Int32 // api.Severity, or levelUnset

	// levelHooksMu serialises level changes with their hooks, so hooks see changes in order.
	levelHooksMu sync.Mutex
	levelHooks   []func(api.Severity)
)

func init() { level.Store(levelUnset) }

// ParseLevel reads a HIPDNN_LOG_LEVEL value: off, info, warn, error or fatal, trimmed and
// case-insensitive. ok is false for anything else.
func ParseLevel(s string) (api.Severity, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "off":
		return api.HIPDNN_SEV_OFF, true
	case "info":
		return api.HIPDNN_SEV_INFO, true
	case "warn":
		return api.HIPDNN_SEV_WARN, true
	case "error":
		return api.HIPDNN_SEV_ERROR, true
	case "fatal":
		return api.HIPDNN_SEV_FATAL, true
	}
	return api.HIPDNN_SEV_OFF, false
}

// Level returns the global level, reading HIPDNN_LOG_LEVEL on first use (unset or invalid: off).
func Level() api.Severity {
	l := level.Load()
	if l == levelUnset {
		sev, _ := ParseLevel(env.Get("HIPDNN_LOG_LEVEL"))
		level.CompareAndSwap(levelUnset, int32(sev))
		l = level.Load()
	}
	return api.Severity(l)
}

// SetLevel sets the global level (it overrides the environment) and tells the level hooks.
func SetLevel(sev api.Severity) {
	levelHooksMu.Lock()
	defer levelHooksMu.Unlock()
	level.Store(int32(sev))
	for _, h := range levelHooks {
		h(sev)
	}
}

// OnLevelChange registers f to be called with the new level after every SetLevel; the plugin
// host uses it to push the level to loaded plugins.
func OnLevelChange(f func(api.Severity)) {
	levelHooksMu.Lock()
	levelHooks = append(levelHooks, f)
	levelHooksMu.Unlock()
}

// WatchLevel is OnLevelChange that also calls f with the current level, in the same critical
// section, so f never sees an older level after a newer one.
func WatchLevel(f func(api.Severity)) {
	levelHooksMu.Lock()
	defer levelHooksMu.Unlock()
	levelHooks = append(levelHooks, f)
	f(Level())
}

// Enabled reports whether a message of this severity would be emitted.
func Enabled(sev api.Severity) bool {
	l := api.Severity(level.Load())
	if l == levelUnset {
		l = Level()
	}
	return l != api.HIPDNN_SEV_OFF && sev >= l && sev < api.HIPDNN_SEV_OFF
}

// Info, Warn and Error log a backend message (prefixed "[hipdnn_backend] ") if enabled.
func Info(msg string)  { Backend(api.HIPDNN_SEV_INFO, msg) }
func Warn(msg string)  { Backend(api.HIPDNN_SEV_WARN, msg) }
func Error(msg string) { Backend(api.HIPDNN_SEV_ERROR, msg) }

// Infof, Warnf and Errorf format only when the severity is enabled.
func Infof(format string, args ...any)  { backendf(api.HIPDNN_SEV_INFO, format, args) }
func Warnf(format string, args ...any)  { backendf(api.HIPDNN_SEV_WARN, format, args) }
func Errorf(format string, args ...any) { backendf(api.HIPDNN_SEV_ERROR, format, args) }

func backendf(sev api.Severity, format string, args []any) {
	if Enabled(sev) {
		Emit(sev, backendPrefix+fmt.Sprintf(format, args...))
	}
}

// Backend logs one of the backend's own messages.
func Backend(sev api.Severity, msg string) {
	if Enabled(sev) {
		Emit(sev, backendPrefix+msg)
	}
}

// External logs a preformatted message from another component (hipdnnLoggingCallback_ext:
// the frontend or a plugin). A message logged from inside a synchronous user callback on the
// same thread is re-entrant: it is printed to stderr and dropped, so a callback that logs
// cannot recurse forever.
func External(sev api.Severity, msg string) {
	if !Enabled(sev) {
		return
	}
	Emit(sev, msg)
}

// Emit writes one message through the zap core: to the sink and to the user callbacks whose
// minimum level it meets. The caller has checked Enabled.
func Emit(sev api.Severity, msg string) {
	tid := syscall.Gettid()
	if delivering(tid) {
		fmt.Fprintf(os.Stderr, "%sre-entrant log message from a user log callback dropped: %s\n", backendPrefix, msg)
		return
	}
	c := theCore()
	ent := zapcore.Entry{Level: zapLevel(sev), Time: time.Now(), Message: msg}
	if ce := c.Check(ent, nil); ce != nil {
		ce.Write(zapcore.Field{Key: tidKey, Type: zapcore.Int64Type, Integer: int64(tid)})
	}
}

// zapLevel maps hipDNN severities onto zap levels (FATAL is logged, never exits: the core is
// used directly, without a zap.Logger's fatal hook).
func zapLevel(sev api.Severity) zapcore.Level {
	switch sev {
	case api.HIPDNN_SEV_WARN:
		return zapcore.WarnLevel
	case api.HIPDNN_SEV_ERROR:
		return zapcore.ErrorLevel
	case api.HIPDNN_SEV_FATAL:
		return zapcore.FatalLevel
	}
	return zapcore.InfoLevel
}

func severityOf(l zapcore.Level) api.Severity {
	switch l {
	case zapcore.WarnLevel:
		return api.HIPDNN_SEV_WARN
	case zapcore.ErrorLevel:
		return api.HIPDNN_SEV_ERROR
	case zapcore.FatalLevel, zapcore.PanicLevel, zapcore.DPanicLevel:
		return api.HIPDNN_SEV_FATAL
	}
	return api.HIPDNN_SEV_INFO
}

// levelName is the level word of a line (spdlog's names, as AMD's lines use).
func levelName(sev api.Severity) string {
	switch sev {
	case api.HIPDNN_SEV_WARN:
		return "warn"
	case api.HIPDNN_SEV_ERROR:
		return "error"
	case api.HIPDNN_SEV_FATAL:
		return "critical"
	}
	return "info"
}

const tidKey = "tid"

// FormatLine renders a message in hipDNN's line format (no trailing newline).
func FormatLine(buf *buffer.Buffer, t time.Time, tid int64, sev api.Severity, msg string) {
	buf.AppendByte('[')
	buf.AppendString(t.Format("2006-01-02 15:04:05.000"))
	buf.AppendString("] [tid ")
	buf.AppendInt(tid)
	buf.AppendString("] [")
	buf.AppendString(levelName(sev))
	buf.AppendString("] ")
	buf.AppendString(msg)
}
