package e2e

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	sarsource "overwatch/sources/sar"
	"testing"
	"time"

	"overwatch"
	"overwatch/apptest"
	"overwatch/clickhouse/chtest"
	"overwatch/maritime/risk"
	"overwatch/maritime/vessel"
	"overwatch/postgres/pgtest"
	"overwatch/read"
	"overwatch/testclock"
)

// Out of the box (no catalogue: the bundled real samples stored), the AIS
// gaps of /v1/risk/events and of a vessel's profile carry their
// verification potential from the stored products: a gap over the STAC
// sample's footprint whose window holds the pass its relative orbit (S1A
// 59, acquired 2021-08-09 17:39:53) predicts by whole 12-day cycles is
// high, 0 h, predicted; an ongoing gap there has a pass within half a
// cycle; a gap in the open Pacific, where nothing is stored, is null;
// other events carry none. Answers are validated against the OpenAPI
// document (s.do).
func TestRiskGapVerificationEndToEnd(t *testing.T) {
	t.Parallel() // its own databases
	s := apptest.StartServer(t, map[string]string{"CLICKHOUSE_URL": chtest.URL(t, "risk_sar_e2e"), "DATABASE_URL": pgtest.URL(t, "risk_sar_e2e"),
		"OVERWATCH_SAR_URL": "off"})
	ctx := context.Background()
	sarsource.LoadSamples(ctx, s.Ch, slog.New(slog.NewTextHandler(io.Discard, nil)))

	now := testclock.Now().UTC().Truncate(time.Second)
	known := time.Date(2021, 8, 9, 17, 39, 53, 0, time.UTC)
	// The orbit's last predicted pass before now, at least 3 h ago.
	pass := known.Add(now.Add(-3*time.Hour).Sub(known) / sarCycle * sarCycle)
	a, b := apptest.NextIMO(), apptest.NextIMO()
	tp := func(t time.Time) *time.Time { return &t }
	events := []risk.Event{
		{Type: risk.EventGap, Subtype: "intentional", IMO: a, Start: pass.Add(-2 * time.Hour), End: tp(pass.Add(time.Hour)),
			Lat: 45.49, Lon: 3.37, EndLat: 45.6, EndLon: 3.5, Severity: risk.TierHigh, Detail: map[string]any{"hours": 3.0}},
		{Type: risk.EventGap, IMO: a, Start: now.Add(-time.Hour), Lat: 45.5, Lon: 3.4, Severity: risk.TierMedium, Detail: map[string]any{"hours": 1.0}},
		{Type: risk.EventGap, IMO: b, Start: now.Add(-30 * time.Hour), End: tp(now.Add(-2 * time.Hour)), Lat: 0.5, Lon: -150, EndLat: 1, EndLon: -151,
			Severity: risk.TierLow, Detail: map[string]any{"hours": 28.0}},
		{Type: risk.EventLoitering, Subtype: "stationary", IMO: b, Start: now.Add(-90 * time.Minute), Lat: 45.49, Lon: 3.37, Severity: risk.TierLow,
			Detail: map[string]any{"hours": 1.5}},
	}
	day := map[time.Time]bool{}
	var window []time.Time
	for i := range events {
		if events[i].Type != risk.EventSanctions { // the fixtures' coordinates are positions
			events[i].HasPosition, events[i].HasEndPosition = true, true
		}
		if d := risk.EventDay(&events[i], now); !day[d] {
			day[d] = true
			window = append(window, d)
		}
	}
	gen := uint64(time.Now().UnixNano())
	identity := map[overwatch.IMO]vessel.Profile{a: {IMO: a, Name: "DARK SAR", Flag: "KM", ShipType: 80}, b: {IMO: b, Name: "PACIFIC", ShipType: 70}}
	if err := s.Ch.WriteRiskEvents(ctx, gen, window, events, identity, now); err != nil {
		t.Fatal(err)
	}
	if err := s.Ch.WriteVesselRisk(ctx, gen, []risk.VesselScore{{IMO: a, Name: "DARK SAR", Flag: "KM", ShipType: 80, Category: "tanker",
		Score: 40, Tier: risk.TierMedium, ComputedAt: now}}); err != nil {
		t.Fatal(err)
	}

	pro, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	get := func(path string, into any) {
		t.Helper()
		r := s.Do(t, apptest.Request{Path: path, IP: apptest.FreshIP(), Key: pro})
		if r.StatusCode != 200 {
			t.Fatalf("%s: %d %s", path, r.StatusCode, r.Body)
		}
		apptest.MustUnmarshal(t, r.Body, into)
	}
	verification := func(e read.RiskEvent) *read.GapVerification {
		t.Helper()
		var v *read.GapVerification
		if err := json.Unmarshal(e.Verification, &v); err != nil {
			t.Fatalf("%s: %q: %v", e.ID, e.Verification, err)
		}
		return v
	}

	var list struct{ Events []read.RiskEvent }
	get("/v1/risk/events?vessel="+a.String(), &list)
	if len(list.Events) != 2 {
		t.Fatalf("A's events: %+v", list.Events)
	}
	ongoing, closed := verification(list.Events[0]), verification(list.Events[1])
	if closed == nil || closed.Potential != "high" || closed.ClosestPassHours == nil || *closed.ClosestPassHours != 0 || !closed.Predicted {
		t.Errorf("gap over the predicted pass of %v: %+v", pass, closed)
	}
	if ongoing == nil || ongoing.ClosestPassHours == nil || *ongoing.ClosestPassHours > 6*24 {
		t.Errorf("ongoing gap: %+v", ongoing)
	}
	var listB struct{ Events []read.RiskEvent }
	get("/v1/risk/events?vessel="+b.String(), &listB)
	if len(listB.Events) != 2 || listB.Events[0].Type != risk.EventLoitering || listB.Events[0].Verification != nil ||
		string(listB.Events[1].Verification) != "null" {
		t.Errorf("B's events (a loitering without verification, a gap with nothing stored): %+v", listB.Events)
	}

	var profile read.RiskVesselBody
	get("/v1/risk/vessel/"+a.String(), &profile)
	if len(profile.DarkEvents) != 2 || string(profile.DarkEvents[1].Verification) != string(list.Events[1].Verification) {
		t.Errorf("dark events: %+v", profile.DarkEvents)
	}
}
