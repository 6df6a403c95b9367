package read

import (
	"context"
	"math"
	"time"

	"overwatch/maritime/seaport"

	"github.com/gofiber/fiber/v2"

	"overwatch"
)

// PortPositionsWindow is how recent a vessel's latest position must be for
// the vessel to count as in port now.
const PortPositionsWindow = 24 * time.Hour

// PortPositionQuery returns the latest position (across sources) of each
// vessel whose latest position lies in the port area and was reported at or
// after since, ordered by IMO.
type PortPositionQuery interface {
	PortPositions(ctx context.Context, port seaport.Port, since time.Time, limit int) ([]overwatch.LatestRow, error)
}

// PortPosition is an item of GET /v1/positions.
type PortPosition struct {
	IMONumber  string   `json:"imo_number"`
	Latitude   *float64 `json:"latitude"`
	Longitude  *float64 `json:"longitude"`
	Speed      *float64 `json:"speed"`
	Course     *float64 `json:"course"`
	Draft      *float64 `json:"draft"`
	NavStatus  *string  `json:"nav_status"`
	Name       *string  `json:"name"`
	VesselType *string  `json:"vessel_type"`
	Timestamp  string   `json:"timestamp"`
}

func roundTo(v float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(v*p) / p
}

func roundPtr(v *float64, digits int) *float64 {
	if v == nil {
		return nil
	}
	r := roundTo(*v, digits)
	return &r
}

// Positions serves GET /v1/positions?port=: a bare JSON array of the latest
// position of each vessel in the port area, reported in the last 24 hours
// (and within the tier's history). Free callers get no exact coordinates
// (latitude and longitude are null); the tier caps the number of vessels.
func Positions(store PortPositionQuery, now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		port, err := portParam(c, "port", true)
		if err != nil {
			return err
		}
		caller := overwatch.CallerFrom(c.UserContext())
		t := now()
		since := caller.ClampSince(t.Add(-PortPositionsWindow), t)
		rows, err := store.PortPositions(c.UserContext(), *port, since, caller.ClampLimit(math.MaxInt32, 0))
		if err != nil {
			return err
		}
		out := make([]PortPosition, len(rows))
		for i, r := range rows {
			p := PortPosition{
				IMONumber: r.IMO.String(), Speed: roundPtr(r.SpeedKt, 1), Course: roundPtr(r.CourseDeg, 1),
				Draft: roundPtr(r.DraftM, 1), NavStatus: r.NavStatus, Name: r.VesselName, VesselType: r.VesselType,
				Timestamp: r.TS.UTC().Format(time.RFC3339),
			}
			if caller.ExactCoordinates() {
				p.Latitude, p.Longitude = r.Lat, r.Lon
			}
			out[i] = p
		}
		return c.JSON(out)
	}
}
