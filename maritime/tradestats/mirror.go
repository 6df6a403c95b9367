package tradestats

import (
	"math"
	"sort"
)

// Mirror statuses. Mirror statistics never agree exactly: exports are
// valued FOB and imports CIF, goods shipped in December arrive in
// January, and each side weighs and classifies on its own, so the
// comparison is on net weight and the thresholds leave room for that.
const (
	MirrorConsistent     = "consistent"       // |discrepancy| ≤ MirrorConsistentPct
	MirrorMinor          = "minor"            // ≤ MirrorMinorPct
	MirrorMajor          = "major"            // above MirrorMinorPct
	MirrorOneSideMissing = "one_side_missing" // only one of the two countries reports the flow (or its weight)
)

// Mirror thresholds on the absolute discrepancy, in percent.
const (
	MirrorConsistentPct = 5.0
	MirrorMinorPct      = 20.0
)

// Discrepancy compares one country pair, commodity and period as the
// exporter and the importer report it. Tonnes are metric tonnes; a side
// that reports nothing (or no weight) has ok false. DiscrepancyPct is
// (imported − exported) / exported × 100, NaN when a side is missing.
type Discrepancy struct {
	ExporterCode, ImporterCode int
	ExporterISO3, ImporterISO3 string
	ExporterName, ImporterName string
	HSCode                     string
	Commodity                  string
	Period                     string
	ExportedT, ImportedT       float64
	HasExport, HasImport       bool
	ExportedUSD, ImportedUSD   float64
	DiscrepancyPct             float64
	Status                     string
}

// MirrorStatus classifies a discrepancy in percent (NaN: one side
// missing).
func MirrorStatus(pct float64) string {
	switch a := math.Abs(pct); {
	case math.IsNaN(pct) || math.IsInf(pct, 0):
		return MirrorOneSideMissing
	case a <= MirrorConsistentPct:
		return MirrorConsistent
	case a <= MirrorMinorPct:
		return MirrorMinor
	}
	return MirrorMajor
}

type mirrorKey struct {
	exporter, importer int
	hs, period         string
}

// Mirror pairs exporter-reported exports with importer-reported imports
// of the same commodity and period: an export row of reporter A to
// partner B meets the import row of reporter B from partner A. Rows of the
// same side and key add up. World (code 0) partners, re-exports and
// re-imports are left out. The result is ordered by period (newest first),
// exporter, importer and HS code.
func Mirror(flows []Flow) []Discrepancy {
	m := map[mirrorKey]*Discrepancy{}
	get := func(k mirrorKey, f Flow) *Discrepancy {
		d, ok := m[k]
		if !ok {
			d = &Discrepancy{ExporterCode: k.exporter, ImporterCode: k.importer, HSCode: k.hs, Commodity: CommodityOfHS(k.hs), Period: k.period}
			m[k] = d
		}
		return d
	}
	for _, f := range flows {
		if f.ReporterCode == 0 || f.PartnerCode == 0 || f.ReporterCode == f.PartnerCode {
			continue
		}
		t, hasT := f.Tonnes()
		switch f.Flow {
		case FlowExport:
			d := get(mirrorKey{f.ReporterCode, f.PartnerCode, f.HSCode, f.Period}, f)
			d.ExporterISO3, d.ExporterName = f.ReporterISO3, f.ReporterName
			if d.ImporterName == "" {
				d.ImporterISO3, d.ImporterName = f.PartnerISO3, f.PartnerName
			}
			if hasT {
				d.ExportedT += t
				d.HasExport = true
			}
			if f.ValueUSD > 0 {
				d.ExportedUSD += f.ValueUSD
			}
		case FlowImport:
			d := get(mirrorKey{f.PartnerCode, f.ReporterCode, f.HSCode, f.Period}, f)
			d.ImporterISO3, d.ImporterName = f.ReporterISO3, f.ReporterName
			if d.ExporterName == "" {
				d.ExporterISO3, d.ExporterName = f.PartnerISO3, f.PartnerName
			}
			if hasT {
				d.ImportedT += t
				d.HasImport = true
			}
			if f.ValueUSD > 0 {
				d.ImportedUSD += f.ValueUSD
			}
		}
	}
	out := make([]Discrepancy, 0, len(m))
	for _, d := range m {
		d.DiscrepancyPct = math.NaN()
		if d.HasExport && d.HasImport && d.ExportedT > 0 {
			d.DiscrepancyPct = (d.ImportedT - d.ExportedT) / d.ExportedT * 100
		}
		d.Status = MirrorStatus(d.DiscrepancyPct)
		out = append(out, *d)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Period != b.Period {
			return a.Period > b.Period
		}
		if a.ExporterName != b.ExporterName {
			return a.ExporterName < b.ExporterName
		}
		if a.ImporterName != b.ImporterName {
			return a.ImporterName < b.ImporterName
		}
		return a.HSCode < b.HSCode
	})
	return out
}
