package actuals

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// usdaReports are the real WA_GR101 issues of testdata/usda, with numbers
// read off each file by hand: the TOTAL line of the port-area table, the
// summary table's CORN (which the port-area table splits into yellow and
// white), and the Mississippi R. and Puget Sound rows.
var usdaReports = []struct {
	file                       string
	issued, weekEnding, monday string
	columns                    []string
	total, wheatTotal          int64
	summaryCorn                int64
	miss, puget                map[string]int64 // by column
	areas                      int
}{
	{
		file: "ams_wa_gr101_grain_inspections_for_export_2026-04-30.txt", issued: "2026-05-04", weekEnding: "2026-04-30", monday: "2026-04-27",
		columns: []string{"WHEAT", "CORN YELLOW", "CORN WHITE", "SORGHUM", "SOYBEANS", "FLAXSEED"},
		total:   3_055_617, wheatTotal: 434_204, summaryCorn: 2_027_942,
		miss:  map[string]int64{"WHEAT": 112_377, "CORN YELLOW": 736_510, "CORN WHITE": 14_050, "SORGHUM": 0, "SOYBEANS": 258_001, "FLAXSEED": 0},
		puget: map[string]int64{"WHEAT": 122, "CORN YELLOW": 197_572, "CORN WHITE": 0, "SORGHUM": 79_072, "SOYBEANS": 0, "FLAXSEED": 0},
		areas: 9,
	},
	{
		file: "ams_wa_gr101_grain_inspections_for_export_2026-08-06.txt", issued: "2026-08-10", weekEnding: "2026-08-06", monday: "2026-08-03",
		columns: []string{"WHEAT", "CORN YELLOW", "CORN WHITE", "SORGHUM", "SOYBEANS", "CANOLA"},
		total:   2_658_406, wheatTotal: 421_277, summaryCorn: 1_740_119,
		miss:  map[string]int64{"WHEAT": 37_640, "CORN YELLOW": 898_371, "CORN WHITE": 26_977, "SORGHUM": 0, "SOYBEANS": 260_822, "CANOLA": 30_128},
		puget: map[string]int64{"WHEAT": 661, "CORN YELLOW": 69_169, "CORN WHITE": 0, "SORGHUM": 0, "SOYBEANS": 0, "CANOLA": 0},
		areas: 7,
	},
}

func readUSDA(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "usda", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseGrainInspectionsRealReports(t *testing.T) {
	t.Parallel()
	for _, want := range usdaReports {
		raw := readUSDA(t, want.file)
		if !bytes.Contains(raw, []byte("\r\n")) || !IsGrainInspections(raw) {
			t.Fatalf("%s: not the CRLF report", want.file)
		}
		rep, err := ParseGrainInspections(bytes.NewReader(raw))
		if err != nil {
			t.Fatalf("%s: %v", want.file, err)
		}
		if d := rep.Issued.Format(time.DateOnly); d != want.issued {
			t.Errorf("%s: issued %s, want %s", want.file, d, want.issued)
		}
		if d := rep.WeekEnding.Format(time.DateOnly); d != want.weekEnding {
			t.Errorf("%s: week ending %s, want %s", want.file, d, want.weekEnding)
		}
		if strings.Join(rep.Grains, "|") != strings.Join(want.columns, "|") {
			t.Errorf("%s: columns %q, want %q", want.file, rep.Grains, want.columns)
		}
		if len(rep.Areas) != want.areas {
			t.Errorf("%s: %d port areas: %+v", want.file, len(rep.Areas), rep.Areas)
		}
		var total int64
		for _, n := range rep.Totals {
			total += n
		}
		if total != want.total || rep.Totals["WHEAT"] != want.wheatTotal {
			t.Errorf("%s: total %d, wheat %d; the file says %d and %d", want.file, total, rep.Totals["WHEAT"], want.total, want.wheatTotal)
		}
		// The summary table's corn is the port-area table's yellow + white.
		if c := rep.Totals["CORN YELLOW"] + rep.Totals["CORN WHITE"]; c != want.summaryCorn {
			t.Errorf("%s: corn %d, the summary says %d", want.file, c, want.summaryCorn)
		}
		found := 0
		for _, a := range rep.Areas {
			var w map[string]int64
			switch a.Region + "/" + a.Area {
			case "GULF/MISSISSIPPI R.":
				w = want.miss
			case "PACIFIC/PUGET SOUND":
				w = want.puget
			default:
				continue
			}
			found++
			for c, n := range w {
				if a.Tonnes[c] != n {
					t.Errorf("%s: %s %s = %d, the file says %d", want.file, a.Area, c, a.Tonnes[c], n)
				}
			}
		}
		if found != 2 {
			t.Errorf("%s: Mississippi R. and Puget Sound not both found", want.file)
		}

		rows, dropped := InspectionActuals(rep, "")
		got := map[string]float64{}
		for _, r := range rows {
			if r.Week.Format(time.DateOnly) != want.monday || r.Week.Weekday() != time.Monday ||
				r.Published.Format(time.DateOnly) != want.issued || !strings.HasPrefix(r.Source, USDASource+" week ending "+want.weekEnding) {
				t.Errorf("%s: row %+v", want.file, r)
			}
			got[r.Port+"/"+r.Commodity] = r.Tonnes
		}
		if g, w := got["new-orleans/corn"], float64(want.miss["CORN YELLOW"]+want.miss["CORN WHITE"]); g != w {
			t.Errorf("%s: new-orleans corn %v, want %v", want.file, g, w)
		}
		if g, w := got["new-orleans/soybeans"], float64(want.miss["SOYBEANS"]); g != w {
			t.Errorf("%s: new-orleans soybeans %v, want %v", want.file, g, w)
		}
		if g, w := got["seattle/wheat"]+got["tacoma/wheat"], float64(want.puget["WHEAT"]); g != w || got["seattle/wheat"] != got["tacoma/wheat"] {
			t.Errorf("%s: Puget Sound wheat %v + %v, want %v halved", want.file, got["seattle/wheat"], got["tacoma/wheat"], w)
		}
		// Every ton is either imported or dropped with a reason.
		var kept, lost float64
		for _, r := range rows {
			kept += r.Tonnes
		}
		for _, d := range dropped {
			lost += float64(d.Tonnes)
			if d.Reason == "" || d.Reason == "not one of our ports" {
				t.Errorf("%s: %s/%s dropped without its documented reason", want.file, d.Region, d.Area)
			}
		}
		if kept+lost != float64(want.total) {
			t.Errorf("%s: %v imported + %v dropped != %d", want.file, kept, lost, want.total)
		}

		// ReadActuals detects the format.
		rows2, _, err := ReadActuals(bytes.NewReader(raw), "")
		if err != nil || len(rows2) != len(rows) {
			t.Errorf("%s: ReadActuals: %d rows, %v", want.file, len(rows2), err)
		}
	}
}

func TestParseGrainInspectionsRefusesBrokenReports(t *testing.T) {
	t.Parallel()
	raw := string(readUSDA(t, usdaReports[1].file))
	cases := map[string]string{
		"html error page": "<!DOCTYPE html><html><body><h1>503 Service Unavailable</h1></body></html>",
		"empty":           "",
		"truncated half":  raw[:len(raw)/2],
		"truncated table": raw[:strings.Index(raw, "  TOTAL                   421,277")],
		"truncated after": raw[:strings.Index(raw, "BY REGION AND COUNTRY OF DESTINATION")+200],
		"no issue date":   strings.Replace(raw, "Aug 10, 2026", "", 1),
		"bad row total":   strings.Replace(raw, "37,640     898,371", "37,641     898,371", 1),
		"bad subtotal":    strings.Replace(raw, "73,640     934,914", "73,640     934,915", 1),
		"bushels":         strings.Replace(raw, "                                                       -- METRIC TONS --", "                                                       -- BUSHELS --", 1),
		"extra column":    strings.Replace(raw, "  CANOLA   TOTALS", "  CANOLA   X TOTALS", 1),
	}
	for name, in := range cases {
		if rep, err := ParseGrainInspections(strings.NewReader(in)); err == nil {
			t.Errorf("%s: accepted %+v", name, rep)
		}
	}
	if IsGrainInspections([]byte("port,week,commodity,tonnes\n")) {
		t.Error("CSV taken for a report")
	}
}

func FuzzParseGrainInspections(f *testing.F) {
	for _, r := range usdaReports {
		f.Add(readUSDA(f, r.file))
	}
	f.Add([]byte("WA_GR101\r\nMon Aug 10, 2026\r\nGRAINS INSPECTED AND/OR WEIGHED FOR EXPORT BY REGION AND PORT AREA\r\n" +
		"REPORTED IN WEEK ENDING AUG 06, 2026\r\n-- METRIC TONS --\r\n---\r\n  REGION    PORT AREA   WHEAT  TOTALS\r\n" +
		"GULF      N. TEXAS   5   5\r\n  SUBTOTAL  5  5\r\n  TOTAL  5  5\r\n" +
		"GRAINS INSPECTED AND/OR WEIGHED FOR EXPORT BY REGION AND COUNTRY OF DESTINATION\r\n  TOTAL  5  5\r\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		rep, err := ParseGrainInspections(bytes.NewReader(in))
		if err != nil {
			return
		}
		var rowSum int64
		for _, a := range rep.Areas {
			if a.Region == "" || a.Area == "" {
				t.Fatalf("area without a name: %+v", a)
			}
			for _, n := range a.Tonnes {
				if n < 0 {
					t.Fatalf("negative tonnes %+v", a)
				}
				rowSum += n
			}
		}
		var total int64
		for _, n := range rep.Totals {
			total += n
		}
		if total != rowSum || rep.Issued.IsZero() || rep.WeekEnding.IsZero() {
			t.Fatalf("rows %d, totals %d, %+v", rowSum, total, rep)
		}
		rows, _ := InspectionActuals(rep, "")
		for _, r := range rows {
			if r.Week.Weekday() != time.Monday || r.Tonnes < 0 || r.Commodity == "" {
				t.Fatalf("bad row %+v", r)
			}
		}
	})
}
