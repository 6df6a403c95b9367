package clickhouse_test

import (
	"context"
	"testing"
	"time"

	"overwatch"

	"overwatch/clickhouse/chtest"
	"overwatch/jobs"
	"overwatch/maritime/trade"
	"overwatch/read"
)

// The trade-route store against the real server: the call span, the
// destination history from the positions, the job writing the three
// tables and the reads with their filters, a re-run replacing its
// windows.
func TestTradeRoutesStore(t *testing.T) {
	t.Parallel()
	db, fx := chtest.DB(t, "trade_routes"), chtest.Open(t, chtest.URL(t, "trade_routes"))
	ctx := context.Background()
	if _, last, err := db.CallSpan(ctx); err != nil || !last.IsZero() {
		t.Fatalf("empty span: %s %v", last, err)
	}
	base := time.Date(2025, 6, 2, 0, 0, 0, 0, time.UTC) // a Monday
	honest, deceiver, other := overwatch.IMO(9100001), overwatch.IMO(9100002), overwatch.IMO(9100003)
	h := func(hours float64) *time.Time { return at(base, hours) }
	calls := []chtest.PortCall{
		// Honest: Santos → Qingdao, 30 days, declared Qingdao.
		{IMO: honest, Port: "santos", Arrival: *h(0), Departure: h(40), BerthZone: "santos-berth-1", Confidence: 4,
			Operation: "load", CargoTonnes: 60000, ShipType: 70, Name: "HONEST"},
		{IMO: honest, Port: "qingdao", Arrival: *h(40 + 720), Departure: h(800), Confidence: 4, Operation: "discharge",
			Declared: "QINGDAO", DeclaredPort: "qingdao", ShipType: 70, Name: "HONEST"},
		// Deceiver: Santos → Rizhao, declaring Qingdao until arrival.
		{IMO: deceiver, Port: "santos", Arrival: *h(10), Departure: h(50), BerthZone: "santos-berth-2", Confidence: 3,
			Operation: "load", CargoTonnes: 40000, ShipType: 70, Name: "DECEIVER"},
		{IMO: deceiver, Port: "rizhao", Arrival: *h(50 + 700), Departure: h(790), Confidence: 3, Operation: "discharge",
			Declared: "QINGDAO", DeclaredPort: "qingdao", ShipType: 70, Name: "DECEIVER"},
		// Other: Santos → Qingdao, changed orders from Rizhao 5 days out.
		{IMO: other, Port: "santos", Arrival: *h(20), Departure: h(60), Confidence: 3, Operation: "load", CargoTonnes: 50000, ShipType: 70, Name: "OTHER"},
		{IMO: other, Port: "qingdao", Arrival: *h(60 + 700), Departure: h(800), Confidence: 3, Operation: "discharge",
			Declared: "QINGDAO", DeclaredPort: "qingdao", ShipType: 70, Name: "OTHER"},
	}
	insertCalls(t, fx, uint64(time.Now().UnixNano()), calls...)
	var positions [][]any
	pos := func(imo overwatch.IMO, hours float64, dest string) {
		positions = append(positions, []any{uint32(imo), at(base, hours).UTC(), -30.0, -20.0, dest, uint64(len(positions) + 1)})
	}
	for hr := 70.0; hr < 760; hr += 6 {
		dest := "RIZHAO"
		if hr >= 760-120 {
			dest = "QINGDAO"
		}
		pos(other, hr, dest)
	}
	fx.Insert(t, "positions", []string{"imo", "ts", "lat", "lon", "destination", "dedup_key"}, positions...)

	first, last, err := db.CallSpan(ctx)
	if err != nil || !first.Equal(base) || !last.Equal(*h(800)) {
		t.Fatalf("span %s .. %s, %v", first, last, err)
	}
	hist, err := db.DestinationHistory(ctx, base, *h(900))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(hist[other]); n < 29 || len(hist) != 1 {
		t.Fatalf("history: %d vessels, %d spans of %s", len(hist), n, other)
	}

	run := jobs.TradeRoutes(db)
	res, err := run(ctx, jobs.State{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.From.Equal(base) || !res.Watermark.Equal(last) || res.Rows != 4 { // 2 flows, 2 deceptions, no shifts
		t.Errorf("run: %+v", res)
	}
	flows, err := db.RouteFlows(ctx, read.FlowsRequest{Origin: "santos", Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(flows) != 2 || flows[0].Destination != "qingdao" || flows[0].Voyages != 2 || flows[0].Vessels != 2 ||
		flows[0].Tonnes != 110000 || !flows[0].Week.Equal(base) || flows[0].Commodity != "grain" || flows[1].Destination != "rizhao" {
		t.Fatalf("flows %+v", flows)
	}
	if f, _ := db.RouteFlows(ctx, read.FlowsRequest{Destination: "rizhao", Week: base, Limit: 10}); len(f) != 1 || f[0].Tonnes != 40000 {
		t.Errorf("flows to rizhao in the week: %+v", f)
	}
	if f, _ := db.RouteFlows(ctx, read.FlowsRequest{Week: base.AddDate(0, 0, 7), Limit: 10}); len(f) != 0 {
		t.Errorf("flows of another week: %+v", f)
	}
	if f, _ := db.RouteFlows(ctx, read.FlowsRequest{Commodity: "coal", Limit: 10}); len(f) != 0 {
		t.Errorf("coal flows: %+v", f)
	}
	decs, err := db.RouteDeceptions(ctx, read.DeceptionsRequest{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(decs) != 2 {
		t.Fatalf("deceptions %+v", decs)
	}
	got := map[overwatch.IMO]trade.Deception{}
	for _, d := range decs {
		got[d.IMO] = d
	}
	if d := got[deceiver]; !d.Suspicious || d.Reason != trade.ReasonKept || d.ActualPort != "rizhao" || d.DeclaredPort != "qingdao" || d.ChangesSource != trade.SourceCalls {
		t.Errorf("deceiver: %+v", d)
	}
	if d := got[other]; d.Suspicious || d.Reason != trade.ReasonChangeOfOrders || d.DestinationChanges != 1 || d.ChangesSource != trade.SourcePositions ||
		d.ChangedAt == nil || d.Declared != "RIZHAO" {
		t.Errorf("change of orders: %+v", d)
	}
	if d, _ := db.RouteDeceptions(ctx, read.DeceptionsRequest{Suspicious: "true", Limit: 10}); len(d) != 1 || d[0].IMO != deceiver {
		t.Errorf("suspicious: %+v", d)
	}
	if d, _ := db.RouteDeceptions(ctx, read.DeceptionsRequest{Suspicious: "false", ActualPort: "qingdao", IMO: other, Limit: 10}); len(d) != 1 {
		t.Errorf("not suspicious at qingdao: %+v", d)
	}
	if d, _ := db.RouteDeceptions(ctx, read.DeceptionsRequest{From: *h(755), Limit: 10}); len(d) != 1 || d[0].IMO != other {
		t.Errorf("arrived since: %+v", d)
	}

	// Shifts round-trip, arrays included; a re-run replaces them whole.
	shift := trade.Shift{AsOf: base, Origin: "santos", Commodity: "grain", Destination: "rizhao", BaselineShare: 0.1, CurrentShare: 0.6,
		Change: 0.5, Severity: trade.SeverityCritical, BaselineVoyages: 20, CurrentVoyages: 8, BaselineTonnes: 1e6, CurrentTonnes: 4e5,
		Started: base.AddDate(0, 0, -14), Gaining: []trade.Mover{{Port: "rizhao", Change: 0.5}}, Losing: []trade.Mover{{Port: "qingdao", Change: -0.5}}}
	mild := shift
	mild.Destination, mild.Change, mild.Severity = "qingdao", -0.2, trade.SeverityModerate
	if err := db.WriteRouteShifts(ctx, jobs.Generation(), []trade.Shift{mild, shift}); err != nil {
		t.Fatal(err)
	}
	shifts, err := db.RouteShifts(ctx, read.ShiftsRequest{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(shifts) != 2 || shifts[0].Destination != "rizhao" || shifts[0].Severity != trade.SeverityCritical || len(shifts[0].Losing) != 1 ||
		shifts[0].Losing[0].Port != "qingdao" || shifts[0].Losing[0].Change != -0.5 || !shifts[0].Started.Equal(shift.Started) || !shifts[0].AsOf.Equal(base) {
		t.Fatalf("shifts %+v", shifts)
	}
	if s, _ := db.RouteShifts(ctx, read.ShiftsRequest{Severity: trade.SeverityModerate, Origin: "santos", Commodity: "grain", Limit: 10}); len(s) != 1 || s[0].Destination != "qingdao" {
		t.Errorf("moderate: %+v", s)
	}
	if s, _ := db.RouteShifts(ctx, read.ShiftsRequest{From: base.AddDate(0, 0, 7), Limit: 10}); len(s) != 0 {
		t.Errorf("as of before the floor: %+v", s)
	}
	if _, err := run(ctx, jobs.State{Watermark: last, LastSuccess: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if s, _ := db.RouteShifts(ctx, read.ShiftsRequest{Limit: 10}); len(s) != 0 {
		t.Errorf("shifts after a re-run: %+v", s)
	}
	if f, _ := db.RouteFlows(ctx, read.FlowsRequest{Limit: 10}); len(f) != 2 {
		t.Errorf("flows after a re-run: %+v", f)
	}
}
