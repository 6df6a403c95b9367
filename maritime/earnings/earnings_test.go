package earnings

import (
	"encoding/json"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"overwatch/maritime/sealane"
)

// testRates reads the two real AgTransport ocean datasets of testdata as
// RateObs the way transport_rates holds them (Socrata: every value a
// string).
func testRates(t *testing.T) []RateObs {
	t.Helper()
	var out []RateObs
	var japan []map[string]string
	readJSON(t, "testdata/agtransport_ehs5-yac3_ocean_grain_rates_gulf_pnw_japan_monthly.json", &japan)
	for _, r := range japan {
		d := parseDate(t, r["date"])
		for _, x := range []struct{ col, origin string }{{"gulf_to_japan", "U.S. Gulf"}, {"pnw_to_japan", "Pacific Northwest"}} {
			v, err := strconv.ParseFloat(r[x.col], 64)
			if err != nil {
				t.Fatalf("%s: %v", x.col, err)
			}
			out = append(out, RateObs{Dataset: "ehs5-yac3", Origin: x.origin, Destination: "Japan", Commodity: "grain", Date: d, USDPerTonne: v})
		}
	}
	var black []map[string]string
	readJSON(t, "testdata/agtransport_2n8s-739j_ukraine_black_sea_ocean_grain_rates_quarterly.json", &black)
	for _, r := range black {
		v, err := strconv.ParseFloat(r["rate"], 64)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, RateObs{Dataset: "2n8s-739j", Origin: r["origin"], Destination: r["destination"], VesselSize: r["vessel_size"],
			Commodity: strings.ToLower(r["commodity"]), Date: parseDate(t, r["quarter_ending_date"]), USDPerTonne: v})
	}
	if len(out) != 120 {
		t.Fatalf("read %d rates, want 80 + 40", len(out))
	}
	return out
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

func parseDate(t *testing.T, s string) time.Time {
	t.Helper()
	d, err := time.Parse("2006-01-02T15:04:05.000", s)
	if err != nil {
		t.Fatal(err)
	}
	return d.UTC()
}

// The distance model against the dataset rates it was fitted on, at
// their lanes' sea-lane distances and published sizes: the median error
// within 12 %, the 90th percentile within ModelUncertainty.
func TestModelRateAgainstDatasets(t *testing.T) {
	lanes := map[string][2]string{"U.S. Gulf|Japan": {"new-orleans", "chiba"}, "Pacific Northwest|Japan": {"seattle", "chiba"},
		"Odesa|Alexandria,Egypt": {"odesa", "alexandria"}, "Constanta|Alexandria,Egypt": {"constanta", "alexandria"},
		"Odesa|Ciwandan/Cigading,Indonesia": {"odesa", "jakarta"}, "Odesa|Southern ports, China": {"odesa", "qingdao"}}
	var errs []float64
	for _, r := range testRates(t) {
		l, ok := lanes[r.Origin+"|"+r.Destination]
		if !ok {
			continue
		}
		nm, err := sealane.DistanceNM(l[0], l[1])
		if err != nil {
			t.Fatal(err)
		}
		dwt := sizeMid(r.VesselSize)
		if dwt == 0 {
			dwt = ModelRefDWT
		}
		m := ModelRate(nm, dwt).USDPerTonne.Central
		errs = append(errs, math.Abs(m-r.USDPerTonne)/r.USDPerTonne)
	}
	sort.Float64s(errs)
	med, p90 := errs[len(errs)/2], errs[len(errs)*9/10]
	t.Logf("distance model against %d dataset rates: median error %.1f %%, p90 %.1f %%", len(errs), med*100, p90*100)
	if len(errs) != 100 || med > 0.12 || p90 > ModelUncertainty {
		t.Errorf("%d rates: median %.3f, p90 %.3f", len(errs), med, p90)
	}
}

func TestRateForLanes(t *testing.T) {
	obs := testRates(t)
	at := time.Date(2026, 5, 20, 0, 0, 0, 0, time.UTC)
	r := RateFor(obs, "new-orleans", "chiba", "grain", 9233, 60000, at)
	if r.Basis != "dataset" || r.USDPerTonne.Central != 70.81 || !strings.Contains(r.Source, "ehs5-yac3 U.S. Gulf → Japan") ||
		!r.Date.Equal(time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("gulf: %+v", r)
	}
	if b := r.USDPerTonne; math.Abs(b.Low-70.81*0.9) > 1e-9 || math.Abs(b.High-70.81*1.1) > 1e-9 {
		t.Errorf("gulf bounds %+v", b)
	}
	if r := RateFor(obs, "tacoma", "chiba", "grain", 4480, 0, at); r.Basis != "dataset" || r.USDPerTonne.Central != 37 {
		t.Errorf("pnw: %+v", r)
	}
	// After the newest observation by more than StaleAfter: the newest, wider.
	if r := RateFor(obs, "seattle", "chiba", "grain", 4480, 0, at.AddDate(1, 0, 0)); r.USDPerTonne.Central != 35.95 || math.Abs(r.USDPerTonne.Low-35.95*0.8) > 1e-9 {
		t.Errorf("stale pnw: %+v", r)
	}
	// The Black Sea: the 25,000-30,000 row for a 28,000 DWT vessel, the
	// newest quarter before the departure.
	r = RateFor(obs, "odesa", "alexandria", "grain", 1097, 28000, time.Date(2025, 11, 1, 0, 0, 0, 0, time.UTC))
	if r.Basis != "dataset" || math.Abs(r.USDPerTonne.Central-16.47*SizeFactor(28000)/SizeFactor(27500)) > 1e-9 ||
		!strings.Contains(r.Source, "25,000-30,000") {
		t.Errorf("odesa: %+v", r)
	}
	// No dataset lane: the model.
	if r := RateFor(obs, "santos", "qingdao", "grain", 11000, 75000, at); r.Basis != "model" || math.Abs(r.USDPerTonne.Central-ModelRate(11000, 75000).USDPerTonne.Central) > 1e-9 {
		t.Errorf("santos: %+v", r)
	}
	if r := RateFor(obs, "new-orleans", "chiba", "crude_oil", 9233, 60000, at); r.Basis != "model" {
		t.Errorf("crude on a grain lane: %+v", r)
	}
	if r := RateFor(nil, "nowhere", "chiba", "grain", 5000, 0, at); r.Basis != "model" {
		t.Errorf("unknown port: %+v", r)
	}
}

func TestBunkerAt(t *testing.T) {
	day := func(m int) time.Time { return time.Date(2025, time.Month(m), 1, 0, 0, 0, 0, time.UTC) }
	prices := []PriceObs{{Source: "fred", Series: "POILBREUSDM", Date: day(1), USDPerBarrel: 80},
		{Source: "fred", Series: "POILBREUSDM", Date: day(2), USDPerBarrel: 70}, {Source: "fred", Series: "X", Date: day(3), USDPerBarrel: math.NaN()}}
	b := BunkerAt(prices, day(2).Add(10*24*time.Hour))
	if b.Basis != "brent" || math.Abs(b.USDPerTonne.Central-70*BarrelsPerTonne) > 1e-9 || b.BrentPerBarrel != 70 ||
		math.Abs(b.USDPerTonne.Low-70*BarrelsPerTonne*(1-BrentUncertainty)) > 1e-9 || !strings.Contains(b.Source, "POILBREUSDM") {
		t.Errorf("%+v", b)
	}
	if b := BunkerAt(prices, day(1).Add(-24*time.Hour)); b.BrentPerBarrel != 80 {
		t.Errorf("before the first: %+v", b)
	}
	if b := BunkerAt(prices, day(12)); b.BrentPerBarrel != 70 || b.USDPerTonne.High != 70*BarrelsPerTonne*(1+DefaultUncertainty) {
		t.Errorf("stale: %+v", b)
	}
	if b := BunkerAt(nil, day(1)); b.Basis != "default" || b.USDPerTonne.Central != DefaultBunkerUSD {
		t.Errorf("default: %+v", b)
	}
}

func TestCompute(t *testing.T) {
	t0 := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	d := func(n float64) time.Time { return t0.Add(time.Duration(n * 24 * float64(time.Hour))) }
	v := Voyage{Origin: "new-orleans", Destination: "chiba", LoadArrival: d(0), Departure: d(3), Arrival: d(33), DischargeDepart: d(36),
		Tonnes: Spread(60000, 0.1, 0.1), DWT: 65000, FuelTonnes: Spread(900, 0.2, 0.2)}
	rate := Rate{USDPerTonne: Spread(60, 0.1, 0.1), Basis: "dataset"}
	bunker := Bunker{USDPerTonne: Spread(600, 0.15, 0.15), Basis: "brent"}
	r := Compute(v, rate, bunker)
	if r.VoyageDays != 36 || r.PortDays != 6 || r.SeaDays != 30 {
		t.Fatalf("days %v %v %v", r.VoyageDays, r.PortDays, r.SeaDays)
	}
	// Revenue 3.6 M; fuel 540 k; ports: 2 × (35 k + 3 × 5 k) = 100 k.
	if r.Revenue.Central != 3_600_000 || r.FuelCost.Central != 540_000 || r.PortCosts.Central != 100_000 || r.LoadPort.Central != 50_000 {
		t.Fatalf("%+v %+v %+v", r.Revenue, r.FuelCost, r.PortCosts)
	}
	want := (3_600_000.0 - 540_000 - 100_000) / 36
	if math.Abs(r.TCE.Central-want) > 1e-6 {
		t.Errorf("TCE %v, want %v", r.TCE.Central, want)
	}
	revDev := math.Hypot(360_000, 360_000)
	fuelDev := math.Hypot(108_000, 81_000)
	dev := math.Sqrt(revDev*revDev + fuelDev*fuelDev + 30_000*30_000)
	if math.Abs(r.TCE.Low-(want-dev/36)) > 1e-6 || math.Abs(r.TCE.High-(want+dev/36)) > 1e-6 {
		t.Errorf("TCE bounds %+v, want ±%v", r.TCE, dev/36)
	}
	if z := Compute(Voyage{}, rate, bunker); z.TCE != (Bounds{}) {
		t.Errorf("no days: %+v", z.TCE)
	}
}

func TestPortCostTable(t *testing.T) {
	for _, c := range []struct {
		dwt  float64
		size string
	}{{0, "supramax"}, {30000, "handysize"}, {40000, "handysize"}, {80000, "panamax"}, {180000, "capesize"}, {300000, "very_large"}} {
		if got := TariffOf(c.dwt).Size; got != c.size {
			t.Errorf("%v: %s, want %s", c.dwt, got, c.size)
		}
	}
	if b := PortCost(80000, 2); b.Central != 64000 || b.Low != 64000*0.7 {
		t.Errorf("%+v", b)
	}
}

func TestPortRevenue(t *testing.T) {
	mon := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	mk := func(port string, dep time.Time, rev float64) Result {
		return Result{Voyage: Voyage{Origin: port, Departure: dep, Tonnes: Bounds{Central: 10}}, Revenue: Spread(rev, 0.1, 0.1), LoadPort: Bounds{1, 2, 3}}
	}
	out := PortRevenue([]Result{mk("b", mon.Add(time.Hour), 100), mk("a", mon.Add(6*24*time.Hour), 100), mk("a", mon.Add(50*time.Hour), 50),
		mk("a", mon.Add(7*24*time.Hour), 10)})
	if len(out) != 3 || out[0].Port != "a" || !out[0].Week.Equal(mon) || out[0].Voyages != 2 || out[0].Revenue.Central != 150 ||
		out[0].PortCost != (Bounds{2, 4, 6}) || out[0].Tonnes != 20 || !out[1].Week.Equal(mon.AddDate(0, 0, 7)) || out[2].Port != "b" {
		t.Errorf("%+v", out)
	}
}

func FuzzLane(f *testing.F) {
	for _, s := range []string{"U.S. Gulf|Japan", "Odesa|Alexandria,Egypt", "Constanta|Tunis, Tunisia", "Izmail|Marmara Sea ports,Turkey|3,000",
		"Pacific Northwest|Japan|25,000-30,000", "||", "odesa|,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		parts := strings.SplitN(s, "|", 3)
		for len(parts) < 3 {
			parts = append(parts, "")
		}
		if l, ok := laneOf(parts[0], parts[1]); ok && l.region == "" {
			t.Errorf("%q: a lane without a region", s)
		}
		if m := sizeMid(parts[2]); m < 0 || math.IsNaN(m) {
			t.Errorf("%q: size %v", s, m)
		}
		r := RateFor([]RateObs{{Origin: parts[0], Destination: parts[1], VesselSize: parts[2], USDPerTonne: 20}}, "odesa", "alexandria", "grain", 1000, 30000, time.Time{})
		if !(r.USDPerTonne.Central > 0) {
			t.Errorf("%q: rate %+v", s, r)
		}
	})
}

func TestLaneOf(t *testing.T) {
	for _, c := range []struct {
		origin, dest string
		want         lane
		ok           bool
	}{
		{"U.S. Gulf", "Japan", lane{region: "us-gulf", country: "JP"}, true},
		{"Pacific Northwest", "Japan", lane{region: "pacific-northwest", country: "JP"}, true},
		{"Odesa", "Alexandria,Egypt", lane{region: "black-sea", originPort: "odesa", destPort: "alexandria"}, true},
		{"Constanta", "Tunis, Tunisia", lane{}, false},
		{"Izmail", "Alexandria,Egypt", lane{}, false},
		{"Rotterdam", "Japan", lane{}, false},
	} {
		if got, ok := laneOf(c.origin, c.dest); ok != c.ok || got != c.want {
			t.Errorf("%s → %s: %+v %v", c.origin, c.dest, got, ok)
		}
	}
}
