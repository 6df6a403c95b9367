package apptest

import (
	"strings"
	"sync"
	"testing"
)

// SyncWriter collects what a command prints.
type SyncWriter struct {
	mu sync.Mutex
	b  strings.Builder
}

// Write implements io.Writer.
func (w *SyncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

// String is everything written so far.
func (w *SyncWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// StartDemo runs `overwatch run` with the demo fleet (the simulator's
// backfill and live feed) and env, its standard output in out.
func StartDemo(t *testing.T, env map[string]string, out *SyncWriter) *TestServer {
	t.Helper()
	s := startCommandOut(t, "run", env, out)
	return s
}
