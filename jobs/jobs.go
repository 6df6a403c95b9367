package jobs

import (
	"context"
	"time"

	"overwatch/maritime/seaport"
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
	// store); nil: no calibration job.
	Calibration CalibrationStore
	// Chokepoints is the store of the chokepoints job (the same analytics
	// store); nil: no chokepoints job.
	Chokepoints ChokepointStore

	// Now is the service's clock (nil: the real time): the end of the
	// forecasts' and anomalies' data when there are no positions, the
	// alerts' window. Webhook deliveries keep the real time (their
	// schedule is the queue's, stamped by the database).
	Now func() time.Time
}

// All is the table of every job of the service: its name, how often it
// runs, the tables it rewrites, and what it runs (each job's own file:
// load its inputs through the store, compute with the domain packages,
// store its output). The derivations come in the order a full refresh runs
// them (each reads the port calls the first one writes). Every job runs in
// singleton mode: a run that would overlap the previous one is skipped
// (gocron.LimitModeReschedule), and with several instances the distributed
// locker lets one of them run each tick. What each run recomputes:
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
//	trade_routes             weeks of departure from 77 days, of arrival from 21 days before the watermark; the shifts whole
//	earnings                 weeks of departure from 77 days before the watermark (voyage TCE, port revenue)
//	risk_events              whole days from 3 days before the watermark
//	risk_scores              every vessel's score, the hotspots
//	risk_baselines           the last 30 days
//	derived_cleanup          deletes superseded generations
//	rate_window_purge        deletes expired rate-limit windows
//	webhook_delivery         sends the due webhook deliveries (retries with backoff)
//	alerts                   alerts of the events of the last 3 days for their watchers
//	calibration              self-calibrated factors (estimates against imported actuals), whole history
//	chokepoints              daily chokepoint transits from 3 days before the watermark, their transit_drop and diversion signals
func All(d Deps) []Job {
	if d.Now == nil {
		d.Now = time.Now
	}
	all := []Job{
		{Name: "port_calls", Every: 10 * time.Minute, Writes: []string{"port_calls"}, Run: PortCalls(d.Store, d.Ports)},
		{Name: "emissions", Every: time.Hour, Writes: []string{"voyage_emissions"}, Run: Emissions(d.Emissions)},
		{Name: "congestion", Every: 15 * time.Minute, Writes: []string{"congestion_daily"}, Run: Congestion(d.Store)},
		{Name: "berth_utilization", Every: time.Hour, Writes: []string{"berth_weekly"}, Run: BerthUtilization(d.Store)},
		{Name: "fleet_age", Every: time.Hour, Writes: []string{"fleet_age_weekly"}, Run: FleetAge(d.Store)},
		{Name: "export_estimates", Every: time.Hour, Writes: []string{"estimates_weekly"}, Run: ExportEstimates(d.Store)},
		{Name: "forecasts", Every: time.Hour, Writes: []string{"forecasts", "forecast_accuracy"}, Run: Forecasts(d.Forecasts, d.Now)},
		{Name: "anomalies", Every: time.Hour, Writes: []string{"anomalies", "forecast_maturity"}, Run: Anomalies(d.Anomalies, d.Now)},
		{Name: "destination_reliability", Every: time.Hour, Writes: []string{"destination_reliability"}, Run: DestinationReliability(d.Store)},
		{Name: "trade_routes", Every: time.Hour, Writes: []string{"route_flows_weekly", "route_deceptions", "route_shifts"}, Run: TradeRoutes(d.Trade)},
		{Name: "earnings", Every: time.Hour, Writes: []string{"voyage_earnings", "port_revenue_weekly"}, Run: Earnings(d.Earnings)},
		{Name: "risk_events", Every: 30 * time.Minute, Writes: []string{"risk_events"}, Run: RiskEvents(d.Risk, d.Ports)},
		{Name: "risk_scores", Every: 30 * time.Minute, Writes: []string{"vessel_risk", "risk_hotspots"}, Run: RiskScores(d.Risk, d.PICover)},
		{Name: "risk_baselines", Every: 6 * time.Hour, Writes: []string{"risk_baselines"}, Run: RiskBaselines(d.Risk)},
		{Name: "derived_cleanup", Every: 6 * time.Hour, Run: CleanupDerived(d.Store)},
		{Name: "rate_window_purge", Every: 5 * time.Minute, Run: Purge(d.PurgeRateWindows)},
	}
	if d.Deliveries != nil && d.Poster != nil {
		all = append(all, Job{Name: "webhook_delivery", Every: 5 * time.Second,
			Run: Webhooks(d.Deliveries, d.Poster, time.Now, d.WebhookLease)})
	}
	if d.Calibration != nil {
		all = append(all, Job{Name: "calibration", Every: 6 * time.Hour, Writes: []string{"calibration_factors"}, Run: Calibration(d.Calibration)})
	}
	if d.Chokepoints != nil {
		all = append(all, Job{Name: "chokepoints", Every: time.Hour, Writes: []string{"chokepoint_transits_daily", "disruption_signals"}, Run: Chokepoints(d.Chokepoints)})
	}
	if d.Alerts != nil {
		sources := append([]AlertSource{RiskAlerts{Store: d.Risk}}, d.AlertSources...)
		all = append(all, Job{Name: "alerts", Every: 5 * time.Minute, Run: Alerts(d.Alerts, d.Now, sources...)})
	}
	return all
}

// Derivations are the jobs that derive tables from the position history,
// in dependency order (what `overwatch jobs --once` and the refresh
// endpoint run).
var Derivations = []string{"port_calls", "emissions", "congestion", "berth_utilization", "fleet_age", "export_estimates", "forecasts", "anomalies", "destination_reliability", "trade_routes", "earnings",
	"risk_events", "risk_scores", "risk_baselines"}
