package read

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/maritime/portcall"
	"overwatch/reports"
	"overwatch/route"
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
func exportRoutes(r route.Router, s ExportStore, c *Cache, now func() time.Time) {
	visits := Cached(c, "export_visits_csv", []string{tablePortCalls}, func(ctx context.Context, req ExportRequest) ([]byte, error) {
		rows, err := s.ExportVisits(ctx, req)
		if err != nil {
			return nil, err
		}
		return csvFile(rows, req.Limit, newVisitRecord)
	})
	estimates := Cached(c, "export_estimates_csv", []string{tableEstimates, tableActuals}, func(ctx context.Context, req ExportRequest) ([]byte, error) {
		rows, err := s.Estimates(ctx, EstimatesRequest{Port: req.Port, From: req.Since, Limit: req.Limit})
		if err != nil {
			return nil, err
		}
		return csvFile(rows, req.Limit, newEstimateRecord)
	})
	r.Handle(fiber.MethodGet, "/export", overwatch.AccessKey, Export(visits, estimates, now))
}

// VisitRecord is a row of the visits export: a published port call, its
// times in RFC 3339 UTC, what is not known (a wait that has not ended, a
// draught never reported) as an empty cell.
type VisitRecord struct {
	IMO                 string             `csv:"imo"`
	Name                string             `csv:"name"`
	Flag                string             `csv:"flag"`
	VesselType          string             `csv:"vessel_type"`
	Port                string             `csv:"port"`
	Arrival             reports.Timestamp  `csv:"arrival"`
	Departure           *reports.Timestamp `csv:"departure"`
	Anchorage           string             `csv:"anchorage"`
	AnchorStart         *reports.Timestamp `csv:"anchor_start"`
	AnchorEnd           *reports.Timestamp `csv:"anchor_end"`
	WaitHours           *reports.Decimals1 `csv:"wait_hours"`
	BerthZone           string             `csv:"berth_zone"`
	BerthStart          *reports.Timestamp `csv:"berth_start"`
	BerthEnd            *reports.Timestamp `csv:"berth_end"`
	BerthHours          *reports.Decimals1 `csv:"berth_hours"`
	PortHours           *reports.Decimals1 `csv:"port_hours"`
	Confidence          int                `csv:"confidence"`
	DraftBefore         *reports.Decimals1 `csv:"draft_before"`
	DraftAfter          *reports.Decimals1 `csv:"draft_after"`
	Operation           string             `csv:"operation"`
	CargoTonnes         *reports.Decimals0 `csv:"cargo_tonnes"`
	CargoQuality        string             `csv:"cargo_quality"`
	DeclaredDestination string             `csv:"declared_destination"`
}

// newVisitRecord presents a call as a row of the visits export.
func newVisitRecord(c portcall.Call) VisitRecord {
	r := VisitRecord{
		IMO: c.IMO.String(), Name: c.Name, Flag: c.Flag, VesselType: c.Category, Port: c.Port,
		Arrival: reports.Timestamp(c.Arrival), Departure: timestamp(c.Departure), Anchorage: c.Anchorage,
		AnchorStart: timestamp(c.AnchorStart), AnchorEnd: timestamp(c.AnchorEnd), BerthZone: c.BerthZone,
		BerthStart: timestamp(c.BerthStart), BerthEnd: timestamp(c.BerthEnd), Confidence: int(c.Confidence),
		Operation: c.Operation, CargoQuality: c.CargoQuality, DeclaredDestination: c.Declared,
	}
	hours := func(v float64, known bool) *reports.Decimals1 {
		if !known {
			return nil
		}
		d := reports.Decimals1(v)
		return &d
	}
	r.WaitHours = hours(c.WaitHours(), c.AnchorStart != nil && c.AnchorEnd != nil)
	r.BerthHours = hours(c.BerthHours(), c.BerthStart != nil && c.BerthEnd != nil)
	r.PortHours = hours(c.PortHours(), c.Departure != nil)
	r.DraftBefore = hours(c.DraftBefore, c.DraftBefore > 0)
	r.DraftAfter = hours(c.DraftAfter, c.DraftAfter > 0)
	if c.Operation != "" && c.Operation != portcall.OpUnknown {
		t := reports.Decimals0(c.CargoTonnes)
		r.CargoTonnes = &t
	}
	return r
}

// timestamp is t as an optional CSV cell.
func timestamp(t *time.Time) *reports.Timestamp {
	if t == nil {
		return nil
	}
	v := reports.Timestamp(*t)
	return &v
}

// EstimateRecord is a row of the estimates export: an item of
// /v1/estimates.
type EstimateRecord struct {
	Port             string             `csv:"port"`
	ISOYear          int                `csv:"iso_year"`
	ISOWeek          int                `csv:"iso_week"`
	WeekStart        string             `csv:"week_start"`
	Vessels          int                `csv:"vessels"`
	Calls            int                `csv:"calls"`
	CallsWithDraught int                `csv:"calls_with_draught"`
	Tonnage          reports.Decimals0  `csv:"tonnage"`
	Confidence       reports.Decimals2  `csv:"confidence"`
	USDAActuals      *reports.Decimals0 `csv:"usda_actuals"`
}

// newEstimateRecord presents an estimate row as a row of the export.
func newEstimateRecord(r EstimateRow) EstimateRecord {
	e := NewEstimate(r)
	out := EstimateRecord{
		Port: e.Port, ISOYear: e.ISOYear, ISOWeek: e.ISOWeek, WeekStart: e.WeekStart, Vessels: e.Vessels, Calls: e.Calls,
		CallsWithDraught: e.CallsWithDraught, Tonnage: reports.Decimals0(e.Tonnage), Confidence: reports.Decimals2(e.Confidence),
	}
	if e.USDAActuals != nil {
		a := reports.Decimals0(*e.USDAActuals)
		out.USDAActuals = &a
	}
	return out
}

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
		port, err := portParam(c, "port", false)
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
		limit, ok, err := limitValue(c, ExportMaxRows)
		if err != nil {
			return err
		}
		if !ok {
			limit = ExportDefaultRows
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

// csvFile writes the CSV file of rows, each presented as a record R whose
// csv tags name the columns (gocsv's mapping, reports.WriteStructs): the
// header, then at most limit rows.
func csvFile[T, R any](rows []T, limit int, record func(T) R) ([]byte, error) {
	var buf bytes.Buffer
	records := func(yield func(R) bool) {
		for _, r := range rows {
			if !yield(record(r)) {
				return
			}
		}
	}
	if _, err := reports.WriteStructs(&buf, records, reports.CSVOptions{MaxRows: limit}); err != nil {
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
