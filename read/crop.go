package read

import (
	"context"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/maritime/crop"
	"overwatch/maritime/seaport"
	"overwatch/route"
)

// CropInputsRequest selects what the crop assessments are computed from:
// the service's export tonnage at the regions' ports over the last
// ExportDays days before Today (the observed export shares; Today is the
// current UTC day on the service's clock).
type CropInputsRequest struct {
	ExportDays int
	Today      time.Time
}

// cropExportDays is the window of the observed export shares.
const cropExportDays = 365

// CropStore reads the crop tables (PSD, WASDE, NDVI) and the regions'
// port tonnage.
type CropStore interface {
	CropInputs(ctx context.Context, r CropInputsRequest) (crop.Inputs, error)
}

// cropRoutes mounts the crop-health endpoints. Their inputs (a few
// thousand rows) are cached until one of their tables changes.
func cropRoutes(r route.Router, s CropStore, c *Cache, now func() time.Time) {
	inputs := Cached(c, "crop_inputs", []string{"crop_psd", "crop_wasde", "crop_ndvi", "estimates_weekly"}, s.CropInputs)
	r.Handle(fiber.MethodGet, "/satellite/regions", overwatch.AccessKey, CropRegions())
	r.Handle(fiber.MethodGet, "/satellite/health", overwatch.AccessKey, CropHealth(inputs))
	r.Handle(fiber.MethodGet, "/satellite/production", overwatch.AccessKey, CropProduction(inputs, now))
}

// CropPort is a port a region feeds.
type CropPort struct {
	Slug string `json:"slug"`
	Name string `json:"name"`
}

// GeoPolygon is a GeoJSON Polygon.
type GeoPolygon struct {
	Type        string         `json:"type"`
	Coordinates [][][2]float64 `json:"coordinates"`
}

// CropRegion is an item of GET /v1/satellite/regions.
type CropRegion struct {
	Slug           string            `json:"slug"`
	Name           string            `json:"name"`
	Belt           *string           `json:"belt"`
	Crops          []string          `json:"crops"`
	PSDCountryCode string            `json:"psd_country_code"`
	Country        string            `json:"country"`
	Ports          []CropPort        `json:"ports"`
	Polygon        GeoPolygon        `json:"polygon"`
	BaselineScope  map[string]string `json:"baseline_scope"`
}

// NewCropRegion presents a region.
func NewCropRegion(r crop.Region) CropRegion {
	out := CropRegion{Slug: r.Slug, Name: r.Name, Crops: r.Crops, PSDCountryCode: r.PSDCountry, Country: r.Country,
		Polygon: GeoPolygon{Type: "Polygon", Coordinates: [][][2]float64{r.Polygon}}, BaselineScope: r.Scope, Ports: []CropPort{}}
	if r.Belt != "" {
		b := r.Belt
		out.Belt = &b
	}
	for _, p := range r.Ports {
		name := p
		if sp, ok := seaport.BySlug(p); ok {
			name = sp.Name
		}
		out.Ports = append(out.Ports, CropPort{Slug: p, Name: name})
	}
	return out
}

// CropRegions serves GET /v1/satellite/regions: the crop regions feeding
// the export ports.
func CropRegions() fiber.Handler {
	regions := crop.Regions()
	out := make([]CropRegion, len(regions))
	for i, r := range regions {
		out[i] = NewCropRegion(r)
	}
	return func(c *fiber.Ctx) error {
		return c.JSON(fiber.Map{"regions": out})
	}
}

// CropAssessment is an item of GET /v1/satellite/health.
type CropAssessment struct {
	Region        string   `json:"region"`
	RegionName    string   `json:"region_name"`
	Crop          string   `json:"crop"`
	Basis         string   `json:"basis"`
	Status        string   `json:"status"`
	AnomalyPct    *float64 `json:"anomaly_pct"`
	Value         *float64 `json:"value"`
	Baseline      *float64 `json:"baseline"`
	BaselineYears int      `json:"baseline_years"`
	Unit          string   `json:"unit"`
	MarketYear    *int     `json:"market_year"`
	PeriodStart   *string  `json:"period_start"`
	Pixels        *int     `json:"pixels"`
	Series        string   `json:"series"`
	Source        string   `json:"source"`
	AsOf          *string  `json:"as_of"`
}

// NewCropAssessment presents an assessment.
func NewCropAssessment(a crop.Assessment) CropAssessment {
	out := CropAssessment{Region: a.Region, RegionName: a.RegionName, Crop: a.Crop, Basis: a.Basis, Status: a.Status,
		AnomalyPct: finite(a.Anomaly*100, 1), Value: finite(a.Value, 4), Baseline: finite(a.Baseline, 4), BaselineYears: a.BaselineYears,
		Unit: a.Unit, PeriodStart: dateOrNull(a.PeriodStart), Series: a.Series, Source: a.Source, AsOf: dateOrNull(a.AsOf)}
	if a.MarketYear > 0 {
		y := a.MarketYear
		out.MarketYear = &y
	}
	if a.Basis == crop.BasisNDVI {
		n := a.Pixels
		out.Pixels = &n
	}
	return out
}

// cropRegionParam reads a region slug; "" when absent.
func cropRegionParam(c *fiber.Ctx) (string, error) {
	raw := c.Query("region")
	if raw == "" {
		return "", nil
	}
	if _, ok := crop.RegionBySlug(raw); !ok {
		var slugs []string
		for _, r := range crop.Regions() {
			slugs = append(slugs, r.Slug)
		}
		return "", overwatch.Errorf(overwatch.Invalid, "unknown region '%s'; one of %s (see /v1/satellite/regions)",
			truncate(raw, 60), joinNames(slugs)).With("parameter", "region")
	}
	return raw, nil
}

// CropHealth serves GET /v1/satellite/health: region (slug), status
// (good, normal, watch, poor), crop (corn, soybeans, wheat), limit
// (default 100, max 500, clamped by the tier). One assessment per region
// and crop: basis ndvi where an NDVI series is stored, official_forecast
// (USDA's latest yield forecast against its 5-year average) otherwise;
// none where neither exists.
func CropHealth(q Query[CropInputsRequest, crop.Inputs]) fiber.Handler {
	return func(c *fiber.Ctx) error {
		region, err := cropRegionParam(c)
		if err != nil {
			return err
		}
		status, err := enumParam(c, "status", crop.Statuses...)
		if err != nil {
			return err
		}
		cr, err := enumParam(c, "crop", crop.Crops...)
		if err != nil {
			return err
		}
		limit, err := limitParam(c, 100, 500)
		if err != nil {
			return err
		}
		in, err := q(c.UserContext(), CropInputsRequest{})
		if err != nil {
			return err
		}
		out := []CropAssessment{}
		for _, a := range crop.Assess(in) {
			if (region != "" && a.Region != region) || (status != "" && a.Status != status) || (cr != "" && a.Crop != cr) {
				continue
			}
			if len(out) == limit {
				break
			}
			out = append(out, NewCropAssessment(a))
		}
		return c.JSON(fiber.Map{"assessments": out})
	}
}

// CropForecast is an item of GET /v1/satellite/production.
type CropForecast struct {
	Region             string   `json:"region"`
	RegionName         string   `json:"region_name"`
	Crop               string   `json:"crop"`
	Port               string   `json:"port"`
	PortName           string   `json:"port_name"`
	MarketYear         int      `json:"market_year"`
	Basis              string   `json:"basis"`
	BaselineScope      string   `json:"baseline_scope"`
	BaselineKt         *float64 `json:"baseline_kt"`
	YieldFactor        *float64 `json:"yield_factor"`
	YieldFactorFit     string   `json:"yield_factor_fit"`
	YieldFactorSeasons int      `json:"yield_factor_seasons"`
	ProductionKt       *float64 `json:"production_kt"`
	DomesticUseKt      *float64 `json:"domestic_use_kt"`
	ExportableKt       *float64 `json:"exportable_kt"`
	PortShare          *float64 `json:"port_share"`
	ShareBasis         string   `json:"share_basis"`
	PortExportableKt   *float64 `json:"port_exportable_kt"`
	Unit               string   `json:"unit"`
	Series             string   `json:"series"`
	Source             string   `json:"source"`
	AsOf               *string  `json:"as_of"`
}

// NewCropForecast presents a forecast (volumes in thousand metric tons,
// null where the data do not say).
func NewCropForecast(f crop.Forecast) CropForecast {
	name := f.Port
	if p, ok := seaport.BySlug(f.Port); ok {
		name = p.Name
	}
	return CropForecast{Region: f.Region, RegionName: f.RegionName, Crop: f.Crop, Port: f.Port, PortName: name, MarketYear: f.MarketYear,
		Basis: f.Basis, BaselineScope: f.Scope, BaselineKt: finite(f.BaselineKt, 1), YieldFactor: finite(f.YieldFactor, 4),
		YieldFactorFit: f.FactorFit, YieldFactorSeasons: f.FactorSeasons, ProductionKt: finite(f.ProductionKt, 1),
		DomesticUseKt: finite(f.DomesticKt, 1), ExportableKt: finite(f.ExportableKt, 1), PortShare: finite(f.PortShare, 4),
		ShareBasis: f.ShareBasis, PortExportableKt: finite(f.PortKt, 1), Unit: "1000 t", Series: f.Series, Source: f.Source,
		AsOf: dateOrNull(f.AsOf)}
}

// CropProduction serves GET /v1/satellite/production: region, port (slug
// or id), crop, limit (default 100, max 500, clamped by the tier). The
// season's production forecast of each region and crop (official baseline
// × the yield factor of its health) and the exportable volume per mapped
// port.
func CropProduction(q Query[CropInputsRequest, crop.Inputs], now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		region, err := cropRegionParam(c)
		if err != nil {
			return err
		}
		port, err := portParam(c, "port", false)
		if err != nil {
			return err
		}
		cr, err := enumParam(c, "crop", crop.Crops...)
		if err != nil {
			return err
		}
		limit, err := limitParam(c, 100, 500)
		if err != nil {
			return err
		}
		in, err := q(c.UserContext(), CropInputsRequest{ExportDays: cropExportDays, Today: now().UTC().Truncate(24 * time.Hour)})
		if err != nil {
			return err
		}
		out := []CropForecast{}
		for _, f := range crop.Forecasts(in) {
			if (region != "" && f.Region != region) || (port != nil && f.Port != port.Slug) || (cr != "" && f.Crop != cr) {
				continue
			}
			if len(out) == limit {
				break
			}
			out = append(out, NewCropForecast(f))
		}
		return c.JSON(fiber.Map{"forecasts": out})
	}
}
