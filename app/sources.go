package app

import (
	"log/slog"
	"overwatch/read"
	"overwatch/sources/actuals"
	tradesource "overwatch/sources/comtrade"
	cropsource "overwatch/sources/crop"
	gdeltsource "overwatch/sources/gdelt"
	portwatchsource "overwatch/sources/portwatch"
	riversource "overwatch/sources/river"
	sanctionsource "overwatch/sources/sanctions"
	sarsource "overwatch/sources/sar"
	"strings"
	"time"

	"overwatch/clickhouse"
	"overwatch/jobs"
	"overwatch/sources"
	marketsource "overwatch/sources/market"

	"github.com/prometheus/client_golang/prometheus"
)

// The wiring of the external sources (sources/...): each source's
// configuration, turned on by its settings, to its refresh in the job
// table, its fetch failures counted on failures.

// sourceRefreshes are the external sources of the job table's refreshes, each
// with its client where the configuration turns it on.
func sourceRefreshes(cfg Config, ch *clickhouse.DB, failures *sources.Failures) jobs.Sources {
	var s jobs.Sources
	cfg.Market.Failures = failures
	cfg.River.Failures = failures
	cfg.Crop.Failures = failures
	cfg.Trade.Failures = failures
	cfg.News.Failures = failures
	s.Prices, s.Transport = marketSources(cfg.Market, ch, ch)
	s.RiverLevels = RiverSources(cfg.River, ch)
	s.CropNDVI = CropSources(cfg.Crop, ch)
	s.TradeFlows = tradeSources(cfg.Trade, ch)
	s.News, s.PortWatch = newsSources(cfg.News, ch)
	s.Sanctions = jobs.SourceRefresh{Every: cfg.SanctionsRefresh, Setting: "OVERWATCH_SANCTIONS_URL"}
	if cfg.SanctionsURL != "" {
		s.Sanctions.Refresh = sanctionsource.Refresh(ch, cfg.SanctionsURL, cfg.SanctionsList, failures)
	}
	s.GrainInspections = jobs.SourceRefresh{Every: cfg.GrainInspectionsRefresh, Setting: "OVERWATCH_GRAIN_INSPECTIONS_URL"}
	if cfg.GrainInspectionsURL != "" {
		s.GrainInspections.Refresh = actuals.GrainInspections(ch, cfg.GrainInspectionsURL, failures)
	}
	return s
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

// marketSources are the prices and transport refreshes of the job table,
// each with its source when the configuration turns it on.
func marketSources(cfg marketsource.Config, prices marketsource.PriceWriter, rates marketsource.RateWriter) (p, t jobs.SourceRefresh) {
	p = jobs.SourceRefresh{Every: cfg.PricesEvery, Setting: "OVERWATCH_FRED_URL, OVERWATCH_WORLDBANK_URL or OVERWATCH_AMS_API_KEY"}
	if cfg.FREDURL != "" || cfg.WorldBankURL != "" || (cfg.AMSURL != "" && cfg.AMSKey != "") {
		p.Refresh = marketsource.Prices(prices, cfg)
	}
	t = jobs.SourceRefresh{Every: cfg.TransportEvery, Setting: "OVERWATCH_AGTRANSPORT_URL"}
	if cfg.AgTransportURL != "" && len(cfg.AgTransportDatasets) > 0 {
		t.Refresh = marketsource.Transport(rates, cfg)
	}
	return p, t
}

// RiverSources is the river poll of the job table, with its source when
// the configuration turns it on.
func RiverSources(cfg riversource.Config, store riversource.Writer) jobs.SourceRefresh {
	r := jobs.SourceRefresh{Every: cfg.Every, Setting: "OVERWATCH_RIVER_URL"}
	if cfg.URL != "" {
		r.Refresh = riversource.Levels(store, cfg)
	}
	return r
}

// CropSources is the NDVI fetch of the job table, with its source when
// the configuration turns it on.
func CropSources(cfg cropsource.Config, store cropsource.Store) jobs.SourceRefresh {
	r := jobs.SourceRefresh{Every: cfg.NDVIEvery, Setting: "OVERWATCH_CROP_NDVI_URL"}
	if cfg.NDVIURL != "" {
		r.Refresh = cropsource.NDVI(store, cfg)
	}
	return r
}

// tradeSources is the Comtrade refresh of the job table, with its source
// when the configuration turns it on.
func tradeSources(cfg tradesource.Config, store tradesource.Writer) jobs.SourceRefresh {
	r := jobs.SourceRefresh{Every: cfg.Every, Setting: "OVERWATCH_COMTRADE_URL"}
	if len(cfg.URLs) > 0 {
		r.Refresh = tradesource.Flows(store, cfg)
	}
	return r
}

// newsConfig is where the GDELT DOC API is asked and how often. An empty
// URL turns the job off ("off" in the environment).
type newsConfig struct {
	URL         string
	Every       time.Duration
	MinInterval time.Duration // between two requests; never below gdeltsource.MinInterval
	// PortWatchURL is IMF PortWatch's Daily_Chokepoints_Data query URL,
	// fetched every PortWatchEvery; empty (the default): not fetched.
	PortWatchURL   string
	PortWatchEvery time.Duration
	// Failures counts the failed fetches of both (nil: not counted).
	Failures *sources.Failures
}

// newsStore is where the news refreshes store (clickhouse.DB).
type newsStore interface {
	gdeltsource.Writer
	portwatchsource.Writer
}

// newsSources are the news refreshes of the job table, each with its
// source when the configuration turns it on: GDELT, and IMF PortWatch
// where an operator configured it.
func newsSources(cfg newsConfig, store newsStore) (news, portwatch jobs.SourceRefresh) {
	news = jobs.SourceRefresh{Every: cfg.Every, Setting: "OVERWATCH_GDELT_URL"}
	if cfg.URL != "" {
		news.Refresh = gdeltsource.News(store, gdeltsource.Client{Base: cfg.URL, Failures: cfg.Failures}, gdeltsource.Subjects(), max(cfg.MinInterval, gdeltsource.MinInterval))
	}
	portwatch = jobs.SourceRefresh{Every: cfg.PortWatchEvery, Setting: "OVERWATCH_PORTWATCH_URL"}
	if cfg.PortWatchURL != "" {
		portwatch.Refresh = portwatchsource.Transits(store, cfg.PortWatchURL, cfg.Failures)
	}
	return news, portwatch
}

// sarConfig is the Sentinel-1 catalogue the coverage endpoint asks
// (sarsource.Config): its base URL ("" off: the stored products answer
// alone), which catalogue it is (asf or cdse), the least time between two
// of its requests, and how long an answer for a recent day stays fresh.
type sarConfig struct {
	URL         string
	Catalogue   string
	MinInterval time.Duration
	FreshFor    time.Duration
}

// newSARCatalogue returns the catalogue client, or nil when none is
// configured (the stored products answer); reg, when set, gets its fetch
// counter, failures its failed fetches.
func newSARCatalogue(store sarsource.Store, cfg sarConfig, log *slog.Logger, reg *prometheus.Registry, failures *sources.Failures) read.SARCatalogue {
	c := sarsource.NewCatalogue(store, sarsource.Config{URL: cfg.URL, Catalogue: cfg.Catalogue, MinInterval: cfg.MinInterval,
		FreshFor: cfg.FreshFor, Failures: failures}, log)
	if c == nil {
		return nil
	}
	if reg != nil {
		reg.MustRegister(sarFetchCollector{c})
	}
	return c
}

// sarFetchCollector shows the catalogue's fetches at /metrics.
type sarFetchCollector struct{ c *sarsource.Catalogue }

var sarFetchesDesc = prometheus.NewDesc("overwatch_sar_catalogue_fetches_total",
	"Sentinel-1 catalogue fetches by result (ok; failed; rate_limited: answered from the cache while a Retry-After or a recent failure holds).",
	[]string{"result"}, nil)

func (s sarFetchCollector) Describe(ch chan<- *prometheus.Desc) { ch <- sarFetchesDesc }

func (s sarFetchCollector) Collect(ch chan<- prometheus.Metric) {
	for result, n := range s.c.Fetches() {
		ch <- prometheus.MustNewConstMetric(sarFetchesDesc, prometheus.CounterValue, float64(n), result)
	}
}

// registerSourceFailures returns the count of the sources' failed
// fetches, shown at /metrics as overwatch_source_fetch_failures_total
// by source.
func registerSourceFailures(reg *prometheus.Registry) *sources.Failures {
	f := &sources.Failures{}
	reg.MustRegister(sourceFailureCollector{f})
	return f
}

type sourceFailureCollector struct{ f *sources.Failures }

var sourceFailuresDesc = prometheus.NewDesc("overwatch_source_fetch_failures_total",
	"Failed fetches of an external source in this process (a status other than 200, no answer, a body refused).", []string{"source"}, nil)

func (s sourceFailureCollector) Describe(ch chan<- *prometheus.Desc) { ch <- sourceFailuresDesc }

func (s sourceFailureCollector) Collect(ch chan<- prometheus.Metric) {
	for source, n := range s.f.Counts() {
		ch <- prometheus.MustNewConstMetric(sourceFailuresDesc, prometheus.CounterValue, float64(n), source)
	}
}
