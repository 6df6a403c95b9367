package gdelt

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"
	"sync"
	"time"

	"overwatch/maritime/chokepoint"
	"overwatch/maritime/seaport"
	"overwatch/sources"
)

// MinInterval is GDELT's rule: one request every 5 seconds.
const MinInterval = 5 * time.Second

// timespan and maxRecords bound each query: the articles of the
// last day, newest first.
const (
	timespan   = "1d"
	maxRecords = 75
)

// chokepointNames are the names GDELT is asked for, per chokepoint.
var chokepointNames = map[string][]string{
	chokepoint.Suez:         {"Suez Canal"},
	chokepoint.BabElMandeb:  {"Bab el-Mandeb", "Bab al-Mandab"},
	chokepoint.Hormuz:       {"Strait of Hormuz"},
	chokepoint.Malacca:      {"Strait of Malacca", "Malacca Strait"},
	chokepoint.Panama:       {"Panama Canal"},
	chokepoint.Bosporus:     {"Bosporus", "Bosphorus"},
	chokepoint.Gibraltar:    {"Strait of Gibraltar"},
	chokepoint.CapeGoodHope: {"Cape of Good Hope"},
}

// Subjects are the queries of the news refresh: one per chokepoint, then
// one per reference port ("port of <name>").
func Subjects() []Subject {
	var out []Subject
	for _, c := range chokepoint.All() {
		out = append(out, Subject{Chokepoint: c.Slug, Names: chokepointNames[c.Slug]})
	}
	for _, p := range seaport.All() {
		out = append(out, Subject{Port: p.Slug, Names: []string{"port of " + p.Name}})
	}
	return out
}

// Writer stores the news signals (clickhouse.DB) and reads back the
// tones stored with them.
type Writer interface {
	InsertDisruptions(ctx context.Context, rows []chokepoint.Disruption) error
	DisruptionTones(ctx context.Context, urls []string) (map[string]float64, error)
}

// Client asks the GDELT DOC API at Base (sources.Get), each request
// within Timeout (0: sources.Timeout), its failures counted on Failures. GDELT answers its query errors and,
// sometimes, its rate-limit notice as plain text with HTTP 200 (and
// Content-Type text/html): the gdelt parsers tell them apart. A 429 is
// also ErrRateLimited.
type Client struct {
	Base     string
	Timeout  time.Duration
	Failures *sources.Failures
}

// get asks one request.
func (g Client) get(ctx context.Context, rawURL string) ([]byte, error) {
	body, err := sources.Get(ctx, g.Failures, "gdelt", rawURL, sources.Options{MaxBytes: MaxBytes, AllowHTML: true, Timeout: g.Timeout})
	var ra sources.StatusError
	if errors.As(err, &ra) && ra.Code == http.StatusTooManyRequests {
		return nil, fmt.Errorf("%w: %w", ErrRateLimited, err)
	}
	return body, err
}

// Articles asks the ArtList of the query: the articles of the last day,
// newest first.
func (g Client) Articles(ctx context.Context, query string) ([]Article, error) {
	body, err := g.get(ctx, URL(g.Base, query, timespan, maxRecords))
	if err != nil {
		return nil, err
	}
	arts, _, err := Parse(body)
	if err != nil {
		return nil, fmt.Errorf("GDELT: %w", err)
	}
	return arts, nil
}

// Tones asks the ToneChart of the same query over the same day: the tone
// of each article its bins list, by URL.
func (g Client) Tones(ctx context.Context, query string) (map[string]float64, error) {
	body, err := g.get(ctx, ToneChartURL(g.Base, query, timespan))
	if err != nil {
		return nil, err
	}
	bins, err := ParseToneChart(body)
	if err != nil {
		return nil, fmt.Errorf("GDELT ToneChart: %w", err)
	}
	return Tones(bins), nil
}

// News is the GDELT refresh: each run asks the subjects in turn,
// one request every interval at most (never faster than GDELT's one in 5
// seconds in production): a subject's ArtList, then, when it found
// articles, its ToneChart over the same day, whose bins give each article
// they list its tone. Each article is stored once per URL, with the
// subject matched and its tone: the ToneChart's, else the tone stored with
// it by an earlier fetch, else none (NaN, null in the API). A query error
// (plain text with HTTP 200), a truncated or malformed answer fails that
// subject, stored as it was, and the run goes on; a rate-limit answer
// (429, or the notice with 200), a timeout or an unreachable service stops
// the run, and the next run resumes with the subject not answered.
// Whatever fails, the signals stored stay, and a run with a failure counts
// on /metrics as overwatch_job_failures_total{job="news_refresh"}.
func News(store Writer, client Client, subjects []Subject, interval time.Duration) sources.Refresh {
	var mu sync.Mutex
	next := 0
	var last time.Time
	// pace waits until interval has passed since the last request.
	pace := func(ctx context.Context) error {
		if wait := time.Until(last.Add(interval)); wait > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(wait):
			}
		}
		last = time.Now()
		return nil
	}
	// stops reports an answer that ends the run: GDELT asks to be asked
	// later, or did not answer.
	stops := func(err error) bool {
		var unreachable sources.UnreachableError
		return errors.Is(err, ErrRateLimited) || errors.As(err, &unreachable) || errors.Is(err, context.DeadlineExceeded)
	}
	return sources.Refresh(func(ctx context.Context) (sources.Result, error) {
		mu.Lock()
		defer mu.Unlock()
		res := sources.Result{Watermark: time.Now().UTC(), Detail: map[string]any{}}
		var errs []error
		for n := 0; n < len(subjects); n++ {
			s := subjects[next]
			q := Query(s)
			if err := pace(ctx); err != nil {
				return res, errors.Join(append(errs, err)...)
			}
			arts, err := client.Articles(ctx, q)
			var tones map[string]float64
			if err == nil && len(arts) > 0 {
				if err = pace(ctx); err == nil {
					tones, err = client.Tones(ctx, q)
				}
			}
			if stops(err) {
				// Back off: the next run starts with this subject.
				last = time.Now().Add(interval)
				errs = append(errs, fmt.Errorf("%s: %w", subjectName(s), err))
				break
			}
			next = (next + 1) % len(subjects)
			if err == nil {
				err = Store(ctx, store, s, arts, tones)
			}
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", subjectName(s), err))
				continue
			}
			res.Rows += len(arts)
			res.Detail[subjectName(s)] = len(arts)
		}
		return res, errors.Join(errs...)
	})
}

// Store stores a subject's articles with their tones: the
// ToneChart's, else the tone an earlier fetch stored with the article.
func Store(ctx context.Context, store Writer, s Subject, arts []Article, tones map[string]float64) error {
	var untoned []string
	for _, a := range arts {
		if _, ok := tones[a.URL]; !ok {
			untoned = append(untoned, a.URL)
		}
	}
	if len(untoned) > 0 {
		stored, err := store.DisruptionTones(ctx, untoned)
		if err != nil {
			return err
		}
		if tones == nil {
			tones = map[string]float64{}
		}
		for u, t := range stored {
			tones[u] = t
		}
	}
	return store.InsertDisruptions(ctx, newsSignals(s, arts, tones))
}

// subjectName names a subject in a run's detail and errors.
func subjectName(s Subject) string {
	if s.Port != "" {
		return "port " + s.Port
	}
	return "chokepoint " + s.Chokepoint
}

// newsSignals are a query's articles as signals of its subject, each with
// its tone from tones (by URL): GDELT's tone of the article, in whole
// points (its ToneChart bin); unknown (NaN, shown as null) when GDELT gave
// none.
func newsSignals(s Subject, arts []Article, tones map[string]float64) []chokepoint.Disruption {
	out := make([]chokepoint.Disruption, 0, len(arts))
	for _, a := range arts {
		title := a.Title
		if title == "" {
			title = a.URL
		}
		tone, ok := tones[a.URL]
		if !ok {
			tone = math.NaN()
		}
		out = append(out, chokepoint.Disruption{Kind: chokepoint.KindNews, Source: chokepoint.SourceGDELT, Title: title, URL: a.URL,
			SourceName: strings.TrimPrefix(a.Domain, "www."), PublishedAt: a.Seen, Tone: tone, Port: s.Port, Chokepoint: s.Chokepoint,
			Language: a.Language, Country: a.SourceCountry})
	}
	return out
}
