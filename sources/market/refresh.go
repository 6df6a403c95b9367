package market

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"overwatch/maritime/market"
	"overwatch/sources"
)

// Config is where the market sources are fetched from and how often (set
// in cmd from OVERWATCH_FRED_URL, OVERWATCH_FRED_SERIES,
// OVERWATCH_WORLDBANK_URL, OVERWATCH_AMS_URL, OVERWATCH_AMS_API_KEY,
// OVERWATCH_AGTRANSPORT_URL, OVERWATCH_AGTRANSPORT_DATASETS and their
// refresh intervals). An empty URL turns its refresh off.
type Config struct {
	FREDURL             string
	FREDSeries          []string
	WorldBankURL        string
	AMSURL              string
	AMSKey              string // never logged
	AgTransportURL      string
	AgTransportDatasets []string
	PricesEvery         time.Duration
	TransportEvery      time.Duration
	// Failures counts the failed fetches (nil: not counted).
	Failures *sources.Failures
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
func fetchParsed(ctx context.Context, failures *sources.Failures, source, name, rawURL, user, dataset string) (Result, error) {
	body, err := sources.Get(ctx, failures, source, rawURL, sources.Options{User: user})
	if err != nil {
		return Result{}, err
	}
	return Parse(name, bytes.NewReader(body), dataset, time.Time{})
}

// Prices is the scheduled refresh of the price sources: every FRED
// series, the World Bank workbook and, with a key, the AMS export bids.
// Each file is stored whole or not at all; a file that fails (timeout,
// 429, 5xx, an HTML page, a truncated or malformed body) leaves the
// observations last stored, and the run fails, counted on /metrics as
// overwatch_job_failures_total{job="prices_refresh"}, after the other
// files are stored.
func Prices(store PriceWriter, cfg Config) sources.Refresh {
	type file struct{ source, name, url, user string }
	var files []file
	if cfg.FREDURL != "" {
		for _, id := range cfg.FREDSeries {
			sep := "?"
			if strings.Contains(cfg.FREDURL, "?") {
				sep = "&"
			}
			files = append(files, file{"fred", "FRED " + id + ".csv", cfg.FREDURL + sep + "id=" + url.QueryEscape(id), ""})
		}
	}
	if cfg.WorldBankURL != "" {
		files = append(files, file{"worldbank", "CMO-Historical-Data-Monthly.xlsx", cfg.WorldBankURL, ""})
	}
	if cfg.AMSURL != "" && cfg.AMSKey != "" {
		files = append(files, file{"ams", "AMS report.json", cfg.AMSURL, cfg.AMSKey})
	}
	return sources.Refresh(func(ctx context.Context) (sources.Result, error) {
		var errs []error
		res := sources.Result{Watermark: time.Now().UTC(), Detail: map[string]any{}}
		for _, f := range files {
			parsed, err := fetchParsed(ctx, cfg.Failures, f.source, f.name, f.url, f.user, "")
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

// Transport is the scheduled refresh of the AgTransport datasets, one
// file per dataset, failing as Prices does
// (overwatch_job_failures_total{job="transport_refresh"}).
func Transport(store RateWriter, cfg Config) sources.Refresh {
	return sources.Refresh(func(ctx context.Context) (sources.Result, error) {
		var errs []error
		res := sources.Result{Watermark: time.Now().UTC(), Detail: map[string]any{}}
		for _, id := range cfg.AgTransportDatasets {
			u := strings.TrimRight(cfg.AgTransportURL, "/") + "/" + url.PathEscape(id) + ".json?$limit=5000"
			parsed, err := fetchParsed(ctx, cfg.Failures, "agtransport", id+".json", u, "", id)
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
