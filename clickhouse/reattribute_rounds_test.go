package clickhouse

import (
	"fmt"
	"testing"

	"overwatch/write/ingest"
)

// TestReattributionRounds: the rounds keep the order, name each MMSI once
// and hold at most max.
func TestReattributionRounds(t *testing.T) {
	rs := []ingest.Reattribution{{MMSI: 1}, {MMSI: 2}, {MMSI: 1}, {MMSI: 3}, {MMSI: 4}, {MMSI: 5}, {MMSI: 6}}
	got := reattributionRounds(rs, 3)
	var sizes []int
	for _, r := range got {
		sizes = append(sizes, len(r))
	}
	if fmt.Sprint(sizes) != "[2 3 2]" || got[1][0].MMSI != 1 || got[2][1].MMSI != 6 {
		t.Errorf("rounds of %v: %v", rs, got)
	}
	if got := reattributionRounds(nil, 3); len(got) != 0 {
		t.Errorf("rounds of none: %v", got)
	}
}
