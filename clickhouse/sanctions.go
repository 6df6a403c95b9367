package clickhouse

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"overwatch/jobs"
	"overwatch/maritime/sanctions"
)

var (
	_ jobs.SanctionsLister = (*DB)(nil)
)

// currentSanctions selects the rows of each list's newest complete import
// (see migrations/005_sanctions.sql).
const currentSanctions = "(list_source, gen) IN (SELECT list_source, max(gen) FROM sanctions_imports GROUP BY list_source)"

// ReplaceSanctions writes the entries of a list as a new import that
// replaces the list's previous one whole: every entry under a new
// generation, then the generation recorded in sanctions_imports (readers
// see the newest recorded one), then the rows of older generations of the
// list deleted (ALTER ... DELETE, applied in the background; readers never
// see them anyway). An import that fails before it is recorded is never
// seen; its rows go with the next import's deletion. An empty list is
// refused: a refresh that fetched nothing must not delist every vessel.
func (db *DB) ReplaceSanctions(ctx context.Context, listSource string, entries []sanctions.Entry) error {
	listSource = strings.TrimSpace(listSource)
	if listSource == "" {
		return errors.New("clickhouse: sanctions: no list source")
	}
	if len(entries) == 0 {
		return fmt.Errorf("clickhouse: sanctions: %s has no entries; the previous import stays", listSource)
	}
	gen, now := jobs.Generation(), time.Now().UTC()
	err := db.derivedBatch(ctx, "sanctions_entries", `list_source, gen, entry_id, name, aliases, imo, mmsi, flag, former_flags,
		program, vessel_type, call_sign, owner, tonnage, grt, remarks, imported_at`, func(add func(...any) error) error {
		for _, e := range entries {
			if err := add(listSource, gen, e.EntryID, e.Name, nonNil(e.Aliases), e.IMO, e.MMSI, e.Flag, nonNil(e.FormerFlags),
				e.Program, e.VesselType, e.CallSign, e.Owner, clampU32(e.Tonnage), clampU32(e.GRT), e.Remarks, now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("clickhouse: sanctions: %w", err)
	}
	err = db.derivedBatch(ctx, "sanctions_imports", "list_source, gen, entries, imported_at", func(add func(...any) error) error {
		return add(listSource, gen, uint64(len(entries)), now)
	})
	if err != nil {
		return fmt.Errorf("clickhouse: sanctions: %w", err)
	}
	for _, table := range []string{"sanctions_entries", "sanctions_imports"} {
		if err := db.conn.Exec(ctx, "ALTER TABLE "+table+" DELETE WHERE list_source = ? AND gen < ?", listSource, gen); err != nil {
			return fmt.Errorf("clickhouse: sanctions: delete superseded imports of %s: %w", listSource, err)
		}
	}
	return nil
}

// SanctionsEntries returns the entries of the newest import of every list,
// ordered by list and entry.
func (db *DB) SanctionsEntries(ctx context.Context) ([]sanctions.Entry, error) {
	rows, err := db.conn.Query(ctx, `SELECT list_source, entry_id, name, aliases, imo, mmsi, flag, former_flags, program,
		vessel_type, call_sign, owner, tonnage, grt, remarks
		FROM sanctions_entries FINAL WHERE `+currentSanctions+`
		ORDER BY list_source, length(entry_id), entry_id`)
	if err != nil {
		return nil, fmt.Errorf("clickhouse: sanctions entries: %w", err)
	}
	defer rows.Close()
	var out []sanctions.Entry
	for rows.Next() {
		var e sanctions.Entry
		var tonnage, grt uint32
		if err := rows.Scan(&e.ListSource, &e.EntryID, &e.Name, &e.Aliases, &e.IMO, &e.MMSI, &e.Flag, &e.FormerFlags, &e.Program,
			&e.VesselType, &e.CallSign, &e.Owner, &tonnage, &grt, &e.Remarks); err != nil {
			return nil, fmt.Errorf("clickhouse: sanctions entries: %w", err)
		}
		e.Tonnage, e.GRT = int(tonnage), int(grt)
		if len(e.Aliases) == 0 {
			e.Aliases = nil
		}
		if len(e.FormerFlags) == 0 {
			e.FormerFlags = nil
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("clickhouse: sanctions entries: %w", err)
	}
	return out, nil
}

// SanctionsImport is the newest complete import of a list.
type SanctionsImport struct {
	ListSource string
	Entries    int
	ImportedAt time.Time
}

// SanctionsImports returns the newest complete import of every list (what
// the refresh reports and health checks show).
func (db *DB) SanctionsImports(ctx context.Context) ([]SanctionsImport, error) {
	rows, err := db.conn.Query(ctx, `SELECT list_source, entries, imported_at FROM sanctions_imports
		WHERE (list_source, gen) IN (SELECT list_source, max(gen) FROM sanctions_imports GROUP BY list_source)
		ORDER BY list_source`)
	if err != nil {
		return nil, fmt.Errorf("clickhouse: sanctions imports: %w", err)
	}
	defer rows.Close()
	var out []SanctionsImport
	for rows.Next() {
		var s SanctionsImport
		var n uint64
		if err := rows.Scan(&s.ListSource, &n, &s.ImportedAt); err != nil {
			return nil, fmt.Errorf("clickhouse: sanctions imports: %w", err)
		}
		s.Entries = int(n)
		out = append(out, s)
	}
	return out, rows.Err()
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func clampU32(n int) uint32 {
	return uint32(min(max(n, 0), 1<<32-1))
}
