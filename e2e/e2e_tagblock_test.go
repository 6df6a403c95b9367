package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"overwatch"
	"overwatch/apptest"
	"overwatch/clickhouse/chtest"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// kystverketCapture is 1,000 lines of the Norwegian Coastal
// Administration's open feed whose grouped lines carry the tag-block
// checksum of the block without "g:" and one group id for every group
// (see write/ais/testdata/README.md).
const kystverketCapture = "../write/ais/testdata/ais_aisnet_kystverket_Ais1000Lines.nm4"

// `overwatch run` with the Norwegian capture on a raw NMEA TCP feed,
// sent byte for byte: every vessel whose type 5 carries an IMO and that
// gpsd's reference decoder positions (28) answers the public lookup with
// its last position, and /metrics counts the 246 grouped lines kept despite
// their tag-block checksum, with no invalid line.
func TestRunKeepsTagBlockChecksumSlips(t *testing.T) {
	data, err := os.ReadFile(kystverketCapture)
	if err != nil {
		t.Fatal(err)
	}
	imos := gpsdPositionedIMOs(t, data)
	if len(imos) != 28 {
		t.Fatalf("gpsdecode positions %d vessels with an IMO, want 28", len(imos))
	}
	want := expectedLatest(t, strings.Split(string(data), "\n"), overwatch.SourceAISHub)
	if len(want) != len(imos) {
		t.Errorf("the decoder attributes positions to %d IMOs, gpsdecode %d", len(want), len(imos))
	}
	for imo := range imos {
		if _, ok := want[imo]; !ok {
			t.Errorf("IMO %d: gpsdecode positions it, the decoder does not", imo)
		}
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		// Closing after the capture makes the feed hand its counts over.
		c.Write(data) //nolint:errcheck
		c.Close()
	}()
	s := apptest.StartCommand(t, "run", map[string]string{
		"CLICKHOUSE_URL":                    chtest.URL(t, "e2e_tagblock"),
		"OVERWATCH_FEEDS":                   "aishub=tcp://" + ln.Addr().String(),
		"OVERWATCH_SPOOL_DIR":               t.TempDir(),
		"OVERWATCH_PUBLIC_LIMIT_PER_MINUTE": "100000",
		"OVERWATCH_PUBLIC_LIMIT_PER_DAY":    "1000000",
	})
	ip := apptest.FreshIP()
	for imo := range imos {
		path := fmt.Sprintf("/v1/ais/any/%s/location/latest", imo)
		apptest.Eventually(t, 60*time.Second, path+" served", func() bool {
			return s.Do(t, apptest.Request{Path: path, IP: ip}).StatusCode == 200
		})
	}
	checkServesLatest(t, s, ip, want, "aishub")

	var body []byte
	metric := func(name string) (float64, bool) {
		m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + ` ([0-9.e+]+)$`).FindSubmatch(body)
		if m == nil {
			return 0, false
		}
		v, _ := strconv.ParseFloat(string(m[1]), 64)
		return v, true
	}
	slips := `overwatch_ingest_tag_block_checksum_mismatch_total{reason="without_group"}`
	apptest.Eventually(t, 30*time.Second, "the feed's counts on /metrics", func() bool {
		resp, err := http.Get(s.Metrics + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		body, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
		_, ok := metric(slips)
		return ok
	})
	for name, want := range map[string]float64{
		slips:                             246,
		"overwatch_ingest_received_total": 1000,
		"overwatch_ingest_invalid_total":  0,
	} {
		if got, ok := metric(name); !ok || got != want {
			t.Errorf("%s = %v (present %v), want %v", name, got, ok, want)
		}
	}
	for _, reason := range []string{"mismatch", "missing"} {
		if v, ok := metric(`overwatch_ingest_tag_block_checksum_mismatch_total{reason="` + reason + `"}`); ok && v != 0 {
			t.Errorf("reason %s counted %v", reason, v)
		}
	}
}

// gpsdPositionedIMOs decodes a capture with gpsd's reference decoder
// (gpsdecode, Debian package gpsd-clients; the test skips without it
// unless CI=true) and returns the valid IMOs of the type 5 reports whose
// MMSI also reports a position (a latitude and longitude other than gpsd's
// "not available" 91 and 181).
func gpsdPositionedIMOs(t *testing.T, capture []byte) map[overwatch.IMO]bool {
	t.Helper()
	bin, err := exec.LookPath("gpsdecode")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("gpsdecode not found: install the Debian package gpsd-clients")
		}
		t.Skip("gpsdecode not found (Debian package gpsd-clients)")
	}
	// gpsdecode reads a line only once it ends.
	path := filepath.Join(t.TempDir(), "capture.nmea")
	if err := os.WriteFile(path, append(bytes.TrimRight(capture, "\r\n"), '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	cmd := exec.Command(bin, "-j")
	cmd.Stdin = in
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("gpsdecode: %v", err)
	}
	imoOf := map[uint32]overwatch.IMO{}
	positioned := map[uint32]bool{}
	for _, line := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
		var r struct {
			Type     int
			MMSI     uint32
			IMO      uint32
			Lat, Lon *float64
		}
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatalf("gpsdecode: %v: %s", err, line)
		}
		if r.Type == 5 && overwatch.IMO(r.IMO).Valid() {
			imoOf[r.MMSI] = overwatch.IMO(r.IMO)
		}
		if r.Lat != nil && r.Lon != nil && *r.Lat != 91 && *r.Lon != 181 {
			positioned[r.MMSI] = true
		}
	}
	imos := map[overwatch.IMO]bool{}
	for mmsi, imo := range imoOf {
		if positioned[mmsi] {
			imos[imo] = true
		}
	}
	return imos
}
