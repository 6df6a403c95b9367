package clickhouse_test

import (
	"context"
	"math"
	"testing"
	"time"

	"overwatch"
	"overwatch/clickhouse/chtest"
	"overwatch/jobs"
	"overwatch/maritime/forecast"
	"overwatch/read"
	"overwatch/testclock"
)

// The forecast and anomaly tables, written by their jobs from weekly
// estimates and port calls written as fixtures, and read back. The test
// has its own database: the jobs read every port.

// seasonalTonnes is week i of a seasonal export series with a trend and a
// small deterministic wobble.
func seasonalTonnes(i int) float64 {
	season := 30000 * math.Max(0, math.Sin(2*math.Pi*(float64(i%forecast.Season)-10)/forecast.Season))
	return 50000 + 100*float64(i) + season + 2000*math.Sin(float64(i)*2.3)
}

func mondayOfWeek(t time.Time) time.Time {
	d := t.UTC().Truncate(24 * time.Hour)
	return d.AddDate(0, 0, -((int(d.Weekday()) + 6) % 7))
}

func TestForecastAndAnomalyJobs(t *testing.T) {
	ctx := context.Background()
	db := chtest.DB(t, "forecasts")
	fx := chtest.Open(t, chtest.URL(t, "forecasts"))
	// The jobs run at noon on the Wednesday of the tests' week: the
	// pipeline's vessels have half a week to leave in, whatever the
	// weekday and hour the suite runs at (late on a Saturday their chance
	// of leaving within the week would be near 0).
	now := mondayOfWeek(testclock.Now()).Add(60 * time.Hour)
	clock := func() time.Time { return now }
	last := mondayOfWeek(now).AddDate(0, 0, -7) // the last complete week
	const n, drop, short = 110, 107, 30
	gen := uint64(time.Now().UnixNano())
	var rows [][]any
	week := func(i int) time.Time { return last.AddDate(0, 0, 7*(i-n+1)) }
	for i := 0; i <= n; i++ { // week n is the week in progress
		tonnes := seasonalTonnes(i)
		if i == drop {
			tonnes *= 0.3
		}
		y, w := week(i).ISOWeek()
		vessels := uint32(seasonalTonnes(i) / 5000) // a busy port, and one vessel in the week of the drop
		if i == drop {
			vessels = 1
		}
		rows = append(rows, []any{week(i), gen, "santos", uint16(y), uint8(w), vessels, uint32(3), uint32(3), tonnes, 0.9})
		if i >= n-short {
			rows = append(rows, []any{week(i), gen, "paranagua", uint16(y), uint8(w), uint32(1), uint32(1), uint32(1), 20000.0, 0.9})
		}
	}
	fx.Insert(t, "estimates_weekly", []string{"day", "gen", "port", "iso_year", "iso_week", "vessels", "calls", "calls_with_draught", "tonnage", "confidence"}, rows...)
	for i := 0; i <= n; i++ {
		fx.RecordGeneration(t, "estimates_weekly", week(i), gen)
	}
	// The pipeline at Santos: two calls in progress that are not
	// discharging, one discharging, and a vessel 150 km out declaring it.
	h := func(hours int) time.Time { return now.Add(time.Duration(hours) * time.Hour).Truncate(time.Second) }
	fx.InsertPortCalls(t, gen,
		chtest.PortCall{IMO: 9100001, Port: "santos", Arrival: h(-10), Confidence: 3, Operation: "load"},
		chtest.PortCall{IMO: 9100002, Port: "santos", Arrival: h(-5), Confidence: 3, Operation: "unknown"},
		chtest.PortCall{IMO: 9100003, Port: "santos", Arrival: h(-5), Confidence: 3, Operation: "discharge"})
	for _, d := range []time.Time{h(-10), h(-5)} {
		fx.RecordGeneration(t, "port_calls", d, gen)
	}
	lat, lon, speed, dest := -24.5, -45.5, 12.0, "SANTOS BR"
	if err := db.InsertLatest(ctx, []overwatch.LatestRow{{IMO: 9100004, Source: overwatch.SourceAISHub, TS: h(-1), MMSI: 1, Lat: &lat, Lon: &lon,
		SpeedKt: &speed, Destination: &dest, ReceivedAt: h(-1)}}); err != nil {
		t.Fatal(err)
	}

	weeks, err := db.ExportWeeks(ctx)
	if err != nil || len(weeks["santos"]) != n+1 || len(weeks["paranagua"]) != short+1 {
		t.Fatalf("export weeks: %d santos, %d paranagua, %v", len(weeks["santos"]), len(weeks["paranagua"]), err)
	}
	runJobs := func() {
		t.Helper()
		for _, run := range []jobs.Run{jobs.Forecasts(db, clock), jobs.Anomalies(db, clock)} {
			if _, err := run(ctx, jobs.State{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	runJobs()
	runJobs()                                       // a second run replaces the first
	if _, err := db.CleanDerived(ctx); err != nil { // the cleanup knows the new tables
		t.Fatal(err)
	}

	fc, err := db.Forecasts(ctx, read.ForecastsRequest{Port: "santos", Limit: 200})
	if err != nil || len(fc) != 1+2*forecast.Horizons {
		t.Fatalf("forecasts: %d, %v", len(fc), err)
	}
	if p := fc[0]; p.Method != forecast.MethodPipeline || p.Vessels != 3 || p.Horizon != 1 || !p.Origin.Equal(last) ||
		!p.Week.Equal(last.AddDate(0, 0, 7)) || !(p.Tonnes > 0 && p.Lower < p.Tonnes && p.Upper > p.Tonnes) {
		t.Errorf("pipeline: %+v", p)
	}
	if s := fc[1]; s.Method != forecast.MethodStatistical || s.Model != forecast.ModelHoltWinters || s.HistoryWeeks != n || s.Horizon != 1 {
		t.Errorf("statistical: %+v", s)
	}
	if s := fc[1+forecast.Horizons]; s.Method != forecast.MethodML || s.Model != forecast.ModelRidge {
		t.Errorf("ml: %+v", s)
	}
	ml, _ := db.Forecasts(ctx, read.ForecastsRequest{Port: "santos", Method: forecast.MethodML, Limit: 5})
	if len(ml) != 5 || ml[4].Horizon != 5 {
		t.Errorf("ml, limit 5: %+v", ml)
	}

	acc, err := db.ForecastAccuracy(ctx, read.AccuracyRequest{Port: "santos", Limit: 100})
	if err != nil || len(acc) != 2*forecast.BacktestHorizons {
		t.Fatalf("accuracy: %+v, %v", acc, err)
	}
	for _, a := range acc {
		if a.Forecasts == 0 || !(a.BaselineMAE > 0) || math.IsNaN(a.MAPE) || a.BeatsBaseline != (a.MAPE < a.BaselineMAPE) {
			t.Errorf("accuracy: %+v", a)
		}
	}
	if acc[0].Method != forecast.MethodStatistical || acc[0].Forecasts != n-forecast.MinHoltWintersWeeks {
		t.Errorf("first accuracy row: %+v", acc[0])
	}

	an, err := db.Anomalies(ctx, read.AnomaliesRequest{Port: "santos", From: week(drop), Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	types := map[string]forecast.Anomaly{}
	for _, a := range an {
		if a.Week.Equal(week(drop)) {
			types[a.Type] = a
		}
	}
	for _, typ := range forecast.Types {
		if a, ok := types[typ]; !ok || a.Direction != "drop" || a.Severity == forecast.SeverityModerate || math.Abs(a.Observed-seasonalTonnes(drop)*0.3) > 1e-6 {
			t.Errorf("%s at the drop: %+v", typ, a)
		}
	}
	if a := types[forecast.TypeYoY]; !math.IsNaN(a.Z) || !math.IsNaN(a.Lower) || math.Abs(a.Expected-seasonalTonnes(drop-forecast.Season)) > 1e-6 {
		t.Errorf("yoy: %+v", a)
	}
	crit, _ := db.Anomalies(ctx, read.AnomaliesRequest{Type: forecast.TypeTrailing, Severity: types[forecast.TypeTrailing].Severity, From: week(drop), Limit: 10})
	if len(crit) != 1 || crit[0].Port != "santos" {
		t.Errorf("trailing of that severity: %+v", crit)
	}
	if later, _ := db.Anomalies(ctx, read.AnomaliesRequest{Port: "santos", From: week(drop + 1), Limit: 100}); len(later) >= len(an) {
		t.Errorf("from the week after the drop: %d anomalies, from the drop %d", len(later), len(an))
	}

	mat, err := db.AnomalyMaturity(ctx, 10)
	if err != nil || len(mat) != 2 || mat[0].Port != "paranagua" || mat[1].Port != "santos" {
		t.Fatalf("maturity: %+v, %v", mat, err)
	}
	p := mat[0]
	if p.Weeks != short || !p.Last.Equal(last) || len(p.Anomalies) != 4 || len(p.Forecasts) != 4 || !p.Anomalies[0].Ready ||
		p.Anomalies[1].Name != forecast.TypeYoY || p.Anomalies[1].Ready || p.Anomalies[1].Missing != forecast.Season+1-short ||
		p.Forecasts[1].Name != forecast.MethodStatistical || p.Forecasts[1].Model != forecast.ModelHoltLinear {
		t.Errorf("paranagua maturity: %+v", p)
	}
	for _, r := range append(mat[1].Anomalies, mat[1].Forecasts...) {
		if !r.Ready || r.Missing != 0 {
			t.Errorf("santos maturity: %+v", r)
		}
	}
	if one, _ := db.AnomalyMaturity(ctx, 1); len(one) != 1 {
		t.Errorf("maturity, limit 1: %d ports", len(one))
	}
}
