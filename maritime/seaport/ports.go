package seaport

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"overwatch/maritime/geo"

	"github.com/google/uuid"
)

// Zone is a circle on the sea surface: a port area, an anchorage or a berth
// zone. Capacity and Cargo are set on berth zones: how many vessels can lie
// alongside at once, and the commodities its terminal handles.
type Zone struct {
	ID       string   `json:"id"`
	Name     string   `json:"name"`
	Lat      float64  `json:"latitude"`
	Lon      float64  `json:"longitude"`
	RadiusKM float64  `json:"radius_km"`
	Capacity int      `json:"capacity,omitempty"`
	Cargo    []string `json:"cargo,omitempty"`
}

// Handles reports whether the berth zone handles the commodity.
func (z Zone) Handles(commodity string) bool {
	for _, c := range z.Cargo {
		if c == commodity {
			return true
		}
	}
	return false
}

// Contains reports whether the point lies inside the zone.
func (z Zone) Contains(lat, lon float64) bool {
	return geo.DistanceKM(z.Lat, z.Lon, lat, lon) <= z.RadiusKM
}

// Port is one of the 40 reference ports: real places from the NGA World Port
// Index with their official UN/LOCODE, a port area, anchorages and berth
// zones. ID is a stable UUID derived from the slug. River ports lie up a
// river, where the land mask of a world map has no water.
type Port struct {
	ID          string   `json:"id"`
	Slug        string   `json:"slug"`
	Name        string   `json:"name"`
	Country     string   `json:"country"`
	Region      string   `json:"region"`
	LOCODE      string   `json:"locode"`
	WPINumber   int      `json:"wpi_number"`
	Lat         float64  `json:"latitude"`
	Lon         float64  `json:"longitude"`
	Kind        string   `json:"kind"`
	Commodities []string `json:"commodities"`
	MaxDraftM   float64  `json:"max_draft_m"`
	River       bool     `json:"river,omitempty"`
	Area        Zone     `json:"area"`
	Anchorages  []Zone   `json:"anchorages"`
	Berths      []Zone   `json:"berths"`
}

// Terminal kinds of the reference ports.
const (
	KindGrainExport = "grain_export"
	KindGrainImport = "grain_import"
	KindLNGExport   = "lng_export"
	KindLNGImport   = "lng_import"
	KindIronOre     = "iron_ore"
	KindCoal        = "coal"
	KindMultiBulk   = "multipurpose"
)

// IsLNG reports whether the port is one of the LNG terminals.
func (p Port) IsLNG() bool { return p.Kind == KindLNGExport || p.Kind == KindLNGImport }

// IsMining reports whether the port is one of the iron-ore and coal terminals.
func (p Port) IsMining() bool { return p.Kind == KindIronOre || p.Kind == KindCoal }

//go:embed ports.json
var portsJSON []byte

// portNamespace is the UUID namespace of port IDs; never change it, or every
// stored port UUID changes.
var portNamespace = uuid.MustParse("5b0c2f1e-9c41-4f57-8a0e-6f2d8e7a3b10")

var loadPorts = sync.OnceValues(func() ([]Port, error) {
	var ports []Port
	if err := json.Unmarshal(portsJSON, &ports); err != nil {
		return nil, fmt.Errorf("ports.json: %w", err)
	}
	for i := range ports {
		ports[i].ID = uuid.NewSHA1(portNamespace, []byte(ports[i].Slug)).String()
	}
	return ports, nil
})

// All returns the reference ports in slug order. It panics if the embedded
// data is malformed, which the package's tests rule out.
func All() []Port {
	ports, err := loadPorts()
	if err != nil {
		panic(err)
	}
	return ports
}

// BySlug returns the port with the slug.
func BySlug(slug string) (Port, bool) {
	for _, p := range All() {
		if p.Slug == slug {
			return p, true
		}
	}
	return Port{}, false
}

// ByRef returns the port named by its slug or by its stable UUID (in any
// letter case).
func ByRef(ref string) (Port, bool) {
	for _, p := range All() {
		if p.Slug == ref || strings.EqualFold(p.ID, ref) {
			return p, true
		}
	}
	return Port{}, false
}
