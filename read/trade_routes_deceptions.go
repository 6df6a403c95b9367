package read

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/maritime/trade"
)

// DeceptionsRequest selects route deceptions: of a vessel (IMO 0: any),
// suspicious or not (Suspicious "true" or "false"; "" for both), at an
// actual port ("" for any), arriving at or after From, at most Limit. It
// holds no pointer, so that equal requests share a cache entry.
type DeceptionsRequest struct {
	IMO        overwatch.IMO
	Suspicious string
	ActualPort string
	From       time.Time
	Limit      int
}

// Deception is an item of GET /v1/routes/deceptions.
type Deception struct {
	IMO                string  `json:"imo"`
	Name               *string `json:"name"`
	Origin             string  `json:"origin"`
	OriginName         string  `json:"origin_name"`
	Departure          string  `json:"departure"`
	Arrival            string  `json:"arrival"`
	Declared           string  `json:"declared"`
	DeclaredPort       string  `json:"declared_port"`
	DeclaredPortName   string  `json:"declared_port_name"`
	ActualPort         string  `json:"actual_port"`
	ActualPortName     string  `json:"actual_port_name"`
	DistanceKM         float64 `json:"distance_km"`
	SameCountry        bool    `json:"same_country"`
	DestinationChanges int     `json:"destination_changes"`
	ChangesSource      string  `json:"changes_source"`
	ChangedAt          *string `json:"changed_at"`
	Suspicious         bool    `json:"suspicious"`
	Reason             string  `json:"reason"`
}

// NewDeception presents a deception row: times in RFC 3339 UTC, the
// distance to one decimal.
func NewDeception(d trade.Deception) Deception {
	out := Deception{IMO: d.IMO.String(), Name: optString(d.Name), Origin: d.Origin, OriginName: routePortName(d.Origin),
		Departure: d.Departure.UTC().Format(time.RFC3339), Arrival: d.Arrival.UTC().Format(time.RFC3339),
		Declared: d.Declared, DeclaredPort: d.DeclaredPort, DeclaredPortName: routePortName(d.DeclaredPort),
		ActualPort: d.ActualPort, ActualPortName: routePortName(d.ActualPort), DistanceKM: roundTo(d.DistanceKM, 1),
		SameCountry: d.SameCountry, DestinationChanges: d.DestinationChanges, ChangesSource: d.ChangesSource,
		Suspicious: d.Suspicious, Reason: d.Reason}
	if d.ChangedAt != nil {
		s := d.ChangedAt.UTC().Format(time.RFC3339)
		out.ChangedAt = &s
	}
	return out
}

// RouteDeceptions serves GET /v1/routes/deceptions: vessel (IMO),
// suspicious ('true' or 'false'), actual_port (port slug or id), limit
// (default 100, max 500, clamped by the tier). Completed voyages whose
// declared AIS destination named another port than the one reached
// (trade.Deceptions), newest arrival first; arrivals before the tier's
// history floor are left out. q answers the encoded body (Encoded).
func RouteDeceptions(q Query[DeceptionsRequest, []byte], now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		var f DeceptionsRequest
		imo, _, err := imoParam(c, "vessel", false)
		if err != nil {
			return err
		}
		f.IMO = imo
		if f.Suspicious, err = enumParam(c, "suspicious", "true", "false"); err != nil {
			return overwatch.Errorf(overwatch.Invalid, "suspicious must be 'true' or 'false'").With("parameter", "suspicious")
		}
		port, err := portParam(c, "actual_port", false)
		if err != nil {
			return err
		}
		f.ActualPort = slugOf(port)
		if f.Limit, err = limitParam(c, 100, 500); err != nil {
			return err
		}
		f.From = Minute(overwatch.CallerFrom(c.UserContext()).HistoryFloor(now()))
		body, err := q(c.UserContext(), f)
		if err != nil {
			return err
		}
		return sendJSON(c, body)
	}
}
