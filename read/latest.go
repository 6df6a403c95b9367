package read

import (
	"context"
	"errors"
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
	lb := newLatestBody(pub)
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
		bp := bodyBuffers.Get().(*[]byte)
		defer bodyBuffers.Put(bp)
		body, err := lb.appendLatest((*bp)[:0], &row, imoText, now())
		*bp = body[:0]
		if err != nil {
			return overwatch.Wrap(overwatch.Internal, err, "lookup failed")
		}
		res := c.Response()
		res.Header.SetCanonical(headerCacheControl, publicMaxAge)
		res.Header.SetContentTypeBytes(mimeJSON)
		res.SetBody(body) // copied: the buffer goes back to the pool
		return nil
	}
}

// The lookup's constant headers, as bytes: set without conversions.
var (
	headerCacheControl = []byte(fiber.HeaderCacheControl)
	publicMaxAge       = []byte("public, max-age=60")
	mimeJSON           = []byte(fiber.MIMEApplicationJSON)
)
