package gdelt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// MaxBytes caps an answer's size (250 articles are some 100 kB).
const MaxBytes = 8 << 20

// SeenLayout is the layout of GDELT's seendate.
const SeenLayout = "20060102T150405Z"

// Article is an item of an ArtList answer.
type Article struct {
	URL           string
	Title         string
	Seen          time.Time
	Domain        string
	Language      string // an English name ("Spanish"), not a code
	SourceCountry string // an English name ("Mexico")
}

// ErrRateLimited is GDELT's plain-text notice that requests come faster
// than one every 5 seconds (sent with HTTP 429, and sometimes with 200).
var ErrRateLimited = errors.New("gdelt: rate limited (one request every 5 seconds)")

// QueryError is a plain-text error answer to a query (sent with HTTP 200),
// such as "The specified phrase is too short."
type QueryError struct{ Text string }

// Error says what GDELT refused.
func (e *QueryError) Error() string { return "gdelt: query refused: " + e.Text }

// maxRepairs bounds how many invalid characters Parse strips from one
// answer (the gdeltdoc client's rule).
const maxRepairs = 100

// Parse reads an ArtList JSON answer: its articles (those without a URL
// or a valid seendate are skipped and counted in skipped). An answer that
// is not JSON is GDELT's plain text: the rate-limit notice
// (ErrRateLimited) or a query error (*QueryError). `{}` or an answer
// without "articles" is no match, not an error. Invalid characters are
// stripped at the decoder's reported offset, up to maxRepairs times.
func Parse(body []byte) (arts []Article, skipped int, err error) {
	var doc struct {
		Articles []struct {
			URL           string `json:"url"`
			Title         string `json:"title"`
			SeenDate      string `json:"seendate"`
			Domain        string `json:"domain"`
			Language      string `json:"language"`
			SourceCountry string `json:"sourcecountry"`
		} `json:"articles"`
	}
	if err := decodeAnswer(body, "ArtList", &doc); err != nil {
		return nil, 0, err
	}
	for _, a := range doc.Articles {
		seen, perr := time.Parse(SeenLayout, strings.TrimSpace(a.SeenDate))
		u := strings.TrimSpace(a.URL)
		if perr != nil || u == "" || len(u) > 2048 {
			skipped++
			continue
		}
		arts = append(arts, Article{URL: u, Title: clean(a.Title, 500), Seen: seen.UTC(), Domain: clean(a.Domain, 200),
			Language: clean(a.Language, 50), SourceCountry: clean(a.SourceCountry, 100)})
	}
	return arts, skipped, nil
}

// decodeAnswer decodes a JSON answer of the mode into v. An answer that is
// not JSON is GDELT's plain text: the rate-limit notice (ErrRateLimited),
// an HTML page, or a query error (*QueryError). Invalid characters are
// stripped at the decoder's reported offset, up to maxRepairs times.
func decodeAnswer(body []byte, mode string, v any) error {
	if len(body) > MaxBytes {
		return fmt.Errorf("gdelt: answer over %d bytes", MaxBytes)
	}
	trimmed := bytes.TrimSpace(bytes.TrimPrefix(body, []byte("\ufeff")))
	if len(trimmed) == 0 {
		return errors.New("gdelt: empty answer")
	}
	if trimmed[0] != '{' {
		text := strings.TrimSpace(string(trimmed[:min(len(trimmed), 300)]))
		if strings.HasPrefix(text, "Please limit requests") {
			return ErrRateLimited
		}
		low := strings.ToLower(text)
		if strings.HasPrefix(low, "<!doctype") || strings.HasPrefix(low, "<html") {
			return fmt.Errorf("gdelt: an HTML page, not a %s answer", mode)
		}
		return &QueryError{Text: text}
	}
	buf := trimmed
	var err error
	for repairs := 0; ; repairs++ {
		err = json.Unmarshal(buf, v)
		var se *json.SyntaxError
		if err == nil || !errors.As(err, &se) || repairs >= maxRepairs || se.Offset <= 0 || se.Offset > int64(len(buf)) ||
			strings.Contains(se.Error(), "unexpected end") {
			break
		}
		// Strip the offending byte (the decoder reports the offset just
		// after it) and try again.
		i := int(se.Offset) - 1
		buf = append(append([]byte{}, buf[:i]...), buf[i+1:]...)
	}
	if err != nil {
		return fmt.Errorf("gdelt: %s JSON: %w", mode, err)
	}
	return nil
}

// clean trims a text field, collapses its white space and caps its length.
func clean(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		s = strings.ToValidUTF8(s[:n], "")
	}
	return s
}
