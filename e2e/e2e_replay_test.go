package e2e

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"os"
	"overwatch"
	"overwatch/app"
	"overwatch/apptest"
	"overwatch/clickhouse/chtest"
	"overwatch/testclock"
	"overwatch/write/ais"
	"overwatch/write/feed"
	"overwatch/write/ingest"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// aishubSample is three minutes of the worldwide AISHub feed (85,182
// sentences, no timestamps of their own).
const aishubSample = "../write/ais/testdata/ais_aishub_3min_live_sample_gpsd_contrib.log"

// stampedCapture writes the AISHub sample with a tag block on every line,
// one second apart from base, so that every report has a time of its own and
// "the last position of a vessel" is well defined.
func stampedCapture(t testing.TB, base time.Time) (path string, lines []string) {
	t.Helper()
	f, err := os.Open(aishubSample)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for i := 0; sc.Scan(); i++ {
		lines = append(lines, ais.Stamp(strings.TrimSpace(sc.Text()), base.Add(time.Duration(i)*time.Second), ""))
	}
	path = filepath.Join(t.TempDir(), "aishub-stamped.nmea")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\r\n")+"\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, lines
}

// expectedLatest decodes the lines directly and applies the pipeline's
// attribution rule (README, "AIS feeds"): it returns, for every IMO, the
// last position the public lookup must serve.
func expectedLatest(t *testing.T, lines []string, src overwatch.Source) map[overwatch.IMO]ingest.Report {
	t.Helper()
	dec := ais.NewDecoder(ais.Options{})
	var reports []ingest.Report
	for _, l := range lines {
		m, ok := dec.Decode([]byte(l))
		if !ok {
			continue
		}
		if r, ok := feed.FromAIS(&m, src, testclock.Now()); ok {
			reports = append(reports, r)
		}
	}
	return latestOfReports(reports)
}

// latestOfReports applies the pipeline's attribution rule (with a window
// longer than the data) to reports in arrival order: a static report with
// a valid IMO names its MMSI's vessel, and the class A positions that
// waited for it; the newest position of every IMO is the one served.
func latestOfReports(reports []ingest.Report) map[overwatch.IMO]ingest.Report {
	imoOf := map[uint32]overwatch.IMO{}
	static := map[uint32]bool{}
	waiting := map[uint32][]ingest.Report{}
	latest := map[overwatch.IMO]ingest.Report{}
	attribute := func(imo overwatch.IMO, r ingest.Report) {
		if cur, ok := latest[imo]; !ok || !r.TS.Before(cur.TS) {
			latest[imo] = r
		}
	}
	for _, r := range reports {
		if r.Type == 5 || r.Type == 19 || r.Type == 24 {
			static[r.MMSI] = true
			if r.Has&ingest.HasIMO != 0 && r.IMO.Valid() {
				imoOf[r.MMSI] = r.IMO
				for _, w := range waiting[r.MMSI] {
					attribute(r.IMO, w)
				}
				delete(waiting, r.MMSI)
			}
		}
		if r.Has&ingest.HasPosition == 0 {
			continue
		}
		switch imo := imoOf[r.MMSI]; {
		case imo != 0:
			attribute(imo, r)
		case (r.Type <= 3 || r.Type == 27) && !static[r.MMSI]:
			waiting[r.MMSI] = append(waiting[r.MMSI], r)
		}
	}
	return latest
}

func TestReplayServesTheLastPositionOfEveryIMO(t *testing.T) {
	chURL := chtest.URL(t, "e2e_replay")
	base := testclock.Now().UTC().Truncate(time.Second).Add(-30 * time.Hour)
	path, lines := stampedCapture(t, base)
	want := expectedLatest(t, lines, overwatch.SourceAISHub)
	if len(want) < 500 {
		t.Fatalf("only %d IMOs in the capture", len(want))
	}

	env := map[string]string{"CLICKHOUSE_URL": chURL, "OVERWATCH_SPOOL_DIR": t.TempDir(), "OVERWATCH_ATTRIBUTION_WINDOW": "48h"}
	var out, errs strings.Builder
	if err := app.Run(context.Background(), []string{"overwatch", "replay", "--source", "aishub", path}, apptest.ClockEnv(func(k string) string { return env[k] }), &out, &errs); err != nil {
		t.Fatalf("replay: %v\n%s", err, errs.String())
	}
	t.Log(strings.TrimSpace(out.String()))
	if !strings.Contains(out.String(), "0 still spooled") {
		t.Errorf("replay summary: %s", out.String())
	}

	s := apptest.StartServer(t, map[string]string{"CLICKHOUSE_URL": chURL,
		"OVERWATCH_PUBLIC_LIMIT_PER_MINUTE": "1000000", "OVERWATCH_PUBLIC_LIMIT_PER_DAY": "1000000"})
	ip := apptest.FreshIP()
	checkServesLatest(t, s, ip, want, "aishub")
	t.Logf("all %d IMOs served their last decoded position, by provider and by any", len(want))
	counts, err := s.Ch.HealthCounts(context.Background(), testclock.Now())
	if err != nil {
		t.Fatal(err)
	}
	h := s.Do(t, apptest.Request{Path: "/v1/health", IP: ip}).JSON(t)
	if h["positions"] != float64(counts.Positions) || counts.Positions < 60000 || h["vessels"] != float64(len(want)) {
		t.Errorf("health %v, store %+v, %d IMOs", h, counts, len(want))
	}
}

// checkServesLatest asks the public lookup, by provider and by "any", for
// every IMO of want and fails the test unless each answers the position
// of want.
func checkServesLatest(t *testing.T, s *apptest.TestServer, ip string, want map[overwatch.IMO]ingest.Report, provider string) {
	t.Helper()
	mismatches := 0
	for imo, w := range want {
		for _, provider := range []string{provider, "any"} {
			r := s.Do(t, apptest.Request{Path: fmt.Sprintf("/v1/ais/%s/%s/location/latest", provider, imo.String()), IP: ip})
			if r.StatusCode != 200 {
				t.Errorf("IMO %d (%s): %d %s", imo, provider, r.StatusCode, r.Body)
				mismatches++
				continue
			}
			got := r.JSON(t)
			diff := []string{}
			check := func(field string, want any) {
				if fmt.Sprint(got[field]) != fmt.Sprint(want) {
					diff = append(diff, fmt.Sprintf("%s %v, want %v", field, got[field], want))
				}
			}
			check("latitude", w.Lat)
			check("longitude", w.Lon)
			check("timestamp", w.TS.UTC().Format(time.RFC3339))
			check("source", string(w.Source))
			if w.Has&ingest.HasSOG != 0 {
				check("speed_kt", math.Round(w.SOG*10)/10)
			}
			if w.Has&ingest.HasCOG != 0 {
				check("course_deg", math.Round(w.COG*10)/10)
			}
			if w.Has&ingest.HasNavStatus != 0 {
				check("nav_status", ais.NavStatusText(w.NavStatus))
			}
			if len(diff) > 0 {
				mismatches++
				if mismatches < 10 {
					t.Errorf("IMO %d (%s): %s", imo, provider, strings.Join(diff, "; "))
				}
			}
		}
	}
	if mismatches > 0 {
		t.Fatalf("%d of %d lookups differ from the last position", mismatches, 2*len(want))
	}
}
