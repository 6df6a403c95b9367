package write

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

	"overwatch/maritime/seaport"
)

// ActualRow is one official export figure: the tonnes of a commodity
// shipped from a port in an ISO week (Week is its Monday, UTC).
type ActualRow struct {
	Port      string
	Week      time.Time
	Commodity string
	Tonnes    float64
	Source    string
}

// ActualsStore keeps imported official export figures.
type ActualsStore interface {
	InsertActuals(ctx context.Context, rows []ActualRow) error
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
func ParseActuals(r io.Reader, defaultSource string) ([]ActualRow, error) {
	cr := csv.NewReader(r)
	cr.ReuseRecord, cr.FieldsPerRecord = true, -1
	head, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("actuals: no header row: %w", err)
	}
	col := map[string]int{}
	for i, h := range head {
		col[strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))] = i
	}
	for _, need := range []string{"port", "week", "commodity", "tonnes"} {
		if _, ok := col[need]; !ok {
			return nil, fmt.Errorf("actuals: the header has no %q column (want port, week, commodity, tonnes[, source])", need)
		}
	}
	var out []ActualRow
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("actuals: line %d: %w", line, err)
		}
		if len(out) >= MaxActualsRows {
			return nil, fmt.Errorf("actuals: more than %d rows", MaxActualsRows)
		}
		field := func(name string) string {
			if i, ok := col[name]; ok && i < len(rec) {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		row, err := parseActual(field("port"), field("week"), field("commodity"), field("tonnes"), field("source"), defaultSource)
		if err != nil {
			return nil, fmt.Errorf("actuals: line %d: %w", line, err)
		}
		out = append(out, row)
	}
	return out, nil
}

func parseActual(port, week, commodity, tonnes, source, defaultSource string) (ActualRow, error) {
	var row ActualRow
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
	return ActualRow{Port: p.Slug, Week: w, Commodity: commodity, Tonnes: t, Source: source}, nil
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
