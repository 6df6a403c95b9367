package clickhouse_test

import (
	"context"
	"math"
	"testing"
	"time"

	"overwatch"
	"overwatch/clickhouse/chtest"
	"overwatch/jobs"
	"overwatch/maritime/vessel"
)

// The predictions' track read against the real server: the same fixes,
// time, position and speed, as the grouped read of the other jobs (one
// per vessel and second: two providers' copies of a fix are one fix), in
// the same order, [from, to) only, for the vessels asked or all.
func TestPredictionTracksMatchTracks(t *testing.T) {
	t.Parallel()
	db, fx := chtest.DB(t, "prediction_tracks"), chtest.Open(t, chtest.URL(t, "prediction_tracks"))
	ctx := context.Background()
	base := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)
	cols := []string{"imo", "mmsi", "source", "ts", "lat", "lon", "speed_kt", "nav_status", "destination", "msg_type", "received_at", "dedup_key"}
	var rows [][]any
	key := uint64(0)
	add := func(imo uint32, source string, ts time.Time, lat, lon float64, sog *float32) {
		key++
		rows = append(rows, []any{imo, uint32(244000000 + imo%1000), source, ts, lat, lon, sog, uint8(0), "ROTTERDAM", uint8(1), ts, key})
	}
	sog := func(v float32) *float32 { return &v }
	for i := 0; i < 30; i++ { // written newest first
		at := base.Add(time.Duration(29-i) * 10 * time.Minute)
		add(9811001, "aishub", at, 51.0+float64(i)/100, 3.0, sog(12.5))
		if i%3 == 0 { // the same fix from another provider
			add(9811001, "spire", at, 51.0+float64(i)/100, 3.0, sog(12.5))
		}
		add(9811002, "spire", at.Add(time.Minute), -20.0, 57.5, nil) // no speed
	}
	add(0, "aishub", base, 1, 1, sog(1))                          // no IMO: never read
	add(9811003, "aishub", base.Add(-time.Hour), 10, 10, sog(9))  // before the window
	add(9811003, "aishub", base.Add(5*time.Hour), 10, 10, sog(9)) // at its end: excluded
	fx.Insert(t, "positions", cols, rows...)

	from, to := base, base.Add(5*time.Hour)
	read := func(f func(fn func(overwatch.IMO, []vessel.TrackPoint) error) error) map[overwatch.IMO][]vessel.TrackPoint {
		t.Helper()
		out := map[overwatch.IMO][]vessel.TrackPoint{}
		var order []overwatch.IMO
		if err := f(func(imo overwatch.IMO, track []vessel.TrackPoint) error {
			for _, p := range track {
				// what the predictor reads: time, position, speed (NaN: none)
				out[imo] = append(out[imo], vessel.TrackPoint{TS: p.TS, Lat: p.Lat, Lon: p.Lon, SOG: p.SOG})
			}
			order = append(order, imo)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		for i := 1; i < len(order); i++ {
			if order[i] <= order[i-1] {
				t.Fatalf("vessels out of order or repeated: %v", order)
			}
		}
		return out
	}
	got := read(func(fn func(overwatch.IMO, []vessel.TrackPoint) error) error {
		return db.PredictionTracks(ctx, from, to, nil, fn)
	})
	want := read(func(fn func(overwatch.IMO, []vessel.TrackPoint) error) error {
		return db.Tracks(ctx, from, to.Add(-time.Second), jobs.TrackFilter{}, fn)
	})
	if len(got[9811001]) != 30 || len(got[9811002]) != 30 || got[9811003] != nil || got[0] != nil {
		t.Fatalf("fixes per vessel: %d %d %d %d", len(got[9811001]), len(got[9811002]), len(got[9811003]), len(got[0]))
	}
	if !math.IsNaN(got[9811002][0].SOG) || got[9811001][0].SOG != 12.5 || !got[9811001][0].TS.Equal(base) {
		t.Fatalf("first fixes %+v %+v", got[9811001][0], got[9811002][0])
	}
	for imo, track := range want {
		for i := range track {
			w, g := track[i], got[imo][i]
			if !w.TS.Equal(g.TS) || w.Lat != g.Lat || w.Lon != g.Lon || (w.SOG != g.SOG && !(math.IsNaN(w.SOG) && math.IsNaN(g.SOG))) {
				t.Fatalf("%s fix %d: %+v, the grouped read %+v", imo, i, g, w)
			}
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d vessels, the grouped read %d", len(got), len(want))
	}
	only := read(func(fn func(overwatch.IMO, []vessel.TrackPoint) error) error {
		return db.PredictionTracks(ctx, from, to, []overwatch.IMO{9811002}, fn)
	})
	if len(only) != 1 || len(only[9811002]) != 30 {
		t.Fatalf("only one vessel: %d vessels", len(only))
	}
	if err := db.PredictionTracks(ctx, from, to, []overwatch.IMO{}, func(overwatch.IMO, []vessel.TrackPoint) error {
		t.Fatal("a track for no vessel asked")
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}
