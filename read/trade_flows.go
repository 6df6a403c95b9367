package read

import (
	"context"
	"slices"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/maritime/risk"
	"overwatch/maritime/sanctions"
	"overwatch/maritime/tradestats"
	"overwatch/maritime/vessel"
	"overwatch/route"
)

// TradeFlowsRequest selects trade-statistics rows. Exporter and Importer
// are Comtrade country codes (nil: any): the exporter of an export row is
// its reporter, of an import row its partner. HSCode "" means any; Year 0
// any; Limit 0 no limit.
type TradeFlowsRequest struct {
	Exporter, Importer *int
	HSCode             string
	Year               int
	Limit              int
}

// TradeFlowStore reads the imported trade statistics.
type TradeFlowStore interface {
	TradeFlows(ctx context.Context, r TradeFlowsRequest) ([]tradestats.Flow, error)
}

// TradeSanctionsStore reads what the sanctions view matches: the lists,
// the registry and the identity history (the inputs of the risk job's
// matching, sanctions.MatchVessels).
type TradeSanctionsStore interface {
	SanctionsEntries(ctx context.Context) ([]sanctions.Entry, error)
	VesselProfiles(ctx context.Context) (map[overwatch.IMO]vessel.Profile, error)
	IdentityHistory(ctx context.Context, imos ...overwatch.IMO) ([]vessel.Identity, error)
}

// PortVisit is one port call of a vessel.
type PortVisit struct {
	Port      string
	Arrival   string // RFC 3339
	Departure string // "" while in port
}

// TradeEntityStore reads vessels' graphs: their port calls (at most
// perVessel each, newest first), their dark activity (a vessel without
// any is left out) and their risk scores.
type TradeEntityStore interface {
	VesselPortVisits(ctx context.Context, imos []overwatch.IMO, perVessel int) (map[overwatch.IMO][]PortVisit, error)
	DarkEventCounts(ctx context.Context, imos []overwatch.IMO) (map[overwatch.IMO]int, error)
	VesselRisks(ctx context.Context, r VesselRisksRequest) ([]risk.VesselScore, error)
}

// TradeStore is everything GET /v1/trade-flows reads.
type TradeStore interface {
	TradeFlowStore
	TradeSanctionsStore
	TradeEntityStore
}

// Trade-flow views.
const (
	tradeViewFlows     = "flows"
	tradeViewMirror    = "mirror"
	tradeViewSanctions = "sanctions"
	tradeViewEntity    = "entity"
)

// tradeFlowsMax is the endpoint's result cap before the tier's clamp (the
// specification states none).
const tradeFlowsMax = 1000

// mirrorScanMax bounds the rows the mirror view pairs.
const mirrorScanMax = 200_000

// tradeFlowRoutes mounts GET /v1/trade-flows.
func tradeFlowRoutes(r route.Router, s TradeStore, pi PICoverageQuery, c *Cache) {
	// The sanctions view matches the whole registry: kept until the lists
	// change, and at most the cache's TTL (the registry's new vessels).
	matches := Cached(c, "trade_sanctions", []string{"sanctions_entries"}, func(ctx context.Context, _ struct{}) (sanctionsView, error) {
		return sanctionsMatches(ctx, s)
	})
	r.Handle(fiber.MethodGet, "/trade-flows", overwatch.AccessKey, TradeFlows(s, pi, matches))
}

// TradeFlow is an item of view=flows.
type TradeFlow struct {
	ExporterName   string   `json:"exporter_name"`
	ExporterISO3   string   `json:"exporter_iso3"`
	ImporterName   string   `json:"importer_name"`
	ImporterISO3   string   `json:"importer_iso3"`
	ReporterName   string   `json:"reporter_name"`
	Flow           string   `json:"flow"`
	Commodity      string   `json:"commodity_name"`
	HSCode         string   `json:"hs_code"`
	Period         string   `json:"period"`
	NetWeightT     *float64 `json:"net_weight_t"`
	ValueUSD       *float64 `json:"value_usd"`
	ValueBasis     *string  `json:"value_basis"`
	Quantity       *float64 `json:"quantity"`
	QuantityUnit   *string  `json:"quantity_unit"`
	Classification string   `json:"classification"`
	Source         string   `json:"source"`
}

// NewTradeFlow presents a flow with exporter and importer resolved from
// the reporter's side.
func NewTradeFlow(f tradestats.Flow) TradeFlow {
	out := TradeFlow{ReporterName: f.ReporterName, Flow: f.Flow, Commodity: tradestats.CommodityOfHS(f.HSCode), HSCode: f.HSCode,
		Period: f.Period, Classification: f.Classification, Source: f.Source}
	out.ExporterName, out.ExporterISO3, out.ImporterName, out.ImporterISO3 = f.ReporterName, f.ReporterISO3, f.PartnerName, f.PartnerISO3
	if f.Flow == tradestats.FlowImport || f.Flow == tradestats.FlowReImport {
		out.ExporterName, out.ExporterISO3, out.ImporterName, out.ImporterISO3 = f.PartnerName, f.PartnerISO3, f.ReporterName, f.ReporterISO3
	}
	if t, ok := f.Tonnes(); ok {
		out.NetWeightT = finite(t, 3)
	}
	if f.ValueUSD >= 0 {
		out.ValueUSD = finite(f.ValueUSD, 2)
	}
	if f.ValueBasis != "" {
		b := f.ValueBasis
		out.ValueBasis = &b
	}
	if f.Quantity >= 0 && f.QuantityUnit != "" {
		out.Quantity = finite(f.Quantity, 3)
		u := f.QuantityUnit
		out.QuantityUnit = &u
	}
	return out
}

// TradeDiscrepancy is an item of view=mirror.
type TradeDiscrepancy struct {
	ExporterName   string   `json:"exporter_name"`
	ExporterISO3   string   `json:"exporter_iso3"`
	ImporterName   string   `json:"importer_name"`
	ImporterISO3   string   `json:"importer_iso3"`
	Commodity      string   `json:"commodity_name"`
	HSCode         string   `json:"hs_code"`
	Period         string   `json:"period"`
	ExportedMT     *float64 `json:"exported_mt"`
	ImportedMT     *float64 `json:"imported_mt"`
	ExportedUSD    *float64 `json:"exported_value_usd"`
	ImportedUSD    *float64 `json:"imported_value_usd"`
	DiscrepancyPct *float64 `json:"discrepancy_pct"`
	Status         string   `json:"status"`
}

// NewTradeDiscrepancy presents a mirror comparison (tonnes are metric
// tonnes; null for a side that reports nothing).
func NewTradeDiscrepancy(d tradestats.Discrepancy) TradeDiscrepancy {
	out := TradeDiscrepancy{ExporterName: d.ExporterName, ExporterISO3: d.ExporterISO3, ImporterName: d.ImporterName, ImporterISO3: d.ImporterISO3,
		Commodity: d.Commodity, HSCode: d.HSCode, Period: d.Period, DiscrepancyPct: finite(d.DiscrepancyPct, 2), Status: d.Status}
	if d.HasExport {
		out.ExportedMT = finite(d.ExportedT, 3)
	}
	if d.HasImport {
		out.ImportedMT = finite(d.ImportedT, 3)
	}
	if d.ExportedUSD > 0 {
		out.ExportedUSD = finite(d.ExportedUSD, 2)
	}
	if d.ImportedUSD > 0 {
		out.ImportedUSD = finite(d.ImportedUSD, 2)
	}
	return out
}

// countryParam reads a country (name, ISO3, ISO2, case-insensitive, or
// Comtrade code); nil when absent.
func countryParam(c *fiber.Ctx, name string) (*int, error) {
	raw := c.Query(name)
	if raw == "" {
		return nil, nil
	}
	ct, ok := tradestats.LookupCountry(raw)
	if !ok {
		return nil, overwatch.Errorf(overwatch.Invalid, "unknown country '%s' in %s; a country name, ISO alpha-3 or alpha-2 code",
			truncate(raw, 60), name).With("parameter", name)
	}
	code := ct.Code
	return &code, nil
}

// tradeFilterParams reads exporter, importer, commodity and period.
func tradeFilterParams(c *fiber.Ctx) (TradeFlowsRequest, error) {
	var r TradeFlowsRequest
	var err error
	if r.Exporter, err = countryParam(c, "exporter"); err != nil {
		return r, err
	}
	if r.Importer, err = countryParam(c, "importer"); err != nil {
		return r, err
	}
	if raw := c.Query("commodity"); raw != "" {
		hs, ok := tradestats.HSOfCommodity(raw)
		if !ok {
			return r, overwatch.Errorf(overwatch.Invalid, "unknown commodity '%s'; one of %s, or an HS heading such as hs1201",
				truncate(raw, 60), joinNames(tradestats.Commodities())).With("parameter", "commodity")
		}
		r.HSCode = hs
	}
	r.Year, err = intParam(c, "period", 0, 1900, 2200)
	return r, err
}

// tradeFilters are the parameters of the flows and mirror views.
var tradeFilters = []string{"exporter", "importer", "commodity", "period"}

// TradeFlows serves GET /v1/trade-flows: view flows (default), mirror,
// sanctions or entity; exporter, importer, commodity and period (year) for
// flows and mirror, imo for entity (a parameter sent to a view that does
// not use it is a 400 naming it); limit (default 50, clamped by the
// tier). pi gives the entity view's P&I coverage, matches the sanctions
// view's matches.
func TradeFlows(s TradeStore, pi PICoverageQuery, matches Query[struct{}, sanctionsView]) fiber.Handler {
	return func(c *fiber.Ctx) error {
		view, err := enumParam(c, "view", tradeViewFlows, tradeViewMirror, tradeViewSanctions, tradeViewEntity)
		if err != nil {
			return err
		}
		if view == "" {
			view = tradeViewFlows
		}
		unused := append([]string{}, tradeFilters...)
		switch view {
		case tradeViewSanctions:
			unused = append(unused, "imo")
		case tradeViewFlows, tradeViewMirror:
			unused = []string{"imo"}
		}
		if err := inapplicable(c, "view="+view, unused...); err != nil {
			return err
		}
		limit, err := limitParam(c, 50, tradeFlowsMax)
		if err != nil {
			return err
		}
		switch view {
		case tradeViewSanctions:
			return tradeSanctions(c, matches, limit)
		case tradeViewEntity:
			return tradeEntity(c, s, pi, limit)
		}
		r, err := tradeFilterParams(c)
		if err != nil {
			return err
		}
		if view == tradeViewMirror {
			return tradeMirror(c, s, r, limit)
		}
		r.Limit = limit
		flows, err := s.TradeFlows(c.UserContext(), r)
		if err != nil {
			return err
		}
		out := make([]TradeFlow, 0, len(flows))
		for _, f := range flows {
			out = append(out, NewTradeFlow(f))
		}
		return c.JSON(fiber.Map{"flows": out})
	}
}

// tradeMirror answers view=mirror: the filters apply to the pair (the
// exporter's exports and the importer's imports both read).
func tradeMirror(c *fiber.Ctx, s TradeFlowStore, r TradeFlowsRequest, limit int) error {
	r.Limit = mirrorScanMax
	flows, err := s.TradeFlows(c.UserContext(), r)
	if err != nil {
		return err
	}
	out := []TradeDiscrepancy{}
	for _, d := range tradestats.Mirror(flows) {
		if len(out) == limit {
			break
		}
		out = append(out, NewTradeDiscrepancy(d))
	}
	return c.JSON(fiber.Map{"discrepancies": out})
}

// TradeSanctionsMatch is an item of view=sanctions: the vessel
// (imo_number, vessel_name, flag) and the sanctions entry it matched
// (list_source, entry_id, sanctioned_entity: the entry's name).
type TradeSanctionsMatch struct {
	IMO              string   `json:"imo_number"`
	VesselName       string   `json:"vessel_name"`
	Flag             string   `json:"flag"`
	ListSource       string   `json:"list_source"`
	EntryID          string   `json:"entry_id"`
	SanctionedEntity string   `json:"sanctioned_entity"`
	Program          string   `json:"program"`
	MatchType        string   `json:"match_type"`
	MatchedOn        string   `json:"matched_on"`
	Confidence       *float64 `json:"confidence"`
}

// sanctionsView is what the sanctions view shows: the matches and the
// profiles of the vessels matched.
type sanctionsView struct {
	Matches  []sanctions.Match
	Profiles map[overwatch.IMO]vessel.Profile
}

// sanctionsMatches runs the risk job's matching (sanctions.MatchVessels)
// on the current registry, identity history and lists.
func sanctionsMatches(ctx context.Context, s TradeSanctionsStore) (sanctionsView, error) {
	entries, err := s.SanctionsEntries(ctx)
	if err != nil || len(entries) == 0 {
		return sanctionsView{}, err
	}
	profiles, err := s.VesselProfiles(ctx)
	if err != nil {
		return sanctionsView{}, err
	}
	ids, err := s.IdentityHistory(ctx)
	if err != nil {
		return sanctionsView{}, err
	}
	list := make([]vessel.Profile, 0, len(profiles))
	for _, p := range profiles {
		list = append(list, p)
	}
	slices.SortFunc(list, func(a, b vessel.Profile) int { return int(int64(a.IMO) - int64(b.IMO)) })
	ms := sanctions.MatchVessels(entries, list, ids)
	matched := make(map[overwatch.IMO]vessel.Profile, len(ms))
	for _, m := range ms {
		matched[m.IMO] = profiles[m.IMO]
	}
	return sanctionsView{Matches: ms, Profiles: matched}, nil
}

// tradeSanctions answers view=sanctions: matches (by IMO, then
// confidence) and match_types, the count of every match per type.
func tradeSanctions(c *fiber.Ctx, q Query[struct{}, sanctionsView], limit int) error {
	v, err := q(c.UserContext(), struct{}{})
	if err != nil {
		return err
	}
	ms, profiles := v.Matches, v.Profiles
	types := map[string]int{sanctions.MatchIMO: 0, sanctions.MatchMMSI: 0, sanctions.MatchName: 0}
	out := []TradeSanctionsMatch{}
	for _, m := range ms {
		types[m.MatchType]++
		if len(out) == limit {
			continue
		}
		p := profiles[m.IMO]
		out = append(out, TradeSanctionsMatch{IMO: m.IMO.String(), VesselName: p.Name, Flag: p.Flag, ListSource: m.Entry.ListSource,
			EntryID: m.Entry.EntryID, SanctionedEntity: m.Entry.Name, Program: m.Entry.Program, MatchType: m.MatchType, MatchedOn: m.MatchedOn,
			Confidence: finite(m.Confidence, 2)})
	}
	return c.JSON(fiber.Map{"matches": out, "match_types": types})
}
