package clickhouse_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"overwatch"
	"overwatch/clickhouse/chtest"
	"overwatch/maritime/risk"
	"overwatch/maritime/tradestats"
	"overwatch/read"
	"overwatch/sources/comtrade"
)

// The trade-flow store's query shapes on the local server: the real
// Comtrade files inserted twice (FINAL keeps one row each), the exporter
// and importer filters on both sides of the mirror, and the entity
// view's port visits and dark-event count.
func TestTradeFlowStore(t *testing.T) {
	db, fx := chtest.DB(t, "trade"), chtest.Open(t, chtest.URL(t, "trade"))
	ctx := context.Background()
	names, _ := filepath.Glob("../sources/comtrade/testdata/comtrade_v1_*.json")
	for _, n := range names {
		f, err := os.Open(n)
		if err != nil {
			t.Fatal(err)
		}
		flows, err := comtrade.Parse(f, filepath.Base(n))
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if err := db.InsertTradeFlows(ctx, flows); err != nil {
				t.Fatal(err)
			}
		}
	}
	bra, chn := 76, 156
	all, err := db.TradeFlows(ctx, read.TradeFlowsRequest{})
	if err != nil || len(all) != 8 { // 1 + 1 + 3 + 4 rows; the soybean row of two files is one row
		t.Fatalf("%d flows %v", len(all), err)
	}
	pair, err := db.TradeFlows(ctx, read.TradeFlowsRequest{Exporter: &bra, Importer: &chn, HSCode: "1201", Year: 2024})
	if err != nil || len(pair) != 2 {
		t.Fatalf("mirror pair %+v %v", pair, err)
	}
	ds := tradestats.Mirror(pair)
	if len(ds) != 1 || ds[0].ExportedT != 72557710.367 || ds[0].ImportedT != 74647380.005 || ds[0].Status != tradestats.MirrorConsistent {
		t.Errorf("%+v", ds)
	}
	if got, _ := db.TradeFlows(ctx, read.TradeFlowsRequest{Exporter: &chn, Limit: 1}); len(got) != 1 || got[0].ReporterName != "China" {
		t.Errorf("China's exports %+v", got)
	}
	if n, err := db.TradeFlowRows(ctx); err != nil || n == 0 {
		t.Errorf("rows %d %v", n, err)
	}

	arr := time.Date(2026, 3, 1, 6, 0, 0, 0, time.UTC)
	dep := arr.Add(30 * time.Hour)
	fx.InsertPortCalls(t, 1, chtest.PortCall{IMO: 9321483, Port: "santos", Arrival: arr, Departure: &dep},
		chtest.PortCall{IMO: 9321483, Port: "qingdao", Arrival: arr.Add(40 * 24 * time.Hour)})
	fx.RecordGeneration(t, "port_calls", arr.Truncate(24*time.Hour), 1)
	fx.RecordGeneration(t, "port_calls", arr.Add(40*24*time.Hour).Truncate(24*time.Hour), 1)
	fx.InsertPortCalls(t, 1, chtest.PortCall{IMO: 9305609, Port: "santos", Arrival: arr, Departure: &dep})
	all9, err := db.VesselPortVisits(ctx, []overwatch.IMO{9321483, 9305609, 9074729}, 10)
	visits := all9[9321483]
	if err != nil || len(visits) != 2 || visits[0].Port != "qingdao" || visits[0].Departure != "" || visits[1].Departure != dep.Format(time.RFC3339) {
		t.Errorf("visits %+v %v", visits, err)
	}
	if len(all9) != 2 || len(all9[9305609]) != 1 {
		t.Errorf("visits of three vessels %+v", all9)
	}
	if one, err := db.VesselPortVisits(ctx, []overwatch.IMO{9321483}, 1); err != nil || len(one[9321483]) != 1 || one[9321483][0].Port != "qingdao" {
		t.Errorf("the latest visit %+v %v", one, err)
	}
	fx.Insert(t, "risk_events", []string{"day", "gen", "type", "imo", "started_at"},
		[]any{arr.Truncate(24 * time.Hour), uint64(1), risk.EventGap, uint32(9321483), arr},
		[]any{arr.Truncate(24 * time.Hour), uint64(1), risk.EventSTS, uint32(9321483), arr})
	fx.RecordGeneration(t, "risk_events", arr.Truncate(24*time.Hour), 1)
	if n, err := db.DarkEventCounts(ctx, []overwatch.IMO{9321483, 9305609}); err != nil || len(n) != 1 || n[9321483] != 1 {
		t.Errorf("dark events %v %v", n, err)
	}
}
