package risk

import (
	"time"

	"overwatch"
)

// Risk event types (the `type` of a RiskEvent) and their subtypes.
const (
	EventGap        = "ais_gap"          // subtype "" or "intentional"
	EventSTS        = "sts_transfer"     // subtype: the method, "proximity" or "path_intersection"
	EventLoitering  = "loitering"        // subtype "stationary" or "slow_roll"
	EventIdentity   = "identity_change"  // subtype "flag", "name" or "mmsi"
	EventMismatch   = "draught_mismatch" // subtype "directional", "magnitude" or "zero_change"
	EventSpoofing   = "spoofing"         // an impossible jump in the reported positions
	EventSanctions  = "sanctions_match"  // subtype: the match type, "direct_imo", "mmsi" or "name"
	EventHotspotKey = "hotspot"
)

// Severity tiers of events and vessels.
const (
	TierCritical = "critical"
	TierHigh     = "high"
	TierMedium   = "medium"
	TierLow      = "low"
)

// Event is one event found by a detector. End is nil while the event
// goes on (an open AIS gap, an encounter still under way); a later run
// closes it. Lat/Lon is where it started, EndLat/EndLon where it ended (the
// same for point events), each only when HasPosition (HasEndPosition) is
// set: an event with no observed position (a sanctions match, an identity
// change with no fix near it) leaves them unset and is served with a null
// position, never 0,0. Detail holds the type's own fields, documented by
// each detector, and is served as they are.
type Event struct {
	Type     string
	Subtype  string
	IMO      overwatch.IMO
	Other    overwatch.IMO // the other vessel of a ship-to-ship transfer; 0 otherwise
	Start    time.Time
	End      *time.Time
	Lat, Lon float64
	EndLat   float64
	EndLon   float64
	// HasPosition and HasEndPosition tell whether Lat/Lon and
	// EndLat/EndLon hold a position; the zero value is no position.
	HasPosition, HasEndPosition bool
	Port                        string // the port concerned (mismatches), slug; "" otherwise
	Severity                    string
	Detail                      map[string]any
}

// Place sets where the event started and ended.
func (e *Event) Place(lat, lon, endLat, endLon float64) {
	e.Lat, e.Lon, e.EndLat, e.EndLon = lat, lon, endLat, endLon
	e.HasPosition, e.HasEndPosition = true, true
}

// Ongoing reports whether the event goes on.
func (e *Event) Ongoing() bool { return e.End == nil }

// Factor is one of the factors of a vessel's risk score: its value
// (the evidence, in the factor's unit), its weight, and its contribution
// to the 0–100 score, with the reason shown to users.
type Factor struct {
	Name         string
	Weight       float64
	Value        float64
	Contribution float64
	Reason       string
}

// VesselScore is a vessel's risk score and tier, with every factor.
type VesselScore struct {
	IMO        overwatch.IMO
	Name       string
	Flag       string
	ShipType   uint8
	Category   string
	Score      float64 // 0–100
	Tier       string  // critical, high, medium, low
	Factors    []Factor
	ComputedAt time.Time
}

// Hotspot is a grid cell where recent risk events cluster.
type Hotspot struct {
	ID         string // stable: the cell
	Lat, Lon   float64
	CellDeg    float64
	Events     int
	Vessels    int
	ByType     map[string]int
	FirstEvent time.Time
	LastEvent  time.Time
	Active     bool // events continue (one in the last 72 h)
	Severity   string
}

// Baseline is the normal rate of risk events for an area and vessel
// category, that events are compared with.
type Baseline struct {
	Area              string // a region (ports' regions, or "open_ocean")
	Category          string
	VesselDays        float64
	GapsPerVesselDay  float64
	LoiterHoursPerDay float64
	TransfersPerDay   float64
	From, To          time.Time
}
