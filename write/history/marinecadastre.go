package history

import (
	"fmt"
	"strings"
)

// MarineCadastre: NOAA/BOEM's daily CSV,
// MMSI,BaseDateTime,LAT,LON,SOG,COG,Heading,VesselName,IMO,CallSign,VesselType,Status,Length,Width,Draft,Cargo[,TransceiverClass]
// matched by column name.

// The columns a MarineCadastre parser reads, indexes into mcNames.
const (
	mcMMSI = iota
	mcTime
	mcLat
	mcLon
	mcSOG
	mcCOG
	mcHeading
	mcName
	mcIMO
	mcCall
	mcType
	mcStatus
	mcLength
	mcWidth
	mcDraft
	mcClass
	mcCols
)

// mcNames gives the synonyms of each column, normalised as headerNames
// does (the 2025 snake_case headers included).
var mcNames = [][]string{
	mcMMSI:    {"mmsi"},
	mcTime:    {"basedatetime"},
	mcLat:     {"lat", "latitude"},
	mcLon:     {"lon", "longitude"},
	mcSOG:     {"sog"},
	mcCOG:     {"cog"},
	mcHeading: {"heading"},
	mcName:    {"vesselname"},
	mcIMO:     {"imo"},
	mcCall:    {"callsign"},
	mcType:    {"vesseltype"},
	mcStatus:  {"status"},
	mcLength:  {"length"},
	mcWidth:   {"width"},
	mcDraft:   {"draft"},
	mcClass:   {"transceiverclass", "transceiver"},
}

// marineCadastre reads the rows of one CSV (one header).
type marineCadastre struct {
	col  [mcCols]int
	ncol int
	csvRow
}

func newMarineCadastre(header []byte) (*marineCadastre, error) {
	idx, n, err := columns(header, ',', mcNames)
	if err != nil {
		return nil, err
	}
	p := &marineCadastre{ncol: n}
	copy(p.col[:], idx)
	var missing []string
	for _, c := range []int{mcMMSI, mcTime, mcLat, mcLon} {
		if p.col[c] < 0 {
			missing = append(missing, mcNames[c][0])
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("MarineCadastre header lacks %s", strings.Join(missing, ", "))
	}
	return p, nil
}

// row reads one row: a position report (type 1 for class A, 18 for class
// B; class A when the file has no TransceiverClass) preceded by a static
// report (type 5 or 24) when the vessel's static data changed.
func (p *marineCadastre) row(r *Reader, line []byte) rid {
	if !p.split(line, ',') || p.n != p.ncol {
		return rBadRow
	}
	q := &r.q
	mmsi, ok := parseUint(p.field(p.col[mcMMSI], q))
	if !ok || !validMMSI(mmsi) {
		return rInvalidMMSI
	}
	v := r.vessel(uint32(mmsi))
	h := hashBytes(line)
	if v.line == h {
		return rDuplicate
	}
	v.line = h
	ts, ok := parseISO(p.field(p.col[mcTime], q))
	if !ok {
		return rBadTime
	}
	classB := false
	if c := p.field(p.col[mcClass], q); len(c) == 1 && (c[0] == 'B' || c[0] == 'b') {
		classB = true
		q.add(rClassB)
	}

	var pos position
	lat, okLat := p.num(p.col[mcLat], q)
	lon, okLon := p.num(p.col[mcLon], q)
	if okLat && okLon {
		pos.setLatLon(lat, lon)
	}
	if x, ok := p.num(p.col[mcSOG], q); ok {
		pos.setSOG(x, q)
	}
	if x, ok := p.num(p.col[mcCOG], q); ok {
		pos.setCOG(x, q)
	}
	if x, ok := p.num(p.col[mcHeading], q); ok {
		pos.setHeading(x, q)
	}
	if x, ok := p.num(p.col[mcStatus], q); ok {
		pos.setNav(x)
	}

	var s static
	s.setName(p.field(p.col[mcName], q))
	s.setIMOText(p.field(p.col[mcIMO], q), q)
	s.setCall(p.field(p.col[mcCall], q))
	if x, ok := p.num(p.col[mcType], q); ok {
		s.setShipType(x)
	}
	length, okL := p.num(p.col[mcLength], q)
	width, okW := p.num(p.col[mcWidth], q)
	if okL || okW {
		l, ok1 := dim(length)
		w, ok2 := dim(width)
		if !ok1 || !ok2 {
			q.add(rBadField)
		} else {
			s.setLengthWidth(l, w)
		}
	}
	if x, ok := p.num(p.col[mcDraft], q); ok {
		s.setDraught(x)
	}
	posType, statType := reportTypes(classB)
	return r.combined(v, uint32(mmsi), ts, posType, statType, &pos, &s)
}
