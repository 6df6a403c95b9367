package crop

import (
	"bytes"
	"math"
	"testing"

	"overwatch/maritime/crop"
)

// TestRealFilesAssess runs the assessments and forecasts on the real
// PSD and WASDE files: every region gets an official view of each crop
// the files cover, and nothing is given where they do not.
func TestRealFilesAssess(t *testing.T) {
	var in crop.Inputs
	for _, n := range []string{fileGrains, fileEU, fileRussia, fileWASDE} {
		res, err := Parse(bytes.NewReader(read(t, n)))
		if err != nil {
			t.Fatal(err)
		}
		in.PSD = append(in.PSD, res.PSD...)
		in.WASDE = append(in.WASDE, res.WASDE...)
	}
	got := map[string]crop.Assessment{}
	for _, a := range crop.Assess(in) {
		t.Logf("%s %s %s %s %.1f%% %.3f vs %.3f (%d y) %s", a.Region, a.Crop, a.Basis, a.Status, a.Anomaly*100, a.Value, a.Baseline, a.BaselineYears, a.Unit)
		got[a.Region+"/"+a.Crop] = a
	}
	for _, k := range []string{"us-corn-belt/corn", "us-corn-belt/soybeans", "us-pacific-northwest/wheat", "brazil-mato-grosso-parana/corn",
		"argentina-pampas/wheat", "ukraine-steppe/wheat", "russia-south/wheat", "romania-lower-danube/wheat", "western-australia-wheatbelt/wheat"} {
		if a, ok := got[k]; !ok || a.Basis != crop.BasisOfficial || a.MarketYear != 2025 {
			t.Errorf("%s: %+v", k, a)
		}
	}
	if _, ok := got["brazil-mato-grosso-parana/soybeans"]; ok {
		t.Error("Brazil soybeans assessed: WASDE has no Brazilian yield")
	}
	// US white wheat 2025/26: 283 million bushels, domestic use 86.
	for _, f := range crop.Forecasts(in) {
		t.Logf("%s %s %s MY%d %.0f kt dom %.0f exp %.0f share %.2f (%s) port %.0f", f.Region, f.Crop, f.Port, f.MarketYear, f.ProductionKt, f.DomesticKt, f.ExportableKt, f.PortShare, f.ShareBasis, f.PortKt)
		if f.Region == "us-pacific-northwest" && math.Abs(f.ProductionKt-283*crop.BushelWheatKg) > 1e-6 {
			t.Errorf("PNW white wheat %v kt", f.ProductionKt)
		}
		if f.Region == "romania-lower-danube" && !math.IsNaN(f.ExportableKt) {
			t.Errorf("Romania exportable %v without a domestic use in the file", f.ExportableKt)
		}
	}
}
