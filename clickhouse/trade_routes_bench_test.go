package clickhouse_test

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"overwatch"

	"overwatch/clickhouse/chtest"
	"overwatch/jobs"
)

// BenchmarkTradeRoutesJob measures the trade-routes job on two years of
// port calls of 800 vessels (about 60,000 calls, laden voyages from the
// grain, coal and ore export ports to the import ports and back in
// ballast): the first run (every week) and a daily incremental run. The
// positions' destination history is not part of it (docs/trade-routes.md
// gives its cost).
func BenchmarkTradeRoutesJob(b *testing.B) {
	db, fx := chtest.DB(b, "trade_routes_bench"), chtest.Open(b, chtest.URL(b, "trade_routes_bench"))
	ctx := context.Background()
	origins := []string{"santos", "paranagua", "new-orleans", "rosario", "vancouver", "newcastle", "port-hedland", "tubarao", "odesa", "constanta"}
	dests := []string{"qingdao", "rizhao", "dalian", "tianjin", "chiba", "alexandria", "jakarta", "mundra", "busan", "rotterdam"}
	start := time.Date(2024, 11, 4, 0, 0, 0, 0, time.UTC)
	end := start.AddDate(2, 0, 0)
	rng := rand.New(rand.NewPCG(1, 2))
	var calls []chtest.PortCall
	days := map[time.Time]bool{}
	add := func(c chtest.PortCall) {
		calls = append(calls, c)
		days[c.Arrival.Truncate(24*time.Hour)] = true
	}
	hours := func(t time.Time, h float64) *time.Time {
		v := t.Add(time.Duration(h * float64(time.Hour)))
		return &v
	}
	for v := 0; v < 800; v++ {
		imo := overwatch.IMO(9300000 + v)
		t := start.Add(time.Duration(rng.IntN(40*24)) * time.Hour)
		for t.Before(end) {
			o, d := origins[rng.IntN(len(origins))], dests[rng.IntN(len(dests))]
			dep := hours(t, 48)
			add(chtest.PortCall{IMO: imo, Port: o, Arrival: t, Departure: dep, BerthZone: o + "-berth-1", Confidence: 4, Operation: "load",
				CargoTonnes: 40000 + float64(rng.IntN(30000)), ShipType: 70, Name: "BENCH"})
			arr := dep.Add(time.Duration(15+rng.IntN(25)) * 24 * time.Hour)
			add(chtest.PortCall{IMO: imo, Port: d, Arrival: arr, Departure: hours(arr, 60), Confidence: 4, Operation: "discharge",
				Declared: strings.ToUpper(d), DeclaredPort: d, ShipType: 70, Name: "BENCH"})
			t = arr.Add(time.Duration(15+rng.IntN(20)) * 24 * time.Hour)
		}
	}
	gen := uint64(time.Now().UnixNano())
	for i := 0; i < len(calls); i += 20000 {
		fx.InsertPortCalls(b, gen, calls[i:min(i+20000, len(calls))]...)
	}
	for d := range days {
		fx.RecordGeneration(b, "port_calls", d, gen)
	}
	b.Logf("%d port calls", len(calls))
	run := jobs.TradeRoutes(db)
	b.Run("full", func(b *testing.B) {
		for b.Loop() {
			res, err := run(ctx, jobs.State{})
			if err != nil || res.Rows == 0 {
				b.Fatal(res, err)
			}
		}
	})
	_, last, err := db.CallSpan(ctx)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("daily", func(b *testing.B) {
		for b.Loop() {
			if _, err := run(ctx, jobs.State{Watermark: last.Add(-24 * time.Hour), LastSuccess: time.Now()}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
