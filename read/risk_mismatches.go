package read

import (
	"time"

	"overwatch/maritime/risk"

	"github.com/gofiber/fiber/v2"
)

// GET /v1/risk/mismatches: draught mismatches.

// MismatchTypes are the subtypes of a draught mismatch.
var MismatchTypes = []string{"directional", "magnitude", "zero_change"}

// RiskMismatches serves GET /v1/risk/mismatches: type (directional,
// magnitude, zero_change), vessel (IMO), port (a port slug or the port's
// stable UUID; an unknown one is a 404 naming it), limit (default 100, max
// 500). Newest first, no older than the plan's history.
func RiskMismatches(events Query[RiskEventsRequest, []RiskEventRow], now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		f, err := riskEventsFilter(c, now)
		if err != nil {
			return err
		}
		f.Type = risk.EventMismatch
		if f.Subtype, err = enumParam(c, "type", MismatchTypes...); err != nil {
			return err
		}
		port, err := portParam(c, "port", false)
		if err != nil {
			return err
		}
		if port != nil {
			f.Port = port.Slug
		}
		return listEvents(c, events, f)
	}
}
