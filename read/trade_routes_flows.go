package read

import (
	"context"
	"fmt"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/maritime/seaport"
	"overwatch/maritime/trade"
	"overwatch/route"
)

// The trade-route tables the cached queries read.
const (
	tableRouteFlows      = "route_flows_weekly"
	tableRouteShifts     = "route_shifts"
	tableRouteDeceptions = "route_deceptions"
)

// RouteCommodities are the values of the commodity parameter of the route
// endpoints: the commodities of the reference ports, and trade.Unknown.
var RouteCommodities = []string{overwatch.CommodityGrain, overwatch.CommodityOilseeds, overwatch.CommodityLNG, overwatch.CommodityIronOre,
	overwatch.CommodityCoal, overwatch.CommodityCrude, overwatch.CommodityProducts, overwatch.CommodityContainers, trade.Unknown}

// FlowsRequest selects weekly route flows: from an origin and to a
// destination ("" for any), of one departure week (zero: any) not before
// From, of one commodity ("" for any), at most Limit.
type FlowsRequest struct {
	Origin, Destination string
	Week, From          time.Time
	Commodity           string
	Limit               int
}

// RouteStore reads the trade-route tables: flows newest week first, then
// by tonnes (largest first); shifts by severity, then size of the change;
// deceptions newest arrival first.
type RouteStore interface {
	RouteFlows(ctx context.Context, r FlowsRequest) ([]trade.Flow, error)
	RouteShifts(ctx context.Context, r ShiftsRequest) ([]trade.Shift, error)
	RouteDeceptions(ctx context.Context, r DeceptionsRequest) ([]trade.Deception, error)
}

// tradeRoutes mounts the trade-route endpoints.
func tradeRoutes(r route.Router, s RouteStore, c *Cache, now func() time.Time) {
	flows := Cached(c, "route_flows", []string{tableRouteFlows}, s.RouteFlows)
	flowsBody := Cached(c, "route_flows_body", []string{tableRouteFlows}, Encoded(s.RouteFlows, "flows", NewFlow))
	r.Handle(fiber.MethodGet, "/routes/flows", overwatch.AccessKey, RouteFlows(flows, flowsBody, now))
	shifts := Cached(c, "route_shifts", []string{tableRouteShifts}, s.RouteShifts)
	r.Handle(fiber.MethodGet, "/routes/shifts", overwatch.AccessKey, RouteShifts(shifts, now))
	deceptions := Cached(c, "route_deceptions", []string{tableRouteDeceptions}, Encoded(s.RouteDeceptions, "deceptions", NewDeception))
	r.Handle(fiber.MethodGet, "/routes/deceptions", overwatch.AccessKey, RouteDeceptions(deceptions, now))
}

// Flow is an item of GET /v1/routes/flows.
type Flow struct {
	WeekStart         string  `json:"week_start" csv:"week_start"`
	ISOYear           int     `json:"iso_year" csv:"iso_year"`
	ISOWeek           int     `json:"iso_week" csv:"iso_week"`
	Origin            string  `json:"origin" csv:"origin"`
	OriginName        string  `json:"origin_name" csv:"origin_name"`
	Destination       string  `json:"destination" csv:"destination"`
	DestinationName   string  `json:"destination_name" csv:"destination_name"`
	Commodity         string  `json:"commodity" csv:"commodity"`
	Vessels           int     `json:"vessels" csv:"vessels"`
	Voyages           int     `json:"voyages" csv:"voyages"`
	Tonnes            float64 `json:"tonnes" csv:"tonnes"`
	MedianTransitDays float64 `json:"median_transit_days" csv:"median_transit_days"`
}

// NewFlow presents a flow row: tonnes as integers, transit days to one
// decimal.
func NewFlow(f trade.Flow) Flow {
	out := Flow{WeekStart: f.Week.UTC().Format(time.DateOnly), Origin: f.Origin, OriginName: routePortName(f.Origin),
		Destination: f.Destination, DestinationName: routePortName(f.Destination), Commodity: f.Commodity,
		Vessels: f.Vessels, Voyages: f.Voyages, Tonnes: roundTo(f.Tonnes, 0), MedianTransitDays: roundTo(f.MedianTransitDays, 1)}
	out.ISOYear, out.ISOWeek = f.Week.UTC().ISOWeek()
	return out
}

// routePortName is the name of the port with the slug ("" when unknown).
func routePortName(slug string) string {
	p, _ := seaport.BySlug(slug)
	return p.Name
}

// weekParam reads an ISO week start: a Monday as YYYY-MM-DD whose week
// lies within the store's range (ParseTimeParam); ok is false when it is
// absent.
func weekParam(c *fiber.Ctx, name string) (w time.Time, ok bool, err error) {
	raw := c.Query(name)
	if raw == "" {
		return time.Time{}, false, nil
	}
	w, err = parseWeek(name, raw)
	return w, err == nil, err
}

// parseWeek reads an ISO week start: exactly YYYY-MM-DD, a Monday (UTC),
// whose whole week lies within the store's range.
func parseWeek(name, raw string) (time.Time, error) {
	w, ok := parseISOTime(raw, time.DateOnly)
	if !ok || len(raw) != len(time.DateOnly) || w.Weekday() != time.Monday {
		return time.Time{}, overwatch.Errorf(overwatch.Invalid, "%s must be the Monday that starts an ISO week, as YYYY-MM-DD (got '%s')",
			name, truncate(raw, 20)).With("parameter", name)
	}
	if err := inStoreRange(name, raw, w, w.AddDate(0, 0, 7).Add(-time.Second)); err != nil {
		return time.Time{}, err
	}
	return w, nil
}

// RouteFlows serves GET /v1/routes/flows: origin, destination (port slug
// or id), week (a Monday, YYYY-MM-DD), commodity, format (json, the
// default, or csv), limit (default 100, max 500, clamped by the tier).
// Weekly origin→destination flows of completed voyages by week of
// departure, newest week first, then by tonnes; weeks that start before
// the tier's history floor are left out. CSV needs a plan with CSV export
// (403 otherwise) and is capped by the plan's CSV rows too.
func RouteFlows(q Query[FlowsRequest, []trade.Flow], body Query[FlowsRequest, []byte], now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		var f FlowsRequest
		origin, err := portParam(c, "origin", false)
		if err != nil {
			return err
		}
		dest, err := portParam(c, "destination", false)
		if err != nil {
			return err
		}
		f.Origin, f.Destination = slugOf(origin), slugOf(dest)
		if f.Week, _, err = weekParam(c, "week"); err != nil {
			return err
		}
		if f.Commodity, err = enumParam(c, "commodity", RouteCommodities...); err != nil {
			return err
		}
		format, err := enumParam(c, "format", "json", "csv")
		if err != nil {
			return err
		}
		caller := overwatch.CallerFrom(c.UserContext())
		if format == "csv" {
			if err := caller.Require(overwatch.FeatureCSVExport); err != nil {
				return err
			}
		}
		if f.Limit, err = limitParam(c, 100, 500); err != nil {
			return err
		}
		t := now().UTC()
		f.From = laterDay(time.Time{}, caller.HistoryFloor(t))
		if format == "csv" {
			f.Limit = csvRows(caller, f.Limit)
		}
		if format != "csv" {
			b, err := body(c.UserContext(), f)
			if err != nil {
				return err
			}
			return sendJSON(c, b)
		}
		rows, err := q(c.UserContext(), f)
		if err != nil {
			return err
		}
		out := make([]Flow, len(rows))
		for i, r := range rows {
			out[i] = NewFlow(r)
		}
		body, err := csvFile(out, f.Limit, func(f Flow) Flow { return f })
		if err != nil {
			return err
		}
		c.Set(fiber.HeaderContentType, "text/csv; charset=utf-8")
		c.Set(fiber.HeaderContentDisposition, fmt.Sprintf(`attachment; filename="overwatch-route-flows-%s.csv"`, t.Format("20060102")))
		c.Set(fiber.HeaderCacheControl, "no-store")
		return c.Send(body)
	}
}
