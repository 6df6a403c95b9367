package read

import (
	"context"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/maritime/seaport"
	"overwatch/maritime/vessel"
	"overwatch/route"
)

// VesselFilter selects vessels of the registry.
type VesselFilter struct {
	Port      *seaport.Port    // latest position inside the port area...
	PortSince time.Time        // ...and reported at or after this
	Category  *vessel.Category // ship type category
	SeenSince time.Time        // last seen at or after (the tier's history floor)
	Limit     int
}

// VesselRow is a vessel of the registry.
type VesselRow struct {
	IMO          overwatch.IMO
	MMSI         uint32
	Name         string
	CallSign     string
	ShipType     uint8
	ShipTypeText string
	Flag         string
	LengthM      uint16
	BeamM        uint16
	DraftM       *float32 // latest reported
	MaxDraftM    *float32 // deepest reported: the design draught's estimate
	Destination  string
	LastSeen     time.Time
}

// VesselSearch finds vessels, ordered by name then IMO.
type VesselSearch interface {
	Vessels(ctx context.Context, f VesselFilter) ([]VesselRow, error)
}

// VesselStore finds vessels and the vessels in a port area. Both answers
// are live: not cached.
type VesselStore interface {
	VesselSearch
	PortPositionQuery
}

// vesselRoutes mounts the vessel search and the port positions.
func vesselRoutes(r route.Router, s VesselStore, now func() time.Time) {
	r.Handle(fiber.MethodGet, "/vessels", overwatch.AccessKey, Vessels(s, now))
	r.Handle(fiber.MethodGet, "/positions", overwatch.AccessKey, Positions(s, now))
}

// Vessel is an item of GET /v1/vessels.
type Vessel struct {
	IMONumber    string   `json:"imo_number"`
	MMSI         uint32   `json:"mmsi"`
	Name         *string  `json:"name"`
	CallSign     *string  `json:"call_sign"`
	Flag         *string  `json:"flag"`
	VesselType   *string  `json:"vessel_type"`
	ShipTypeCode *uint8   `json:"ship_type_code"`
	Category     *string  `json:"category"`
	LengthM      *float64 `json:"length_m"`
	BeamM        *float64 `json:"beam_m"`
	DraftM       *float64 `json:"draft_m"`
	DesignDraftM *float64 `json:"design_draft_m"`
	DWT          *float64 `json:"dwt"`
	DWTEstimated bool     `json:"dwt_estimated"`
	Destination  *string  `json:"destination"`
	LastSeen     string   `json:"last_seen"`
}

func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func optFloat32(f *float32) *float64 {
	if f == nil {
		return nil
	}
	v := roundTo(float64(*f), 1)
	return &v
}

// NewVessel presents a registry row. DWT is not broadcast by AIS: it is
// estimated from the length, beam and deepest reported draught
// (vessel.EstimateDWT) and flagged as an estimate.
func NewVessel(r VesselRow) Vessel {
	v := Vessel{
		IMONumber: r.IMO.String(), MMSI: r.MMSI, Name: optString(r.Name), CallSign: optString(r.CallSign),
		Flag: optString(r.Flag), VesselType: optString(r.ShipTypeText), Destination: optString(r.Destination),
		DraftM: optFloat32(r.DraftM), DesignDraftM: optFloat32(r.MaxDraftM),
		LastSeen: r.LastSeen.UTC().Format(time.RFC3339),
	}
	if r.ShipType != 0 {
		code := r.ShipType
		v.ShipTypeCode = &code
		if c, ok := vessel.CategoryOf(code); ok {
			v.Category = &c.Name
		}
	}
	if r.LengthM > 0 && r.BeamM > 0 {
		l, b := float64(r.LengthM), float64(r.BeamM)
		v.LengthM, v.BeamM = &l, &b
		if r.MaxDraftM != nil {
			if dwt, ok := vessel.EstimateDWT(r.ShipType, l, b, float64(*r.MaxDraftM)); ok {
				v.DWT, v.DWTEstimated = &dwt, true
			}
		}
	}
	return v
}

// Vessels serves GET /v1/vessels: port (slug; vessels whose latest
// position is in the port area), type (a ship type category), limit
// (default 50, max 200, clamped by the tier). Vessels last seen before the
// tier's history floor are left out.
func Vessels(store VesselSearch, now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		var f VesselFilter
		var err error
		if f.Port, err = portParam(c, "port", false); err != nil {
			return err
		}
		if f.Category, err = categoryParam(c, "type"); err != nil {
			return err
		}
		if f.Limit, err = limitParam(c, 50, 200); err != nil {
			return err
		}
		caller := overwatch.CallerFrom(c.UserContext())
		t := now()
		f.SeenSince = caller.HistoryFloor(t)
		f.PortSince = caller.ClampSince(t.Add(-PortPositionsWindow), t)
		rows, err := store.Vessels(c.UserContext(), f)
		if err != nil {
			return err
		}
		out := make([]Vessel, len(rows))
		for i, r := range rows {
			out[i] = NewVessel(r)
		}
		return c.JSON(fiber.Map{"vessels": out})
	}
}

// categoryParam reads a ship type category name.
func categoryParam(c *fiber.Ctx, name string) (*vessel.Category, error) {
	v, err := enumParam(c, name, vessel.CategoryNames()...)
	if err != nil || v == "" {
		return nil, err
	}
	cat, _ := vessel.CategoryNamed(v)
	return &cat, nil
}
