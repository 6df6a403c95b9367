package read

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/maritime/risk"
	"overwatch/maritime/vessel"
	"overwatch/route"
)

// The risk events as the /risk endpoints serve them: read from the
// risk_events table the risk job writes (clickhouse/migrations/006_risk.sql),
// each with the identity of its vessel as of the derivation. The event
// types and their detail fields are documented in docs/risk-api.md.

// RiskTiers are the severity tiers of events and the tiers of vessels,
// most severe first.
var RiskTiers = []string{risk.TierCritical, risk.TierHigh, risk.TierMedium, risk.TierLow}

// RiskStore is what the /risk endpoints read: the events, the figures, the
// vessel scores, hotspots and baselines the risk jobs write, and the
// identity history ingest keeps.
type RiskStore interface {
	RiskEventRows(ctx context.Context, r RiskEventsRequest) ([]RiskEventRow, error)
	RiskStats(ctx context.Context, r RiskStatsRequest) (RiskStatsRow, error)
	STSStats(ctx context.Context, r STSStatsRequest) (STSStatsRow, error)
	VesselRisks(ctx context.Context, r VesselRisksRequest) ([]risk.VesselScore, error)
	RiskHotspots(ctx context.Context, r HotspotsRequest) ([]risk.Hotspot, error)
	RiskBaselines(ctx context.Context, r BaselinesRequest) ([]risk.Baseline, error)
	IdentityTimeline(ctx context.Context, imo overwatch.IMO) ([]vessel.Identity, error)
	SARGapStore
}

// riskQueries are the cached queries of the /risk endpoints.
type riskQueries struct {
	events    Query[RiskEventsRequest, []RiskEventRow]
	stats     Query[RiskStatsRequest, RiskStatsRow]
	sts       Query[STSStatsRequest, STSStatsRow]
	vessels   Query[VesselRisksRequest, []risk.VesselScore]
	hotspots  Query[HotspotsRequest, []risk.Hotspot]
	baselines Query[BaselinesRequest, []risk.Baseline]
	identity  Query[overwatch.IMO, []vessel.Identity]
	verify    GapVerifications
}

// riskRoutes mounts the twelve /risk endpoints (docs/risk-api.md). The
// identity timeline reads vessel_identity, which ingest writes (not a
// derivation): a new identity row shows within the cache's TTL.
func riskRoutes(r route.Router, s RiskStore, c *Cache, now func() time.Time) {
	q := riskQueries{
		events:    Cached(c, "risk_events", []string{tableRiskEvents}, s.RiskEventRows),
		stats:     Cached(c, "risk_stats", []string{tableRiskEvents, tableVesselRisk, tableHotspots}, s.RiskStats),
		sts:       Cached(c, "sts_stats", []string{tableRiskEvents}, s.STSStats),
		vessels:   Cached(c, "vessel_risks", []string{tableVesselRisk}, s.VesselRisks),
		hotspots:  Cached(c, "risk_hotspots", []string{tableHotspots}, s.RiskHotspots),
		baselines: Cached(c, "risk_baselines", []string{tableBaselines}, s.RiskBaselines),
		identity:  Cached(c, "identity_timeline", []string{tableIdentity}, s.IdentityTimeline),
	}
	q.verify = VerifiedGaps(c, s)
	get := func(path string, h fiber.Handler) { r.Handle(fiber.MethodGet, path, overwatch.AccessKey, h) }
	get("/risk/vessels", RiskVessels(q.vessels))
	get("/risk/vessel/:imo", RiskVesselHandler(q.vessels, q.events, q.verify, now))
	get("/risk/events", RiskEvents(q.events, q.verify, now))
	get("/risk/stats", RiskStatsHandler(q.stats, now))
	get("/risk/sts", RiskSTS(q.events, now))
	get("/risk/sts/stats", RiskSTSStats(q.sts, now))
	get("/risk/loitering", RiskLoitering(q.events, now))
	get("/risk/identity", RiskIdentity(q.events, now))
	get("/risk/identity/history", IdentityHistory(q.identity))
	get("/risk/mismatches", RiskMismatches(q.events, now))
	get("/risk/hotspots", RiskHotspots(q.hotspots, now))
	get("/risk/baselines", RiskBaselines(q.baselines))
}

// RiskVesselIdentity is a vessel's identity as embedded in a risk row.
type RiskVesselIdentity struct {
	IMO      overwatch.IMO
	Name     string
	Flag     string
	ShipType uint8
	Category string
}

// RiskEventRow is a row of risk_events. End is nil while the event goes
// on; Other is the other vessel of a ship-to-ship transfer (IMO 0
// otherwise); Lat/Lon (EndLat/EndLon) hold a position only when
// HasPosition (HasEndPosition); Detail is the event's detail, a JSON
// object.
type RiskEventRow struct {
	Type, Subtype               string
	Vessel, Other               RiskVesselIdentity
	Start                       time.Time
	End                         *time.Time
	Lat, Lon, EndLat, EndLon    float64
	HasPosition, HasEndPosition bool
	Port                        string
	Severity                    string
	Detail                      string
}

// RiskEventsRequest selects risk events. Empty fields select any value.
// IMO matches the event's vessel, or with EitherVessel its vessel or the
// other vessel of a transfer. Confidence and Context match the detail's
// `confidence` and `context`. Events that started before Since are left
// out unless they go on (zero: no floor). Newest first, at most Limit.
type RiskEventsRequest struct {
	Type         string
	Subtype      string
	Severity     string
	IMO          overwatch.IMO
	EitherVessel bool
	OngoingOnly  bool
	Port         string
	Confidence   string
	Context      string
	Since        time.Time
	// From and To (zero: open) keep the events under way at some time
	// between them: started at or before To, ended at or after From or
	// going on.
	From, To time.Time
	Limit    int
}

// RiskVesselRef is the identity of the vessel of a risk event.
type RiskVesselRef struct {
	IMO        string  `json:"imo"`
	Name       *string `json:"name"`
	Flag       *string `json:"flag"`
	VesselType *string `json:"vessel_type"`
}

// Position is a point; its coordinates are null for callers without exact
// coordinates (Free).
type Position struct {
	Lat *float64 `json:"lat"`
	Lon *float64 `json:"lon"`
}

// RiskEvent is an event of the /risk endpoints. ID is stable across runs:
// see EventID. Position is null when the event has no observed position (a
// sanctions match, an identity change with no fix near it), EndPosition
// also while the event goes on.
type RiskEvent struct {
	ID          string          `json:"id"`
	Type        string          `json:"type"`
	Subtype     *string         `json:"subtype"`
	Severity    string          `json:"severity"`
	Vessel      RiskVesselRef   `json:"vessel"`
	OtherVessel *RiskVesselRef  `json:"other_vessel"`
	Start       string          `json:"start"`
	End         *string         `json:"end"`
	Ongoing     bool            `json:"ongoing"`
	Position    *Position       `json:"position"`
	EndPosition *Position       `json:"end_position"`
	Port        *string         `json:"port"`
	Detail      json.RawMessage `json:"detail"`
	// Verification is the SAR verification potential of an ais_gap event
	// of /risk/events and /risk/vessel/{imo} (GapVerification, or null
	// when nothing is stored near the gap); absent elsewhere.
	Verification json.RawMessage `json:"verification,omitempty"`
}

// EventID is the stable identifier of an event:
// <type>-<IMO>-<start as 20060102T150405Z>, followed, for the types where
// one vessel may have several events starting at the same time, by what
// tells them apart: the other vessel's IMO (sts_transfer), the field
// (identity_change), the mismatch type (draught_mismatch), the match type
// and list entry (sanctions_match). The start of an event does not change
// when it closes, so an ongoing event keeps its id.
func EventID(r *RiskEventRow) string {
	id := r.Type + "-" + r.Vessel.IMO.String() + "-" + r.Start.UTC().Format("20060102T150405Z")
	switch r.Type {
	case risk.EventSTS:
		id += "-" + r.Other.IMO.String()
	case risk.EventIdentity, risk.EventMismatch:
		id += "-" + r.Subtype
	case risk.EventSanctions:
		id += "-" + r.Subtype
		if e := detailString(r.Detail, "entry_id"); e != "" {
			id += "-" + e
		}
	}
	return id
}

// newRiskVesselRef presents a vessel identity; vessel_type is the ship
// type category.
func newRiskVesselRef(v RiskVesselIdentity) RiskVesselRef {
	return RiskVesselRef{IMO: v.IMO.String(), Name: optString(v.Name), Flag: optString(v.Flag), VesselType: vesselCategory(v.Category, v.ShipType)}
}

// vesselCategory is the category, or that of the ITU ship type code, or
// nil.
func vesselCategory(category string, shipType uint8) *string {
	if category != "" {
		return &category
	}
	if c, ok := vessel.CategoryOf(shipType); ok {
		return &c.Name
	}
	return nil
}

// NewRiskEvent presents an event row for the caller: without exact
// coordinates (Free), the positions' coordinates and every lat/lon in the
// detail are null.
func NewRiskEvent(r *RiskEventRow, caller *overwatch.Caller) RiskEvent {
	e := RiskEvent{
		ID: EventID(r), Type: r.Type, Subtype: optString(r.Subtype), Severity: r.Severity, Vessel: newRiskVesselRef(r.Vessel),
		Start: r.Start.UTC().Format(time.RFC3339), Ongoing: r.End == nil, Port: optString(r.Port),
		Detail: json.RawMessage(r.Detail),
	}
	if r.HasPosition {
		e.Position = &Position{Lat: caller.Coordinate(r.Lat), Lon: caller.Coordinate(r.Lon)}
	}
	if r.Other.IMO != 0 {
		o := newRiskVesselRef(r.Other)
		e.OtherVessel = &o
	}
	if r.End != nil {
		end := r.End.UTC().Format(time.RFC3339)
		e.End = &end
		if r.HasEndPosition {
			e.EndPosition = &Position{Lat: caller.Coordinate(r.EndLat), Lon: caller.Coordinate(r.EndLon)}
		}
	}
	if !json.Valid(e.Detail) || !strings.HasPrefix(strings.TrimSpace(r.Detail), "{") {
		e.Detail = json.RawMessage("{}")
	} else if !caller.ExactCoordinates() {
		e.Detail = hideCoordinates(e.Detail)
	}
	return e
}

// coordinateKeys are the detail members that hold coordinates.
var coordinateKeys = map[string]bool{"lat": true, "lon": true, "latitude": true, "longitude": true}

// hideCoordinates returns the detail with every coordinate member, at any
// depth, set to null.
func hideCoordinates(detail json.RawMessage) json.RawMessage {
	var v any
	if err := json.Unmarshal(detail, &v); err != nil {
		return json.RawMessage("{}")
	}
	b, err := json.Marshal(nullCoordinates(v))
	if err != nil {
		return json.RawMessage("{}")
	}
	return b
}

func nullCoordinates(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if coordinateKeys[k] {
				x[k] = nil
			} else {
				x[k] = nullCoordinates(e)
			}
		}
	case []any:
		for i, e := range x {
			x[i] = nullCoordinates(e)
		}
	}
	return v
}

// detailString is the string (or number, as text) member key of a JSON
// detail; "" when absent.
func detailString(detail, key string) string {
	var m map[string]any
	if json.Unmarshal([]byte(detail), &m) != nil {
		return ""
	}
	switch v := m[key].(type) {
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return ""
}

// detailNumber is the number member key of a JSON detail; nil when absent.
func detailNumber(detail, key string) *float64 {
	var m map[string]any
	if json.Unmarshal([]byte(detail), &m) != nil {
		return nil
	}
	if v, ok := m[key].(float64); ok {
		return &v
	}
	return nil
}

// presentEvents presents rows for the caller.
func presentEvents(rows []RiskEventRow, caller *overwatch.Caller) []RiskEvent {
	out := make([]RiskEvent, len(rows))
	for i := range rows {
		out[i] = NewRiskEvent(&rows[i], caller)
	}
	return out
}
