package clickhouse

import (
	"context"
	"fmt"
	"time"

	"overwatch/write/ingest"
)

// The reattributions of a batch are written set-wise: one INSERT ... SELECT
// per table for up to maxReattributions vessels, each row of the SELECT
// finding its vessel's IMO and time range by its MMSI in bound arrays (in
// order: IMOs, MMSIs; then MMSIs, range starts, MMSIs, range ends, MMSIs,
// the ranges in Unix seconds, and the bounds of all the ranges, which prune
// by the sorting key). Statements per vessel cost 3 distributed round trips each
// (85 ms a vessel on the local cluster): a batch naming a few hundred
// vessels outlasted the write timeout under load, and its replay after an
// outage started again from the beginning, for a minute and more.
const (
	reattributedIMO = `arrayElement(CAST(? AS Array(UInt32)), indexOf(CAST(? AS Array(UInt32)), mmsi))`
	reattributedIn  = `imo = 0 AND has(CAST(? AS Array(UInt32)), mmsi)
	   AND toUInt32(ts) >= arrayElement(CAST(? AS Array(UInt32)), indexOf(CAST(? AS Array(UInt32)), mmsi))
	   AND toUInt32(ts) <= arrayElement(CAST(? AS Array(UInt32)), indexOf(CAST(? AS Array(UInt32)), mmsi))
	   AND ts >= ? AND ts <= ?`
)

// reattributeStatements copy the positions of the MMSIs stored without an
// IMO in their time ranges under the IMOs later static reports gave them,
// in the tables the derivations read, and record their days in
// position_days so that the derivations recompute them. The copies keep
// their dedup keys: a batch written twice collapses at merge. The first
// two take the IMO arrays before the range's; the last, the time the days
// were recorded.
var reattributeStatements = []string{
	`INSERT INTO positions (imo, mmsi, source, ts, lat, lon, speed_kt, course_deg, heading_deg, nav_status, draft_m, destination, msg_type, received_at, station, dedup_key)
	 SELECT ` + reattributedIMO + `, mmsi, source, ts, lat, lon, speed_kt, course_deg, heading_deg, nav_status, draft_m, destination, msg_type, received_at, station, dedup_key
	   FROM positions WHERE ` + reattributedIn,
	`INSERT INTO port_positions (port, ts, imo, mmsi, source, lat, lon, speed_kt, nav_status, draft_m, dedup_key)
	 SELECT port, ts, ` + reattributedIMO + `, mmsi, source, lat, lon, speed_kt, nav_status, draft_m, dedup_key
	   FROM port_positions WHERE ` + reattributedIn,
	`INSERT INTO position_days (ingested_at, day, rows)
	 SELECT toDateTime(?, 'UTC'), toDate(ts), count() FROM positions
	  WHERE ` + reattributedIn + ` GROUP BY toDate(ts)`,
}

// maxReattributions bounds the vessels of one statement (its text grows
// by about 100 bytes a vessel; ClickHouse's max_query_size is 256 KiB).
const maxReattributions = 500

// writeReattributions copies the orphaned positions of each
// reattribution under its IMO, a round of statements at a time.
func (db *DB) writeReattributions(ctx context.Context, b *ingest.Batch) error {
	now := time.Now().UTC().Truncate(time.Minute)
	for _, round := range reattributionRounds(b.Reattributions, maxReattributions) {
		var mmsis, imos, from, to []uint32
		lo, hi := round[0].From.UTC(), round[0].To.UTC()
		for _, r := range round {
			mmsis = append(mmsis, r.MMSI)
			imos = append(imos, uint32(r.IMO))
			from = append(from, uint32(r.From.Unix()))
			to = append(to, uint32(r.To.Unix()))
			lo, hi = earlier(lo, r.From.UTC()), later(hi, r.To.UTC())
		}
		in := []any{mmsis, from, mmsis, to, mmsis, lo.Truncate(time.Second), hi.Truncate(time.Second)}
		for i, stmt := range reattributeStatements {
			args := append([]any{imos, mmsis}, in...)
			if i == len(reattributeStatements)-1 {
				args = append([]any{now}, in...)
			}
			exec := db.execRetrying
			if i < 2 {
				exec = db.execOnShards // positions and port_positions: sharded by MMSI, which a copy keeps
			}
			if err := exec(ctx, stmt, args...); err != nil {
				return fmt.Errorf("%d vessels from MMSI %d: %w", len(round), round[0].MMSI, err)
			}
		}
	}
	return nil
}

// reattributionRounds splits rs, in order, into runs of at most max that
// name each MMSI once (a statement finds a row's range by its MMSI).
func reattributionRounds(rs []ingest.Reattribution, max int) [][]ingest.Reattribution {
	var rounds [][]ingest.Reattribution
	start, seen := 0, map[uint32]bool{}
	for i, r := range rs {
		if seen[r.MMSI] || i-start == max {
			rounds = append(rounds, rs[start:i])
			start, seen = i, map[uint32]bool{}
		}
		seen[r.MMSI] = true
	}
	if start < len(rs) {
		rounds = append(rounds, rs[start:])
	}
	return rounds
}

func earlier(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}
