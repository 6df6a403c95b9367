package clickhouse

import (
	"context"
	"fmt"
	"strings"
	"time"

	"overwatch"
)

// Test fixtures: helpers that write derived rows directly, for the
// integration and end-to-end tests of the read side. The service itself
// never calls them; the jobs write the derived tables.

// PortCallFixture is a port_calls row for tests. Day is the UTC day of
// Arrival; WaitHours, BerthHours and PortHours, when 0, are computed from
// the times.
type PortCallFixture struct {
	IMO                    overwatch.IMO
	Port                   string
	Arrival                time.Time
	Departure              *time.Time
	Anchorage              string
	AnchorStart, AnchorEnd *time.Time
	BerthZone              string
	BerthStart, BerthEnd   *time.Time
	WaitHours              float64
	BerthHours             float64
	PortHours              float64
	Confidence             uint8
	DraftBefore            float32
	DraftAfter             float32
	Operation              string
	CargoTonnes            float64
	CargoQuality           string
	Declared               string
	DeclaredPort           string
	Name, Flag             string
	ShipType               uint8
	Category               string
	BuildYear              uint16
	BuildYearEstimated     bool
}

func hoursBetween(from, to *time.Time) float64 {
	if from == nil || to == nil {
		return 0
	}
	return to.Sub(*from).Hours()
}

// InsertPortCallsForTest writes the calls under generation gen. It does not
// record the generation: call RecordGenerationForTest for each day, or the
// rows stay invisible, as those of an unfinished derivation run are. For
// tests only.
func (db *DB) InsertPortCallsForTest(ctx context.Context, gen uint64, calls ...PortCallFixture) error {
	rows := make([][]any, len(calls))
	for i, c := range calls {
		if c.WaitHours == 0 {
			c.WaitHours = hoursBetween(c.AnchorStart, c.AnchorEnd)
		}
		if c.BerthHours == 0 {
			c.BerthHours = hoursBetween(c.BerthStart, c.BerthEnd)
		}
		if c.PortHours == 0 {
			arrival := c.Arrival
			c.PortHours = hoursBetween(&arrival, c.Departure)
		}
		est := uint8(0)
		if c.BuildYearEstimated {
			est = 1
		}
		rows[i] = []any{
			c.Arrival.UTC().Truncate(24 * time.Hour), gen, c.IMO, c.Port, c.Arrival.UTC(), c.Departure, uint8(1), uint8(1),
			c.Anchorage, c.AnchorStart, c.AnchorEnd, c.BerthZone, c.BerthStart, c.BerthEnd,
			c.WaitHours, c.BerthHours, c.PortHours, c.Confidence, uint16(0), uint32(10),
			c.DraftBefore, c.DraftAfter, c.Operation, c.CargoTonnes, c.CargoQuality, float64(0),
			c.Declared, c.DeclaredPort, c.Name, c.Flag, c.ShipType, c.Category, c.BuildYear, est,
		}
	}
	return db.InsertRowsForTest(ctx, "port_calls", []string{
		"day", "gen", "imo", "port", "arrival", "departure", "entry_seen", "exit_seen",
		"anchorage", "anchor_start", "anchor_end", "berth_zone", "berth_start", "berth_end",
		"wait_hours", "berth_hours", "port_hours", "confidence", "in_port_gaps", "positions",
		"draft_before", "draft_after", "operation", "cargo_tonnes", "cargo_quality", "dwt_estimate",
		"declared", "declared_port", "name", "flag", "ship_type", "category", "build_year", "build_year_estimated",
	}, rows...)
}

// RecordGenerationForTest records that generation gen of the derived table
// name is complete for the day, which makes its rows of that day current
// (unless a newer generation of the day is recorded). For tests only.
func (db *DB) RecordGenerationForTest(ctx context.Context, name string, day time.Time, gen uint64) error {
	return db.InsertRowsForTest(ctx, "derivation_days", []string{"name", "day", "gen", "rows", "computed_at"},
		[]any{name, day.UTC().Truncate(24 * time.Hour), gen, uint64(0), time.Now().UTC().Truncate(time.Second)})
}

// InsertRowsForTest appends rows to a table in one batch; each row gives
// the columns' values in order, in the Go types clickhouse-go accepts for
// them. For tests only.
func (db *DB) InsertRowsForTest(ctx context.Context, table string, columns []string, rows ...[]any) error {
	if !databaseName.MatchString(table) {
		return fmt.Errorf("clickhouse: bad table name %q", table)
	}
	for _, c := range columns {
		if !databaseName.MatchString(c) {
			return fmt.Errorf("clickhouse: bad column name %q", c)
		}
	}
	batch, err := db.prepareBatch(ctx, "INSERT INTO "+table+" ("+strings.Join(columns, ", ")+")")
	if err != nil {
		return fmt.Errorf("clickhouse: insert %s: %w", table, err)
	}
	for _, r := range rows {
		if err := batch.Append(r...); err != nil {
			batch.Abort() //nolint:errcheck
			return fmt.Errorf("clickhouse: insert %s: %w", table, err)
		}
	}
	defer db.cache.changed()
	if err := batch.Send(); err != nil {
		return fmt.Errorf("clickhouse: insert %s: %w", table, err)
	}
	return nil
}
