package clickhouse_test

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"testing"
	"time"

	"overwatch"

	"overwatch/clickhouse/chtest"
	"overwatch/jobs"
	"overwatch/maritime/emissions"
	"overwatch/maritime/portstats"
	"overwatch/maritime/voyage"
	"overwatch/read"
)

func voyageRecord(imo overwatch.IMO, dep, arr time.Time, from, to string) voyage.Record {
	in := emissions.VoyageInput{IMO: imo, Name: "V" + imo.String(), ShipType: 70, From: from, To: to, Departure: dep, Arrival: arr,
		DWT: 50000, TrackDistanceNM: 1000, TrackCoverage: 0.9, SeaLaneDistanceNM: 1050, CargoTonnes: 40000, CargoQuality: emissions.CargoHigh}
	return voyage.Record{ID: voyage.ID(imo, dep), Input: in, Result: emissions.ComputeVoyage(in)}
}

// The voyage_emissions table: written by generations per arrival day, read
// back newest arrival first with the filters, the input kept for
// recomputation and the factors with the result.
func TestVoyageEmissionsRoundTrip(t *testing.T) {
	ctx := context.Background()
	db := chtest.DB(t, "emissions")
	d1 := time.Date(2031, 4, 10, 0, 0, 0, 0, time.UTC) // a year of its own
	d2 := d1.Add(24 * time.Hour)
	h := func(d time.Time, hours int) time.Time { return d.Add(time.Duration(hours) * time.Hour) }
	rows := []voyage.Record{
		voyageRecord(9100001, h(d1, -100), h(d1, 5), "santos", "rotterdam"),
		voyageRecord(9100002, h(d1, -50), h(d1, 5), "santos", "qingdao"),
		voyageRecord(9100001, h(d1, 20), h(d2, 10), "rotterdam", "santos"),
		voyageRecord(9100003, h(d2, -10), h(d2, 30), "santos", "odesa"), // arrives outside the days: not written
	}
	if err := db.WriteVoyageEmissions(ctx, jobs.Generation(), []time.Time{d1, d2}, rows); err != nil {
		t.Fatal(err)
	}
	got, err := db.EmissionsVoyages(ctx, read.EmissionsVoyagesRequest{EmissionsFilter: read.EmissionsFilter{From: d1, To: h(d2, 48)}, WithInput: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0].ID != rows[2].ID || got[1].ID != rows[0].ID || got[2].ID != rows[1].ID {
		t.Fatalf("%d voyages: %+v", len(got), got)
	}
	v := got[1]
	want := rows[0].Result
	want.Factors = nil
	if !reflect.DeepEqual(v.Result, want) || len(v.Input) == 0 {
		t.Errorf("read back %+v\nwant %+v", v.Result, want)
	}
	var in emissions.VoyageInput
	if err := json.Unmarshal(v.Input, &in); err != nil || !reflect.DeepEqual(emissions.ComputeVoyage(in).TTW, want.TTW) {
		t.Errorf("input %s (%v)", v.Input, err)
	}
	names, err := db.EmissionsFactorNames(ctx, read.EmissionsFilter{From: d1, To: h(d2, 48)})
	if err != nil || len(names) == 0 || len(emissions.FactorsNamed(names)) != len(names) {
		t.Errorf("factor names %v (%v)", names, err)
	}
	for _, n := range rows[0].Result.Factors {
		if !slices.Contains(names, n) {
			t.Errorf("factor %s of a voyage is not among the names", n)
		}
	}
	if got, err := db.EmissionsVoyages(ctx, read.EmissionsVoyagesRequest{EmissionsFilter: read.EmissionsFilter{From: d1, To: h(d2, 48)}, WithInput: false}); err != nil || len(got) != 3 || got[0].Input != nil {
		t.Errorf("without inputs: %d voyages (%v)", len(got), err)
	}
	for _, f := range []struct {
		flt  read.EmissionsFilter
		want int
	}{
		{read.EmissionsFilter{IMO: 9100001, To: h(d2, 48)}, 2},
		{read.EmissionsFilter{Port: "qingdao", To: h(d2, 48)}, 1},
		{read.EmissionsFilter{Port: "rotterdam", To: h(d2, 48)}, 2},
		{read.EmissionsFilter{From: h(d1, 6), To: h(d2, 48)}, 1},
		{read.EmissionsFilter{From: d1, To: h(d1, 5)}, 0}, // end exclusive
	} {
		got, err := db.EmissionsVoyages(ctx, read.EmissionsVoyagesRequest{EmissionsFilter: f.flt, WithInput: false})
		if err != nil || len(got) != f.want {
			t.Errorf("%+v: %d voyages (%v), want %d", f.flt, len(got), err, f.want)
		}
	}
	// A new generation of d2 replaces that day whole.
	if err := db.WriteVoyageEmissions(ctx, jobs.Generation(), []time.Time{d2}, nil); err != nil {
		t.Fatal(err)
	}
	got, err = db.EmissionsVoyages(ctx, read.EmissionsVoyagesRequest{EmissionsFilter: read.EmissionsFilter{From: d1, To: h(d2, 48)}, WithInput: false})
	if err != nil || len(got) != 2 {
		t.Errorf("after a new generation of the second day: %d voyages (%v), want 2", len(got), err)
	}
}

// BenchmarkEmissionsVoyagesCold reads 10,000 voyages past the read cache
// (each iteration asks for another end minute): the cost of the first
// /v1/emissions request after a new generation or the cache's TTL.
func BenchmarkEmissionsVoyagesCold(b *testing.B) {
	ctx := context.Background()
	db := chtest.DB(b, "emissions_bench")
	end := time.Date(2032, 1, 1, 0, 0, 0, 0, time.UTC)
	ports := []string{"santos", "rotterdam", "qingdao", "port-hedland", "newcastle", "ras-laffan"}
	rows := make([]voyage.Record, 10000)
	for i := range rows {
		arr := end.Add(-time.Duration(i) * 37 * time.Minute)
		rows[i] = voyageRecord(overwatch.IMO(9400000+i%500), arr.Add(-time.Duration(100+i%300)*time.Hour), arr,
			ports[i%len(ports)], ports[(i/len(ports)+1)%len(ports)])
	}
	if err := db.WriteVoyageEmissions(ctx, jobs.Generation(), portstats.Days(end.Add(-300*24*time.Hour), end), rows); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		got, err := db.EmissionsVoyages(ctx, read.EmissionsVoyagesRequest{EmissionsFilter: read.EmissionsFilter{To: end.Add(time.Duration(i) * time.Minute)}, WithInput: false})
		if err != nil || len(got) != len(rows) {
			b.Fatalf("%d voyages (%v)", len(got), err)
		}
	}
}
