package history

import (
	"math"
	"time"

	"overwatch/write/ingest"
)

// From a row's fields to reports: the position, its sentinels and the
// static report that goes before it.

// position is a row's position data before it becomes a report.
type position struct {
	has        ingest.Has
	lat, lon   float64
	sog, cog   float64
	heading    uint16
	nav        uint8
	impossible bool // a position out of range that is not the sentinel
}

// validMMSI: non-zero, at most nine digits.
func validMMSI(v uint64) bool { return v >= 1 && v <= 999_999_999 }

// setLatLon classifies a position: the "not available" sentinels
// (latitude 91, longitude 181) and values out of range leave HasPosition
// clear, the latter marked impossible.
func (p *position) setLatLon(lat, lon float64) {
	switch {
	case lat == 91 || lon == 181:
	case lat < -90 || lat > 90 || lon < -180 || lon > 180:
		p.impossible = true
	default:
		p.lat, p.lon = lat, lon
		p.has |= ingest.HasPosition
	}
}

// setSOG takes a speed in knots: 102.3 ("not available") and negative
// values are left out and counted.
func (p *position) setSOG(v float64, q *quirks) {
	if v < 0 || v > 102.25 {
		q.add(rSOGUnavailable)
		return
	}
	p.sog = v
	p.has |= ingest.HasSOG
}

// setCOG takes a course in degrees: 360 ("not available"), an unscaled
// 3600 and negative values are left out and counted.
func (p *position) setCOG(v float64, q *quirks) {
	if v < 0 || v >= 360 {
		q.add(rCOGUnavailable)
		return
	}
	p.cog = v
	p.has |= ingest.HasCOG
}

// setHeading takes a true heading in degrees: 511 ("not available") and
// other values outside 0-359 are left out and counted.
func (p *position) setHeading(v float64, q *quirks) {
	h := math.Round(v)
	if h < 0 || h > 359 {
		q.add(rHeadingUnavailable)
		return
	}
	p.heading = uint16(h)
	p.has |= ingest.HasHeading
}

// setNav takes a navigational status: 15 ("not defined") and values
// above are left out, as the live feeds do.
func (p *position) setNav(v float64) {
	if v >= 0 && v < 15 && v == math.Trunc(v) {
		p.nav = uint8(v)
		p.has |= ingest.HasNavStatus
	}
}

// report starts a report of the current row.
func (r *Reader) report(mmsi uint32, typ uint8, ts int64) ingest.Report {
	t := time.Unix(ts, 0).UTC()
	return ingest.Report{Source: r.src, MMSI: mmsi, Type: typ, TS: t, ReceivedAt: t}
}

// types of the reports of a row from class A or class B.
func reportTypes(classB bool) (pos, stat uint8) {
	if classB {
		return 18, 24
	}
	return 1, 5
}

// combined emits a row that carries both a position and static data
// (MarineCadastre, DMA, BarentsWatch's flat records): a static report when
// the MMSI's static data differs from the last static report this Reader
// emitted for it, then the position. Without a valid position the static
// data alone is kept (always emitted: it is all the row says); without
// either the row is skipped.
func (r *Reader) combined(v *vessel, mmsi uint32, ts int64, posType, statType uint8, p *position, s *static) rid {
	if p.has&ingest.HasPosition == 0 {
		if s.has == 0 {
			if p.impossible {
				return rImpossiblePosition
			}
			return rPositionUnavailable
		}
		r.q.add(rPositionUnavailableStaticKept)
		r.emitStatic(v, mmsi, ts, statType, s, true)
		return rNone
	}
	r.emitStatic(v, mmsi, ts, statType, s, false)
	r.emitPosition(mmsi, ts, posType, p)
	return rNone
}

// emitStatic emits a static report, unless it repeats the last one of
// the MMSI and force is false. Nothing is emitted without static data.
func (r *Reader) emitStatic(v *vessel, mmsi uint32, ts int64, typ uint8, s *static, force bool) {
	if s.has == 0 {
		return
	}
	h := s.hash(typ)
	if h == v.static && !force {
		return
	}
	v.static = h
	rep := r.report(mmsi, typ, ts)
	s.fill(&rep)
	r.emit(&rep)
}

// emitPosition emits a position report.
func (r *Reader) emitPosition(mmsi uint32, ts int64, typ uint8, p *position) {
	rep := r.report(mmsi, typ, ts)
	rep.Has = p.has
	rep.Lat, rep.Lon = p.lat, p.lon
	rep.SOG, rep.COG = p.sog, p.cog
	rep.Heading, rep.NavStatus = p.heading, p.nav
	r.emit(&rep)
}
