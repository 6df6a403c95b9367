package read

import (
	"context"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/maritime/terminals"
	"overwatch/route"
)

// TerminalCallsRequest selects the published calls at the ports (slugs
// joined by ",": a comparable key) that arrived by Now and are still open
// or left after Since.
type TerminalCallsRequest struct {
	Ports      string
	Since, Now time.Time
}

// TerminalStore reads the calls the LNG and mining dashboards add up.
type TerminalStore interface {
	TerminalCalls(ctx context.Context, r TerminalCallsRequest) ([]terminals.Call, error)
}

// terminalRoutes mounts the LNG and mining terminal endpoints.
func terminalRoutes(r route.Router, s TerminalStore, c *Cache, now func() time.Time) {
	calls := Cached(c, "terminal_calls", []string{tablePortCalls}, s.TerminalCalls)
	r.Handle(fiber.MethodGet, "/lng", overwatch.AccessKey, TerminalDashboard(terminals.SectorLNG, calls, now))
	r.Handle(fiber.MethodGet, "/lng/terminals", overwatch.AccessKey, TerminalList(terminals.SectorLNG))
	r.Handle(fiber.MethodGet, "/mining", overwatch.AccessKey, TerminalDashboard(terminals.SectorMining, calls, now))
	r.Handle(fiber.MethodGet, "/mining/terminals", overwatch.AccessKey, TerminalList(terminals.SectorMining))
}

// TerminalActivity is an item of the dashboards' terminals.
type TerminalActivity struct {
	ID                 string             `json:"id"`
	Name               string             `json:"name"`
	Port               string             `json:"port"`
	Country            string             `json:"country"`
	Commodities        []string           `json:"commodities"`
	Status             string             `json:"status"`
	CapacityMtpa       *float64           `json:"capacity_mtpa"`
	Active             bool               `json:"active"`
	CarriersNow        int                `json:"carriers_now"`
	Departures7d       int                `json:"departures_7d"`
	DeparturesBy       map[string]int     `json:"departures_7d_by_commodity"`
	EstimatedVolume7dT float64            `json:"estimated_volume_7d_tons"`
	VolumeBy           map[string]float64 `json:"estimated_volume_7d_tons_by_commodity"`
	LoadedDepartures7d int                `json:"loaded_departures_7d"`
	Latitude           *float64           `json:"latitude"`  // null without exact coordinates
	Longitude          *float64           `json:"longitude"` // null without exact coordinates
}

// TerminalDashboard serves GET /v1/lng and GET /v1/mining: the sector's
// terminals' carriers now, departures and estimated volume in the last 7
// days (terminals.Summarise; mining also split into coal and iron ore),
// with coordinates for the tiers that see them. No parameters.
func TerminalDashboard(sector string, calls Query[TerminalCallsRequest, []terminals.Call], now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		caller := overwatch.CallerFrom(c.UserContext())
		ts := terminals.Of(sector)
		t := Minute(now().UTC())
		rows, err := calls(c.UserContext(), TerminalCallsRequest{
			Ports: strings.Join(terminals.Ports(ts), ","), Since: t.Add(-terminals.Window), Now: t,
		})
		if err != nil {
			return err
		}
		var carriers, departures, active int
		var volume float64
		by := map[string]int{}
		items := make([]TerminalActivity, 0, len(ts))
		for _, a := range terminals.Summarise(ts, rows, t) {
			carriers += a.CarriersNow
			departures += a.Departures
			volume += a.VolumeTonnes
			for k, v := range a.ByCommodity {
				by[k] += v
			}
			if a.Active() {
				active++
			}
			items = append(items, TerminalActivity{
				ID: a.Terminal.ID, Name: a.Terminal.Name, Port: a.Terminal.Port.Slug, Country: a.Terminal.Port.Country,
				Commodities: a.Terminal.Commodities, Status: a.Terminal.Status.Value, CapacityMtpa: a.Terminal.Capacity.Value,
				Active: a.Active(), CarriersNow: a.CarriersNow, Departures7d: a.Departures, DeparturesBy: a.ByCommodity,
				EstimatedVolume7dT: a.VolumeTonnes, VolumeBy: a.VolumeBy, LoadedDepartures7d: a.LoadedDeparts,
				Latitude: caller.Coordinate(a.Terminal.Lat), Longitude: caller.Coordinate(a.Terminal.Lon),
			})
		}
		if sector == terminals.SectorLNG {
			return c.JSON(fiber.Map{
				"carriers_at_terminals": carriers, "estimated_volume_7d_tons": volume, "departures_7d": departures,
				"active_terminals": active, "total_terminals": len(ts), "terminals": items,
			})
		}
		return c.JSON(fiber.Map{
			"carriers_at_terminals": carriers, "estimated_volume_7d_tons": volume, "departures_7d": departures,
			"coal_departures_7d": by[overwatch.CommodityCoal], "iron_ore_departures_7d": by[overwatch.CommodityIronOre],
			"terminals": items,
		})
	}
}

// TerminalMeta is an item of GET /v1/lng/terminals and /v1/mining/terminals:
// each metadata value with its source.
type TerminalMeta struct {
	ID                string                    `json:"id"`
	Sector            string                    `json:"sector"`
	Name              string                    `json:"name"`
	Port              string                    `json:"port"`
	PortName          string                    `json:"port_name"`
	Country           string                    `json:"country"`
	Commodities       []string                  `json:"commodities"`
	Berths            []string                  `json:"berths"`
	Operator          terminals.Value[string]   `json:"operator"`
	CapacityMtpa      terminals.Value[*float64] `json:"capacity_mtpa"`
	Status            terminals.Value[string]   `json:"status"`
	StartYear         terminals.Value[*int]     `json:"start_year"`
	Latitude          *float64                  `json:"latitude"`
	Longitude         *float64                  `json:"longitude"`
	CoordinatesSource string                    `json:"coordinates_source"`
	Projects          []terminals.Project       `json:"projects,omitempty"`
	Source            string                    `json:"source"`
}

// TerminalList serves GET /v1/lng/terminals and /v1/mining/terminals: the
// bundled metadata, coordinates for the tiers that see them.
func TerminalList(sector string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		caller := overwatch.CallerFrom(c.UserContext())
		source := terminals.WPIAttribution + "; operators' published capacities (see each value's source)"
		if sector == terminals.SectorLNG {
			source = terminals.GEMAttribution + ", https://globalenergymonitor.org/projects/global-gas-infrastructure-tracker/"
		}
		ts := terminals.Of(sector)
		out := make([]TerminalMeta, len(ts))
		for i, t := range ts {
			out[i] = TerminalMeta{
				ID: t.ID, Sector: t.Sector, Name: t.Name, Port: t.Port.Slug, PortName: t.Port.Name, Country: t.Port.Country,
				Commodities: t.Commodities, Berths: t.BerthIDs(), Operator: t.Operator, CapacityMtpa: t.Capacity,
				Status: t.Status, StartYear: t.StartYear, Latitude: caller.Coordinate(t.Lat), Longitude: caller.Coordinate(t.Lon),
				CoordinatesSource: t.CoordSource, Projects: t.Projects, Source: source,
			}
		}
		return c.JSON(fiber.Map{"terminals": out})
	}
}
