package read

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/maritime/portcall"
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

// ExportRequest selects the rows of a CSV export: of a port ("" for all),
// not older than Since (zero: no floor), at most Limit.
type ExportRequest struct {
	Port  string
	Since time.Time
	Limit int
}

// ExportStore reads the rows of the CSV exports: the current port calls
// of confidence 2 or more, newest arrival first (arriving at or after
// Since), at most Limit; and the estimates as EstimateStore orders them.
type ExportStore interface {
	ExportVisits(ctx context.Context, r ExportRequest) ([]portcall.Call, error)
	EstimateStore
}

// exportRoutes mounts the CSV export. Each file is written once per
// request and kept by the cache as written: until the rows change, the
// same request streams the bytes already written (a 10,000-row visits
// file costs about 2 ms of CPU to write, a copy to stream).
func exportRoutes(r Router, s ExportStore, c *Cache, now func() time.Time) {
	visits := Cached(c, "export_visits_csv", []string{tablePortCalls}, func(ctx context.Context, req ExportRequest) ([]byte, error) {
		rows, err := s.ExportVisits(ctx, req)
		if err != nil {
			return nil, err
		}
		return csvFile(rows, req.Limit, VisitColumns, visitCells)
	})
	estimates := Cached(c, "export_estimates_csv", []string{tableEstimates, tableActuals}, func(ctx context.Context, req ExportRequest) ([]byte, error) {
		rows, err := s.Estimates(ctx, EstimatesRequest{Port: req.Port, From: req.Since, Limit: req.Limit})
		if err != nil {
			return nil, err
		}
		return csvFile(rows, req.Limit, EstimateColumns, estimateCells)
	})
	r.Handle(fiber.MethodGet, "/export", overwatch.AccessKey, Export(visits, estimates, now))
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
// A CSV file, for plans with CSV export (403 naming the cheapest such plan
// otherwise), streamed in chunks. Text typed by crews is protected against
// spreadsheet formula injection (see reports.CSVWriter).
func Export(visits, estimates Query[ExportRequest, []byte], now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		caller := overwatch.CallerFrom(c.UserContext())
		if err := caller.Require(overwatch.FeatureCSVExport); err != nil {
			return err
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
		limit = csvRows(caller, limit)
		t := now().UTC()
		f := ExportRequest{Port: slugOf(port), Since: Minute(caller.HistoryFloor(t)), Limit: limit}
		name := "all"
		if port != nil {
			name = port.Slug
		}
		ctx, cancel := context.WithTimeout(c.UserContext(), ExportTimeout)
		defer cancel()
		file := visits
		if kind == "estimates" {
			file, f.Since = estimates, laterDay(time.Time{}, f.Since)
		}
		body, err := file(ctx, f)
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

// csvRows clamps a CSV file's rows to the caller's plan (its CSV rows; no
// cap when it states none).
func csvRows(caller *overwatch.Caller, limit int) int {
	if rows := caller.PlanInfo().CSVMaxRows; rows > 0 {
		return min(limit, rows)
	}
	return limit
}

// csvFile writes the CSV file of rows: the header, then a line of cells
// per row, at most limit.
func csvFile[T any](rows []T, limit int, header []string, cells func(T) []reports.Cell) ([]byte, error) {
	var buf bytes.Buffer
	out := reports.NewCSV(&buf, header, reports.CSVOptions{MaxRows: limit})
	for _, r := range rows {
		if err := out.WriteRow(cells(r)...); err != nil {
			return nil, err
		}
	}
	if err := out.Flush(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// csvChunk is how much of a file goes to the client per flush.
const csvChunk = 64 << 10

// streamBytes is a body stream writer that sends body in chunks, flushing
// each, and stops when the client goes away.
func streamBytes(body []byte) func(w *bufio.Writer) {
	return func(w *bufio.Writer) {
		for len(body) > 0 {
			n := min(len(body), csvChunk)
			if _, err := w.Write(body[:n]); err != nil {
				return
			}
			if err := w.Flush(); err != nil {
				return
			}
			body = body[n:]
		}
	}
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

func visitCells(r portcall.Call) []reports.Cell {
	arrival := r.Arrival
	cargoKnown := r.Operation != "" && r.Operation != portcall.OpUnknown
	return []reports.Cell{
		reports.TextCell(r.IMO.String()), reports.TextCell(r.Name), reports.TextCell(r.Flag), reports.TextCell(r.Category),
		reports.TextCell(r.Port), timeCell(&arrival), timeCell(r.Departure), reports.TextCell(r.Anchorage),
		timeCell(r.AnchorStart), timeCell(r.AnchorEnd), numberCell(r.WaitHours(), 1, r.AnchorStart != nil && r.AnchorEnd != nil),
		reports.TextCell(r.BerthZone), timeCell(r.BerthStart), timeCell(r.BerthEnd),
		numberCell(r.BerthHours(), 1, r.BerthStart != nil && r.BerthEnd != nil), numberCell(r.PortHours(), 1, r.Departure != nil),
		reports.IntCell(int64(r.Confidence)),
		numberCell(r.DraftBefore, 1, r.DraftBefore > 0), numberCell(r.DraftAfter, 1, r.DraftAfter > 0),
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
