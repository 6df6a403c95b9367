package clickhouse

import (
	"context"
	"fmt"
	"slices"
	"time"

	"overwatch"
	"overwatch/write/history"
)

var _ history.Ledger = (*DB)(nil)

const importColumns = `file_key, file, size, format, source, status, rows_read, kept, reports, resume_rows, line, entry,
	skipped, skipped_counts, quirks, quirk_counts, vessels, first_ts, last_ts, error, started_at, updated_at`

// SaveImport writes the record of a file's import (history_imports),
// replacing the earlier one at merge; readers use FINAL.
func (db *DB) SaveImport(ctx context.Context, r history.Record) error {
	batch, err := db.prepareBatch(ctx, "INSERT INTO history_imports ("+importColumns+", version)")
	if err != nil {
		return fmt.Errorf("clickhouse: save import: %w", err)
	}
	defer batch.Abort() //nolint:errcheck // a no-op once sent
	s := r.Stats
	skipped, skippedN := reasonArrays(s.Skipped)
	quirks, quirksN := reasonArrays(s.Quirks)
	version := uint64(time.Now().UnixNano())
	if err := batch.Append(r.Key, r.File, uint64(max(r.Size, 0)), string(r.Format), string(r.Source), string(r.Status),
		s.Rows, s.Kept, s.Reports, r.Resume, s.Line, s.Entry, skipped, skippedN, quirks, quirksN, uint64(s.MMSIs),
		clampTime(s.First), clampTime(s.Last), r.Error, clampTime(r.Start), clampTime(r.Update), version); err != nil {
		return fmt.Errorf("clickhouse: save import: %w", err)
	}
	if err := batch.Send(); err != nil {
		return fmt.Errorf("clickhouse: save import: %w", err)
	}
	return nil
}

// ImportRecord returns the newest record of the file with key.
func (db *DB) ImportRecord(ctx context.Context, key string) (history.Record, bool, error) {
	rows, err := db.conn.Query(ctx, "SELECT "+importColumns+" FROM history_imports FINAL WHERE file_key = ?", key)
	if err != nil {
		return history.Record{}, false, fmt.Errorf("clickhouse: import record: %w", err)
	}
	defer rows.Close()
	if !rows.Next() {
		return history.Record{}, false, rows.Err()
	}
	var r history.Record
	var size, vessels uint64
	var format, source, status string
	var skipped, quirks []string
	var skippedN, quirksN []uint64
	s := &r.Stats
	if err := rows.Scan(&r.Key, &r.File, &size, &format, &source, &status, &s.Rows, &s.Kept, &s.Reports, &r.Resume, &s.Line, &s.Entry,
		&skipped, &skippedN, &quirks, &quirksN, &vessels, &s.First, &s.Last, &r.Error, &r.Start, &r.Update); err != nil {
		return history.Record{}, false, fmt.Errorf("clickhouse: import record: %w", err)
	}
	r.Size, s.MMSIs, s.File = int64(size), int(vessels), r.File
	r.Format, r.Source, r.Status = history.Format(format), overwatch.Source(source), history.Status(status)
	s.Format, s.Size = r.Format, r.Size
	s.Skipped, s.Quirks = reasonMap(skipped, skippedN), reasonMap(quirks, quirksN)
	return r, true, rows.Err()
}

// ImportTotals sums every file's latest record: files by status, rows
// read, reports, and rows skipped and fixed up by reason.
func (db *DB) ImportTotals(ctx context.Context) (history.Totals, error) {
	t := history.Totals{Files: map[history.Status]uint64{}, Skipped: map[history.Reason]uint64{}, Quirks: map[history.Reason]uint64{}}
	err := db.scanAll(ctx, "import totals", "SELECT toString(status), count(), sum(rows_read), sum(reports) FROM history_imports FINAL GROUP BY status", nil,
		func(rows interface{ Scan(...any) error }) error {
			var status string
			var files, n, reports uint64
			if err := rows.Scan(&status, &files, &n, &reports); err != nil {
				return err
			}
			t.Files[history.Status(status)] += files
			t.Rows += n
			t.Reports += reports
			return nil
		})
	if err != nil {
		return t, err
	}
	for _, part := range []struct {
		names, counts string
		into          map[history.Reason]uint64
	}{{"skipped", "skipped_counts", t.Skipped}, {"quirks", "quirk_counts", t.Quirks}} {
		err := db.scanAll(ctx, "import totals", "SELECT reason, sum(n) FROM (SELECT "+part.names+", "+part.counts+" FROM history_imports FINAL) ARRAY JOIN "+
			part.names+" AS reason, "+part.counts+" AS n GROUP BY reason", nil,
			func(rows interface{ Scan(...any) error }) error {
				var reason string
				var n uint64
				if err := rows.Scan(&reason, &n); err != nil {
					return err
				}
				part.into[history.Reason(reason)] = n
				return nil
			})
		if err != nil {
			return t, err
		}
	}
	return t, nil
}

// reasonArrays turns counts by reason into two parallel arrays, by name.
func reasonArrays(m map[history.Reason]uint64) ([]string, []uint64) {
	names := make([]string, 0, len(m))
	for r, n := range m {
		if n > 0 {
			names = append(names, string(r))
		}
	}
	slices.Sort(names)
	counts := make([]uint64, len(names))
	for i, r := range names {
		counts[i] = m[history.Reason(r)]
	}
	return names, counts
}

func reasonMap(names []string, counts []uint64) map[history.Reason]uint64 {
	m := make(map[history.Reason]uint64, len(names))
	for i, r := range names {
		if i < len(counts) {
			m[history.Reason(r)] = counts[i]
		}
	}
	return m
}

// clampTime keeps a time inside what a DateTime column holds (1970 to
// 2105): zero times become the epoch.
func clampTime(t time.Time) time.Time {
	if t.Before(time.Unix(0, 0)) {
		return time.Unix(0, 0).UTC()
	}
	return t.UTC()
}
