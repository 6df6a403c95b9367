package ais

import "overwatch"

// setName, setCallSign and setDestination store a decoded text field and
// mark it present when non-empty.
func (m *Message) setName(s string) {
	m.Name = s
	if s != "" {
		m.Fields |= HasName
	}
}

func (m *Message) setCallSign(s string) {
	m.CallSign = s
	if s != "" {
		m.Fields |= HasCallSign
	}
}

func (m *Message) setShipType(code uint32) {
	m.ShipType = uint8(code)
	if code != 0 {
		m.Fields |= HasShipType
	}
}

// setDimensions reads the four 9/9/6/6-bit dimensions at start; all zero
// means not available.
func (m *Message) setDimensions(b *bitBuf, start uint) {
	m.ToBow = uint16(b.u(start, 9))
	m.ToStern = uint16(b.u(start+9, 9))
	m.ToPort = uint16(b.u(start+18, 6))
	m.ToStarboard = uint16(b.u(start+24, 6))
	if m.ToBow|m.ToStern|m.ToPort|m.ToStarboard != 0 {
		m.Fields |= HasDimensions
	}
}

// setETA stores the ETA: month 0, day 0, hour 24 and minute 60 are "not
// available"; the date (month, day) and the time (hour, minute) are
// present or absent as pairs.
func (m *Message) setETA(month, day, hour, minute uint32) {
	if month >= 1 && month <= 12 && day >= 1 {
		m.ETAMonth, m.ETADay = uint8(month), uint8(day)
		m.Fields |= HasETA
	}
	if hour < 24 && minute < 60 {
		m.ETAHour, m.ETAMinute = uint8(hour), uint8(minute)
		m.Fields |= HasETATime
	}
}

// decodeStaticVoyage decodes type 5. It should be 424 bits; like gpsd, 420
// and more are accepted (many transmitters send 420 or 422), the DTE bit
// read only when present.
func decodeStaticVoyage(b *bitBuf, m *Message) error {
	if b.n < 420 {
		return ErrShort
	}
	m.AISVersion = uint8(b.u(38, 2))
	if imo := b.u(40, 30); imo != 0 {
		m.IMO = overwatch.IMO(imo)
		m.Fields |= HasIMO
	}
	m.setCallSign(b.text(70, 7))
	m.setName(b.text(112, 20))
	m.setShipType(b.u(232, 8))
	m.setDimensions(b, 240)
	m.EPFD = uint8(b.u(270, 4))
	m.setETA(b.u(274, 4), b.u(278, 5), b.u(283, 5), b.u(288, 6))
	if d := b.u(294, 8); d != 0 {
		m.Draught = float64(d) / 10
		m.Fields |= HasDraught
	}
	m.Destination = b.text(302, 20)
	if m.Destination != "" {
		m.Fields |= HasDestination
	}
	if b.n >= 423 {
		m.DTE = b.flag(422)
	}
	return nil
}

// decodeClassBExtended decodes type 19 (312 bits).
func decodeClassBExtended(b *bitBuf, m *Message) error {
	if b.n < 312 {
		return ErrShort
	}
	m.setSOG(b.u(46, 10))
	m.Accuracy = b.flag(56)
	m.setPosition(b.s(57, 28), b.s(85, 27), 600000)
	m.setCOG(b.u(112, 12))
	m.setHeading(b.u(124, 9))
	m.Second = uint8(b.u(133, 6))
	m.setName(b.text(143, 20))
	m.setShipType(b.u(263, 8))
	m.setDimensions(b, 271)
	m.EPFD = uint8(b.u(301, 4))
	m.RAIM = b.flag(305)
	m.DTE = b.flag(306)
	m.Assigned = b.flag(307)
	return nil
}

// maxNameExtension is the longest type 21 name extension (88 bits).
const maxNameExtension = 14

// decodeAidToNavigation decodes type 21 (272 bits plus up to 88 bits of
// name extension). As in gpsd, the extension is appended only when the
// 20-character name has no "@", and trailing spaces are trimmed after.
func decodeAidToNavigation(b *bitBuf, m *Message) error {
	if b.n < 272 {
		return ErrShort
	}
	m.AidType = uint8(b.u(38, 5))
	var tmp [64]byte
	name := b.textBytes(tmp[:0], 43, 20)
	if len(name) == 20 && b.n > 272 {
		name = b.textBytes(name, 272, min(uint(b.n-272)/6, maxNameExtension))
	}
	if name = trimText(name); len(name) > 0 {
		m.setName(string(name))
	}
	m.Accuracy = b.flag(163)
	m.setPosition(b.s(164, 28), b.s(192, 27), 600000)
	m.setDimensions(b, 219)
	m.EPFD = uint8(b.u(249, 4))
	m.Second = uint8(b.u(253, 6))
	m.OffPosition = b.flag(259)
	m.RAIM = b.flag(268)
	m.Virtual = b.flag(269)
	m.Assigned = b.flag(270)
	return nil
}

// isAuxiliary reports an auxiliary craft's MMSI (98MIDxxxx), whose type
// 24 part B carries the mother ship's MMSI instead of dimensions.
func isAuxiliary(mmsi uint32) bool { return mmsi/10000000 == 98 }

// decodeStaticDataReport decodes type 24: part A (name, 160 bits, 168 in
// the standard) or part B (ship type, vendor, call sign, dimensions or
// mother ship, 168 bits).
func decodeStaticDataReport(b *bitBuf, m *Message) error {
	if b.n < 40 {
		return ErrShort
	}
	m.PartNumber = uint8(b.u(38, 2))
	switch m.PartNumber {
	case 0:
		if b.n < 160 {
			return ErrShort
		}
		m.setName(b.text(40, 20))
	case 1:
		if b.n < 168 {
			return ErrShort
		}
		m.setShipType(b.u(40, 8))
		m.VendorID = b.text(48, 3)
		m.Model = uint8(b.u(66, 4))
		m.Serial = b.u(70, 20)
		m.Fields |= HasVendor
		m.setCallSign(b.text(90, 7))
		if isAuxiliary(m.MMSI) {
			m.MothershipMMSI = b.u(132, 30)
			m.Fields |= HasMothership
		} else {
			m.setDimensions(b, 132)
		}
	default:
		return ErrBadType
	}
	return nil
}
