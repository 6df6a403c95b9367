package vessel

import "testing"

func TestSearch(t *testing.T) {
	cands := []SearchCandidate{
		{IMO: 9074729, Name: "NORTHERN STAR", CallSigns: []string{"PDAB"}, FormerNames: []string{"OCEAN GLORY"}},
		{IMO: 9176187, MMSIs: []uint32{244660000}, Name: "NORDIC STAR", CallSigns: []string{"C6CE14"}},
		{IMO: 9300001, MMSIs: []uint32{538000001}, Name: "STAR OF THE SEA"},
	}
	for _, c := range []struct {
		q           string
		first       uint32
		field, text string
		n           int
	}{
		{"9074729", 9074729, MatchIMO, "9074729", 1},
		{"IMO 9074729", 9074729, MatchIMO, "9074729", 1},
		{"244660000", 9176187, MatchMMSI, "244660000", 1},
		{"c6-ce14", 9176187, MatchCallSign, "C6CE14", 1},
		{"northern star", 9074729, MatchName, "NORTHERN STAR", 1},
		{"Northren-Star", 9074729, MatchName, "NORTHERN STAR", 1}, // a swap
		{"ocean glroy", 9074729, MatchFormerName, "OCEAN GLORY", 1},
		{"star", 9300001, MatchName, "STAR OF THE SEA", 3}, // prefix of the name first, then of a word
		{"nordik", 9176187, MatchName, "NORDIC STAR", 1},
	} {
		got := Search(c.q, cands, 10)
		if len(got) != c.n || len(got) > 0 && (cands[got[0].Index].IMO != c.first || got[0].Field != c.field || got[0].Text != c.text) {
			t.Errorf("%q: %+v", c.q, got)
		}
	}
	if got := Search("zzzzzzz", cands, 10); len(got) != 0 {
		t.Errorf("no match: %+v", got)
	}
	if got := Search("star", cands, 1); len(got) != 1 {
		t.Errorf("limit: %+v", got)
	}
	if d := osaDistance("NORTHREN", "NORTHERN", 2); d != 1 {
		t.Errorf("swap distance %d", d)
	}
	if d := osaDistance("ABCDEFGH", "ZZZZZZZZ", 2); d != 3 {
		t.Errorf("far distance %d", d)
	}
}
