package reports

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
)

// sampleEmissionsReport is a small report whose first row is the Fourth IMO
// GHG Study example of the root package (a 60,000 dwt bulk carrier on
// VLSFO: 362.325 t CO2e TTW), with a vessel name that is a formula and one
// outside Latin-1.
func sampleEmissionsReport() *EmissionsReport {
	day := func(m time.Month, d int) time.Time { return time.Date(2025, m, d, 6, 0, 0, 0, time.UTC) }
	rows := []EmissionsVoyage{
		{Vessel: "CAPE ORCHID", IMO: "9000001", VesselType: "bulk_carrier", From: "santos", To: "rotterdam",
			Departure: day(3, 1), Arrival: day(3, 6), DistanceNM: 1200, CargoTonnes: 50000, Commodity: "soybeans",
			Fuel: "vlsfo", FactorTTW: 3.114, Method: "bottom_up",
			TTW:        EmissionsRange{310.369, 362.325, 422.979},
			WTW:        EmissionsRange{370.555, 425.942, 489.607},
			TonneMiles: 6e7, IntensityTTW: 6.039, Quality: "primary"},
		{Vessel: `=HYPERLINK("http://x")`, IMO: "9000002", VesselType: "general_cargo", From: "hamburg", To: "rotterdam",
			Departure: day(4, 2), Arrival: day(4, 4), DistanceNM: 500, CargoTonnes: 6000, Commodity: "steel",
			Fuel: "mgo", FactorTTW: 3.206, Method: "bottom_up",
			TTW:        EmissionsRange{42.657, 48.166, 54.387},
			WTW:        EmissionsRange{51.320, 57.404, 64.209},
			TonneMiles: 3e6, IntensityTTW: 16.055, Quality: "modelled",
			Flags: []string{"fuel_override", "distance_override", "speed_override"}},
		{Vessel: "Ørsted Bulk, Ltd 東", IMO: "9000005", VesselType: "bulk_carrier", From: "santos", To: "qingdao",
			Departure: day(11, 20), Arrival: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC), DistanceNM: 2000, CargoTonnes: 40000,
			Commodity: "iron ore", Fuel: "vlsfo", FactorTTW: 3.114, Method: "default_intensity",
			TTW:        EmissionsRange{521.865, 800.064, 1226.566},
			WTW:        EmissionsRange{648.947, 940.538, 1363.148},
			TonneMiles: 8e7, IntensityTTW: 10.001, Quality: "default",
			Flags: []string{"sea_lane_distance", "default_intensity"}},
	}
	r := &EmissionsReport{
		Entity:       "Acme Grain Trading AG",
		PeriodStart:  time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC),
		PeriodEnd:    time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		GeneratedAt:  time.Date(2026, 1, 15, 9, 30, 0, 0, time.UTC),
		ModelVersion: "overwatch-emissions-1 (2026)",
		BreakdownBy:  "vessel type",
		Methodology: []string{
			"Scope: GHG Protocol Scope 3 categories 4 and 9, quantified per ISO 14083:2023 and the GLEC Framework v3.0.",
			"Fuel is estimated bottom-up with the Fourth IMO GHG Study 2020 method.",
		},
		Factors: []EmissionsFactor{
			{"cf.vlsfo", 3.114, "t CO2/t fuel", "IMO MEPC.364(79) EEDI guidelines, Cf table; same values in EU MRV Reg. (EU) 2015/757 Annex I (HFO, RME-RMK; VLSFO taken as HFO)", "MEPC.364(79)"},
			{"wtt.vlsfo", 13.5, "g CO2e/MJ", "Regulation (EU) 2023/1805 (FuelEU Maritime), Annex II default factors (HFO)", "2023/1805"},
			{"glec.ttw.bulk_carrier", 5.4, "g CO2e/t-km", "GLEC Framework v3.0 (Smart Freight Centre, 2023), Table 12", "v3.0"},
		},
		Assumptions: []string{"VLSFO is taken as HFO (Cf 3.114)."},
		Overrides:   []string{"fuel_type=mgo on 1 voyage"},
		Voyages:     rows,
	}
	fillEmissionsTotals(r)
	return r
}

// fillEmissionsTotals sets the totals, series and quality from the rows.
func fillEmissionsTotals(r *EmissionsReport) {
	t := &r.Totals
	months, types := map[string]int{}, map[string]int{}
	var ais, def int
	for _, v := range r.Voyages {
		t.Voyages++
		t.DistanceNM += v.DistanceNM
		t.CargoTonnes += v.CargoTonnes
		t.FuelTonnes += v.TTW.Central / v.FactorTTW
		addRange(&t.TTW, v.TTW)
		addRange(&t.WTW, v.WTW)
		addRange(&t.TonneMiles, EmissionsRange{v.TonneMiles * 0.9, v.TonneMiles, v.TonneMiles * 1.1})
		for _, g := range []struct {
			at    map[string]int
			list  *[]EmissionsBreakdown
			label string
		}{{months, &r.ByMonth, v.Arrival.UTC().Format("2006-01")}, {types, &r.Breakdown, v.VesselType}} {
			i, ok := g.at[g.label]
			if !ok {
				i = len(*g.list)
				g.at[g.label] = i
				*g.list = append(*g.list, EmissionsBreakdown{Label: g.label})
			}
			b := &(*g.list)[i]
			b.Voyages++
			b.TonneMiles += v.TonneMiles
			addRange(&b.TTW, v.TTW)
			addRange(&b.WTW, v.WTW)
		}
		ais += map[bool]int{true: 1}[v.Quality == "primary"]
		def += map[bool]int{true: 1}[v.Method == "default_intensity"]
	}
	tm := t.TonneMiles
	if tm.Low > 0 {
		t.IntensityTTW = EmissionsRange{t.TTW.Low * 1e6 / tm.High, t.TTW.Central * 1e6 / tm.Central, t.TTW.High * 1e6 / tm.Low}
		t.IntensityWTW = EmissionsRange{t.WTW.Low * 1e6 / tm.High, t.WTW.Central * 1e6 / tm.Central, t.WTW.High * 1e6 / tm.Low}
	}
	r.VoyagesTotal = t.Voyages
	if n := float64(t.Voyages); n > 0 {
		r.Quality = EmissionsQuality{AISDistanceShare: float64(ais) / n, AISCargoShare: float64(t.Voyages-def) / n,
			DefaultIntensityShare: float64(def) / n, Notes: []string{"Cargo from draught changes at the load and discharge ports."}}
	}
}

func addRange(a *EmissionsRange, b EmissionsRange) {
	a.Low, a.Central, a.High = a.Low+b.Low, a.Central+b.Central, a.High+b.High
}

// bigEmissionsReport has n voyage rows cycling through the sample's rows
// over twelve months.
func bigEmissionsReport(n int) *EmissionsReport {
	r := sampleEmissionsReport()
	base := r.Voyages
	r.Voyages, r.ByMonth, r.Breakdown, r.Totals = make([]EmissionsVoyage, n), nil, nil, EmissionsTotals{}
	for i := range r.Voyages {
		v := base[i%len(base)]
		v.IMO = fmt.Sprintf("9%06d", i)
		v.Departure = time.Date(2025, time.Month(1+i%12), 1+i%27, 0, 0, 0, 0, time.UTC)
		v.Arrival = v.Departure.Add(time.Duration(20+i%200) * time.Hour)
		r.Voyages[i] = v
	}
	fillEmissionsTotals(r)
	return r
}

func TestWriteEmissionsCSV(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	if err := WriteEmissionsCSV(&buf, sampleEmissionsReport()); err != nil {
		t.Fatal(err)
	}
	golden(t, "emissions_voyages.csv", buf.Bytes())
	recs := parseStrict(t, buf.Bytes())
	if len(recs) != 4 || len(recs[0]) != len(emissionsCSVHeader) {
		t.Fatalf("%d records of %d fields", len(recs), len(recs[0]))
	}
	row := strings.Join(recs[1], ",")
	if want := "9000001,CAPE ORCHID,bulk_carrier,santos,rotterdam,2025-03-01T06:00:00Z,2025-03-06T06:00:00Z,1200.0,50000,soybeans,vlsfo,3.114,bottom_up,310.369,362.325,422.979"; !strings.HasPrefix(row, want) {
		t.Errorf("row 1 = %s\nwant prefix %s", row, want)
	}
	if got := recs[2][1]; got != `'=HYPERLINK("http://x")` {
		t.Errorf("formula vessel name written as %q", got)
	}
	if got := recs[3][1]; got != "Ørsted Bulk, Ltd 東" {
		t.Errorf("UTF-8 vessel name written as %q", got)
	}
}

func TestWriteEmissionsCSVEmpty(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	if err := WriteEmissionsCSV(&buf, &EmissionsReport{}); err != nil {
		t.Fatal(err)
	}
	if want := strings.Join(emissionsCSVHeader, ",") + "\r\n"; buf.String() != want {
		t.Errorf("empty report: %q", buf.String())
	}
}
