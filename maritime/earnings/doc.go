// Package earnings estimates what a completed voyage earned: the
// time-charter equivalent (TCE) of a laden voyage, (freight revenue − fuel
// cost − port costs) / voyage days, with low and high bounds from the
// uncertainty of the freight rate, the bunker price, the cargo estimate
// and the fuel estimate, and the weekly freight revenue of the cargo
// departing each port. It holds the rate, bunker-price and port-cost
// models (documented in docs/earnings.md); pure functions, no storage.
package earnings
