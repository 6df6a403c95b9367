package read

import (
	"context"
	"encoding/json"
	"math"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/maritime/sar"
	"overwatch/route"
)

// tableSARProducts is the catalogue cache the coverage query reads.
const tableSARProducts = "sar_products"

// SARQuery selects the catalogue products whose footprints' bounding
// boxes meet a box, of any time, the nearest in time to At first.
// Version (the catalogue's last answer for the area, in Unix seconds)
// only keys the read cache: a new answer is a new key.
type SARQuery struct {
	MinLat, MaxLat, MinLon, MaxLon float64
	At                             time.Time
	Version                        int64
}

// SARStore reads the Sentinel-1 catalogue cache (clickhouse.DB).
type SARStore interface {
	SARProducts(ctx context.Context, q SARQuery) ([]sar.Product, error)
}

// SARStatus is what the catalogue client says of an area and day
// (sar.CatalogueStatus).
type SARStatus = sar.CatalogueStatus

// SARCatalogue makes sure the catalogue's products for an area and day
// are in the cache (fetching them when they are not, or are stale) and
// says where the answer comes from. It never fails: a failed fetch keeps
// the cache.
type SARCatalogue interface {
	EnsureSAR(ctx context.Context, a sar.Area) SARStatus
}

// offCatalogue is the catalogue client of a service with none configured.
type offCatalogue struct{}

func (offCatalogue) EnsureSAR(context.Context, sar.Area) SARStatus { return SARStatus{Status: "off"} }

// sarRoutes mounts GET /v1/sar-coverage (cat nil: no catalogue, the
// stored products answer).
func sarRoutes(r route.Router, s SARStore, cat SARCatalogue, c *Cache, now func() time.Time) {
	if cat == nil {
		cat = offCatalogue{}
	}
	products := Cached(c, "sar_products", []string{tableSARProducts}, s.SARProducts)
	r.Handle(fiber.MethodGet, "/sar-coverage", overwatch.AccessKey, SARCoverage(SARAnswers(products, c), cat, now))
}

// SARRequest is a coverage request once read: the point, radius and
// time (cut to the minute), the products query of its area and what the
// catalogue client said of it.
type SARRequest struct {
	Lat, Lng, RadiusKm float64
	At                 time.Time
	Query              SARQuery
	Status             SARStatus
}

// SARAnswers turns the products query into the query of the encoded
// coverage answer, cached per request (c nil: not cached), so that a
// repeated request is a lookup.
func SARAnswers(products Query[SARQuery, []sar.Product], c *Cache) Query[SARRequest, []byte] {
	return Cached(c, "sar_coverage", []string{tableSARProducts}, func(ctx context.Context, r SARRequest) ([]byte, error) {
		known, err := products(ctx, r.Query)
		if err != nil {
			return nil, err
		}
		return json.Marshal(sarAnswer(known, r.Lat, r.Lng, r.RadiusKm, r.At, r.Status))
	})
}

// SARNote is the statement every coverage answer carries.
const SARNote = "Reports Sentinel-1 radar catalogue coverage near the place and time only: it does not confirm any vessel or dark-fleet event; verification_potential is a coverage-timing heuristic."

// SARProduct is an item of the coverage answer's products.
type SARProduct struct {
	Name          string   `json:"name"`
	Start         string   `json:"start"`
	SizeMB        *float64 `json:"size_mb"`
	Platform      string   `json:"platform"`
	Mode          string   `json:"mode"`
	ProductType   string   `json:"product_type"`
	RelativeOrbit int      `json:"relative_orbit"`
	Direction     *string  `json:"direction"`
	DistanceKm    float64  `json:"distance_km"`
	Source        string   `json:"source"`
}

// SARPass is the coverage answer's closest pass.
type SARPass struct {
	Time          string  `json:"time"`
	Platform      string  `json:"platform"`
	RelativeOrbit int     `json:"relative_orbit"`
	Direction     *string `json:"direction"`
	Predicted     bool    `json:"predicted"`
	From          string  `json:"from_product"`
}

// SARSource says where a coverage answer comes from.
type SARSource struct {
	Catalogue string  `json:"catalogue"`
	Status    string  `json:"status"`
	FetchedAt *string `json:"fetched_at"`
}

// SARCoverageAnswer is the body of GET /v1/sar-coverage.
type SARCoverageAnswer struct {
	Lat                   float64      `json:"lat"`
	Lng                   float64      `json:"lng"`
	Date                  string       `json:"date"`
	RadiusKm              float64      `json:"radius_km"`
	HasCoverage           bool         `json:"has_coverage"`
	Products              []SARProduct `json:"products"`
	ClosestPassHours      *float64     `json:"closest_pass_hours"`
	ClosestPass           *SARPass     `json:"closest_pass"`
	VerificationPotential string       `json:"verification_potential"`
	Source                SARSource    `json:"source"`
	Note                  string       `json:"note"`
}

// SARCoverage serves GET /v1/sar-coverage: lat (-90..90) and lng
// (-180..180) required, date (ISO date or UTC timestamp, default now),
// radius (km, > 0, <= 500, default 50). The catalogue products whose
// footprint comes within the radius of the point within 6 days of the
// date (nearest in time first), the closest pass (of those and of the
// passes each relative orbit's known passes predict by the 12-day cycle)
// in hours, and the verification potential it gives (sar.PotentialOf).
// q answers the encoded body (SARAnswers).
func SARCoverage(q Query[SARRequest, []byte], cat SARCatalogue, now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		lat, err := sarCoordParam(c, "lat", 90)
		if err != nil {
			return err
		}
		lng, err := sarCoordParam(c, "lng", 180)
		if err != nil {
			return err
		}
		at, ok, err := timeParam(c, "date")
		if err != nil {
			return err
		}
		if !ok {
			at = now().UTC()
		}
		radius, ok, err := floatParam(c, "radius")
		if err != nil {
			return err
		}
		if !ok {
			radius = 50
		} else if radius <= 0 || radius > sar.MaxRadiusKm {
			return overwatch.Errorf(overwatch.Invalid, "radius must be greater than 0 and at most %d (km)", sar.MaxRadiusKm).With("parameter", "radius")
		}
		at = Minute(at)
		area := sar.AreaAround(lat, lng, radius, at)
		status := cat.EnsureSAR(c.UserContext(), area)
		body, err := q(c.UserContext(), SARRequest{Lat: lat, Lng: lng, RadiusKm: radius, At: at, Status: status,
			Query: SARQuery{MinLat: area.MinLat, MaxLat: area.MaxLat, MinLon: area.MinLon, MaxLon: area.MaxLon, At: at, Version: status.FetchedAt.Unix()}})
		if err != nil {
			return err
		}
		return sendJSON(c, body)
	}
}

// sarAnswer presents the coverage of the point.
func sarAnswer(known []sar.Product, lat, lng, radius float64, at time.Time, status SARStatus) SARCoverageAnswer {
	cov := sar.CoverageAt(known, lat, lng, radius, at)
	out := SARCoverageAnswer{Lat: lat, Lng: lng, Date: at.Format(time.RFC3339), RadiusKm: radius, HasCoverage: len(cov.Products) > 0,
		Products: make([]SARProduct, 0, len(cov.Products)), VerificationPotential: string(cov.Potential), Note: SARNote,
		Source: SARSource{Catalogue: status.Catalogue, Status: status.Status}}
	if !status.FetchedAt.IsZero() {
		s := status.FetchedAt.UTC().Format(time.RFC3339)
		out.Source.FetchedAt = &s
	}
	for _, p := range cov.Products {
		item := SARProduct{Name: p.Name, Start: p.Start.UTC().Format(time.RFC3339), Platform: p.Platform, Mode: p.Mode,
			ProductType: p.Type, RelativeOrbit: p.RelativeOrbit, Direction: sarOrNull(p.Direction),
			DistanceKm: roundTo(p.Footprint.DistanceKm(lat, lng), 1), Source: p.Source}
		if p.SizeMB > 0 {
			item.SizeMB = finite(p.SizeMB, 1)
		}
		out.Products = append(out.Products, item)
	}
	if cov.Closest != nil {
		h := cov.Hours
		out.ClosestPassHours = &h
		out.ClosestPass = &SARPass{Time: cov.Closest.Time.UTC().Format(time.RFC3339), Platform: cov.Closest.Platform,
			RelativeOrbit: cov.Closest.RelativeOrbit, Direction: sarOrNull(cov.Closest.Direction), Predicted: cov.Closest.Predicted,
			From: cov.Closest.From}
	}
	return out
}

// sarOrNull is s, or nil when empty.
func sarOrNull(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// sarCoordParam reads a required coordinate within -limit..limit.
func sarCoordParam(c *fiber.Ctx, name string, limit float64) (float64, error) {
	v, ok, err := floatParam(c, name)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, overwatch.Errorf(overwatch.Invalid, "%s is required", name).With("parameter", name)
	}
	if math.Abs(v) > limit {
		return 0, overwatch.Errorf(overwatch.Invalid, "%s must be from %g to %g", name, -limit, limit).With("parameter", name)
	}
	return v, nil
}
