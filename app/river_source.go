package app

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"overwatch/jobs"
	"overwatch/maritime/river"
	riverfile "overwatch/write/river"
)

// RiverConfig is where the river gauges are fetched from and how often.
// An empty URL turns the job off ("off" in the environment).
type RiverConfig struct {
	// URL is the NWIS instantaneous-values service (format=json), to
	// which sites=<the gauges' sites> is added; or an OGC API collection
	// (".../collections/<name>/items"), fetched once per gauge with
	// monitoring_location_id=USGS-<site>&parameter_code=00065&f=json.
	URL   string
	Every time.Duration
}

// RiverWriter stores the river readings and the fetch log (clickhouse.DB).
type RiverWriter interface {
	InsertRiverReadings(ctx context.Context, rows []river.Reading) error
	LogRiverFetch(ctx context.Context, f river.Fetch) error
}

// riverURLs are the requests of one run: one for the IV service (every
// site at once), one per gauge for the OGC API.
func riverURLs(base string) ([]string, error) {
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("river URL %q must be an absolute http:// or https:// URL", base)
	}
	q := u.Query()
	if strings.Contains(u.Path, "/collections/") {
		var out []string
		for _, site := range river.Sites() {
			q.Set("monitoring_location_id", "USGS-"+site)
			if q.Get("parameter_code") == "" {
				q.Set("parameter_code", river.ParamGageHeight)
			}
			q.Set("f", "json")
			u.RawQuery = q.Encode()
			out = append(out, u.String())
		}
		return out, nil
	}
	q.Set("sites", strings.Join(river.Sites(), ","))
	if q.Get("format") == "" {
		q.Set("format", "json")
	}
	u.RawQuery = q.Encode()
	return []string{u.String()}, nil
}

// fetchRiver fetches and parses every request of a run: the readings of
// the gauges (gauge height and discharge; other sites and parameters
// dropped). A request that fails fails the run, and nothing of it is
// kept; an answer with no reading of any gauge is a failure too (an
// empty series: the last good readings stay).
func fetchRiver(ctx context.Context, base string) ([]river.Reading, error) {
	urls, err := riverURLs(base)
	if err != nil {
		return nil, err
	}
	var out []river.Reading
	for _, u := range urls {
		body, err := fetchSource(ctx, u, fetchOptions{})
		if err != nil {
			return nil, err
		}
		rs, err := riverfile.Parse(body)
		if err != nil {
			return nil, err
		}
		for _, r := range rs {
			if _, ok := river.BySite(r.Site); ok && (r.Parameter == river.ParamGageHeight || r.Parameter == river.ParamDischarge) {
				out = append(out, r)
			}
		}
	}
	if len(out) == 0 {
		return nil, errors.New("the answer holds no reading of the gauges (an empty series)")
	}
	return out, nil
}

// riverLevelsSource is the scheduled poll of the river gauges (every 15 minutes
// by default): the readings of a run are stored whole, and every fetch is
// logged (the source status of /v1/river-levels). A run that fails
// (timeout, 429, 5xx, an HTML page, a truncated or malformed answer, an
// empty series) keeps the readings last stored and is counted on /metrics
// as overwatch_job_failures_total{job="river_levels"}.
func riverLevelsSource(store RiverWriter, cfg RiverConfig) jobs.Source {
	shown := cfg.URL
	if u, err := url.Parse(cfg.URL); err == nil {
		shown = u.Redacted()
	}
	return jobs.SourceFunc(func(ctx context.Context, _ jobs.State) (jobs.Result, error) {
		at := time.Now().UTC()
		rows, err := fetchRiver(ctx, cfg.URL)
		if err == nil {
			err = store.InsertRiverReadings(ctx, rows)
		}
		f := river.Fetch{At: at, URL: shown, OK: err == nil, Readings: len(rows)}
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
			return jobs.Result{}, fmt.Errorf("river levels: %w", err)
		}
		return jobs.Result{From: at, To: at, Rows: len(rows), Watermark: at}, nil
	})
}

// RiverSources is the river poll of the job table, with its source when
// the configuration turns it on.
func RiverSources(cfg RiverConfig, store RiverWriter) jobs.SourceRefresh {
	r := jobs.SourceRefresh{Every: cfg.Every, Setting: "OVERWATCH_RIVER_URL"}
	if cfg.URL != "" {
		r.Source = riverLevelsSource(store, cfg)
	}
	return r
}
