package gdelt

import (
	"net/url"
	"strconv"
	"strings"
)

// DisruptionTerms are the words of a maritime disruption the queries look
// for next to a port or chokepoint (strikes, closures, groundings, storms,
// attacks), OR'd within parentheses as GDELT requires.
var DisruptionTerms = []string{"strike", "closure", "closed", "blocked", "grounding", "aground", "storm", "attack", "collision", "explosion"}

// Subject is what a query is about: a port (by slug) or a chokepoint (by
// slug), with the names GDELT is asked for.
type Subject struct {
	Port       string
	Chokepoint string
	Names      []string
}

// Query is the GDELT query of a subject: its names as quoted phrases (OR'd
// within parentheses when there are several) and the disruption terms,
// English-language sources.
func Query(s Subject) string {
	var names []string
	for _, n := range s.Names {
		n = strings.TrimSpace(strings.ReplaceAll(n, `"`, ""))
		if n == "" {
			continue
		}
		if strings.Contains(n, " ") || strings.Contains(n, "-") {
			n = `"` + n + `"`
		}
		names = append(names, n)
	}
	q := strings.Join(names, " OR ")
	if len(names) > 1 {
		q = "(" + q + ")"
	}
	return q + " (" + strings.Join(DisruptionTerms, " OR ") + ") sourcelang:english"
}

// ToneChartURL is the ToneChart request of a query against the DOC API's
// base: JSON, over timespan (such as "1d"), the same query as its
// ArtList.
func ToneChartURL(base, query, timespan string) string {
	v := url.Values{}
	v.Set("query", query)
	v.Set("mode", "ToneChart")
	v.Set("format", "json")
	v.Set("timespan", timespan)
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	return base + sep + v.Encode()
}

// URL is the ArtList request of a query against the DOC API's base
// (https://api.gdeltproject.org/api/v2/doc/doc): JSON, newest first, at
// most maxRecords (1..250) over timespan (such as "1d").
func URL(base, query, timespan string, maxRecords int) string {
	maxRecords = max(1, min(250, maxRecords))
	v := url.Values{}
	v.Set("query", query)
	v.Set("mode", "ArtList")
	v.Set("format", "json")
	v.Set("maxrecords", strconv.Itoa(maxRecords))
	v.Set("timespan", timespan)
	v.Set("sort", "DateDesc")
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	return base + sep + v.Encode()
}
