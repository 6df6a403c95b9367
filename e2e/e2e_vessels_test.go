package e2e

import (
	"overwatch"
	"overwatch/apptest"
	"overwatch/maritime/seaport"
	"overwatch/testclock"
	"overwatch/write/ingest"
	"strings"
	"testing"
	"time"
)

func TestVesselsAndPortPositions(t *testing.T) {
	s := apptest.StartServer(t, nil)
	port, _ := seaport.BySlug("santos")
	anch := port.Anchorages[0]
	now := testclock.Now().UTC().Truncate(time.Second)
	mmsiBase := uint32(710000000) + uint32(now.Unix()%10000)*10 // Brazil, unique per run
	var reports []ingest.Report
	type vessel struct {
		imo      overwatch.IMO
		name     string
		shipType uint8
		lat, lon float64
	}
	vessels := []vessel{
		{apptest.NextIMO(), "AAA BULKER", 70, anch.Lat, anch.Lon},
		{apptest.NextIMO(), "BBB TANKER", 80, anch.Lat + 0.01, anch.Lon},
		{apptest.NextIMO(), "CCC FAR AWAY", 70, -10, -20}, // not in port
	}
	for i, v := range vessels {
		mmsi := mmsiBase + uint32(i)
		reports = append(reports,
			ingest.Report{Source: overwatch.SourceAISHub, MMSI: mmsi, Type: 5, TS: now.Add(-time.Hour), ReceivedAt: now,
				Has: ingest.HasIMO | ingest.HasName | ingest.HasShipType | ingest.HasDimensions | ingest.HasDraught,
				IMO: v.imo, Name: v.name, ShipType: v.shipType, ToBow: 200, ToStern: 25, ToPort: 16, ToStarboard: 16, Draught: 12.5},
			ingest.Report{Source: overwatch.SourceSpire, MMSI: mmsi, Type: 1, TS: now.Add(-10 * time.Minute), ReceivedAt: now,
				Has: ingest.HasPosition | ingest.HasSOG | ingest.HasCOG | ingest.HasNavStatus, Lat: v.lat, Lon: v.lon, SOG: 0.2, COG: 12.3, NavStatus: 1})
	}
	s.IngestReports(t, reports...)
	starter, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanStarter)
	free, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanFree)

	r := s.Do(t, apptest.Request{Path: "/v1/positions?port=santos", IP: apptest.FreshIP(), Key: starter})
	if r.StatusCode != 200 {
		t.Fatalf("positions: %d %s", r.StatusCode, r.Body)
	}
	var got []map[string]any
	apptest.MustUnmarshal(t, r.Body, &got)
	if len(got) != 2 || got[0]["name"] != "AAA BULKER" || got[0]["nav_status"] != "At anchor" || got[0]["speed"] != 0.2 ||
		got[0]["course"] != 12.3 || got[0]["draft"] != 12.5 || got[0]["latitude"] != anch.Lat || got[1]["vessel_type"] == nil {
		t.Fatalf("positions: %s", r.Body)
	}
	r = s.Do(t, apptest.Request{Path: "/v1/positions?port=santos", IP: apptest.FreshIP(), Key: free})
	apptest.MustUnmarshal(t, r.Body, &got)
	if len(got) != 2 || got[0]["latitude"] != nil || got[0]["longitude"] != nil {
		t.Fatalf("free callers got coordinates: %s", r.Body)
	}
	for q, want := range map[string]string{
		"/v1/positions":               `{"error":"port is required (a port slug or id; see /v1/ports)","parameter":"port"}`,
		"/v1/positions?port=atlantis": `{"error":"unknown port 'atlantis' in port; see /v1/ports for slugs and ids","parameter":"port"}`,
	} {
		if r := s.Do(t, apptest.Request{Path: q, IP: apptest.FreshIP(), Key: starter}); string(r.Body) != want {
			t.Errorf("%s: %d %s", q, r.StatusCode, r.Body)
		}
	}

	r = s.Do(t, apptest.Request{Path: "/v1/vessels?port=santos", IP: apptest.FreshIP(), Key: starter})
	var body struct {
		Vessels []map[string]any `json:"vessels"`
	}
	apptest.MustUnmarshal(t, r.Body, &body)
	if r.StatusCode != 200 || len(body.Vessels) != 2 || body.Vessels[0]["name"] != "AAA BULKER" {
		t.Fatalf("vessels in santos: %d %s", r.StatusCode, r.Body)
	}
	v := body.Vessels[0]
	if v["flag"] != "BR" || v["length_m"] != 225.0 || v["beam_m"] != 32.0 || v["dwt_estimated"] != true || v["category"] != "cargo" {
		t.Errorf("vessel fields: %v", v)
	}
	if dwt := v["dwt"].(float64); dwt < 55000 || dwt > 80000 {
		t.Errorf("dwt %v for 225 x 32 x 12.5 m", dwt)
	}
	r = s.Do(t, apptest.Request{Path: "/v1/vessels?port=santos&type=tanker", IP: apptest.FreshIP(), Key: starter})
	apptest.MustUnmarshal(t, r.Body, &body)
	if len(body.Vessels) != 1 || body.Vessels[0]["name"] != "BBB TANKER" {
		t.Errorf("type filter: %s", r.Body)
	}
	r = s.Do(t, apptest.Request{Path: "/v1/vessels?limit=1", IP: apptest.FreshIP(), Key: starter})
	apptest.MustUnmarshal(t, r.Body, &body)
	if len(body.Vessels) != 1 {
		t.Errorf("limit: %s", r.Body)
	}
	for q, want := range map[string]string{
		"/v1/vessels?type=submarine": "type must be one of cargo, tanker",
		"/v1/vessels?limit=0":        "limit must be a positive integer",
		"/v1/vessels?port=atlantis":  "unknown port 'atlantis'",
	} {
		if r := s.Do(t, apptest.Request{Path: q, IP: apptest.FreshIP(), Key: starter}); !strings.Contains(string(r.Body), want) {
			t.Errorf("%s: %d %s", q, r.StatusCode, r.Body)
		}
	}
	if r := s.Do(t, apptest.Request{Path: "/v1/vessels", IP: apptest.FreshIP()}); r.StatusCode != 401 {
		t.Errorf("vessels without a key: %d", r.StatusCode)
	}
}
