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
	Risk  RiskStore
	Ports *seaport.Index
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
}

// All lists every job of the service, in the order a full refresh runs
// them (each derivation reads the port calls the first one writes). Every
// job runs in singleton mode: a run that would overlap the previous one is
// skipped (gocron.LimitModeReschedule), and with several instances the
// distributed locker lets one of them run each tick.
//
//	name                     every   recomputes
//	port_calls               10 min  whole days from 3 days before the watermark
//	emissions                1 h     the voyages that ended from 4 days before the watermark
//	congestion               15 min  the last 14 days
//	berth_utilization        1 h     the last 3 ISO weeks
//	fleet_age                1 h     the last 3 ISO weeks
//	export_estimates         1 h     the last 3 ISO weeks
//	destination_reliability  1 h     the whole history
//	risk_events              30 min  whole days from 3 days before the watermark
//	risk_scores              30 min  every vessel's score, the hotspots
//	risk_baselines           6 h     the last 30 days
//	derived_cleanup          6 h     deletes superseded generations
//	rate_window_purge        5 min   deletes expired rate-limit windows
//	alerts                   5 min   alerts of the events of the last 3 days for their watchers
//	webhook_delivery         5 s     sends the due webhook deliveries (retries with backoff)
func All(d Deps) []Job {
	all := []Job{
		PortCalls(d.Store, d.Ports),
		EmissionsJob(d.Emissions),
		CongestionJob(d.Store),
		BerthJob(d.Store),
		FleetAgeJob(d.Store),
		EstimatesJob(d.Store),
		ReliabilityJob(d.Store),
		RiskEventsJob(d.Risk, d.Ports),
		RiskScoresJob(d.Risk),
		RiskBaselinesJob(d.Risk),
		CleanupJob(d.Store),
		PurgeJob("rate_window_purge", d.PurgeRateWindows),
	}
	if d.Deliveries != nil && d.Poster != nil {
		all = append(all, WebhooksJob(d.Deliveries, d.Poster, time.Now, d.WebhookLease))
	}
	if d.Alerts != nil {
		all = append(all, AlertsJob(d.Alerts, time.Now, append([]AlertSource{RiskAlerts{Store: d.Risk}}, d.AlertSources...)...))
	}
	return all
}

// Derivations are the jobs that derive tables from the position history,
// in dependency order (what `overwatch jobs --once` and the refresh
// endpoint run).
var Derivations = []string{"port_calls", "emissions", "congestion", "berth_utilization", "fleet_age", "export_estimates", "destination_reliability",
	"risk_events", "risk_scores", "risk_baselines"}
