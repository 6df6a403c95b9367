package read

import (
	"context"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"overwatch/maritime/seaport"

	"github.com/gofiber/fiber/v2"

	"overwatch"
)

// fakeRisk is every risk store of the read side: it records the filters
// it was asked and returns the rows it was given.
type fakeRisk struct {
	events      []RiskEventRow
	filters     []RiskEventFilter
	stats       RiskStatsRow
	statsArgs   []time.Time
	sts         STSStatsRow
	stsSince    time.Time
	vessels     []VesselRiskRow
	vesselF     VesselRiskFilter
	hotspots    []HotspotRow
	hotspotF    HotspotFilter
	baselines   []BaselineRow
	identity    []IdentityRow
	identityIMO overwatch.IMO
}

func (f *fakeRisk) RiskEventRows(_ context.Context, flt RiskEventFilter) ([]RiskEventRow, error) {
	f.filters = append(f.filters, flt)
	var out []RiskEventRow
	for _, e := range f.events {
		if len(flt.Types) == 0 || e.Type == flt.Types[0] {
			out = append(out, e)
		}
	}
	return out, nil
}

func (f *fakeRisk) RiskStats(_ context.Context, now, since time.Time) (RiskStatsRow, error) {
	f.statsArgs = []time.Time{now, since}
	return f.stats, nil
}

func (f *fakeRisk) STSStats(_ context.Context, since time.Time) (STSStatsRow, error) {
	f.stsSince = since
	return f.sts, nil
}

func (f *fakeRisk) VesselRisks(_ context.Context, flt VesselRiskFilter) ([]VesselRiskRow, error) {
	f.vesselF = flt
	return f.vessels, nil
}

func (f *fakeRisk) RiskHotspots(_ context.Context, flt HotspotFilter) ([]HotspotRow, error) {
	f.hotspotF = flt
	return f.hotspots, nil
}

func (f *fakeRisk) RiskBaselines(context.Context) ([]BaselineRow, error) { return f.baselines, nil }

func (f *fakeRisk) IdentityTimeline(_ context.Context, imo overwatch.IMO) ([]IdentityRow, error) {
	f.identityIMO = imo
	return f.identity, nil
}

func (f *fakeRisk) last() RiskEventFilter { return f.filters[len(f.filters)-1] }

func TestRiskParams(t *testing.T) {
	store := &fakeRisk{}
	common := map[string]errCase{
		"vessel=123":     {400, "vessel must be a 7-digit IMO number"},
		"vessel=abcdefg": {400, "vessel must be a 7-digit IMO number"},
		"limit=0":        {400, "limit must be a positive integer"},
		"limit=ten":      {400, "limit must be a positive integer"},
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
	expectErrors(t, RiskEvents(store, fixedNow), "/v1/risk/events", with(map[string]errCase{
		"tier=severe":   {400, "tier must be one of critical, high, medium, low"},
		"ongoing=yes":   {400, "ongoing must be 'true' or 'false'"},
		"ongoing=TRUE":  {400, "ongoing must be 'true' or 'false'"},
		"tier=critical": {200, `{"events":[]}`},
	}))
	expectErrors(t, RiskSTS(store, fixedNow), "/v1/risk/sts", with(map[string]errCase{
		"confidence=certain": {400, "confidence must be one of high, medium, low"},
		"method=radar":       {400, "method must be one of proximity, path_intersection"},
	}))
	expectErrors(t, RiskLoitering(store, fixedNow), "/v1/risk/loitering", with(map[string]errCase{
		"type=drifting":  {400, "type must be one of stationary, slow_roll"},
		"context=harbor": {400, "context must be one of offshore, port_approach, anchorage, known_transfer_area"},
	}))
	expectErrors(t, RiskIdentity(store, fixedNow), "/v1/risk/identity", with(map[string]errCase{
		"field=call_sign": {400, "field must be one of flag, name, mmsi"},
	}))
	expectErrors(t, RiskMismatches(store, fixedNow), "/v1/risk/mismatches", with(map[string]errCase{
		"type=huge":                    {400, "type must be one of directional, magnitude, zero_change"},
		"port=atlantis":                {404, "unknown port 'atlantis'"},
		"port=santos":                  {200, `{"events":[]}`},
		"port=" + mustPort("busan").ID: {200, `{"events":[]}`},
	}))
	expectErrors(t, RiskVessels(store), "/v1/risk/vessels", map[string]errCase{
		"tier=severe": {400, "tier must be one of critical, high, medium, low"},
		"type=yacht":  {400, "type must be one of cargo, tanker"},
		"flag=PAN":    {400, "flag must be a 2-letter flag-state code"},
		"flag=1A":     {400, "flag must be a 2-letter flag-state code"},
		"limit=-3":    {400, "limit must be a positive integer"},
		"flag=pa":     {200, `{"vessels":[]}`},
	})
	expectErrors(t, RiskHotspots(store, fixedNow), "/v1/risk/hotspots", map[string]errCase{
		"active=1":   {400, "active must be 'true' or 'false'"},
		"limit=none": {400, "limit must be a positive integer"},
	})
	expectErrors(t, IdentityHistory(store), "/v1/risk/identity/history", map[string]errCase{
		"":               {400, "vessel is required (a 7-digit IMO number)"},
		"vessel=12345":   {400, "vessel must be a 7-digit IMO number"},
		"vessel=9321483": {404, "no identity history for vessel 9321483"},
	})
	if store.vesselF.Flag != "PA" {
		t.Errorf("flag is upper-cased: %+v", store.vesselF)
	}
}

func mustPort(slug string) seaport.Port {
	p, ok := seaport.BySlug(slug)
	if !ok {
		panic(slug)
	}
	return p
}

// serveRoute answers one GET of a route with path parameters.
func serveRoute(t *testing.T, plan overwatch.Plan, route string, h fiber.Handler, target string) (int, string) {
	t.Helper()
	app := fiber.New(fiber.Config{ErrorHandler: func(c *fiber.Ctx, err error) error {
		status, ok := testStatus[overwatch.ErrorCode(err)]
		if !ok {
			status = 500
		}
		return c.Status(status).JSON(fiber.Map{"error": err.Error()})
	}})
	app.Get(route, func(c *fiber.Ctx) error {
		c.SetUserContext(overwatch.WithCaller(c.UserContext(), &overwatch.Caller{Plan: plan}))
		return c.Next()
	}, h)
	resp, err := app.Test(httptest.NewRequest("GET", target, nil), -1)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

var (
	riskStart = time.Date(2026, 3, 10, 6, 0, 0, 0, time.UTC)
	riskEnd   = riskStart.Add(30 * time.Hour)
	gapRow    = RiskEventRow{
		Type: EventGap, Subtype: "intentional", Vessel: RiskVesselIdentity{IMO: 9321483, Name: "DARK", Flag: "PA", ShipType: 80, Category: "tanker"},
		Start: riskStart, End: &riskEnd, Lat: 10.5, Lon: -20.25, EndLat: 11, EndLon: -21, Severity: "high",
		Detail: `{"hours":30,"start_position":{"lat":10.5,"lon":-20.25},"end_position":{"lat":11,"lon":-21},"intentional":true}`,
	}
	stsRow = RiskEventRow{
		Type: EventSTS, Subtype: "proximity", Vessel: RiskVesselIdentity{IMO: 9321483, ShipType: 84}, Other: RiskVesselIdentity{IMO: 1234567, Name: "OTHER"},
		Start: riskStart, Lat: 36.5, Lon: 22.8, Severity: "medium", Detail: `{"confidence":"high","tonnes":5000}`,
	}
)

func TestRiskEventBody(t *testing.T) {
	store := &fakeRisk{events: []RiskEventRow{gapRow, stsRow}}
	status, body, _ := serve(t, overwatch.PlanStarter, RiskEvents(store, fixedNow), "/v1/risk/events?tier=high&vessel=9321483&limit=900")
	want := `{"events":[{"id":"ais_gap-9321483-20260310T060000Z","type":"ais_gap","subtype":"intentional","severity":"high",` +
		`"vessel":{"imo":"9321483","name":"DARK","flag":"PA","vessel_type":"tanker"},"other_vessel":null,` +
		`"start":"2026-03-10T06:00:00Z","end":"2026-03-11T12:00:00Z","ongoing":false,"position":{"lat":10.5,"lon":-20.25},` +
		`"end_position":{"lat":11,"lon":-21},"port":null,` +
		`"detail":{"hours":30,"start_position":{"lat":10.5,"lon":-20.25},"end_position":{"lat":11,"lon":-21},"intentional":true}},` +
		`{"id":"sts_transfer-9321483-20260310T060000Z-1234567","type":"sts_transfer","subtype":"proximity","severity":"medium",` +
		`"vessel":{"imo":"9321483","name":null,"flag":null,"vessel_type":"tanker"},"other_vessel":{"imo":"1234567","name":"OTHER","flag":null,"vessel_type":null},` +
		`"start":"2026-03-10T06:00:00Z","end":null,"ongoing":true,"position":{"lat":36.5,"lon":22.8},"end_position":null,"port":null,` +
		`"detail":{"confidence":"high","tonnes":5000}}]}`
	if status != 200 || body != want {
		t.Errorf("got  %d %s\nwant %s", status, body, want)
	}
	if f := store.last(); f.Severity != "high" || f.IMO != 9321483 || f.Limit != 100 || !f.Since.Equal(testNow.AddDate(0, 0, -90)) ||
		len(f.Types) != 0 || f.OngoingOnly || f.EitherVessel {
		t.Errorf("filter %+v", f)
	}

	// Free: no coordinates anywhere, detail included.
	_, body, _ = serve(t, overwatch.PlanFree, RiskEvents(store, fixedNow), "/v1/risk/events?ongoing=true")
	if !strings.Contains(body, `"position":{"lat":null,"lon":null},"end_position":{"lat":null,"lon":null}`) ||
		!strings.Contains(body, `"detail":{"end_position":{"lat":null,"lon":null},"hours":30,"intentional":true,"start_position":{"lat":null,"lon":null}}`) ||
		strings.Contains(body, "10.5") || strings.Contains(body, "22.8") {
		t.Errorf("Free sees coordinates: %s", body)
	}
	if f := store.last(); !f.OngoingOnly || len(f.Types) != 1 || f.Types[0] != EventGap || f.Limit != 20 || !f.Since.Equal(testNow.AddDate(0, 0, -7)) {
		t.Errorf("ongoing filter %+v", f)
	}
}

func TestRiskEventListsFilters(t *testing.T) {
	store := &fakeRisk{}
	cases := []struct {
		h      fiber.Handler
		target string
		check  func(RiskEventFilter) bool
	}{
		{RiskSTS(store, fixedNow), "/v1/risk/sts?vessel=1234567&confidence=low&method=path_intersection&limit=7", func(f RiskEventFilter) bool {
			return f.Types[0] == EventSTS && f.EitherVessel && f.IMO == 1234567 && f.Confidence == "low" && f.Subtype == "path_intersection" && f.Limit == 7
		}},
		{RiskLoitering(store, fixedNow), "/v1/risk/loitering?type=slow_roll&context=known_transfer_area", func(f RiskEventFilter) bool {
			return f.Types[0] == EventLoitering && f.Subtype == "slow_roll" && f.Context == "known_transfer_area" && f.Limit == 100 && !f.EitherVessel
		}},
		{RiskIdentity(store, fixedNow), "/v1/risk/identity?field=mmsi&vessel=9321483", func(f RiskEventFilter) bool {
			return f.Types[0] == EventIdentity && f.Subtype == "mmsi" && f.IMO == 9321483
		}},
		{RiskMismatches(store, fixedNow), "/v1/risk/mismatches?type=zero_change&port=" + mustPort("santos").ID, func(f RiskEventFilter) bool {
			return f.Types[0] == EventMismatch && f.Subtype == "zero_change" && f.Port == "santos"
		}},
	}
	for _, c := range cases {
		if status, body, _ := serve(t, overwatch.PlanPro, c.h, c.target); status != 200 || body != `{"events":[]}` {
			t.Errorf("%s: %d %s", c.target, status, body)
		}
		if f := store.last(); !c.check(f) || !f.Since.IsZero() {
			t.Errorf("%s: filter %+v", c.target, f)
		}
	}
}

func TestRiskVesselProfile(t *testing.T) {
	computed := time.Date(2026, 3, 18, 2, 0, 0, 0, time.UTC)
	store := &fakeRisk{
		vessels: []VesselRiskRow{{IMO: 9321483, Name: "DARK", Flag: "PA", ShipType: 80, Category: "tanker", Score: 72.345, Tier: "high",
			Factors: []RiskFactor{
				{Name: "ais_gaps", Weight: 0.12, Value: 4, Contribution: 12.3456, Reason: "4 gaps"},
				{Name: "sanctions", Weight: 0.2, Value: 1, Contribution: 20, Reason: "listed"},
				{Name: "flag", Weight: 0.05, Value: 0, Contribution: 0, Reason: "no risk flag"},
			}, ComputedAt: computed}},
		events: []RiskEventRow{gapRow, {Type: EventSanctions, Subtype: "direct_imo", Vessel: RiskVesselIdentity{IMO: 9321483}, Start: riskStart, End: &riskStart,
			Detail: `{"list_source":"OFAC SDN","entry_id":"12345","program":"IRAN","matched_on":"9321483","sanctioned_entity":"DARK STAR","confidence":1}`}},
	}
	route := "/v1/risk/vessel/:imo"
	status, body := serveRoute(t, overwatch.PlanFree, route, RiskVesselHandler(store, fixedNow), "/v1/risk/vessel/9321483")
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
	if len(got.DarkEvents) != 1 || got.DarkEvents[0].Type != EventGap || got.DarkEvents[0].Position.Lat != nil {
		t.Errorf("dark events (Free: no coordinates): %s", body)
	}
	if f := store.last(); f.Types[0] != EventGap || f.IMO != 9321483 || f.Limit != 20 || !f.Since.Equal(testNow.AddDate(0, 0, -7)) {
		t.Errorf("dark events filter: %+v", f)
	}
	if f := store.filters[0]; f.Types[0] != EventSanctions || !f.Since.IsZero() {
		t.Errorf("sanctions filter: %+v", f)
	}
	if store.vesselF.IMO != 9321483 {
		t.Errorf("vessel filter: %+v", store.vesselF)
	}

	status, body = serveRoute(t, overwatch.PlanPro, route, RiskVesselHandler(store, fixedNow), "/v1/risk/vessel/93214")
	if status != 400 || !strings.Contains(body, "imo must be a 7-digit IMO number") {
		t.Errorf("malformed: %d %s", status, body)
	}
	status, body = serveRoute(t, overwatch.PlanPro, route, RiskVesselHandler(&fakeRisk{}, fixedNow), "/v1/risk/vessel/1234567")
	if status != 404 || !strings.Contains(body, "no risk score for vessel 1234567") {
		t.Errorf("unknown: %d %s", status, body)
	}

	_, body, _ = serve(t, overwatch.PlanPro, RiskVessels(store), "/v1/risk/vessels?tier=high&type=tanker&flag=pa&limit=1000")
	want := `{"vessels":[{"imo":"9321483","name":"DARK","flag":"PA","vessel_type":"tanker","score":72.3,"tier":"high","top_factors":["sanctions","ais_gaps"],"computed_at":"2026-03-18T02:00:00Z"}]}`
	if body != want {
		t.Errorf("got  %s\nwant %s", body, want)
	}
	if f := store.vesselF; f.Tier != "high" || f.Category != "tanker" || f.Flag != "PA" || f.Limit != 500 || f.IMO != 0 {
		t.Errorf("vessels filter: %+v", f)
	}
	serve(t, overwatch.PlanStarter, RiskVessels(store), "/v1/risk/vessels")
	if store.vesselF.Limit != 100 {
		t.Errorf("Starter's limit: %+v", store.vesselF)
	}
}

func TestRiskStatsBodies(t *testing.T) {
	store := &fakeRisk{
		stats: RiskStatsRow{ActiveGaps: 2, CriticalVessels: 1, ActiveHotspots: 3, NewEvents24h: 4, ByTier: map[string]uint64{"high": 5, "": 9}},
		sts:   STSStatsRow{Total: 3, ByConfidence: map[string]uint64{"high": 1, "low": 2}, Tonnes: 12345.6, Active: 1},
	}
	_, body, _ := serve(t, overwatch.PlanFree, RiskStatsHandler(store, fixedNow), "/v1/risk/stats")
	if body != `{"active_gaps":2,"critical_vessels":1,"active_hotspots":3,"new_events_24h":4,"events_by_tier":{"critical":0,"high":5,"low":0,"medium":0}}` {
		t.Errorf("stats: %s", body)
	}
	if a := store.statsArgs; !a[0].Equal(testNow) || !a[1].Equal(testNow.AddDate(0, 0, -7)) {
		t.Errorf("Free's stats window: %v", a)
	}
	serve(t, overwatch.PlanPro, RiskStatsHandler(store, fixedNow), "/v1/risk/stats")
	if a := store.statsArgs; !a[1].Equal(testNow.Add(-RiskStatsWindow)) {
		t.Errorf("Pro's stats window: %v", a)
	}
	_, body, _ = serve(t, overwatch.PlanStarter, RiskSTSStats(store, fixedNow), "/v1/risk/sts/stats")
	if body != `{"total_events":3,"by_confidence":{"high":1,"low":2,"medium":0},"total_tonnage":12346,"active_encounters":1}` {
		t.Errorf("sts stats: %s", body)
	}
	if !store.stsSince.Equal(testNow.AddDate(0, 0, -90)) {
		t.Errorf("sts since %v", store.stsSince)
	}
}

func TestRiskHotspotsBaselinesBodies(t *testing.T) {
	store := &fakeRisk{
		hotspots: []HotspotRow{{ID: "1:36:22", Lat: 36.5, Lon: 22.5, CellDeg: 1, Events: 4, Vessels: 2, FirstEvent: riskStart, LastEvent: riskEnd, Active: true, Severity: "high"}},
		baselines: []BaselineRow{{Area: "open_ocean", Category: "tanker", VesselDays: 300.04, GapsPerVesselDay: 0.012345, LoiterHoursPerDay: 1.5,
			TransfersPerDay: 0.2, From: riskStart, To: riskEnd}},
	}
	_, body, _ := serve(t, overwatch.PlanFree, RiskHotspots(store, fixedNow), "/v1/risk/hotspots")
	if body != `{"hotspots":[{"id":"1:36:22","lat":36.5,"lon":22.5,"cell_deg":1,"events":4,"vessels":2,"by_type":{},"first_event":"2026-03-10T06:00:00Z","last_event":"2026-03-11T12:00:00Z","active":true,"severity":"high"}]}` {
		t.Errorf("hotspots: %s", body)
	}
	if f := store.hotspotF; !f.ActiveOnly || f.Limit != 20 || !f.Since.Equal(testNow.AddDate(0, 0, -7)) {
		t.Errorf("hotspot filter %+v", f)
	}
	serve(t, overwatch.PlanPro, RiskHotspots(store, fixedNow), "/v1/risk/hotspots?active=false&limit=600")
	if f := store.hotspotF; f.ActiveOnly || f.Limit != 500 || !f.Since.IsZero() {
		t.Errorf("hotspot filter %+v", f)
	}
	_, body, _ = serve(t, overwatch.PlanPro, RiskBaselines(store), "/v1/risk/baselines")
	if body != `{"baselines":[{"area":"open_ocean","vessel_type":"tanker","vessel_days":300,"gaps_per_vessel_day":0.0123,"loitering_hours_per_day":1.5,"transfers_per_day":0.2,"from":"2026-03-10T06:00:00Z","to":"2026-03-11T12:00:00Z"}]}` {
		t.Errorf("baselines: %s", body)
	}
}

func TestIdentityHistoryBody(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	store := &fakeRisk{identity: []IdentityRow{
		{ValidFrom: t0, MMSI: 538000001, Name: "OLD", CallSign: "V7AB", Flag: "MH", ShipType: 80},
		{ValidFrom: t0.AddDate(0, 1, 0), MMSI: 538000001, Name: "OLD", CallSign: "V7AB", Flag: "MH", ShipType: 80}, // a repeat
		{ValidFrom: t0.AddDate(0, 2, 0), MMSI: 620000001, Name: "NEW", CallSign: "", Flag: "KM", ShipType: 80},
	}}
	status, body, _ := serve(t, overwatch.PlanFree, IdentityHistory(store), "/v1/risk/identity/history?vessel=9321483")
	want := `{"imo":"9321483","history":[` +
		`{"valid_from":"2025-01-01T00:00:00Z","mmsi":538000001,"name":"OLD","call_sign":"V7AB","flag":"MH","ship_type":80,"vessel_type":"tanker","changed":[]},` +
		`{"valid_from":"2025-03-01T00:00:00Z","mmsi":620000001,"name":"NEW","call_sign":null,"flag":"KM","ship_type":80,"vessel_type":"tanker","changed":["mmsi","name","call_sign","flag"]}]}`
	if status != 200 || body != want || store.identityIMO != 9321483 {
		t.Errorf("got  %d %s\nwant %s", status, body, want)
	}
}

func TestEventID(t *testing.T) {
	r := RiskEventRow{Type: EventSanctions, Subtype: "name", Vessel: RiskVesselIdentity{IMO: 1234567}, Start: riskStart, Detail: `{"entry_id":7788}`}
	if id := EventID(&r); id != "sanctions_match-1234567-20260310T060000Z-name-7788" {
		t.Errorf("sanctions id %s", id)
	}
	r = RiskEventRow{Type: EventIdentity, Subtype: "flag", Vessel: RiskVesselIdentity{IMO: 1234567}, Start: riskStart}
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
