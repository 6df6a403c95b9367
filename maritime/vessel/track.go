package vessel

import "time"

// TrackPoint is one reported position of a vessel.
type TrackPoint struct {
	TS          time.Time
	Lat, Lon    float64
	SOG         float64 // knots; NaN when not reported
	NavStatus   uint8
	Draft       float64 // reported draught, metres; 0 when not reported
	Destination string
}
