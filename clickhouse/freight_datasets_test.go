package clickhouse_test

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"overwatch/clickhouse/chtest"
	"overwatch/read"
)

// The ocean rates of transport_rates: mode 'ocean' only, the newest fetch
// of an observation (FINAL), newest first, NaN kept for "not convertible",
// the limit applied. Values from the AgTransport files of
// ../shared/data/freight (ehs5-yac3 2026-07 Gulf→Japan 68.95, PNW→Japan
// 35.95; 2n8s-739j 2025Q4 Odesa→Alexandria wheat 25,000-30,000 t 20.43).
func TestOceanRates(t *testing.T) {
	db := chtest.DB(t, "freight")
	fx := chtest.Open(t, chtest.URL(t, "freight"))
	ctx := context.Background()
	cols := strings.Split("mode,dataset,source,commodity,region,origin,destination,vessel_size,date,frequency,rate,unit,usd_per_tonne,benchmark,published,fetched_at", ",")
	d := func(s string) time.Time { t, _ := time.Parse(time.DateOnly, s); return t }
	fetched := time.Date(2026, 8, 20, 0, 0, 0, 0, time.UTC)
	row := func(mode, dataset, commodity, origin, dest, size, date, freq string, rate, usd float64, at time.Time) []any {
		return []any{mode, dataset, "usda_agtransport", commodity, origin + " to " + dest, origin, dest, size, d(date), freq, rate,
			"usd_per_tonne", usd, 0.0, d("1970-01-01"), at}
	}
	fx.Insert(t, "transport_rates", cols,
		row("ocean", "ehs5-yac3", "grain", "U.S. Gulf", "Japan", "", "2026-07-01", "monthly", 60, 60, fetched), // replaced below
		row("ocean", "ehs5-yac3", "grain", "Pacific Northwest", "Japan", "", "2026-07-01", "monthly", 35.95, 35.95, fetched),
		row("ocean", "2n8s-739j", "wheat", "Odesa", "Alexandria,Egypt", "25,000-30,000", "2025-10-01", "quarterly", 20.43, 20.43, fetched),
		row("ocean", "ehs5-yac3", "grain", "", "", "", "2026-06-01", "monthly", 34.44, math.NaN(), fetched),
		row("barge", "7spn-fbua", "grain", "", "", "", "2026-08-18", "weekly", 20, 22, fetched))
	fx.Insert(t, "transport_rates", cols,
		row("ocean", "ehs5-yac3", "grain", "U.S. Gulf", "Japan", "", "2026-07-01", "monthly", 68.95, 68.95, fetched.Add(time.Hour)))

	got, err := db.OceanRates(ctx, read.OceanRateRequest{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 4 {
		t.Fatalf("%d rows: %+v", len(got), got)
	}
	if g := got[0]; g.Dataset != "ehs5-yac3" || g.Origin != "Pacific Northwest" || g.Rate != 35.95 || !g.Date.Equal(d("2026-07-01")) || g.Frequency != "monthly" {
		t.Errorf("first %+v", g)
	}
	if g := got[1]; g.Origin != "U.S. Gulf" || g.Rate != 68.95 || g.Destination != "Japan" {
		t.Errorf("the newest fetch %+v", g)
	}
	if g := got[2]; !math.IsNaN(g.USDPerTonne) || g.Origin != "" {
		t.Errorf("NaN row %+v", g)
	}
	if g := got[3]; g.Dataset != "2n8s-739j" || g.VesselSize != "25,000-30,000" || g.Commodity != "wheat" || g.Rate != 20.43 {
		t.Errorf("Black Sea %+v", g)
	}
	if got, _ := db.OceanRates(ctx, read.OceanRateRequest{Limit: 2}); len(got) != 2 {
		t.Errorf("limit 2: %d rows", len(got))
	}
}
