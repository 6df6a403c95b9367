package portcall

import (
	"time"

	"overwatch/maritime/seaport"
	"overwatch/maritime/vessel"
)

// Day is the day a call is stored under: that of its departure, or of
// the end of the data while it goes on.
func Day(c *Call, dataEnd time.Time) time.Time {
	if c.Departure != nil {
		return c.Departure.UTC().Truncate(24 * time.Hour)
	}
	return dataEnd.UTC().Truncate(24 * time.Hour)
}

// Enrich adds to a detected call the vessel's identity, the port its
// declared destination names, and the cargo estimate.
func Enrich(c *Call, v vessel.Profile) {
	c.Name, c.Flag, c.ShipType = v.Name, v.Flag, v.ShipType
	if cat, ok := vessel.CategoryOf(v.ShipType); ok {
		c.Category = cat.Name
	}
	c.BuildYear, c.BuildYearEstimated = v.BuildYear, false
	if c.BuildYear == 0 {
		c.BuildYear, c.BuildYearEstimated = vessel.BuildYearFromIMO(c.IMO), true
	}
	c.DeclaredPort, _ = seaport.OfDestination(c.Declared)
	EstimateCargo(c, v)
}
