package clickhouse

import (
	"context"
	"fmt"
	"overwatch/maritime/calibration"
	"time"
)

// InsertActuals writes imported official export figures; the newest
// import of a port, week and commodity wins (export_actuals is a
// ReplacingMergeTree on imported_at, read with FINAL).
func (db *DB) InsertActuals(ctx context.Context, rows []calibration.Actual) error {
	now := time.Now().UTC()
	err := db.derivedBatch(ctx, "export_actuals", "port, day, commodity, tonnes, source, published, imported_at", func(add func(...any) error) error {
		for _, r := range rows {
			if err := add(r.Port, r.Week, r.Commodity, r.Tonnes, r.Source, publishedDay(r.Published), now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("clickhouse: insert actuals: %w", err)
	}
	return nil
}

// publishedDay is the published column of a figure: its publication date,
// or 1970-01-01 when the source does not say.
func publishedDay(t time.Time) time.Time {
	if t.IsZero() {
		return time.Unix(0, 0).UTC()
	}
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}
