// Package tradestats holds official bilateral trade statistics (UN
// Comtrade) as the service reads them: flows between a reporter and a
// partner country, HS codes mapped to the service's commodity names,
// countries looked up by name, ISO alpha-3 or alpha-2 code, and the
// mirror comparison of what an exporter reports against what its partner
// reports importing.
package tradestats

import "strings"

// Flow directions (Flow.Flow).
const (
	FlowExport   = "export"
	FlowImport   = "import"
	FlowReExport = "re-export"
	FlowReImport = "re-import"
)

// FlowOfCode maps a Comtrade flow code (X, M, RX, RM, case-insensitive)
// to a flow direction; false for any other code.
func FlowOfCode(code string) (string, bool) {
	switch strings.ToUpper(strings.TrimSpace(code)) {
	case "X":
		return FlowExport, true
	case "M":
		return FlowImport, true
	case "RX":
		return FlowReExport, true
	case "RM":
		return FlowReImport, true
	}
	return "", false
}

// Flow is one row of official trade statistics: what Reporter declares
// it traded with Partner. Weights are in kilograms and values in US
// dollars as reported; a negative NetWeightKg, Quantity or Value means
// not reported.
type Flow struct {
	ReporterCode   int    // UN M49 numeric code
	ReporterISO3   string // ISO alpha-3 as the source gives it
	ReporterName   string
	PartnerCode    int
	PartnerISO3    string
	PartnerName    string
	Flow           string // FlowExport, FlowImport, FlowReExport, FlowReImport
	HSCode         string // "1201", "TOTAL", ...
	Period         string // "2024" (annual) or "202403" (monthly)
	Year           int
	Month          int // 0 for annual data
	NetWeightKg    float64
	Quantity       float64
	QuantityUnit   string
	ValueUSD       float64 // the primary value (FOB for exports, CIF for imports as a rule)
	ValueBasis     string  // "fob", "cif" or "" when the source does not say
	Classification string  // "H6", "H3", ...
	Source         string  // where the row was read from
}

// Tonnes is the net weight in metric tonnes; false when not reported.
func (f Flow) Tonnes() (float64, bool) {
	if f.NetWeightKg < 0 {
		return 0, false
	}
	return f.NetWeightKg / 1000, true
}
