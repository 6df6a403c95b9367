package read

import (
	"context"
	"time"

	"overwatch/maritime/vessel"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/route"
)

// Who was there: the vessels with a stored fix inside an area in a time
// range, each with its first and last fix inside and its count of fixes.

// AreaPresence is one vessel's presence in the area.
type AreaPresence struct {
	IMO         overwatch.IMO
	Fixes       uint64
	First, Last AreaFix
}

// AreaFix is a fix of a presence.
type AreaFix struct {
	TS       time.Time
	Lat, Lon float64
}

// AreaStore reads presence in an area: every vessel with a fix the filter
// selects (its area included), ordered by IMO.
type AreaStore interface {
	AreaPresence(ctx context.Context, f PositionFilter) ([]AreaPresence, error)
}

// AreaDefaultRange is the range read when start is absent: the day before
// end.
const AreaDefaultRange = 24 * time.Hour

// areaRoutes mounts GET /v1/area/vessels. The registry (names, ship
// types) is the fleet view's cached answer.
func areaRoutes(r route.Router, s AreaStore, registry Query[VesselFilter, []VesselRow], now func() time.Time) {
	r.Handle(fiber.MethodGet, "/area/vessels", overwatch.AccessKey, AreaVessels(s, registry, now))
}

// AreaVessel is an item of GET /v1/area/vessels.
type AreaVessel struct {
	IMONumber string        `json:"imo_number"`
	MMSI      *uint32       `json:"mmsi"`
	Name      *string       `json:"name"`
	Flag      *string       `json:"flag"`
	Category  *string       `json:"category"`
	Fixes     uint64        `json:"fixes"`
	FirstFix  AreaFixOutput `json:"first_fix"`
	LastFix   AreaFixOutput `json:"last_fix"`
}

// AreaFixOutput is a fix of an AreaVessel; latitude and longitude are
// null for callers without exact coordinates (Free).
type AreaFixOutput struct {
	Timestamp string   `json:"timestamp"`
	Latitude  *float64 `json:"latitude"`
	Longitude *float64 `json:"longitude"`
}

// AreaVessels serves GET /v1/area/vessels: the position filter with an
// area required (bbox or polygon); end defaults to now, start to a day
// before end, moved up to the plan's history floor; limit (default 500,
// at most 500 and the plan's results per call). Ordered by IMO; total
// counts every vessel present.
func AreaVessels(store AreaStore, registry Query[VesselFilter, []VesselRow], now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		f, err := positionFilter(c)
		if err != nil {
			return err
		}
		if !f.HasArea() {
			return invalid("bbox", "bbox or polygon is required: the area")
		}
		limit, err := limitParam(c, 500, 500)
		if err != nil {
			return err
		}
		ctx := c.UserContext()
		caller := overwatch.CallerFrom(ctx)
		t := now().UTC()
		if f.End.IsZero() || f.End.After(t) {
			f.End = t
		}
		if f.Start.IsZero() {
			f.Start = f.End.Add(-AreaDefaultRange)
		}
		f.Start = caller.ClampSince(f.Start, t)
		present, err := store.AreaPresence(ctx, f)
		if err != nil {
			return err
		}
		vessels, err := registry(ctx, VesselFilter{Limit: fleetAll})
		if err != nil {
			return err
		}
		byIMO := make(map[overwatch.IMO]*VesselRow, len(vessels))
		for i := range vessels {
			byIMO[vessels[i].IMO] = &vessels[i]
		}
		exact := caller.ExactCoordinates()
		fix := func(x AreaFix) AreaFixOutput {
			o := AreaFixOutput{Timestamp: x.TS.UTC().Format(time.RFC3339)}
			if exact {
				lat, lon := roundTo(x.Lat, 5), roundTo(x.Lon, 5)
				o.Latitude, o.Longitude = &lat, &lon
			}
			return o
		}
		out := make([]AreaVessel, 0, min(limit, len(present)))
		for _, p := range present[:min(limit, len(present))] {
			v := AreaVessel{IMONumber: p.IMO.String(), Fixes: p.Fixes, FirstFix: fix(p.First), LastFix: fix(p.Last)}
			if r := byIMO[p.IMO]; r != nil {
				mmsi := r.MMSI
				v.MMSI, v.Name, v.Flag = &mmsi, optString(r.Name), optString(r.Flag)
				if k, ok := vessel.CategoryOf(r.ShipType); ok {
					v.Category = &k.Name
				}
			}
			out = append(out, v)
		}
		return c.JSON(fiber.Map{
			"vessels": out, "total": len(present),
			"start": f.Start.Format(time.RFC3339), "end": f.End.Format(time.RFC3339),
		})
	}
}
