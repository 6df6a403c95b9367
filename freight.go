package overwatch

import "time"

// FreightRecord is a freight-rate record an account submitted, as stored:
// the write side answers its creation with it, the read side lists the
// caller's own among the freight rates.
type FreightRecord struct {
	ID          int64
	VesselType  string
	Origin      string // port slug
	Destination string // port slug
	Rate        float64
	Unit        string
	Date        time.Time // the day the rate is for (UTC midnight)
	Notes       string
	CreatedAt   time.Time
}
