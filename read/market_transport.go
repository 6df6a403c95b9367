package read

import (
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/maritime/market"
)

// TransportModes are the values of the mode parameter of
// /v1/transport-data: the specification's three, and ocean freight (a
// documented extension).
var TransportModes = []string{"barge", "rail", "truck", "ocean"}

// TransportData serves GET /v1/transport-data: mode (barge, rail, truck;
// ocean as a documented extension), commodity (a name or a synonym, or
// grain), region (fuzzy: case, punctuation, accents and partial words, so
// "st louis" finds "St. Louis"), since (ISO date), limit (default 100, max
// 500, clamped by the tier). Rates newest first, each as published and in
// USD per tonne where it converts; the plan's history depth counts back
// from each series' newest observation. A region that matches nothing is
// an empty answer, not an error. q answers the encoded body (Encoded).
func TransportData(q Query[TransportRequest, []byte], regions Query[string, []string], now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		var r TransportRequest
		var err error
		if r.Mode, err = enumParam(c, "mode", TransportModes...); err != nil {
			return err
		}
		if r.Commodity, err = transportCommodityParam(c, "commodity"); err != nil {
			return err
		}
		region, err := stringParam(c, "region", 100)
		if err != nil {
			return err
		}
		t := now().UTC()
		if r.Since, err = sinceParam(c, "since", t); err != nil {
			return err
		}
		if r.Limit, err = limitParam(c, 100, 500); err != nil {
			return err
		}
		r.Depth = planDepth(overwatch.CallerFrom(c.UserContext()), t)
		if region != "" {
			names, err := regions(c.UserContext(), r.Mode)
			if err != nil {
				return err
			}
			var matched []string
			for _, n := range names {
				if market.MatchRegion(region, n) {
					matched = append(matched, n)
				}
			}
			if len(matched) == 0 {
				return c.JSON(fiber.Map{"transport_data": []TransportRate{}})
			}
			r.Regions = strings.Join(matched, "\n")
		}
		body, err := q(c.UserContext(), r)
		if err != nil {
			return err
		}
		return sendJSON(c, body)
	}
}

// transportCommodityParam reads the commodity of /v1/transport-data: grain
// (what most rates are published for) or a market commodity.
func transportCommodityParam(c *fiber.Ctx, name string) (string, error) {
	if strings.EqualFold(strings.TrimSpace(c.Query(name)), "grain") {
		return "grain", nil
	}
	return commodityParam(c, name)
}

// joinNames lists names for an error message.
func joinNames(names []string) string {
	return strings.Join(names, ", ")
}
