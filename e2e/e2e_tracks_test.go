package e2e

import (
	"encoding/csv"
	"math"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"overwatch"
	"overwatch/apptest"
	"overwatch/testclock"
	"overwatch/write/ingest"
)

// trackedVessel is a vessel laid out through the ingest pipeline for the
// track tests: a static report, then fixes every 10 minutes for 2 hours
// from two providers (one naming its receiving station), a silence of 7
// hours (longer than the gap detector's 6), and 2 hours more.
type trackedVessel struct {
	imo      overwatch.IMO
	mmsi     uint32
	name     string
	from, to time.Time // the first and the last fix
}

func layTrack(t *testing.T, s *apptest.TestServer, name string, lat0, lon0 float64) trackedVessel {
	t.Helper()
	now := testclock.Now().UTC().Truncate(time.Minute)
	v := trackedVessel{imo: apptest.NextIMO(), name: name}
	v.mmsi = 244000000 + uint32(v.imo)%1000000
	start := now.Add(-30 * time.Hour)
	reports := []ingest.Report{{Source: overwatch.SourceAISHub, MMSI: v.mmsi, Type: 5, TS: start.Add(-time.Hour), ReceivedAt: start.Add(-time.Hour),
		Has: ingest.HasIMO | ingest.HasName | ingest.HasCallSign | ingest.HasShipType | ingest.HasDimensions | ingest.HasDraught,
		IMO: v.imo, Name: name, CallSign: "PD" + v.imo.String()[3:], ShipType: 80, ToBow: 150, ToStern: 30, ToPort: 14, ToStarboard: 14, Draught: 9.5}}
	at := start
	for i := 0; i < 26; i++ {
		if i == 13 {
			at = at.Add(7 * time.Hour) // the gap
		}
		r := ingest.Report{Source: overwatch.SourceAISStream, MMSI: v.mmsi, Type: 1, TS: at, ReceivedAt: at.Add(time.Duration(i%5) * time.Second),
			Has: ingest.HasPosition | ingest.HasSOG | ingest.HasCOG | ingest.HasHeading | ingest.HasNavStatus,
			Lat: lat0 + float64(i)*0.01, Lon: lon0 + float64(i)*0.02, SOG: 11.5, COG: 63.4, Heading: 64, NavStatus: 0}
		if r.Lon > 180 {
			r.Lon -= 360 // east across the antimeridian
		}
		if i%2 == 1 {
			r.Source, r.Station, r.Has = overwatch.SourceSpire, "rSTATION7", r.Has&^ingest.HasHeading
		}
		reports = append(reports, r)
		v.to = at
		at = at.Add(10 * time.Minute)
	}
	v.from = start
	s.IngestReports(t, reports...)
	return v
}

func TestTracksCSVEqualsTheStore(t *testing.T) {
	s := apptest.StartServer(t, nil)
	v := layTrack(t, s, "TRACK CSV", 51.0, 3.0)
	pro, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	start, end := v.from.Add(10*time.Minute), v.to // leaves the first fix out
	q := url.Values{"start": {start.Format(time.RFC3339)}, "end": {end.Format(time.RFC3339)}, "format": {"csv"}}
	r := s.Do(t, apptest.Request{Path: "/v1/vessels/" + v.imo.String() + "/track?" + q.Encode(), IP: apptest.FreshIP(), Key: pro})
	if r.StatusCode != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/csv") ||
		!strings.Contains(r.Header.Get("Content-Disposition"), "track-"+v.imo.String()) {
		t.Fatalf("csv: %d %v %s", r.StatusCode, r.Header, r.Body)
	}
	recs, err := csv.NewReader(strings.NewReader(string(r.Body))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(recs[0], ",") != "imo_number,segment,timestamp,latitude,longitude,speed_kt,course_deg,heading,nav_status,source,station,received_at,age_seconds" {
		t.Fatalf("header %v", recs[0])
	}
	recs = recs[1:]

	// The store, read directly: the same vessel and range.
	rows := s.Fx.Query(t, `SELECT ts, lat, lon, speed_kt, course_deg, heading_deg, nav_status, toString(source), station, received_at
	  FROM positions FINAL WHERE imo = ? AND ts >= ? AND ts <= ? ORDER BY ts, source`, v.imo, start, end)
	n := 0
	var prev time.Time
	segment := 1
	for rows.Next() {
		var ts, recv time.Time
		var lat, lon float64
		var speed, course *float32
		var heading *uint16
		var status uint8
		var source, station string
		if err := rows.Scan(&ts, &lat, &lon, &speed, &course, &heading, &status, &source, &station, &recv); err != nil {
			t.Fatal(err)
		}
		if n > 0 && ts.Sub(prev) > 6*time.Hour {
			segment++
		}
		prev = ts
		if n >= len(recs) {
			n++
			continue
		}
		got := recs[n]
		num := func(i int, want float64) {
			if f, err := strconv.ParseFloat(got[i], 64); err != nil || math.Abs(f-want) > 1e-5 {
				t.Errorf("row %d column %d: %q, want %v", n, i, got[i], want)
			}
		}
		if got[0] != v.imo.String() || got[1] != strconv.Itoa(segment) || got[2] != ts.UTC().Format(time.RFC3339) {
			t.Errorf("row %d: %v, want imo %s segment %d at %s", n, got, v.imo, segment, ts)
		}
		num(3, lat)
		num(4, lon)
		num(5, float64(*speed))
		num(6, math.Round(float64(*course)*10)/10)
		if (heading == nil) != (got[7] == "") || heading != nil && got[7] != strconv.Itoa(int(*heading)) {
			t.Errorf("row %d heading %q, stored %v", n, got[7], heading)
		}
		if got[8] != overwatch.NavStatusText(status) || got[9] != source || got[10] != station ||
			got[11] != recv.UTC().Format(time.RFC3339) || got[12] != strconv.Itoa(int(recv.Sub(ts).Seconds())) {
			t.Errorf("row %d: %v; stored status %d source %s station %q received %s", n, got, status, source, station, recv)
		}
		n++
	}
	if n != len(recs) || n != 25 || segment != 2 {
		t.Errorf("%d rows in the CSV, %d stored in range (want 25), %d segments", len(recs), n, segment)
	}
}

func TestTracksJSONGeoJSONAndPlans(t *testing.T) {
	s := apptest.StartServer(t, nil)
	v := layTrack(t, s, "TRACK JSON", -33.0, 151.5)
	w := layTrack(t, s, "TRACK OTHER", 10.0, 10.0)
	starter, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanStarter)
	free, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanFree)
	path := "/v1/vessels/" + v.imo.String() + "/track"

	var tr struct {
		IMO      string           `json:"imo_number"`
		Segments int              `json:"segments"`
		Fixes    []map[string]any `json:"fixes"`
	}
	r := s.Do(t, apptest.Request{Path: path + "?start=" + v.from.Add(-time.Minute).Format(time.RFC3339), IP: apptest.FreshIP(), Key: starter})
	apptest.MustUnmarshal(t, r.Body, &tr)
	if r.StatusCode != 200 || tr.IMO != v.imo.String() || len(tr.Fixes) != 26 || tr.Segments != 2 {
		t.Fatalf("json: %d %d fixes, %d segments: %.600s", r.StatusCode, len(tr.Fixes), tr.Segments, r.Body)
	}
	f0, f1 := tr.Fixes[0], tr.Fixes[1]
	if f0["latitude"] != -33.0 || f0["source"] != "aisstream" || f0["station"] != nil || f0["heading"] != 64.0 ||
		f1["station"] != "rSTATION7" || f1["source"] != "spire" || f1["heading"] != nil || f1["age_seconds"] != 1.0 ||
		f0["nav_status"] != "Under way using engine" || tr.Fixes[13]["segment"] != 2.0 || tr.Fixes[12]["segment"] != 1.0 {
		t.Errorf("fixes: %v\n%v\n%v", f0, f1, tr.Fixes[13])
	}
	// Thinned to one fix an hour: 2 + 3 in the two legs of 2 h 10 min.
	r = s.Do(t, apptest.Request{Path: path + "?interval=60&start=" + v.from.Add(-time.Minute).Format(time.RFC3339), IP: apptest.FreshIP(), Key: starter})
	apptest.MustUnmarshal(t, r.Body, &tr)
	if len(tr.Fixes) < 4 || len(tr.Fixes) > 6 {
		t.Errorf("interval=60: %d fixes", len(tr.Fixes))
	}
	// A straight leg simplifies to its ends: 2 lines of 2 positions.
	var gj struct {
		Type     string `json:"type"`
		Geometry struct {
			Type        string         `json:"type"`
			Coordinates [][][2]float64 `json:"coordinates"`
		} `json:"geometry"`
		Properties struct {
			Fixes      int        `json:"fixes"`
			Timestamps [][]string `json:"timestamps"`
		} `json:"properties"`
	}
	r = s.Do(t, apptest.Request{Path: path + "?format=geojson&simplify=50&start=" + v.from.Add(-time.Minute).Format(time.RFC3339), IP: apptest.FreshIP(), Key: starter})
	apptest.MustUnmarshal(t, r.Body, &gj)
	if r.StatusCode != 200 || r.Header.Get("Content-Type") != "application/geo+json" || gj.Geometry.Type != "MultiLineString" ||
		len(gj.Geometry.Coordinates) != 2 || len(gj.Geometry.Coordinates[0]) != 2 || gj.Properties.Fixes != 4 ||
		gj.Geometry.Coordinates[0][0] != [2]float64{151.5, -33} || len(gj.Properties.Timestamps[1]) != 2 {
		t.Errorf("geojson: %d %s", r.StatusCode, r.Body)
	}

	// Several vessels: one track each, in IMO order, the bbox narrowing
	// the fixes to the first leg of v.
	q := url.Values{"imo": {w.imo.String() + "," + v.imo.String()}, "bbox": {"150,-34,151.75,-32"}}
	q.Set("start", v.from.Add(-time.Minute).Format(time.RFC3339))
	var many struct {
		Tracks []struct {
			IMO   string           `json:"imo_number"`
			Fixes []map[string]any `json:"fixes"`
		} `json:"tracks"`
	}
	r = s.Do(t, apptest.Request{Path: "/v1/tracks?" + q.Encode(), IP: apptest.FreshIP(), Key: starter})
	apptest.MustUnmarshal(t, r.Body, &many)
	if r.StatusCode != 200 || len(many.Tracks) != 2 || many.Tracks[0].IMO > many.Tracks[1].IMO {
		t.Fatalf("tracks: %d %.400s", r.StatusCode, r.Body)
	}
	for _, tr := range many.Tracks {
		want := 0
		if tr.IMO == v.imo.String() {
			want = 13 // longitudes 151.5 to 151.74
		}
		if len(tr.Fixes) != want {
			t.Errorf("tracks: %s has %d fixes in the box, want %d", tr.IMO, len(tr.Fixes), want)
		}
	}

	// Free: no coordinates, no CSV.
	r = s.Do(t, apptest.Request{Path: path + "?start=" + v.from.Add(-time.Minute).Format(time.RFC3339), IP: apptest.FreshIP(), Key: free})
	apptest.MustUnmarshal(t, r.Body, &tr)
	if r.StatusCode != 200 || len(tr.Fixes) != 26 || tr.Fixes[0]["latitude"] != nil || tr.Fixes[0]["longitude"] != nil {
		t.Errorf("free json: %d %.300s", r.StatusCode, r.Body)
	}
	r = s.Do(t, apptest.Request{Path: path + "?format=geojson", IP: apptest.FreshIP(), Key: free})
	if m := r.JSON(t); m["geometry"] != nil {
		t.Errorf("free geojson has a geometry: %.300s", r.Body)
	}
	if r := s.Do(t, apptest.Request{Path: path + "?format=csv", IP: apptest.FreshIP(), Key: free}); r.StatusCode != 403 {
		t.Errorf("free csv: %d %s", r.StatusCode, r.Body)
	}

	// Bad parameters: 400 naming each. Fifty vessels over 80 days (within
	// Starter's 90-day floor) are 4,000 vessel-days, over the 3,660 a
	// request may read.
	fifty := make([]string, 50)
	for i := range fifty {
		fifty[i] = apptest.NextIMO().String()
	}
	wide := "/v1/tracks?imo=" + strings.Join(fifty, ",") + "&start=" + testclock.Now().UTC().Add(-80*24*time.Hour).Format(time.RFC3339)
	for q, param := range map[string]string{
		wide:                      "start",
		"/v1/vessels/123/track":   "imo",
		path + "?start=yesterday": "start",
		path + "?start=2026-02-01&end=2026-01-01":        "end",
		path + "?format=kml":                             "format",
		path + "?simplify=-1":                            "simplify",
		path + "?interval=0":                             "interval",
		path + "?bbox=1,2,3":                             "bbox",
		path + "?polygon=%7B%7D":                         "polygon",
		path + "?source=marinetraffic":                   "source",
		"/v1/tracks":                                     "imo",
		"/v1/tracks?imo=1234567,x":                       "imo",
		"/v1/tracks?imo=" + v.imo.String() + "&mmsi=abc": "mmsi",
		"/v1/tracks?imo=" + v.imo.String() + "&type=ufo": "type",
	} {
		r := s.Do(t, apptest.Request{Path: q, IP: apptest.FreshIP(), Key: starter})
		if m := r.JSON(t); r.StatusCode != 400 || m["parameter"] != param {
			t.Errorf("%s: %d %s, want a 400 naming %s", q, r.StatusCode, r.Body, param)
		}
	}
	if r := s.Do(t, apptest.Request{Path: path, IP: apptest.FreshIP()}); r.StatusCode != 401 {
		t.Errorf("without a key: %d", r.StatusCode)
	}

}
