package sar

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/oasdiff/yaml"

	cover "overwatch/maritime/sar"
	"overwatch/sources"
)

// Config is the Sentinel-1 catalogue the coverage endpoint asks: its base
// URL (OVERWATCH_SAR_URL; "" off: the stored products answer alone),
// which catalogue it is (OVERWATCH_SAR_CATALOGUE; asf: the ASF search API;
// cdse: the Copernicus Data Space OData products), the least time between
// two of its requests (OVERWATCH_SAR_MIN_INTERVAL), how long an answer
// for a recent day stays fresh (OVERWATCH_SAR_FRESH), the clock (nil: the
// real time) and the count of failed fetches (nil: not counted).
type Config struct {
	URL         string
	Catalogue   string
	MinInterval time.Duration
	FreshFor    time.Duration
	Now         func() time.Time
	Failures    *sources.Failures
}

// sarFetchTimeout bounds one catalogue request made for a caller;
// sarRetryFailed is how long a failed area waits before it is fetched
// again (the cache answers meanwhile); sarMaxPages bounds the pages of a
// paging catalogue (CDSE) read for one area.
const (
	sarFetchTimeout = 20 * time.Second
	sarRetryFailed  = time.Minute
	sarMaxPages     = 5
	sarPageSize     = 1000
)

// Store is the catalogue cache (clickhouse.DB).
type Store interface {
	InsertSARProducts(ctx context.Context, products []cover.Product) error
	RecordSARArea(ctx context.Context, area string, day time.Time, catalogue string, products int, at time.Time) error
	SARAreaFetched(ctx context.Context, area string, day time.Time, catalogue string) (time.Time, bool, error)
}

// Catalogue is the catalogue client: it answers read.SARCatalogue,
// fetching an area's products once per area and day (again after
// FreshFor while the day's window is recent), at most one request per
// MinInterval, waiting out a 429's Retry-After; a failed fetch keeps the
// cache, is logged and counted (Fetches: on /metrics as
// overwatch_sar_catalogue_fetches_total{result="failed"}).
type Catalogue struct {
	store   Store
	cfg     Config
	log     *slog.Logger
	now     func() time.Time
	fetches map[string]int64 // by result: ok, failed, rate_limited (under mu)

	mu       sync.Mutex
	fetched  map[string]time.Time     // area key|day -> the catalogue's last answer
	failed   map[string]time.Time     // area key|day -> the last failed fetch
	inflight map[string]chan struct{} // the fetches under way
	next     time.Time                // the earliest time of the next request
	gate     sync.Mutex               // one request at a time
}

// NewCatalogue returns the catalogue client, or nil when none is
// configured (the stored products answer).
func NewCatalogue(store Store, cfg Config, log *slog.Logger) *Catalogue {
	if cfg.URL == "" {
		return nil
	}
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	return &Catalogue{store: store, cfg: cfg, log: log, now: now, fetched: map[string]time.Time{}, failed: map[string]time.Time{},
		inflight: map[string]chan struct{}{}, fetches: map[string]int64{}}
}

// Fetches are the catalogue's fetches so far by result: ok, failed, and
// rate_limited (answered from the cache while a Retry-After or a recent
// failure holds).
func (c *Catalogue) Fetches() map[string]int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return maps.Clone(c.fetches)
}

// EnsureSAR implements read.SARCatalogue: the area's products of the day
// are in the cache, fetched when they were not or are stale.
func (c *Catalogue) EnsureSAR(ctx context.Context, a cover.Area) cover.CatalogueStatus {
	key := a.Key() + "|" + a.Day.Format(time.DateOnly)
	for {
		c.mu.Lock()
		at, known := c.fetched[key]
		if !known {
			c.mu.Unlock()
			stored, ok, err := c.store.SARAreaFetched(ctx, a.Key(), a.Day, c.cfg.Catalogue)
			if err != nil {
				c.log.Warn("sar catalogue: cache state", "err", err)
				return cover.CatalogueStatus{Catalogue: c.cfg.Catalogue, Status: "cached"}
			}
			c.mu.Lock()
			if ok && stored.After(c.fetched[key]) {
				c.fetched[key] = stored
			}
			at = c.fetched[key]
		}
		now := c.now()
		if c.fresh(a, at, now) {
			c.mu.Unlock()
			return cover.CatalogueStatus{Catalogue: c.cfg.Catalogue, Status: "fetched", FetchedAt: at}
		}
		if now.Sub(c.failed[key]) < sarRetryFailed || c.next.Sub(now) > c.cfg.MinInterval+time.Second {
			c.fetches["rate_limited"]++
			c.mu.Unlock()
			return cover.CatalogueStatus{Catalogue: c.cfg.Catalogue, Status: "cached", FetchedAt: at}
		}
		if wait, busy := c.inflight[key]; busy {
			c.mu.Unlock()
			select {
			case <-wait:
				continue
			case <-ctx.Done():
				return cover.CatalogueStatus{Catalogue: c.cfg.Catalogue, Status: "cached", FetchedAt: at}
			}
		}
		done := make(chan struct{})
		c.inflight[key] = done
		c.mu.Unlock()
		// The fetch runs on its own clock: the caller going away must not
		// waste the catalogue's answer.
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), sarFetchTimeout)
		n, err := c.fetch(fctx, a)
		cancel()
		c.mu.Lock()
		delete(c.inflight, key)
		close(done)
		status := "fetched"
		if err != nil {
			// A failed catalogue is not asked again for a minute, for any
			// area: offline, answers come from the cache at once.
			c.failed[key] = c.now()
			if next := c.now().Add(sarRetryFailed); next.After(c.next) {
				c.next = next
			}
			status = "cached"
			c.fetches["failed"]++
			c.log.Warn("sar catalogue: fetch failed; the cache answers", "area", a.Key(), "day", a.Day.Format(time.DateOnly), "err", err)
		} else {
			at = c.now().UTC().Truncate(time.Second)
			c.fetched[key] = at
			c.fetches["ok"]++
			c.log.Info("sar catalogue: fetched", "area", a.Key(), "day", a.Day.Format(time.DateOnly), "products", n)
		}
		c.mu.Unlock()
		if err == nil {
			if rerr := c.store.RecordSARArea(ctx, a.Key(), a.Day, c.cfg.Catalogue, n, at); rerr != nil {
				c.log.Warn("sar catalogue: record area", "err", rerr)
			}
		}
		return cover.CatalogueStatus{Catalogue: c.cfg.Catalogue, Status: status, FetchedAt: at}
	}
}

// fresh reports whether an answer fetched at at still stands: always once
// the area's window ended two days before it (the archive no longer
// changes), else for FreshFor.
func (c *Catalogue) fresh(a cover.Area, at, now time.Time) bool {
	if at.IsZero() {
		return false
	}
	return a.To().Add(48*time.Hour).Before(at) || now.Sub(at) < c.cfg.FreshFor
}

// fetch asks the catalogue for the area's products over its window (every
// page of a paging catalogue, up to sarMaxPages) and stores them.
func (c *Catalogue) fetch(ctx context.Context, a cover.Area) (int, error) {
	u := c.queryURL(a)
	var all []cover.Product
	for page := 0; u != "" && page < sarMaxPages; page++ {
		body, err := c.get(ctx, u)
		if err != nil {
			return 0, err
		}
		res, err := Parse(bytes.NewReader(body))
		if err != nil {
			return 0, err
		}
		all = append(all, res.Products...)
		u = sameHost(c.cfg.URL, res.Next)
	}
	if err := c.store.InsertSARProducts(ctx, all); err != nil {
		return 0, err
	}
	return len(all), nil
}

// sameHost is next when it is on the configured catalogue's scheme and
// host (a page link elsewhere is not followed), else "".
func sameHost(base, next string) string {
	b, err1 := url.Parse(base)
	n, err2 := url.Parse(next)
	if next == "" || err1 != nil || err2 != nil || b.Scheme != n.Scheme || b.Host != n.Host {
		return ""
	}
	return next
}

// get makes one catalogue request once the rate limit allows it: a 429
// or 503 puts off every request by its Retry-After (a minute when it
// gives none).
func (c *Catalogue) get(ctx context.Context, u string) ([]byte, error) {
	c.gate.Lock()
	defer c.gate.Unlock()
	c.mu.Lock()
	wait := c.next.Sub(c.now())
	c.mu.Unlock()
	if wait > 0 {
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	body, err := sources.Get(ctx, c.cfg.Failures, "sar_"+c.cfg.Catalogue, u, sources.Options{})
	c.mu.Lock()
	c.next = c.now().Add(c.cfg.MinInterval)
	var ra sources.StatusError
	if errors.As(err, &ra) && ra.Throttled() {
		c.next = c.now().Add(retryAfter(ra.Wait, c.now()))
	}
	c.mu.Unlock()
	return body, err
}

// retryAfter reads a Retry-After header (seconds or an HTTP date); a
// minute when absent or unreadable, at most an hour.
func retryAfter(v string, now time.Time) time.Duration {
	d := time.Minute
	if s, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && s >= 0 {
		d = time.Duration(s) * time.Second
	} else if t, err := time.Parse(time.RFC1123, v); err == nil {
		d = t.Sub(now)
	}
	return min(max(d, 0), time.Hour)
}

// queryURL is the catalogue query of an area's products over its window.
func (c *Catalogue) queryURL(a cover.Area) string {
	from, to := a.From().Format("2006-01-02T15:04:05Z"), a.To().Format("2006-01-02T15:04:05Z")
	sep := "?"
	if strings.Contains(c.cfg.URL, "?") {
		sep = "&"
	}
	if c.cfg.Catalogue == "cdse" {
		filter := fmt.Sprintf("Collection/Name eq 'SENTINEL-1' and OData.CSC.Intersects(area=geography'SRID=4326;%s') and ContentDate/Start gt %s and ContentDate/Start lt %s",
			a.WKT(), from, to)
		return c.cfg.URL + sep + "%24filter=" + url.QueryEscape(filter) + "&%24expand=Attributes&%24orderby=" +
			url.QueryEscape("ContentDate/Start asc") + "&%24top=" + strconv.Itoa(sarPageSize)
	}
	q := url.Values{"platform": {"SENTINEL-1"}, "intersectsWith": {a.WKT()}, "start": {from}, "end": {to},
		"output": {"jsonlite"}, "maxResults": {strconv.Itoa(sarPageSize)}}
	return c.cfg.URL + sep + q.Encode()
}

// sarSamples are real Sentinel-1 catalogue answers (copied byte for byte
// from ../shared/data/sar; origins, licences and checksums in
// samples/README.md), which `overwatch run` loads when the catalogue
// cache is empty: the products keep their real acquisition times (2019
// and 2021), so the coverage endpoint answers out of the box for those
// places and, by the 12-day cycle, predicts their orbits' passes since.
//
//go:embed samples/*
var sarSamples embed.FS

// SampleStore stores the samples (clickhouse.DB).
type SampleStore interface {
	InsertSARProducts(ctx context.Context, products []cover.Product) error
	SARRows(ctx context.Context) (uint64, error)
}

// LoadSamples stores the bundled samples when the catalogue cache is
// empty; a sample that fails to load is logged and skipped.
func LoadSamples(ctx context.Context, store SampleStore, log *slog.Logger) {
	n, err := store.SARRows(ctx)
	if err != nil || n > 0 {
		if err != nil {
			log.Warn("sar samples: cannot count the catalogue cache", "err", err)
		}
		return
	}
	entries, err := sarSamples.ReadDir("samples")
	if err != nil {
		log.Warn("sar samples", "err", err)
		return
	}
	var all []cover.Product
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".md") {
			continue
		}
		body, err := sarSamples.ReadFile("samples/" + e.Name())
		if err == nil && strings.HasSuffix(e.Name(), ".yml") {
			// The ASF GeoJSON feature is recorded as YAML flow style.
			body, err = yaml.YAMLToJSON(body)
		}
		var res Result
		if err == nil {
			res, err = Parse(bytes.NewReader(body))
		}
		if err != nil {
			log.Warn("sar samples: not loaded", "file", e.Name(), "err", err)
			continue
		}
		for _, p := range res.Products {
			p.Source = "sample:" + p.Source
			all = append(all, p)
		}
	}
	if err := store.InsertSARProducts(ctx, all); err != nil {
		log.Warn("sar samples: not stored", "err", err)
		return
	}
	log.Info("sar samples loaded (real catalogue products at their real acquisition times; a catalogue fetch adds to them)", "products", len(all))
}
