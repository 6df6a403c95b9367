package jobs

import (
	"context"
	"fmt"
	"math"
	"time"

	"overwatch/maritime/predict"
	"overwatch/maritime/seaport"
)

// AlertETAChanged is the alert of a watched vessel whose predicted ETA
// moved by more than the threshold, or whose predicted next port changed.
const AlertETAChanged = "eta_changed"

// DefaultETAChangeHours is the ETA move that raises eta_changed when the
// service sets none (OVERWATCH_ETA_ALERT_HOURS).
const DefaultETAChangeHours = 6.0

// PredictionRefreshes reads the two newest refreshes of the predictions
// table: the newest one's time and rows, and the one before it.
type PredictionRefreshes interface {
	PredictionRefreshes(ctx context.Context) (newest time.Time, cur, prev []predict.Prediction, err error)
}

// PredictionAlerts is the alert source of the predictions: one
// eta_changed event per vessel and refresh, when the vessel's first
// predicted port is not the one of the refresh before, or it is and its
// ETA moved by more than Hours. A vessel absent from either refresh (it
// arrived, or has just sailed) raises nothing.
type PredictionAlerts struct {
	Store PredictionRefreshes
	Hours float64 // the ETA move that counts (0: DefaultETAChangeHours)
}

// Name implements AlertSource.
func (PredictionAlerts) Name() string { return "predictions" }

// Events implements AlertSource: the changes between the two newest
// refreshes, when the newest was computed in [from, to).
func (p PredictionAlerts) Events(ctx context.Context, from, to time.Time) ([]AlertEvent, error) {
	newest, cur, prev, err := p.Store.PredictionRefreshes(ctx)
	if err != nil || newest.IsZero() || newest.Before(from) || !newest.Before(to) {
		return nil, err
	}
	return ETAChanges(newest, cur, prev, p.Hours), nil
}

// ETAChanges are the eta_changed events between two refreshes.
func ETAChanges(at time.Time, cur, prev []predict.Prediction, hours float64) []AlertEvent {
	if hours <= 0 {
		hours = DefaultETAChangeHours
	}
	before := make(map[string]predict.NextPort, len(prev))
	for _, p := range prev {
		if len(p.Next) > 0 {
			before[p.IMO.String()] = p.Next[0]
		}
	}
	var out []AlertEvent
	for _, p := range cur {
		imo := p.IMO.String()
		old, ok := before[imo]
		if !ok || len(p.Next) == 0 {
			continue
		}
		now := p.Next[0]
		e := AlertEvent{Key: fmt.Sprintf("%s:%s:%d", AlertETAChanged, imo, at.Unix()), Type: AlertETAChanged,
			Severity: SeverityInfo, IMO: imo, Port: now.Port, At: at}
		switch moved := now.ETA.Sub(old.ETA).Hours(); {
		case now.Port != old.Port:
			e.Title = fmt.Sprintf("Vessel %s: predicted next port now %s", imo, portName(now.Port))
			e.Message = fmt.Sprintf("The predicted next port of vessel %s changed from %s to %s (probability %.2f), ETA %s.",
				imo, portName(old.Port), portName(now.Port), now.Probability, now.ETA.UTC().Format(time.RFC3339))
		case math.Abs(moved) > hours:
			e.Title = fmt.Sprintf("Vessel %s: ETA at %s moved %+.1f h", imo, portName(now.Port), moved)
			e.Message = fmt.Sprintf("The predicted ETA of vessel %s at %s moved from %s to %s (%+.1f h; the alert threshold is %.1f h).",
				imo, portName(now.Port), old.ETA.UTC().Format(time.RFC3339), now.ETA.UTC().Format(time.RFC3339), moved, hours)
		default:
			continue
		}
		out = append(out, e)
	}
	return out
}

func portName(slug string) string {
	if p, ok := seaport.BySlug(slug); ok {
		return p.Name
	}
	return slug
}
