package trade

import (
	"testing"
	"time"

	"overwatch"
)

func TestDeceptions(t *testing.T) {
	t.Parallel()
	dep := T0.Add(10 * time.Hour)
	arr := dep.Add(30 * 24 * time.Hour)
	h := func(hours float64) time.Time { return dep.Add(time.Duration(hours * float64(time.Hour))) }
	voy := func(n int, dest, declared string) Voyage {
		v := Voyage{IMO: imoOf(n), Name: "V", Origin: "santos", Destination: dest, Departure: dep, Arrival: arr, Declared: declared}
		v.DeclaredPort = declaredOf(declared)
		return v
	}
	until := func(d float64) float64 { return 30*24 - d } // hours after departure, d before arrival
	vs := []Voyage{
		voy(1, "qingdao", "QINGDAO"),        // 1: honest, no change
		voy(2, "rizhao", "QINGDAO"),         // 2: kept Qingdao until arriving at Rizhao
		voy(3, "rizhao", "RIZHAO"),          // 3: Qingdao, changed to Rizhao 5 days out: change of orders
		voy(4, "busan", "BUSAN"),            // 4: Qingdao, changed to Busan 5 days out: another country
		voy(5, "rizhao", "RIZHAO"),          // 5: Qingdao, changed to Rizhao 2 h out: kept until arrival
		voy(6, "rizhao", "FOR ORDERS"),      // 6: for orders: no port named
		voy(7, "dalian", "CN DLC"),          // 7: no history; calls say Tianjin, then Dalian
		voy(8, "qingdao", "SANTOS>QINGDAO"), // 8: the origin still declared on departure
		voy(9, "qingdao", "QINGDAO"),        // 9: Busan declared while calling there on the way
	}
	vs[8].Via = []string{"busan"}
	vs[6].DeclaredPort = "dalian"
	vs[6].EnRoute = []Declaration{{Text: "TIANJIN", Port: "tianjin", First: h(100), Last: h(100)}, {Text: "CN DLC", Port: "dalian", First: arr, Last: arr}}
	history := map[overwatch.IMO][]Declaration{
		imoOf(1): {{Text: "QINGDAO", First: h(-20), Last: arr}},
		imoOf(2): {{Text: "QINGDAO", First: h(1), Last: h(until(1))}},
		imoOf(3): {{Text: "RIZHAO", First: h(until(120)), Last: arr}, {Text: "QINGDAO", First: h(1), Last: h(until(121))}, {Text: "QINGDAO", First: h(-50), Last: h(-40)}},
		imoOf(4): {{Text: "QINGDAO", First: h(1), Last: h(until(121))}, {Text: "BUSAN", First: h(until(120)), Last: arr}},
		imoOf(5): {{Text: "QINGDAO", First: h(1), Last: h(until(3))}, {Text: "RIZHAO", First: h(until(2)), Last: arr}},
		imoOf(6): {{Text: "FOR ORDERS", First: h(1), Last: arr}},
		imoOf(8): {{Text: "SANTOS", First: h(-30), Last: h(2)}, {Text: "QINGDAO", First: h(3), Last: arr}},
		imoOf(9): {{Text: "BUSAN", First: h(1), Last: h(400)}, {Text: "QINGDAO", First: h(401), Last: arr}},
	}
	got := map[overwatch.IMO]Deception{}
	for _, d := range Deceptions(vs, history) {
		got[d.IMO] = d
	}
	if len(got) != 5 {
		t.Fatalf("%d deceptions, want 5: %+v", len(got), got)
	}
	for _, n := range []int{1, 6, 8, 9} {
		if d, ok := got[imoOf(n)]; ok {
			t.Errorf("voyage %d listed: %+v", n, d)
		}
	}
	d := got[imoOf(2)]
	if !d.Suspicious || d.Reason != ReasonKept || d.Declared != "QINGDAO" || d.DeclaredPort != "qingdao" || d.ActualPort != "rizhao" ||
		d.DestinationChanges != 0 || d.ChangesSource != SourcePositions || d.ChangedAt != nil || !d.SameCountry {
		t.Errorf("kept: %+v", d)
	}
	if d.DistanceKM < 80 || d.DistanceKM > 200 { // Qingdao–Rizhao, about 110 km
		t.Errorf("Qingdao–Rizhao %.0f km", d.DistanceKM)
	}
	d = got[imoOf(3)]
	if d.Suspicious || d.Reason != ReasonChangeOfOrders || d.Declared != "QINGDAO" || d.DestinationChanges != 1 ||
		d.ChangedAt == nil || !d.ChangedAt.Equal(h(until(120))) {
		t.Errorf("change of orders: %+v", d)
	}
	d = got[imoOf(4)]
	if !d.Suspicious || d.Reason != ReasonOtherCountry || d.SameCountry || d.DistanceKM < 500 {
		t.Errorf("other country: %+v", d)
	}
	if d := got[imoOf(5)]; !d.Suspicious || d.Reason != ReasonKept || d.DestinationChanges != 1 {
		t.Errorf("changed on arrival: %+v", d)
	}
	d = got[imoOf(7)]
	if d.Suspicious || d.Reason != ReasonChangeOfOrders || d.ChangesSource != SourceCalls || d.DestinationChanges != 1 || d.DeclaredPort != "tianjin" {
		t.Errorf("from the calls: %+v", d)
	}
}

func declaredOf(text string) string {
	switch text {
	case "QINGDAO", "SANTOS>QINGDAO":
		return "qingdao"
	case "RIZHAO":
		return "rizhao"
	case "BUSAN":
		return "busan"
	}
	return ""
}

// TestDeceptionsLeaveOutLiners: a container liner's voyage is never a
// deception, whatever it declared; the same voyage of a bulk carrier is.
func TestDeceptionsLeaveOutLiners(t *testing.T) {
	t.Parallel()
	dep := T0.Add(10 * time.Hour)
	v := Voyage{IMO: imoOf(1), Name: "V", Origin: "busan", Destination: "fremantle", Departure: dep, Arrival: dep.Add(20 * 24 * time.Hour),
		Declared: "ROTTERDAM", DeclaredPort: "rotterdam"}
	if d := Deceptions([]Voyage{v}, nil); len(d) != 1 || !d[0].Suspicious {
		t.Fatalf("a bulk carrier's voyage: %+v, want one suspicious row", d)
	}
	v.Liner = true
	history := map[overwatch.IMO][]Declaration{imoOf(1): {{Text: "ROTTERDAM", First: dep, Last: v.Arrival}}}
	if d := Deceptions([]Voyage{v}, history); len(d) != 0 {
		t.Errorf("a liner's voyage: %+v, want none", d)
	}
}
