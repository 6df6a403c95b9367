package actuals

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/gocarina/gocsv"

	"overwatch/maritime/calibration"
	"overwatch/maritime/seaport"
)

// Store keeps imported official export figures (clickhouse.DB).
type Store interface {
	InsertActuals(ctx context.Context, rows []calibration.Actual) error
}

// MaxActualsRows caps one import file.
const MaxActualsRows = 1_000_000

// ParseActuals reads official export figures (USDA export inspections or
// any other official source, converted) as CSV with a header row naming
// at least the columns port, week, commodity and tonnes, in any order,
// and optionally source:
//
//	port,week,commodity,tonnes,source
//	santos,2026-W10,soybeans,412000,USDA FAS
//	USMSY,2026-03-02,corn,1250000,USDA AMS export inspections
//
// port is one of our port slugs or its UN/LOCODE; week is an ISO week
// (2026-W10) or any date in it (YYYY-MM-DD); commodity is free text (lower
// case kept, at most 64 characters); tonnes is a non-negative number
// (metric tonnes). A later import of the same port, week and commodity
// replaces the earlier figure. Any bad row fails the whole import with
// its line number, so nothing is half-imported.
func ParseActuals(r io.Reader, defaultSource string) ([]calibration.Actual, error) {
	var records []actualRecord
	if err := gocsv.UnmarshalCSV(newHeaderReader(r, MaxActualsRows), &records); err != nil {
		return nil, fmt.Errorf("actuals: %w", err)
	}
	out := make([]calibration.Actual, 0, len(records))
	for i, rec := range records {
		row, err := parseActual(rec, defaultSource)
		if err != nil {
			return nil, fmt.Errorf("actuals: line %d: %w", i+2, err)
		}
		out = append(out, row)
	}
	return out, nil
}

// actualRecord is a row of an actuals file, its columns named by the
// header in any order (gocsv's mapping); source may be absent.
type actualRecord struct {
	Port      string `csv:"port"`
	Week      string `csv:"week"`
	Commodity string `csv:"commodity"`
	Tonnes    string `csv:"tonnes"`
	Source    string `csv:"source,omitempty"`
}

// actualsColumns are the columns an actuals file must have.
var actualsColumns = []string{"port", "week", "commodity", "tonnes"}

// headerReader is the gocsv.CSVReader of an actuals file: encoding/csv's
// reader, with the header row's names trimmed, in lower case and without a
// byte-order mark, the required columns checked, every field trimmed, and
// at most max data rows.
type headerReader struct {
	r      *csv.Reader
	max    int
	line   int
	header bool
}

func newHeaderReader(r io.Reader, max int) *headerReader {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	return &headerReader{r: cr, max: max}
}

// Read returns the next row.
func (h *headerReader) Read() ([]string, error) {
	rec, err := h.r.Read()
	h.line++
	if errors.Is(err, io.EOF) && !h.header {
		return nil, errors.New("no header row")
	}
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, err
		}
		return nil, fmt.Errorf("line %d: %w", h.line, err)
	}
	for i := range rec {
		rec[i] = strings.TrimSpace(rec[i])
	}
	if !h.header {
		h.header = true
		names := map[string]bool{}
		for i := range rec {
			rec[i] = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(rec[i], "\ufeff")))
			names[rec[i]] = true
		}
		for _, need := range actualsColumns {
			if !names[need] {
				return nil, fmt.Errorf("the header has no %q column (want port, week, commodity, tonnes[, source])", need)
			}
		}
		return rec, nil
	}
	if h.line-1 > h.max {
		return nil, fmt.Errorf("more than %d rows", h.max)
	}
	return rec, nil
}

// ReadAll returns every remaining row.
func (h *headerReader) ReadAll() ([][]string, error) {
	var out [][]string
	for {
		rec, err := h.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, rec)
	}
}

func parseActual(rec actualRecord, defaultSource string) (calibration.Actual, error) {
	port, week, commodity, tonnes, source := rec.Port, rec.Week, rec.Commodity, rec.Tonnes, rec.Source
	var row calibration.Actual
	p, ok := seaport.BySlug(strings.ToLower(port))
	if !ok {
		code := strings.ToUpper(strings.ReplaceAll(port, " ", ""))
		for _, q := range seaport.All() {
			if q.LOCODE == code {
				p, ok = q, true
			}
		}
	}
	if !ok {
		return row, fmt.Errorf("port %q is neither one of our port slugs nor its UN/LOCODE", port)
	}
	w, err := parseWeek(week)
	if err != nil {
		return row, err
	}
	commodity = strings.ToLower(commodity)
	if commodity == "" || len(commodity) > 64 {
		return row, fmt.Errorf("commodity must be 1 to 64 characters")
	}
	t, err := strconv.ParseFloat(tonnes, 64)
	if err != nil || t < 0 || math.IsNaN(t) || math.IsInf(t, 0) || t > 1e10 {
		return row, fmt.Errorf("tonnes %q must be a non-negative number", tonnes)
	}
	if source == "" {
		source = defaultSource
	}
	if len(source) > 200 {
		source = source[:200]
	}
	return calibration.Actual{Port: p.Slug, Week: w, Commodity: commodity, Tonnes: t, Source: source}, nil
}

// parseWeek reads 2026-W10 or a date, and returns the week's Monday.
func parseWeek(s string) (time.Time, error) {
	if y, w, ok := strings.Cut(strings.ToUpper(s), "-W"); ok {
		year, err1 := strconv.Atoi(y)
		week, err2 := strconv.Atoi(w)
		if err1 != nil || err2 != nil || year < 1990 || year > 2100 || week < 1 || week > 53 {
			return time.Time{}, fmt.Errorf("week %q must be an ISO week like 2026-W10 or a date", s)
		}
		// Week 1 holds 4 January.
		jan4 := time.Date(year, 1, 4, 0, 0, 0, 0, time.UTC)
		m := monday(jan4).AddDate(0, 0, 7*(week-1))
		if y2, w2 := m.ISOWeek(); y2 != year || w2 != week {
			return time.Time{}, fmt.Errorf("week %q does not exist", s)
		}
		return m, nil
	}
	d, err := time.Parse(time.DateOnly, s)
	if err != nil || d.Year() < 1990 || d.Year() > 2100 {
		return time.Time{}, fmt.Errorf("week %q must be an ISO week like 2026-W10 or a date", s)
	}
	return monday(d), nil
}

func monday(d time.Time) time.Time {
	return d.AddDate(0, 0, -((int(d.Weekday()) + 6) % 7))
}
