package portcall

import "time"

// Published reports whether a call is confident enough to count.
func (c *Call) Published() bool { return c.Confidence >= PublishConfidence }

// BerthHours is the time at berth once the vessel has left it, or 0.
func (c *Call) BerthHours() float64 {
	if c.BerthStart == nil || c.BerthEnd == nil {
		return 0
	}
	return c.BerthEnd.Sub(*c.BerthStart).Hours()
}

// PortHours is the time in port once the vessel has departed, or 0.
func (c *Call) PortHours() float64 {
	if c.Departure == nil {
		return 0
	}
	return c.Departure.Sub(c.Arrival).Hours()
}

// AnchorUntil is when the call's anchor period ended: at berthing, at
// departure, or not yet.
func (c *Call) AnchorUntil() time.Time {
	switch {
	case c.BerthStart != nil:
		return *c.BerthStart
	case c.Departure != nil:
		return *c.Departure
	}
	return FarFuture
}

// BerthUntil is when the vessel left its berth: the end of its stay there
// once it has departed, or not yet.
func (c *Call) BerthUntil() time.Time {
	if c.Departure == nil {
		return FarFuture
	}
	if c.BerthEnd != nil {
		return *c.BerthEnd
	}
	return *c.Departure
}

// FarFuture is the end AnchorUntil and BerthUntil give a period that has
// not ended yet.
var FarFuture = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)
