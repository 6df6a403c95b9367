package read

import (
	"context"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/maritime/earnings"
	"overwatch/route"
)

// The earnings tables the cached queries read.
const (
	tableVoyageEarnings = "voyage_earnings"
	tablePortRevenue    = "port_revenue_weekly"
)

// EarningsRequest selects voyage earnings: of one vessel (0: any), from or
// to one port ("" for any), departed at or after From, at most Limit.
type EarningsRequest struct {
	IMO   overwatch.IMO
	Port  string
	From  time.Time
	Limit int
}

// PortRevenueRequest selects port weeks: of one port ("" for any), of the
// weeks starting at or after From, at most Limit.
type PortRevenueRequest struct {
	Port  string
	From  time.Time
	Limit int
}

// EarningsStore reads the earnings tables: voyages newest departure
// first, port weeks newest week first.
type EarningsStore interface {
	VoyageEarnings(ctx context.Context, r EarningsRequest) ([]earnings.Result, error)
	PortRevenue(ctx context.Context, r PortRevenueRequest) ([]earnings.PortWeek, error)
}

// earningsRoutes mounts the earnings endpoints.
func earningsRoutes(r route.Router, s EarningsStore, c *Cache, now func() time.Time) {
	voyages := Cached(c, "voyage_earnings", []string{tableVoyageEarnings}, Encoded(s.VoyageEarnings, "earnings", NewVoyageEarning))
	r.Handle(fiber.MethodGet, "/earnings", overwatch.AccessKey, Earnings(voyages, now))
	revenue := Cached(c, "port_revenue", []string{tablePortRevenue}, Encoded(s.PortRevenue, "port_revenue", NewPortRevenueWeek))
	r.Handle(fiber.MethodGet, "/earnings/port-revenue", overwatch.AccessKey, PortRevenue(revenue, now))
}

// Range is a central estimate with its bounds, as served.
type Range struct {
	Low     float64 `json:"low"`
	Central float64 `json:"central"`
	High    float64 `json:"high"`
}

// rangeOf presents bounds rounded to digits decimals.
func rangeOf(b earnings.Bounds, digits int) Range {
	return Range{Low: roundTo(b.Low, digits), Central: roundTo(b.Central, digits), High: roundTo(b.High, digits)}
}

// FreightRateUsed is the rate a voyage is valued at and where it comes from.
type FreightRateUsed struct {
	USDPerTonne Range   `json:"usd_per_tonne"`
	Basis       string  `json:"basis"`
	Source      string  `json:"source"`
	Date        *string `json:"date"`
}

// BunkerPriceUsed is the fuel price a voyage is valued at and where it comes from.
type BunkerPriceUsed struct {
	USDPerTonne       Range    `json:"usd_per_tonne"`
	Fuel              string   `json:"fuel"`
	Basis             string   `json:"basis"`
	Source            string   `json:"source"`
	Date              *string  `json:"date"`
	BrentUSDPerBarrel *float64 `json:"brent_usd_per_barrel"`
}

// FuelUsed is the voyage's fuel estimate and where it comes from.
type FuelUsed struct {
	Tonnes Range  `json:"tonnes"`
	Source string `json:"source"`
}

// VoyageEarning is an item of GET /v1/earnings.
type VoyageEarning struct {
	IMO                string          `json:"imo"`
	VesselName         string          `json:"vessel_name"`
	Origin             string          `json:"origin"`
	OriginName         string          `json:"origin_name"`
	Destination        string          `json:"destination"`
	DestinationName    string          `json:"destination_name"`
	Commodity          string          `json:"commodity"`
	LoadArrival        time.Time       `json:"load_arrival"`
	Departure          time.Time       `json:"departure"`
	Arrival            time.Time       `json:"arrival"`
	DischargeDeparture time.Time       `json:"discharge_departure"`
	VoyageDays         float64         `json:"voyage_days"`
	PortDays           float64         `json:"port_days"`
	SeaDays            float64         `json:"sea_days"`
	DWT                *float64        `json:"dwt"`
	DistanceNM         float64         `json:"distance_nm"`
	CargoTonnes        Range           `json:"cargo_tonnes"`
	FreightRate        FreightRateUsed `json:"freight_rate"`
	Fuel               FuelUsed        `json:"fuel"`
	BunkerPrice        BunkerPriceUsed `json:"bunker_price"`
	RevenueUSD         Range           `json:"revenue_usd"`
	FuelCostUSD        Range           `json:"fuel_cost_usd"`
	PortCostsUSD       Range           `json:"port_costs_usd"`
	TCEUSDPerDay       Range           `json:"tce_usd_per_day"`
}

// dateOrNil is a date as YYYY-MM-DD, nil for the zero time.
func dateOrNil(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := t.UTC().Format(time.DateOnly)
	return &s
}

// NewVoyageEarning presents a voyage's earnings: money in whole USD,
// tonnes whole, days to two decimals, rates and prices to cents.
func NewVoyageEarning(r earnings.Result) VoyageEarning {
	out := VoyageEarning{IMO: r.IMO.String(), VesselName: r.Name, Origin: r.Origin, OriginName: routePortName(r.Origin),
		Destination: r.Destination, DestinationName: routePortName(r.Destination), Commodity: r.Commodity,
		LoadArrival: r.LoadArrival.UTC(), Departure: r.Departure.UTC(), Arrival: r.Arrival.UTC(), DischargeDeparture: r.DischargeDepart.UTC(),
		VoyageDays: roundTo(r.VoyageDays, 2), PortDays: roundTo(r.PortDays, 2), SeaDays: roundTo(r.SeaDays, 2),
		DistanceNM: roundTo(r.DistanceNM, 0), CargoTonnes: rangeOf(r.Tonnes, 0),
		FreightRate: FreightRateUsed{USDPerTonne: rangeOf(r.Rate.USDPerTonne, 2), Basis: r.Rate.Basis, Source: r.Rate.Source, Date: dateOrNil(r.Rate.Date)},
		Fuel:        FuelUsed{Tonnes: rangeOf(r.FuelTonnes, 1), Source: r.FuelSource},
		BunkerPrice: BunkerPriceUsed{USDPerTonne: rangeOf(r.Bunker.USDPerTonne, 2), Fuel: "vlsfo", Basis: r.Bunker.Basis, Source: r.Bunker.Source,
			Date: dateOrNil(r.Bunker.Date)},
		RevenueUSD: rangeOf(r.Revenue, 0), FuelCostUSD: rangeOf(r.FuelCost, 0), PortCostsUSD: rangeOf(r.PortCosts, 0), TCEUSDPerDay: rangeOf(r.TCE, 0)}
	if r.DWT > 0 {
		d := roundTo(r.DWT, 0)
		out.DWT = &d
	}
	if r.Bunker.BrentPerBarrel > 0 {
		b := roundTo(r.Bunker.BrentPerBarrel, 2)
		out.BunkerPrice.BrentUSDPerBarrel = &b
	}
	return out
}

// Earnings serves GET /v1/earnings: vessel (IMO), port (slug or id: the
// loading or the discharging port), limit (default 50, max 200, clamped
// by the tier). Per completed laden voyage, newest departure first, the
// time-charter equivalent with its bounds and the inputs it was computed
// from; voyages that departed before the tier's history floor are left out.
// q answers the encoded body (Encoded).
func Earnings(q Query[EarningsRequest, []byte], now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		var r EarningsRequest
		var err error
		if r.IMO, _, err = imoParam(c, "vessel", false); err != nil {
			return err
		}
		port, err := portParam(c, "port", false)
		if err != nil {
			return err
		}
		r.Port = slugOf(port)
		if r.Limit, err = limitParam(c, 50, 200); err != nil {
			return err
		}
		caller := overwatch.CallerFrom(c.UserContext())
		if floor := caller.HistoryFloor(now().UTC()); !floor.IsZero() {
			// The floor rounded up to the minute (a cache key that lasts a minute).
			if r.From = floor.UTC().Truncate(time.Minute); r.From.Before(floor) {
				r.From = r.From.Add(time.Minute)
			}
		}
		body, err := q(c.UserContext(), r)
		if err != nil {
			return err
		}
		return sendJSON(c, body)
	}
}

// PortRevenueWeek is an item of GET /v1/earnings/port-revenue.
type PortRevenueWeek struct {
	Port              string  `json:"port"`
	PortName          string  `json:"port_name"`
	WeekStart         string  `json:"week_start"`
	ISOYear           int     `json:"iso_year"`
	ISOWeek           int     `json:"iso_week"`
	Voyages           int     `json:"voyages"`
	Tonnes            float64 `json:"tonnes"`
	FreightRevenueUSD Range   `json:"freight_revenue_usd"`
	PortCostUSD       Range   `json:"port_cost_usd"`
}

// NewPortRevenueWeek presents a port week: money in whole USD.
func NewPortRevenueWeek(w earnings.PortWeek) PortRevenueWeek {
	out := PortRevenueWeek{Port: w.Port, PortName: routePortName(w.Port), WeekStart: w.Week.UTC().Format(time.DateOnly),
		Voyages: w.Voyages, Tonnes: roundTo(w.Tonnes, 0), FreightRevenueUSD: rangeOf(w.Revenue, 0), PortCostUSD: rangeOf(w.PortCost, 0)}
	out.ISOYear, out.ISOWeek = w.Week.UTC().ISOWeek()
	return out
}

// PortRevenue serves GET /v1/earnings/port-revenue: port (slug or id),
// limit (default 52, max 200, clamped by the tier). Per loading port and
// ISO week of departure, newest week first, the estimated freight revenue
// of the departing cargo and the port-cost estimate of those calls, with
// bounds; weeks that start before the tier's history floor are left out.
// q answers the encoded body (Encoded).
func PortRevenue(q Query[PortRevenueRequest, []byte], now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		var r PortRevenueRequest
		port, err := portParam(c, "port", false)
		if err != nil {
			return err
		}
		r.Port = slugOf(port)
		if r.Limit, err = limitParam(c, 52, 200); err != nil {
			return err
		}
		caller := overwatch.CallerFrom(c.UserContext())
		if floor := caller.HistoryFloor(now().UTC()); !floor.IsZero() {
			r.From = mondayOf(floor)
			if r.From.Before(floor) {
				r.From = r.From.AddDate(0, 0, 7)
			}
		}
		body, err := q(c.UserContext(), r)
		if err != nil {
			return err
		}
		return sendJSON(c, body)
	}
}
