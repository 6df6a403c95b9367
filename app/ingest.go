package app

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"overwatch"
	"overwatch/clickhouse"
	"overwatch/http"
	"overwatch/live"
	"overwatch/write/feed"
	"overwatch/write/ingest"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// ingestion is a running pipeline with its feeds.
type ingestion struct {
	pipeline *ingest.Pipeline
	cancel   context.CancelFunc
	feeds    sync.WaitGroup
	log      *slog.Logger
}

// demoOut is where the demo writes: how to call the API (stdout), and its
// backfill's bar (a terminal; nil: a log line every tenth).
type demoOut struct{ stdout, bar io.Writer }

// startIngest starts the pipeline into ClickHouse and every feed of
// OVERWATCH_FEEDS; with demo set, the simulated fleet is one more feed;
// with hub set, the pipeline feeds the live stream.
func startIngest(ctx context.Context, cfg Config, log *slog.Logger, ch *clickhouse.DB, reg *prometheus.Registry, demo *demoOut, backfilled func(), hub *live.Hub) (*ingestion, error) {
	window := cfg.AttributionWindow
	if demo != nil {
		window = max(window, time.Hour) // the demo's static reports come every 30 minutes
	}
	opts := ingest.Options{SpoolDir: cfg.SpoolDir, AttributionWindow: window, Log: log, Now: cfg.clock(), TapMaxAge: cfg.Stream.MaxAge}
	if hub != nil {
		opts.Tap = hub
	}
	p, err := ingest.New(ch, opts)
	if err != nil {
		return nil, err
	}
	if err := p.Start(ctx); err != nil {
		return nil, err
	}
	if reg != nil {
		registerIngest(reg, p)
	}
	feeds, err := feed.ParseAll(cfg.Feeds, p, log, cfg.clock())
	if err != nil {
		p.Close(context.Background()) //nolint:errcheck
		return nil, err
	}
	fctx, cancel := context.WithCancel(ctx)
	in := &ingestion{pipeline: p, cancel: cancel, log: log}
	go logIngest(fctx, p, log, time.Minute)
	if demo != nil {
		in.feeds.Add(1)
		go func() {
			defer in.feeds.Done()
			if err := runDemo(fctx, cfg, log, ch, p, demo.stdout, demo.bar, backfilled); err != nil && fctx.Err() == nil {
				log.Error("demo stopped", "err", err)
			}
		}()
	}
	for _, f := range feeds {
		in.feeds.Add(1)
		go func() {
			defer in.feeds.Done()
			log.Info("feed starting", "feed", f.Name())
			if err := f.Run(fctx); err != nil {
				log.Error("feed stopped", "feed", f.Name(), "err", err)
			}
		}()
	}
	return in, nil
}

// logIngest logs the pipeline's counters every interval while they move.
func logIngest(ctx context.Context, p *ingest.Pipeline, log *slog.Logger, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	var last ingest.Stats
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		s := p.Stats()
		if s.Received == last.Received && s.Written == last.Written && s.SpoolFiles == last.SpoolFiles {
			continue
		}
		log.Info("ingest", "received", s.Received, "decoded", s.Decoded, "invalid", s.Invalid, "duplicate", s.Duplicates,
			"queued", s.Queued, "pending", s.Pending, "spooled", s.Spooled, "spool_files", s.SpoolFiles,
			"written", s.Written, "dropped", s.Dropped, "store_down", s.StoreDown)
		last = s
	}
}

// stop ends the feeds and writes everything queued before returning.
func (in *ingestion) stop() error {
	in.cancel()
	in.feeds.Wait()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	err := in.pipeline.Close(ctx)
	s := in.pipeline.Stats()
	in.log.Info("ingest stopped", "written", s.Written, "spooled_files", s.SpoolFiles, "unattributed", s.Unattributed)
	return err
}

// ingestCommand runs the feeds and the pipeline, with /metrics on
// OVERWATCH_METRICS_ADDR, until ctx ends.
func ingestCommand(ctx context.Context, cfg Config, log *slog.Logger) error {
	ch, pg, err := stores(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer ch.Close()
	pg.Close() // ingest needs only ClickHouse
	if cfg.Feeds == "" {
		return errors.New("ingest: no feeds: set OVERWATCH_FEEDS (see README.md)")
	}
	reg := NewMetrics()
	in, err := startIngest(ctx, cfg, log, ch, reg, nil, nil, nil)
	if err != nil {
		return err
	}
	app := fiber.New(fiber.Config{DisableStartupMessage: true})
	app.Get("/metrics", http.ServeMetrics(reg))
	ln, err := net.Listen("tcp", cfg.MetricsAddr)
	if err != nil {
		in.stop() //nolint:errcheck
		return err
	}
	log.Info("metrics listening", "addr", ln.Addr().String())
	go app.Listener(ln) //nolint:errcheck
	<-ctx.Done()
	app.ShutdownWithTimeout(5 * time.Second) //nolint:errcheck
	return in.stop()
}

// replayCommand runs `overwatch replay --source S FILE...`: the files go
// through the real pipeline into ClickHouse, with a progress bar on a
// terminal and a summary at the end.
func replayCommand(ctx context.Context, cfg Config, log *slog.Logger, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	source := fs.String("source", "", "provider the files come from: aishub, aisstream, satellite or spire")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the replay to this file")
	memProfile := fs.String("memprofile", "", "write a heap profile (allocations since the start) at the end of the replay to this file")
	if err := fs.Parse(args); err != nil {
		return ErrUsage
	}
	src, ok := overwatch.ParseSource(*source)
	if !ok || fs.NArg() == 0 {
		fmt.Fprintln(stderr, "usage: overwatch replay --source aishub|aisstream|satellite|spire FILE...")
		return ErrUsage
	}
	ch, err := clickhouse.Open(cfg.ClickHouseURL)
	if err != nil {
		return err
	}
	defer ch.Close()
	if _, err := ch.Migrate(ctx); err != nil {
		return err
	}
	p, err := ingest.New(ch, ingest.Options{SpoolDir: cfg.SpoolDir, AttributionWindow: cfg.AttributionWindow, Log: log, Now: cfg.clock()})
	if err != nil {
		return err
	}
	if err := p.Start(ctx); err != nil {
		return err
	}
	files := &feed.Files{Paths: fs.Args(), Source: src, Sink: p, Now: cfg.clock()}
	if f, ok := stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		bar := progressbar.DefaultBytes(-1, "replaying")
		files.Progress = func(done, total int64) {
			bar.ChangeMax64(total)
			bar.Set64(done) //nolint:errcheck
		}
		defer bar.Finish() //nolint:errcheck
	}
	stopProfile, err := startProfile(*cpuProfile)
	if err != nil {
		return err
	}
	start := time.Now()
	stats, runErr := files.Run(ctx)
	closeCtx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	closeErr := p.Close(closeCtx)
	elapsed := time.Since(start)
	if err := stopProfile(*memProfile); err != nil {
		return err
	}
	s := p.Stats()
	fmt.Fprintf(stdout, "replayed %d lines: %d messages, %d reports, %d written (%d of them spooled while ClickHouse was down, %d replayed from the spool), %d duplicates, %d invalid, %d unattributed, %d MMSIs claimed later, %d still spooled, in %s (%.0f messages/s, peak RSS %.0f MB)\n",
		stats.Lines, stats.Messages, s.Processed, s.Written, s.Spooled, s.Replayed, s.Duplicates, s.Invalid, s.Unattributed, s.Reattributed, s.SpoolFiles,
		elapsed.Round(time.Millisecond), float64(stats.Messages)/elapsed.Seconds(), peakRSSMB())
	if runErr != nil {
		return runErr
	}
	return closeErr
}

// peakRSSMB is this process's peak resident memory (VmHWM), in MB; 0 where
// /proc is not available.
func peakRSSMB() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 64)
			return kb / 1024
		}
	}
	return 0
}
