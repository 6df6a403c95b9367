package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	sanctionsource "overwatch/sources/sanctions"
	"path/filepath"
	"strings"
	"testing"

	"overwatch"

	"overwatch/clickhouse"
	"overwatch/clickhouse/chtest"
	"overwatch/maritime/sanctions"
	"overwatch/maritime/vessel"
	"overwatch/postgres/pgtest"
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

// testSDN is one vessel entry of the OFAC legacy SDN file.
const testSDN = "15036,\"ARTAVIL\",\"vessel\",\"IRAN\",-0- ,\"T2EU4\",\"Crude/Oil Products Tanker\",\"99,144\",\"56,068\",\"Iran\",-0- ," +
	"\"Vessel Registration Identification IMO 9187629; MMSI 572469210; Linked To: NATIONAL IRANIAN TANKER COMPA\"\r\n"

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
	parsed, err := sanctionsource.ParseFiles([]string{filepath.Join(dir, "sanctions_ofac_sdn_2021-07_full.csv"),
		filepath.Join(dir, "sanctions_ofac_alt_2021-07_full.csv"), filepath.Join(dir, "sanctions_ofac_sdn_comments_2021-07.csv")}, sanctionsource.ListOFACSDN)
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
