package read

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/reports"
)

// Export limits: rows by default and at most (further capped by the plan's
// CSV rows), and how long reading an export's rows from the store may
// take.
const (
	ExportDefaultRows = 100
	ExportMaxRows     = 10000
	ExportTimeout     = 2 * time.Minute
)

// ExportFilter selects the rows of a CSV export: of a port ("" for all),
// not older than Since (zero: no floor), at most Limit.
type ExportFilter struct {
	Port  string
	Since time.Time
	Limit int
}

// VisitRow is a current port call of confidence 2 or more, as exported.
type VisitRow struct {
	IMO                    overwatch.IMO
	Name, Flag, Category   string
	Port                   string
	Arrival                time.Time
	Departure              *time.Time
	Anchorage              string
	AnchorStart, AnchorEnd *time.Time
	WaitHours              float64
	BerthZone              string
	BerthStart, BerthEnd   *time.Time
	BerthHours, PortHours  float64
	Confidence             uint8
	DraftBefore            float32 // 0: unknown
	DraftAfter             float32
	Operation              string // load, discharge, none, unknown
	CargoTonnes            float64
	CargoQuality           string
	Declared               string // the destination declared on the way in
}

// ExportQuery returns the rows of the CSV exports, at most f.Limit:
// visits newest arrival first (arrival at or after Since), estimates as
// EstimateQuery orders them (weeks starting on or after Since). The store
// hands out the same slice for the same filter until its data changes (its
// read cache), and a new slice after: callers must not modify it, and may
// keep what they made of it until the slice changes.
type ExportQuery interface {
	ExportVisits(ctx context.Context, f ExportFilter) ([]VisitRow, error)
	ExportEstimates(ctx context.Context, f ExportFilter) ([]EstimateRow, error)
}

// The columns of the exports.
var (
	VisitColumns = []string{"imo", "name", "flag", "vessel_type", "port", "arrival", "departure", "anchorage",
		"anchor_start", "anchor_end", "wait_hours", "berth_zone", "berth_start", "berth_end", "berth_hours",
		"port_hours", "confidence", "draft_before", "draft_after", "operation", "cargo_tonnes", "cargo_quality",
		"declared_destination"}
	EstimateColumns = []string{"port", "iso_year", "iso_week", "week_start", "vessels", "calls",
		"calls_with_draught", "tonnage", "confidence", "usda_actuals"}
)

// Export serves GET /v1/export: port (slug), type (visits, the default, or
// estimates), limit (default 100, at most 10,000 and the plan's CSV rows).
// A CSV file streamed as it is written, for plans with CSV export (403
// naming the cheapest such plan otherwise). Text typed by crews is
// protected against spreadsheet formula injection (see reports.CSVWriter).
// A file is written once per store answer: until the store's rows change,
// the same request streams the bytes already written (see csvMemo).
func Export(store ExportQuery, now func() time.Time) fiber.Handler {
	memo := &csvMemo{}
	return func(c *fiber.Ctx) error {
		caller := overwatch.CallerFrom(c.UserContext())
		info := overwatch.PlanFree.Info()
		if caller != nil {
			info = caller.Plan.Info()
		}
		if !info.CSVExport {
			return overwatch.Errorf(overwatch.Forbidden, "CSV export requires the %s plan or higher", csvPlanName())
		}
		port, err := portParam(c, "port", false, false)
		if err != nil {
			return err
		}
		kind, err := enumParam(c, "type", "visits", "estimates")
		if err != nil {
			return err
		}
		if kind == "" {
			kind = "visits"
		}
		limit := ExportDefaultRows
		if raw := c.Query("limit"); raw != "" {
			if limit, err = strconv.Atoi(raw); err != nil || limit < 1 {
				return overwatch.Errorf(overwatch.Invalid, "limit must be a positive integer")
			}
		}
		limit = min(limit, ExportMaxRows)
		if info.CSVMaxRows > 0 {
			limit = min(limit, info.CSVMaxRows)
		}
		t := now().UTC()
		f := ExportFilter{Since: caller.HistoryFloor(t), Limit: limit}
		name := "all"
		if port != nil {
			f.Port, name = port.Slug, port.Slug
		}
		ctx, cancel := context.WithTimeout(c.UserContext(), ExportTimeout)
		defer cancel()
		var body []byte
		if kind == "visits" {
			rows, qerr := store.ExportVisits(ctx, f)
			if qerr != nil {
				return qerr
			}
			body, err = csvOf(memo, kind, rows, limit, VisitColumns, visitCells)
		} else {
			f.Since = laterDay(time.Time{}, f.Since)
			rows, qerr := store.ExportEstimates(ctx, f)
			if qerr != nil {
				return qerr
			}
			body, err = csvOf(memo, kind, rows, limit, EstimateColumns, estimateCells)
		}
		if err != nil {
			return err
		}
		c.Set(fiber.HeaderContentType, "text/csv; charset=utf-8")
		c.Set(fiber.HeaderContentDisposition, fmt.Sprintf(`attachment; filename="overwatch-%s-%s-%s.csv"`, kind, name, t.Format("20060102")))
		c.Set(fiber.HeaderCacheControl, "no-store")
		c.Context().SetBodyStreamWriter(streamBytes(body))
		return nil
	}
}

// csvPlanName is the name of the cheapest plan with CSV export.
func csvPlanName() string {
	for _, p := range overwatch.Plans() {
		if p.CSVExport {
			return p.Name
		}
	}
	return "a paid"
}

// Cells of the exports: timestamps RFC 3339 UTC, unknown values empty.

func timeCell(t *time.Time) reports.Cell {
	if t == nil {
		return reports.TextCell("")
	}
	return reports.TextCell(t.UTC().Format(time.RFC3339))
}

func numberCell(v float64, decimals int, known bool) reports.Cell {
	if !known {
		return reports.TextCell("")
	}
	return reports.NumberCell(v, decimals)
}

func visitCells(r VisitRow) []reports.Cell {
	arrival := r.Arrival
	cargoKnown := r.Operation != "" && r.Operation != "unknown"
	return []reports.Cell{
		reports.TextCell(r.IMO.String()), reports.TextCell(r.Name), reports.TextCell(r.Flag), reports.TextCell(r.Category),
		reports.TextCell(r.Port), timeCell(&arrival), timeCell(r.Departure), reports.TextCell(r.Anchorage),
		timeCell(r.AnchorStart), timeCell(r.AnchorEnd), numberCell(r.WaitHours, 1, r.AnchorStart != nil && r.AnchorEnd != nil),
		reports.TextCell(r.BerthZone), timeCell(r.BerthStart), timeCell(r.BerthEnd),
		numberCell(r.BerthHours, 1, r.BerthStart != nil && r.BerthEnd != nil), numberCell(r.PortHours, 1, r.Departure != nil),
		reports.IntCell(int64(r.Confidence)),
		numberCell(float64(r.DraftBefore), 1, r.DraftBefore > 0), numberCell(float64(r.DraftAfter), 1, r.DraftAfter > 0),
		reports.TextCell(r.Operation), numberCell(r.CargoTonnes, 0, cargoKnown), reports.TextCell(r.CargoQuality),
		reports.TextCell(r.Declared),
	}
}

func estimateCells(r EstimateRow) []reports.Cell {
	e := NewEstimate(r)
	return []reports.Cell{
		reports.TextCell(e.Port), reports.IntCell(int64(e.ISOYear)), reports.IntCell(int64(e.ISOWeek)), reports.TextCell(e.WeekStart),
		reports.IntCell(int64(e.Vessels)), reports.IntCell(int64(e.Calls)), reports.IntCell(int64(e.CallsWithDraught)),
		reports.NumberCell(e.Tonnage, 0), reports.NumberCell(e.Confidence, 2), numberCell(deref(e.USDAActuals), 0, e.USDAActuals != nil),
	}
}

func deref(v *float64) float64 {
	if v == nil {
		return 0
	}
	return *v
}
