package history

import (
	"bytes"
	"encoding/binary"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"overwatch"
	"overwatch/write/ingest"
)

// static is a row's static and voyage data before it becomes a report:
// text still points into the line, so that a row whose static data did
// not change allocates nothing.
type static struct {
	has                         ingest.Has
	imo                         overwatch.IMO
	name, call, dest            []byte
	shipType                    uint8
	bow, stern, port, starboard uint16
	draught                     float64
	eta                         int64 // unix seconds
}

// staticBits are the Has bits of static and voyage data.
const staticBits = ingest.HasIMO | ingest.HasName | ingest.HasCallSign | ingest.HasShipType |
	ingest.HasDimensions | ingest.HasDraught | ingest.HasDestination | ingest.HasETA

// text cleans a text field as the decoder does: cut at the first "@" (AIS
// padding), spaces trimmed at both ends.
func text(b []byte) []byte {
	if i := bytes.IndexByte(b, '@'); i >= 0 {
		b = b[:i]
	}
	return bytes.TrimSpace(b)
}

func (s *static) setName(b []byte) {
	if s.name = text(b); len(s.name) > 0 {
		s.has |= ingest.HasName
	}
}

func (s *static) setCall(b []byte) {
	if s.call = text(b); len(s.call) > 0 {
		s.has |= ingest.HasCallSign
	}
}

func (s *static) setDest(b []byte) {
	if s.dest = text(b); len(s.dest) > 0 {
		s.has |= ingest.HasDestination
	}
}

// setIMOText reads an IMO written as text: "IMO9307839", "9307839",
// empty (not given). Anything else that is not seven digits with a valid
// check digit ("IMO739103200", "IMO0000000", "Unknown") is dropped and
// counted.
func (s *static) setIMOText(b []byte, q *quirks) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return
	}
	if len(b) > 3 && (b[0] == 'I' || b[0] == 'i') && (b[1] == 'M' || b[1] == 'm') && (b[2] == 'O' || b[2] == 'o') {
		b = bytes.TrimSpace(b[3:])
	}
	v, ok := parseUint(b)
	if !ok || len(b) != 7 {
		q.add(rIMOInvalid)
		return
	}
	s.setIMONumber(v, q)
}

// setIMONumber takes an IMO given as a number; 0 and numbers that fail
// the check digit are dropped and counted.
func (s *static) setIMONumber(v uint64, q *quirks) {
	if v > math.MaxUint32 || !overwatch.IMO(v).Valid() {
		q.add(rIMOInvalid)
		return
	}
	s.imo = overwatch.IMO(v)
	s.has |= ingest.HasIMO
}

// setShipType takes an ITU ship and cargo type; 0 (not available) and
// values above 99 (not ITU codes, such as NAIS's 1001-1025) are left out.
func (s *static) setShipType(v float64) {
	if v >= 1 && v <= 99 {
		s.shipType = uint8(math.Round(v))
		s.has |= ingest.HasShipType
	}
}

// dim converts a dimension in metres; ok is false for values no ship has.
func dim(v float64) (uint16, bool) {
	if v < 0 || v > 65535 {
		return 0, false
	}
	return uint16(math.Round(v)), true
}

// setDims takes the distances from the reference point to bow, stern,
// port and starboard; all zero is "not available".
func (s *static) setDims(bow, stern, port, starboard uint16) {
	if bow|stern|port|starboard != 0 {
		s.bow, s.stern, s.port, s.starboard = bow, stern, port, starboard
		s.has |= ingest.HasDimensions
	}
}

// setLengthWidth takes overall dimensions only (MarineCadastre, DMA
// without A-D): the length goes to ToBow and the width to ToPort, so that
// ToBow+ToStern and ToPort+ToStarboard give them back.
func (s *static) setLengthWidth(length, width uint16) { s.setDims(length, 0, width, 0) }

// setDraught takes a draught in metres; 0 is "not available".
func (s *static) setDraught(m float64) {
	if m > 0 && m < 100 {
		s.draught = math.Round(m*10) / 10
		s.has |= ingest.HasDraught
	}
}

// setETA takes an ETA in unix seconds.
func (s *static) setETA(t int64) {
	s.eta = t
	s.has |= ingest.HasETA
}

// setETAParts takes an AIS ETA (month, day, hour, minute) relative to the
// report time ref, as the decoder's conversion does: month 0, day 0, hour
// 24 and minute 60 are not available; a date without a time is midnight.
func (s *static) setETAParts(ref int64, month, day, hour, minute int, q *quirks) {
	if month == 0 || day == 0 || hour == 24 || minute == 60 {
		q.add(rSentinelETA)
	}
	if month < 1 || month > 12 || day < 1 {
		return
	}
	if hour > 23 || minute > 59 {
		hour, minute = 0, 0
	}
	if eta, ok := ingest.ETAFrom(time.Unix(ref, 0), month, day, hour, minute); ok {
		s.setETA(eta.Unix())
	}
}

// hash sums up the static data of a report of type typ, for the check
// "did this MMSI's static data change since the last static report".
func (s *static) hash(typ uint8) uint64 {
	var buf [256]byte
	b := append(buf[:0], typ)
	b = binary.LittleEndian.AppendUint32(b, uint32(s.has))
	b = binary.LittleEndian.AppendUint32(b, uint32(s.imo))
	b = append(b, s.shipType)
	b = binary.LittleEndian.AppendUint64(b, uint64(s.bow)<<48|uint64(s.stern)<<32|uint64(s.port)<<16|uint64(s.starboard))
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(s.draught))
	b = binary.LittleEndian.AppendUint64(b, uint64(s.eta))
	for _, t := range [3][]byte{s.name, s.call, s.dest} {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(t)))
		b = append(b, t...)
	}
	return hashBytes(b)
}

// fill copies the static data into a report.
func (s *static) fill(r *ingest.Report) {
	r.Has |= s.has
	r.IMO = s.imo
	r.Name = str(s.name)
	r.CallSign = str(s.call)
	r.Destination = str(s.dest)
	r.ShipType = s.shipType
	r.ToBow, r.ToStern, r.ToPort, r.ToStarboard = s.bow, s.stern, s.port, s.starboard
	r.Draught = s.draught
	if s.has&ingest.HasETA != 0 {
		r.ETA = time.Unix(s.eta, 0).UTC()
	}
}

// str makes a string of valid UTF-8 (bytes that are not are replaced).
func str(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if !utf8.Valid(b) {
		return strings.ToValidUTF8(string(b), "\uFFFD")
	}
	return string(b)
}
