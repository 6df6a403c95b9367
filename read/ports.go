package read

import (
	"log/slog"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/maritime/seaport"
	"overwatch/route"
)

// PortView is a port as a caller may see it. Coordinates and zones are for
// paid plans only; Free and anonymous callers get port-level data.
type PortView struct {
	ID          string         `json:"id"`
	Slug        string         `json:"slug"`
	Name        string         `json:"name"`
	Country     string         `json:"country"`
	Region      string         `json:"region"`
	LOCODE      string         `json:"locode"`
	Kind        string         `json:"kind"`
	Commodities []string       `json:"commodities"`
	MaxDraftM   float64        `json:"max_draft_m"`
	River       bool           `json:"river"`
	Latitude    *float64       `json:"latitude,omitempty"`
	Longitude   *float64       `json:"longitude,omitempty"`
	Area        *seaport.Zone  `json:"area,omitempty"`
	Anchorages  []seaport.Zone `json:"anchorages,omitempty"`
	Berths      []seaport.Zone `json:"berths,omitempty"`
}

// NewPortView returns the port as the caller may see it.
func NewPortView(p seaport.Port, caller *overwatch.Caller) PortView {
	v := PortView{
		ID: p.ID, Slug: p.Slug, Name: p.Name, Country: p.Country, Region: p.Region,
		LOCODE: p.LOCODE, Kind: p.Kind, Commodities: p.Commodities, MaxDraftM: p.MaxDraftM, River: p.River,
	}
	if caller.ExactCoordinates() {
		area := p.Area
		v.Latitude, v.Longitude = &p.Lat, &p.Lon
		v.Area, v.Anchorages, v.Berths = &area, p.Anchorages, p.Berths
	}
	return v
}

// portRoutes mounts the endpoints open to every caller of the keyed
// surface (a key, when presented, sets the tier): the ports, the service's
// health and the plans.
func portRoutes(r route.Router, s HealthStore, pg Pinger, log *slog.Logger, now func() time.Time) {
	r.Handle(fiber.MethodGet, "/ports", overwatch.AccessOptionalKey, Ports())
	r.Handle(fiber.MethodGet, "/health", overwatch.AccessOptionalKey, Health(s, pg, log, now))
	r.Handle(fiber.MethodGet, "/billing/plans", overwatch.AccessOptionalKey, Plans())
}

// Ports serves GET /v1/ports (public; a key unlocks coordinates).
func Ports() fiber.Handler {
	return func(c *fiber.Ctx) error {
		caller := overwatch.CallerFrom(c.UserContext())
		ports := seaport.All()
		out := make([]PortView, len(ports))
		for i, p := range ports {
			out[i] = NewPortView(p, caller)
		}
		return c.JSON(fiber.Map{"ports": out})
	}
}
