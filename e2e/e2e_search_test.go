package e2e

import (
	"net/url"
	"strconv"
	"testing"
	"time"

	"overwatch"
	"overwatch/apptest"
	"overwatch/write/ingest"
)

// Vessel search finds a vessel by its IMO, MMSI, call sign, name, a
// mistyped name and a former name from the identity history.
func TestVesselSearchEndToEnd(t *testing.T) {
	s := apptest.StartServer(t, nil)
	v := layTrack(t, s, "KAPITAN BELOUSOV", 60.0, 25.0)
	// Renamed after the track: the track's name becomes a former name.
	s.IngestReports(t, ingest.Report{Source: overwatch.SourceAISHub, MMSI: v.mmsi, Type: 5, TS: v.to.Add(time.Minute), ReceivedAt: v.to.Add(time.Minute),
		Has: ingest.HasIMO | ingest.HasName | ingest.HasCallSign | ingest.HasShipType, IMO: v.imo, Name: "AURORA BOREALIS",
		CallSign: "UBXY7", ShipType: 80})
	other := layTrack(t, s, "AURORA DAWN", 10.0, 10.0)
	key, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanStarter)

	type found struct {
		IMO     string  `json:"imo_number"`
		Name    *string `json:"name"`
		Matched struct {
			Field string `json:"field"`
			Text  string `json:"text"`
		} `json:"matched"`
	}
	search := func(q string) []found {
		t.Helper()
		r := s.Do(t, apptest.Request{Path: "/v1/vessels/search?q=" + url.QueryEscape(q), IP: apptest.FreshIP(), Key: key})
		if r.StatusCode != 200 {
			t.Fatalf("%q: %d %s", q, r.StatusCode, r.Body)
		}
		var body struct {
			Vessels []found `json:"vessels"`
		}
		apptest.MustUnmarshal(t, r.Body, &body)
		return body.Vessels
	}
	for q, want := range map[string][2]string{
		v.imo.String():          {"imo", v.imo.String()},
		"IMO " + v.imo.String(): {"imo", v.imo.String()},
		itoa(v.mmsi):            {"mmsi", itoa(v.mmsi)},
		"ubxy-7":                {"call_sign", "UBXY7"},
		"aurora borealis":       {"name", "AURORA BOREALIS"},
		"Auroar Borealis":       {"name", "AURORA BOREALIS"}, // a swap
		"kapitan belousov":      {"former_name", "KAPITAN BELOUSOV"},
		"Kapitan Belousof":      {"former_name", "KAPITAN BELOUSOV"}, // a typo
		"KAPITAN-BELOUSOV.":     {"former_name", "KAPITAN BELOUSOV"},
	} {
		got := search(q)
		if len(got) == 0 || got[0].IMO != v.imo.String() || got[0].Matched.Field != want[0] || got[0].Matched.Text != want[1] ||
			got[0].Name == nil || *got[0].Name != "AURORA BOREALIS" {
			t.Errorf("%q: %+v, want %s first matched by %v", q, got, v.imo, want)
		}
	}
	// A prefix shared by both: the current name's prefix ranks both, by
	// name.
	got := search("aurora")
	if len(got) < 2 || got[0].IMO != v.imo.String() || got[1].IMO != other.imo.String() {
		t.Errorf("aurora: %+v", got)
	}
	for q, param := range map[string]string{
		"/v1/vessels/search":             "q",
		"/v1/vessels/search?q=%20-%20":   "q",
		"/v1/vessels/search?q=a&limit=0": "limit",
	} {
		r := s.Do(t, apptest.Request{Path: q, IP: apptest.FreshIP(), Key: key})
		if m := r.JSON(t); r.StatusCode != 400 || m["parameter"] != param {
			t.Errorf("%s: %d %s, want a 400 naming %s", q, r.StatusCode, r.Body, param)
		}
	}
}

func itoa(n uint32) string { return strconv.FormatUint(uint64(n), 10) }
