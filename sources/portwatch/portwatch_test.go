package portwatch

import (
	"os"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	b, err := os.ReadFile("testdata/daily_chokepoints_documented_layout.json")
	if err != nil {
		t.Fatal(err)
	}
	days, skipped, err := Parse(b)
	if err != nil || len(days) != 3 || skipped != 1 {
		t.Fatalf("%d days, %d skipped, %v", len(days), skipped, err)
	}
	jan2 := time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC)
	for _, d := range days {
		if !d.Date.Equal(jan2) {
			t.Errorf("%s dated %s", d.PortName, d.Date)
		}
	}
	if d := days[0]; d.Total != 74 || d.Tanker != 18 || Slug(d.PortID, d.PortName) != "suez" {
		t.Errorf("suez %+v", d)
	}
	if Slug(days[2].PortID, days[2].PortName) != "panama" || Slug("chokepoint2", "Strait of Dover") != "" {
		t.Error("slugs")
	}
	e, _ := os.ReadFile("testdata/error_invalid_query.json")
	for _, in := range [][]byte{e, []byte(""), []byte("<html>"), []byte(`{"x":1}`), []byte(`{"features":[`)} {
		if _, _, err := Parse(in); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
}

func FuzzParse(f *testing.F) {
	b, _ := os.ReadFile("testdata/daily_chokepoints_documented_layout.json")
	f.Add(b)
	e, _ := os.ReadFile("testdata/error_invalid_query.json")
	f.Add(e)
	f.Fuzz(func(t *testing.T, b []byte) {
		days, _, err := Parse(b)
		for _, d := range days {
			if err != nil || d.PortID == "" || d.Date.IsZero() || d.Total < 0 {
				t.Fatalf("%+v %v", d, err)
			}
		}
	})
}
