package read

import (
	"time"

	"overwatch/maritime/risk"

	"github.com/gofiber/fiber/v2"

	"overwatch"
)

// GET /v1/risk/sts and GET /v1/risk/sts/stats: ship-to-ship transfers.

// STS methods (the subtype of a transfer) and confidences (its detail's
// `confidence`).
var (
	STSMethods     = []string{"proximity", "path_intersection"}
	STSConfidences = []string{"high", "medium", "low"}
)

// RiskSTS serves GET /v1/risk/sts: confidence (high, medium, low), vessel
// (an IMO: transfers where it is either vessel), method (proximity,
// path_intersection), limit (default 100, max 500). Newest first; the
// plan's history applies to the start, ongoing encounters always shown.
func RiskSTS(events Query[RiskEventsRequest, []RiskEventRow], now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		f, err := riskEventsFilter(c, now)
		if err != nil {
			return err
		}
		f.Type, f.EitherVessel = risk.EventSTS, true
		if f.Confidence, err = enumParam(c, "confidence", STSConfidences...); err != nil {
			return err
		}
		if f.Subtype, err = enumParam(c, "method", STSMethods...); err != nil {
			return err
		}
		return listEvents(c, events, f)
	}
}

// STSStatsRow is the figures of /risk/sts/stats over the transfers that
// started at or after the floor, or go on.
type STSStatsRow struct {
	Total        uint64
	ByConfidence map[string]uint64
	Tonnes       float64 // the sum of the transfers' estimated tonnes
	Active       uint64  // transfers that go on
}

// STSStatsRequest asks for the transfer figures; Since is the history
// floor (zero: none).
type STSStatsRequest struct {
	Since time.Time
}

// STSStats is the body of GET /v1/risk/sts/stats.
type STSStats struct {
	TotalEvents      uint64            `json:"total_events"`
	ByConfidence     map[string]uint64 `json:"by_confidence"`
	TotalTonnage     float64           `json:"total_tonnage"`
	ActiveEncounters uint64            `json:"active_encounters"`
}

// RiskSTSStats serves GET /v1/risk/sts/stats: over the transfers the plan
// may see (started within its history, or going on): how many, how many
// per confidence (every level present), the estimated tonnes transferred
// (the sum of the detail's `tonnes`, rounded to the tonne) and the
// encounters that go on.
func RiskSTSStats(stats Query[STSStatsRequest, STSStatsRow], now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		r, err := stats(c.UserContext(), STSStatsRequest{Since: Minute(overwatch.CallerFrom(c.UserContext()).HistoryFloor(now()))})
		if err != nil {
			return err
		}
		out := STSStats{TotalEvents: r.Total, ByConfidence: map[string]uint64{}, TotalTonnage: roundTo(r.Tonnes, 0), ActiveEncounters: r.Active}
		for _, k := range STSConfidences {
			out.ByConfidence[k] = r.ByConfidence[k]
		}
		return c.JSON(out)
	}
}
