package read

import (
	"strings"
	"testing"
	"time"

	"overwatch"
	"overwatch/maritime/risk"
	"overwatch/maritime/sar"
	"overwatch/route"
)

// squareAround is a product whose footprint is a 1-degree square centred
// on (lat, lng).
func squareAround(name string, rel int, start time.Time, lat, lng float64) sar.Product {
	return sar.Product{Name: name, Platform: "S1A", Mode: "IW", RelativeOrbit: rel, Start: start, Direction: "ASCENDING", Source: "asf",
		Footprint: sar.Polygon{{Lon: lng - 0.5, Lat: lat - 0.5}, {Lon: lng + 0.5, Lat: lat - 0.5}, {Lon: lng + 0.5, Lat: lat + 0.5},
			{Lon: lng - 0.5, Lat: lat + 0.5}}}
}

// The gaps of /risk/events and of the vessel profile carry their
// verification from one store query per list: a stored acquisition 10 h
// after a closed gap ended near its end point (medium), a predicted pass
// for an ongoing gap (its window runs to now), null for a gap with
// nothing stored near it; other events carry none. Free callers get the
// verification without coordinates.
func TestRiskGapVerification(t *testing.T) {
	t.Parallel()
	ongoing := RiskEventRow{Type: risk.EventGap, Vessel: RiskVesselIdentity{IMO: 1234567}, Start: testNow.Add(-20 * 24 * time.Hour),
		Lat: 40, Lon: 5, HasPosition: true, HasEndPosition: true, Severity: "medium", Detail: `{}`}
	nowhere := RiskEventRow{Type: risk.EventGap, Vessel: RiskVesselIdentity{IMO: 9074729}, Start: riskStart, End: &riskEnd,
		Lat: -30, Lon: 100, EndLat: -30.5, EndLon: 101, HasPosition: true, HasEndPosition: true, Severity: "low", Detail: `{}`}
	store := &fakeRisk{events: []RiskEventRow{gapRow, ongoing, nowhere, stsRow},
		sar: []sar.Product{squareAround("END", 88, riskEnd.Add(10*time.Hour), 11, -21),
			// A known pass of orbit 12 over the ongoing gap, 4 cycles
			// before a pass within its window.
			squareAround("OLD", 12, ongoing.Start.Add(5*24*time.Hour-4*sar.Cycle), 40.2, 5.1)}}
	routes := riskRoutesOf(t, store)
	status, body, _ := serve(t, overwatch.PlanFree, routes.get("/risk/events"), "/v1/risk/events")
	var got struct{ Events []RiskEvent }
	decode(t, body, &got)
	if status != 200 || len(got.Events) != 4 {
		t.Fatalf("%d %s", status, body)
	}
	want := []string{`{"potential":"medium","closest_pass_hours":10,"predicted":false}`,
		`{"potential":"high","closest_pass_hours":0,"predicted":true}`, `null`, ``}
	for i, e := range got.Events {
		if string(e.Verification) != want[i] {
			t.Errorf("%s: verification %s, want %s", e.ID, e.Verification, want[i])
		}
	}
	if strings.Contains(body, "10.5") {
		t.Errorf("Free sees coordinates: %s", body)
	}
	qs := store.sarReqs.all()
	if len(qs) != 1 || len(qs[0].Boxes) != 5 || !qs[0].From.Equal(ongoing.Start) || !qs[0].To.Equal(testNow) {
		t.Fatalf("store queries %+v", qs)
	}
	if b := qs[0].Boxes[0]; b != (SARBox{MinLat: 10, MaxLat: 11, MinLon: -21, MaxLon: -19}) {
		t.Errorf("first box %+v", b)
	}

	// The vessel profile's dark events.
	store.vessels = []risk.VesselScore{{IMO: 9321483, Score: 50, Tier: "medium", ComputedAt: testNow}}
	const route = "/risk/vessel/:imo"
	status, body = serveRoute(t, overwatch.PlanPro, route, routes.get(route), "/v1/risk/vessel/9321483")
	var profile RiskVesselBody
	decode(t, body, &profile)
	if status != 200 || len(profile.DarkEvents) != 3 || string(profile.DarkEvents[0].Verification) != want[0] {
		t.Fatalf("%d %s", status, body)
	}
	if n := store.sarReqs.count(); n != 2 {
		t.Errorf("%d store queries, want 2", n)
	}

	// A list without gaps asks nothing.
	only := &fakeRisk{events: []RiskEventRow{stsRow}}
	serve(t, overwatch.PlanPro, riskRoutesOf(t, only).get("/risk/events"), "/v1/risk/events")
	if n := only.sarReqs.count(); n != 0 {
		t.Errorf("a list without gaps: %d store queries", n)
	}
}

// Through the real cache, the verification of a repeated list is a
// lookup: one store query for two identical requests.
func TestRiskGapVerificationCached(t *testing.T) {
	t.Parallel()
	store := &fakeRisk{events: []RiskEventRow{gapRow}}
	cache := NewCache(&fakeVersions{}, CacheOptions{Check: time.Hour})
	h := mount(t, func(r route.Router) { riskRoutes(r, store, cache, fixedNow) }).get("/risk/events")
	for range 2 {
		if status, body, _ := serve(t, overwatch.PlanPro, h, "/v1/risk/events"); status != 200 || !strings.Contains(body, `"verification":null`) {
			t.Fatalf("%d %s", status, body)
		}
	}
	if n := store.sarReqs.count(); n != 1 {
		t.Errorf("two identical requests: %d store queries", n)
	}
}

// Past maxSARBoxes areas, one box holding them all is asked.
func TestRiskGapBoxesMerged(t *testing.T) {
	t.Parallel()
	var rows []RiskEventRow
	for i := range maxSARBoxes + 5 {
		rows = append(rows, RiskEventRow{Type: risk.EventGap, Vessel: RiskVesselIdentity{IMO: 1234567}, Start: riskStart.Add(time.Duration(i) * time.Minute),
			Lat: -40 + float64(i)*0.7, Lon: float64(i)*3 - 150, HasPosition: true})
	}
	store := &fakeRisk{}
	if _, err := verifyGapRows(t.Context(), store, rows, testNow); err != nil {
		t.Fatal(err)
	}
	qs := store.sarReqs.all()
	if len(qs) != 1 || len(qs[0].Boxes) != 1 || qs[0].Boxes[0].MinLat > -40 || qs[0].Boxes[0].MaxLat < 33 ||
		qs[0].Boxes[0].MinLon > -150 || qs[0].Boxes[0].MaxLon < 162 {
		t.Fatalf("%+v", qs)
	}
}
