package river

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	gauge "overwatch/maritime/river"
	"overwatch/sources"
)

// Config is where the river gauges are fetched from and how often
// (OVERWATCH_RIVER_URL, OVERWATCH_RIVER_REFRESH). An empty URL turns the
// job off.
type Config struct {
	// URL is the NWIS instantaneous-values service (format=json), to
	// which sites=<the gauges' sites> is added; or an OGC API collection
	// (".../collections/<name>/items"), fetched once per gauge with
	// monitoring_location_id=USGS-<site>&parameter_code=00065&f=json.
	URL   string
	Every time.Duration
	// Failures counts the failed fetches (nil: not counted).
	Failures *sources.Failures
}

// Writer stores the river readings and the fetch log (clickhouse.DB).
type Writer interface {
	InsertRiverReadings(ctx context.Context, rows []gauge.Reading) error
	LogRiverFetch(ctx context.Context, f gauge.Fetch) error
}

// requestURLs are the requests of one run: one for the IV service (every
// site at once), one per gauge for the OGC API.
func requestURLs(base string) ([]string, error) {
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("river URL %q must be an absolute http:// or https:// URL", base)
	}
	q := u.Query()
	if strings.Contains(u.Path, "/collections/") {
		var out []string
		for _, site := range gauge.Sites() {
			q.Set("monitoring_location_id", "USGS-"+site)
			if q.Get("parameter_code") == "" {
				q.Set("parameter_code", gauge.ParamGageHeight)
			}
			q.Set("f", "json")
			u.RawQuery = q.Encode()
			out = append(out, u.String())
		}
		return out, nil
	}
	q.Set("sites", strings.Join(gauge.Sites(), ","))
	if q.Get("format") == "" {
		q.Set("format", "json")
	}
	u.RawQuery = q.Encode()
	return []string{u.String()}, nil
}

// fetch fetches and parses every request of a run: the readings of
// the gauges (gauge height and discharge; other sites and parameters
// dropped). A request that fails fails the run, and nothing of it is
// kept; an answer with no reading of any gauge is a failure too (an
// empty series: the last good readings stay).
func fetch(ctx context.Context, failures *sources.Failures, base string) ([]gauge.Reading, error) {
	urls, err := requestURLs(base)
	if err != nil {
		return nil, err
	}
	var out []gauge.Reading
	for _, u := range urls {
		body, err := sources.Get(ctx, failures, "usgs_river", u, sources.Options{})
		if err != nil {
			return nil, err
		}
		rs, err := Parse(body)
		if err != nil {
			return nil, err
		}
		for _, r := range rs {
			if _, ok := gauge.BySite(r.Site); ok && (r.Parameter == gauge.ParamGageHeight || r.Parameter == gauge.ParamDischarge) {
				out = append(out, r)
			}
		}
	}
	if len(out) == 0 {
		return nil, errors.New("the answer holds no reading of the gauges (an empty series)")
	}
	return out, nil
}

// Levels is the scheduled poll of the river gauges (every 15 minutes
// by default): the readings of a run are stored whole, and every fetch is
// logged (the source status of /v1/river-levels). A run that fails
// (timeout, 429, 5xx, an HTML page, a truncated or malformed answer, an
// empty series) keeps the readings last stored and is counted on /metrics
// as overwatch_job_failures_total{job="river_levels"}.
func Levels(store Writer, cfg Config) sources.Refresh {
	shown := cfg.URL
	if u, err := url.Parse(cfg.URL); err == nil {
		shown = u.Redacted()
	}
	return sources.Refresh(func(ctx context.Context) (sources.Result, error) {
		at := time.Now().UTC()
		rows, err := fetch(ctx, cfg.Failures, cfg.URL)
		if err == nil {
			err = store.InsertRiverReadings(ctx, rows)
		}
		f := gauge.Fetch{At: at, URL: shown, OK: err == nil, Readings: len(rows)}
		if err != nil {
			f.Readings, f.Error = 0, err.Error()
		}
		// A fetch that timed out is logged too.
		lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		if lerr := store.LogRiverFetch(lctx, f); lerr != nil {
			err = errors.Join(err, lerr)
		}
		if err != nil {
			return sources.Result{}, fmt.Errorf("river levels: %w", err)
		}
		return sources.Result{From: at, To: at, Rows: len(rows), Watermark: at}, nil
	})
}
