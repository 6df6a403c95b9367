package read

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch/maritime/emissions"
	"overwatch/reports"
)

// GET /v1/emissions/report: the Scope 3 report of the voyages of a period,
// as JSON, CSV or PDF, all three from one reports.EmissionsReport.

// ReportDefaultPeriod is the period of a report without start: the 365
// days before end.
const ReportDefaultPeriod = 365 * 24 * time.Hour

// ReportMaxEntity is the longest entity name.
const ReportMaxEntity = 200

// EmissionsReportBody is the JSON of GET /v1/emissions/report: the report
// (totals over every voyage of the period) without its voyage table, the
// voyages of the page, and the pagination.
type EmissionsReportBody struct {
	Report     ReportHead            `json:"report"`
	Voyages    []EmissionsReportLine `json:"voyages"`
	Pagination Pagination            `json:"pagination"`
}

// ReportHead is the report without its voyage rows (Voyages shadows the
// embedded report's rows and is always empty, so omitted).
type ReportHead struct {
	*reports.EmissionsReport
	Voyages []reports.EmissionsVoyage `json:"voyages,omitempty"`
}

// EmissionsReportLine is a voyage row of the report with its ID.
type EmissionsReportLine struct {
	ID string `json:"id"`
	reports.EmissionsVoyage
}

// EmissionsReport serves GET /v1/emissions/report: entity (the reporting
// company, up to 200 characters), start and end (the voyages that ended in
// [start, end); default the 365 days before now; no earlier than the
// plan's history), imo, port, fuel_type, distance_nm, speed_knots (as
// /v1/emissions), format (json, the default; csv or pdf, for plans with
// CSV export), cursor and limit (the JSON's voyage page: default 50, at
// most 500 and the plan's results per call). The CSV and the PDF hold
// every voyage of the period up to the plan's CSV rows (the newest): a
// cursor is a 400 there, and so is entity with the CSV (its voyage rows
// name none).
func EmissionsReport(computed Query[emissionsRequest, *computedVoyages], factorNames Query[EmissionsFilter, []string],
	now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		t := now().UTC()
		format, err := enumParam(c, "format", "json", "csv", "pdf")
		if err != nil {
			return err
		}
		// The files hold every voyage from the newest (no cursor); the
		// CSV is the voyage rows alone (no entity).
		switch format {
		case "csv":
			err = inapplicable(c, "format=csv", "cursor", "entity")
		case "pdf":
			err = inapplicable(c, "format=pdf", "cursor")
		}
		if err != nil {
			return err
		}
		p, err := parseEmissionsParams(c, t, ReportDefaultPeriod)
		if err != nil {
			return err
		}
		entity, err := stringParam(c, "entity", ReportMaxEntity)
		if err != nil {
			return err
		}
		var limit int
		if format == "csv" || format == "pdf" {
			limit, err = csvLimitParam(c)
		} else {
			limit, err = limitParam(c, EmissionsDefaultLimit, EmissionsMaxLimit)
		}
		if err != nil {
			return err
		}
		e, err := computed(c.UserContext(), p.request)
		if err != nil {
			return err
		}
		set := &e.set
		// The factors: those the recomputation used, or those the job's did.
		factors := set.factors
		if !p.request.override() {
			names, err := factorNames(c.UserContext(), p.request.Filter)
			if err != nil {
				return err
			}
			factors = emissions.FactorsNamed(names)
		}
		r := BuildEmissionsReport(entity, p.request.Filter.From, p.request.Filter.To, t.Truncate(time.Second), set, format != "json", factors, p.describeOverrides())
		name := fmt.Sprintf("overwatch-emissions-report-%s", t.Format("20060102"))
		c.Set(fiber.HeaderCacheControl, "no-store")
		switch format {
		case "csv":
			return writeEmissionsCSV(c, set, 0, min(limit, set.Len()), Pagination{}, name+".csv")
		case "pdf":
			if set.Len() > limit {
				r.Voyages = r.Voyages[:limit]
				r.Quality.Notes = append(r.Quality.Notes, fmt.Sprintf("The voyage table lists the %d voyages that ended last of the %d of the period; the totals cover all of them.", limit, set.Len()))
			}
			var buf bytes.Buffer
			if err := reports.WriteEmissionsPDF(&buf, r); err != nil {
				return err
			}
			c.Set(fiber.HeaderContentType, "application/pdf")
			c.Set(fiber.HeaderContentDisposition, `attachment; filename="`+name+`.pdf"`)
			return c.Send(buf.Bytes())
		}
		from, to, pg := set.page(p.after, limit)
		body := EmissionsReportBody{Report: ReportHead{EmissionsReport: r}, Voyages: make([]EmissionsReportLine, 0, to-from), Pagination: pg}
		for i := from; i < to; i++ {
			body.Voyages = append(body.Voyages, EmissionsReportLine{ID: set.id(i), EmissionsVoyage: reportVoyage(set.At(i))})
		}
		return c.JSON(body)
	}
}

// describeOverrides lists the caller's assumptions as the report shows them.
func (p *emissionsParams) describeOverrides() []string {
	var out []string
	r := p.request
	if r.Fuel != "" {
		out = append(out, fmt.Sprintf("fuel_type=%s: every voyage computed on %s instead of its class's default fuel", r.Fuel, r.Fuel))
	}
	if r.DistanceNM > 0 {
		out = append(out, fmt.Sprintf("distance_nm=%g: every voyage taken as %g nm instead of its AIS or sea-lane distance", r.DistanceNM, r.DistanceNM))
	}
	if r.SpeedKnots > 0 {
		out = append(out, fmt.Sprintf("speed_knots=%g: every voyage sailed at %g kn instead of its AIS speed profile", r.SpeedKnots, r.SpeedKnots))
	}
	return out
}

// ReportAssumptions are the standing assumptions every report states.
var ReportAssumptions = []string{
	"A voyage is the leg between two consecutive port calls of a vessel detected from AIS; it is reported in the period in which it ended.",
	"Cargo is the port-call draught estimate of the loading call (or of the discharge call); a leg that leaves a discharge without loading is in ballast; without an estimate, 75 % of the deadweight is assumed and flagged.",
	"Deadweight and engine power are estimated from the AIS dimensions and the EEXI regressions when the registry does not give them.",
	"VLSFO is taken as HFO (Cf 3.114); LNG carriers burn LNG (Otto medium-speed engines, 3.1 % methane slip), every other class VLSFO, unless fuel_type says otherwise.",
	"A leg carries the berth time of its loading call and the anchor waiting of its arrival call, so that every port phase is counted once.",
	"Default intensities other than the bulk carrier's are interim values derived from IMO CII reference lines (see the factor table).",
}

// BuildEmissionsReport makes the report of the voyages for entity over
// [from, to), computed with the factors; with table, the voyage table
// holds every voyage in order (else it is left empty).
func BuildEmissionsReport(entity string, from, to, generated time.Time, rows VoyageRows, table bool, factors []emissions.Factor,
	overrides []string) *reports.EmissionsReport {
	tot := totalRows(rows)
	r := &reports.EmissionsReport{
		Entity: entity, PeriodStart: from, PeriodEnd: to, GeneratedAt: generated, ModelVersion: emissions.ModelVersion,
		Totals: reports.EmissionsTotals{
			Voyages: tot.Voyages, DistanceNM: tot.DistanceNM, CargoTonnes: tot.CargoTonnes.Central, FuelTonnes: tot.FuelTonnes.Central,
			TonneMiles: emRange(tot.TonneMiles), TTW: emRange(tot.TTW), WTW: emRange(tot.WTW),
			IntensityTTW: emRange(tot.IntensityTTW), IntensityWTW: emRange(tot.IntensityWTW),
		},
		ByMonth:      breakdown(groupRows(rows, emissions.GroupMonth)),
		VoyagesTotal: rows.Len(),
		Methodology:  emissions.Methodology,
		Assumptions:  ReportAssumptions,
		Overrides:    overrides,
		Factors:      []reports.EmissionsFactor{},
	}
	if entity == "" {
		r.Entity = "Reporting entity not stated"
	}
	if len(overrides) == 0 {
		r.Overrides = []string{"none: every voyage as the emissions job computed it"}
	}
	commodities := map[string]bool{}
	for i := 0; i < rows.Len(); i++ {
		v := rows.At(i)
		if table {
			r.Voyages = append(r.Voyages, reportVoyage(v))
		}
		if v.Commodity != "" {
			commodities[v.Commodity] = true
		}
	}
	by, group := "vessel type", emissions.GroupVesselClass
	if len(commodities) > 1 {
		by, group = "commodity", emissions.GroupCommodity
	}
	r.BreakdownBy, r.Breakdown = by, breakdown(groupRows(rows, group))
	slices.SortStableFunc(r.Breakdown, func(a, b reports.EmissionsBreakdown) int { return cmp.Compare(b.TTW.Central, a.TTW.Central) })
	for _, f := range factors {
		r.Factors = append(r.Factors, reports.EmissionsFactor{Name: f.Name, Value: f.Value, Unit: f.Unit, Source: f.Source, Version: f.Version})
	}
	if n := float64(tot.Voyages); n > 0 {
		r.Quality.AISDistanceShare = float64(tot.AISDistanceVoyages) / n
		r.Quality.AISCargoShare = float64(tot.AISCargoVoyages) / n
		r.Quality.DefaultIntensityShare = float64(tot.DefaultIntensityVoyages) / n
	}
	r.Quality.Notes = []string{
		fmt.Sprintf("%d of %d voyages have their distance measured on the AIS track and %d their cargo from the port-call draught estimate.",
			tot.AISDistanceVoyages, tot.Voyages, tot.AISCargoVoyages),
		fmt.Sprintf("%d voyages use a default intensity (track too sparse or vessel size unknown); %d have no estimate.",
			tot.DefaultIntensityVoyages, tot.NoEstimateVoyages),
		"Low and high totals add the voyages' lows and highs (errors taken as fully correlated, which is conservative).",
	}
	return r
}

// breakdown maps groups onto the report's breakdown rows.
func breakdown(groups []emissions.Group) []reports.EmissionsBreakdown {
	out := make([]reports.EmissionsBreakdown, len(groups))
	for i, g := range groups {
		out[i] = reports.EmissionsBreakdown{Label: g.Key, Voyages: g.Voyages, TonneMiles: g.TonneMiles.Central, TTW: emRange(g.TTW), WTW: emRange(g.WTW)}
	}
	return out
}
