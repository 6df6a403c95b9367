package history

import (
	"time"

	"overwatch/write/ais"
	"overwatch/write/feed"
	"overwatch/write/ingest"
)

// NMEA: AIVDM/AIVDO sentences, decoded by write/ais and converted by
// feed.FromAIS as the live feeds are. Only messages with a time of their
// own (tag block, $PGHP, USCG suffix, time prefix) can be placed in
// history.

// nmea reads the lines of one NMEA capture.
type nmea struct {
	dec  *ais.Decoder
	last ais.Stats
}

// epoch is the decoder's clock: fixed, so that fragments without a feed
// time are aged by eviction only and a file always reads the same.
func epoch() time.Time { return time.Unix(0, 0) }

func newNMEA() *nmea { return &nmea{dec: ais.NewDecoder(ais.Options{Now: epoch})} }

// row hands one line to the decoder. A line that completes a message
// gives its report; the others are counted by what the decoder did with
// them (fragment, other NMEA, invalid).
func (p *nmea) row(r *Reader, line []byte) rid {
	m, ok := p.dec.Decode(line)
	st := p.dec.Stats()
	prev := p.last
	p.last = st
	if !ok {
		switch {
		case st.Fragments > prev.Fragments:
			return rFragment
		case st.DuplicateFragments > prev.DuplicateFragments:
			return rDuplicate
		case st.OtherNMEA+st.Comments+st.Blank > prev.OtherNMEA+prev.Comments+prev.Blank:
			return rOtherNMEA
		}
		return rInvalidNMEA // garbage, bad checksum, bad payload
	}
	if !validMMSI(uint64(m.MMSI)) {
		return rInvalidMMSI
	}
	switch m.Type {
	case 4:
		return rBaseStation
	case 21:
		return rAidToNavigation
	case 9:
		return rSARAircraft
	case 1, 2, 3, 5, 18, 19, 24, 27:
	default:
		return rOtherMessage
	}
	if !m.TimeFromFeed || m.Time.IsZero() {
		return rNoTime
	}
	if y := m.Time.Year(); y < minYear || y > maxYear {
		return rBadTime
	}
	rep, ok := feed.FromAIS(&m, r.src, m.Time)
	if !ok {
		return rPositionUnavailable
	}
	rep.ReceivedAt = rep.TS
	q := &r.q
	nmeaQuirks(&m, &rep, q)
	isPos := rep.Has&ingest.HasPosition != 0
	isStatic := rep.Has&staticBits != 0
	switch {
	case !isPos && !isStatic:
		return rPositionUnavailable
	case !isPos && m.Type == 19:
		q.add(rPositionUnavailableStaticKept)
	}
	r.vessel(m.MMSI)
	r.emit(&rep)
	return rNone
}

// nmeaQuirks counts what the decoder left out as "not available" and
// drops IMO numbers that fail the check digit, as the other formats do.
func nmeaQuirks(m *ais.Message, rep *ingest.Report, q *quirks) {
	switch m.Type {
	case 1, 2, 3, 18, 19, 27:
		if m.Fields&ais.HasSOG == 0 {
			q.add(rSOGUnavailable)
		}
		if m.Fields&ais.HasCOG == 0 {
			q.add(rCOGUnavailable)
		}
		if m.Type != 27 && m.Fields&ais.HasHeading == 0 {
			q.add(rHeadingUnavailable)
		}
	case 5:
		if rep.Has&ingest.HasIMO == 0 || !rep.IMO.Valid() {
			q.add(rIMOInvalid)
			rep.Has &^= ingest.HasIMO
			rep.IMO = 0
		}
		if m.Fields&ais.HasETA == 0 || m.Fields&ais.HasETATime == 0 {
			q.add(rSentinelETA)
		}
	}
	switch m.Type {
	case 18, 19, 24:
		q.add(rClassB)
	}
}
