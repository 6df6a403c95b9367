package read

import (
	"context"
	"strings"
	"testing"
	"time"

	"overwatch"
	"overwatch/maritime/risk"
	"overwatch/route"
)

// fakeFleet is the replica, the registry and the scores of the fleet view.
type fakeFleet struct {
	rows   []overwatch.LatestRow
	reg    []VesselRow
	scores []risk.VesselScore
	stale  bool
}

func (f *fakeFleet) EachLatest(_ context.Context, fn func(overwatch.LatestRow)) error {
	if f.stale {
		return ErrStale
	}
	for _, r := range f.rows {
		fn(r)
	}
	return nil
}

func (f *fakeFleet) Vessels(context.Context, VesselFilter) ([]VesselRow, error) { return f.reg, nil }

func (f *fakeFleet) VesselRisks(context.Context, VesselRisksRequest) ([]risk.VesselScore, error) {
	return f.scores, nil
}

// fleetIMO is the i-th IMO of the fake fleet: 900001x, 900002x, ... with
// their check digits.
func fleetIMO(i int) overwatch.IMO {
	first6 := uint32(900001 + i)
	return overwatch.IMO(first6*10 + overwatch.IMOCheckDigit(first6))
}

// newFakeFleet holds 30 vessels, fleetIMO(0..29) in reverse order: even ones
// cargo (ship type 70), odd ones tankers (80); every third scored high, the
// others low; the first five in the Santos port area, reported now, and
// vessel 28 reported ten days ago.
func newFakeFleet() *fakeFleet {
	f := &fakeFleet{}
	santos := mustPort("santos")
	for i := 29; i >= 0; i-- {
		imo := fleetIMO(i)
		lat, lon := -30.0+float64(i)*0.1, -40.0
		if i < 5 {
			lat, lon = santos.Area.Lat, santos.Area.Lon
		}
		ts := testNow.Add(-time.Hour)
		if i == 28 {
			ts = testNow.AddDate(0, 0, -10)
		}
		name := "V" + imo.String()
		f.rows = append(f.rows, overwatch.LatestRow{IMO: imo, TS: ts, MMSI: uint32(200000000 + i), VesselName: &name, Lat: &lat, Lon: &lon})
		ship := uint8(70 + 10*(i%2))
		f.reg = append(f.reg, VesselRow{IMO: imo, ShipType: ship})
		tier := risk.TierLow
		if i%3 == 0 {
			tier = risk.TierHigh
		}
		f.scores = append(f.scores, risk.VesselScore{IMO: imo, Score: float64(i), Tier: tier})
	}
	noPos := overwatch.IMO(9000500)
	f.rows = append(f.rows, overwatch.LatestRow{IMO: noPos, TS: testNow}) // no position: left out
	return f
}

func fleetGet(t *testing.T, f *fakeFleet, plan overwatch.Plan, query string) (int, string, FleetPage) {
	t.Helper()
	h := mount(t, func(r route.Router) { fleetRoutes(r, f, f, nil, fixedNow) }).get("/vessels/positions")
	status, body, _ := serve(t, plan, h, "/v1/vessels/positions?"+query)
	var page FleetPage
	if status == 200 {
		decode(t, body, &page)
	}
	return status, body, page
}

// The fleet view filters by type, tier and port, pages by IMO with a
// cursor, counts the whole selection, and hides coordinates from Free.
func TestFleetPositions(t *testing.T) {
	f := newFakeFleet()
	_, _, all := fleetGet(t, f, overwatch.PlanPro, "")
	if all.Total != 30 || len(all.Positions) != 30 || all.Pagination.HasMore {
		t.Fatalf("all: total %d, %d positions, %+v", all.Total, len(all.Positions), all.Pagination)
	}
	for i, p := range all.Positions {
		if i > 0 && p.IMONumber <= all.Positions[i-1].IMONumber {
			t.Fatalf("not ordered by IMO at %d: %s after %s", i, p.IMONumber, all.Positions[i-1].IMONumber)
		}
		if p.Latitude == nil || p.Longitude == nil || p.RiskTier == nil || p.Category == nil {
			t.Fatalf("%s: missing coordinates, tier or category: %+v", p.IMONumber, p)
		}
	}
	first := all.Positions[0]
	if first.IMONumber != fleetIMO(0).String() || *first.Category != "cargo" || *first.RiskTier != risk.TierHigh ||
		first.Port == nil || *first.Port != "santos" || *first.Name != "V"+fleetIMO(0).String() {
		t.Fatalf("first: %+v", first)
	}
	// Vessel 28 was reported 10 days ago: no port now, and beyond Free's 7 days.
	old := all.Positions[28]
	if old.IMONumber != fleetIMO(28).String() || old.Port != nil {
		t.Fatalf("old: %+v", old)
	}

	for q, want := range map[string]int{
		"type=cargo": 15, "type=tanker": 15, "tier=high": 10, "type=cargo&tier=high": 5,
		"port=santos": 5, "port=santos&type=tanker": 2, "port=rotterdam": 0, "type=fishing": 0,
	} {
		_, _, page := fleetGet(t, f, overwatch.PlanPro, q)
		if page.Total != want || len(page.Positions) != want {
			t.Errorf("%s: total %d, %d positions, want %d", q, page.Total, len(page.Positions), want)
		}
	}

	// Pages of 7 walk the fleet once.
	var seen []string
	cursor := ""
	for range 10 {
		_, _, page := fleetGet(t, f, overwatch.PlanPro, "limit=7"+cursor)
		for _, p := range page.Positions {
			seen = append(seen, p.IMONumber)
		}
		if page.Total != 30 {
			t.Fatalf("page total %d", page.Total)
		}
		if !page.Pagination.HasMore {
			if page.Pagination.NextCursor != nil {
				t.Fatal("next_cursor on the last page")
			}
			break
		}
		cursor = "&cursor=" + *page.Pagination.NextCursor
	}
	if len(seen) != 30 || seen[0] != fleetIMO(0).String() || seen[29] != fleetIMO(29).String() {
		t.Fatalf("paging saw %d vessels: %v", len(seen), seen)
	}

	// Free: at most 20, no coordinates, nothing older than 7 days.
	_, body, free := fleetGet(t, f, overwatch.PlanFree, "")
	if free.Total != 29 || len(free.Positions) != 20 || !free.Pagination.HasMore {
		t.Fatalf("free: total %d, %d positions, %+v", free.Total, len(free.Positions), free.Pagination)
	}
	if !strings.Contains(body, `"latitude":null`) || strings.Contains(body, `"latitude":-`) {
		t.Fatalf("free sees coordinates: %s", body[:200])
	}
	for _, p := range free.Positions {
		if p.Latitude != nil || p.Longitude != nil {
			t.Fatalf("free: %s has coordinates", p.IMONumber)
		}
	}
}

// Bad parameters are 400s naming them; a stale replica is an error, not
// an empty fleet.
func TestFleetPositionsErrors(t *testing.T) {
	f := newFakeFleet()
	h := mount(t, func(r route.Router) { fleetRoutes(r, f, f, nil, fixedNow) }).get("/vessels/positions")
	expectErrors(t, h, "/v1/vessels/positions", map[string]errCase{
		"type=boat":     {400, "type"},
		"tier=extreme":  {400, "tier"},
		"port=atlantis": {400, "unknown port"},
		"cursor=12":     {400, "cursor"},
		"limit=0":       {400, "limit"},
	})
	f.stale = true
	if status, body, _ := fleetGet(t, f, overwatch.PlanPro, ""); status != 500 {
		t.Fatalf("stale replica: %d %s", status, body)
	}
}
