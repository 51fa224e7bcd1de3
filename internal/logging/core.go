package logging

import (
	"fmt"
	"github.com/hipdnn-go/backend/internal/env"
	"io"
	"os"
	"strings"
	"sync"

	"go.uber.org/zap/buffer"
	"go.uber.org/zap/zapcore"
)

var linePool = buffer.NewPool()

// core is the zap core behind Emit: it formats the line once and hands it to the output sink
// and to the user callbacks. Level filtering happened before (Enabled); Enabled here only
// re-checks so the core also works when used through a zap.Logger.
type core struct {
	mu  sync.Mutex // serialises writes so lines never interleave
	out zapcore.WriteSyncer
}

var (
	coreOnce sync.Once
	theCoreV *core
)

// theCore opens the sink on first use: HIPDNN_LOG_FILE (appended to, never truncated) when it
// is set and non-empty after trimming, else stderr.
func theCore() *core {
	coreOnce.Do(func() {
		var out zapcore.WriteSyncer = zapcore.AddSync(os.Stderr)
		if path := strings.TrimSpace(env.Get("HIPDNN_LOG_FILE")); path != "" {
			f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err != nil {
				fmt.Fprintf(os.Stderr, "%scannot open HIPDNN_LOG_FILE %q (%v); logging to stderr\n", backendPrefix, path, err)
			} else {
				out = zapcore.AddSync(f)
			}
		}
		theCoreV = &core{out: out}
	})
	return theCoreV
}

// SetOutput replaces the sink (tests, tools). It returns the previous one.
func SetOutput(w io.Writer) io.Writer {
	c := theCore()
	c.mu.Lock()
	defer c.mu.Unlock()
	prev := c.out
	c.out = zapcore.AddSync(w)
	return prev
}

func (c *core) Enabled(l zapcore.Level) bool      { return Enabled(severityOf(l)) }
func (c *core) With([]zapcore.Field) zapcore.Core { return c }
func (c *core) Sync() error                       { return c.out.Sync() }
func (c *core) Check(e zapcore.Entry, ce *zapcore.CheckedEntry) *zapcore.CheckedEntry {
	if c.Enabled(e.Level) {
		return ce.AddCore(e, c)
	}
	return ce
}

func (c *core) Write(e zapcore.Entry, fields []zapcore.Field) error {
	var tid int64
	for _, f := range fields {
		if f.Key == tidKey {
			tid = f.Integer
		}
	}
	sev := severityOf(e.Level)
	buf := linePool.Get()
	defer buf.Free()
	FormatLine(buf, e.Time, tid, sev, e.Message)
	line := buf.String()
	buf.AppendByte('\n')
	c.mu.Lock()
	_, err := c.out.Write(buf.Bytes())
	c.mu.Unlock()
	deliverToUsers(sev, line)
	return err
}
