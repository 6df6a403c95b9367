package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"overwatch/jobs"
	"overwatch/maritime/market"
	marketfile "overwatch/write/market"
)

// marketConfig is where the market sources are fetched from and how often.
// An empty URL turns its refresh off ("off" in the environment).
type marketConfig struct {
	FREDURL             string
	FREDSeries          []string
	WorldBankURL        string
	AMSURL              string
	AMSKey              string // never logged
	AgTransportURL      string
	AgTransportDatasets []string
	PricesEvery         time.Duration
	TransportEvery      time.Duration
}

// sourceURL is a source's configured URL, "" for off.
func sourceURL(v string) string {
	if strings.EqualFold(v, "off") {
		return ""
	}
	return v
}

// list splits a comma-separated setting, dropping empty items.
func list(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// PriceWriter stores price observations (clickhouse.DB).
type PriceWriter interface {
	InsertPrices(ctx context.Context, rows []market.Price) error
}

// RateWriter stores transport rates (clickhouse.DB).
type RateWriter interface {
	InsertRates(ctx context.Context, rows []market.Rate) error
}

// fetchParsed fetches one file of a source and parses it whole: nothing
// of a file that fails is kept.
func fetchParsed(ctx context.Context, name, rawURL, user, dataset string) (marketfile.Result, error) {
	body, err := fetchSource(ctx, rawURL, fetchOptions{user: user})
	if err != nil {
		return marketfile.Result{}, err
	}
	return marketfile.Parse(name, bytes.NewReader(body), dataset, time.Time{})
}

// pricesSource is the scheduled refresh of the price sources: every FRED
// series, the World Bank workbook and, with a key, the AMS export bids.
// Each file is stored whole or not at all; a file that fails (timeout,
// 429, 5xx, an HTML page, a truncated or malformed body) leaves the
// observations last stored, and the run fails, counted on /metrics as
// overwatch_job_failures_total{job="prices_refresh"}, after the other
// files are stored.
func pricesSource(store PriceWriter, cfg marketConfig) jobs.Source {
	type file struct{ name, url, user string }
	var files []file
	if cfg.FREDURL != "" {
		for _, id := range cfg.FREDSeries {
			sep := "?"
			if strings.Contains(cfg.FREDURL, "?") {
				sep = "&"
			}
			files = append(files, file{"FRED " + id + ".csv", cfg.FREDURL + sep + "id=" + url.QueryEscape(id), ""})
		}
	}
	if cfg.WorldBankURL != "" {
		files = append(files, file{"CMO-Historical-Data-Monthly.xlsx", cfg.WorldBankURL, ""})
	}
	if cfg.AMSURL != "" && cfg.AMSKey != "" {
		files = append(files, file{"AMS report.json", cfg.AMSURL, cfg.AMSKey})
	}
	return jobs.SourceFunc(func(ctx context.Context, _ jobs.State) (jobs.Result, error) {
		var errs []error
		res := jobs.Result{Watermark: time.Now().UTC(), Detail: map[string]any{}}
		for _, f := range files {
			parsed, err := fetchParsed(ctx, f.name, f.url, f.user, "")
			if err == nil && len(parsed.Prices) == 0 {
				err = fmt.Errorf("%s: no prices in the file", f.name)
			}
			if err == nil {
				err = store.InsertPrices(ctx, parsed.Prices)
			}
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", f.name, err))
				continue
			}
			res.Rows += len(parsed.Prices)
			res.Detail[f.name] = len(parsed.Prices)
		}
		return res, errors.Join(errs...)
	})
}

// transportSource is the scheduled refresh of the AgTransport datasets,
// one file per dataset, failing as pricesSource does
// (overwatch_job_failures_total{job="transport_refresh"}).
func transportSource(store RateWriter, cfg marketConfig) jobs.Source {
	return jobs.SourceFunc(func(ctx context.Context, _ jobs.State) (jobs.Result, error) {
		var errs []error
		res := jobs.Result{Watermark: time.Now().UTC(), Detail: map[string]any{}}
		for _, id := range cfg.AgTransportDatasets {
			u := strings.TrimRight(cfg.AgTransportURL, "/") + "/" + url.PathEscape(id) + ".json?$limit=5000"
			parsed, err := fetchParsed(ctx, id+".json", u, "", id)
			if err == nil && len(parsed.Rates) == 0 {
				err = fmt.Errorf("no rates in the file")
			}
			if err == nil {
				err = store.InsertRates(ctx, parsed.Rates)
			}
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", id, err))
				continue
			}
			res.Rows += len(parsed.Rates)
			res.Detail[id] = len(parsed.Rates)
		}
		return res, errors.Join(errs...)
	})
}

// marketSources are the prices and transport refreshes of the job table,
// each with its source when the configuration turns it on.
func marketSources(cfg marketConfig, prices PriceWriter, rates RateWriter) (p, t jobs.SourceRefresh) {
	p = jobs.SourceRefresh{Every: cfg.PricesEvery, Setting: "OVERWATCH_FRED_URL, OVERWATCH_WORLDBANK_URL or OVERWATCH_AMS_API_KEY"}
	if cfg.FREDURL != "" || cfg.WorldBankURL != "" || (cfg.AMSURL != "" && cfg.AMSKey != "") {
		p.Source = pricesSource(prices, cfg)
	}
	t = jobs.SourceRefresh{Every: cfg.TransportEvery, Setting: "OVERWATCH_AGTRANSPORT_URL"}
	if cfg.AgTransportURL != "" && len(cfg.AgTransportDatasets) > 0 {
		t.Source = transportSource(rates, cfg)
	}
	return p, t
}
