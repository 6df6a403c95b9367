package clickhouse_test

import (
	"context"
	"testing"
	"time"

	"overwatch"
	"overwatch/clickhouse/chtest"
	"overwatch/write/ingest"
)

// TestReattribution: positions of an MMSI stored without an IMO are copied
// under the IMO a later static report gave it, in positions and
// port_positions, only those of that MMSI in the range; their days are
// recorded for the derivations; writing the batch twice changes nothing.
func TestReattribution(t *testing.T) {
	db := chtest.DB(t, "clickhouse_reattribute")
	fx := chtest.Open(t, chtest.URL(t, "clickhouse_reattribute"))
	ctx := context.Background()
	t0 := time.Date(2026, 2, 3, 10, 0, 0, 0, time.UTC)
	const mmsi, other = 257000001, 257000002
	imo := overwatch.IMO(9074729)
	pos := func(m uint32, ts time.Time, key uint64) ingest.PositionRow {
		return ingest.PositionRow{MMSI: m, Source: overwatch.SourceAISHub, TS: ts, Lat: 60, Lon: 5, ReceivedAt: ts, DedupKey: key, MsgType: 1, NavStatus: 15}
	}
	orphans := &ingest.Batch{
		Positions: []ingest.PositionRow{pos(mmsi, t0, 1), pos(mmsi, t0.Add(time.Hour), 2), pos(other, t0.Add(time.Hour), 3), pos(mmsi, t0.Add(48*time.Hour), 4)},
		InPort:    []ingest.PortPositionRow{{Port: "rotterdam", Position: 0}},
	}
	if err := db.WriteBatch(ctx, orphans); err != nil {
		t.Fatal(err)
	}
	since := time.Now().Add(-time.Minute)
	claim := &ingest.Batch{Reattributions: []ingest.Reattribution{{MMSI: mmsi, IMO: imo, From: t0, To: t0.Add(time.Hour)}}}
	for range 2 {
		if err := db.WriteBatch(ctx, claim); err != nil {
			t.Fatal(err)
		}
	}
	count := func(q string, args ...any) uint64 {
		var n uint64
		if err := fx.QueryRow(t, q, args...).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := count("SELECT count() FROM positions FINAL WHERE imo = ? AND mmsi = ?", uint32(imo), mmsi); n != 2 {
		t.Errorf("%d positions under the IMO, want the 2 in range", n)
	}
	if n := count("SELECT count() FROM positions FINAL WHERE imo = ?", uint32(imo)); n != 2 {
		t.Errorf("%d positions under the IMO in all, want 2 (not the other MMSI's)", n)
	}
	if n := count("SELECT count() FROM port_positions FINAL WHERE imo = ? AND port = 'rotterdam'", uint32(imo)); n != 1 {
		t.Errorf("%d port positions under the IMO, want 1", n)
	}
	day, ok, err := db.PositionDaysSince(ctx, since)
	if err != nil || !ok || !day.Equal(time.Date(2026, 2, 3, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("days changed: %v %v %v", day, ok, err)
	}
}
