package read

import (
	"time"

	"overwatch/maritime/risk"

	"github.com/gofiber/fiber/v2"
)

// GET /v1/risk/loitering.

// Loitering types (the subtype of a loitering event) and contexts (its
// detail's `context`).
var (
	LoiteringTypes    = []string{"stationary", "slow_roll"}
	LoiteringContexts = []string{"offshore", "port_approach", "anchorage", "known_transfer_area"}
)

// RiskLoitering serves GET /v1/risk/loitering: type (stationary,
// slow_roll), vessel (IMO), context (offshore, port_approach, anchorage,
// known_transfer_area), limit (default 100, max 500). Newest first; the
// plan's history applies to the start, ongoing loitering always shown.
func RiskLoitering(events Query[RiskEventsRequest, []RiskEventRow], now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		f, err := riskEventsFilter(c, now)
		if err != nil {
			return err
		}
		f.Type = risk.EventLoitering
		if f.Subtype, err = enumParam(c, "type", LoiteringTypes...); err != nil {
			return err
		}
		if f.Context, err = enumParam(c, "context", LoiteringContexts...); err != nil {
			return err
		}
		return listEvents(c, events, f)
	}
}
