package logging

import (
	"bytes"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hipdnn-go/backend/internal/api"
)

// captureOutput routes the sink to a buffer for one test and restores level and sink after.
func captureOutput(t *testing.T, sev api.Severity) *syncBuffer {
	t.Helper()
	buf := &syncBuffer{}
	prev := SetOutput(buf)
	prevLevel := Level()
	SetLevel(sev)
	t.Cleanup(func() {
		SetOutput(prev)
		SetLevel(prevLevel)
	})
	return buf
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestParseLevel(t *testing.T) {
	tests := []struct {
		give   string
		want   api.Severity
		wantOK bool
	}{
		{"off", api.HIPDNN_SEV_OFF, true},
		{" INFO ", api.HIPDNN_SEV_INFO, true},
		{"Warn", api.HIPDNN_SEV_WARN, true},
		{"error\n", api.HIPDNN_SEV_ERROR, true},
		{"fatal", api.HIPDNN_SEV_FATAL, true},
		{"verbose", api.HIPDNN_SEV_OFF, false},
		{"", api.HIPDNN_SEV_OFF, false},
	}
	for _, tt := range tests {
		got, ok := ParseLevel(tt.give)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("ParseLevel(%q) = %v, %v; want %v, %v", tt.give, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestLevelGatesMessages(t *testing.T) {
	buf := captureOutput(t, api.HIPDNN_SEV_WARN)
	Info("not shown")
	Warn("shown warn")
	Error("shown error")
	Backend(api.HIPDNN_SEV_FATAL, "shown fatal")
	out := buf.String()
	if strings.Contains(out, "not shown") {
		t.Errorf("INFO message emitted at level WARN:\n%s", out)
	}
	for _, want := range []string{"[warn] [hipdnn_backend] shown warn", "[error] [hipdnn_backend] shown error", "[critical] [hipdnn_backend] shown fatal"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	SetLevel(api.HIPDNN_SEV_OFF)
	Error("off")
	if strings.Contains(buf.String(), "off") {
		t.Error("message emitted at level OFF")
	}
}

func TestLineFormat(t *testing.T) {
	buf := captureOutput(t, api.HIPDNN_SEV_INFO)
	Infof("API called: [%s]", "hipdnnCreate")
	line := strings.TrimRight(buf.String(), "\n")
	re := regexp.MustCompile(`^\[\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}\] \[tid \d+\] \[info\] \[hipdnn_backend\] API called: \[hipdnnCreate\]$`)
	if !re.MatchString(line) {
		t.Fatalf("line %q does not match the hipDNN format", line)
	}
}

type recordingSink struct {
	mu    sync.Mutex
	lines []string
	sevs  []api.Severity
	hook  func()
}

func (r *recordingSink) Deliver(sev api.Severity, line string) {
	r.mu.Lock()
	r.lines = append(r.lines, line)
	r.sevs = append(r.sevs, sev)
	r.mu.Unlock()
	if r.hook != nil {
		r.hook()
	}
}

func (r *recordingSink) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.lines)
}

func TestUserCallbackSyncFiltersAndRemoves(t *testing.T) {
	captureOutput(t, api.HIPDNN_SEV_INFO)
	sink := &recordingSink{}
	key := UserKey{Callback: 1, Handle: 2}
	if err := SetUserCallback(key, sink, api.HIPDNN_SEV_WARN, false); err != nil {
		t.Fatal(err)
	}
	Info("below the callback's level")
	Warn("at the callback's level")
	if sink.count() != 1 || !strings.Contains(sink.lines[0], "at the callback's level") || sink.sevs[0] != api.HIPDNN_SEV_WARN {
		t.Fatalf("delivered %q %v", sink.lines, sink.sevs)
	}
	// Re-registering the same key updates its level.
	if err := SetUserCallback(key, sink, api.HIPDNN_SEV_INFO, false); err != nil {
		t.Fatal(err)
	}
	Info("now delivered")
	if sink.count() != 2 {
		t.Fatalf("after update got %d lines", sink.count())
	}
	if err := SetUserCallback(key, nil, api.HIPDNN_SEV_OFF, false); err != nil {
		t.Fatal(err)
	}
	Error("after removal")
	if sink.count() != 2 {
		t.Fatalf("delivered after removal: %q", sink.lines)
	}
	if err := SetUserCallback(key, nil, api.HIPDNN_SEV_OFF, false); err != ErrNotRegistered {
		t.Fatalf("second removal err = %v, want ErrNotRegistered", err)
	}
}

func TestUserCallbackAsyncAndNoCallAfterRemoval(t *testing.T) {
	captureOutput(t, api.HIPDNN_SEV_INFO)
	var calls atomic.Int64
	sink := &recordingSink{hook: func() { calls.Add(1); time.Sleep(time.Millisecond) }}
	key := UserKey{Callback: 3, Handle: 4}
	if err := SetUserCallback(key, sink, api.HIPDNN_SEV_INFO, true); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 20; i++ {
		Info("async message")
	}
	if err := SetUserCallback(key, nil, api.HIPDNN_SEV_OFF, true); err != nil {
		t.Fatal(err)
	}
	after := calls.Load()
	FlushAsync()
	time.Sleep(5 * time.Millisecond)
	if calls.Load() != after {
		t.Fatalf("callback ran %d more times after removal returned", calls.Load()-after)
	}
}

func TestReentrantLogFromCallbackIsDropped(t *testing.T) {
	buf := captureOutput(t, api.HIPDNN_SEV_INFO)
	key := UserKey{Callback: 5, Handle: 6}
	sink := &recordingSink{}
	sink.hook = func() { External(api.HIPDNN_SEV_INFO, "[plugin] nested") }
	if err := SetUserCallback(key, sink, api.HIPDNN_SEV_INFO, false); err != nil {
		t.Fatal(err)
	}
	defer SetUserCallback(key, nil, api.HIPDNN_SEV_OFF, false)
	Info("outer")
	if sink.count() != 1 {
		t.Fatalf("callback saw %d lines, want only the outer one: %q", sink.count(), sink.lines)
	}
	if strings.Contains(buf.String(), "nested") {
		t.Fatalf("re-entrant message reached the sink:\n%s", buf.String())
	}
}

func TestSelfRemovalInsideCallbackDoesNotDeadlock(t *testing.T) {
	captureOutput(t, api.HIPDNN_SEV_INFO)
	key := UserKey{Callback: 7, Handle: 8}
	sink := &recordingSink{}
	sink.hook = func() {
		if err := SetUserCallback(key, nil, api.HIPDNN_SEV_OFF, false); err != nil {
			t.Errorf("self-removal: %v", err)
		}
	}
	if err := SetUserCallback(key, sink, api.HIPDNN_SEV_INFO, false); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { Info("trigger"); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("self-removal from inside the callback deadlocked")
	}
	Info("after")
	if sink.count() != 1 {
		t.Fatalf("got %d deliveries, want 1", sink.count())
	}
}

func TestLevelHooks(t *testing.T) {
	prev := Level()
	defer SetLevel(prev)
	var got api.Severity = -1
	OnLevelChange(func(s api.Severity) { got = s })
	SetLevel(api.HIPDNN_SEV_ERROR)
	if got != api.HIPDNN_SEV_ERROR {
		t.Fatalf("hook saw %v", got)
	}
}

func BenchmarkDisabledInfo(b *testing.B) {
	prev := Level()
	SetLevel(api.HIPDNN_SEV_OFF)
	defer SetLevel(prev)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Info("API called: [hipdnnBackendExecute]")
	}
}
