package jobs

import (
	"context"
	"fmt"
	"time"

	"overwatch"

	"overwatch/maritime/risk"
	"overwatch/maritime/sanctions"
)

// Alert types and severities, as docs/alerts.md lists them.
const (
	AlertSanctions  = "sanctions_match"
	AlertDarkFleet  = "dark_fleet"
	AlertRiverLevel = "river_level"

	SeverityCritical = "critical"
	SeverityWarning  = "warning"
	SeverityInfo     = "info"
)

// AlertEvent is a platform event that may concern watchers: of a vessel
// (IMO, 7 digits) or a port (slug), with a key unique to the event.
type AlertEvent struct {
	Key, Type, Severity string
	Title, Message      string
	IMO, Port           string
	At                  time.Time
}

// AlertSource produces the platform events of one kind over [from, to).
// Sources are pluggable: the risk events of this service (RiskAlerts),
// the river gauges (RiverAlerts).
type AlertSource interface {
	Name() string
	Events(ctx context.Context, from, to time.Time) ([]AlertEvent, error)
}

// Watcher is an account and what it watches (its watchlist and the
// vessels and ports of its portfolios).
type Watcher struct {
	AccountID      int64
	Vessels, Ports map[string]bool
}

// Alert is an alert raised for an account.
type Alert struct {
	AccountID           int64
	Type, Severity      string
	Title, Message      string
	IMO, Port, EventKey string
	EventAt             time.Time
}

// AlertSink is where the alerts job finds the watchers and raises alerts
// (Postgres): RaiseAlerts stores each once per account and event key.
type AlertSink interface {
	Watchers(ctx context.Context) ([]Watcher, error)
	RaiseAlerts(ctx context.Context, alerts []Alert) (int, error)
}

// AlertLookback is how far before its watermark each run of the alerts
// job looks again (events written late, a source catching up); the first
// run looks back this far from now.
const AlertLookback = 3 * 24 * time.Hour

// Alerts raises alerts every 5 minutes: every event of the sources
// since AlertLookback before the watermark, for every account watching its
// vessel or port, once per account and event (re-runs raise nothing new).
// The watermark is the run's time.
func Alerts(sink AlertSink, now func() time.Time, sources ...AlertSource) Run {
	return func(ctx context.Context, prev State) (Result, error) {
		to := now().UTC()
		from := to.Add(-AlertLookback)
		if !prev.Watermark.IsZero() {
			from = prev.Watermark.Add(-AlertLookback)
		}
		watchers, err := sink.Watchers(ctx)
		if err != nil {
			return Result{}, err
		}
		if len(watchers) == 0 {
			// Nobody watches anything: no source need be read.
			return Result{From: from, To: to, Watermark: to}, nil
		}
		var alerts []Alert
		for _, s := range sources {
			events, err := s.Events(ctx, from, to)
			if err != nil {
				return Result{}, fmt.Errorf("alerts: source %s: %w", s.Name(), err)
			}
			alerts = append(alerts, AlertsFor(watchers, events)...)
		}
		n, err := sink.RaiseAlerts(ctx, alerts)
		if err != nil {
			return Result{}, err
		}
		return Result{From: from, To: to, Rows: n, Watermark: to}, nil
	}
}

// AlertsFor is the alerts of the events for the watchers of their vessel
// or port.
func AlertsFor(watchers []Watcher, events []AlertEvent) []Alert {
	var out []Alert
	for _, e := range events {
		for _, w := range watchers {
			if e.IMO != "" && w.Vessels[e.IMO] || e.Port != "" && w.Ports[e.Port] {
				out = append(out, Alert{AccountID: w.AccountID, Type: e.Type, Severity: e.Severity, Title: e.Title,
					Message: e.Message, IMO: e.IMO, Port: e.Port, EventKey: e.Key, EventAt: e.At})
			}
		}
	}
	return out
}

// RiskEventReader reads the risk events (the risk_events table).
type RiskEventReader interface {
	RiskEvents(ctx context.Context, from, to time.Time) ([]risk.Event, error)
}

// RiskAlerts is the alert source of the risk events: a sanctions_match
// event is a sanctions_match alert (critical for a direct IMO match,
// warning for another); an intentional AIS gap, a ship-to-ship transfer
// and a spoofed position are dark_fleet alerts, critical when the event is
// critical, warning when high, info otherwise (loitering, identity changes
// and draught mismatches feed the score, not alerts). A transfer alerts
// the watchers of either vessel. Events count from when they started.
type RiskAlerts struct{ Store RiskEventReader }

// Name implements AlertSource.
func (RiskAlerts) Name() string { return "risk" }

// Events implements AlertSource: the events that started in [from, to).
func (r RiskAlerts) Events(ctx context.Context, from, to time.Time) ([]AlertEvent, error) {
	events, err := r.Store.RiskEvents(ctx, from, to)
	if err != nil {
		return nil, err
	}
	var out []AlertEvent
	for _, e := range events {
		if e.Start.Before(from) && e.Type != risk.EventSanctions {
			continue
		}
		imo := e.IMO.String()
		key := fmt.Sprintf("%s/%s/%d/%d/%s", e.Type, e.Subtype, e.IMO, e.Other, e.Start.UTC().Format(time.RFC3339))
		switch {
		case e.Type == risk.EventSanctions:
			sev := SeverityWarning
			if e.Subtype == sanctions.MatchIMO {
				sev = SeverityCritical
			}
			entity, _ := e.Detail["sanctioned_entity"].(string)
			list, _ := e.Detail["list_source"].(string)
			key = fmt.Sprintf("%s/%s/%d/%s/%s", e.Type, e.Subtype, e.IMO, list, entity)
			out = append(out, AlertEvent{Key: key, Type: AlertSanctions, Severity: sev, IMO: imo, At: e.Start,
				Title:   fmt.Sprintf("IMO %s matches %s on %s", imo, entity, list),
				Message: fmt.Sprintf("Vessel IMO %s matched the %s entry %q (%s match).", imo, list, entity, e.Subtype)})
		case e.Type == risk.EventGap && e.Subtype == "intentional", e.Type == risk.EventSTS, e.Type == risk.EventSpoofing:
			sev := SeverityInfo
			switch e.Severity {
			case risk.TierCritical:
				sev = SeverityCritical
			case risk.TierHigh:
				sev = SeverityWarning
			}
			what := map[string]string{risk.EventGap: "AIS switched off (intentional gap)", risk.EventSTS: "ship-to-ship transfer", risk.EventSpoofing: "spoofed position"}[e.Type]
			vessels := []overwatch.IMO{e.IMO}
			if e.Type == risk.EventSTS && e.Other != 0 {
				vessels = append(vessels, e.Other)
			}
			for _, v := range vessels {
				vi := v.String()
				out = append(out, AlertEvent{Key: key + "/" + vi, Type: AlertDarkFleet, Severity: sev, IMO: vi, At: e.Start,
					Title:   fmt.Sprintf("IMO %s: %s", vi, what),
					Message: fmt.Sprintf("Vessel IMO %s: %s from %s (%s).", vi, what, e.Start.UTC().Format(time.RFC3339), e.Severity)})
			}
		}
	}
	return out, nil
}
