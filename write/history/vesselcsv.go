package history

// vesselCSV reads the rows of a delimited file whose every row is a
// vessel's position with its static data (MarineCadastre, generic CSV):
// columns found by name in the header (col, indexes by the g* roles of
// csvNames; -1 for a column the file lacks), the format's time parser, and
// whether the words dumps write for "no value" are empty values.
type vesselCSV struct {
	sep   byte
	col   [gCols]int
	ncol  int
	nulls bool
	time  func([]byte) (int64, bool)
	csvRow
}

// null reports the words dumps write for "no value".
func null(b []byte) bool {
	switch string(b) {
	case "None", "none", "null", "NULL", "NaN", "nan", "NA", "N/A":
		return true
	}
	return false
}

// get returns the column of role c, empty for a null word where the
// format has them.
func (p *vesselCSV) get(c int, q *quirks) []byte {
	f := p.field(p.col[c], q)
	if p.nulls && null(f) {
		return nil
	}
	return f
}

// number reads the column of role c as a number: ok false when it is
// empty; an unreadable value is left out and counted as bad_field.
func (p *vesselCSV) number(c int, q *quirks) (float64, bool) {
	f := p.get(c, q)
	if len(f) == 0 {
		return 0, false
	}
	v, ok := parseFloat(f)
	if !ok {
		q.add(rBadField)
	}
	return v, ok
}

// row reads one row: a position report (type 1 for class A, 18 for class
// B; class A unless a class column says B) preceded by a static report
// (type 5 or 24) when the vessel's static data changed.
func (p *vesselCSV) row(r *Reader, line []byte) rid {
	if !p.split(line, p.sep) || p.n != p.ncol {
		return rBadRow
	}
	q := &r.q
	mmsi, ok := parseUint(p.get(gMMSI, q))
	if !ok || !validMMSI(mmsi) {
		return rInvalidMMSI
	}
	v := r.vessel(uint32(mmsi))
	h := hashBytes(line)
	if v.line == h {
		return rDuplicate
	}
	v.line = h
	ts, ok := p.time(p.get(gTime, q))
	if !ok {
		return rBadTime
	}
	classB := false
	if c := p.get(gClass, q); len(c) == 1 && (c[0] == 'B' || c[0] == 'b') {
		classB = true
		q.add(rClassB)
	}

	var pos position
	lat, okLat := p.number(gLat, q)
	lon, okLon := p.number(gLon, q)
	if okLat && okLon {
		pos.setLatLon(lat, lon)
	}
	if x, ok := p.number(gSOG, q); ok {
		pos.setSOG(x, q)
	}
	if x, ok := p.number(gCOG, q); ok {
		pos.setCOG(x, q)
	}
	if x, ok := p.number(gHeading, q); ok {
		pos.setHeading(x, q)
	}
	if x, ok := p.number(gNav, q); ok {
		pos.setNav(x)
	}

	var s static
	s.setName(p.get(gName, q))
	s.setCall(p.get(gCall, q))
	s.setDest(p.get(gDest, q))
	s.setIMOText(p.get(gIMO, q), q)
	if x, ok := p.number(gType, q); ok {
		s.setShipType(x)
	}
	length, okL := p.number(gLength, q)
	width, okW := p.number(gWidth, q)
	if okL || okW {
		l, ok1 := dim(length)
		w, ok2 := dim(width)
		if !ok1 || !ok2 {
			q.add(rBadField)
		} else {
			s.setLengthWidth(l, w)
		}
	}
	if x, ok := p.number(gDraught, q); ok {
		s.setDraught(x)
	}
	posType, statType := reportTypes(classB)
	return r.combined(v, uint32(mmsi), ts, posType, statType, &pos, &s)
}
