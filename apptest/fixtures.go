package apptest

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"overwatch"
	"overwatch/write/ingest"
	"strings"
	"sync"
	"testing"
	"time"
)

// UniqueEmail is an account email no other test uses.
func UniqueEmail(t *testing.T) string {
	return fmt.Sprintf("%s-%d@example.com", strings.ToLower(t.Name()), time.Now().UnixNano())
}

// Ptr is a pointer to a copy of v.
func Ptr[T any](v T) *T { return &v }

var imoSeq = struct {
	sync.Mutex
	n uint32
}{n: 800000}

// NextIMO returns a valid IMO number (check digit included) no other test
// uses.
func NextIMO() overwatch.IMO {
	imoSeq.Lock()
	defer imoSeq.Unlock()
	imoSeq.n++
	return overwatch.IMO(imoSeq.n*10 + overwatch.IMOCheckDigit(imoSeq.n))
}

// IngestReports writes reports through the real pipeline into the server's
// ClickHouse.
func (s *TestServer) IngestReports(t *testing.T, reports ...ingest.Report) {
	t.Helper()
	p, err := ingest.New(s.Ch, ingest.Options{SpoolDir: t.TempDir(), Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := p.Start(ctx); err != nil {
		t.Fatal(err)
	}
	for _, r := range reports {
		if err := p.Submit(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Close(ctx); err != nil {
		t.Fatal(err)
	}
}
