package tradestats

import (
	"strconv"
	"strings"

	"overwatch/maritime/country"
)

// Country is a trading country, a row of the one country table
// (maritime/country).
type Country = country.Country

// LookupCountry finds a country by English name (or a listed other name,
// such as Comtrade's "Russian Federation"), ISO alpha-3 or alpha-2 code,
// case-insensitive, or by its numeric code (country.Lookup, country.ByCode).
func LookupCountry(s string) (Country, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Country{}, false
	}
	if n, err := strconv.Atoi(s); err == nil {
		return country.ByCode(n)
	}
	return country.Lookup(s)
}

// CountryOfCode finds a country by its Comtrade code.
func CountryOfCode(code int) (Country, bool) {
	return country.ByCode(code)
}

// Canonical fills a flow's country names and ISO3 codes from the table
// where the codes are known (the source's spelling stays otherwise).
func Canonical(f Flow) Flow {
	if c, ok := country.ByCode(f.ReporterCode); ok {
		f.ReporterISO3, f.ReporterName = c.ISO3, c.Name
	}
	if c, ok := country.ByCode(f.PartnerCode); ok {
		f.PartnerISO3, f.PartnerName = c.ISO3, c.Name
	}
	return f
}
