package history

import "overwatch/write/ingest"

// BarentsWatch: Kystverket's AIS as JSON lines, three record types in one
// stream ("type": "Position", "Staticdata", "Aton") or the flat combined
// records (position and static data in one, no "type").

// bwRecord is one BarentsWatch line.
type bwRecord struct {
	Type        jtext `json:"type"`
	MessageType jnum  `json:"messageType"`
	MMSI        jnum  `json:"mmsi"`
	Msgtime     jtext `json:"msgtime"`
	Lat         jnum  `json:"latitude"`
	Lon         jnum  `json:"longitude"`
	SOG         jnum  `json:"speedOverGround"`
	COG         jnum  `json:"courseOverGround"`
	Heading     jnum  `json:"trueHeading"`
	Nav         jnum  `json:"navigationalStatus"`
	AISClass    jtext `json:"aisClass"`
	ReportClass jtext `json:"reportClass"`
	IMO         jnum  `json:"imoNumber"`
	CallSign    jtext `json:"callSign"`
	Name        jtext `json:"name"`
	Destination jtext `json:"destination"`
	ETA         jtext `json:"eta"`
	Draught     jnum  `json:"draught"`
	Length      jnum  `json:"shipLength"`
	Width       jnum  `json:"shipWidth"`
	ShipType    jnum  `json:"shipType"`
	A           jnum  `json:"dimensionA"`
	B           jnum  `json:"dimensionB"`
	C           jnum  `json:"dimensionC"`
	D           jnum  `json:"dimensionD"`
}

// barentsWatch reads BarentsWatch JSON lines.
type barentsWatch struct{}

// row reads one record: a Position gives a position report (its
// messageType, else 1 for class A and 18 for class B), a Staticdata a
// static report (5 or 24), a combined record both (the static report only
// when it changed); Aton records and base stations are skipped.
func (barentsWatch) row(r *Reader, line []byte) rid {
	var rec bwRecord
	if !decodeObject(line, &rec) {
		return rBadRow
	}
	q := &r.q
	mmsi, ok := mmsiOf(rec.MMSI)
	if !ok {
		return rInvalidMMSI
	}
	v := r.vessel(mmsi)
	h := hashBytes(line)
	if v.line == h {
		return rDuplicate
	}
	v.line = h
	mt, hasMT := rec.MessageType.int()
	switch {
	case rec.Type.s == "Aton" || mt == 21:
		return rAidToNavigation
	case mt == 4:
		return rBaseStation
	case mt == 9:
		return rSARAircraft
	case rec.Type.s != "" && rec.Type.s != "Position" && rec.Type.s != "Staticdata":
		return rOtherMessage
	}
	ts, ok := jsonTime(rec.Msgtime)
	if !ok {
		return rBadTime
	}
	class := rec.AISClass.s
	if rec.Type.s == "Staticdata" || class == "" {
		class = rec.ReportClass.s
	}
	classB := class == "B" || mt == 18 || mt == 19 || mt == 24
	if classB {
		q.add(rClassB)
	}
	posType, statType := reportTypes(classB)
	if hasMT {
		switch mt {
		case 1, 2, 3, 18, 19, 27:
			posType = uint8(mt)
		}
	}

	var pos position
	if rec.Type.s != "Staticdata" {
		lat, okLat := rec.Lat.get(q)
		lon, okLon := rec.Lon.get(q)
		if okLat && okLon {
			pos.setLatLon(lat, lon)
		}
		if x, ok := rec.SOG.get(q); ok {
			pos.setSOG(x, q)
		}
		if x, ok := rec.COG.get(q); ok {
			pos.setCOG(x, q)
		}
		if x, ok := rec.Heading.get(q); ok {
			pos.setHeading(x, q)
		}
		if x, ok := rec.Nav.get(q); ok {
			pos.setNav(x)
		}
	}
	if rec.Type.s == "Position" {
		if pos.has&ingest.HasPosition == 0 {
			if pos.impossible {
				return rImpossiblePosition
			}
			return rPositionUnavailable
		}
		r.emitPosition(mmsi, ts, posType, &pos)
		return rNone
	}

	var s static
	bwStatic(&rec, ts, &s, q)
	if rec.Type.s == "Staticdata" {
		if s.has == 0 {
			return rPositionUnavailable
		}
		r.emitStatic(v, mmsi, ts, statType, &s, true)
		return rNone
	}
	return r.combined(v, mmsi, ts, posType, statType, &pos, &s)
}

// bwStatic reads the static and voyage fields: draught in decimetres,
// dimensions A-D (or length and width), the "MMDDhhmm" ETA.
func bwStatic(rec *bwRecord, ts int64, s *static, q *quirks) {
	s.setName(rec.Name.bytes(q))
	s.setCall(rec.CallSign.bytes(q))
	s.setDest(rec.Destination.bytes(q))
	if x, ok := rec.IMO.get(q); ok {
		if x < 0 || x != float64(int64(x)) {
			q.add(rIMOInvalid)
		} else {
			s.setIMONumber(uint64(x), q)
		}
	}
	if x, ok := rec.ShipType.get(q); ok {
		s.setShipType(x)
	}
	var d [4]uint16
	for k, n := range [4]jnum{rec.A, rec.B, rec.C, rec.D} {
		if x, ok := n.get(q); ok {
			if v, ok := dim(x); ok {
				d[k] = v
			} else {
				q.add(rBadField)
			}
		}
	}
	if d[0]|d[1]|d[2]|d[3] != 0 {
		s.setDims(d[0], d[1], d[2], d[3])
	} else {
		l, okL := rec.Length.get(q)
		w, okW := rec.Width.get(q)
		if okL || okW {
			lv, ok1 := dim(l)
			wv, ok2 := dim(w)
			if ok1 && ok2 {
				s.setLengthWidth(lv, wv)
			} else {
				q.add(rBadField)
			}
		}
	}
	if x, ok := rec.Draught.get(q); ok && x > 0 {
		s.setDraught(x / 10)
		q.add(rDraughtDecimetres)
	}
	if eta := rec.ETA.bytes(q); len(eta) > 0 {
		mo, ok1 := num(eta, 0, 2)
		d, ok2 := num(eta, 2, 2)
		hh, ok3 := num(eta, 4, 2)
		mi, ok4 := num(eta, 6, 2)
		if len(eta) != 8 || !(ok1 && ok2 && ok3 && ok4) {
			q.add(rBadField)
		} else {
			s.setETAParts(ts, mo, d, hh, mi, q)
		}
	}
}
