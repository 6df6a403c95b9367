package e2e

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"overwatch"
	"overwatch/apptest"
	"overwatch/clickhouse/chtest"
	"overwatch/jobs"
	"overwatch/jobs/jobstest"
	"overwatch/maritime/chokepoint"
	"overwatch/postgres/pgtest"
	"overwatch/sources/gdelt"
	"overwatch/testclock"
	"strings"
	"testing"
	"time"
)

// The news signals of /v1/disruptions carry GDELT's tone, through the
// real server: the news job asks a local GDELT stand-in (the fixtures'
// ArtList, its articles seen an hour ago, and its ToneChart) and the API
// answers each article with the tone of the bin that lists it (-7 and 2),
// where it answered null.
func TestDisruptionsNewsTone(t *testing.T) {
	t.Parallel() // its own databases
	seen := testclock.Now().UTC().Add(-time.Hour).Truncate(15 * time.Minute).Format(gdelt.SeenLayout)
	artlist := gdeltFixture(t, "artlist_documented_format.json")
	for _, old := range []string{"20240102T150000Z", "20240102T141500Z"} {
		artlist = bytes.ReplaceAll(artlist, []byte(old), []byte(seen))
	}
	tonechart := gdeltFixture(t, "tonechart_documented_format.json")
	stand := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Query().Get("mode") == "ToneChart" {
			w.Write(tonechart)
			return
		}
		w.Write(artlist)
	}))
	defer stand.Close()
	s := apptest.StartServer(t, map[string]string{"CLICKHOUSE_URL": chtest.URL(t, "disruptions_tone"), "DATABASE_URL": pgtest.URL(t, "disruptions_tone")})
	subjects := []gdelt.Subject{{Chokepoint: chokepoint.Suez, Names: []string{"Suez Canal"}}, {Port: "santos", Names: []string{"port of Santos"}}}
	job := jobstest.RefreshJob(t, jobs.Sources{News: jobs.SourceRefresh{Refresh: gdelt.News(s.Ch, gdelt.Client{Base: stand.URL + "/api/v2/doc/doc"}, subjects, 10*time.Millisecond), Every: time.Hour}})
	if res, err := job.Run(context.Background(), jobs.State{}); err != nil || res.Rows != 4 {
		t.Fatalf("news run: %+v, %v", res, err)
	}
	key, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	r := s.Do(t, apptest.Request{Path: "/v1/disruptions?hours=24&limit=100", IP: apptest.FreshIP(), Key: key})
	var body disruptionsAPI
	apptest.MustUnmarshal(t, r.Body, &body)
	tones := map[string]float64{}
	for _, sg := range body.Signals {
		if sg.Kind != chokepoint.KindNews || !strings.HasPrefix(sg.URL, "https://example.") {
			continue
		}
		if sg.Tone == nil {
			t.Errorf("%s: tone null", sg.URL)
			continue
		}
		tones[sg.URL] = *sg.Tone
	}
	if r.StatusCode != 200 || len(tones) != 2 || tones["https://example.com/news/2024/01/02/suez-canal-traffic-halted-after-grounding"] != -7 ||
		tones["https://example.org/port-of-santos-strike"] != 2 {
		t.Errorf("tones %v: %d %s", tones, r.StatusCode, r.Body)
	}
}
