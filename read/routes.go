package read

import (
	"context"
	"log/slog"
	"time"

	"overwatch/route"
)

// Query is a store query keyed by a comparable request: what the handlers
// take, and what Cached wraps.
type Query[K comparable, V any] = func(context.Context, K) (V, error)

// Analytics is what the read side asks of the analytics store
// (ClickHouse): each area declares its part in its own file.
type Analytics interface {
	HealthStore
	VesselStore
	CongestionStore
	BerthStore
	FleetAgeStore
	EstimateStore
	ReliabilityStore
	ExportStore
	RiskStore
	EmissionsStore
	SelfCalibrationStore
	RouteStore
	ForecastStore
	AnomalyStore
	MarketStore
	FreightDatasetStore
	EarningsStore
	SARStore
	CropStore
	RiverStore
	DisruptionStore
	TerminalStore
	TradeStore
	TrackStore
	AreaStore
	SearchStore
	PredictionStore
}

// Accounts is what the read side asks of the account store (PostgreSQL).
type Accounts interface {
	Pinger
	KeyLister
	AlertQuery
	WebhookQuery
	ManualCalibrationStore
	FreightRateQuery
	PICoverageQuery
}

// Deps are what the read routes work with.
type Deps struct {
	Analytics Analytics
	Accounts  Accounts
	Latest    LatestPositions // the public lookup's replica
	Fleet     FleetLatest     // the same replica, for the fleet view; nil: no /vessels/positions
	Publisher Publisher
	Cache     *Cache // nil: nothing cached
	Now       func() time.Time
	Log       *slog.Logger
	SAR       SARCatalogue // the Sentinel-1 catalogue client; nil: the stored products only
	// Live is the live stream's hub; nil in a process that runs no ingest
	// (GET /v1/stream answers 503 there).
	Live LiveHub
	// StreamHeartbeat is how often an idle stream proves it is alive (0:
	// StreamHeartbeat).
	StreamHeartbeat time.Duration
	// FreightMinContributors is k of the contributed freight rates'
	// aggregates (0: FreightMinContributors).
	FreightMinContributors int
}

// Routes mounts every read route, area by area; each area's file lists its
// routes beside their handlers.
func Routes(r route.Router, d Deps) {
	publicRoutes(r, d.Latest, d.Publisher, d.Now)
	portRoutes(r, d.Analytics, d.Accounts, d.Log, d.Now)
	vesselRoutes(r, d.Analytics, d.Now)
	trackRoutes(r, d.Analytics, d.Now)
	streamRoutes(r, d.Live, d.StreamHeartbeat)
	registry := Cached(d.Cache, "fleet_registry", []string{"vessels"}, d.Analytics.Vessels)
	areaRoutes(r, d.Analytics, registry, d.Now)
	searchRoutes(r, d.Analytics, registry, d.Cache, d.Now)
	if d.Fleet != nil {
		fleetRoutes(r, d.Fleet, d.Analytics, d.Cache, d.Now)
	}
	congestionRoutes(r, d.Analytics, d.Cache, d.Now)
	berthRoutes(r, d.Analytics, d.Cache, d.Now)
	fleetAgeRoutes(r, d.Analytics, d.Cache, d.Now)
	calibrations := NewCalibrations(d.Analytics, d.Accounts, d.Cache)
	estimateRoutes(r, d.Analytics, calibrations, d.Cache, d.Now)
	calibrationRoutes(r, calibrations)
	reliabilityRoutes(r, d.Analytics, d.Cache, d.Now)
	exportRoutes(r, d.Analytics, d.Cache, d.Now)
	riskRoutes(r, d.Analytics, d.Cache, d.Now)
	emissionsRoutes(r, d.Analytics, d.Cache, d.Now)
	tradeRoutes(r, d.Analytics, d.Cache, d.Now)
	forecastRoutes(r, d.Analytics, d.Cache, d.Now)
	anomalyRoutes(r, d.Analytics, d.Cache, d.Now)
	earningsRoutes(r, d.Analytics, d.Cache, d.Now)
	marketRoutes(r, d.Analytics, d.Cache, d.Now)
	sarRoutes(r, d.Analytics, d.SAR, d.Cache, d.Now)
	cropRoutes(r, d.Analytics, d.Cache, d.Now)
	riverRoutes(r, d.Analytics, d.Now)
	disruptionRoutes(r, d.Analytics, d.Now)
	terminalRoutes(r, d.Analytics, d.Cache, d.Now)
	predictionRoutes(r, d.Analytics, d.Analytics, d.Cache)
	tradeFlowRoutes(r, d.Analytics, d.Accounts, d.Cache)
	freightRoutes(r, d.Analytics, d.Accounts, d.Cache, d.Now, d.FreightMinContributors)
	piRoutes(r, d.Accounts, d.Now)
	keyRoutes(r, d.Accounts)
	alertRoutes(r, d.Accounts, d.Now)
	webhookRoutes(r, d.Accounts)
}

// The tables the cached queries read (their versions invalidate answers).
const (
	tablePortCalls   = "port_calls"
	tableCongestion  = "congestion_daily"
	tableBerths      = "berth_weekly"
	tableFleetAge    = "fleet_age_weekly"
	tableEstimates   = "estimates_weekly"
	tableActuals     = "export_actuals"
	tableReliability = "destination_reliability"
	tableRiskEvents  = "risk_events"
	tableVesselRisk  = "vessel_risk"
	tableHotspots    = "risk_hotspots"
	tableBaselines   = "risk_baselines"
	tableIdentity    = "vessel_identity"
	tableEmissions   = "voyage_emissions"
)
