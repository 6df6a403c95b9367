package clickhouse

import (
	"context"
	"fmt"
	"time"

	"overwatch/jobs"
	"overwatch/maritime/chokepoint"
	"overwatch/read"
)

var (
	_ read.DisruptionStore = (*DB)(nil)
	_ jobs.ChokepointStore = (*DB)(nil)
)

// InsertDisruptions stores signals, one row per URL (the newest fetch of
// a URL wins: disruption_signals is a ReplacingMergeTree keyed by url).
func (db *DB) InsertDisruptions(ctx context.Context, rows []chokepoint.Disruption) error {
	if len(rows) == 0 {
		return nil
	}
	now := time.Now().UTC()
	err := db.derivedBatch(ctx, "disruption_signals", `url, kind, source, title, source_name, published_at, tone, port, chokepoint,
		language, country, recent, norm, alternative, alt_recent, alt_norm, fetched_at`,
		func(add func(...any) error) error {
			for _, d := range rows {
				if err := add(d.URL, d.Kind, d.Source, d.Title, d.SourceName, d.PublishedAt.UTC(), d.Tone, d.Port, d.Chokepoint,
					d.Language, d.Country, d.Recent, d.Norm, d.Alternative, d.AltRecent, d.AltNorm, now); err != nil {
					return err
				}
			}
			return nil
		})
	if err != nil {
		return fmt.Errorf("clickhouse: insert disruptions: %w", err)
	}
	return nil
}

// DisruptionTones returns the tone stored with each of the URLs that has
// one (the newest fetch of each; a URL stored without a tone is left out).
func (db *DB) DisruptionTones(ctx context.Context, urls []string) (map[string]float64, error) {
	out := map[string]float64{}
	if len(urls) == 0 {
		return out, nil
	}
	err := db.scanAll(ctx, "disruption tones", `SELECT url, tone FROM disruption_signals FINAL WHERE url IN (SELECT arrayJoin(?)) AND isNaN(tone) = 0`,
		[]any{urls}, func(rows interface{ Scan(...any) error }) error {
			var u string
			var tone float64
			if err := rows.Scan(&u, &tone); err != nil {
				return err
			}
			out[u] = tone
			return nil
		})
	return out, err
}

// WriteChokepointTransits rewrites the days (UTC midnights) of the daily
// transits: every (chokepoint, vessel type) pair of each day, zeros
// included, so that the newest computation of a day replaces all of it.
func (db *DB) WriteChokepointTransits(ctx context.Context, days []time.Time, counts []chokepoint.Count) error {
	type key struct {
		cp, typ string
		day     time.Time
	}
	n := map[key]int{}
	for _, c := range counts {
		n[key{c.Chokepoint, c.VesselType, dayOf(c.Day)}] += c.Transits
	}
	now := time.Now().UTC()
	err := db.derivedBatch(ctx, "chokepoint_transits_daily", "chokepoint, day, vessel_type, transits, computed_at",
		func(add func(...any) error) error {
			for _, d := range days {
				d = dayOf(d)
				for _, cp := range chokepoint.All() {
					for _, typ := range chokepoint.VesselTypes {
						if err := add(cp.Slug, d, typ, uint32(n[key{cp.Slug, typ, d}]), now); err != nil {
							return err
						}
					}
				}
			}
			return nil
		})
	if err != nil {
		return fmt.Errorf("clickhouse: write chokepoint transits: %w", err)
	}
	return nil
}

// ChokepointTransits implements read.DisruptionStore: the daily transits
// of the days from from to to (UTC dates, inclusive), zeros left out.
func (db *DB) ChokepointTransits(ctx context.Context, from, to time.Time) ([]chokepoint.Count, error) {
	var out []chokepoint.Count
	err := db.scanAll(ctx, "chokepoint transits", `SELECT chokepoint, day, vessel_type, transits FROM chokepoint_transits_daily FINAL
		WHERE day >= toDate(?) AND day <= toDate(?) AND transits > 0 ORDER BY chokepoint, day, vessel_type`,
		[]any{dayOf(from), dayOf(to)}, func(rows interface{ Scan(...any) error }) error {
			var c chokepoint.Count
			var n uint32
			if err := rows.Scan(&c.Chokepoint, &c.Day, &c.VesselType, &n); err != nil {
				return err
			}
			c.Transits = int(n)
			c.Day = c.Day.UTC()
			out = append(out, c)
			return nil
		})
	return out, err
}

// Disruptions implements read.DisruptionStore: the signals published at
// or after the request's time, newest first, whose title holds its query
// (case-insensitive).
func (db *DB) Disruptions(ctx context.Context, r read.DisruptionRequest) ([]chokepoint.Disruption, error) {
	var out []chokepoint.Disruption
	err := db.scanAll(ctx, "disruptions", `SELECT url, kind, source, title, source_name, published_at, tone, port, chokepoint,
			language, country, recent, norm, alternative, alt_recent, alt_norm
		FROM disruption_signals FINAL
		WHERE published_at >= ? AND (? = '' OR positionCaseInsensitiveUTF8(title, ?) > 0)
		ORDER BY published_at DESC, url LIMIT ?`,
		[]any{r.Since.UTC(), r.Query, r.Query, r.Limit}, func(rows interface{ Scan(...any) error }) error {
			var d chokepoint.Disruption
			if err := rows.Scan(&d.URL, &d.Kind, &d.Source, &d.Title, &d.SourceName, &d.PublishedAt, &d.Tone, &d.Port, &d.Chokepoint,
				&d.Language, &d.Country, &d.Recent, &d.Norm, &d.Alternative, &d.AltRecent, &d.AltNorm); err != nil {
				return err
			}
			out = append(out, d)
			return nil
		})
	return out, err
}

// DisruptionSources implements read.DisruptionStore.
func (db *DB) DisruptionSources(ctx context.Context) (read.DisruptionSources, error) {
	var s read.DisruptionSources
	err := db.conn.QueryRow(ctx, `SELECT
			(SELECT uniqExact(url) FROM disruption_signals WHERE source = 'gdelt'),
			(SELECT max(fetched_at) FROM disruption_signals WHERE source = 'gdelt'),
			(SELECT max(day) FROM chokepoint_transits_daily),
			(SELECT max(computed_at) FROM chokepoint_transits_daily)`).Scan(&s.NewsSignals, &s.NewsFetched, &s.TransitsNewest, &s.TransitsAt)
	if err != nil {
		return s, fmt.Errorf("clickhouse: disruption sources: %w", err)
	}
	if !s.NewsFetched.After(time.Unix(0, 0)) {
		s.NewsFetched = time.Time{}
	}
	if !s.TransitsNewest.After(time.Unix(0, 0)) {
		s.TransitsNewest, s.TransitsAt = time.Time{}, time.Time{}
	}
	s.TransitsNewest = s.TransitsNewest.UTC()
	return s, nil
}

// InsertPortWatch stores PortWatch's daily counts (the newest fetch of a
// chokepoint's day wins).
func (db *DB) InsertPortWatch(ctx context.Context, rows []chokepoint.PortWatchDay) error {
	if len(rows) == 0 {
		return nil
	}
	now := time.Now().UTC()
	err := db.derivedBatch(ctx, "portwatch_chokepoint_daily", "chokepoint, day, n_container, n_dry_bulk, n_general_cargo, n_roro, n_tanker, n_total, fetched_at",
		func(add func(...any) error) error {
			for _, r := range rows {
				if err := add(r.Chokepoint, dayOf(r.Day), uint32(r.Container), uint32(r.DryBulk), uint32(r.GeneralCargo), uint32(r.RoRo),
					uint32(r.Tanker), uint32(r.Total), now); err != nil {
					return err
				}
			}
			return nil
		})
	if err != nil {
		return fmt.Errorf("clickhouse: insert portwatch: %w", err)
	}
	return nil
}

// PortWatchLatest implements read.DisruptionStore: each chokepoint's
// newest PortWatch day.
func (db *DB) PortWatchLatest(ctx context.Context) ([]chokepoint.PortWatchDay, error) {
	var out []chokepoint.PortWatchDay
	err := db.scanAll(ctx, "portwatch latest", `SELECT chokepoint, day, n_container, n_dry_bulk, n_general_cargo, n_roro, n_tanker, n_total
		FROM portwatch_chokepoint_daily FINAL
		WHERE (chokepoint, day) IN (SELECT chokepoint, max(day) FROM portwatch_chokepoint_daily GROUP BY chokepoint)
		ORDER BY chokepoint`, nil, func(rows interface{ Scan(...any) error }) error {
		var d chokepoint.PortWatchDay
		var c, b, g, r, tk, tot uint32
		if err := rows.Scan(&d.Chokepoint, &d.Day, &c, &b, &g, &r, &tk, &tot); err != nil {
			return err
		}
		d.Day = d.Day.UTC()
		d.Container, d.DryBulk, d.GeneralCargo, d.RoRo, d.Tanker, d.Total = int(c), int(b), int(g), int(r), int(tk), int(tot)
		out = append(out, d)
		return nil
	})
	return out, err
}
