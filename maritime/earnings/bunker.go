package earnings

import (
	"fmt"
	"math"
	"time"
)

// PriceObs is one published Brent crude price (a row of commodity_prices
// with commodity 'crude_oil' in USD per barrel).
type PriceObs struct {
	Source, Series string
	Date           time.Time
	USDPerBarrel   float64
}

// Bunker is the fuel price a voyage is valued at: USD per tonne of VLSFO
// with its bounds, where it comes from (Basis "brent" or "default"), a
// source line naming it, the Brent price and its date (zero for the
// default).
type Bunker struct {
	USDPerTonne    Bounds    `json:"usd_per_tonne"`
	Basis          string    `json:"basis"`
	Source         string    `json:"source"`
	Date           time.Time `json:"date"`
	BrentPerBarrel float64   `json:"brent_usd_per_barrel"`
}

// The Brent → VLSFO conversion (docs/earnings.md): VLSFO USD/t =
// BarrelsPerTonne × Brent USD/bbl × VLSFOPremium, where 7.53 barrels make
// a tonne of Brent (API 38°, 0.835 t/m³) and VLSFO has traded within
// BrentUncertainty of that crude value at the main bunkering hubs since
// 2020. Without a Brent price: DefaultBunkerUSD, DefaultUncertainty wide.
const (
	BarrelsPerTonne    = 7.53
	VLSFOPremium       = 1.0
	BrentUncertainty   = 0.15
	DefaultBunkerUSD   = 600.0
	DefaultUncertainty = 0.25
	// BrentStaleAfter: a Brent price older than this before the departure
	// is DefaultUncertainty wide.
	BrentStaleAfter = 62 * 24 * time.Hour
)

// BunkerAt is the bunker price at a departure: the newest Brent price at
// or before it (else the oldest after it) converted to VLSFO, else the
// default.
func BunkerAt(prices []PriceObs, at time.Time) Bunker {
	var best *PriceObs
	for i := range prices {
		p := &prices[i]
		if p.USDPerBarrel <= 0 || math.IsNaN(p.USDPerBarrel) || math.IsInf(p.USDPerBarrel, 0) {
			continue
		}
		switch {
		case best == nil:
			best = p
		case !p.Date.After(at) && (best.Date.After(at) || p.Date.After(best.Date)):
			best = p
		case p.Date.After(at) && best.Date.After(at) && p.Date.Before(best.Date):
			best = p
		}
	}
	if best == nil {
		return Bunker{USDPerTonne: Spread(DefaultBunkerUSD, DefaultUncertainty, DefaultUncertainty), Basis: "default",
			Source: fmt.Sprintf("default VLSFO price %.0f USD/t (no Brent price stored)", DefaultBunkerUSD)}
	}
	unc := BrentUncertainty
	if gap := at.Sub(best.Date); gap > BrentStaleAfter || -gap > BrentStaleAfter {
		unc = DefaultUncertainty
	}
	c := BarrelsPerTonne * best.USDPerBarrel * VLSFOPremium
	return Bunker{USDPerTonne: Spread(c, unc, unc), Basis: "brent", Date: best.Date.UTC(), BrentPerBarrel: best.USDPerBarrel,
		Source: fmt.Sprintf("%s:%s Brent %.2f USD/bbl of %s × %.2f bbl/t", best.Source, best.Series, best.USDPerBarrel,
			best.Date.UTC().Format(time.DateOnly), BarrelsPerTonne)}
}
