package market

import (
	"strings"
	"unicode"
)

// MatchRegion reports whether a region query (the transport-data region
// parameter) matches a published location name: case, punctuation, dash
// style (hyphen, en dash), spacing and accents are ignored, "saint" and
// "st" are the same word, and every word of the query must be a prefix of
// some word of the name ("st louis" matches "St. Louis", "cairo" matches
// "Cairo-Memphis", "la cross minn" matches "La Crosse – Minneapolis"). An
// empty query matches every name.
func MatchRegion(query, name string) bool {
	nw := words(name)
	for _, q := range words(query) {
		found := false
		for _, w := range nw {
			if strings.HasPrefix(w, q) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// words splits s into lower-case, accent-free words of letters and digits.
func words(s string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			w := b.String()
			if w == "saint" {
				w = "st"
			}
			out = append(out, w)
			b.Reset()
		}
	}
	for _, r := range s {
		r = fold(unicode.ToLower(r))
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
			continue
		}
		flush()
	}
	flush()
	return out
}

// accents maps accented Latin letters to their base letter.
var accents = map[rune]rune{}

func init() {
	for base, set := range map[rune]string{
		'a': "àáâãäåāăą", 'c': "çćĉċč", 'd': "ďđ", 'e': "èéêëēĕėęě",
		'g': "ĝğġģ", 'h': "ĥħ", 'i': "ìíîïĩīĭįı", 'j': "ĵ", 'k': "ķ",
		'l': "ĺļľŀł", 'n': "ñńņňŉ", 'o': "òóôõöøōŏő", 'r': "ŕŗř",
		's': "śŝşšș", 't': "ţťŧț", 'u': "ùúûüũūŭůűų", 'w': "ŵ",
		'y': "ýÿŷ", 'z': "źżž",
	} {
		for _, r := range set {
			accents[r] = base
		}
	}
}

func fold(r rune) rune {
	if b, ok := accents[r]; ok {
		return b
	}
	return r
}
