package jobs

import (
	"context"
	"time"

	"github.com/go-co-op/gocron/v2"

	"overwatch/maritime/seaport"
	"overwatch/sources"
)

// Deps are what the jobs work on.
type Deps struct {
	Store Store
	// Risk is the store of the risk jobs (the same analytics store).
	Risk RiskStore
	// PICover is the shared base of P&I coverage the risk score reads
	// (Postgres); nil: no cover known.
	PICover PICoverBase
	Ports   *seaport.Index
	// Alerts is where the alerts job raises alerts (Postgres); nil: no
	// alerts job. AlertSources are sources besides the risk events.
	Alerts       AlertSink
	AlertSources []AlertSource
	// Deliveries is the webhook delivery queue (Postgres) and Poster what
	// sends them; nil: no delivery job. WebhookLease is how long a
	// delivery claim holds (0: WebhookLease).
	Deliveries   DeliveryStore
	Poster       Poster
	WebhookLease time.Duration
	// PurgeRateWindows deletes expired rate-limit windows (Postgres).
	PurgeRateWindows func(ctx context.Context) (int64, error)
	// ExpireExports deletes the files of the bulk exports past their
	// expiry (and partial files left by a stopped worker); nil: no
	// export_expiry job.
	ExpireExports func(ctx context.Context) (int64, error)
	// Freight publishes the weekly aggregates of the contributed freight
	// rates (Postgres), with FreightMinContributors accounts per route at
	// least (0: the service's default); nil: no publication job.
	Freight                FreightPublisher
	FreightMinContributors int

	// Emissions is the store of the emissions job (the same analytics store).
	Emissions EmissionsStore
	// Trade is the store of the trade-routes job (the same analytics store).
	Trade TradeStore
	// Forecasts and Anomalies are the stores of the forecasts and
	// anomalies jobs (the same analytics store).
	Forecasts ForecastStore
	Anomalies AnomalyStore
	// Earnings is the store of the earnings job (the same analytics store).
	Earnings EarningsStore

	// Calibration is the store of the calibration job (the same analytics
	// store).
	Calibration CalibrationStore
	// Chokepoints is the store of the chokepoints job (the same analytics
	// store).
	Chokepoints ChokepointStore
	// Predictions is the store of the predictions job (the same analytics
	// store).
	Predictions PredictionStore
	// Presence is the store of the area presence summary job (the same
	// analytics store).
	Presence PresenceStore

	// Sources are the external sources of the refresh jobs.
	Sources Sources

	// Now is the service's clock (nil: the real time): the end of the
	// forecasts' and anomalies' data when there are no positions, the
	// alerts' window. Webhook deliveries keep the real time (their
	// schedule is the queue's, stamped by the database).
	Now func() time.Time
}

// Kind is what a job of the table does.
type Kind string

// The kinds of job. `overwatch jobs --once` runs the refreshes whose source
// is configured, then every derivation, in the table's order.
const (
	// Derivation derives tables from the stored history (positions, port
	// calls, imported actuals).
	Derivation Kind = "derivation"
	// Refresh fetches an external source into the store, keeping what is
	// stored when a fetch fails.
	Refresh Kind = "refresh"
	// Upkeep is the rest: alerts, webhook deliveries, clean-ups.
	Upkeep Kind = "upkeep"
)

// SourceRefresh is a source of the table: its refresh (nil: the source
// is not configured and its job is off), how often it runs, and the
// setting that configures it (named when the job is skipped). What a
// refresh fetches, parses and stores, and what it keeps when a fetch
// fails, is its source package's (sources/...); the table holds when.
type SourceRefresh struct {
	Refresh sources.Refresh
	Every   time.Duration
	Setting string
}

// Sources are the external sources the refresh jobs fetch.
type Sources struct {
	Prices           SourceRefresh // FRED, World Bank, USDA AMS prices
	Transport        SourceRefresh // USDA AgTransport datasets
	RiverLevels      SourceRefresh // USGS river gauges
	CropNDVI         SourceRefresh // AppEEARS NDVI samples
	TradeFlows       SourceRefresh // UN Comtrade
	News             SourceRefresh // GDELT DOC 2.0 API
	PortWatch        SourceRefresh // IMF PortWatch chokepoint transits
	Sanctions        SourceRefresh // OFAC SDN files
	GrainInspections SourceRefresh // USDA AMS WA_GR101
}

// All is the table of every job of the service, the one list the
// scheduler is built from: its name, its kind, how often it runs, its
// singleton mode, the tables it rewrites, and what it runs (each job's own
// file: load its inputs through the store, compute with the domain
// packages, store its output; a refresh runs its source's Refresh). A job whose
// dependency is not given is listed with Off saying why, and is not
// scheduled. The derivations come in the order a full refresh runs them
// (each reads the port calls the first one writes; the calibration fits
// the estimates). Every job runs in singleton mode
// gocron.LimitModeReschedule: a run that would overlap the previous one is
// skipped, and with several instances the distributed locker lets one of
// them run each tick. What each run recomputes:
//
//	port_calls               whole days from 3 days before the watermark
//	emissions                the voyages that ended from 4 days before the watermark
//	congestion               the last 14 days
//	berth_utilization        the last 3 ISO weeks
//	fleet_age                the last 3 ISO weeks
//	export_estimates         the last 3 ISO weeks
//	forecasts                every port's forecasts and backtest, from the whole weekly history
//	anomalies                every port's weekly anomalies and history maturity, whole history
//	destination_reliability  the whole history
//	predictions              every vessel under way, as of the newest position (next ports and ETAs)
//	presence                 whole days from the day before the watermark to the newest position (area presence by hour, cell and vessel)
//	trade_routes             weeks of departure from 77 days, of arrival from 21 days before the watermark; the shifts whole
//	earnings                 weeks of departure from 77 days before the watermark (voyage TCE, port revenue)
//	risk_events              whole days from 3 days before the watermark
//	risk_scores              every vessel's score, the hotspots
//	risk_baselines           the last 30 days
//	chokepoints              daily chokepoint transits from 3 days before the watermark, their transit_drop and diversion signals
//	calibration              self-calibrated factors (estimates against imported actuals), whole history
//	derived_cleanup          deletes superseded generations
//	rate_window_purge        deletes expired rate-limit windows
//	freight_publication      publishes the contributed freight rates of each ISO week that has ended, once
//	export_expiry            deletes the files of the bulk exports past their expiry
//	webhook_delivery         sends the due webhook deliveries (retries with backoff)
//	alerts                   alerts of the events of the last 3 days for their watchers
//	<source>_refresh, ...    fetches an external source (Sources), when configured
func All(d Deps) []Job {
	if d.Now == nil {
		d.Now = time.Now
	}
	var reschedule gocron.LimitMode = gocron.LimitModeReschedule
	derive := func(name string, every time.Duration, run Run, writes ...string) Job {
		return Job{Name: name, Kind: Derivation, Every: every, Singleton: reschedule, Writes: writes, Run: run}
	}
	upkeep := func(name string, every time.Duration, run Run, off string, writes ...string) Job {
		if off != "" {
			run = nil
		}
		return Job{Name: name, Kind: Upkeep, Every: every, Singleton: reschedule, Writes: writes, Run: run, Off: off}
	}
	refresh := func(name string, s SourceRefresh, writes ...string) Job {
		j := Job{Name: name, Kind: Refresh, Every: s.Every, Singleton: reschedule, Writes: writes}
		if s.Refresh == nil || s.Every <= 0 {
			j.Off = "its source is not configured"
			if s.Setting != "" {
				j.Off += " (" + s.Setting + ")"
			}
			return j
		}
		j.Run = func(ctx context.Context, _ State) (Result, error) {
			res, err := s.Refresh(ctx)
			return Result(res), err
		}
		return j
	}
	off := func(missing bool, why string) string {
		if missing {
			return why
		}
		return ""
	}
	var deliver, alerts, freight Run
	if d.Freight != nil {
		freight = FreightPublication(d.Freight, time.Now, d.FreightMinContributors)
	}
	if d.Deliveries != nil && d.Poster != nil {
		deliver = Webhooks(d.Deliveries, d.Poster, time.Now, d.WebhookLease)
	}
	if d.Alerts != nil {
		alerts = Alerts(d.Alerts, d.Now, append([]AlertSource{RiskAlerts{Store: d.Risk}}, d.AlertSources...)...)
	}
	src := d.Sources
	// The refresh endpoint's jobs know when nothing they read changed: the
	// port calls read the positions, the congestion the port calls.
	portCalls := derive("port_calls", 10*time.Minute, PortCalls(d.Store, d.Ports), "port_calls")
	congestion := derive("congestion", 15*time.Minute, Congestion(d.Store), "congestion_daily")
	presence := derive("presence", 10*time.Minute, Presence(d.Presence), "presence_hourly")
	if d.Store != nil {
		portCalls.Fresh = unchanged(positionsChanged(d.Store))
		congestion.Fresh = after("port_calls")
		presence.Fresh = unchanged(positionsChanged(d.Store))
	}
	return []Job{
		portCalls,
		derive("emissions", time.Hour, Emissions(d.Emissions), "voyage_emissions"),
		congestion,
		derive("berth_utilization", time.Hour, BerthUtilization(d.Store), "berth_weekly"),
		derive("fleet_age", time.Hour, FleetAge(d.Store), "fleet_age_weekly"),
		derive("export_estimates", time.Hour, ExportEstimates(d.Store), "estimates_weekly"),
		derive("forecasts", time.Hour, Forecasts(d.Forecasts, d.Now), "forecasts", "forecast_accuracy"),
		derive("anomalies", time.Hour, Anomalies(d.Anomalies, d.Now), "anomalies", "forecast_maturity"),
		derive("destination_reliability", time.Hour, DestinationReliability(d.Store), "destination_reliability"),
		derive("predictions", 10*time.Minute, Predictions(d.Predictions, d.Now), "predictions"),
		presence,
		derive("trade_routes", time.Hour, TradeRoutes(d.Trade), "route_flows_weekly", "route_deceptions", "route_shifts"),
		derive("earnings", time.Hour, Earnings(d.Earnings), "voyage_earnings", "port_revenue_weekly"),
		derive("risk_events", 30*time.Minute, RiskEvents(d.Risk, d.Ports), "risk_events"),
		derive("risk_scores", 30*time.Minute, RiskScores(d.Risk, d.PICover), "vessel_risk", "risk_hotspots"),
		derive("risk_baselines", 6*time.Hour, RiskBaselines(d.Risk), "risk_baselines"),
		derive("chokepoints", time.Hour, Chokepoints(d.Chokepoints), "chokepoint_transits_daily", "disruption_signals"),
		derive("calibration", 6*time.Hour, Calibration(d.Calibration), "calibration_factors"),

		upkeep("derived_cleanup", 6*time.Hour, CleanupDerived(d.Store), ""),
		upkeep("rate_window_purge", 5*time.Minute, Purge(d.PurgeRateWindows), off(d.PurgeRateWindows == nil, "no rate-limit store")),
		upkeep("export_expiry", 10*time.Minute, Purge(d.ExpireExports), off(d.ExpireExports == nil, "no export store")),
		upkeep("webhook_delivery", 5*time.Second, deliver, off(deliver == nil, "no webhook delivery queue")),
		upkeep("alerts", 5*time.Minute, alerts, off(alerts == nil, "no alert store")),
		upkeep("freight_publication", 15*time.Minute, freight, off(freight == nil, "no freight-rate store"), "freight_rate_aggregates"),

		refresh("prices_refresh", src.Prices, "commodity_prices"),
		refresh("transport_refresh", src.Transport, "transport_rates"),
		refresh("river_levels", src.RiverLevels, "river_readings"),
		refresh("crop_ndvi_refresh", src.CropNDVI, "crop_ndvi"),
		refresh("trade_flows_refresh", src.TradeFlows, "trade_flows"),
		refresh("news_refresh", src.News, "disruption_signals"),
		refresh("portwatch_refresh", src.PortWatch, "portwatch_chokepoint_daily"),
		refresh("sanctions_refresh", src.Sanctions, "sanctions_entries"),
		refresh("grain_inspections", src.GrainInspections, "export_actuals"),
	}
}

// Derivations are the names of the table's derivations, in its order
// (what `overwatch jobs --once` and the demo's catch-up run).
func Derivations(table []Job) []string {
	var out []string
	for _, j := range table {
		if j.Kind == Derivation {
			out = append(out, j.Name)
		}
	}
	return out
}
