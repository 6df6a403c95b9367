package read

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"overwatch"
	"overwatch/maritime/risk"
	"overwatch/maritime/sar"
	"overwatch/maritime/vessel"
	"overwatch/route"
)

// fakeRisk is a RiskStore: it records the requests it was asked and
// returns the rows it was given.
type fakeRisk struct {
	events    []RiskEventRow
	stats     RiskStatsRow
	sts       STSStatsRow
	vessels   []risk.VesselScore
	hotspots  []risk.Hotspot
	baselines []risk.Baseline
	identity  []vessel.Identity
	sar       []sar.Product

	eventReqs    recorder[RiskEventsRequest]
	statsReqs    recorder[RiskStatsRequest]
	stsReqs      recorder[STSStatsRequest]
	vesselReqs   recorder[VesselRisksRequest]
	hotspotReqs  recorder[HotspotsRequest]
	baselineReqs recorder[BaselinesRequest]
	identityReqs recorder[overwatch.IMO]
	sarReqs      recorder[SARGapQuery]
}

func (f *fakeRisk) RiskEventRows(_ context.Context, r RiskEventsRequest) ([]RiskEventRow, error) {
	f.eventReqs.add(r)
	var out []RiskEventRow
	for _, e := range f.events {
		if r.Type == "" || e.Type == r.Type {
			out = append(out, e)
		}
	}
	return out, nil
}

func (f *fakeRisk) RiskStats(_ context.Context, r RiskStatsRequest) (RiskStatsRow, error) {
	f.statsReqs.add(r)
	return f.stats, nil
}

func (f *fakeRisk) STSStats(_ context.Context, r STSStatsRequest) (STSStatsRow, error) {
	f.stsReqs.add(r)
	return f.sts, nil
}

func (f *fakeRisk) VesselRisks(_ context.Context, r VesselRisksRequest) ([]risk.VesselScore, error) {
	f.vesselReqs.add(r)
	return f.vessels, nil
}

func (f *fakeRisk) RiskHotspots(_ context.Context, r HotspotsRequest) ([]risk.Hotspot, error) {
	f.hotspotReqs.add(r)
	return f.hotspots, nil
}

func (f *fakeRisk) RiskBaselines(_ context.Context, r BaselinesRequest) ([]risk.Baseline, error) {
	f.baselineReqs.add(r)
	return f.baselines, nil
}

func (f *fakeRisk) IdentityTimeline(_ context.Context, imo overwatch.IMO) ([]vessel.Identity, error) {
	f.identityReqs.add(imo)
	return f.identity, nil
}

func (f *fakeRisk) SARGapProducts(_ context.Context, q SARGapQuery) ([]sar.Product, error) {
	f.sarReqs.add(q)
	return f.sar, nil
}

// riskRoutesOf mounts the /risk routes on the store, uncached.
func riskRoutesOf(t *testing.T, s RiskStore) *routeTable {
	t.Helper()
	return mount(t, func(r route.Router) { riskRoutes(r, s, nil, fixedNow) })
}

func TestRiskParams(t *testing.T) {
	t.Parallel()
	store := &fakeRisk{}
	routes := riskRoutesOf(t, store)
	common := map[string]errCase{
		"vessel=123":     {400, "vessel must be a 7-digit IMO number"},
		"vessel=abcdefg": {400, "vessel must be a 7-digit IMO number"},
		"vessel=9321484": {400, "vessel is not an IMO number (its check digit fails)"},
		"limit=0":        {400, "limit must be a positive integer (at most"},
		"limit=ten":      {400, "limit must be a positive integer (at most"},
	}
	with := func(extra map[string]errCase) map[string]errCase {
		out := map[string]errCase{}
		for k, v := range common {
			out[k] = v
		}
		for k, v := range extra {
			out[k] = v
		}
		return out
	}
	expectErrors(t, routes.get("/risk/events"), "/v1/risk/events", with(map[string]errCase{
		"tier=severe":   {400, "tier must be one of critical, high, medium, low"},
		"ongoing=yes":   {400, "ongoing must be 'true' or 'false'"},
		"ongoing=TRUE":  {400, "ongoing must be 'true' or 'false'"},
		"tier=critical": {200, `{"events":[]}`},
	}))
	expectErrors(t, routes.get("/risk/sts"), "/v1/risk/sts", with(map[string]errCase{
		"confidence=certain": {400, "confidence must be one of high, medium, low"},
		"method=radar":       {400, "method must be one of proximity, path_intersection"},
	}))
	expectErrors(t, routes.get("/risk/loitering"), "/v1/risk/loitering", with(map[string]errCase{
		"type=drifting":  {400, "type must be one of stationary, slow_roll"},
		"context=harbor": {400, "context must be one of offshore, port_approach, anchorage, known_transfer_area"},
	}))
	expectErrors(t, routes.get("/risk/identity"), "/v1/risk/identity", with(map[string]errCase{
		"field=call_sign": {400, "field must be one of flag, name, mmsi"},
	}))
	expectErrors(t, routes.get("/risk/mismatches"), "/v1/risk/mismatches", with(map[string]errCase{
		"type=huge":                    {400, "type must be one of directional, magnitude, zero_change"},
		"port=atlantis":                {400, "unknown port 'atlantis'"},
		"port=santos":                  {200, `{"events":[]}`},
		"port=" + mustPort("busan").ID: {200, `{"events":[]}`},
	}))
	// Only the queries that answered 200 reached the store.
	if n := store.eventReqs.count(); n != 3 {
		t.Errorf("%d event queries, want 3", n)
	}
	expectErrors(t, routes.get("/risk/vessels"), "/v1/risk/vessels", map[string]errCase{
		"tier=severe": {400, "tier must be one of critical, high, medium, low"},
		"type=yacht":  {400, "type must be one of cargo, tanker"},
		"flag=PAN":    {400, "flag must be a 2-letter flag-state code"},
		"flag=1A":     {400, "flag must be a 2-letter flag-state code"},
		"limit=-3":    {400, "limit must be a positive integer (at most"},
		"flag=pa":     {200, `{"vessels":[]}`},
	})
	expectErrors(t, routes.get("/risk/hotspots"), "/v1/risk/hotspots", map[string]errCase{
		"active=1":   {400, "active must be 'true' or 'false'"},
		"limit=none": {400, "limit must be a positive integer (at most"},
	})
	expectErrors(t, routes.get("/risk/identity/history"), "/v1/risk/identity/history", map[string]errCase{
		"":               {400, "vessel is required (a 7-digit IMO number)"},
		"vessel=12345":   {400, "vessel must be a 7-digit IMO number"},
		"vessel=9321484": {400, "vessel is not an IMO number (its check digit fails)"},
		"vessel=9321483": {404, "no identity history for vessel 9321483"},
	})
	if r := store.vesselReqs.last(t); r.Flag != "PA" || store.vesselReqs.count() != 1 {
		t.Errorf("flag is upper-cased: %+v (%d queries)", r, store.vesselReqs.count())
	}
	if imos := store.identityReqs.all(); len(imos) != 1 || imos[0] != 9321483 {
		t.Errorf("identity queries %v", imos)
	}
}

var (
	riskStart = time.Date(2026, 3, 10, 6, 0, 0, 0, time.UTC)
	riskEnd   = riskStart.Add(30 * time.Hour)
	gapRow    = RiskEventRow{
		Type: risk.EventGap, Subtype: "intentional", Vessel: RiskVesselIdentity{IMO: 9321483, Name: "DARK", Flag: "PA", ShipType: 80, Category: "tanker"},
		Start: riskStart, End: &riskEnd, Lat: 10.5, Lon: -20.25, EndLat: 11, EndLon: -21, HasPosition: true, HasEndPosition: true, Severity: "high",
		Detail: `{"hours":30,"start_position":{"lat":10.5,"lon":-20.25},"end_position":{"lat":11,"lon":-21},"intentional":true}`,
	}
	stsRow = RiskEventRow{
		Type: risk.EventSTS, Subtype: "proximity", Vessel: RiskVesselIdentity{IMO: 9321483, ShipType: 84}, Other: RiskVesselIdentity{IMO: 1234567, Name: "OTHER"},
		Start: riskStart, Lat: 36.5, Lon: 22.8, HasPosition: true, HasEndPosition: true, Severity: "medium", Detail: `{"confidence":"high","tonnes":5000}`,
	}
)

func TestRiskEventBody(t *testing.T) {
	t.Parallel()
	store := &fakeRisk{events: []RiskEventRow{gapRow, stsRow}}
	h := riskRoutesOf(t, store).get("/risk/events")
	status, body, _ := serve(t, overwatch.PlanStarter, h, "/v1/risk/events?tier=high&vessel=9321483&limit=500")
	want := `{"events":[{"id":"ais_gap-9321483-20260310T060000Z","type":"ais_gap","subtype":"intentional","severity":"high",` +
		`"vessel":{"imo":"9321483","name":"DARK","flag":"PA","vessel_type":"tanker"},"other_vessel":null,` +
		`"start":"2026-03-10T06:00:00Z","end":"2026-03-11T12:00:00Z","ongoing":false,"position":{"lat":10.5,"lon":-20.25},` +
		`"end_position":{"lat":11,"lon":-21},"port":null,` +
		`"detail":{"hours":30,"start_position":{"lat":10.5,"lon":-20.25},"end_position":{"lat":11,"lon":-21},"intentional":true},` +
		`"verification":null},` +
		`{"id":"sts_transfer-9321483-20260310T060000Z-1234567","type":"sts_transfer","subtype":"proximity","severity":"medium",` +
		`"vessel":{"imo":"9321483","name":null,"flag":null,"vessel_type":"tanker"},"other_vessel":{"imo":"1234567","name":"OTHER","flag":null,"vessel_type":null},` +
		`"start":"2026-03-10T06:00:00Z","end":null,"ongoing":true,"position":{"lat":36.5,"lon":22.8},"end_position":null,"port":null,` +
		`"detail":{"confidence":"high","tonnes":5000}}]}`
	if status != 200 || body != want {
		t.Errorf("got  %d %s\nwant %s", status, body, want)
	}
	if r, want := store.eventReqs.last(t), (RiskEventsRequest{Severity: "high", IMO: 9321483, EitherVessel: true, Since: testNow.AddDate(0, 0, -90), Limit: 100}); r != want {
		t.Errorf("request %+v, want %+v", r, want)
	}

	// Free: no coordinates anywhere, detail included.
	_, body, _ = serve(t, overwatch.PlanFree, h, "/v1/risk/events?ongoing=true")
	if !strings.Contains(body, `"position":{"lat":null,"lon":null},"end_position":{"lat":null,"lon":null}`) ||
		!strings.Contains(body, `"detail":{"end_position":{"lat":null,"lon":null},"hours":30,"intentional":true,"start_position":{"lat":null,"lon":null}}`) ||
		strings.Contains(body, "10.5") || strings.Contains(body, "22.8") {
		t.Errorf("Free sees coordinates: %s", body)
	}
	if r, want := store.eventReqs.last(t), (RiskEventsRequest{Type: risk.EventGap, OngoingOnly: true, Since: testNow.AddDate(0, 0, -7), Limit: 20}); r != want {
		t.Errorf("ongoing request %+v, want %+v", r, want)
	}
}

func TestRiskEventListsFilters(t *testing.T) {
	t.Parallel()
	store := &fakeRisk{}
	routes := riskRoutesOf(t, store)
	cases := []struct {
		path, query string
		want        RiskEventsRequest
	}{
		{"/risk/sts", "vessel=1234567&confidence=low&method=path_intersection&limit=7",
			RiskEventsRequest{Type: risk.EventSTS, EitherVessel: true, IMO: 1234567, Confidence: "low", Subtype: "path_intersection", Limit: 7}},
		// Every event of the vessel, a transfer whichever side of the pair it is on.
		{"/risk/events", "vessel=1234567&tier=high",
			RiskEventsRequest{EitherVessel: true, IMO: 1234567, Severity: "high", Limit: 100}},
		{"/risk/loitering", "type=slow_roll&context=known_transfer_area",
			RiskEventsRequest{Type: risk.EventLoitering, Subtype: "slow_roll", Context: "known_transfer_area", Limit: 100}},
		{"/risk/identity", "field=mmsi&vessel=9321483",
			RiskEventsRequest{Type: risk.EventIdentity, Subtype: "mmsi", IMO: 9321483, Limit: 100}},
		{"/risk/mismatches", "type=zero_change&port=" + mustPort("santos").ID,
			RiskEventsRequest{Type: risk.EventMismatch, Subtype: "zero_change", Port: "santos", Limit: 100}},
	}
	for _, c := range cases {
		target := "/v1" + c.path + "?" + c.query
		if status, body, _ := serve(t, overwatch.PlanPro, routes.get(c.path), target); status != 200 || body != `{"events":[]}` {
			t.Errorf("%s: %d %s", target, status, body)
		}
		if r := store.eventReqs.last(t); r != c.want {
			t.Errorf("%s: request %+v, want %+v", target, r, c.want)
		}
	}
}

func TestRiskVesselProfile(t *testing.T) {
	t.Parallel()
	computed := time.Date(2026, 3, 18, 2, 0, 0, 0, time.UTC)
	store := &fakeRisk{
		vessels: []risk.VesselScore{{IMO: 9321483, Name: "DARK", Flag: "PA", ShipType: 80, Category: "tanker", Score: 72.345, Tier: "high",
			Factors: []risk.Factor{
				{Name: "ais_gaps", Weight: 0.12, Value: 4, Contribution: 12.3456, Reason: "4 gaps"},
				{Name: "sanctions", Weight: 0.2, Value: 1, Contribution: 20, Reason: "listed"},
				{Name: "flag", Weight: 0.05, Value: 0, Contribution: 0, Reason: "no risk flag"},
			}, ComputedAt: computed}},
		events: []RiskEventRow{gapRow, {Type: risk.EventSanctions, Subtype: "direct_imo", Vessel: RiskVesselIdentity{IMO: 9321483}, Start: riskStart, End: &riskStart,
			Detail: `{"list_source":"OFAC SDN","entry_id":"12345","program":"IRAN","matched_on":"9321483","sanctioned_entity":"DARK STAR","confidence":1}`}},
	}
	routes := riskRoutesOf(t, store)
	const route = "/risk/vessel/:imo"
	status, body := serveRoute(t, overwatch.PlanFree, route, routes.get(route), "/v1/risk/vessel/9321483")
	var got RiskVesselBody
	decode(t, body, &got)
	v := got.Vessel
	if status != 200 || v.IMO != "9321483" || v.Score != 72.3 || v.Tier != "high" || len(v.Factors) != 3 || v.Factors[0].Contribution != 12.35 ||
		*v.VesselType != "tanker" || v.ComputedAt != "2026-03-18T02:00:00Z" {
		t.Fatalf("%d %s", status, body)
	}
	if len(v.Sanctions) != 1 || *v.Sanctions[0].ListSource != "OFAC SDN" || *v.Sanctions[0].EntryID != "12345" || v.Sanctions[0].MatchType != "direct_imo" ||
		*v.Sanctions[0].Program != "IRAN" || *v.Sanctions[0].MatchedOn != "9321483" || *v.Sanctions[0].SanctionedEntity != "DARK STAR" || *v.Sanctions[0].Confidence != 1 {
		t.Errorf("sanctions: %s", body)
	}
	if len(got.DarkEvents) != 1 || got.DarkEvents[0].Type != risk.EventGap || got.DarkEvents[0].Position.Lat != nil {
		t.Errorf("dark events (Free: no coordinates): %s", body)
	}
	// The sanctions first (whatever the plan's history), then the gaps.
	reqs := store.eventReqs.all()
	if len(reqs) != 2 {
		t.Fatalf("event requests %+v", reqs)
	}
	if want := (RiskEventsRequest{Type: risk.EventSanctions, IMO: 9321483, Limit: 500}); reqs[0] != want {
		t.Errorf("sanctions request %+v, want %+v", reqs[0], want)
	}
	if want := (RiskEventsRequest{Type: risk.EventGap, IMO: 9321483, Since: testNow.AddDate(0, 0, -7), Limit: 20}); reqs[1] != want {
		t.Errorf("dark events request %+v, want %+v", reqs[1], want)
	}
	if r, want := store.vesselReqs.last(t), (VesselRisksRequest{IMO: 9321483, Limit: 1}); r != want {
		t.Errorf("vessel request %+v, want %+v", r, want)
	}

	status, body = serveRoute(t, overwatch.PlanPro, route, routes.get(route), "/v1/risk/vessel/93214")
	if status != 400 || !strings.Contains(body, "imo must be a 7-digit IMO number") {
		t.Errorf("malformed: %d %s", status, body)
	}
	status, body = serveRoute(t, overwatch.PlanPro, route, routes.get(route), "/v1/risk/vessel/9321484")
	if status != 400 || !strings.Contains(body, "imo is not an IMO number (its check digit fails)") {
		t.Errorf("bad check digit: %d %s", status, body)
	}
	unknown := riskRoutesOf(t, &fakeRisk{}).get(route)
	status, body = serveRoute(t, overwatch.PlanPro, route, unknown, "/v1/risk/vessel/1234567")
	if status != 404 || !strings.Contains(body, "no risk score for vessel 1234567") {
		t.Errorf("unknown: %d %s", status, body)
	}

	h := routes.get("/risk/vessels")
	_, body, _ = serve(t, overwatch.PlanPro, h, "/v1/risk/vessels?tier=high&type=tanker&flag=pa&limit=500")
	want := `{"vessels":[{"imo":"9321483","name":"DARK","flag":"PA","vessel_type":"tanker","score":72.3,"tier":"high","top_factors":["sanctions","ais_gaps"],"computed_at":"2026-03-18T02:00:00Z"}]}`
	if body != want {
		t.Errorf("got  %s\nwant %s", body, want)
	}
	if r, want := store.vesselReqs.last(t), (VesselRisksRequest{Tier: "high", Category: "tanker", Flag: "PA", Limit: 500}); r != want {
		t.Errorf("vessels request %+v, want %+v", r, want)
	}
	serve(t, overwatch.PlanStarter, h, "/v1/risk/vessels")
	if r := store.vesselReqs.last(t); r.Limit != 100 {
		t.Errorf("Starter's limit: %+v", r)
	}
}

func TestRiskStatsBodies(t *testing.T) {
	t.Parallel()
	store := &fakeRisk{
		stats: RiskStatsRow{ActiveGaps: 2, CriticalVessels: 1, ActiveHotspots: 3, NewEvents24h: 4, ByTier: map[string]uint64{"high": 5, "": 9}},
		sts:   STSStatsRow{Total: 3, ByConfidence: map[string]uint64{"high": 1, "low": 2}, Tonnes: 12345.6, Active: 1},
	}
	routes := riskRoutesOf(t, store)
	stats := routes.get("/risk/stats")
	_, body, _ := serve(t, overwatch.PlanFree, stats, "/v1/risk/stats")
	if body != `{"active_gaps":2,"critical_vessels":1,"active_hotspots":3,"new_events_24h":4,"events_by_tier":{"critical":0,"high":5,"low":0,"medium":0}}` {
		t.Errorf("stats: %s", body)
	}
	if r, want := store.statsReqs.last(t), (RiskStatsRequest{Now: testNow, Since: testNow.AddDate(0, 0, -7)}); r != want {
		t.Errorf("Free's stats window: %+v, want %+v", r, want)
	}
	serve(t, overwatch.PlanPro, stats, "/v1/risk/stats")
	if r, want := store.statsReqs.last(t), (RiskStatsRequest{Now: testNow, Since: testNow.Add(-RiskStatsWindow)}); r != want {
		t.Errorf("Pro's stats window: %+v, want %+v", r, want)
	}
	_, body, _ = serve(t, overwatch.PlanStarter, routes.get("/risk/sts/stats"), "/v1/risk/sts/stats")
	if body != `{"total_events":3,"by_confidence":{"high":1,"low":2,"medium":0},"total_tonnage":12346,"active_encounters":1}` {
		t.Errorf("sts stats: %s", body)
	}
	if r, want := store.stsReqs.last(t), (STSStatsRequest{Since: testNow.AddDate(0, 0, -90)}); r != want {
		t.Errorf("sts request %+v, want %+v", r, want)
	}
}

func TestRiskHotspotsBaselinesBodies(t *testing.T) {
	t.Parallel()
	store := &fakeRisk{
		hotspots: []risk.Hotspot{
			{ID: "1:36:22", Lat: 36.5, Lon: 22.5, CellDeg: 1, Events: 4, Vessels: 2, FirstEvent: riskStart, LastEvent: riskEnd, Active: true, Severity: "high"},
			{ID: "1:10:-21", Lat: 10.54321, Lon: -20.5, CellDeg: 1, Events: 3, Vessels: 1, ByType: map[string]int{risk.EventGap: 2, risk.EventLoitering: 1},
				FirstEvent: riskStart, LastEvent: riskStart, Severity: "medium"},
		},
		baselines: []risk.Baseline{{Area: "open_ocean", Category: "tanker", VesselDays: 300.04, GapsPerVesselDay: 0.012345, LoiterHoursPerDay: 1.5,
			TransfersPerDay: 0.2, From: riskStart, To: riskEnd}},
	}
	routes := riskRoutesOf(t, store)
	hotspots := routes.get("/risk/hotspots")
	_, body, _ := serve(t, overwatch.PlanFree, hotspots, "/v1/risk/hotspots")
	if body != `{"hotspots":[{"id":"1:36:22","lat":36.5,"lon":22.5,"cell_deg":1,"events":4,"vessels":2,"by_type":{},"first_event":"2026-03-10T06:00:00Z","last_event":"2026-03-11T12:00:00Z","active":true,"severity":"high"},`+
		`{"id":"1:10:-21","lat":10.5432,"lon":-20.5,"cell_deg":1,"events":3,"vessels":1,"by_type":{"ais_gap":2,"loitering":1},"first_event":"2026-03-10T06:00:00Z","last_event":"2026-03-10T06:00:00Z","active":false,"severity":"medium"}]}` {
		t.Errorf("hotspots: %s", body)
	}
	if r, want := store.hotspotReqs.last(t), (HotspotsRequest{ActiveOnly: true, Since: testNow.AddDate(0, 0, -7), Limit: 20}); r != want {
		t.Errorf("hotspot request %+v, want %+v", r, want)
	}
	serve(t, overwatch.PlanPro, hotspots, "/v1/risk/hotspots?active=false&limit=500")
	if r, want := store.hotspotReqs.last(t), (HotspotsRequest{Limit: 500}); r != want {
		t.Errorf("hotspot request %+v, want %+v", r, want)
	}
	_, body, _ = serve(t, overwatch.PlanPro, routes.get("/risk/baselines"), "/v1/risk/baselines")
	if body != `{"baselines":[{"area":"open_ocean","vessel_type":"tanker","vessel_days":300,"gaps_per_vessel_day":0.0123,"loitering_hours_per_day":1.5,"transfers_per_day":0.2,"from":"2026-03-10T06:00:00Z","to":"2026-03-11T12:00:00Z"}]}` {
		t.Errorf("baselines: %s", body)
	}
	if n := store.baselineReqs.count(); n != 1 {
		t.Errorf("%d baseline queries", n)
	}
}

func TestIdentityHistoryBody(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	store := &fakeRisk{identity: []vessel.Identity{
		{IMO: 9321483, ValidFrom: t0, MMSI: 538000001, Name: "OLD", CallSign: "V7AB", Flag: "MH", ShipType: 80},
		{IMO: 9321483, ValidFrom: t0.AddDate(0, 1, 0), MMSI: 538000001, Name: "OLD", CallSign: "V7AB", Flag: "MH", ShipType: 80}, // a repeat
		{IMO: 9321483, ValidFrom: t0.AddDate(0, 2, 0), MMSI: 620000001, Name: "NEW", CallSign: "", Flag: "KM", ShipType: 80},
	}}
	status, body, _ := serve(t, overwatch.PlanFree, riskRoutesOf(t, store).get("/risk/identity/history"), "/v1/risk/identity/history?vessel=9321483")
	want := `{"imo":"9321483","history":[` +
		`{"valid_from":"2025-01-01T00:00:00Z","mmsi":538000001,"name":"OLD","call_sign":"V7AB","flag":"MH","ship_type":80,"vessel_type":"tanker","changed":[]},` +
		`{"valid_from":"2025-03-01T00:00:00Z","mmsi":620000001,"name":"NEW","call_sign":null,"flag":"KM","ship_type":80,"vessel_type":"tanker","changed":["mmsi","name","call_sign","flag"]}]}`
	if status != 200 || body != want {
		t.Errorf("got  %d %s\nwant %s", status, body, want)
	}
	if r := store.identityReqs.last(t); r != 9321483 {
		t.Errorf("asked for %s", r)
	}
}

// Through a real cache, the endpoints that read the events share the
// answers of identical requests, and a new generation of risk_events is
// read again.
func TestRiskCached(t *testing.T) {
	t.Parallel()
	store := &fakeRisk{events: []RiskEventRow{gapRow}}
	versions := &fakeVersions{}
	cache := NewCache(versions, CacheOptions{Check: time.Hour})
	routes := mount(t, func(r route.Router) { riskRoutes(r, store, cache, fixedNow) })
	h := routes.get("/risk/events")
	for range 2 {
		if status, body, _ := serve(t, overwatch.PlanPro, h, "/v1/risk/events?tier=high"); status != 200 || !strings.Contains(body, "ais_gap") {
			t.Fatalf("%d %s", status, body)
		}
	}
	if n := store.eventReqs.count(); n != 1 {
		t.Errorf("two identical requests asked the store %d times", n)
	}
	versions.bump(tableRiskEvents)
	cache.Invalidate()
	serve(t, overwatch.PlanPro, h, "/v1/risk/events?tier=high")
	if n := store.eventReqs.count(); n != 2 {
		t.Errorf("after risk_events changed: %d store calls, want 2", n)
	}
}

func TestEventID(t *testing.T) {
	t.Parallel()
	r := RiskEventRow{Type: risk.EventSanctions, Subtype: "name", Vessel: RiskVesselIdentity{IMO: 1234567}, Start: riskStart, Detail: `{"entry_id":7788}`}
	if id := EventID(&r); id != "sanctions_match-1234567-20260310T060000Z-name-7788" {
		t.Errorf("sanctions id %s", id)
	}
	r = RiskEventRow{Type: risk.EventIdentity, Subtype: "flag", Vessel: RiskVesselIdentity{IMO: 1234567}, Start: riskStart}
	if id := EventID(&r); id != "identity_change-1234567-20260310T060000Z-flag" {
		t.Errorf("identity id %s", id)
	}
	open, closed := gapRow, gapRow
	open.End, open.Subtype = nil, ""
	if EventID(&open) != EventID(&closed) {
		t.Error("a gap keeps its id when it closes")
	}
	bad := gapRow
	bad.Detail = "not json"
	if e := NewRiskEvent(&bad, nil); string(e.Detail) != "{}" {
		t.Errorf("bad detail: %s", e.Detail)
	}
}

// An event with no observed position (a sanctions match, an identity
// change with no fix near it) is served with position and end_position
// null, for every plan; one with a position keeps it, hidden for Free.
func TestRiskEventWithoutPosition(t *testing.T) {
	t.Parallel()
	at := riskStart
	unplaced := RiskEventRow{Type: risk.EventIdentity, Subtype: "flag", Vessel: RiskVesselIdentity{IMO: 1234567}, Start: at, End: &at,
		Severity: "medium", Detail: `{"field":"flag","old":"LR","new":"PA"}`}
	placed := unplaced
	placed.Subtype, placed.Lat, placed.Lon, placed.EndLat, placed.EndLon = "name", 12.5, 55.25, 12.5, 55.25
	placed.HasPosition, placed.HasEndPosition = true, true
	store := &fakeRisk{events: []RiskEventRow{unplaced, placed}}
	h := riskRoutesOf(t, store).get("/risk/identity")
	for _, plan := range []overwatch.Plan{overwatch.PlanPro, overwatch.PlanFree} {
		status, body, _ := serve(t, plan, h, "/v1/risk/identity?vessel=1234567")
		var got struct{ Events []RiskEvent }
		if err := json.Unmarshal([]byte(body), &got); status != 200 || err != nil || len(got.Events) != 2 {
			t.Fatalf("%s: %d %s", plan, status, body)
		}
		if !strings.Contains(body, `"position":null,"end_position":null`) || strings.Contains(body, `"lat":0`) {
			t.Errorf("%s: an identity change without a fix is served with a position: %s", plan, body)
		}
		p := got.Events[1].Position
		if got.Events[1].Subtype == nil || *got.Events[1].Subtype != "name" || p == nil || got.Events[1].EndPosition == nil {
			t.Fatalf("%s: the placed change lost its position: %s", plan, body)
		}
		if exact := plan == overwatch.PlanPro; exact != (p.Lat != nil && *p.Lat == 12.5 && *p.Lon == 55.25) {
			t.Errorf("%s: position %s", plan, body)
		}
	}
}
