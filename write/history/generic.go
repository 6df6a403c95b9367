package history

import (
	"bytes"
	"fmt"
)

// CSV: any other delimited file (comma, semicolon or tab) whose header
// names an MMSI, a time, a latitude and a longitude by one of their usual
// names (Stone Soup's Time,MMSI,Latitude_degrees,...; the Norwegian
// mmsi;imo_nr;length;date_time_utc;lon;lat;...; BarentsWatch API dumps).

// The columns a generic CSV parser reads, indexes into csvNames.
const (
	gMMSI = iota
	gTime
	gLat
	gLon
	gSOG
	gCOG
	gHeading
	gNav
	gIMO
	gName
	gCall
	gType
	gLength
	gWidth
	gDraught
	gDest
	gClass
	gCols
)

// csvNames gives the synonyms of each column, normalised as headerNames
// does.
var csvNames = [][]string{
	gMMSI:    {"mmsi", "userid", "ssvid"},
	gTime:    {"time", "timestamp", "datetimeutc", "datetime", "msgtime", "timeutc", "basedatetime"},
	gLat:     {"lat", "latitude", "latitudedegrees"},
	gLon:     {"lon", "long", "lng", "longitude", "longitudedegrees"},
	gSOG:     {"sog", "sogknots", "speedoverground", "speed"},
	gCOG:     {"cog", "cogdegrees", "courseoverground", "course"},
	gHeading: {"heading", "trueheading", "headingdegrees"},
	gNav:     {"navstatus", "navigationalstatus", "status"},
	gIMO:     {"imo", "imonr", "imonumber"},
	gName:    {"name", "shipname", "vesselname"},
	gCall:    {"callsign"},
	gType:    {"shiptype", "vesseltype", "shipandcargotype"},
	gLength:  {"length", "shiplength"},
	gWidth:   {"width", "beam", "shipwidth"},
	gDraught: {"draught", "draft"},
	gDest:    {"destination"},
	gClass:   {"class", "aisclass", "transceiverclass", "reportclass"},
}

// csvSeps are the delimiters a generic CSV may use.
var csvSeps = []byte{',', ';', '\t'}

// genericSep returns the delimiter of a header that names the columns a
// generic CSV needs, or 0.
func genericSep(header []byte) byte {
	for _, sep := range csvSeps {
		if bytes.IndexByte(header, sep) < 0 {
			continue
		}
		idx, _, err := columns(header, sep, csvNames)
		if err == nil && idx[gMMSI] >= 0 && idx[gTime] >= 0 && idx[gLat] >= 0 && idx[gLon] >= 0 {
			return sep
		}
	}
	return 0
}

// generic reads the rows of one delimited file.
type generic struct {
	sep  byte
	col  [gCols]int
	ncol int
	csvRow
}

func newGeneric(header []byte) (*generic, error) {
	sep := genericSep(header)
	if sep == 0 {
		return nil, fmt.Errorf("CSV header lacks an MMSI, a time, a latitude or a longitude column")
	}
	idx, n, err := columns(header, sep, csvNames)
	if err != nil {
		return nil, err
	}
	p := &generic{sep: sep, ncol: n}
	copy(p.col[:], idx)
	return p, nil
}

// null reports the words dumps write for "no value".
func null(b []byte) bool {
	switch string(b) {
	case "None", "none", "null", "NULL", "NaN", "nan", "NA", "N/A":
		return true
	}
	return false
}

// get returns a column, empty for a null word.
func (p *generic) get(i int, q *quirks) []byte {
	f := p.field(i, q)
	if null(f) {
		return nil
	}
	return f
}

// numG reads a number column; null words are absent.
func (p *generic) numG(i int, q *quirks) (float64, bool) {
	f := p.get(i, q)
	if len(f) == 0 {
		return 0, false
	}
	v, ok := parseFloat(f)
	if !ok {
		q.add(rBadField)
	}
	return v, ok
}

// genericTime reads ISO 8601, DMA's day-first form or unix seconds.
func genericTime(b []byte) (int64, bool) {
	if t, ok := parseISO(b); ok {
		return t, true
	}
	if t, ok := parseDMY(b); ok {
		return t, true
	}
	if v, ok := parseUint(b); ok && len(b) == 10 {
		t := int64(v)
		return t, t >= 631152000 && t < 4102444800 // 1990 to 2099
	}
	return 0, false
}

// row reads one row like a MarineCadastre row: a position report and,
// when the vessel's static data changed, a static report before it
// (class A unless a class column says B).
func (p *generic) row(r *Reader, line []byte) rid {
	if !p.split(line, p.sep) || p.n != p.ncol {
		return rBadRow
	}
	q := &r.q
	mmsi, ok := parseUint(p.get(p.col[gMMSI], q))
	if !ok || !validMMSI(mmsi) {
		return rInvalidMMSI
	}
	v := r.vessel(uint32(mmsi))
	h := hashBytes(line)
	if v.line == h {
		return rDuplicate
	}
	v.line = h
	ts, ok := genericTime(p.get(p.col[gTime], q))
	if !ok {
		return rBadTime
	}
	classB := false
	if c := p.get(p.col[gClass], q); len(c) == 1 && (c[0] == 'B' || c[0] == 'b') {
		classB = true
		q.add(rClassB)
	}

	var pos position
	lat, okLat := p.numG(p.col[gLat], q)
	lon, okLon := p.numG(p.col[gLon], q)
	if okLat && okLon {
		pos.setLatLon(lat, lon)
	}
	if x, ok := p.numG(p.col[gSOG], q); ok {
		pos.setSOG(x, q)
	}
	if x, ok := p.numG(p.col[gCOG], q); ok {
		pos.setCOG(x, q)
	}
	if x, ok := p.numG(p.col[gHeading], q); ok {
		pos.setHeading(x, q)
	}
	if x, ok := p.numG(p.col[gNav], q); ok {
		pos.setNav(x)
	}

	var s static
	s.setName(p.get(p.col[gName], q))
	s.setCall(p.get(p.col[gCall], q))
	s.setDest(p.get(p.col[gDest], q))
	s.setIMOText(p.get(p.col[gIMO], q), q)
	if x, ok := p.numG(p.col[gType], q); ok {
		s.setShipType(x)
	}
	length, okL := p.numG(p.col[gLength], q)
	width, okW := p.numG(p.col[gWidth], q)
	if okL || okW {
		l, ok1 := dim(length)
		w, ok2 := dim(width)
		if !ok1 || !ok2 {
			q.add(rBadField)
		} else {
			s.setLengthWidth(l, w)
		}
	}
	if x, ok := p.numG(p.col[gDraught], q); ok {
		s.setDraught(x)
	}
	posType, statType := reportTypes(classB)
	return r.combined(v, uint32(mmsi), ts, posType, statType, &pos, &s)
}
