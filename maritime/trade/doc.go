// Package trade derives trade routes from the port calls: completed laden
// voyages (a loading call paired with the vessel's next discharging call
// at another port), their weekly origin→destination flows, shifts of an
// origin's flows between destinations, and voyages whose declared AIS
// destination was not the port reached (deceptions). It imports no
// storage and no HTTP; docs/trade-routes.md documents every threshold.
package trade
