package ingest

import (
	"time"

	"overwatch"
)

// Has is the set of optional fields a Report carries.
type Has uint32

// The optional fields of a Report.
const (
	HasPosition Has = 1 << iota
	HasSOG
	HasCOG
	HasHeading
	HasNavStatus
	HasIMO
	HasName
	HasCallSign
	HasShipType
	HasDimensions
	HasDraught
	HasDestination
	HasETA
)

// Report is one decoded observation of a vessel from one feed: a position,
// static and voyage data, or both (AIS types 19 and the AISHub records).
type Report struct {
	Source     overwatch.Source
	MMSI       uint32
	Type       uint8     // AIS message type; 24 for either part of a type 24
	Part       uint8     // type 24: 0 for part A, 1 for part B
	TS         time.Time // when the vessel reported (feed time, or the ingest clock)
	ReceivedAt time.Time // when this service received it
	Station    string    // the receiving station, when the feed names one (NMEA tag block "s:")
	Has        Has

	Lat, Lon  float64
	SOG, COG  float64 // knots, degrees true
	Heading   uint16
	NavStatus uint8 // ITU-R M.1371 code; 15 is "not defined"

	IMO         overwatch.IMO
	Name        string
	CallSign    string
	ShipType    uint8
	ToBow       uint16
	ToStern     uint16
	ToPort      uint16
	ToStarboard uint16
	Draught     float64 // metres
	Destination string
	ETA         time.Time // the next occurrence of the reported month, day, hour and minute
}

// isPosition reports whether the report carries a usable position.
func (r *Report) isPosition() bool { return r.Has&HasPosition != 0 }

// isStatic reports whether the report carries static or voyage data.
func (r *Report) isStatic() bool {
	return r.Has&(HasIMO|HasName|HasCallSign|HasShipType|HasDimensions|HasDraught|HasDestination|HasETA) != 0
}

// classA reports whether the report comes from a class A transponder, the
// only kind that sends an IMO number.
func (r *Report) classA() bool {
	switch r.Type {
	case 1, 2, 3, 5, 27:
		return true
	}
	return false
}

// ETAFrom turns the month, day, hour and minute of an AIS ETA into the next
// such moment at or after ref (UTC); ok is false for not-available or
// impossible values.
func ETAFrom(ref time.Time, month, day, hour, minute int) (time.Time, bool) {
	if month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 {
		return time.Time{}, false
	}
	ref = ref.UTC()
	for year := ref.Year(); year <= ref.Year()+1; year++ {
		t := time.Date(year, time.Month(month), day, hour, minute, 0, 0, time.UTC)
		if t.Month() != time.Month(month) { // 31 April and the like
			return time.Time{}, false
		}
		if !t.Before(ref.Add(-24 * time.Hour)) {
			return t, true
		}
	}
	return time.Time{}, false
}
