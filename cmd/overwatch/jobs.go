package main

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
	"overwatch/maritime/seaport"
	"overwatch/postgres"
)

// newScheduler wires every job of jobs.All to the stores: ClickHouse
// derives, Postgres keeps the jobs' state and their distributed lock.
func newScheduler(cfg config, ch *clickhouse.DB, pg *postgres.DB, log *slog.Logger) (*jobs.Scheduler, error) {
	all := jobs.All(jobs.Deps{
		Store:        ch,
		Risk:         ch,
		PICover:      pg,
		Alerts:       pg,
		Deliveries:   pg,
		Poster:       webhookPoster{newOutbound(cfg, log)},
		WebhookLease: cfg.WebhookLease,
		Ports:        seaport.NewIndex(seaport.All()),
		PurgeRateWindows: func(ctx context.Context) (int64, error) {
			return pg.PurgeRateWindows(ctx, cfg.clock()().Add(-time.Hour)) // the limits' clock
		},
		Emissions:   ch,
		Calibration: ch,
		Trade:       ch,
		Forecasts:   ch,
		Anomalies:   ch,
		Earnings:    ch,
		Chokepoints: ch,

		// River gauges out of normal raise river_level alerts.
		AlertSources: []jobs.AlertSource{jobs.RiverAlerts{Store: ch, Resolver: pg}},
		Now:          cfg.clock(),
	})
	if cfg.GrainInspectionsURL != "" {
		all = append(all, grainInspectionsJob(ch, cfg.GrainInspectionsURL, cfg.GrainInspectionsRefresh))
	}
	all = append(all, marketJobs(cfg.Market, ch, ch)...)
	all = append(all, riverJobs(cfg.River, ch)...)
	all = append(all, cropJobs(cfg.Crop, ch)...)
	all = append(all, tradeJobs(cfg.Trade, ch)...)
	all = append(all, newsJobs(cfg.News, ch)...)
	if cfg.SanctionsURL != "" {
		all = append(all, sanctionsRefreshJob(ch, cfg.SanctionsURL, cfg.SanctionsList, cfg.SanctionsRefresh))
	}
	return jobs.NewScheduler(all, pg, pg, log)
}

// refreshDerivations runs the derivations now, in order (the jobs
// command's --once, the congestion refresh endpoint), and returns what
// each recomputed.
func refreshDerivations(ctx context.Context, sc *jobs.Scheduler, names []string) ([]jobRun, error) {
	var out []jobRun
	for _, name := range names {
		started := time.Now()
		res, err := sc.RunNow(ctx, name)
		if err != nil {
			return out, fmt.Errorf("%s: %w", name, err)
		}
		out = append(out, jobRun{Job: name, From: res.From, To: res.To, Rows: res.Rows, TookMS: time.Since(started).Milliseconds()})
	}
	return out, nil
}

// deriveAll runs every derivation now, in order, waiting for any that
// another run holds (the start-up catch-up, another instance) to be free.
func deriveAll(ctx context.Context, sc *jobs.Scheduler, log *slog.Logger) {
	for _, name := range jobs.Derivations {
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
	// The calibration fits its factors on the estimates just derived.
	for _, name := range sc.Names() {
		if name == "calibration" {
			if _, err := sc.RunNow(ctx, name); err != nil {
				log.Warn("calibration after the backfill", "err", err)
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
}

// jobsCommand runs the scheduler alone (`overwatch jobs`), or every
// derivation once in order (`--once`), or one job (`--job NAME`).
func jobsCommand(ctx context.Context, cfg config, log *slog.Logger, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("jobs", flag.ContinueOnError)
	fs.SetOutput(stderr)
	once := fs.Bool("once", false, "run every derivation once, in order, and exit")
	only := fs.String("job", "", "run this job once and exit")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	ch, pg, err := stores(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer ch.Close()
	defer pg.Close()
	sc, err := newScheduler(cfg, ch, pg, log)
	if err != nil {
		return err
	}
	if *once || *only != "" {
		names := jobs.Derivations
		if *only != "" {
			names = []string{*only}
		}
		started := time.Now()
		runs, err := refreshDerivations(ctx, sc, names)
		for _, r := range runs {
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

// registerJobs exposes the jobs' counters at /metrics: runs, failures,
// ticks skipped because another instance had the job, the last run's
// duration and success time, and the lag of the watermark behind now.
func registerJobs(reg *prometheus.Registry, sc *jobs.Scheduler) {
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
// congestion, run now.
type refresher struct{ sc *jobs.Scheduler }

func (r refresher) RefreshCongestion(ctx context.Context) (any, error) {
	runs, err := refreshDerivations(ctx, r.sc, []string{"port_calls", "congestion"})
	if errors.Is(err, jobs.ErrClaimed) {
		return nil, overwatch.Errorf(overwatch.Conflict, "a refresh of the congestion is already running; try again in a minute")
	}
	if err != nil {
		return nil, err
	}
	return map[string]any{"recomputed": runs}, nil
}
