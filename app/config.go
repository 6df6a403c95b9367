package app

import (
	"fmt"
	"log/slog"
	"math"
	"net/netip"
	"net/url"
	tradesource "overwatch/sources/comtrade"
	cropsource "overwatch/sources/crop"
	riversource "overwatch/sources/river"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"overwatch"
	"overwatch/clickhouse"
	"overwatch/read"
	marketsource "overwatch/sources/market"
	"overwatch/write/stripe"
)

// Config is every setting of the service, read from the environment. Each
// has a default that works with the local services of `make run`.
type Config struct {
	Addr               string
	ClickHouseURL      string
	DatabaseURL        string
	PublicName         string
	PublicURL          string
	TrustedProxies     []netip.Prefix
	RateStore          string
	PublicPerMinute    int
	PublicPerDay       int
	KeyedPerMinute     int
	FailedKeysPerMin   int           // invalid keys a client IP may present per minute
	UnknownKeyTTL      time.Duration // how long a key the store does not know is remembered
	EventsPerMinute    int           // the payment provider's verified events per minute
	ReadTimeout        time.Duration // a request not received within it is a 408
	MetricsToken       string        // set: /metrics also on the API address, for this bearer token
	LatestSyncInterval time.Duration
	LatestMaxStale     time.Duration
	Feeds              string
	SpoolDir           string
	AttributionWindow  time.Duration
	Stream             StreamConfig
	MetricsAddr        string
	Profiles           bool // OVERWATCH_PPROF: /debug/pprof/ on the metrics address
	Simulate           string
	DataDir            string
	DemoDays           int
	DemoVessels        int
	LogLevel           slog.Level
	SanctionsURL       string        // empty: no scheduled refresh
	SanctionsRefresh   time.Duration // how often the list is re-imported
	SanctionsList      string        // its list_source
	// GrainInspectionsURL is the USDA WA_GR101 report's URL (empty: no
	// scheduled import), fetched every GrainInspectionsRefresh.
	GrainInspectionsURL     string
	GrainInspectionsRefresh time.Duration
	Market                  marketsource.Config
	River                   riversource.Config
	Crop                    cropsource.Config
	Trade                   tradesource.Config
	SAR                     sarConfig
	News                    newsConfig
	Stripe                  stripe.Config
	OutboundAllow           []netip.Prefix // tests only
	WebhookLease            time.Duration
	// ExportDir is where the bulk exports' files are written (empty:
	// DataDir/exports), ExportTTL how long a completed one is kept,
	// ExportWorkers how many are written at once.
	ExportDir     string
	ExportTTL     time.Duration
	ExportWorkers int
	// FreightMinContributors is k of the contributed freight rates'
	// aggregates.
	FreightMinContributors int
	// ETAAlertHours is the ETA move that raises eta_changed.
	ETAAlertHours float64
	// Now is the service's clock (OVERWATCH_CLOCK_START; see clockFrom).
	Now func() time.Time
}

// settings documents every environment variable with its default; the
// README's configuration table is this list.
var settings = []struct{ Name, Default, Doc string }{
	{"OVERWATCH_ADDR", ":8080", "listen address of the HTTP API"},
	{"CLICKHOUSE_URL", "clickhouse://127.0.0.1:9000/overwatch", "ClickHouse (native protocol) URL and database"},
	{"OVERWATCH_CLICKHOUSE_CLUSTER", "", "cluster mode: the ClickHouse cluster's name (remote_servers) the tables are created on, sharded or replicated (CLICKHOUSE_URL then lists its nodes, comma-separated); empty: one server"},
	{"DATABASE_URL", "postgres://postgres@127.0.0.1:5432/overwatch?sslmode=disable", "PostgreSQL URL"},
	{"OVERWATCH_PUBLIC_NAME", "Overwatch", "service name in attributions"},
	{"OVERWATCH_PUBLIC_URL", "http://localhost:8080", "public site address in attributions"},
	{"OVERWATCH_TRUSTED_PROXIES", "", "comma-separated CIDRs whose X-Forwarded-For is trusted"},
	{"OVERWATCH_RATE_LIMIT_STORE", "memory", "rate-limit counters: memory (one instance) or postgres (shared by instances)"},
	{"OVERWATCH_PUBLIC_LIMIT_PER_MINUTE", "60", "public surface: requests per minute per client IP"},
	{"OVERWATCH_PUBLIC_LIMIT_PER_DAY", "1000", "public surface: requests per UTC day per client IP"},
	{"OVERWATCH_KEYED_LIMIT_PER_MINUTE", "60", "keyed surface: requests per minute per client IP, counted before the key is looked up"},
	{"OVERWATCH_FAILED_KEY_LIMIT_PER_MINUTE", "20", "keyed surface: invalid API keys a client IP may present per minute; beyond, 429 with Retry-After until the minute ends, without key lookups"},
	{"OVERWATCH_UNKNOWN_KEY_CACHE", "1m", "how long a key the account store does not know is remembered as unknown (no lookup); at most 10,000 keys"},
	{"OVERWATCH_BILLING_WEBHOOK_LIMIT_PER_MINUTE", "300", "Stripe events per minute (all senders together) that POST /v1/billing/webhook takes once their signature verifies; beyond, 429 with Retry-After"},
	{"OVERWATCH_READ_TIMEOUT", "15s", "time a client has to send a whole request (line, headers and body); slower ones get 408"},
	{"OVERWATCH_LATEST_SYNC_INTERVAL", "1s", "how often the latest-position replica follows ClickHouse"},
	{"OVERWATCH_LATEST_MAX_STALENESS", "60s", "public lookups fail with 500 when ClickHouse has not answered for this long"},
	{"OVERWATCH_FEEDS", "", "AIS feeds, whitespace-separated <provider>=<url> (tcp://, udp://, wss:// aisstream, https:// AISHub)"},
	{"OVERWATCH_SPOOL_DIR", ".data/spool", "where ingest batches wait while ClickHouse is unreachable"},
	{"OVERWATCH_ATTRIBUTION_WINDOW", "10m", "how long a class A position waits for the static report that names its IMO"},
	{"OVERWATCH_STREAM_BUFFER", "4096", "GET /v1/stream: events waiting for one subscriber; a subscriber that lets its buffer fill is dropped as a slow consumer"},
	{"OVERWATCH_STREAM_RESUME_EVENTS", "100000", "GET /v1/stream: the recent events kept for resumption by last_event_id (at most)"},
	{"OVERWATCH_STREAM_RESUME_WINDOW", "5m", "GET /v1/stream: how long an event is kept for resumption (at most)"},
	{"OVERWATCH_STREAM_HEARTBEAT", "15s", "GET /v1/stream: how often an idle stream proves it is alive (an SSE comment line, a WebSocket ping); the server learns at a heartbeat that a client has gone"},
	{"OVERWATCH_STREAM_MAX_AGE", "1h", "GET /v1/stream: reports whose report time is older than this when ingested (a backfill) are not streamed"},
	{"OVERWATCH_METRICS_ADDR", "127.0.0.1:9464", "listen address of /metrics for run, serve and ingest (its own address, loopback by default; give each process on a host its own)"},
	{"OVERWATCH_PPROF", "false", "true: Go's runtime profiles (goroutines, heap, CPU, pprof's formats) at /debug/pprof/ on the metrics address of run and serve, for finding a leak or a hot spot in a running service; false: none"},
	{"OVERWATCH_METRICS_TOKEN", "", "when set, /metrics is also served on the API address, to `Authorization: Bearer <token>` only (use a long random token); empty: not on the API address"},
	{"OVERWATCH_SIMULATE", "auto", "the demo fleet in `overwatch run`: auto (when OVERWATCH_FEEDS is empty), true or false"},
	{"OVERWATCH_DATA_DIR", ".data", "where the demo keeps its simulation state and ground truth"},
	{"OVERWATCH_DEMO_DAYS", "500", "days of history the demo backfills on an empty store (with seasons and trade truths; only the last 3 days at the full cadence): 500 gives the 68 complete weeks every forecast method needs"},
	{"OVERWATCH_DEMO_VESSELS", "400", "the demo fleet's size"},
	{"OVERWATCH_LOG_LEVEL", "info", "debug, info, warn or error"},
	{"OVERWATCH_CLOCK_START", "", "the instant (RFC 3339) the service's clock starts from, then running at real speed: the windows of the reads, the plans' history floors, the rate-limit days, the alerts, the receive time of ingested reports and the demo's history follow it (timeouts and the payment provider's signatures keep the real time); for tests and demos over past data; empty: the real time"},
	{"OVERWATCH_SANCTIONS_URL", "", "base URL of the OFAC legacy SDN files (SDN.CSV, ALT.CSV, SDN_COMMENTS.CSV) the scheduler re-imports; empty: no refresh"},
	{"OVERWATCH_SANCTIONS_REFRESH", "24h", "how often the sanctions list is re-imported from OVERWATCH_SANCTIONS_URL"},
	{"OVERWATCH_SANCTIONS_LIST", "OFAC SDN", "the list_source the refreshed list is stored and matched under"},
	{"OVERWATCH_GRAIN_INSPECTIONS_URL", "", "URL of the USDA AMS weekly report WA_GR101 \"Grain Inspections for Export\" (e.g. https://www.ams.usda.gov/mnreports/wa_gr101.txt) the scheduler imports into the actuals; empty: no scheduled import"},
	{"OVERWATCH_GRAIN_INSPECTIONS_REFRESH", "6h", "how often the report is fetched from OVERWATCH_GRAIN_INSPECTIONS_URL (a failed fetch keeps the figures last imported)"},
	{"OVERWATCH_FRED_URL", "https://fred.stlouisfed.org/graph/fredgraph.csv", "FRED's CSV download; each series of OVERWATCH_FRED_SERIES is fetched as <url>?id=<series>; off: no refresh"},
	{"OVERWATCH_FRED_SERIES", "PWHEAMTUSDM,PMAIZMTUSDM,PSOYBUSDM,POILBREUSDM,DCOILBRENTEU", "the FRED series the prices refresh fetches (comma-separated)"},
	{"OVERWATCH_WORLDBANK_URL", "https://thedocs.worldbank.org/en/doc/5d903e848db1d1b83e0ec8f744e55570-0350012021/related/CMO-Historical-Data-Monthly.xlsx", "the World Bank Pink Sheet workbook (monthly prices); off: no refresh"},
	{"OVERWATCH_AMS_URL", "https://marsapi.ams.usda.gov/services/v1.2/reports/3147", "USDA AMS Market News report 3147 (Gulf export bids), fetched only when OVERWATCH_AMS_API_KEY is set"},
	{"OVERWATCH_AMS_API_KEY", "", "the MARS API key (HTTP basic user name); empty: no AMS refresh; never logged"},
	{"OVERWATCH_AGTRANSPORT_URL", "https://agtransport.usda.gov/resource", "USDA AgTransport (Socrata); each dataset of OVERWATCH_AGTRANSPORT_DATASETS is fetched as <url>/<id>.json; off: no refresh"},
	{"OVERWATCH_AGTRANSPORT_DATASETS", "deqi-uken,7spn-fbua,ehs5-yac3,2n8s-739j", "the AgTransport datasets the transport refresh fetches (comma-separated ids)"},
	{"OVERWATCH_PRICES_REFRESH", "24h", "how often the price sources (FRED, World Bank, AMS) are fetched; a failed fetch keeps the data last fetched"},
	{"OVERWATCH_TRANSPORT_REFRESH", "24h", "how often the AgTransport datasets are fetched; a failed fetch keeps the data last fetched"},
	{"OVERWATCH_RIVER_URL", "https://waterservices.usgs.gov/nwis/iv/?format=json&parameterCd=00065,00060&siteStatus=all&period=P2D", "USGS instantaneous values (NWIS IV, WaterML JSON) the river job polls for the gauges of /v1/river-levels (sites=... is added), or a Water Data OGC API collection such as https://api.waterdata.usgs.gov/ogcapi/v0/collections/latest-continuous/items (fetched once per gauge); off: no poll"},
	{"OVERWATCH_CROP_NDVI_URL", "", "an AppEEARS point-sample CSV of the MODIS vegetation index (MOD13Q1) over the crop regions, fetched by the crop_ndvi_refresh job; empty or off (the default): no fetch, and /v1/satellite/health gives the official USDA view"},
	{"OVERWATCH_CROP_NDVI_REGIONS", "", "maps the AppEEARS request's Category labels to crop regions: category=region-slug,...; a category equal to a region slug maps to itself"},
	{"OVERWATCH_CROP_NDVI_REFRESH", "24h", "how often the NDVI series is fetched; a failed fetch keeps the series last stored"},
	{"OVERWATCH_COMTRADE_URL", "", "UN Comtrade API query URLs (white-space-separated, e.g. https://comtradeapi.un.org/data/v1/get/C/A/HS?reporterCode=76&partnerCode=156&cmdCode=1201&flowCode=X&period=2024) the trade_flows_refresh job fetches into /v1/trade-flows; empty or off (the default): no refresh, the bundled samples and imports answer"},
	{"OVERWATCH_COMTRADE_API_KEY", "", "the Comtrade subscription key, sent as the Ocp-Apim-Subscription-Key header; never logged"},
	{"OVERWATCH_COMTRADE_REFRESH", "24h", "how often the Comtrade URLs are fetched; a failed fetch keeps the flows last stored"},
	{"OVERWATCH_RIVER_REFRESH", "15m", "how often the river gauges are polled; a failed poll keeps the readings last fetched"},
	{"OVERWATCH_SAR_URL", "https://api.daac.asf.alaska.edu/services/search/param", "the Sentinel-1 catalogue /v1/sar-coverage asks, once per area and day (the ASF search API; or the Copernicus Data Space OData products URL https://catalogue.dataspace.copernicus.eu/odata/v1/Products with OVERWATCH_SAR_CATALOGUE=cdse); off: the stored products (the bundled samples) answer alone"},
	{"OVERWATCH_SAR_CATALOGUE", "asf", "which catalogue OVERWATCH_SAR_URL is: asf or cdse"},
	{"OVERWATCH_SAR_MIN_INTERVAL", "1s", "the least time between two catalogue requests (a 429's Retry-After puts them off further; the cache answers meanwhile)"},
	{"OVERWATCH_SAR_FRESH", "1h", "how long a catalogue answer for an area and a recent day stays fresh (a day whose window ended two days before the fetch is kept for good); a failed fetch keeps the cache"},
	{"OVERWATCH_GDELT_URL", "https://api.gdeltproject.org/api/v2/doc/doc", "the GDELT DOC 2.0 API the news_refresh job asks (ArtList and ToneChart, JSON) for disruption news of each chokepoint and port and their tone; off: no fetch (without network the job fails, is counted, and /v1/disruptions shows the AIS signals alone)"},
	{"OVERWATCH_GDELT_REFRESH", "1h", "how often the news queries are asked; a failed or throttled run keeps the signals stored and resumes with the query not answered"},
	{"OVERWATCH_GDELT_MIN_INTERVAL", "5s", "the least time between two GDELT requests (GDELT asks for one every 5 seconds: a smaller value is raised to 5s)"},
	{"OVERWATCH_PORTWATCH_URL", "", "IMF PortWatch's Daily_Chokepoints_Data query URL (https://services9.arcgis.com/weJ1QsnbMYJlCHdG/arcgis/rest/services/Daily_Chokepoints_Data/FeatureServer/0/query), fetched by the portwatch_refresh job; empty or off (the default): not fetched, as IMF's terms do not allow redistributing its data: set it only where your use is allowed"},
	{"OVERWATCH_PORTWATCH_REFRESH", "24h", "how often IMF PortWatch is fetched (it updates weekly); a failed fetch keeps the counts last stored"},
	{"OVERWATCH_OUTBOUND_ALLOW", "", "TESTS ONLY: comma-separated CIDRs that webhook deliveries and the chat test may reach although private or loopback (and over http); never set in production"},
	{"OVERWATCH_ETA_ALERT_HOURS", "6", "the move of a watched vessel's predicted ETA, in hours, that raises an eta_changed alert (and its webhook); a change of its predicted next port always does"},
	{"OVERWATCH_FREIGHT_MIN_CONTRIBUTORS", "5", "GET /v1/freight-rates publishes the aggregate of a route and week of submission only when at least this many accounts contributed, the reader's included (at least 4: a mean of k accounts, published once, leaves any k-2 of them only the sum of two others)"},
	{"OVERWATCH_EXPORT_DIR", "", "where the bulk exports' files are written (created if missing); empty: `exports` under OVERWATCH_DATA_DIR"},
	{"OVERWATCH_EXPORT_TTL", "168h", "how long a completed bulk export's file is kept (7 days); after, its status is expired, its download a 410, and the export_expiry job deletes the file"},
	{"OVERWATCH_EXPORT_WORKERS", "2", "bulk exports written at once by this instance (the others wait, queued)"},
	{"OVERWATCH_WEBHOOK_LEASE", "1m", "how long a delivery worker holds a claimed webhook delivery: a crashed worker's deliveries are sent again after it; keep it above the 15 s attempt timeout"},
	{"STRIPE_SECRET_KEY", "", "Stripe secret API key for Checkout Sessions; empty: /v1/billing/checkout answers 503"},
	{"STRIPE_WEBHOOK_SECRET", "", "signing secret of the Stripe webhook endpoint /v1/billing/webhook; empty: it answers 503"},
	{"STRIPE_API_URL", "https://api.stripe.com", "Stripe's API base URL (stripe-mock in tests)"},
	{"STRIPE_PRICES", "", "the Stripe price of each paid plan: starter=price_...,pro=price_...,supply_chain_risk=price_..."},
}

// LoadConfig reads the configuration from getenv (the process's
// environment), each setting's default when unset, and refuses a value
// that does not parse, naming its variable.
func LoadConfig(getenv func(string) string) (Config, error) {
	get := func(name string) string {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			return v
		}
		for _, s := range settings {
			if s.Name == name {
				return s.Default
			}
		}
		return ""
	}
	var errs []string
	positive := func(name string) int {
		n, err := strconv.Atoi(get(name))
		if err != nil || n < 1 {
			errs = append(errs, fmt.Sprintf("%s must be a positive integer", name))
		}
		return n
	}
	positiveFloat := func(name string) float64 {
		v, err := strconv.ParseFloat(get(name), 64)
		if err != nil || !(v > 0) || math.IsInf(v, 0) {
			errs = append(errs, fmt.Sprintf("%s must be a positive number of hours", name))
		}
		return v
	}
	duration := func(name string) time.Duration {
		d, err := time.ParseDuration(get(name))
		if err != nil || d <= 0 {
			errs = append(errs, fmt.Sprintf("%s must be a positive duration like 1s", name))
		}
		return d
	}
	cfg := Config{
		Addr:               get("OVERWATCH_ADDR"),
		ClickHouseURL:      clickhouse.WithCluster(get("CLICKHOUSE_URL"), get("OVERWATCH_CLICKHOUSE_CLUSTER")),
		DatabaseURL:        get("DATABASE_URL"),
		PublicName:         get("OVERWATCH_PUBLIC_NAME"),
		PublicURL:          get("OVERWATCH_PUBLIC_URL"),
		RateStore:          get("OVERWATCH_RATE_LIMIT_STORE"),
		PublicPerMinute:    positive("OVERWATCH_PUBLIC_LIMIT_PER_MINUTE"),
		PublicPerDay:       positive("OVERWATCH_PUBLIC_LIMIT_PER_DAY"),
		KeyedPerMinute:     positive("OVERWATCH_KEYED_LIMIT_PER_MINUTE"),
		FailedKeysPerMin:   positive("OVERWATCH_FAILED_KEY_LIMIT_PER_MINUTE"),
		UnknownKeyTTL:      duration("OVERWATCH_UNKNOWN_KEY_CACHE"),
		EventsPerMinute:    positive("OVERWATCH_BILLING_WEBHOOK_LIMIT_PER_MINUTE"),
		ReadTimeout:        duration("OVERWATCH_READ_TIMEOUT"),
		MetricsToken:       strings.TrimSpace(getenv("OVERWATCH_METRICS_TOKEN")),
		LatestSyncInterval: duration("OVERWATCH_LATEST_SYNC_INTERVAL"),
		LatestMaxStale:     duration("OVERWATCH_LATEST_MAX_STALENESS"),
		Feeds:              strings.TrimSpace(getenv("OVERWATCH_FEEDS")),
		SpoolDir:           get("OVERWATCH_SPOOL_DIR"),
		AttributionWindow:  duration("OVERWATCH_ATTRIBUTION_WINDOW"),
		Stream: StreamConfig{
			Buffer: positive("OVERWATCH_STREAM_BUFFER"), ResumeEvents: positive("OVERWATCH_STREAM_RESUME_EVENTS"),
			ResumeWindow: duration("OVERWATCH_STREAM_RESUME_WINDOW"), MaxAge: duration("OVERWATCH_STREAM_MAX_AGE"),
			Heartbeat: duration("OVERWATCH_STREAM_HEARTBEAT"),
		},
		MetricsAddr:             get("OVERWATCH_METRICS_ADDR"),
		Profiles:                get("OVERWATCH_PPROF") == "true",
		Simulate:                get("OVERWATCH_SIMULATE"),
		DataDir:                 get("OVERWATCH_DATA_DIR"),
		DemoDays:                positive("OVERWATCH_DEMO_DAYS"),
		DemoVessels:             positive("OVERWATCH_DEMO_VESSELS"),
		SanctionsURL:            strings.TrimSpace(getenv("OVERWATCH_SANCTIONS_URL")),
		SanctionsRefresh:        duration("OVERWATCH_SANCTIONS_REFRESH"),
		SanctionsList:           get("OVERWATCH_SANCTIONS_LIST"),
		GrainInspectionsURL:     strings.TrimSpace(getenv("OVERWATCH_GRAIN_INSPECTIONS_URL")),
		GrainInspectionsRefresh: duration("OVERWATCH_GRAIN_INSPECTIONS_REFRESH"),
		WebhookLease:            duration("OVERWATCH_WEBHOOK_LEASE"),
		ExportDir:               get("OVERWATCH_EXPORT_DIR"),
		ExportTTL:               duration("OVERWATCH_EXPORT_TTL"),
		ExportWorkers:           positive("OVERWATCH_EXPORT_WORKERS"),
		FreightMinContributors:  positive("OVERWATCH_FREIGHT_MIN_CONTRIBUTORS"),
		ETAAlertHours:           positiveFloat("OVERWATCH_ETA_ALERT_HOURS"),
		Market: marketsource.Config{FREDURL: sourceURL(get("OVERWATCH_FRED_URL")), FREDSeries: list(get("OVERWATCH_FRED_SERIES")),
			WorldBankURL: sourceURL(get("OVERWATCH_WORLDBANK_URL")), AMSURL: sourceURL(get("OVERWATCH_AMS_URL")),
			AMSKey: strings.TrimSpace(getenv("OVERWATCH_AMS_API_KEY")), AgTransportURL: sourceURL(get("OVERWATCH_AGTRANSPORT_URL")),
			AgTransportDatasets: list(get("OVERWATCH_AGTRANSPORT_DATASETS")),
			PricesEvery:         duration("OVERWATCH_PRICES_REFRESH"), TransportEvery: duration("OVERWATCH_TRANSPORT_REFRESH")},
		River: riversource.Config{URL: sourceURL(get("OVERWATCH_RIVER_URL")), Every: duration("OVERWATCH_RIVER_REFRESH")},
		Crop:  cropsource.Config{NDVIURL: sourceURL(get("OVERWATCH_CROP_NDVI_URL")), NDVIEvery: duration("OVERWATCH_CROP_NDVI_REFRESH")},
		Trade: tradesource.Config{URLs: tradesource.ParseURLs(get("OVERWATCH_COMTRADE_URL")), Key: strings.TrimSpace(getenv("OVERWATCH_COMTRADE_API_KEY")), Every: duration("OVERWATCH_COMTRADE_REFRESH")},
		News:  newsConfig{URL: sourceURL(get("OVERWATCH_GDELT_URL")), Every: duration("OVERWATCH_GDELT_REFRESH"), MinInterval: duration("OVERWATCH_GDELT_MIN_INTERVAL"), PortWatchURL: sourceURL(get("OVERWATCH_PORTWATCH_URL")), PortWatchEvery: duration("OVERWATCH_PORTWATCH_REFRESH")},
		SAR:   sarConfig{URL: sourceURL(get("OVERWATCH_SAR_URL")), Catalogue: get("OVERWATCH_SAR_CATALOGUE"), MinInterval: duration("OVERWATCH_SAR_MIN_INTERVAL"), FreshFor: duration("OVERWATCH_SAR_FRESH")},
		Stripe: stripe.Config{SecretKey: strings.TrimSpace(getenv("STRIPE_SECRET_KEY")),
			WebhookSecret: strings.TrimSpace(getenv("STRIPE_WEBHOOK_SECRET")), API: get("STRIPE_API_URL"),
			Prices: map[overwatch.Plan]string{}},
	}
	if start, err := parseClockStart(getenv("OVERWATCH_CLOCK_START")); err != nil {
		errs = append(errs, err.Error())
	} else {
		cfg.Now = clockFrom(start)
	}
	if cfg.ExportDir == "" {
		cfg.ExportDir = filepath.Join(cfg.DataDir, "exports")
	}
	if v := get("OVERWATCH_PPROF"); v != "true" && v != "false" {
		errs = append(errs, "OVERWATCH_PPROF must be true or false")
	}
	if cfg.Simulate != "auto" && cfg.Simulate != "true" && cfg.Simulate != "false" {
		errs = append(errs, "OVERWATCH_SIMULATE must be auto, true or false")
	}
	if u, err := url.Parse(cfg.PublicURL); err != nil || !u.IsAbs() || u.Host == "" {
		errs = append(errs, "OVERWATCH_PUBLIC_URL must be an absolute URL like https://overwatch.example")
	}
	if cfg.RateStore != "memory" && cfg.RateStore != "postgres" {
		errs = append(errs, "OVERWATCH_RATE_LIMIT_STORE must be memory or postgres")
	}
	if allow, err := parsePrefixes(getenv("OVERWATCH_OUTBOUND_ALLOW")); err != nil {
		errs = append(errs, "OVERWATCH_OUTBOUND_ALLOW must be comma-separated CIDR prefixes")
	} else {
		cfg.OutboundAllow = allow
	}
	for _, part := range strings.Split(get("STRIPE_PRICES"), ",") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		name, price, _ := strings.Cut(part, "=")
		plan, ok := overwatch.ParsePlan(strings.TrimSpace(name))
		if !ok || plan == overwatch.PlanFree || strings.TrimSpace(price) == "" {
			errs = append(errs, fmt.Sprintf("STRIPE_PRICES: %q is not <paid plan>=<price id>", part))
			continue
		}
		cfg.Stripe.Prices[plan] = strings.TrimSpace(price)
	}
	for _, part := range strings.Split(get("OVERWATCH_TRUSTED_PROXIES"), ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		p, err := netip.ParsePrefix(part)
		if err != nil {
			a, aerr := netip.ParseAddr(part)
			if aerr != nil {
				errs = append(errs, fmt.Sprintf("OVERWATCH_TRUSTED_PROXIES: %q is not an address or CIDR", part))
				continue
			}
			p = netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen())
		}
		cfg.TrustedProxies = append(cfg.TrustedProxies, p.Masked())
	}
	if cfg.FreightMinContributors < read.FreightMinContributorsFloor {
		errs = append(errs, fmt.Sprintf("OVERWATCH_FREIGHT_MIN_CONTRIBUTORS must be at least %d", read.FreightMinContributorsFloor))
	}
	if cfg.SAR.Catalogue != "asf" && cfg.SAR.Catalogue != "cdse" {
		errs = append(errs, "OVERWATCH_SAR_CATALOGUE must be asf or cdse")
	}
	if m, err := cropsource.ParseRegions(get("OVERWATCH_CROP_NDVI_REGIONS")); err != nil {
		errs = append(errs, err.Error())
	} else {
		cfg.Crop.NDVIRegions = m
	}
	if err := cfg.LogLevel.UnmarshalText([]byte(get("OVERWATCH_LOG_LEVEL"))); err != nil {
		errs = append(errs, "OVERWATCH_LOG_LEVEL must be debug, info, warn or error")
	}
	if len(errs) > 0 {
		return cfg, fmt.Errorf("configuration: %s", strings.Join(errs, "; "))
	}
	return cfg, nil
}
