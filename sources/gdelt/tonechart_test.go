package gdelt

import (
	"errors"
	"math"
	"net/url"
	"strings"
	"testing"
)

// A ToneChart answer: its bins with their tone, count and listed articles
// (an item without a URL dropped), each article's tone by URL; GDELT's
// plain-text answers and a cut body are errors as for the ArtList.
func TestParseToneChart(t *testing.T) {
	bins, err := ParseToneChart(read(t, "tonechart_documented_format.json"))
	if err != nil || len(bins) != 4 {
		t.Fatalf("%d bins, %v", len(bins), err)
	}
	if b := bins[0]; b.Tone != -7 || b.Count != 2 || len(b.Articles) != 2 || !strings.HasPrefix(b.Articles[1].Title, "Canal authority") {
		t.Errorf("first bin %+v", b)
	}
	if b := bins[3]; b.Tone != 3 || len(b.Articles) != 0 {
		t.Errorf("the bin of an item without a URL %+v", b)
	}
	tones := Tones(bins)
	if len(tones) != 3 || tones["https://example.com/news/2024/01/02/suez-canal-traffic-halted-after-grounding"] != -7 ||
		tones["https://example.org/port-of-santos-strike"] != 2 {
		t.Errorf("tones %v", tones)
	}
	if bins, err := ParseToneChart([]byte(`{}`)); err != nil || len(bins) != 0 {
		t.Errorf("{}: %v %v", bins, err)
	}
	if _, err := ParseToneChart(read(t, "error_rate_limit.txt")); !errors.Is(err, ErrRateLimited) {
		t.Errorf("rate limit: %v", err)
	}
	var qe *QueryError
	if _, err := ParseToneChart(read(t, "error_phrase_too_short.txt")); !errors.As(err, &qe) {
		t.Errorf("query error: %v", err)
	}
	for _, in := range [][]byte{read(t, "tonechart_truncated.json"), []byte("<!DOCTYPE html><html></html>"), []byte(`{"tonechart": {"bin": 1}}`), nil} {
		if _, err := ParseToneChart(in); err == nil {
			t.Errorf("%.40q: no error", in)
		}
	}
	u, err := url.Parse(ToneChartURL("https://api.gdeltproject.org/api/v2/doc/doc", "x", "1d"))
	if err != nil || u.Query().Get("mode") != "ToneChart" || u.Query().Get("format") != "json" || u.Query().Get("timespan") != "1d" {
		t.Errorf("URL %v %v", u, err)
	}
}

func FuzzParseToneChart(f *testing.F) {
	for _, n := range []string{"tonechart_documented_format.json", "tonechart_truncated.json", "error_rate_limit.txt"} {
		f.Add(read(f, n))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		bins, err := ParseToneChart(b)
		if err != nil && len(bins) > 0 {
			t.Fatal("bins with an error")
		}
		for url, tone := range Tones(bins) {
			if url == "" || math.IsNaN(tone) || math.Abs(tone) > 100 {
				t.Fatalf("tone %q %v", url, tone)
			}
		}
	})
}
