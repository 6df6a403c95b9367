package write

import (
	"strings"
	"testing"
	"time"
)

const piSample = "\xef\xbb\xbfIMO,Club,Vessel_Name,Effective_From,Effective_To\n" +
	"9321483,Gard P. & I.,ALPHA,2024-02-20,2025-02-20\n" +
	"9321483,North of England P&I Association,ALPHA,20 Feb 2025,\n" +
	"9321484,Gard,BAD CHECK,2024-02-20,\n" +
	"932148,Gard,SHORT,,\n" +
	"9074729,Acme Cover Ltd,BETA,02/20/2024,\n" +
	"9074729,Acme Cover Ltd,BETA,2024-02-20,2023-01-01\n" +
	"\n" +
	"9074729,Acme Cover Ltd,BETA,20.02.2024,\n" +
	"9074729,Sea Shield P&I,,,\n" +
	"9074729,,BETA,,\n"

func TestParsePICoverageCSV(t *testing.T) {
	rows, ans, err := ParsePICoverageCSV([]byte(piSample))
	if err != nil {
		t.Fatal(err)
	}
	if ans.RowsProcessed != 9 || ans.Matched != 2 || len(rows) != 4 || ans.RejectedCount != 5 {
		t.Fatalf("answer %+v rows %d", ans, len(rows))
	}
	if strings.Join(ans.UnmatchedClubs, "|") != "Acme Cover Ltd|Sea Shield P&I" {
		t.Errorf("unmatched %q", ans.UnmatchedClubs)
	}
	wantLines := map[int]string{4: "check digit", 5: "7-digit", 6: "unknown date format", 7: "before", 11: "club is empty"}
	for _, r := range ans.Rejected {
		if w, ok := wantLines[r.Line]; !ok || !strings.Contains(r.Reason, w) {
			t.Errorf("rejected line %d: %q", r.Line, r.Reason)
		}
	}
	if r := rows[1]; r.ClubID != "northstandard" || r.From != time.Date(2025, 2, 20, 0, 0, 0, 0, time.UTC) || !r.To.IsZero() || r.Line != 3 {
		t.Errorf("row %+v", r)
	}
	if r := rows[0]; r.ClubID != "gard" || r.VesselName != "ALPHA" || r.IMO != 9321483 {
		t.Errorf("row %+v", r)
	}
	if r := rows[2]; r.ClubID != "" || r.ClubKey != "name:acme cover" || r.From != time.Date(2024, 2, 20, 0, 0, 0, 0, time.UTC) {
		t.Errorf("row %+v", r)
	}
}

func TestParsePICoverageCSVSemicolonAndErrors(t *testing.T) {
	rows, ans, err := ParsePICoverageCSV([]byte("club;imo\nSkuld;9321483\n"))
	if err != nil || len(rows) != 1 || rows[0].ClubID != "skuld" || ans.Matched != 1 {
		t.Fatalf("%v %+v %+v", err, rows, ans)
	}
	for _, bad := range []string{"", "imo,vessel_name\n9321483,X\n", "imo,club\n\x00\n"} {
		if _, _, err := ParsePICoverageCSV([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	_, ans, err = ParsePICoverageCSV([]byte("imo,club\n9321483,\"Gard\n9321483,Gard\"x\"\n"))
	if err != nil || ans.RejectedCount == 0 {
		t.Errorf("malformed quotes: %v %+v", err, ans)
	}
}

// A required or known column named twice makes the file unreadable,
// naming the column; a date in an accepted format but outside the years a
// cover can run is out of range, naming the column and the value.
func TestParsePICoverageCSVColumnsAndDates(t *testing.T) {
	for data, want := range map[string]string{
		"imo,club,IMO\n9321483,Gard,9074729\n":                   `column "imo" twice (columns 1 and 3)`,
		"imo,club, Effective_To ,effective_to\n9321483,Gard,,\n": `column "effective_to" twice (columns 3 and 4)`,
	} {
		if _, _, err := ParsePICoverageCSV([]byte(data)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", data, err, want)
		}
	}
	rows, ans, err := ParsePICoverageCSV([]byte("imo,club,notes,notes,,\n9321483,Gard,a,b,,\n"))
	if err != nil || len(rows) != 1 {
		t.Errorf("ignored columns named twice: %v %+v", err, ans)
	}
	_, ans, err = ParsePICoverageCSV([]byte("imo,club,effective_from,effective_to\n" +
		"9321483,Gard,0001-01-01,\n9321483,Gard,2024-02-20,2101-01-01\n9321483,Gard,1899-12-31,\n9321483,Gard,2024-13-01,\n"))
	want := []string{"date 0001-01-01 in column effective_from is out of range (years 1900 to 2100)",
		"date 2101-01-01 in column effective_to is out of range (years 1900 to 2100)",
		"date 1899-12-31 in column effective_from is out of range (years 1900 to 2100)",
		`effective_from "2024-13-01": unknown date format (use YYYY-MM-DD)`}
	if err != nil || len(ans.Rejected) != len(want) {
		t.Fatalf("%v %+v", err, ans)
	}
	for i, r := range ans.Rejected {
		if r.Reason != want[i] {
			t.Errorf("line %d: %q, want %q", r.Line, r.Reason, want[i])
		}
	}
}

func FuzzParsePICoverageCSV(f *testing.F) {
	f.Add([]byte(piSample))
	f.Add([]byte("club;imo\nSkuld;9321483\n"))
	f.Add([]byte("imo,club\n9321483,\"Gard\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, ans, err := ParsePICoverageCSV(data)
		if err != nil {
			return
		}
		if len(rows)+ans.RejectedCount != ans.RowsProcessed || ans.Matched > len(rows) {
			t.Fatalf("counts: %d rows, %+v", len(rows), ans)
		}
		for _, r := range rows {
			if !r.IMO.Valid() || r.ClubKey == "" || r.ClubName == "" || !r.To.IsZero() && r.To.Before(r.From) {
				t.Fatalf("row %+v", r)
			}
		}
	})
}
