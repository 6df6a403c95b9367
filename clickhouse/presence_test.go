package clickhouse_test

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"sort"
	"testing"
	"time"

	"overwatch"
	"overwatch/clickhouse/chtest"
	"overwatch/jobs"
	"overwatch/maritime/geo"
	"overwatch/read"
)

// presenceFix is a stored position of the presence test.
type presenceFix struct {
	imo      uint32
	ts       time.Time
	lat, lon float64
	key      uint64
}

// The area presence read from the summary equals the fixes themselves:
// the positions summarised by the presence job are then deleted from
// positions (only the fixes after the summary's reach are left there), so
// every answer of the summarised time comes from the summary, and each is
// compared with the presence computed in Go from the fixes written, for
// boxes with whole and fractional edges, boxes across the antimeridian,
// polygons, and ranges that start and end inside hours and after the
// summary's reach. Fixes lie on cell edges (whole degrees) and some are
// stored twice (a retried write, counted once).
func TestAreaPresenceFromTheSummary(t *testing.T) {
	db := chtest.DB(t, "presence")
	fx := chtest.Open(t, chtest.URL(t, "presence"))
	ctx := context.Background()
	rng := rand.New(rand.NewSource(7))
	t0 := time.Date(2026, 3, 1, 21, 17, 0, 0, time.UTC)

	var fixes []presenceFix
	add := func(imo uint32, ts time.Time, lat, lon float64) {
		fixes = append(fixes, presenceFix{imo, ts, lat, lon, uint64(len(fixes)) + 1})
	}
	// 30 vessels over 52 hours, a fix every 2–9 minutes, walking around
	// 51°N 1°E (cells 49–53°N, -1–3°E) and across the antimeridian.
	for v := uint32(0); v < 30; v++ {
		imo := uint32(overwatch.IMO(9000007 + v*10))
		lat, lon := 49+4*rng.Float64(), -1+4*rng.Float64()
		if v%3 == 0 {
			lat, lon = -10+rng.Float64(), 179+2*rng.Float64()
		}
		for ts := t0.Add(time.Duration(rng.Intn(600)) * time.Second); ts.Before(t0.Add(52 * time.Hour)); ts = ts.Add(time.Duration(120+rng.Intn(420)) * time.Second) {
			lat += (rng.Float64() - 0.5) * 0.2
			lon += (rng.Float64() - 0.5) * 0.3
			if rng.Intn(10) == 0 { // on a cell's edge
				lat = math.Round(lat)
			}
			if rng.Intn(10) == 0 {
				lon = math.Round(lon)
			}
			lon = wrapLon(lon)
			add(imo, ts, lat, lon)
		}
	}
	add(0, t0.Add(time.Hour), 51.5, 1.5) // no IMO: never present
	rows := func(fs []presenceFix) [][]any {
		var out [][]any
		for _, f := range fs {
			out = append(out, []any{f.imo, f.imo, f.ts, f.lat, f.lon, f.key, f.ts})
		}
		return out
	}
	columns := []string{"imo", "mmsi", "ts", "lat", "lon", "dedup_key", "received_at"}
	fx.Insert(t, "positions", columns, rows(fixes)...)
	fx.Insert(t, "positions", columns, rows(fixes[:200])...) // a retried write, not yet merged

	if _, err := jobs.Presence(db)(ctx, jobs.State{}); err != nil {
		t.Fatal(err)
	}
	var through time.Time
	fx.QueryRow(t, "SELECT max(through) FROM presence_days").Scan(&through) //nolint:errcheck
	last := fixes[0].ts
	for _, f := range fixes {
		if f.ts.After(last) {
			last = f.ts
		}
	}
	if !through.Equal(last.Add(time.Second)) {
		t.Fatalf("the summary reaches %v, the newest fix is at %v", through, last)
	}
	// Only fixes after the summary's reach stay in positions.
	fx.Exec(t, "TRUNCATE TABLE positions")
	var after []presenceFix
	for v := uint32(0); v < 30; v += 2 {
		imo := uint32(overwatch.IMO(9000007 + v*10))
		for i := 0; i < 5; i++ {
			after = append(after, presenceFix{imo, last.Add(time.Duration(60+i*97) * time.Second), 50 + float64(v)*0.1, 0.5 + float64(i)*0.3, uint64(900000 + int(v)*10 + i)})
		}
	}
	fx.Insert(t, "positions", columns, rows(after)...)
	fixes = append(fixes, after...)

	type query struct {
		name string
		f    read.PositionFilter
	}
	box := func(w, s, e, n float64) *geo.BBox { return &geo.BBox{West: w, South: s, East: e, North: n} }
	at := func(h, m, s int) time.Time {
		return t0.Add(time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(s)*time.Second)
	}
	queries := []query{
		{"whole degrees, a day from inside an hour", read.PositionFilter{BBox: box(0, 50, 2, 52), Start: at(3, 12, 5), End: at(27, 12, 5)}},
		{"fractional edges", read.PositionFilter{BBox: box(-0.37, 49.61, 2.44, 52.3), Start: at(0, 0, 0), End: at(52, 0, 0)}},
		{"a box inside one cell", read.PositionFilter{BBox: box(0.2, 50.2, 0.9, 50.8), Start: at(1, 30, 0), End: at(40, 0, 0)}},
		{"the world, past the reach", read.PositionFilter{BBox: box(-180, -90, 180, 90), Start: at(-1, 0, 0), End: last.Add(time.Hour)}},
		{"across the antimeridian", read.PositionFilter{BBox: box(179.5, -11, -179.2, -8.5), Start: at(2, 0, 0), End: at(30, 0, 0)}},
		{"within one hour", read.PositionFilter{BBox: box(-2, 48, 4, 54), Start: at(5, 10, 0), End: at(5, 50, 0)}},
		{"a polygon", read.PositionFilter{Polygon: geo.Polygon{{{-1.03, 49.02}, {3.5, 49.5}, {1.01, 53.2}, {-1.03, 49.02}}}, Start: at(0, 30, 0), End: at(45, 0, 0)}},
		{"a polygon with a hole", read.PositionFilter{Polygon: geo.Polygon{{{-1.5, 48.5}, {3.5, 48.5}, {3.5, 53.5}, {-1.5, 53.5}, {-1.5, 48.5}},
			{{0.02, 50.03}, {2.01, 50.03}, {2.01, 52.04}, {0.02, 52.04}, {0.02, 50.03}}}, Start: at(6, 0, 1), End: at(48, 59, 59)}},
		{"two vessels", read.PositionFilter{IMOs: []overwatch.IMO{overwatch.IMO(9000007 + 10), overwatch.IMO(9000007 + 20)},
			BBox: box(-2, 48, 4, 54), Start: at(0, 0, 0), End: last.Add(time.Hour)}},
	}
	for i := 0; i < 16; i++ { // random boxes and ranges around a fix
		x := fixes[rng.Intn(len(fixes))]
		for x.imo == 0 {
			x = fixes[rng.Intn(len(fixes))]
		}
		w, s := wrapLon(x.lon-2*rng.Float64()), x.lat-2*rng.Float64()
		from := x.ts.Add(-time.Duration(rng.Intn(20*3600)) * time.Second)
		queries = append(queries, query{fmt.Sprintf("random %d", i), read.PositionFilter{BBox: box(w, s, wrapLon(x.lon+2*rng.Float64()), x.lat+2*rng.Float64()),
			Start: from, End: x.ts.Add(time.Duration(rng.Intn(20*3600)) * time.Second)}})
	}
	for _, q := range queries {
		got, err := db.AreaPresence(ctx, q.f)
		if err != nil {
			t.Fatalf("%s: %v", q.name, err)
		}
		want := presenceOf(fixes, q.f)
		if len(want) == 0 {
			t.Fatalf("%s: the query holds no fix: a test that cannot fail", q.name)
		}
		if len(got) != len(want) {
			t.Errorf("%s: %d vessels, the fixes hold %d", q.name, len(got), len(want))
			continue
		}
		for i := range want {
			g, w := got[i], want[i]
			if g.IMO != w.IMO || g.Fixes != w.Fixes || !g.First.TS.Equal(w.First.TS) || !g.Last.TS.Equal(w.Last.TS) ||
				g.First.Lat != w.First.Lat || g.First.Lon != w.First.Lon || g.Last.Lat != w.Last.Lat || g.Last.Lon != w.Last.Lon {
				t.Errorf("%s: vessel %d: %+v, the fixes say %+v", q.name, i, g, w)
			}
		}
	}
}

// presenceOf is the area presence computed from the fixes themselves.
func presenceOf(fixes []presenceFix, f read.PositionFilter) []read.AreaPresence {
	only := map[overwatch.IMO]bool{}
	for _, imo := range f.IMOs {
		only[imo] = true
	}
	by := map[overwatch.IMO]*read.AreaPresence{}
	for _, x := range fixes {
		imo := overwatch.IMO(x.imo)
		if x.imo == 0 || x.ts.Before(f.Start) || x.ts.After(f.End) || !f.InArea(x.lat, x.lon) || (len(only) > 0 && !only[imo]) {
			continue
		}
		p := by[imo]
		if p == nil {
			p = &read.AreaPresence{IMO: imo, First: read.AreaFix{TS: x.ts, Lat: x.lat, Lon: x.lon}, Last: read.AreaFix{TS: x.ts, Lat: x.lat, Lon: x.lon}}
			by[imo] = p
		}
		p.Fixes++
		if x.ts.Before(p.First.TS) {
			p.First = read.AreaFix{TS: x.ts, Lat: x.lat, Lon: x.lon}
		}
		if x.ts.After(p.Last.TS) {
			p.Last = read.AreaFix{TS: x.ts, Lat: x.lat, Lon: x.lon}
		}
	}
	out := make([]read.AreaPresence, 0, len(by))
	for _, p := range by {
		out = append(out, *p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].IMO < out[j].IMO })
	return out
}

func wrapLon(lon float64) float64 {
	for lon > 180 {
		lon -= 360
	}
	for lon < -180 {
		lon += 360
	}
	return lon
}

// A first run over more history than its budget allows stops after a
// chunk of days and the next runs go on from the first day not written,
// until the summary reaches the newest fix: here one day a run.
func TestPresenceRunsWithinTheirBudget(t *testing.T) {
	db := chtest.DB(t, "presence_chunks")
	fx := chtest.Open(t, chtest.URL(t, "presence_chunks"))
	ctx := context.Background()
	chunk, budget := jobs.PresenceChunkDays, jobs.PresenceRunBudget
	jobs.PresenceChunkDays, jobs.PresenceRunBudget = 1, 0
	t.Cleanup(func() { jobs.PresenceChunkDays, jobs.PresenceRunBudget = chunk, budget })
	t0 := time.Date(2026, 5, 10, 6, 0, 0, 0, time.UTC)
	var rows [][]any
	for i := 0; i < 4*24; i++ { // a fix an hour for four days
		ts := t0.Add(time.Duration(i) * time.Hour)
		rows = append(rows, []any{uint32(9074729), uint32(244000001), ts, 51.9, 4.1 + float64(i)*0.001, uint64(i + 1), ts})
	}
	fx.Insert(t, "positions", []string{"imo", "mmsi", "ts", "lat", "lon", "dedup_key", "received_at"}, rows...)
	last := t0.Add(95 * time.Hour)
	run := jobs.Presence(db)
	var prev jobs.State
	for n := 1; ; n++ {
		res, err := run(ctx, prev)
		if err != nil {
			t.Fatal(err)
		}
		var days uint64
		var reach time.Time
		fx.QueryRow(t, "SELECT uniqExact(day), max(through) FROM presence_days").Scan(&days, &reach) //nolint:errcheck
		if days != uint64(n) {
			t.Fatalf("after run %d: %d days summarised", n, days)
		}
		if res.Detail["stopped_at_budget"] == nil {
			if n != 5 || !reach.Equal(last.Add(time.Second)) { // 06:00 of the first day to 05:00 of the fifth
				t.Fatalf("run %d completed the summary reaching %v, the newest fix is at %v", n, reach, last)
			}
			break
		}
		if n == 5 {
			t.Fatal("five runs and the summary is not complete")
		}
		prev = jobs.State{Watermark: res.Watermark, LastSuccess: last} // nothing stored since (the change log is empty)
	}
	got, err := db.AreaPresence(ctx, read.PositionFilter{BBox: &geo.BBox{West: 3, South: 51, East: 5, North: 52}, Start: t0, End: last})
	if err != nil || len(got) != 1 || got[0].Fixes != 96 {
		t.Fatalf("%+v %v", got, err)
	}
}
