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

// TestReattributionsOfManyVessels: one batch claiming the orphans of
// several vessels, each under its own IMO and in its own range, one MMSI
// twice (two ranges, two IMOs: a sold vessel's MMSI), is written as sets
// and copies exactly what statements per vessel would; the days record
// the copied rows.
func TestReattributionsOfManyVessels(t *testing.T) {
	db := chtest.DB(t, "clickhouse_reattribute_many")
	fx := chtest.Open(t, chtest.URL(t, "clickhouse_reattribute_many"))
	ctx := context.Background()
	t0 := time.Date(2026, 2, 3, 10, 0, 0, 0, time.UTC)
	orphans := &ingest.Batch{}
	key := uint64(0)
	for v := range 5 {
		for h := range 6 { // hours 0..5 of each vessel, on two days for vessel 4
			ts := t0.Add(time.Duration(h) * time.Hour)
			if v == 4 {
				ts = t0.Add(time.Duration(h) * 6 * time.Hour)
			}
			key++
			orphans.Positions = append(orphans.Positions, ingest.PositionRow{MMSI: uint32(257000010 + v), Source: overwatch.SourceAISHub,
				TS: ts, Lat: 60, Lon: 5, ReceivedAt: ts, DedupKey: key, MsgType: 1, NavStatus: 15})
			orphans.InPort = append(orphans.InPort, ingest.PortPositionRow{Port: "rotterdam", Position: len(orphans.Positions) - 1})
		}
	}
	if err := db.WriteBatch(ctx, orphans); err != nil {
		t.Fatal(err)
	}
	since := time.Now().Add(-time.Minute).Truncate(time.Minute)
	hour := func(h int) time.Time { return t0.Add(time.Duration(h) * time.Hour) }
	claim := &ingest.Batch{Reattributions: []ingest.Reattribution{
		{MMSI: 257000010, IMO: 9000010, From: hour(0), To: hour(5)},   // all 6
		{MMSI: 257000011, IMO: 9000011, From: hour(2), To: hour(3)},   // 2
		{MMSI: 257000012, IMO: 9000012, From: hour(0), To: hour(1)},   // 2 ...
		{MMSI: 257000012, IMO: 9000112, From: hour(4), To: hour(5)},   // ... and 2 under the buyer's IMO
		{MMSI: 257000014, IMO: 9000014, From: hour(12), To: hour(30)}, // hours 12, 18, 24, 30: 2 on each day
	}}
	if err := db.WriteBatch(ctx, claim); err != nil {
		t.Fatal(err)
	}
	want := map[uint32]uint64{9000010: 6, 9000011: 2, 9000012: 2, 9000112: 2, 9000014: 4}
	for imo, n := range want {
		var got, inPort uint64
		if err := fx.QueryRow(t, "SELECT count() FROM positions FINAL WHERE imo = ?", imo).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if err := fx.QueryRow(t, "SELECT count() FROM port_positions FINAL WHERE imo = ?", imo).Scan(&inPort); err != nil {
			t.Fatal(err)
		}
		if got != n || inPort != n {
			t.Errorf("IMO %d: %d positions and %d port positions, want %d", imo, got, inPort, n)
		}
	}
	var copied uint64
	if err := fx.QueryRow(t, "SELECT count() FROM positions FINAL WHERE imo != 0").Scan(&copied); err != nil {
		t.Fatal(err)
	}
	if copied != 16 {
		t.Errorf("%d positions copied in all, want 16 (none of MMSI 257000013)", copied)
	}
	var days, rows uint64
	if err := fx.QueryRow(t, "SELECT uniqExact(day), sum(rows) FROM position_days WHERE ingested_at >= ?", since).Scan(&days, &rows); err != nil {
		t.Fatal(err)
	}
	if days != 2 || rows != 30+16 {
		t.Errorf("position_days since the orphans: %d days, %d rows; want 2 days, 46 rows (30 written, 16 copied)", days, rows)
	}
}
