package app

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	tradesource "overwatch/sources/comtrade"
	cropsource "overwatch/sources/crop"
	marketsource "overwatch/sources/market"
	sarsource "overwatch/sources/sar"
	"time"

	"overwatch/write/stripe"

	"overwatch/bulk"
	"overwatch/clickhouse"
	"overwatch/http"
	"overwatch/live"
	"overwatch/postgres"
	"overwatch/read"
)

// Compile-time proof that PostgreSQL implements the edge's stores.
var (
	_ http.Accounts  = (*postgres.DB)(nil)
	_ http.RateStore = (*postgres.DB)(nil)
)

// stores opens and migrates both stores; the caller closes them.
func stores(ctx context.Context, cfg Config, log *slog.Logger) (*clickhouse.DB, *postgres.DB, error) {
	ch, err := clickhouse.Open(cfg.ClickHouseURL)
	if err != nil {
		return nil, nil, err
	}
	pg, err := postgres.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		ch.Close()
		return nil, nil, err
	}
	applied, err := ch.Migrate(ctx)
	if err == nil {
		log.Info("clickhouse migrated", "database", ch.Database(), "applied", applied)
		applied, err = pg.Migrate(ctx)
		log.Info("postgres migrated", "applied", applied)
	}
	if err != nil {
		ch.Close()
		pg.Close()
		return nil, nil, err
	}
	return ch, pg, nil
}

// serve runs the HTTP API until ctx ends, then shuts down gracefully. With
// withIngest (the run command) it also runs the ingest pipeline and the
// feeds of OVERWATCH_FEEDS in the same process; the demo's backfill shows a
// bar on bar (a terminal; nil: a log line every tenth).
func serve(ctx context.Context, cfg Config, log *slog.Logger, withIngest bool, stdout, bar io.Writer,
	listen func(network, addr string) (net.Listener, error)) error {
	ch, pg, err := stores(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer ch.Close()
	defer pg.Close()
	openapi, err := http.OpenAPIJSON()
	if err != nil {
		return err
	}
	metrics := NewMetrics()
	// The scheduler: started by `run` (serve leaves the schedules to a
	// `jobs` process) and used by the refresh endpoint either way.
	failures := registerSourceFailures(metrics)
	// The live stream: fed in this process by ingest and the risk
	// derivation, so only a process that runs them has it (docs/stream.md).
	var hub *live.Hub
	var liveHub read.LiveHub // nil unless hub is set: GET /v1/stream answers 503
	if withIngest {
		hub = startStream(ctx, cfg.Stream, metrics, log)
		liveHub = hub
	}
	sc, err := newScheduler(cfg, ch, pg, log, failures, hub)
	if err != nil {
		return err
	}
	RegisterJobs(metrics, sc)
	registerImports(metrics, ch.ImportTotals)
	// The read cache: answers kept until a job rewrites their tables (in
	// this process at once, in a jobs process within a second).
	cache := read.NewCache(ch, read.CacheOptions{})
	sc.OnRun = func(tables []string) { cache.Invalidate(tables...) }
	if withIngest {
		marketsource.LoadSamples(ctx, ch, log)
		cropsource.LoadSamples(ctx, ch, log)
		tradesource.LoadSamples(ctx, ch, log)
		sarsource.LoadSamples(ctx, ch, log)
		sc.Start()
		log.Info("jobs scheduled", "jobs", sc.Names())
		defer func() {
			if err := sc.Stop(); err != nil {
				log.Error("jobs stop", "err", err)
			}
		}()
	}

	if withIngest {
		var demo *demoOut
		if cfg.Simulate == "true" || cfg.Simulate == "auto" && cfg.Feeds == "" {
			demo = &demoOut{stdout: stdout, bar: bar}
		}
		// Derive at once when the demo's backfill is stored, rather than
		// at the next tick.
		backfilled := func() { go deriveAll(ctx, sc, log) }
		in, err := startIngest(ctx, cfg, log, ch, metrics, demo, backfilled, hub)
		if err != nil {
			return err
		}
		defer func() {
			if err := in.stop(); err != nil {
				log.Error("ingest stop", "err", err)
			}
		}()
	}

	latest := read.NewLatestReplica(ch, cfg.LatestMaxStale, time.Now, log)
	loadCtx, cancel := context.WithTimeout(ctx, 60*time.Second)
	if err := latest.Sync(loadCtx); err != nil {
		log.Error("initial latest-position load failed; retrying in the background", "err", err)
	}
	cancel()
	log.Info("latest-position replica loaded", "vessels", latest.Len())
	go latest.Run(ctx, cfg.LatestSyncInterval)

	// The bulk exports' workers: an export being written at shutdown is
	// queued again for the next start.
	exports := newExportPool(cfg, ch, pg, log)
	exportsDone := make(chan struct{})
	exportsCtx, stopExports := context.WithCancel(ctx)
	go func() { exports.Run(exportsCtx); close(exportsDone) }()
	defer func() { stopExports(); <-exportsDone }()

	var rates http.RateStore = http.NewMemoryRates()
	if cfg.RateStore == "postgres" {
		rates = http.NewFallbackRates(pg, log) // per instance while PostgreSQL is down
	}

	lim := http.Limits{
		Store:           rates,
		IPs:             http.ClientIPs{Trusted: cfg.TrustedProxies},
		Now:             cfg.clock(),
		PublicPerMinute: cfg.PublicPerMinute,
		PublicPerDay:    cfg.PublicPerDay,
		KeyedPerMinute:  cfg.KeyedPerMinute,
		EventsPerMinute: cfg.EventsPerMinute,
	}
	app := http.NewApp(&http.Deps{
		Log:          log,
		Now:          cfg.clock(),
		Analytics:    ch,
		Accounts:     pg,
		Latest:       latest,
		Cache:        cache,
		Publisher:    read.Publisher{Name: cfg.PublicName, URL: cfg.PublicURL},
		OpenAPI:      openapi,
		Metrics:      metrics,
		Refresh:      refresher{sc},
		Billing:      stripe.New(cfg.Stripe),
		Outbound:     newOutbound(cfg, log),
		SAR:          newSARCatalogue(ch, cfg.SAR, log, metrics, failures),
		Exports:      bulk.Deps{Store: pg, Source: ch, Pool: exports, Now: cfg.clock(), PublicURL: cfg.PublicURL},
		PublicURL:    cfg.PublicURL,
		Limits:       lim,
		Keys:         http.NewKeyGuard(lim, cfg.FailedKeysPerMin, cfg.UnknownKeyTTL),
		MetricsToken: cfg.MetricsToken,
		ReadTimeout:  cfg.ReadTimeout,
		Live:         liveHub,

		StreamHeartbeat:        cfg.Stream.Heartbeat,
		FreightMinContributors: cfg.FreightMinContributors,
	})
	// /metrics on its own address, before the API listens.
	mln, err := listen("tcp", cfg.MetricsAddr)
	if err != nil {
		return fmt.Errorf("listen %s (OVERWATCH_METRICS_ADDR): %w", cfg.MetricsAddr, err)
	}
	log.Info("metrics listening", "addr", mln.Addr().String())
	mapp := http.MetricsApp(metrics, log, cfg.Profiles)
	go mapp.Listener(mln)                           //nolint:errcheck // ends at shutdown
	defer mapp.ShutdownWithTimeout(5 * time.Second) //nolint:errcheck
	ln, err := listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen %s: %w", cfg.Addr, err)
	}
	log.Info("listening", "addr", ln.Addr().String())
	done := make(chan error, 1)
	go func() { done <- app.Listener(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	if err := app.ShutdownWithTimeout(10 * time.Second); err != nil {
		// In-flight requests have had 10 s. What remains are connections a
		// client opened and never sent a request on, which fasthttp does not
		// count as idle; they close when the process exits.
		log.Warn("shutdown: connections still open after 10 s", "open", app.Server().GetOpenConnectionsCount(), "err", err)
		return nil
	}
	return <-done
}
