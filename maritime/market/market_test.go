package market

import (
	"math"
	"testing"
)

func TestCommodity(t *testing.T) {
	for in, want := range map[string]string{
		"corn": "maize", "Maize": "maize", "MAIZE": "maize", " soy ": "soybeans",
		"soybeans": "soybeans", "Soybean": "soybeans", "soybean meal": "soybean_meal",
		"Soybean_Meal": "soybean_meal", "soybean-oil": "soybean_oil", "brent": "crude_oil",
		"Crude Oil": "crude_oil", "crude_oil": "crude_oil", "wheat": "wheat",
		"iron ore": "iron_ore", "LNG": "lng", "liquefied natural gas": "lng", "urea": "urea",
		"DAP": "dap", "coal": "coal", "rice": "rice",
	} {
		got, ok := Commodity(in)
		if !ok || got != want {
			t.Errorf("Commodity(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "gold", "wheat meal", "soy soy"} {
		if got, ok := Commodity(in); ok {
			t.Errorf("Commodity(%q) = %q, want not found", in, got)
		}
	}
	for _, c := range Commodities {
		if got, ok := Commodity(c); !ok || got != c {
			t.Errorf("Commodity(%q) = %q, %v", c, got, ok)
		}
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6*math.Max(1, math.Abs(b)) }

func TestToUSDPerTonne(t *testing.T) {
	if kg, _ := BushelKg("wheat"); !near(kg, 27.2155422) {
		t.Errorf("wheat bushel %v kg", kg)
	}
	if kg, _ := BushelKg("maize"); !near(kg, 25.40117272) {
		t.Errorf("maize bushel %v kg", kg)
	}
	if _, ok := BushelKg("crude_oil"); ok {
		t.Error("crude oil has no bushel weight")
	}
	cases := []struct {
		v          float64
		unit, comm string
		want       float64
	}{
		{100, UnitUSDPerTonne, "wheat", 100},
		{100, UnitUSDCentsPerBushel, "soybeans", 1 / 27.2155422 * 1000},      // $1/bu
		{12.6875, UnitUSDPerBushel, "soybeans", 12.6875 * 1000 / 27.2155422}, // 466.19
		{5.3575, UnitUSDPerBushel, "maize", 5.3575 * 1000 / 25.40117272},
		{3.99, UnitUSDPerShortTon, "grain", 3.99 / 0.90718474},
		{2, UnitUSDPerKg, "sugar", 2000},
		{80, UnitUSDPerBarrel, "crude_oil", 80 * 7.33},
	}
	for _, c := range cases {
		if got := ToUSDPerTonne(c.v, c.unit, c.comm); !near(got, c.want) {
			t.Errorf("ToUSDPerTonne(%v %s %s) = %v, want %v", c.v, c.unit, c.comm, got, c.want)
		}
	}
	for _, c := range []struct{ unit, comm string }{
		{UnitUSDPerMMBtu, "lng"}, {UnitUSDPerDMTU, "iron_ore"}, {UnitPctOfTariff, "grain"},
		{UnitUSDPerCar, "grain"}, {UnitUSDPerMile, "grain"}, {UnitUSDPerBushel, "rice"},
		{UnitUSDPerBarrel, "soybean_oil"}, {"furlongs", "wheat"},
	} {
		if got := ToUSDPerTonne(1, c.unit, c.comm); !math.IsNaN(got) {
			t.Errorf("ToUSDPerTonne(1 %s %s) = %v, want NaN", c.unit, c.comm, got)
		}
	}
	if !math.IsNaN(ToUSDPerTonne(math.Inf(1), UnitUSDPerTonne, "wheat")) {
		t.Error("Inf converts to NaN")
	}
}

func TestBargeBenchmark(t *testing.T) {
	for loc, want := range map[string]float64{
		"Twin Cities": 6.19, "Mid-Mississippi": 5.32, "Lower Illinois": 4.64, "Illinois River": 4.64,
		"St. Louis": 3.99, "st louis": 3.99, "ST. LOUIS": 3.99, "Saint Louis": 3.99,
		"Cincinnati": 4.69, "Lower Ohio": 4.46, "Cairo-Memphis": 3.14, "Cairo – Memphis": 3.14,
	} {
		if got, ok := BargeBenchmark(loc); !ok || got != want {
			t.Errorf("BargeBenchmark(%q) = %v, %v; want %v", loc, got, ok, want)
		}
	}
	for _, loc := range []string{"", "Chicago", "Louis", "La Crosse – Minneapolis"} {
		if got, ok := BargeBenchmark(loc); ok {
			t.Errorf("BargeBenchmark(%q) = %v, want none", loc, got)
		}
	}
	// St. Louis 587.5 % of 3.99 = 23.44125 USD/short ton.
	b, _ := BargeBenchmark("St. Louis")
	if got := 587.5 * b / 100; !near(got, 23.44125) {
		t.Errorf("St. Louis 587.5%% = %v", got)
	}
}

func TestMatchRegion(t *testing.T) {
	yes := [][2]string{
		{"st louis", "St. Louis"}, {"St. Louis", "st louis"}, {"ST LOUIS", "St. Louis"},
		{"saint louis", "St. Louis"}, {"st", "St. Louis"}, {"lou", "St. Louis"},
		{"", "anything"}, {"cairo", "Cairo-Memphis"}, {"cairo memphis", "Cairo-Memphis"},
		{"cairo-memphis", "Cairo – Memphis"}, {"la crosse minneapolis", "La Crosse – Minneapolis"},
		{"la cross minn", "La Crosse – Minneapolis"}, {"grafton", "Cape Girardeau –Grafton"},
		{"cape girardeau grafton", "Cape Girardeau –Grafton"}, {"lockport lemont", "Lockport - Lemont"},
		{"odesa", "Odesa-Alexandria,Egypt"}, {"alexandria egypt", "Alexandria,Egypt"},
		{"sao paulo", "São Paulo"}, {"São Paulo", "SAO PAULO"}, {"munchen", "München"},
		{"constanta", "Constanța"}, {"  mid   miss ", "Mid-Mississippi"},
	}
	for _, c := range yes {
		if !MatchRegion(c[0], c[1]) {
			t.Errorf("MatchRegion(%q, %q) = false", c[0], c[1])
		}
	}
	no := [][2]string{
		{"louis st", "Stlouis"}, {"memphis cairo x", "Cairo-Memphis"}, {"ouis", "St. Louis"},
		{"st louis", "Lower Ohio"}, {"twin cities", "Twin"}, {"minneapolis", "La Crosse"},
	}
	for _, c := range no {
		if MatchRegion(c[0], c[1]) {
			t.Errorf("MatchRegion(%q, %q) = true", c[0], c[1])
		}
	}
}
