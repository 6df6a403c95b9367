package read

import (
	"context"
	"slices"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/maritime/risk"
	"overwatch/maritime/seaport"
	"overwatch/maritime/vessel"
	"overwatch/route"
)

// GET /v1/vessels/positions: the latest position of every vessel, the
// fleet view the /map page draws. Positions come from the latest-position
// replica (the freshest row with a position across providers), the ship
// type category from the vessel registry, the risk score and tier from
// vessel_risk. Ordered by IMO and paged by cursor, so a client can walk the
// whole fleet at its plan's results per call.

// FleetLatest is the latest-position replica as the fleet view reads it:
// fn is called with the freshest row that has a position of every vessel.
type FleetLatest interface {
	EachLatest(ctx context.Context, fn func(overwatch.LatestRow)) error
}

// FleetStore is what the fleet view reads besides the positions: the
// registry (for ship types) and the risk scores.
type FleetStore interface {
	VesselSearch
	VesselRisks(ctx context.Context, r VesselRisksRequest) ([]risk.VesselScore, error)
}

// fleetAll is the registry and score limit of the fleet view: the whole
// table.
const fleetAll = 1 << 24

// fleetRoutes mounts GET /v1/vessels/positions. The registry answer is
// cached for the cache's TTL (ingest writes it, no job), the scores until
// the risk job writes new ones.
func fleetRoutes(r route.Router, latest FleetLatest, s FleetStore, c *Cache, now func() time.Time) {
	registry := Cached(c, "fleet_registry", []string{"vessels"}, s.Vessels)
	scores := Cached(c, "fleet_risks", []string{tableVesselRisk}, s.VesselRisks)
	r.Handle(fiber.MethodGet, "/vessels/positions", overwatch.AccessKey, FleetPositions(latest, registry, scores, now))
}

// FleetPosition is an item of GET /v1/vessels/positions: VesselType is the
// ITU ship type text the vessel reports, Category its ship type category
// from the registry (as GET /v1/vessels). Latitude and
// longitude are null for callers without exact coordinates (Free). Port is
// the port whose area holds the position, when reported in the last 24
// hours; RiskScore and RiskTier are null for a vessel the risk job has not
// scored.
type FleetPosition struct {
	IMONumber   string   `json:"imo_number"`
	MMSI        uint32   `json:"mmsi"`
	Name        *string  `json:"name"`
	Flag        *string  `json:"flag"`
	VesselType  *string  `json:"vessel_type"`
	Category    *string  `json:"category"`
	Latitude    *float64 `json:"latitude"`
	Longitude   *float64 `json:"longitude"`
	Speed       *float64 `json:"speed"`
	Course      *float64 `json:"course"`
	NavStatus   *string  `json:"nav_status"`
	Destination *string  `json:"destination"`
	Port        *string  `json:"port"`
	RiskScore   *float64 `json:"risk_score"`
	RiskTier    *string  `json:"risk_tier"`
	Timestamp   string   `json:"timestamp"`
}

// FleetPage is the body of GET /v1/vessels/positions: Total counts every
// vessel the filters select (all pages).
type FleetPage struct {
	Positions  []FleetPosition `json:"positions"`
	Total      int             `json:"total"`
	Pagination Pagination      `json:"pagination"`
}

// portIndex finds the port area of a position.
var portIndex = seaport.NewIndex(seaport.All())

// FleetPositions serves GET /v1/vessels/positions: the position filter
// (imo, mmsi, type, bbox or polygon, start and end, source: applied to
// each vessel's latest position), tier (a risk tier), port (slug or id:
// vessels in the port area now), cursor (the last IMO of the previous
// page), limit (default 500, at most 500 and the plan's results per call).
// Positions reported before the plan's history floor are left out.
func FleetPositions(latest FleetLatest, registry Query[VesselFilter, []VesselRow],
	scores Query[VesselRisksRequest, []risk.VesselScore], now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		pf, err := positionFilter(c)
		if err != nil {
			return err
		}
		cat := pf.Category
		tier, err := enumParam(c, "tier", RiskTiers...)
		if err != nil {
			return err
		}
		port, err := portParam(c, "port", false)
		if err != nil {
			return err
		}
		cursor, _, err := imoParam(c, "cursor", false)
		if err != nil {
			return err
		}
		limit, err := limitParam(c, 500, 500)
		if err != nil {
			return err
		}
		ctx := c.UserContext()
		caller := overwatch.CallerFrom(ctx)
		t := now()
		floor, inPortSince := caller.HistoryFloor(t), t.Add(-PortPositionsWindow)

		vessels, err := registry(ctx, VesselFilter{Limit: fleetAll})
		if err != nil {
			return err
		}
		types := make(map[overwatch.IMO]string, len(vessels))
		for _, v := range vessels {
			if k, ok := vessel.CategoryOf(v.ShipType); ok {
				types[v.IMO] = k.Name
			}
		}
		scored, err := scores(ctx, VesselRisksRequest{Limit: fleetAll})
		if err != nil {
			return err
		}
		byIMO := make(map[overwatch.IMO]*risk.VesselScore, len(scored))
		for i := range scored {
			byIMO[scored[i].IMO] = &scored[i]
		}

		var out []FleetPosition
		err = latest.EachLatest(ctx, func(r overwatch.LatestRow) {
			if r.TS.Before(floor) || r.Lat == nil || r.Lon == nil || !latestSelected(pf, r) {
				return
			}
			category, score := types[r.IMO], byIMO[r.IMO]
			if cat != nil && category != cat.Name || tier != "" && (score == nil || score.Tier != tier) {
				return
			}
			var slug string
			if !r.TS.Before(inPortSince) {
				slug = portIndex.PortAt(*r.Lat, *r.Lon)
			}
			if port != nil && slug != port.Slug {
				return
			}
			p := FleetPosition{
				IMONumber: r.IMO.String(), MMSI: r.MMSI, Name: r.VesselName, Flag: r.Flag, VesselType: r.VesselType,
				Category: optString(category),
				Speed:    roundPtr(r.SpeedKt, 1), Course: roundPtr(r.CourseDeg, 1), NavStatus: r.NavStatus,
				Destination: r.Destination, Port: optString(slug), Timestamp: r.TS.UTC().Format(time.RFC3339),
			}
			if caller.ExactCoordinates() {
				lat, lon := roundTo(*r.Lat, 5), roundTo(*r.Lon, 5)
				p.Latitude, p.Longitude = &lat, &lon
			}
			if score != nil {
				s, tr := roundTo(score.Score, 1), score.Tier
				p.RiskScore, p.RiskTier = &s, &tr
			}
			out = append(out, p)
		})
		if err != nil {
			return err
		}
		slices.SortFunc(out, func(a, b FleetPosition) int {
			switch {
			case a.IMONumber < b.IMONumber:
				return -1
			case a.IMONumber > b.IMONumber:
				return 1
			}
			return 0
		})
		page := FleetPage{Total: len(out), Positions: []FleetPosition{}}
		start := 0
		if cursor != 0 {
			after := cursor.String()
			start, _ = slices.BinarySearchFunc(out, after, func(p FleetPosition, imo string) int {
				if p.IMONumber <= imo {
					return -1
				}
				return 1
			})
		}
		end := min(len(out), start+limit)
		page.Positions = append(page.Positions, out[start:end]...)
		if end < len(out) && end > start {
			next := out[end-1].IMONumber
			page.Pagination = Pagination{HasMore: true, NextCursor: &next}
		}
		return c.JSON(page)
	}
}

// latestSelected reports whether a vessel's latest position passes the
// position filter (its category is checked against the registry apart).
func latestSelected(f PositionFilter, r overwatch.LatestRow) bool {
	if len(f.IMOs) > 0 && !slices.Contains(f.IMOs, r.IMO) || len(f.MMSIs) > 0 && !slices.Contains(f.MMSIs, r.MMSI) ||
		len(f.Sources) > 0 && !slices.Contains(f.Sources, r.Source) ||
		!f.Start.IsZero() && r.TS.Before(f.Start) || !f.End.IsZero() && r.TS.After(f.End) {
		return false
	}
	return f.InArea(*r.Lat, *r.Lon)
}
