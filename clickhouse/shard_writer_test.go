package clickhouse_test

import (
	"context"
	"testing"
	"time"

	"overwatch"
	"overwatch/clickhouse/chtest"
	"overwatch/write/ingest"
)

// In cluster mode the ingest writes each shard's local table directly
// (shard_writer.go) while other inserts go through the Distributed tables:
// both must put a key's rows on the same shard, and a batch written twice
// must be stored once.
func TestShardWriterLandsWhereTheDistributedTableDoes(t *testing.T) {
	if chtest.Cluster() == "" {
		t.Skip("cluster mode only (make test-cluster)")
	}
	ctx := context.Background()
	db := chtest.DB(t, "shard_writer")
	ts := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

	// Expected rows per shard from the Go sharding, for the MMSIs (or IMOs) given.
	expect := func(table string, keys []uint32) []uint64 {
		t.Helper()
		var out []uint64
		for _, k := range keys {
			s, err := db.ShardOf(ctx, table, k)
			if err != nil {
				t.Fatal(err)
			}
			for len(out) < s {
				out = append(out, 0)
			}
			out[s-1]++
		}
		return out
	}
	counts := func(table string) []uint64 {
		t.Helper()
		c, err := db.ShardCounts(ctx, table)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	same := func(what string, got, want []uint64) {
		t.Helper()
		for len(want) < len(got) {
			want = append(want, 0)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%s: %v rows per shard, want %v", what, got, want)
			}
		}
	}

	// The direct path: 300 vessels, a third without an IMO.
	b := &ingest.Batch{}
	var mmsis, imos []uint32
	for i := 0; i < 300; i++ {
		mmsi := uint32(211000000 + i*7919)
		imo := overwatch.IMO(0)
		if i%3 != 0 {
			imo = overwatch.IMO(9100000 + i*13)
			imos = append(imos, uint32(imo))
			lat, lon := 54.0, 8.0
			b.Latest = append(b.Latest, overwatch.LatestRow{IMO: imo, Source: overwatch.SourceAISHub, TS: ts, MMSI: mmsi, Lat: &lat, Lon: &lon, ReceivedAt: ts})
		}
		mmsis = append(mmsis, mmsi)
		b.Positions = append(b.Positions, ingest.PositionRow{IMO: imo, MMSI: mmsi, Source: overwatch.SourceAISHub, TS: ts,
			Lat: 54, Lon: 8, MsgType: 1, ReceivedAt: ts, DedupKey: uint64(i) + 1})
	}
	if err := db.WriteBatch(ctx, b); err != nil {
		t.Fatal(err)
	}
	direct := counts("positions")
	if len(direct) < 2 || direct[0] == 0 || direct[1] == 0 {
		t.Fatalf("300 vessels on the shards as %v", direct)
	}
	same("positions written directly", direct, expect("positions", mmsis))
	same("latest rows written directly", counts("latest_positions"), expect("latest_positions", imos))

	// The same batch again (a retry, or the spool's replay): every
	// shard's block is dropped by its block deduplication.
	if err := db.WriteBatch(ctx, b); err != nil {
		t.Fatal(err)
	}
	same("positions after the batch was written twice", counts("positions"), direct)

	// Through the Distributed table: 300 other MMSIs.
	if err := db.Exec(ctx, `INSERT INTO positions (imo, mmsi, source, ts, lat, lon, nav_status, destination, msg_type, received_at, dedup_key)
		SELECT 0, toUInt32(311000000 + number * 104729), 'aishub', toDateTime(?, 'UTC'), 0, 0, 0, '', 1, toDateTime(?, 'UTC'), number + 1000
		FROM system.numbers LIMIT 300`, ts, ts); err != nil {
		t.Fatal(err)
	}
	var through []uint32
	for i := 0; i < 300; i++ {
		through = append(through, uint32(311000000+i*104729))
	}
	all := counts("positions")
	want := expect("positions", through)
	for i := range want {
		want[i] += direct[i]
	}
	same("positions after 300 more through the Distributed table", all, want)
}
