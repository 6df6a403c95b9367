package read

import (
	"context"
	"math"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/maritime/market"
	"overwatch/route"
)

// The market tables the cached queries read.
const (
	tableCommodityPrices = "commodity_prices"
	tableTransportRates  = "transport_rates"
)

// PriceRequest selects commodity prices: of one commodity ("" for any),
// observed on or after Since, and within Depth of each series' newest
// observation (0: no bound; the plan's history depth), at most Limit.
type PriceRequest struct {
	Commodity string
	Since     time.Time
	Depth     time.Duration
	Limit     int
}

// TransportRequest selects transport rates: of one mode and commodity
// ("" for any), of the regions named ("" for any; the handler resolves the
// fuzzy region parameter to these exact names), observed on or after Since
// and within Depth of each series' newest observation, at most Limit.
type TransportRequest struct {
	Mode      string
	Commodity string
	Regions   string // the exact region names, joined by "\n" (a comparable key)
	Since     time.Time
	Depth     time.Duration
	Limit     int
}

// MarketStore reads the market tables: prices and rates newest
// observation first, then by source and series.
type MarketStore interface {
	CommodityPrices(ctx context.Context, r PriceRequest) ([]market.Price, error)
	TransportRates(ctx context.Context, r TransportRequest) ([]market.Rate, error)
	TransportRegions(ctx context.Context, mode string) ([]string, error)
}

// marketRoutes mounts the market-data endpoints.
func marketRoutes(r route.Router, s MarketStore, c *Cache, now func() time.Time) {
	prices := Cached(c, "commodity_prices", []string{tableCommodityPrices}, Encoded(s.CommodityPrices, "commodity_prices", NewCommodityPrice))
	r.Handle(fiber.MethodGet, "/commodity-prices", overwatch.AccessKey, CommodityPrices(prices, now))
	rates := Cached(c, "transport_rates", []string{tableTransportRates}, Encoded(s.TransportRates, "transport_data", NewTransportRate))
	regions := Cached(c, "transport_regions", []string{tableTransportRates}, s.TransportRegions)
	r.Handle(fiber.MethodGet, "/transport-data", overwatch.AccessKey, TransportData(rates, regions, now))
}

// CommodityPrice is an item of GET /v1/commodity-prices.
type CommodityPrice struct {
	Commodity   string   `json:"commodity"`
	Series      string   `json:"series"`
	Name        string   `json:"name"`
	Source      string   `json:"source"`
	Date        string   `json:"date"`
	Frequency   string   `json:"frequency"`
	Price       float64  `json:"price"`
	Unit        string   `json:"unit"`
	Currency    string   `json:"currency"`
	USDPerTonne *float64 `json:"price_usd_per_tonne"`
	Detail      string   `json:"detail,omitempty"`
	Published   *string  `json:"published"`
	Attribution string   `json:"attribution"`
}

// NewCommodityPrice presents a price: the normalised price null where no
// published conversion exists, the publication date null where the file
// does not say.
func NewCommodityPrice(p market.Price) CommodityPrice {
	return CommodityPrice{Commodity: p.Commodity, Series: p.Series, Name: p.Name, Source: p.Source,
		Date: p.Date.UTC().Format(time.DateOnly), Frequency: p.Frequency, Price: p.Value, Unit: p.Unit, Currency: p.Currency,
		USDPerTonne: finite(p.USDPerTonne, 2), Detail: p.Detail, Published: dateOrNull(p.Published), Attribution: market.Attribution(p.Source)}
}

// TransportRate is an item of GET /v1/transport-data.
type TransportRate struct {
	Mode            string   `json:"mode"`
	Dataset         string   `json:"dataset"`
	Source          string   `json:"source"`
	Commodity       string   `json:"commodity"`
	Region          string   `json:"region"`
	Origin          string   `json:"origin,omitempty"`
	Destination     string   `json:"destination,omitempty"`
	VesselSize      string   `json:"vessel_size,omitempty"`
	Date            string   `json:"date"`
	Frequency       string   `json:"frequency"`
	Rate            float64  `json:"rate"`
	Unit            string   `json:"unit"`
	USDPerTonne     *float64 `json:"rate_usd_per_tonne"`
	BenchmarkTariff *float64 `json:"benchmark_tariff_usd_per_short_ton,omitempty"`
	Published       *string  `json:"published"`
	Attribution     string   `json:"attribution"`
}

// NewTransportRate presents a rate.
func NewTransportRate(r market.Rate) TransportRate {
	out := TransportRate{Mode: r.Mode, Dataset: r.Dataset, Source: r.Source, Commodity: r.Commodity, Region: r.Region,
		Origin: r.Origin, Destination: r.Destination, VesselSize: r.VesselSize, Date: r.Date.UTC().Format(time.DateOnly),
		Frequency: r.Frequency, Rate: r.Rate, Unit: r.Unit, USDPerTonne: finite(r.USDPerTonne, 2), Published: dateOrNull(r.Published),
		Attribution: market.Attribution(r.Source)}
	if r.Benchmark > 0 {
		out.BenchmarkTariff = finite(r.Benchmark, 2)
	}
	return out
}

// finite is v rounded to digits, or nil when v is NaN or infinite.
func finite(v float64, digits int) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	r := roundTo(v, digits)
	return &r
}

// dateOrNull is t as YYYY-MM-DD, or nil for the zero time and the epoch
// (what the store keeps when the source does not say).
func dateOrNull(t time.Time) *string {
	if t.IsZero() || !t.After(time.Unix(0, 0)) {
		return nil
	}
	s := t.UTC().Format(time.DateOnly)
	return &s
}

// commodityParam reads a commodity of the market data by its name or a
// synonym (market.Commodity: corn = maize, soy = soybeans, ...).
func commodityParam(c *fiber.Ctx, name string) (string, error) {
	raw, err := stringParam(c, name, 100)
	if err != nil || raw == "" {
		return "", err
	}
	commodity, ok := market.Commodity(raw)
	if !ok {
		return "", overwatch.Errorf(overwatch.Invalid, "unknown %s '%s'; one of %s (or a synonym such as corn, soy)",
			name, truncate(raw, 50), joinNames(market.Commodities)).With("parameter", name)
	}
	return commodity, nil
}

// sinceParam reads an ISO date (or timestamp) not in the future.
func sinceParam(c *fiber.Ctx, name string, now time.Time) (time.Time, error) {
	t, ok, err := timeParam(c, name)
	if err != nil || !ok {
		return time.Time{}, err
	}
	if t.After(now) {
		return time.Time{}, overwatch.Errorf(overwatch.Invalid, "%s must not be in the future", name).With("parameter", name)
	}
	return t, nil
}

// planDepth is how far back from each series' newest observation the
// caller's plan sees (0: unlimited). Published market data lags: a monthly
// series' newest value is weeks old, so the depth counts from it, not
// from now.
func planDepth(caller *overwatch.Caller, now time.Time) time.Duration {
	floor := caller.HistoryFloor(now)
	if floor.IsZero() {
		return 0
	}
	return now.Sub(floor).Round(time.Hour)
}

// CommodityPrices serves GET /v1/commodity-prices: commodity (a name or a
// synonym), since (ISO date), limit (default 100, max 500, clamped by the
// tier). Observations of the published series, newest first, each with
// its unit as published and, where a conversion is published, in USD per
// tonne; the plan's history depth counts back from each series' newest
// observation. q answers the encoded body (Encoded).
func CommodityPrices(q Query[PriceRequest, []byte], now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		var r PriceRequest
		var err error
		if r.Commodity, err = commodityParam(c, "commodity"); err != nil {
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
		body, err := q(c.UserContext(), r)
		if err != nil {
			return err
		}
		return sendJSON(c, body)
	}
}
