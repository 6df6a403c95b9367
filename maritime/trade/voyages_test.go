package trade

import (
	"math"
	"testing"
	"time"

	"overwatch"

	"overwatch/maritime/portcall"
	"overwatch/maritime/tracktest"
)

// T0 is a Monday, the start of the hand-built histories.
var T0 = time.Date(2025, 1, 6, 0, 0, 0, 0, time.UTC)

func approx(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// imoOf is a valid IMO number for vessel n of a test.
func imoOf(n int) overwatch.IMO {
	first6 := uint32(100000 + n)
	return overwatch.IMO(first6*10 + overwatch.IMOCheckDigit(first6))
}

// call is a published call of vessel imo at port from hour a to hour d
// after T0 (d < 0: still in port).
func call(imo int, port, op string, a, d float64, tonnes float64, berth, declared string) portcall.Call {
	c := portcall.Call{IMO: 0, Port: port, Arrival: tracktest.Hours(T0, a), Confidence: 3, Operation: op, CargoTonnes: tonnes,
		BerthZone: berth, Declared: declared, ShipType: 70, Name: "V"}
	c.IMO = imoOf(imo)
	if d >= 0 {
		c.Departure = tracktest.HoursPtr(T0, d)
	}
	return c
}

func TestBuildVoyages(t *testing.T) {
	t.Parallel()
	tanker := call(3, "ras-laffan", portcall.OpLoad, 0, 30, 70000, "ras-laffan-berth-1", "")
	tanker.ShipType = 84
	unpublished := call(4, "santos", portcall.OpLoad, 0, 20, 50000, "", "")
	unpublished.Confidence = 1
	calls := []portcall.Call{
		// Vessel 1: loads at Santos, bunkers at Rio Grande, discharges at
		// Qingdao 36 days after leaving Santos, then again at Dalian (no
		// second voyage: nothing loaded in between).
		call(1, "qingdao", portcall.OpDischarge, 900, 950, 0, "", "QINGDAO"),
		call(1, "santos", portcall.OpLoad, 0, 40, 60000, "santos-berth-1", "SANTOS"),
		call(1, "rio-grande", portcall.OpNone, 100, 110, 0, "", "FOR ORDERS"),
		call(1, "dalian", portcall.OpDischarge, 1000, 1040, 0, "", "DALIAN"),
		// Vessel 2: loads and discharges at the same port (no voyage), then
		// loads at Rosario and reaches Alexandria after 80 days (too late).
		call(2, "rosario", portcall.OpLoad, 0, 20, 30000, "", ""),
		call(2, "rosario", portcall.OpDischarge, 50, 60, 0, "", ""),
		call(2, "alexandria", portcall.OpDischarge, 20+80*24, 20+81*24, 0, "", ""),
		// Vessel 3: an LNG carrier to Zeebrugge, still in port (no voyage yet).
		tanker,
		call(3, "zeebrugge", portcall.OpDischarge, 400, -1, 0, "", ""),
		// Vessel 4: its loading call is not published.
		unpublished,
		call(4, "qingdao", portcall.OpDischarge, 800, 820, 0, "", ""),
		// Vessel 5: an LNG carrier that has left Zeebrugge.
		withShip(call(5, "ras-laffan", portcall.OpLoad, 0, 30, 70000, "ras-laffan-berth-1", ""), 84),
		call(5, "zeebrugge", portcall.OpDischarge, 400, 430, 0, "", "ZEEBRUGGE"),
	}
	vs := BuildVoyages(calls)
	if len(vs) != 2 {
		t.Fatalf("%d voyages, want 2: %+v", len(vs), vs)
	}
	v := vs[0]
	if v.IMO != imoOf(1) || v.Origin != "santos" || v.Destination != "qingdao" || v.Tonnes != 60000 || v.Commodity != "grain" {
		t.Errorf("voyage 1 = %+v", v)
	}
	if !approx(v.TransitDays, (900.0-40)/24, 1e-9) || !v.Departure.Equal(tracktest.Hours(T0, 40)) || !v.Arrival.Equal(tracktest.Hours(T0, 900)) {
		t.Errorf("voyage 1 times: %s → %s, %.3f days", v.Departure, v.Arrival, v.TransitDays)
	}
	if v.Declared != "QINGDAO" || v.DeclaredPort != "qingdao" || len(v.EnRoute) != 2 || v.EnRoute[0].Text != "FOR ORDERS" || v.EnRoute[1].Port != "qingdao" ||
		len(v.Via) != 1 || v.Via[0] != "rio-grande" {
		t.Errorf("voyage 1 declarations: %q %q %+v", v.Declared, v.DeclaredPort, v.EnRoute)
	}
	if !v.Week().Equal(T0) {
		t.Errorf("week %s, want %s", v.Week(), T0)
	}
	if w := vs[1]; w.IMO != imoOf(5) || w.Commodity != "lng" || w.Destination != "zeebrugge" {
		t.Errorf("voyage 2 = %+v", w)
	}
}

func withShip(c portcall.Call, st uint8) portcall.Call {
	c.ShipType = st
	return c
}

func TestCommodityOf(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		port, berth string
		ship        uint8
		want        string
	}{
		{"santos", "santos-berth-1", 70, "grain"},
		{"ras-laffan", "ras-laffan-berth-3", 80, "crude_oil"},
		{"ras-laffan", "", 84, "lng"},
		{"atlantis", "", 80, Unknown},
		{"tubarao", "tubarao-berth-2", 70, "coal"},
		{"tubarao", "", 70, "iron_ore"},
		{"sabine-pass", "sabine-pass-berth-1", 70, Unknown},
		{"atlantis", "", 70, Unknown},
	} {
		c := portcall.Call{Port: tc.port, BerthZone: tc.berth, ShipType: tc.ship}
		if got := CommodityOf(&c); got != tc.want {
			t.Errorf("%s %s type %d: %q, want %q", tc.port, tc.berth, tc.ship, got, tc.want)
		}
	}
}

// TestCommodityOfTankerSize: at a berth of crude oil and refined products,
// a tanker up to LR1 size loads products, a larger one (or one of unknown
// size) crude oil.
func TestCommodityOfTankerSize(t *testing.T) {
	t.Parallel()
	for dwt, want := range map[float64]string{0: "crude_oil", 45000: "refined_products", 79900: "refined_products", 80000: "crude_oil", 115000: "crude_oil"} {
		c := portcall.Call{Port: "novorossiysk", BerthZone: "novorossiysk-berth-2", ShipType: 80, DWTEstimate: dwt}
		if got := CommodityOf(&c); got != want {
			t.Errorf("tanker of %.0f t: %q, want %q", dwt, got, want)
		}
	}
	c := portcall.Call{Port: "novorossiysk", BerthZone: "novorossiysk-berth-1", ShipType: 70, DWTEstimate: 45000}
	if got := CommodityOf(&c); got != "grain" {
		t.Errorf("bulk carrier: %q, want grain", got)
	}
}

func TestFlows(t *testing.T) {
	t.Parallel()
	w1, w2 := T0, T0.AddDate(0, 0, 7)
	vs := []Voyage{
		{IMO: imoOf(1), Origin: "santos", Destination: "qingdao", Commodity: "grain", Departure: w1.Add(time.Hour), Tonnes: 60000, TransitDays: 30},
		{IMO: imoOf(2), Origin: "santos", Destination: "qingdao", Commodity: "grain", Departure: w1.Add(50 * time.Hour), Tonnes: 40000, TransitDays: 34},
		{IMO: imoOf(2), Origin: "santos", Destination: "qingdao", Commodity: "grain", Departure: w1.Add(100 * time.Hour), Tonnes: 10000, TransitDays: 40},
		{IMO: imoOf(3), Origin: "santos", Destination: "qingdao", Commodity: "oilseeds", Departure: w1.Add(100 * time.Hour), Tonnes: 5000, TransitDays: 41},
		{IMO: imoOf(4), Origin: "santos", Destination: "rotterdam", Commodity: "grain", Departure: w2.Add(time.Hour), Tonnes: 7000, TransitDays: 20},
		{IMO: imoOf(5), Origin: "santos", Destination: "rotterdam", Commodity: "grain", Departure: w2.AddDate(0, 0, 7), Tonnes: 1, TransitDays: 1},
	}
	fs := Flows(vs, []time.Time{w1, w2})
	if len(fs) != 3 {
		t.Fatalf("%d flows, want 3: %+v", len(fs), fs)
	}
	f := fs[0]
	if !f.Week.Equal(w1) || f.Commodity != "grain" || f.Vessels != 2 || f.Voyages != 3 || f.Tonnes != 110000 || f.MedianTransitDays != 34 {
		t.Errorf("flow 1 = %+v", f)
	}
	if f := fs[1]; f.Commodity != "oilseeds" || f.Voyages != 1 || f.MedianTransitDays != 41 {
		t.Errorf("flow 2 = %+v", f)
	}
	if f := fs[2]; !f.Week.Equal(w2) || f.Destination != "rotterdam" || f.Voyages != 1 || f.Tonnes != 7000 {
		t.Errorf("flow 3 = %+v", f)
	}
}

// TestBuildVoyagesLiner: a vessel that berths at a container-only terminal
// is a liner, all its voyages too (also those loaded at a mixed or
// unknown berth); a bulk carrier's voyage from a mixed terminal, and a
// tanker's, are not.
func TestBuildVoyagesLiner(t *testing.T) {
	t.Parallel()
	tanker := func(c portcall.Call) portcall.Call { c.ShipType = 80; return c }
	calls := []portcall.Call{
		// Vessel 1: a liner, loading at Fremantle's grain berth (its
		// container terminal is fremantle-berth-1) and at Busan's container terminal.
		call(1, "fremantle", portcall.OpLoad, 0, 20, 30000, "fremantle-berth-2", ""),
		call(1, "busan", portcall.OpDischarge, 300, 320, 0, "busan-berth-1", ""),
		call(1, "busan", portcall.OpLoad, 330, 340, 0, "busan-berth-1", ""),
		call(1, "rotterdam", portcall.OpDischarge, 900, 920, 0, "", ""),
		// Vessel 2: a bulk carrier, Fremantle's grain berth to Jakarta's grain berth.
		call(2, "fremantle", portcall.OpLoad, 0, 20, 30000, "fremantle-berth-2", ""),
		call(2, "jakarta", portcall.OpDischarge, 300, 320, 0, "jakarta-berth-1", ""),
		// Vessel 3: a product tanker at Busan's products berth.
		tanker(call(3, "busan", portcall.OpLoad, 0, 20, 30000, "busan-berth-3", "")),
		tanker(call(3, "jakarta", portcall.OpDischarge, 300, 320, 0, "jakarta-berth-3", "")),
	}
	liner := map[overwatch.IMO][]bool{}
	for _, v := range BuildVoyages(calls) {
		liner[v.IMO] = append(liner[v.IMO], v.Liner)
		if v.Liner != (v.Commodity == overwatch.CommodityContainers) {
			t.Errorf("vessel %d: liner %v carries %q", v.IMO, v.Liner, v.Commodity)
		}
	}
	for n, want := range map[int][]bool{1: {true, true}, 2: {false}, 3: {false}} {
		got := liner[imoOf(n)]
		if len(got) != len(want) {
			t.Errorf("vessel %d: voyages %v, want %v", n, got, want)
			continue
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("vessel %d: liner %v, want %v", n, got, want)
			}
		}
	}
}

// A loading call whose crew updated the draught only at sea shows no
// draught change; the deeper draught on arrival at the next discharging
// port makes it the voyage's origin, with the discharge's tonnes.
func TestBuildVoyagesLateDraught(t *testing.T) {
	t.Parallel()
	withDraught := func(c portcall.Call, before, after float64) portcall.Call {
		c.DraftBefore, c.DraftAfter = before, after
		return c
	}
	calls := []portcall.Call{
		withDraught(call(1, "tubarao", portcall.OpNone, 0, 40, 0, "tubarao-berth-1", ""), 6.8, 6.8),
		withDraught(call(1, "qingdao", portcall.OpDischarge, 900, 950, 150000, "", "QINGDAO"), 17.0, 7.0),
		// Vessel 2: the same draught out of Tubarão and into Qingdao: the
		// discharge tells nothing of where the cargo came from.
		withDraught(call(2, "tubarao", portcall.OpNone, 0, 40, 0, "tubarao-berth-1", ""), 17.0, 17.0),
		withDraught(call(2, "qingdao", portcall.OpDischarge, 900, 950, 150000, "", ""), 17.0, 7.0),
		// Vessel 3: a loading call pairs with the discharge already; its
		// bunkering stop is no discharge (0.3 m of fuel burnt to Qingdao).
		withDraught(call(3, "santos", portcall.OpLoad, 0, 40, 60000, "santos-berth-1", ""), 6.0, 12.0),
		withDraught(call(3, "rio-grande", portcall.OpNone, 100, 110, 0, "", ""), 11.9, 11.9),
		withDraught(call(3, "qingdao", portcall.OpDischarge, 900, 950, 61000, "", ""), 11.6, 6.0),
		// Vessel 4: its discharge at Qingdao showed no change; it arrives at
		// Santos 6 m lighter: the cargo went ashore at Qingdao.
		withDraught(call(4, "santos", portcall.OpLoad, 0, 40, 60000, "santos-berth-1", ""), 6.0, 12.0),
		withDraught(call(4, "qingdao", portcall.OpNone, 900, 950, 0, "", ""), 12.0, 12.0),
		withDraught(call(4, "santos", portcall.OpNone, 1500, 1550, 0, "", ""), 6.1, 6.1),
	}
	vs := BuildVoyages(calls)
	if len(vs) != 3 {
		t.Fatalf("%d voyages, want 3: %+v", len(vs), vs)
	}
	if w := vs[2]; w.IMO != imoOf(4) || w.Origin != "santos" || w.Destination != "qingdao" || w.Tonnes != 60000 || !w.LateDraught {
		t.Errorf("late-discharge voyage = %+v", w)
	}
	v := vs[0]
	if v.IMO != imoOf(1) || v.Origin != "tubarao" || v.Destination != "qingdao" || v.Tonnes != 150000 || v.Commodity != "iron_ore" ||
		!v.LateDraught || !v.Departure.Equal(tracktest.Hours(T0, 40)) || v.DeclaredPort != "qingdao" {
		t.Errorf("late-draught voyage = %+v", v)
	}
	if w := vs[1]; w.IMO != imoOf(3) || w.Origin != "santos" || w.Destination != "qingdao" || w.LateDraught {
		t.Errorf("voyage 2 = %+v", w)
	}
}
