package market

import (
	"context"
	"embed"
	"log/slog"
	"time"
)

// marketSamples are real files of each market source (copied byte for byte
// from ../shared/data/market and ../shared/data/freight; origins, licences
// and checksums in samples/README.md), which `overwatch run` loads when
// the market tables are empty, so that the market endpoints answer out of
// the box with published data, dated as published, until a refresh
// replaces it.
//
//go:embed samples/*.csv samples/*.json samples/*.xlsx
var marketSamples embed.FS

// samplePublished dates the samples whose files do not state their
// publication: the AgTransport responses as the publisher served them on
// the day they were captured. FRED's downloads carry no date (null).
var samplePublished = map[string]time.Time{
	"agtransport_2n8s-739j_ukraine_black_sea_ocean_grain_rates_quarterly.json": time.Date(2026, 8, 20, 0, 0, 0, 0, time.UTC),
	"agtransport_7spn-fbua_barge_rates_usd_per_ton_2026w32-w33.json":           time.Date(2026, 8, 20, 0, 0, 0, 0, time.UTC),
	"agtransport_deqi-uken_barge_rates_pct_tariff_2026w28-w33.json":            time.Date(2026, 8, 20, 0, 0, 0, 0, time.UTC),
	"agtransport_ehs5-yac3_ocean_grain_rates_gulf_pnw_japan_monthly.json":      time.Date(2026, 8, 20, 0, 0, 0, 0, time.UTC),
}

// SampleStore is the market tables the samples fill when they are empty
// (clickhouse.DB).
type SampleStore interface {
	PriceWriter
	RateWriter
	MarketRows(ctx context.Context) (prices, rates uint64, err error)
}

// LoadSamples stores the bundled samples in the market tables that are
// empty; a sample that fails to load is logged and skipped.
func LoadSamples(ctx context.Context, ch SampleStore, log *slog.Logger) {
	prices, rates, err := ch.MarketRows(ctx)
	if err != nil {
		log.Warn("market samples: cannot count the market tables", "err", err)
		return
	}
	entries, err := marketSamples.ReadDir("samples")
	if err != nil {
		log.Warn("market samples", "err", err)
		return
	}
	var nPrices, nRates int
	for _, e := range entries {
		f, err := marketSamples.Open("samples/" + e.Name())
		if err != nil {
			continue
		}
		res, err := Parse(e.Name(), f, "", samplePublished[e.Name()])
		f.Close()
		if err != nil {
			log.Warn("market samples: not loaded", "file", e.Name(), "err", err)
			continue
		}
		switch {
		case len(res.Prices) > 0 && prices == 0:
			err = ch.InsertPrices(ctx, res.Prices)
			nPrices += len(res.Prices)
		case len(res.Rates) > 0 && rates == 0:
			err = ch.InsertRates(ctx, res.Rates)
			nRates += len(res.Rates)
		}
		if err != nil {
			log.Warn("market samples: not stored", "file", e.Name(), "err", err)
		}
	}
	if nPrices+nRates > 0 {
		log.Info("market samples loaded (published data, dated as published; a refresh replaces them)", "prices", nPrices, "rates", nRates)
	}
}
