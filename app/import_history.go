package app

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"overwatch"
	"overwatch/clickhouse"
	"overwatch/write/history"
	"overwatch/write/ingest"
)

const importHistoryUsage = `usage: overwatch import history [--source PROVIDER] [--format FORMAT] [--force] FILE...
  FILE       plain, .gz or .zip (every entry in order)
  --source   the provider the rows are stored under: aishub (default), aisstream,
             satellite or spire
  --format   auto (default: from the header), marinecadastre, dma, barentswatch,
             gfw, nmea or csv
  --force    import again files already imported completely
`

// importHistory runs `overwatch import history`: each file streams through
// the ingest pipeline into the tables the live feeds write, attributed to
// IMOs the same way; the ledger (history_imports) records each file, so
// that a file imported whole is skipped and an interrupted one resumed.
func importHistory(ctx context.Context, cfg Config, log *slog.Logger, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("import history", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	source := fs.String("source", string(overwatch.SourceAISHub), "")
	format := fs.String("format", string(history.Auto), "")
	force := fs.Bool("force", false, "")
	if err := fs.Parse(args); err != nil || fs.NArg() == 0 {
		if err != nil {
			fmt.Fprintf(stderr, "overwatch import history: %v\n", err)
		}
		fmt.Fprint(stderr, importHistoryUsage)
		return ErrUsage
	}
	src, ok := overwatch.ParseSource(*source)
	if !ok {
		fmt.Fprintf(stderr, "overwatch import history: unknown provider %q\n%s", *source, importHistoryUsage)
		return ErrUsage
	}
	f, err := history.ParseFormat(*format)
	if err != nil {
		fmt.Fprintf(stderr, "overwatch import history: %v\n%s", err, importHistoryUsage)
		return ErrUsage
	}
	for _, path := range fs.Args() {
		if _, err := os.Stat(path); err != nil {
			return err
		}
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		// A soft limit: the collector works harder near it rather than
		// letting the heap double, so that a long import stays within
		// its memory budget whatever the file size. The command puts
		// the process's limit back when it returns: run in process (the
		// test suites run commands as functions), it would otherwise
		// hold every later test to 200 MB and keep the collector busy.
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(200 << 20))
	}
	ch, err := clickhouse.Open(cfg.ClickHouseURL)
	if err != nil {
		return err
	}
	defer ch.Close()
	if _, err := ch.Migrate(ctx); err != nil {
		return err
	}
	// Batches twice the live default: fewer, larger inserts (and
	// parts for ClickHouse to merge) for a bulk load; two of them in
	// memory at a time stay far below 300 MB.
	p, err := ingest.New(ch, ingest.Options{SpoolDir: cfg.SpoolDir, AttributionWindow: cfg.AttributionWindow, Log: log,
		BatchSize: 100_000, FlushInterval: 5 * time.Second})
	if err != nil {
		return err
	}
	if err := p.Start(ctx); err != nil {
		return err
	}
	im := &history.Importer{Sink: p, Ledger: ch, Format: f, Source: src, Force: *force}
	if bar := newImportBar(stderr, fs.Args()); bar != nil {
		im.Progress = bar.update
		defer bar.finish()
	}
	start := time.Now()
	recs, runErr := im.Run(ctx, fs.Args())
	elapsed := time.Since(start)
	printImportSummary(stdout, recs, p.Stats(), elapsed)
	return runErr
}

// importBar is the progress bar of an import on a terminal: bytes of the
// files read (for the ETA), rows and rows per second.
type importBar struct {
	bar   *progressbar.ProgressBar
	sizes map[string]int64 // file -> bytes of the files before it
	start time.Time
	rows  uint64 // rows of the files finished
	cur   string
	last  uint64
}

func newImportBar(w io.Writer, paths []string) *importBar {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	b := &importBar{sizes: map[string]int64{}, start: time.Now()}
	var total int64
	for _, p := range paths {
		b.sizes[p] = total
		if fi, err := os.Stat(p); err == nil {
			total += fi.Size()
		}
	}
	b.bar = progressbar.NewOptions64(total, progressbar.OptionSetWriter(w), progressbar.OptionShowBytes(true),
		progressbar.OptionSetWidth(30), progressbar.OptionThrottle(250*time.Millisecond),
		progressbar.OptionSetPredictTime(true), progressbar.OptionFullWidth(), progressbar.OptionClearOnFinish())
	return b
}

func (b *importBar) update(s history.Stats) {
	if s.File != b.cur {
		b.rows += b.last
		b.cur, b.last = s.File, 0
	}
	b.last = s.Rows
	rows := b.rows + s.Rows
	rate := float64(rows) / max(time.Since(b.start).Seconds(), 1e-3)
	b.bar.Describe(fmt.Sprintf("%s rows (%s rows/s)", count(rows), count(uint64(rate))))
	b.bar.Set64(b.sizes[s.File] + s.BytesRead) //nolint:errcheck // display only
}

func (b *importBar) finish() { b.bar.Finish() } //nolint:errcheck // display only

// count writes n with thousands separators.
func count(n uint64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// printImportSummary writes one paragraph per file and the totals.
func printImportSummary(w io.Writer, recs []history.Outcome, ps ingest.Stats, elapsed time.Duration) {
	var rows, skipped uint64
	for _, r := range recs {
		s := r.Stats
		if r.AlreadyImported {
			fmt.Fprintf(w, "%s: already imported on %s (%s rows); skipped (--force imports it again)\n", r.File, r.Update.Format(time.RFC3339), count(s.Rows))
			continue
		}
		rows, skipped = rows+s.Rows, skipped+s.SkippedTotal()
		fmt.Fprintf(w, "%s (%s, %s): %s: %s rows read, %s kept, %s reports", r.File, r.Format, r.Source, r.Status, count(s.Rows), count(s.Kept), count(s.Reports))
		if r.Resume > 0 {
			fmt.Fprintf(w, " (resumed after row %s)", count(r.Resume))
		}
		fmt.Fprintf(w, "\n  skipped:   %s\n  fixed up:  %s\n", byReason(s.Skipped), byReason(s.Quirks))
		fmt.Fprintf(w, "  vessels:   %s MMSIs\n", count(uint64(s.MMSIs)))
		if !s.First.IsZero() {
			fmt.Fprintf(w, "  time span: %s to %s\n", s.First.UTC().Format(time.RFC3339), s.Last.UTC().Format(time.RFC3339))
		}
		switch r.Status {
		case history.Failed:
			fmt.Fprintf(w, "  stopped:   %s (the rows before it are stored; fix the file and run again)\n", r.Error)
		case history.Interrupted:
			fmt.Fprintf(w, "  stopped:   interrupted after row %s, every row before stored; running the command again resumes there\n", count(r.Resume))
		}
	}
	fmt.Fprintf(w, "total: %s rows read, %s skipped; %s reports stored (%s written, %s spooled while ClickHouse was down), %s duplicates, %s positions without an IMO; in %s (%s rows/s, peak RSS %.0f MB)\n",
		count(rows), count(skipped), count(ps.Written+ps.Spooled), count(ps.Written), count(ps.Spooled), count(ps.Duplicates), count(ps.Unattributed),
		elapsed.Round(time.Millisecond), count(uint64(float64(rows)/max(elapsed.Seconds(), 1e-3))), peakRSSMB())
}

// byReason writes counts by reason, largest first, or "none".
func byReason(m map[history.Reason]uint64) string {
	type kv struct {
		r history.Reason
		n uint64
	}
	var all []kv
	for r, n := range m {
		if n > 0 {
			all = append(all, kv{r, n})
		}
	}
	if len(all) == 0 {
		return "none"
	}
	slices.SortFunc(all, func(a, b kv) int {
		if a.n != b.n {
			return int(b.n) - int(a.n)
		}
		return strings.Compare(string(a.r), string(b.r))
	})
	parts := make([]string, len(all))
	for i, e := range all {
		parts[i] = fmt.Sprintf("%s %s", e.r, count(e.n))
	}
	return strings.Join(parts, ", ")
}
