package market

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// seed adds every testdata file whose name has prefix to the corpus.
// With cut > 0 a file longer than cut bytes is added as its first lines
// up to about cut bytes (real bytes still: the fuzzer minimises every
// input that finds new coverage, which for a 20 kB seed takes the whole
// fuzzing time), plus its last line without the newline (a SODA JSON
// array's head is closed with "]" instead).
func seed(f *testing.F, prefix string, cut int) {
	names, _ := filepath.Glob(filepath.Join("testdata", prefix+"*"))
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			f.Fatal(err)
		}
		if cut > 0 && len(b) > cut {
			head := b[:cut]
			if i := bytes.LastIndexByte(head, '\n'); i > 0 {
				head = head[:i+1]
			}
			last := bytes.TrimRight(b, "\n")
			last = last[bytes.LastIndexByte(last, '\n')+1:]
			if b[0] == '[' { // a SODA array, one object a line: close it after the head
				last = []byte("]\n")
			}
			b = append(append([]byte{}, head...), last...)
		}
		f.Add(b)
	}
}

func FuzzFRED(f *testing.F) {
	seed(f, "fred_", 2048)
	for _, s := range []string{"", "DATE,PWHEAMTUSDM\n2024-01-01,.\n", "observation_date,DCOILBRENTEU\n2024-01-01,\n2024-01-02,80", "<html>"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ps, err := ParseFRED(bytes.NewReader(b), time.Time{})
		if err != nil {
			return
		}
		for _, p := range ps {
			if math.IsNaN(p.Value) || math.IsInf(p.Value, 0) || p.Series == "" || p.Date.IsZero() {
				t.Fatalf("bad price %+v", p)
			}
		}
	})
}

func FuzzWorldBank(f *testing.F) {
	seed(f, "worldbank_", 0)
	f.Add(workbook(f, "Monthly Prices", [][]string{{"Updated on May 1, 2026"}, {"", "Maize"}, {"", "($/mt)"}, {"", "MAIZE"}, {"2026M01", "200"}, {"2026M02", "…"}}))
	f.Add([]byte("PK\x03\x04"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ps, err := ParseWorldBank(bytes.NewReader(b), time.Time{})
		if err != nil {
			return
		}
		for _, p := range ps {
			if math.IsNaN(p.Value) || p.Series == "" || p.Date.Day() != 1 {
				t.Fatalf("bad price %+v", p)
			}
		}
	})
}

func FuzzAMS(f *testing.F) {
	seed(f, "ams_", 0)
	for _, s := range []string{`{"stats":{"returnedRows":1,"totalRows":1},"results":[{"commodity":"Corn","report_date":"08/11/2026","basis Min":1,"avg_price":"5"}]}`, `{}`, `{"results":{}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ps, err := ParseAMSReport(bytes.NewReader(b), time.Time{})
		if err != nil {
			return
		}
		for _, p := range ps {
			if math.IsNaN(p.Value) || !strings.HasPrefix(p.Series, "ams_") {
				t.Fatalf("bad price %+v", p)
			}
		}
	})
}

func FuzzAgTransport(f *testing.F) {
	seed(f, "agtransport_", 1500)
	seed(f, "constructed_agtransport_", 0)
	for _, s := range []string{`[]`, `[{"route":"a","year_quarter":"2025Q1","rate":"1"}]`, `[{"a":null}]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		res, err := Parse("fuzz.json", bytes.NewReader(b), "", time.Time{})
		if err != nil {
			return
		}
		for _, r := range res.Rates {
			if math.IsNaN(r.Rate) || r.Region == "" || r.Mode == "" || r.Date.IsZero() {
				t.Fatalf("bad rate %+v", r)
			}
		}
	})
}
