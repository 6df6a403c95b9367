package app

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"overwatch"

	"overwatch/clickhouse"
	"overwatch/write/ingest"
	"overwatch/write/sim"
)

// runDemo feeds the simulated fleet to the pipeline for `overwatch run`
// when no real feed is configured: on an empty store it backfills
// OVERWATCH_DEMO_DAYS (with seasons, trade truths and cheap older history:
// demoRecent), after a restart it resumes where the stored positions end (the
// simulation is deterministic: the seed and start kept in the data
// directory are enough), and then it simulates in real time until ctx
// ends. The ground truth goes to <data dir>/truth.jsonl. backfilled, if
// not nil, is called once the history is stored. The backfill's progress
// is a bar on progressOut (a terminal), or a log line every tenth when it
// is nil.
func runDemo(ctx context.Context, cfg Config, log *slog.Logger, ch *clickhouse.DB, p *ingest.Pipeline, stdout, progressOut io.Writer, backfilled func()) error {
	now := cfg.clock()().UTC()
	state, ok := loadSimState(cfg.DataDir)
	if !ok {
		state = simState{Seed: 1, Start: now.Add(-time.Duration(cfg.DemoDays) * 24 * time.Hour).Truncate(time.Hour), Vessels: cfg.DemoVessels, Downsample: 30,
			Trade: true, End: now, Recent: demoRecent}
		if err := saveSimState(cfg.DataDir, state); err != nil {
			return err
		}
	}
	c := sim.Config{Seed: state.Seed, Start: state.Start, Vessels: state.Vessels, Downsample: state.Downsample,
		Sanctioned: min(12, state.Vessels/20), DarkFleet: min(40, state.Vessels/20), Rates: sim.DefaultRates}
	if state.Trade {
		c.Trade = tradeConfig(true, true, state.Start, state.End)
		c.Coarse = coarseConfig(state.Start, state.End, state.Recent)
	}
	f, err := os.Create(filepath.Join(cfg.DataDir, "truth.jsonl"))
	if err != nil {
		return err
	}
	defer f.Close()
	truth := bufio.NewWriterSize(f, 1<<20)
	defer truth.Flush()
	s, err := sim.New(c, truth)
	if err != nil {
		return err
	}
	d := newSimDelivery(p, s, cfg.clock())
	last, err := ch.LastPositionTime(ctx)
	if err != nil {
		return err
	}
	started := time.Now()
	if last.IsZero() {
		log.Info("demo: backfilling the simulated fleet", "vessels", c.Vessels, "from", c.Start, "days", now.Sub(c.Start).Round(time.Hour).Hours()/24)
		// Progress every tenth (a bar on a terminal), not every chunk.
		bar := newProgress(log, progressOut, "demo: backfill", int64(now.Sub(c.Start).Hours()), "simulated hours")
		for day := c.Start; day.Before(now); day = day.Add(72 * time.Hour) {
			if err := s.EmitUntil(ctx, minTime(day.Add(72*time.Hour), now), d.deliver); err != nil {
				return err
			}
			bar.set(int64(s.At().Sub(c.Start).Hours()), "simulated_to", s.At().Format(time.RFC3339), "messages", s.Messages())
		}
		bar.finish()
	} else {
		log.Info("demo: resuming the simulated fleet", "stored_until", last)
		if err := s.EmitUntil(ctx, last, nil); err != nil {
			return err
		}
		if err := s.EmitUntil(ctx, now, d.deliver); err != nil {
			return err
		}
	}
	d.flush()
	if err := p.Flush(ctx); err != nil {
		return err
	}
	truth.Flush() //nolint:errcheck
	if last.IsZero() && state.Trade {
		// The simulated world's official export figures, for the calibration.
		n, err := ImportTruthActuals(ctx, ch, filepath.Join(cfg.DataDir, "truth.jsonl"), now)
		if err != nil {
			return err
		}
		log.Info("demo: imported the truth's weekly loadings as official actuals", "rows", n)
	}
	if backfilled != nil {
		backfilled()
	}
	log.Info("demo: history ready; simulating in real time", "messages", s.Messages(), "elapsed", time.Since(started).Round(time.Second))
	imo, _ := ch.FreshestIMO(ctx)
	printDemo(stdout, cfg, imo, int(now.Sub(c.Start).Hours()/24+0.5))
	err = s.Live(ctx, time.Second, cfg.clock(), d.deliver)
	d.flush()
	return err
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// printDemo tells the user how to call the API.
func printDemo(w io.Writer, cfg Config, imo overwatch.IMO, days int) {
	base := "http://localhost" + cfg.Addr
	if len(cfg.Addr) > 0 && cfg.Addr[0] != ':' {
		base = "http://" + cfg.Addr
	}
	fmt.Fprintf(w, `
Overwatch is serving %[1]s with %[2]d days of a simulated fleet, and simulating on in real time.

  Public latest position (no key):
    curl %[1]s/v1/ais/any/%[3]s/location/latest

  Create a key (printed once), then call the keyed API:
    KEY=$(bin/overwatch keys create --email you@example.com --plan pro)
    curl -H "X-API-Key: $KEY" "%[1]s/v1/vessels?port=santos"
    curl -H "X-API-Key: $KEY" "%[1]s/v1/positions?port=port-hedland"
    curl %[1]s/v1/ports
    curl %[1]s/v1/health

  The simulation's ground truth: %[4]s
  The API's contract: %[1]s/v1/openapi.json

`, base, days, imo.String(), filepath.Join(cfg.DataDir, "truth.jsonl"))
}

// demoRecent is the last part of the demo's backfill simulated at the full
// cadence; the older history (OVERWATCH_DEMO_DAYS, over a year by default,
// enough for the year-on-year anomalies and the statistical forecasts)
// gets the simulator's coarse cadence (write/sim Coarse), with seasons and
// the trade truths (write/sim Trade) on.
const demoRecent = 3 * 24 * time.Hour
