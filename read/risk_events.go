package read

import (
	"time"

	"overwatch/maritime/risk"

	"github.com/gofiber/fiber/v2"

	"overwatch"
)

// GET /v1/risk/events and GET /v1/risk/stats.

// RiskStatsWindow is how far back /risk/stats counts events by tier.
const RiskStatsWindow = 30 * 24 * time.Hour

// riskEventsFilter reads the parameters every event list shares: vessel
// (an IMO), start and end (the events under way at some time between
// them: started at or before end, ended at or after start or going on)
// and limit (default 100, at most 500 and the plan's results per call);
// the plan's history floor applies to the events' start.
func riskEventsFilter(c *fiber.Ctx, now func() time.Time) (RiskEventsRequest, error) {
	var f RiskEventsRequest
	imo, _, err := imoParam(c, "vessel", false)
	if err != nil {
		return f, err
	}
	f.IMO = imo
	if f.From, _, err = timeParam(c, "start"); err != nil {
		return f, err
	}
	if f.To, _, err = timeParam(c, "end"); err != nil {
		return f, err
	}
	if !f.From.IsZero() && !f.To.IsZero() && f.To.Before(f.From) {
		return f, overwatch.Errorf(overwatch.Invalid, "end must not be before start").With("parameter", "end")
	}
	if f.Limit, err = limitParam(c, 100, 500); err != nil {
		return f, err
	}
	f.Since = Minute(overwatch.CallerFrom(c.UserContext()).HistoryFloor(now()))
	return f, nil
}

// listEvents answers an event list with {"events": [...]}.
func listEvents(c *fiber.Ctx, events Query[RiskEventsRequest, []RiskEventRow], f RiskEventsRequest) error {
	rows, err := events(c.UserContext(), f)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"events": presentEvents(rows, overwatch.CallerFrom(c.UserContext()))})
}

// listVerifiedEvents answers an event list whose ais_gap events carry
// their verification potential (risk_sar.go).
func listVerifiedEvents(c *fiber.Ctx, events Query[RiskEventsRequest, []RiskEventRow], verify GapVerifications,
	f RiskEventsRequest, now func() time.Time) error {
	ctx := c.UserContext()
	rows, err := events(ctx, f)
	if err != nil {
		return err
	}
	v, err := verify(ctx, RiskSARKey{Events: f, Now: Minute(now())}, rows)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"events": withVerifications(presentEvents(rows, overwatch.CallerFrom(ctx)), v)})
}

// RiskEvents serves GET /v1/risk/events: tier (the events' severity),
// vessel (IMO: its events, and the transfers where it is the other
// vessel), ongoing ('true': only the AIS gaps that go on), limit
// (default 100, max 500). Every type of event, newest first; events that
// started before the plan's history are left out unless they go on. Each
// ais_gap event carries its SAR verification potential.
func RiskEvents(events Query[RiskEventsRequest, []RiskEventRow], verify GapVerifications, now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		f, err := riskEventsFilter(c, now)
		if err != nil {
			return err
		}
		if f.Severity, err = enumParam(c, "tier", RiskTiers...); err != nil {
			return err
		}
		ongoing, err := boolParam(c, "ongoing", false)
		if err != nil {
			return err
		}
		if ongoing {
			f.Type, f.OngoingOnly = risk.EventGap, true
		}
		// A transfer is stored once for the pair, under the lower IMO: the
		// vessel's list holds it whichever side it is on, as /risk/sts does.
		f.EitherVessel = f.IMO != 0
		return listVerifiedEvents(c, events, verify, f, now)
	}
}

// RiskStatsRow is the figures of /risk/stats. ByTier counts by severity
// the events that started at or after the window's start, or go on.
type RiskStatsRow struct {
	ActiveGaps      uint64
	CriticalVessels uint64
	ActiveHotspots  uint64
	NewEvents24h    uint64
	ByTier          map[string]uint64
}

// RiskStatsRequest asks for the risk figures as of Now; Since is the start
// of the tier counts' window.
type RiskStatsRequest struct {
	Now, Since time.Time
}

// RiskStats is the body of GET /v1/risk/stats.
type RiskStats struct {
	ActiveGaps      uint64            `json:"active_gaps"`
	CriticalVessels uint64            `json:"critical_vessels"`
	ActiveHotspots  uint64            `json:"active_hotspots"`
	NewEvents24h    uint64            `json:"new_events_24h"`
	EventsByTier    map[string]uint64 `json:"events_by_tier"`
}

// RiskStatsHandler serves GET /v1/risk/stats: AIS gaps that go on,
// vessels in the critical tier, active hotspots, events that started in
// the last 24 hours, and the events of the last 30 days (no further back
// than the plan's history) or going on, by severity tier (every tier
// present, 0 when none).
func RiskStatsHandler(stats Query[RiskStatsRequest, RiskStatsRow], now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		t := now().UTC()
		since := overwatch.CallerFrom(c.UserContext()).ClampSince(t.Add(-RiskStatsWindow), t)
		r, err := stats(c.UserContext(), RiskStatsRequest{Now: Minute(t), Since: Minute(since)})
		if err != nil {
			return err
		}
		out := RiskStats{ActiveGaps: r.ActiveGaps, CriticalVessels: r.CriticalVessels, ActiveHotspots: r.ActiveHotspots,
			NewEvents24h: r.NewEvents24h, EventsByTier: map[string]uint64{}}
		for _, tier := range RiskTiers {
			out.EventsByTier[tier] = r.ByTier[tier]
		}
		return c.JSON(out)
	}
}
