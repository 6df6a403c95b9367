package pandi

import (
	"strings"
	"unicode"
)

// stopwords are the words a club name is written with or without: legal
// forms, seats of affiliates, and the words of "P&I club".
var stopwords = map[string]bool{
	"the": true, "p": true, "i": true, "pi": true, "pandi": true, "and": true, "club": true, "clubs": true,
	"association": true, "assn": true, "assoc": true, "limited": true, "ltd": true, "inc": true, "co": true,
	"company": true, "mutual": true, "insurance": true, "protection": true, "protecting": true, "indemnity": true,
	"bermuda": true, "luxembourg": true, "europe": true, "asia": true, "gjensidig": true, "as": true, "asa": true,
	"sa": true, "nv": true, "llc": true, "plc": true, "jsc": true, "underwriting": true, "group": true,
}

// generic are one-word names that match only when they are the whole
// name: "Standard Club" is NorthStandard, "Standard Marine" is not.
var generic = map[string]bool{
	"north": true, "standard": true, "london": true, "american": true, "uk": true, "japan": true, "west": true,
	"steamship": true, "shipowners": true, "swedish": true, "alfa": true,
}

var fold = strings.NewReplacer("å", "a", "ä", "a", "á", "a", "à", "a", "â", "a", "ö", "o", "ø", "o", "ó", "o", "ô", "o",
	"æ", "ae", "é", "e", "è", "e", "ê", "e", "ü", "u", "ú", "u", "í", "i", "ñ", "n", "ç", "c", "ß", "ss",
	"&", " and ", "+", " and ", "’", "", "'", "")

// Key is the normalized words of an insurer's name: lower case, accents
// folded, "&" read as "and", punctuation dropped, the stop words (legal
// forms, "P&I", "club", "mutual", seats of affiliates) left out.
func Key(name string) []string {
	s := fold.Replace(strings.ToLower(name))
	words := strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	out := words[:0]
	for _, w := range words {
		if !stopwords[w] {
			out = append(out, w)
		}
	}
	return out
}

type entry struct {
	words  []string
	joined string
	club   int
}

var index []entry

func buildIndex() {
	index = nil
	for i, c := range table {
		names := append([]string{c.ID, c.Name, c.LegalName}, c.FormerNames...)
		for _, n := range append(names, c.Aliases...) {
			if w := Key(n); len(w) > 0 {
				index = append(index, entry{words: w, joined: strings.Join(w, ""), club: i})
			}
		}
	}
}

// Match finds the insurer a written name stands for: the same key as a
// name, legal name, former name or alias of the table; else the longest
// such key found as consecutive words in it (one-word generic keys such as
// "north" or "standard" only as the whole name); else the one key within a
// small edit distance (1 for keys up to 8 letters, 2 beyond; none under 5).
func Match(name string) (Club, bool) {
	if len(name) > 300 {
		return Club{}, false
	}
	words := Key(name)
	if len(words) == 0 {
		return Club{}, false
	}
	joined := strings.Join(words, "")
	for _, e := range index {
		if e.joined == joined {
			return table[e.club], true
		}
	}
	best, bestLen := -1, 0
	for _, e := range index {
		if len(e.words) == 1 && generic[e.words[0]] {
			continue
		}
		if n := len(e.joined); n > bestLen && contains(words, e.words) {
			best, bestLen = e.club, n
		}
	}
	if best >= 0 {
		return table[best], true
	}
	if len(joined) < 5 {
		return Club{}, false
	}
	limit := 1
	if len(joined) > 8 {
		limit = 2
	}
	best, dist := -1, limit+1
	for _, e := range index {
		if len(e.joined) < 5 {
			continue
		}
		d := distance(joined, e.joined, limit)
		if d < dist {
			best, dist = e.club, d
		} else if d == dist && best != e.club {
			best = -2 // two clubs equally near: no match
		}
	}
	if best >= 0 {
		return table[best], true
	}
	return Club{}, false
}

// contains reports whether sub occurs as consecutive words of words.
func contains(words, sub []string) bool {
	for i := 0; i+len(sub) <= len(words); i++ {
		ok := true
		for j := range sub {
			if words[i+j] != sub[j] {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// distance is the Levenshtein distance of a and b in bytes, or limit+1
// when it is above limit.
func distance(a, b string, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		low := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			low = min(low, cur[j])
		}
		if low > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], limit+1)
}
