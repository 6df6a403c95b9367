package e2e

import (
	"context"
	"net/url"
	"overwatch"
	"overwatch/apptest"
	"overwatch/maritime/risk"
	"overwatch/maritime/seaport"
	"overwatch/maritime/vessel"
	"overwatch/read"
	"overwatch/testclock"
	"strings"
	"testing"
	"time"
)

// The /risk endpoints read the risk tables; these tests write them with
// the risk job's own write methods (clickhouse/risk_write.go) under a
// generation newer than any other test's. The days they write replace
// other tests' events of those days; other days may hold other tests'
// events, so lists are checked through the fixture vessels.

// riskAPIFixtures are the vessels and times the fixtures use.
type riskAPIFixtures struct {
	now     time.Time
	a, b, c overwatch.IMO // a tanker (sanctioned, dark), a cargo ship (dark now), a loiterer
}

func writeRiskAPIFixtures(s *apptest.TestServer, t *testing.T) riskAPIFixtures {
	t.Helper()
	ctx := context.Background()
	now := testclock.Now().UTC().Truncate(time.Second)
	fx := riskAPIFixtures{now: now, a: apptest.NextIMO(), b: apptest.NextIMO(), c: apptest.NextIMO()}
	h := func(hours float64) time.Time { return now.Add(time.Duration(hours * float64(time.Hour))) }
	tp := func(t time.Time) *time.Time { return &t }
	identity := map[overwatch.IMO]vessel.Profile{
		fx.a: {IMO: fx.a, Name: "SHADOW A", Flag: "KM", ShipType: 80},
		fx.b: {IMO: fx.b, Name: "SHADOW B", Flag: "PA", ShipType: 70},
		fx.c: {IMO: fx.c, Name: "DRIFTER C", Flag: "TG", ShipType: 84},
	}
	events := []risk.Event{
		{Type: risk.EventGap, Subtype: "intentional", IMO: fx.a, Start: h(-50), End: tp(h(-20)), Lat: 25.1, Lon: 56.9, EndLat: 25.4, EndLon: 57.2,
			Severity: risk.TierHigh, Detail: map[string]any{"hours": 30.0, "intentional": true, "distance_nm": 20.5,
				"start_position": map[string]any{"lat": 25.1, "lon": 56.9}, "end_position": map[string]any{"lat": 25.4, "lon": 57.2}}},
		{Type: risk.EventGap, IMO: fx.b, Start: h(-30), Lat: -10.5, Lon: 5.25, Severity: risk.TierMedium,
			Detail: map[string]any{"hours": 30.0, "intentional": false, "start_position": map[string]any{"lat": -10.5, "lon": 5.25}, "end_position": nil}},
		{Type: risk.EventSTS, Subtype: "proximity", IMO: fx.a, Other: fx.b, Start: h(-10), End: tp(h(-6)), Lat: 36.5, Lon: 22.8, EndLat: 36.5, EndLon: 22.8,
			Severity: risk.TierHigh, Detail: map[string]any{"confidence": "high", "tonnes": 20000.0, "hours": 4.0, "min_distance_m": 80.0, "other_imo": float64(fx.b), "area": "Gulf of Laconia"}},
		{Type: risk.EventLoitering, Subtype: "slow_roll", IMO: fx.c, Start: h(-12), Lat: 36.6, Lon: 22.9, Severity: risk.TierHigh,
			Detail: map[string]any{"hours": 12.0, "mean_speed_kn": 1.1, "context": "known_transfer_area", "area": "Gulf of Laconia"}},
		{Type: risk.EventIdentity, Subtype: "flag", IMO: fx.c, Start: h(-40), End: tp(h(-40)), Lat: 36, Lon: 20, EndLat: 36, EndLon: 20, Severity: risk.TierHigh,
			Detail: map[string]any{"field": "flag", "old": "PA", "new": "TG"}},
		{Type: risk.EventMismatch, Subtype: "zero_change", IMO: fx.a, Start: h(-60), End: tp(h(-52)), Port: "santos", Lat: -23.98, Lon: -46.3,
			EndLat: -23.98, EndLon: -46.3, Severity: risk.TierMedium, Detail: map[string]any{"reported_from": 9.4, "reported_to": 9.4, "change_m": 0.0, "expected": "a draught change"}},
		{Type: risk.EventSanctions, Subtype: "direct_imo", IMO: fx.a, Start: h(-100), End: tp(h(-100)), Severity: risk.TierCritical,
			Detail: map[string]any{"list_source": "OFAC SDN", "entry_id": "99999", "sanctioned_entity": "SHADOW A", "program": "IRAN", "matched_on": fx.a.String(), "confidence": 1.0}},
		{Type: risk.EventGap, IMO: fx.c, Start: h(-20 * 24), End: tp(h(-19 * 24)), Lat: 1, Lon: 2, EndLat: 3, EndLon: 4, Severity: risk.TierLow,
			Detail: map[string]any{"hours": 24.0}},
	}
	days := map[time.Time]bool{}
	var window []time.Time
	for i := range events {
		if events[i].Type != risk.EventSanctions { // the fixtures' coordinates are positions
			events[i].HasPosition, events[i].HasEndPosition = true, true
		}
		if d := risk.EventDay(&events[i], fx.now); !days[d] {
			days[d] = true
			window = append(window, d)
		}
	}
	gen := uint64(time.Now().UnixNano())
	if err := s.Ch.WriteRiskEvents(ctx, gen, window, events, identity, fx.now); err != nil {
		t.Fatal(err)
	}
	factors := []risk.Factor{
		{Name: "sanctions_match", Weight: 75, Value: 1, Contribution: 75, Reason: "direct IMO match on the OFAC SDN list"},
		{Name: "intentional_disabling", Weight: 20, Value: 1, Contribution: 10, Reason: "1 suspected intentional gap"},
		{Name: "age", Weight: 8, Value: 12, Contribution: 0, Reason: "12 years old"},
	}
	if err := s.Ch.WriteVesselRisk(ctx, gen, []risk.VesselScore{
		{IMO: fx.a, Name: "SHADOW A", Flag: "KM", ShipType: 80, Category: "tanker", Score: 85, Tier: risk.TierCritical, Factors: factors, ComputedAt: now},
		{IMO: fx.b, Name: "SHADOW B", Flag: "PA", ShipType: 70, Category: "cargo", Score: 30.04, Tier: risk.TierMedium, ComputedAt: now},
		{IMO: fx.c, Name: "DRIFTER C", Flag: "TG", ShipType: 84, Category: "tanker", Score: 12, Tier: risk.TierLow, ComputedAt: now},
	}); err != nil {
		t.Fatal(err)
	}
	if err := s.Ch.WriteHotspots(ctx, gen, []risk.Hotspot{
		{ID: "1.0:36:22", Lat: 36.5, Lon: 22.5, CellDeg: 1, Events: 2, Vessels: 3, ByType: map[string]int{"sts_transfer": 1, "loitering": 1},
			FirstEvent: h(-12), LastEvent: h(-10), Active: true, Severity: risk.TierHigh},
		{ID: "1.0:1:2", Lat: 1.5, Lon: 2.5, CellDeg: 1, Events: 1, Vessels: 1, ByType: map[string]int{"ais_gap": 1},
			FirstEvent: h(-480), LastEvent: h(-480), Severity: risk.TierLow},
	}); err != nil {
		t.Fatal(err)
	}
	if err := s.Ch.WriteBaselines(ctx, gen, []risk.Baseline{
		{Area: "open_ocean", Category: "tanker", VesselDays: 900, GapsPerVesselDay: 0.01, LoiterHoursPerDay: 0.4, TransfersPerDay: 0.02, From: h(-720), To: now},
	}); err != nil {
		t.Fatal(err)
	}
	cols := []string{"imo", "valid_from", "mmsi", "name", "call_sign", "flag", "ship_type", "source"}
	s.Fx.Insert(t, "vessel_identity", cols,
		[]any{fx.c, h(-400), uint32(352000001), "DRIFTER C", "3EAB", "PA", uint8(84), "aishub"},
		[]any{fx.c, h(-40), uint32(671000001), "DRIFTER C", "5VCD", "TG", uint8(84), "aishub"})
	return fx
}

func TestRiskAPIEndpoints(t *testing.T) {
	s := apptest.StartServer(t, nil)
	fx := writeRiskAPIFixtures(s, t)
	pro, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	a, b, c := fx.a.String(), fx.b.String(), fx.c.String()
	get := func(key, path string, into any) {
		t.Helper()
		r := s.Do(t, apptest.Request{Path: path, IP: apptest.FreshIP(), Key: key})
		if r.StatusCode != 200 {
			t.Fatalf("%s: %d %s", path, r.StatusCode, r.Body)
		}
		apptest.MustUnmarshal(t, r.Body, into)
	}
	type events struct{ Events []read.RiskEvent }
	ids := func(ev events) []string {
		var out []string
		for _, e := range ev.Events {
			out = append(out, e.Type+":"+e.Vessel.IMO)
		}
		return out
	}

	var vessels struct{ Vessels []read.RiskVessel }
	get(pro, "/v1/risk/vessels", &vessels)
	if len(vessels.Vessels) != 3 || vessels.Vessels[0].IMO != a || vessels.Vessels[0].TopFactors[0] != "sanctions_match" || vessels.Vessels[1].Score != 30 {
		t.Errorf("vessels: %+v", vessels)
	}
	get(pro, "/v1/risk/vessels?tier=critical", &vessels)
	if len(vessels.Vessels) != 1 || vessels.Vessels[0].IMO != a || *vessels.Vessels[0].VesselType != "tanker" {
		t.Errorf("critical: %+v", vessels)
	}
	get(pro, "/v1/risk/vessels?type=tanker&flag=tg", &vessels)
	if len(vessels.Vessels) != 1 || vessels.Vessels[0].IMO != c {
		t.Errorf("tankers flagged TG: %+v", vessels)
	}

	var profile read.RiskVesselBody
	get(pro, "/v1/risk/vessel/"+a, &profile)
	if v := profile.Vessel; v.IMO != a || *v.Name != "SHADOW A" || v.Tier != "critical" || v.Score != 85 || len(v.Factors) != 3 ||
		v.Factors[1].Name != "intentional_disabling" || v.Factors[1].Contribution != 10 || len(v.Sanctions) != 1 ||
		*v.Sanctions[0].ListSource != "OFAC SDN" || v.Sanctions[0].MatchType != "direct_imo" || *v.Sanctions[0].SanctionedEntity != "SHADOW A" {
		t.Errorf("profile: %+v", profile.Vessel)
	}
	if len(profile.DarkEvents) != 1 || profile.DarkEvents[0].Type != "ais_gap" || profile.DarkEvents[0].Ongoing ||
		*profile.DarkEvents[0].Subtype != "intentional" || *profile.DarkEvents[0].Position.Lat != 25.1 {
		t.Errorf("dark events: %+v", profile.DarkEvents)
	}

	var ev events
	get(pro, "/v1/risk/events?vessel="+a, &ev)
	if got := strings.Join(ids(ev), ","); got != "sts_transfer:"+a+",ais_gap:"+a+",draught_mismatch:"+a+",sanctions_match:"+a {
		t.Errorf("A's events, newest first: %s", got)
	}
	for _, e := range ev.Events {
		if *e.Vessel.Name != "SHADOW A" || *e.Vessel.Flag != "KM" || *e.Vessel.VesselType != "tanker" || !strings.HasPrefix(e.ID, e.Type+"-"+a+"-") {
			t.Errorf("identity embedded: %+v", e)
		}
	}
	// B's list holds the transfer stored under A, the lower IMO, as /risk/sts does.
	get(pro, "/v1/risk/events?vessel="+b, &ev)
	if got := strings.Join(ids(ev), ","); got != "sts_transfer:"+a+",ais_gap:"+b {
		t.Errorf("B's events, newest first: %s", got)
	}
	get(pro, "/v1/risk/events?ongoing=true&limit=500", &ev)
	if got := "," + strings.Join(ids(ev), ",") + ","; !strings.Contains(got, ",ais_gap:"+b+",") || strings.Contains(got, a) || strings.Contains(got, "loitering") {
		t.Errorf("ongoing gaps: %s", got)
	}
	get(pro, "/v1/risk/events?vessel="+a+"&tier=critical", &ev)
	if got := strings.Join(ids(ev), ","); got != "sanctions_match:"+a {
		t.Errorf("critical: %s", got)
	}
	get(pro, "/v1/risk/events?vessel="+c, &ev)
	if got := strings.Join(ids(ev), ","); got != "loitering:"+c+",identity_change:"+c+",ais_gap:"+c {
		t.Errorf("C (Pro sees 20 days back): %s", got)
	}
	// start and end: the events under way at some time between them.
	at := func(hours int) string { return fx.now.Add(time.Duration(hours) * time.Hour).Format(time.RFC3339) }
	get(pro, "/v1/risk/events?vessel="+a+"&start="+at(-55)+"&end="+at(-25), &ev)
	if got := strings.Join(ids(ev), ","); got != "ais_gap:"+a+",draught_mismatch:"+a {
		t.Errorf("A's events under way from 55 to 25 hours ago: %s", got)
	}
	get(pro, "/v1/risk/loitering?vessel="+c+"&start="+at(-1), &ev)
	if got := strings.Join(ids(ev), ","); got != "loitering:"+c {
		t.Errorf("C's loitering going on: %s", got)
	}

	var stats read.RiskStats
	get(pro, "/v1/risk/stats", &stats)
	if stats.ActiveGaps < 1 || stats.CriticalVessels != 1 || stats.ActiveHotspots != 1 || stats.NewEvents24h < 2 || stats.EventsByTier["critical"] < 1 {
		t.Errorf("stats: %+v", stats)
	}

	for _, v := range []string{a, b} {
		get(pro, "/v1/risk/sts?vessel="+v, &ev)
		if len(ev.Events) != 1 || ev.Events[0].Vessel.IMO != a || ev.Events[0].OtherVessel == nil || ev.Events[0].OtherVessel.IMO != b ||
			*ev.Events[0].OtherVessel.Name != "SHADOW B" || *ev.Events[0].OtherVessel.VesselType != "cargo" || ev.Events[0].ID != "sts_transfer-"+a+"-"+fx.now.Add(-10*time.Hour).Format("20060102T150405Z")+"-"+b {
			t.Errorf("sts by vessel %s: %+v", v, ev.Events)
		}
	}
	get(pro, "/v1/risk/sts?vessel="+a+"&confidence=high&method=proximity", &ev)
	if len(ev.Events) != 1 {
		t.Errorf("sts high proximity: %+v", ev)
	}
	get(pro, "/v1/risk/sts?vessel="+b+"&confidence=low", &ev)
	if len(ev.Events) != 0 {
		t.Errorf("sts low: %+v", ev)
	}
	var sts read.STSStats
	get(pro, "/v1/risk/sts/stats", &sts)
	if sts.TotalEvents < 1 || sts.ByConfidence["high"] < 1 || sts.TotalTonnage < 20000 {
		t.Errorf("sts stats: %+v", sts)
	}

	get(pro, "/v1/risk/loitering?vessel="+c+"&context=known_transfer_area&type=slow_roll", &ev)
	if len(ev.Events) != 1 || !ev.Events[0].Ongoing || ev.Events[0].End != nil || ev.Events[0].EndPosition != nil {
		t.Errorf("loitering: %+v", ev)
	}
	get(pro, "/v1/risk/loitering?vessel="+c+"&type=stationary", &ev)
	if len(ev.Events) != 0 {
		t.Errorf("stationary: %+v", ev)
	}
	get(pro, "/v1/risk/identity?vessel="+c+"&field=flag", &ev)
	if len(ev.Events) != 1 || !strings.Contains(string(ev.Events[0].Detail), `"new":"TG"`) || ev.Events[0].ID != "identity_change-"+c+"-"+fx.now.Add(-40*time.Hour).Format("20060102T150405Z")+"-flag" {
		t.Errorf("identity: %+v", ev)
	}
	get(pro, "/v1/risk/identity?vessel="+c+"&field=name", &ev)
	if len(ev.Events) != 0 {
		t.Errorf("name changes: %+v", ev)
	}
	var hist read.IdentityHistoryBody
	get(pro, "/v1/risk/identity/history?vessel="+c, &hist)
	if len(hist.History) != 2 || *hist.History[0].Flag != "PA" || strings.Join(hist.History[1].Changed, ",") != "mmsi,call_sign,flag" || *hist.History[1].MMSI != 671000001 {
		t.Errorf("identity history: %+v", hist)
	}

	santos, _ := seaport.BySlug("santos")
	for _, p := range []string{"santos", santos.ID} {
		get(pro, "/v1/risk/mismatches?vessel="+a+"&port="+p+"&type=zero_change", &ev)
		if len(ev.Events) != 1 || *ev.Events[0].Port != "santos" {
			t.Errorf("mismatches at %s: %+v", p, ev)
		}
	}
	get(pro, "/v1/risk/mismatches?vessel="+a+"&type=magnitude", &ev)
	if len(ev.Events) != 0 {
		t.Errorf("magnitude: %+v", ev)
	}

	var spots struct{ Hotspots []read.Hotspot }
	get(pro, "/v1/risk/hotspots", &spots)
	if len(spots.Hotspots) != 1 || spots.Hotspots[0].ID != "1.0:36:22" || spots.Hotspots[0].ByType["loitering"] != 1 {
		t.Errorf("active hotspots: %+v", spots)
	}
	get(pro, "/v1/risk/hotspots?active=false", &spots)
	if len(spots.Hotspots) != 2 {
		t.Errorf("all hotspots: %+v", spots)
	}
	var base struct{ Baselines []read.Baseline }
	get(pro, "/v1/risk/baselines", &base)
	if len(base.Baselines) != 1 || base.Baselines[0].Area != "open_ocean" || base.Baselines[0].VesselType != "tanker" {
		t.Errorf("baselines: %+v", base)
	}
}

func TestRiskAPIFreeTier(t *testing.T) {
	s := apptest.StartServer(t, nil)
	fx := writeRiskAPIFixtures(s, t)
	free, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanFree)
	a, c := fx.a.String(), fx.c.String()

	r := s.Do(t, apptest.Request{Path: "/v1/risk/events?vessel=" + a, IP: apptest.FreshIP(), Key: free})
	var ev struct{ Events []read.RiskEvent }
	apptest.MustUnmarshal(t, r.Body, &ev)
	if r.StatusCode != 200 || len(ev.Events) != 4 {
		t.Fatalf("Free: %d %s", r.StatusCode, r.Body)
	}
	if strings.Contains(string(r.Body), "25.1") || strings.Contains(string(r.Body), "56.9") || strings.Contains(string(r.Body), "22.8") {
		t.Errorf("Free sees coordinates: %s", r.Body)
	}
	for _, e := range ev.Events {
		if e.Position != nil && (e.Position.Lat != nil || e.Position.Lon != nil) || (e.EndPosition != nil && e.EndPosition.Lat != nil) {
			t.Errorf("Free position: %+v", e)
		}
	}
	r = s.Do(t, apptest.Request{Path: "/v1/risk/events?vessel=" + c, IP: apptest.FreshIP(), Key: free})
	apptest.MustUnmarshal(t, r.Body, &ev)
	if len(ev.Events) != 2 {
		t.Errorf("Free's 7 days leave out the 20-day-old gap: %s", r.Body)
	}
	r = s.Do(t, apptest.Request{Path: "/v1/risk/vessel/" + a, IP: apptest.FreshIP(), Key: free})
	if r.StatusCode != 200 || !strings.Contains(string(r.Body), `"start_position":{"lat":null,"lon":null}`) {
		t.Errorf("Free profile: %d %s", r.StatusCode, r.Body)
	}
}

func TestRiskAPIErrors(t *testing.T) {
	s := apptest.StartServer(t, nil)
	key, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	unknown := apptest.NextIMO().String()
	for path, want := range map[string]string{
		"/v1/risk/vessels?tier=severe":                       `tier must be one of critical, high, medium, low`,
		"/v1/risk/vessels?type=yacht":                        `type must be one of cargo, tanker`,
		"/v1/risk/vessels?flag=PAN":                          `flag must be a 2-letter flag-state code`,
		"/v1/risk/vessels?limit=0":                           `limit must be a positive integer`,
		"/v1/risk/vessel/12":                                 `{"error":"imo must be a 7-digit IMO number"}`,
		"/v1/risk/vessel/" + unknown:                         `{"error":"no risk score for vessel ` + unknown + `"}`,
		"/v1/risk/events?tier=bad":                           `tier must be one of`,
		"/v1/risk/events?vessel=1":                           `vessel must be a 7-digit IMO number`,
		"/v1/risk/events?ongoing=yes":                        `ongoing must be 'true' or 'false'`,
		"/v1/risk/events?limit=x":                            `limit must be a positive integer`,
		"/v1/risk/events?start=yesterday":                    `start must be an ISO 8601 timestamp`,
		"/v1/risk/sts?start=2026-02-01&end=2026-01-01":       `{"error":"end must not be before start","parameter":"end"}`,
		"/v1/risk/sts?confidence=sure":                       `confidence must be one of high, medium, low`,
		"/v1/risk/sts?method=radar":                          `method must be one of proximity, path_intersection`,
		"/v1/risk/sts?vessel=abc":                            `vessel must be a 7-digit IMO number`,
		"/v1/risk/loitering?type=drift":                      `type must be one of stationary, slow_roll`,
		"/v1/risk/loitering?context=harbour":                 `context must be one of offshore, port_approach, anchorage, known_transfer_area`,
		"/v1/risk/identity?field=imo":                        `field must be one of flag, name, mmsi`,
		"/v1/risk/identity/history":                          `{"error":"vessel is required (a 7-digit IMO number)","parameter":"vessel"}`,
		"/v1/risk/identity/history?vessel=x":                 `vessel must be a 7-digit IMO number`,
		"/v1/risk/identity/history?vessel=" + unknown:        `{"error":"no identity history for vessel ` + unknown + `","parameter":"vessel"}`,
		"/v1/risk/mismatches?type=big":                       `type must be one of directional, magnitude, zero_change`,
		"/v1/risk/mismatches?port=atlantis":                  `{"error":"unknown port 'atlantis' in port; see /v1/ports for slugs and ids","parameter":"port"}`,
		"/v1/risk/mismatches?port=" + url.QueryEscape("<x>"): `unknown port '\u003cx\u003e' in port`,
		"/v1/risk/hotspots?active=maybe":                     `active must be 'true' or 'false'`,
		"/v1/risk/hotspots?limit=-1":                         `limit must be a positive integer`,
	} {
		r := s.Do(t, apptest.Request{Path: path, IP: apptest.FreshIP(), Key: key})
		if r.StatusCode != 400 && r.StatusCode != 404 || !strings.Contains(string(r.Body), want) {
			t.Errorf("%s: %d %s, want %s", path, r.StatusCode, r.Body, want)
		}
	}
	for _, path := range []string{"/v1/risk/vessels", "/v1/risk/stats", "/v1/risk/baselines", "/v1/risk/vessel/1234567"} {
		if r := s.Do(t, apptest.Request{Path: path, IP: apptest.FreshIP()}); r.StatusCode != 401 {
			t.Errorf("%s without a key: %d %s", path, r.StatusCode, r.Body)
		}
	}
}
