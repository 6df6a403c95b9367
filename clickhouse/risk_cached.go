package clickhouse

import (
	"context"
	"fmt"
	"time"

	"overwatch"

	"overwatch/read"
)

// The /risk reads, through the read cache (readcache.go), times cut to the
// minute. The identity timeline reads vessel_identity, which ingest (not a
// derivation) writes: a new identity row shows within ReadCacheTTL.

// RiskEventRows implements read.RiskEventQuery.
func (db *DB) RiskEventRows(ctx context.Context, f read.RiskEventFilter) ([]read.RiskEventRow, error) {
	f.Since = minute(f.Since)
	key := fmt.Sprintf("riskEvents|%v|%s|%s|%d|%t|%t|%s|%s|%s|%d|%d", f.Types, f.Subtype, f.Severity, f.IMO, f.EitherVessel,
		f.OngoingOnly, f.Port, f.Confidence, f.Context, f.Since.Unix(), f.Limit)
	return cached(ctx, db, key, sliceLen, func() ([]read.RiskEventRow, error) { return db.riskEventRows(ctx, f) })
}

// RiskStats implements read.RiskStatsQuery.
func (db *DB) RiskStats(ctx context.Context, now, since time.Time) (read.RiskStatsRow, error) {
	now, since = minute(now), minute(since)
	return cached(ctx, db, fmt.Sprintf("riskStats|%d|%d", now.Unix(), since.Unix()), one[read.RiskStatsRow],
		func() (read.RiskStatsRow, error) { return db.riskStats(ctx, now, since) })
}

// STSStats implements read.STSStatsQuery.
func (db *DB) STSStats(ctx context.Context, since time.Time) (read.STSStatsRow, error) {
	since = minute(since)
	return cached(ctx, db, fmt.Sprintf("stsStats|%d", since.Unix()), one[read.STSStatsRow],
		func() (read.STSStatsRow, error) { return db.stsStats(ctx, since) })
}

// VesselRisks implements read.VesselRiskQuery.
func (db *DB) VesselRisks(ctx context.Context, f read.VesselRiskFilter) ([]read.VesselRiskRow, error) {
	return cached(ctx, db, fmt.Sprintf("vesselRisks|%d|%s|%s|%s|%d", f.IMO, f.Tier, f.Category, f.Flag, f.Limit), sliceLen,
		func() ([]read.VesselRiskRow, error) { return db.vesselRisks(ctx, f) })
}

// RiskHotspots implements read.HotspotQuery.
func (db *DB) RiskHotspots(ctx context.Context, f read.HotspotFilter) ([]read.HotspotRow, error) {
	f.Since = minute(f.Since)
	return cached(ctx, db, fmt.Sprintf("riskHotspots|%t|%d|%d", f.ActiveOnly, f.Since.Unix(), f.Limit), sliceLen,
		func() ([]read.HotspotRow, error) { return db.riskHotspots(ctx, f) })
}

// RiskBaselines implements read.BaselineQuery.
func (db *DB) RiskBaselines(ctx context.Context) ([]read.BaselineRow, error) {
	return cached(ctx, db, "riskBaselines", sliceLen, func() ([]read.BaselineRow, error) { return db.riskBaselines(ctx) })
}

// IdentityTimeline implements read.IdentityTimelineQuery.
func (db *DB) IdentityTimeline(ctx context.Context, imo overwatch.IMO) ([]read.IdentityRow, error) {
	return cached(ctx, db, fmt.Sprintf("identityTimeline|%d", imo), sliceLen,
		func() ([]read.IdentityRow, error) { return db.identityTimeline(ctx, imo) })
}

// one is the size of a one-row answer.
func one[T any](T) int { return 1 }
