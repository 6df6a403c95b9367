package app

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"overwatch"
	"overwatch/clickhouse"
	"overwatch/jobs"
	"overwatch/live"
	"overwatch/maritime/seaport"
	"overwatch/postgres"
	"overwatch/sources"
)

// NewScheduler builds the scheduler from the job table (jobs.All), its
// dependencies wired to the stores and to the external sources the
// configuration turns on: ClickHouse derives, Postgres keeps the jobs'
// state and their distributed lock. The sources' failed fetches are
// counted on failures (nil: not counted).
func NewScheduler(cfg Config, ch *clickhouse.DB, pg *postgres.DB, log *slog.Logger, failures *sources.Failures) (*jobs.Scheduler, error) {
	return newScheduler(cfg, ch, pg, log, failures, nil)
}

// newScheduler is NewScheduler whose risk-event derivation tells the live
// stream's hub what it writes (hub nil: no live stream in this process).
func newScheduler(cfg Config, ch *clickhouse.DB, pg *postgres.DB, log *slog.Logger, failures *sources.Failures, hub *live.Hub) (*jobs.Scheduler, error) {
	var riskStore jobs.RiskStore = ch
	if hub != nil {
		riskStore = &riskTap{RiskStore: ch, hub: hub}
	}
	return jobs.NewScheduler(jobs.All(jobs.Deps{
		Store:        ch,
		Risk:         riskStore,
		PICover:      pg,
		Alerts:       pg,
		Deliveries:   pg,
		Poster:       WebhookPoster{newOutbound(cfg, log)},
		WebhookLease: cfg.WebhookLease,
		Ports:        seaport.NewIndex(seaport.All()),
		PurgeRateWindows: func(ctx context.Context) (int64, error) {
			return pg.PurgeRateWindows(ctx, cfg.clock()().Add(-time.Hour)) // the limits' clock
		},
		ExpireExports: newExportPool(cfg, ch, pg, log).Expire,
		Emissions:     ch,
		Calibration:   ch,
		Trade:         ch,
		Forecasts:     ch,
		Anomalies:     ch,
		Earnings:      ch,
		Chokepoints:   ch,
		Predictions:   ch,
		Presence:      ch,

		// The contributed freight rates' weekly aggregates.
		Freight:                pg,
		FreightMinContributors: cfg.FreightMinContributors,

		// River gauges out of normal raise river_level alerts, predicted
		// ETAs that move eta_changed.
		AlertSources: []jobs.AlertSource{jobs.RiverAlerts{Store: ch, Resolver: pg}, jobs.PredictionAlerts{Store: ch, Hours: cfg.ETAAlertHours}},
		Sources:      sourceRefreshes(cfg, ch, failures),
		Now:          cfg.clock(),
	}), pg, pg, log)
}

// runJob runs the job now and says what it recomputed.
func runJob(ctx context.Context, sc *jobs.Scheduler, name string) (jobRun, error) {
	started := time.Now()
	res, err := sc.RunNow(ctx, name)
	if err != nil {
		err = fmt.Errorf("%s: %w", name, err)
	}
	return jobRun{Job: name, From: res.From, To: res.To, Rows: res.Rows, TookMS: time.Since(started).Milliseconds(), err: err}, err
}

// refreshDerivations runs the derivations now, in order (the congestion
// refresh endpoint, `jobs --job`), and returns what each recomputed; it
// stops at the first that fails.
func refreshDerivations(ctx context.Context, sc *jobs.Scheduler, names []string) ([]jobRun, error) {
	var out []jobRun
	for _, name := range names {
		run, err := runJob(ctx, sc, name)
		if err != nil {
			return out, err
		}
		out = append(out, run)
	}
	return out, nil
}

// runOnce is `overwatch jobs --once`: every refresh of the table whose
// source is configured, then every derivation, in the table's order. A
// refresh that fails keeps what is stored and the run goes on (the
// derivations read what is stored); a derivation that fails stops it (the
// next ones read its output). A job that is off is skipped with a log
// line saying why.
func runOnce(ctx context.Context, sc *jobs.Scheduler, log *slog.Logger) ([]jobRun, error) {
	var out []jobRun
	var errs []error
	for _, kind := range []jobs.Kind{jobs.Refresh, jobs.Derivation} {
		for _, j := range sc.Table() {
			if j.Kind != kind {
				continue
			}
			if j.Off != "" {
				log.Info("job skipped", "job", j.Name, "why", j.Off)
				continue
			}
			run, err := runJob(ctx, sc, j.Name)
			out = append(out, run)
			if err != nil {
				errs = append(errs, err)
				if kind == jobs.Derivation {
					return out, errors.Join(errs...)
				}
			}
		}
	}
	return out, errors.Join(errs...)
}

// deriveAll runs every derivation of the table now, in order, waiting for
// any that another run holds (the start-up catch-up, another instance) to
// be free.
func deriveAll(ctx context.Context, sc *jobs.Scheduler, log *slog.Logger) {
	for _, name := range jobs.Derivations(sc.Table()) {
		for {
			_, err := sc.RunNow(ctx, name)
			if !errors.Is(err, jobs.ErrClaimed) {
				break
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Second):
			}
		}
	}
	log.Info("derivations done after the backfill")
}

// jobRun is what one run recomputed.
type jobRun struct {
	Job    string    `json:"job"`
	From   time.Time `json:"from"`
	To     time.Time `json:"to"`
	Rows   int       `json:"rows"`
	TookMS int64     `json:"took_ms"`
	err    error
}

// jobsCommand runs the scheduler alone (`overwatch jobs`), or every
// refresh whose source is configured and every derivation once, in order
// (`--once`), or one job (`--job NAME`).
func jobsCommand(ctx context.Context, cfg Config, log *slog.Logger, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("jobs", flag.ContinueOnError)
	fs.SetOutput(stderr)
	once := fs.Bool("once", false, "run every refresh whose source is configured, then every derivation, once, in order, and exit")
	only := fs.String("job", "", "run this job once and exit")
	if err := fs.Parse(args); err != nil {
		return ErrUsage
	}
	ch, pg, err := stores(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer ch.Close()
	defer pg.Close()
	sc, err := NewScheduler(cfg, ch, pg, log, nil)
	if err != nil {
		return err
	}
	if *once || *only != "" {
		started := time.Now()
		var runs []jobRun
		if *only != "" {
			for _, j := range sc.Table() {
				if j.Name == *only && j.Off != "" {
					return fmt.Errorf("job %s is off: %s", j.Name, j.Off)
				}
			}
			runs, err = refreshDerivations(ctx, sc, []string{*only})
		} else {
			runs, err = runOnce(ctx, sc, log)
		}
		for _, r := range runs {
			if r.err != nil {
				fmt.Fprintf(stdout, "%-24s failed after %d ms: %v\n", r.Job, r.TookMS, r.err)
				continue
			}
			fmt.Fprintf(stdout, "%-24s %6d rows  %s .. %s  in %d ms\n", r.Job, r.Rows, r.From.Format(time.DateOnly), r.To.Format(time.DateOnly), r.TookMS)
		}
		if err == nil {
			fmt.Fprintf(stdout, "done in %s\n", time.Since(started).Round(time.Millisecond))
		}
		return err
	}
	sc.Start()
	log.Info("jobs scheduled", "jobs", sc.Names())
	<-ctx.Done()
	return sc.Stop()
}

// RegisterJobs exposes the jobs' counters at /metrics: runs, failures,
// ticks skipped because another instance had the job, the last run's
// duration and success time, and the lag of the watermark behind now.
func RegisterJobs(reg *prometheus.Registry, sc *jobs.Scheduler) {
	reg.MustRegister(jobCollector{sc})
}

type jobCollector struct{ sc *jobs.Scheduler }

var (
	jobRunsDesc     = prometheus.NewDesc("overwatch_job_runs_total", "Runs of the job in this process.", []string{"job"}, nil)
	jobFailuresDesc = prometheus.NewDesc("overwatch_job_failures_total", "Failed runs of the job in this process.", []string{"job"}, nil)
	jobSkippedDesc  = prometheus.NewDesc("overwatch_job_skipped_total", "Ticks skipped because another instance had the job.", []string{"job"}, nil)
	jobDurationDesc = prometheus.NewDesc("overwatch_job_last_duration_seconds", "Duration of the job's last run.", []string{"job"}, nil)
	jobSuccessDesc  = prometheus.NewDesc("overwatch_job_last_success_timestamp_seconds", "When the job last succeeded (Unix time; 0: not yet).", []string{"job"}, nil)
	jobLagDesc      = prometheus.NewDesc("overwatch_job_lag_seconds", "How far the job's watermark (the newest input it has taken into account) is behind now.", []string{"job"}, nil)
)

func (c jobCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{jobRunsDesc, jobFailuresDesc, jobSkippedDesc, jobDurationDesc, jobSuccessDesc, jobLagDesc} {
		ch <- d
	}
}

func (c jobCollector) Collect(ch chan<- prometheus.Metric) {
	now := time.Now()
	for name, s := range c.sc.Stats() {
		ch <- prometheus.MustNewConstMetric(jobRunsDesc, prometheus.CounterValue, float64(s.Runs), name)
		ch <- prometheus.MustNewConstMetric(jobFailuresDesc, prometheus.CounterValue, float64(s.Failures), name)
		ch <- prometheus.MustNewConstMetric(jobSkippedDesc, prometheus.CounterValue, float64(s.Skipped), name)
		ch <- prometheus.MustNewConstMetric(jobDurationDesc, prometheus.GaugeValue, s.LastDuration.Seconds(), name)
		success := 0.0
		if !s.LastSuccess.IsZero() {
			success = float64(s.LastSuccess.Unix())
		}
		ch <- prometheus.MustNewConstMetric(jobSuccessDesc, prometheus.GaugeValue, success, name)
		if !s.Watermark.IsZero() {
			ch <- prometheus.MustNewConstMetric(jobLagDesc, prometheus.GaugeValue, now.Sub(s.Watermark).Seconds(), name)
		}
	}
}

// refresher is the congestion refresh of the API: the port calls, then the
// congestion, each run now as the schedule runs it (incrementally), or
// not at all when nothing it reads changed since its last run.
type refresher struct{ sc *jobs.Scheduler }

// refreshRun is a job of a congestion refresh: the run that made its
// table current, Reused when it was the last one (nothing new since).
type refreshRun struct {
	Job    string    `json:"job"`
	From   time.Time `json:"from"`
	To     time.Time `json:"to"`
	Rows   int       `json:"rows"`
	TookMS int64     `json:"took_ms"`
	Reused bool      `json:"reused"`
}

// refreshWait is how often a refresh asks again for a job that another run
// (the schedule, another instance) holds.
const refreshWait = 250 * time.Millisecond

// RefreshCongestion implements write.Refresher. A job another run holds
// (the schedule, another instance) is waited for, and then usually found
// fresh: its run is the answer.
func (r refresher) RefreshCongestion(ctx context.Context) (any, error) {
	var runs []refreshRun
	for _, name := range []string{"port_calls", "congestion"} {
		for {
			started := time.Now()
			res, ran, err := r.sc.RefreshNow(ctx, name)
			if errors.Is(err, jobs.ErrClaimed) {
				select {
				case <-ctx.Done():
					return nil, overwatch.Errorf(overwatch.Conflict, "the %s derivation stayed busy; try again in a minute", name)
				case <-time.After(refreshWait):
				}
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			runs = append(runs, refreshRun{Job: name, From: res.From, To: res.To, Rows: res.Rows, TookMS: time.Since(started).Milliseconds(), Reused: !ran})
			break
		}
	}
	return map[string]any{"recomputed": runs}, nil
}
