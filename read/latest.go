package read

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/route"
)

// LatestPositions finds the newest position of a vessel from one source, or
// across sources for overwatch.SourceAny.
type LatestPositions interface {
	Latest(ctx context.Context, imo overwatch.IMO, src overwatch.Source) (overwatch.LatestRow, bool, error)
}

// Attribution is the citation block of every public position: whom to
// credit, and a sentence to copy verbatim.
type Attribution struct {
	Name    string `json:"name"`
	URL     string `json:"url"`
	CiteAs  string `json:"cite_as"`
	License string `json:"license"`
}

// License is the licence of public-surface data.
const License = "CC-BY 4.0 with attribution"

// Publisher names the service in attributions: OVERWATCH_PUBLIC_NAME and
// OVERWATCH_PUBLIC_URL.
type Publisher struct {
	Name string
	URL  string
}

// cite returns the attribution of one position; CiteAs names the IMO and
// the position's timestamp so that it can be copied verbatim.
func (p Publisher) cite(imo, timestamp string) Attribution {
	return Attribution{
		Name:    p.Name,
		URL:     p.URL,
		CiteAs:  fmt.Sprintf("%s. AIS position of IMO %s reported at %s. %s. Licensed %s.", p.Name, imo, timestamp, p.URL, License),
		License: License,
	}
}

// LatestPosition is the 200 body of the public lookup: a schema.org
// GeoCoordinates object, its fields sent in this order.
type LatestPosition struct {
	Context          string      `json:"@context"`
	Type             string      `json:"@type"`
	IMONumber        string      `json:"imo_number"`
	VesselName       *string     `json:"vessel_name"`
	VesselType       *string     `json:"vessel_type"`
	Flag             *string     `json:"flag"`
	Latitude         float64     `json:"latitude"`
	Longitude        float64     `json:"longitude"`
	SpeedKt          *float64    `json:"speed_kt"`
	CourseDeg        *float64    `json:"course_deg"`
	DraftM           *float64    `json:"draft_m"`
	Destination      *string     `json:"destination"`
	NavStatus        *string     `json:"nav_status"`
	Timestamp        string      `json:"timestamp"`
	Source           *string     `json:"source"`
	FreshnessSeconds *int64      `json:"freshness_seconds"`
	Attribution      Attribution `json:"attribution"`
}

// publicRoutes mounts the public surface: no key, limited per
// client IP; its CORS preflight is the edge's.
func publicRoutes(r route.Router, positions LatestPositions, pub Publisher, now func() time.Time) {
	r.Handle(fiber.MethodGet, "/ais/:provider/:imo/location/latest", overwatch.AccessPublic, LatestPositionHandler(positions, pub, now))
}

// LatestPositionHandler serves GET /v1/ais/{provider}/{imo}/location/latest.
// When both the provider and the IMO are invalid, the provider error wins:
// it comes first in the path and its body lists the allowed values.
func LatestPositionHandler(positions LatestPositions, pub Publisher, now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		provider := c.Params("provider")
		imoText := c.Params("imo")
		src, ok := overwatch.ParseProvider(provider)
		if !ok {
			return overwatch.Errorf(overwatch.Invalid, "unknown provider '%s'", strings.Clone(provider)).With("allowed", overwatch.Providers())
		}
		imo, err := overwatch.ParseIMO(imoText)
		if errors.Is(err, overwatch.ErrIMO) {
			return overwatch.Errorf(overwatch.Invalid, "imo %v", err)
		}
		// Seven digits whose check digit fails name no vessel: no position
		// can be stored under them (the 400 is only for an IMO that is not seven digits).
		var row overwatch.LatestRow
		found := false
		if err == nil {
			row, found, err = positions.Latest(c.UserContext(), imo, src)
			if err != nil {
				return overwatch.Wrap(overwatch.Internal, err, "lookup failed")
			}
		}
		if !found || row.Lat == nil || row.Lon == nil {
			return overwatch.Errorf(overwatch.NotFound, "no recent position").
				With("imo_number", strings.Clone(imoText)).With("provider", strings.Clone(provider))
		}
		c.Set(fiber.HeaderCacheControl, "public, max-age=60")
		return c.JSON(newLatestPosition(row, imoText, pub, now()))
	}
}

func newLatestPosition(row overwatch.LatestRow, imo string, pub Publisher, now time.Time) LatestPosition {
	ts := row.TS.UTC().Format(time.RFC3339)
	fresh := int64(math.Max(0, math.Floor(now.Sub(row.TS).Seconds())))
	var source *string
	if row.Source != overwatch.SourceNone {
		s := string(row.Source)
		source = &s
	}
	return LatestPosition{
		Context:          "https://schema.org",
		Type:             "GeoCoordinates",
		IMONumber:        imo,
		VesselName:       row.VesselName,
		VesselType:       row.VesselType,
		Flag:             row.Flag,
		Latitude:         *row.Lat,
		Longitude:        *row.Lon,
		SpeedKt:          row.SpeedKt,
		CourseDeg:        row.CourseDeg,
		DraftM:           row.DraftM,
		Destination:      row.Destination,
		NavStatus:        row.NavStatus,
		Timestamp:        ts,
		Source:           source,
		FreshnessSeconds: &fresh,
		Attribution:      pub.cite(imo, ts),
	}
}
