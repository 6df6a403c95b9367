package read

import (
	"math"
	"testing"

	"overwatch/maritime/tradestats"
)

// An import row's exporter is its partner; unreported weights, values and
// quantities are null.
func TestNewTradeFlow(t *testing.T) {
	imp := NewTradeFlow(tradestats.Flow{ReporterCode: 156, ReporterISO3: "CHN", ReporterName: "China", PartnerCode: 76, PartnerISO3: "BRA",
		PartnerName: "Brazil", Flow: tradestats.FlowImport, HSCode: "1201", Period: "2024", NetWeightKg: 74647380005, ValueUSD: 36455784932,
		ValueBasis: "cif", Quantity: -1})
	if imp.ExporterName != "Brazil" || imp.ImporterName != "China" || imp.ReporterName != "China" || *imp.NetWeightT != 74647380.005 ||
		imp.Commodity != "soybeans" || *imp.ValueBasis != "cif" || imp.Quantity != nil || imp.QuantityUnit != nil {
		t.Errorf("%+v", imp)
	}
	tot := NewTradeFlow(tradestats.Flow{ReporterName: "China", PartnerName: "Germany", Flow: tradestats.FlowExport, HSCode: "TOTAL",
		NetWeightKg: -1, ValueUSD: -1, Quantity: -1})
	if tot.ExporterName != "China" || tot.NetWeightT != nil || tot.ValueUSD != nil || tot.ValueBasis != nil || tot.Commodity != "all" {
		t.Errorf("%+v", tot)
	}
}

func TestNewTradeDiscrepancy(t *testing.T) {
	d := NewTradeDiscrepancy(tradestats.Discrepancy{ExporterName: "Brazil", ImporterName: "China", ExportedT: 10, HasExport: true,
		DiscrepancyPct: math.NaN(), Status: tradestats.MirrorOneSideMissing})
	if d.ExportedMT == nil || *d.ExportedMT != 10 || d.ImportedMT != nil || d.DiscrepancyPct != nil || d.ExportedUSD != nil {
		t.Errorf("%+v", d)
	}
}
