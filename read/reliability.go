package read

import (
	"context"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/maritime/portstats"
	"overwatch/maritime/vessel"
	"overwatch/route"
)

// ReliabilityTiers are the destination-reliability tiers (portstats.TierOf).
var ReliabilityTiers = []string{portstats.TierReliable, portstats.TierModerate, portstats.TierUnreliable}

// ReliabilityRequest selects destination-reliability rows: of one vessel
// (IMO 0: any), of one tier ("" for any), whose last call is at or after
// Since (zero: any), at most Limit.
type ReliabilityRequest struct {
	IMO   overwatch.IMO
	Tier  string
	Since time.Time
	Limit int
}

// ReliabilityStore reads destination_reliability, by calls descending,
// then IMO.
type ReliabilityStore interface {
	DestinationReliability(ctx context.Context, r ReliabilityRequest) ([]portstats.Reliability, error)
}

// reliabilityRoutes mounts the destination-reliability endpoint.
func reliabilityRoutes(r route.Router, s ReliabilityStore, c *Cache, now func() time.Time) {
	q := Cached(c, "destination_reliability", []string{tableReliability}, s.DestinationReliability)
	r.Handle(fiber.MethodGet, "/destination-reliability", overwatch.AccessKey, DestinationReliability(q, now))
}

// Reliability is an item of GET /v1/destination-reliability.
type Reliability struct {
	IMO        string  `json:"imo"`
	Name       *string `json:"name"`
	Flag       *string `json:"flag"`
	VesselType *string `json:"vessel_type"`
	Calls      int     `json:"calls"`
	Declared   int     `json:"declared"`
	Matched    int     `json:"matched"`
	Share      float64 `json:"share"`
	Tier       string  `json:"tier"`
	LastCall   string  `json:"last_call"`
}

// NewReliability presents a reliability row; vessel_type is the ship type
// category.
func NewReliability(r portstats.Reliability) Reliability {
	out := Reliability{
		IMO: r.IMO.String(), Name: optString(r.Name), Flag: optString(r.Flag), VesselType: optString(r.Category),
		Calls: r.Calls, Declared: r.Declared, Matched: r.Matched, Share: roundTo(r.Share, 3), Tier: r.Tier,
		LastCall: r.LastCall.UTC().Format(time.RFC3339),
	}
	if out.VesselType == nil && r.ShipType != 0 {
		if c, ok := vessel.CategoryOf(r.ShipType); ok {
			out.VesselType = &c.Name
		}
	}
	return out
}

// DestinationReliability serves GET /v1/destination-reliability: vessel
// (IMO), tier, limit (default 100, max 500, clamped by the tier). How often
// each vessel's declared AIS destination named the port it reached, over
// its whole history; vessels whose last call is older than the tier's
// history are left out. A vessel asked for without a row is a 404.
func DestinationReliability(q Query[ReliabilityRequest, []portstats.Reliability], now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		var f ReliabilityRequest
		imo, byVessel, err := imoParam(c, "vessel", false)
		if err != nil {
			return err
		}
		f.IMO = imo
		if f.Tier, err = enumParam(c, "tier", ReliabilityTiers...); err != nil {
			return err
		}
		if f.Limit, err = limitParam(c, 100, 500); err != nil {
			return err
		}
		f.Since = Minute(overwatch.CallerFrom(c.UserContext()).HistoryFloor(now()))
		rows, err := q(c.UserContext(), f)
		if err != nil {
			return err
		}
		if byVessel && len(rows) == 0 {
			msg := "no destination reliability for vessel " + imo.String()
			if f.Tier != "" {
				msg += " in tier " + f.Tier
			}
			return overwatch.Errorf(overwatch.NotFound, "%s", msg).With("parameter", "vessel")
		}
		out := make([]Reliability, len(rows))
		for i, r := range rows {
			out[i] = NewReliability(r)
		}
		return c.JSON(fiber.Map{"reliability": out})
	}
}
