package app

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"
	"sync"
	"time"

	"overwatch/jobs"
	"overwatch/maritime/chokepoint"
	"overwatch/maritime/seaport"
	"overwatch/write/gdelt"
	"overwatch/write/portwatch"
)

// newsConfig is where the GDELT DOC API is asked and how often. An empty
// URL turns the job off ("off" in the environment).
type newsConfig struct {
	URL         string
	Every       time.Duration
	MinInterval time.Duration // between two requests; never below gdeltMinInterval
	// PortWatchURL is IMF PortWatch's Daily_Chokepoints_Data query URL,
	// fetched every PortWatchEvery; empty (the default): not fetched.
	PortWatchURL   string
	PortWatchEvery time.Duration
}

// gdeltMinInterval is GDELT's rule: one request every 5 seconds.
const gdeltMinInterval = 5 * time.Second

// gdeltTimespan and gdeltMaxRecords bound each query: the articles of the
// last day, newest first.
const (
	gdeltTimespan   = "1d"
	gdeltMaxRecords = 75
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

// newsSubjects are the queries of the news job: one per chokepoint, then
// one per reference port ("port of <name>").
func newsSubjects() []gdelt.Subject {
	var out []gdelt.Subject
	for _, c := range chokepoint.All() {
		out = append(out, gdelt.Subject{Chokepoint: c.Slug, Names: chokepointNames[c.Slug]})
	}
	for _, p := range seaport.All() {
		out = append(out, gdelt.Subject{Port: p.Slug, Names: []string{"port of " + p.Name}})
	}
	return out
}

// NewsWriter stores the news signals (clickhouse.DB) and reads back the
// tones stored with them.
type NewsWriter interface {
	InsertDisruptions(ctx context.Context, rows []chokepoint.Disruption) error
	DisruptionTones(ctx context.Context, urls []string) (map[string]float64, error)
}

// GdeltClient asks the GDELT DOC API at base (fetchSource), each request
// within timeout (0: sourceTimeout). GDELT answers its query errors and,
// sometimes, its rate-limit notice as plain text with HTTP 200 (and
// Content-Type text/html): the gdelt parsers tell them apart. A 429 is
// also gdelt.ErrRateLimited.
type GdeltClient struct {
	Base    string
	timeout time.Duration
}

// get asks one request.
func (g GdeltClient) get(ctx context.Context, rawURL string) ([]byte, error) {
	body, err := fetchSource(ctx, rawURL, fetchOptions{maxBytes: gdelt.MaxBytes, allowHTML: true, timeout: g.timeout})
	var ra errRetryAfter
	if errors.As(err, &ra) && ra.code == http.StatusTooManyRequests {
		return nil, fmt.Errorf("%w: %w", gdelt.ErrRateLimited, err)
	}
	return body, err
}

// Articles asks the ArtList of the query: the articles of the last day,
// newest first.
func (g GdeltClient) Articles(ctx context.Context, query string) ([]gdelt.Article, error) {
	body, err := g.get(ctx, gdelt.URL(g.Base, query, gdeltTimespan, gdeltMaxRecords))
	if err != nil {
		return nil, err
	}
	arts, _, err := gdelt.Parse(body)
	if err != nil {
		return nil, fmt.Errorf("GDELT: %w", err)
	}
	return arts, nil
}

// Tones asks the ToneChart of the same query over the same day: the tone
// of each article its bins list, by URL.
func (g GdeltClient) Tones(ctx context.Context, query string) (map[string]float64, error) {
	body, err := g.get(ctx, gdelt.ToneChartURL(g.Base, query, gdeltTimespan))
	if err != nil {
		return nil, err
	}
	bins, err := gdelt.ParseToneChart(body)
	if err != nil {
		return nil, fmt.Errorf("GDELT ToneChart: %w", err)
	}
	return gdelt.Tones(bins), nil
}

// NewsSource is the GDELT refresh: each run asks the subjects in turn,
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
func NewsSource(store NewsWriter, client GdeltClient, subjects []gdelt.Subject, interval time.Duration) jobs.Source {
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
		var unreachable errUnreachable
		return errors.Is(err, gdelt.ErrRateLimited) || errors.As(err, &unreachable) || errors.Is(err, context.DeadlineExceeded)
	}
	return jobs.SourceFunc(func(ctx context.Context, _ jobs.State) (jobs.Result, error) {
		mu.Lock()
		defer mu.Unlock()
		res := jobs.Result{Watermark: time.Now().UTC(), Detail: map[string]any{}}
		var errs []error
		for n := 0; n < len(subjects); n++ {
			s := subjects[next]
			q := gdelt.Query(s)
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
				err = storeNews(ctx, store, s, arts, tones)
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

// storeNews stores a subject's articles with their tones: the
// ToneChart's, else the tone an earlier fetch stored with the article.
func storeNews(ctx context.Context, store NewsWriter, s gdelt.Subject, arts []gdelt.Article, tones map[string]float64) error {
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

func subjectName(s gdelt.Subject) string {
	if s.Port != "" {
		return "port " + s.Port
	}
	return "chokepoint " + s.Chokepoint
}

// newsSignals are a query's articles as signals of its subject, each with
// its tone from tones (by URL): GDELT's tone of the article, in whole
// points (its ToneChart bin); unknown (NaN, shown as null) when GDELT gave
// none.
func newsSignals(s gdelt.Subject, arts []gdelt.Article, tones map[string]float64) []chokepoint.Disruption {
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

// newsStore is where the news refreshes store (clickhouse.DB).
type newsStore interface {
	NewsWriter
	PortWatchWriter
}

// newsSources are the news refreshes of the job table, each with its
// source when the configuration turns it on: GDELT, and IMF PortWatch
// where an operator configured it.
func newsSources(cfg newsConfig, store newsStore) (news, portwatch jobs.SourceRefresh) {
	news = jobs.SourceRefresh{Every: cfg.Every, Setting: "OVERWATCH_GDELT_URL"}
	if cfg.URL != "" {
		news.Source = NewsSource(store, GdeltClient{Base: cfg.URL}, newsSubjects(), max(cfg.MinInterval, gdeltMinInterval))
	}
	portwatch = jobs.SourceRefresh{Every: cfg.PortWatchEvery, Setting: "OVERWATCH_PORTWATCH_URL"}
	if cfg.PortWatchURL != "" {
		portwatch.Source = portwatchSource(store, cfg.PortWatchURL)
	}
	return news, portwatch
}

// PortWatchWriter stores IMF PortWatch's daily counts (clickhouse.DB).
type PortWatchWriter interface {
	InsertPortWatch(ctx context.Context, rows []chokepoint.PortWatchDay) error
}

// portwatchQuery is added to a PortWatch URL given without a query: the
// newest 1,000 rows (some five weeks of the 28 chokepoints), as JSON.
const portwatchQuery = "where=1%3D1&outFields=*&orderByFields=date%20DESC&resultRecordCount=1000&f=json"

// portwatchSource fetches IMF PortWatch's daily chokepoint transits where an
// operator configured it (its terms do not allow redistributing them:
// nothing is bundled or fetched by default): the rows of the eight watched
// chokepoints are stored, the newest fetch of a day winning. A fetch that
// fails (any status but 200, an HTML page, an {"error": ...} answer sent
// with 200, a truncated body, no row of a watched chokepoint) keeps what
// is stored and counts in overwatch_job_failures_total{job="portwatch_refresh"}.
func portwatchSource(store PortWatchWriter, rawURL string) jobs.Source {
	if !strings.Contains(rawURL, "?") {
		rawURL += "?" + portwatchQuery
	}
	return jobs.SourceFunc(func(ctx context.Context, _ jobs.State) (jobs.Result, error) {
		body, err := fetchSource(ctx, rawURL, fetchOptions{})
		if err != nil {
			return jobs.Result{}, err
		}
		days, _, err := portwatch.Parse(body)
		if err != nil {
			return jobs.Result{}, err
		}
		var rows []chokepoint.PortWatchDay
		for _, d := range days {
			if slug := portwatch.Slug(d.PortID, d.PortName); slug != "" {
				rows = append(rows, chokepoint.PortWatchDay{Chokepoint: slug, Day: d.Date, Container: d.Container, DryBulk: d.DryBulk,
					GeneralCargo: d.GeneralCargo, RoRo: d.RoRo, Tanker: d.Tanker, Total: d.Total})
			}
		}
		if len(rows) == 0 {
			return jobs.Result{}, errors.New("portwatch: no row of a watched chokepoint in the answer")
		}
		if err := store.InsertPortWatch(ctx, rows); err != nil {
			return jobs.Result{}, err
		}
		return jobs.Result{Rows: len(rows), Watermark: time.Now().UTC()}, nil
	})
}
