package e2e

import (
	"context"
	"math"
	"net/url"
	"testing"
	"time"

	"overwatch"
	"overwatch/apptest"
	"overwatch/jobs"
	"overwatch/testclock"
)

// The vessels of an area: the answer for a box equals the store read
// directly, the presence summary written; a box across the antimeridian and a polygon select what they
// hold; the fleet's latest positions take the same area filter.
func TestAreaVesselsEqualTheStore(t *testing.T) {
	s := apptest.StartServer(t, nil)
	a := layTrack(t, s, "AREA ALPHA", 40.0, 179.9)  // crosses 180 eastward: 179.9 to 180.4
	b := layTrack(t, s, "AREA BRAVO", 40.05, 179.5) // 179.5 to 180.0
	c := layTrack(t, s, "AREA CHARLIE", -20.0, 60.0)
	// The presence summary as its job writes it: the answers below come
	// from it for the time it holds, from positions after.
	if _, err := jobs.Presence(s.Ch)(context.Background(), jobs.State{}); err != nil {
		t.Fatal(err)
	}
	pro, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	free, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanFree)
	start, end := a.from.Add(-time.Minute), testclock.Now().UTC().Truncate(time.Second)

	type fix struct {
		Timestamp string   `json:"timestamp"`
		Latitude  *float64 `json:"latitude"`
		Longitude *float64 `json:"longitude"`
	}
	type vessel struct {
		IMO      string `json:"imo_number"`
		Name     string `json:"name"`
		Fixes    int    `json:"fixes"`
		FirstFix fix    `json:"first_fix"`
		LastFix  fix    `json:"last_fix"`
	}
	var body struct {
		Vessels []vessel `json:"vessels"`
		Total   int      `json:"total"`
	}
	get := func(key string, q url.Values) {
		t.Helper()
		q.Set("start", start.Format(time.RFC3339))
		q.Set("end", end.Format(time.RFC3339))
		r := s.Do(t, apptest.Request{Path: "/v1/area/vessels?" + q.Encode(), IP: apptest.FreshIP(), Key: key})
		if r.StatusCode != 200 {
			t.Fatalf("%s: %d %s", q.Encode(), r.StatusCode, r.Body)
		}
		body.Vessels = nil
		apptest.MustUnmarshal(t, r.Body, &body)
	}

	// A box across the antimeridian: 179.8 east to -179.7.
	get(pro, url.Values{"bbox": {"179.8,39,-179.7,41"}})
	rows := s.Fx.Query(t, `SELECT imo, count(), min(ts), max(ts), argMin(lat, ts), argMin(lon, ts)
	  FROM positions FINAL WHERE ts >= ? AND ts <= ? AND lat >= 39 AND lat <= 41 AND (lon >= 179.8 OR lon <= -179.7) AND imo != 0
	  GROUP BY imo ORDER BY imo`, start, end)
	var want []vessel
	for rows.Next() {
		var imo uint32
		var n uint64
		var first, last time.Time
		var lat, lon float64
		if err := rows.Scan(&imo, &n, &first, &last, &lat, &lon); err != nil {
			t.Fatal(err)
		}
		want = append(want, vessel{IMO: overwatch.IMO(imo).String(), Fixes: int(n),
			FirstFix: fix{Timestamp: first.UTC().Format(time.RFC3339), Latitude: &lat, Longitude: &lon},
			LastFix:  fix{Timestamp: last.UTC().Format(time.RFC3339)}})
	}
	if len(want) == 0 || len(body.Vessels) != len(want) || body.Total != len(want) {
		t.Fatalf("box across 180: %d vessels (total %d), the store has %d", len(body.Vessels), body.Total, len(want))
	}
	for i, w := range want {
		g := body.Vessels[i]
		if g.IMO != w.IMO || g.Fixes != w.Fixes || g.FirstFix.Timestamp != w.FirstFix.Timestamp ||
			g.LastFix.Timestamp != w.LastFix.Timestamp || math.Abs(*g.FirstFix.Latitude-*w.FirstFix.Latitude) > 1e-5 ||
			math.Abs(*g.FirstFix.Longitude-*w.FirstFix.Longitude) > 1e-5 {
			t.Errorf("vessel %d: %+v (first at %v, %v), the store has %+v (first at %v, %v)", i, g, *g.FirstFix.Latitude, *g.FirstFix.Longitude,
				w, *w.FirstFix.Latitude, *w.FirstFix.Longitude)
		}
	}
	names := map[string]bool{}
	for _, v := range body.Vessels {
		names[v.Name] = true
	}
	if !names["AREA ALPHA"] || !names["AREA BRAVO"] || names["AREA CHARLIE"] {
		t.Errorf("box across 180 holds %v", names)
	}
	_ = b

	// A retried write: the third vessel's fixes stored a second time, not
	// yet merged away; each counts once.
	stored := s.Fx.Query(t, `SELECT imo, mmsi, ts, lat, lon, dedup_key, received_at FROM positions WHERE imo = ?`, uint32(c.imo))
	var again [][]any
	for stored.Next() {
		var imo, mmsi uint32
		var ts, received time.Time
		var lat, lon float64
		var key uint64
		if err := stored.Scan(&imo, &mmsi, &ts, &lat, &lon, &key, &received); err != nil {
			t.Fatal(err)
		}
		again = append(again, []any{imo, mmsi, ts, lat, lon, key, received})
	}
	if len(again) == 0 {
		t.Fatal("no stored fix of the third vessel")
	}
	s.Fx.Insert(t, "positions", []string{"imo", "mmsi", "ts", "lat", "lon", "dedup_key", "received_at"}, again...)

	// A polygon around the third vessel's first leg only.
	get(pro, url.Values{"polygon": {`{"type":"Polygon","coordinates":[[[59.9,-20.05],[60.13,-20.05],[60.13,-19.5],[59.9,-19.5],[59.9,-20.05]]]}`}})
	if len(body.Vessels) != 1 || body.Vessels[0].IMO != c.imo.String() || body.Vessels[0].Fixes != 7 {
		t.Errorf("polygon: %+v", body.Vessels)
	}

	// Free: no coordinates.
	get(free, url.Values{"bbox": {"59,-21,61,-19"}})
	if len(body.Vessels) != 1 || body.Vessels[0].FirstFix.Latitude != nil || body.Vessels[0].LastFix.Longitude != nil {
		t.Errorf("free: %+v", body.Vessels)
	}

	// Bad parameters.
	for q, param := range map[string]string{
		"/v1/area/vessels":                      "bbox",
		"/v1/area/vessels?bbox=1,2,3,x":         "bbox",
		"/v1/area/vessels?polygon=%5B%5D":       "polygon",
		"/v1/area/vessels?bbox=0,0,1,1&start=x": "start",
		"/v1/area/vessels?bbox=0,0,1,1&limit=0": "limit",
		"/v1/vessels/positions?bbox=0,100,1,1":  "bbox",
		"/v1/vessels/positions?source=x":        "source",
	} {
		r := s.Do(t, apptest.Request{Path: q, IP: apptest.FreshIP(), Key: pro})
		if m := r.JSON(t); r.StatusCode != 400 || m["parameter"] != param {
			t.Errorf("%s: %d %s, want a 400 naming %s", q, r.StatusCode, r.Body, param)
		}
	}

	// The fleet's latest positions take the area: the last fix of the
	// first lies east of 180 (at 40.25, -179.6), the second's on it (at
	// 40.30, 180), outside the box's north edge.
	var fleet struct {
		Positions []struct {
			IMO string `json:"imo_number"`
		} `json:"positions"`
	}
	apptest.Eventually(t, 10*time.Second, "the fleet view in the box", func() bool {
		r := s.Do(t, apptest.Request{Path: "/v1/vessels/positions?bbox=179.9,39,-179.5,40.27", IP: apptest.FreshIP(), Key: pro})
		apptest.MustUnmarshal(t, r.Body, &fleet)
		return len(fleet.Positions) == 1 && fleet.Positions[0].IMO == a.imo.String()
	})
}
