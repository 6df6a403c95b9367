package e2e

import (
	"context"
	"overwatch"
	"overwatch/apptest"
	"overwatch/jobs"
	"overwatch/maritime/emissions"
	"overwatch/maritime/voyage"
	"strings"
	"testing"
	"time"
)

// Every time parameter (start, end, since, date, week) is read by one
// parser within the range every supported ClickHouse holds (1970 through
// 2105): a time outside it is a 400 naming the parameter, where the
// emissions endpoints answered 200 with no voyage (a Scope 3 report
// silently empty); the last instant of the range still reads the data.
func TestTimeParametersOutsideTheStoreRange(t *testing.T) {
	s := apptest.StartServer(t, nil)
	pro, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	ctx := context.Background()
	day := time.Date(2105, 12, 30, 0, 0, 0, 0, time.UTC)
	rows := []voyage.Record{voyageOf(9811112, day.Add(-90*time.Hour), day.Add(5*time.Hour)), voyageOf(9811124, day.Add(-40*time.Hour), day.Add(9*time.Hour))}
	if err := s.Ch.WriteVoyageEmissions(ctx, jobs.Generation(), []time.Time{day}, rows); err != nil {
		t.Fatal(err)
	}
	get := func(path string) apptest.Response {
		t.Helper()
		return s.Do(t, apptest.Request{Path: path, IP: apptest.FreshIP(), Key: pro})
	}
	// The end of the range reads the voyages stored there.
	r := get("/v1/emissions?start=2105-12-01&end=2105-12-31T23:59:59Z")
	if body := r.JSON(t); r.StatusCode != 200 || body["fleet"].(map[string]any)["voyages"] != 2.0 {
		t.Fatalf("end at the end of the range: %d %s", r.StatusCode, r.Body)
	}
	for path, param := range map[string]string{
		"/v1/emissions?start=2105-12-01&end=2106-02-06":               "end",
		"/v1/emissions?end=2106-02-07T06:28:16Z":                      "end",
		"/v1/emissions/report?start=2105-12-01&end=2106-02-06":        "end",
		"/v1/emissions/report?end=2200-01-01&format=csv":              "end",
		"/v1/emissions?start=1969-12-31T23:00:00Z":                    "start",
		"/v1/emissions/report?start=1900-01-01&end=2026-01-01":        "start",
		"/v1/commodity-prices?since=1969-12-31":                       "since",
		"/v1/transport-data?since=1960-01-01":                         "since",
		"/v1/sar-coverage?lat=51.9&lng=4.1&date=2106-02-06T00:00:00Z": "date",
		"/v1/routes/flows?week=2105-12-28":                            "week",
	} {
		r := get(path)
		body := r.JSON(t)
		msg, _ := body["error"].(string)
		if r.StatusCode != 400 || body["parameter"] != param || !strings.HasPrefix(msg, param+" must be from 1970-01-01T00:00:00Z to 2105-12-31T23:59:59Z") {
			t.Errorf("%s: %d %s, want 400 naming %s", path, r.StatusCode, r.Body, param)
		}
	}
}

// voyageOf is a voyage of the vessel from Santos to Rotterdam, its
// emissions computed as the job does.
func voyageOf(imo overwatch.IMO, dep, arr time.Time) voyage.Record {
	in := emissions.VoyageInput{IMO: imo, Name: "V" + imo.String(), ShipType: 70, From: "santos", To: "rotterdam", Departure: dep, Arrival: arr,
		DWT: 50000, TrackDistanceNM: 5400, TrackCoverage: 0.9, SeaLaneDistanceNM: 5500, CargoTonnes: 40000, CargoQuality: emissions.CargoHigh}
	return voyage.Record{ID: voyage.ID(imo, dep), Input: in, Result: emissions.ComputeVoyage(in)}
}
