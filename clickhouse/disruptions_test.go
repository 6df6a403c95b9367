package clickhouse_test

import (
	"context"
	"math"
	"testing"
	"time"

	"overwatch/clickhouse/chtest"
	"overwatch/jobs"
	"overwatch/maritime/chokepoint"
	"overwatch/read"
	"overwatch/testclock"
)

// The disruption store against the real server: the chokepoints job
// counting transits from stored positions (a re-run replacing its days),
// a traffic fall through Suez giving transit_drop signals stored once per
// URL, news signals stored once per URL with the newest fetch winning,
// and the reads with their time and case-insensitive title filters.
func TestDisruptionStore(t *testing.T) {
	t.Parallel()
	db, fx := chtest.DB(t, "disruptions"), chtest.Open(t, chtest.URL(t, "disruptions"))
	ctx := context.Background()
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	// 60 days; vessels cross the Suez gate northbound: 8 a day for 45
	// days, then 1 a day. Each vessel crosses once (a new IMO per crossing).
	var rows [][]any
	imo := uint32(9300000)
	for d := 0; d < 60; d++ {
		n := 8
		if d >= 45 {
			n = 1
		}
		for k := 0; k < n; k++ {
			imo++
			at := base.AddDate(0, 0, d).Add(time.Duration(k+1) * time.Hour)
			rows = append(rows, []any{imo, at, 30.3, 32.33, "", uint64(imo) * 2}, []any{imo, at.Add(2 * time.Hour), 30.9, 32.33, "", uint64(imo)*2 + 1})
		}
	}
	// A tail position so that the data runs to the end of day 59.
	rows = append(rows, []any{uint32(9399999), base.AddDate(0, 0, 60).Add(time.Hour), 0.0, 0.0, "", uint64(1)})
	fx.Insert(t, "positions", []string{"imo", "ts", "lat", "lon", "destination", "dedup_key"}, rows...)

	run := jobs.Chokepoints(db)
	res, err := run(ctx, jobs.State{})
	if err != nil {
		t.Fatal(err)
	}
	counts, err := db.ChokepointTransits(ctx, base, base.AddDate(0, 0, 60))
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, c := range counts {
		if c.Chokepoint != chokepoint.Suez || c.VesselType != "other" {
			t.Errorf("count %+v", c)
		}
		total += c.Transits
	}
	if total != 45*8+15 {
		t.Errorf("%d transits, want %d", total, 45*8+15)
	}
	// A re-run from its watermark rewrites its days: the same counts.
	if _, err := run(ctx, jobs.State{Watermark: res.Watermark}); err != nil {
		t.Fatal(err)
	}
	again, _ := db.ChokepointTransits(ctx, base, base.AddDate(0, 0, 60))
	if len(again) != len(counts) {
		t.Errorf("re-run: %d rows, was %d", len(again), len(counts))
	}
	sig, err := db.Disruptions(ctx, read.DisruptionRequest{Since: base, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	drops := map[string]bool{}
	for _, s := range sig {
		if s.Kind != chokepoint.KindTransitDrop || s.Chokepoint != chokepoint.Suez || s.Source != chokepoint.SourceAIS || !math.IsNaN(s.Tone) {
			t.Errorf("signal %+v", s)
		}
		if drops[s.URL] {
			t.Errorf("URL %s twice", s.URL)
		}
		drops[s.URL] = true
	}
	if len(drops) < 5 {
		t.Errorf("%d transit_drop signals", len(drops))
	}

	// News: stored once per URL, the newest fetch wins.
	news := func(title string, hoursAgo int) chokepoint.Disruption {
		return chokepoint.Disruption{Kind: chokepoint.KindNews, Source: chokepoint.SourceGDELT, Title: title, URL: "https://example.com/a",
			SourceName: "example.com", PublishedAt: testclock.Now().UTC().Add(-time.Duration(hoursAgo) * time.Hour).Truncate(time.Second),
			Tone: math.NaN(), Port: "santos", Language: "English", Country: "Brazil"}
	}
	if err := db.InsertDisruptions(ctx, []chokepoint.Disruption{news("Strike at the port of Santos", 3)}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1100 * time.Millisecond) // fetched_at has second resolution
	if err := db.InsertDisruptions(ctx, []chokepoint.Disruption{news("Strike at the PORT of Santos ends", 2)}); err != nil {
		t.Fatal(err)
	}
	got, err := db.Disruptions(ctx, read.DisruptionRequest{Since: testclock.Now().Add(-24 * time.Hour), Query: "port OF santos", Limit: 10})
	if err != nil || len(got) != 1 || got[0].Title != "Strike at the PORT of Santos ends" || got[0].Port != "santos" {
		t.Fatalf("news %+v %v", got, err)
	}
	if got, _ := db.Disruptions(ctx, read.DisruptionRequest{Since: testclock.Now().Add(-time.Hour), Limit: 10}); len(got) != 0 {
		t.Errorf("older than the window: %+v", got)
	}
	src, err := db.DisruptionSources(ctx)
	if err != nil || src.NewsSignals != 1 || src.NewsFetched.IsZero() || !src.TransitsNewest.Equal(base.AddDate(0, 0, 60)) {
		t.Errorf("sources %+v %v", src, err)
	}
}
