package gdelt

import (
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func read(t testing.TB, name string) []byte {
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseDocumentedFormat(t *testing.T) {
	arts, skipped, err := Parse(read(t, "artlist_documented_format.json"))
	if err != nil || len(arts) != 2 || skipped != 1 {
		t.Fatalf("%d articles, %d skipped, %v", len(arts), skipped, err)
	}
	a := arts[0]
	if !a.Seen.Equal(time.Date(2024, 1, 2, 15, 0, 0, 0, time.UTC)) || a.Domain != "example.com" || a.SourceCountry != "United Kingdom" ||
		!strings.HasPrefix(a.Title, "Suez Canal traffic halted") {
		t.Errorf("first article %+v", a)
	}
	if arts[1].Language != "Spanish" {
		t.Errorf("language %q", arts[1].Language)
	}
}

func TestParseAnswers(t *testing.T) {
	if arts, _, err := Parse(read(t, "artlist_no_match.json")); err != nil || len(arts) != 0 {
		t.Errorf("{}: %v %v", arts, err)
	}
	if _, _, err := Parse(read(t, "error_rate_limit.txt")); !errors.Is(err, ErrRateLimited) {
		t.Errorf("rate limit: %v", err)
	}
	for _, f := range []string{"error_or_terms.txt", "error_phrase_too_short.txt"} {
		var qe *QueryError
		if _, _, err := Parse(read(t, f)); !errors.As(err, &qe) || qe.Text == "" {
			t.Errorf("%s: %v", f, err)
		}
	}
	arts, _, err := Parse(read(t, "artlist_invalid_char.json"))
	if err != nil || len(arts) != 1 || arts[0].Title != "Strait of Hormuz tanker attack" {
		t.Errorf("invalid character: %+v %v", arts, err)
	}
	if _, _, err := Parse(read(t, "artlist_truncated.json")); err == nil {
		t.Error("truncated: no error")
	}
	for _, in := range []string{"", "  ", "<!DOCTYPE html><html></html>", `{"articles": 5}`} {
		if _, _, err := Parse([]byte(in)); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
}

func TestQuery(t *testing.T) {
	q := Query(Subject{Chokepoint: "bosporus", Names: []string{"Bosporus", "Bosphorus"}})
	if !strings.HasPrefix(q, "(Bosporus OR Bosphorus) (strike OR ") || !strings.HasSuffix(q, ") sourcelang:english") {
		t.Errorf("query %q", q)
	}
	if q := Query(Subject{Names: []string{"Suez Canal"}}); !strings.HasPrefix(q, `"Suez Canal" (`) {
		t.Errorf("query %q", q)
	}
	u, err := url.Parse(URL("https://api.gdeltproject.org/api/v2/doc/doc", "x", "1d", 999))
	if err != nil || u.Query().Get("maxrecords") != "250" || u.Query().Get("mode") != "ArtList" || u.Query().Get("format") != "json" {
		t.Errorf("URL %v %v", u, err)
	}
}

func FuzzParse(f *testing.F) {
	for _, n := range []string{"artlist_documented_format.json", "artlist_no_match.json", "artlist_invalid_char.json", "artlist_truncated.json", "error_rate_limit.txt", "error_or_terms.txt"} {
		f.Add(read(f, n))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		arts, _, err := Parse(b)
		if err != nil && len(arts) > 0 {
			t.Fatal("articles with an error")
		}
		for _, a := range arts {
			if a.URL == "" || a.Seen.IsZero() {
				t.Fatalf("article %+v", a)
			}
		}
	})
}
