package clickhouse_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"overwatch/clickhouse/chtest"
	"overwatch/maritime/calibration"
)

// The calibration store on its own database: actuals (with their
// publication date) joined to the current estimates by port and week, a
// generation of factors written and read back, a later generation
// replacing it whole.
func TestCalibrationStore(t *testing.T) {
	db := chtest.DB(t, "calibration")
	fx := chtest.Open(t, chtest.URL(t, "calibration"))
	ctx := context.Background()
	w1 := time.Date(2026, 4, 27, 0, 0, 0, 0, time.UTC)
	w2 := w1.AddDate(0, 0, 7)
	published := time.Date(2026, 5, 4, 0, 0, 0, 0, time.UTC)
	err := db.InsertActuals(ctx, []calibration.Actual{
		{Port: "new-orleans", Week: w1, Commodity: "corn", Tonnes: 750_560, Source: "USDA", Published: published},
		{Port: "new-orleans", Week: w1, Commodity: "wheat", Tonnes: 112_377, Source: "USDA", Published: published},
		{Port: "new-orleans", Week: w2, Commodity: "corn", Tonnes: 500_000, Source: "csv"},
		{Port: "seattle", Week: w2.AddDate(0, 0, 7), Commodity: "corn", Tonnes: 1, Source: "csv"}, // no estimate that week
	})
	if err != nil {
		t.Fatal(err)
	}
	var pub time.Time
	if err := fx.QueryRow(t, `SELECT max(published) FROM export_actuals FINAL WHERE port = 'new-orleans' AND day = toDate(?)`, w1.Format(time.DateOnly)).Scan(&pub); err != nil || !pub.Equal(published) {
		t.Errorf("published %v, %v", pub, err)
	}
	gen := uint64(time.Now().UnixNano())
	cols := strings.Split("day,gen,port,iso_year,iso_week,vessels,calls,calls_with_draught,tonnage,confidence", ",")
	fx.Insert(t, "estimates_weekly", cols,
		[]any{w1, gen, "new-orleans", uint16(2026), uint8(18), uint32(3), uint32(3), uint32(3), 800_000.0, 0.7},
		[]any{w2, gen, "new-orleans", uint16(2026), uint8(19), uint32(3), uint32(3), uint32(3), 450_000.0, 0.7})
	fx.RecordGeneration(t, "estimates_weekly", w1, gen)
	fx.RecordGeneration(t, "estimates_weekly", w2, gen)

	weeks, err := db.CalibrationWeeks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(weeks) != 2 || weeks[0].Port != "new-orleans" || !weeks[0].Week.Equal(w1) || weeks[0].Estimate != 800_000 ||
		weeks[0].Actuals["corn"] != 750_560 || weeks[0].Actuals["wheat"] != 112_377 || weeks[1].Actuals["corn"] != 500_000 {
		t.Fatalf("weeks %+v", weeks)
	}

	first := calibration.Fit(weeks, 2)
	if err := db.WriteCalibration(ctx, uint64(time.Now().UnixNano()), first); err != nil {
		t.Fatal(err)
	}
	got, at, err := db.SelfCalibration(ctx)
	if err != nil || len(got) != len(first) || at.IsZero() {
		t.Fatalf("read back %+v at %v: %v", got, at, err)
	}
	for i := range got {
		if got[i].Port != first[i].Port || got[i].Commodity != first[i].Commodity || got[i].Factor != first[i].Factor ||
			got[i].Weeks != first[i].Weeks || !got[i].From.Equal(first[i].From) || got[i].MAPEAfter != first[i].MAPEAfter {
			t.Errorf("factor %d: %+v, wrote %+v", i, got[i], first[i])
		}
	}
	// A new generation replaces the factors whole.
	if err := db.WriteCalibration(ctx, uint64(time.Now().UnixNano()), first[:1]); err != nil {
		t.Fatal(err)
	}
	if got, _, err = db.SelfCalibration(ctx); err != nil || len(got) != 1 {
		t.Errorf("after a second generation: %+v %v", got, err)
	}
}
