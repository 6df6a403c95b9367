package history

import (
	"context"
	"errors"
	"sync"
	"testing"

	"overwatch"
	"overwatch/write/ingest"
)

// memLedger keeps records in memory, as the history_imports table does.
type memLedger struct {
	mu   sync.Mutex
	recs map[string]Record
	all  []Record
}

func (l *memLedger) ImportRecord(_ context.Context, key string) (Record, bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	r, ok := l.recs[key]
	return r, ok, nil
}

func (l *memLedger) SaveImport(_ context.Context, r Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.recs == nil {
		l.recs = map[string]Record{}
	}
	l.recs[r.Key] = r
	l.all = append(l.all, r)
	return nil
}

// memSink keeps the reports; it cancels the import after stopAfter of them
// when set.
type memSink struct {
	reports   []ingest.Report
	stopAfter int
	cancel    context.CancelFunc
	closed    int
}

func (s *memSink) SubmitBatch(ctx context.Context, rs []ingest.Report) (int, error) {
	for i, r := range rs {
		if err := ctx.Err(); err != nil {
			return i, err
		}
		if s.stopAfter > 0 && len(s.reports) == s.stopAfter {
			s.cancel()
			return i, context.Canceled
		}
		s.reports = append(s.reports, r)
	}
	return len(rs), nil
}

func (s *memSink) Close(context.Context) error { s.closed++; return nil }

// TestImporterLedger: a file imported whole is recorded complete and
// skipped the next time unless forced; an import interrupted after some
// rows is recorded with them and the next run resumes after them, so that
// the two runs together hand over exactly the reports of one whole run.
func TestImporterLedger(t *testing.T) {
	t.Parallel()
	path := "testdata/noaa_marinecadastre_2024-01-01_499rows.csv"
	ledger := &memLedger{}
	whole := &memSink{}
	im := &Importer{Sink: whole, Ledger: ledger, Source: overwatch.SourceAISHub}
	out, err := im.Run(context.Background(), []string{path})
	if err != nil || len(out) != 1 || out[0].Status != Complete || out[0].Stats.Rows != 499 || whole.closed != 1 {
		t.Fatalf("%+v %v", out, err)
	}
	out, err = im.Run(context.Background(), []string{path})
	if err != nil || !out[0].AlreadyImported || len(whole.reports) != 998 {
		t.Fatalf("second run: %+v %v, %d reports", out, err, len(whole.reports))
	}
	im.Force = true
	if out, err = im.Run(context.Background(), []string{path}); err != nil || out[0].AlreadyImported || len(whole.reports) != 2*998 {
		t.Fatalf("forced run: %+v %v, %d reports", out, err, len(whole.reports))
	}

	ledger = &memLedger{}
	ctx, cancel := context.WithCancel(context.Background())
	part := &memSink{stopAfter: 301, cancel: cancel}
	im = &Importer{Sink: part, Ledger: ledger, Source: overwatch.SourceAISHub}
	out, err = im.Run(ctx, []string{path})
	if !errors.Is(err, context.Canceled) || out[0].Status != Interrupted || out[0].Resume == 0 {
		t.Fatalf("interrupted run: %+v %v", out, err)
	}
	rest := &memSink{}
	im.Sink = rest
	if out, err = im.Run(context.Background(), []string{path}); err != nil || out[0].Status != Complete {
		t.Fatalf("resumed run: %+v %v", out, err)
	}
	// The row cut in the middle gives its static report twice (before and
	// after the interruption): the pipeline deduplicates it.
	got := map[ingest.Report]int{}
	for _, r := range append(part.reports, rest.reports...) {
		got[r]++
	}
	want := map[ingest.Report]int{}
	for _, r := range whole.reports[:998] {
		want[r]++
	}
	for r, n := range want {
		if got[r] == 0 {
			t.Errorf("report lost: MMSI %d type %d at %v (%d)", r.MMSI, r.Type, r.TS, n)
		}
	}
	if extra := len(part.reports) + len(rest.reports) - 998; extra < 0 || extra > 1 {
		t.Errorf("%d + %d reports, want 998 and at most one again", len(part.reports), len(rest.reports))
	}
}

// TestImporterBrokenFile: a file that is not an archive fails at once; the
// ledger records it as failed, and the files after it are not read.
func TestImporterBrokenFile(t *testing.T) {
	t.Parallel()
	ledger, sink := &memLedger{}, &memSink{}
	im := &Importer{Sink: sink, Ledger: ledger, Source: overwatch.SourceAISHub}
	_, err := im.Run(context.Background(), []string{"testdata/README.md", "testdata/noaa_marinecadastre_2022-03-31_51rows.csv"})
	var fe *FileError
	if !errors.As(err, &fe) || fe.Line == 0 || len(sink.reports) != 0 || sink.closed != 1 {
		t.Fatalf("%v, %d reports", err, len(sink.reports))
	}
	if len(ledger.all) != 1 || ledger.all[0].Status != Failed || ledger.all[0].Error == "" {
		t.Errorf("ledger %+v", ledger.all)
	}
}
