package main

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

// pricesJob is the scheduled refresh of the price sources: every FRED
// series, the World Bank workbook and, with a key, the AMS export bids.
// Each file is stored whole or not at all; a file that fails (timeout,
// 429, 5xx, an HTML page, a truncated or malformed body) leaves the
// observations last stored, and the run fails, counted on /metrics as
// overwatch_job_failures_total{job="prices_refresh"}, after the other
// files are stored.
func pricesJob(store PriceWriter, cfg marketConfig) jobs.Job {
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
	return jobs.Job{Name: "prices_refresh", Every: cfg.PricesEvery, Writes: []string{"commodity_prices"},
		Run: func(ctx context.Context, _ jobs.State) (jobs.Result, error) {
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
		}}
}

// transportJob is the scheduled refresh of the AgTransport datasets, one
// file per dataset, failing as pricesJob does
// (overwatch_job_failures_total{job="transport_refresh"}).
func transportJob(store RateWriter, cfg marketConfig) jobs.Job {
	return jobs.Job{Name: "transport_refresh", Every: cfg.TransportEvery, Writes: []string{"transport_rates"},
		Run: func(ctx context.Context, _ jobs.State) (jobs.Result, error) {
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
		}}
}

// marketJobs are the refreshes the configuration turns on.
func marketJobs(cfg marketConfig, prices PriceWriter, rates RateWriter) []jobs.Job {
	var out []jobs.Job
	if cfg.FREDURL != "" || cfg.WorldBankURL != "" || (cfg.AMSURL != "" && cfg.AMSKey != "") {
		out = append(out, pricesJob(prices, cfg))
	}
	if cfg.AgTransportURL != "" && len(cfg.AgTransportDatasets) > 0 {
		out = append(out, transportJob(rates, cfg))
	}
	return out
}
