package e2e

import (
	"context"
	"io"
	"math"
	"overwatch"
	"overwatch/app"
	"overwatch/apptest"
	"overwatch/clickhouse/chtest"
	"overwatch/maritime/risk"
	"overwatch/maritime/sanctions"
	"overwatch/postgres/pgtest"
	"overwatch/read"
	"overwatch/testclock"
	"overwatch/write"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// tradeFlowsAPI is the JSON of GET /v1/trade-flows, every view.
type tradeFlowsAPI struct {
	Flows         []read.TradeFlow           `json:"flows"`
	Discrepancies []read.TradeDiscrepancy    `json:"discrepancies"`
	Matches       []read.TradeSanctionsMatch `json:"matches"`
	MatchTypes    map[string]int             `json:"match_types"`
	Entities      []read.TradeEntity         `json:"entities"`
}

// GET /v1/trade-flows through the real server on the real Comtrade
// answers imported with `overwatch import trade`: the four views, the
// mirror pair checked by hand, filters by name, ISO3 and ISO2, the
// sanctions matches of the risk matcher, a vessel's graph (with P&I
// coverage the caller's account imported, unseen by another account)
// and 400s naming the parameter. s.do validates every answer against the
// OpenAPI document.
func TestTradeFlowsEndToEnd(t *testing.T) {
	t.Parallel() // its own databases
	chURL, pgURL := chtest.URL(t, "trade_e2e"), pgtest.URL(t, "trade_e2e")
	env := map[string]string{"CLICKHOUSE_URL": chURL, "DATABASE_URL": pgURL, "OVERWATCH_LOG_LEVEL": "warn"}
	files, err := filepath.Glob("../sources/comtrade/samples/*.json")
	if err != nil || len(files) != 4 {
		t.Fatalf("samples: %v %v", files, err)
	}
	out := &apptest.SyncWriter{}
	if err := app.Run(context.Background(), append([]string{"overwatch", "import", "trade"}, files...), apptest.ClockEnv(func(k string) string { return env[k] }), out, io.Discard); err != nil {
		t.Fatalf("import: %v\n%s", err, out)
	}
	if !strings.Contains(out.String(), "1 trade flows imported") {
		t.Errorf("import output:\n%s", out)
	}
	if err := app.Run(context.Background(), []string{"overwatch", "import", "trade", "../sources/comtrade/samples/README.md"}, apptest.ClockEnv(func(k string) string { return env[k] }), io.Discard, io.Discard); err == nil {
		t.Error("a README imported as trade data")
	}

	s := apptest.StartServer(t, map[string]string{"CLICKHOUSE_URL": chURL, "DATABASE_URL": pgURL})
	pro, proID := s.NewKey(t, apptest.UniqueEmail(t)+"-pro", overwatch.PlanPro)
	free, _ := s.NewKey(t, apptest.UniqueEmail(t)+"-free", overwatch.PlanFree)
	get := func(key, path string, status int) tradeFlowsAPI {
		t.Helper()
		resp := s.Do(t, apptest.Request{Path: path, IP: apptest.FreshIP(), Key: key})
		if resp.StatusCode != status {
			t.Fatalf("%s: %d %s, want %d", path, resp.StatusCode, resp.Body, status)
		}
		var m tradeFlowsAPI
		apptest.MustUnmarshal(t, resp.Body, &m)
		return m
	}

	// Flows: Brazil's soybean exports to China (the motCode 0 total only).
	for _, q := range []string{"exporter=brazil&importer=china", "exporter=BRA&importer=cn", "exporter=br&importer=CHN&view=flows"} {
		fl := get(pro, "/v1/trade-flows?"+q+"&commodity=soybeans&period=2024", 200).Flows
		if len(fl) != 2 { // Brazil's export row and China's import row
			t.Fatalf("%s: %+v %s", q, fl, s.Do(t, apptest.Request{Path: "/v1/trade-flows?exporter=brazil", IP: apptest.FreshIP(), Key: pro}).Body)
		}
	}
	fl := get(pro, "/v1/trade-flows?exporter=Brazil&commodity=soybeans&period=2024", 200).Flows
	var exp read.TradeFlow
	for _, f := range fl {
		if f.Flow == "export" {
			exp = f
		}
	}
	if exp.ExporterName != "Brazil" || exp.ImporterName != "China" || exp.NetWeightT == nil || *exp.NetWeightT != 72557710.367 ||
		exp.ValueUSD == nil || *exp.ValueUSD != 31499887711 || *exp.ValueBasis != "fob" || exp.HSCode != "1201" {
		t.Errorf("Brazil's export row %+v", exp)
	}
	if all := get(pro, "/v1/trade-flows", 200).Flows; len(all) != 8 {
		t.Errorf("%d flows, want 8", len(all))
	}
	if one := get(pro, "/v1/trade-flows?limit=1", 200).Flows; len(one) != 1 || one[0].Period != "2024" {
		t.Errorf("limit 1: %+v", one)
	}
	if got := get(free, "/v1/trade-flows?limit=1000", 200).Flows; len(got) == 0 {
		t.Error("free: no flows")
	}
	if meal := get(pro, "/v1/trade-flows?commodity=hs2304", 200).Flows; len(meal) != 1 || meal[0].Commodity != "soybean_meal" {
		t.Errorf("meal %+v", meal)
	}

	// Mirror, checked by hand from the two files: Brazil reports 72,557,710,367
	// kg exported, China 74,647,380,005 kg imported: (74647380.005 −
	// 72557710.367) / 72557710.367 = +2.88 %, consistent (≤ 5 %).
	ds := get(pro, "/v1/trade-flows?view=mirror&exporter=Brazil&importer=China&commodity=soybeans&period=2024", 200).Discrepancies
	if len(ds) != 1 {
		t.Fatalf("mirror %+v", ds)
	}
	d := ds[0]
	if d.ExporterName != "Brazil" || d.ImporterName != "China" || d.Commodity != "soybeans" || *d.ExportedMT != 72557710.367 ||
		*d.ImportedMT != 74647380.005 || math.Abs(*d.DiscrepancyPct-2.88) > 0.005 || d.Status != "consistent" {
		t.Errorf("mirror %+v", d)
	}
	// Brazil's meal and oil exports have no Chinese mirror in the files.
	ds = get(pro, "/v1/trade-flows?view=mirror&exporter=Brazil", 200).Discrepancies
	missing := 0
	for _, d := range ds {
		if d.Status == "one_side_missing" && d.ImportedMT == nil && d.DiscrepancyPct == nil {
			missing++
		}
	}
	if len(ds) != 3 || missing != 2 {
		t.Errorf("mirror of Brazil's exports %+v", ds)
	}

	// Sanctions and entity views.
	ctx := context.Background()
	a, b := overwatch.IMO(9321483), overwatch.IMO(9305609)
	s.Fx.Insert(t, "vessels", []string{"imo", "mmsi", "name", "flag", "ship_type"},
		[]any{uint32(a), uint32(636000001), "SHADOW A", "LR", uint8(80)}, []any{uint32(b), uint32(352000002), "BRAVO B", "PA", uint8(70)})
	s.Fx.Insert(t, "vessel_identity", []string{"imo", "valid_from", "mmsi", "name", "call_sign", "flag", "ship_type", "source"},
		[]any{uint32(a), time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), uint32(613000001), "OCEAN A", "", "CM", uint8(80), "aishub"},
		[]any{uint32(a), time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), uint32(636000001), "SHADOW A", "", "LR", uint8(80), "aishub"},
		[]any{uint32(b), time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), uint32(352000002), "BRAVO B", "", "PA", uint8(70), "aishub"})
	if err := s.Ch.ReplaceSanctions(ctx, "OFAC SDN", []sanctions.Entry{
		{ListSource: "OFAC SDN", EntryID: "1", Name: "SHADOW A", IMO: a, Program: "IRAN", Owner: "SHADOW HOLDINGS LTD"},
		{ListSource: "OFAC SDN", EntryID: "2", Name: "OTHER SHIP", MMSI: 352000002, Program: "RUSSIA-EO14024"},
	}); err != nil {
		t.Fatal(err)
	}
	sm := get(pro, "/v1/trade-flows?view=sanctions", 200)
	if len(sm.Matches) != 2 || sm.MatchTypes["direct_imo"] != 1 || sm.MatchTypes["mmsi"] != 1 || sm.MatchTypes["name"] != 0 ||
		sm.Matches[0].IMO != b.String() || sm.Matches[0].MatchType != "mmsi" || sm.Matches[1].EntryID != "1" {
		t.Errorf("sanctions %+v", sm)
	}

	arr := testclock.Now().UTC().Add(-72 * time.Hour).Truncate(time.Hour)
	dep := arr.Add(30 * time.Hour)
	s.Fx.InsertPortCalls(t, 1, chtest.PortCall{IMO: a, Port: "santos", Arrival: arr, Departure: &dep})
	s.Fx.RecordGeneration(t, "port_calls", arr.Truncate(24*time.Hour), 1)
	s.Fx.Insert(t, "risk_events", []string{"day", "gen", "type", "imo", "started_at"},
		[]any{arr.Truncate(24 * time.Hour), uint64(1), risk.EventGap, uint32(a), arr})
	s.Fx.RecordGeneration(t, "risk_events", arr.Truncate(24*time.Hour), 1)
	if err := s.Ch.WriteVesselRisk(ctx, 7, []risk.VesselScore{{IMO: a, Name: "SHADOW A", Flag: "LR", Score: 85, Tier: risk.TierCritical,
		ComputedAt: testclock.Now().UTC()}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Pg.ImportPICoverage(ctx, proID, []write.PICoverageRow{{Line: 2, IMO: a, ClubName: "Gard", ClubID: "gard", ClubKey: "gard",
		From: time.Date(2025, 2, 20, 0, 0, 0, 0, time.UTC)}}, "test upload"); err != nil {
		t.Fatal(err)
	}
	ents := get(pro, "/v1/trade-flows?view=entity&imo="+a.String(), 200).Entities
	if len(ents) != 1 {
		t.Fatalf("entity %+v", ents)
	}
	e := ents[0]
	if e.IMO != a.String() || e.VesselName != "SHADOW A" || e.PortName == nil || *e.PortName != "Santos" || !e.IsSanctioned ||
		e.PortsVisited[0].PortName == nil || *e.PortsVisited[0].PortName != "Santos" || e.Sanctions[0].SanctionedEntity != "SHADOW A" ||
		sm.Matches[1].SanctionedEntity != "SHADOW A" || sm.Matches[1].IMO != a.String() {
		t.Errorf("the specification's names: entity %+v, match %+v", e, sm.Matches[1])
	}
	if e.VesselName != "SHADOW A" || len(e.Owners) != 1 || e.Owners[0].Name != "SHADOW HOLDINGS LTD" || len(e.PortsVisited) != 1 ||
		e.PortsVisited[0].Port != "santos" || e.PortsVisited[0].Departure == nil || len(e.Sanctions) != 1 || e.Sanctions[0].MatchType != "direct_imo" ||
		e.DarkEventCount != 1 || e.RiskScore == nil || *e.RiskScore != 85 || len(e.Identities) != 2 || e.Identities[0].Flag != "CM" ||
		len(e.PICoverage) != 1 || e.PICoverage[0].Club != "Gard" {
		t.Errorf("entity %+v", e)
	}
	if other := get(free, "/v1/trade-flows?view=entity&imo="+a.String(), 200).Entities; len(other) != 1 || len(other[0].PICoverage) != 0 {
		t.Errorf("another account sees the coverage: %+v", other)
	}
	if none := get(pro, "/v1/trade-flows?view=entity&imo=9074729", 200).Entities; len(none) != 0 {
		t.Errorf("unknown vessel %+v", none)
	}
	// Without imo, the vessels most worth a look, by risk score: b, with
	// no call, sanction or coverage of its own, after a.
	if err := s.Ch.WriteVesselRisk(ctx, 8, []risk.VesselScore{{IMO: a, Name: "SHADOW A", Flag: "LR", Score: 85, Tier: risk.TierCritical,
		ComputedAt: testclock.Now().UTC()}, {IMO: b, Name: "BRAVO B", Flag: "PA", Score: 40, Tier: risk.TierMedium, ComputedAt: testclock.Now().UTC()}}); err != nil {
		t.Fatal(err)
	}
	listed := get(pro, "/v1/trade-flows?view=entity", 200).Entities
	if len(listed) != 2 || listed[0].IMO != a.String() || len(listed[0].PICoverage) != 1 || *listed[0].PortName != "Santos" ||
		listed[1].IMO != b.String() || listed[1].PortName != nil || !listed[1].IsSanctioned || *listed[1].RiskScore != 40 {
		t.Errorf("entities by risk %+v", listed)
	}
	if one := get(pro, "/v1/trade-flows?view=entity&limit=1", 200).Entities; len(one) != 1 || one[0].IMO != a.String() {
		t.Errorf("the riskiest entity %+v", one)
	}
	// A parameter the view does not use is a 400 naming it.
	for q, param := range map[string]string{"imo=" + a.String(): "imo", "view=mirror&imo=" + a.String(): "imo",
		"view=sanctions&exporter=Brazil": "exporter", "view=sanctions&imo=" + a.String(): "imo", "view=entity&period=2024": "period",
		"view=entity&commodity=soybeans": "commodity", "view=entity&importer=China": "importer"} {
		resp := s.Do(t, apptest.Request{Path: "/v1/trade-flows?" + q, IP: apptest.FreshIP(), Key: pro})
		if resp.StatusCode != 400 || !strings.Contains(string(resp.Body), `"parameter":"`+param+`"`) || !strings.Contains(string(resp.Body), "does not apply") {
			t.Errorf("%s: %d %s", q, resp.StatusCode, resp.Body)
		}
	}

	for q, param := range map[string]string{"view=graph": "view", "exporter=atlantis": "exporter", "importer=zz": "importer",
		"commodity=unobtainium": "commodity", "period=24": "period", "view=entity&imo=1234568": "imo", "limit=0": "limit"} {
		resp := s.Do(t, apptest.Request{Path: "/v1/trade-flows?" + q, IP: apptest.FreshIP(), Key: pro})
		if resp.StatusCode != 400 || !strings.Contains(string(resp.Body), param) {
			t.Errorf("%s: %d %s", q, resp.StatusCode, resp.Body)
		}
	}
	if resp := s.Do(t, apptest.Request{Path: "/v1/trade-flows", IP: apptest.FreshIP()}); resp.StatusCode != 401 {
		t.Errorf("no key: %d", resp.StatusCode)
	}
}
