package e2e

import (
	"bytes"
	"context"
	"encoding/csv"
	"io"
	"math"
	"net/url"
	"os"
	"os/exec"
	"overwatch"
	"overwatch/app"
	"overwatch/apptest"
	"overwatch/clickhouse/chtest"
	"overwatch/jobs"
	"overwatch/maritime/emissions"
	"overwatch/maritime/voyage"
	"overwatch/postgres/pgtest"
	"overwatch/read"
	"overwatch/reports"
	"overwatch/testclock"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3filter"
)

// The PDF answer of /emissions/report is validated as a binary body.
var _ = func() bool {
	openapi3filter.RegisterBodyDecoder("application/pdf", openapi3filter.FileBodyDecoder)
	return true
}()

// simulateRecent is simulateForEval over the days up to today (UTC
// midnight), so that the plans' history depths cut into the data.
func simulateRecent(t *testing.T, name string, seed uint64, vessels, days int) *apptest.EvalRun {
	t.Helper()
	return simulateUntil(t, name, seed, vessels, days, testclock.Today())
}

// simulateUntil is simulateForEval over the days up to end (usually a
// UTC midnight).
func simulateUntil(t *testing.T, name string, seed uint64, vessels, days int, end time.Time) *apptest.EvalRun {
	t.Helper()
	r := &apptest.EvalRun{ChURL: chtest.URL(t, name), PgURL: pgtest.URL(t, name)}
	r.End = end
	r.Start = r.End.Add(-time.Duration(days) * 24 * time.Hour)
	r.TruthPath = filepath.Join(t.TempDir(), "truth.jsonl")
	r.Env = map[string]string{"CLICKHOUSE_URL": r.ChURL, "DATABASE_URL": r.PgURL, "OVERWATCH_SPOOL_DIR": t.TempDir(), "OVERWATCH_LOG_LEVEL": "warn"}
	if err := app.Run(context.Background(), []string{"overwatch", "simulate", "--seed", strconv.FormatUint(seed, 10), "--vessels", strconv.Itoa(vessels),
		"--days", strconv.Itoa(days), "--start", r.Start.Format(time.RFC3339), "--truth", r.TruthPath}, r.Getenv, io.Discard, os.Stderr); err != nil {
		t.Fatal(err)
	}
	return r
}

// emissionsPage is the JSON of /v1/emissions.
type emissionsPage struct {
	Fleet      emissions.Totals       `json:"fleet"`
	Grouped    []emissions.Group      `json:"grouped"`
	Voyages    []read.EmissionsVoyage `json:"voyages"`
	Pagination read.Pagination        `json:"pagination"`
}

// emissionsReportJSON is the JSON of /v1/emissions/report.
type emissionsReportJSON struct {
	Report     reports.EmissionsReport    `json:"report"`
	Voyages    []read.EmissionsReportLine `json:"voyages"`
	Pagination read.Pagination            `json:"pagination"`
}

// The emissions job and both endpoints through the real pipeline: a
// seeded simulation of the last days, the port-call and emissions jobs,
// the server on the same databases, keys of each plan.
func TestEmissionsEndToEnd(t *testing.T) {
	t.Parallel() // its own databases
	began := time.Now()
	r := simulateRecent(t, "emissions_e2e", 11, 150, 16)
	out := &apptest.SyncWriter{}
	r.Command(t, out, "jobs", "--job", "port_calls")
	r.Command(t, out, "jobs", "--job", "emissions")
	t.Logf("simulated and derived in %s\n%s", time.Since(began).Round(time.Millisecond), out)
	s := apptest.StartServer(t, map[string]string{"CLICKHOUSE_URL": r.ChURL, "DATABASE_URL": r.PgURL})
	free, _ := s.NewKey(t, apptest.UniqueEmail(t)+"-free", overwatch.PlanFree)
	starter, _ := s.NewKey(t, apptest.UniqueEmail(t)+"-starter", overwatch.PlanStarter)
	pro, _ := s.NewKey(t, apptest.UniqueEmail(t)+"-pro", overwatch.PlanPro)
	get := func(key, path string, status int) apptest.Response {
		t.Helper()
		resp := s.Do(t, apptest.Request{Path: path, IP: apptest.FreshIP(), Key: key})
		if resp.StatusCode != status {
			t.Fatalf("%s: %d %s, want %d", path, resp.StatusCode, resp.Body, status)
		}
		return resp
	}
	page := func(key, path string) emissionsPage {
		t.Helper()
		var p emissionsPage
		apptest.MustUnmarshal(t, get(key, path, 200).Body, &p)
		return p
	}

	// Every voyage, for Pro (no history floor).
	all := page(pro, "/v1/emissions?limit=500")
	n := all.Fleet.Voyages
	t.Logf("%d voyages in all", n)
	if n < 10 || len(all.Voyages) != min(n, 500) || all.Pagination.HasMore != (n > 500) {
		t.Fatalf("%d voyages, %d on the page, has_more %v", n, len(all.Voyages), all.Pagination.HasMore)
	}
	var bottomUp, ais int
	for i, v := range all.Voyages {
		if i > 0 && v.Arrival.After(all.Voyages[i-1].Arrival) {
			t.Errorf("voyage %d arrives after the one before it", i)
		}
		if v.TTW.Low > v.TTW.Central || v.TTW.Central > v.TTW.High || v.Arrival.Before(r.Start) || v.Arrival.After(r.End) {
			t.Errorf("voyage %s: %+v", v.ID, v.TTW)
		}
		if v.Method == emissions.MethodBottomUp {
			bottomUp++
		}
		if v.AISDistance {
			ais++
		}
	}
	t.Logf("%d voyages: %d bottom-up, %d on AIS distance; fleet TTW %.1f t CO2e (%.1f-%.1f)", n, bottomUp, ais,
		all.Fleet.TTW.Central, all.Fleet.TTW.Low, all.Fleet.TTW.High)
	if bottomUp == 0 || ais == 0 || all.Fleet.TTW.Central <= 0 {
		t.Errorf("no bottom-up voyage (%d) or none on an AIS distance (%d)", bottomUp, ais)
	}

	// A walk through the pages (Starter) sees every voyage once, and every
	// page carries the totals of all of them.
	seen := map[string]int{}
	next := "/v1/emissions?limit=7"
	for pages := 0; next != ""; pages++ {
		p := page(starter, next)
		if pages > n || len(p.Voyages) > 7 || p.Fleet.Voyages != n || !nearly(p.Fleet.TTW.Central, all.Fleet.TTW.Central) {
			t.Fatalf("page %d: %d voyages, fleet %d", pages, len(p.Voyages), p.Fleet.Voyages)
		}
		for _, v := range p.Voyages {
			seen[v.ID]++
		}
		next = ""
		if p.Pagination.HasMore {
			next = "/v1/emissions?limit=7&cursor=" + url.QueryEscape(*p.Pagination.NextCursor)
		} else if p.Pagination.NextCursor != nil {
			t.Errorf("last page with a cursor")
		}
	}
	for _, v := range all.Voyages {
		if seen[v.ID] != 1 {
			t.Errorf("voyage %s seen %d times in the walk", v.ID, seen[v.ID])
		}
	}
	if len(seen) != n {
		t.Errorf("walk saw %d voyages, want %d", len(seen), n)
	}

	// Tiers: results per call and history depth.
	fp := page(free, "/v1/emissions?limit=500")
	floor := testclock.Now().Add(-7 * 24 * time.Hour)
	lo, hi := 0, 0
	for _, v := range all.Voyages {
		if v.Arrival.After(floor.Add(time.Minute)) {
			lo++
		}
		if v.Arrival.After(floor.Add(-time.Minute)) {
			hi++
		}
	}
	if len(fp.Voyages) > 20 || fp.Fleet.Voyages < lo || fp.Fleet.Voyages > hi || fp.Fleet.Voyages >= n {
		t.Errorf("free: %d voyages on the page, %d in all; want at most 20, and %d-%d of %d", len(fp.Voyages), fp.Fleet.Voyages, lo, hi, n)
	}
	for _, v := range fp.Voyages {
		if v.Arrival.Before(floor.Add(-time.Minute)) {
			t.Errorf("free sees voyage %s that ended %s", v.ID, v.Arrival)
		}
	}
	if sp := page(starter, "/v1/emissions?limit=500"); len(sp.Voyages) != min(n, 100) || sp.Fleet.Voyages != n {
		t.Errorf("starter: %d voyages on the page, %d in all", len(sp.Voyages), sp.Fleet.Voyages)
	}

	// Grouping adds up to the fleet.
	for _, g := range []string{"imo", "port", "commodity"} {
		p := page(pro, "/v1/emissions?limit=1&group_by="+g)
		var voyages int
		var ttw float64
		for _, grp := range p.Grouped {
			voyages += grp.Voyages
			ttw += grp.TTW.Central
		}
		if len(p.Grouped) == 0 || voyages != n || !nearly(ttw, p.Fleet.TTW.Central) {
			t.Errorf("group_by=%s: %d groups, %d voyages, %.3f t vs fleet %.3f", g, len(p.Grouped), voyages, ttw, p.Fleet.TTW.Central)
		}
	}
	if p := page(pro, "/v1/emissions?limit=1"); len(p.Grouped) != 0 {
		t.Errorf("no group_by: %d groups", len(p.Grouped))
	}

	// Filters: a vessel, a port.
	v0 := all.Voyages[0]
	if p := page(pro, "/v1/emissions?limit=500&imo="+v0.IMO.String()); p.Fleet.Voyages == 0 || p.Fleet.Voyages >= n {
		t.Errorf("imo=%s: %d voyages", v0.IMO, p.Fleet.Voyages)
	} else {
		for _, v := range p.Voyages {
			if v.IMO != v0.IMO {
				t.Errorf("imo=%s answered %s", v0.IMO, v.IMO)
			}
		}
	}
	for _, v := range page(pro, "/v1/emissions?limit=500&port="+v0.To).Voyages {
		if v.From != v0.To && v.To != v0.To {
			t.Errorf("port=%s answered %s > %s", v0.To, v.From, v.To)
		}
	}

	// Overrides recompute every voyage.
	dist := page(pro, "/v1/emissions?limit=500&distance_nm=1000")
	if dist.Fleet.Voyages != n || !nearly(dist.Fleet.DistanceNM, 1000*float64(n)) {
		t.Errorf("distance_nm=1000: fleet distance %.1f over %d voyages", dist.Fleet.DistanceNM, dist.Fleet.Voyages)
	}
	for _, v := range dist.Voyages {
		if v.DistanceNM != 1000 || v.DistanceSource != "override" || !v.HasFlag(emissions.FlagDistanceOverride) {
			t.Errorf("distance_nm=1000: voyage %s %.1f nm from %s", v.ID, v.DistanceNM, v.DistanceSource)
		}
	}
	meth := page(pro, "/v1/emissions?limit=500&fuel_type=methanol")
	if nearly(meth.Fleet.TTW.Central, all.Fleet.TTW.Central) || meth.Voyages[0].Fuel != emissions.FuelMethanol {
		t.Errorf("fuel_type=methanol: TTW %.1f vs %.1f, fuel %s", meth.Fleet.TTW.Central, all.Fleet.TTW.Central, meth.Voyages[0].Fuel)
	}
	slow := page(pro, "/v1/emissions?limit=500&speed_knots=8")
	if nearly(slow.Fleet.FuelTonnes.Central, all.Fleet.FuelTonnes.Central) || !slow.Voyages[0].HasFlag(emissions.FlagSpeedOverride) {
		t.Errorf("speed_knots=8: fuel %.1f vs %.1f", slow.Fleet.FuelTonnes.Central, all.Fleet.FuelTonnes.Central)
	}

	// CSV: the same rows as the JSON voyages, in order; Starter and above.
	resp := get(starter, "/v1/emissions?format=csv&limit=500", 200)
	if resp.Header.Get("Content-Type") != "text/csv; charset=utf-8" || !strings.HasPrefix(resp.Header.Get("Content-Disposition"), `attachment; filename="overwatch-emissions-`) {
		t.Errorf("CSV headers: %v", resp.Header)
	}
	recs, err := csv.NewReader(bytes.NewReader(resp.Body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != min(n, 500)+1 || recs[0][0] != "imo" {
		t.Fatalf("CSV: %d records for %d voyages", len(recs), n)
	}
	for i, v := range all.Voyages {
		if rec := recs[i+1]; rec[0] != v.IMO.String() || rec[5] != v.Departure.UTC().Format(time.RFC3339) || rec[14] != reports.Number(v.TTW.Central, 3) {
			t.Errorf("CSV row %d %v, JSON voyage %s %s %.3f", i+1, rec[:6], v.IMO, v.Departure, v.TTW.Central)
			break
		}
	}
	get(free, "/v1/emissions?format=csv", 403)

	// The report: JSON totals equal those of /emissions over the same
	// period; the CSV has every voyage; the PDF shows the same numbers.
	period := "start=" + url.QueryEscape(r.Start.Format(time.RFC3339)) + "&end=" + url.QueryEscape(r.End.Add(24*time.Hour).Format(time.RFC3339))
	var rep emissionsReportJSON
	apptest.MustUnmarshal(t, get(pro, "/v1/emissions/report?entity=Acme+Grain+AG&limit=5&"+period, 200).Body, &rep)
	tot := rep.Report.Totals
	if rep.Report.Entity != "Acme Grain AG" || tot.Voyages != n || rep.Report.VoyagesTotal != n || !nearly(tot.TTW.Central, all.Fleet.TTW.Central) ||
		!nearly(tot.WTW.High, all.Fleet.WTW.High) || len(rep.Voyages) != 5 || !rep.Pagination.HasMore || len(rep.Report.Voyages) != 0 ||
		len(rep.Report.Factors) == 0 || len(rep.Report.ByMonth) == 0 || rep.Voyages[0].ID != all.Voyages[0].ID {
		t.Errorf("report: %+v, %d voyages", tot, len(rep.Voyages))
	}
	resp = get(pro, "/v1/emissions/report?format=csv&"+period, 200)
	if recs, err := csv.NewReader(bytes.NewReader(resp.Body)).ReadAll(); err != nil || len(recs) != n+1 {
		t.Errorf("report CSV: %d records (%v), want %d", len(recs), err, n+1)
	}
	resp = get(pro, "/v1/emissions/report?format=pdf&entity=Acme+Grain+AG&"+period, 200)
	if resp.Header.Get("Content-Type") != "application/pdf" || !strings.HasSuffix(resp.Header.Get("Content-Disposition"), `.pdf"`) || !bytes.HasPrefix(resp.Body, []byte("%PDF-")) {
		t.Fatalf("PDF: %v, %d bytes", resp.Header, len(resp.Body))
	}
	text := pdfToText(t, resp.Body)
	row := rep.Voyages[0]
	for _, want := range []string{"Acme Grain AG",
		"Tank-to-wake emissions (t CO2e) " + grouped(tot.TTW.Low, 1) + " " + grouped(tot.TTW.Central, 1) + " " + grouped(tot.TTW.High, 1),
		"Well-to-wake emissions (t CO2e) " + grouped(tot.WTW.Low, 1) + " " + grouped(tot.WTW.Central, 1) + " " + grouped(tot.WTW.High, 1),
		row.IMO + " " + row.From,
		grouped(row.TTW.Central, 1) + " " + grouped(row.TTW.Low, 1) + " - " + grouped(row.TTW.High, 1),
	} {
		if !strings.Contains(text, want) {
			t.Errorf("PDF text lacks %q", want)
		}
	}
	get(free, "/v1/emissions/report?format=pdf", 403)

	// Errors name the parameter.
	for path, want := range map[string]string{
		"/v1/emissions?cursor=bm90LWEtY3Vyc29y":                   "cursor",
		"/v1/emissions?cursor=%25%25":                             "cursor",
		"/v1/emissions?fuel_type=coal":                            "fuel_type",
		"/v1/emissions?distance_nm=-5":                            "distance_nm",
		"/v1/emissions?speed_knots=fast":                          "speed_knots",
		"/v1/emissions?speed_knots=90":                            "speed_knots",
		"/v1/emissions?group_by=flag":                             "group_by",
		"/v1/emissions?format=xml":                                "format",
		"/v1/emissions?limit=0":                                   "limit",
		"/v1/emissions?imo=123":                                   "imo",
		"/v1/emissions?start=yesterday":                           "start",
		"/v1/emissions?start=2026-03-02&end=2026-03-01":           "end",
		"/v1/emissions/report?format=docx":                        "format",
		"/v1/emissions/report?entity=" + strings.Repeat("x", 201): "entity",
	} {
		var e struct{ Error string }
		apptest.MustUnmarshal(t, get(pro, path, 400).Body, &e)
		if !strings.Contains(e.Error, want) {
			t.Errorf("%s: %q does not name %s", path, e.Error, want)
		}
	}
	get(pro, "/v1/emissions?port=atlantis", 400) // an unknown port is a bad parameter
	get("", "/v1/emissions", 401)

	// Cursor stability: the page after a cursor is the same after a new
	// run of the job and a voyage that ended since.
	first := page(pro, "/v1/emissions?limit=5")
	after := "/v1/emissions?limit=5&cursor=" + url.QueryEscape(*first.Pagination.NextCursor)
	before := page(pro, after)
	r.Command(t, io.Discard, "jobs", "--job", "emissions")
	// The new voyage arrives after every simulated one, even when the test
	// runs just after midnight and the simulation ends at that midnight.
	now := testclock.Now().UTC().Add(-2 * time.Minute).Truncate(time.Second)
	if latest := all.Voyages[0].Arrival.Add(time.Second); latest.After(now) {
		now = latest
	}
	in := emissions.VoyageInput{IMO: 9999999, Name: "LATE ARRIVAL", ShipType: 70, From: "santos", To: "rotterdam",
		Departure: now.Add(-100 * time.Hour), Arrival: now, DWT: 60000, SeaLaneDistanceNM: 5000}
	rec := voyage.Record{ID: voyage.ID(9999999, in.Departure), Input: in, Result: emissions.ComputeVoyage(in)}
	if err := s.Ch.WriteVoyageEmissions(context.Background(), jobs.Generation(), []time.Time{now.Truncate(24 * time.Hour)}, []voyage.Record{rec}); err != nil {
		t.Fatal(err)
	}
	apptest.Eventually(t, 5*time.Second, "the new voyage", func() bool {
		p := page(pro, "/v1/emissions?limit=5")
		return len(p.Voyages) > 0 && p.Voyages[0].ID == rec.ID && p.Fleet.Voyages == n+1
	})
	again := page(pro, after)
	if len(again.Voyages) != len(before.Voyages) {
		t.Fatalf("after a re-run: %d voyages after the cursor, %d before", len(again.Voyages), len(before.Voyages))
	}
	for i := range again.Voyages {
		if again.Voyages[i].ID != before.Voyages[i].ID {
			t.Errorf("after a re-run, voyage %d after the cursor is %s, was %s", i, again.Voyages[i].ID, before.Voyages[i].ID)
		}
	}
	t.Logf("end to end in %s", time.Since(began).Round(time.Millisecond))
}

// nearly reports whether a and b agree to 1e-9 relative.
func nearly(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// grouped formats v as the PDF does: decimals digits, thousands separated by commas.
func grouped(v float64, decimals int) string {
	s := reports.Number(v, decimals)
	whole, frac, dot := strings.Cut(s, ".")
	var b strings.Builder
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if dot {
		b.WriteString("." + frac)
	}
	return b.String()
}

// pdfToText extracts the text of a PDF with pdftotext -layout, runs of
// spaces collapsed to one.
func pdfToText(t *testing.T, pdf []byte) string {
	t.Helper()
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("pdftotext (poppler-utils) is not installed")
		}
		t.Skip("pdftotext (poppler-utils) is not installed")
	}
	path := filepath.Join(t.TempDir(), "report.pdf")
	if err := os.WriteFile(path, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "-layout", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return regexp.MustCompile(` +`).ReplaceAllString(string(out), " ")
}
