package ais

import (
	"math"
	"time"

	"overwatch"
)

// Field is a bit set naming the optional fields of a Message that hold a
// value. A field whose bit is clear was not carried by the message type or
// was "not available" on the wire; its float value is NaN and its integer
// value zero.
type Field uint32

// The optional fields of a Message.
const (
	// HasPosition: Lat and Lon (both valid; one not available or out of
	// range clears both).
	HasPosition Field = 1 << iota
	// HasSOG: SOG, speed over ground in knots.
	HasSOG
	// HasCOG: COG, course over ground in degrees.
	HasCOG
	// HasHeading: Heading, true heading in degrees (0-359).
	HasHeading
	// HasTurn: Turn, the raw rate-of-turn indicator (not -128).
	HasTurn
	// HasNavStatus: NavStatus (types 1, 2, 3 and 27; 15 "Not defined"
	// included).
	HasNavStatus
	// HasIMO: IMO, a non-zero IMO number (type 5).
	HasIMO
	// HasDraught: Draught in metres, non-zero (type 5).
	HasDraught
	// HasETA: ETAMonth (1-12) and ETADay (1-31) (type 5).
	HasETA
	// HasETATime: ETAHour (0-23) and ETAMinute (0-59) (type 5).
	HasETATime
	// HasName: Name, non-empty (types 5, 19, 21, 24 part A).
	HasName
	// HasCallSign: CallSign, non-empty (types 5, 24 part B).
	HasCallSign
	// HasShipType: ShipType, non-zero (types 5, 19, 24 part B).
	HasShipType
	// HasDimensions: ToBow, ToStern, ToPort, ToStarboard, not all zero
	// (types 5, 19, 21, 24 part B).
	HasDimensions
	// HasDestination: Destination, non-empty (type 5).
	HasDestination
	// HasMothership: MothershipMMSI (type 24 part B from an auxiliary
	// craft, MMSI 98xxxxxxx), which then carries no dimensions.
	HasMothership
	// HasDate: Year (1-9999), Month (1-12) and Day (1-31) (type 4).
	HasDate
	// HasTime: Hour (0-23), Minute (0-59) and Sec (0-59) (type 4).
	HasTime
	// HasVendor: VendorID, Model and Serial (type 24 part B).
	HasVendor
)

// Has reports whether every field of x is present in f.
func (f Field) Has(x Field) bool { return f&x == x }

// Message is one decoded AIS message with its envelope (talker, channel,
// time). Only the fields that the message type carries are set; see Field
// for which ones may be absent.
type Message struct {
	// Type is the message type (1-27), Repeat the repeat indicator, MMSI
	// the source's identity.
	Type   uint8
	Repeat uint8
	MMSI   uint32

	// Talker is the NMEA talker ("AI", "AB", "BS", ...), Channel the radio
	// channel as written in the sentence ('A', 'B', '1', '2', or 0 when
	// empty), Own true for VDO (the receiver's own ship).
	Talker  [2]byte
	Channel byte
	Own     bool

	// Time is when the message was received according to the feed, in UTC,
	// with TimeFromFeed true; zero with TimeFromFeed false when the line
	// carried no time (the caller stamps it with its ingest clock).
	// Station names the receiving station when the feed says (tag block
	// "s:", USCG "r"/"b" field).
	Time         time.Time
	TimeFromFeed bool
	Station      string

	// Fields says which optional fields below hold a value.
	Fields Field

	// Position reports (1, 2, 3, 18, 19, 27), base stations (4), aids to
	// navigation (21).
	NavStatus uint8   // 0-15, see NavStatusText
	Lat, Lon  float64 // degrees, WGS 84; NaN when absent
	SOG       float64 // knots (102.2 means 102.2 or more); NaN when absent
	COG       float64 // degrees; NaN when absent
	Heading   uint16  // degrees 0-359
	Turn      int8    // raw rate-of-turn indicator, see RateOfTurn
	Second    uint8   // UTC second of the fix, raw: 60 not available, 61-63 special
	Maneuver  uint8   // special manoeuvre indicator (types 1-3)
	Accuracy  bool    // position accuracy flag: true is better than 10 m
	RAIM      bool    // RAIM in use
	Latency   bool    // type 27: true if the position is older than 5 s

	// Class B unit flags (type 18); Assigned also for 19 and 21.
	CS, Display, DSC, Band, Msg22, Assigned bool

	// Static and voyage data (5, 19, 21, 24).
	AISVersion  uint8
	IMO         overwatch.IMO
	CallSign    string
	Name        string
	ShipType    uint8 // see ShipTypeText
	ToBow       uint16
	ToStern     uint16
	ToPort      uint16
	ToStarboard uint16
	EPFD        uint8 // position fixing device, see EPFDText
	ETAMonth    uint8
	ETADay      uint8
	ETAHour     uint8
	ETAMinute   uint8
	Draught     float64 // metres (25.5 means 25.5 or more); NaN when absent
	Destination string
	DTE         bool // raw DTE bit: true means the data terminal is NOT ready
	PartNumber  uint8
	VendorID    string // type 24 B: manufacturer's id (3 characters)
	Model       uint8  // type 24 B: unit model code
	Serial      uint32 // type 24 B: unit serial number
	// MothershipMMSI: type 24 B from an auxiliary craft (HasMothership).
	MothershipMMSI uint32

	// Aids to navigation (21).
	AidType     uint8 // see AidTypeText
	Virtual     bool
	OffPosition bool

	// Base station report (4): UTC date and time of the station.
	Year              uint16
	Month, Day        uint8
	Hour, Minute, Sec uint8
}

// RateOfTurn converts Turn to degrees per minute (ITU-R M.1371:
// ROT = (Turn/4.733)^2 with Turn's sign). Turn ±127 means "turning faster
// than 5° per 30 s" and gives ±720 approximately; NaN when absent.
func (m *Message) RateOfTurn() float64 {
	if m.Fields&HasTurn == 0 {
		return math.NaN()
	}
	r := float64(m.Turn) / 4.733
	if m.Turn < 0 {
		return -r * r
	}
	return r * r
}

// UTC is the base station's date and time (type 4) when both are present.
func (m *Message) UTC() (time.Time, bool) {
	if !m.Fields.Has(HasDate | HasTime) {
		return time.Time{}, false
	}
	return time.Date(int(m.Year), time.Month(m.Month), int(m.Day), int(m.Hour), int(m.Minute), int(m.Sec), 0, time.UTC), true
}

// LengthWidth is the ship's length (ToBow+ToStern) and beam
// (ToPort+ToStarboard) in metres, when the dimensions are present.
func (m *Message) LengthWidth() (length, width int, ok bool) {
	if m.Fields&HasDimensions == 0 {
		return 0, 0, false
	}
	return int(m.ToBow) + int(m.ToStern), int(m.ToPort) + int(m.ToStarboard), true
}

// IsPosition reports whether the message type is a position report
// (1, 2, 3, 18, 19, 27).
func (m *Message) IsPosition() bool {
	switch m.Type {
	case 1, 2, 3, 18, 19, 27:
		return true
	}
	return false
}

// Decoded reports whether the message type is one this package decodes
// field by field (1-5, 18, 19, 21, 24, 27); other types carry only the
// header (Type, Repeat, MMSI) and the envelope.
func Decoded(msgType uint8) bool {
	switch msgType {
	case 1, 2, 3, 4, 5, 18, 19, 21, 24, 27:
		return true
	}
	return false
}
