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

func (w *SyncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *SyncWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

func StartDemo(t *testing.T, env map[string]string, out *SyncWriter) *TestServer {
	t.Helper()
	s := startCommandOut(t, "run", env, out)
	return s
}
