package read

import (
	"testing"
	"time"
)

// An own record hides the base record of the same insurer and start; the
// rest stay, newest start first, own before base on the same start.
func TestLayerPICoverage(t *testing.T) {
	d := func(s string) time.Time { v, _ := time.Parse(time.DateOnly, s); return v }
	recs := []PICoverageRecord{
		{ClubKey: "gard", From: d("2024-02-20"), Source: "base"},
		{ClubKey: "skuld", From: d("2024-02-20"), Source: "base"},
		{ClubKey: "gard", Source: "base"},
		{Own: true, ClubKey: "gard", From: d("2024-02-20"), Source: "own"},
		{Own: true, ClubKey: "northstandard", From: d("2025-02-20"), Source: "own"},
	}
	got := LayerPICoverage(recs)
	want := []string{"own northstandard", "own gard", "base skuld", "base gard"}
	if len(got) != len(want) {
		t.Fatalf("%+v", got)
	}
	for i, r := range got {
		if r.Source+" "+r.ClubKey != want[i] {
			t.Errorf("%d: %s %s, want %s", i, r.Source, r.ClubKey, want[i])
		}
	}
	if !got[3].From.IsZero() {
		t.Errorf("the undated base record must come last: %+v", got[3])
	}
}
