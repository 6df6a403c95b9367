package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"overwatch"
	"overwatch/apptest"
	"overwatch/clickhouse"
	"overwatch/jobs"
	"overwatch/maritime/risk"
	"overwatch/maritime/vessel"
	"overwatch/read"
	"sort"
	"testing"
	"time"
)

// Every risk event served carries an observed position or none, never a
// made-up 0,0: on a small simulated fleet with frequent identity changes,
// derived by the real jobs and read through the real server (validated
// against the OpenAPI document), no event of any type has a position,
// end position or detail position at 0,0, and each identity change, in
// /v1/risk/events and /v1/risk/identity alike, is at the vessel's stored
// position nearest in time to it (within risk.IdentityFixWindow), or null
// when there is none that near.
func TestRiskEventPositionsThroughTheAPI(t *testing.T) {
	t.Parallel() // its own databases
	r := apptest.SimulateWithRates(t, "risk_positions", 21, 60, 14, "--identity-rate", "0.6", "--gap-rate", "0.1", "--spoof-rate", "0.05")
	for _, job := range []string{"port_calls", "risk_events"} {
		r.Command(t, io.Discard, "jobs", "--job", job)
	}
	// The stored positions, to find the fix nearest each change.
	db, err := clickhouse.Open(r.ChURL)
	if err != nil {
		t.Fatal(err)
	}
	tracks := map[overwatch.IMO][]vessel.TrackPoint{}
	err = db.Tracks(context.Background(), r.Start.Add(-24*time.Hour), r.End.Add(24*time.Hour), jobs.TrackFilter{},
		func(imo overwatch.IMO, track []vessel.TrackPoint) error {
			tracks[imo] = append([]vessel.TrackPoint(nil), track...)
			return nil
		})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	fleet := make([]overwatch.IMO, 0, len(tracks))
	for imo := range tracks {
		fleet = append(fleet, imo)
	}
	sort.Slice(fleet, func(i, j int) bool { return fleet[i] < fleet[j] })

	s := apptest.StartServer(t, map[string]string{"CLICKHOUSE_URL": r.ChURL, "DATABASE_URL": r.PgURL})
	key, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	types := map[string]int{}
	placed, unplaced := 0, 0
	for _, imo := range fleet {
		for _, path := range []string{"/v1/risk/events?vessel=%s&limit=500", "/v1/risk/identity?vessel=%s&limit=500"} {
			resp := s.Do(t, apptest.Request{Path: fmt.Sprintf(path, imo), IP: apptest.FreshIP(), Key: key})
			if resp.StatusCode != 200 {
				t.Fatalf("%s: %d %s", fmt.Sprintf(path, imo), resp.StatusCode, resp.Body)
			}
			var body struct{ Events []read.RiskEvent }
			apptest.MustUnmarshal(t, resp.Body, &body)
			for _, e := range body.Events {
				types[e.Type]++
				checkNoNullIsland(t, e)
				if e.Type != risk.EventIdentity {
					continue
				}
				at, err := time.Parse(time.RFC3339, e.Start)
				if err != nil {
					t.Fatal(err)
				}
				want, ok := nearestFix(tracks[imo], at)
				switch {
				case !ok && (e.Position != nil || e.EndPosition != nil):
					t.Errorf("%s: no position within %s of the change, served at %s", e.ID, risk.IdentityFixWindow, fmtPosition(e.Position))
				case ok && !samePosition(e.Position, want) || ok && !samePosition(e.EndPosition, want):
					t.Errorf("%s: served at %s / %s, want the nearest fix %v,%v at %s", e.ID, fmtPosition(e.Position), fmtPosition(e.EndPosition),
						want.Lat, want.Lon, want.TS)
				case ok:
					placed++
				default:
					unplaced++
				}
			}
		}
	}
	t.Logf("%d vessels: events by type %v; identity changes placed %d, without a fix near %d", len(fleet), types, placed, unplaced)
	if placed == 0 || types[risk.EventGap] == 0 || types[risk.EventLoitering] == 0 {
		t.Fatalf("the simulation gave nothing to check: %v, %d placed identity changes", types, placed)
	}
}

// checkNoNullIsland fails on a served position at 0,0: the event's, its end's,
// or one of its detail's {lat, lon} members.
func checkNoNullIsland(t *testing.T, e read.RiskEvent) {
	t.Helper()
	for _, p := range []*read.Position{e.Position, e.EndPosition} {
		if p != nil && (p.Lat == nil || p.Lon == nil || *p.Lat == 0 && *p.Lon == 0) {
			t.Errorf("%s: position %s / %s", e.ID, fmtPosition(e.Position), fmtPosition(e.EndPosition))
		}
	}
	var detail map[string]any
	apptest.MustUnmarshal(t, e.Detail, &detail)
	for k, v := range detail {
		if m, ok := v.(map[string]any); ok && m["lat"] == 0.0 && m["lon"] == 0.0 {
			t.Errorf("%s: detail %s at 0,0", e.ID, k)
		}
	}
}

// nearestFix is the track's position nearest in time to at, when within
// risk.IdentityFixWindow of it (the earlier on a tie).
func nearestFix(track []vessel.TrackPoint, at time.Time) (vessel.TrackPoint, bool) {
	var best vessel.TrackPoint
	gap := time.Duration(math.MaxInt64)
	for _, p := range track {
		if math.IsNaN(p.Lat) || math.IsNaN(p.Lon) || math.Abs(p.Lat) > 90 || math.Abs(p.Lon) > 180 {
			continue
		}
		d := p.TS.Sub(at)
		if d < 0 {
			d = -d
		}
		if d < gap {
			best, gap = p, d
		}
	}
	return best, gap <= risk.IdentityFixWindow
}

func samePosition(p *read.Position, want vessel.TrackPoint) bool {
	return p != nil && p.Lat != nil && p.Lon != nil && math.Abs(*p.Lat-want.Lat) < 1e-9 && math.Abs(*p.Lon-want.Lon) < 1e-9
}

// fmtPosition is a served position as its JSON.
func fmtPosition(p *read.Position) string {
	b, _ := json.Marshal(p)
	return string(b)
}
