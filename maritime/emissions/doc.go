// Package emissions is the voyage emissions model: a bottom-up estimate per
// voyage after the Fourth IMO GHG Study (main and auxiliary engines, speed
// and draught), with GLEC default intensities as the fallback, low/central/
// high bounds from the uncertainty of each input, the emission factors of
// every fuel (one sourced table, factors.go), fleet totals and
// groupings. docs/emissions.md is its definition.
package emissions
