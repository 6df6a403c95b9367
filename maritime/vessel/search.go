package vessel

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Vessel search: a query matched against each vessel's IMO number, MMSIs,
// call signs and names (current and former, from the identity history),
// case and punctuation insensitive, names tolerant of typing errors (an
// optimal string alignment distance of at most 2: insertions, deletions,
// substitutions and swaps of neighbours).

// SearchCandidate is what a vessel can be found by.
type SearchCandidate struct {
	IMO         uint32
	MMSIs       []uint32 // the current first
	CallSigns   []string // the current first
	Name        string   // the current name
	FormerNames []string
}

// Match fields: why a vessel was found.
const (
	MatchIMO        = "imo"
	MatchMMSI       = "mmsi"
	MatchCallSign   = "call_sign"
	MatchName       = "name"
	MatchFormerName = "former_name"
)

// SearchMaxTypos is the largest distance a name may be from the query.
const SearchMaxTypos = 2

// SearchMatch is a vessel found and why: the field matched, the text it
// held, and a score that ranks the matches (higher first).
type SearchMatch struct {
	Index int // the candidate's index
	Field string
	Text  string
	Score int
}

// NormalizeSearch folds text for matching: letters upper-cased, digits
// kept, every other character (spaces, punctuation) dropped.
func NormalizeSearch(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case unicode.IsLetter(r):
			b.WriteRune(unicode.ToUpper(r))
		case unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// normalizedWords folds each word of s.
func normalizedWords(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		out = append(out, NormalizeSearch(w))
	}
	return out
}

// Search returns the candidates matching q, best first (then by name and
// IMO), at most limit. A vessel matches by its best field.
func Search(q string, cands []SearchCandidate, limit int) []SearchMatch {
	nq := NormalizeSearch(q)
	if nq == "" || limit < 1 {
		return nil
	}
	var out []SearchMatch
	for i := range cands {
		if m, ok := match(nq, &cands[i]); ok {
			m.Index = i
			out = append(out, m)
		}
	}
	slices.SortFunc(out, func(a, b SearchMatch) int {
		return cmp.Or(b.Score-a.Score, strings.Compare(cands[a.Index].Name, cands[b.Index].Name),
			cmp.Compare(cands[a.Index].IMO, cands[b.Index].IMO))
	})
	return out[:min(limit, len(out))]
}

// match is the best match of a candidate.
func match(nq string, c *SearchCandidate) (SearchMatch, bool) {
	best := SearchMatch{}
	consider := func(field, text string, score int) {
		if score > best.Score {
			best = SearchMatch{Field: field, Text: text, Score: score}
		}
	}
	if allDigits(nq) {
		if imo := strconv.FormatUint(uint64(c.IMO), 10); nq == imo || nq == "IMO"+imo {
			consider(MatchIMO, imo, 1000)
		}
		for i, m := range c.MMSIs {
			if s := strconv.FormatUint(uint64(m), 10); nq == s {
				consider(MatchMMSI, s, 950-i)
			}
		}
	} else if strings.HasPrefix(nq, "IMO") && nq[3:] == strconv.FormatUint(uint64(c.IMO), 10) {
		consider(MatchIMO, nq[3:], 1000)
	}
	for i, cs := range c.CallSigns {
		if cs != "" && NormalizeSearch(cs) == nq {
			consider(MatchCallSign, cs, 900-i)
		}
	}
	consider(nameScore(nq, c.Name, MatchName, 0))
	for _, n := range c.FormerNames {
		consider(nameScore(nq, n, MatchFormerName, 50))
	}
	return best, best.Score > 0
}

// nameScore scores a name against the query: equal, a prefix, a word's
// prefix, a substring, then within SearchMaxTypos of the whole name or of
// one of its words (shorter queries allow fewer: 1 from 4 characters, 2
// from 7). Former names score below the current (by penalty).
func nameScore(nq, name, field string, penalty int) (string, string, int) {
	nn := NormalizeSearch(name)
	if nn == "" {
		return field, name, 0
	}
	score := 0
	switch {
	case nn == nq:
		score = 800
	case strings.HasPrefix(nn, nq):
		score = 700
	case len(nq) >= 3 && strings.Contains(nn, nq):
		score = 600
	}
	for _, w := range normalizedWords(name) {
		if score < 650 && strings.HasPrefix(w, nq) {
			score = 650
		}
	}
	if score == 0 {
		allowed := 0
		switch {
		case len(nq) >= 7:
			allowed = SearchMaxTypos
		case len(nq) >= 4:
			allowed = 1
		}
		d := osaDistance(nq, nn, allowed)
		for _, w := range normalizedWords(name) {
			d = min(d, osaDistance(nq, w, allowed))
		}
		if d <= allowed {
			score = 400 - 100*d
		}
	}
	if score == 0 {
		return field, name, 0
	}
	return field, name, score - penalty
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// osaDistance is the optimal string alignment distance of a and b (bytes
// of folded text), or max+1 as soon as it must exceed max.
func osaDistance(a, b string, max int) int {
	if d := len(a) - len(b); d > max || -d > max {
		return max + 1
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > max {
			return max + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
