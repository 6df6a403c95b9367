package ais

import (
	"errors"
	"math"
)

// Errors of payload decoding.
var (
	// ErrBadArmour: a payload character outside "0"-"W" and "`"-"w", an
	// empty payload, a bad fill-bit count or an over-long payload.
	ErrBadArmour = errors.New("ais: bad payload armour or fill bits")
	// ErrShort: the payload is too short for its message type (see
	// checkLength; ErrLong when too long).
	ErrShort = errors.New("ais: payload too short for its message type")
	// ErrLong: the payload is longer than its message type allows.
	ErrLong = errors.New("ais: payload too long for its message type")
	// ErrBadType: message type 0 or above 27, or a type 24 part number
	// other than A (0) and B (1).
	ErrBadType = errors.New("ais: invalid message type")
)

// DecodePayload decodes one armoured payload (all fragments joined) with
// its fill-bit count (0-5, or 6 as seen in the wild) into a Message. Only the fields of the payload are
// set: no envelope (talker, channel, time).
func DecodePayload(payload []byte, fill int) (Message, error) {
	var m Message
	var b bitBuf
	if len(payload) == 0 || len(payload) > maxPayloadChars || fill < 0 || fill > 6 {
		return m, ErrBadArmour
	}
	b.reset(len(payload))
	if !b.appendArmoured(payload, fill) {
		return m, ErrBadArmour
	}
	err := decodeBits(&b, &m)
	return m, err
}

// decodeBits decodes the message in b into m (whose fields are zero).
func decodeBits(b *bitBuf, m *Message) error {
	if b.n < 38 {
		return ErrShort
	}
	nan := math.NaN()
	m.Lat, m.Lon, m.SOG, m.COG, m.Draught = nan, nan, nan, nan, nan
	m.Type = uint8(b.u(0, 6))
	m.Repeat = uint8(b.u(6, 2))
	m.MMSI = b.u(8, 30)
	if m.Type > 27 || m.Type == 0 {
		return ErrBadType
	}
	if err := checkLength(b, m.Type); err != nil {
		return err
	}
	switch m.Type {
	case 1, 2, 3:
		return decodeClassA(b, m)
	case 4:
		return decodeBaseStation(b, m)
	case 5:
		return decodeStaticVoyage(b, m)
	case 18:
		return decodeClassB(b, m)
	case 19:
		return decodeClassBExtended(b, m)
	case 21:
		return decodeAidToNavigation(b, m)
	case 24:
		return decodeStaticDataReport(b, m)
	case 27:
		return decodeLongRange(b, m)
	}
	return nil // recognised, header only
}

// Wire values that mean "not available" (ITU-R M.1371-5).
const (
	lonNA     = 181 * 600000 // 1/10000 minute
	latNA     = 91 * 600000
	sogNA     = 1023 // 1/10 knot
	cogNA     = 3600 // 1/10 degree
	headingNA = 511
	turnNA    = -128
	lonNA27   = 181 * 600 // type 27: 1/10 minute
	latNA27   = 91 * 600
	sogNA27   = 63 // type 27: knots
	cogNA27   = 511
)

// setPosition stores a position given in 1/scale minutes (600000 for
// 1/10000 minute, 600 for 1/10 minute). Not-available and out-of-range
// values leave the position absent.
func (m *Message) setPosition(lon, lat int32, scale int32) {
	if lon < -180*scale || lon > 180*scale || lat < -90*scale || lat > 90*scale {
		return // includes the not-available 181 and 91
	}
	m.Lon = float64(lon) / float64(scale)
	m.Lat = float64(lat) / float64(scale)
	m.Fields |= HasPosition
}

// setSOG stores SOG in tenths of a knot (1023 not available).
func (m *Message) setSOG(raw uint32) {
	if raw >= sogNA {
		return
	}
	m.SOG = float64(raw) / 10
	m.Fields |= HasSOG
}

// setCOG stores COG in tenths of a degree (3600 not available, 3601-4095
// invalid).
func (m *Message) setCOG(raw uint32) {
	if raw >= cogNA {
		return
	}
	m.COG = float64(raw) / 10
	m.Fields |= HasCOG
}

// setHeading stores a heading in degrees (511 not available, 360-510
// invalid).
func (m *Message) setHeading(raw uint32) {
	if raw < 360 {
		m.Heading = uint16(raw)
		m.Fields |= HasHeading
	}
}

// decodeClassA decodes types 1, 2 and 3. Like gpsd (3.25), 163 bits are
// enough (the radio status may be cut short).
func decodeClassA(b *bitBuf, m *Message) error {
	if b.n < 163 {
		return ErrShort
	}
	m.NavStatus = uint8(b.u(38, 4))
	m.Fields |= HasNavStatus
	if t := int8(b.s(42, 8)); t != turnNA {
		m.Turn = t
		m.Fields |= HasTurn
	}
	m.setSOG(b.u(50, 10))
	m.Accuracy = b.flag(60)
	m.setPosition(b.s(61, 28), b.s(89, 27), 600000)
	m.setCOG(b.u(116, 12))
	m.setHeading(b.u(128, 9))
	m.Second = uint8(b.u(137, 6))
	m.Maneuver = uint8(b.u(143, 2))
	m.RAIM = b.flag(148)
	return nil
}

// decodeBaseStation decodes type 4.
func decodeBaseStation(b *bitBuf, m *Message) error {
	if b.n < 168 {
		return ErrShort
	}
	y, mo, d := b.u(38, 14), b.u(52, 4), b.u(56, 5)
	if y >= 1 && y <= 9999 && mo >= 1 && mo <= 12 && d >= 1 {
		m.Year, m.Month, m.Day = uint16(y), uint8(mo), uint8(d)
		m.Fields |= HasDate
	}
	h, mi, s := b.u(61, 5), b.u(66, 6), b.u(72, 6)
	if h < 24 && mi < 60 && s < 60 {
		m.Hour, m.Minute, m.Sec = uint8(h), uint8(mi), uint8(s)
		m.Fields |= HasTime
	}
	m.Accuracy = b.flag(78)
	m.setPosition(b.s(79, 28), b.s(107, 27), 600000)
	m.EPFD = uint8(b.u(134, 4))
	m.RAIM = b.flag(148)
	return nil
}

// decodeClassB decodes type 18.
func decodeClassB(b *bitBuf, m *Message) error {
	if b.n < 168 {
		return ErrShort
	}
	m.setSOG(b.u(46, 10))
	m.Accuracy = b.flag(56)
	m.setPosition(b.s(57, 28), b.s(85, 27), 600000)
	m.setCOG(b.u(112, 12))
	m.setHeading(b.u(124, 9))
	m.Second = uint8(b.u(133, 6))
	m.CS = b.flag(141)
	m.Display = b.flag(142)
	m.DSC = b.flag(143)
	m.Band = b.flag(144)
	m.Msg22 = b.flag(145)
	m.Assigned = b.flag(146)
	m.RAIM = b.flag(147)
	return nil
}

// decodeLongRange decodes type 27 (96 bits; some transmitters send 168).
func decodeLongRange(b *bitBuf, m *Message) error {
	if b.n < 96 {
		return ErrShort
	}
	m.Accuracy = b.flag(38)
	m.RAIM = b.flag(39)
	m.NavStatus = uint8(b.u(40, 4))
	m.Fields |= HasNavStatus
	lon, lat := b.s(44, 18), b.s(62, 17)
	m.setPosition(lon, lat, 600)
	if sog := b.u(79, 6); sog != sogNA27 {
		m.SOG = float64(sog)
		m.Fields |= HasSOG
	}
	if cog := b.u(85, 9); cog < 360 {
		m.COG = float64(cog)
		m.Fields |= HasCOG
	}
	m.Latency = b.flag(94)
	return nil
}
