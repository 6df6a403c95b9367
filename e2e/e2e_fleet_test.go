package e2e

import (
	"fmt"
	"math"
	"overwatch"
	"overwatch/apptest"
	"overwatch/clickhouse/chtest"
	"overwatch/maritime/seaport"
	"overwatch/testclock"
	"overwatch/write/ingest"
	"testing"
	"time"
)

// GET /v1/vessels/positions through the real server, store and replica:
// every vessel's freshest position with its category (from the registry)
// and port area, filters, paging by cursor, and no coordinates for Free.
// Each answer is validated against the OpenAPI document.
func TestFleetPositionsEndToEnd(t *testing.T) {
	s := apptest.StartServer(t, map[string]string{"CLICKHOUSE_URL": chtest.URL(t, "e2e_fleet")})
	santos, _ := seaport.BySlug("santos")
	anch := santos.Anchorages[0]
	now := testclock.Now().UTC().Truncate(time.Second)
	type ship struct {
		imo      overwatch.IMO
		shipType uint8
		lat, lon float64
	}
	ships := []ship{
		{apptest.NextIMO(), 70, anch.Lat, anch.Lon},        // cargo, in Santos
		{apptest.NextIMO(), 80, anch.Lat + 0.01, anch.Lon}, // tanker, in Santos
		{apptest.NextIMO(), 70, -10, -20},                  // cargo, at sea
	}
	var reports []ingest.Report
	for i, v := range ships {
		mmsi := uint32(710100000 + i)
		reports = append(reports,
			ingest.Report{Source: overwatch.SourceAISHub, MMSI: mmsi, Type: 5, TS: now.Add(-time.Hour), ReceivedAt: now,
				Has: ingest.HasIMO | ingest.HasName | ingest.HasShipType | ingest.HasDimensions,
				IMO: v.imo, Name: fmt.Sprintf("FLEET %d", i), ShipType: v.shipType, ToBow: 150, ToStern: 30, ToPort: 14, ToStarboard: 14},
			// An older position from another provider: the freshest wins.
			ingest.Report{Source: overwatch.SourceSpire, MMSI: mmsi, Type: 1, TS: now.Add(-30 * time.Minute), ReceivedAt: now,
				Has: ingest.HasPosition, Lat: 1, Lon: 1},
			ingest.Report{Source: overwatch.SourceAISHub, MMSI: mmsi, Type: 1, TS: now.Add(-10 * time.Minute), ReceivedAt: now,
				Has: ingest.HasPosition | ingest.HasSOG | ingest.HasCOG, Lat: v.lat, Lon: v.lon, SOG: 0.3, COG: 90})
	}
	s.IngestReports(t, reports...)
	pro, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	free, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanFree)
	apptest.Eventually(t, 30*time.Second, "the three vessels in the fleet view", func() bool { return fleetTotal(t, s, pro) == 3 })

	type item struct {
		IMO       string   `json:"imo_number"`
		Name      *string  `json:"name"`
		Category  *string  `json:"category"`
		Latitude  *float64 `json:"latitude"`
		Longitude *float64 `json:"longitude"`
		Port      *string  `json:"port"`
		Speed     *float64 `json:"speed"`
	}
	type page struct {
		Positions  []item `json:"positions"`
		Total      int    `json:"total"`
		Pagination struct {
			HasMore    bool    `json:"has_more"`
			NextCursor *string `json:"next_cursor"`
		} `json:"pagination"`
	}
	get := func(key, query string) page {
		t.Helper()
		r := s.Do(t, apptest.Request{Path: "/v1/vessels/positions?" + query, Key: key, IP: apptest.FreshIP()})
		if r.StatusCode != 200 {
			t.Fatalf("?%s: %d %s", query, r.StatusCode, r.Body)
		}
		var p page
		apptest.MustUnmarshal(t, r.Body, &p)
		return p
	}
	all := get(pro, "")
	if len(all.Positions) != 3 {
		t.Fatalf("all: %+v", all)
	}
	for i, v := range ships {
		p := all.Positions[i]
		if p.IMO != v.imo.String() || p.Latitude == nil || math.Abs(*p.Latitude-v.lat) > 1e-5 || math.Abs(*p.Longitude-v.lon) > 1e-5 || p.Speed == nil || *p.Speed != 0.3 {
			t.Errorf("vessel %d: %+v, want %s at (%v, %v)", i, p, v.imo, v.lat, v.lon)
		}
		wantCat, wantPort := map[uint8]string{70: "cargo", 80: "tanker"}[v.shipType], "santos"
		if i == 2 {
			wantPort = ""
		}
		if p.Category == nil || *p.Category != wantCat || (p.Port == nil) != (wantPort == "") || p.Port != nil && *p.Port != wantPort {
			t.Errorf("vessel %d: category %v, port %v; want %s, %q", i, p.Category, p.Port, wantCat, wantPort)
		}
	}
	for q, want := range map[string]int{"type=cargo": 2, "type=tanker": 1, "port=santos": 2, "port=santos&type=cargo": 1, "type=fishing": 0} {
		if p := get(pro, q); p.Total != want || len(p.Positions) != want {
			t.Errorf("?%s: total %d, %d positions, want %d", q, p.Total, len(p.Positions), want)
		}
	}
	// Pages of one, by cursor.
	var seen []string
	q := "limit=1"
	for range 5 {
		p := get(pro, q)
		for _, it := range p.Positions {
			seen = append(seen, it.IMO)
		}
		if !p.Pagination.HasMore {
			break
		}
		q = "limit=1&cursor=" + *p.Pagination.NextCursor
	}
	if fmt.Sprint(seen) != fmt.Sprint([]string{ships[0].imo.String(), ships[1].imo.String(), ships[2].imo.String()}) {
		t.Errorf("paged: %v", seen)
	}
	// Free: the same vessels, without coordinates.
	fp := get(free, "")
	if fp.Total != 3 || len(fp.Positions) != 3 {
		t.Fatalf("free: %+v", fp)
	}
	for _, p := range fp.Positions {
		if p.Latitude != nil || p.Longitude != nil {
			t.Errorf("free sees coordinates: %+v", p)
		}
	}
	r := s.Do(t, apptest.Request{Path: "/v1/vessels/positions?tier=severe", Key: pro, IP: apptest.FreshIP()})
	if r.StatusCode != 400 {
		t.Errorf("tier=severe: %d %s", r.StatusCode, r.Body)
	}
	if r := s.Do(t, apptest.Request{Path: "/v1/vessels/positions", IP: apptest.FreshIP()}); r.StatusCode != 401 {
		t.Errorf("no key: %d %s", r.StatusCode, r.Body)
	}
}

// fleetTotal is the total of the first page of the fleet the key sees.
func fleetTotal(t *testing.T, s *apptest.TestServer, key string) int {
	t.Helper()
	r := s.Do(t, apptest.Request{Path: "/v1/vessels/positions", Key: key, IP: apptest.FreshIP()})
	if r.StatusCode != 200 {
		t.Fatalf("/v1/vessels/positions: %d %s", r.StatusCode, r.Body)
	}
	var p struct {
		Total int `json:"total"`
	}
	apptest.MustUnmarshal(t, r.Body, &p)
	return p.Total
}
