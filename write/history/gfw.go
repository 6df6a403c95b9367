package history

import (
	"math"

	"overwatch/write/ingest"
)

// GFW: Global Fishing Watch's gpsdio JSON lines: positions keyed by ssvid
// (segment files, no message type), or decoded messages of every AIS type
// with raw ITU sentinels left in (types.json).

// gfwRecord is one gpsdio line.
type gfwRecord struct {
	SSVID       jnum  `json:"ssvid"`
	MMSI        jnum  `json:"mmsi"`
	Type        jnum  `json:"type"`
	Timestamp   jtext `json:"timestamp"`
	Lat         jnum  `json:"lat"`
	Lon         jnum  `json:"lon"`
	Speed       jnum  `json:"speed"`
	Course      jnum  `json:"course"`
	Heading     jnum  `json:"heading"`
	Status      jnum  `json:"status"`
	Shipname    jtext `json:"shipname"`
	Callsign    jtext `json:"callsign"`
	Destination jtext `json:"destination"`
	IMO         jnum  `json:"imo"`
	Shiptype    jnum  `json:"shiptype"`
	ToBow       jnum  `json:"to_bow"`
	ToStern     jnum  `json:"to_stern"`
	ToPort      jnum  `json:"to_port"`
	ToStarboard jnum  `json:"to_starboard"`
	Draught     jnum  `json:"draught"`
	Month       jnum  `json:"month"`
	Day         jnum  `json:"day"`
	Hour        jnum  `json:"hour"`
	Minute      jnum  `json:"minute"`
	Partno      jnum  `json:"partno"`
}

// gfw reads gpsdio JSON lines.
type gfw struct{}

// row reads one record. Without a type it is a position (reported as
// type 1: gpsdio tracks do not say the class). Types 1-3, 18 and 27 give
// a position report, 5 and 24 a static report, 19 one report with both,
// as the live decoder does; other types are skipped.
func (gfw) row(r *Reader, line []byte) rid {
	var rec gfwRecord
	if !decodeObject(line, &rec) {
		return rBadRow
	}
	q := &r.q
	id := rec.SSVID
	if !id.ok {
		id = rec.MMSI
	}
	mmsi, ok := mmsiOf(id)
	if !ok {
		return rInvalidMMSI
	}
	v := r.vessel(mmsi)
	h := hashBytes(line)
	if v.line == h {
		return rDuplicate
	}
	v.line = h
	typ := int64(1)
	if rec.Type.ok || rec.Type.bad {
		var ok bool
		if typ, ok = rec.Type.int(); !ok {
			return rBadRow
		}
	}
	switch typ {
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
	ts, ok := jsonTime(rec.Timestamp)
	if !ok {
		return rBadTime
	}
	if typ == 18 || typ == 19 || typ == 24 {
		q.add(rClassB)
	}

	var pos position
	if typ != 5 && typ != 24 {
		lat, okLat := rec.Lat.get(q)
		lon, okLon := rec.Lon.get(q)
		if okLat && okLon {
			pos.setLatLon(lat, lon)
		}
		if x, ok := rec.Speed.get(q); ok {
			pos.setSOG(round1(x), q)
		}
		if x, ok := rec.Course.get(q); ok {
			pos.setCOG(round1(x), q)
		}
		if x, ok := rec.Heading.get(q); ok && typ != 27 {
			pos.setHeading(x, q)
		}
		if x, ok := rec.Status.get(q); ok {
			pos.setNav(x)
		}
	}
	var s static
	if typ == 5 || typ == 19 || typ == 24 {
		gfwStatic(&rec, int(typ), ts, &s, q)
	}

	hasPos := pos.has&ingest.HasPosition != 0
	switch {
	case !hasPos && s.has == 0:
		if pos.impossible {
			return rImpossiblePosition
		}
		return rPositionUnavailable
	case typ == 5 || typ == 24:
		r.emitStatic(v, mmsi, ts, uint8(typ), &s, true)
		if p, ok := rec.Partno.int(); ok && typ == 24 && p == 1 {
			r.out[len(r.out)-1].Part = 1
		}
	case typ == 19:
		if !hasPos {
			q.add(rPositionUnavailableStaticKept)
			pos.has = 0 // speed and course without a position say nothing
		}
		rep := r.report(mmsi, 19, ts)
		rep.Has = pos.has
		rep.Lat, rep.Lon, rep.SOG, rep.COG = pos.lat, pos.lon, pos.sog, pos.cog
		rep.Heading, rep.NavStatus = pos.heading, pos.nav
		s.fill(&rep)
		v.static = s.hash(19)
		r.emit(&rep)
	default:
		r.emitPosition(mmsi, ts, uint8(typ), &pos)
	}
	return rNone
}

// gfwStatic reads the static fields of types 5, 19 and 24 (draught in
// metres, ETA as month, day, hour and minute).
func gfwStatic(rec *gfwRecord, typ int, ts int64, s *static, q *quirks) {
	s.setName(rec.Shipname.bytes(q))
	s.setCall(rec.Callsign.bytes(q))
	if x, ok := rec.Shiptype.get(q); ok {
		s.setShipType(x)
	}
	var d [4]uint16
	for k, n := range [4]jnum{rec.ToBow, rec.ToStern, rec.ToPort, rec.ToStarboard} {
		if x, ok := n.get(q); ok {
			if v, ok := dim(x); ok {
				d[k] = v
			} else {
				q.add(rBadField)
			}
		}
	}
	s.setDims(d[0], d[1], d[2], d[3])
	if typ != 5 {
		return
	}
	s.setDest(rec.Destination.bytes(q))
	if x, ok := rec.IMO.get(q); ok {
		if x < 0 || x != math.Trunc(x) {
			q.add(rIMOInvalid)
		} else {
			s.setIMONumber(uint64(x), q)
		}
	}
	if x, ok := rec.Draught.get(q); ok {
		s.setDraught(x)
	}
	mo, ok1 := rec.Month.int()
	d2, ok2 := rec.Day.int()
	hh, ok3 := rec.Hour.int()
	mi, ok4 := rec.Minute.int()
	if ok1 && ok2 && ok3 && ok4 && mo >= 0 && mo <= 15 && d2 >= 0 && d2 <= 31 && hh >= 0 && hh <= 31 && mi >= 0 && mi <= 63 {
		s.setETAParts(ts, int(mo), int(d2), int(hh), int(mi), q)
	}
}
