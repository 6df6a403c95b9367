package clickhouse_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/clickhouse/chtest"
	"overwatch/maritime/risk"
	"overwatch/maritime/sar"
	"overwatch/read"
)

// The batched query of a page of gaps against the real server: one query
// for several boxes returns the products of any of them (of any time),
// those within the page's span first, then the nearest in time, and none
// from elsewhere; the verification computed from them holds.
func TestSARGapProducts(t *testing.T) {
	db := chtest.DB(t, "sar_gaps")
	ctx := context.Background()
	from := time.Date(2025, 3, 10, 6, 0, 0, 0, time.UTC)
	to := from.Add(30 * time.Hour)
	rows := []sar.Product{
		sarProduct("IN_SPAN", 10, from.Add(5*time.Hour), 50, 0),
		sarProduct("AFTER", 11, to.Add(10*time.Hour), 50.5, 0.5),
		sarProduct("OLD", 12, from.Add(-30*sar.Cycle), 50, 0),
		sarProduct("SECOND_BOX", 13, to.Add(100*time.Hour), -20, 40),
		sarProduct("ELSEWHERE", 14, from, -30, 100),
	}
	if err := db.InsertSARProducts(ctx, rows); err != nil {
		t.Fatal(err)
	}
	q := read.SARGapQuery{Boxes: []read.SARBox{{MinLat: 49, MaxLat: 51, MinLon: -1, MaxLon: 1}, {MinLat: -21, MaxLat: -19, MinLon: 39, MaxLon: 41}},
		From: from, To: to}
	got, err := db.SARGapProducts(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range got {
		names = append(names, p.Name)
	}
	if fmt.Sprint(names) != "[IN_SPAN AFTER SECOND_BOX OLD]" {
		t.Fatalf("%v", names)
	}
	if p := got[0]; len(p.Footprint) != 5 || !p.Start.Equal(from.Add(5*time.Hour)) || p.RelativeOrbit != 10 || p.Platform != "S1A" {
		t.Fatalf("%+v", p)
	}
	if none, err := db.SARGapProducts(ctx, read.SARGapQuery{From: from, To: to}); err != nil || none != nil {
		t.Fatalf("no boxes: %v %v", none, err)
	}
	v := sar.VerifyGaps(got, []sar.Gap{{Points: []sar.Point{{Lat: 50.1, Lng: 0.1}}, From: from, To: to},
		{Points: []sar.Point{{Lat: -20, Lng: 40}}, From: from, To: to}, {Points: []sar.Point{{Lat: 0, Lng: 0}}, From: from, To: to}},
		sar.GapRadiusKm)
	if v[0] == nil || v[0].Hours != 0 || v[0].Potential != sar.High || v[1] == nil || v[1].Hours != 100 || v[1].Potential != sar.None ||
		v[2] != nil {
		t.Fatalf("%+v %+v %+v", v[0], v[1], v[2])
	}
}

// BenchmarkRiskEventsVerification times GET /v1/risk/events's handler for
// a page of 500 AIS gaps spread over 25 areas, the stored products read
// from the real server (2,000 products: 40 relative orbits over 50
// cycles, in the areas of the page), the events from memory: "none" stores
// nothing near the gaps (the cost of a page without coverage, close to the
// handler before verification), "uncached" reads and computes every
// time, "cached" answers from the read cache.
func BenchmarkRiskEventsVerification(b *testing.B) {
	db := chtest.DB(b, "sar_risk_bench")
	ctx := context.Background()
	start := time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)
	area := func(i int) (float64, float64) { return 20 + float64(i%5)*3, -60 + float64(i/5%5)*4 }
	var products []sar.Product
	for rel := 1; rel <= 40; rel++ {
		lat, lng := area(rel)
		for k := 0; k < 50; k++ {
			t := start.Add(time.Duration(k)*sar.Cycle + time.Duration(rel)*sar.Cycle/175)
			products = append(products, sarProduct(fmt.Sprintf("R%03d_%02d", rel, k), rel, t, lat, lng))
		}
	}
	if err := db.InsertSARProducts(ctx, products); err != nil {
		b.Fatal(err)
	}
	var rows []read.RiskEventRow
	for i := 0; i < 500; i++ {
		lat, lng := area(i)
		s := start.Add(time.Duration(i) * 7 * time.Hour)
		e := s.Add(20 * time.Hour)
		rows = append(rows, read.RiskEventRow{Type: risk.EventGap, Vessel: read.RiskVesselIdentity{IMO: 1234567}, Start: s, End: &e,
			Lat: lat + 0.1, Lon: lng + 0.1, EndLat: lat - 0.2, EndLon: lng + 0.3, HasPosition: true, HasEndPosition: true, Severity: "high", Detail: `{}`})
	}
	events := func(context.Context, read.RiskEventsRequest) ([]read.RiskEventRow, error) { return rows, nil }
	now := func() time.Time { return start.Add(200 * 24 * time.Hour) }
	for _, c := range []struct {
		name  string
		store read.SARGapStore
		cache bool
	}{{"none", emptySAR{}, false}, {"uncached", db, false}, {"cached", db, true}} {
		var cache *read.Cache
		if c.cache {
			cache = read.NewCache(db, read.CacheOptions{})
		}
		app := fiber.New()
		app.Use(func(f *fiber.Ctx) error {
			f.SetUserContext(overwatch.WithCaller(f.UserContext(), &overwatch.Caller{Plan: overwatch.PlanPro}))
			return f.Next()
		})
		app.Get("/risk/events", read.RiskEvents(events, read.VerifiedGaps(cache, c.store), now))
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				resp, err := app.Test(httptest.NewRequest("GET", "/risk/events?limit=500", nil), -1)
				if err != nil {
					b.Fatal(err)
				}
				body, _ := io.ReadAll(resp.Body)
				var out struct{ Events []read.RiskEvent }
				if resp.StatusCode != 200 || json.Unmarshal(body, &out) != nil || len(out.Events) != 500 {
					b.Fatalf("%d %.300s", resp.StatusCode, body)
				}
				if c.name != "none" && string(out.Events[0].Verification) == "null" {
					b.Fatalf("no verification: %.300s", body)
				}
			}
		})
	}
}

// emptySAR stores nothing.
type emptySAR struct{}

func (emptySAR) SARGapProducts(context.Context, read.SARGapQuery) ([]sar.Product, error) {
	return nil, nil
}
