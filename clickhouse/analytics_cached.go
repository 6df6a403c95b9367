package clickhouse

import (
	"context"
	"fmt"
	"time"

	"overwatch/read"
)

// The analytics reads, through the read cache (readcache.go). Each cuts
// its times to the minute, so that calls within a minute share an answer.

// CongestionNow implements read.CongestionQuery.
func (db *DB) CongestionNow(ctx context.Context, f read.CongestionFilter) ([]read.CongestionLiveRow, error) {
	f.Now, f.Since = minute(f.Now), minute(f.Since)
	return cached(ctx, db, fmt.Sprintf("congestionNow|%v|%s|%d|%d", f.Ports, f.Category, f.Now.Unix(), f.Since.Unix()), sliceLen,
		func() ([]read.CongestionLiveRow, error) { return db.congestionNow(ctx, f) })
}

// CongestionBaseline implements read.CongestionQuery.
func (db *DB) CongestionBaseline(ctx context.Context, ports []string, vesselType string, from, to time.Time) ([]read.CongestionBaselineRow, error) {
	from, to = minute(from), minute(to)
	return cached(ctx, db, fmt.Sprintf("congestionBaseline|%v|%s|%d|%d", ports, vesselType, from.Unix(), to.Unix()), sliceLen,
		func() ([]read.CongestionBaselineRow, error) {
			return db.congestionBaseline(ctx, ports, vesselType, from, to)
		})
}

// CongestionHistory implements read.CongestionHistoryQuery.
func (db *DB) CongestionHistory(ctx context.Context, port, vesselType string, from, to time.Time) ([]read.CongestionDayRow, error) {
	from, to = minute(from), minute(to)
	return cached(ctx, db, fmt.Sprintf("congestionHistory|%s|%s|%d|%d", port, vesselType, from.Unix(), to.Unix()), sliceLen,
		func() ([]read.CongestionDayRow, error) { return db.congestionHistory(ctx, port, vesselType, from, to) })
}

// BerthUsage implements read.BerthUsageQuery.
func (db *DB) BerthUsage(ctx context.Context, ports []string, from, to time.Time) ([]read.BerthUsageRow, error) {
	from, to = minute(from), minute(to)
	return cached(ctx, db, fmt.Sprintf("berthUsage|%v|%d|%d", ports, from.Unix(), to.Unix()), sliceLen,
		func() ([]read.BerthUsageRow, error) { return db.berthUsage(ctx, ports, from, to) })
}

// BerthWeeks implements read.BerthWeeklyQuery.
func (db *DB) BerthWeeks(ctx context.Context, port, zoneID string, from time.Time) ([]read.BerthWeekRow, error) {
	from = minute(from)
	return cached(ctx, db, fmt.Sprintf("berthWeeks|%s|%s|%d", port, zoneID, from.Unix()), sliceLen,
		func() ([]read.BerthWeekRow, error) { return db.berthWeeks(ctx, port, zoneID, from) })
}

// FleetAge implements read.FleetAgeQuery.
func (db *DB) FleetAge(ctx context.Context, f read.FleetAgeFilter) ([]read.FleetAgeBucketRow, error) {
	f.From, f.To = minute(f.From), minute(f.To)
	return cached(ctx, db, fmt.Sprintf("fleetAge|%v|%s|%d|%d|%d", f.Ports, f.Category, f.From.Unix(), f.To.Unix(), f.Year), sliceLen,
		func() ([]read.FleetAgeBucketRow, error) { return db.fleetAge(ctx, f) })
}

// FleetAgeHistory implements read.FleetAgeHistoryQuery.
func (db *DB) FleetAgeHistory(ctx context.Context, port, vesselType string, from time.Time) ([]read.FleetAgeBucketRow, error) {
	from = minute(from)
	return cached(ctx, db, fmt.Sprintf("fleetAgeHistory|%s|%s|%d", port, vesselType, from.Unix()), sliceLen,
		func() ([]read.FleetAgeBucketRow, error) { return db.fleetAgeHistory(ctx, port, vesselType, from) })
}

// Estimates implements read.EstimateQuery.
func (db *DB) Estimates(ctx context.Context, f read.EstimateFilter) ([]read.EstimateRow, error) {
	f.From = minute(f.From)
	return cached(ctx, db, fmt.Sprintf("estimates|%s|%d|%d", f.Port, f.Limit, f.From.Unix()), sliceLen,
		func() ([]read.EstimateRow, error) { return db.estimates(ctx, f) })
}

// DestinationReliability implements read.ReliabilityQuery.
func (db *DB) DestinationReliability(ctx context.Context, f read.ReliabilityFilter) ([]read.ReliabilityRow, error) {
	f.Since = minute(f.Since)
	return cached(ctx, db, fmt.Sprintf("reliability|%d|%s|%d|%d", f.IMO, f.Tier, f.Limit, f.Since.Unix()), sliceLen,
		func() ([]read.ReliabilityRow, error) { return db.destinationReliability(ctx, f) })
}

// ExportVisits implements read.ExportQuery: the rows come from the cache
// (or ClickHouse); the same slice until the data changes.
func (db *DB) ExportVisits(ctx context.Context, f read.ExportFilter) ([]read.VisitRow, error) {
	f.Since = minute(f.Since)
	return cached(ctx, db, fmt.Sprintf("exportVisits|%s|%d|%d", f.Port, f.Limit, f.Since.Unix()), sliceLen,
		func() ([]read.VisitRow, error) {
			var out []read.VisitRow
			err := db.exportVisits(ctx, f, func(r read.VisitRow) error { out = append(out, r); return nil })
			return out, err
		})
}

// ExportEstimates implements read.ExportQuery.
func (db *DB) ExportEstimates(ctx context.Context, f read.ExportFilter) ([]read.EstimateRow, error) {
	f.Since = minute(f.Since)
	return cached(ctx, db, fmt.Sprintf("exportEstimates|%s|%d|%d", f.Port, f.Limit, f.Since.Unix()), sliceLen,
		func() ([]read.EstimateRow, error) {
			var out []read.EstimateRow
			err := db.exportEstimates(ctx, f, func(r read.EstimateRow) error { out = append(out, r); return nil })
			return out, err
		})
}
