package clickhouse_test

import (
	"context"
	"testing"
	"time"

	"overwatch"
	"overwatch/clickhouse/chtest"
	"overwatch/write/ingest"
)

// BenchmarkWriteReattributions: one batch naming 200 vessels whose
// positions were stored without an IMO (10 each), as a feed's first
// static reports do after its positions: the cost of claiming them.
func BenchmarkWriteReattributions(b *testing.B) {
	db := chtest.DB(b, "clickhouse_reattribute_bench")
	ctx := context.Background()
	t0 := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	const vessels, each = 200, 10
	orphans := &ingest.Batch{}
	claim := &ingest.Batch{}
	for v := range vessels {
		mmsi := uint32(257100000 + v)
		for i := range each {
			ts := t0.Add(time.Duration(i) * time.Minute)
			orphans.Positions = append(orphans.Positions, ingest.PositionRow{MMSI: mmsi, Source: overwatch.SourceAISHub, TS: ts,
				Lat: 60, Lon: 5, ReceivedAt: ts, DedupKey: uint64(v*each + i + 1), MsgType: 1, NavStatus: 15})
		}
		claim.Reattributions = append(claim.Reattributions, ingest.Reattribution{MMSI: mmsi, IMO: overwatch.IMO(9000000 + v), From: t0, To: t0.Add(time.Hour)})
	}
	if err := db.WriteBatch(ctx, orphans); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if err := db.WriteBatch(ctx, claim); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N)/vessels, "ms/vessel")
}
