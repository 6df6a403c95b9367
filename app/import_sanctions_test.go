package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"overwatch"

	"overwatch/clickhouse"
	"overwatch/clickhouse/chtest"
	"overwatch/jobs"
	"overwatch/maritime/sanctions"
	"overwatch/maritime/vessel"
	"overwatch/postgres/pgtest"
	"overwatch/write"
	"overwatch/write/sim"
)

// sanctionsDataDir finds shared/data/sanctions above the working directory.
func sanctionsDataDir(t *testing.T) string {
	t.Helper()
	dir, _ := os.Getwd()
	for range 6 {
		d := filepath.Join(dir, "shared", "data", "sanctions")
		if _, err := os.Stat(filepath.Join(d, "sanctions_ofac_sdn_2021-07_full.csv")); err == nil {
			return d
		}
		dir = filepath.Dir(dir)
	}
	t.Skip("the OFAC files of shared/data/sanctions are not here")
	return ""
}

const testSDN = "15036,\"ARTAVIL\",\"vessel\",\"IRAN\",-0- ,\"T2EU4\",\"Crude/Oil Products Tanker\",\"99,144\",\"56,068\",\"Iran\",-0- ," +
	"\"Vessel Registration Identification IMO 9187629; MMSI 572469210; Linked To: NATIONAL IRANIAN TANKER COMPA\"\r\n"

// sanctionsServer serves the three files under /exports/.
func sanctionsServer(t *testing.T, files map[string]string) (*httptest.Server, *atomic.Int32) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		body, ok := files[strings.TrimPrefix(r.URL.Path, "/exports/")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

func TestFetchSanctions(t *testing.T) {
	files := map[string]string{sdnFile: testSDN, altFile: "15036,1,\"fka\",\"ABADAN\",-0- \r\n", sdnCommentsFile: "15036,\"NY.\"\r\n"}
	srv, hits := sanctionsServer(t, files)
	ctx := context.Background()
	sdn, alt, comments, err := fetchSanctions(ctx, srv.URL+"/exports") // no trailing slash
	if err != nil {
		t.Fatal(err)
	}
	if string(sdn) != files[sdnFile] || string(alt) != files[altFile] || string(comments) != files[sdnCommentsFile] || hits.Load() != 3 {
		t.Errorf("fetched %q %q %q in %d requests", sdn, alt, comments, hits.Load())
	}
	store := &fakeSanctionsStore{}
	n, err := refreshSanctions(ctx, store, srv.URL+"/exports/", "OFAC SDN")
	if err != nil || n != 1 || store.list != "OFAC SDN" || len(store.entries) != 1 {
		t.Fatalf("refresh: %d, %v, %+v", n, err, store)
	}
	if e := store.entries[0]; e.IMO != 9187629 || e.Aliases[0] != "ABADAN" || !strings.HasSuffix(e.Remarks, "COMPANY.") {
		t.Errorf("refreshed %+v", e)
	}
	job := refreshJob(t, jobs.Sources{Sanctions: jobs.SourceRefresh{Source: sanctionsSource(store, srv.URL+"/exports/", "OFAC SDN"), Every: time.Hour}})
	if res, err := job.Run(ctx, jobs.State{}); err != nil || res.Rows != 1 || job.Name != "sanctions_refresh" {
		t.Errorf("job: %+v %v", res, err)
	}

	// A missing file, a bad URL, a broken file: errors, nothing replaced.
	delete(files, sdnCommentsFile)
	store.entries = nil
	if _, err := refreshSanctions(ctx, store, srv.URL+"/exports/", "OFAC SDN"); err == nil || !strings.Contains(err.Error(), "404") || store.entries != nil {
		t.Errorf("missing file: %v", err)
	}
	files[sdnCommentsFile] = ""
	files[sdnFile] = "1,\"A\",\"vessel\"\r\n"
	if _, err := refreshSanctions(ctx, store, srv.URL+"/exports/", "OFAC SDN"); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("broken file: %v", err)
	}
	if _, _, _, err := fetchSanctions(ctx, "file:///etc/"); err == nil {
		t.Error("a file URL was fetched")
	}
}

func TestFetchSanctionsLimits(t *testing.T) {
	big := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		chunk := bytes.Repeat([]byte("x"), 1<<20)
		for range sanctionsMaxBytes>>20 + 1 {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	defer big.Close()
	if _, _, _, err := fetchSanctions(context.Background(), big.URL); err == nil || !strings.Contains(err.Error(), "larger than 50 MB") {
		t.Errorf("oversized file: %v", err)
	}
	release := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer slow.Close()
	defer close(release)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, _, _, err := fetchSanctions(ctx, slow.URL); !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Errorf("slow server: %v after %v", err, time.Since(start))
	}
}

type fakeSanctionsStore struct {
	list    string
	entries []sanctions.Entry
}

func (f *fakeSanctionsStore) ReplaceSanctions(_ context.Context, list string, entries []sanctions.Entry) error {
	f.list, f.entries = list, entries
	return nil
}

func TestImportSanctionsUsage(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	for _, args := range [][]string{{}, {"a", "b", "c", "d"}, {"--url", "http://x/", "sdn.csv"}, {"--bogus"}} {
		var stderr bytes.Buffer
		if err := importSanctions(context.Background(), Config{}, log, args, io.Discard, &stderr); !errors.Is(err, ErrUsage) ||
			!strings.Contains(stderr.String(), "usage: overwatch import sanctions") {
			t.Errorf("%q: %v, %q", args, err, stderr.String())
		}
	}
	var stderr bytes.Buffer
	err := importSanctions(context.Background(), Config{}, log, []string{"/nonexistent/SDN.CSV"}, io.Discard, &stderr)
	if err == nil || errors.Is(err, ErrUsage) {
		t.Errorf("missing file: %v", err)
	}
}

// Every simulated vessel sailing under a sanctioned IMO (write/sim's
// sanctioned.json, taken from the same OFAC list) matches its entry
// directly; no other simulated vessel matches by MMSI or name with
// confidence.
func TestSimulatedSanctionedVesselsMatch(t *testing.T) {
	dir := sanctionsDataDir(t)
	parsed, err := parseSanctionsFiles([]string{filepath.Join(dir, "sanctions_ofac_sdn_2021-07_full.csv"),
		filepath.Join(dir, "sanctions_ofac_alt_2021-07_full.csv"), filepath.Join(dir, "sanctions_ofac_sdn_comments_2021-07.csv")}, write.ListOFACSDN)
	if err != nil {
		t.Fatal(err)
	}
	entries := parsed

	// Every IMO of sanctioned.json is on the list.
	raw, err := os.ReadFile("../write/sim/sanctioned.json")
	if err != nil {
		t.Fatal(err)
	}
	var listed []struct {
		IMO  overwatch.IMO `json:"imo"`
		Name string        `json:"name"`
	}
	if err := json.Unmarshal(raw, &listed); err != nil {
		t.Fatal(err)
	}
	var all []vessel.Profile
	for _, s := range listed {
		all = append(all, vessel.Profile{IMO: s.IMO, Name: s.Name})
	}
	direct := map[overwatch.IMO]bool{}
	for _, m := range sanctions.MatchVessels(entries, all, nil) {
		if m.MatchType == sanctions.MatchIMO {
			direct[m.IMO] = true
		}
	}
	for _, s := range listed {
		if !direct[s.IMO] {
			t.Errorf("sanctioned.json's %d %s has no direct IMO match", s.IMO, s.Name)
		}
	}

	// The default fleet.
	fleet, err := sim.NewFleet(7, 800, 12, 40)
	if err != nil {
		t.Fatal(err)
	}
	var vessels []vessel.Profile
	var identities []vessel.Identity
	sanctioned := 0
	for _, v := range fleet {
		vessels = append(vessels, vessel.Profile{IMO: v.IMO, Name: v.Name, Flag: v.Flag, ShipType: v.ShipType, BuildYear: v.BuildYear})
		identities = append(identities, vessel.Identity{IMO: v.IMO, MMSI: v.MMSI, Name: v.Name, CallSign: v.CallSign, Flag: v.Flag, ShipType: v.ShipType})
		if v.Sanctioned != "" {
			sanctioned++
		}
	}
	if sanctioned != 12 {
		t.Fatalf("%d sanctioned vessels in the fleet, want 12", sanctioned)
	}
	got := map[overwatch.IMO]sanctions.Match{}
	for _, m := range sanctions.MatchVessels(entries, vessels, identities) {
		if b, ok := got[m.IMO]; !ok || m.Confidence > b.Confidence {
			got[m.IMO] = m
		}
	}
	for _, v := range fleet {
		m, ok := got[v.IMO]
		switch {
		case v.Sanctioned != "" && (!ok || m.MatchType != sanctions.MatchIMO || m.Confidence != 1):
			t.Errorf("sanctioned %d %s: %+v", v.IMO, v.Name, m)
		case v.Sanctioned == "" && ok && m.MatchType == sanctions.MatchIMO:
			// The simulator keeps the list's IMOs for its sanctioned
			// vessels (sim.NewFleet).
			t.Errorf("simulator IMO collision: %d %s is %s's IMO on the list", v.IMO, v.Name, m.Entry.Name)
		case v.Sanctioned == "" && ok && m.Confidence >= sanctions.ConfidenceName:
			t.Errorf("%d %s (%s) matches %s %s on %q with confidence %.2f", v.IMO, v.Name, v.Flag, m.Entry.EntryID, m.Entry.Name,
				m.MatchedOn, m.Confidence)
		}
	}
}

// The command imports the files into the store, and a second import
// replaces the first.
func TestImportSanctionsCommand(t *testing.T) {
	cfg := Config{ClickHouseURL: chtest.URL(t, "import_sanctions"), DatabaseURL: pgtest.URL(t, "import_sanctions")}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	dir := t.TempDir()
	file := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	sdn, alt := file("SDN.CSV", testSDN), file("ALT.CSV", "15036,1,\"fka\",\"ABADAN\",-0- \r\n")
	var stdout bytes.Buffer
	if err := importSanctions(context.Background(), cfg, log, []string{"--list", "TEST SDN", sdn, alt}, &stdout, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "TEST SDN: 1 vessel entries imported (1 with an IMO number, 1 with an MMSI)") {
		t.Errorf("stdout %q", stdout.String())
	}
	db, err := clickhouse.Open(cfg.ClickHouseURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	got, err := db.SanctionsEntries(context.Background())
	if err != nil || len(got) != 1 || got[0].ListSource != "TEST SDN" || got[0].IMO != 9187629 || got[0].Aliases[0] != "ABADAN" {
		t.Fatalf("%+v, %v", got, err)
	}
	sdn2 := file("SDN2.CSV", strings.Replace(testSDN, "15036,\"ARTAVIL\"", "15040,\"OTHER\"", 1))
	if err := importSanctions(context.Background(), cfg, log, []string{"--list", "TEST SDN", sdn2}, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	if got, err = db.SanctionsEntries(context.Background()); err != nil || len(got) != 1 || got[0].EntryID != "15040" {
		t.Errorf("after the second import: %+v, %v", got, err)
	}
}
