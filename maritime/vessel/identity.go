package vessel

import (
	"time"

	"overwatch"
)

// Identity is one row of a vessel's identity history: the values its
// static reports took from ValidFrom on.
type Identity struct {
	IMO       overwatch.IMO
	ValidFrom time.Time
	MMSI      uint32
	Name      string
	CallSign  string
	Flag      string
	ShipType  uint8
}
