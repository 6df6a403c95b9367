package crop

import (
	"math"
	"testing"
	"time"

	"overwatch/maritime/seaport"
)

func TestRegionsPortsExist(t *testing.T) {
	for _, r := range Regions() {
		if r.PSDCountry == "" || len(r.Crops) == 0 || len(r.Ports) == 0 || len(r.Polygon) < 4 {
			t.Errorf("%s incomplete", r.Slug)
		}
		if r.Polygon[0] != r.Polygon[len(r.Polygon)-1] {
			t.Errorf("%s: polygon ring not closed", r.Slug)
		}
		for _, p := range r.Ports {
			if _, ok := seaport.BySlug(p); !ok {
				t.Errorf("%s: port %s unknown", r.Slug, p)
			}
		}
		for _, c := range r.Crops {
			if _, ok := r.Sources[c]; !ok || r.Scope[c] == "" {
				t.Errorf("%s: %s has no source or scope", r.Slug, c)
			}
		}
	}
}

func TestStatusThresholds(t *testing.T) {
	for an, want := range map[float64]string{0.05: StatusGood, 0.049: StatusNormal, -0.049: StatusNormal, -0.05: StatusWatch,
		-0.149: StatusWatch, -0.15: StatusPoor, -0.5: StatusPoor} {
		if got := StatusOf(an); got != want {
			t.Errorf("StatusOf(%v) = %s, want %s", an, got, want)
		}
	}
}

func psdRow(country, code, attr string, my int, v float64) PSDRow {
	return PSDRow{CommodityCode: code, CountryCode: country, Country: country, Commodity: "Wheat", MarketYear: my, AttributeID: attr,
		Attribute: attr, Unit: "(MT/HA)", Value: v, Revised: time.Date(2025, 11, 1, 0, 0, 0, 0, time.UTC)}
}

func TestOfficialAssessmentAndForecast(t *testing.T) {
	var rows []PSDRow
	for y := 2020; y <= 2024; y++ {
		rows = append(rows, psdRow("AS", PSDWheat, PSDYield, y, 2))
	}
	rows = append(rows, psdRow("AS", PSDWheat, PSDYield, 2025, 1.6), psdRow("AS", PSDWheat, PSDProduction, 2025, 36000),
		psdRow("AS", PSDWheat, PSDDomestic, 2025, 8000))
	in := Inputs{PSD: rows}
	as := Assess(in)
	if len(as) != 1 || as[0].Region != "western-australia-wheatbelt" || as[0].Basis != BasisOfficial || as[0].Status != StatusPoor ||
		as[0].BaselineYears != 5 || math.Abs(as[0].Anomaly+0.2) > 1e-9 {
		t.Fatalf("assessments %+v", as)
	}
	fs := Forecasts(in)
	if len(fs) != 1 || fs[0].Port != "fremantle" || fs[0].YieldFactor != 1 || fs[0].ProductionKt != 36000 || fs[0].ExportableKt != 28000 ||
		fs[0].PortKt != 28000 || fs[0].ShareBasis != ShareEqual {
		t.Fatalf("forecasts %+v", fs)
	}
}

func TestNDVIAssessmentAndShares(t *testing.T) {
	var cs []Composite
	for y := 2018; y <= 2021; y++ {
		v := 0.8
		if y == 2021 {
			v = 0.6
		}
		cs = append(cs, Composite{Region: "ukraine-steppe", Date: time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, 176), NDVI: v, Pixels: 9})
	}
	in := Inputs{NDVI: cs, PSD: []PSDRow{psdRow("UP", PSDWheat, PSDProduction, 2025, 23000), psdRow("UP", PSDWheat, PSDDomestic, 2025, 11000)},
		PortTonnes: map[string]float64{"odesa": 3, "chornomorsk": 1}}
	var got int
	for _, a := range Assess(in) {
		if a.Region == "ukraine-steppe" {
			got++
			if a.Basis != BasisNDVI || a.BaselineYears != 3 || a.Status != StatusPoor || math.Abs(a.Anomaly+0.25) > 1e-9 {
				t.Errorf("%+v", a)
			}
		}
	}
	if got != 2 {
		t.Errorf("%d ukraine assessments, want wheat and corn", got)
	}
	for _, f := range Forecasts(in) {
		if f.Region != "ukraine-steppe" {
			continue
		}
		if f.Basis != BasisNDVI || f.FactorFit != FitDefault || math.Abs(f.YieldFactor-0.75) > 1e-9 || f.ShareBasis != ShareObserved {
			t.Errorf("%+v", f)
		}
		want := map[string]float64{"odesa": 0.75, "chornomorsk": 0.25}[f.Port]
		if f.PortShare != want || math.Abs(f.PortKt-(23000*0.75-11000)*want) > 1e-6 {
			t.Errorf("%s share %v kt %v", f.Port, f.PortShare, f.PortKt)
		}
	}
}

func TestNothingInvented(t *testing.T) {
	if a := Assess(Inputs{}); len(a) != 0 {
		t.Errorf("assessments from no data: %+v", a)
	}
	if f := Forecasts(Inputs{}); len(f) != 0 {
		t.Errorf("forecasts from no data: %+v", f)
	}
}
