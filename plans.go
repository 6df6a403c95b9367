package overwatch

import "time"

// Plan names a subscription plan; every account has exactly one.
type Plan string

// The plans an account may be on.
const (
	PlanFree            Plan = "free"
	PlanStarter         Plan = "starter"
	PlanPro             Plan = "pro"
	PlanSupplyChainRisk Plan = "supply_chain_risk"
)

// Products: this service and the companion product bundled by the Supply
// Chain Risk plan.
const (
	ProductOverwatch = "overwatch"
	ProductLocus     = "locus"
)

// PlanInfo is what a plan costs and allows. Zero HistoryDays means unlimited.
type PlanInfo struct {
	ID               Plan   `json:"id"`
	Name             string `json:"name"`
	PriceUSDMonth    int    `json:"price_usd_month"`
	RequestsPerDay   int    `json:"requests_per_day"`
	ResultsPerCall   int    `json:"results_per_call"`
	HistoryDays      int    `json:"history_days"`
	ExactCoordinates bool   `json:"exact_coordinates"`
	CSVExport        bool   `json:"csv_export"`
	CSVMaxRows       int    `json:"csv_max_rows"`
	Webhooks         bool   `json:"webhooks"`
	// ExportsPerDay is how many bulk exports (POST /v1/exports) an
	// account may start per UTC day (0: the plan has none), and
	// ExportMaxRows how many rows one may hold.
	ExportsPerDay int `json:"exports_per_day"`
	ExportMaxRows int `json:"export_max_rows"`
	// StreamConnections is how many GET /v1/stream connections an account
	// may hold at once (0: the live stream is not included).
	StreamConnections int      `json:"stream_connections"`
	Products          []string `json:"products"`
	Features          []string `json:"features"`
}

// The Supply Chain Risk plan is an entitlement bundle, not a volume tier; it
// carries the Pro volumes so that no bundle customer has less than Pro.
var plans = []PlanInfo{
	{
		ID: PlanFree, Name: "Free", PriceUSDMonth: 0,
		RequestsPerDay: 50, ResultsPerCall: 20, HistoryDays: 7,
		Products: []string{ProductOverwatch},
		Features: []string{"every endpoint", "7 days of history", "port-level data without exact coordinates"},
	},
	{
		ID: PlanStarter, Name: "Starter", PriceUSDMonth: 49,
		RequestsPerDay: 1000, ResultsPerCall: 100, HistoryDays: 90,
		ExactCoordinates: true, CSVExport: true, CSVMaxRows: 10000, StreamConnections: 2,
		Products: []string{ProductOverwatch},
		Features: []string{"every endpoint", "90 days of history", "full coordinates", "CSV export"},
	},
	{
		ID: PlanPro, Name: "Pro", PriceUSDMonth: 199,
		RequestsPerDay: 10000, ResultsPerCall: 500, HistoryDays: 0,
		ExactCoordinates: true, CSVExport: true, CSVMaxRows: 10000, Webhooks: true, StreamConnections: 10,
		ExportsPerDay: 20, ExportMaxRows: 10_000_000,
		Products: []string{ProductOverwatch},
		Features: []string{"every endpoint", "unlimited history", "full coordinates", "CSV export up to 10,000 rows", "real-time webhooks", "bulk exports (20 a day, 10 million rows each)", "priority support"},
	},
	{
		ID: PlanSupplyChainRisk, Name: "Supply Chain Risk", PriceUSDMonth: 499,
		RequestsPerDay: 10000, ResultsPerCall: 500, HistoryDays: 0,
		ExactCoordinates: true, CSVExport: true, CSVMaxRows: 10000, Webhooks: true, StreamConnections: 10,
		ExportsPerDay: 20, ExportMaxRows: 10_000_000,
		Products: []string{ProductOverwatch, ProductLocus},
		Features: []string{"unified entitlement to Overwatch and Locus", "one account, one subscription and invoice", "Pro volumes and features", "priority implementation support"},
	},
}

// Plans returns the plans in price order. The slice is a copy.
func Plans() []PlanInfo {
	out := make([]PlanInfo, len(plans))
	copy(out, plans)
	return out
}

// ParsePlan returns the plan named s.
func ParsePlan(s string) (Plan, bool) {
	for _, p := range plans {
		if string(p.ID) == s {
			return p.ID, true
		}
	}
	return "", false
}

// Info returns what the plan allows; an unknown plan gets Free's limits.
func (p Plan) Info() PlanInfo {
	for _, info := range plans {
		if info.ID == p {
			return info
		}
	}
	return plans[0]
}

// HistoryFloor returns the oldest time a caller of this plan may see, or
// the zero time when history is unlimited.
func (p Plan) HistoryFloor(now time.Time) time.Time {
	days := p.Info().HistoryDays
	if days == 0 {
		return time.Time{}
	}
	return now.Add(-time.Duration(days) * 24 * time.Hour)
}

// Feature is something a plan includes or not: the one gate every
// endpoint asks (Caller.Require), so that what a plan allows is said once.
type Feature string

// The features that differ between plans.
const (
	FeatureExactCoordinates Feature = "exact coordinates"
	FeatureCSVExport        Feature = "CSV export"
	FeatureWebhooks         Feature = "real-time webhooks"
	FeatureBulkExport       Feature = "bulk exports"
	FeatureLiveStream       Feature = "the live stream"
)

// Includes reports whether the plan includes the feature.
func (p Plan) Includes(f Feature) bool {
	info := p.Info()
	switch f {
	case FeatureExactCoordinates:
		return info.ExactCoordinates
	case FeatureCSVExport:
		return info.CSVExport
	case FeatureWebhooks:
		return info.Webhooks
	case FeatureBulkExport:
		return info.ExportsPerDay > 0
	case FeatureLiveStream:
		return info.StreamConnections > 0
	}
	return false
}

// cheapestWith is the cheapest plan that includes the feature.
func cheapestWith(f Feature) PlanInfo {
	for _, info := range plans {
		if info.ID.Includes(f) {
			return info
		}
	}
	return plans[len(plans)-1]
}
